#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the newest kernel version that has both an installed image
# (/boot/vmlinuz-VER) and its build tree (/lib/modules/VER/build, as Debian's
# linux-headers package installs it). The modules must be built against
# exactly the kernel the test VM boots; this is where both choices are made.

for img in $(ls /boot/vmlinuz-* 2>/dev/null | sort -V -r); do
	ver=${img#/boot/vmlinuz-}
	if [ -d "/lib/modules/$ver/build" ]; then
		echo "$ver"
		exit 0
	fi
done
exit 1
