#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 2: unload under load, STRESS_UNLOAD_CYCLES times (default 50).
#
# Each cycle loads seqring.ko (capacity 1, 7, 64, 1000 or 4096) and starts
#   W1 a writer holding /dev/seqring open,
#   W2 a writer opening and closing it around every push (500 a second),
#   R1 a reader holding /proc/seqring open (small reads, lseeks),
#   R2 a reader holding the debugfs listing open,
#   R3 a reader opening and closing the debugfs listing (short pauses),
#   R4 a reader re-reading debugfs stats/clients, sysfs total, /proc/seqring.
# Then, with delete_module() called directly (stress_delmod; kmod's rmmod
# would not even try while the use count is not 0):
#   A  rmmod must fail because the module is in use (W1 and R2 hold it):
#      kmod's rmmod says "Module seqring is in use" (its EBUSY), and
#      delete_module() itself fails with EAGAIN (EWOULDBLOCK, the kernel's
#      errno for a module in use; EBUSY is accepted as well);
#   B  W1 is killed (SIGTERM or SIGKILL), rmmod must still fail the same
#      way (R2's debugfs file pins the module);
#   C  R2 is killed. Odd cycles stop W2, R3, R4 too: the use count must be
#      0 and rmmod must succeed with R1's /proc file still open. Even
#      cycles call delete_module() every millisecond (up to 2000 times)
#      while W2, R3, R4 keep opening and closing: each call either fails
#      (in use) or unloads the module; if none won, the openers are
#      stopped and it must succeed;
#   D  after the unload R1's next read() fails with EIO (or, if the unload
#      came in the middle of its walk, that walk ends with ENODEV); W2, R3 and R4 end
#      on their own when their open() fails (ENOENT, ENODEV or ENXIO) or
#      a read() of a file they had open fails (/proc: EIO, sysfs: ENODEV);
#      /proc/seqring, debugfs, /dev/seqring and the sysfs directories are
#      gone; the next cycle's insmod must work.
# The kernel must log no oops, BUG, warning or lockup.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 12

cycles=${STRESS_UNLOAD_CYCLES:-50}
seed=${STRESS_SEED:-$(($(date +%s) % 1000000 + 1))}
kmsg_mark stress-20
diag "seed $seed, $cycles cycles"
is_loaded && rmmod seqring

# in_use ANSWER: stress_delmod's answer ("ERRNO N") for a module in use.
in_use() {
	case $1 in
	"EAGAIN "* | "EBUSY "*) return 0 ;;
	esac
	return 1
}

# fail KIND MSG: remember a failure of kind KIND in this cycle.
fail() {
	echo "cycle $c: $2" >>"$T/fail.$1"
}

# result KIND DESC: one test for all cycles.
result() {
	if [ -s "$T/fail.$1" ]; then
		not_ok "$2" "$(wc -l <"$T/fail.$1") failure(s), the first:" \
			"$(head -n 5 "$T/fail.$1")"
	else
		ok "$2"
	fi
}

# alive PID: the process exists and is not a zombie.
alive() {
	_s=$(sed -n 's/^[0-9]* (.*) \([A-Z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -n "$_s" ] && [ "$_s" != Z ]
}

# reap PID SECS: wait for PID to end by itself within SECS seconds, else
# kill it. Returns 0 if it ended by itself.
reap() {
	_i=0
	while alive "$1"; do
		if [ "$_i" -ge $(($2 * 10)) ]; then
			kill -KILL "$1" 2>/dev/null
			wait "$1" 2>/dev/null
			return 1
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	wait "$1" 2>/dev/null
	return 0
}

# wait_ready FILE...: until each has a "ready" line (10 s in all).
wait_ready() {
	_i=0
	for _f in "$@"; do
		while ! grep -q '^ready' "$_f" 2>/dev/null; do
			[ "$_i" -ge 100 ] && return 1
			sleep 0.1
			_i=$((_i + 1))
		done
	done
}

use_count() {
	awk '$1 == "seqring" { print $3 }' /proc/modules
}

held=0 busy=0 raced=0 quiesced=0 eio=0 gone=0 pushed=0 killed=0
c=0
while [ "$c" -lt "$cycles" ]; do
	c=$((c + 1))
	set -- 1 7 64 1000 4096
	shift $((c % 5))
	cap=$1
	if ! out=$(insmod "$MODDIR/seqring.ko" capacity="$cap" 2>&1); then
		fail load "insmod capacity=$cap: $out"
		break
	fi
	if [ ! -c "$DEV" ] || [ ! -e "$PROC" ] || [ ! -d "$DEBUGFS" ]; then
		fail load "after insmod: $(ls -d "$DEV" "$PROC" "$DEBUGFS" 2>&1)"
	fi

	d=$T/c$c
	mkdir "$d"
	"$BIN/stress_writer" -i 1 -m hold -t 120 -s "$((seed + c))" >"$d/w1" 2>&1 &
	w1=$!
	"$BIN/stress_writer" -i 2 -m reopen -r 500 -t 120 -s "$((seed + c))" >"$d/w2" 2>&1 &
	w2=$!
	"$BIN/stress_reader" stream -u -t 120 -s "$((seed + c))" "$PROC" >"$d/r1" 2>&1 &
	r1=$!
	"$BIN/stress_reader" stream -u -t 120 -s "$((seed + c))" "$DEBUGFS/readings" \
		>"$d/r2" 2>&1 &
	r2=$!
	"$BIN/stress_reader" stream -u -r -t 120 -s "$((seed + c))" "$DEBUGFS/readings" \
		>"$d/r3" 2>&1 &
	r3=$!
	"$BIN/stress_reader" cat -u -t 120 "$DEBUGFS/stats" "$DEBUGFS/clients" \
		"$SYSFS/total" "$PROC" >"$d/r4" 2>&1 &
	r4=$!
	_tap_pids="$w1 $w2 $r1 $r2 $r3 $r4"
	if ! wait_ready "$d/w1" "$d/w2" "$d/r1" "$d/r2" "$d/r3" "$d/r4"; then
		fail procs "not all started: $(tail -q -n 2 "$d"/* | tr '\n' ' ')"
	fi
	sig=TERM
	[ $((c % 4)) -ge 2 ] && sig=KILL

	# A: /dev/seqring and a debugfs file open.
	out=$(rmmod seqring 2>&1)
	case $out in
	*"seqring is in use"*) ;;
	*) fail busyall "kmod rmmod with /dev/seqring and debugfs open: $out" ;;
	esac
	r=$("$BIN/stress_delmod" seqring)
	if in_use "$r"; then
		held=$((held + 1))
	else
		fail busyall "rmmod with /dev/seqring and debugfs open: $r"
	fi
	n=$(use_count)
	[ "${n:-0}" -ge 2 ] || fail refcnt "use count with W1 and R2 running is '$n'"

	# B: only debugfs files (and /proc) open.
	kill -"$sig" "$w1"
	wait "$w1" 2>/dev/null
	r=$("$BIN/stress_delmod" seqring)
	if in_use "$r"; then
		held=$((held + 1))
	else
		fail busydbg "rmmod with a debugfs file open: $r"
	fi

	# C
	kill -"$sig" "$r2"
	wait "$r2" 2>/dev/null
	racing=
	if [ $((c % 2)) -eq 0 ]; then
		r=$("$BIN/stress_delmod" -n 2000 -w 1000 seqring)
		busy=$((busy + ${r#* }))
		case $r in
		"ok "*)
			raced=$((raced + 1))
			racing="$w2 $r3 $r4"
			;;
		"EAGAIN 2000") ;;
		*) fail unload "rmmod while W2, R3, R4 open and close: $r" ;;
		esac
	fi
	if [ -z "$racing" ]; then
		for p in $w2 $r3 $r4; do
			kill -TERM "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		n=$(use_count)
		[ "$n" = 0 ] || fail refcnt "use count '$n' with only /proc/seqring open"
		r=$("$BIN/stress_delmod" seqring)
		if [ "$r" = "ok 0" ]; then
			quiesced=$((quiesced + 1))
		else
			fail unload "rmmod with only /proc/seqring open: $r"
		fi
	fi

	# D
	if is_loaded; then
		for p in $w2 $r1 $r3 $r4; do
			kill -KILL "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		_tap_pids=
		fail unload "still loaded; use count $(use_count)"
		/bin/rmmod seqring 2>/dev/null || break
		continue
	fi
	if reap "$r1" 10 && grep -qE ' end=(EIO|ENODEV) ' "$d/r1"; then
		eio=$((eio + 1))
	else
		fail eio "the reader holding /proc/seqring: $(tail -n 1 "$d/r1")"
	fi
	for p in $racing; do
		reap "$p" 10 || fail gone "pid $p did not end after the unload"
	done
	for f in w2 r3 r4; do
		[ -n "$racing" ] || break
		if grep -qE ' end=gone' "$d/$f"; then
			gone=$((gone + 1))
			grep -o 'end=gone[^ ]*' "$d/$f" >>"$T/gone-how"
		else
			fail gone "$f: $(tail -n 1 "$d/$f")"
		fi
	done
	_tap_pids=
	for p in "$PROC" "$DEBUGFS" "$DEV" "$SYSFS" /sys/module/seqring; do
		[ -e "$p" ] && fail leftover "$p is still there after the unload"
	done
	# ENOBUFS is no error here: in the rings of 1 and 7 readings
	# the two writers' readings in flight fill the ring, and a push
	# then stores nothing and is counted lost instead of waiting
	# (stress_writer.c); seen in the debug kernel's stress tier.
	for f in w1 w2 r1 r2 r3 r4; do
		if sed -E 's/ENOBUFS:[0-9]+,?//g' "$d/$f" | grep -qE 'bad=[1-9]|errors=[A-Z]'; then
			fail procs "$f: $(grep -E 'bad=|errors=|^# ' "$d/$f" | head -n 3 | tr '\n' ' ')"
		fi
	done
	if [ "$sig" = TERM ]; then
		n=$(sed -n 's/.* pushed=\([0-9]*\) .*/\1/p' "$d/w1")
		pushed=$((pushed + ${n:-0}))
	else
		killed=$((killed + 2))
	fi
	n=$(sed -n 's/.* pushed=\([0-9]*\) .*/\1/p' "$d/w2")
	pushed=$((pushed + ${n:-0}))
	rm -rf "$d"
done

diag "$c cycles: rmmod refused (in use) $held times with files held;" \
	"rmmod under open/close load: $raced unloaded the module after $busy refusals;" \
	"$quiesced unloaded after the openers stopped; $killed holders killed with SIGKILL" \
	"/proc/seqring read after unload failed with EIO or ENODEV $eio times;" \
	"openers ended by the unload: $gone ($(sort "$T/gone-how" 2>/dev/null | uniq -c | tr -s ' \n' ' '))" \
	"readings pushed (SIGTERM'd writers): $pushed"
is "$cycles" "$c" "ran $cycles load/unload cycles"
result load "insmod worked every cycle (capacities 1, 7, 64, 1000, 4096)"
result procs "writers and readers ran without an unexpected error"
result busyall "rmmod fails (in use) while /dev/seqring and a debugfs file are open"
result busydbg "rmmod fails (in use) while only a debugfs file is open"
result refcnt "use count >= 2 with holders, back to 0 once they are closed"
result unload "rmmod unloads the module (racing openers, or once they stopped)"
result eio "an open /proc/seqring fd fails with EIO (ENODEV mid-walk) after the unload"
result gone "openers of a removed device or debugfs file end with ENOENT/ENODEV/ENXIO"
result leftover "nothing is left after an unload (/proc, debugfs, /dev, sysfs)"

check_load "the module loads again after the last cycle" capacity=16
bad=$(kernel_reports stress-20 'refcount_t|did not clean up')
if [ -n "$bad" ]; then
	not_ok "the kernel logged no oops, BUG, warning or lockup" "$bad"
	unload_seqring
else
	check_unload "the kernel logged no oops, BUG, warning or lockup; rmmod works"
fi
done_testing
