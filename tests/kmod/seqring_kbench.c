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
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/seqring.h>

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
};

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

static int kbench_fn(void *data)
{
	struct kbench_thread *t = data;
	struct kbench_run *run = t->run;
	int err = 0;
	u64 i;

	/* Start together: every thread is on its CPU before any begins. */
	atomic_inc(&run->ready);
	while (atomic_read(&run->ready) < run->nthreads)
		cpu_relax();

	t->start_ns = ktime_get_ns();
	if (run->mode == KBENCH_PUSH) {
		for (i = 1; i <= run->n && !err; i++)
			err = seqring_push(kbench_ring, 1, i, KBENCH_LABEL);
	} else {
		for (i = 1; i <= run->n; i++)
			trace_seqring_kbench_reading(KBENCH_RING, i, 1, i,
						     KBENCH_LABEL);
	}
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
	else
		return -EINVAL;
	w = strsep(&buf, " \t\n");
	if (!w || kstrtou64(w, 0, &run->n) || !run->n)
		return -EINVAL;
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
	kbench_ring = seqring_create(KBENCH_RING, capacity);
	if (IS_ERR(kbench_ring))
		return PTR_ERR(kbench_ring);
	kbench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("control", 0200, kbench_dir, NULL, &control_fops);
	debugfs_create_file("result", 0444, kbench_dir, NULL, &result_fops);
	return 0;
}

static void __exit kbench_exit(void)
{
	debugfs_remove_recursive(kbench_dir);
	seqring_destroy(kbench_ring);
}

module_init(kbench_init);
module_exit(kbench_exit);

MODULE_DESCRIPTION("seqring benchmark: seqring_push() against a trace event, from kernel threads");
MODULE_LICENSE("GPL");
