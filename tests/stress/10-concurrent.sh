#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 1: concurrent writers and readers, nothing may be lost.
#
# 4 writers (stress_writer: one all PUSH, one all PUSH_BATCH, two mixed,
# one of those with batches up to 600 so they are pushed in several locked
# chunks) each push STRESS_WRITER_MAX readings (default 50000), paced to
# take STRESS_DURATION seconds (default 30; they stop at 2x that in any
# case), into a ring with room for all of them. Meanwhile 5 readers: `cat` of /proc/seqring and of the
# debugfs listing in a loop (each listing saved and checked), stress_reader
# streams doing small read()s with random lseek()s on both files, and one
# re-reading debugfs stats/clients and the sysfs counters.
#
# Checks: every listing read is strictly increasing with no duplicate and,
# since nothing is dropped, without gaps, each line exactly as pushed;
# `total` is the sum of what the writers counted; nothing dropped; the
# final listing holds every reading exactly once; the kernel logs nothing.
# Environment (e.g. VM_APPEND="STRESS_DURATION=60"): STRESS_DURATION,
# STRESS_WRITER_MAX, STRESS_SEED.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 14

dur=${STRESS_DURATION:-30}
max=${STRESS_WRITER_MAX:-50000}
seed=${STRESS_SEED:-$(($(date +%s) % 1000000 + 1))}
cap=262144

kmsg_mark stress-10
check_load "load seqring.ko capacity=$cap" capacity=$cap
rate=$((max / dur + 1))
diag "seed $seed; 4 writers of $max readings each at $rate/s; capacity $cap"

stop=$T/stop
start=$(date +%s)

# Writers: ID, % of single PUSH calls, largest batch.
set -- "0 100 1" "1 0 64" "2 50 64" "3 50 600"
wpids=
for w in "$@"; do
	# shellcheck disable=SC2086 # three words on purpose
	set -- $w
	"$BIN/stress_writer" -i "$1" -p "$2" -b "$3" -t "$((2 * dur))" -n "$max" \
		-r "$rate" -s "$((seed + $1))" >"$T/w$1" 2>&1 &
	wpids="$wpids $!"
done
_tap_pids="$_tap_pids $wpids"

# cat_loop FILE NAME: cat FILE and check each listing until $stop exists.
cat_loop() {
	_n=0
	_bad=0
	_lines=0
	while [ ! -e "$stop" ]; do
		cat "$1" >"$T/$2.txt" 2>"$T/$2.err" || echo "cat failed: $(cat "$T/$2.err")" >>"$T/$2.bad"
		if "$BIN/stress_reader" check -x "$T/$2.txt" >"$T/$2.out"; then
			:
		else
			_bad=$((_bad + 1))
			[ "$_bad" -le 3 ] && cat "$T/$2.out" >>"$T/$2.bad"
		fi
		_l=$(sed -n 's/.* lines=\([0-9]*\) .*/\1/p' "$T/$2.out")
		_lines=$((_lines + ${_l:-0}))
		_n=$((_n + 1))
	done
	echo "listings=$_n lines=$_lines bad=$_bad" >"$T/$2.sum"
}

cat_loop "$PROC" cat-proc &
c1=$!
cat_loop "$DEBUGFS/readings" cat-debugfs &
c2=$!
"$BIN/stress_reader" stream -x -t $((dur + 120)) -s "$((seed + 10))" "$PROC" \
	>"$T/s-proc" 2>&1 &
s1=$!
"$BIN/stress_reader" stream -x -t $((dur + 120)) -s "$((seed + 11))" "$DEBUGFS/readings" \
	>"$T/s-debugfs" 2>&1 &
s2=$!
"$BIN/stress_reader" cat -t $((dur + 120)) "$DEBUGFS/stats" "$DEBUGFS/clients" \
	"$SYSFS/count" "$SYSFS/total" "$SYSFS/dropped" "$SYSFS/newest_seq" \
	>"$T/s-stats" 2>&1 &
s3=$!
_tap_pids="$_tap_pids $c1 $c2 $s1 $s2 $s3"

wfail=0
sum=0
expect=
for p in $wpids; do
	wait "$p" || wfail=$((wfail + 1))
done
wsecs=$(($(date +%s) - start))
: >"$stop"
for p in $s1 $s2 $s3; do
	kill -TERM "$p" 2>/dev/null
done
rfail=0
for p in $s1 $s2 $s3; do
	wait "$p" || rfail=$((rfail + 1))
done
wait "$c1"
wait "$c2"
_tap_pids=

# ---- the writers ----
npush=0
nbatch=0
for w in 0 1 2 3; do
	line=$(grep '^writer ' "$T/w$w")
	diag "$line"
	n=$(echo "$line" | sed -n 's/.* pushed=\([0-9]*\) .*/\1/p')
	sum=$((sum + ${n:-0}))
	expect="$expect${expect:+,}${n:-0}"
	npush=$((npush + $(echo "$line" | sed -n 's/.* push=\([0-9]*\) .*/\1/p')))
	nbatch=$((nbatch + $(echo "$line" | sed -n 's/.* batch=\([0-9]*\) .*/\1/p')))
	case $line in
	*"errors=none") ;;
	*) wfail=$((wfail + 1)) ;;
	esac
done
diag "writers: $sum readings in $npush PUSH and $nbatch PUSH_BATCH calls, ${wsecs}s"
if [ "$wfail" -eq 0 ]; then
	ok "4 writers pushed without an error"
else
	not_ok "4 writers pushed without an error" "$(cat "$T"/w[0-3])"
fi

# ---- the counters ----
st_total=$(stat_get total)
is "$sum" "$st_total" "GET_STATS total is the sum of the writers' pushes ($sum)"
is "$sum $sum $sum" "$(attr total) $(debugfs_stat total) $(attr newest_seq)" \
	"sysfs total, debugfs total and newest_seq agree"
dropped=$(stat_get dropped)
diag "readings lost: dropped $dropped, cleared $(stat_get cleared), held $(stat_get count) of $sum pushed"
is "0 0 $sum" "$dropped $(stat_get cleared) $(stat_get count)" \
	"nothing dropped or cleared: count == total (capacity $cap > work)"

# ---- the readers ----
for r in cat-proc cat-debugfs; do
	diag "$r: $(cat "$T/$r.sum")"
done
for r in s-proc s-debugfs s-stats; do
	diag "$(grep -v '^ready' "$T/$r" | sed 's/^# //' | tail -n 3)"
done
for r in cat-proc:"$PROC" cat-debugfs:"$DEBUGFS/readings"; do
	f=${r#*:}
	r=${r%%:*}
	n=$(sed -n 's/^listings=\([0-9]*\) .*/\1/p' "$T/$r.sum")
	if [ -s "$T/$r.bad" ] || ! grep -q ' bad=0$' "$T/$r.sum" || [ "${n:-0}" -lt 1 ]; then
		not_ok "every listing cat read from $f was complete, in order, as pushed" \
			"$(cat "$T/$r.sum")" "$(head -n 20 "$T/$r.bad" 2>/dev/null)"
	else
		ok "every listing cat read from $f was complete, in order, as pushed ($n listings)"
	fi
done
for r in s-proc:"$PROC" s-debugfs:"$DEBUGFS/readings"; do
	f=${r#*:}
	r=${r%%:*}
	if grep -q ' bad=0 errors=none$' "$T/$r" && grep -q '^ready' "$T/$r"; then
		ok "small reads with random lseeks on $f: every stretch in order, as pushed"
	else
		not_ok "small reads with random lseeks on $f: every stretch in order, as pushed" \
			"$(head -n 30 "$T/$r")"
	fi
done
if [ "$rfail" -eq 0 ] && grep -q ' bad=0 errors=none$' "$T/s-stats"; then
	ok "debugfs stats, clients and sysfs counters read consistently meanwhile"
else
	not_ok "debugfs stats, clients and sysfs counters read consistently meanwhile" \
		"$(head -n 30 "$T/s-stats")"
fi

# ---- the final listing ----
if out=$("$BIN/stress_reader" check -x -e "$expect" "$PROC"); then
	ok "the final listing holds each of the $sum readings exactly once, as pushed"
	diag "$out"
else
	not_ok "the final listing holds each of the $sum readings exactly once, as pushed" "$out"
fi
cat "$PROC" >"$T/final-proc"
cat "$DEBUGFS/readings" >"$T/final-debugfs"
same_file "$T/final-proc" "$T/final-debugfs" "the debugfs listing is the same"

bad=$(kernel_reports stress-10 'refcount_t')
is "" "$bad" "the kernel logged no oops, BUG, warning or lockup"
check_unload "rmmod seqring"
done_testing
