#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmroot.sh ROOT - remove a root made by tests/roots/mkroot.sh
#
# First unmounts whatever is still mounted below ROOT (deepest first; a
# root left by an interrupted tests/roots/inroot.sh may still have /proc,
# /sys or the host's /dev there), then refuses to go on if anything still
# is, so that `rm -rf` can never reach the host's /dev. Removal stays on
# ROOT's filesystem (--one-file-system). A missing ROOT is not an error.

set -u

[ $# -eq 1 ] || { echo "usage: $0 ROOT" >&2; exit 2; }
[ -e "$1" ] || exit 0
root=$(cd "$1" && pwd -P) || exit 1
[ "$root" != / ] || { echo "rmroot: refusing to remove /" >&2; exit 1; }

mounts_below() {
	findmnt -rn -o TARGET | awk -v r="$root/" 'index($0, r) == 1' | sort -r
}
for m in $(mounts_below); do
	umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null
done
if [ -n "$(mounts_below)" ]; then
	echo "rmroot: still mounted below $root, not removing:" >&2
	mounts_below >&2
	exit 1
fi
rm -rf --one-file-system "$root"
