// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_producer - a test module that drives the kernel API of seqring
 * (include/linux/seqring.h) from every context it supports
 *
 * The VM tests (tests/check/93-kapi-*.sh, tests/debugvm/60-kapi.sh)
 * control it through debugfs, one command a write() to
 * /sys/kernel/debug/seqring_producer/control; the write fails with the
 * command's error, so a shell sees the errno (tests/bin/ctl prints it):
 *
 *   create NAME CAPACITY    seqring_create(); NAME "" (two quotes) is the
 *                           empty name. Up to PRODUCER_RINGS rings at once.
 *   destroy NAME            stop the ring's producers, seqring_destroy()
 *   start NAME CTX COUNT [LABEL]
 *                           start the producer of context CTX (process,
 *                           softirq or hardirq) on the ring: COUNT pushes,
 *                           BURST (module parameter) at a time every
 *                           PERIOD_US, each with channel 1, 2 or 3 (for
 *                           process, softirq, hardirq), value 1..COUNT and
 *                           label LABEL (default: CTX; "-": NULL, no label)
 *   stop NAME               stop the ring's producers where they are
 *   wait NAME               wait until the ring's producers have pushed
 *                           their COUNT (-ETIMEDOUT after WAIT_MS)
 *   push NAME COUNT [LABEL] COUNT pushes in the writer's own context,
 *                           channel 0, values 1..COUNT, label LABEL
 *                           (default NULL); fails with the first error
 *   cycle NAME CAPACITY N   N times seqring_create() and seqring_destroy()
 *   race NAME CAPACITY N    the same on two CPUs at once, the name shared:
 *                           a kthread on the other CPU and the writer each
 *                           make N cycles, a create that finds the name
 *                           taken (-EEXIST) trying again at once. Every
 *                           ring created must have its debugfs directory;
 *                           fails with the first other error, or -ENOENT
 *                           for a ring without its directory. The counts
 *                           go to the kernel log ("race NAME: ..."). A
 *                           destroy's removal of its debugfs directory
 *                           is made RACE_DELAY_MS slower meanwhile (a
 *                           kprobe on the driver's seqring_debugfs_exit()),
 *                           so that a create that comes between a ring's
 *                           leaving the list and its files' going (a
 *                           window of a few instructions otherwise) does
 *                           come there
 *   suspend NAME            from now on, push one reading into the ring
 *                           (channel 4, value 1, 2, ..., label "suspend")
 *                           each time timekeeping_suspend() returns: while
 *                           timekeeping is suspended (syscore suspend, or
 *                           the last CPU entering s2idle); one ring at a
 *                           time, -EBUSY for a second
 *   unsuspend NAME          stop that
 *
 * The contexts: a kthread (process context, sleeping PERIOD_US between
 * bursts), an hrtimer in HRTIMER_MODE_REL_SOFT (softirq) and one in
 * HRTIMER_MODE_REL_HARD (hard interrupt, also on PREEMPT_RT). Every push
 * checks that it runs in the context it is named for.
 *
 * /sys/kernel/debug/seqring_producer/status has a line per producer that
 * was started: ring, context, channel, COUNT, readings pushed, pushes that
 * failed, the last error, pushes made in the wrong context, and whether it
 * is running, finished (pushed COUNT, not yet reaped by wait), done (pushed
 * COUNT) or stopped (before that). The counts are exact once it is done or
 * stopped: a test compares them with the ring's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seqring.h>
#include <linux/string.h>

#include "kmod_compat.h"
#include "kmod_ctl.h"

#define PRODUCER_RINGS		8
#define PRODUCER_CMD_MAX	256
/* Longer than SEQRING_LABEL_LEN, so that a test can pass one too long. */
#define PRODUCER_LABEL_MAX	32

static unsigned int burst = 8;
module_param(burst, uint, 0644);
MODULE_PARM_DESC(burst, "pushes a producer makes each time it runs (default 8)");

static unsigned int period_us = 200;
module_param(period_us, uint, 0644);
MODULE_PARM_DESC(period_us, "microseconds between a producer's bursts (default 200)");

static unsigned int wait_ms = 60000;
module_param(wait_ms, uint, 0644);
MODULE_PARM_DESC(wait_ms, "longest wait of the wait command (default 60000)");

enum producer_ctx {
	CTX_PROCESS,
	CTX_SOFTIRQ,
	CTX_HARDIRQ,
	CTX_NR,
};

static const char * const ctx_names[CTX_NR] = {
	[CTX_PROCESS] = "process",
	[CTX_SOFTIRQ] = "softirq",
	[CTX_HARDIRQ] = "hardirq",
};

enum producer_state {
	PRODUCER_IDLE,		/* never started on this ring */
	PRODUCER_RUNNING,
	PRODUCER_DONE,		/* pushed its COUNT */
	PRODUCER_STOPPED,	/* stopped before that */
};

static const char * const state_names[] = {
	[PRODUCER_IDLE] = "idle",
	[PRODUCER_RUNNING] = "running",
	[PRODUCER_DONE] = "done",
	[PRODUCER_STOPPED] = "stopped",
};

/*
 * One producer. Only the producer itself writes its counters and
 * @finished while it runs; the status file reads them meanwhile, hence
 * READ_ONCE()/WRITE_ONCE(). Everything else changes under producer_lock
 * while it does not run.
 */
struct producer {
	struct seqring *ring;
	enum producer_ctx ctx;
	u64 count;
	u64 pushed;
	u64 failed;
	u64 wrong_ctx;
	int last_err;
	bool finished;
	bool stopping;
	enum producer_state state;
	const char *label;	/* NULL or @label_buf */
	char label_buf[PRODUCER_LABEL_MAX + 1];
	struct task_struct *task;
	struct hrtimer timer;
};

struct producer_ring {
	char name[SEQRING_NAME_MAX + 1];
	struct seqring *ring;
	struct producer prod[CTX_NR];
};

/* Serializes the commands; protects the table and the producers' setup. */
static DEFINE_MUTEX(producer_lock);
static struct producer_ring rings[PRODUCER_RINGS];
static struct dentry *producer_dir;

#define SUSPEND_CHANNEL		4

/*
 * A push while timekeeping is suspended, the one context the kernel API
 * promises that no other producer here reaches. A syscore_ops suspend
 * callback of this module would not do: syscore_suspend() runs them in the
 * reverse order of registration, so a module's runs before timekeeping's,
 * while the clock still works. Hence a probe on the return of
 * timekeeping_suspend() (after it set timekeeping_suspended), which
 * syscore suspend and tick_freeze() (the last CPU entering s2idle) call.
 * @ring changes only under producer_lock while the probe is unregistered;
 * the counters are written by the handler alone, which never runs twice
 * at once (the callers hold a lock or run on the last CPU).
 */
static struct {
	struct kretprobe krp;
	struct producer_ring *r;	/* armed on, NULL if not */
	u64 hits;
	u64 failed;
	int last_err;
	u64 irqs_on;
} susp;

static bool in_ctx(enum producer_ctx ctx)
{
	switch (ctx) {
	case CTX_PROCESS:
		return in_task();
	case CTX_SOFTIRQ:
		return in_serving_softirq() && !hardirq_count();
	case CTX_HARDIRQ:
		return hardirq_count() && irqs_disabled();
	default:
		return false;
	}
}

/* Up to @burst pushes; true when the producer has made its COUNT. */
static bool producer_burst(struct producer *p)
{
	u64 done = p->pushed + p->failed;
	unsigned int i;
	int err;

	if (!in_ctx(p->ctx))
		WRITE_ONCE(p->wrong_ctx, p->wrong_ctx + 1);
	for (i = 0; i < burst && done < p->count; i++) {
		err = seqring_push(p->ring, p->ctx + 1, ++done, p->label);
		if (err) {
			WRITE_ONCE(p->failed, p->failed + 1);
			WRITE_ONCE(p->last_err, err);
		} else {
			WRITE_ONCE(p->pushed, p->pushed + 1);
		}
	}
	if (done < p->count && !READ_ONCE(p->stopping))
		return false;
	/* Pairs with the acquire in producer_finished(). */
	smp_store_release(&p->finished, true);
	return true;
}

static bool producer_finished(const struct producer *p)
{
	/* Pairs with the release in producer_burst(): the counts are final. */
	return smp_load_acquire(&p->finished);
}

static int producer_thread(void *data)
{
	struct producer *p = data;

	while (!kthread_should_stop() && !producer_burst(p))
		usleep_range(period_us, period_us + period_us / 2 + 1);
	/* kthread_stop() reaps the thread: wait for it. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static enum hrtimer_restart producer_timer(struct hrtimer *t)
{
	struct producer *p = container_of(t, struct producer, timer);

	if (producer_burst(p))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Stop a producer and wait until it no longer runs. */
static void producer_stop(struct producer *p)
{
	if (p->state != PRODUCER_RUNNING)
		return;
	WRITE_ONCE(p->stopping, true);
	if (p->ctx == CTX_PROCESS)
		kthread_stop(p->task);
	else
		hrtimer_cancel(&p->timer);
	p->task = NULL;
	p->state = producer_finished(p) && p->pushed + p->failed == p->count ?
		   PRODUCER_DONE : PRODUCER_STOPPED;
}

static int producer_start(struct producer_ring *r, enum producer_ctx ctx,
			  u64 count, const char *label)
{
	struct producer *p = &r->prod[ctx];
	struct task_struct *task;

	producer_stop(p);
	p->ring = r->ring;
	p->ctx = ctx;
	p->count = count;
	p->pushed = 0;
	p->failed = 0;
	p->wrong_ctx = 0;
	p->last_err = 0;
	p->finished = false;
	p->stopping = false;
	if (!label) {
		strscpy(p->label_buf, ctx_names[ctx], sizeof(p->label_buf));
		p->label = p->label_buf;
	} else if (!strcmp(label, "-")) {
		p->label = NULL;
	} else {
		if (strscpy(p->label_buf, label, sizeof(p->label_buf)) < 0)
			return -E2BIG;
		p->label = p->label_buf;
	}

	if (ctx == CTX_PROCESS) {
		task = kthread_run(producer_thread, p, "seqring_prod/%s", r->name);
		if (IS_ERR(task))
			return PTR_ERR(task);
		p->task = task;
	} else {
		hrtimer_setup(&p->timer, producer_timer, CLOCK_MONOTONIC,
			      ctx == CTX_HARDIRQ ? HRTIMER_MODE_REL_HARD :
						   HRTIMER_MODE_REL_SOFT);
		hrtimer_start(&p->timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
			      ctx == CTX_HARDIRQ ? HRTIMER_MODE_REL_HARD :
						   HRTIMER_MODE_REL_SOFT);
	}
	p->state = PRODUCER_RUNNING;
	return 0;
}

static struct producer_ring *ring_find(const char *name)
{
	int i;

	for (i = 0; i < PRODUCER_RINGS; i++)
		if (rings[i].ring && !strcmp(rings[i].name, name))
			return &rings[i];
	return NULL;
}

static void ring_stop(struct producer_ring *r)
{
	int c;

	for (c = 0; c < CTX_NR; c++)
		producer_stop(&r->prod[c]);
}

static int suspend_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 hits = susp.hits + 1;
	int err;

	WRITE_ONCE(susp.hits, hits);
	if (!irqs_disabled())
		WRITE_ONCE(susp.irqs_on, susp.irqs_on + 1);
	err = seqring_push(susp.r->ring, SUSPEND_CHANNEL, hits, "suspend");
	if (err) {
		WRITE_ONCE(susp.failed, susp.failed + 1);
		WRITE_ONCE(susp.last_err, err);
	}
	return 0;
}

static int suspend_arm(struct producer_ring *r)
{
	int err;

	if (susp.r)
		return -EBUSY;
	memset(&susp, 0, sizeof(susp));
	susp.krp.kp.symbol_name = "timekeeping_suspend";
	susp.krp.handler = suspend_ret;
	susp.krp.maxactive = 2;
	susp.r = r;
	err = register_kretprobe(&susp.krp);
	if (err)
		susp.r = NULL;
	return err;
}

static int suspend_disarm(struct producer_ring *r)
{
	if (!susp.r || susp.r != r)
		return -ENOENT;
	/* Waits for a handler that runs. */
	unregister_kretprobe(&susp.krp);
	susp.r = NULL;
	return 0;
}

static void ring_destroy(struct producer_ring *r)
{
	int c;

	ring_stop(r);
	suspend_disarm(r);
	seqring_destroy(r->ring);
	r->ring = NULL;
	for (c = 0; c < CTX_NR; c++) {
		r->prod[c].ring = NULL;
		r->prod[c].state = PRODUCER_IDLE;
	}
}

static int cmd_create(const char *name, const char *capacity)
{
	struct producer_ring *r = NULL;
	struct seqring *ring;
	u32 cap;
	int i;

	if (kstrtou32(capacity, 0, &cap))
		return -ERANGE;
	for (i = 0; i < PRODUCER_RINGS && !r; i++)
		if (!rings[i].ring)
			r = &rings[i];
	if (!r)
		return -ENOSPC;
	/* Names are checked by seqring_create() alone: that is the test. */
	ring = seqring_create(name, cap);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	if (strscpy(r->name, name, sizeof(r->name)) < 0) {
		pr_err("seqring_create() took the name '%s', longer than %d\n",
		       name, SEQRING_NAME_MAX);
		seqring_destroy(ring);
		return -EPROTO;
	}
	r->ring = ring;
	return 0;
}

static int cmd_push(struct producer_ring *r, const char *count,
		    const char *label)
{
	u64 i, n;
	int err;

	if (kstrtou64(count, 0, &n))
		return -ERANGE;
	if (label && !strcmp(label, "-"))
		label = NULL;
	for (i = 1; i <= n; i++) {
		err = seqring_push(r->ring, 0, i, label);
		if (err)
			return err;
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

static int cmd_start(struct producer_ring *r, const char *ctx,
		     const char *count, const char *label)
{
	u64 n;
	int c;

	c = match_string(ctx_names, CTX_NR, ctx);
	if (c < 0)
		return c;
	if (kstrtou64(count, 0, &n))
		return -ERANGE;
	return producer_start(r, c, n, label);
}

static int cmd_wait(struct producer_ring *r)
{
	unsigned long end = jiffies + msecs_to_jiffies(wait_ms);
	bool running;
	int c;

	/* The producers finish on their own; polling keeps the lock free. */
	for (;;) {
		running = false;
		for (c = 0; c < CTX_NR; c++)
			running |= r->prod[c].state == PRODUCER_RUNNING &&
				   !producer_finished(&r->prod[c]);
		if (!running)
			break;
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		mutex_unlock(&producer_lock);
		msleep_interruptible(10);
		mutex_lock(&producer_lock);
		if (!r->ring)
			return -ENOENT;
		if (signal_pending(current))
			return -EINTR;
	}
	/* Done: reap them, so that the status says "done". */
	ring_stop(r);
	return 0;
}

static int cmd_cycle(const char *name, const char *capacity, const char *count)
{
	struct seqring *ring;
	u32 cap, i, n;

	if (kstrtou32(capacity, 0, &cap) || kstrtou32(count, 0, &n))
		return -ERANGE;
	for (i = 0; i < n; i++) {
		ring = seqring_create(name, cap);
		if (IS_ERR(ring))
			return PTR_ERR(ring);
		seqring_destroy(ring);
		cond_resched();
	}
	return 0;
}

/* How much slower a destroy's debugfs removal is during a race. */
#define RACE_DELAY_MS	5

/* One side of the race command: its cycles and what they met. */
struct race_side {
	const char *name;
	u32 cap, n;
	u32 created, taken, no_debugfs;
	int err;
	struct completion done;
};

static void race_cycles(struct race_side *rs)
{
	char dir[SEQRING_NAME_MAX + sizeof("seqring-")];
	struct seqring *ring = NULL;
	unsigned long end;
	struct dentry *d;
	u32 i;

	snprintf(dir, sizeof(dir), "seqring-%s", rs->name);
	for (i = 0; i < rs->n; i++) {
		/*
		 * Take the name as soon as the other side lets it go, trying
		 * again while it holds it (a second at most): so every
		 * destroy has a create racing it.
		 */
		end = jiffies + HZ;
		do {
			ring = seqring_create(rs->name, rs->cap);
			if (!IS_ERR(ring) || PTR_ERR(ring) != -EEXIST)
				break;
			rs->taken++;
			cond_resched();
		} while (time_before(jiffies, end));
		if (IS_ERR(ring)) {
			if (PTR_ERR(ring) != -EEXIST && !rs->err)
				rs->err = PTR_ERR(ring);
			continue;
		}
		rs->created++;
		seqring_push(ring, 0, i, "race");
		/*
		 * After the other side's slowed removal of a directory of
		 * the same name, if it was under way: ours must be there.
		 */
		usleep_range(RACE_DELAY_MS * 1000 + 1000, RACE_DELAY_MS * 1000 + 2000);
		d = debugfs_lookup(dir, NULL);
		if (d)
			dput(d);
		else
			rs->no_debugfs++;
		seqring_destroy(ring);
	}
}

static int race_thread(void *data)
{
	struct race_side *rs = data;

	race_cycles(rs);
	complete(&rs->done);
	/* Until kthread_stop(), which wants the thread still there. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int race_slow_pre(struct kprobe *p, struct pt_regs *regs)
{
	mdelay(RACE_DELAY_MS);
	return 0;
}

static int cmd_race(const char *name, const char *capacity, const char *count)
{
	struct kprobe slow = {
		.symbol_name	= "seqring_debugfs_exit",
		.pre_handler	= race_slow_pre,
	};
	struct race_side here = { .name = name }, there;
	struct task_struct *t;
	int cpu, slowed;

	if (kstrtou32(capacity, 0, &here.cap) || kstrtou32(count, 0, &here.n))
		return -ERANGE;
	there = here;
	init_completion(&there.done);
	t = kthread_create(race_thread, &there, "seqring_race");
	if (IS_ERR(t))
		return PTR_ERR(t);
	slowed = register_kprobe(&slow);
	/* The other CPU, if there is one: the two run at the same time. */
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu < nr_cpu_ids)
		kthread_bind(t, cpu);
	wake_up_process(t);
	race_cycles(&here);
	wait_for_completion(&there.done);
	kthread_stop(t);
	if (!slowed)
		unregister_kprobe(&slow);
	pr_info("race %s: %u and %u created, %u and %u found the name taken, %u and %u without debugfs, errors %d and %d (debugfs removal slowed: %s)\n",
		name, here.created, there.created, here.taken, there.taken,
		here.no_debugfs, there.no_debugfs, here.err, there.err,
		slowed ? "no" : "yes");
	if (here.err || there.err)
		return here.err ? here.err : there.err;
	if (here.no_debugfs || there.no_debugfs)
		return -ENOENT;
	return 0;
}

/* Splits @buf in place at spaces; "" stands for an empty word. */
static int split_words(char *buf, char **argv, int max)
{
	char *w;
	int argc = 0;

	while ((w = strsep(&buf, " \t\n"))) {
		if (!*w)
			continue;
		if (argc == max)
			return -E2BIG;
		argv[argc++] = strcmp(w, "\"\"") ? w : w + 2;
	}
	return argc;
}

static int run_command(int argc, char **argv)
{
	struct producer_ring *r;

	if (argc == 3 && !strcmp(argv[0], "create"))
		return cmd_create(argv[1], argv[2]);
	if (argc == 4 && !strcmp(argv[0], "cycle"))
		return cmd_cycle(argv[1], argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[0], "race"))
		return cmd_race(argv[1], argv[2], argv[3]);
	if (argc < 2)
		return -EINVAL;
	r = ring_find(argv[1]);
	if (!r)
		return -ENOENT;
	if (argc == 2 && !strcmp(argv[0], "destroy")) {
		ring_destroy(r);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "stop")) {
		ring_stop(r);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "wait"))
		return cmd_wait(r);
	if ((argc == 3 || argc == 4) && !strcmp(argv[0], "push"))
		return cmd_push(r, argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 2 && !strcmp(argv[0], "suspend"))
		return suspend_arm(r);
	if (argc == 2 && !strcmp(argv[0], "unsuspend"))
		return suspend_disarm(r);
	if ((argc == 4 || argc == 5) && !strcmp(argv[0], "start"))
		return cmd_start(r, argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	return -EINVAL;
}

/* One command: split into words, then run. */
static int producer_command(char *buf)
{
	char *argv[6];
	int argc;

	argc = split_words(buf, argv, ARRAY_SIZE(argv));
	if (argc < 0)
		return argc;
	return run_command(argc, argv);
}

DEFINE_KMOD_CTL(control, PRODUCER_CMD_MAX, &producer_lock, producer_command);

static int status_show(struct seq_file *m, void *v)
{
	const struct producer *p;
	int i, c;

	seq_puts(m, "# RING CONTEXT CHANNEL COUNT PUSHED FAILED LAST_ERROR WRONG_CONTEXT STATE\n");
	mutex_lock(&producer_lock);
	for (i = 0; i < PRODUCER_RINGS; i++) {
		if (!rings[i].ring)
			continue;
		for (c = 0; c < CTX_NR; c++) {
			p = &rings[i].prod[c];
			if (p->state == PRODUCER_IDLE)
				continue;
			seq_printf(m, "%s %s %d %llu %llu %llu %d %llu %s\n",
				   rings[i].name, ctx_names[c], c + 1, p->count,
				   READ_ONCE(p->pushed), READ_ONCE(p->failed),
				   READ_ONCE(p->last_err),
				   READ_ONCE(p->wrong_ctx),
				   p->state == PRODUCER_RUNNING &&
				   producer_finished(p) ? "finished" :
				   state_names[p->state]);
		}
	}
	mutex_unlock(&producer_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static int suspend_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# RING HITS FAILED LAST_ERROR IRQS_ON\n");
	mutex_lock(&producer_lock);
	seq_printf(m, "%s %llu %llu %d %llu\n", susp.r ? susp.r->name : "-",
		   READ_ONCE(susp.hits), READ_ONCE(susp.failed),
		   READ_ONCE(susp.last_err), READ_ONCE(susp.irqs_on));
	mutex_unlock(&producer_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(suspend);

static int __init producer_init(void)
{
	producer_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(producer_dir))
		return PTR_ERR(producer_dir);
	debugfs_create_file("control", 0200, producer_dir, NULL, &control_fops);
	debugfs_create_file("status", 0444, producer_dir, NULL, &status_fops);
	debugfs_create_file("suspend", 0444, producer_dir, NULL, &suspend_fops);
	return 0;
}

static void __exit producer_exit(void)
{
	int i;

	/* No command runs once the files are gone. */
	debugfs_remove_recursive(producer_dir);
	for (i = 0; i < PRODUCER_RINGS; i++)
		if (rings[i].ring)
			ring_destroy(&rings[i]);
}

module_init(producer_init);
module_exit(producer_exit);

MODULE_DESCRIPTION("seqring tests: pushes into named rings from process, softirq and hardirq context");
MODULE_LICENSE("GPL");
