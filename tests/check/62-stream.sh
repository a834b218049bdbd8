#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stream ABI: read(), poll() and lseek() on /dev/seqring, SET_WAKEUP
# and SET_CAPACITY. Runs tests/bin/stream (native 64-bit) and, when it was
# built, stream32 (i386, through compat_ioctl), each against a freshly
# loaded module of capacity 16, and passes their TAP through as this
# script's own tests (renumbered, prefixed [64] / [32]). Each program adds
# two tests of its own: it ran its whole plan without dying, and rmmod
# works after it (no reader left behind holding the module).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

prog_pair stream 16 stream
