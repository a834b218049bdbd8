#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A listing ends at the newest reading that existed when its reader began:
# when the file was opened, and again after two end of files in a row (two
# read()s returning 0: the first may not reach the reader, see
# driver/listing.c). So a reader never chases producers that outrun it
# (76-outrun has them), and one that reads again after end of file gets
# what came since.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 7

check_load "load seqring.ko capacity=64" capacity=64

# read_fd3: read fd 3 with plain read()s until one returns 0.
read_fd3() {
	dd bs=4096 <&3 2>/dev/null
}

push 5
exec 3<"$PROC"
push 3 -v 6
read_fd3 >"$T/r1"
is "1 2 3 4 5" "$(sed 1d "$T/r1" | awk '{ print $1 }' | words)" \
	"a reader opened after 5 pushes reads to seq 5, not the 3 pushed after its open"
read_fd3 >"$T/r2"
is 0 "$(wc -c <"$T/r2")" \
	"a read() right after that end of file gives end of file again"
# busybox cat: sendfile() until it returns 0.
cat <&3 >"$T/r3"
is "6 7 8" "$(awk '{ print $1 }' "$T/r3" | words)" \
	"... and cat of the same file after that gives the 3 pushed since (seqs 6 7 8)"
push 2 -v 9
cat <&3 >"$T/r4"
is "9 10" "$(awk '{ print $1 }' "$T/r4" | words)" \
	"after 2 more pushes, cat again gives seqs 9 10"
exec 3<&-
cat "$PROC" >"$T/full"
cat "$T/r1" "$T/r2" "$T/r3" "$T/r4" >"$T/all"
same_file "$T/full" "$T/all" "the reads together equal one fresh full read"
check_unload "rmmod seqring"
done_testing
