#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 80-tool.sh - seqringctl against the real driver (guest, busybox ash).
#
# Loads seqring.ko capacity=64 and checks one behaviour of the tool per TAP
# line: what push and feed store (read back from /proc/seqring), the exit
# status and message of each kind of error, stats, clear, --help.
#
# Prints its own TAP (plan, ok/not ok, "# expected X, got Y") so it does not
# depend on the helpers of /tests/lib.sh. Every check builds a short "got"
# string and compares it with the expected one.
#
# The paths can be overridden, which is only useful to run the script
# against something other than the guest: SEQRINGCTL, SEQRING_DEV,
# SEQRING_LISTING, SEQRING_MODULES.

ctl=${SEQRINGCTL:-seqringctl}
dev=${SEQRING_DEV:-/dev/seqring}
listing=${SEQRING_LISTING:-/proc/seqring}
module=${SEQRING_MODULES:-/modules}/seqring.ko

plan=34
n=0
nfail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/80-tool.XXXXXX") || exit 1
out=$tmp/out
err=$tmp/err

echo "1..$plan"

# diag TEXT: print TEXT as TAP comment lines.
diag() {
	printf '%s\n' "$1" | sed 's/^/# /'
}

# check DESC EXPECTED GOT
check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		printf 'ok %s - %s\n' "$n" "$1"
	else
		printf 'not ok %s - %s\n' "$n" "$1"
		nfail=$((nfail + 1))
		diag "expected $2, got $3"
		if [ -s "$err" ]; then
			diag "stderr of the last command:"
			sed 's/^/#   /' "$err" | head -n 10
		fi
	fi
}

# run ARGS...: run seqringctl on $dev; leaves rc, stdout in $out, stderr
# in $err.
run() {
	"$ctl" -d "$dev" "$@" >"$out" 2>"$err"
	rc=$?
}

# feed_input FILE ARGS...: run "seqringctl feed ARGS" with FILE as stdin.
feed_input() {
	f=$1
	shift
	"$ctl" -d "$dev" feed "$@" <"$f" >"$out" 2>"$err"
	rc=$?
}

# said WORD: "yes" if stderr of the last command contains WORD.
said() {
	if grep -qF -- "$1" "$err"; then echo yes; else echo no; fi
}

# counter KEY: one counter from "seqringctl stats".
counter() {
	"$ctl" -d "$dev" stats 2>/dev/null | sed -n "s/^$1: //p"
}

# newest N: the last N lines of the listing, read sequentially (a seq_file
# need not support SEEK_END, so do not let tail seek in it).
newest() {
	# shellcheck disable=SC2002 # the cat is the point
	cat "$listing" | tail -n "$1"
}

# last N: fields CHANNEL VALUE LABEL of the last N readings, ';'-separated.
last() {
	newest "$1" | awk '{ printf "%s %s %s;", $3, $4, $5 }'
}

# bail REASON: report every remaining check as failed, clean up, exit 1.
bail() {
	while [ "$n" -lt "$plan" ]; do
		n=$((n + 1))
		printf 'not ok %s - %s\n' "$n" "$1"
	done
	rmmod seqring 2>/dev/null
	rm -rf "$tmp"
	exit 1
}

if ! insmod "$module" capacity=64 2>"$err"; then
	diag "$(cat "$err")"
	bail "insmod $module capacity=64 failed"
fi
udevadm settle 2>/dev/null
i=0
while [ ! -e "$dev" ] && [ "$i" -lt 10 ]; do
	sleep 1
	i=$((i + 1))
done
[ -e "$dev" ] || bail "$dev did not appear"

# Running count of readings pushed since the module was loaded.
total=0

# --- push -----------------------------------------------------------------

run push -c 7 -l tooltest 11 -22 33
check "push of 3 values: 3 listing lines with channel, values and label" \
	"rc=0 lines=3 7 11 tooltest;7 -22 tooltest;7 33 tooltest;" \
	"rc=$rc lines=$(($(wc -l <"$listing") - 1)) $(last 3)"
total=$((total + 3))

run push -t 123456789 -l one 5
check "push of one value with -t stores that timestamp" \
	"rc=0 123456789 0 5 one" \
	"rc=$rc $(newest 1 | cut -d ' ' -f 2-)"
total=$((total + 1))

run push -9223372036854775808 9223372036854775807
check "push takes the full s64 range, negative values are not options" \
	"rc=0 0 -9223372036854775808 -;0 9223372036854775807 -;" \
	"rc=$rc $(last 2)"
total=$((total + 2))

run push -l 0123456789abcde 6
check "push stores a 15-byte label whole" \
	"rc=0 0 6 0123456789abcde;" "rc=$rc $(last 1)"
total=$((total + 1))

run push 12abc
check "push with a bad number exits 2 and names it on stderr" \
	"rc=2 named=yes" "rc=$rc named=$(said "'12abc'")"

run push 9223372036854775808
check "push with a value above S64_MAX exits 2 (out of range)" \
	"rc=2 range=yes" "rc=$rc range=$(said "out of range")"

run push -c 4294967296 1
rc1=$rc
run push -c -1 1
check "push with a channel out of range (4294967296, -1) exits 2" \
	"rc=2 rc=2" "rc=$rc1 rc=$rc"

run push -t -1 1
check "push with a negative timestamp exits 2" "rc=2" "rc=$rc"

run push -l 0123456789abcdef 1
check "push with a 16-byte label exits 2 (not truncated)" \
	"rc=2 said=yes" "rc=$rc said=$(said "label")"

run push
check "push without VALUE exits 2" "rc=2" "rc=$rc"

check "rejected pushes stored nothing" "total=$total" "total=$(counter total)"

"$ctl" -d /dev/nonexistent stats >"$out" 2>"$err"
rc=$?
name=$(said /dev/nonexistent)
enoent=$(said "No such file or directory")
check "missing device: exit 1, stderr names it and says ENOENT" \
	"rc=1 name=yes enoent=yes" "rc=$rc name=$name enoent=$enoent"

"$ctl" -d /dev/null stats >"$out" 2>"$err"
rc=$?
check "not a seqring device: exit 1, stderr names it and says ENOTTY" \
	"rc=1 name=yes enotty=yes" \
	"rc=$rc name=$(said /dev/null) enotty=$(said "Inappropriate ioctl")"

# --- feed -----------------------------------------------------------------

# 300 readings (more than one default batch of 256), between comment and
# blank lines; labels with blanks inside.
{
	echo "# value channel label"
	echo ""
	i=1
	while [ "$i" -le 300 ]; do
		echo "$i 2 lbl $i"
		i=$((i + 1))
	done
	echo "   "
	echo "  # indented comment"
} >"$tmp/good"
before=$(counter total)
feed_input "$tmp/good"
after=$(counter total)
check "feed of 300 good lines pushes 300 readings, prints nothing" \
	"rc=0 pushed=300 stdout=" \
	"rc=$rc pushed=$((after - before)) stdout=$(cat "$out")"
total=$((total + 300))

check "feed keeps the blanks inside a label (escaped as \\040)" \
	'2 300 lbl\040300;' "$(last 1)"

printf '7\n8 9\n' >"$tmp/two"
feed_input "$tmp/two" -v -c 4
check "feed -c sets the default channel, -v prints the count" \
	"rc=0 4 7 -;9 8 -; out=2 readings pushed" \
	"rc=$rc $(last 2) out=$(cat "$out")"
total=$((total + 2))

# Malformed line 5 with batches of 3: lines 1-3 go in a full batch, line 4
# is pending and must still be pushed; lines 6-8 must not be.
printf '101\n102\n103\n104\nx7 1\n106\n107\n108\n' >"$tmp/bad"
before=$(counter total)
feed_input "$tmp/bad" -b 3
after=$(counter total)
check "feed with a malformed line 5 pushes exactly lines 1-4" \
	"pushed=4 0 101 -;0 102 -;0 103 -;0 104 -;" \
	"pushed=$((after - before)) $(last 4)"
check "feed with a malformed line exits 1" "rc=1" "rc=$rc"
check "feed with a malformed line names it on stderr (stdin:5:)" \
	"said=yes" "said=$(said "stdin:5:")"
total=$((total + 4))

printf '1 2 0123456789abcdef\n2\n' >"$tmp/longlabel"
before=$(counter total)
feed_input "$tmp/longlabel"
after=$(counter total)
check "feed with a 16-byte label on line 1 exits 1, pushes nothing" \
	"rc=1 said=yes pushed=0" \
	"rc=$rc said=$(said "stdin:1:") pushed=$((after - before))"

# --- stats ----------------------------------------------------------------

run stats
check "stats prints the 8 counters in order, capacity 64" \
	"rc=0 capacity count total dropped cleared oldest_seq newest_seq lost 64" \
	"rc=$rc $(cut -d : -f 1 "$out" | tr '\n' ' ')$(counter capacity)"

# $total counts what this script pushed; if an earlier check failed, take
# the driver's word so that this check tests only the JSON output.
[ "$(counter total)" = "$total" ] || total=$(counter total)
run stats --json
check "stats --json contains \"total\": \"$total\"" \
	"rc=0 \"total\": \"$total\"" \
	"rc=$rc $(grep -o '"total": "[0-9]*"' "$out")"

# --- clear ----------------------------------------------------------------

run clear
check "clear empties the ring (count 0, oldest_seq 0)" \
	"rc=0 count=0 oldest=0" \
	"rc=$rc count=$(counter count) oldest=$(counter oldest_seq)"

run push 42
seq=$(newest 1 | cut -d ' ' -f 1)
lines=$(($(wc -l <"$listing") - 1))
check "after clear the next push continues the sequence numbers" \
	"rc=0 seq=$((total + 1)) lines=1" "rc=$rc seq=$seq lines=$lines"

# --- open errors ----------------------------------------------------------

"$ctl" -d /dev/seqring-Bad_Name stats >"$out" 2>"$err"
rc=$?
check "no such ring, the module loaded: exit 1, 'no such ring' and the rings there are, no hint to load it" \
	"rc=1 said=yes listed=yes hint=no" \
	"rc=$rc said=$(said '/dev/seqring-Bad_Name: no such ring') listed=$(said 'the rings are: /dev/seqring') hint=$(said 'is the module loaded')"

# tester (uid 1000) is not in group seqring.
stress_runas 1000 1000 "$ctl" -d "$dev" stats >"$out" 2>"$err"
rc=$?
check "permission denied: exit 1, a hint naming group seqring and usermod" \
	"rc=1 said=yes" \
	"rc=$rc said=$(said "group seqring: usermod -aG seqring USER")"

# --- usage ----------------------------------------------------------------

"$ctl" --help >"$out" 2>"$err"
rc=$?
usage=no
grep -q '^Usage: seqringctl' "$out" && usage=yes
check "--help exits 0 and prints usage on stdout" \
	"rc=0 usage=yes" "rc=$rc usage=$usage"

run frobnicate
check "unknown command exits 2 and names it" \
	"rc=2 said=yes" "rc=$rc said=$(said "'frobnicate'")"

run stats --bogus
check "unknown option exits 2" "rc=2" "rc=$rc"

# Every usage error says "seqringctl: COMMAND: " first, whoever found it
# (getopt, a number, a mode); the usage after it is no wider than 79.
prefixes=
for args in "push 12abc" "push -c -1 1" "top -n 0" "dump --bogus" "stats -f json" \
	"feed -x" "dump -o shrot" "capacity 0" "watch -n many" "clear extra"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$ctl" -d "$dev" $args >"$out" 2>"$err"
	case $(head -n 1 "$err") in
	"seqringctl: ${args%% *}: "*) ;;
	*) prefixes="$prefixes [$args: $(head -n 1 "$err")]" ;;
	esac
	awk 'NR > 1 && length($0) > 79 { exit 1 }' "$err" ||
		prefixes="$prefixes [$args: a line over 79 columns]"
done
check "usage errors: 'seqringctl: COMMAND: ' first, no usage line over 79 columns" "" "$prefixes"

"$ctl" help >"$out" 2>"$err"
rc=$?
"$ctl" --help >"$tmp/help"
check "seqringctl help: exit 0, the same as --help" "rc=0 same=yes" \
	"rc=$rc same=$(cmp -s "$out" "$tmp/help" && echo yes)"
"$ctl" help dump >"$out" 2>"$err"
rc=$?
"$ctl" dump --help >"$tmp/help"
check "seqringctl help dump: exit 0, the same as dump --help" "rc=0 same=yes" \
	"rc=$rc same=$(cmp -s "$out" "$tmp/help" && echo yes)"
run help frobnicate
check "seqringctl help frobnicate: exit 2, naming it" \
	"rc=2 said=yes" "rc=$rc said=$(said "help: unknown command 'frobnicate'")"

printf '5\n' >"$tmp/one"
feed_input "$tmp/one" -v
check "feed -v of one line: '1 reading pushed'" "rc=0 1 reading pushed" "rc=$rc $(cat "$out")"

rm -rf "$tmp"
if ! rmmod seqring; then
	echo "# rmmod seqring failed"
	nfail=$((nfail + 1))
fi
[ "$n" -eq "$plan" ] || echo "# ran $n checks, planned $plan"
[ "$nfail" -eq 0 ]
