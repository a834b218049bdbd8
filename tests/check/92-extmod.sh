#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/extmod/seqring_extmod.ko: a module built outside the tree from
# <linux/seqring.h> and seqring's Module.symvers alone (as README tells a
# driver author) loads against seqring.ko and works: its ring "extmod"
# appears with its three readings (a label too long stored nothing), is
# read through the same files and tool as the default ring, and goes with
# the module.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 10

KO=$MODDIR/seqring_extmod.ko

if [ ! -f "$KO" ]; then
	# tests/vm/mkinitramfs.sh leaves it out when it was not built for
	# the kernel of seqring.ko; `make check` builds it (make extmod).
	skip_rest "no $KO: tests/extmod was not built for this kernel (make extmod)"
fi

check_load "load seqring.ko"
ring_files extmod

is seqring "$(${KMOD_DIR:+$KMOD_DIR/}modinfo -F depends "$KO")" \
	"modinfo: seqring_extmod depends on seqring (its symbols resolved by Module.symvers)"
if out=$(insmod "$KO" 2>&1) && udevadm settle; then
	ok "insmod seqring_extmod.ko works"
else
	not_ok "insmod seqring_extmod.ko works" "$out"
	fail_rest "seqring_extmod.ko did not load"
fi
check "$RDEV is a character device" test -c "$RDEV"
is "8 3 3" "$(cat "$RSYS/capacity" "$RSYS/count" "$RSYS/total" 2>&1 | words)" \
	"$RSYS: capacity 8, count 3, total 3 (the refused push stored nothing)"
is "1 7 1 one|2 7 2 two|3 7 3 -" \
	"$(listing "$RDBG/readings" | awk '{ printf "%s%s %s %s %s", sep, $1, $3, $4, $5; sep = "|" }')" \
	"its listing: seq 1 to 3 on channel 7, values 1 to 3, labels one, two and empty"
is "$(listing "$RDBG/readings")" "$(seqringctl -d "$RDEV" dump 2>&1)" \
	"seqringctl -d $RDEV dump prints the same lines"
check "rmmod seqring_extmod works" unload_module seqring_extmod
check_fails "$RDEV is gone" test -e "$RDEV"
check "rmmod seqring works" unload_seqring

done_testing
