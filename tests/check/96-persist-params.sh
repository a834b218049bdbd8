#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The persistent ring's parameters (seqring(4), PERSISTENT RING): each way
# to get them wrong fails the load with its errno and one kernel message
# that says what to do, and leaves nothing behind (the module loads
# normally afterwards). The ring itself, over panics and reboots, is the
# crash tier's (tests/crash/30-persist.sh, 40-persist-reserve-mem.sh).
# Also seqringctl's --boot, which reads the previous boot's ring.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}

# An address in the kernel's own RAM: in the first "System RAM" range that
# reaches above 32 MiB, at 16 MiB or more.
ram=$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem |
	while read -r a b; do
		[ $((0x$b)) -gt $((32 << 20)) ] || continue
		a=$((0x$a))
		[ "$a" -ge $((16 << 20)) ] || a=$((16 << 20))
		echo "$a"
		break
	done)
[ -n "$ram" ] || ram=$((16 << 20))

if kernel_at_least 6 12; then
	nosuch="no such reserve_mem= region$"
else
	nosuch="no such reserve_mem= region .this kernel has none a module can find: use persist_addr= and persist_size=."
fi

# case: PARAMS|ERRNO|MESSAGE (an ERE). insmod (kmod) names EINVAL "Invalid
# parameters"; ENODEV is strerror()'s "No such device".
cases="persist_addr=$ram|Invalid parameters|persist_addr=0x[0-9a-f]* persist_size=0x0: both needed, page-aligned
persist_size=65536|Invalid parameters|persist_addr=0x0 persist_size=0x10000: both needed
persist_addr=$((ram + 100)) persist_size=65536|Invalid parameters|page-aligned
persist_addr=0xfffffffffffff000 persist_size=0x2000|Invalid parameters|not past the end of the address space
persist_addr=$ram persist_size=65536|Invalid parameters|the range is the kernel's RAM; keep the kernel off it with mem= or memmap=
persist_mem=nosuch persist_addr=$ram persist_size=65536|Invalid parameters|persist_mem= or persist_addr= with persist_size=, not both
persist_mem=nosuch|No such device|persist_mem=nosuch: $nosuch"

plan $(($(printf '%s\n' "$cases" | grep -c .) * 2 + 4))
kmsg_mark 96-persist-params
is_loaded && unload_seqring

n=0
printf '%s\n' "$cases" >"$T/cases"
while IFS='|' read -r params errno message; do
	n=$((n + 1))
	kmsg_mark "96-$n"
	# shellcheck disable=SC2086 # the parameters are words
	out=$(insmod "$MODDIR/seqring.ko" $params 2>&1)
	rc=$?
	like "$rc $out" "^1 .*$errno" "insmod seqring.ko $params fails: $errno"
	like "$(dmesg_since "96-$n" | grep -o 'seqring: .*')" "$message" \
		"... and the kernel says why: $(printf '%s' "$message" | cut -c1-50)"
	is_loaded && unload_seqring
done <"$T/cases"

check_load "then the module loads without them"
check_fails "no previous boot's ring without a region (/dev/seqring.prev)" test -e /dev/seqring.prev
"$CTL" dump --boot -1 >"$T/out" 2>"$T/err"
is "1 0 no previous boot's readings" \
	"$? $(wc -c <"$T/out") $(grep -o "no previous boot's readings" "$T/err")" \
	"seqringctl dump --boot -1 without one: exit 1, nothing out, a message" ||
	diag "$(cat "$T/err")"
"$CTL" dump --boot -2 >"$T/out" 2>"$T/err"
is "2 0" "$? $(wc -c <"$T/out")" "seqringctl dump --boot -2: a usage error (only 0 and -1 are kept)" ||
	diag "$(cat "$T/err")"
done_testing
