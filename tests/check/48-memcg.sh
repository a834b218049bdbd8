#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PUSH_BATCH copies a batch larger than the open file's 4096-reading buffer
# into memory of its own; that copy is charged to the caller's memory
# cgroup, like every allocation a user can cause. A process in a cgroup v2
# group with memory.max of 4 MiB pushes a batch of 65536 readings
# (65536 x 40 bytes = 2.5 MiB in its own memory, which fits, plus the
# driver's copy of as much again, which does not): ENOMEM, and nothing is
# stored. The same push from outside the group succeeds, and a batch that
# fits the file's buffer succeeds inside the group.
#
# The driver's copy must fail with ENOMEM without waking the group's OOM
# killer (__GFP_RETRY_MAYFAIL: reclaim, then give up): memory.events'
# oom and oom_kill stay 0. The pusher still runs with oom_score_adj
# -1000, so that a driver that does wake it fails this test by those
# counts and not by an early kill.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 8

GROUP=$CG/seqring-memcg

check_load "load seqring.ko capacity=131072" capacity=131072

memcg_controller
rmdir "$GROUP" 2>/dev/null
if mkdir "$GROUP" && echo 4M >"$GROUP/memory.max"; then
	ok "a cgroup v2 group with memory.max 4 MiB"
else
	not_ok "a cgroup v2 group with memory.max 4 MiB" "mkdir $GROUP or writing its memory.max failed"
	fail_rest "no group to test in"
fi

# event NAME: the group's memory.events count NAME ("oom 0" lines).
event() {
	awk -v k="$1" '$1 == k { print $2 }' "$GROUP/memory.events"
}

# in_group CMD...: run CMD in the group, unkillable by the OOM killer.
in_group() {
	sh -c 'echo -1000 >/proc/self/oom_score_adj && echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$GROUP" "$@"
}

before=$(stat_get total)
in_group "$BIN/push_n" -b 4096 >"$T/small" 2>&1
rc=$?
is "0 $((before + 4096))" "$rc $(stat_get total)" \
	"in the group, a batch of 4096 (the file's buffer) is pushed"

before=$(stat_get total)
in_group "$BIN/push_n" -b 65536 >"$T/big" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q ENOMEM "$T/big"; then
	ok "in the group, a batch of 65536 fails with ENOMEM"
else
	not_ok "in the group, a batch of 65536 fails with ENOMEM" \
		"expected push_n to fail with ENOMEM, got exit status $rc: $(cat "$T/big")" \
		"(the driver's copy of the batch is not charged to the caller's memory cgroup)"
fi
is "$before" "$(stat_get total)" "... and nothing of it is stored"
diag "memory.events: $(tr '\n' ' ' <"$GROUP/memory.events")"
is "0 0" "$(event oom) $(event oom_kill)" \
	"... without waking the group's OOM killer (memory.events oom, oom_kill)"

before=$(stat_get total)
"$BIN/push_n" -b 65536 >"$T/out" 2>&1
rc=$?
is "0 $((before + 65536))" "$rc $(stat_get total)" \
	"outside the group the same batch of 65536 is pushed"

rmdir "$GROUP"
check_unload "rmmod seqring"
done_testing
