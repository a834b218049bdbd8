#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 89-journalctl.sh - dump and watch take journalctl's options (guest,
# busybox ash): -n N the last N readings held (after the filters; N in
# the next word or none: 10; all), -f (dump -f is watch, which starts
# with the last 10), -r, -g, -q, --no-pager, --utc, --since/--until in
# journalctl's time forms, and -o short|short-precise|short-iso|json|
# json-pretty|cat|verbose|export.
#
# The readings have known times: one at 1000000000 s (2001-09-09 01:46:40
# UTC, the guest's zone), then 2 h, 10 min and 1 min ago, then one now.
# Their values are 0 to 4, so a selection shows as its values.

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 50

check_load "load seqring capacity=64" capacity=64 || fail_rest "seqring did not load"

now=$(date +%s)
"$CTL" push -c 0 -t 1000000000000000000 0 &&
	"$CTL" push -c 1 -t "$(((now - 7200) * 1000000000))" 1 &&
	"$CTL" push -c 2 -t "$(((now - 600) * 1000000000))" 2 &&
	"$CTL" push -c 1 -t "$(((now - 60) * 1000000000))" 3 &&
	"$CTL" push -c 2 4 || diag "seqringctl push failed"

# The selections: ARGS (one word, "," between arguments) and the values
# dump shows with them.
selections="
-n,2				3 4
-n,0				-
-n,100				0 1 2 3 4
-n,1,-c,1			3
-n,2,-c,1			1 3
--lines=1			4
--since=-30min			2 3 4
--since=-5min			3 4
-S,-1h,-U,-5min			2
--until=-5min			0 1 2
--since=5min_ago		3 4
--since=@999999999,--until=@1000000001	0
--since=2001-09-09_01:46:40,--until=2001-09-09_01:46:41	0
--since=2001-09-09,--until=2001-09-09_01:47	0
--since=yesterday,-n,2		3 4
--since=tomorrow		-
--until=now			0 1 2 3 4
"
while read -r args want; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086 # the arguments are words
	got=$(IFS=,; set -f; "$CTL" dump $(echo "$args" | tr _ ' ') 2>&1 |
		cut -d ' ' -f 4 | words)
	is "$want" "${got:--}" "dump $(echo "$args" | tr ',_' '  '): values $want"
done <<TABLE
$selections
TABLE

# -o: each mode on the newest reading (seq 5, channel 2, value 4, no label)
# and on the oldest (seq 1, at 1000000000 s).
like "$("$CTL" dump -n 1 -o cat)" '^channel 2 value 4 label -$' "-o cat: the journal's MESSAGE"
like "$("$CTL" dump -n 1 -o short)" \
	'^[A-Z][a-z][a-z] [0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] seqring\[5\]: channel 2 value 4 label -$' \
	"-o short: Mon DD HH:MM:SS seqring[SEQ]: MESSAGE"
like "$("$CTL" dump -n 1 -o short-precise)" \
	'^[A-Z][a-z][a-z] [0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]{6} seqring\[5\]: channel 2 value 4 label -$' \
	"-o short-precise: with microseconds"
is "2001-09-09T01:46:40+00:00 seqring[1]: channel 0 value 0 label -" \
	"$("$CTL" dump --until=@1000000001 -o short-iso)" "-o short-iso: ISO 8601 to the second"
is "Sep 09 01:46:40 seqring[1]: channel 0 value 0 label -" \
	"$("$CTL" dump --until=@1000000001 -o short)" "-o short: the oldest reading's time"
is "$("$CTL" dump --json | jq -c .)" "$("$CTL" dump -o json | jq -c .)" \
	"-o json is --json"
is "$("$CTL" dump -o json | jq -c .)" "$("$CTL" dump -o json-pretty | jq -c .)" \
	"-o json-pretty: the same objects, one member a line"
is 8 "$("$CTL" dump -n 1 -o json-pretty | wc -l)" "-o json-pretty: 6 members, 8 lines"

# -f: dump -f follows as watch does; watch -n N shows N held, then new ones.
: >"$T/f"
"$BIN/sigdfl" "$CTL" dump -f -n 1 --count=2 >"$T/f" 2>"$T/fe" &
fpid=$!
_tap_pids="$_tap_pids $fpid"
i=0
while [ "$(wc -l <"$T/f")" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
"$CTL" push 5
wait "$fpid"
is "0 4 5" "$? $(cut -d ' ' -f 4 "$T/f" | words)" \
	"dump -f -n 1 --count=2: the newest held, then the one pushed, as watch"

# Usage errors: nothing read, exit status 2, a message that says why.
usage_errors="
--since=soon			invalid.time
-o,shrot			unknown.output.mode
-r,-f				-r.goes.with
-g,(				invalid.pattern
-n,2,--after=1			-n.goes.with
--since=@2,--until=@1		--until.is.before
--lines=many			invalid.number
-n,many				unexpected.argument
"
while read -r args pattern; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	(IFS=,; set -f; "$CTL" dump $args) >"$T/u" 2>"$T/ue"
	st=$?
	is "2 yes" "$st $(grep -q -e "$pattern" "$T/ue" && echo yes)" \
		"dump $(echo "$args" | tr ',' ' '): usage error (2), says why" ||
		diag "$(cat "$T/ue")"
done <<TABLE
$usage_errors
TABLE

# -o verbose and -o export of the oldest reading (at 1000000000 s).
printf '%s\n' "Sun 2001-09-09 01:46:40.000000 UTC [seqring seq=1]" \
	"    MESSAGE=channel 0 value 0 label -" "    PRIORITY=6" \
	"    SYSLOG_IDENTIFIER=seqringctl" "    SYSLOG_TIMESTAMP=Sep  9 01:46:40" \
	"    SEQRING_SEQ=1" "    SEQRING_TIMESTAMP_NS=1000000000000000000" \
	"    SEQRING_CHANNEL=0" "    SEQRING_VALUE=0" "    SEQRING_LABEL=-" >"$T/want"
"$CTL" dump --until=@1000000001 -o verbose >"$T/got"
same_file "$T/want" "$T/got" "-o verbose: the time, where the reading is, then each field on a line"
{
	echo "__REALTIME_TIMESTAMP=1000000000000000"
	sed -n 's/^    //p' "$T/want" | sed 's/^SEQRING_LABEL=-$/SEQRING_LABEL=/'
	echo
} >"$T/want-export"
"$CTL" dump --until=@1000000001 -o export >"$T/got"
same_file "$T/want-export" "$T/got" "-o export: the reading's time, each field KEY=VALUE, an empty line after"

# --utc: the same times in UTC. TZ=CET-1 is an hour east of UTC.
is "2001-09-09T02:46:40+01:00 2001-09-09T01:46:40+00:00" \
	"$(TZ=CET-1 "$CTL" dump --until=@1000000001 -o short-iso | cut -d ' ' -f 1) $(TZ=CET-1 "$CTL" dump --utc --until=@1000000001 -o short-iso | cut -d ' ' -f 1)" \
	"--utc: times in UTC, not in the local zone"
is "$("$CTL" dump)" "$("$CTL" dump --no-pager)" "--no-pager: taken, and nothing changes"

# Fifteen readings of channel 7, values 100 to 114, for -n, -r, -g and
# watch's last 10.
i=100
while [ $i -le 114 ]; do
	"$CTL" push -c 7 $i || diag "push $i failed"
	i=$((i + 1))
done
# c7 ARGS...: the values dump ARGS shows of channel 7.
c7() {
	"$CTL" dump -c 7 "$@" 2>&1 | cut -d ' ' -f 4 | words
}
is "105 106 107 108 109 110 111 112 113 114" "$(c7 -n)" "-n without a number: the last 10, as journalctl"
is "112 113 114" "$(c7 -n 3)" "-n 3: the number in the next word, as journalctl takes it"
is "113 114" "$(c7 -n2)" "-n2: in the same word"
is 15 "$(c7 -n all | wc -w)" "-n all: every reading held"
is "114 113 112" "$(c7 -r -n 3)" "-r -n 3: the last 3, newest first"
is "114 100" "$(c7 -r | cut -d ' ' -f 1,15)" "-r: all, newest first"
is "110 111 112" "$(c7 -g 'value 11[0-2] ')" "-g PATTERN: the readings whose message matches"
"$CTL" push -c 8 -l Kitchen 1 || diag "push of Kitchen failed"
g1=$(c7 -g 'channel 7 value 11[34]')
g2=$(c7 -g 'Channel 7')
g3=$("$CTL" dump -c 8 -g kitchen | cut -d ' ' -f 4)
g4=$("$CTL" dump -c 8 -g KITCHEN | cut -d ' ' -f 4)
is "113 114/-/1/-" "${g1:--}/${g2:--}/${g3:--}/${g4:--}" \
	"-g: without a capital any case matches, with one only that case"

# watch starts with the last 10, as journalctl -f and tail -f.
"$BIN/sigdfl" "$CTL" watch -c 7 --count=10 >"$T/w" 2>&1
is "0 105 114" "$? $(head -n 1 "$T/w" | cut -d ' ' -f 4) $(tail -n 1 "$T/w" | cut -d ' ' -f 4)" \
	"watch: the last 10 held first (105 to 114), as journalctl -f"
"$BIN/sigdfl" "$CTL" watch -c 7 -n all --count=1 >"$T/w" 2>&1
is 100 "$(cut -d ' ' -f 4 "$T/w")" "watch -n all: from the oldest held"

# -q: no note of readings missed (here: a cursor from before a reload).
echo 100000 >"$T/cursor"
"$CTL" dump -q --cursor-file "$T/cursor" >/dev/null 2>"$T/q"
echo 100000 >"$T/cursor"
"$CTL" dump --cursor-file "$T/cursor" >/dev/null 2>"$T/nq"
is "0 1" "$(wc -l <"$T/q") $(wc -l <"$T/nq")" "-q: no note on stderr of what was missed (one without)"

unload_seqring
done_testing
