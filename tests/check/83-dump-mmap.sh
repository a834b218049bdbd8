#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 83-dump-mmap.sh - reading the ring from its mapping (issue 24), in the
# library, the tool and the sample (guest, busybox ash): libseqring's unit
# test (map_unit, also 32-bit); seqringctl dump and watch read through the
# mapping (it shows in /proc/PID/maps) and print byte for byte what they
# print with --no-mmap (read()), on stdout and stderr, in every output
# mode, with filters, cursors and readings missed, following new readings
# and falling behind; a watch that maps the ring keeps it from being
# resized (EBUSY), one with --no-mmap does not; samples/mmap-consumer
# prints the lines of /proc/seqring, follows new readings, and counts
# what it lost.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 35

# ---- the library, without the driver ----
for p in map_unit map_unit32; do
	if [ ! -x "$BIN/$p" ]; then
		skip "$p: libseqring's mapping consumer against a faked mapping" \
			"not built (no 32-bit compiler on the host)"
		continue
	fi
	"$BIN/$p" 200000 >"$T/$p" 2>&1
	is 0 $? "$p: libseqring's mapping consumer against a faked mapping" ||
		diag "$(grep -v '^ok' "$T/$p")"
done

kmsg_mark 83-dump-mmap
check_load "load seqring capacity=64" capacity=64

# 100 readings in a ring of 64: 1-36 overwritten. Labels that need the
# listing's escapes, one that is not UTF-8 (a JSON array), fixed and
# driver-made timestamps.
if ! { "$BIN/push_n" -c 1 -l kitchen 30 &&
	"$BIN/push_n" -c 2 -l "back door" -t 1000000000123456789 -v 100 30 &&
	"$CTL" push -c 3 -l "$(printf 'a\377b')" 7 &&
	"$CTL" push -c 3 -l - 8 &&
	"$BIN/push_n" -b -c 4 -v 1000 38; }; then
	fail_rest "pushing the readings failed"
fi

"$CTL" dump >"$T/d" 2>"$T/e"
listing >"$T/l"
same_file "$T/l" "$T/d" "dump through the mapping prints the lines of /proc/seqring"

# same ARGS...: dump ARGS and dump --no-mmap ARGS print the same bytes on
# stdout and stderr and exit alike.
same() {
	"$CTL" dump "$@" >"$T/m.out" 2>"$T/m.err"
	echo "exit $?" >>"$T/m.err"
	"$CTL" dump --no-mmap "$@" >"$T/r.out" 2>"$T/r.err"
	echo "exit $?" >>"$T/r.err"
	if cmp -s "$T/r.out" "$T/m.out" && cmp -s "$T/r.err" "$T/m.err" &&
	   [ -s "$T/m.out" ]; then
		ok "dump $*: the same as with --no-mmap ($(wc -l <"$T/m.out") lines)"
	else
		not_ok "dump $*: the same as with --no-mmap" \
			"read(): $(head -c 300 "$T/r.out") $(cat "$T/r.err")" \
			"mapping: $(head -c 300 "$T/m.out") $(cat "$T/m.err")"
	fi
}
for mode in listing short short-precise short-iso json json-pretty cat verbose export; do
	same -o "$mode"
done
same -T
same -n 5
same -r -n 7
same -c 2 -l "back door"
same --count=3 -c 4
# From a cursor whose readings were overwritten: stderr says how many.
same --after=20
same --since=@1000000000 --until=@1000000001

# ---- watch ----
watch_bg "$T/wm" "$T/wme" -n all
m_pid=$WATCH_PID
watch_bg "$T/wr" "$T/wre" --no-mmap -n all
r_pid=$WATCH_PID
{ wait_lines "$T/wm" 64 && wait_lines "$T/wr" 64; } ||
	diag "the watches printed $(wc -l <"$T/wm") and $(wc -l <"$T/wr") lines, not 64"
{ asleep "$m_pid" && asleep "$r_pid"; } || diag "a watch is not asleep"
maps() {
	grep -c ' /dev/seqring$' "/proc/$1/maps" 2>/dev/null
}
is "1 0" "$(maps "$m_pid") $(maps "$r_pid")" \
	"watch maps the ring (one mapping in /proc/PID/maps); watch --no-mmap does not"

"$CTL" capacity 128 >"$T/c" 2>&1
is "1 64" "$? $(stat_get capacity)" \
	"capacity 128 while a watch maps the ring: exit 1, the ring not resized" ||
	diag "$(cat "$T/c")"
like "$(cat "$T/c")" 'Device or resource busy' "... and says why (EBUSY)"

# Following: 5 new readings; then, stopped, both fall behind by the same.
"$BIN/push_n" -c 5 -v 500 5
{ wait_lines "$T/wm" 69 && wait_lines "$T/wr" 69; } ||
	diag "the watches printed $(wc -l <"$T/wm") and $(wc -l <"$T/wr") lines, not 69"
{ asleep "$m_pid" && asleep "$r_pid"; } || diag "a watch is not asleep"
kill -STOP "$m_pid" "$r_pid"
"$BIN/push_n" -c 6 -v 600 100
kill -CONT "$m_pid" "$r_pid"
{ wait_lines "$T/wm" 133 && wait_lines "$T/wr" 133; } ||
	diag "the watches printed $(wc -l <"$T/wm") and $(wc -l <"$T/wr") lines, not 133"
kill -INT "$m_pid" "$r_pid"
wait "$m_pid"
m_rc=$?
wait "$r_pid"
r_rc=$?
_tap_pids=
is "130 130" "$m_rc $r_rc" "both watches end by SIGINT"
same_file "$T/wr" "$T/wm" \
	"watch prints through the mapping what it prints with --no-mmap: held, new, after falling behind"
same_file "$T/wre" "$T/wme" "... and says the same on stderr"
like "$(cat "$T/wme")" '^seqringctl: /dev/seqring: fell behind, 36 readings missed$' \
	"... the readings it missed (36 of 100 in a ring of 64)"

watch_bg "$T/wr" "$T/wre" --no-mmap
asleep "$WATCH_PID" || diag "watch --no-mmap is not asleep"
"$CTL" capacity 128 >"$T/c" 2>&1
is "0 128" "$? $(stat_get capacity)" \
	"capacity 128 while a watch --no-mmap runs: the ring resized" ||
	diag "$(cat "$T/c")"
kill -INT "$WATCH_PID"
wait "$WATCH_PID"
_tap_pids=

# ---- the sample ----
listing >"$T/l"
n=$(wc -l <"$T/l")
"$BIN/mmap-consumer" -n "$n" >"$T/s" 2>"$T/se"
is 0 $? "samples/mmap-consumer -n $n exits 0" || diag "$(cat "$T/se")"
same_file "$T/l" "$T/s" "... printing the lines of /proc/seqring"

"$BIN/mmap-consumer" -n $((n + 3)) >"$T/s" 2>"$T/se" &
s_pid=$!
_tap_pids="$_tap_pids $s_pid"
wait_lines "$T/s" "$n" || diag "mmap-consumer printed $(wc -l <"$T/s") lines, not $n"
asleep "$s_pid" || diag "mmap-consumer is not asleep"
"$BIN/push_n" -c 7 -v 700 3
wait_lines "$T/s" $((n + 3)) || diag "mmap-consumer printed $(wc -l <"$T/s") lines"
wait "$s_pid"
s_rc=$?
_tap_pids=
listing | tail -n 3 >"$T/l3"
tail -n 3 "$T/s" >"$T/s3"
is 0 "$s_rc" "mmap-consumer sleeps when it has read all, and wakes for new readings" ||
	diag "$(cat "$T/se")"
same_file "$T/l3" "$T/s3" "... printing them as /proc/seqring does"

"$BIN/mmap-consumer" >"$T/s" 2>"$T/se" &
s_pid=$!
_tap_pids="$_tap_pids $s_pid"
asleep "$s_pid" || diag "mmap-consumer is not asleep"
kill -STOP "$s_pid"
"$BIN/push_n" -c 8 -v 800 200
kill -CONT "$s_pid"
wait_lines "$T/s" $((n + 3 + 128)) || diag "mmap-consumer printed $(wc -l <"$T/s") lines"
kill "$s_pid"
wait "$s_pid"
_tap_pids=
is "mmap-consumer: 72 readings lost" "$(cat "$T/se")" \
	"mmap-consumer that fell behind counts the readings lost (72 of 200 in 128)"

bad=$(kernel_reports 83-dump-mmap)
is "" "$bad" "the kernel logged no oops, BUG, warning or lockup"
check_unload "rmmod seqring"
