#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The mapping of a ring whose pages are charged to a memory cgroup other
# than the root: the module loaded from inside a cgroup v2 group, as a
# systemd unit with MemoryAccounting= loads it. On 5.10 those pages carry
# PageKmemcg, which vm_insert_pages() refuses (mmap() was EINVAL there);
# the driver maps them by PFN instead (driver/compat.h). On every kernel:
# the pages are charged to the group, and a consumer of the mapping
# (samples/mmap-consumer) reads every reading as the listing shows it.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

GROUP=$CG/seqring-mapcg
CAPACITY=1000

plan 4
is_loaded && unload_seqring
memcg_controller
rmdir "$GROUP" 2>/dev/null
mkdir "$GROUP" || fail_rest "cannot make $GROUP"

# insmod from inside the group: the ring's pages are charged to it.
before=$(cat "$GROUP/memory.current")
sh -c 'echo $$ >"$1/cgroup.procs" && exec insmod "$2" capacity="$3"' \
	sh "$GROUP" "$MODDIR/seqring.ko" $CAPACITY >"$T/load" 2>&1
rc=$?
udevadm settle
is 0 "$rc" "load seqring.ko (capacity $CAPACITY) from inside a memory cgroup" || diag "$(cat "$T/load")"
charged=$(($(cat "$GROUP/memory.current") - before))
# The meta page and the slot array's pages, at least.
want=$(((1 + (CAPACITY * 48 + 4095) / 4096) * 4096))
if [ "$charged" -ge "$want" ]; then
	ok "the ring's pages are charged to the group ($charged bytes, $want at least)"
else
	not_ok "the ring's pages are charged to the group" "expected $want bytes at least, got $charged"
fi

"$BIN/push_n" -l mapcg 300 >"$T/push" 2>&1 || diag "$(cat "$T/push")"
"$BIN/mmap-consumer" -n 300 >"$T/mapped" 2>"$T/mapped.err"
rc=$?
is "0 300" "$rc $(grep -c . "$T/mapped")" \
	"mmap() of that ring works: a consumer of the mapping reads its 300 readings" ||
	diag "$(cat "$T/mapped.err")"
listing >"$T/listing"
same_file "$T/listing" "$T/mapped" "... each as the listing shows it"

unload_seqring
rmdir "$GROUP" 2>/dev/null
done_testing
