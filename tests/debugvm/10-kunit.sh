#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# KUnit tests of the ring (tests/kunit/*.c, seqring_kunit.ko): load
# seqring.ko, then seqring_kunit.ko, which runs the suites "seqring_ring"
# (ring_test.c), "seqring_push" (push_test.c: producers stopped at each
# step of a push) and "seqring_persist" (persist_test.c: regions found at
# boot, valid, damaged, crafted, random) while it loads. Their KTAP results (from
# /sys/kernel/debug/kunit, or the kernel log if that is missing) become
# results of this script: one per KUnit test case, with the case's failure
# messages as diagnostics.
#
# Only the debug kernel has CONFIG_KUNIT; elsewhere seqring_kunit.ko is not
# built and the script skips.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

SUITES="seqring_ring seqring_push seqring_persist"
KUNIT_KO=$MODDIR/seqring_kunit.ko

if [ ! -f "$KUNIT_KO" ]; then
	echo "1..0 # SKIP no $KUNIT_KO (the kernel has no CONFIG_KUNIT)"
	exit 0
fi

# ktap_cases < KTAP: the suite's KTAP reduced to what this script reports,
# one line per item:
#   plan N              the suite's "1..N"
#   case ok|not_ok NAME[ # SKIP reason]
#   diag TEXT           any other line of the suite (failure messages)
#   suite ok|not_ok     the suite's own result
# In KTAP version 1 as 6.1 prints it, the suite's lines are indented by 4
# spaces, continuation lines of failure messages may not be, and the
# suite's result ("ok 1 seqring_ring") is not indented.
ktap_cases() {
	awk -v suite="$1" '
	/^ *# Subtest: / { if ($3 == suite) insuite = 1; next }
	!insuite { next }
	/KTAP version/ || /^ *$/ { next }
	/^    1\.\.[0-9]+$/ { sub(/^ +1\.\./, ""); print "plan " $0; next }
	/^    (not )?ok [0-9]+ / {
		s = $0; sub(/^ +/, "", s)
		st = "ok"
		if (s ~ /^not /) { st = "not_ok"; sub(/^not /, "", s) }
		sub(/^ok [0-9]+ /, "", s)
		print "case " st " " s
		next
	}
	/^(not )?ok [0-9]+ / && $0 ~ (" " suite "( |$)") {
		print "suite " ($1 == "not" ? "not_ok" : "ok")
		insuite = 0
		next
	}
	{ s = $0; sub(/^ +/, "", s); sub(/^# /, "", s); print "diag " s }'
}

load_seqring
load_rc=$?
kmsg_mark "10-kunit start"
kout=$(insmod "$KUNIT_KO" 2>&1)
kunit_rc=$?
dmesg_since "10-kunit start" | sed -e 's/^<[0-9]*>//' \
	-e 's/^\[ *[0-9.]*\] //' >"$T/kmsg"

# Each suite's KTAP (from debugfs, or the kernel log), reduced.
n=0
for suite in $SUITES; do
	if [ -r "/sys/kernel/debug/kunit/$suite/results" ]; then
		cat "/sys/kernel/debug/kunit/$suite/results" >"$T/ktap-$suite"
		echo "/sys/kernel/debug/kunit/$suite/results" >"$T/src-$suite"
	else
		cp "$T/kmsg" "$T/ktap-$suite"
		echo "the kernel log" >"$T/src-$suite"
	fi
	ktap_cases "$suite" <"$T/ktap-$suite" >"$T/cases-$suite"
	n=$((n + 2 + $(grep -c '^case ' "$T/cases-$suite")))
done
# Fixed tests: seqring loads, seqring_kunit loads, both modules unload;
# per suite, every planned case reported and the suite passes; then one
# per case.
plan $((4 + n))

if [ "$load_rc" -eq 0 ]; then
	ok "seqring.ko loads"
else
	not_ok "seqring.ko loads" "insmod $MODDIR/seqring.ko failed"
fi
if [ "$kunit_rc" -eq 0 ]; then
	ok "seqring_kunit.ko loads (and runs the suites $SUITES)"
else
	not_ok "seqring_kunit.ko loads (and runs the suites $SUITES)" "$kout"
fi

for suite in $SUITES; do
	cases=$T/cases-$suite
	src=$(cat "$T/src-$suite")
	ncases=$(grep -c '^case ' "$cases")
	nplan=$(sed -n 's/^plan //p' "$cases" | head -n 1)
	[ -n "$nplan" ] || nplan=0
	diag "KTAP of suite $suite from $src:"
	while read -r kind st rest; do
		case $kind in
		case)
			if [ "$st" = ok ]; then
				ok "kunit $suite: $rest"
			else
				not_ok "kunit $suite: $rest"
			fi
			;;
		diag)
			diag "  $st${rest:+ $rest}"
			;;
		esac
	done <"$cases"

	if [ "$nplan" -gt 0 ] && [ "$ncases" -eq "$nplan" ]; then
		ok "$suite: all $nplan planned KUnit cases reported a result"
	else
		not_ok "$suite: all planned KUnit cases reported a result" \
			"suite plan: $nplan cases, results: $ncases" \
			"KTAP from $src:" "$(cat "$T/ktap-$suite")"
	fi
	result=$(sed -n 's/^suite //p' "$cases" | head -n 1)
	is ok "${result:-none}" "the suite $suite passes as a whole"
done

check "seqring_kunit.ko unloads" rmmod seqring_kunit
check_unload "seqring.ko unloads after it"

done_testing
