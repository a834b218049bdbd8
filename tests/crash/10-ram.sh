#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does memory the kernel does not use keep its contents over a panic and
# the reboot that follows, and over a warm reboot? The persistent ring
# (issue 25) rests on it; a failure here is the machine's (QEMU, its
# firmware, the next boot), not the driver's, and says that the ring's
# crash tests cannot pass on it.
#
# The range: 2 MiB right above the mem= limit the crash tier boots with
# (make check-crash), which the kernel leaves alone, filled and checked by
# tests/kmod/seqring_ramprobe.ko with a pattern seeded per phase.
#   phase 1: fill (seed A), panic (sysrq c; panic=1 reboots);
#   phase 2: check A, fill (seed B), reboot -f (warm: no panic);
#   phase 3: check B; the results.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=$((2 << 20))
S=$SEQRING_STATE

# probe OP SEED: fill or check the range; "differ words" of a check.
probe() {
	_err=$(insmod "$SEQRING_MODULES/seqring_ramprobe.ko" phys="$PHYS" \
		size=$SIZE seed="$2" op="$1" 2>&1) || {
		echo "insmod failed: $_err"
		return 1
	}
	_p=/sys/module/seqring_ramprobe/parameters
	[ "$1" = check ] && echo "$(cat $_p/differ) $(cat $_p/words) $(cat $_p/first_differ)"
	rmmod seqring_ramprobe
}

# Not run by the check-crash tier's VM (no state disk): nothing to do.
crash_phases_only
if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-crash gives one)"
	exit 0
fi

case $SEQRING_PHASE in
1)
	diag "filling $SIZE bytes at $PHYS, then a panic"
	probe fill 1 >"$S/fill1" 2>&1 || diag "fill: $(cat "$S/fill1")"
	echo "$?" >"$S/fill1.rc"
	go_down panic
	;;
2)
	probe check 1 >"$S/check1" 2>&1
	echo "$?" >"$S/check1.rc"
	diag "checked after the panic: $(cat "$S/check1"); filling again, then reboot -f"
	probe fill 2 >"$S/fill2" 2>&1
	echo "$?" >"$S/fill2.rc"
	go_down warm
	;;
esac

plan 4
for step in fill1 fill2; do
	is 0 "$(cat "$S/$step.rc")" "seqring_ramprobe filled $SIZE bytes at $PHYS (${step#fill}. fill)"
	diag "$(cat "$S/$step")"
done
probe check 2 >"$S/check2" 2>&1
for what in "check1 the panic and the reboot it caused" "check2 a warm reboot (reboot -f)"; do
	step=${what%% *}
	read -r differ words first <"$S/$step"
	is "0 of $((SIZE / 8)) words differ" "${differ:-?} of ${words:-?} words differ" \
		"the range kept every byte over ${what#* }" ||
		diag "first difference at byte ${first:-?}: $(cat "$S/$step")"
done
done_testing
