#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A listing ends at the newest reading that existed when its reader began:
# when the file was opened, and again after each end of file (a read()
# returning 0). So a reader never chases producers that outrun it (cat of
# a ring being filled ends), and one that reads again after end of file
# gets what came since.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 9

check_load "load seqring.ko capacity=64" capacity=64

# read_fd3: read fd 3 with plain read()s until one returns 0. (Not cat:
# busybox cat copies with sendfile(), which goes on reading after an end
# of file inside the call and so reads on past the end of the first walk.)
read_fd3() {
	dd bs=4096 <&3 2>/dev/null
}

push 5
exec 3<"$PROC"
push 3 -v 6
read_fd3 >"$T/r1"
is "1 2 3 4 5" "$(sed 1d "$T/r1" | awk '{ print $1 }' | words)" \
	"a reader opened after 5 pushes reads to seq 5, not the 3 pushed after its open"
read_fd3 >"$T/r2"
is "6 7 8" "$(awk '{ print $1 }' "$T/r2" | words)" \
	"reading again after end of file gives the 3 pushed since (seqs 6 7 8)"
push 2 -v 9
read_fd3 >"$T/r3"
is "9 10" "$(awk '{ print $1 }' "$T/r3" | words)" \
	"... and after 2 more pushes and end of file, seqs 9 10"
exec 3<&-
cat "$PROC" >"$T/full"
cat "$T/r1" "$T/r2" "$T/r3" >"$T/all"
same_file "$T/full" "$T/all" "the three reads together equal one fresh full read"
check_unload "rmmod seqring"

# A writer on one CPU pushes batches of 65536 ready-made readings in a
# loop, far faster than cat can list them (a batch reading costs ~100 ns, a
# listed line ~3 us under tcg), the ring wrapping all the time. A cat that chased the newest reading would never
# end; one that stops at the newest reading of its open ends after about
# one ring's worth of lines (65536 here: seconds at most).
check_load "load seqring.ko capacity=65536" capacity=65536
pin_w=
pin_r=
if [ "$(nproc)" -ge 2 ]; then
	pin_w="taskset 1"
	pin_r="taskset 2"
fi
$pin_w "$BIN/push_n" -b -R 65536 >"$T/w" 2>&1 &
wpid=$!
_tap_pids="$_tap_pids $wpid"
sleep 1
$pin_r cat "$PROC" >"$T/cat" &
cpid=$!
if wait_gone "$cpid" 60; then
	ok "cat /proc/seqring ends while a writer outruns it ($(wc -l <"$T/cat") lines)"
else
	kill -KILL "$cpid"
	not_ok "cat /proc/seqring ends while a writer outruns it" \
		"expected cat to end within 60 s, it was still reading ($(wc -l <"$T/cat") lines so far)"
fi
stop_pid "$wpid"
diag "the writer pushed $(stat_get total) readings"
check_unload "rmmod seqring"
done_testing
