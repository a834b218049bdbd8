#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The seqring:seqring_push trace event: one event per reading stored, PUSH
# and PUSH_BATCH alike, with the ring, sequence number, channel, value and
# label the ring stored; none while the event is disabled. The label is
# the listing's, escaped: a newline or a terminal's ESC never reaches the
# trace, and the fields are strings of the ring buffer (__data_loc).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 10

TRACING=/sys/kernel/tracing
EVENT=$TRACING/events/seqring/seqring_push

check_load "load seqring.ko capacity=16" capacity=16
[ -e $TRACING/trace ] || mount -t tracefs nodev $TRACING 2>/dev/null
if [ ! -d "$EVENT" ]; then
	skip_rest "no $EVENT: tracefs missing or the kernel has no trace events"
	exit 0
fi
ok "the event exists: $EVENT"

# events: the seqring_push lines of the trace, as "ring seq channel value
# label", one per line.
events() {
	sed -n 's/.*seqring_push: ring=\([^ ]*\) seq=\([0-9]*\) channel=\([0-9]*\) value=\(-*[0-9]*\) label=\(.*\)$/\1 \2 \3 \4 \5/p' \
		$TRACING/trace
}

: >$TRACING/trace
push 3 -c 7 -l trace-one -v 41
is "" "$(events)" "disabled: no event for 3 pushes"

echo 1 >"$EVENT/enable"
: >$TRACING/trace
push 2 -c 5 -l single -v 100
push 3 -b -c 6 -l batch -v -2
echo 0 >"$EVENT/enable"
want="seqring 4 5 100 single
seqring 5 5 101 single
seqring 6 6 -2 batch
seqring 7 6 -1 batch
seqring 8 6 0 batch"
is "$want" "$(events)" "enabled: one event per reading of PUSH and PUSH_BATCH, with seq, channel, value, label"

# The events name what the listing holds.
listed=$(listing | awk '$1 >= 4 && $1 <= 8 { print $1 }' | words)
is "4 5 6 7 8" "$listed" "the traced sequence numbers are the ones the listing shows"

# Labels that would split a line of the trace or drive a terminal: as the
# listing writes them, each event one line.
echo 1 >"$EVENT/enable"
: >$TRACING/trace
for label in "$(printf 'a\nb')" "$(printf 'x\033[2Jy')" "back door" \
	"$(printf 'caf\303\251')" 'x\y' - ""; do
	push 1 -c 9 -l "$label" -v 7
done
echo 0 >"$EVENT/enable"
listed=$(listing | awk '$3 == 9 { print $5 }' | words)
traced=$(sed -n 's/.*seqring_push: ring=seqring seq=[0-9]* channel=9 value=7 label=//p' \
	$TRACING/trace | words)
is "$listed" "$traced" "labels in the trace as the listing escapes them"
is "7 7" "$(grep -c 'seqring_push:' $TRACING/trace) $(grep -v '^#' $TRACING/trace | grep -c .)" \
	"... each event on one line of the trace"
like "$(cat "$EVENT/format")" 'field:__data_loc char\[\] label;' \
	"the label and the ring are strings of the event (__data_loc char[])"

: >$TRACING/trace
push 1 -c 1 -l after -v 1
is "" "$(events)" "disabled again: no event"

check_unload "unload seqring.ko"
