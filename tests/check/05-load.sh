#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Module parameter "capacity": default 4096, read-only, 1..16777216 accepted,
# 0 and 16777217 refused at load time with -EINVAL and a pr_err.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 22

# try_bad_load CAPACITY: insmod must fail, with EINVAL and a pr_err.
try_bad_load() {
	kmsg_mark "05-load capacity=$1"
	out=$(insmod "$MODDIR/seqring.ko" "capacity=$1" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		diag "insmod said: $out"
		ok "capacity=$1: insmod fails"
	else
		not_ok "capacity=$1: insmod fails" "expected a non-zero exit status, got 0"
	fi
	like "$out" '[Ii]nvalid (argument|param)' "capacity=$1: the error is EINVAL"
	like "$(dmesg_since "05-load capacity=$1")" '^<3>.*seqring' \
		"capacity=$1: the driver logs an error (pr_err, level 3) naming seqring"
	if is_loaded; then
		not_ok "capacity=$1: the module is not left loaded" \
			"expected no /sys/module/seqring, got one"
		rmmod seqring
	else
		ok "capacity=$1: the module is not left loaded"
	fi
}

check_load "insmod without parameters works"
record_size=$(debugfs_stat record_size 2>/dev/null)
is 4096 "$(cat "$PARAM")" "the default capacity parameter is 4096"
is 444 "$(stat -c %a "$PARAM")" "the capacity parameter file is read-only (0444)"
check_fails "writing the capacity parameter fails, even as root" \
	sh -c "echo 8 > $PARAM"
is 4096 "$(attr capacity)" "sysfs capacity shows the default 4096"
is 4096 "$(stat_get capacity)" "GET_STATS capacity is the default 4096"
check_unload "rmmod works"

try_bad_load 0
try_bad_load 16777217

if insmod "$MODDIR/seqring.ko" capacity=-1 2>/dev/null; then
	not_ok "capacity=-1: insmod fails" "expected a non-zero exit status, got 0"
	rmmod seqring
else
	ok "capacity=-1: insmod fails"
fi

if load_seqring capacity=1; then
	ok "capacity=1 (the smallest) loads"
	push 3
	is "1 3 2 3" "$(stat_get count) $(stat_get total) $(stat_get dropped) $(listing_col 1)" \
		"capacity=1: after 3 pushes count 1, total 3, dropped 2, listing holds seq 3"
	check "capacity=1: rmmod works" unload_seqring
else
	not_ok "capacity=1 (the smallest) loads" "expected insmod to succeed, it failed"
	not_ok "capacity=1: after 3 pushes count 1, total 3, dropped 2, listing holds seq 3" "not loaded"
	not_ok "capacity=1: rmmod works" "not loaded"
fi

# The largest ring takes 16M readings of record_size (debugfs; 48 if it
# could not be read) bytes each: only try it when the VM has that memory and
# 64 MiB to spare, and say so otherwise.
avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
need=$((16777216 * ${record_size:-48} / 1024 + 65536))
diag "capacity=16777216 needs about $need kB, the VM has ${avail:-?} kB available"
if [ "${avail:-0}" -ge "$need" ]; then
	if load_seqring capacity=16777216; then
		ok "capacity=16777216 (the largest) loads"
		is 16777216 "$(stat_get capacity)" "capacity=16777216: GET_STATS capacity"
		check "capacity=16777216: rmmod works" unload_seqring
	else
		not_ok "capacity=16777216 (the largest) loads" "expected insmod to succeed, it failed"
		not_ok "capacity=16777216: GET_STATS capacity" "not loaded"
		not_ok "capacity=16777216: rmmod works" "not loaded"
	fi
else
	reason="needs $need kB available in the VM, has ${avail:-?} kB"
	skip "capacity=16777216 (the largest) loads" "$reason"
	skip "capacity=16777216: GET_STATS capacity" "$reason"
	skip "capacity=16777216: rmmod works" "$reason"
fi

done_testing
