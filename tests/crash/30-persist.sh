#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The persistent ring over a panic, a panic from another CPU in the middle
# of pushes, and a warm reboot; a region of noise reads as a cold boot.
# The region: 64 KiB (a ring of 1024 readings) 4 MiB above the mem= limit
# of the crash tier (10-ram.sh shows that such memory survives), given as
# persist_addr= and persist_size=, which every kernel takes.
#   phase 1: noise in the region; load (no .prev); push 2500 readings (the
#            ring wraps); save the listing; panic.
#   phase 2: load; save the previous boot's listing and what .prev does;
#            push from CPU 1 without end while CPU 0 panics.
#   phase 3: load; save what .prev holds; push 10; reboot -f.
#   phase 4: load; save .prev; unload, noise again, load: the results.
# Every phase loads the module as the previous one did; the results are
# asserted in the last phase, from what the others saved.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=65536
S=$SEQRING_STATE
PREV=/dev/seqring.prev

crash_phases_only
if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-crash gives one)"
	exit 0
fi
PHYS=$((PHYS + (4 << 20)))

# noise SEED: fill the region with a pattern that is no ring.
noise() {
	insmod "$SEQRING_MODULES/seqring_ramprobe.ko" phys="$PHYS" size=$SIZE \
		seed="$1" op=fill && rmmod seqring_ramprobe
}

# load N: the module with its ring in the region (persist_load).
load() {
	persist_load "$1" persist_addr="$PHYS" persist_size=$SIZE
}

# feed N FIRST TAG: push N readings, channel value % 5.
feed() {
	feed_readings "$1" "$2" "$3" 5
}

# prev_info N: what the previous boot's ring shows, into $S/*.N.
prev_info() {
	if [ -c $PREV ]; then
		seqringctl dump --boot -1 >"$S/prev.$1" 2>"$S/prev.$1.err"
		seqringctl -d $PREV stats >"$S/prevstats.$1" 2>&1
	else
		echo "no $PREV" >"$S/prev.$1.err"
	fi
}

case $SEQRING_PHASE in
1)
	noise 7
	load 1
	[ -c $PREV ] && echo yes >"$S/prev.1" || echo no >"$S/prev.1"
	cat /sys/class/misc/seqring/capacity >"$S/capacity.1" 2>&1
	feed 2500 1 p1 >"$S/feed.1" 2>&1
	seqringctl dump >"$S/pushed.1" 2>&1
	# Outside the kernel's memory, its pages have no struct page.
	"$BIN/mmap-consumer" -n 1 >"$S/mapped.1" 2>&1
	echo "$?" >>"$S/mapped.1"
	go_down panic
	;;
2)
	load 2
	prev_info 2
	# What a read-only ring refuses, and where the new numbers start.
	seqringctl -d $PREV push 1 >"$S/prevpush.2" 2>&1
	echo "$?" >>"$S/prevpush.2"
	seqringctl -d $PREV clear >"$S/prevclear.2" 2>&1
	echo "$?" >>"$S/prevclear.2"
	sh -c 'echo 10 >/sys/class/misc/seqring/capacity' 2>"$S/resize.2"
	seqringctl push -l first 42 && seqringctl dump >"$S/first.2" 2>&1
	# CPU 0 panics while CPU 1 pushes, one reading a system call.
	taskset -p -c 0 $$ >/dev/null
	( awk 'BEGIN { for (i = 1; ; i++) printf "%d %d p2-%d\n", i, i % 5, i }' |
		taskset -c 1 seqringctl feed -b 1 ) >/dev/null 2>&1 &
	sleep 2
	go_down panic
	;;
3)
	load 3
	prev_info 3
	feed 10 1 p3 >"$S/feed.3" 2>&1
	seqringctl dump >"$S/pushed.3" 2>&1
	go_down warm
	;;
esac

load 4
prev_info 4
# The exporters read the previous boot's ring as any other.
seqringctl -d $PREV stats --format=prometheus >"$S/prom.4" 2>&1
if [ -x /lib/systemd/systemd-journald ] && command -v journalctl >/dev/null &&
	start_journald "$S/journald.log"; then
	seqringctl dump --boot -1 --journal >"$S/journal.4.out" 2>&1
	journal_entries 10 "$S/journal.4.json" "$S/journal.4.err"
	grep -c SEQRING_SEQ "$S/journal.4.json" >"$S/journal.4"
else
	echo "no journald in the VM" >"$S/journal.4"
fi
unload_seqring
noise 9
load 5
[ -c $PREV ] && echo yes >"$S/prev.5" || echo no >"$S/prev.5"
unload_seqring

plan 17

# phase 1
is "no" "$(cat "$S/prev.1")" "a region of noise: no $PREV" || diag "$(cat "$S/load.1")"
like "$(cat "$S/found.1")" "not a seqring ring.*formatted for 1024 readings" \
	"... and one message says so, and the capacity the region gives"
is "1024" "$(cat "$S/capacity.1")" "the ring's capacity is the region's"
like "$(tr '\n' ' ' <"$S/mapped.1")" "No such device.* 1 $" \
	"a ring above mem= cannot be mapped (ENODEV): its pages are not the kernel's"

# phase 2: the listing before the panic, and after it.
same_file "$S/pushed.1" "$S/prev.2" \
	"after a panic, dump --boot -1 shows every reading held before it, as dump did" ||
	diag "$(cat "$S/prev.2.err" "$S/load.2")"
like "$(cat "$S/found.2")" "previous readings 1477\.\.2500, 1024 intact" \
	"... one message: the range held, all intact"
like "$(head -n 1 "$S/prevpush.2")" "Read-only file system" "$PREV refuses pushes (EROFS)"
like "$(head -n 1 "$S/prevclear.2")" "Read-only file system" "... and CLEAR"
like "$(cat "$S/resize.2")" "Operation not supported" \
	"the persistent ring refuses a resize (its capacity is the region's)"
like "$(cat "$S/first.2")" "^2501 [0-9]* 0 42 first$" \
	"the new boot's first reading gets the number after the previous boot's last"

# phase 3: the panic from CPU 0 while CPU 1 pushed.
awk '
	$5 == "first" || !/^[0-9]/ { next }
	{ n++; split($5, l, "-")
	  if (l[1] != "p2" || $4 != l[2] || $3 != $4 % 5) bad++
	  if (n > 1 && ($1 != seq + 1 || $4 != value + 1)) gap++
	  seq = $1; value = $4 }
	END { printf "%d readings, %d inconsistent, %d gaps\n", n, bad, gap }' \
	"$S/prev.3" >"$S/check.3"
like "$(cat "$S/check.3")" "^[1-9][0-9]* readings, 0 inconsistent, 0 gaps$" \
	"a panic from another CPU during pushes: each reading whole, in order, none missing" ||
	diag "$(head -n 3 "$S/prev.3"; cat "$S/prev.3.err")"
is "" "$(grep damaged "$S/found.3")" "... and none damaged" || diag "$(cat "$S/found.3")"

# phase 4: the warm reboot.
same_file "$S/pushed.3" "$S/prev.4" \
	"after a warm reboot (reboot -f), dump --boot -1 shows what dump did" ||
	diag "$(cat "$S/prev.4.err" "$S/load.4")"

like "$(cat "$S/prom.4")" '^seqring_readings\{device="/dev/seqring.prev"[^}]*\} 10$' \
	"stats --format=prometheus of $PREV: its 10 readings" || diag "$(cat "$S/prom.4")"
is 10 "$(cat "$S/journal.4")" "dump --boot -1 --journal: the 10 readings in the journal" ||
	diag "$(cat "$S/journal.4.out" "$S/journal.4.err" 2>/dev/null)"

# the cold boot
is "no" "$(cat "$S/prev.5")" "noise in the region again (a cold boot): no $PREV"
like "$(cat "$S/found.5")" "not a seqring ring" "... and the message says what it found"
done_testing
