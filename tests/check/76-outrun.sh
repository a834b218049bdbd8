#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A listing that producers outrun still ends, at the newest reading that
# existed when its reader began, however the reader reads it: read() (dd,
# busybox tail), sendfile() (busybox cat, splice_copy sendfile) or splice()
# (splice_copy splice), of /proc/seqring and of the debugfs listing.
#
# sendfile() reads on through its internal pipe after a read that returned
# end of file, and returns what it moved before; busybox tail reads on
# after a short read until its buffer is full. Neither reader sees that
# first end of file, and a listing that took it for the reader's, moving
# its end to the newest reading, never ended.
#
# Each reader reads a file opened just before it starts, so the newest
# reading at the open is known: newest_seq read right after the open. A
# reader that ends has listed at most one ring's worth, in increasing
# order, none newer than that. The producer pushes several times faster
# than any reader lists, and laps the ring while each reads.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CAP=100000
BATCH=8
# A reader that stops at the newest reading of its open ends once the
# producer has lapped the ring, within a second; one that chases the
# producer never ends. It is stopped after LIMIT seconds, or by its file
# size limit (SIGXFSZ) once it has written more than a ring's worth of
# lines (under 64 bytes each here) could take.
LIMIT=20
MAXBLOCKS=$((CAP / 8))
MAXBYTES=$((MAXBLOCKS * 512))

CONSUMERS="cat dd tail sendfile splice"
FILES="$PROC $DEBUGFS/readings"

plan $((2 + 2 * 5 * 2 + 1))

check_load "load seqring.ko capacity=$CAP" capacity="$CAP"

pin_w=
pin_r=
if [ "$(nproc)" -ge 2 ]; then
	pin_w="taskset 1"
	pin_r="taskset 2"
fi

# Batches of ready-made readings in a loop, nothing else: a producer as
# fast as the driver.
$pin_w "$BIN/push_n" -b -R "$BATCH" >"$T/producer" 2>&1 &
ppid=$!
_tap_pids="$_tap_pids $ppid"
sleep 1
total=$(attr total)
if kill -0 "$ppid" 2>/dev/null && [ "$total" -gt "$CAP" ]; then
	ok "a producer pushes batches of $BATCH in a loop ($total readings after 1 s)"
else
	not_ok "a producer pushes batches of $BATCH in a loop" \
		"expected push_n -b -R $BATCH running with over $CAP readings pushed, got $total: $(cat "$T/producer")"
fi

# check_listing FILE NEWEST: the listing in FILE has the header first, then
# at most $CAP readings with increasing sequence numbers, none after
# NEWEST. Prints what is wrong, or nothing.
check_listing() {
	awk -v hdr="$HEADER" -v newest="$2" -v cap="$CAP" '
	NR == 1 { if ($0 != hdr) { print "line 1 is not the header: " $0; bad = 1 }; next }
	{
		n++
		if (n == 1) first = $1
		if (n > 1 && $1 + 0 <= last + 0 && !bad) {
			print "line " NR ": seq " $1 " after seq " last; bad = 1
		}
		if ($1 + 0 > newest + 0 && !late) late = $1
		last = $1
	}
	END {
		if (NR == 0) print "no output at all"
		if (n > cap) print n " readings listed, more than the " cap " a ring holds"
		if (late) print "seq " late " listed, newer than the newest at the open, " newest
		if (bad || late || n > cap) print "(" n " readings, seqs " first " to " last ")"
	}' "$1"
}

# consume NAME FILE: the reader NAME (one of $CONSUMERS) of FILE, two
# results.
consume() {
	_name=$1 _file=$2
	_what="$_name of ${_file#/sys/kernel/debug/}"
	case $_name in
	cat) set -- cat ;;
	dd) set -- dd bs=65536 ;;
	tail) set -- tail -c +1 ;;
	*) set -- "$BIN/splice_copy" "$_name" ;;
	esac
	: >"$T/out"
	exec 3<"$_file"
	_newest=$(attr newest_seq)
	_t0=$(ms_now)
	(ulimit -f "$MAXBLOCKS" && exec $pin_r "$@") <&3 >"$T/out" 2>"$T/err" &
	_pid=$!
	exec 3<&-
	if wait_gone "$_pid" "$LIMIT"; then
		_ended=yes
	else
		_ended="no: still reading after $LIMIT s, killed"
		kill -KILL "$_pid"
		wait_gone "$_pid" 5
	fi
	_ms=$(($(ms_now) - _t0))
	[ "$(stat -c %s "$T/out")" -ge "$MAXBYTES" ] &&
		_ended="no: stopped by its file size limit after $MAXBYTES bytes"
	_n=$(sed 1d "$T/out" | wc -l)
	diag "$_what: $_n readings in $_ms ms, $(($(attr newest_seq) - _newest)) pushed meanwhile"
	if grep -q EINVAL "$T/err" && [ ! -s "$T/out" ]; then
		skip "$_what ends by itself" \
			"$(cat "$T/err") (the file has no splice_read here)"
		skip "$_what lists a ring's worth at most, none newer than at its open" \
			"see above"
		return
	fi
	if [ "$_ended" = yes ]; then
		ok "$_what ends by itself while the producer outruns it"
	else
		not_ok "$_what ends by itself while the producer outruns it" \
			"expected it to end within $LIMIT s and $MAXBYTES bytes, got $_ended" \
			"last line: $(tail -n 1 "$T/out"); newest at its open: $_newest" \
			"$(cat "$T/err")"
	fi
	_bad=$(check_listing "$T/out" "$_newest")
	if [ -z "$_bad" ]; then
		ok "$_what lists a ring's worth at most, none newer than at its open"
	else
		not_ok "$_what lists a ring's worth at most, none newer than at its open" \
			"$_bad" "$(cat "$T/err")"
	fi
}

for f in $FILES; do
	for name in $CONSUMERS; do
		consume "$name" "$f"
	done
done

stop_pid "$ppid"
check_unload "rmmod seqring"
done_testing
