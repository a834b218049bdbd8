#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 84-cursor.sh - dump and watch resume where an earlier run stopped (guest,
# busybox ash): --after SEQ skips the readings up to SEQ; --cursor-file
# FILE reads SEQ from FILE and saves there the last reading read, so runs
# one after the other, with pushes in between, together print every
# reading once; readings overwritten in between are counted on stderr; a
# cursor from before a reload of the module is noticed.

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

plan 21

check_load "load seqring capacity=8" capacity=8

# seqs FILE: the SEQ column of FILE, space-separated.
seqs() {
	awk '{ printf "%s%s", sep, $1; sep = " " }' "$1"
}

"$BIN/push_n" 5 || fail_rest "push_n failed"

"$CTL" dump --after 3 >"$T/d" 2>"$T/e"
is "0 4 5 " "$? $(seqs "$T/d") $(cat "$T/e")" "dump --after 3: readings 4 and 5, nothing on stderr"
"$CTL" dump --after 5 >"$T/d" 2>"$T/e"
is "0  " "$? $(seqs "$T/d") $(cat "$T/e")" "dump --after 5 (the newest): nothing"
"$CTL" dump --after 0 >"$T/d"
is "1 2 3 4 5" "$(seqs "$T/d")" "dump --after 0: all"
"$CTL" dump --after 3 --cursor-file "$T/c" >"$T/d" 2>"$T/e"
is 2 $? "--after with --cursor-file is a usage error (exit 2)"

# Three runs, pushes in between: every reading once, in order.
cur=$T/cursor
"$CTL" watch --cursor-file "$cur" --count=2 >"$T/r1" 2>"$T/e1"
is "0 1 2 2" "$? $(seqs "$T/r1") $(cat "$cur")" \
	"watch --cursor-file (no file yet) --count=2: readings 1 2, cursor file says 2"
"$BIN/push_n" 2
"$CTL" watch --cursor-file "$cur" --count=3 >"$T/r2" 2>"$T/e2"
is "0 3 4 5 5" "$? $(seqs "$T/r2") $(cat "$cur")" \
	"a second watch goes on after the cursor: 3 4 5, cursor 5"
"$CTL" dump --cursor-file "$cur" >"$T/r3" 2>"$T/e3"
is "0 6 7 7" "$? $(seqs "$T/r3") $(cat "$cur")" \
	"dump --cursor-file: the two pushed in between, cursor 7"
is "1 2 3 4 5 6 7" "$(cat "$T/r1" "$T/r2" "$T/r3" | awk '{ print $1 }' | words)" \
	"the three runs together: every reading once, in order"
is "" "$(cat "$T/e1" "$T/e2" "$T/e3")" "... and nothing on stderr"
"$CTL" dump --cursor-file "$cur" >"$T/d" 2>"$T/e"
is "0  7" "$? $(seqs "$T/d") $(cat "$cur")" "dump with nothing new prints nothing, cursor stays"

# 20 more into 8 slots: 8..27 pushed, 20..27 held, 8..19 missed.
"$BIN/push_n" 20
"$CTL" dump --cursor-file "$cur" >"$T/d" 2>"$T/e"
is "0 20 27 27" "$? $(head -n 1 "$T/d" | cut -d ' ' -f 1) $(tail -n 1 "$T/d" | cut -d ' ' -f 1) $(cat "$cur")" \
	"after an overrun: from the oldest held (20) to the newest (27)"
is "seqringctl: /dev/seqring: 12 readings missed after the cursor (seq 7)" "$(cat "$T/e")" \
	"... and says on stderr how many were missed (12)"

"$CTL" clear
"$BIN/push_n" 3
"$CTL" clear
"$CTL" dump --cursor-file "$cur" >"$T/d" 2>"$T/e"
is "0 0 30" "$? $(wc -l <"$T/d") $(cat "$cur")" \
	"readings cleared before the run: nothing printed, cursor moves past them (30)"
like "$(cat "$T/e")" '3 readings missed after the cursor \(seq 27\)$' "... 3 counted as missed"

# Filtered out still counts as read: the cursor moves past it.
"$BIN/push_n" -c 1 2
"$CTL" dump -c 9 --cursor-file "$cur" >"$T/d"
is "0 32" "$(wc -l <"$T/d") $(cat "$cur")" "dump -c 9 shows nothing and the cursor passes what it filtered out (32)"

# watch ended by SIGTERM has saved what it printed.
"$BIN/sigdfl" "$CTL" watch --cursor-file "$cur" >"$T/w" 2>"$T/we" &
pid=$!
_tap_pids="$_tap_pids $pid"
"$BIN/push_n" 3
wait_line "$T/w" '^35 ' 10 || diag "watch printed '$(cat "$T/w")'"
kill -TERM "$pid"
wait_gone "$pid" 10 || stop_pid "$pid"
"$BIN/push_n" 2
"$CTL" dump --cursor-file "$cur" >"$T/d"
is "33 34 35/36 37" "$(seqs "$T/w")/$(seqs "$T/d")" \
	"after watch is killed by SIGTERM, the next run goes on after what it printed"

echo 1000 >"$cur"
"$CTL" dump --cursor-file "$cur" >"$T/d" 2>"$T/e"
like "$(cat "$T/e")" 'cursor 1000 is past the newest reading ever pushed \(37\)' \
	"a cursor past the newest reading (from before a reload) is said on stderr"
is "31 37 37" "$(head -n 1 "$T/d" | cut -d ' ' -f 1) $(tail -n 1 "$T/d" | cut -d ' ' -f 1) $(cat "$cur")" \
	"... and reading starts at the oldest held"

# A cursor that cannot be saved: said before any reading is shown.
"$CTL" dump --cursor-file /nonexistent/cursor >"$T/d" 2>"$T/e"
is "1 0 yes" "$? $(wc -l <"$T/d") $(grep -q '/nonexistent/cursor: cannot save the cursor' "$T/e" && echo yes)" \
	"a cursor file that cannot be saved: exit 1 before any reading is shown, naming it"

echo bogus >"$cur"
"$CTL" dump --cursor-file "$cur" >"$T/d" 2>"$T/e"
is "1 yes" "$? $(grep -q "$cur: not a cursor" "$T/e" && echo yes)" \
	"a cursor file that holds no sequence number: exit 1, naming it"

unload_seqring
done_testing
