#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Labels in the listing: every byte that is not printable ASCII comes out
# as an octal escape \ooo: space and all control bytes (0x00-0x20), 0x7f,
# bytes >= 0x80, and the backslash itself (\134). So every reading stays
# one line of five fields, no label can move a terminal's cursor or start
# an escape sequence, and the label is recovered exactly by undoing the
# escapes. An empty label prints "-", and a label that is literally "-"
# prints "\055", so the two are told apart.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 28

check_load "load seqring.ko capacity=32" capacity=32

n=0
# label_is LABEL EXPECTED DESC: push one reading with LABEL, check how the
# newest listing line shows it.
label_is() {
	n=$((n + 1))
	if ! push 1 -v "$n" -l "$1"; then
		not_ok "$3" "push_n -l failed"
		return
	fi
	is "$n $2" "$(listing | tail -n 1 | awk '{ print $1, $5 }')" "$3"
}

label_is "a b" 'a\040b' "a space is escaped as \\040"
label_is "$(printf 'a\tb')" 'a\011b' "a tab is escaped as \\011"
label_is "$(printf 'a\nb')" 'a\012b' "a newline is escaped as \\012"
label_is 'a\b' 'a\134b' "a backslash is escaped as \\134"
label_is "" "-" "an empty label prints as -"
label_is " " '\040' "a label of one space is escaped, not shown as -"
# shellcheck disable=SC1003 # a literal backslash
label_is "$(printf ' \t\n\\')" '\040\011\012\134' "all four escaped characters in a row"
label_is "$(printf '  x\n\nx')" '\040\040x\012\012x' "leading spaces and repeated newlines"
label_is abcdefghijklmno abcdefghijklmno "a 15-byte label is listed whole"
# shellcheck disable=SC1003 # literal backslashes
label_is '\\\\\\\\\\\\\\\' \
	'\134\134\134\134\134\134\134\134\134\134\134\134\134\134\134' \
	"15 backslashes become 60 bytes of escapes"
label_is 'x=1,y:2#%"' 'x=1,y:2#%"' "other printable characters pass through"
label_is "$(printf 'a\rb')" 'a\015b' "a carriage return is escaped as \\015"
label_is "$(printf 'a\033[2Jb')" 'a\033[2Jb' "ESC is escaped as \\033 (no terminal escape sequence gets through)"
label_is "$(printf 'a\vb')" 'a\013b' "a vertical tab is escaped as \\013"
label_is "$(printf 'a\fb')" 'a\014b' "a form feed is escaped as \\014"
label_is "$(printf '\001\034\035\036\037')" '\001\034\035\036\037' \
	"0x01 and 0x1c-0x1f are escaped"
label_is "$(printf 'a\177b')" 'a\177b' "DEL (0x7f) is escaped as \\177"
label_is "$(printf 'caf\303\251')" 'caf\303\251' \
	"bytes >= 0x80 (UTF-8 here) are escaped one by one"
label_is "$(printf '\200\377')" '\200\377' "0x80 and 0xff are escaped"
label_is "-" '\055' "a label that is literally - prints as \\055, unlike an empty one"
label_is "a-b" "a-b" "a - inside a label passes through"
label_is '~!' '~!' "the last printable ASCII byte (~) passes through"

is "$n" "$(listing | wc -l)" "$n labelled pushes give $n listing lines"
is 0 "$(listing | awk 'NF != 5' | wc -l)" "every line still has exactly 5 fields"

before=$(stat_get total)
if push 1 -l 0123456789abcdef 2>"$T/err"; then
	not_ok "a 16-byte label (no NUL) is refused" "expected push_n to fail, it succeeded"
else
	ok "a 16-byte label (no NUL) is refused"
	diag "push_n said: $(cat "$T/err")"
fi
is "$before" "$(stat_get total)" "... and nothing is stored"

check_unload "rmmod seqring"
done_testing
