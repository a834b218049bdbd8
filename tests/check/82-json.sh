#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 82-json.sh - every JSON text seqringctl prints, read back by a real JSON
# parser (jq, copied in from the host by tests/check/binaries.txt): one
# object per line, 64-bit numbers as strings (exact where a JSON number
# would be rounded), a label that is valid UTF-8 as a string of its
# characters, any other label as the array of its bytes (seqringctl(1),
# JSON OUTPUT).

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 13

command -v jq >/dev/null || fail_rest "jq is not in the VM (tests/check/binaries.txt)"
check_load "load seqring capacity=16" capacity=16

utf8=$(printf 'caf\303\251')	# café in UTF-8
latin1=$(printf 'caf\351')	# café in ISO 8859-1: not UTF-8
ctrl=$(printf 'a"b\\c\td')	# a quote, a backslash and a tab
# Above 2^53, where a double cannot hold every integer.
big_ts=18446744073709551615
min_val=-9223372036854775808

"$CTL" push -l "$utf8" 1 &&
	"$CTL" push -l "$latin1" 2 &&
	"$CTL" push -l "$ctrl" 3 &&
	"$CTL" push -c 4294967295 -t "$big_ts" -- "$min_val" &&
	"$CTL" push 5 ||
	fail_rest "seqringctl push failed"

"$CTL" watch --json --count=5 >"$T/j" 2>"$T/e"
is 0 $? "watch --json --count=5 exits 0"
jq -c . "$T/j" >"$T/parsed" 2>"$T/jqe"
is "0 5" "$? $(wc -l <"$T/parsed")" "jq parses all of it: five JSON texts" ||
	diag "$(cat "$T/jqe")"
is 5 "$(grep -c '^{.*}$' "$T/j")" "... one object per line"

# label N: the label of the Nth reading, as jq gives it back (-r: raw).
label() {
	sed -n "$1p" "$T/j" | jq -r .label
}
is "$utf8" "$(label 1)" "a UTF-8 label comes back as the same characters"
like "$(sed -n 1p "$T/j")" "\"label\": \"$utf8\"" \
	"... written as they are, not as \\u escapes"
is "[99,97,102,233]" "$(sed -n 2p "$T/j" | jq -c .label)" \
	"a label that is not UTF-8 is the array of its bytes"
is "$ctrl" "$(label 3)" "a quote, a backslash and a tab come back as they were"
is '""' "$(sed -n 5p "$T/j" | jq -c .label)" "the empty label is \"\""

is "string string string number" \
	"$(sed -n 1p "$T/j" | jq -r '[.seq, .timestamp_ns, .value, .channel] | map(type) | join(" ")')" \
	"seq, timestamp_ns and value are strings, channel a number"
is "$big_ts $min_val 4294967295" \
	"$(sed -n 4p "$T/j" | jq -r '"\(.timestamp_ns) \(.value) \(.channel)"')" \
	"the largest timestamp, the smallest value and the largest channel are exact"

"$CTL" stats --json >"$T/s" 2>"$T/e"
is "0 string" "$? $(jq -r '[.[] | type] | unique | join(" ")' "$T/s")" \
	"stats --json parses, every counter a string"

check_unload "rmmod seqring"
done_testing
