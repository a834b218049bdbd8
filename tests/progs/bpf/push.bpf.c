// SPDX-License-Identifier: GPL-2.0
/*
 * push.bpf.c - one program per attach type, each pushing a reading into a
 * ring for every event of the test's process (tests/progs/bpf_push.c);
 * syscall programs that create and destroy rings and push a label too long.
 *
 * Each reading: channel = the attach type's number, value = 1, 2, 3, ...
 * per type, label = the type's name; bpf_push.c reads them back. And a
 * program that runs in NMI (on_nmi_push, below).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../../include/bpf/seqring.bpf.h"
#include "../../../include/uapi/linux/seqring.h"

char LICENSE[] SEC("license") = "GPL";

enum {
	T_KPROBE, T_FENTRY, T_FEXIT, T_TRACEPOINT, T_RAW_TP, T_TP_BTF,
	T_PERF, T_SYSCALL, T_MAX
};

/* Set by bpf_push.c before the load. */
__u32 target_pid;			/* the test's process (tgid) */
__u32 getppid_nr;			/* for raw tracepoints */
char ring[16];				/* the ring's name (bss: set before load) */
const char labels[T_MAX][16] = {
	"kprobe", "fentry", "fexit", "tracepoint", "raw_tp", "tp_btf",
	"perf_event", "syscall",
};

__u64 seq[T_MAX];	/* values handed out */
__u64 pushed[T_MAX];	/* pushes that returned 0 */
__u64 failed[T_MAX];	/* pushes that returned an error */
__u64 no_ring[T_MAX];	/* events that found no ring */

static __always_inline int push_one(int t)
{
	char n[16], l[16];	/* on the stack: 6.1 refuses .rodata */
	struct seqring *r;
	__u64 v;
	int ret;

	if ((bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	__builtin_memcpy(n, ring, sizeof(n));
	__builtin_memcpy(l, labels[t], sizeof(l));
	r = seqring_bpf_ring_get(n, sizeof(n));
	if (!r) {
		__sync_fetch_and_add(&no_ring[t], 1);
		return 0;
	}
	v = __sync_fetch_and_add(&seq[t], 1) + 1;
	ret = seqring_bpf_push(r, t, v, l, sizeof(l));
	seqring_bpf_ring_put(r);
	if (ret)
		__sync_fetch_and_add(&failed[t], 1);
	else
		__sync_fetch_and_add(&pushed[t], 1);
	return 0;
}

SEC("ksyscall/getppid")
int on_kprobe(void *ctx)
{
	return push_one(T_KPROBE);
}

/*
 * Attached by bpf_push.c to __task_pid_nr_ns(), which getppid() calls
 * (and not only it: the test counts what was pushed).
 */
SEC("fentry")
int on_fentry(void *ctx)
{
	return push_one(T_FENTRY);
}

SEC("fexit")
int on_fexit(void *ctx)
{
	return push_one(T_FEXIT);
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_tracepoint(void *ctx)
{
	return push_one(T_TRACEPOINT);
}

SEC("raw_tracepoint/sys_enter")
int on_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] != getppid_nr)
		return 0;
	return push_one(T_RAW_TP);
}

SEC("tp_btf/sys_enter")
int on_tp_btf(__u64 *ctx)
{
	if (ctx[1] != getppid_nr)
		return 0;
	return push_one(T_TP_BTF);
}

SEC("perf_event")
int on_perf(void *ctx)
{
	return push_one(T_PERF);
}

/*
 * A program in NMI (tests/check/97-bpf-nmi.sh): on seqring's own trace
 * event seqring_push, which fires for every reading stored, in the
 * context of its push. For each reading of the channels [nmi_lo, nmi_hi)
 * (those tests/kmod/seqring_nmi.c's NMI handler pushes: x86 raises real
 * NMIs under QEMU's tcg, where no PMU gives perf_event programs one), one
 * reading into ring: channel NMI_CH + the CPU, value 1, 2, 3, ... per CPU
 * (an NMI does not nest in another: a CPU's values are in order), label
 * "nmi". The pushes of this program's own do not match: the trace event
 * for them is skipped (a program does not run again inside itself on a
 * CPU, counted by the kernel as a miss) or filtered here.
 */
#define NMI_CH		100
#define NMI_CPUS	64

__u32 nmi_lo, nmi_hi;
__u64 nmi_seq[NMI_CPUS];
__u64 nmi_pushed[NMI_CPUS];
__u64 nmi_failed;
__u64 nmi_no_ring;

SEC("tp_btf/seqring_push")
int BPF_PROG(on_nmi_push, const char *name, __u64 s,
	     const struct seqring_reading *rd)
{
	__u32 cpu = bpf_get_smp_processor_id(), ch;
	char n[16], l[16] = "nmi";
	struct seqring *r;
	__u64 v;

	/* 6.12's verifier takes a tracepoint's pointers as maybe NULL. */
	if (!rd)
		return 0;
	ch = rd->channel;
	if (ch < nmi_lo || ch >= nmi_hi || cpu >= NMI_CPUS)
		return 0;
	/*
	 * The bound again, as a mask: 6.1's verifier refused nmi_seq[cpu]
	 * as an unbounded access, the check above not reaching the index
	 * clang used after the calls. Hidden from clang, which would drop
	 * a mask it knows changes nothing.
	 */
	asm volatile("" : "+r"(cpu));
	cpu &= NMI_CPUS - 1;
	__builtin_memcpy(n, ring, sizeof(n));
	r = seqring_bpf_ring_get(n, sizeof(n));
	if (!r) {
		__sync_fetch_and_add(&nmi_no_ring, 1);
		return 0;
	}
	v = __sync_fetch_and_add(&nmi_seq[cpu], 1) + 1;
	if (seqring_bpf_push(r, NMI_CH + cpu, v, l, sizeof(l)))
		__sync_fetch_and_add(&nmi_failed, 1);
	else
		__sync_fetch_and_add(&nmi_pushed[cpu], 1);
	seqring_bpf_ring_put(r);
	return 0;
}

/* What the syscall programs are run with (bpf_prog_test_run_opts). */
struct args {
	char name[16];
	__u32 capacity;
	__s32 ret;
	__u32 count;
};

/* One push a run: bpf_push.c runs it once per event. */
SEC("syscall")
int on_syscall(struct args *a)
{
	return push_one(T_SYSCALL);
}

SEC("syscall")
int create_ring(struct args *a)
{
	char n[16];

	__builtin_memcpy(n, a->name, sizeof(n));
	a->ret = seqring_bpf_create(n, sizeof(n), a->capacity);
	return 0;
}

SEC("syscall")
int destroy_ring(struct args *a)
{
	char n[16];

	__builtin_memcpy(n, a->name, sizeof(n));
	a->ret = seqring_bpf_destroy(n, sizeof(n));
	return 0;
}

/* A label of 20 bytes, which no compile-time check saw: -EINVAL. */
char long_label[] = "twenty_bytes_label_x";

SEC("syscall")
int push_long(struct args *a)
{
	struct seqring *r;
	char n[16];

	__builtin_memcpy(n, a->name, sizeof(n));
	r = seqring_bpf_ring_get(n, sizeof(n));
	if (!r) {
		a->ret = -2;
		return 0;
	}
	a->ret = seqring_bpf_push(r, 0, 1, long_label, sizeof(long_label));
	seqring_bpf_ring_put(r);
	return 0;
}

/*
 * The benchmark (tests/bench/55-bpf.sh): per getppid() of this process,
 * bench_mode says what the program does: nothing (0), a reading pushed
 * into ring "bench" (1), the same 48-byte record (seq, time, channel,
 * value, label) written with bpf_ringbuf_output() (2); and the push's
 * parts: the handle taken and given back without a push (3), two pushes
 * with one handle (4: the second one's cost).
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} rb SEC(".maps");

__u32 bench_mode;
__u64 bench_lost;
char bench_ring[16] = "bench";

struct bench_rec {
	__u64 seq;
	__u64 ts;
	__u32 channel;
	__u32 pad;
	__s64 value;
	char label[16];
};

SEC("tp_btf/sys_enter")
int on_bench(__u64 *ctx)
{
	char l[16] = "bench";
	struct bench_rec rec;
	struct seqring *r;
	__u32 mode = bench_mode;

	if (ctx[1] != getppid_nr ||
	    (bpf_get_current_pid_tgid() >> 32) != target_pid || !mode)
		return 0;
	if (mode == 2) {
		rec.seq = __sync_fetch_and_add(&seq[0], 1);
		rec.ts = bpf_ktime_get_ns();
		rec.channel = 1;
		rec.pad = 0;
		rec.value = ctx[1];
		__builtin_memcpy(rec.label, l, sizeof(l));
		if (bpf_ringbuf_output(&rb, &rec, sizeof(rec), 0))
			__sync_fetch_and_add(&bench_lost, 1);
		return 0;
	}
	r = seqring_bpf_ring_get(bench_ring, sizeof(bench_ring));
	if (!r)
		return 0;
	if (mode != 3 && seqring_bpf_push(r, 1, ctx[1], l, sizeof(l)))
		__sync_fetch_and_add(&bench_lost, 1);
	if (mode == 4 && seqring_bpf_push(r, 1, ctx[1], l, sizeof(l)))
		__sync_fetch_and_add(&bench_lost, 1);
	seqring_bpf_ring_put(r);
	return 0;
}
