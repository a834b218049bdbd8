#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PUSH_BATCH from four processes sharing one open file of /dev/seqring (fork
# after open): they share the file's batch buffer, and batches that find it
# busy, or that are larger than it, take their own copy. Each process's
# readings must all arrive, once and in order (tests/progs/batch_shared.c,
# whose three results are replayed here).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 5

check_load "load seqring.ko with room for every reading (capacity=131072)" \
	capacity=131072
tap_program "" 3 "$BIN/batch_shared" 4 10
check_unload "unload seqring.ko"
done_testing
