#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Readers and writers at the same time (the VM has 2 CPUs): a reader that
# keeps reading its open /proc/seqring while two processes push sees every
# reading exactly once, in sequence order, each writer's readings in the
# order it pushed them; with a small ring it may miss overwritten readings
# but still never sees one twice or out of order.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 11

N=20000

# read_while_pushing OUT: start two pushers (channels 1 and 2, values
# 1..N, one PUSH each), read fd 3 into OUT until both are done, then
# twice more: the listing moves its end after two end of files in a row,
# and cat appending to OUT reads with read() (sendfile() refuses O_APPEND),
# so one cat ends at the first.
read_while_pushing() {
	"$BIN/push_n" -c 1 $N &
	pa=$!
	"$BIN/push_n" -c 2 $N &
	pb=$!
	: >"$1"
	reads=0
	while kill -0 "$pa" 2>/dev/null || kill -0 "$pb" 2>/dev/null; do
		cat <&3 >>"$1"
		reads=$((reads + 1))
	done
	wait "$pa"
	ra=$?
	wait "$pb"
	rb=$?
	cat <&3 >>"$1"
	cat <&3 >>"$1"
	diag "the reader read its fd to EOF $reads times while the pushers ran"
	[ $ra -eq 0 ] && [ $rb -eq 0 ]
}

# strictly_increasing FILE: prints the first seq that is not larger than
# the one before it (nothing if there is none).
strictly_increasing() {
	awk '!/^#/ { if (n++ && $1 <= last) { print "seq " $1 " after " last; exit } last = $1 }' "$1"
}

check_load "load seqring.ko capacity=$((2 * N))" capacity=$((2 * N))
exec 3<"$PROC"
if read_while_pushing "$T/reads"; then
	ok "two pushers of $N readings each finish"
else
	not_ok "two pushers of $N readings each finish" "push_n exit status $ra and $rb"
fi
exec 3<&-
is 1 "$(grep -c '^#' "$T/reads")" "the reader saw the header once"
is "$(seq 1 $((2 * N)) | words)" "$(awk '!/^#/ { print $1 }' "$T/reads" | words)" \
	"the reader saw seqs 1..$((2 * N)), each once, in order"
is "$(seq 1 $N | words) $(seq 1 $N | words)" \
	"$(awk '$3 == 1 { print $4 }' "$T/reads" | words) $(awk '$3 == 2 { print $4 }' "$T/reads" | words)" \
	"each pusher's values 1..$N appear in the order it pushed them"
check_unload "rmmod seqring"

check_load "load seqring.ko capacity=64" capacity=64
exec 3<"$PROC"
read_while_pushing "$T/reads"
exec 3<&-
is "" "$(strictly_increasing "$T/reads")" \
	"with capacity 64 the reader's seqs still strictly increase (gaps allowed)"
# In a ring of 64 a pusher may find no free slot while the other is held
# off its CPU inside a push (ENOBUFS, counted lost): the last reading is
# the ring's newest, and what was pushed was stored or counted lost.
last=$(awk 'END { print $1 }' "$T/reads")
is "$(stat_get newest_seq)" "$last" "... and it ends with the ring's newest reading"
is $((2 * N)) "$(($(stat_get total) + $(stat_get lost)))" \
	"every reading pushed was stored or counted lost"
check_unload "rmmod seqring"
done_testing
