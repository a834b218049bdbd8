#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 6: allocation failure at load time.
#
# capacity=16777216 (the maximum) asks for a 768 MiB ring. The stress VM has
# less RAM than that (run.sh VM_MEM=512: about 457 MiB), so vmalloc refuses
# it at once (the size exceeds the total RAM: no reclaim, no OOM killer).
# The load must fail with ENOMEM ("Cannot allocate memory"), leave nothing
# behind (no /proc/seqring, debugfs directory, /dev/seqring, sysfs
# directories, module), log the driver's one-line error and no allocator
# splat, 20 times in a row; and the module must load and work afterwards,
# also with a ring that only vmalloc can provide (4M readings, 192 MiB).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 11

tries=20
max=16777216
# A slot is the 40-byte reading and its 8-byte sequence number.
slot_bytes=48
need_kib=$((max * slot_bytes / 1024))
mem_kib=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
diag "guest RAM: MemTotal $mem_kib KiB; a $max-reading ring needs $need_kib KiB"
if [ "$mem_kib" -ge "$need_kib" ]; then
	skip_rest "the guest has $mem_kib KiB of RAM, enough to try a $need_kib KiB ring: run with VM_MEM=512"
fi
is_loaded && rmmod seqring

kmsg_mark stress-70
avail0=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
nomem=0
left=
i=0
while [ "$i" -lt "$tries" ]; do
	i=$((i + 1))
	out=$(insmod "$MODDIR/seqring.ko" capacity=$max 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && [ "${out#*Cannot allocate memory}" != "$out" ]; then
		nomem=$((nomem + 1))
	else
		diag "try $i: exit status $rc: $out"
	fi
	for p in /sys/module/seqring "$PROC" "$DEBUGFS" "$DEV" "$SYSFS"; do
		[ -e "$p" ] && left="$left $p(try $i)"
	done
	is_loaded && rmmod seqring
done
avail1=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
diag "MemAvailable before $avail0 KiB, after $tries failed loads $avail1 KiB"

is "$tries" "$nomem" "insmod capacity=$max fails with ENOMEM, $tries times out of $tries"
is "" "$left" "nothing is left behind: no module, /proc/seqring, debugfs, /dev/seqring, sysfs"
is "$tries" "$(dmesg_since stress-70 | grep -c "seqring: cannot allocate a ring of $max readings")" \
	"each failure is logged once by the driver"
bad=$(kernel_reports stress-70 'page allocation failure|vmalloc error|invoked oom-killer|Out of memory')
is "" "$bad" "no allocator splat, warning or OOM kill"

check_load "then it loads with the default capacity"
push 3
is "4096 3 3" "$(attr capacity) $(stat_get total) $(listing | wc -l)" \
	"... and works (capacity 4096, 3 readings pushed and listed)"
check_unload "... and unloads"

check_load "a 4194304-reading ring (192 MiB, vmalloc only) loads" capacity=4194304
is 4194304 "$(attr capacity)" "... with that capacity"
check_unload "... and unloads"
bad=$(kernel_reports stress-70)
is "" "$bad" "the kernel logged no oops, BUG, warning or lockup"
done_testing
