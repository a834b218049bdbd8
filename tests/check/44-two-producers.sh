#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Two producers push one reading each at the same moment, round after
# round; once both pushes have returned, both readings must be visible
# (next_seq past them), with no further push. Without the full barrier
# between a producer's commit and its publish walk, two producers that
# commit at once can each see the other's slot still busy and publish
# neither (store buffering): under tcg on x86 that showed 22 times in 11
# million rounds, so a short run finds it only now and then. Two forms:
#   - user space (tests/progs/two_producers.c, its two results replayed):
#     two threads pinned to CPUs 0 and 1, one PUSH each a round;
#   - in the kernel (tests/kmod/seqring_nmi.c's pair): two kthreads on the
#     first two CPUs, seqring_push() each a round, with no system call
#     between the barrier and the push, so the two align closer.
# Each runs for the seconds given by seqringtest.two_producers_s= on the
# kernel command line (default 5; `make check-all` gives 120).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

NMI_KO=$MODDIR/seqring_nmi.ko
NMI=/sys/kernel/debug/seqring_nmi

plan 11

secs=$(sed -n 's/.*seqringtest\.two_producers_s=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-5}
check_load "load seqring.ko: a fresh ring, nobody else pushes"
tap_program "" 2 "$BIN/two_producers" /dev/seqring "$secs"
check_unload "unload seqring.ko"

if [ ! -f "$NMI_KO" ]; then
	skip_rest "no $NMI_KO (the test modules are built from the source tree only)"
fi
check_load "load seqring.ko again"
check "load seqring_nmi.ko" insmod "$NMI_KO"
is ok "$("$BIN/ctl" "$NMI/control" "create pair 4096")" "create ring pair, nobody else pushes into it"
is ok "$("$BIN/ctl" "$NMI/control" "pair $((secs * 1000))")" \
	"in the kernel: two kthreads push one reading each at the same moment for $secs s"
# shellcheck disable=SC2046 # the fields of the pair's status line
set -- $(grep '^pair ' "$NMI/status")
diag "in the kernel: $3 rounds"
if [ "${3:-0}" -gt 0 ] && [ "${5:-x}" = 0 ]; then
	ok "in the kernel: once both pushes returned, both readings were published, every round ($3)"
else
	not_ok "in the kernel: once both pushes returned, both readings were published, every round" \
		"rounds '$3', expected 0 with one unpublished, got '$5' ('$7' still 20 ms later)"
fi
"$BIN/ctl" "$NMI/control" "destroy" >/dev/null
check "rmmod seqring_nmi" rmmod seqring_nmi
check_unload "unload seqring.ko"
done_testing
