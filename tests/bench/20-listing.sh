#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, listing and memory. For each capacity N (10k, 100k, 1M): load
# seqring.ko with capacity=N, fill the ring (it wraps), time reads of the
# whole /proc/seqring with 4 KiB and 64 KiB read()s against reading as many
# lines of /proc/sequence, unload. The capacities take turns, REPS times
# (3; 1 in quick mode), so that the 1M/100k scaling compares runs taken
# close together. On the first turn, the kernel memory each load took is
# recorded too: /proc/meminfo before insmod against after the fill, with a
# load of capacity=1 as the baseline. Results go to /tmp/bench/results.csv;
# TAP says whether each step ran, never how fast it was.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
SIZES="10000 100000 1000000"
if grep -qw 'seqringbench.quick=1' /proc/cmdline; then
	Q=-q REPS=1
else
	Q='' REPS=3
fi

plan $((9 + 12 * REPS))

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

check "load sequence.ko" insmod "$MODDIR/sequence.ko"

# rounds N: -r option for one turn at capacity N (full mode only).
rounds() {
	[ -n "$Q" ] && return
	case $1 in
	10000) echo "-r 11" ;;
	100000) echo "-r 5" ;;
	*) echo "-r 3" ;;
	esac
}

# take_meminfo: /proc/meminfo before a load, with the page cache settled.
take_meminfo() {
	sync
	echo 1 >/proc/sys/vm/drop_caches
	cp /proc/meminfo "$T/meminfo.before"
}

take_meminfo
check_load "load seqring.ko capacity=1 (memory baseline)" capacity=1
bench_run "fill the ring of 1 reading" "" fill 1
bench_run "memory measured at capacity 1" "" memory 1 "$T/meminfo.before"
check_unload "unload seqring.ko (capacity 1)"

rep=1
while [ $rep -le $REPS ]; do
	for n in $SIZES; do
		[ $rep -eq 1 ] && take_meminfo
		check_load "turn $rep: load seqring.ko capacity=$n" capacity="$n"
		bench_run "turn $rep: fill the ring of $n readings" "" fill "$n"
		[ $rep -eq 1 ] &&
			bench_run "memory measured at capacity $n" "" memory "$n" "$T/meminfo.before"
		# shellcheck disable=SC2046 # word splitting wanted
		bench_run "turn $rep: listing measured at $n readings" "" $(rounds "$n") listing "$n"
		check_unload "turn $rep: unload seqring.ko (capacity $n)"
	done
	rep=$((rep + 1))
done

check "unload sequence.ko" rmmod sequence
done_testing
