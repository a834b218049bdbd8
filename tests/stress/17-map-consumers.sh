#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress: 4 producers and 2 consumers of the ring's mapping (issue 24).
#
# 4 writers (stress_writer: one all PUSH, one all PUSH_BATCH, two mixed,
# values 1, 2, 3, ... each, every field derived from writer and value, see
# stress.h) against 2 consumers (stress_map: libseqring's srl_map_read(),
# one sleeping in srl_map_wait(), SET_CURSOR then poll(), one spinning),
# both mapped before the first push. Two rounds:
#  - a ring with room for everything: each consumer reads every reading
#    exactly once, in order, as pushed; nothing lost;
#  - a ring of 256 slots, writers unpaced: consumers are overrun all the
#    time; every reading read is one that was pushed, whole (nothing torn),
#    each writer's values in order with none twice, the sequence numbers
#    consecutive but for the gaps -EPIPE reported, and read + lost is
#    exactly what the ring stored, so nothing was missed that the lost count
#    does not say. A reading for which the ring found no free slot (ENOBUFS:
#    four unpaced writers on 256 slots, one of them held off its CPU by the
#    host inside its section) is not stored and counted in the ring's lost:
#    stored + that lost is what the writers pushed.
# Environment: STRESS_WRITER_MAX (default 50000 readings a writer).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 26

max=${STRESS_WRITER_MAX:-50000}

# round NAME CAPACITY: load, start the consumers, the writers, wait for
# all, and check what each consumer read. 13 results.
round() {
	_name=$1 _cap=$2
	kmsg_mark "stress-17-$_name"
	check_load "$_name: load seqring.ko capacity=$_cap" capacity="$_cap"
	rm -f "$T/stop"
	_cpids=
	for c in wait spin; do
		"$BIN/stress_map" -m "$c" -x "$T/stop" -t 300 >"$T/$_name-$c" 2>&1 &
		_cpids="$_cpids $!"
	done
	_tap_pids="$_tap_pids $_cpids"
	_ready=yes
	for c in wait spin; do
		wait_line "$T/$_name-$c" '^ready' 20 || _ready=no
	done
	is yes "$_ready" "$_name: 2 consumers mapped the ring" ||
		diag "$(cat "$T/$_name-wait" "$T/$_name-spin")"

	# Writers: ID, % of single PUSH calls, largest batch.
	_wpids=
	for w in "0 100 1" "1 0 64" "2 50 64" "3 50 600"; do
		# shellcheck disable=SC2086 # three words on purpose
		set -- $w
		"$BIN/stress_writer" -i "$1" -p "$2" -b "$3" -t 120 -n "$max" \
			-s "$((1000 + $1))" >"$T/$_name-w$1" 2>&1 &
		_wpids="$_wpids $!"
	done
	_tap_pids="$_tap_pids $_wpids"
	_wfail=0
	for p in $_wpids; do
		wait "$p" || _wfail=$((_wfail + 1))
	done
	_sum=0
	for w in 0 1 2 3; do
		_n=$(sed -n 's/^writer .* pushed=\([0-9]*\) .*/\1/p' "$T/$_name-w$w")
		eval "_pushed$w=\${_n:-0}"
		_sum=$((_sum + ${_n:-0}))
	done
	is "0 $((4 * max))" "$_wfail $_sum" \
		"$_name: 4 writers pushed $max readings each without an error" ||
		diag "$(cat "$T/$_name"-w[0-3])"
	_total=$(stat_get total) _rlost=$(stat_get lost)
	is "$_sum" "$((${_total:-0} + ${_rlost:-0}))" \
		"$_name: the ring stored every reading pushed or counted it lost (stored ${_total:-?}, lost ${_rlost:-?})"

	: >"$T/stop"
	_cfail=0
	for p in $_cpids; do
		wait_gone "$p" 120 || { _cfail=$((_cfail + 1)); stop_pid "$p"; }
	done
	_tap_pids=
	is 0 "$_cfail" "$_name: both consumers drained the ring and ended"

	for c in wait spin; do
		_l=$(grep '^map: ' "$T/$_name-$c")
		diag "$_name $c: $_l"
		_v() {
			echo "$_l" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
		}
		if [ -n "$_l" ] && [ "$(_v torn) $(_v gaps) $(_v order)" = "0 0 0" ]; then
			ok "$_name, consumer $c: every reading whole, as pushed; none twice or out of order; no gap unreported"
		else
			not_ok "$_name, consumer $c: every reading whole, as pushed; none twice or out of order; no gap unreported" \
				"expected torn=0 gaps=0 order=0" "$(head -n 20 "$T/$_name-$c")"
		fi
		_read=$(_v read) _lost=$(_v lost)
		is "$_total $_total" "$((${_read:-0} + ${_lost:-0})) $((${_l:+$(_v next) - $(_v first)}))" \
			"$_name, consumer $c: read + lost, and the sequence numbers it went through, are what the ring stored"
		# Per writer: what it pushed less what this consumer saw.
		_miss=0
		for w in 0 1 2 3; do
			_seen=$(echo "$_l" | sed -n "s/.*[=,]$w:\([0-9]*\):.*/\1/p")
			eval "_p=\$_pushed$w"
			_miss=$((_miss + _p - ${_seen:-0}))
		done
		if [ "$_cap" -ge "$_sum" ]; then
			is "0 0 0" "${_lost:-none} ${_rlost:-none} $_miss" \
				"$_name, consumer $c: nothing lost, every reading of every writer read"
		else
			is "$((${_lost:-0} + ${_rlost:-0}))" "$_miss" \
				"$_name, consumer $c: what it missed of each writer adds up to its lost count and the ring's"
			[ "${_lost:-0}" -gt 0 ] ||
				diag "$_name, consumer $c: never overrun: the round did not test -EPIPE"
		fi
	done
	bad=$(kernel_reports "stress-17-$_name")
	is "" "$bad" "$_name: the kernel logged no oops, BUG, warning or lockup"
	check_unload "$_name: rmmod seqring"
}

round fits 262144
round overrun 256
done_testing
