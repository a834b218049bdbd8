#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# inroot.sh ROOT CMD [ARGS...] - run CMD chrooted into ROOT
#
# Mounts proc on ROOT/proc, sysfs on ROOT/sys and the host's /dev (with
# /dev/pts) on ROOT/dev for the command, which is enough for apt, compilers
# and QEMU (tcg) inside the root, and unmounts them when it ends, fails or
# is interrupted. A mount that is already there (a nested call) is used
# and left alone. /etc/resolv.conf is copied in from the host so apt can
# reach the mirror.
#
# CMD runs as root with a clean environment: PATH, HOME=/root,
# LANG=C.UTF-8, TERM, and nothing else from the caller; pass what it needs
# explicitly (`inroot.sh ROOT env CI=true make check`). The exit status is
# CMD's. ROOT must be a directory made by tests/roots/mkroot.sh (or any
# Debian root).

set -u

[ $# -ge 2 ] || { echo "usage: $0 ROOT CMD [ARGS...]" >&2; exit 2; }
root=$(cd "$1" && pwd) || exit 2
shift
[ "$root" != / ] || { echo "inroot: ROOT must not be /" >&2; exit 2; }
[ -x "$root/bin/sh" ] || { echo "inroot: $root has no /bin/sh" >&2; exit 2; }

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -R "${mounted[i]}" 2>/dev/null ||
			umount -R -l "${mounted[i]}" ||
			echo "inroot: cannot unmount ${mounted[i]}" >&2
	done
	mounted=()
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# mnt DIR MOUNT-ARGS...: mount on ROOT/DIR unless something is there.
mnt() {
	local dir=$root/$1
	shift
	mkdir -p "$dir"
	mountpoint -q "$dir" && return 0
	mount "$@" "$dir" || { echo "inroot: mount $* $dir failed" >&2; exit 1; }
	mounted+=("$dir")
}
mnt proc -t proc proc
mnt sys -t sysfs sysfs
# --rbind brings /dev/pts, /dev/shm along; rslave keeps unmounts in the
# root from propagating back to the host's /dev.
mnt dev --rbind /dev
mount --make-rslave "$root/dev"

cp -L --remove-destination /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null

chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" "$@"
