#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# GONE is the end (tests/progs/gone_push.c, whose three results are
# replayed here): while a process pushes batches of 65536 back to back on
# an open /dev/seqring-NAME, the ring's driver destroys it. The mapping's
# meta page says GONE, and a consumer that sees it and then loads next_seq
# has every reading there will be: the batch in progress stops at its
# next chunk, before GONE, and fails with ENODEV. (The driver used to check
# for a destroyed ring once per ioctl, without a lock: a batch went on for
# up to 2048 chunks after GONE.)

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

plan 9

check_load "load seqring.ko"
check "load seqring_producer.ko" load_producer
is ok "$(pctl create gone 65536)" "create ring gone"
"$BIN/gone_push" /dev/seqring-gone >"$T/out" 2>&1 &
pid=$!
i=0
while ! grep -q '^ready' "$T/out" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
is ok "$(pctl destroy gone)" "destroy ring gone while a batch is being pushed into it"
wait $pid
rc=$?
grep -v '^ready' "$T/out" >"$T/tap"
tap_include_n "" 3 "$T/tap" gone_push "$rc"
check "rmmod seqring_producer" rmmod seqring_producer
check_unload "rmmod seqring after it"
done_testing
