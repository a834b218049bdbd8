#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The udev rule: /dev/seqring is crw-rw---- root:seqring with a
# /dev/seqring0 symlink; a user outside group seqring cannot open it, a
# member can; both go away on rmmod. /proc/seqring is 0440 root:seqring
# (the rule's chgrp), 0444 with world_readable=1.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 21

# pw_field USER N: field N of USER's /etc/passwd line.
pw_field() {
	awk -F: -v u="$1" '$1 == u { print $'"$2"' }' /etc/passwd
}

sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
sr_gid=${sr_gid:-990}
t_uid=$(pw_field tester 3)
t_gid=$(pw_field tester 4)
m_uid=$(pw_field member 3)
m_gid=$(pw_field member 4)

kmsg_mark check-90
check_load "load seqring.ko" capacity=16

is "crw-rw----" "$(stat -c %A "$DEV")" "/dev/seqring is a character device with mode 0660"
is "root seqring" "$(stat -c '%U %G' "$DEV")" "/dev/seqring is owned by root, group seqring"
is "$sr_gid" "$(stat -c %g "$DEV")" "/dev/seqring has the seqring gid ($sr_gid)"
majmin=$(stat -c '%t %T' "$DEV")
dev="$((0x${majmin% *})):$((0x${majmin#* }))"
is "$(cat "$SYSFS/dev")" "$dev" "the node's major:minor is the misc device's (sysfs dev)"
check "/dev/seqring0 is a symlink" test -L /dev/seqring0
is /dev/seqring "$(readlink -f /dev/seqring0)" "/dev/seqring0 resolves to /dev/seqring"

if [ -n "$t_uid" ]; then
	is EACCES "$("$BIN/open_as" "$t_uid" "$t_gid" rw "$DEV")" \
		"user tester (not in group seqring) gets EACCES opening it read-write"
	is EACCES "$("$BIN/open_as" "$t_uid" "$t_gid" r "$DEV")" \
		"user tester gets EACCES opening it read-only"
else
	skip "user tester (not in group seqring) gets EACCES opening it read-write" "no user tester in /etc/passwd"
	skip "user tester gets EACCES opening it read-only" "no user tester in /etc/passwd"
fi
if [ -n "$m_uid" ]; then
	is ok "$("$BIN/open_as" "$m_uid" "$m_gid,$sr_gid" rw "$DEV")" \
		"user member (in group seqring) can open it read-write"
else
	skip "user member (in group seqring) can open it read-write" "no user member in /etc/passwd"
fi

# /proc/seqring: the same audience as the device.
is "-r--r----- root seqring" "$(stat -c '%A %U %G' "$PROC")" \
	"/proc/seqring is 0440 root:seqring once udev has run the rule"
if [ -n "$t_uid" ]; then
	is EACCES "$("$BIN/open_as" "$t_uid" "$t_gid" r "$PROC")" \
		"user tester (not in group seqring) cannot read /proc/seqring"
else
	skip "user tester (not in group seqring) cannot read /proc/seqring" "no user tester in /etc/passwd"
fi
if [ -n "$m_uid" ]; then
	is ok "$("$BIN/open_as" "$m_uid" "$m_gid,$sr_gid" r "$PROC")" \
		"user member (in group seqring) can read /proc/seqring"
else
	skip "user member (in group seqring) can read /proc/seqring" "no user member in /etc/passwd"
fi
is "-r--r--r--" "$(stat -c %A "$SYSFS/count")" "the sysfs counters stay readable by everyone"

check_unload "rmmod seqring"
check_load "load seqring.ko world_readable=1" capacity=16 world_readable=1
is "-r--r--r--" "$(stat -c %A "$PROC")" "with world_readable=1 /proc/seqring is 0444"
if [ -n "$t_uid" ]; then
	is ok "$("$BIN/open_as" "$t_uid" "$t_gid" r "$PROC")" \
		"... and user tester can read it"
else
	skip "... and user tester can read it" "no user tester in /etc/passwd"
fi

check_unload "rmmod seqring"
if [ -e "$DEV" ] || [ -L /dev/seqring0 ]; then
	not_ok "after rmmod /dev/seqring and /dev/seqring0 are gone" \
		"$(ls -l /dev/seqring /dev/seqring0 2>&1)"
else
	ok "after rmmod /dev/seqring and /dev/seqring0 are gone"
fi
is "" "$(dmesg_since check-90 | grep 'failed with exit code')" \
	"every program the rule runs succeeded, on add and on remove"
done_testing
