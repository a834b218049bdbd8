#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A reader that keeps /proc/seqring open and reads again after more pushes
# gets only the new readings: no header, no duplicates, no gaps; readings
# overwritten before it got to them are skipped.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 16

check_load "load seqring.ko capacity=16" capacity=16

printf '%s\n' "$HEADER" >"$T/header"

exec 3<"$PROC"
cat <&3 >"$T/r1"
same_file "$T/header" "$T/r1" "a reader opened on the empty ring reads the header only"

push 1
cat <&3 >"$T/r2"
is "1" "$(awk '{ print $1 }' "$T/r2" | words)" \
	"after 1 push the same fd reads just the new reading (seq 1)"

push 3 -v 2
cat <&3 >"$T/r3"
is "2 3 4" "$(awk '{ print $1 }' "$T/r3" | words)" \
	"after 3 more pushes it reads just seqs 2 3 4"
is "2 3 4" "$(awk '{ print $4 }' "$T/r3" | words)" "... with their values 2 3 4"

cat <&3 >"$T/r4"
is 0 "$(wc -c <"$T/r4")" "reading again with nothing new gives nothing"

cat "$T/r2" "$T/r3" "$T/r4" >"$T/resumed"
is 0 "$(grep -c '^#' "$T/resumed")" "none of the resumed reads repeats the header"

cat "$T/r1" "$T/r2" "$T/r3" "$T/r4" >"$T/all3"
cat "$PROC" >"$T/full"
same_file "$T/full" "$T/all3" "all reads of the fd together equal one fresh full read"

push 30 -v 5
cat <&3 >"$T/r5"
is "$(seq 19 34 | words)" "$(awk '{ print $1 }' "$T/r5" | words)" \
	"30 pushes into capacity 16: the reader skips the overwritten 5..18 and reads 19..34"

"$BIN/clear_ring"
cat <&3 >"$T/r6"
is 0 "$(wc -c <"$T/r6")" "after CLEAR the reader reads nothing"
push 2 -v 35
cat <&3 >"$T/r7"
is "35 36" "$(awk '{ print $1 }' "$T/r7" | words)" "after CLEAR and 2 pushes it reads seqs 35 36"
exec 3<&-

# Stop in the middle of the header, push, then read on: the rest of the
# header and the readings held at the open, each once; after end of file
# the new reading.
exec 4<"$PROC"
cat "$PROC" >"$T/atopen"
dd bs=10 count=1 status=none <&4 >"$T/p1"
push 1 -v 37
cat <&4 >"$T/p2"
cat "$T/p1" "$T/p2" >"$T/partial"
same_file "$T/atopen" "$T/partial" \
	"10 bytes, a push, then the rest: the listing as at the open, the push came after"
cat <&4 >"$T/p3"
is 37 "$(awk '{ print $1 }' "$T/p3" | words)" "... and cat after that end of file reads the pushed seq 37"
exec 4<&-
cat "$PROC" >"$T/full"

exec 5<"$PROC"
dd bs=1 count=$((${#HEADER} + 5)) status=none <&5 >"$T/q1"
cat <&5 >"$T/q2"
exec 5<&-
cat "$T/q1" "$T/q2" >"$T/partial"
same_file "$T/full" "$T/partial" "stopping inside a reading line and reading on loses and repeats nothing"

cat "$PROC" >"$T/again"
same_file "$T/full" "$T/again" "a new reader still sees the header and every held reading"

check_unload "rmmod seqring"
done_testing
