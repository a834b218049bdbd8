#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel API on the debug kernel (lockdep, KASAN, kmemleak,
# DEBUG_ATOMIC_SLEEP), through the test module
# tests/kmod/seqring_producer.c:
#   - pushes from process, softirq and hardirq context at once into one
#     named ring, with readers blocked in read() and poll() on its device
#     (woken by the pushes), listings walked over and over, CLEARs and
#     resizes from a process: the kernel log stays free of lockdep reports
#     ("inconsistent lock state": a lock taken in hardirq that a process
#     takes with interrupts on), of "BUG: sleeping function called from
#     invalid context" and of any WARNING;
#   - create/destroy cycles, in the kernel and from here with a reader on
#     the device and producers running, of small and vmalloc()ed rings,
#     then every ring destroyed and every file closed: kmemleak finds
#     nothing of seqring's (scanned twice, 6 s apart, with seqring.ko
#     still loaded so that its frames have names in the reports).
# The guest runner scans once more after the last script.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak
N=20000
CYCLES=20

if [ ! -e "$KMEMLEAK" ]; then
	echo "1..0 # SKIP no $KMEMLEAK (not the debug kernel)"
	exit 0
fi
need_producer

plan 11

kmsg_mark "60-kapi start"
check_load "load seqring.ko" capacity=16
check "load seqring_producer.ko" load_producer
is ok "$(pctl create lk 4096)" "create ring lk of 4096"

# Readers: blocked in read() and poll() (the pushes wake them, from
# whatever context they come), a follower, and listings in a loop.
"$BIN/waiter" read /dev/seqring-lk >"$T/w.read" 2>&1 &
_tap_pids="$_tap_pids $!"
"$BIN/waiter" poll /dev/seqring-lk >"$T/w.poll" 2>&1 &
_tap_pids="$_tap_pids $!"
seqringctl -d /dev/seqring-lk watch >/dev/null 2>&1 &
_tap_pids="$_tap_pids $!"
(while :; do cat /sys/kernel/debug/seqring-lk/readings /sys/kernel/debug/seqring-lk/stats >/dev/null; done) &
walker=$!
_tap_pids="$_tap_pids $walker"

started=
for c in process softirq hardirq; do
	started="$started $(pctl start lk $c $N)"
done
is " ok ok ok" "$started" "$N pushes from each of process, softirq and hardirq context"
# CLEAR and resizes from a process meanwhile: the writers' lock taken
# with interrupts on here and in hardirq by the pushes.
while grep -q running $PRODUCER/status; do
	"$BIN/clear_ring" /dev/seqring-lk
	echo 2048 >/sys/class/misc/seqring-lk/capacity
	echo 4096 >/sys/class/misc/seqring-lk/capacity
	sleep 0.1
done
is ok "$(pctl wait lk)" "the producers finish (CLEARs and resizes meanwhile)"
got=
for c in process softirq hardirq; do
	got="$got $(pstatus lk $c pushed failed wrong_context)"
done
is " $N 0 0 $N 0 0 $N 0 0" "$got" "each pushed $N, none failed, each in its own context"
stop_pid "$walker"

# Create/destroy cycles: in the kernel, then from here with producers and
# a reader each time.
r1=$(pctl cycle small 64 200)
r2=$(pctl cycle big 100000 10)
bad=
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	r="$(pctl create cyc 256) $(pctl start cyc hardirq 100000000) $(pctl start cyc softirq 100000000) $(pctl start cyc process 100000000)"
	[ "$r" = "ok ok ok ok" ] || { bad="cycle $i: $r"; break; }
	# A new file each time: the shell may start waiting before the
	# background job's redirection has emptied an old one.
	"$BIN/waiter" read /dev/seqring-cyc >"$T/cyc.$i" 2>&1 &
	wpid=$!
	wait_line "$T/cyc.$i" '^ready' 10
	r=$(pctl destroy cyc)
	wait_gone "$wpid" 10 || bad="cycle $i: reader still blocked after destroy"
	[ "$r" = ok ] || bad="cycle $i: destroy: $r"
	[ -z "$bad" ] || break
done
is "ok ok " "$r1 $r2 $bad" \
	"create/destroy: 200 in-kernel cycles of 64, 10 of 100000, $CYCLES with producers and a reader"

is ok "$(pctl destroy lk)" "destroy lk (its readers wake and exit)"
# Every file closed: the readers of lk end on the destroy.
for p in $_tap_pids; do
	wait_gone "$p" 10 || kill "$p" 2>/dev/null
done
_tap_pids=
check "rmmod seqring_producer" rmmod seqring_producer

# The kernel log since the start.
re='BUG:|WARNING:|lockdep|inconsistent|possible (recursive|circular) locking|sleeping function called'
if dmesg_since "60-kapi start" | grep -Eq "$re"; then
	not_ok "no BUG, WARNING or lockdep report with pushes from all three contexts" \
		"$(dmesg_since "60-kapi start" | grep -E -A 30 "$re" | head -n 60)"
else
	ok "no BUG, WARNING or lockdep report with pushes from all three contexts"
fi

# kmemleak, with seqring.ko still loaded (named frames in the reports).
if ! { echo scan >"$KMEMLEAK" && sleep 6 && echo scan >"$KMEMLEAK"; } 2>/dev/null; then
	not_ok "kmemleak finds nothing of seqring after the cycles" "kmemleak scan failed"
else
	# One report: from "unreferenced object" to the next.
	awk '/^unreferenced object/ { if (r ~ /seqring/) print r; r = "" } { r = r $0 "\n" }
	     END { if (r ~ /seqring/) print r }' "$KMEMLEAK" >"$T/leaks"
	if [ -s "$T/leaks" ]; then
		not_ok "kmemleak finds nothing of seqring after the cycles" \
			"$(grep -c '^unreferenced object' "$T/leaks") object(s):" "$(head -n 60 "$T/leaks")"
	else
		ok "kmemleak finds nothing of seqring after the cycles ($(grep -c '^unreferenced object' "$KMEMLEAK") unreferenced object(s) elsewhere)"
	fi
fi
unload_seqring
done_testing
