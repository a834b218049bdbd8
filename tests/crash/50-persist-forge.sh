#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regions a forger made (tests/progs/forge.c: the driver's format, every
# checksum right), found by the next boot as the previous boot's. The two
# regions of issue 34 go through a panic:
#   A, 16 KiB: the newest intact reading at 2^63 - 2. Before the bound on
#      counters, the load took it, the new ring went on at 2^63 - 1, its
#      second reading got 2^63 (the BUSY bit) and a lap later a push spun
#      for ever. Now: "damaged counters", nothing shown, the new ring from 1.
#   B, 1 MiB: readings no push could make (a label of 16 bytes and no
#      NUL, a byte after the NUL, flags 0xdead, a label of 0xff bytes) and
#      one a push could. Before, all five were restored and listed (the
#      listing read the label past its buffer); now only the fifth.
# Then, in the same boot, every case of the forger (forge_sweep in
# tests/lib.sh, as 71-persist-forge on the debug kernel).
#   phase 1: put A and B above mem=; panic.
#   phase 2: load over A, then over B; the sweep; the results.
# Random choices come from FORGE_SEED (printed; VM_APPEND="FORGE_SEED=N").

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

S=$SEQRING_STATE

crash_phases_only
if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-crash gives one)"
	exit 0
fi
# 10-ram has the first 2 MiB above mem=, 30-persist 4 MiB up.
A=$((PHYS + (16 << 20)))
B=$((PHYS + (17 << 20)))
SWEEP=$((PHYS + (19 << 20)))
# Only the expectations go to the state disk (4 MiB), not the regions.
FORGE_DIR=$S

if [ "$SEQRING_PHASE" = 1 ]; then
	echo "${FORGE_SEED:-$(date +%s)}" >"$S/seed"
	forge_make A 16384 -s "$(cat "$S/seed")" next-63-1 &&
		forge_hold $A 16384 && forge_put "$T/fo.img" && forge_release
	forge_make B 1048576 -s "$(cat "$S/seed")" labels-34 &&
		forge_hold $B 1048576 && forge_put "$T/fo.img" && forge_release
	go_down panic
fi

seed=$(cat "$S/seed")
forge_check A $A 16384
forge_check B $B 1048576
cp "$S/forge.varied" "$T/varied.ab"
for p in msg prev dump listing next; do
	grep -h '^A:' "$S/forge.$p" >>"$T/fail.A" 2>/dev/null
	grep -h '^B:' "$S/forge.$p" >>"$T/fail.B" 2>/dev/null
done
# The sweep: results of its own, in the same files, so A and B count too.
forge_hold $SWEEP 1048576 && forge_sweep $SWEEP "$seed" && forge_release

plan 11
diag "forge seed $seed (VM_APPEND=\"FORGE_SEED=$seed\" replays it)"
diag "$(cat "$T/varied.ab")"
is "" "$(cat "$T/fail.A")" \
	"after a panic, a region whose newest intact reading is at 2^63 - 2: refused (damaged counters), nothing shown, the new ring from 1"
is "" "$(cat "$T/fail.B")" \
	"after a panic, readings no push could make (no NUL, a byte after it, flags, 0xff): refused and counted, only the pushable one shown"
diag "$(grep -v '^[AB]:' "$S/forge.varied")"
forge_results $((FORGE_REGIONS + 2))
is "" "$(dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|stall' | head -n 3)" \
	"no BUG, warning, oops or stall"
done_testing
