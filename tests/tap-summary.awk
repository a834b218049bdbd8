# SPDX-License-Identifier: GPL-2.0
#
# tap-summary.awk - pass a TAP stream through and end it with the summary
# line .ci/run adds up:
#   N passed, N failed        or   N passed, N failed, N skipped
# A plan that the results do not meet (a program that died early) counts
# as one failure. Exit status 0 iff nothing failed.
#
# Usage: PROGRAM | awk -f tests/tap-summary.awk

{ print }
/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; planned = 1 }
/^ok / { if ($0 ~ /# [Ss][Kk][Ii][Pp]/) skipped++; else passed++ }
/^not ok / { if ($0 ~ /# TODO/) skipped++; else failed++ }
END {
	run = passed + failed + skipped
	if (!planned || run != plan) {
		printf "# planned %d tests, ran %d\n", plan, run
		failed++
	}
	if (skipped)
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	else
		printf "%d passed, %d failed\n", passed, failed
	exit failed ? 1 : 0
}
