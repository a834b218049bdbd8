#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, BPF programs (tests/progs/bpf_push.c bench): ns a tp_btf
# program on sys_enter adds to each getppid() of this process when it
# pushes a reading into a ring (seqring_bpf_push(), with its get and put)
# against the same program writing the same 48-byte record with
# bpf_ringbuf_output(), in the same boot, in rounds with the program doing
# nothing, and the push's parts (the handle taken and given back alone; a
# second push with the same handle); the ratio of the two additions
# (target <= 1.0, doc/performance.md). Results go to /tmp/bench/results.csv
# as the "bpf" rows; on a kernel or a build without them, notes.txt says
# why. TAP says whether the measurement ran, never how fast it was.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BP=$BIN/bpf_push
R=/tmp/bench
n=20000
rounds=9
grep -qw 'seqringbench.quick=1' /proc/cmdline && { n=5000; rounds=3; }

# not_measured WHY: the report's note, and the rest skipped.
not_measured() {
	mkdir -p $R
	echo "bpf: not measured: $1" >>$R/notes.txt
	skip_rest "$1"
}

plan 3

[ -x "$BP" ] || not_measured "no bpf_push (clang, bpftool, libbpf-dev on the host)"
check_load "load seqring.ko" capacity=16
kernel_at_least 6 1 || not_measured "no kfuncs for modules before 6.1"
grep -q '^kfuncs: tracing' /sys/kernel/debug/seqring/bpf ||
	not_measured "$(sed -n 's/^kfuncs: /BPF programs cannot push: /p' /sys/kernel/debug/seqring/bpf)"
"$BP" create bench 65536 >/dev/null
"$BP" bench $n $rounds >"$T/out" 2>&1
rc=$?
diag "$(grep -v '^csv ' "$T/out")"
is 0 "$rc" "BPF push against bpf_ringbuf_output() measured"
mkdir -p $R
sed -n 's/^csv //p' "$T/out" >>$R/results.csv
"$BP" destroy bench >/dev/null
check_unload "unload seqring.ko"
done_testing
