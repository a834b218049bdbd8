#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 3: ioctl fuzzing with a model (tests/progs/stress_ioctl_fuzz.c).
#
# STRESS_FUZZ_CALLS ioctls (default 150000) as root, then a fifth of that
# as user "member" (group seqring, no capabilities: CLEAR on a read-only fd
# must give EPERM there), on a ring of 1000 readings so that it wraps all
# the time. Every call must return the documented errno, GET_STATS must
# never write outside its 64 bytes, and afterwards the stats, the listing,
# debugfs and sysfs must agree with the fuzzer's model of the ring. The
# seed is printed; rerun with VM_APPEND="STRESS_SEED=N" to get the same
# calls.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 15

calls=${STRESS_FUZZ_CALLS:-150000}
seed=${STRESS_SEED:-$(($(date +%s) % 1000000 + 1))}
sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
kmsg_mark stress-30
check_load "load seqring.ko capacity=1000" capacity=1000

# The fuzzer's 5 results, as root and as a member of group seqring.
tap_program "root: " 5 "$BIN/stress_ioctl_fuzz" -s "$seed" -n "$calls"
tap_program "member: " 5 "$BIN/stress_runas" 1001 "1001,${sr_gid:-990}" \
	"$BIN/stress_ioctl_fuzz" -s "$((seed + 1))" -n "$((calls / 5))"

# The ring as the world sees it afterwards.
count=$(debugfs_stat count)
lines=$(listing | wc -l)
is "$count" "$lines" "debugfs count ($count) is the number of lines of /proc/seqring"
total=$(debugfs_stat total)
sum=$(($(debugfs_stat count) + $(debugfs_stat dropped) + $(debugfs_stat cleared)))
is "$total" "$sum" "total == count + dropped + cleared ($total)"
bad=$(kernel_reports stress-30 'usercopy')
is "" "$bad" "the kernel logged no oops, BUG, warning or usercopy report"
check_unload "rmmod seqring"
done_testing
