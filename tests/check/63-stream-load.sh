#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Streaming under load (tests/bin/stream_load): concurrent writers, stream
# consumers (blocking read() and poll() + O_NONBLOCK), listing readers and
# resizes, bounded in time. Three runs:
#   1. a ring that holds every reading: two independent consumers each see
#      every reading exactly once, no EPIPE;
#   2. resizes between sizes that all hold every reading: nothing is lost,
#      nothing shown twice, by consumers or listings;
#   3. resizes up and down to sizes far below the readings pushed:
#      consumers fall behind, but never see a reading twice or out of
#      order, every gap comes after an EPIPE, every record and listing
#      line is a reading as it was pushed, and the counters add up.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

# run DESC CAPACITY STREAM_LOAD_ARGS...: one run on a fresh module, its TAP
# replayed with the prefix "[DESC] ", plus rmmod after it.
run() {
	_desc=$1
	_cap=$2
	shift 2
	if ! load_seqring capacity="$_cap" >"$T/load" 2>&1; then
		not_ok "[$_desc] insmod seqring.ko capacity=$_cap" "$(cat "$T/load")"
		return
	fi
	"$BIN/stream_load" "$@" >"$T/run.tap" 2>&1
	_rc=$?
	tap_include "[$_desc] " "$T/run.tap"
	if [ "$TAP_INC_PLAN" -gt 0 ] && [ "$TAP_INC_RAN" -eq "$TAP_INC_PLAN" ] &&
	   [ "$_rc" -le 1 ]; then
		ok "[$_desc] stream_load ran its whole plan"
	else
		not_ok "[$_desc] stream_load ran its whole plan" \
			"expected $TAP_INC_PLAN results and exit status 0 or 1, got $TAP_INC_RAN and $_rc"
	fi
	check "[$_desc] rmmod seqring afterwards" unload_seqring
}

# Plans of stream_load: 1 + consumers * (3, or 4 with -a) + 1 with -l
# + 1 with -s + 2; then 2 of our own per run.
plan $(( (1 + 2 * 4 + 1 + 0 + 2 + 2) + (1 + 2 * 4 + 1 + 1 + 2 + 2) +
	(1 + 3 * 3 + 1 + 1 + 2 + 2) ))

run "all fit" 32768 -a -w 2 -c 2 -n 10000 -l 1 -t 35
run "resize, all fit" 20001 -a -w 2 -c 2 -n 10000 -l 1 \
	-s 32768,20001,65536,24000 -t 35
run "resize down and up" 64 -w 3 -c 3 -n 30000 -l 1 \
	-s 16,4096,1,64,1024,7,256 -t 35
done_testing
