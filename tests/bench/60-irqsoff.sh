#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, interrupts-off sections: the irqsoff tracer's longest section
# (tracing_max_latency) with nothing running, while 64K-reading batches,
# single PUSHes and resizes (1M -> 4K -> 1M) run on every CPU, and while the
# same load goes through trace_marker and buffer_size_kb instead. Only a
# kernel with CONFIG_IRQSOFF_TRACER has the tracer: Debian's 6.1 has not,
# the debug kernel (tests/debug.config) has, and run-bench.sh boots it in a
# second VM for this script alone when it is built. There the rows are
# printed between "# BENCH-BEGIN rows" and "# BENCH-END rows" for
# run-bench.sh to take into the main VM's report. Results go to
# /tmp/bench/results.csv; TAP says whether the measurement ran.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q
R=/tmp/bench
tracing=/sys/kernel/tracing

[ -e $tracing/available_tracers ] || mount -t tracefs nodev $tracing 2>/dev/null
if ! grep -qw irqsoff $tracing/available_tracers 2>/dev/null; then
	# The rows may have come from the debug kernel's VM already
	# (run-bench.sh); else say why there are none.
	if ! grep -q '^irqsoff,' $R/results.csv 2>/dev/null &&
	   ! grep -q '^irqsoff:' $R/notes.txt 2>/dev/null; then
		mkdir -p $R
		echo "irqsoff: not measured: $(uname -r) has no irqsoff tracer" >>$R/notes.txt
	fi
	echo "1..0 # SKIP $(uname -r) has no irqsoff tracer (CONFIG_IRQSOFF_TRACER)"
	exit 0
fi

plan 4

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

# No function tracing inside the sections (where the kernel has it), so
# that the figure is the section's own length.
[ -w $tracing/options/function-trace ] && echo 0 >$tracing/options/function-trace
echo 0 >$tracing/tracing_thresh
echo irqsoff >$tracing/current_tracer
echo 1 >$tracing/tracing_on
is irqsoff "$(cat $tracing/current_tracer)" "the irqsoff tracer is the current tracer"

check_load "load seqring.ko capacity=1048576" capacity=1048576

bench_run "interrupts-off sections measured" '^irqsoff *max_us *seqring ' irqsoff
echo nop >$tracing/current_tracer

echo "# BENCH-BEGIN rows"
grep '^irqsoff,' $R/results.csv | sed 's/^/# /'
echo "# BENCH-END rows"

check_unload "unload seqring.ko"
done_testing
