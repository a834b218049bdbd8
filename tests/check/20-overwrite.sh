#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A full ring overwrites its oldest reading and counts it in "dropped".

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 16

check_load "load seqring.ko capacity=8" capacity=8

push 20
is "8 12 20" "$(stat_get count) $(stat_get dropped) $(stat_get total)" \
	"capacity 8, 20 pushes: count 8, dropped 12, total 20"
is "13 20" "$(stat_get oldest_seq) $(stat_get newest_seq)" \
	"... oldest_seq 13, newest_seq 20"
is 8 "$(listing | wc -l)" "... the listing has 8 readings"
is "$(seq 13 20 | words)" "$(listing_col 1)" "... the listing shows seqs 13..20 in order"
is "$(seq 13 20 | words)" "$(listing_col 4)" "... with their pushed values 13..20"

push 20 -b -v 21
is "$(seq 33 40 | words)" "$(listing_col 1)" \
	"one PUSH_BATCH of 20 into capacity 8 keeps its last 8 (seqs 33..40)"
is "$(seq 33 40 | words)" "$(listing_col 4)" "... with values 33..40"
is "8 32 40" "$(stat_get count) $(stat_get dropped) $(stat_get total)" \
	"... count 8, dropped 32, total 40"

"$BIN/clear_ring"
push 8 -v 41
is "8 32 8" "$(stat_get count) $(stat_get dropped) $(stat_get cleared)" \
	"after CLEAR, exactly filling the ring drops nothing"
is "$(seq 41 48 | words)" "$(listing_col 1)" "... and lists seqs 41..48"
push 1 -v 49
is "8 33" "$(stat_get count) $(stat_get dropped)" "one more push drops one: count 8, dropped 33"
is "42 49" "$(stat_get oldest_seq) $(stat_get newest_seq)" "... oldest_seq 42, newest_seq 49"
is "$(seq 42 49 | words)" "$(listing_col 1)" "... and the listing shows seqs 42..49"
total=$(stat_get total)
sum=$(($(stat_get count) + $(stat_get dropped) + $(stat_get cleared)))
is "$total" "$sum" "total == count + dropped + cleared"

check_unload "rmmod seqring"
done_testing
