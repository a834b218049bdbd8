// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_nmi - pushes from NMI against every section of seqring's writer
 *
 * The VM tests (tests/check/65-nmi.sh, tests/debugvm/65-nmi.sh) control it
 * through /sys/kernel/debug/seqring_nmi/control, one command a write()
 * (tests/progs/ctl prints the errno a command got):
 *
 *   create NAME CAPACITY   the ring, seqring_create(); one at a time
 *   destroy                stop everything below, seqring_destroy()
 *   storm MS               for MS milliseconds: on every CPU a kthread
 *                          (process context) and an hrtimer (hard
 *                          interrupt) push, while a kthread sends NMIs to
 *                          every CPU, each of which pushes from the NMI
 *                          handler; returns when all have stopped
 *   hook POINTS            from now on, at each step of the writer named
 *                          in POINTS (a comma-separated list of reserved,
 *                          storing, stored, walk, migrate, clear, or all)
 *                          of a push, walk, resize copy or CLEAR of the
 *                          ring, outside NMI: raise an NMI on this CPU and
 *                          wait for it (at most HOOK_WAIT_US); it pushes
 *                          one reading into the same ring. At the resched
 *                          point of a resize's copy, also push
 *                          HOOK_RESIZE_PUSHES readings from process
 *                          context, so that the copy after the swap has
 *                          readings to copy
 *   unhook                 stop that
 *
 * Every reading pushed says who pushed it: channel, label, and a value
 * that counts that producer's stored readings from 1, so a consumer can
 * check that each one is there once, intact and in order:
 *
 *   storm, process context   channel CH_TASK + cpu, label "task"
 *   storm, hard interrupt    channel CH_IRQ + cpu, label "irq"
 *   storm, NMI               channel CH_NMI + cpu, label "nmi"
 *   hook, NMI at point P     channel CH_HOOK + 100 * P + cpu, label
 *                            "hook-nmi"
 *   hook, resize's copy      channel CH_RESIZE, label "resize"
 *
 * /sys/kernel/debug/seqring_nmi/status has a line per producer: its
 * channel, readings stored, pushes that failed by errno (ENOBUFS:
 * counted lost by the ring), and for NMIs those sent and handled; and a
 * line per hook point: NMIs raised there, those that landed (the handler
 * ran while the writer stood there: in_nmi(), same CPU), and waits that
 * timed out. A test compares them with the ring's counters and readings.
 *
 * x86 only: NMIs are sent through the local APIC (apic->send_IPI(),
 * NMI_VECTOR) and handled by an NMI_LOCAL handler (register_nmi_handler()),
 * both GPL-exported. Elsewhere every command fails with -EOPNOTSUPP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seqring.h>
#include <linux/string.h>

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "seqring.h"
#include "kmod_compat.h"
#include "kmod_ctl.h"

#define NMI_CMD_MAX		128
/* What separates the words of a command (echo adds a newline). */
#define NMI_SEP			" \t\n"
#define CH_TASK			1000
#define CH_IRQ			2000
#define CH_NMI			3000
#define CH_HOOK			4000
#define CH_RESIZE		5000
#define HOOK_WAIT_US		1000
#define HOOK_RESIZE_PUSHES	2
/* How often the storm's sender raises NMIs, and its timers fire. */
#define STORM_NMI_US		50
#define STORM_IRQ_US		100
/* Pushes a storm's kthread makes at most: a ring of 1M holds them all. */
#define STORM_TASK_MAX		200000

static const char * const hook_names[] = {
	[SEQRING_HOOK_RESERVED]	= "reserved",
	[SEQRING_HOOK_STORING]	= "storing",
	[SEQRING_HOOK_STORED]	= "stored",
	[SEQRING_HOOK_WALK]	= "walk",
	[SEQRING_HOOK_CHUNK]	= NULL,
	[SEQRING_HOOK_RESCHED]	= NULL,
	[SEQRING_HOOK_MIGRATE]	= "migrate",
	[SEQRING_HOOK_CLEAR]	= "clear",
};

#define NR_POINTS	ARRAY_SIZE(hook_names)

/*
 * One producer's counts. Written only by the producer (one context on one
 * CPU), read by the status file meanwhile: READ_ONCE()/WRITE_ONCE().
 */
struct nmi_count {
	u64 stored;
	u64 enobufs;
	u64 other;
	int last_err;
};

/* Per CPU: the storm's producers, and what an NMI is expected to do. */
struct nmi_cpu {
	struct nmi_count proc;
	struct nmi_count irq;
	struct nmi_count nmi;
	struct nmi_count hook[SEQRING_HOOK_CLEAR + 1];
	u64 nmi_sent;
	u64 nmi_handled;
	/* Set by the hook before it raises an NMI: the point it stands at. */
	int hook_point;
	/* Set by the NMI handler once it pushed for the hook. */
	bool hook_done;
	struct task_struct *task;
	struct hrtimer timer;
};

static DEFINE_PER_CPU(struct nmi_cpu, nmi_cpu);

/* Serializes the commands. */
static DEFINE_MUTEX(nmi_lock);
static struct seqring *nmi_ring;
/* What the hook's NMI and the NMI handler push into; NULL when idle. */
static struct seqring_ring *hook_ring;
static unsigned long hook_points;
static bool storm_on;
static struct task_struct *storm_sender;
static struct dentry *nmi_dir;

/* Per hook point, whatever the CPU (the pushes are counted per CPU). */
static struct {
	atomic64_t raised;
	atomic64_t landed;
	atomic64_t timeouts;
} hook_count[NR_POINTS];
static struct nmi_count resize_count;

/* Push for a producer and count what happened. */
static void nmi_push(struct nmi_count *c, u32 channel, const char *label)
{
	int err = seqring_push(nmi_ring, channel, c->stored + 1, label);

	if (!err)
		WRITE_ONCE(c->stored, c->stored + 1);
	else if (err == -ENOBUFS)
		WRITE_ONCE(c->enobufs, c->enobufs + 1);
	else
		WRITE_ONCE(c->other, c->other + 1);
	if (err)
		WRITE_ONCE(c->last_err, err);
}

#ifdef CONFIG_X86
/*
 * Every NMI this module sends lands here, on the CPU it was sent to; it
 * claims only those (nmi_sent counts them; NMIs that arrive while one is
 * pending merge into it, so one run may take several).
 */
static int nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct nmi_cpu *c = this_cpu_ptr(&nmi_cpu);
	unsigned int cpu = smp_processor_id();
	int point = READ_ONCE(c->hook_point);

	if (READ_ONCE(c->nmi_handled) == READ_ONCE(c->nmi_sent))
		return NMI_DONE;
	WRITE_ONCE(c->nmi_handled, READ_ONCE(c->nmi_sent));
	if (point >= 0) {
		/*
		 * The writer stands at @point on this CPU, interrupted: push
		 * into the same ring, then let the hook go on.
		 */
		atomic64_inc(&hook_count[point].landed);
		nmi_push(&c->hook[point], CH_HOOK + 100 * point + cpu,
			 "hook-nmi");
		WRITE_ONCE(c->hook_point, -1);
		/* The push before: pairs with the acquire in nmi_hook(). */
		smp_store_release(&c->hook_done, true);
		return NMI_HANDLED;
	}
	if (READ_ONCE(storm_on))
		nmi_push(&c->nmi, CH_NMI + cpu, "nmi");
	return NMI_HANDLED;
}

static void nmi_send(unsigned int cpu)
{
	struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

	WRITE_ONCE(c->nmi_sent, c->nmi_sent + 1);
	/* The count before the NMI, which the handler compares with it. */
	smp_wmb();
	apic->send_IPI(cpu, NMI_VECTOR);
}

static int nmi_arch_init(void)
{
	return register_nmi_handler(NMI_LOCAL, nmi_handler, 0, KBUILD_MODNAME);
}

static void nmi_arch_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}
#else
static void nmi_send(unsigned int cpu)
{
}

static int nmi_arch_init(void)
{
	return 0;
}

static void nmi_arch_exit(void)
{
}
#endif

/*
 * The writer stands at @point of a push, walk, resize copy or CLEAR of
 * @ring. Interrupts may be off (the sections), or on (CHUNK, RESCHED).
 */
static void nmi_hook(struct seqring_ring *ring, enum seqring_hook point)
{
	struct nmi_cpu *c;
	unsigned long flags;
	unsigned int i;

	if (ring != READ_ONCE(hook_ring) || in_nmi())
		return;
	if (point == SEQRING_HOOK_RESCHED) {
		/* Process context, between two chunks of a copy or a batch. */
		if (mutex_is_locked(&ring->resize_lock))
			for (i = 0; i < HOOK_RESIZE_PUSHES; i++)
				nmi_push(&resize_count, CH_RESIZE, "resize");
		return;
	}
	if (point >= NR_POINTS || !hook_names[point] ||
	    !test_bit(point, &hook_points))
		return;
	/* One NMI at a time on this CPU: the hook may run nested in a hook. */
	local_irq_save(flags);
	c = this_cpu_ptr(&nmi_cpu);
	if (READ_ONCE(c->hook_point) < 0) {
		WRITE_ONCE(c->hook_done, false);
		WRITE_ONCE(c->hook_point, point);
		atomic64_inc(&hook_count[point].raised);
		nmi_send(smp_processor_id());
		for (i = 0; i < HOOK_WAIT_US; i++) {
			/* Pairs with the release in nmi_handler(). */
			if (smp_load_acquire(&c->hook_done))
				break;
			udelay(1);
		}
		if (i == HOOK_WAIT_US) {
			atomic64_inc(&hook_count[point].timeouts);
			WRITE_ONCE(c->hook_point, -1);
		}
	}
	local_irq_restore(flags);
}

static int storm_task(void *data)
{
	struct nmi_cpu *c = data;
	unsigned int cpu = smp_processor_id(), n = 0;

	while (!kthread_should_stop()) {
		if (n < STORM_TASK_MAX)
			nmi_push(&c->proc, CH_TASK + cpu, "task");
		if (!(++n % 64))
			cond_resched();
		if (n >= STORM_TASK_MAX)
			usleep_range(1000, 2000);
	}
	return 0;
}

static enum hrtimer_restart storm_timer(struct hrtimer *t)
{
	struct nmi_cpu *c = container_of(t, struct nmi_cpu, timer);

	if (!READ_ONCE(storm_on))
		return HRTIMER_NORESTART;
	nmi_push(&c->irq, CH_IRQ + smp_processor_id(), "irq");
	hrtimer_forward_now(t, ns_to_ktime(STORM_IRQ_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void storm_timer_start(void *unused)
{
	struct nmi_cpu *c = this_cpu_ptr(&nmi_cpu);

	hrtimer_start(&c->timer, ns_to_ktime(STORM_IRQ_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int storm_send(void *unused)
{
	unsigned int cpu;

	while (!kthread_should_stop()) {
		for_each_online_cpu(cpu)
			nmi_send(cpu);
		usleep_range(STORM_NMI_US, 2 * STORM_NMI_US);
	}
	return 0;
}

static void storm_stop(void)
{
	unsigned int cpu;

	if (storm_sender)
		kthread_stop(storm_sender);
	storm_sender = NULL;
	for_each_possible_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		if (c->task)
			kthread_stop(c->task);
		c->task = NULL;
	}
	WRITE_ONCE(storm_on, false);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&nmi_cpu, cpu)->timer);
}

static int storm(unsigned int ms)
{
	struct task_struct *task;
	unsigned int cpu;
	int err = 0;

	WRITE_ONCE(storm_on, true);
	for_each_online_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		task = kthread_create_on_cpu(storm_task, c, cpu, "seqring_nmi/%u");
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			goto out;
		}
		c->task = task;
		wake_up_process(task);
	}
	on_each_cpu(storm_timer_start, NULL, 1);
	task = kthread_run(storm_send, NULL, "seqring_nmi_send");
	if (IS_ERR(task)) {
		err = PTR_ERR(task);
		goto out;
	}
	storm_sender = task;
	msleep_interruptible(ms);
out:
	storm_stop();
	return err;
}

static int hook_parse(char *list, unsigned long *points)
{
	char *p;
	unsigned int i;

	*points = 0;
	while ((p = strsep(&list, ",")) != NULL) {
		if (!strcmp(p, "all")) {
			for (i = 0; i < NR_POINTS; i++)
				if (hook_names[i])
					*points |= BIT(i);
			continue;
		}
		for (i = 0; i < NR_POINTS; i++)
			if (hook_names[i] && !strcmp(p, hook_names[i]))
				break;
		if (i == NR_POINTS)
			return -EINVAL;
		*points |= BIT(i);
	}
	return 0;
}

static void hook_stop(void)
{
	WRITE_ONCE(hook_ring, NULL);
	seqring_test_hook_set(NULL);
}

static void nmi_reset(void)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		memset(&c->proc, 0, sizeof(c->proc));
		memset(&c->irq, 0, sizeof(c->irq));
		memset(&c->nmi, 0, sizeof(c->nmi));
		memset(c->hook, 0, sizeof(c->hook));
		c->hook_point = -1;
	}
	for (i = 0; i < NR_POINTS; i++) {
		atomic64_set(&hook_count[i].raised, 0);
		atomic64_set(&hook_count[i].landed, 0);
		atomic64_set(&hook_count[i].timeouts, 0);
	}
	memset(&resize_count, 0, sizeof(resize_count));
}

static int nmi_run(char *cmd)
{
	char *verb = strsep(&cmd, NMI_SEP);
	char *arg1 = strsep(&cmd, NMI_SEP);
	char *arg2 = strsep(&cmd, NMI_SEP);
	unsigned long points;
	unsigned int n;
	int err;

	if (!IS_ENABLED(CONFIG_X86))
		return -EOPNOTSUPP;
	if (!verb)
		return -EINVAL;
	if (!strcmp(verb, "create")) {
		if (nmi_ring)
			return -EBUSY;
		if (!arg1 || !arg2 || kstrtouint(arg2, 0, &n))
			return -EINVAL;
		nmi_reset();
		nmi_ring = seqring_create(arg1, n);
		if (IS_ERR(nmi_ring)) {
			err = PTR_ERR(nmi_ring);
			nmi_ring = NULL;
			return err;
		}
		return 0;
	}
	if (!nmi_ring)
		return -ENOENT;
	if (!strcmp(verb, "destroy")) {
		hook_stop();
		seqring_destroy(nmi_ring);
		nmi_ring = NULL;
		return 0;
	}
	if (!strcmp(verb, "storm")) {
		if (!arg1 || kstrtouint(arg1, 0, &n))
			return -EINVAL;
		return storm(n);
	}
	if (!strcmp(verb, "hook")) {
		if (!arg1 || hook_parse(arg1, &points))
			return -EINVAL;
		hook_points = points;
		/* The struct seqring's own ring: driver/seqring.h. */
		WRITE_ONCE(hook_ring, &nmi_ring->ring);
		seqring_test_hook_set(nmi_hook);
		return 0;
	}
	if (!strcmp(verb, "unhook")) {
		hook_stop();
		return 0;
	}
	return -EINVAL;
}

DEFINE_KMOD_CTL(nmi_control, NMI_CMD_MAX, &nmi_lock, nmi_run);

static void status_count(struct seq_file *m, const char *who, u32 channel,
			 const struct nmi_count *c)
{
	seq_printf(m, "%s %u stored %llu enobufs %llu other %llu last_err %d\n",
		   who, channel, READ_ONCE(c->stored), READ_ONCE(c->enobufs),
		   READ_ONCE(c->other), READ_ONCE(c->last_err));
}

static int nmi_status_show(struct seq_file *m, void *unused)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		status_count(m, "task", CH_TASK + cpu, &c->proc);
		status_count(m, "irq", CH_IRQ + cpu, &c->irq);
		status_count(m, "nmi", CH_NMI + cpu, &c->nmi);
		seq_printf(m, "nmi-cpu %u sent %llu handled %llu\n", cpu,
			   READ_ONCE(c->nmi_sent), READ_ONCE(c->nmi_handled));
		for (i = 0; i < NR_POINTS; i++)
			if (hook_names[i])
				status_count(m, "hook", CH_HOOK + 100 * i + cpu,
					     &c->hook[i]);
	}
	for (i = 0; i < NR_POINTS; i++) {
		if (!hook_names[i])
			continue;
		seq_printf(m, "point %s raised %lld landed %lld timeouts %lld\n",
			   hook_names[i],
			   (s64)atomic64_read(&hook_count[i].raised),
			   (s64)atomic64_read(&hook_count[i].landed),
			   (s64)atomic64_read(&hook_count[i].timeouts));
	}
	status_count(m, "resize", CH_RESIZE, &resize_count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nmi_status);

static int __init seqring_nmi_init(void)
{
	unsigned int cpu;
	int err;

	for_each_possible_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		c->hook_point = -1;
		hrtimer_setup(&c->timer, storm_timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	err = nmi_arch_init();
	if (err)
		return err;
	nmi_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("control", 0200, nmi_dir, NULL, &nmi_control_fops);
	debugfs_create_file("status", 0444, nmi_dir, NULL, &nmi_status_fops);
	return 0;
}
module_init(seqring_nmi_init);

static void __exit seqring_nmi_exit(void)
{
	debugfs_remove(nmi_dir);
	mutex_lock(&nmi_lock);
	storm_stop();
	hook_stop();
	if (nmi_ring)
		seqring_destroy(nmi_ring);
	nmi_ring = NULL;
	mutex_unlock(&nmi_lock);
	nmi_arch_exit();
}
module_exit(seqring_nmi_exit);

MODULE_DESCRIPTION("Test module: seqring pushes from NMI, in every section of the writer");
MODULE_LICENSE("GPL");
