#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Byte-exact reads at any offset: "dd bs=1 skip=K count=L" on /proc/seqring
# equals bytes K..K+L-1 of the whole listing, including across line ends,
# across the seq_file page buffer (4096 bytes) and into the last line. dd
# seeks with lseek() to skip, so this also tests seq_file lseek.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 26

check_load "load seqring.ko capacity=256" capacity=256

# 250 readings with lines of different lengths, about 10 KB in all.
i=1
for lbl in a "bb b" "" fifteen-bytes-x "t	ab" c "back\\slash" dd "" e; do
	push 25 -v $((i * 1000 - 7)) -c $((i * 37)) -l "$lbl" -t $((i * 123456789012345678))
	i=$((i + 1))
done
cat "$PROC" >"$T/full"
size=$(wc -c <"$T/full")
hlen=$((${#HEADER} + 1))
first=$(sed -n 2p "$T/full")
diag "listing: $size bytes, header $hlen bytes, first reading line '$first'"
if [ "$size" -le 8300 ]; then
	diag "listing is smaller than expected ($size bytes), later offsets read past its end"
fi

# slice K L: "dd bs=1 skip=K count=L" against the same bytes of the full read.
slice() {
	dd if="$PROC" bs=1 skip="$1" count="$2" status=none >"$T/got"
	tail -c +$(($1 + 1)) "$T/full" | head -c "$2" >"$T/exp"
	same_file "$T/exp" "$T/got" "bytes $1..$(($1 + $2 - 1)): $3"
}

slice 0 1 "the first byte"
slice 0 10 "the start of the header"
slice 1 40 "from inside the header into the first reading"
slice $((hlen - 3)) 6 "across the header's newline"
slice "$hlen" $((${#first} + 1)) "exactly the first reading line"
slice 37 100 "across several line ends"
slice 500 333 "from the middle of one line to the middle of another"
slice 4090 20 "across the 4096-byte boundary"
slice 4095 1 "the byte before 4096"
slice 4096 100 "from 4096"
slice 8190 20 "across the 8192-byte boundary"
slice $((size - 5)) 5 "the last 5 bytes"
slice $((size - 1)) 10 "past the end: only the final newline"
slice "$size" 10 "at the end: nothing"
slice $((size + 100)) 10 "beyond the end: nothing"

dd if="$PROC" bs=1 skip="$hlen" count=200 status=none >"$T/got"
is "$first" "$(head -n 1 "$T/got")" "a read from the header's length on starts with the first reading, not the header"
dd if="$PROC" bs=1 skip=1 status=none >"$T/got"
is 0 "$(grep -c '^# SEQ' "$T/got")" \
	"a read from offset 1 to the end holds no header line (only the header's tail)"
dd if="$PROC" bs=7 skip=5 count=9 status=none >"$T/got"
tail -c +36 "$T/full" | head -c 63 >"$T/exp"
same_file "$T/exp" "$T/got" "dd bs=7 skip=5 count=9 equals bytes 35..97"
dd if="$PROC" bs=100 skip=41 count=3 status=none >"$T/got"
tail -c +4101 "$T/full" | head -c 300 >"$T/exp"
same_file "$T/exp" "$T/got" "dd bs=100 skip=41 count=3 equals bytes 4100..4399"
# A seq_file read() of 4096 may come back short (only whole records that fit
# its page buffer), so let dd gather full blocks.
dd if="$PROC" bs=4096 skip=1 count=1 iflag=fullblock status=none >"$T/got"
tail -c +4097 "$T/full" | head -c 4096 >"$T/exp"
same_file "$T/exp" "$T/got" "dd bs=4096 skip=1 count=1 iflag=fullblock equals bytes 4096..8191"
dd if="$PROC" bs=1 status=none >"$T/got"
same_file "$T/full" "$T/got" "reading 1 byte at a time gives the whole listing"
dd if="$PROC" bs=13 status=none >"$T/got"
same_file "$T/full" "$T/got" "reading 13 bytes at a time gives the whole listing"
dd if="$PROC" bs=1000 status=none >"$T/got"
same_file "$T/full" "$T/got" "reading 1000 bytes at a time gives the whole listing"
cat "$PROC" >"$T/again"
same_file "$T/full" "$T/again" "a second full read is identical to the first"

check_unload "rmmod seqring"
done_testing
