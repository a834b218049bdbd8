#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prune-cache-test.sh - tests/kernels/prune-cache.sh on a fake cache (TAP;
# run by tests/arch/check-arch.sh, or alone from the top of the tree)
#
# The cache is made of empty files and directories named as the harness
# names them, their last use set with touch -d, and two small lists; each
# entry is one test (kept or removed, as the table says), then --dry-run,
# the grace for entries in use, a lock held by a root being built, and
# this tree's own lists (every flavour and suite they name is kept).

SEQRING_TESTS=${SEQRING_TESTS:-$(cd "$(dirname "$0")/.." && pwd)}
. "$SEQRING_TESTS/lib.sh"
prune=$SEQRING_TESTS/kernels/prune-cache.sh

plan 25

c=$T/cache
kl=$T/kernels.list al=$T/arches.list
printf '%s\n' "# a comment" "6.1 bookworm amd64" "6.1-rt bookworm rt-amd64" \
	"newest sid amd64" >"$kl"
printf '%s\n' "arm64-6.1 bookworm arm64 arm64 boot" "rv sid riscv64 riscv64 build" >"$al"

# The table: ENTRY  DAYS-SINCE-USE  KEPT?  why.
cases='
kernels/6.1.0-57-amd64_6.1.192-3           1  kept     newest of its flavour and series
kernels/6.1.0-56-amd64_6.1.190-1           2  removed  superseded by a newer 6.1 amd64
kernels/6.1.0-57-rt-amd64_6.1.192-3        3  kept     rt-amd64 is a flavour of its own
kernels/7.2.13+deb14-amd64_7.2.13-1        1  kept     another series of the same flavour
kernels/7.2.12+deb14-amd64_7.2.12-1        2  removed  superseded, a +debNN release
kernels/6.1.0-57-s390x_6.1.192-3           2  removed  s390x is in no list
kernels/6.1.0-57-arm64_6.1.192-3          20  removed  unused for more than PRUNE_DAYS
kernels/6.1.0-57-riscv64_6.1.192-3         2  removed  riscv64 is only built, never booted
roots/bookworm-0123456789abcdef.tar.zst    1  kept     used lately
roots/bookworm-fedcba9876543210.tar.zst   20  removed  unused for more than PRUNE_DAYS
roots/bookworm-backports-00112233445566.tar.zst 3 kept bookworm-backports is always in use
roots/trixie-0011223344556677.tar.zst      2  removed  trixie is in no list
roots/bookworm-arm64-8899aabbccddeeff.tar.zst 2 kept  arm64 is in arches.list
roots/bookworm-armhf-8899aabbccddeeff.tar.zst 2 removed armhf is not
roots/sid-0000000000000000.tar.zst.lock    2  removed  a lock without its root
roots/bookworm-0123456789abcdef.tar.zst.lock 2 kept    the lock of a root that is there
kernels/.dl-AbC123                         2  removed  a download that did not finish
apt/sid-riscv64                            2  kept     riscv64 lists are in use
apt/sid-s390x                              2  removed  s390x lists are not
apt/trixie                                 2  removed  trixie lists are not
'
rm -rf "$c"
while read -r e d _; do
	[ -n "$e" ] || continue
	mkdir -p "$c/$(dirname "$e")"
	case $e in
	*.tar.zst | *.lock) : >"$c/$e" ;;
	*) mkdir -p "$c/$e" && : >"$c/$e/file" ;;
	esac
	touch -d "$d days ago" "$c/$e"
done <<<"$cases"

run_prune() {
	SEQRING_CACHE=$c KERNELS_LIST=$kl ARCHES_LIST=$al PRUNE_DAYS=14 \
		PRUNE_GRACE=60 "$prune" "$@" >"$T/out" 2>&1
}

# --- a dry run touches nothing --------------------------------------------
before=$(cd "$c" && find . | sort)
run_prune --dry-run
is "$before" "$(cd "$c" && find . | sort)" "--dry-run removes nothing"
like "$(cat "$T/out")" 'prune: kernels/6\.1\.0-56-amd64_6\.1\.190-1 .*superseded by 6\.1\.0-57-amd64_6\.1\.192-3' \
	"--dry-run names what it would remove, and why"

# --- the table -----------------------------------------------------------------
run_prune
diag "$(cat "$T/out")"
while read -r e _ want why; do
	[ -n "$e" ] || continue
	got=removed
	[ -e "$c/$e" ] && got=kept
	is "$want" "$got" "${e}: $want ($why)"
done <<<"$cases"

# --- in use now, a root being built ---------------------------------------------
mkdir -p "$c/kernels/6.1.0-55-amd64_6.1.180-1"
mkdir -p "$c/roots/.build-bookworm-XyZ987/bin" && : >"$c/roots/.build-bookworm-XyZ987/bin/sh"
touch -d "2 days ago" "$c/roots/.build-bookworm-XyZ987"
: >"$c/roots/sid-1111111111111111.tar.zst.lock"
touch -d "2 days ago" "$c/roots/sid-1111111111111111.tar.zst.lock"
# -o: only flock holds the lock, so killing it releases the lock.
flock -o "$c/roots/sid-1111111111111111.tar.zst.lock" sleep 20 >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do
	flock -n "$c/roots/sid-1111111111111111.tar.zst.lock" true || break
	sleep 0.1
done
run_prune
got=
[ -e "$c/kernels/6.1.0-55-amd64_6.1.180-1" ] && got="$got superseded-but-fresh"
[ -e "$c/roots/.build-bookworm-XyZ987" ] && got="$got build-dir"
[ -e "$c/roots/sid-1111111111111111.tar.zst.lock" ] && got="$got held-lock"
is " superseded-but-fresh build-dir held-lock" "$got" \
	"kept while a root is being built (its lock held) or used in the last PRUNE_GRACE minutes"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
run_prune
is "" "$(ls -d "$c/roots/.build-bookworm-XyZ987" "$c/roots/sid-1111111111111111.tar.zst.lock" 2>/dev/null)" \
	"once no lock is held, the unfinished build and the lone lock go"

# --- this tree's lists ------------------------------------------------------------
# Every flavour and suite they name, a day old: nothing is removed.
rm -rf "$c"
mkdir -p "$c/kernels" "$c/roots"
while read -r _ s f _; do
	mkdir -p "$c/kernels/6.1.0-57-${f}_6.1.192-3"
	: >"$c/roots/$s-0123456789abcdef.tar.zst"
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$SEQRING_TESTS/kernels/kernels.list")
while read -r _ s a f w _; do
	[ "$w" = boot ] || [ "$w" = packages ] || continue
	mkdir -p "$c/kernels/6.1.0-57-${f}_6.1.192-3"
	: >"$c/roots/$s-$a-0123456789abcdef.tar.zst"
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$SEQRING_TESTS/arch/arches.list")
find "$c" -mindepth 2 -exec touch -d "1 day ago" {} +
before=$(cd "$c" && find . | sort)
SEQRING_CACHE=$c PRUNE_GRACE=60 "$prune" >"$T/out" 2>&1
is "$before" "$(cd "$c" && find . | sort)" \
	"with this tree's lists, every kernel flavour and suite they name is kept"
diag "$(cat "$T/out")"

done_testing
