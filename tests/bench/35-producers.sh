#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, producers against what others do to the device: the latency
# of single PUSHes with 10000 open files of /dev/seqring that nobody reads
# or polls, against none (a push must cost nothing for files that do not
# wait); and the longest gap between a PUSH returning and GET_STATS
# showing it, while a process at SCHED_IDLE on CPU 1 loops on 64K-reading
# batches beside a busy loop there (no descheduled producer may hide the
# others' readings). Results go to /tmp/bench/results.csv; TAP says whether
# the measurements ran, never how fast they were.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q

plan 4

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

# 1M: the pusher finds its readings in the stream between the adversary's
# batches, which must not overwrite them before it reads them.
check_load "load seqring.ko capacity=1048576" capacity=1048576

bench_run "idle open files measured" '^idlefiles *p99\(idle files\)/p99\(none\) ' idlefiles
bench_run "visibility under the adversary measured" '^adversary *visibility_gap_max *adversary ' adversary

check_unload "unload seqring.ko"
done_testing
