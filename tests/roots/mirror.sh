# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# mirror.sh - the Debian mirrors this machine's apt uses, for the roots and
# package lists the harness makes (sourced by tests/roots/mkroot.sh and
# tests/kernels/suite-apt.sh): sets mirror and security, the first URI
# ending in /debian (and /debian-security) of the host's apt sources,
# deb822 or one-line format; MIRROR and SECURITY_MIRROR override them.

host_uri() {
	cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -oE "https?://[^ ]+/$1/?( |\$)" | head -n 1 | tr -d ' ' |
		sed 's:/$::'
}
mirror=${MIRROR:-$(host_uri debian)}
mirror=${mirror:-http://deb.debian.org/debian}
security=${SECURITY_MIRROR:-$(host_uri debian-security)}
security=${security:-${mirror%/debian}/debian-security}
