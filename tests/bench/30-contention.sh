#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, contention: latency of single PUSHes (p50, p99, max) while 0, 1
# and 2 processes loop over the whole /proc/seqring listing (100k readings),
# and while 1 process loops pread() at 9/10 of it (each one replays the
# listing up to there). The pusher runs on CPU 0, the readers on the other
# CPU. p99 under load against p99 idle shows whether a reader makes a
# writer wait. Results go to /tmp/bench/results.csv; TAP says whether it ran.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q

plan 4

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

check_load "load seqring.ko capacity=100000" capacity=100000

bench_run "fill the ring" "" fill 100000
bench_run "contention measured" '^contention *p99\(readers\)/p99\(idle\) *2 ' contention

check_unload "unload seqring.ko"
done_testing
