#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 15-headers.sh - a machine without a kernel's headers is told which
# package to install (host side, nothing installed): the build of the
# modules by make and by DKMS (dkms.conf, which dkms sources for every
# build) name linux-headers-KERNEL (make install-dkms checks before it
# installs anything, which is not run here: it would install on the
# host if that check went wrong); seqring-dkms recommends
# the headers of the kernel flavour, as dkms itself does. (50-deb.sh checks
# the built package's field.)

. "$SEQRING_TESTS/lib.sh"

plan 3

none=0.0.1-no-such-kernel

# The ways to build, each with the kernel version it is told; what each
# says on stderr must name the package, and the build must fail.
# NAME|COMMAND
builds="make modules|make -s modules KVER=$none
dkms.conf as dkms sources it|kernelver=$none; . ./dkms.conf; false"
while IFS='|' read -r name cmd; do
	err=$(bash -c "$cmd" 2>&1 >/dev/null)
	st=$?
	got="exit $([ "$st" -ne 0 ] && echo non-zero || echo 0)"
	[[ $err == *"apt-get install linux-headers-$none"* ]] && got="$got, names the package"
	is "exit non-zero, names the package" "$got" \
		"$name without headers: fails and names linux-headers-KERNEL" ||
		diag "stderr: $err"
done <<<"$builds"

recommends=$(awk '/^Package: seqring-dkms$/ { on = 1; next } /^Package:/ { on = 0 }
	on && /^Recommends:/ { r = $0; cont = 1; next }
	on && cont && /^ / { r = r $0; next } { cont = 0 } END { print r }' debian/control)
like "$recommends" \
	'linux-headers-amd64 \| linux-headers-arm64 \| linux-headers-generic \| linux-headers$' \
	"seqring-dkms recommends the headers of the kernel flavour, as dkms does"

done_testing
