#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seqringctl watch and seqringctl capacity against the real driver: one
# behaviour per test. watch prints what read() on /dev/seqring returns in
# the listing's format (compared with /proc/seqring line for line) or as
# JSON lines, starts at the oldest reading or with --new at the next one,
# stops after -n COUNT with status 0, dies by SIGINT, SIGTERM and SIGHUP
# (as tail -f does), ends when the reader of its pipe goes away (by
# SIGPIPE, or quietly with status 1 when SIGPIPE is ignored), and says on
# stderr how many readings it missed when it fell behind. capacity shows
# and sets the ring's size (root only).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 32

sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
sr_gid=${sr_gid:-990}

# wait_exit PID: set WAIT_RC to its exit status, waiting at most 10 s
# (then kill it: 124). Not in a subshell: only this shell can reap it, and
# until then kill -0 finds it, a zombie.
wait_exit() {
	_i=0
	while [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ] &&
	      kill -0 "$1" 2>/dev/null && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ] &&
	   kill -0 "$1" 2>/dev/null; then
		stop_pid "$1"
		WAIT_RC=124
		return
	fi
	wait "$1"
	WAIT_RC=$?
}

check_load "load seqring.ko capacity=8" capacity=8

# Labels that need escaping: a blank, a backslash, a byte >= 0x80, "-"
# itself, and none at all.
if ! { "$CTL" push -c 1 -l "a b" 10 &&
	"$CTL" push -c 2 -l 'x\y' 20 &&
	"$CTL" push -c 3 -l "$(printf 'caf\351')" 30 &&
	"$CTL" push -c 4 -l - -- -40 &&
	"$CTL" push -c 5 50; }; then
	fail_rest "seqringctl push failed"
fi

"$CTL" watch --count=5 >"$T/w" 2>"$T/e"
is 0 $? "watch --count=5 exits 0 after five readings"
is 5 "$(wc -l <"$T/w")" "... and prints five lines"
# shellcheck disable=SC1003 # the backslashes are the escapes expected
is '1 1 10 a\040b;2 2 20 x\134y;3 3 30 caf\351;4 4 -40 \055;5 5 50 -;' \
	"$(awk '{ printf "%s %s %s %s;", $1, $3, $4, $5 }' "$T/w")" \
	"... SEQ CHANNEL VALUE LABEL, labels octal-escaped, '-' as \\055, empty as -"
listing >"$T/l"
same_file "$T/l" "$T/w" "watch output equals the /proc/seqring lines"

"$CTL" watch --json --count=5 >"$T/j" 2>"$T/e"
is 0 $? "watch --json --count=5 exits 0"
# shellcheck disable=SC1003
is '"a b";"x\\y";[99, 97, 102, 233];"-";"";' \
	"$(sed 's/.*"label": \(.*\)}$/\1/' "$T/j" | awk '{ printf "%s;", $0 }')" \
	"watch --json: labels as JSON strings, one that is not UTF-8 as its bytes"
like "$(head -n 1 "$T/j")" \
	'^\{"seq": "1", "timestamp_ns": "[0-9]+", "time": "[-0-9T:.+]+", "channel": 1, "value": "10", "label": "a b"\}$' \
	"watch --json prints one object per line with seq, timestamp_ns, time, channel, value, label"

watch_bg "$T/n" "$T/ne" --new --count=1
asleep "$WATCH_PID" || diag "watch --new is not asleep"
"$CTL" push 60
wait_exit "$WATCH_PID"
is 0 "$WAIT_RC" "watch --new --count=1 exits 0 after the next push"
like "$(cat "$T/n")" '^6 [0-9]+ 0 60 -$' "... and printed only that reading"

watch_bg "$T/i" "$T/ie"
wait_lines "$T/i" 6 || diag "watch printed $(wc -l <"$T/i") lines, not 6"
asleep "$WATCH_PID" || diag "watch is not asleep"
kill -INT "$WATCH_PID"
wait_exit "$WATCH_PID"
is 130 "$WAIT_RC" "SIGINT: watch dies by it (status 128 + 2)"
is "6 " "$(wc -l <"$T/i") $(cat "$T/ie")" "... after printing the six readings held, nothing on stderr"

# die_by SIG NUMBER: watch, asleep, gets SIG and dies by it.
die_by() {
	watch_bg "$T/s" "$T/se"
	asleep "$WATCH_PID" || diag "watch is not asleep"
	kill -"$1" "$WATCH_PID"
	wait_exit "$WATCH_PID"
	is "$((128 + $2)) " "$WAIT_RC $(cat "$T/se")" \
		"SIG$1: watch dies by it (status 128 + $2), nothing on stderr"
}
die_by TERM 15
die_by HUP 1

# A signal ignored when watch starts (nohup) stays ignored.
(trap '' HUP; exec "$CTL" watch >"$T/s" 2>"$T/se") &
WATCH_PID=$!
_tap_pids="$_tap_pids $WATCH_PID"
asleep "$WATCH_PID" || diag "watch is not asleep"
kill -HUP "$WATCH_PID"
sleep 0.5
is yes "$(kill -0 "$WATCH_PID" 2>/dev/null && echo yes)" \
	"an ignored SIGHUP does not end watch"
kill -INT "$WATCH_PID"
wait_exit "$WATCH_PID"


# Fall behind: stop the watcher, overwrite 12 readings it had not read.
watch_bg "$T/b" "$T/be"
wait_lines "$T/b" 6 || diag "watch printed $(wc -l <"$T/b") lines, not 6"
asleep "$WATCH_PID" || diag "watch is not asleep"
kill -STOP "$WATCH_PID"
"$BIN/push_n" -v 100 20
kill -CONT "$WATCH_PID"
wait_lines "$T/b" 14 || diag "watch printed $(wc -l <"$T/b") lines, not 14"
kill -INT "$WATCH_PID"
wait_exit "$WATCH_PID"
is 130 "$WAIT_RC" "a watch that fell behind goes on (until SIGINT)"
like "$(cat "$T/be")" '^seqringctl: /dev/seqring: fell behind, 12 readings missed$' \
	"... and says on stderr how many readings it missed (12)"
is "19 26" "$(sed -n 7p "$T/b" | cut -d ' ' -f 1) $(tail -n 1 "$T/b" | cut -d ' ' -f 1)" \
	"... resuming at the oldest reading held (seq 19 after 6, up to 26)" ||
	diag "$(cat "$T/b")"

# watch_head DISPOSITION: "seqringctl watch | head -n 1" with SIGPIPE at
# DISPOSITION (default or ignore) in watch. Sets PIPE_RC to watch's exit
# status (124: still running after 10 s, then killed) and leaves its
# stderr in $T/pe.
watch_head() {
	rm -f "$T/rc" "$T/pid"
	(
		[ "$1" = ignore ] && trap '' PIPE
		"$CTL" watch -n all 2>"$T/pe" &
		echo $! >"$T/pid"
		wait $!
		echo $? >"$T/rc"
	) | head -n 1 >"$T/ph" &
	_pipe=$!
	_i=0
	while [ ! -s "$T/rc" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if [ -s "$T/rc" ]; then
		PIPE_RC=$(cat "$T/rc")
	else
		PIPE_RC=124
		kill "$(cat "$T/pid")"
	fi
	wait $_pipe
}

# With 6 readings held, all of them fit in the pipe: watch finds the
# reader gone while it waits for more. With 20000 (about 600 KiB of
# lines), it is still writing when head leaves.
# READINGS-HELD SIGPIPE-DISPOSITION EXIT-STATUS DESCRIPTION
pipe_cases="
6 default 141 watch | head -n 1: watch dies by SIGPIPE while waiting, nothing on stderr
6 ignore 1 ... with SIGPIPE ignored: exit status 1, nothing on stderr
20000 default 141 watch | head -n 1 of 20000 readings: SIGPIPE while writing, nothing on stderr
20000 ignore 1 ... with SIGPIPE ignored: exit status 1 (EPIPE), nothing on stderr
"
while read -r held disp want what; do
	[ -n "$held" ] || continue
	if [ "$held" = 20000 ] && [ "$(stat_get count </dev/null)" != 20000 ]; then
		"$CTL" capacity 20000 && "$BIN/push_n" 20000 </dev/null ||
			diag "could not fill a ring of 20000"
	fi
	watch_head "$disp" </dev/null
	is "$want " "$PIPE_RC $(cat "$T/pe")" "$what"
done <<EOF
$pipe_cases
EOF
is 1 "$(wc -l <"$T/ph")" "... and head got its line"
"$CTL" capacity 8 || diag "could not set the capacity back to 8"

"$CTL" watch --count=0 >"$T/w" 2>"$T/e"
is 2 $? "watch --count=0 is a usage error (exit 2)"
"$CTL" -d /dev/null watch --count=1 >"$T/w" 2>"$T/e"
is "1 yes" "$? $(grep -q '/dev/null' "$T/e" && echo yes)" \
	"watch on a device that is not seqring exits 1 naming it"

# --- capacity ---
out=$("$CTL" capacity 2>&1)
is "0 8" "$? $out" "capacity prints the capacity (8) and exits 0"
"$CTL" capacity 32 >"$T/c" 2>&1
is "0 32 32" "$? $(stat_get capacity) $(attr capacity)" \
	"capacity 32 as root resizes the ring (GET_STATS, sysfs)"
"$CTL" capacity 0 >"$T/c" 2>&1
is 2 $? "capacity 0 is a usage error (exit 2)"
"$CTL" capacity 16777217 >"$T/c" 2>&1
is 2 $? "capacity 16777217 is a usage error (exit 2)"
"$BIN/stress_runas" 1001 "1001,$sr_gid" "$CTL" capacity 64 >"$T/c" 2>"$T/ce"
is "1 32" "$? $(stat_get capacity)" \
	"capacity 64 as a member of group seqring without CAP_SYS_ADMIN exits 1, capacity unchanged"
like "$(cat "$T/ce")" '/dev/seqring: cannot set the capacity: Operation not permitted' \
	"... and says why on stderr, naming the device"

check_unload "rmmod seqring"
done_testing
