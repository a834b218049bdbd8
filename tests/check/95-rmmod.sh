#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unloading: an open /proc/seqring does not block rmmod (later reads fail
# with EIO); an open /dev/seqring or debugfs file does (EBUSY), until it is
# closed; the module loads again afterwards with sequence numbers from 1;
# and the kernel logs no oops, BUG or warning on the way.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 18

kmsg_mark 95-rmmod

check_load "load seqring.ko capacity=16" capacity=16
push 3

exec 3<"$PROC"
dd bs=10 count=1 status=none <&3 >"$T/head"
is "# SEQ TIME" "$(cat "$T/head")" "read the first 10 bytes of /proc/seqring through fd 3"
check "rmmod succeeds while /proc/seqring is open" unload_seqring
check_fails "/proc/seqring is gone" test -e "$PROC"
is "EIO 0" "$("$BIN/readfd" 3)" "a later read() on the open fd fails with EIO"

check_load "insmod again works" capacity=16
is "EIO 0" "$("$BIN/readfd" 3)" "the old fd still fails with EIO after the module is back"
exec 3<&-

if start_holder "$T/h1" "$DEV"; then
	check_fails "rmmod fails while /dev/seqring is open" rmmod seqring
	check "... and the module stays loaded" is_loaded
	check "... and works (a push through a new fd)" "$BIN/push_n" 1
	stop_pid "$HOLDER_PID"
else
	not_ok "rmmod fails while /dev/seqring is open" "hold_open did not start"
	not_ok "... and the module stays loaded" "hold_open did not start"
	not_ok "... and works (a push through a new fd)" "hold_open did not start"
fi
check "after it is closed rmmod works" unload_seqring

check_load "insmod again works" capacity=16
if [ -r "$DEBUGFS/stats" ]; then
	exec 4<"$DEBUGFS/stats"
	check_fails "rmmod fails while a debugfs file is open" rmmod seqring
	exec 4<&-
else
	not_ok "rmmod fails while a debugfs file is open" "no $DEBUGFS/stats"
fi
check "after it is closed rmmod works" unload_seqring

check_load "insmod once more works" capacity=16
push 1
is "1 1" "$(stat_get total) $(stat_get newest_seq)" "after a reload the first push gets sequence number 1"
check "final rmmod works" unload_seqring

bad=$(kernel_reports 95-rmmod 'refcount_t')
is "" "$bad" "the kernel logged no oops, BUG or warning"
done_testing
