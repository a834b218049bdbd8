#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-bench.sh - run the benchmark in the test VM and bring the results back
#
# Boots the VM in bench mode (tests/vm/run.sh bench: tests/bench/*.sh in the
# guest), then takes the table, CSV and JSON that 90-report.sh prints between
# "# BENCH-BEGIN x" / "# BENCH-END x" lines out of build/vm/bench-tap.log:
#   build/bench/results.txt  the table (also printed here)
#   build/bench/results.csv
#   build/bench/results.json
#   build/bench/tap.log      the guest's whole output (per-step figures)
# Needs the modules, the tool and tests/progs/seqring_bench built
# (make all && make -C tests/bench), or SEQRING_PROGS_DIR's (another
# CPU's: `make bench-arch` runs this through tests/arch/check-arch.sh).
#
# A full run takes 2 to 3 minutes of VM time on a quiet machine, QUICK=1
# well under one.
#
# Environment:
#   QUICK=1        few, short rounds (for CI and `make bench QUICK=1`)
#   BENCH_APPEND   kernel command line for the bench VM, default
#                  "tsc=reliable": under tcg the kernel distrusts the TSC
#                  and falls back to HPET, and then every clock_gettime()
#                  is a system call plus an emulated MMIO read, which would
#                  be timed along with what is measured
#   VM_FILTER      default "[0-9][0-9]-*": the guest scripts, not this one
#   and those of tests/vm/run.sh (VM_SCRIPT_TIMEOUT, VM_TIMEOUT, ...).
# Exit status: that of run.sh (0 iff every TAP result passed; timings never
# fail the run), or 1 if the results could not be extracted.

set -u

# The harness copies every tests/bench/*.sh into the VM and runs it there,
# this one included: in the guest (the runner sets SEQRING_MODE) it only
# says that it does not apply. run.sh is also told to run only NN-*.sh.
if [ -n "${SEQRING_MODE:-}" ]; then
	echo "1..0 # SKIP host-side script"
	exit 0
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=build/bench
mkdir -p "$out"

append=${BENCH_APPEND-tsc=reliable}
if [ "${QUICK:-0}" = 1 ]; then
	append+=" seqringbench.quick=1"
	: "${VM_SCRIPT_TIMEOUT:=300}" "${VM_TIMEOUT:=900}"
else
	: "${VM_SCRIPT_TIMEOUT:=1500}" "${VM_TIMEOUT:=3600}"
fi
VM_APPEND="${VM_APPEND:+$VM_APPEND }$append"
: "${VM_FILTER:=[0-9][0-9]-*}"
export VM_APPEND VM_SCRIPT_TIMEOUT VM_TIMEOUT VM_FILTER

progs=${SEQRING_PROGS_DIR:-tests/progs}
if [ ! -x "$progs/seqring_bench" ]; then
	echo "run-bench.sh: no $progs/seqring_bench; run 'make -C tests/bench'" >&2
	exit 1
fi

tests/vm/run.sh bench >"$out/run.log" 2>&1
status=$?
tr -d '\r' <build/vm/bench-tap.log >"$out/tap.log" 2>/dev/null

# extract NAME: the lines between the markers, without their "# ".
extract() {
	sed -n "/^# BENCH-BEGIN $1\$/,/^# BENCH-END $1\$/{
		/^# BENCH-\(BEGIN\|END\) /d
		s/^# \{0,1\}//
		p
	}" "$out/tap.log"
}

rm -f "$out/results.txt" "$out/results.csv" "$out/results.json"
extract table >"$out/results.txt"
extract csv >"$out/results.csv"
extract json >"$out/results.json"

grep -E '^(not ok|ok .*# SKIP)' "$out/run.log"
tail -n 1 "$out/run.log"
if [ ! -s "$out/results.csv" ] || [ ! -s "$out/results.json" ]; then
	echo "run-bench.sh: no results in build/vm/bench-tap.log; see $out/run.log" >&2
	tail -n 30 "$out/run.log" >&2
	exit 1
fi
echo
cat "$out/results.txt"
echo
echo "run-bench.sh: wrote $out/results.txt, $out/results.csv, $out/results.json"
exit "$status"
