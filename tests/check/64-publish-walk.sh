#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How long producers keep preemption off, as debugfs seqring/publish shows
# it: a chunk of SEQRING_CHUNK readings per section, and a publish walk of
# at most walk_limit slots, however many producers, batches and laps of a
# small ring (driver/ring.c). Two producers loop on batches and singles,
# one per CPU, into a ring smaller than a chunk's worth per CPU, while a
# third resizes it.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 7

check_load "load seqring.ko capacity=48" capacity=48
if ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
got=$(awk -F': ' '{ print $1 }' "$DEBUGFS/publish" 2>/dev/null | words)
is "walk_max walk_limit chunk" "$got" "debugfs seqring/publish has walk_max, walk_limit and chunk"
chunk=$(debugfs_stat chunk publish)
limit=$(debugfs_stat walk_limit publish)
is "$((4 * chunk))" "$limit" "walk_limit is four chunks ($chunk readings each)"

pin1=
pin2=
if [ "$(nproc)" -ge 2 ]; then
	pin1="taskset 1"
	pin2="taskset 2"
fi
$pin1 "$BIN/push_n" -b -R 4096 &
p1=$!
$pin2 "$BIN/push_n" -R 64 &
p2=$!
i=0
while [ $i -lt 20 ]; do
	seqringctl capacity 16 >/dev/null
	seqringctl capacity 4096 >/dev/null
	i=$((i + 1))
done
sleep 2
kill "$p1" "$p2" 2>/dev/null
wait "$p1" "$p2" 2>/dev/null
max=$(debugfs_stat walk_max publish)
diag "longest publish walk: $max slots (limit $limit)"
check "the walks were counted: walk_max is at least 1" test "${max:-0}" -ge 1
check "no publish walked more than walk_limit ($limit) slots: got $max" \
	test "${max:-0}" -le "$limit"
stats_add_up
check_unload "unload seqring.ko"
done_testing
