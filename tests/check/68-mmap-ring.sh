#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The read-only mapping of a ring (doc/seqring.4, "Mapping"): runs
# tests/bin/mmap_test (native 64-bit) and, when it was built, mmap_test32
# (i386: the same layout, 64-bit words read with single loads), each
# against a freshly loaded module of capacity 100 (a slot array of two
# pages, slot 85 across their border), and passes their TAP through as
# this script's own tests, prefixed [64] / [32]. The cases (a table in the
# program): the meta page's fields and counters against GET_STATS; the
# readings in the mapping against what was pushed and what read() returns;
# each refusal (PROT_WRITE, PROT_EXEC, MAP_PRIVATE, offset, length, a file
# not open for reading); mprotect() and mremap(); VmFlags; resize EBUSY
# while mapped (ioctl, sysfs, a shrunk mapping) and done after munmap();
# CLEAR while mapped; fork(); munmap() while a thread reads;
# SET_CURSOR with poll(); /proc/PID/mem; an unprivileged user.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

prog_pair mmap_test 100 mapping
