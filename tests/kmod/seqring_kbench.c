// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_kbench - the benchmark of seqring's kernel API, from kernel
 * threads (tests/bench/50-kapi.sh, seqring_bench kapi)
 *
 * Loading creates the ring "kbench" (CAPACITY readings). A write to
 * /sys/kernel/debug/seqring_kbench/control runs one measurement and
 * returns when it is over; /sys/kernel/debug/seqring_kbench/result then
 * holds its nanoseconds:
 *
 *   push N CPU...   a kernel thread bound to each CPU makes N calls of
 *                   seqring_push() into the ring "kbench"
 *   trace N CPU...  the same with the trace event seqring_kbench_reading
 *                   (seqring_kbench_trace.h), the same fields, written to
 *                   ftrace's ring buffer if tracefs enabled it
 *   nmipush N M     on the CPU of the writer, M NMIs (x86: through the
 *                   local APIC), each making N calls of seqring_push();
 *                   the result is the nanoseconds the calls took inside
 *                   the NMIs, summed (-EOPNOTSUPP elsewhere)
 *   nmitrace N M    the same with the trace event, from the NMIs
 *   op NAME N       N of one step of what seqring_push() does, alone, in
 *                   this thread with preemption off: clock
 *                   (ktime_get_real_fast_ns()), cmpxchg (a fully ordered
 *                   atomic64_try_cmpxchg() that succeeds), mb (smp_mb()),
 *                   irqsave (local_irq_save() and restore), div
 *                   (div_u64_rem(), the slot's index), or loop (the loop
 *                   alone): what the writer's parts cost on this machine
 *                   (doc/performance.md, "BPF programs")
 *
 * The threads start together (each spins until all are on their CPU) and
 * the result is the time from the first one's start to the last one's
 * end, on the monotonic clock, so that readings per second of one and of
 * two threads compare. The caller (the benchmark program) runs the
 * measurements in rounds, in a rotating order, and takes the ratios.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/seqring.h>
#include <linux/timekeeping.h>

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "kmod_ctl.h"

#define CREATE_TRACE_POINTS
#include "seqring_kbench_trace.h"

#define KBENCH_RING		"kbench"
#define KBENCH_LABEL		"bench"
#define KBENCH_CMD_MAX		128
#define KBENCH_THREADS_MAX	8

static unsigned int capacity = 65536;
module_param(capacity, uint, 0444);
MODULE_PARM_DESC(capacity, "readings the ring \"kbench\" holds (default 65536)");

enum kbench_mode {
	KBENCH_PUSH,
	KBENCH_TRACE,
	KBENCH_NMIPUSH,
	KBENCH_NMITRACE,
};

/* Longest wait for one NMI to have run, in microseconds. */
#define KBENCH_NMI_WAIT_US	10000

struct kbench_run;

struct kbench_thread {
	struct kbench_run *run;
	struct task_struct *task;
	u64 start_ns;
	u64 end_ns;
	int err;
};

/* One measurement: its threads, and what they share. */
struct kbench_run {
	enum kbench_mode mode;
	u64 n;
	int nthreads;
	atomic_t ready;
	atomic_t left;
	struct completion done;
	struct kbench_thread thread[KBENCH_THREADS_MAX];
};

static struct seqring *kbench_ring;
static struct dentry *kbench_dir;
/* One measurement at a time; protects kbench_run and kbench_result. */
static DEFINE_MUTEX(kbench_lock);
static struct kbench_run kbench_run;
static u64 kbench_result;

/* One measured run of @n calls of the kind of @mode; returns its errno. */
static int kbench_calls(enum kbench_mode mode, u64 first, u64 n)
{
	int err = 0;
	u64 i;

	if (mode == KBENCH_PUSH || mode == KBENCH_NMIPUSH) {
		for (i = first; i < first + n && !err; i++)
			err = seqring_push(kbench_ring, 1, i, KBENCH_LABEL);
	} else {
		for (i = first; i < first + n; i++)
			trace_seqring_kbench_reading(KBENCH_RING, i, 1, i,
						     KBENCH_LABEL);
	}
	return err;
}

#ifdef CONFIG_X86
/*
 * The NMI measurement: what the next NMI on this CPU is to do (its mode,
 * 0 for none), how many calls, and the nanoseconds they took. Set by the
 * writer with preemption off, read and cleared by the NMI it raises.
 */
static struct {
	int mode;
	u64 n;
	u64 ns;
	u64 seq;
	int err;
} kbench_nmi;

static int kbench_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	/* Pairs with the release in kbench_nmi_run(). */
	int mode = smp_load_acquire(&kbench_nmi.mode);
	u64 t0;

	if (!mode)
		return NMI_DONE;
	/* NMI-safe clock: the fast monotonic accessor. */
	t0 = ktime_get_mono_fast_ns();
	kbench_nmi.err = kbench_calls(mode, kbench_nmi.seq, kbench_nmi.n);
	kbench_nmi.ns += ktime_get_mono_fast_ns() - t0;
	kbench_nmi.seq += kbench_nmi.n;
	/* The results before the end: pairs with kbench_nmi_run()'s acquire. */
	smp_store_release(&kbench_nmi.mode, 0);
	return NMI_HANDLED;
}

/* @m NMIs on this CPU, each making @n calls of the kind of @mode. */
static int kbench_nmi_run(enum kbench_mode mode, u64 n, u64 m)
{
	unsigned int i;
	int err = 0;
	u64 j;

	kbench_nmi.ns = 0;
	kbench_nmi.err = 0;
	kbench_nmi.n = n;
	preempt_disable();
	for (j = 0; j < m && !err; j++) {
		/* The counts before the mode, which the NMI acquires. */
		smp_store_release(&kbench_nmi.mode, mode);
		apic->send_IPI_self(NMI_VECTOR);
		for (i = 0; i < KBENCH_NMI_WAIT_US; i++) {
			/* Pairs with the release in kbench_nmi_handler(). */
			if (!smp_load_acquire(&kbench_nmi.mode))
				break;
			udelay(1);
		}
		if (i == KBENCH_NMI_WAIT_US)
			err = -ETIMEDOUT;
		else
			err = kbench_nmi.err;
	}
	WRITE_ONCE(kbench_nmi.mode, 0);
	preempt_enable();
	if (!err)
		kbench_result = kbench_nmi.ns;
	return err;
}

static int kbench_nmi_init(void)
{
	return register_nmi_handler(NMI_LOCAL, kbench_nmi_handler, 0,
				    KBUILD_MODNAME);
}

static void kbench_nmi_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}
#else
static int kbench_nmi_run(enum kbench_mode mode, u64 n, u64 m)
{
	return -EOPNOTSUPP;
}

static int kbench_nmi_init(void)
{
	return 0;
}

static void kbench_nmi_exit(void)
{
}
#endif

static int kbench_fn(void *data)
{
	struct kbench_thread *t = data;
	struct kbench_run *run = t->run;
	int err;

	/* Start together: every thread is on its CPU before any begins. */
	atomic_inc(&run->ready);
	while (atomic_read(&run->ready) < run->nthreads)
		cpu_relax();

	t->start_ns = ktime_get_ns();
	err = kbench_calls(run->mode, 1, run->n);
	t->end_ns = ktime_get_ns();
	t->err = err;
	if (atomic_dec_and_test(&run->left))
		complete(&run->done);

	/* kthread_stop() reaps the thread, with no module code left to run. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Run @run's threads, one on each of @cpus; the time they took. */
static int kbench_measure(struct kbench_run *run, const unsigned int *cpus)
{
	u64 start = U64_MAX, end = 0;
	struct kbench_thread *t;
	int i, err = 0;

	atomic_set(&run->ready, 0);
	atomic_set(&run->left, run->nthreads);
	init_completion(&run->done);
	for (i = 0; i < run->nthreads; i++) {
		t = &run->thread[i];
		t->run = run;
		t->err = 0;
		t->task = kthread_create(kbench_fn, t, "seqring_kbench/%u",
					 cpus[i]);
		if (IS_ERR(t->task)) {
			err = PTR_ERR(t->task);
			break;
		}
		kthread_bind(t->task, cpus[i]);
	}
	if (err) {
		/* Never woken: they stop without running kbench_fn(). */
		while (--i >= 0)
			kthread_stop(run->thread[i].task);
		return err;
	}
	for (i = 0; i < run->nthreads; i++)
		wake_up_process(run->thread[i].task);
	wait_for_completion(&run->done);
	for (i = 0; i < run->nthreads; i++) {
		t = &run->thread[i];
		kthread_stop(t->task);
		start = min(start, t->start_ns);
		end = max(end, t->end_ns);
		if (t->err)
			err = t->err;
	}
	if (err)
		return err;
	kbench_result = end - start;
	return 0;
}

/* The steps "op" times, by name. */
static const char *const kbench_ops[] = {
	"loop", "clock", "cmpxchg", "mb", "irqsave", "div",
};

/* @n of the step kbench_ops[@op], preemption off; the ns they took. */
static int kbench_op(unsigned int op, u64 n)
{
	static atomic64_t word = ATOMIC64_INIT(0);
	unsigned long flags;
	u64 i, t0, sink = 0;
	s64 old;
	u32 rem;

	preempt_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		switch (op) {
		case 1:
			sink += ktime_get_real_fast_ns();
			break;
		case 2:
			old = atomic64_read(&word);
			atomic64_try_cmpxchg(&word, &old, old + 1);
			break;
		case 3:
			smp_mb();	/* the barrier measured, pairs with none */
			break;
		case 4:
			local_irq_save(flags);
			local_irq_restore(flags);
			break;
		case 5:
			div_u64_rem(i, capacity, &rem);
			sink += rem;
			break;
		}
		/* Keeps the loop a loop, and its result used. */
		barrier_data(&sink);
	}
	kbench_result = ktime_get_ns() - t0;
	preempt_enable();
	return 0;
}

/* "op NAME N": @buf is what follows "op". */
static int kbench_op_command(char *buf)
{
	char *name = strsep(&buf, " \t\n"), *w = strsep(&buf, " \t\n");
	unsigned int op;
	u64 n;

	if (!name || !w || kstrtou64(w, 0, &n) || !n)
		return -EINVAL;
	for (op = 0; op < ARRAY_SIZE(kbench_ops); op++)
		if (!strcmp(name, kbench_ops[op]))
			return kbench_op(op, n);
	return -EINVAL;
}

static int kbench_command(char *buf)
{
	unsigned int cpus[KBENCH_THREADS_MAX];
	struct kbench_run *run = &kbench_run;
	char *w, *mode;
	int n = 0;

	mode = strsep(&buf, " \t\n");
	if (!mode || !strcmp(mode, ""))
		return -EINVAL;
	if (!strcmp(mode, "push"))
		run->mode = KBENCH_PUSH;
	else if (!strcmp(mode, "trace"))
		run->mode = KBENCH_TRACE;
	else if (!strcmp(mode, "nmipush"))
		run->mode = KBENCH_NMIPUSH;
	else if (!strcmp(mode, "nmitrace"))
		run->mode = KBENCH_NMITRACE;
	else if (!strcmp(mode, "op"))
		return kbench_op_command(buf);
	else
		return -EINVAL;
	w = strsep(&buf, " \t\n");
	if (!w || kstrtou64(w, 0, &run->n) || !run->n)
		return -EINVAL;
	if (run->mode == KBENCH_NMIPUSH || run->mode == KBENCH_NMITRACE) {
		u64 m;

		w = strsep(&buf, " \t\n");
		if (!w || kstrtou64(w, 0, &m) || !m)
			return -EINVAL;
		return kbench_nmi_run(run->mode, run->n, m);
	}
	while ((w = strsep(&buf, " \t\n"))) {
		if (!*w)
			continue;
		if (n == KBENCH_THREADS_MAX)
			return -E2BIG;
		if (kstrtouint(w, 0, &cpus[n]) || cpus[n] >= nr_cpu_ids ||
		    !cpu_online(cpus[n]))
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	run->nthreads = n;
	return kbench_measure(run, cpus);
}

DEFINE_KMOD_CTL(control, KBENCH_CMD_MAX, &kbench_lock, kbench_command);

static int result_show(struct seq_file *m, void *v)
{
	mutex_lock(&kbench_lock);
	seq_printf(m, "%llu\n", kbench_result);
	mutex_unlock(&kbench_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(result);

static int __init kbench_init(void)
{
	int err;

	kbench_ring = seqring_create(KBENCH_RING, capacity);
	if (IS_ERR(kbench_ring))
		return PTR_ERR(kbench_ring);
	err = kbench_nmi_init();
	if (err) {
		seqring_destroy(kbench_ring);
		return err;
	}
	kbench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("control", 0200, kbench_dir, NULL, &control_fops);
	debugfs_create_file("result", 0444, kbench_dir, NULL, &result_fops);
	return 0;
}

static void __exit kbench_exit(void)
{
	debugfs_remove_recursive(kbench_dir);
	kbench_nmi_exit();
	seqring_destroy(kbench_ring);
}

module_init(kbench_init);
module_exit(kbench_exit);

MODULE_DESCRIPTION("seqring benchmark: seqring_push() against a trace event, from kernel threads");
MODULE_LICENSE("GPL");
