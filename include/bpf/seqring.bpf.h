/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring.bpf.h - the kfuncs of seqring.ko, for BPF programs
 *
 * Include after vmlinux.h (or <linux/types.h>) and <bpf/bpf_helpers.h>.
 * A program takes a handle to a ring by its name, pushes, and gives the
 * handle back before it returns; the verifier refuses a program that
 * pushes without a handle (NULL, unchecked, given back already) or keeps
 * one:
 *
 *	struct seqring *r = seqring_bpf_ring_get(SEQRING_NAME_ARG("sched"));
 *
 *	if (!r)
 *		return 0;
 *	seqring_bpf_push(r, 1, delay_ns, SEQRING_LABEL_ARG("wakeup"));
 *	seqring_bpf_ring_put(r);
 *
 * Program types: fentry/fexit, tp_btf and LSM on 6.1 and later; kprobe,
 * tracepoint and perf_event on 6.12; raw tracepoint on 7.x; syscall
 * programs (which may also create and destroy rings) on 6.1 and later
 * (README, "From a BPF program").
 */
#ifndef _SEQRING_BPF_H
#define _SEQRING_BPF_H

/*
 * A ring of seqring.ko; programs only hold pointers to it. Defined, not
 * only declared: libbpf matches a kfunc's prototype with the module's,
 * and a struct there is not a forward declaration here. Its members are
 * the module's business (a program never reads them).
 */
struct seqring {
	int __opaque;
};

/* Longest label and ring name, without the terminating NUL. */
#define SEQRING_BPF_LABEL_MAX	15
#define SEQRING_BPF_NAME_MAX	15

/*
 * A string literal as the pair of arguments the kfuncs take (the pointer
 * and the bytes the verifier lets them read), refused by the compiler when
 * it is too long. The literal is copied to the program's stack: 6.1's
 * verifier takes a kfunc's memory as writable and refuses .rodata. A label
 * computed at run time goes as (buffer, size): one longer than 15 bytes is
 * refused at run time (-EINVAL, counted).
 */
#define SEQRING_LABEL_ARG(s)						\
	(char[sizeof(s) + 0 * sizeof(struct {				\
		_Static_assert(sizeof(s) <= SEQRING_BPF_LABEL_MAX + 1,	\
			       "a seqring label is at most 15 bytes");	\
		int __x; })]){ s }, sizeof(s)
#define SEQRING_NAME_ARG(s)						\
	(char[sizeof(s) + 0 * sizeof(struct {				\
		_Static_assert(sizeof(s) <= SEQRING_BPF_NAME_MAX + 1,	\
			       "a seqring ring name is at most 15 bytes");	\
		int __x; })]){ s }, sizeof(s)

/* NULL (counted: debugfs seqring/bpf no_ring) when there is no such ring. */
extern struct seqring *seqring_bpf_ring_get(const char *name,
					    __u32 name__sz) __ksym;
extern void seqring_bpf_ring_put(struct seqring *ring) __ksym;
/*
 * 0, -EINVAL for a label longer than 15 bytes, or another negative errno
 * when the ring refused the reading (destroyed meanwhile, or lost); both
 * counted.
 */
extern int seqring_bpf_push(struct seqring *ring, __u32 channel, __s64 value,
			    const char *label, __u32 label__sz) __ksym;
/* Sleepable programs (syscall): a ring of one's own, and its end. */
extern int seqring_bpf_create(const char *name, __u32 name__sz,
			      __u32 capacity) __ksym;
extern int seqring_bpf_destroy(const char *name, __u32 name__sz) __ksym;

#endif /* _SEQRING_BPF_H */
