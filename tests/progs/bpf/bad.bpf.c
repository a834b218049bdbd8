// SPDX-License-Identifier: GPL-2.0
/*
 * bad.bpf.c - calls of seqring's kfuncs the verifier must refuse, one
 * program each (tests/progs/bpf_push.c loads them one by one), and good,
 * the same shape done right, which it must accept.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "../../../include/bpf/seqring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Writable: 6.1's verifier refuses .rodata for a kfunc's memory. */
char name[16] = "bpf";
char label[16] = "bad";
char small[8];

SEC("tp_btf/sys_enter")
int good(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_push(r, 0, 1, label, sizeof(label));
	seqring_bpf_ring_put(r);
	return 0;
}

/* No ring at all: NULL where the handle goes. */
SEC("tp_btf/sys_enter")
int null_ring(void *ctx)
{
	seqring_bpf_push((struct seqring *)0, 0, 1, label, sizeof(label));
	return 0;
}

/* A handle that may be NULL, not checked. */
SEC("tp_btf/sys_enter")
int unchecked(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	seqring_bpf_push(r, 0, 1, label, sizeof(label));
	if (r)
		seqring_bpf_ring_put(r);
	return 0;
}

/* A handle never given back. */
SEC("tp_btf/sys_enter")
int leak(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (r)
		seqring_bpf_push(r, 0, 1, label, sizeof(label));
	return 0;
}

/* A handle used after it was given back. */
SEC("tp_btf/sys_enter")
int after_put(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_ring_put(r);
	seqring_bpf_push(r, 0, 1, label, sizeof(label));
	return 0;
}

/* A handle given back twice. */
SEC("tp_btf/sys_enter")
int double_put(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_ring_put(r);
	seqring_bpf_ring_put(r);
	return 0;
}

/* A handle made up from a number. */
SEC("tp_btf/sys_enter")
int forged(void *ctx)
{
	seqring_bpf_push((struct seqring *)(long)bpf_get_prandom_u32(), 0, 1,
			 label, sizeof(label));
	return 0;
}

/* A label size past the label's memory. */
SEC("tp_btf/sys_enter")
int label_oob(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_push(r, 0, 1, small, 4096);
	seqring_bpf_ring_put(r);
	return 0;
}

/* A label size nobody bounded. */
SEC("tp_btf/sys_enter")
int label_unbounded(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_push(r, 0, 1, small, bpf_get_prandom_u32());
	seqring_bpf_ring_put(r);
	return 0;
}

/* No label memory at all. */
SEC("tp_btf/sys_enter")
int null_label(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(name, sizeof(name));

	if (!r)
		return 0;
	seqring_bpf_push(r, 0, 1, (const char *)0, 16);
	seqring_bpf_ring_put(r);
	return 0;
}

/* A literal through the header's macros, as a program writes it. */
SEC("tp_btf/sys_enter")
int good_macros(void *ctx)
{
	struct seqring *r = seqring_bpf_ring_get(SEQRING_NAME_ARG("bpf"));

	if (!r)
		return 0;
	seqring_bpf_push(r, 0, 1, SEQRING_LABEL_ARG("kitchen"));
	seqring_bpf_ring_put(r);
	return 0;
}

/* Creating a ring from a program that may not sleep. */
SEC("tp_btf/sys_enter")
int create_atomic(void *ctx)
{
	seqring_bpf_create(name, sizeof(name), 16);
	return 0;
}
