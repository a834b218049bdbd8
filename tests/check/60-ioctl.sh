#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ioctl ABI: runs tests/bin/ioctl_errors (native 64-bit) and, when it
# was built, ioctl_errors32 (i386, through compat_ioctl), each against a
# freshly loaded module, and passes their TAP through as this script's own
# tests (renumbered, prefixed [64] / [32]). Each program adds two tests of
# its own: it ran its whole plan without dying, and rmmod works after it.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

prog_pair ioctl_errors 64 ioctl --fresh
