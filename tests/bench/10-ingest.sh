#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, ingest: ns per reading of PUSH and PUSH_BATCH (1, 16, 256,
# 4096) against a no-op ioctl on the same fd, and against writes of the
# same reading to tracefs' trace_marker (text) and trace_marker_raw.
# Results go to /tmp/bench/results.csv; 90-report.sh turns them into the
# table. TAP says whether the measurement ran, never how fast it was.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q

plan 4

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

tracing=/sys/kernel/tracing
[ -e $tracing/trace_marker ] || mount -t tracefs nodev $tracing 2>/dev/null
if [ -w $tracing/trace_marker ] && [ -w $tracing/trace_marker_raw ]; then
	ok "tracefs is mounted: the trace_marker peers can be measured"
else
	skip "tracefs is mounted" "no $tracing/trace_marker; peers not measured"
fi

check_load "load seqring.ko capacity=65536" capacity=65536

bench_run "ingest measured" '^ingest *push/noop_ioctl ' ingest

check_unload "unload seqring.ko"
done_testing
