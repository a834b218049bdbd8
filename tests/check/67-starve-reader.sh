#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# While a producer is starved in the middle of a batch, a file at the end
# of the stream is never told that it fell behind, and its cursor never
# passes next_seq (issue 23, item 7): tests/bin/starve_reader, 3 seconds,
# with the ring at 4096 readings, so that each batch of 65536 moves
# oldest_seq past next_seq until it is published. A new file's poll() and
# read(), and read() after lseek(SEEK_END), while nothing is published or
# dropped: no EPOLLERR, no EPIPE.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 6

if [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
	skip_rest "needs 2 CPUs, this machine has $(grep -c '^processor' /proc/cpuinfo)"
fi

check_load "load seqring.ko capacity=4096" capacity=4096

tap_program "" 4 "$BIN/starve_reader"

check_unload "unload seqring.ko"

done_testing
