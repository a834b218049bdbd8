#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module-btf.sh KDIR KVER MODULE.ko - give a built module its BTF, where
# kbuild could not
#
# BPF programs call seqring's kfuncs through the module's BTF (.BTF, split
# over the kernel's) and the IDs resolve_btfids writes into its .BTF_ids.
# Kbuild makes both itself when the kernel's headers ship a vmlinux and
# resolve_btfids (Debian's 6.12 and later) and pahole is installed
# (package dwarves). Debian's 6.1 headers ship neither: kbuild says
# "Skipping BTF generation", and this script does what kbuild would have
# done, with
#   the base BTF: BTF_BASE, else KDIR/vmlinux, else the BTF of the kernel
#       image /boot/vmlinuz-KVER (or KERNEL_IMAGE), cut out of it here
#       (any compression the image has; ELF or arm64's raw Image);
#   resolve_btfids: RESOLVE_BTFIDS, else KDIR/tools/bpf/resolve_btfids/;
#       Debian's linux-kbuild-6.1 has none (tests/vm/resolve-btfids.sh
#       builds one from linux-source-6.1 for the tests);
#   pahole: PAHOLE, else pahole on PATH, with the flags of the kernel's
#       scripts/pahole-flags.sh; it adds the section with OBJCOPY (a
#       cross build's, e.g. aarch64-linux-gnu-objcopy), else objcopy.
# A module that has .BTF already is left alone. Whatever is missing, the
# module stays as it is (it loads and says that BPF programs cannot push)
# and one line says what was missing; the exit status is 0 but for a tool
# that failed. make (modules) and DKMS (dkms.conf) run it.

set -u

[ $# -eq 3 ] || { echo "usage: $0 KDIR KVER MODULE.ko" >&2; exit 2; }
kdir=$1
kver=$2
ko=$3
name=${ko##*/}

skip() {
	echo "seqring: no BTF for $name (Linux $kver): $*;" \
	     "BPF programs will not push into rings" >&2
	exit 0
}

[ -f "$ko" ] || { echo "module-btf: no $ko" >&2; exit 1; }
readelf -S -W "$ko" 2>/dev/null | grep -q ' \.BTF ' && exit 0
grep -qs '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config" ||
	skip "the kernel has no CONFIG_DEBUG_INFO_BTF_MODULES"

pahole=${PAHOLE:-$(command -v pahole)} ||
	skip "no pahole (apt-get install dwarves)"
resolve=${RESOLVE_BTFIDS:-$kdir/tools/bpf/resolve_btfids/resolve_btfids}
[ -x "$resolve" ] ||
	skip "no resolve_btfids in the kernel's kbuild ($resolve)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# btf_of FILE OUT: the kernel's BTF (raw, as /sys/kernel/btf/vmlinux has
# it) out of an image FILE, decompressed first if need be: the first raw
# BTF header (magic 0xeb9f, version 1, 24 bytes long) and the types and
# strings it counts.
btf_of() {
	local f=$1 out=$2 off hdr
	off=$(LC_ALL=C grep -obUaP -m1 '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$f" |
		head -n 1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	# type_off, type_len, str_off, str_len: four u32 after magic..hdr_len.
	hdr=$(od -An -t u4 -j $((off + 8)) -N 16 "$f") || return 1
	set -- $hdr
	tail -c +$((off + 1)) "$f" | head -c $((24 + $3 + $4)) >"$out"
}

# unpack IMAGE OUT: the decompressed kernel, from the first offset where
# one of the compressors finds a stream (the image is a boot stub and a
# compressed kernel, or a compressed file whole).
unpack() {
	local img=$1 out=$2 magic tool off
	for magic in 'fd377a585a00:xz -dc' '1f8b08:gzip -dc' '28b52ffd:zstd -dcq' \
		     '02214c18:lz4 -dc' '5d000000:xz -dc --format=lzma' '425a68:bzip2 -dc'; do
		tool=${magic#*:}
		command -v "${tool%% *}" >/dev/null || continue
		for off in $(LC_ALL=C grep -obUaP "$(echo "${magic%%:*}" |
			sed 's/../\\x&/g')" "$img" | cut -d: -f1 | head -n 4); do
			tail -c +$((off + 1)) "$img" | $tool >"$out" 2>/dev/null
			[ -s "$out" ] && btf_of "$out" "$tmp/base" && return 0
		done
	done
	return 1
}

base=${BTF_BASE:-}
if [ -z "$base" ] && [ -f "$kdir/vmlinux" ]; then
	base=$kdir/vmlinux
fi
if [ -z "$base" ]; then
	img=${KERNEL_IMAGE:-/boot/vmlinuz-$kver}
	[ -r "$img" ] || skip "no vmlinux in its headers and no $img to take the kernel's BTF from"
	btf_of "$img" "$tmp/base" || unpack "$img" "$tmp/kernel" ||
		skip "no BTF found in $img"
	base=$tmp/base
fi

flags=
if [ -x "$kdir/scripts/pahole-flags.sh" ]; then
	flags=$(PAHOLE=$pahole "$kdir/scripts/pahole-flags.sh")
fi
echo "  BTF [M] $ko (base: ${BTF_BASE:-${base/#$tmp\/base/the BTF of ${img:-}}})"
# shellcheck disable=SC2086 # the flags are words
LLVM_OBJCOPY=${OBJCOPY:-objcopy} "$pahole" -J $flags --btf_base "$base" "$ko" ||
	{ echo "module-btf: pahole failed on $ko" >&2; exit 1; }
"$resolve" -b "$base" "$ko" ||
	{ echo "module-btf: resolve_btfids failed on $ko" >&2; exit 1; }
