#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel API's "any context" includes the one where timekeeping is
# suspended (issue 23, item 5): a driver may push from a syscore_ops
# suspend callback, where ktime_get_real_ns() WARNs. The test module
# (tests/kmod/seqring_producer.c, command "suspend") pushes one reading
# when timekeeping_suspend() returns, through a kretprobe: a syscore
# callback of its own would run before timekeeping's, with the clock still
# going. The VM then goes through syscore suspend without sleeping:
# /sys/power/pm_test "core" with mem_sleep "deep" runs syscore_suspend()
# and syscore_resume() and stops there (pm_test_delay 0). s2idle does not
# do here: its wake-up alarm (rtcwake -m freeze) never wakes the tcg VM,
# which has no cpuidle driver, so tick_freeze() would not run anyway.
# Passes when the reading is in the ring and the kernel log of the suspend
# has no WARNING or other report (the host fails the run on those too; this
# script says which test caused it).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

RING=susp
PM=/sys/power
DELAY=/sys/module/suspend/parameters/pm_test_delay

plan 11

check_load "load seqring.ko" capacity=16
check "load seqring_producer.ko" load_producer
is ok "$(pctl create $RING 16)" "create ring $RING of 16 readings"

# skip_all REASON: nothing more can run here; leave no module loaded (the
# scripts after this one load their own).
skip_all() {
	pctl destroy $RING >/dev/null
	unload_module seqring_producer
	unload_seqring
	skip_rest "$1"
}

# What the suspend needs; without it nothing here can run.
why=
if [ ! -w $PM/pm_test ]; then
	why="no $PM/pm_test (CONFIG_PM_DEBUG off)"
elif ! grep -qw mem $PM/state || ! grep -qw deep $PM/mem_sleep 2>/dev/null; then
	why="no suspend to RAM here: state '$(cat $PM/state)', mem_sleep '$(cat $PM/mem_sleep 2>&1)'"
fi
[ -z "$why" ] || skip_all "$why"

armed=$(pctl suspend $RING)
if [ "$armed" != ok ]; then
	skip_all "no kretprobe on timekeeping_suspend(): $armed (CONFIG_KRETPROBES off?)"
fi
ok "a push is armed on the return of timekeeping_suspend()"

suspend_to_ram() {
	echo mem >$PM/state
}

# Through syscore suspend and back; put the knobs back as they were.
old_sleep=$(sed 's/.*\[\([a-z0-9]*\)\].*/\1/' $PM/mem_sleep)
old_delay=$(cat $DELAY 2>/dev/null)
[ -w $DELAY ] && echo 0 >$DELAY
echo deep >$PM/mem_sleep
echo core >$PM/pm_test
kmsg_mark "suspend start"
suspend_to_ram 2>"$T/err"
rc=$?
kmsg_mark "suspend end"
echo none >$PM/pm_test
echo "$old_sleep" >$PM/mem_sleep
[ -n "$old_delay" ] && echo "$old_delay" >$DELAY
is 0 "$rc" "pm_test=core: echo mem >$PM/state goes through syscore suspend and resume" ||
	diag "$(cat "$T/err")"

# RING HITS FAILED LAST_ERROR IRQS_ON
status=$(sed 1d $PRODUCER/suspend)
is "1 0" "$(echo "$status" | awk '{ print $2, $5 }')" \
	"timekeeping_suspend() returned once, with interrupts off (the push ran while timekeeping was suspended)"
is "0 0" "$(echo "$status" | awk '{ print $3, $4 }')" \
	"seqring_push() from there succeeded (failed, last error)"

# SEQ TIMESTAMP_NS CHANNEL VALUE LABEL
is "1 4 1 suspend" "$(listing /sys/kernel/debug/seqring-$RING/readings | awk '{ print $1, $3, $4, $5 }')" \
	"the reading pushed while timekeeping was suspended is in the ring"

dmesg_since "suspend start" | awk '/seqring-test: mark suspend end/ { exit } { print }' >"$T/log"
reports=$(report_lines <"$T/log")
is "" "$reports" "no WARNING or other report in the kernel log of the suspend" ||
	diag "the log of the suspend:" "$(sed 's/^<[0-9]*>//' "$T/log" | head -40)"

pctl unsuspend $RING >/dev/null
is "ok ok" "$(pctl destroy $RING) $(unload_module seqring_producer && echo ok)" \
	"destroy the ring, unload seqring_producer.ko"
check_unload "unload seqring.ko"

done_testing
