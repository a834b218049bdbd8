#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# resolve-btfids.sh SERIES - the path of a resolve_btfids for Linux SERIES
# (6.1, ...), built from Debian's linux-source-SERIES if need be
#
# A module's kfunc IDs are written into it by resolve_btfids at build time
# (module-btf.sh). Debian's linux-kbuild-6.1 does not ship the tool, so the
# tests build it from the kernel source tarball Debian's linux-source-SERIES
# installs (/usr/src/linux-source-SERIES.tar.xz; tools/bpf/resolve_btfids
# with the libbpf and libsubcmd of the same tree; libelf-dev and zlib1g-dev
# on the host), about 30 s, and keep it in
#   $SEQRING_CACHE/resolve_btfids/SERIES-SIZE-MTIME/resolve_btfids
# (a new tarball makes a new entry). Never in the tree, never installed.
# Prints the path; exit status 1 (and why on stderr) when it cannot.

set -eu

[ $# -eq 1 ] || { echo "usage: $0 SERIES" >&2; exit 2; }
series=$1
tarball=/usr/src/linux-source-$series.tar.xz
[ -r "$tarball" ] || { echo "resolve-btfids: no $tarball (apt-get install linux-source-$series)" >&2; exit 1; }
cache=${SEQRING_CACHE:-/var/cache/seqring}/resolve_btfids
key=$series-$(stat -c '%s-%Y' "$tarball")
out=$cache/$key/resolve_btfids
if [ -x "$out" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$cache"
exec 8>"$cache/$key.lock"
flock 8
if [ ! -x "$out" ]; then
	work=$(mktemp -d "$cache/.build-XXXXXX")
	trap 'rm -rf "$work"' EXIT
	echo "resolve-btfids: building it from $tarball" >&2
	tar -C "$work" -xJf "$tarball" "linux-source-$series/tools" \
		"linux-source-$series/include" "linux-source-$series/scripts" \
		"linux-source-$series/Makefile" "linux-source-$series/arch/x86/include/uapi" \
		"linux-source-$series/arch/arm64/include/uapi" >&2
	make -C "$work/linux-source-$series/tools/bpf/resolve_btfids" -j2 \
		>"$work/build.log" 2>&1 || {
		tail -n 20 "$work/build.log" >&2
		echo "resolve-btfids: build failed" >&2
		exit 1
	}
	mkdir -p "${out%/*}"
	cp "$work/linux-source-$series/tools/bpf/resolve_btfids/resolve_btfids" "$out.tmp"
	mv "$out.tmp" "$out"
fi
echo "$out"
