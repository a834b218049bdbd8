#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# KUnit tests of the ring (tests/kunit/ring_test.c, seqring_kunit.ko): load
# seqring.ko, then seqring_kunit.ko, which runs the suite "seqring_ring"
# while it loads. Its KTAP results (from /sys/kernel/debug/kunit, or the
# kernel log if that is missing) become results of this script: one per
# KUnit test case, with the case's failure messages as diagnostics.
#
# Only the debug kernel has CONFIG_KUNIT; elsewhere seqring_kunit.ko is not
# built and the script skips.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

SUITE=seqring_ring
KUNIT_KO=$MODDIR/seqring_kunit.ko
RESULTS=/sys/kernel/debug/kunit/$SUITE/results

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
	awk -v suite="$SUITE" '
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

ktap=$T/ktap
load_seqring
load_rc=$?
kmsg_mark "10-kunit start"
kout=$(insmod "$KUNIT_KO" 2>&1)
kunit_rc=$?
if [ -r "$RESULTS" ]; then
	cat "$RESULTS" >"$ktap"
	src=$RESULTS
else
	# The kernel log, without the "<6>[  12.345678] " prefix.
	dmesg_since "10-kunit start" | sed -e 's/^<[0-9]*>//' \
		-e 's/^\[ *[0-9.]*\] //' >"$ktap"
	src="the kernel log"
fi
ktap_cases <"$ktap" >"$T/cases"

ncases=$(grep -c '^case ' "$T/cases")
nplan=$(sed -n 's/^plan //p' "$T/cases" | head -n 1)
[ -n "$nplan" ] || nplan=0
# Fixed tests: seqring loads, seqring_kunit loads, every planned case
# reported, the suite passes, both modules unload. Then one per case.
plan $((6 + ncases))

if [ "$load_rc" -eq 0 ]; then
	ok "seqring.ko loads"
else
	not_ok "seqring.ko loads" "insmod $MODDIR/seqring.ko failed"
fi
if [ "$kunit_rc" -eq 0 ]; then
	ok "seqring_kunit.ko loads (and runs the suite $SUITE)"
else
	not_ok "seqring_kunit.ko loads (and runs the suite $SUITE)" "$kout"
fi

diag "KTAP of suite $SUITE from $src:"
while read -r kind st rest; do
	case $kind in
	case)
		if [ "$st" = ok ]; then
			ok "kunit $SUITE: $rest"
		else
			not_ok "kunit $SUITE: $rest"
		fi
		;;
	diag)
		diag "  $st${rest:+ $rest}"
		;;
	esac
done <"$T/cases"

if [ "$nplan" -gt 0 ] && [ "$ncases" -eq "$nplan" ]; then
	ok "all $nplan planned KUnit cases reported a result"
else
	not_ok "all planned KUnit cases reported a result" \
		"suite plan: $nplan cases, results: $ncases" \
		"KTAP from $src:" "$(cat "$ktap")"
fi
suite=$(sed -n 's/^suite //p' "$T/cases" | head -n 1)
is ok "${suite:-none}" "the suite $SUITE passes as a whole"

check "seqring_kunit.ko unloads" rmmod seqring_kunit
check_unload "seqring.ko unloads after it"

done_testing
