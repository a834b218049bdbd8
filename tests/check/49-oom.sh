#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A ring too large for the memory left fails with ENOMEM and costs nobody
# else anything: with half the guest's memory in use by a bystander, a
# resize (sysfs capacity) and a load asking for the largest ring (16M
# readings, 768 MiB) fail with "Cannot allocate memory", the ring is
# untouched, the bystander lives, and the kernel log shows neither the OOM
# killer nor an allocation failure splat.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 8

max=16777216
kmsg_mark check-49
check_load "load seqring.ko capacity=16" capacity=16
push 3 -v 1

total_kib=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
hold_mib=$((total_kib / 2048))
diag "guest RAM: MemTotal $total_kib KiB; the bystander holds $hold_mib MiB"
HOLD_PROG="$BIN/hold_mem" start_holder "$T/hold" "$hold_mib" ||
	fail_rest "hold_mem $hold_mib did not get ready: $(cat "$T/hold")"
holder=$HOLDER_PID

if echo "$max" 2>"$T/err" >"$SYSFS/capacity"; then
	not_ok "writing capacity $max with half the memory taken fails" \
		"expected ENOMEM, got success: capacity $(attr capacity)"
else
	like "$(cat "$T/err")" "Cannot allocate memory" \
		"writing capacity $max with half the memory taken fails with ENOMEM"
fi
is "16 3" "$(attr capacity) $(attr count)" "... and the ring is untouched"
check "... and the bystander is still alive" kill -0 "$holder"

check_unload "rmmod seqring"
out=$(insmod "$MODDIR/seqring.ko" capacity=$max 2>&1)
like "$out" "Cannot allocate memory" "loading with capacity=$max then fails with ENOMEM too"
is_loaded && unload_seqring
check "... and the bystander is still alive" kill -0 "$holder"
stop_pid "$holder"

is "" "$(dmesg_since check-49 | grep -iE 'oom-kill|out of memory|page allocation failure|vmalloc error')" \
	"the kernel log shows no OOM killer and no allocation failure"
done_testing
