#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# binfmt.sh ARCH - make sure this machine runs programs of Debian
# architecture ARCH (arm64, riscv64, ppc64el) through qemu-user
#
# qemu-user-static (installed by `make check-arch` through
# tests/vm/deps.sh) leaves its binfmt_misc entries to binfmt-support or
# systemd-binfmt, which a container or a CI runner without an init never
# starts. So: mount binfmt_misc on /proc/sys/fs/binfmt_misc if it is not,
# enable qemu-QEMUARCH with update-binfmts (binfmt-support), and check that
# the entry is enabled with the F flag (the interpreter is opened now, so
# it also runs programs in a chroot that lacks it). Prints the entry's
# interpreter and flags last. Exit status 0 iff ARCH's programs will run.

set -u

[ $# -eq 1 ] || { echo "usage: $0 ARCH" >&2; exit 2; }
case $1 in
arm64) q=aarch64 ;;
riscv64) q=riscv64 ;;
ppc64el) q=ppc64le ;;
*) echo "binfmt: no qemu-user for '$1'" >&2; exit 2 ;;
esac
mnt=/proc/sys/fs/binfmt_misc
entry=$mnt/qemu-$q

for c in update-binfmts qemu-$q-static; do
	command -v "$c" >/dev/null || {
		echo "binfmt: no $c: run tests/vm/deps.sh qemu-user-static binfmt-support" >&2
		exit 1
	}
done
if [ ! -e "$mnt/register" ]; then
	grep -qw binfmt_misc /proc/filesystems || {
		echo "binfmt: this kernel has no binfmt_misc: $1 programs cannot run here" >&2
		exit 1
	}
	mount -t binfmt_misc binfmt_misc "$mnt" || exit 1
fi
if ! grep -qx enabled "$entry" 2>/dev/null; then
	update-binfmts --enable "qemu-$q" || exit 1
fi
grep -qx enabled "$entry" 2>/dev/null || {
	echo "binfmt: $entry is not enabled" >&2
	exit 1
}
flags=$(sed -n 's/^flags: //p' "$entry")
case $flags in
*F*) ;;
*) echo "binfmt: $entry has flags '$flags', without F: not usable in a chroot" >&2; exit 1 ;;
esac
echo "$(sed -n 's/^interpreter //p' "$entry"), flags $flags"
