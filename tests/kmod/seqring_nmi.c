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
 *   pair MS                for MS milliseconds, two kthreads on the first
 *                          two CPUs push one reading each at the same
 *                          moment, round after round (they meet at a
 *                          barrier before and after): once both pushes
 *                          returned, both readings must be published
 *                          (next_seq past them), with no further push.
 *                          Counts the rounds, those where one was not, and
 *                          those where it still was not 20 ms later. The
 *                          ring must be fresh: nobody else pushes
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
 * x86: NMIs are sent through the local APIC (apic->send_IPI(),
 * NMI_VECTOR) and handled by an NMI_LOCAL handler (register_nmi_handler()),
 * both GPL-exported. arm64: the PMU's overflow interrupt, an NMI with
 * pseudo-NMI (see nmi_source_start()); a hook waits for the next one.
 * Elsewhere storm and hook fail with -EOPNOTSUPP. The status file's
 * nmi-cpu lines say how many runs of the handler were in NMI context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
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
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seqring.h>
#include <linux/string.h>

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

/*
 * Where this module has NMIs to push from: x86's, sent to a CPU, and
 * arm64's PMU interrupt (a pseudo-NMI where the kernel has them). Other
 * CPUs build it without: storm and hook fail there (above).
 */
#if defined(CONFIG_X86) || (defined(CONFIG_ARM64) && defined(CONFIG_PERF_EVENTS))
#define NMI_SOURCE
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
#define HOOK_WAIT_US		2000
#define HOOK_RESIZE_PUSHES	2
/* How often the storm's sender raises NMIs, and its timers fire. */
#define STORM_NMI_US		50
#define STORM_IRQ_US		100
/* Pushes a storm's kthread makes at most: a ring of 256K holds them all. */
#define STORM_TASK_MAX		50000

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
	/* Runs of the NMI handler in NMI context, and not (arm64 without). */
	u64 nmi_in;
	u64 nmi_not;
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

/*
 * A kthread bound to @cpu, not started (kthread_create_on_cpu() is not
 * exported before 5.11).
 */
static struct task_struct *kthread_on(int (*fn)(void *), void *data,
				      unsigned int cpu, const char *name)
{
	struct task_struct *t = kthread_create(fn, data, "%s/%u", name, cpu);

	if (!IS_ERR(t))
		kthread_bind(t, cpu);
	return t;
}

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

#ifdef NMI_SOURCE
/*
 * What an NMI of this module does on @c's CPU: push for the hook that
 * raised it (the writer stands at its point on this CPU, interrupted), or
 * for the storm.
 */
static void nmi_body(struct nmi_cpu *c, unsigned int cpu)
{
	int point = READ_ONCE(c->hook_point);

	if (in_nmi())
		WRITE_ONCE(c->nmi_in, c->nmi_in + 1);
	else
		WRITE_ONCE(c->nmi_not, c->nmi_not + 1);
	if (point >= 0) {
		atomic64_inc(&hook_count[point].landed);
		nmi_push(&c->hook[point], CH_HOOK + 100 * point + cpu,
			 "hook-nmi");
		WRITE_ONCE(c->hook_point, -1);
		/* The push before: pairs with the acquire in nmi_hook(). */
		smp_store_release(&c->hook_done, true);
		return;
	}
	if (READ_ONCE(storm_on))
		nmi_push(&c->nmi, CH_NMI + cpu, "nmi");
}
#endif

#ifdef CONFIG_X86
/*
 * Every NMI this module sends lands here, on the CPU it was sent to; it
 * claims one a run, while fewer runs than NMIs sent were claimed. x86
 * merges an NMI sent while another is pending into it, so a claim may
 * be left over, and a later NMI of another source taken for ours: in this
 * test VM there is none but the backtrace one, whose handler runs first.
 */
static int nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct nmi_cpu *c = this_cpu_ptr(&nmi_cpu);

	if (READ_ONCE(c->nmi_handled) >= READ_ONCE(c->nmi_sent))
		return NMI_DONE;
	WRITE_ONCE(c->nmi_handled, c->nmi_handled + 1);
	nmi_body(c, smp_processor_id());
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

/* NMIs come when sent: nothing to start. */
static int nmi_source_start(void)
{
	return 0;
}

static void nmi_source_stop(void)
{
}
#elif defined(NMI_SOURCE)
/*
 * arm64 has no NMI to send. With pseudo-NMI (CONFIG_ARM64_PSEUDO_NMI and
 * irqchip.gicv3_pseudo_nmi=1 on a GICv3), the PMU's interrupt is one:
 * a cycle counter on every CPU overflows every NMI_PERF_PERIOD cycles,
 * and its overflow handler, the path of the hard-lockup detector and of
 * every perf sample, pushes. Without pseudo-NMI the same handler runs in
 * a hard interrupt, which the status file shows (nmi_not), and the test
 * says why it skips.
 */
#define NMI_PERF_PERIOD		50000

static DEFINE_PER_CPU(struct perf_event *, nmi_perf);

static void nmi_perf_overflow(struct perf_event *event,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	struct nmi_cpu *c = this_cpu_ptr(&nmi_cpu);

	WRITE_ONCE(c->nmi_sent, c->nmi_sent + 1);
	WRITE_ONCE(c->nmi_handled, c->nmi_handled + 1);
	nmi_body(c, smp_processor_id());
}

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

static void nmi_source_stop(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_event *e = per_cpu(nmi_perf, cpu);

		if (e)
			perf_event_release_kernel(e);
		per_cpu(nmi_perf, cpu) = NULL;
	}
}

/* A cycle counter on every online CPU, sampling into nmi_body(). */
static int nmi_source_start(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.size		= sizeof(attr),
		.pinned		= 1,
		.sample_period	= NMI_PERF_PERIOD,
	};
	struct perf_event *e;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		e = perf_event_create_kernel_counter(&attr, cpu, NULL,
						     nmi_perf_overflow, NULL);
		if (IS_ERR(e)) {
			nmi_source_stop();
			return PTR_ERR(e);
		}
		per_cpu(nmi_perf, cpu) = e;
	}
	return 0;
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

static int nmi_source_start(void)
{
	return -EOPNOTSUPP;
}

static void nmi_source_stop(void)
{
}
#endif

/*
 * The writer stands at @point of a push, walk, resize copy or CLEAR of
 * @ring. Preemption or interrupts are off (the sections), or on (CHUNK,
 * RESCHED).
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

/* NMIs from their source (arm64: the PMU's counters) while @on. */
static int nmi_sources(bool on)
{
	static bool sources_on;
	int err = 0;

	if (on && !sources_on)
		err = nmi_source_start();
	else if (!on && sources_on)
		nmi_source_stop();
	if (!err)
		sources_on = on;
	return err;
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
	int err;

	err = nmi_sources(true);
	if (err)
		return err;
	WRITE_ONCE(storm_on, true);
	for_each_online_cpu(cpu) {
		struct nmi_cpu *c = per_cpu_ptr(&nmi_cpu, cpu);

		task = kthread_on(storm_task, c, cpu, "seqring_nmi");
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
	nmi_sources(false);
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
	nmi_sources(false);
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
		c->nmi_in = 0;
		c->nmi_not = 0;
		c->hook_point = -1;
	}
	for (i = 0; i < NR_POINTS; i++) {
		atomic64_set(&hook_count[i].raised, 0);
		atomic64_set(&hook_count[i].landed, 0);
		atomic64_set(&hook_count[i].timeouts, 0);
	}
	memset(&resize_count, 0, sizeof(resize_count));
}

/*
 * The pair's two producers and what they saw. The first one leads: it
 * opens each round, pushes, waits for the second's push and looks at
 * next_seq; the second pushes when the round opens. Both spin on their
 * CPUs (with cond_resched(), so nothing else there starves), and the
 * command's writer only waits for the leader, on any CPU.
 */
static struct {
	atomic_t gate;		/* the round the producers may push in */
	atomic_t done;		/* pushes of the round returned */
	bool stop;
	int err;
	unsigned long end;	/* jiffies */
	u64 rounds;
	u64 invisible;
	u64 still;
	struct completion led;
} pair;

static void pair_push(unsigned long second, int round)
{
	int err = seqring_push(nmi_ring, 1 + second, round, "pair");

	if (err)
		WRITE_ONCE(pair.err, err);
	atomic_inc_return_release(&pair.done);
}

static int pair_follower(void *unused)
{
	int round = 0;
	unsigned int n = 0;

	while (!READ_ONCE(pair.stop)) {
		if (atomic_read_acquire(&pair.gate) == round) {
			if (!(++n % 1024))
				cond_resched();
			cpu_relax();
			continue;
		}
		pair_push(1, ++round);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int pair_leader(void *unused)
{
	struct seqring_ring *ring = &nmi_ring->ring;
	u64 first = atomic64_read_acquire(ring->next_seq), want;
	unsigned int n = 0;
	int r;

	for (r = 1; time_before(jiffies, pair.end) && !READ_ONCE(pair.err); r++) {
		atomic_set_release(&pair.gate, r);
		pair_push(0, r);
		while (atomic_read_acquire(&pair.done) != 2 * r) {
			if (!(++n % 1024))
				cond_resched();
			cpu_relax();
		}
		/* Both pushes returned: both readings are published. */
		want = first + 2 * r;
		if (atomic64_read_acquire(ring->next_seq) < want) {
			WRITE_ONCE(pair.invisible, pair.invisible + 1);
			msleep(20);
			if (atomic64_read_acquire(ring->next_seq) < want)
				WRITE_ONCE(pair.still, pair.still + 1);
		}
		WRITE_ONCE(pair.rounds, pair.rounds + 1);
	}
	WRITE_ONCE(pair.stop, true);
	complete(&pair.led);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int pair_run(unsigned int ms)
{
	int (*fn[2])(void *) = { pair_leader, pair_follower };
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct task_struct *t[2] = {};
	unsigned long i;
	int err = 0;

	if (num_online_cpus() < 2)
		return -EOPNOTSUPP;
	memset(&pair, 0, sizeof(pair));
	init_completion(&pair.led);
	pair.end = jiffies + msecs_to_jiffies(ms);
	for (i = 0; i < 2; i++) {
		t[i] = kthread_on(fn[i], NULL, cpu, "seqring_pair");
		if (IS_ERR(t[i])) {
			err = PTR_ERR(t[i]);
			t[i] = NULL;
			WRITE_ONCE(pair.stop, true);
			break;
		}
		cpu = cpumask_next(cpu, cpu_online_mask);
	}
	if (!err) {
		wake_up_process(t[1]);
		wake_up_process(t[0]);
		wait_for_completion(&pair.led);
		err = READ_ONCE(pair.err);
	}
	for (i = 0; i < 2; i++)
		if (t[i])
			kthread_stop(t[i]);
	return err;
}

static int nmi_run(char *cmd)
{
	char *verb = strsep(&cmd, NMI_SEP);
	char *arg1 = strsep(&cmd, NMI_SEP);
	char *arg2 = strsep(&cmd, NMI_SEP);
	unsigned long points;
	unsigned int n;
	int err;

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
	if (!strcmp(verb, "pair")) {
		if (!arg1 || kstrtouint(arg1, 0, &n))
			return -EINVAL;
		return pair_run(n);
	}
	if (!strcmp(verb, "storm")) {
		if (!arg1 || kstrtouint(arg1, 0, &n))
			return -EINVAL;
		return storm(n);
	}
	if (!strcmp(verb, "hook")) {
		if (!arg1 || hook_parse(arg1, &points))
			return -EINVAL;
		err = nmi_sources(true);
		if (err)
			return err;
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
		seq_printf(m, "nmi-cpu %u sent %llu handled %llu innmi %llu notnmi %llu\n",
			   cpu, READ_ONCE(c->nmi_sent), READ_ONCE(c->nmi_handled),
			   READ_ONCE(c->nmi_in), READ_ONCE(c->nmi_not));
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
	seq_printf(m, "pair rounds %llu invisible %llu still %llu\n",
		   READ_ONCE(pair.rounds), READ_ONCE(pair.invisible),
		   READ_ONCE(pair.still));
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
