#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 5b: Debian's trinity system call fuzzer, as user "member" (group
# seqring: it can open /dev/seqring read-write), on the driver's files only.
#
# Its victim directory holds bind mounts of /dev/seqring, /proc/seqring and
# the device's sysfs directory, and only its "pseudo" fd provider (files
# from the victim directory) is enabled, so the only file descriptors it
# gets are those. It calls ioctl (random commands and
# arguments, 64- and 32-bit, so compat_ioctl too), read, pread64, readv,
# preadv, lseek, mmap, newfstat, fcntl, poll, splice and sendfile, at most
# STRESS_TRINITY_CALLS times (default 100000) and for at most
# STRESS_TRINITY_SECS seconds (default 30; then SIGINT), while a writer
# keeps pushing (paced, to leave the CPUs to trinity). Afterwards the listing and the counters must be consistent, the
# module must unload, and the kernel must log no oops, BUG, warning or
# lockup (trinity itself stops when the kernel gets tainted by one).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 8

secs=${STRESS_TRINITY_SECS:-30}
count=${STRESS_TRINITY_CALLS:-100000}
seed=${STRESS_SEED:-$(($(date +%s) % 1000000 + 1))}
sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
kmsg_mark stress-60
if ! command -v trinity >/dev/null; then
	fail_rest "trinity is not in the VM image (tests/stress/binaries.txt, make deps)"
fi
check_load "load seqring.ko capacity=256" capacity=256

v=$T/victims
mkdir -p "$v/sys" "$T/run"
: >"$v/dev"
: >"$v/proc"
chmod 755 "$T" "$v"
chown 1001 "$T/run"
mounted=
if mount --bind "$DEV" "$v/dev" && mount --bind "$PROC" "$v/proc" &&
   mount --bind "$(readlink -f "$SYSFS")" "$v/sys"; then
	ok "victim directory: bind mounts of /dev/seqring, /proc/seqring, sysfs"
	mounted=1
else
	not_ok "victim directory: bind mounts of /dev/seqring, /proc/seqring, sysfs"
fi

"$BIN/stress_writer" -i 1 -p 50 -r 2000 -t $((secs + 120)) >"$T/w" 2>&1 &
wpid=$!
_tap_pids="$_tap_pids $wpid"

# Taint flags that mean trouble; the kernel is already tainted O and E by
# this out-of-tree, unsigned module, which trinity would otherwise refuse.
start=$(date +%s)
(cd "$T/run" && exec timeout -s INT "$secs" \
	"$BIN/stress_runas" 1001 "1001,${sr_gid:-990}" \
	trinity -l off -T BAD_PAGE,DIE,WARN,MACHINE_CHECK,USER -C 2 \
	-N "$count" -s "$seed" -V "$v" \
	--enable-fds=pseudo \
	-c ioctl -c read -c pread64 -c readv -c preadv -c lseek -c mmap \
	-c newfstat -c fcntl -c poll -c splice -c sendfile) >"$T/trinity" 2>&1
rc=$?
tsecs=$(($(date +%s) - start))
ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$T/trinity" | tail -n 1)
diag "trinity (seed $seed) ran ${ran:-?} system calls in ${tsecs}s, exit status $rc:" \
	"$(grep -E 'Ran [0-9]+ syscalls|Successes|taint|iterations|Bailing|exit' "$T/trinity" | tail -n 8)"
# timeout's 124 is the time bound working; anything but 0 or 124 is not.
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; } && [ "${ran:-0}" -gt 0 ] &&
   ! grep -qiE 'kernel became tainted|tainted.*bailing' "$T/trinity"; then
	ok "trinity ran ${ran} calls on the driver's files without tainting the kernel"
else
	not_ok "trinity ran on the driver's files without tainting the kernel" \
		"$(tail -n 40 "$T/trinity")"
fi

stop_writer "$wpid" "$T/w"
[ -n "$mounted" ] && umount "$v/dev" "$v/proc" "$v/sys"

# trinity may have pushed readings of its own: check the form only.
if out=$("$BIN/stress_reader" check -a "$PROC"); then
	ok "the listing is well-formed and in order"
	diag "$out"
else
	not_ok "the listing is well-formed and in order" "$out"
fi
stats_add_up
bad=$(kernel_reports stress-60)
is "" "$bad" "the kernel logged no oops, BUG, warning or lockup"
check_unload "rmmod seqring (use count back to 0)"
done_testing
