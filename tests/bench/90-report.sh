#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark report: the table of everything the other scripts measured,
# with the targets, and the same as CSV and JSON. All three are printed
# between marker lines so that tests/bench/run-bench.sh can take them out
# of the TAP log on the host:
#   # BENCH-BEGIN table|csv|json   ...   # BENCH-END table|csv|json
# (every line in between starts with "# ").

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BENCH=$BIN/seqring_bench
Q=
grep -qw 'seqringbench.quick=1' /proc/cmdline && Q=-q
R=/tmp/bench

plan 3

[ -x "$BENCH" ] || { not_ok "$BENCH is there" "run make -C tests/bench"; fail_rest "no benchmark program"; }

# notes.txt: why something was not measured (60-irqsoff.sh, run-bench.sh).
touch $R/notes.txt
# shellcheck disable=SC2086 # $Q is empty or one option
"$BENCH" $Q -o $R/results.csv report -c $R/report.csv -j $R/report.json \
	-n $R/notes.txt >$R/table.txt 2>&1
rc=$?
is 0 "$rc" "report written" || cat $R/table.txt

# section NAME FILE: FILE between markers, each line as a comment.
section() {
	echo "# BENCH-BEGIN $1"
	sed 's/^/# /' "$2"
	echo "# BENCH-END $1"
}
section table $R/table.txt
section csv $R/report.csv
section json $R/report.json

# A section that cannot run on this kernel or build (bpf: 55-bpf.sh) says
# why in notes.txt instead.
missing=
for g in ingest listing contention idlefiles adversary stream kapi bpf memory; do
	grep -q "^$g," $R/report.csv 2>/dev/null ||
		grep -q "^$g: not measured: " $R/notes.txt 2>/dev/null ||
		missing="$missing $g"
done
is "" "$missing" "every section (ingest, listing, contention, idlefiles, adversary, stream, kapi, bpf, memory) has results or says why not"
like "$(cat $R/report.json 2>/dev/null)" '"targets": \[' "the JSON has the targets"
done_testing
