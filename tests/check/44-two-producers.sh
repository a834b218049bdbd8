#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Two producers pinned to CPUs 0 and 1 push one reading each at the same
# moment, round after round (tests/progs/two_producers.c, whose two
# results are replayed here): once both pushes have returned, both
# readings are visible (next_seq past them), with no further push. Without
# the full barrier between a producer's commit and its publish walk, two
# producers that commit at once can each see the other's slot still busy
# and publish neither (store buffering): under tcg on x86 that showed 22
# times in 11 million rounds, so this short run finds it only now and then:
# `make check-all` runs it for 120 s, and any run can be made longer with
# VM_APPEND=seqringtest.two_producers_s=SECONDS on the kernel command line
# (default 20).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 4

secs=$(sed -n 's/.*seqringtest\.two_producers_s=\([0-9]*\).*/\1/p' /proc/cmdline)
check_load "load seqring.ko: a fresh ring, nobody else pushes"
"$BIN/two_producers" /dev/seqring "${secs:-20}" >"$T/out" 2>&1
rc=$?
tap_include "" "$T/out"
while [ "$TAP_INC_RAN" -lt 2 ]; do
	TAP_INC_RAN=$((TAP_INC_RAN + 1))
	not_ok "two_producers test $TAP_INC_RAN not run: it stopped early (exit status $rc)"
done
check_unload "unload seqring.ko"
done_testing
