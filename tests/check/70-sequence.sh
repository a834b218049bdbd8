#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sequence.ko: /proc/sequence is the endless text "0\n1\n2\n...", seekable.
# For several block sizes, two dd runs (the first 3 blocks, then 3 blocks
# from block 3 on, found by lseek) must concatenate to exactly what one dd
# of 6 blocks reads, and that must be the start of "seq 0 N".

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 16

if insmod "$MODDIR/sequence.ko"; then
	ok "load sequence.ko"
else
	not_ok "load sequence.ko" "insmod $MODDIR/sequence.ko failed"
	fail_rest "sequence.ko did not load"
fi
check "/proc/sequence exists" test -r /proc/sequence

# Enough numbers for 6 blocks of 65536 bytes (0..99999 is 488890 bytes).
seq 0 99999 >"$T/numbers"

for bs in 1 7 512 4096 65536; do
	# A seq_file read() returns only whole records that fit in its page
	# buffer (4096 bytes here), so a read of 4096 or more bytes usually
	# comes back short, and plain dd would then count a short block as a
	# whole one. iflag=fullblock makes dd read on until each block is full.
	# Smaller reads are always filled completely by seq_file, so those go
	# without it, which also checks that.
	if [ "$bs" -ge 4096 ]; then
		full=iflag=fullblock
	else
		full=
	fi
	# shellcheck disable=SC2086 # $full is empty or one word
	{
		dd if=/proc/sequence bs=$bs count=3 $full status=none
		dd if=/proc/sequence bs=$bs skip=3 count=3 $full status=none
	} >"$T/two"
	# shellcheck disable=SC2086
	dd if=/proc/sequence bs=$bs count=6 $full status=none >"$T/one"
	same_file "$T/one" "$T/two" "bs=$bs: count=3 + skip=3 count=3 equals count=6"
	head -c $((6 * bs)) "$T/numbers" >"$T/exp"
	same_file "$T/exp" "$T/one" "bs=$bs: the first $((6 * bs)) bytes are 0, 1, 2, ... one per line"
done

dd if=/proc/sequence bs=1 skip=400000 count=20 status=none >"$T/got"
tail -c +400001 "$T/numbers" | head -c 20 >"$T/exp"
same_file "$T/exp" "$T/got" "a seek far ahead (byte 400000) reads the right digits"
dd if=/proc/sequence bs=1000 skip=3 count=1 status=none >"$T/got"
tail -c +3001 "$T/numbers" | head -c 1000 >"$T/exp"
same_file "$T/exp" "$T/got" "dd bs=1000 skip=3 count=1 equals bytes 3000..3999"

if rmmod sequence; then
	ok "rmmod sequence"
else
	not_ok "rmmod sequence" "rmmod failed"
fi
check_fails "/proc/sequence is gone after rmmod" test -e /proc/sequence
done_testing
