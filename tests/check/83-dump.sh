#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 83-dump.sh - seqringctl dump, and the options dump and watch share
# (guest, busybox ash): dump prints what the ring holds (the lines of
# /proc/seqring) and exits, also while pushes go on; --channel and --label
# keep only matching readings (each repeatable: any of them; both: all);
# --time-format=iso prints the time as ISO 8601, -T (--time-format=ctime)
# as dmesg -T does, and JSON has it as "time". jq (tests/check/binaries.txt) reads the JSON.

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 18

check_load "load seqring capacity=64" capacity=64

"$CTL" dump >"$T/d" 2>"$T/e"
is "0 0 " "$? $(wc -l <"$T/d") $(cat "$T/e")" \
	"dump of an empty ring prints nothing and exits 0 (does not wait)"

# 1000000000123456789 ns: 2001-09-09T01:46:40.123456789 UTC.
"$CTL" push -c 1 -l kitchen 10 &&
	"$CTL" push -c 2 -l "back door" 20 &&
	"$CTL" push -c 3 -l kitchen 30 &&
	"$CTL" push -c 2 -l kitchen 40 &&
	"$CTL" push -c 1 -t 1000000000123456789 50 ||
	fail_rest "seqringctl push failed"

"$CTL" dump >"$T/d" 2>"$T/e"
is 0 $? "dump exits 0"
listing >"$T/l"
same_file "$T/l" "$T/d" "dump prints the lines of /proc/seqring (without its header)"

# values FILE: the VALUE column of the lines in FILE.
values() {
	awk '{ printf "%s%s", sep, $4; sep = " " }' "$1"
}
"$CTL" dump -c 2 >"$T/d"
is "20 40" "$(values "$T/d")" "dump -c 2: only channel 2"
"$CTL" dump --channel 1 --channel=3 >"$T/d"
is "10 30 50" "$(values "$T/d")" "dump --channel 1 --channel=3: either"
"$CTL" dump -l kitchen >"$T/d"
is "10 30 40" "$(values "$T/d")" "dump -l kitchen: only that label"
"$CTL" dump -l "back door" -l kitchen >"$T/d"
is "10 20 30 40" "$(values "$T/d")" "dump -l 'back door' -l kitchen: either"
"$CTL" dump -c 2 -l kitchen >"$T/d"
is "40" "$(values "$T/d")" "dump -c 2 -l kitchen: both"

"$CTL" dump --time-format=iso >"$T/d"
is "2001-09-09T01:46:40.123456789+00:00" "$(tail -n 1 "$T/d" | cut -d ' ' -f 2)" \
	"dump --time-format=iso: the time as ISO 8601 with nanoseconds and the offset (TZ unset: UTC)"
"$CTL" dump -T >"$T/i"
is "5 [Sun Sep  9 01:46:40 2001] 1 50 -" "$(tail -n 1 "$T/i")" \
	"dump -T: the time as dmesg -T prints it, in brackets"
"$CTL" dump --time-format=ns >"$T/n"
same_file "$T/l" "$T/n" "--time-format=ns is the default"
"$CTL" dump --time-format=rfc >"$T/n" 2>"$T/e"
is 2 $? "--time-format=rfc is a usage error (exit 2)"

"$CTL" dump --json >"$T/j"
is "5 2001-09-09T01:46:40.123456789+00:00 1000000000123456789" \
	"$(jq -r .seq "$T/j" | wc -l) $(tail -n 1 "$T/j" | jq -r '"\(.time) \(.timestamp_ns)"')" \
	"dump --json: five objects, \"time\" beside \"timestamp_ns\""

"$CTL" dump -l 0123456789abcdef >"$T/d" 2>"$T/e"
is 2 $? "a filter label over 15 bytes is a usage error (exit 2)"

# watch -c 3 waits for a reading of channel 3, letting others pass.
"$CTL" clear
"$BIN/sigdfl" "$CTL" watch -c 3 --count=1 >"$T/w" 2>"$T/we" &
pid=$!
_tap_pids="$_tap_pids $pid"
"$CTL" push -c 1 60 && "$CTL" push -c 3 70 && "$CTL" push -c 3 80
if wait_gone "$pid" 10; then
	is "70" "$(values "$T/w")" "watch -c 3 --count=1 shows the first reading of channel 3, then exits"
else
	stop_pid "$pid"
	not_ok "watch -c 3 --count=1 shows the first reading of channel 3, then exits" \
		"still running after 10 s; printed '$(cat "$T/w")'"
fi

# dump stops at the newest reading there was when it began, however fast
# readings keep coming.
"$BIN/push_n" -R 100 &
pusher=$!
_tap_pids="$_tap_pids $pusher"
sleep 0.2
"$CTL" dump >"$T/d" 2>"$T/e" &
pid=$!
_tap_pids="$_tap_pids $pid"
if wait_gone "$pid" 10; then
	ok "dump exits while a producer keeps pushing"
else
	stop_pid "$pid"
	not_ok "dump exits while a producer keeps pushing" "still running after 10 s"
fi
stop_pid "$pusher"

check_unload "rmmod seqring"
done_testing
