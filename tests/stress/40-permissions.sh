#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 4: permissions, as README states them, with the udev rule applied.
#
# - /dev/seqring is 0660 root:seqring: "tester" (not in the group) gets
#   EACCES opening it for reading or writing; "member" (in the group) can
#   push, also through /dev/seqring0; PUSH on a read-only fd is EBADF.
# - CLEAR: allowed on an fd opened for writing (O_WRONLY or O_RDWR), or
#   with CAP_SYS_ADMIN (root, read-only fd); EPERM for member's read-only fd.
# - debugfs is root-only: tester and member get EACCES, root reads it.
# - /proc/seqring is 0444: everyone reads it, nobody opens it for writing.
# - the sysfs counters and the module parameter are read-only, for root too.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 23

sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
sr_gid=${sr_gid:-990}
kmsg_mark stress-40

# as_tester/as_member/as_root PATH MODE OP...: stress_devop as that user.
as_tester() {
	"$BIN/stress_runas" 1000 1000 "$BIN/stress_devop" "$@"
}
as_member() {
	"$BIN/stress_runas" 1001 "1001,$sr_gid" "$BIN/stress_devop" "$@"
}
as_root() {
	"$BIN/stress_devop" "$@"
}

check_load "load seqring.ko (udev rule applied)" capacity=64

is "crw-rw---- root seqring" "$(stat -c '%A %U %G' "$DEV")" \
	"/dev/seqring is crw-rw---- root:seqring"
is "open:EACCES" "$(as_tester "$DEV" rw push)" \
	"tester (not in group seqring) gets EACCES opening it read-write"
is "open:EACCES" "$(as_tester "$DEV" r stats)" \
	"tester gets EACCES opening it read-only"
is "open:EACCES" "$(as_tester /dev/seqring0 w push)" \
	"tester gets EACCES through /dev/seqring0 too"
is "open:ok push:ok batch:ok stats:ok" "$(as_member "$DEV" rw push batch stats)" \
	"member (in group seqring) can push and read the stats"
is "open:ok push:ok" "$(as_member /dev/seqring0 w push)" \
	"member can push through /dev/seqring0, write-only"
is "open:ok push:EBADF batch:EBADF stats:ok" "$(as_member "$DEV" r push batch stats)" \
	"member's read-only fd: PUSH and PUSH_BATCH give EBADF"
is 4 "$(stat_get total)" "the 4 readings member pushed are counted"

is "open:ok clear:ok" "$(as_member "$DEV" rw clear)" \
	"CLEAR on member's read-write fd works"
is "open:ok clear:ok" "$(as_member "$DEV" w clear)" \
	"CLEAR on member's write-only fd works"
is "open:ok clear:EPERM" "$(as_member "$DEV" r clear)" \
	"CLEAR on member's read-only fd gives EPERM (no CAP_SYS_ADMIN)"
is "open:ok clear:ok" "$(as_root "$DEV" r clear)" \
	"CLEAR on root's read-only fd works (CAP_SYS_ADMIN)"

is 700 "$(stat -c %a /sys/kernel/debug)" "/sys/kernel/debug is mode 0700"
is "open:EACCES open:EACCES" \
	"$(as_tester "$DEBUGFS/stats" r read) $(as_member "$DEBUGFS/readings" r read)" \
	"tester and member get EACCES opening debugfs files"
is "open:ok read:ok" "$(as_root "$DEBUGFS/clients" r read)" "root reads debugfs"

is "-r--r----- root seqring" "$(stat -c '%A %U %G' "$PROC")" \
	"/proc/seqring is -r--r----- root:seqring (0440)"
is "open:EACCES open:ok read:ok" \
	"$(as_tester "$PROC" r read) $(as_member "$PROC" r read)" \
	"tester cannot read /proc/seqring, member can"
is "open:EACCES" "$(as_member "$PROC" w)" "member cannot open /proc/seqring for writing"

is "open:ok read:ok" "$(as_tester "$SYSFS/total" r read)" "tester reads the sysfs counters"
is "open:EACCES open:EACCES" "$(as_root "$SYSFS/total" w) $(as_root "$PARAM" w)" \
	"root cannot open sysfs total or the capacity parameter for writing"

bad=$(kernel_reports stress-40)
is "" "$bad" "the kernel logged no oops, BUG or warning"
check_unload "rmmod seqring"
done_testing
