#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# BPF programs push into rings (driver/bpf.c, tests/progs/bpf_push.c): the
# load says once what programs can do; a syscall program creates a ring;
# a program of each attach type pushes a reading for every event of this
# process and every one is read back from the ring's device intact, on the
# kernels whose kfunc hooks take that type (the others' verifier refuses
# the program); a label of 20 bytes is refused and counted; the verifier
# refuses each bad call of bad.bpf.c and loads the good one; a ring
# destroyed while a program pushes into it: the program finds no ring
# (counted), nothing breaks; rmmod while a program is loaded fails, and
# works once it is gone; destroy and create in a loop under a pushing
# program.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BP=$BIN/bpf_push
TYPES="fentry fexit tp_btf syscall kprobe tracepoint perf_event raw_tp"

plan 45

[ -x "$BP" ] || { skip_rest "no bpf_push (clang, bpftool, libbpf-dev on the host: make deps)"; }

kmsg_mark 97-bpf
check_load "load seqring.ko" capacity=16
ring_files bpf
said=$(dmesg_since 97-bpf | grep -c 'seqring: BPF')
is 1 "$said" "the load says once what BPF programs can do"
diag "$(dmesg_since 97-bpf | grep 'seqring: BPF')"

if ! kernel_at_least 6 1 || [ ! -e /sys/kernel/btf/vmlinux ]; then
	if kernel_at_least 6 1; then
		like "$(cat /sys/kernel/debug/seqring/bpf)" "kfuncs: the kernel has no BTF for modules" \
			"a kernel without BTF (the debug kernel): debugfs seqring/bpf says so"
		skip_rest "this kernel has no BTF (CONFIG_DEBUG_INFO_BTF), which kfuncs need"
	fi
	like "$(cat /sys/kernel/debug/seqring/bpf)" "kfuncs: this kernel has no kfuncs" \
		"before 6.1, debugfs seqring/bpf says the kernel has no kfuncs"
	skip_rest "kfuncs of modules need 6.1 (README, \"From a BPF program\")"
fi
# The module DKMS built (a packages' VM: no test modules) has BTF only
# where its build machine could make it (README, "From a BPF program":
# dwarves, and on 6.1 a resolve_btfids Debian does not ship); the source
# tree's is always built with it (check-kernels, check-arch).
if [ ! -f "$PRODUCER_KO" ] &&
   grep -q "^kfuncs: the module was built without BTF" /sys/kernel/debug/seqring/bpf; then
	skip_rest "the module DKMS built has no BTF, which kfuncs need (README, \"From a BPF program\")"
fi
like "$(cat /sys/kernel/debug/seqring/bpf 2>&1)" "^kfuncs: tracing syscall" \
	"debugfs seqring/bpf: the kfuncs are registered for tracing and syscall programs"
check "the module has BTF (/sys/kernel/btf/seqring)" test -s /sys/kernel/btf/seqring

is 0 "$("$BP" create bpf 4096 2>&1)" "a syscall program creates ring bpf (seqring_bpf_create)"
check "... its device /dev/seqring-bpf is there" test -c /dev/seqring-bpf
is -17 "$("$BP" create bpf 16 2>&1)" "creating it again: -EEXIST"
is -22 "$("$BP" create 'Bad!' 16 2>&1)" "a bad name: -EINVAL"

# since TYPE: the first kernel tested whose kfunc hooks take TYPE.
since() {
	case $1 in
	kprobe | tracepoint | perf_event) echo "6 12" ;;
	raw_tp) echo "7 2" ;;
	*) echo "6 1" ;;
	esac
}

for t in $TYPES; do
	n=200
	[ "$t" = perf_event ] && n=50
	nmi0=$(kv in_nmi /sys/kernel/debug/seqring/bpf)
	# The tracepoint program's event, watched through tracefs too: if
	# the kernel's own syscalls:sys_enter_getppid never fires, a program
	# attached to it cannot push, and that is the kernel's, not ours.
	ev=$TRACING/events/syscalls/sys_enter_getppid
	watch=0
	if [ "$t" = tracepoint ] && [ -d "$ev" ]; then
		: >"$TRACING/trace" && echo 1 >"$ev/enable" && watch=1
	fi
	out=$("$BP" attach "$t" bpf "$n" 2>&1)
	rc=$?
	fired=
	if [ $watch = 1 ]; then
		echo 0 >"$ev/enable"
		fired=$(grep -c 'sys_getppid(' "$TRACING/trace")
	fi
	# Pushes of this program from NMI: a perf_event program runs in the
	# PMU's NMI where there is one (not under tcg's x86, which has no
	# PMU, nor on Debian's arm64 kernels, which have no pseudo-NMI:
	# its interrupt is a hard one); 97-bpf-nmi has real NMIs.
	nmi=$(($(kv in_nmi /sys/kernel/debug/seqring/bpf) - nmi0))
	in=
	[ "$t" = perf_event ] && in=", $nmi of them from NMI"
	# shellcheck disable=SC2046 # two words
	if kernel_at_least $(since "$t"); then
		p=$(printf '%s\n' "$out" | sed -n 's/^pushed \([0-9]*\) failed 0 .*/\1/p')
		if [ $rc -eq 4 ]; then
			# ENOTSUPP from the attach, after the verifier took the
			# program: the kernel has no BPF trampoline here (arm64
			# before its ftrace direct calls), nothing of ours.
			skip "$t: $n pushes or more" \
				"this kernel cannot attach $t programs (ENOTSUPP at attach, after the verifier took it)"
		elif [ $rc -eq 0 ] && [ "${p:-0}" = 0 ] && [ "$fired" = 0 ]; then
			skip "$t: $n pushes or more" \
				"this kernel's syscalls:sys_enter_getppid did not fire either (tracefs recorded 0 of the program's getppid() calls)"
		elif [ $rc -eq 0 ] && [ "${p:-0}" -ge "$n" ]; then
			ok "$t: $p pushes ($n events or more)$in, every reading read back intact (channel, label, values in order)"
		else
			not_ok "$t: $n pushes or more, every reading read back intact" \
				"expected exit 0 and 'pushed >=$n failed 0 ... read' as many, got exit $rc:" "$out"
		fi
	elif [ $rc -eq 3 ]; then
		ok "$t: refused by this kernel's verifier (kfuncs for $t from $(since "$t" | tr ' ' .))"
		diag "$out"
	elif [ $rc -eq 0 ]; then
		ok "$t: $n pushes, every reading read back intact (earlier than tested)"
	else
		not_ok "$t: refused, or every reading read back" "exit $rc:" "$out"
	fi
done

diag "ring bpf: count $(cat /sys/class/misc/seqring-bpf/count) total $(cat /sys/class/misc/seqring-bpf/total)" \
	"$(seqringctl -d /dev/seqring-bpf dump 2>&1 | head -n 3)"
cat /sys/kernel/debug/seqring/bpf >"$T/bs"
is "0 0" "$(kvs "$T/bs" refused bad_label)" \
	"debugfs seqring/bpf: no push refused, no bad label"

before=$(cat /sys/class/misc/seqring-bpf/total)
is -22 "$("$BP" long bpf 2>&1)" "a label of 20 bytes: -EINVAL"
is "$before" "$(cat /sys/class/misc/seqring-bpf/total)" "... nothing stored"
is 1 "$(kv bad_label /sys/kernel/debug/seqring/bpf)" "... counted in bad_label"

check_fails "good: the verifier loads a correct program (the control)" "$BP" bad good
check_fails "good_macros: and one written with seqring.bpf.h's macros" "$BP" bad good_macros
for p in null_ring unchecked leak after_put double_put forged label_oob \
	 label_unbounded null_label create_atomic; do
	out=$("$BP" bad "$p" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "the verifier refuses $p"
		diag "$out"
	else
		not_ok "the verifier refuses $p" "expected exit 0 (refused), got $rc:" "$out"
	fi
done

# Destroyed while a program pushes into it.
"$BP" hold tp_btf bpf 60 >"$T/hold" 2>&1 &
pid=$!
_tap_pids="$_tap_pids $pid"
sleep 2
is 0 "$("$BP" destroy bpf 2>&1)" "destroy ring bpf while a program pushes into it"
check_fails "... its device is gone" test -e /dev/seqring-bpf
nr0=$(kv no_ring /sys/kernel/debug/seqring/bpf)
sleep 1
kill "$pid"
wait "$pid"
nr=$(kv no_ring /sys/kernel/debug/seqring/bpf)
check "... the program's later pushes find no ring, counted in no_ring ($nr0 -> $nr)" \
	test "$nr" -gt "$nr0"
diag "$(cat "$T/hold")"

# rmmod while a program that calls the kfuncs is loaded.
"$BP" create bpf 64 >/dev/null
"$BP" hold tp_btf bpf 60 >"$T/hold" 2>&1 &
pid=$!
_tap_pids="$_tap_pids $pid"
sleep 2
check_fails "rmmod seqring fails while the program is loaded" rmmod seqring
kill "$pid"
wait "$pid"
check "... and works once the program is gone" unload_seqring_bpf

# Destroy and create in a loop while a program pushes.
check_load "load seqring.ko again" capacity=16
"$BP" create bpf 64 >/dev/null
"$BP" hold tp_btf bpf 60 >"$T/hold" 2>&1 &
pid=$!
_tap_pids="$_tap_pids $pid"
sleep 1
i=0
bad=0
while [ $i -lt 30 ]; do
	[ "$("$BP" destroy bpf)" = 0 ] || bad=$((bad + 1))
	[ "$("$BP" create bpf 64)" = 0 ] || bad=$((bad + 1))
	i=$((i + 1))
done
kill "$pid"
wait "$pid"
is 0 "$bad" "30 destroys and creates of ring bpf while a program pushes into it"
diag "$(cat "$T/hold")"
check "unload, with the ring a program made still there" unload_seqring_bpf

# The sample: its own ring, readings of the scheduler, the ring gone after.
check_load "load seqring.ko for the sample" capacity=16
if [ -x "$BIN/seqring-wakeup" ]; then
	"$BIN/seqring-wakeup" 1024 >"$T/wk" 2>&1 &
	pid=$!
	_tap_pids="$_tap_pids $pid"
	i=0
	while [ ! -c /dev/seqring-wakeup ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	sleep 2
	n=$(cat /sys/class/misc/seqring-wakeup/count 2>/dev/null)
	check "samples/bpf/seqring-wakeup: readings of the scheduler in /dev/seqring-wakeup ($n)" \
		test "${n:-0}" -gt 0
	diag "$(seqringctl -d /dev/seqring-wakeup dump -n 3 2>&1)"
	kill "$pid"
	wait "$pid"
	is 0 "$?" "... it ends by SIGTERM with status 0"
	check_fails "... and destroys its ring" test -e /dev/seqring-wakeup
else
	skip "samples/bpf/seqring-wakeup" "not built (clang, bpftool, libbpf-dev)"
	skip "... it ends by SIGTERM" "not built"
	skip "... and destroys its ring" "not built"
fi
check "unload seqring.ko once the sample is gone" unload_seqring_bpf

done_testing
