#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /proc/seqring: the header line, then one line per reading, oldest first,
# "SEQ TIMESTAMP_NS CHANNEL VALUE LABEL", with the values that were pushed.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 20

check_load "load seqring.ko capacity=64" capacity=64

printf '%s\n' "$HEADER" >"$T/header"
cat "$PROC" >"$T/empty"
same_file "$T/header" "$T/empty" "an empty ring lists the header line only"
is 440 "$(stat -c %a "$PROC")" "/proc/seqring has mode 0440 (group seqring: 90-udev)"

t0=$(date +%s)
push 5 -c 3
t1=$(date +%s)
cat "$PROC" >"$T/five"
is "$HEADER" "$(head -n 1 "$T/five")" "the first line is the header"
is 1 "$(grep -c '^#' "$T/five")" "the header appears exactly once"
is 5 "$(listing "$T/five" | wc -l)" "5 pushes give 5 reading lines"
is "1 2 3 4 5" "$(listing_col 1 "$T/five")" "sequence numbers are 1..5, oldest first"
is "1 2 3 4 5" "$(listing_col 4 "$T/five")" "values are the pushed 1..5, in push order"
is "3 3 3 3 3" "$(listing_col 3 "$T/five")" "channels are the pushed 3"
is "- - - - -" "$(listing_col 5 "$T/five")" "an empty label prints as -"
is 0 "$(listing "$T/five" | awk 'NF != 5' | wc -l)" "every reading line has exactly 5 fields"
# Timestamps were 0, so the driver stamped them with the real-time clock:
# the seconds part must lie between the dates taken around the pushes.
bad=$(listing "$T/five" | awk -v a="$t0" -v b="$t1" '
	length($2) < 19 || substr($2, 1, length($2) - 9) + 0 < a + 0 ||
	substr($2, 1, length($2) - 9) + 0 > b + 0 { print $2 }' | words)
is "" "$bad" "driver-stamped timestamps lie between $t0 and $t1 (seconds)"

push 4 -b -v 100 -c 7
exp="6 7 100 -;7 7 101 -;8 7 102 -;9 7 103 -"
got=$(listing | tail -n 4 | awk '{ printf "%s%s %s %s %s", sep, $1, $3, $4, $5; sep = ";" }')
is "$exp" "$got" "a PUSH_BATCH of 4 lists seqs 6..9 with values 100..103, channel 7"

push 1 -t 1234567890 -v 7
is "10 1234567890 0 7 -" "$(listing | tail -n 1)" "a given timestamp is listed as pushed"

push 1 -t 18446744073709551615 -v -9223372036854775808 -c 4294967295 -l max
is "11 18446744073709551615 4294967295 -9223372036854775808 max" \
	"$(listing | tail -n 1)" \
	"extreme values: u64 timestamp, u32 channel, s64 value print in full"

exec 3<"$PROC"
cat <&3 >"$T/first"
cat <&3 >"$T/second"
cat "$PROC" >"$T/fresh"
same_file "$T/fresh" "$T/first" "reading an fd to EOF gives the whole listing"
is 0 "$(wc -c <"$T/second")" "reading the same fd again after EOF gives nothing (no second header)"
exec 3<&-

"$BIN/clear_ring"
cat "$PROC" >"$T/cleared"
same_file "$T/header" "$T/cleared" "after CLEAR the listing is the header only"
push 1 -v 55
is "12 55" "$(listing | awk '{ print $1, $4 }')" "after CLEAR the next reading gets seq 12"

check_unload "rmmod seqring"
done_testing
