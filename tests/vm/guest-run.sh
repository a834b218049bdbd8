#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest test runner, installed as /tests/run in the VM (busybox ash).
#
#   /tests/run MODE
#
# MODE demo: runs /tests/demo.sh, output as is.
# Any other MODE (check, and later stress, bench, ...): runs every
# /tests/MODE/*.sh in sort order and merges their TAP output into one TAP
# stream on stdout:
#   - each script's "ok I - desc" / "not ok I - desc" becomes
#     "ok M - SCRIPT: desc" with M counting across all scripts (SCRIPT is the
#     basename without .sh); "# SKIP"/"# TODO" directives are kept;
#   - comment lines ("# expected X, got Y") are kept; any other output of a
#     script (stderr, stray prints) is turned into a "# " comment;
#   - the runner adds "not ok M - SCRIPT: ..." when a script
#       * prints no plan, or a number of results different from its plan,
#       * exits non-zero without having reported a failure,
#       * runs longer than the per-script timeout (it is then killed; a
#         process of it that cannot be killed ends the run with "Bail
#         out!", after its kernel stack and sysrq's blocked tasks),
#       * leaves seqring/sequence loaded and they cannot be removed;
#     a script whose plan is "1..0 # SKIP reason" gives one skipped result;
#   - on a kernel with kmemleak (the debug kernel), the runner forgets what
#     it reports before the first script (leaks from boot are not ours) and
#     after the last one, with every module unloaded, scans twice with a
#     pause and adds one result: "not ok" with the reports if there are any;
#   - the stream ends with the plan "1..M".
# Exit status: 0 if no "not ok" was printed, 1 otherwise.
#
# Several boots (SEQRING_VM_BOOTS from seqringvm.boots, make check-crash):
# a script may crash or reboot the machine on purpose (lib.sh's
# reboot_now), which then boots again, the same kernel and initramfs, and
# this runner goes on where it was. Its state is in /state, kept over the
# reboot as a tar archive on the virtio disk /dev/vda (an all-zero disk
# reads as an empty archive): the boot count, the results so far, the
# scripts done, the script running and its phase. A script runs once per
# boot until it returns: SEQRING_PHASE is 1 the first time, 2 in the boot
# after it went down, and so on; SEQRING_STATE is a directory of its own
# in /state (saved by reboot_now) and SEQRING_BOOT the boot count. A phase
# that goes down prints only "#" comments (its results would be lost with
# the machine): it leaves what it found in SEQRING_STATE for the last phase
# to report. More boots than SEQRING_VM_BOOTS end the run with a failure.
#
# Each script runs as root with /bin/sh, in its own session (so the whole
# process group can be killed), stdin /dev/null, cwd a fresh empty directory
# that is also $TMPDIR, and in its environment:
#   PATH             /tests/bin first (the test programs), then the system
#   SEQRING_TESTS    /tests      (lib.sh is /tests/lib.sh)
#   SEQRING_MODULES  /modules    (seqring.ko, sequence.ko, seqring_timerlat.ko, ...)
#   SEQRING_MODE     the mode
# Tunables (from the kernel command line via /init):
#   SEQRING_VM_TIMEOUT  per-script timeout in seconds (default 120)
#   SEQRING_VM_FILTER   shell globs, separated by commas; only scripts whose
#                       basename matches one of them run, and of those none
#                       that matches a glob written with a leading "!"
#                       ("!8*": every script but 80-89)

mode=${1:-check}
tests=/tests
tmo=${SEQRING_VM_TIMEOUT:-120}
filter=${SEQRING_VM_FILTER:-*}
case $tmo in '' | *[!0-9]*) tmo=120 ;; esac

# filter_match NAME: NAME matches one of the filter's globs and none of
# its "!" globs (no glob without "!": as if "*" were one).
filter_match() {
	_fm_ifs=$IFS
	IFS=,
	set -f
	_fm_in=none
	_fm_out=
	for _fm in $filter; do
		case $_fm in
		!*)
			# shellcheck disable=SC2254 # the filter is a glob on purpose
			case $1 in ${_fm#!}) _fm_out=1 ;; esac
			;;
		*)
			[ "$_fm_in" = yes ] || _fm_in=no
			# shellcheck disable=SC2254 # the filter is a glob on purpose
			case $1 in $_fm) _fm_in=yes ;; esac
			;;
		esac
	done
	IFS=$_fm_ifs
	set +f
	[ -z "$_fm_out" ] && [ "$_fm_in" != no ]
}

PATH=$tests/bin:/usr/sbin:/usr/bin:/sbin:/bin
SEQRING_TESTS=$tests
SEQRING_MODULES=/modules
SEQRING_MODE=$mode
export PATH SEQRING_TESTS SEQRING_MODULES SEQRING_MODE

if [ "$mode" = demo ]; then
	cd /tmp || exit 1
	exec timeout "$tmo" sh "$tests/demo.sh"
fi

work=$(mktemp -d /tmp/run.XXXXXX) || exit 1
n=0        # results emitted so far in the merged stream
nfail=0    # "not ok" emitted so far

# emit STATUS DESC: print one result of the merged stream.
emit() {
	n=$((n + 1))
	echo "$1 $n - $2"
	[ "$1" = ok ] || nfail=$((nfail + 1))
}

# tap_filter NAME < script output
# Renumbers the script's results (starting after $n) until end of input and
# leaves in globals: m (last number used), seen (results the script printed),
# failed (its "not ok" results, TODO excluded), plan (its plan count, or
# empty) and skipall (the directive of a "1..0 # SKIP reason" plan).
tap_filter() {
	name=$1
	m=$n seen=0 failed=0 plan='' skipall=''
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"ok" | "ok "* | "not ok" | "not ok "*)
			case $line in
			not*) st="not ok" rest=${line#not ok} ;;
			*) st=ok rest=${line#ok} ;;
			esac
			rest=${rest# }
			num=${rest%%[!0-9]*}
			rest=${rest#"$num"}
			rest=${rest# }
			rest=${rest#- }
			m=$((m + 1))
			seen=$((seen + 1))
			echo "$st $m - $name${rest:+: $rest}"
			if [ "$st" != ok ]; then
				case $rest in
				*"# TODO"* | *"# todo"*) ;;
				*) failed=$((failed + 1)) ;;
				esac
			fi
			;;
		1..*)
			plan=${line#1..}
			plan=${plan%%[!0-9]*}
			case $line in
			*"#"*) skipall=${line#*#} ;;
			esac
			;;
		"Bail out!"*)
			m=$((m + 1))
			failed=$((failed + 1))
			echo "not ok $m - $name: $line"
			;;
		"TAP version"* | "")
			;;
		"#"*)
			echo "$line"
			;;
		*)
			echo "# $line"
			;;
		esac
	done
}

# group_alive PGID: the processes of group PGID that have not exited, a
# "PID STATE" line each.
group_alive() {
	_ga_pg=$1
	for _ga in /proc/[0-9]*/stat; do
		_ga_s=$(cat "$_ga" 2>/dev/null) || continue
		# After "(comm)", which may hold spaces: state ppid pgrp ...
		# shellcheck disable=SC2086 # the fields
		set -- ${_ga_s##*) }
		if [ "$3" != "$_ga_pg" ] || [ "$1" = Z ]; then
			continue
		fi
		_ga=${_ga#/proc/}
		echo "${_ga%/stat} $1"
	done
}

# stuck_report NAME < "PID STATE" lines (group_alive's): where each of
# those processes waits (kernel stack), and every blocked task's stack in
# the kernel log (sysrq w), which the host shows from the console.
stuck_report() {
	while read -r _sr _sr_state; do
		echo "# $1: pid $_sr ($(cat "/proc/$_sr/comm" 2>/dev/null))," \
			"state $_sr_state, waits in $(cat "/proc/$_sr/wchan" 2>/dev/null):"
		sed 's/^/#     /' "/proc/$_sr/stack" 2>/dev/null | head -n 24
	done
	{ echo w >/proc/sysrq-trigger; } 2>/dev/null
}

# watchdog NAME PID SECS FLAGFILE: kill process group PID after SECS
# seconds (TERM, then KILL), creating FLAGFILE first. Once PID has exited,
# kill what is left of its group right away (background jobs a script
# forgot), so the pipe to tap_filter reaches end of file. A process that
# cannot be killed (stuck in the kernel) would hold that pipe open, and the
# runner would wait until the host kills the VM, minutes later, with
# nothing said: then say where it waits and end the run.
watchdog() {
	i=0
	while :; do
		state=$(sed -n 's/^[0-9]* (.*) \([A-Z]\) .*/\1/p' "/proc/$2/stat" 2>/dev/null)
		if [ -z "$state" ] || [ "$state" = Z ]; then
			kill -KILL -- "-$2" 2>/dev/null
			return
		fi
		if [ "$i" -ge "$3" ]; then
			: >"$4"
			kill -TERM -- "-$2" 2>/dev/null
			sleep 5
			kill -KILL -- "-$2" 2>/dev/null
			break
		fi
		sleep 1
		i=$((i + 1))
	done
	i=0
	while [ -n "$(group_alive "$2")" ] && [ "$i" -lt 15 ]; do
		sleep 1
		i=$((i + 1))
	done
	left=$(group_alive "$2")
	[ -n "$left" ] || return
	echo "$left" | stuck_report "$1"
	echo "Bail out! $1: timed out, and $(echo "$left" | wc -l) of its processes cannot be killed; the run ends here"
	sync
	sleep 2
	# As /init ends a run: power-off where the VM reboots on purpose.
	[ -n "$boots" ] && poweroff -f
	reboot -f
}

# unload_leftovers NAME: remove modules a script left loaded.
unload_leftovers() {
	for mod in seqring sequence; do
		grep -q "^$mod " /proc/modules || continue
		echo "# $1: $mod still loaded after the script; removing it"
		/bin/rmmod "$mod" 2>&1 | sed 's/^/# /' # kmod's, not the applet
		if grep -q "^$mod " /proc/modules; then
			emit "not ok" "$1: $mod left loaded and rmmod failed"
		fi
	done
}

KMEMLEAK=/sys/kernel/debug/kmemleak

# kmemleak_baseline: scan once and forget the reports.
kmemleak_baseline() {
	[ -e "$KMEMLEAK" ] || return 0
	echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK" && return 0
	echo "# kmemleak: cannot take the baseline (kmemleak off?)"
}

# kmemleak_check: scan twice, 6 s apart (an object must be 5 s old to be
# reported), and emit one result.
kmemleak_check() {
	[ -e "$KMEMLEAK" ] || return 0
	desc="kmemleak: nothing leaked by the scripts (scanned after the last, modules unloaded)"
	if ! { echo scan >"$KMEMLEAK" && sleep 6 && echo scan >"$KMEMLEAK"; } 2>/dev/null; then
		emit "not ok" "$desc"
		echo "# kmemleak scan failed: $(dmesg | grep -i kmemleak | tail -n 3)"
		return
	fi
	leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
	if [ "$leaks" -eq 0 ]; then
		emit ok "$desc"
	else
		emit "not ok" "$desc"
		echo "# $leaks unreferenced object(s):"
		head -n 80 "$KMEMLEAK" | sed 's/^/#   /'
	fi
}

boots=${SEQRING_VM_BOOTS:-}
case $boots in *[!0-9]*) boots= ;; esac
STATE=/state
SEQRING_STATE_DISK=/dev/vda
export SEQRING_STATE_DISK

# state_save: /state onto the disk (lib.sh's reboot_now does the same).
state_save() {
	tar cf "$SEQRING_STATE_DISK" -C "$STATE" . && sync
}

# The previous boots' state, and this boot counted before anything else.
boot=1
if [ -n "$boots" ]; then
	mkdir -p "$STATE"
	if [ ! -b "$SEQRING_STATE_DISK" ]; then
		echo "TAP version 13"
		echo "Bail out! no state disk $SEQRING_STATE_DISK (virtio_blk not loaded?)"
		exit 1
	fi
	tar xf "$SEQRING_STATE_DISK" -C "$STATE" 2>/dev/null
	boot=$(($(cat "$STATE/boot" 2>/dev/null || echo 0) + 1))
	echo "$boot" >"$STATE/boot"
	[ -f "$STATE/counts" ] && read -r n nfail <"$STATE/counts"
	state_save || echo "# cannot write the state disk $SEQRING_STATE_DISK"
fi
export SEQRING_BOOT=$boot

[ "$boot" -eq 1 ] && echo "TAP version 13"
if [ -n "$boots" ]; then
	echo "# boot $boot (at most $boots)"
	if [ "$boot" -gt "$boots" ]; then
		emit "not ok" "runner: the tests took more than $boots boots (a crash not planned?)"
		echo "1..$n"
		exit 1
	fi
fi
kmemleak_baseline
found=0
for script in "$tests/$mode"/*.sh; do
	[ -f "$script" ] || continue
	name=${script##*/}
	name=${name%.sh}
	filter_match "$name" || continue
	found=$((found + 1))

	if [ -n "$boots" ]; then
		grep -qx "$name" "$STATE/done" 2>/dev/null && continue
		phase=1
		[ "$(cat "$STATE/current" 2>/dev/null)" = "$name" ] &&
			phase=$(($(cat "$STATE/phase") + 1))
		echo "$name" >"$STATE/current"
		echo "$phase" >"$STATE/phase"
		mkdir -p "$STATE/$name"
		state_save
		SEQRING_PHASE=$phase SEQRING_STATE=$STATE/$name
		export SEQRING_PHASE SEQRING_STATE
	fi

	dir=$work/$name
	mkdir -p "$dir"
	fifo=$work/$name.fifo
	flag=$work/$name.timedout
	mkfifo "$fifo"
	echo "# $name${boots:+ (phase $phase, boot $boot)}"
	start=$(date +%s)

	# setsid: the script becomes leader of a new process group (a
	# background job of a non-interactive shell is not a group leader, so
	# setsid execs in place and $! is that group's id).
	(cd "$dir" && TMPDIR=$dir && export TMPDIR && exec setsid sh "$script") \
		>"$fifo" 2>&1 </dev/null &
	spid=$!
	watchdog "$name" "$spid" "$tmo" "$flag" &
	wpid=$!
	tap_filter "$name" <"$fifo"
	wait "$spid"
	rc=$?
	# The script is gone and its output closed; stop the watchdog and
	# anything left in the script's process group.
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	kill -KILL -- "-$spid" 2>/dev/null
	secs=$(($(date +%s) - start))

	n=$m
	nfail=$((nfail + failed))
	if [ -e "$flag" ]; then
		emit "not ok" "$name: timed out after ${tmo}s (killed)"
	elif [ "$plan" = 0 ] && [ "$seen" -eq 0 ] && [ "$rc" -eq 0 ]; then
		emit ok "$name # SKIP${skipall# SKIP}"
	elif [ -z "$plan" ]; then
		emit "not ok" "$name: no TAP plan line (1..N) printed, exit status $rc"
	elif [ "$plan" -ne "$seen" ]; then
		emit "not ok" "$name: planned $plan tests but ran $seen, exit status $rc"
	elif [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		emit "not ok" "$name: exited with status $rc"
	fi
	echo "# $name: exit status $rc, ${secs}s"
	unload_leftovers "$name"
	rm -f "$fifo"
	if [ -n "$boots" ]; then
		echo "$n $nfail" >"$STATE/counts"
		echo "$name" >>"$STATE/done"
		rm -f "$STATE/current"
		state_save
	fi
done

if [ "$found" -eq 0 ]; then
	emit "not ok" "no test scripts in $tests/$mode matching '$filter'"
fi
kmemleak_check
echo "1..$n"
rm -rf "$work"
[ "$nfail" -eq 0 ]
