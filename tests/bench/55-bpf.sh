#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, BPF programs (tests/progs/bpf_push.c bench): ns a tp_btf
# program on sys_enter adds to each getppid() of this process when it
# pushes a reading into a ring (seqring_bpf_push(), with its get and put)
# against the same program writing the same 48-byte record with
# bpf_ringbuf_output(), in the same boot, rounds of the two and of the
# program doing nothing in turn; the ratio of the two additions (target
# <= 1.0, doc/performance.md). Printed as diagnostics (the report's table
# does not have the row yet); TAP says whether it ran.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

BP=$BIN/bpf_push
n=20000
rounds=9
grep -qw 'seqringbench.quick=1' /proc/cmdline && { n=5000; rounds=3; }

plan 3

[ -x "$BP" ] || skip_rest "no bpf_push (clang, bpftool, libbpf-dev on the host)"
check_load "load seqring.ko" capacity=16
kernel_at_least 6 1 || skip_rest "no kfuncs for modules before 6.1"
"$BP" create bench 65536 >/dev/null
"$BP" bench $n $rounds >"$T/out" 2>&1
rc=$?
diag "$(cat "$T/out")"
is 0 "$rc" "BPF push against bpf_ringbuf_output() measured"
grep -q '^ratio ' "$T/out" && mkdir -p /tmp/bench &&
	sed -n 's/^ratio \(.*\)/bpf,push_vs_ringbuf_output,\1/p' "$T/out" >>/tmp/bench/bpf.csv
"$BP" destroy bench >/dev/null
check_unload "unload seqring.ko"
done_testing
