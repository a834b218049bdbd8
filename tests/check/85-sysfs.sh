#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sysfs attributes /sys/class/misc/seqring/{capacity,count,total,dropped,
# newest_seq,lost}: one decimal number and a newline each, equal to what the
# spec says after pushes, overwrite and CLEAR, and to GET_STATS; all
# read-only but capacity, which root writes to resize the ring.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 20

ATTRS="capacity count total dropped newest_seq lost"

# sysfs_values / stats_values: the six values, space-separated.
sysfs_values() {
	for a in $ATTRS; do
		cat "$SYSFS/$a"
	done | words
}

stats_values() {
	"$BIN/getstats" >"$T/stats"
	# shellcheck disable=SC2086 # ATTRS is a list of keys
	kvs "$T/stats" $ATTRS
}

check_load "load seqring.ko capacity=8" capacity=8

modes=$(for a in $ATTRS; do stat -c %a "$SYSFS/$a"; done | words)
is "644 444 444 444 444 444" "$modes" "the attributes $ATTRS exist, capacity 0644, the others 0444"

bad=
for a in $ATTRS; do
	if [ "$(wc -l <"$SYSFS/$a")" != 1 ] || ! grep -Eqx '[0-9]+' "$SYSFS/$a"; then
		bad="$bad $a='$(cat "$SYSFS/$a")'"
	fi
done
is "" "$bad" "each attribute is one decimal number and a newline"

is "8 0 0 0 0 0" "$(sysfs_values)" "empty ring: capacity 8, count/total/dropped/newest_seq/lost 0"
push 5
is "8 5 5 0 5 0" "$(sysfs_values)" "after 5 pushes: count 5, total 5, dropped 0, newest_seq 5"
is "$(stats_values)" "$(sysfs_values)" "... and they equal GET_STATS"
push 10 -b -v 6
is "8 8 15 7 15 0" "$(sysfs_values)" "after 10 more (overwrite): count 8, total 15, dropped 7, newest_seq 15"
is "$(stats_values)" "$(sysfs_values)" "... and they equal GET_STATS"
"$BIN/clear_ring"
is "8 0 15 7 0 0" "$(sysfs_values)" "after CLEAR: count 0, total 15, dropped 7, newest_seq 0"
is "$(stats_values)" "$(sysfs_values)" "... and they equal GET_STATS"
push 1 -v 16
is "8 1 16 7 16 0" "$(sysfs_values)" "one push after CLEAR: count 1, total 16, newest_seq 16"

check_fails "writing an attribute fails, even as root" sh -c "echo 0 > $SYSFS/count"
is 1 "$(attr count)" "... and leaves it unchanged"
is "$(cat "$PARAM")" "$(attr capacity)" "sysfs capacity equals the module parameter"

push 7 -b -v 20
echo 4 >"$SYSFS/capacity"
is "4 4 4 $(stat_get total)" "$(attr capacity) $(stat_get capacity) $(attr count) $(attr total)" \
	"root writes 4 to capacity: the ring holds 4 (sysfs and GET_STATS), total unchanged"
is "23 24 25 26" "$(listing_col 4)" "... and keeps the newest 4 readings"
check_fails "writing 0 to capacity fails" sh -c "echo 0 > $SYSFS/capacity"
check_fails "writing 16777217 to capacity fails" sh -c "echo 16777217 > $SYSFS/capacity"

check_unload "rmmod seqring"
check_fails "the attributes are gone after rmmod" test -e "$SYSFS/count"
done_testing
