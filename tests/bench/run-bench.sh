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
#
# The irqsoff rows (60-irqsoff.sh) need a kernel with the irqsoff tracer,
# which Debian's 6.1 lacks. When the debug kernel (tests/debug.config) is
# already built in SEQRING_CACHE (`make debug-kernel`; never built from
# here), a first VM boots it with modules built against it in
# build/bench/debug-ko/ (a copy of the sources: the tree's own modules stay
# those of the main VM's kernel) and runs 60-irqsoff.sh alone; its rows
# (build/bench/debug-tap.log, debug-run.log) go into the main VM's report
# through a generated guest script, build/bench/tier/59-debug-kernel.sh,
# which also says, in the report's notes, where they come from or why
# there are none. The main VM runs the scripts of build/bench/tier/:
# tests/bench/*.sh and that one.
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
#   BENCH_DEBUG_VM 0: no debug kernel VM (the irqsoff rows are skipped);
#                  1: one even with QUICK=1, which leaves it out (it adds
#                  about 4 minutes: the debug kernel boots slowly under tcg)
#   and those of tests/vm/run.sh (VM_SCRIPT_TIMEOUT, VM_TIMEOUT, ...).
# Exit status: that of run.sh (0 iff every TAP result passed, in the debug
# kernel's VM too; timings never fail the run), or 1 if the results could
# not be extracted.

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

# --- the debug kernel's VM: the irqsoff rows -----------------------------------
# debug_rows: the rows of 60-irqsoff.sh on the debug kernel, on stdout; the
# reason there are none as "irqsoff: ..." notes in $out/debug-notes.
debug_rows() {
	local env kdir kernel ko=$out/debug-ko release want
	# Its boot and kmemleak's scans alone take minutes under tcg: more
	# than QUICK=1 (CI) may add.
	want=1
	[ "${QUICK:-0}" = 1 ] && want=0
	if [ "${BENCH_DEBUG_VM:-$want}" = 0 ]; then
		echo "irqsoff: not measured: no debug kernel VM (QUICK=1 or BENCH_DEBUG_VM=0;" \
			"BENCH_DEBUG_VM=1 includes it)" >"$out/debug-notes"
		return
	fi
	if [ -n "${SEQRING_PROGS_DIR:-}" ] || [ "${VM_ARCH:-x86_64}" != x86_64 ]; then
		echo "irqsoff: not measured: the debug kernel with the irqsoff tracer is amd64's" \
			>"$out/debug-notes"
		return
	fi
	if ! env=$(tests/debug/build-kernel.sh --cached 2>"$out/debug-cached.log"); then
		echo "irqsoff: not measured: $(sed 's/^build-kernel: //' "$out/debug-cached.log" | tail -n 1)" \
			>"$out/debug-notes"
		return
	fi
	kdir=$(echo "$env" | sed -n 's/^KDIR=//p')
	kernel=$(echo "$env" | sed -n 's/^KERNEL=//p')
	release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
	# The sources the modules need (no test modules: the tier needs
	# none), times kept, so that kbuild rebuilds only what changed.
	mkdir -p "$ko"
	{ printf '%s\n' Kbuild VERSION KERNEL_MIN
	  find driver include samples -type f \( -name '*.[ch]' -o -name Kbuild \) \
		! -name '*.mod.c'; } | xargs cp -p --parents -t "$ko" || return
	echo "run-bench.sh: building the modules for the debug kernel $release in $ko" >&2
	if ! make -C "$kdir" M="$PWD/$ko" SEQRING_TEST_MODULES=n modules \
		>"$out/debug-build.log" 2>&1; then
		echo "irqsoff: not measured: the modules do not build against the debug kernel" \
			"(see $out/debug-build.log)" >"$out/debug-notes"
		return
	fi
	echo "run-bench.sh: the irqsoff rows in a VM of the debug kernel $release" >&2
	# no_timer_check: on a busy host, the debug kernel's boot sometimes
	# finds too few timer ticks in its check of the IO-APIC timer, under
	# tcg, and panics ("IO-APIC + timer doesn't work").
	KERNEL=$kernel SEQRING_KO_DIR=$PWD/$ko VM_FILTER='60-*' \
		VM_APPEND="$VM_APPEND no_timer_check" \
		tests/vm/run.sh bench >"$out/debug-run.log" 2>&1
	echo $? >"$out/debug-status"
	tr -d '\r' <build/vm/bench-tap.log >"$out/debug-tap.log" 2>/dev/null
	extract rows "$out/debug-tap.log" | grep '^irqsoff,'
	if ! extract rows "$out/debug-tap.log" | grep -q '^irqsoff,'; then
		echo "irqsoff: not measured: the debug kernel's VM gave no rows" \
			"(see $out/debug-run.log)" >"$out/debug-notes"
		return
	fi
	# Both sides of the ratio pay the debug options.
	echo "irqsoff: measured on the debug kernel $release (KASAN, lockdep and the other" \
		"options of tests/debug.config: both sides of the ratio pay them), in a second VM" \
		>"$out/debug-notes"
}

# extract NAME [FILE]: the lines between the markers, without their "# ".
extract() {
	sed -n "/^# BENCH-BEGIN $1\$/,/^# BENCH-END $1\$/{
		/^# BENCH-\(BEGIN\|END\) /d
		s/^# \{0,1\}//
		p
	}" "${2:-$out/tap.log}"
}

rm -f "$out/debug-notes" "$out/debug-tap.log" "$out/debug-run.log" "$out/debug-status"
rows=$(debug_rows)

# The main VM's scripts: tests/bench's, and one that adds the debug
# kernel's rows and notes to its results before 60-irqsoff.sh and the
# report run.
rm -rf "$out/tier"
mkdir -p "$out/tier"
cp tests/bench/*.sh "$out/tier/"
{
	cat <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Generated by tests/bench/run-bench.sh: the rows of the debug kernel's VM
# (60-irqsoff.sh there) and the notes on them, added to this VM's results.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 1
mkdir -p /tmp/bench
cat >>/tmp/bench/notes.txt <<'NOTES'
EOF
	cat "$out/debug-notes" 2>/dev/null
	echo NOTES
	if [ -n "$rows" ]; then
		printf "cat >>/tmp/bench/results.csv <<'ROWS'\n%s\nROWS\n" "$rows"
		echo "ok \"rows of the debug kernel's VM added\""
	else
		echo "skip \"rows of the debug kernel's VM added\" \"none: see the notes\""
	fi
	echo done_testing
} >"$out/tier/59-debug-kernel.sh"

SEQRING_TIER_DIR=$PWD/$out/tier tests/vm/run.sh bench >"$out/run.log" 2>&1
status=$?
tr -d '\r' <build/vm/bench-tap.log >"$out/tap.log" 2>/dev/null

rm -f "$out/results.txt" "$out/results.csv" "$out/results.json"
extract table >"$out/results.txt"
extract csv >"$out/results.csv"
extract json >"$out/results.json"

grep -E '^(not ok|ok .*# SKIP)' "$out/run.log"
# A failure in the debug kernel's VM (a lockdep or KASAN report, say)
# fails the run as one in the main VM does.
if [ "$(cat "$out/debug-status" 2>/dev/null || echo 0)" != 0 ]; then
	echo "run-bench.sh: the debug kernel's VM failed (see $out/debug-run.log):" >&2
	grep -E '^not ok' "$out/debug-run.log" >&2
	[ "$status" -ne 0 ] || status=1
fi
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
