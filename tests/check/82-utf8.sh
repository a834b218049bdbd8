#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 82-utf8.sh - labels as each output mode writes them, against the text
# expected (guest, busybox ash): the listing escapes every byte outside
# printable ASCII; the forms for people (-o short, short-precise,
# short-iso, cat, verbose, top) write valid UTF-8 as it is and escape only
# bytes that are not UTF-8, control characters (ESC, a C1 control) and the
# backslash; JSON has a string for UTF-8 and an array of bytes for the
# rest; -o export writes printable UTF-8 as KEY=VALUE and the rest in the
# export format's binary form; top pads its label column to 16 terminal
# cells, a character of Japanese counting two.
#
# Every reading has the time 1000000000 s (2001-09-09 01:46:40 UTC, the
# guest's zone) and value 1; its channel is its number in the table.

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 14

check_load "load seqring capacity=16" capacity=16

# The labels, one per line: how to make it (printf's format), how the
# listing writes it, how people read it (the forms for people), how JSON
# writes it, the cells after it in top's column of 16 (none: "-" 0).
table='
caf\303\251	caf\134303\134251	caf\303\251	"caf\303\251"	12
\346\227\245\346\234\254\350\252\236	\134346\134227\134245\134346\134234\134254\134350\134252\134236	\346\227\245\346\234\254\350\252\236	"\346\227\245\346\234\254\350\252\236"	10
a b	a\134040b	a b	"a b"	13
caf\351	caf\134351	caf\134351	[99, 97, 102, 233]	9
a\033[2Jb	a\134033[2Jb	a\134033[2Jb	"a\134u001b[2Jb"	7
x\134y	x\134134y	x\134134y	"x\134\134y"	10
\302\233	\134302\134233	\134302\134233	"\302\233"	8
-	\134055	\134055	"-"	12
	-	-	""	15
'
# field N: column N of the table, each line through printf.
field() {
	printf '%s\n' "$table" | awk -F '\t' -v n="$1" 'NF { print $n }' |
		while IFS= read -r f; do printf "$f\n"; done
}

i=0
field 1 >"$T/labels"
while IFS= read -r label; do
	i=$((i + 1))
	if [ -n "$label" ]; then
		"$CTL" push -c "$i" -t 1000000000000000000 -l "$label" 1
	else
		"$CTL" push -c "$i" -t 1000000000000000000 1
	fi || diag "push of label $i failed"
done <"$T/labels"
n=$i

# expect FILE FORMAT: one line per reading, FORMAT given the number, the
# listing's label, the label for people and JSON's, in that order (it
# must take all four: printf uses a format again for arguments left),
# "@" in it the number too.
expect() {
	field 2 >"$T/f2"
	field 3 >"$T/f3"
	field 4 >"$T/f4"
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		# shellcheck disable=SC2059 # the format is the caller's
		printf "$2" "$i" "$(sed -n "${i}p" "$T/f2")" "$(sed -n "${i}p" "$T/f3")" \
			"$(sed -n "${i}p" "$T/f4")" | sed "s/@/$i/g"
	done >"$1"
}

expect "$T/x" '%s 1000000000000000000 @ 1 %s%.0s%.0s\n'
"$CTL" dump >"$T/g"
same_file "$T/x" "$T/g" "-o listing (the default): every byte outside printable ASCII escaped"
listing >"$T/l"
same_file "$T/l" "$T/g" "... as /proc/seqring writes it"

expect "$T/x" 'channel %.0s@ value 1 label %.0s%s%.0s\n'
"$CTL" dump -o cat >"$T/g"
same_file "$T/x" "$T/g" "-o cat: UTF-8 as it is; not UTF-8, controls and the backslash escaped"

expect "$T/x" 'Sep 09 01:46:40 seqring[%s]: channel @ value 1 label %.0s%s%.0s\n'
"$CTL" dump -o short >"$T/g"
same_file "$T/x" "$T/g" "-o short: the same message"
expect "$T/x" 'Sep 09 01:46:40.000000 seqring[%s]: channel @ value 1 label %.0s%s%.0s\n'
"$CTL" dump -o short-precise >"$T/g"
same_file "$T/x" "$T/g" "-o short-precise: the same message"
expect "$T/x" '2001-09-09T01:46:40+00:00 seqring[%s]: channel @ value 1 label %.0s%s%.0s\n'
"$CTL" dump -o short-iso >"$T/g"
same_file "$T/x" "$T/g" "-o short-iso: the same message"

expect "$T/x" '{"seq": "%s", "timestamp_ns": "1000000000000000000", "time": "2001-09-09T01:46:40.000000000+00:00", "channel": @, "value": "1", "label": %.0s%.0s%s}\n'
"$CTL" dump -o json >"$T/g"
same_file "$T/x" "$T/g" "-o json: a UTF-8 label a string (controls and backslash escaped), any other its bytes"
"$CTL" dump -o json-pretty | tr -d '\n\t' | sed 's/}{/}\n{/g; s/,"/, "/g' >"$T/g"
echo >>"$T/g"
same_file "$T/x" "$T/g" "-o json-pretty: the same labels"

expect "$T/x" '    SEQRING_LABEL=%.0s%.0s%s%.0s\n'
"$CTL" dump -o verbose | grep '^    SEQRING_LABEL=' >"$T/g"
same_file "$T/x" "$T/g" "-o verbose: SEQRING_LABEL as people read it"
expect "$T/x" '    MESSAGE=channel @ value 1 label %.0s%.0s%s%.0s\n'
"$CTL" dump -o verbose | grep '^    MESSAGE=' >"$T/g"
same_file "$T/x" "$T/g" "-o verbose: MESSAGE the same"

# -o export: printable UTF-8 as KEY=VALUE; caf\351, ESC and the C1
# control in the binary form: the name, a newline, the length as 8 bytes
# little-endian, the bytes, a newline. Compared as hex: "SEQRING_LABEL\n"
# is 53 45 51 52 49 4e 47 5f 4c 41 42 45 4c 0a.
"$CTL" dump -o export >"$T/e"
text=$(grep -a '^SEQRING_LABEL=' "$T/e" | awk '{ printf "%s;", $0 }')
want=$(printf 'SEQRING_LABEL=caf\303\251;SEQRING_LABEL=\346\227\245\346\234\254\350\252\236;SEQRING_LABEL=a b;SEQRING_LABEL=x\134y;SEQRING_LABEL=-;SEQRING_LABEL=;')
hex=$(od -An -v -tx1 "$T/e" | tr -d ' \n')
name=5345515249 # SEQRI
name=${name}4e475f4c4142454c0a
bin=
for b in 0400000000000000636166e9 0600000000000000611b5b324a62 0200000000000000c29b; do
	case $hex in *"$name$b"0a*) bin="$bin yes" ;; *) bin="$bin no" ;; esac
done
is "$want bin: yes yes yes $n" "$text bin:$bin $(grep -ac '^__REALTIME_TIMESTAMP=1000000000000000$' "$T/e")" \
	"-o export: printable UTF-8 labels as KEY=VALUE, the others in the binary form, the reading's time"

# top: the label column is 16 cells wide, whatever the bytes; a line
# up to the channel column, without the value and age (" %20s %9s").
field 3 >"$T/f3"
printf '%s\n' "$table" | awk -F '\t' 'NF { print $5 }' >"$T/f5"
paste "$T/f3" "$T/f5" | awk -F '\t' '{ printf "  %s%" $2 "s %10s\n", $1, "", NR }' >"$T/x"
"$CTL" top -i 0.1 | awk '/^  / && !/LATEST VALUE/ { print substr($0, 1, length($0) - 31) }' >"$T/g"
same_file "$T/x" "$T/g" "top: labels as people read them, in a column of 16 terminal cells"

check_unload "unload seqring.ko"
done_testing
