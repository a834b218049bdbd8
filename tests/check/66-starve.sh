#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A producer starved in the middle of a batch must not hide the pushes of
# another CPU (issue 23). tests/bin/starve runs the adversary on CPU 1 (a
# PUSH_BATCH loop kept off the CPU) and pushes one reading a millisecond on
# CPU 0, measuring for each how long after its PUSH returned GET_STATS
# shows it (the seqring_push trace event tells each one's sequence
# number), and prints the longest gap ("# longest visibility gap: N us").
# The target under TCG is 50 ms (make bench reports it against that); the
# test fails above 200 ms plus what the host held the two CPUs back (the
# longest stall of a SCHED_FIFO meter on the adversary's CPU, and of the
# probe's own loop): the old driver's gaps were 0.5 to 5 s with both CPUs
# running, the fixed one's 9.5 to 38.7 ms on a host at load 8 to 11, and
# once 296 ms when the host did not run the adversary's vCPU in the middle
# of a chunk, which no driver can help. Three
# adversaries, 3 seconds each:
#   [idle]     the batcher at SCHED_IDLE beside a busy loop on its CPU;
#   [fifo]     the batcher (SCHED_OTHER) beside a SCHED_FIFO busy loop on
#              its CPU: it runs only in what RT throttling leaves
#              (sched_rt_runtime_us; skipped where that is off, as the
#              busy loop would then own the CPU for good);
#   [cpu.max]  the batcher in a cgroup v2 group whose cpu.max gives it 1 ms
#              a second (skipped where the cpu controller is missing, and
#              before 5.15: see below).
# The ring holds 1M readings, so that a batch of 64K is stored whole: the
# longer its store, the likelier the batcher is stopped inside it.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CG=/sys/fs/cgroup
GROUP=$CG/seqring-starve
KEEP=$CG/seqring-starve-key
TRACING=/sys/kernel/tracing
EVENT=$TRACING/events/seqring/seqring_push

plan 11

if [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
	skip_rest "needs 2 CPUs, this machine has $(grep -c '^processor' /proc/cpuinfo)"
fi

check_load "load seqring.ko capacity=1048576" capacity=1048576
[ -e $TRACING/trace ] || mount -t tracefs nodev $TRACING 2>/dev/null

# run_starve PREFIX [ARG...]: tests/bin/starve ARG..., its 3 results as ours.
run_starve() {
	_rs_prefix=$1
	shift
	tap_program "$_rs_prefix" 3 "$BIN/starve" -l 200 "$@"
	# Off again whatever happened to the program (it turns it on).
	echo 0 >"$EVENT/enable" 2>/dev/null
	echo 0 >"$EVENT/filter" 2>/dev/null
}

run_starve "[idle] "

rt_runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)
if [ "${rt_runtime:--1}" -lt 0 ]; then
	for _i in 1 2 3; do
		skip "[fifo] starve test $_i" "RT throttling is off (sched_rt_runtime_us ${rt_runtime:-missing})"
	done
else
	run_starve "[fifo] " -f
fi

# cpu_controller: cgroup v2 mounted (the guest's /init mounts no cgroups)
# with the cpu controller on for its children; why not in $T/err.
cpu_controller() {
	cgroup2_mounted
	echo +cpu >"$CG/cgroup.subtree_control" 2>"$T/err"
	rmdir "$GROUP" 2>/dev/null
	grep -qw cpu "$CG/cgroup.subtree_control" 2>/dev/null
}

if ! kernel_at_least 5 15; then
	# Seen twice, never on 6.1 or later: both 5.10 VMs of CI's run of
	# a99dff9, and 1 of 26 runs of this part on 5.10 here, stopped in
	# this part with both vCPUs busy, no lockup or RCU stall report and
	# no user space running again (the runner's watchdog did not), until
	# the host killed the VM. Cause not found: doc/testing.md.
	for _i in 1 2 3; do
		skip "[cpu.max] starve test $_i" "the cpu.max adversary wedged 5.10 guests (doc/testing.md, 66-starve)"
	done
elif ! cpu_controller; then
	for _i in 1 2 3; do
		skip "[cpu.max] starve test $_i" "no cgroup v2 cpu controller here ($(cat "$T/err" 2>/dev/null))"
	done
elif ! mkdir "$GROUP" 2>"$T/err"; then
	for _i in 1 2 3; do
		not_ok "[cpu.max] starve test $_i not run" "mkdir $GROUP: $(cat "$T/err")"
	done
else
	# Whatever happens to starve, the group is not left throttled past
	# starve's own bound (its alarm, about 65 s): a batcher throttled
	# inside its batch would hold the module, and the runner, for minutes.
	(
		sleep 90
		echo max >"$GROUP/cpu.max"
	) &
	deadman=$!
	_tap_pids="$_tap_pids $deadman"
	# A quota on a group of its own, with no process in it, first: the
	# kernel's CFS bandwidth static key turns on now, with nothing else
	# running, and stays on through the adversary's quota writes. Each
	# turn of that key patches __schedule(); under tcg on a loaded host,
	# one done while the adversary ran oopsed (int3) 6.12 and 7.2 guests
	# (doc/testing.md, 66-starve).
	mkdir "$KEEP" 2>/dev/null
	echo "1000000 1000000" >"$KEEP/cpu.max" 2>/dev/null ||
		diag "no quota on $KEEP: the adversary's writes turn the key"
	run_starve "[cpu.max] " -c "$GROUP"
	kill "$deadman" 2>/dev/null
	# Lifted by starve itself, unless it was killed: a batcher throttled
	# inside its batch would hold the module for minutes.
	echo max >"$GROUP/cpu.max"
	_i=0
	while [ -s "$GROUP/cgroup.procs" ] && [ $_i -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	rmdir "$GROUP" 2>/dev/null || diag "rmdir $GROUP failed: $(cat "$GROUP/cgroup.procs" 2>&1)"
	echo max >"$KEEP/cpu.max" 2>/dev/null
	rmdir "$KEEP" 2>/dev/null
fi

check_unload "unload seqring.ko"

done_testing
