#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stream ABI: read(), poll() and lseek() on /dev/seqring, SET_WAKEUP
# and SET_CAPACITY. Runs tests/bin/stream (native 64-bit) and, when it was
# built, stream32 (i386, through compat_ioctl), each against a freshly
# loaded module of capacity 16, and passes their TAP through as this
# script's own tests (renumbered, prefixed [64] / [32]). Each program adds
# two tests of its own: it ran its whole plan without dying, and rmmod
# works after it (no reader left behind holding the module).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CAPACITY=16

# run_prog PROG: load, run PROG into $T/PROG.tap, unload. Sets RUN_RC (the
# program's exit status) and RMMOD_OK (yes/no).
run_prog() {
	: >"$T/$1.tap"
	if ! load_seqring capacity=$CAPACITY >"$T/$1.load" 2>&1; then
		echo "# insmod seqring.ko capacity=$CAPACITY failed: $(cat "$T/$1.load")" \
			>"$T/$1.tap"
	fi
	"$BIN/$1" >>"$T/$1.tap" 2>&1
	RUN_RC=$?
	if unload_seqring >"$T/$1.rmmod" 2>&1; then
		RMMOD_OK=yes
	else
		RMMOD_OK=no
		rmmod seqring 2>/dev/null
	fi
}

# report PROG PREFIX RC RMMOD_OK: replay the program's TAP and add its two
# own tests.
report() {
	tap_include "$2" "$T/$1.tap"
	ran=$TAP_INC_RAN
	# Keep the count promised by the plan line printed before.
	while [ "$TAP_INC_RAN" -lt "$TAP_INC_PLAN" ]; do
		TAP_INC_RAN=$((TAP_INC_RAN + 1))
		not_ok "$2$1 test $TAP_INC_RAN not run: the program stopped early"
	done
	desc="$2$1 ran its whole plan ($TAP_INC_PLAN tests) and exited normally"
	if [ "$TAP_INC_PLAN" -gt 0 ] && [ "$ran" -eq "$TAP_INC_PLAN" ] &&
	   [ "$3" -le 1 ]; then
		ok "$desc"
	else
		not_ok "$desc" "expected $TAP_INC_PLAN results and exit status 0 or 1, got $ran results and exit status $3"
	fi
	if [ "$4" = yes ]; then
		ok "$2rmmod seqring after $1 exited"
	else
		not_ok "$2rmmod seqring after $1 exited" "$(cat "$T/$1.rmmod")"
	fi
}

plan_of() {
	sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$T/$1.tap" | head -n 1
}

run_prog stream
rc64=$RUN_RC
rm64=$RMMOD_OK
n64=$(plan_of stream)
total=$((${n64:-0} + 2))

skip32=
if [ ! -x "$BIN/stream32" ]; then
	skip32="stream32 not built: the build host's cc cannot link -m32 -static (install gcc-multilib)"
elif ! "$BIN/stream32" --help 2>&1 | grep -q '^usage:'; then
	skip32="this kernel cannot run i386 binaries (CONFIG_IA32_EMULATION off?)"
fi
if [ -z "$skip32" ]; then
	run_prog stream32
	rc32=$RUN_RC
	rm32=$RMMOD_OK
	n32=$(plan_of stream32)
	total=$((total + ${n32:-0} + 2))
else
	total=$((total + 1))
fi

plan "$total"
report stream "[64] " "$rc64" "$rm64"
if [ -z "$skip32" ]; then
	report stream32 "[32] " "$rc32" "$rm32"
else
	skip "[32] the stream ABI through compat_ioctl (stream32)" "$skip32"
fi
done_testing
