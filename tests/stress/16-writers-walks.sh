#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress 1c: CLEAR and resize are writers too, and no walk holds them up.
# A listing walk (seq_file's replay for a deep pread() of /proc/seqring,
# seconds long here) copies readings without any lock a writer takes, so a
# CLEAR or a SET_CAPACITY takes as long with such a reader as without.
#
# A ring of STRESS_WALKS_READINGS (default 1048576) is filled and emptied
# by CLEAR, then filled and resized (to one more slot: a full copy), each
# timed by tests/bin/writer_lat: first with nothing else running (idle),
# then while user member preads 100 bytes at 40 MB into /proc/seqring in
# a loop on the other CPU. The bound, relative to the idle figure of the
# same run because the host's load moves every figure: 3 x idle + 20 ms.
# The driver whose walks held a mutex that CLEAR and resize took gave
# ~1 s for either (idle: 0.2 ms for CLEAR, 0.2-0.4 s for a resize).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 7

n=${STRESS_WALKS_READINGS:-1048576}
deep=40000000
kmsg_mark stress-16
check_load "load seqring.ko capacity=$n" capacity="$n"

pin_w=
pin_r=
if [ "$(nproc)" -ge 2 ]; then
	pin_w="taskset 1"
	pin_r="taskset 2"
fi

fill() {
	"$BIN/stress_writer" -i 1 -p 0 -b 65536 -n "$n" -t 300 >/dev/null 2>&1
}

# timed NAME OP...: run writer_lat OP on the writers' CPU; its figure in
# microseconds goes to variable NAME.
timed() {
	_tn=$1
	shift
	_tout=$($pin_w "$BIN/writer_lat" "$@" 2>&1)
	eval "$_tn=\$(echo \"\$_tout\" | sed -n 's/^us=//p')"
	diag "$_tn: $_tout"
}

cap=$n
fill
timed clear_idle clear
fill
cap=$((cap + 1))
timed resize_idle capacity "$cap"
if [ -z "$clear_idle" ] || [ -z "$resize_idle" ]; then
	fail_rest "writer_lat gave no figures"
fi

(
	while [ ! -e "$T/stop" ]; do
		$pin_r "$BIN/stress_runas" 1001 1001,990 "$BIN/walk" -p "$PROC" "$deep" 100
	done
) >"$T/preads" 2>&1 &
rpid=$!
_tap_pids="$_tap_pids $rpid"

fill
sleep 1
timed clear_walk clear
fill
sleep 1
cap=$((cap + 1))
timed resize_walk capacity "$cap"
touch "$T/stop"
wait "$rpid"

preads=$(grep -c '^pread=' "$T/preads")
if [ "$preads" -ge 1 ]; then
	ok "user member's deep preads ran meanwhile ($preads of them)"
else
	not_ok "user member's deep preads ran meanwhile" "got: $(head -n 5 "$T/preads")"
fi

# within NAME GOT IDLE: GOT <= 3 x IDLE + 20 ms.
within() {
	_b=$((3 * $3 + 20000))
	if [ -n "$2" ] && [ "$2" -le "$_b" ]; then
		ok "$1 with a deep pread reader within 3 x idle + 20 ms ($2 us, idle $3 us)"
	else
		not_ok "$1 with a deep pread reader within 3 x idle + 20 ms" \
			"expected at most $_b us, got ${2:-?} us (idle $3 us): a walk makes writers wait"
	fi
}
within CLEAR "$clear_walk" "$clear_idle"
within SET_CAPACITY "$resize_walk" "$resize_idle"
is "$cap" "$(attr capacity)" "the ring has the capacity of the last resize"

is "" "$(kernel_reports stress-16)" "the kernel logged no oops, lockup or stall"
check_unload "rmmod seqring"
done_testing
