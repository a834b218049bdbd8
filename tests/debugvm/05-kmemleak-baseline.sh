#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak baseline: scan once and forget what is reported (leaks from boot
# are not ours), so that 90-kmemleak.sh reports only what the scripts in
# between leaked: the KUnit tests, the failslab error paths, and its own
# load/use/unload cycles.
#
# Only the debug kernel has kmemleak; elsewhere the script skips.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak

if [ ! -e "$KMEMLEAK" ]; then
	echo "1..0 # SKIP no $KMEMLEAK (the kernel has no kmemleak)"
	exit 0
fi

plan 1
if echo scan >"$KMEMLEAK" 2>"$T/err"; then
	old=$(grep -c '^unreferenced object' "$KMEMLEAK")
	if [ "$old" -ne 0 ]; then
		diag "forgetting $old report(s) from before the tests:"
		diag "$(head -n 40 "$KMEMLEAK")"
	fi
	echo clear >"$KMEMLEAK"
	ok "kmemleak scans; baseline taken ($old earlier report(s) forgotten)"
else
	not_ok "kmemleak scans; baseline taken" "$(cat "$T/err")" \
		"$(dmesg | grep -i kmemleak | tail -n 5)"
fi
done_testing
