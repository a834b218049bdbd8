#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, stream: readings/s from a producer (PUSH) to a consumer
# (read() of /dev/seqring) against trace_marker writes read back from
# trace_pipe; wake-up latency p50/p99 from a PUSH (a marker write) to a
# blocked read() returning, against the same for trace_pipe; PUSH with one
# consumer following the stream against PUSH with none. Then the mapping
# (issue 24): readings/s a consumer takes from a full ring through the
# mapping (libseqring) against read(), trace_pipe and (6.10 and later)
# ftrace's own mapped ring fed by trace_marker_raw; PUSH latency with 2
# consumers spinning on the mapping against none (and 2 plain spinners,
# the control). Results go to /tmp/bench/results.csv; TAP says whether
# the measurement ran, never how fast it was.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q

plan 5

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

tracing=/sys/kernel/tracing
[ -e $tracing/trace_pipe ] || mount -t tracefs nodev $tracing 2>/dev/null
if [ -r $tracing/trace_pipe ] && [ -w $tracing/trace_marker ]; then
	echo nop >$tracing/current_tracer
	echo 1 >$tracing/tracing_on
	ok "tracefs is mounted: the trace_pipe peer can be measured"
else
	skip "tracefs is mounted" "no $tracing/trace_pipe; peer not measured"
fi

check_load "load seqring.ko capacity=65536" capacity=65536

bench_run "stream measured" '^stream *push_followed/push_alone ' stream
bench_run "mapping measured" '^mapped *p99\(2 map spinners\)/p99\(idle\) ' mapped

check_unload "unload seqring.ko"
done_testing
