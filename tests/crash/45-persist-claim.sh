#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A persist_mem= region (6.12 on) is the module's alone, and whole pages.
# The crash tier's command line (Makefile: CRASH_VM) reserves, besides the
# regions of 20-reserve-mem:
#   seqring_odd  reserve_mem=65600:64: a size and a start not in pages (the
#                mapping maps whole pages: it would show the meta page
#                shifted, with what lies around the region);
#   seqring_odd2 reserve_mem=64K:64: allocated right below seqring_odd
#                (memblock allocates from the top down), so whole pages
#                of size but starting off a page;
#   seqring_ft   also given to an ftrace instance (trace_instance=...@);
#   seqring_ro   also given to ramoops (ramoops.mem_name=);
# and a region of its own, seqring_1m. Each refused load says why in one
# message; the one that loads claims its region in /proc/iomem, under its
# System RAM, until it unloads. No reboot: one phase.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

S=$SEQRING_STATE

crash_phases_only
if ! grep -q "reserve_mem=[^ ]*:seqring_odd" /proc/cmdline; then
	echo "1..0 # SKIP no reserve_mem=...:seqring_odd on the kernel command line (make check-crash gives it)"
	exit 0
fi
need_reserve_mem_find

# refused NAME ERRNO-TEXT MESSAGE-ERE DESC: the load over NAME fails with
# the errno and one kernel message matching MESSAGE-ERE.
refused() {
	persist_load "$1" persist_mem="$1"
	dmesg_since "persist-$SEQRING_PHASE-$1" | grep 'seqring: ' >"$T/msgs.$1"
	if grep -q "$2" "$S/load.$1" && [ "$(grep -c . "$T/msgs.$1")" = 1 ] &&
	   grep -Eq "$3" "$T/msgs.$1"; then
		ok "$4"
	else
		not_ok "$4" "expected the load to fail with '$2' and one message /$3/" \
			"load: $(cat "$S/load.$1")" "messages: $(cat "$T/msgs.$1")"
		is_loaded && unload_seqring
	fi
}

plan 7
is_loaded && unload_seqring
refused seqring_odd "Invalid parameters" "persist_mem=seqring_odd: the region .* is not in whole pages" \
	"persist_mem= a region of 65600 bytes at a 64-byte alignment: EINVAL, one message saying so"
refused seqring_odd2 "Invalid parameters" "persist_mem=seqring_odd2: the region 0x[0-9a-f]+\\+0x10000 is not in whole pages" \
	"persist_mem= 64 KiB starting off a page: EINVAL, one message saying so"
if grep -q "trace_instance=[^ ]*@seqring_ft" /proc/cmdline; then
	refused seqring_ft "busy" "persist_mem=seqring_ft: the region is given to ftrace.*too" \
		"persist_mem= a region an ftrace instance has (trace_instance=NAME@REGION): EBUSY, one message naming it"
else
	skip "persist_mem= a region an ftrace instance has: EBUSY" "no trace_instance=...@seqring_ft"
fi
refused seqring_ro "busy" "persist_mem=seqring_ro: the region is given to ramoops.*too" \
	"persist_mem= a region given to ramoops (ramoops.mem_name=): EBUSY, one message naming it"

persist_load 1m persist_mem=seqring_1m
is 0 "$(tail -n 1 "$S/load.1m")" "persist_mem=seqring_1m, a region of its own: loads" ||
	diag "$(cat "$S/load.1m")"
range=$(dmesg_since "persist-$SEQRING_PHASE-1m" | sed -n 's/.*seqring: region \(0x[0-9a-f]*\)+\(0x[0-9a-f]*\):.*/\1 \2/p')
# Its resource: "  START-END : seqring", indented under a "System RAM" line.
claim=$(awk -v want="seqring" '
	/^[0-9a-f]/ { top = $0 }
	/^ +[0-9a-f]+-[0-9a-f]+ : seqring$/ { sub(/^ +/, ""); split($1, r, "-"); print r[1], r[2], top }' /proc/iomem)
set -- $range
start=${1:-0} size=${2:-0}
set -- $claim
if [ -n "$claim" ] && [ $((0x$1)) = $((start)) ] && [ $((0x$2)) = $((start + size - 1)) ] &&
   echo "$claim" | grep -q ": System RAM$"; then
	ok "... and claims it in /proc/iomem: seqring, the region's range, under System RAM"
else
	not_ok "... and claims it in /proc/iomem: seqring, the region's range, under System RAM" \
		"region $range; seqring in /proc/iomem: '$claim'"
fi
unload_seqring
is "" "$(grep ': seqring$' /proc/iomem)" "... until it unloads"
done_testing
