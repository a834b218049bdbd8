#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seqringctl top against the real driver, one behaviour per test. Without
# a terminal it prints one frame and exits 0; a frame shows every ring
# (named rings too, or with -d the one asked for) with the counters of
# SEQRING_IOC_GET_STATS, the pushes a second over the interval, the files
# open for reading on it (its own left out, writers not counted) and the
# latest value of each channel and label, labels escaped as in the
# listing. On a pseudo-terminal (tests/bin/ptyrun) it draws on the
# alternate screen, q ends it with status 0, Ctrl-C makes it die by
# SIGINT, and either way the terminal's modes are given back; a resize
# redraws the frame at the new width. A reader of its pipe that goes away
# ends it.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 23

check_load "load seqring.ko capacity=8" capacity=8

# ring_field FRAME RING N: field N of RING's line in the frame file FRAME:
# 1 name, 2 pushes/s, 3 pushed, 4 dropped, 5 readers, 6 held/capacity,
# 7 percent used.
ring_field() {
	awk -v r="$2" -v n="$3" '$1 == r { print $n; exit }' "$1"
}

# series FRAME: the label lines of the frame, "LABEL CHANNEL VALUE" each,
# joined by ";".
series() {
	awk '/^  / && !/LATEST VALUE/ { printf "%s %s %s;", $1, $2, $3 }' "$1"
}

if ! { "$CTL" push -c 1 -l kitchen 10 &&
	"$CTL" push -c 1 -l kitchen 11 &&
	"$CTL" push -c 2 -l "back door" 20 &&
	"$CTL" push -c 3 -- -30; }; then
	fail_rest "seqringctl push failed"
fi

"$CTL" top -i 0.1 >"$T/f1" 2>"$T/e1"
is "0 1 " "$? $(grep -c '^seqringctl top - ' "$T/f1") $(cat "$T/e1")" \
	"without a terminal: one frame, status 0, nothing on stderr"
is "4 0 4/8 50%" \
	"$(for n in 3 4 6 7; do ring_field "$T/f1" seqring $n; done | words)" \
	"its line of seqring: pushed, dropped, held/capacity and used as GET_STATS has them"
is "$(printf '  %-16s %10s %20s;' kitchen 1 11 "back door" 2 20 - 3 -30)" \
	"$(awk '/^  / && !/LATEST VALUE/ { printf "%s;", substr($0, 1, 50) }' "$T/f1")" \
	"the latest value of each channel and label, labels as people write them, in a column of 16"

push 10 >/dev/null
"$CTL" top -i 0.1 >"$T/f2"
is "14 6 8/8 100%" \
	"$(for n in 3 4 6 7; do ring_field "$T/f2" seqring $n; done | words)" \
	"after 10 more pushes into 8 readings: 14 pushed, 6 dropped, full"
is "- 0 10;" "$(series "$T/f2")" \
	"... and the readings overwritten are no one's latest any more"

# Pushes a second: 50 readings while top waits out its first second.
"$CTL" top -b -n 2 -i 1 >"$T/r" 2>&1 &
top_pid=$!
_tap_pids="$_tap_pids $top_pid"
# holds_ring PID: PID has the device open.
holds_ring() {
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f")" = "$DEV" ] && return 0
	done
	return 1
}
i=0
while ! holds_ring "$top_pid" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
push 50 >/dev/null
wait_gone "$top_pid" 10 || diag "top -n 2 did not end"
rates=$(awk '$1 == "seqring" { print $2 }' "$T/r" | words)
case $rates in
4[5-9].[0-9]" 0.0" | 50.0" 0.0") ok "pushes a second: 50 pushed in a 1 s interval, then none ($rates)" ;;
*) not_ok "pushes a second: 50 pushed in a 1 s interval, then none" \
	"expected about 50.0 then 0.0, got '$rates'" "$(cat "$T/r")" ;;
esac
is 2 "$(grep -c '^seqringctl top - ' "$T/r")" "-n 2: two frames"

# Readers: a file open for reading counts, one open for writing only does
# not, nor top's own.
start_holder "$T/h1" -r || true
h1=$HOLDER_PID
start_holder "$T/h2" || true
h2=$HOLDER_PID
sleep 60 >"$DEV" &
writer=$!
_tap_pids="$_tap_pids $writer"
"$CTL" top -i 0.1 >"$T/f3"
is 2 "$(ring_field "$T/f3" seqring 5)" \
	"readers: files open read-only and read-write; not write-only, not top's own"
stop_pid "$h1"
stop_pid "$h2"
stop_pid "$writer"
"$CTL" top -i 0.1 >"$T/f4"
is 0 "$(ring_field "$T/f4" seqring 5)" "readers: 0 once they closed"

# Every ring, and with -d one.
if [ -f "$PRODUCER_KO" ] && load_producer && [ "$(pctl create topa 4)" = ok ]; then
	"$CTL" -d /dev/seqring-topa push -l a 7 >/dev/null
	"$CTL" top -i 0.1 >"$T/f5"
	is "seqring seqring-topa" "$(awk '/^seqring/ && !/^seqringctl/ { print $1 }' "$T/f5" | words)" \
		"every ring is listed, the named ring too, by name"
	"$CTL" -d /dev/seqring-topa top -i 0.1 >"$T/f6"
	is "seqring-topa 1 a 0 7;" \
		"$(awk '/^seqring/ && !/^seqringctl/ { printf "%s %s ", $1, $3 }' "$T/f6")$(series "$T/f6")" \
		"-d /dev/seqring-NAME: that ring alone, with its own counters and readings"
	pctl destroy topa >/dev/null
	unload_module seqring_producer
else
	skip "every ring is listed, the named ring too" "no test module $PRODUCER_KO"
	skip "-d /dev/seqring-NAME: that ring alone" "no test module $PRODUCER_KO"
fi

# On a terminal.
"$BIN/ptyrun" w:'(q quits)' k:q -- "$CTL" top >"$T/p1" 2>"$T/pe1"
is "0 ptyrun: icanon=1 echo=1" "$? $(cat "$T/pe1")" \
	"on a terminal: q ends it with status 0, the terminal's modes given back"
is "1 1" "$(grep -c "$(printf '\033\\[?1049h')" "$T/p1") $(grep -c "$(printf '\033\\[?1049l')" "$T/p1")" \
	"... after drawing on the alternate screen and leaving it"
"$BIN/ptyrun" w:'(q quits)' k:"$(printf '\003')" -- "$CTL" top >"$T/p2" 2>"$T/pe2"
is "130 ptyrun: icanon=1 echo=1" "$? $(cat "$T/pe2")" \
	"Ctrl-C: it dies by SIGINT (128 + 2), the terminal's modes given back"
grep -q "$(printf '\033\\[?1049l')" "$T/p2"
is 0 $? "... after leaving the alternate screen"
# After the resize, a frame at 40 columns: the longest line of the last
# frame (from the last ESC[H, lines ended by ESC[K, the frame by ESC[J).
"$BIN/ptyrun" w:'(q quits)' z:24x40 w:'seqringctl top - ' w:'seqring ' k:q -- \
	"$CTL" top -i 0.2 >"$T/p3" 2>/dev/null
widest=$(tr -d '\r' <"$T/p3" | tr '\033' '~' | awk '
	index($0, "~[H") { max = 0; sub(/.*~\[H/, "") }
	{ s = $0; sub(/~\[[KJ].*/, "", s); if (length(s) > max) max = length(s) }
	END { print max }')
is yes "$([ "$widest" -gt 0 ] && [ "$widest" -le 40 ] && echo yes)" \
	"a resize (SIGWINCH) redraws the frame at the new width (widest line $widest, 40 at most)"
"$BIN/ptyrun" w:'(q quits)' k:x s:500 k:q -- "$CTL" top -i 0.1 >"$T/p4" 2>/dev/null
is "0 yes" "$? $([ "$(grep -o 'seqringctl top - ' "$T/p4" | wc -l)" -ge 3 ] && echo yes)" \
	"another key neither ends it nor stops the frames"

# A reader of its pipe that goes away ends it, as it ends watch.
"$BIN/sigdfl" sh -c "\"$CTL\" top -b -i 0.1 -n 600 | head -n 1 >/dev/null; echo \$?" >"$T/pipe" &
pipe_pid=$!
_tap_pids="$_tap_pids $pipe_pid"
if wait_gone "$pipe_pid" 10; then
	ok "top -b piped into head -n 1 ends with head, not after its 600 frames"
else
	stop_pid "$pipe_pid"
	not_ok "top -b piped into head -n 1 ends with head" "expected it to end in 10 s, it did not"
fi

"$CTL" top -i 0.05 >/dev/null 2>"$T/u"
is 2 $? "-i 0.05: a usage error (0.1 s at least)"

# A ring it cannot show, or none, makes the status 1, as for any command.
"$BIN/stress_runas" 1000 1000 "$CTL" top -i 0.1 >"$T/f7" 2>"$T/e7"
is "1 yes yes" "$? $(grep -q 'seqring .*Permission denied' "$T/f7" && echo yes) $(grep -q '/dev/seqring: cannot open: Permission denied' "$T/e7" && echo yes)" \
	"no permission (tester): the frame says why, exit 1, stderr says why too"

check_unload "unload seqring.ko"
"$CTL" top -i 0.1 >"$T/f8" 2>"$T/e8"
is "1 yes" "$? $(grep -q 'no ring: is the module loaded' "$T/e8" && echo yes)" \
	"no ring at all: exit 1, stderr says to load the module"

done_testing
