#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# samples/seqring_timerlat.ko: a hard interrupt timer pushing its wake-up
# latency into ring "timerlat". Its files (/dev/seqring-timerlat with the
# udev rule's permissions, sysfs, debugfs) come and go with it, and
# /proc/seqring stays the default ring's; readings arrive about once a
# period (loose bounds: under tcg a timer runs late, never early, and never
# twice in a period), on the channel given, non-negative, labelled
# "timerlat"; a bad period or capacity fails the load with EINVAL; it
# unloads while readers hold the ring open, and they get end of file or
# ENODEV.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 50

KO=$MODDIR/seqring_timerlat.ko
RPARAM=/sys/module/seqring_timerlat/parameters

# load_timerlat [PARAM=VALUE...]: insmod the sample, wait for udev.
load_timerlat() {
	insmod "$KO" "$@" || return 1
	udevadm settle
}

timerlat_loaded() {
	[ -d /sys/module/seqring_timerlat ]
}

# col_all N WANT: "yes" if field N of every line of the ring's listing is
# WANT, else the first line that differs.
col_all() {
	listing "$RDBG/readings" | awk -v n="$1" -v w="$2" \
		'$n != w { print "line " NR ": " $0; bad = 1; exit } END { if (!bad) print "yes" }'
}

kmsg_mark 91-timerlat
check_load "load seqring.ko"
if [ ! -f "$KO" ]; then
	fail_rest "no $KO (make modules builds samples/seqring_timerlat.ko)"
fi
ring_files timerlat

# --- defaults, files, permissions ---------------------------------------------
if ! out=$(load_timerlat 2>&1); then
	not_ok "insmod seqring_timerlat.ko without parameters works" "$out"
	fail_rest "seqring_timerlat.ko did not load"
fi
ok "insmod seqring_timerlat.ko without parameters works"
is "1000 0 4096" "$(cat "$RPARAM/period_us" "$RPARAM/channel" "$RPARAM/capacity" | words)" \
	"its parameters default to period_us=1000 channel=0 capacity=4096"
check "$RDEV is a character device" test -c "$RDEV"

sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
t_ids=$(awk -F: '$1 == "tester" { print $3 " " $4 }' /etc/passwd)
m_ids=$(awk -F: '$1 == "member" { print $3 " " $4 }' /etc/passwd)
is "crw-rw---- root seqring ${sr_gid:-990}" "$(stat -c '%A %U %G %g' "$RDEV")" \
	"$RDEV: mode 0660, root:seqring (the udev rule, as /dev/seqring)"
majmin=$(stat -c '%t %T' "$RDEV")
is "$(cat "$RSYS/dev" 2>&1)" "$((0x${majmin% *})):$((0x${majmin#* }))" \
	"$RDEV's major:minor is that of $RSYS"
if [ -n "$t_ids" ] && [ -n "$m_ids" ]; then
	# shellcheck disable=SC2086 # uid and gid are two words
	is "EACCES ok" "$("$BIN/open_as" ${t_ids% *} ${t_ids#* } r "$RDEV") $("$BIN/open_as" ${m_ids% *} "${m_ids#* },${sr_gid:-990}" r "$RDEV")" \
		"user tester (not in group seqring) cannot open it, user member (in it) can"
else
	skip "user tester (not in group seqring) cannot open it, user member (in it) can" \
		"no users tester and member in /etc/passwd"
fi
is 4096 "$(cat "$RSYS/capacity" 2>&1)" "$RSYS/capacity is the capacity parameter"
check "debugfs has seqring-timerlat/readings, stats and clients" \
	test -r "$RDBG/readings" -a -r "$RDBG/stats" -a -r "$RDBG/clients"
sleep 1
total=$(cat "$RSYS/total" 2>/dev/null)
if [ "${total:-0}" -gt 0 ]; then
	ok "readings arrive ($total after a second)"
else
	not_ok "readings arrive" "expected $RSYS/total above 0 after a second, got '$total'"
fi
is "" "$(listing "$PROC")" "/proc/seqring stays the default ring's: empty"
is 0 "$(attr total)" "the default ring's total stays 0"
dump=$(seqringctl -d "$RDEV" dump 2>&1)
like "$dump" '^[0-9]+ [0-9]+ 0 [0-9]+ timerlat$' \
	"seqringctl -d $RDEV dump prints its readings"
dump_bad=$(printf '%s\n' "$dump" | grep -cvE '^[0-9]+ [0-9]+ 0 [0-9]+ timerlat$')
is 0 "$dump_bad" "... every line of it a reading of channel 0, label timerlat" ||
	diag "$(printf '%s\n' "$dump" | head -n 5)"

check "rmmod seqring_timerlat works" unload_module seqring_timerlat
gone=
for f in "$RDEV" "$RSYS" "$RDBG" /sys/module/seqring_timerlat; do
	[ -e "$f" ] && gone="$gone $f"
done
is "" "${gone# }" "after rmmod its device, sysfs, debugfs and module directories are gone"

# --- rate, channel, values ---------------------------------------------------------
# PERIOD_US CHANNEL SECONDS: over SECONDS, the readings counted must be at
# most one per period (plus the 10 ms resolution of /proc/uptime on both
# ends), and at least a tenth of that (tcg runs timers late).
while read -r period chan secs; do
	what="period_us=$period channel=$chan"
	if ! out=$(load_timerlat period_us="$period" channel="$chan" 2>&1); then
		not_ok "$what: loads" "$out"
		for t in "readings arrive at about one a period" "every reading is on channel $chan" \
			"every value is non-negative" "every label is timerlat" "rmmod works"; do
			not_ok "$what: $t" "not loaded"
		done
		continue
	fi
	ok "$what: loads"
	t0=$(ms_now)
	n0=$(cat "$RSYS/total")
	sleep "$secs"
	n1=$(cat "$RSYS/total")
	t1=$(ms_now)
	got=$((n1 - n0))
	hi=$(((t1 - t0 + 20) * 1000 / period + 1))
	lo=$(((t1 - t0) * 100 / period))
	if [ "$got" -ge "$lo" ] && [ "$got" -le "$hi" ]; then
		ok "$what: readings arrive at about one a period ($got in $((t1 - t0)) ms)"
	else
		not_ok "$what: readings arrive at about one a period" \
			"expected $lo to $hi readings in $((t1 - t0)) ms, got $got"
	fi
	is yes "$(col_all 3 "$chan")" "$what: every reading is on channel $chan"
	neg=$(listing "$RDBG/readings" | awk '$4 !~ /^[0-9]+$/ { print; exit }')
	is "" "$neg" "$what: every value is non-negative"
	is yes "$(col_all 5 timerlat)" "$what: every label is timerlat"
	check "$what: rmmod works" unload_module seqring_timerlat
done <<EOF
20000 5 2
5000 4294967295 2
EOF

# --- bad parameters ------------------------------------------------------------------
while read -r param; do
	kmsg_mark "91-timerlat $param"
	out=$(insmod "$KO" "$param" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -Eq '[Ii]nvalid (argument|param)'; then
		ok "$param: the load fails with EINVAL"
	else
		not_ok "$param: the load fails with EINVAL" "expected a failure saying 'Invalid argument', got exit status $rc: $out"
	fi
	like "$(dmesg_since "91-timerlat $param")" '^<3>.*seqring_timerlat: ' \
		"$param: the sample logs why (pr_err, level 3)"
	if timerlat_loaded; then
		not_ok "$param: nothing is left loaded" "expected no /sys/module/seqring_timerlat"
		unload_module seqring_timerlat
	elif [ -e "$RDEV" ]; then
		not_ok "$param: nothing is left loaded" "expected no $RDEV, got one"
	else
		ok "$param: nothing is left loaded"
	fi
done <<EOF
period_us=0
period_us=99
period_us=1000001
capacity=0
capacity=16777217
EOF

# --- unload with readers --------------------------------------------------------------
# A period of a second: the blocked reader waits in read() for the next
# reading when the ring goes.
if ! out=$(load_timerlat period_us=1000000 2>&1); then
	not_ok "period_us=1000000: loads" "$out"
	fail_rest "seqring_timerlat.ko did not load"
fi
ok "period_us=1000000: loads"
exec 3<"$RDEV" 4<"$RDEV"
"$BIN/readfd" 3 >"$T/blocked" 2>&1 &
reader=$!
_tap_pids="$_tap_pids $reader"
sleep 1
check "rmmod seqring_timerlat works while readers hold $RDEV open" unload_module seqring_timerlat
check_fails "$RDEV is gone" test -e "$RDEV"
if wait_gone "$reader" 10; then
	like "$(cat "$T/blocked")" '^(eof|ENODEV) [0-9]+$' \
		"a reader blocked in read() wakes with end of file or ENODEV"
else
	not_ok "a reader blocked in read() wakes with end of file or ENODEV" \
		"it was still blocked 10 s after rmmod: $(cat "$T/blocked")"
	stop_pid "$reader"
fi
like "$("$BIN/readfd" 4)" '^(eof|ENODEV) [0-9]+$' \
	"a later read() of a file still open gets end of file or ENODEV"
exec 3<&- 4<&-
check "rmmod seqring works once they are closed" unload_seqring
is "" "$(kernel_reports 91-timerlat)" "the kernel logged no oops, BUG or warning"

done_testing
