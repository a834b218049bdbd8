#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, the kernel API (seqring_kbench.ko, tests/kmod/): ns per
# reading of seqring_push() from a kernel thread on CPU 0 against a trace
# event of the same fields (ring name, seq, channel, value, label) written
# to ftrace's ring buffer from the same thread; readings/s of two kernel
# threads pushing into one ring, on CPUs 0 and 1, against one, and the
# same for the trace event (per-CPU buffers, nothing shared: what two vCPUs
# of the host give) as its control, and seqring's gain against the
# control's; and, on x86, ns per seqring_push() from an NMI against the
# trace event written from the same NMIs (the module raises them through
# the local APIC). Results go to /tmp/bench/results.csv;
# TAP says whether the measurement ran, never how fast it was.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q
KBENCH=$MODDIR/seqring_kbench.ko
tracing=/sys/kernel/tracing
event=$tracing/events/seqring_kbench/seqring_kbench_reading

plan 6

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }
[ -f "$KBENCH" ] || { not_ok "$KBENCH is there" "run make modules"; fail_rest "no benchmark module"; }

check_load "load seqring.ko" capacity=16
check "load seqring_kbench.ko (ring kbench of 65536)" insmod "$KBENCH" capacity=65536

[ -e $tracing/trace ] || mount -t tracefs nodev $tracing 2>/dev/null
if [ -w "$event/enable" ]; then
	echo nop >$tracing/current_tracer
	echo 1 >$tracing/tracing_on
	echo 1 >"$event/enable"
	is 1 "$(cat "$event/enable")" "the trace event seqring_kbench_reading is enabled: the peer can be measured"
else
	skip "the trace event seqring_kbench_reading is enabled" "no $event; peer not measured"
fi

bench_run "kernel API measured" '^kapi *push ' kapi

[ -w "$event/enable" ] && echo 0 >"$event/enable"
check "unload seqring_kbench.ko" rmmod seqring_kbench
check_unload "unload seqring.ko"
done_testing
