#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prune-cache.sh [--dry-run] - remove what the current tree no longer uses
# from the harness's cache (make prune-cache)
#
# $SEQRING_CACHE (default /var/cache/seqring) only grows otherwise: each
# new kernel version of sid, each change of a root's packages adds an
# image or a root (several GB after a few weeks). An entry goes when one
# of these holds, and never while it was used in the last PRUNE_GRACE
# minutes (default 1440: a run of another tree or branch that still uses
# it is safe):
#   kernels/KVER_VERSION/   its flavour (rt-amd64, arm64, ...) is in
#                           neither tests/kernels/kernels.list nor a
#                           booted line of tests/arch/arches.list; or a
#                           newer version of the same flavour and series
#                           (6.1, 7.2, ...) is cached; or unused for
#                           PRUNE_DAYS days (default 14)
#   roots/NAME.tar.zst      its suite is in no list (bookworm,
#                           bookworm-backports and sid always are: make
#                           check-fresh, check-packages, check-litmus),
#                           or it is of an architecture arches.list does
#                           not name; or unused for PRUNE_DAYS days
#   apt/SUITE[-ARCH]/       the package lists of such a suite or
#                           architecture
#   leftovers               roots/.build-*, kernels/.dl-*, *.tmp of runs
#                           that were killed, and roots' .lock files
#                           without a root (none held)
# "Used" is the entry's modification time: tests/roots/mkroot.sh touches
# a root when it unpacks it, check-kernels and check-arch an image's
# directory when they boot it. The debug kernels (debug-kernel/) are
# tests/debug/build-kernel.sh's and are left alone.
#
# Prints one line per entry removed (or, with --dry-run, that would be)
# and the space freed. Exit status 0 unless a removal failed.
# Environment: SEQRING_CACHE, PRUNE_DAYS, PRUNE_GRACE, and for the tests
# KERNELS_LIST and ARCHES_LIST (default: this tree's lists).

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${SEQRING_CACHE:-/var/cache/seqring}
days=${PRUNE_DAYS:-14}
grace=${PRUNE_GRACE:-1440}
klist=${KERNELS_LIST:-$repo/tests/kernels/kernels.list}
alist=${ARCHES_LIST:-$repo/tests/arch/arches.list}
dry=0
[ "${1:-}" != --dry-run ] && [ "${1:-}" != -n ] || dry=1
[ -d "$cache" ] || exit 0

# What the lists use: suites, foreign architectures, image flavours.
suites=" bookworm bookworm-backports sid "
arches=" amd64 "
flavours=" "
while read -r _ s f _ <&3; do
	suites+="$s " flavours+="$f "
done 3< <(grep -v '^[[:space:]]*\(#\|$\)' "$klist")
while read -r _ s a f w _ <&3; do
	suites+="$s " arches+="$a "
	case $w in boot | packages) flavours+="$f " ;; esac
done 3< <(grep -v '^[[:space:]]*\(#\|$\)' "$alist")
listed() {
	case $2 in *" $1 "*) return 0 ;; esac
	return 1
}

# suite_arch NAME: the suite and architecture (empty: amd64) of a cache
# entry's NAME, SUITE[-ARCH], in s and a.
suite_arch() {
	s=$1 a=
	case $1 in
	*-amd64 | *-arm64 | *-armhf | *-i386 | *-ppc64el | *-riscv64 | *-s390x)
		s=${1%-*} a=${1##*-} ;;
	esac
}

now=$(date +%s)
freed=0 status=0

# age PATH: whole days since PATH was last modified (used).
age() {
	echo $(((now - $(stat -c %Y "$1")) / 86400))
}
# fresh PATH: used in the last PRUNE_GRACE minutes.
fresh() {
	[ $((now - $(stat -c %Y "$1"))) -lt $((grace * 60)) ]
}

# drop PATH WHY: remove PATH (a root's unpacked tree through rmroot.sh,
# which will not go below a mount point).
drop() {
	local kb
	fresh "$1" && return 0
	kb=$(du -sk "$1" 2>/dev/null | cut -f1)
	echo "prune: ${1#"$cache"/} ($((${kb:-0} / 1024)) MB): $2"
	[ "$dry" = 0 ] || return 0
	if [ -d "$1" ] && [ -e "$1/bin/sh" ]; then
		"$repo/tests/roots/rmroot.sh" "$1" || { status=1; return; }
	else
		rm -rf --one-file-system "$1" || { status=1; return; }
	fi
	freed=$((freed + ${kb:-0}))
}

# The flavour and series of a kernel release: 6.1.0-57-rt-amd64 is
# rt-amd64 of 6.1; 7.2.13+deb14-arm64 is arm64 of 7.2.
flavour() {
	sed -E 's/^[0-9]+\.[0-9]+(\.[0-9]+)?(-[0-9]+|\+deb[0-9]+)-//' <<<"$1"
}
series() {
	sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$1"
}

# --- kernel images -------------------------------------------------------------
declare -A newest
for d in "$cache"/kernels/*_*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	e=${d##*/} k=${e%%_*} v=${e#*_}
	key="$(flavour "$k") $(series "$k")"
	n=${newest[$key]:-}
	if [ -z "$n" ] || dpkg --compare-versions "$v" gt "${n#*_}"; then
		newest[$key]=$e
	fi
done
for d in "$cache"/kernels/*_*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	e=${d##*/} k=${e%%_*}
	f=$(flavour "$k")
	if ! listed "$f" "$flavours"; then
		drop "$d" "flavour $f is in no list"
	elif [ "${newest["$f $(series "$k")"]}" != "$e" ]; then
		drop "$d" "superseded by ${newest["$f $(series "$k")"]}"
	elif [ "$(age "$d")" -ge "$days" ]; then
		drop "$d" "unused for $(age "$d") days"
	fi
done

# --- roots ---------------------------------------------------------------------------
for t in "$cache"/roots/*.tar.zst; do
	[ -f "$t" ] || continue
	n=${t##*/}
	n=${n%.tar.zst}
	suite_arch "${n%-*}" # less the hash
	if ! listed "$s" "$suites"; then
		drop "$t" "suite $s is in no list"
	elif [ -n "$a" ] && ! listed "$a" "$arches"; then
		drop "$t" "architecture $a is not in arches.list"
	elif [ "$(age "$t")" -ge "$days" ]; then
		drop "$t" "unused for $(age "$t") days"
	fi
done
for l in "$cache"/roots/*.tar.zst.lock; do
	[ -f "$l" ] && [ ! -e "${l%.lock}" ] || continue
	# Held: a root is being built.
	flock -n "$l" true 2>/dev/null || continue
	drop "$l" "a lock without a root"
done
# A root being built holds its lock; its scratch directory's name does
# not say which lock, so none is taken while any is held.
building=
for l in "$cache"/roots/*.lock; do
	[ -f "$l" ] && ! flock -n "$l" true 2>/dev/null && building=$l
done
for x in "$cache"/roots/.build-* "$cache"/kernels/.dl-* "$cache"/roots/*.tmp; do
	[ -e "$x" ] || continue
	case $x in
	*/roots/*) [ -z "$building" ] || continue ;;
	esac
	drop "$x" "left by a run that did not finish"
done

# --- package lists ------------------------------------------------------------------
# (archives/, the packages check-packages' root downloaded, stays: apt
# picks versions there by its policy, not the newest.)
for d in "$cache"/apt/*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	suite_arch "${d##*/}"
	if ! listed "$s" "$suites"; then
		drop "$d" "suite $s is in no list"
	elif [ -n "$a" ] && ! listed "$a" "$arches"; then
		drop "$d" "architecture $a is not in arches.list"
	fi
done

if [ "$dry" = 1 ]; then
	echo "prune: dry run, nothing removed"
else
	echo "prune: freed $((freed / 1024)) MB; $cache holds $(du -sm "$cache" | cut -f1) MB"
fi
exit "$status"
