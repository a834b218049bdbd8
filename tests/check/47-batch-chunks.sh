#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A batch becomes visible in order, chunk by chunk (in GET_STATS, sysfs and
# listings), and a concurrent CLEAR falls only between two chunks: one
# process pushes batches of 1000 distinctive readings, another CLEARs in a
# loop, and an observer checks every snapshot
# (tests/progs/batch_chunks.c, whose four results are replayed here).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 6

check_load "load seqring.ko capacity=64000 (64 batches of 1000)" capacity=64000
"$BIN/batch_chunks" -b 1000 -t 10 >"$T/out" 2>&1
rc=$?
tap_include "" "$T/out"
while [ "$TAP_INC_RAN" -lt 4 ]; do
	TAP_INC_RAN=$((TAP_INC_RAN + 1))
	not_ok "batch_chunks test $TAP_INC_RAN not run: it stopped early (exit status $rc)"
done
check_unload "unload seqring.ko"
done_testing
