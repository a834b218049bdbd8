#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A BPF probe pushes into the persistent ring while the machine panics;
# the next boot shows its readings with dump --boot -1. The region: 64 KiB
# (1024 readings) 12 MiB above the crash tier's mem= limit, as 30-persist
# takes its own (persist_addr=, every kernel; kfuncs from 6.1).
#   phase 1: noise in the region; load; a tp_btf program (bpf_push) pushes
#            300 readings into the default ring, the persistent one; the
#            listing is saved; then a program pushes on every getppid()
#            of a process that makes them without end, and CPU 0 panics.
#   phase 2: load; dump --boot -1; the results.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=65536
S=$SEQRING_STATE
BP=$BIN/bpf_push

crash_phases_only
if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-crash gives one)"
	exit 0
fi
if [ ! -x "$BP" ] || ! kernel_at_least 6 1; then
	echo "1..0 # SKIP no bpf_push, or a kernel before 6.1 (no kfuncs for modules)"
	exit 0
fi
PHYS=$((PHYS + (12 << 20)))

load() {
	persist_load "$1" persist_addr="$PHYS" persist_size=$SIZE
}

case $SEQRING_PHASE in
1)
	insmod "$SEQRING_MODULES/seqring_ramprobe.ko" phys="$PHYS" size=$SIZE \
		seed=11 op=fill && rmmod seqring_ramprobe
	load 1
	"$BP" attach tp_btf "" 300 >"$S/attach.1" 2>&1
	echo "$?" >>"$S/attach.1"
	seqringctl dump >"$S/pushed.1" 2>&1
	taskset -p -c 0 $$ >/dev/null
	taskset -c 1 "$BP" hold tp_btf "" 600 >/dev/null 2>&1 &
	sleep 2
	go_down panic
	;;
esac

load 2
if [ -c /dev/seqring.prev ]; then
	seqringctl dump --boot -1 >"$S/prev.2" 2>"$S/prev.2.err"
else
	echo "no /dev/seqring.prev" >"$S/prev.2.err"
fi
unload_seqring

plan 5

like "$(cat "$S/attach.1")" "^pushed 300 failed 0 .* read 300" \
	"phase 1: a tp_btf program pushed 300 readings into the persistent ring, read back intact"
check "after the panic, dump --boot -1 shows the previous boot's readings" test -s "$S/prev.2" ||
	diag "$(cat "$S/prev.2.err" "$S/load.2")"
# Every reading: channel 5 (tp_btf), label tp_btf, values 1, 2, 3... per
# program run (a new run starts at 1), sequence numbers without a gap.
awk '
	!/^[0-9]/ { next }
	{ n++
	  if ($3 != 5 || $5 != "tp_btf") bad++
	  if (n > 1 && ($1 != seq + 1 || ($4 != value + 1 && $4 != 1))) gap++
	  seq = $1; value = $4 }
	END { printf "%d readings, %d not the probe'"'"'s, %d gaps\n", n, bad, gap }' \
	"$S/prev.2" >"$S/check.2"
like "$(cat "$S/check.2")" "^[1-9][0-9]* readings, 0 not the probe's, 0 gaps$" \
	"... each one the probe's, whole, in order, none missing" || diag "$(head -n 3 "$S/prev.2")"
n=$(grep -c '^[0-9]' "$S/prev.2")
like "$(cat "$S/found.2")" "previous readings .*, $n intact" \
	"... and the load's message counts them intact ($n)" || diag "$(cat "$S/found.2")"
is "" "$(grep damaged "$S/found.2")" "... none damaged" || diag "$(cat "$S/found.2")"
done_testing
