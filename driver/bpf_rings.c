// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the rings BPF programs find by name, and their handles' lives
 *
 * Every ring with files (but a frozen .prev) is on an RCU list here,
 * holding one reference to the ring and the initial one of its bpf_ref, a
 * percpu_ref: seqring_bpf_find() takes it with percpu_ref_tryget_live()
 * for a program's handle, which the program gives back with a put (bpf.c).
 * The destroy takes the ring off the list and kills bpf_ref, which from
 * then on refuses gets, sums the counts after a grace period (gets in
 * progress may still look at the ring) and, once the last program gave
 * the ring back, calls its release. That may run in a program's context,
 * an NMI even: it only queues an irq_work, which queues a work item, which
 * frees the percpu_ref and drops the list's reference to the ring.
 *
 * Apart from the kfuncs (bpf.c) so that the rings' registry (rings.c)
 * calls into this file and the kfuncs call into both, never back: the
 * list knows nothing of programs, the registry nothing of kfuncs.
 */

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/rculist.h>
#include <linux/string.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "seqring.h"

/* The rings programs can find, by name; changed under its lock. */
static LIST_HEAD(seqring_bpf_rings);
static DEFINE_MUTEX(seqring_bpf_rings_lock);

/*
 * Drops the list's reference of rings no program holds any more; pending
 * counts the drops queued and not done, which the unload waits for.
 */
static struct workqueue_struct *seqring_bpf_wq;
static atomic_t seqring_bpf_pending = ATOMIC_INIT(0);

static void seqring_bpf_put_work(struct work_struct *work)
{
	struct seqring *sr = container_of(work, struct seqring, bpf_put_work);

	/* The irq_work that queued this may still be finishing. */
	irq_work_sync(&sr->bpf_irq_work);
	percpu_ref_exit(&sr->bpf_ref);
	seqring_put(sr);
	if (atomic_dec_and_test(&seqring_bpf_pending))
		wake_up_var(&seqring_bpf_pending);
}

static void seqring_bpf_put_irq_work(struct irq_work *work)
{
	struct seqring *sr = container_of(work, struct seqring, bpf_irq_work);

	queue_work(seqring_bpf_wq, &sr->bpf_put_work);
}

/* No program holds the ring any more, and it is off the list: any context. */
static void seqring_bpf_release(struct percpu_ref *ref)
{
	struct seqring *sr = container_of(ref, struct seqring, bpf_ref);

	atomic_inc(&seqring_bpf_pending);
	irq_work_queue(&sr->bpf_irq_work);
}

/**
 * seqring_bpf_prepare - what a ring needs before seqring_bpf_add()
 * @sr: a ring about to get its files
 *
 * Process context. A ring prepared and not added is undone with
 * seqring_bpf_unprepare(); one added, by seqring_bpf_del() and its last
 * program's put.
 *
 * Return: 0 or -ENOMEM (charged to the caller's memory cgroup).
 */
int seqring_bpf_prepare(struct seqring *sr)
{
	init_irq_work(&sr->bpf_irq_work, seqring_bpf_put_irq_work);
	INIT_WORK(&sr->bpf_put_work, seqring_bpf_put_work);
	INIT_LIST_HEAD(&sr->bpf_node);
	if (sr->ring.frozen)
		return 0;
	return percpu_ref_init(&sr->bpf_ref, seqring_bpf_release, 0,
			       GFP_KERNEL_ACCOUNT);
}

/**
 * seqring_bpf_unprepare - undo seqring_bpf_prepare() of a ring not added
 * @sr: the ring
 */
void seqring_bpf_unprepare(struct seqring *sr)
{
	if (!sr->ring.frozen)
		percpu_ref_exit(&sr->bpf_ref);
}

/**
 * seqring_bpf_add - let BPF programs find a ring by its name
 * @sr: a prepared ring that just got its files
 *
 * The default ring goes by the empty name; the previous boot's (frozen)
 * ring is not offered: nobody pushes there.
 */
void seqring_bpf_add(struct seqring *sr)
{
	if (sr->ring.frozen)
		return;
	kref_get(&sr->ref);
	mutex_lock(&seqring_bpf_rings_lock);
	list_add_tail_rcu(&sr->bpf_node, &seqring_bpf_rings);
	mutex_unlock(&seqring_bpf_rings_lock);
}

/**
 * seqring_bpf_del - programs find the ring no more
 * @sr: a ring given to seqring_bpf_add()
 *
 * Never waits: programs that hold the ring keep its memory, and their
 * pushes are refused (counted) once the ring is killed.
 */
void seqring_bpf_del(struct seqring *sr)
{
	bool listed;

	mutex_lock(&seqring_bpf_rings_lock);
	listed = !list_empty(&sr->bpf_node);
	if (listed)
		list_del_rcu(&sr->bpf_node);
	mutex_unlock(&seqring_bpf_rings_lock);
	/* Gets fail from now on; the last put after a grace period releases. */
	if (listed)
		percpu_ref_kill(&sr->bpf_ref);
}

#ifdef SEQRING_HAVE_KFUNCS
/**
 * seqring_bpf_find - a handle to the ring named @name, for a program
 * @name: the name, not NUL-terminated
 * @n: its length, at most %SEQRING_NAME_MAX
 *
 * Any context, NMI included: a walk of a short list under RCU and a
 * per-CPU increment. The caller gives the handle back with
 * percpu_ref_put(&sr->bpf_ref).
 *
 * Return: the ring, or NULL when no live ring has that name.
 */
struct seqring *seqring_bpf_find(const char *name, size_t n)
{
	struct seqring *sr, *found = NULL;

	/* Compared where it is: a copy of it cost as much as the walk. */
	rcu_read_lock();
	list_for_each_entry_rcu(sr, &seqring_bpf_rings, bpf_node) {
		if (!sr->name[n] && !memcmp(sr->name, name, n)) {
			if (percpu_ref_tryget_live_rcu(&sr->bpf_ref))
				found = sr;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
#endif

/**
 * seqring_bpf_rings_init - the work queue that drops the list's references
 *
 * Return: 0 or -ENOMEM.
 */
int seqring_bpf_rings_init(void)
{
	/* Unbound: it only drops references (7.x warns without a kind). */
	seqring_bpf_wq = alloc_workqueue("seqring_bpf", WQ_UNBOUND, 0);
	return seqring_bpf_wq ? 0 : -ENOMEM;
}

/**
 * seqring_bpf_rings_exit - wait for the last drops, free the work queue
 *
 * After every ring went off the list.
 */
void seqring_bpf_rings_exit(void)
{
	/* The kills' switches after a grace period, then the drops queued. */
	rcu_barrier();
	wait_var_event(&seqring_bpf_pending, !atomic_read(&seqring_bpf_pending));
	destroy_workqueue(seqring_bpf_wq);
}
