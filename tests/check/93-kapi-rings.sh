#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Named rings of the kernel API (include/linux/seqring.h, through the test
# module tests/kmod/seqring_producer.c): two rings are independent of each
# other and of the default ring (counters, sequence numbers, CLEAR,
# /proc/seqring stays the default's) and have the default's permissions;
# seqring_create() refuses bad names and capacities (-EINVAL) and a name
# taken (-EEXIST), leaving no file behind; seqring_push() refuses a label
# too long (-EINVAL) from process and hardirq context and stores nothing,
# takes NULL for no label; a name is free again once its ring is
# destroyed, and unloading the module that made a ring takes it away. The
# trace event seqring:seqring_push shows the readings stored.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

CTL=${SEQRINGCTL:-seqringctl}

plan 45

check_load "load seqring.ko capacity=16" capacity=16
check "load seqring_producer.ko" load_producer
is "ok ok" "$(pctl create a 8) $(pctl create b 16)" "create rings a (8 readings) and b (16)"

want=$(stat -c '%U %G %a' $DEV)
for r in a b; do
	is "$want" "$(stat -c '%U %G %a' /dev/seqring-$r)" \
		"/dev/seqring-$r has the owner, group and mode of $DEV ($want)"
done

# Pushes into each: a from the kernel, b through its device's ioctl, the
# default ring through /dev/seqring.
is ok "$(pctl push a 10 -)" "10 pushes into a from the kernel (process context, no label)"
check "3 pushes into b through seqringctl -d /dev/seqring-b push" \
	"$CTL" -d /dev/seqring-b push -c 4 -l bee 1 2 3
push 5 >/dev/null

# Table: ring, device, expected "capacity count total dropped cleared".
while read -r name dev exp; do
	"$BIN/getstats" "$dev" >"$T/st" 2>&1
	got=$(kvs "$T/st" capacity count total dropped cleared)
	is "$exp" "$got" "counters of $name ($dev): capacity count total dropped cleared"
done <<EOF
a /dev/seqring-a 8 8 10 2 0
b /dev/seqring-b 16 3 3 0 0
default $DEV 16 5 5 0 0
EOF

is "1 2 3 4 5" "$(listing_col 4)" "/proc/seqring lists the default ring's readings only"
is "1 2 3|4 4 4|bee bee bee" \
	"$(listing_col 1 /sys/kernel/debug/seqring-b/readings)|$(listing_col 3 /sys/kernel/debug/seqring-b/readings)|$(listing_col 5 /sys/kernel/debug/seqring-b/readings)" \
	"b's listing: its own sequence numbers 1..3, channel 4, label bee"
is "3 4 5 6 7 8 9 10|- - - - - - - -" \
	"$(listing_col 4 /sys/kernel/debug/seqring-a/readings)|$(listing_col 5 /sys/kernel/debug/seqring-a/readings)" \
	"a's listing: the newest 8 of its 10 values, with no label (NULL)"

"$BIN/clear_ring" /dev/seqring-a
is "8 0 10 2 8|16 3 3 0 0|16 5 5 0 0" \
	"$(ring_stats a)|$(ring_stats b)|$("$BIN/getstats" | awk -F': ' '$1 ~ /^(capacity|count|total|dropped|cleared)$/ { print $2 }' | words)" \
	"CLEAR of a clears a only: b and the default ring keep theirs"

# Table: name (\"\" is the empty name), capacity, expected errno, what.
# A failed create leaves no file of its own; the ring a that exists is
# not touched.
while read -r name cap exp what; do
	got=$(pctl create "$name" "$cap")
	shown=$name
	[ "$name" = '""' ] && shown=
	files=$(ring_present "$shown")
	[ "$got" = ok ] && pctl destroy "$name" >/dev/null
	if [ "$exp" = ok ]; then
		is "ok dev debugfs sysfs" "$got $files" "create '$shown' $cap ($what): ok, with its files"
	elif [ "$exp" = EEXIST ]; then
		is "EEXIST dev debugfs sysfs" "$got $files" "create '$shown' $cap ($what): EEXIST, the existing ring's files stay"
	else
		is "$exp - - -" "$got $files" "create '$shown' $cap ($what): $exp, no file left"
	fi
done <<'EOF'
"" 8 EINVAL the empty name
abcdefghijklmnop 8 EINVAL 16 characters
Upper 8 EINVAL an upper-case letter
a/b 8 EINVAL a slash
a.b 8 EINVAL a dot
.. 8 EINVAL dots only
zero 0 EINVAL capacity 0
huge 16777217 EINVAL capacity SEQRING_CAPACITY_MAX + 1
a 8 EEXIST the name of a ring that exists
abcdefghijklmno 1 ok 15 characters, capacity 1
0_-9 1 ok digits, underscore and hyphen
EOF
is "8 0 10 2 8" "$(ring_stats a)" "the refused duplicate left ring a as it was"

# Bytes the kernel's islower() takes for letters (its table is Latin-1):
# e acute, sharp s, y diaeresis. Not [a-z].
for b in 351 337 377; do
	name=$(printf "caf\\$b")
	is "EINVAL - - -" "$(pctl create "$name" 8) $(ring_present "$name")" \
		"create 'caf\\$b' (a Latin-1 lower-case letter): EINVAL, no file left"
done

# Labels: table of context, label, expected result, what. A label of 16
# bytes (with its NUL: 17) is refused and stores nothing.
total=$(ring_stat a total)
is ok "$(pctl push a 1 fifteen_chars_x)" "a label of 15 characters is taken"
is "fifteen_chars_x" "$(listing_col 5 /sys/kernel/debug/seqring-a/readings)" "... and stored whole"
is "EINVAL $((total + 1))" "$(pctl push a 1 sixteen_chars_xx) $(ring_stat a total)" \
	"a label of 16 characters: -EINVAL from process context, nothing stored"
pctl start a hardirq 5 sixteen_chars_xx >/dev/null
pctl wait a >/dev/null
is "0 5 -22 done $((total + 1))" "$(pstatus a hardirq pushed failed last_error state) $(ring_stat a total)" \
	"the same label from hardirq context: 5 times -EINVAL, nothing stored"

# The trace event seqring:seqring_push: one line for each reading stored,
# with the ring's device name and the reading as the listing shows it.
tracing=/sys/kernel/tracing
event=$tracing/events/seqring/seqring_push
if [ -w "$event/enable" ]; then
	echo 0 >$tracing/tracing_on
	: >$tracing/trace
	echo 1 >"$event/enable"
	echo 1 >$tracing/tracing_on
	pctl push b 2 tp >/dev/null
	echo 0 >"$event/enable"
	got=$(sed -n 's/.*seqring_push: //p' $tracing/trace | tr '\n' '|')
	want=$(listing /sys/kernel/debug/seqring-b/readings | tail -n 2 |
		awk '{ printf "ring=seqring-b seq=%s channel=%s value=%s label=%s|", $1, $3, $4, $5 }')
	is "$want" "$got" "the trace event seqring:seqring_push shows each of 2 pushes into b as stored"
else
	skip "the trace event seqring:seqring_push shows each of 2 pushes into b as stored" \
		"no $event/enable"
fi

is "ok ok" "$(pctl destroy a) $(pctl destroy b)" "destroy a and b"
is "- - -|- - -" "$(ring_present a)|$(ring_present b)" "their files are gone"
is "16 5 5 0 0" "$("$BIN/getstats" | awk -F': ' '$1 ~ /^(capacity|count|total|dropped|cleared)$/ { print $2 }' | words)" \
	"the default ring kept its readings"
check "the default ring takes pushes" push 1
is ok "$(pctl create a 4)" "the name a is free again after its destroy"
is "4 0 0 0 0" "$(ring_stats a)" "the new ring a is empty (capacity 4)"

# One name created and destroyed on both CPUs at once: a create that
# comes while the name is being destroyed waits for its files to go
# (before, it found the name free early: misc_register() failed on the
# sysfs name still there, or the ring came without its debugfs directory).
# The test module slows each debugfs removal by 5 ms meanwhile, which
# makes that window, a few instructions wide otherwise, one a create hits.
kmsg_mark 93-race
is ok "$(pctl race r 4 100)" \
	"create and destroy of one name on both CPUs at once, 100 times each, each create retried while the other holds the name: every ring created has its debugfs directory"
is "" "$(dmesg_since 93-race | grep -E 'duplicate filename|already present' | head -n 2)" \
	"... no duplicate sysfs name, no debugfs directory refused"
diag "$(dmesg_since 93-race | grep -o 'race r: .*')"

# Unloading the module that created a ring destroys it (its exit does).
pctl create c 4 >/dev/null
check "rmmod seqring_producer with rings a and c" rmmod seqring_producer
udevadm settle
is "- - -|- - -" "$(ring_present a)|$(ring_present c)" "the rings' files are gone with it"
check_unload "rmmod seqring after it"
done_testing
