#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh [--cached] [FLAVOUR] - build a debug kernel that the debug
# tiers boot
#
# Unpacks Debian's linux-source-6.1, configures it from `make tinyconfig`
# plus tests/debug.config, and builds bzImage and modules_prepare plus
# Module.symvers (so that `make modules KDIR=...` works).
#
# FLAVOUR is kasan (the default; `make check-debug`: KASAN, lockdep,
# kmemleak, failslab), kcsan (`make check-kcsan`): tests/kcsan.config on
# top of tests/debug.config, or bpf (`make check-debug-bpf`):
# tests/debug-bpf.config on top of it (BPF, DWARF and BTF). KASAN and KCSAN
# exclude each other, so KCSAN is a second kernel, cached like the first;
# the BPF one is a third, so that its slower build (DWARF, BTF) is paid
# only by those who run it, never by CI's debug kernel.
#
# The build lives in the cache outside the clone, so that a fresh clone (CI)
# finds it: $SEQRING_CACHE/debug-kernel/HASH/ (SEQRING_CACHE defaults to
# /var/cache/seqring), where HASH is a hash of the config fragment, the
# linux-source-6.1 package version and the recipe below. A changed input is
# a new directory, built from scratch; an entry is used only once its
# .seqring-complete file exists. An interrupted build is resumed
# (incrementally) by the next run. Builds of the same entry from several
# clones at once wait for each other (flock on HASH.lock). Old entries are
# not removed: `rm -rf $SEQRING_CACHE/debug-kernel` clears them.
#
# Output: progress and compiler warnings on stderr (and in
# build/debug-kernel.log); on stdout, only two shell assignments with
# absolute paths, so that a caller can `eval "$(tests/debug/build-kernel.sh)"`:
#   KDIR=$SEQRING_CACHE/debug-kernel/HASH
#   KERNEL=$SEQRING_CACHE/debug-kernel/HASH/arch/x86/boot/bzImage
#
# --cached: build nothing and install nothing; print the two assignments
# and exit 0 if the entry is complete, else say why on stderr and exit 1
# (make bench asks this way: it uses the kernel only when it is there).
#
# Environment: JOBS (default: nproc) parallel make jobs; SEQRING_CACHE.
# Needs root only when packages are missing (installed with apt-get).

set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cached_only=0
if [ "${1:-}" = --cached ]; then
	cached_only=1
	shift
fi
flavour=${1:-kasan}
case $flavour in
kasan) fragments=("$root/tests/debug.config") target=debug-kernel ;;
kcsan) fragments=("$root/tests/debug.config" "$root/tests/kcsan.config") target=kcsan-kernel ;;
bpf) fragments=("$root/tests/debug.config" "$root/tests/debug-bpf.config") target=debug-bpf-kernel ;;
*)
	echo "usage: $0 [--cached] [kasan|kcsan|bpf]" >&2
	exit 2
	;;
esac
cache=${SEQRING_CACHE:-/var/cache/seqring}/debug-kernel
tarball=/usr/src/linux-source-6.1.tar.xz
log=$root/build/debug-kernel.log
jobs=${JOBS:-$(nproc)}
# Bump when the steps below change in a way that needs a rebuild.
recipe=3

say() {
	echo "build-kernel: $*" >&2
}

die() {
	say "$*"
	exit 1
}

# --- packages ----------------------------------------------------------------
# The hash below needs the source package's version: without the package
# there is no cached build to find.
if [ "$cached_only" = 1 ] && ! dpkg-query -W linux-source-6.1 >/dev/null 2>&1; then
	say "not built: linux-source-6.1 is not installed (make debug-kernel)"
	exit 1
fi
# deps.sh prints its progress; keep stdout for the two assignments. BTF
# (the bpf flavour) is made by pahole, of dwarves.
extra=()
[ "$flavour" != bpf ] || extra=(dwarves)
[ "$cached_only" = 1 ] || "$root/tests/vm/deps.sh" linux-source-6.1 bc flex bison libelf-dev libssl-dev \
	tar perl "${extra[@]}" >&2 || die "cannot install the packages a kernel build needs"
[ "$cached_only" = 1 ] || [ -f "$tarball" ] ||
	die "linux-source-6.1 is installed but $tarball is missing"

# The fragments merged into one, a later line for an option replacing an
# earlier one: what merge_config.sh applies and what .config must show.
mkdir -p "$root/build"
fragment=$root/build/debug-$flavour.config
awk '
	/^CONFIG_[A-Za-z0-9_]*=/ { sym = $0; sub(/=.*/, "", sym) }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { sym = $2 }
	/^(CONFIG_|# CONFIG_.* is not set$)/ {
		if (!(sym in line))
			order[n++] = sym
		line[sym] = $0
	}
	END { for (i = 0; i < n; i++) print line[order[i]] }
' "${fragments[@]}" >"$fragment"

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hash=$({
	echo "recipe $recipe"
	echo "linux-source-6.1 $srcver"
	cat "$fragment"
} | sha256sum | cut -d' ' -f1 | head -c 16)
kdir=$cache/$hash
kmake=(make -C "$kdir" ARCH=x86_64 -j"$jobs")

result() {
	echo "KDIR=$kdir"
	echo "KERNEL=$kdir/arch/x86/boot/bzImage"
}

complete() {
	[ -f "$kdir/.seqring-complete" ] && [ -f "$kdir/arch/x86/boot/bzImage" ] &&
		[ -s "$kdir/Module.symvers" ]
}

if complete; then
	say "up to date: $kdir/arch/x86/boot/bzImage"
	result
	exit 0
fi
if [ "$cached_only" = 1 ]; then
	if [ -d "$kdir" ]; then
		say "not built yet: $kdir is incomplete (being built, or interrupted: make $target)"
	else
		say "not built: no $kdir (make $target)"
	fi
	exit 1
fi

# One build of an entry at a time; whoever waited finds it complete.
mkdir -p "$cache"
exec 8>"$kdir.lock"
if ! flock -n 8; then
	say "waiting for another build of $kdir"
	flock 8
	if complete; then
		say "up to date: $kdir/arch/x86/boot/bzImage"
		result
		exit 0
	fi
fi

mkdir -p "$root/build"
: >"$log"
start=$(date +%s)

# --- source ------------------------------------------------------------------
# .seqring-source-version is written only after a complete unpack, so an
# interrupted unpack is redone.
if [ "$(cat "$kdir/.seqring-source-version" 2>/dev/null)" != "$srcver" ]; then
	say "unpacking linux-source-6.1 $srcver into $kdir"
	rm -rf "$kdir"
	mkdir -p "$kdir"
	tar -xf "$tarball" -C "$kdir" --strip-components=1
	echo "$srcver" >"$kdir/.seqring-source-version"
fi

# --- configuration -----------------------------------------------------------
say "configuring ($flavour): tinyconfig + ${fragments[*]#"$root"/}"
"${kmake[@]}" -s tinyconfig >>"$log" 2>&1 || die "make tinyconfig failed (see $log)"
# -m: merge only; olddefconfig then resolves dependencies, giving newly
# visible options their defaults.
(cd "$kdir" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m .config "$fragment") \
	>>"$log" 2>&1 || die "merge_config.sh failed (see $log)"
"${kmake[@]}" -s olddefconfig >>"$log" 2>&1 || die "make olddefconfig failed (see $log)"

# Every line of the fragment must have survived: Kconfig drops what it
# cannot satisfy without a word.
dropped=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		want=$line
		;;
	"# CONFIG_"*" is not set")
		sym=${line#"# "}
		sym=${sym%% *}
		want=$line
		;;
	*) continue ;;
	esac
	have=$(grep -E "^($sym=|# $sym is not set)" "$kdir/.config" || true)
	# An option that is off may also be absent altogether (invisible).
	if [ "$have" != "$want" ] &&
	   ! { [ -z "$have" ] && [ "${want#\# }" != "$want" ]; }; then
		say "fragment line '$want' is not in .config (have: '${have:-nothing}')"
		dropped=$((dropped + 1))
	fi
done <"$fragment"
[ "$dropped" -eq 0 ] || die "$dropped line(s) of ${fragment#"$root"/} were dropped by Kconfig; fix their dependencies"

# --- build -------------------------------------------------------------------
say "building bzImage and modules_prepare with $jobs jobs (log: $log)"
"${kmake[@]}" -s bzImage 2>&1 | tee -a "$log" >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || die "kernel build failed (see $log)"
"${kmake[@]}" -s modules_prepare 2>&1 | tee -a "$log" >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || die "make modules_prepare failed (see $log)"
# Module.symvers, which out-of-tree modules need to resolve the kernel's
# symbols, is written by `make modules` (quick: tinyconfig has no =m).
"${kmake[@]}" -s modules 2>&1 | tee -a "$log" >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || die "make modules failed (see $log)"
[ -s "$kdir/Module.symvers" ] || die "make modules wrote no Module.symvers"

date -u +%FT%TZ >"$kdir/.seqring-complete"
say "built $(cat "$kdir/include/config/kernel.release") in $(($(date +%s) - start))s:" \
    "$kdir/arch/x86/boot/bzImage"
result
