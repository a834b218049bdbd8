#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The persistent ring's region from a forger, on the debug kernel (KASAN,
# lockdep): tests/progs/forge.c builds regions in the driver's format with
# every checksum right, each varying one field or a few readings (header
# fields at their limits, counters at and near 2^62, 2^63 and 2^64, every
# flag bit, labels without a NUL or with bytes after it, control and 0xff
# bytes, slots left BUSY, readings stored above next_seq, regions of 4 and
# 5 pages and 1 MiB, layouts for 16 and 64 KiB pages), and says what the
# format makes of each. Each is put in memory above mem= (as a previous
# load or boot would have left it; tests/crash/50-persist-forge.sh does it
# across a panic), seqring.ko loads over it, and what it shows must be what
# the forger expects: its one message, /dev/seqring.prev's readings in
# dump --boot -1 and in the debugfs listing (which KASAN watches reading
# labels), the counts in seqring.prev/region, and the number of the new
# ring's first reading. Random choices come from FORGE_SEED (printed;
# VM_APPEND="FORGE_SEED=N" replays a run).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=1048576

if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-debug gives debugvm one)"
	exit 0
fi
# 70-persist-fuzz has the first 64 KiB.
PHYS=$((PHYS + (1 << 20)))
is_loaded && unload_seqring
seed=${FORGE_SEED:-$(date +%s)}

plan 9
diag "forge seed $seed (VM_APPEND=\"FORGE_SEED=$seed\" replays it)"
kmsg_mark 71-persist-forge
if ! forge_hold "$PHYS" $SIZE; then
	fail_rest "cannot hold the range at $PHYS (seqring_ramprobe.ko op=hold)"
fi
forge_sweep "$PHYS" "$seed"
forge_release
diag "$(cat "$FORGE_DIR/forge.varied")"
forge_results "$FORGE_REGIONS"
is "" "$(dmesg_since 71-persist-forge | grep -E 'KASAN|BUG:|WARNING:|Oops|general protection' | head -n 3)" \
	"no KASAN report, BUG, warning or oops for any forged region"
done_testing
