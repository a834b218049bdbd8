#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak: nothing the modules allocate outlives them. Loads seqring.ko
# and sequence.ko, goes through every path that allocates (load, open and
# close of /dev/seqring, PUSH and PUSH_BATCH, the seq_files in /proc and
# debugfs, sysfs, mmap() and resizes, tests/bin/mmap_test's cases), and
# unloads both. This is the last script of the tier:
# the guest runner's kmemleak scan right after it (twice, with a pause)
# fails on any report, from this script or any since the baseline the
# runner took before the first (the KUnit tests, the failslab error paths).
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

plan 3

# Everything that allocates, with the ring both below and above a page
# (kmalloc, vmalloc), and batches both in and over the file's buffer.
exercise() {
	load_seqring "capacity=$1" || return 1
	push 10 >/dev/null &&
	push 300 -b >/dev/null &&
	push 5000 -b >/dev/null &&
	cat "$PROC" >/dev/null &&
	cat "$DEBUGFS/readings" "$DEBUGFS/stats" "$DEBUGFS/clients" >/dev/null &&
	cat "$SYSFS/count" "$SYSFS/total" >/dev/null &&
	"$BIN/getstats" >/dev/null &&
	"$BIN/clear_ring" >/dev/null &&
	"$BIN/mmap_test" >/dev/null
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

done_testing
