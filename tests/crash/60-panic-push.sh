#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The persistent ring is for the moment of a panic: a push made then must
# not hang, even when panic() stopped another CPU in the middle of its
# store (tests/kmod/seqring_panicpush.ko). The ring: 16 KiB above mem=,
# 85 readings.
#   phase 1: 20 readings pushed; CPU 1's next push stops for good in its
#            store (its slot BUSY, preemption off); CPU 0 panics, and a
#            panic notifier pushes 100 readings (channel 7, values 1..100,
#            label "panic") on the panicking CPU, the 85th of which needs
#            the stopped slot. A writer that spins on that slot never lets
#            the machine reboot (the run then fails: the host's VM_TIMEOUT,
#            or its check that a panic reboots, VM_PANIC_TIMEOUT).
#   phase 2: the load shows what the region validly holds: the stopped
#            reading lost, the 84 that the panic's pushes stored after it
#            (above next_seq: the stopped one held their publish back),
#            each intact and in order, and nothing else.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=16384
CAP=85
S=$SEQRING_STATE
PREV=/dev/seqring.prev
PARAMS=/sys/module/seqring_panicpush/parameters

crash_phases_only
if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-crash gives one)"
	exit 0
fi
if [ "$(grep -c ^processor /proc/cpuinfo)" -lt 2 ]; then
	echo "1..0 # SKIP needs two CPUs"
	exit 0
fi
PHYS=$((PHYS + (24 << 20)))

if [ "$SEQRING_PHASE" = 1 ]; then
	insmod "$SEQRING_MODULES/seqring_ramprobe.ko" phys="$PHYS" size=$SIZE \
		seed=60 op=fill && rmmod seqring_ramprobe
	persist_load 1 persist_addr="$PHYS" persist_size=$SIZE
	cat /sys/class/misc/seqring/capacity >"$S/capacity" 2>&1
	feed_readings 20 1 pre 3 >/dev/null 2>&1
	insmod "$SEQRING_MODULES/seqring_panicpush.ko" stop_cpu=1 count=100 \
		>"$S/panicpush" 2>&1
	# An open of /dev/seqring: the module takes the default ring.
	seqringctl stats >/dev/null 2>&1
	cat $PARAMS/captured >"$S/captured" 2>&1
	echo 1 >$PARAMS/armed
	taskset -p -c 0 $$ >/dev/null
	( taskset -c 1 seqringctl push -c 3 -l stuck 999 ) >/dev/null 2>&1 &
	i=0
	while [ "$(cat $PARAMS/stopped)" = 0 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat $PARAMS/stopped >"$S/stopped"
	go_down panic
fi

persist_load 2 persist_addr="$PHYS" persist_size=$SIZE
if [ -c $PREV ]; then
	seqringctl dump --boot -1 >"$S/prev" 2>"$S/prev.err"
	sed 1d /sys/kernel/debug/seqring.prev/region >"$S/region" 2>&1
else
	: >"$S/prev"
fi
seqringctl push -l after 1 >/dev/null 2>&1
first=$(seqringctl dump | tail -n 1 | cut -d ' ' -f 1)
unload_seqring

stuck=$(cat "$S/stopped")
plan 7
is "$CAP Y" "$(cat "$S/capacity") $(cat "$S/captured")" \
	"phase 1: a ring of $CAP readings in 16 KiB, and the test module has it" ||
	diag "$(cat "$S/load.1" "$S/panicpush")"
isnt 0 "$stuck" "CPU 1's push stopped in the middle of its store (sequence number $stuck)"
ok "the panic rebooted: a push after it did not wait for the stopped store"
# What the region validly holds: the panic's pushes from value 1 on, after
# the stopped reading, every slot but its own: CAP - 1 of them.
awk -v stuck="$stuck" '
	{ n++
	  if ($1 != stuck + n || $3 != 7 || $4 != n || $5 != "panic") bad++ }
	END { printf "%d readings, %d not as pushed or out of place\n", n, bad }' \
	"$S/prev" >"$S/check"
is "$((CAP - 1)) readings, 0 not as pushed or out of place" "$(cat "$S/check")" \
	"$PREV: the $((CAP - 1)) readings pushed after the panic, from ${stuck}+1 on, each intact and in order" ||
	diag "$(head -n 3 "$S/prev")" "$(cat "$S/prev.err")"
is "previous readings $stuck..$((stuck + CAP - 1)), $((CAP - 1)) intact, 1 damaged or lost (left out)" \
	"$(cat "$S/found.2")" "... one message: the stopped reading lost, the rest intact"
is "first_seq: $stuck end_seq: $((stuck + CAP)) next_seq: $stuck intact: $((CAP - 1)) lost: 1 refused: 0" \
	"$(grep -v capacity "$S/region" | tr '\n' ' ' | sed 's/ $//')" \
	"... seqring.prev/region: next_seq held at the stopped reading, the rest above it"
is "$((stuck + CAP))" "$first" "the new ring goes on after the newest of them"
done_testing
