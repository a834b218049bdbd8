#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seqring_destroy() with the ring in use (include/linux/seqring.h, through
# the test module tests/kmod/seqring_producer.c): destroyed with readers
# blocked in read(), poll() and epoll_wait() on /dev/seqring-NAME, with a
# debugfs listing read halfway and with the device held open, while
# producers push into another ring from process, softirq and hardirq
# context:
#   - the blocked readers wake: read() gives end of file or -ENODEV, poll
#     and epoll report EPOLLERR | EPOLLHUP and a read after them does not
#     block; the listing ends (end of file or ENODEV, not EIO); the
#     files are gone at once;
#   - the name is free at once, and a file still open on the old ring
#     does not see the new one;
#   - the module that created the ring unloads with the old device still
#     held open, and seqring.ko once it is closed.
# Then create/destroy cycles under load: pushes into another named ring
# from all three contexts and into the default ring from a process, a
# reader following the other ring, and each cycle destroying a ring that
# producers in hardirq and softirq context feed and a reader follows (it
# must end); in-kernel cycles of small and vmalloc()ed rings; the loaded
# ring's counts add up afterwards.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

CTL=${SEQRINGCTL:-seqringctl}
CYCLES=10

plan 32

check_load "load seqring.ko" capacity=16
check "load seqring_producer.ko" load_producer
is "ok ok" "$(pctl create d 4096) $(pctl push d 2000)" "create ring d of 4096, push 2000 readings"

# start_waiter KIND: tests/bin/waiter KIND on /dev/seqring-d in the
# background, until it says it is about to block; sets WAITER_PID.
start_waiter() {
	"$BIN/waiter" "$1" /dev/seqring-d >"$T/w.$1" 2>&1 &
	WAITER_PID=$!
	_tap_pids="$_tap_pids $WAITER_PID"
	wait_line "$T/w.$1" '^ready' 10
}
ready=
for k in read poll epoll; do
	start_waiter $k && ready="$ready $k"
	eval "pid_$k=\$WAITER_PID"
done
# Blocked: still there a while after they said so.
sleep 0.5
for k in read poll epoll; do
	eval "kill -0 \$pid_$k" 2>/dev/null || ready="$ready $k-ended"
done
is " read poll epoll" "$ready" "readers blocked in read(), poll() and epoll_wait() on /dev/seqring-d"

# A listing halfway: the first 4 KiB of it read through fd 4.
exec 4</sys/kernel/debug/seqring-d/readings
dd bs=4096 count=1 <&4 >/dev/null 2>&1
# The device open, its 2000 readings unread, in this shell (fd 5) and in
# a process that holds it.
exec 5</dev/seqring-d
start_holder "$T/holder" -r /dev/seqring-d
holder=$HOLDER_PID

# Load meanwhile: producers in all three contexts push into another ring
# (into d they would wake the readers before the destroy does).
started=$(pctl create busy 65536)
for c in process softirq hardirq; do
	started="$started $(pctl start busy "$c" 100000000)"
done
is "ok ok ok ok" "$started" "producers in process, softirq and hardirq context push into another ring, busy"
sleep 0.3

still=
for k in read poll epoll; do
	[ "$(wc -l <"$T/w.$k")" -gt 1 ] && still="$still $k:$(tail -n 1 "$T/w.$k")"
done
is "" "$still" "the readers of d are still blocked right before the destroy"
is ok "$(pctl destroy d)" "destroy d while all that goes on"
is "- - -" "$(ring_present d)" "its device, debugfs and sysfs directories are gone at once"

# Table: reader, what it must print once woken (an extended regex).
pid=
while read -r k want; do
	eval "pid=\$pid_$k"
	if wait_gone "$pid" 10; then
		like "$(words <"$T/w.$k")" "$want" "the reader in $k wakes and ends: $(tail -n +2 "$T/w.$k" | words)"
	else
		not_ok "the reader in $k wakes and ends" \
			"still blocked 10 s after the destroy: $(cat "$T/w.$k")"
	fi
done <<'EOF'
read ^ready [0-9]+ read (eof|ENODEV)$
poll ^ready [0-9]+ poll [A-Z|]*ERR\|HUP[A-Z|]* read (eof|ENODEV)$
epoll ^ready [0-9]+ poll [A-Z|]*ERR\|HUP[A-Z|]* read (eof|ENODEV)$
EOF

like "$("$BIN/readfd" 4)" '^(eof|ENODEV) [0-9]+$' \
	"the listing read halfway ends with end of file or ENODEV, not EIO"
exec 4<&-
like "$("$BIN/readfd" 5)" '^(eof|ENODEV) [0-9]+$' \
	"the device still open reads end of file or -ENODEV (after what it held, if anything)"

is "ok ok" "$(pctl create d 64) $(pctl push d 3)" "the name d is free at once: create d again, push 3"
like "$("$BIN/readfd" 5)" '^(eof|ENODEV) 0$' "the file open on the old d does not see the new one"
exec 5<&-
is "64 3 3 0 0" "$(ring_stats d)" "the new d holds its own 3 readings"
is ok "$(pctl destroy d)" "destroy the new d"

is ok "$(pctl destroy busy)" "destroy busy"

# The creating module goes while the old device is still held open.
check "rmmod seqring_producer while a process holds a destroyed ring's device" \
	rmmod seqring_producer
if kill -0 "$holder" 2>/dev/null; then
	stop_pid "$holder"
	ok "the holder of the destroyed ring's device closes it"
else
	not_ok "the holder of the destroyed ring's device closes it" "it died: $(cat "$T/holder")"
fi

# --- create/destroy cycles under load ---------------------------------------
check "load seqring_producer.ko again" load_producer
is ok "$(pctl create load 65536)" "create ring load of 65536"
started=
for c in process softirq hardirq; do
	started="$started $(pctl start load $c 100000000)"
done
is " ok ok ok" "$started" "producers in all three contexts push into load"
"$CTL" -d /dev/seqring-load watch >/dev/null 2>"$T/watch.err" &
watcher=$!
_tap_pids="$_tap_pids $watcher"
"$BIN/stress_writer" -t 300 >"$T/writer" 2>&1 &
writer=$!
_tap_pids="$_tap_pids $writer"

bad=
i=0
while [ $i -lt $CYCLES ] && [ -z "$bad" ]; do
	i=$((i + 1))
	r=$(pctl create cyc 64)
	[ "$r" = ok ] || { bad="cycle $i: create: $r"; break; }
	r="$(pctl start cyc hardirq 100000000) $(pctl start cyc softirq 100000000)"
	[ "$r" = "ok ok" ] || { bad="cycle $i: start: $r"; break; }
	# A new file each time: the shell may start waiting before the
	# background job's redirection has emptied an old one.
	out=$T/cyc.$i
	"$BIN/waiter" follow /dev/seqring-cyc >"$out" 2>&1 &
	wpid=$!
	wait_line "$out" '^(ready|error)' 10
	grep -q '^ready' "$out" || {
		bad="cycle $i: waiter: $(cat "$out"); /dev: $(echo /dev/seqring*)"
		break
	}
	r=$(pctl destroy cyc)
	[ "$r" = ok ] || { bad="cycle $i: destroy: $r"; break; }
	wait_gone "$wpid" 10 || { bad="cycle $i: reader still reading 10 s after destroy"; break; }
	grep -Eq '^read (eof|ENODEV)$' "$out" || { bad="cycle $i: reader: $(cat "$out")"; break; }
done
if [ -z "$bad" ]; then
	ok "$CYCLES cycles: create cyc, producers in hardirq and softirq, a reader following it, destroy: all clean, the reader ends"
else
	not_ok "$CYCLES cycles: create cyc, producers in hardirq and softirq, a reader following it, destroy: all clean, the reader ends" "$bad"
	kill "$wpid" 2>/dev/null
	pctl destroy cyc >/dev/null
fi
is ok "$(pctl cycle cyc 64 500)" "500 create/destroy cycles of a ring of 64 in the kernel, under the same load"
is ok "$(pctl cycle big 100000 20)" "20 cycles of a ring of 100000 (vmalloc), under the same load"

is ok "$(pctl stop load)" "stop the producers of load"
stop_pid "$writer"
sum=0
for c in process softirq hardirq; do
	# shellcheck disable=SC2046 # the two fields
	set -- $(pstatus load "$c" pushed failed)
	sum=$((sum + ${1:-0}))
	[ "${2:-x}" = 0 ] || diag "$c: $2 pushes failed"
done
# shellcheck disable=SC2046 # the five fields
set -- $(ring_stats load)
is "$sum $sum" "$3 $(($2 + $4 + $5))" \
	"load: total = pushed by the three producers = count + dropped + cleared"
if kill -0 "$watcher" 2>/dev/null; then
	stop_pid "$watcher"
	ok "the reader following load is still there"
else
	not_ok "the reader following load is still there" "$(cat "$T/watch.err")"
fi
is ok "$(pctl destroy load)" "destroy load"
check "rmmod seqring_producer" rmmod seqring_producer
check_unload "rmmod seqring after it"
done_testing
