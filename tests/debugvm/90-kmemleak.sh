#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak: nothing the modules allocate outlives them. Loads seqring.ko
# and sequence.ko, goes through every path that allocates (load, open and
# close of /dev/seqring, PUSH and PUSH_BATCH, the seq_files in /proc and
# debugfs, sysfs), unloads both, then scans twice with a pause (an object
# must be a few seconds old before kmemleak reports it) and fails on any
# report: from this script, or from any script since the baseline that the
# guest runner takes before the first (the KUnit tests, the failslab error
# paths). The runner scans once more after this script.
#
# Only the debug kernel has kmemleak (CONFIG_DEBUG_KMEMLEAK); elsewhere the
# script skips.

# shellcheck disable=SC2317 # the functions are called through check
# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak

if [ ! -e "$KMEMLEAK" ]; then
	echo "1..0 # SKIP no $KMEMLEAK (the kernel has no kmemleak)"
	exit 0
fi

# kmemleak_scan: one scan; the reports it finds are in $KMEMLEAK.
kmemleak_scan() {
	echo scan >"$KMEMLEAK"
}

plan 5

# Everything that allocates, with the ring both below and above kmalloc
# size (kvmalloc falls back to vmalloc).
exercise() {
	load_seqring "capacity=$1" || return 1
	push 10 >/dev/null &&
	push 300 -b >/dev/null &&
	cat "$PROC" >/dev/null &&
	cat "$DEBUGFS/readings" "$DEBUGFS/stats" "$DEBUGFS/clients" >/dev/null &&
	cat "$SYSFS/count" "$SYSFS/total" >/dev/null &&
	"$BIN/getstats" >/dev/null &&
	"$BIN/clear_ring" >/dev/null
	rc=$?
	unload_seqring || return 1
	return "$rc"
}
check "seqring.ko with a small ring: load, use, unload" exercise 16
check "seqring.ko with a large (vmalloc) ring: load, use, unload" exercise 100000

sequence() {
	insmod "$MODDIR/sequence.ko" || return 1
	head -c 100000 /proc/sequence >/dev/null
	rc=$?
	rmmod sequence || return 1
	return "$rc"
}
check "sequence.ko: load, read, unload" sequence

if kmemleak_scan 2>"$T/err" && sleep 6 && kmemleak_scan 2>"$T/err"; then
	ok "kmemleak scans twice after rmmod"
else
	not_ok "kmemleak scans twice after rmmod" "$(cat "$T/err")" \
		"$(dmesg | grep -i kmemleak | tail -n 5)"
fi
cat "$KMEMLEAK" >"$T/leaks"
n=$(grep -c '^unreferenced object' "$T/leaks")
if [ "$n" -eq 0 ]; then
	ok "kmemleak reports no leak"
else
	not_ok "kmemleak reports no leak" "$n unreferenced object(s):" \
		"$(head -n 60 "$T/leaks")"
fi

done_testing
