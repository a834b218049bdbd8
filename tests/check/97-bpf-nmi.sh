#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A BPF program in NMI (tests/progs/bpf_push.c nmi, push.bpf.c's
# on_nmi_push): on seqring's own trace event seqring_push, a tp_btf
# program pushes a reading into ring bpf for each reading the NMI handler
# of tests/kmod/seqring_nmi.c stores during its storm (x86: real NMIs
# through the local APIC, which QEMU's tcg delivers, where perf_event
# programs get none: tcg has no PMU), while a second program pushes into
# the same ring on every getppid() of the process, so that NMIs land in
# the middle of its pushes. Every push of the first is counted from NMI
# (debugfs seqring/bpf in_nmi), none is refused, and every reading of
# both is read back intact, each CPU's in order (the system calls' program
# may push more than the ring holds: its oldest readings, and only those,
# may be overwritten, as many as the ring counts dropped). arm64: the
# storm's NMIs are the PMU's interrupt, a hard one without pseudo-NMI
# (Debian's arm64 kernels have no CONFIG_ARM64_PSEUDO_NMI): said, and the
# rest still runs.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BP=$BIN/bpf_push
NMI_KO=$MODDIR/seqring_nmi.ko
NMI=/sys/kernel/debug/seqring_nmi
BPFDBG=/sys/kernel/debug/seqring/bpf

plan 12

[ -x "$BP" ] || skip_rest "no bpf_push (clang, bpftool, libbpf-dev on the host: make deps)"
[ -f "$NMI_KO" ] || skip_rest "no $NMI_KO (the test modules are built from the source tree only)"
case $(uname -m) in
x86_64 | aarch64) ;;
*) skip_rest "seqring_nmi.ko raises NMIs on x86 and arm64 only" ;;
esac
kernel_at_least 6 1 || skip_rest "kfuncs of modules need 6.1 (README, \"From a BPF program\")"

nctl() {
	"$BIN/ctl" "$NMI/control" "$*"
	case $1 in create | destroy) udevadm settle ;; esac
}

check_load "load seqring.ko" capacity=16
grep -q '^kfuncs: tracing' $BPFDBG ||
	skip_rest "BPF programs cannot push here: $(sed -n 's/^kfuncs: //p' $BPFDBG)"
check "load seqring_nmi.ko" insmod "$NMI_KO"
is ok "$(nctl create nmi 262144)" "create ring nmi, where the storm pushes"
is 0 "$("$BP" create bpf 262144 2>&1)" "a syscall program creates ring bpf (262144 readings)"

nmi0=$(kv in_nmi $BPFDBG)
: >"$T/out"
"$BP" nmi bpf >"$T/out" 2>&1 &
pid=$!
_tap_pids="$_tap_pids $pid"
i=0
while ! grep -q '^attached' "$T/out" && kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
is ok "$(nctl storm 1000)" "storm: 1 s of NMIs on every CPU, each storing a reading in ring nmi, with the two programs attached"
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
in=$(($(kv in_nmi $BPFDBG) - nmi0))
diag "$(cat "$T/out")" "$(grep nmi-cpu "$NMI/status" | tr '\n' ';')"
p=$(sed -n 's/^nmi pushed \([0-9]*\) failed 0 no_ring 0 .*/\1/p' "$T/out")
check "the program on the NMI handler's readings pushed into ring bpf (${p:-none})" \
	test "${p:-0}" -gt 0
notnmi=$(awk '$1 == "nmi-cpu" { n += $10 } END { print n + 0 }' "$NMI/status")
if [ "$in" -gt 0 ] && [ "$in" = "$p" ]; then
	ok "... every one of its pushes from NMI: debugfs seqring/bpf in_nmi grew by $in"
elif [ "$in" = 0 ] && [ "$notnmi" -gt 0 ] && [ "$(uname -m)" = aarch64 ]; then
	skip "... every one of its pushes from NMI" \
		"the handler ran in hard interrupt context $notnmi times, not NMI: no pseudo-NMI in this kernel (CONFIG_ARM64_PSEUDO_NMI)"
else
	not_ok "... every one of its pushes from NMI" \
		"expected in_nmi to grow by the program's pushes, $p; it grew by $in"
fi
is 0 "$rc" "... every reading of both programs read back intact (each CPU's NMI readings and the system calls' in order, labels), the system calls' oldest only overwritten, as many as the ring dropped"
is 0 "$(kv refused $BPFDBG)" "debugfs seqring/bpf: no push refused"

is ok "$(nctl destroy)" "destroy ring nmi"
check "rmmod seqring_nmi" rmmod seqring_nmi
"$BP" destroy bpf >/dev/null
check "unload seqring.ko (once the programs are freed)" unload_seqring_bpf
done_testing
