#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A named ring destroyed (seqring_destroy(), through the test module
# tests/kmod/seqring_producer.c) while a process has it mapped
# (tests/bin/mmap_test hold): the mapping stays readable with the same
# readings, its meta page says SEQRING_MMAP_GONE; mmap() of the ring's
# device still open after the destroy fails with ENODEV; the modules
# unload once the mapping and the file are gone.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

plan 12

check_load "load seqring.ko" capacity=16
check "load seqring_producer.ko" load_producer
is "ok ok" "$(pctl create m 300) $(pctl push m 500)" "create ring m of 300, push 500 readings"

"$BIN/mmap_test" hold /dev/seqring-m >"$T/hold" 2>&1 &
holder=$!
_tap_pids="$_tap_pids $holder"
check "the holder mapped the ring and compared it with read()" wait_line "$T/hold" '^ready' 10
# A file of the ring kept open across the destroy, for the mmap() after.
exec 5</dev/seqring-m

is ok "$(pctl destroy m)" "destroy ring m while it is mapped"
kill -USR1 "$holder"
wait "$holder"
rc=$?
tap_include "[hold] " "$T/hold"
is 0 "$rc" "the holder exited with status 0 (its mapping read fine after the destroy)"

is ENODEV "$("$BIN/mmap_test" errno-map-fd 5 2>&1)" "mmap() of the destroyed ring's open file: ENODEV"
exec 5<&-

check "unload seqring_producer.ko" unload_module seqring_producer
check_unload "unload seqring.ko after the mapping and the file are gone"
done_testing
