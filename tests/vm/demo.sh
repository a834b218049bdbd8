#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest demo (installed as /tests/demo.sh, run by `make demo`): loads the
# modules and shows every interface of the driver once. Each command is
# echoed with a "$ " prefix before its output, like a terminal session.
# Exit status: that of the first command that failed, else 0.
#
# Module tools are called as /bin/insmod, /bin/rmmod: busybox ash runs its
# own applets for a bare "insmod" even though kmod's links come first in
# PATH; the links (to kmod) are only reached by path.

status=0

# run CMD...: echo the command (quoting words with blanks), run it,
# remember the first failure.
run() {
	line='$'
	for word in "$@"; do
		case $word in
		*[[:space:]]* | "") word="'$word'" ;;
		esac
		line="$line $word"
	done
	printf '%s\n' "$line"
	"$@"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "(exit status $rc)"
		[ "$status" -ne 0 ] || status=$rc
	fi
}

run /bin/insmod /modules/seqring.ko capacity=16
run udevadm settle
run ls -l /dev/seqring /dev/seqring0
run id member

echo
run seqringctl push -c 1 -l kitchen 215 216 218
run seqringctl push -c 2 -t 1700000000000000000 -l 'cellar door' -- -40
# feed: one reading per line, VALUE [CHANNEL [LABEL]]; labels may hold
# blanks (a tab in the last one).
feed_input='100
101 3
102 3 with space
# a comment line
103 4 tab	here'
echo "\$ seqringctl feed -v <<'EOF'"
printf '%s\nEOF\n' "$feed_input"
printf '%s\n' "$feed_input" | seqringctl feed -v || status=1
run seqringctl stats
run seqringctl stats --json

echo
run cat /proc/seqring
for f in stats clients readings; do
	run cat "/sys/kernel/debug/seqring/$f"
done
echo "\$ (reading /sys/kernel/debug/seqring/clients while /dev/seqring is open)"
exec 3</dev/seqring
cat /sys/kernel/debug/seqring/clients || status=1
exec 3<&-

echo
# shellcheck disable=SC2164 # run records a failure
run cd /sys/class/misc/seqring
run grep . capacity count total dropped newest_seq
# shellcheck disable=SC2164
run cd /
run cat /sys/module/seqring/parameters/capacity

echo
echo "\$ (overflow: 20 more readings into a ring of 16)"
seq 1 20 | seqringctl feed || status=1
run seqringctl stats
run head -n 5 /proc/seqring
run seqringctl clear
run seqringctl stats

echo
run /bin/rmmod seqring
run /bin/insmod /modules/sequence.ko
run head -n 5 /proc/sequence
echo "\$ dd if=/proc/sequence bs=4 skip=3 count=2 iflag=fullblock | od -c"
dd if=/proc/sequence bs=4 skip=3 count=2 iflag=fullblock 2>/dev/null | od -c
run /bin/rmmod sequence

echo
echo "demo finished, status $status"
exit "$status"
