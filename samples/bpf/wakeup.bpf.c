// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup.bpf.c - how long each task waits for a CPU after its wake-up,
 * pushed into seqring's ring "wakeup" (the sample seqring-wakeup loads it)
 *
 * sched_wakeup notes when a task was woken; sched_switch, when it gets a
 * CPU, pushes one reading: channel = the CPU, value = the wait in
 * nanoseconds, label = the task's command name (15 bytes, as a label).
 * CO-RE: the two fields of task_struct it reads are relocated by libbpf
 * against the running kernel's BTF, so one build runs on 6.1 to 7.2.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "seqring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* The fields used, wherever the running kernel has them. */
struct task_struct {
	int pid;
	char comm[16];
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} woken SEC(".maps");

/* The ring's name, in .data: 6.1's verifier refuses .rodata for kfuncs. */
char ring[16] = "wakeup";

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
	__u32 pid = p->pid;
	__u64 now = bpf_ktime_get_ns();

	bpf_map_update_elem(&woken, &pid, &now, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, int preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 pid = next->pid;
	struct seqring *r;
	char comm[16];
	__u64 *t;
	__s64 wait;

	t = bpf_map_lookup_elem(&woken, &pid);
	if (!t)
		return 0;
	wait = bpf_ktime_get_ns() - *t;
	bpf_map_delete_elem(&woken, &pid);
	__builtin_memcpy(comm, next->comm, sizeof(comm));
	comm[15] = '\0';
	r = seqring_bpf_ring_get(ring, sizeof(ring));
	if (!r)
		return 0;
	seqring_bpf_push(r, bpf_get_smp_processor_id(), wait, comm,
			 sizeof(comm));
	seqring_bpf_ring_put(r);
	return 0;
}

/* Run once by the loader (bpf_prog_test_run): the ring, and its end. */
struct ring_args {
	__u32 capacity;
	__s32 ret;
};

SEC("syscall")
int create_ring(struct ring_args *a)
{
	a->ret = seqring_bpf_create(ring, sizeof(ring), a->capacity);
	return 0;
}

SEC("syscall")
int destroy_ring(struct ring_args *a)
{
	a->ret = seqring_bpf_destroy(ring, sizeof(ring));
	return 0;
}
