#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 5a: Debian's stress-ng against the driver's files, for
# STRESS_TOOL_SECS seconds (default 20) while a writer keeps pushing.
#
#   --procfs 2   all of /proc (so /proc/seqring and /proc/sequence, with
#                random-size reads, 1-byte reads, lseeks, mmap, poll)
#   --sysfs 2    run in a mount namespace whose /sys holds only
#                class/misc/seqring, module/seqring, seqring-debugfs (the
#                debugfs directory: stress-ng skips /sys/kernel/debug) and
#                devices/system/cpu (stress-ng counts CPUs there)
#   --dev 1 --dev-file /dev/seqring   open, fstat, lseek, poll, fcntl, mmap,
#                ioctls on the device
#
# stress-ng must complete successfully, the writer must see no error, the
# listing and the counters must stay consistent, the modules must unload,
# and the kernel must log no oops, BUG, warning or lockup.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 9

secs=${STRESS_TOOL_SECS:-20}
kmsg_mark stress-50
if ! command -v stress-ng >/dev/null; then
	fail_rest "stress-ng is not in the VM image (tests/stress/binaries.txt, make deps)"
fi
check_load "load seqring.ko capacity=4096" capacity=4096
check "load sequence.ko" insmod "$MODDIR/sequence.ko"

"$BIN/stress_writer" -i 1 -p 50 -r 5000 -t $((secs + 120)) >"$T/w" 2>&1 &
wpid=$!
_tap_pids="$_tap_pids $wpid"

fake=$T/sys
mkdir -p "$fake"
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m sh -c '
	set -e
	fake=$1
	secs=$2
	mount -t tmpfs -o mode=755 stress-sys "$fake"
	mkdir -p "$fake/class/misc/seqring" "$fake/module/seqring" \
		"$fake/seqring-debugfs" "$fake/devices/system/cpu"
	mount --bind /sys/devices/virtual/misc/seqring "$fake/class/misc/seqring"
	mount --bind /sys/module/seqring "$fake/module/seqring"
	mount --bind /sys/kernel/debug/seqring "$fake/seqring-debugfs"
	mount --bind /sys/devices/system/cpu "$fake/devices/system/cpu"
	mount -o rbind "$fake" /sys
	exec timeout -s INT $((secs + 60)) stress-ng --procfs 2 --sysfs 2 \
		--dev 1 --dev-file /dev/seqring --timeout "${secs}s" --metrics-brief
' stress-ng-ns "$fake" "$secs" >"$T/sng" 2>&1
rc=$?
diag "$(grep -E 'dispatching|metrc|successful|error|fail' "$T/sng" | sed 's/^stress-ng: //')"
if [ "$rc" -eq 0 ] && grep -q 'successful run completed' "$T/sng"; then
	ok "stress-ng procfs/sysfs/dev stressors completed (${secs}s)"
else
	not_ok "stress-ng procfs/sysfs/dev stressors completed (${secs}s)" \
		"exit status $rc" "$(tail -n 30 "$T/sng")"
fi
is "" "$(grep -E "stress-sys|$fake" /proc/self/mountinfo)" \
	"the namespace's mounts are gone with it"

stop_writer "$wpid" "$T/w"

if out=$("$BIN/stress_reader" check "$PROC"); then
	ok "the listing is in order, each line as pushed"
	diag "$out"
else
	not_ok "the listing is in order, each line as pushed" "$out"
fi
stats_add_up

bad=$(kernel_reports stress-50)
is "" "$bad" "the kernel logged no oops, BUG, warning or lockup"
check "rmmod sequence seqring (use count back to 0)" rmmod sequence seqring
done_testing
