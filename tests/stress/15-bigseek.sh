#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 1b: seeking in the listing of a big ring must not stall writers.
#
# README's design notes promise that every critical section of the ring's
# spinlock is bounded: one reading, a chunk of a batch, or one seq_file
# buffer of listing text. lseek() and pread() on a seq_file make it
# regenerate the listing from the start up to the offset (seq_file's
# traverse()), between one start() and one stop() call.
#
# A ring of STRESS_BIGSEEK_READINGS (default 2097152, 80 MiB; its listing
# is about 90 MiB) is filled; then, while a writer pushes single readings
# and times each PUSH, user "tester" (anyone may read /proc/seqring) seeks
# 80 MB into /proc/seqring and preads at 40 MB, each on its own CPU. No
# PUSH may wait longer than 2 seconds (on a quiet ring a PUSH takes well
# under 50 ms, even under emulation) unless that is also less than half of
# the longest seek call (a busy host can stall the whole VM for a while;
# a PUSH blocked for a whole seek waits about as long as the seek), and
# the kernel must log no lockup or stall.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 6

n=${STRESS_BIGSEEK_READINGS:-2097152}
limit_ms=2000
kmsg_mark stress-15
check_load "load seqring.ko capacity=$n" capacity="$n"

start=$(date +%s)
"$BIN/stress_writer" -i 1 -p 0 -b 65536 -n "$n" -t 300 >"$T/fill" 2>&1
diag "$(grep '^writer' "$T/fill"), $(($(date +%s) - start))s"
is "$n $n" "$(attr count) $(attr total)" "the ring is full: $n readings"

# With two CPUs, the writer on one and the seeker on the other: then the
# writer's PUSH times are the ring's lock, not the scheduler.
pin_w=
pin_s=
if [ "$(nproc)" -ge 2 ]; then
	pin_w="taskset 2"
	pin_s="taskset 1"
fi
$pin_w "$BIN/stress_writer" -i 2 -p 100 -t 300 -L "$limit_ms" >"$T/w" 2>&1 &
wpid=$!
_tap_pids="$_tap_pids $wpid"
i=0
while ! grep -q '^ready' "$T/w" 2>/dev/null && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1

start=$(date +%s)
$pin_s "$BIN/stress_runas" 1000 1000 "$BIN/stress_reader" seek "$PROC" 80000000 \
	>"$T/seek" 2>&1
src=$?
ssecs=$(($(date +%s) - start))
sleep 1
kill -TERM "$wpid"
wait "$wpid"
_tap_pids=
diag "tester: $(cat "$T/seek") (${ssecs}s in all)" "$(grep -v '^ready' "$T/w" | sed 's/^# //')"
if [ "$src" -eq 0 ] && grep -q '^seek 80000000: .* (1 byte), pread .* (1 byte)$' "$T/seek"; then
	ok "user tester's lseek and pread deep into /proc/seqring work"
else
	not_ok "user tester's lseek and pread deep into /proc/seqring work" "$(cat "$T/seek")"
fi

lat=$(sed -n 's/.* maxlat_ms=\([0-9]*\) .*/\1/p' "$T/w")
seek_ms=$(sed -n 's/.*: lseek \([0-9]*\) ms.* pread at [0-9]* \([0-9]*\) ms.*/\1 \2/p' "$T/seek")
longest=0
for t in $seek_ms; do
	[ "$t" -gt "$longest" ] && longest=$t
done
if grep -q 'errors=none$' "$T/w" && [ -n "$lat" ] &&
   { [ "$lat" -le "$limit_ms" ] || [ $((2 * lat)) -lt "$longest" ]; }; then
	ok "no PUSH waited more than ${limit_ms} ms meanwhile (longest ${lat} ms, longest seek call ${longest} ms)"
else
	not_ok "no PUSH waited more than ${limit_ms} ms meanwhile (longest ${lat:-?} ms, longest seek call ${longest} ms)" \
		"a PUSH waited about as long as a seek: the ring's spinlock seems held across the whole seek (seq_file's traverse() runs start(), show()/next() up to the offset, then stop())"
fi
bad=$(kernel_reports stress-15)
is "" "$bad" "the kernel logged no oops, BUG, warning, lockup or stall"
check_unload "rmmod seqring"
done_testing
