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
tap_program "" 4 "$BIN/batch_chunks" -b 1000 -t 10
check_unload "unload seqring.ko"
done_testing
