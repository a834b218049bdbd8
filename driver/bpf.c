// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - BPF programs push into rings: the module's kfuncs
 *
 * A program names a ring by a handle it acquires by name and must release
 * before it returns, as the verifier checks (KF_ACQUIRE, KF_RELEASE):
 *
 *	struct seqring *r = seqring_bpf_ring_get("sched", sizeof("sched"));
 *
 *	if (!r)
 *		return 0;
 *	seqring_bpf_push(r, 3, delta, "wakeup", sizeof("wakeup"));
 *	seqring_bpf_ring_put(r);
 *
 * Why a handle (doc/design.md, "BPF programs"): the verifier then refuses a
 * push without a ring (NULL, a scalar, a pointer not checked for NULL, one
 * released already) and a program that forgets to release, so the push
 * itself never checks its ring; and a handle held across a destroy keeps
 * the ring's memory, so such a push is counted lost by the writer, never a
 * use after free. Looking the name up on every run costs a walk of a short
 * list under RCU and a per-CPU count on the ring, no lock, no atomic.
 *
 * Lifetime: a handle is a reference to the ring's bpf_ref, a percpu_ref
 * (bpf_rings.c has the list of rings by name and how a destroyed ring's
 * memory outlives the programs that hold it): an increment and a
 * decrement of this CPU's count (a program runs on one CPU, migration off,
 * from its get to its put), safe in an NMI. Programs that call these
 * kfuncs pin the module (the verifier holds a reference to the module of
 * every kfunc a loaded program calls), so rmmod waits for them to go.
 *
 * Which program types may call them depends on the kernel (README, "From a
 * BPF program"): it is the kernel's kfunc hooks that decide, so the set is
 * registered for the hooks this kernel has, and the load says once what
 * it got.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "seqring.h"

#ifdef SEQRING_HAVE_KFUNCS
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#endif

/*
 * Rings seqring_bpf_create() made, which its destroy and exit remove;
 * changed under seqring_bpf_lock (the exit alone needs none).
 */
static LIST_HEAD(seqring_bpf_made);

/*
 * Pushes that could not happen, never silent (debugfs seqring/bpf):
 * no ring of that name, a label longer than 15 bytes, and pushes the ring
 * refused (destroyed meanwhile, or lost by the writer).
 */
static atomic64_t seqring_bpf_no_ring = ATOMIC64_INIT(0);
static atomic64_t seqring_bpf_bad_label = ATOMIC64_INIT(0);
static atomic64_t seqring_bpf_refused = ATOMIC64_INIT(0);
/*
 * Pushes made from NMI (a perf_event program on a hardware PMU, a probe on
 * an NMI handler), stored or not: says that the case happened, which a
 * program cannot see itself.
 */
static atomic64_t seqring_bpf_in_nmi = ATOMIC64_INIT(0);

/* What the load found, for debugfs and its one message. */
static const char *seqring_bpf_state = "not registered";

/* A ring struct that holds a BPF-created ring on seqring_bpf_made. */
struct seqring_bpf_made {
	struct list_head node;
	struct seqring *sr;
};

static int seqring_bpf_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "kfuncs: %s\n", seqring_bpf_state);
	seq_printf(m, "no_ring: %lld\n", atomic64_read(&seqring_bpf_no_ring));
	seq_printf(m, "bad_label: %lld\n",
		   atomic64_read(&seqring_bpf_bad_label));
	seq_printf(m, "refused: %lld\n", atomic64_read(&seqring_bpf_refused));
	seq_printf(m, "in_nmi: %lld\n", atomic64_read(&seqring_bpf_in_nmi));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(seqring_bpf_stats);

#ifdef SEQRING_HAVE_KFUNCS

static DEFINE_MUTEX(seqring_bpf_lock);

/* A name or label of @sz bytes, up to a NUL, into @dst of @len bytes. */
static int seqring_bpf_str(char *dst, size_t len, const char *src, u32 sz)
{
	size_t n = src ? strnlen(src, min_t(size_t, sz, len)) : 0;

	if (n == len)
		return -EINVAL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/**
 * seqring_bpf_ring_get - a handle to the ring of that name
 * @name: the ring's name as seqring_create() got it, "" for /dev/seqring
 * @name__sz: bytes of @name, its NUL included or not
 *
 * Any context. The verifier makes the program check for NULL and give the
 * handle back with seqring_bpf_ring_put() before it returns.
 *
 * Return: the ring, or NULL (counted in no_ring) when there is none.
 */
__bpf_kfunc struct seqring *seqring_bpf_ring_get(const char *name,
						 u32 name__sz)
{
	size_t n = name ? strnlen(name, min_t(u32, name__sz, SEQRING_NAME_MAX + 1)) : 0;
	struct seqring *sr = NULL;

	if (n <= SEQRING_NAME_MAX)
		sr = seqring_bpf_find(name, n);
	if (!sr)
		atomic64_inc(&seqring_bpf_no_ring);
	return sr;
}

/**
 * seqring_bpf_ring_put - give back a handle from seqring_bpf_ring_get()
 * @sr: the handle
 *
 * Any context.
 */
__bpf_kfunc void seqring_bpf_ring_put(struct seqring *sr)
{
	percpu_ref_put(&sr->bpf_ref);
}

/**
 * seqring_bpf_push - push one reading into a ring
 * @sr: a handle from seqring_bpf_ring_get()
 * @channel: the reading's channel
 * @value: its value
 * @label: its label, up to a NUL or @label__sz bytes, at most 15
 * @label__sz: bytes of @label the verifier checks the program may read
 *
 * Any context a tracing program runs in. As seqring_push(): stamped,
 * numbered, visible when this returns.
 *
 * Return: 0; -EINVAL for a label longer than 15 bytes (counted in
 * bad_label); another negative errno when the ring refused it, destroyed
 * meanwhile or the reading lost (counted in refused).
 */
__bpf_kfunc int seqring_bpf_push(struct seqring *sr, u32 channel, s64 value,
				 const char *label, u32 label__sz)
{
	char l[SEQRING_LABEL_LEN];
	int ret;

	if (seqring_bpf_str(l, sizeof(l), label, label__sz)) {
		atomic64_inc(&seqring_bpf_bad_label);
		return -EINVAL;
	}
	/* Any context, NMI included (perf_event programs on a PMU). */
	if (in_nmi())
		atomic64_inc(&seqring_bpf_in_nmi);
	ret = seqring_push(sr, channel, value, l);
	if (ret)
		atomic64_inc(&seqring_bpf_refused);
	return ret;
}

/**
 * seqring_bpf_create - a ring of one's own, for a program to push into
 * @name: 1 to 15 of [a-z0-9_-], as seqring_create() takes
 * @name__sz: bytes of @name
 * @capacity: readings it holds
 *
 * Sleepable programs only (BPF_PROG_TYPE_SYSCALL, run by its loader):
 * process context. The ring stays until seqring_bpf_destroy() of its name
 * or the module's unload.
 *
 * Return: 0, or seqring_create()'s errno.
 */
__bpf_kfunc int seqring_bpf_create(const char *name, u32 name__sz,
				   u32 capacity)
{
	char n[SEQRING_NAME_MAX + 1];
	struct seqring_bpf_made *made;
	struct seqring *sr;

	if (seqring_bpf_str(n, sizeof(n), name, name__sz))
		return -EINVAL;
	made = kzalloc(sizeof(*made), SEQRING_GFP_USER);
	if (!made)
		return -ENOMEM;
	sr = seqring_create(n, capacity);
	if (IS_ERR(sr)) {
		kfree(made);
		return PTR_ERR(sr);
	}
	made->sr = sr;
	mutex_lock(&seqring_bpf_lock);
	list_add_tail(&made->node, &seqring_bpf_made);
	mutex_unlock(&seqring_bpf_lock);
	return 0;
}

/**
 * seqring_bpf_destroy - destroy a ring seqring_bpf_create() made
 * @name: its name
 * @name__sz: bytes of @name
 *
 * Sleepable programs only. Programs holding it get their pushes refused.
 *
 * Return: 0, or -ENOENT when no ring of that name was made by a program.
 */
__bpf_kfunc int seqring_bpf_destroy(const char *name, u32 name__sz)
{
	char n[SEQRING_NAME_MAX + 1];
	struct seqring_bpf_made *made, *found = NULL;

	if (seqring_bpf_str(n, sizeof(n), name, name__sz))
		return -ENOENT;
	mutex_lock(&seqring_bpf_lock);
	list_for_each_entry(made, &seqring_bpf_made, node) {
		if (!strcmp(made->sr->name, n)) {
			list_del(&made->node);
			found = made;
			break;
		}
	}
	mutex_unlock(&seqring_bpf_lock);
	if (!found)
		return -ENOENT;
	seqring_destroy(found->sr);
	kfree(found);
	return 0;
}

/*
 * This module reads its own set (seqring_bpf_unusable()) through
 * relocations that assume the fields' natural alignment: arm64's
 * LDST32_ABS_LO12_NC drops the low bits of the address. The kernel's
 * macros leave .BTF_ids aligned to a byte, and where the loader put it at
 * an odd address (arm64, 7.2), the set read as unresolved though
 * resolve_btfids had filled it. An alignment of 8 for the section, given
 * before its first entry so that no padding falls inside the set.
 */
asm(".pushsection .BTF_ids,\"a\"\n\t.balign 8\n\t.popsection");
BTF_KFUNCS_START(seqring_kfunc_ids)
BTF_ID_FLAGS(func, seqring_bpf_ring_get, KF_ACQUIRE | KF_RET_NULL)
BTF_ID_FLAGS(func, seqring_bpf_ring_put, KF_RELEASE)
BTF_ID_FLAGS(func, seqring_bpf_push, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, seqring_bpf_create, KF_SLEEPABLE)
BTF_ID_FLAGS(func, seqring_bpf_destroy, KF_SLEEPABLE)
BTF_KFUNCS_END(seqring_kfunc_ids)

static const struct btf_kfunc_id_set seqring_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &seqring_kfunc_ids,
};

/*
 * Why the module cannot offer its kfuncs, or NULL: no BTF of its own (no
 * dwarves, or no base BTF of the kernel at build time), or BTF whose IDs
 * resolve_btfids did not fill in (the kernel would take ID 0).
 */
static const char *seqring_bpf_unusable(void)
{
	u32 i;

#ifdef CONFIG_DEBUG_INFO_BTF_MODULES
	if (!THIS_MODULE->btf_data_size)
		return "the module was built without BTF (README, \"From a BPF program\")";
#else
	return "the kernel has no BTF for modules (CONFIG_DEBUG_INFO_BTF_MODULES)";
#endif
	if (!seqring_kfunc_ids.cnt)
		return "its kfunc IDs were not resolved at build time (no resolve_btfids)";
	for (i = 0; i < seqring_kfunc_ids.cnt; i++)
		if (!seqring_kfunc_ids.pairs[i].id)
			return "its kfunc IDs were not resolved at build time (no resolve_btfids)";
	return NULL;
}

/*
 * The kernel's kfunc hooks: kprobe programs have one of their own (6.10
 * on); tracing's covers fentry/fexit and tp_btf, and on newer kernels
 * tracepoint, perf_event (6.12) and raw tracepoint (7.x) programs too;
 * syscall programs have theirs. A hook the kernel lacks is -EINVAL, and
 * a failed registration drops every set of the module registered before
 * it, so kprobe's goes first. (A second registration for one hook warns,
 * so tracepoint and perf_event programs are never registered apart.)
 */
static int seqring_bpf_register(void)
{
	static char state[64];
	int kprobe, ret;

	seqring_bpf_state = seqring_bpf_unusable();
	if (seqring_bpf_state)
		return 0;
	kprobe = register_btf_kfunc_id_set(BPF_PROG_TYPE_KPROBE,
					   &seqring_kfunc_set);
	ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING,
					&seqring_kfunc_set);
	if (!ret)
		ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL,
						&seqring_kfunc_set);
	if (ret) {
		seqring_bpf_state = "registration failed";
		return ret;
	}
	snprintf(state, sizeof(state), "tracing syscall%s",
		 kprobe ? "" : " kprobe");
	seqring_bpf_state = state;
	return 0;
}

#else /* !SEQRING_HAVE_KFUNCS */

static int seqring_bpf_register(void)
{
	seqring_bpf_state = "this kernel has no kfuncs for modules (6.1 and later have)";
	return 0;
}

#endif /* SEQRING_HAVE_KFUNCS */

/**
 * seqring_bpf_init - offer the kfuncs to BPF programs
 *
 * First of the module's init: rings register with this part as they get
 * their files. Says once what programs can do. A kernel or a build without
 * what the kfuncs need is not an error: the module works without them.
 *
 * Return: 0 or -ENOMEM.
 */
int seqring_bpf_init(void)
{
	int ret;

	ret = seqring_bpf_rings_init();
	if (ret)
		return ret;
	ret = seqring_bpf_register();
	if (ret)
		pr_warn("BPF kfuncs not registered (%d): BPF programs cannot push\n",
			ret);
	else if (strncmp(seqring_bpf_state, "tracing", 7))
		pr_info("BPF programs cannot push: %s\n", seqring_bpf_state);
	else
		pr_info("BPF kfuncs for program types: %s\n", seqring_bpf_state);
	return 0;
}

/**
 * seqring_bpf_debugfs - the counters' file, debugfs seqring/bpf
 * @dir: the default ring's debugfs directory
 */
void seqring_bpf_debugfs(struct dentry *dir)
{
	debugfs_create_file("bpf", 0400, dir, NULL, &seqring_bpf_stats_fops);
}

/**
 * seqring_bpf_exit - destroy the rings programs made; free what is left
 *
 * At unload no program that calls the kfuncs is loaded (they pin the
 * module). Call after every other ring went off the list and before the
 * default ring's region (if any) goes: the list's last references to the
 * rings are dropped here.
 */
void seqring_bpf_exit(void)
{
	struct seqring_bpf_made *made, *tmp;

	list_for_each_entry_safe(made, tmp, &seqring_bpf_made, node) {
		list_del(&made->node);
		seqring_destroy(made->sr);
		kfree(made);
	}
	seqring_bpf_rings_exit();
}
