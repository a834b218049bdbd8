#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every walk anyone can start is bounded and killable. lseek() and pread()
# on a seq_file replay the listing from the start up to the offset
# (seq_file's traverse()), and /proc/sequence and /proc/seqring are 0444:
#   - deep and past-the-end seeks finish, with the right bytes;
#   - a walk that cannot finish (10^15 bytes into the endless
#     /proc/sequence, or past the end of /proc/seqring while a writer keeps
#     adding readings) ends at SIGKILL;
#   - rmmod does not wait for a walk in progress, and the walk then ends
#     (with an error or not: it must end).
# "Promptly" below is 5 s: a walk that checks for signals ends within one
# record; one that does not check never ends (10^15 bytes) or only when the
# whole replay is done.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 16

HUGE=1000000000000000		# 10^15 bytes into /proc/sequence
PAST=1125899906842624		# 2^50 bytes: past the end of any listing

# seq_offset N: byte offset of line N of /proc/sequence ("0\n1\n2\n...").
seq_offset() {
	awk -v n="$1" 'BEGIN {
		off = 0; lo = 0; d = 1; hi = 10
		while (hi <= n) { off += (hi - lo) * (d + 1); lo = hi; hi *= 10; d++ }
		printf "%.0f\n", off + (n - lo) * (d + 1)
	}'
}

# hex: stdin as lowercase hex digits, nothing else.
hex() {
	od -An -v -tx1 | tr -d ' \n'
}

# walk_result FILE: what tests/bin/walk printed, without its "open" line
# and its timing.
walk_result() {
	grep -v '^open$' "$1" | sed 's/ ms=.*//'
}

# start_walk OUTFILE [walk ARGS...]: run tests/bin/walk in the background
# and wait until it has opened its file. Sets WALK_PID.
start_walk() {
	_sw_out=$1
	shift
	"$BIN/walk" "$@" >"$_sw_out" 2>&1 &
	WALK_PID=$!
	wait_line "$_sw_out" '^open' 10
}

# kill_walk DESC TENTHS OUTFILE [walk ARGS...]: start a walk, let it run
# for a second, SIGKILL it: it must be gone within TENTHS tenths of a
# second. If it is not, it is left running in WALK_PID (it cannot be
# reaped) and 1 is returned.
kill_walk() {
	_kw_desc=$1
	_kw_limit=$2
	shift 2
	start_walk "$@"
	sleep 1
	if ! kill -0 "$WALK_PID" 2>/dev/null; then
		wait "$WALK_PID"
		not_ok "$_kw_desc" "expected the walk to be still running after 1 s, it had ended: $(cat "$1")"
		return 0
	fi
	kill -KILL "$WALK_PID"
	if wait_gone "$WALK_PID" 0 "$_kw_limit"; then
		ok "$_kw_desc"
		return 0
	fi
	not_ok "$_kw_desc" "expected the walk to end within $_kw_limit tenths of a second of SIGKILL, it is still running" \
		"(the walk ignores fatal signals: no fatal_signal_pending() check in it)"
	wait_gone "$WALK_PID" 10 || return 1
	return 0
}

# ---- /proc/sequence ----

if insmod "$MODDIR/sequence.ko"; then
	ok "load sequence.ko"
else
	not_ok "load sequence.ko" "insmod $MODDIR/sequence.ko failed"
	fail_rest "sequence.ko did not load"
fi

n=300000
off=$(seq_offset "$n")
"$BIN/walk" /proc/sequence "$off" 7 >"$T/deep"
is "lseek=$off read=7 bytes=$(printf '%s\n' "$n" | hex)" "$(walk_result "$T/deep")" \
	"lseek to byte $off of /proc/sequence (line $n) and read 7 bytes: '$n\\n'"
"$BIN/walk" -p /proc/sequence "$off" 7 >"$T/deep"
is "pread=7 bytes=$(printf '%s\n' "$n" | hex)" "$(walk_result "$T/deep")" \
	"pread 7 bytes at byte $off of /proc/sequence: '$n\\n'"

unkillable=
kill_walk "SIGKILL ends an lseek 10^15 bytes into /proc/sequence" 50 \
	"$T/k1" /proc/sequence "$HUGE" || unkillable=$WALK_PID
if [ -z "$unkillable" ]; then
	kill_walk "SIGKILL ends a pread 10^15 bytes into /proc/sequence" 50 \
		"$T/k2" -p /proc/sequence "$HUGE" || unkillable=$WALK_PID
else
	not_ok "SIGKILL ends a pread 10^15 bytes into /proc/sequence" \
		"not run: an unkillable walk (pid $unkillable) is still running"
fi

if [ -n "$unkillable" ]; then
	# rmmod would wait for the unkillable walk forever.
	not_ok "rmmod sequence during a walk 10^15 bytes in returns within 5 s" \
		"not run: an unkillable walk (pid $unkillable) is still running"
	not_ok "... and the walk ends within 5 s" "not run"
else
	start_walk "$T/u1" /proc/sequence "$HUGE"
	sleep 1
	rmmod sequence >"$T/rmmod" 2>&1 &
	rpid=$!
	if wait_gone "$rpid" 5; then
		ok "rmmod sequence during a walk 10^15 bytes in returns within 5 s"
	else
		not_ok "rmmod sequence during a walk 10^15 bytes in returns within 5 s" \
			"expected rmmod to return, it waits (for the walk, which holds the proc entry in use)"
	fi
	if wait_gone "$WALK_PID" 5; then
		ok "... and the walk ends within 5 s"
		diag "the walk ended with: $(tr "\n" " " <"$T/u1")"
	else
		not_ok "... and the walk ends within 5 s" "expected it to end (with any error), it is still running"
	fi
fi

# ---- /proc/seqring ----

# 4M readings (a 190 MB listing): a whole walk takes seconds even where
# it is fast, long enough to kill or unload in the middle of one.
unkillable_ring=
n=4194304
check_load "load seqring.ko capacity=$n" capacity="$n"
"$BIN/stress_writer" -i 1 -p 0 -b 65536 -n "$n" -t 300 >"$T/fill" 2>&1
is "$n $n" "$(attr count) $(attr total)" "the ring is full: $n readings"

"$BIN/walk" "$PROC" "$PAST" >"$T/past"
is "lseek=$PAST read=0 bytes=" "$(walk_result "$T/past")" \
	"lseek 2^50 bytes into /proc/seqring (past the end) succeeds and read() gives end of file"
full_ms=$(sed -n 's/.* ms=//p' "$T/past")
diag "walking the whole listing of $n readings took ${full_ms} ms"
"$BIN/walk" -p "$PROC" "$PAST" >"$T/past"
is "pread=0 bytes=" "$(walk_result "$T/past")" \
	"pread 2^50 bytes into /proc/seqring gives end of file"

size=$(wc -c <"$PROC")
off=$((size / 2))
# Through a pipe, so that tail cannot seek: cat reads from the start.
# shellcheck disable=SC2002 # the cat is the point
exp=$(cat "$PROC" | tail -c +$((off + 1)) | head -c 64 | hex)
"$BIN/walk" "$PROC" "$off" 64 >"$T/deep"
is "lseek=$off read=64 bytes=$exp" "$(walk_result "$T/deep")" \
	"lseek to the middle ($off of $size bytes) reads what cat shows there"

pin_w=
pin_r=
if [ "$(nproc)" -ge 2 ]; then
	pin_w="taskset 1"
	pin_r="taskset 2"
fi
# A writer pushing batches of 65536 ready-made readings in a loop.
$pin_w "$BIN/push_n" -b -R 65536 >"$T/w" 2>&1 &
wpid=$!
_tap_pids="$_tap_pids $wpid"
sleep 1
$pin_r "$BIN/walk" "$PROC" "$PAST" >"$T/race" 2>&1 &
spid=$!
if wait_gone "$spid" 60; then
	is "lseek=$PAST read=0" "$(walk_result "$T/race" | sed 's/ bytes=.*//')" \
		"lseek 2^50 bytes into /proc/seqring while a writer pushes batches ends (at end of file)"
else
	kill -KILL "$spid"
	not_ok "lseek 2^50 bytes into /proc/seqring while a writer pushes batches ends (at end of file)" \
		"expected it to end within 60 s (the whole listing takes ${full_ms} ms), it still runs: it chases the writer"
	wait_gone "$spid" 5 || unkillable_ring=$spid
fi
stop_pid "$wpid"
diag "the writer pushed $(($(attr total) - n)) readings meanwhile"

# A walk of the whole listing with a writer that pushes 20000 readings/s
# (slower than the walk, which then ends at the newest reading of its
# open after about ${full_ms} ms) is killed after 1 s; it must end within a
# quarter of a whole walk (at least 1 s), not when the walk is done.
limit=$((full_ms / 400))
[ "$limit" -lt 10 ] && limit=10
if [ -n "$unkillable_ring" ]; then
	not_ok "SIGKILL ends an lseek 2^50 bytes into /proc/seqring while a writer pushes" \
		"not run: an unkillable walk (pid $unkillable_ring) is still running"
elif [ "${full_ms:-0}" -lt 3000 ]; then
	skip "SIGKILL ends an lseek 2^50 bytes into /proc/seqring while a writer pushes" \
		"a whole walk takes only ${full_ms} ms here: too short to tell"
else
	$pin_w "$BIN/stress_writer" -i 3 -p 0 -b 256 -r 20000 -t 300 >"$T/w" 2>&1 &
	wpid=$!
	_tap_pids="$_tap_pids $wpid"
	wait_line "$T/w" '^ready' 10
	kill_walk "SIGKILL ends an lseek 2^50 bytes into /proc/seqring while a writer pushes" \
		"$limit" "$T/k3" "$PROC" "$PAST" || unkillable_ring=$WALK_PID
	stop_pid "$wpid"
fi

# /dev/seqring is closed now (an open one would make rmmod refuse).
# Without a walk rmmod takes milliseconds; if it waited for the walk it
# would take most of the ${full_ms} ms the walk takes: the bound is the
# same quarter of a whole walk.
if [ -n "$unkillable_ring" ]; then
	not_ok "rmmod seqring during a walk of the whole listing returns within $limit tenths of a second" \
		"not run: an unkillable walk (pid $unkillable_ring) is still running"
	not_ok "... and the walk ends as soon" "not run"
elif [ "${full_ms:-0}" -lt 3000 ]; then
	skip "rmmod seqring during a walk of the whole listing returns within $limit tenths of a second" \
		"a whole walk takes only ${full_ms} ms here: too short to tell waiting from not"
	skip "... and the walk ends as soon" "see above"
	unload_seqring
else
	start_walk "$T/u2" "$PROC" "$PAST"
	sleep 1
	t0=$(ms_now)
	rmmod seqring >"$T/rmmod" 2>&1 &
	rpid=$!
	if wait_gone "$rpid" 0 "$limit"; then
		ok "rmmod seqring during a walk of the whole listing returns within $limit tenths of a second"
	else
		not_ok "rmmod seqring during a walk of the whole listing returns within $limit tenths of a second" \
			"expected rmmod to return, it waits for the walk"
		wait_gone "$rpid" 120
	fi
	diag "rmmod took $(($(ms_now) - t0)) ms: $(cat "$T/rmmod")"
	if wait_gone "$WALK_PID" 0 "$limit"; then
		ok "... and the walk ends as soon"
		diag "the walk ended with: $(tr "\n" " " <"$T/u2")"
	else
		not_ok "... and the walk ends as soon" "expected it to end (with any error), it is still running"
	fi
fi
done_testing
