// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for seqring's producers against a scheduler that stops them
 *
 * A test-only hook (seqring_hook() in driver/seqring.h, compiled only in
 * kernels with KUnit) stops one producer, a kthread, at a chosen step of a
 * push: between reserve and store, between commit and publish (both with
 * preemption off, so it spins there on a CPU of its own), or between two
 * chunks of a batch (where a scheduler can keep a task away; it sleeps
 * there). Meanwhile the test, on another CPU, pushes and reads, and checks
 * what the other producers and the readers see. Part of seqring_kunit.ko
 * with ring_test.c (suite "seqring_push").
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "seqring.h"

/* Longest a stopped producer waits for the test before it goes on. */
#define PUSH_TEST_STOP_MS	5000

/**
 * struct push_stop - one producer to stop, and where
 * @ring: the ring under test
 * @point: the step at which the producer stops
 * @task: the producer (a kthread); no other task is stopped
 * @batch: readings it pushes, @n of them
 * @n: 1 for a single push, else a batch
 * @stopped: completed when it reached @point
 * @go: set by the test to let it go on
 * @done: completed when its push returned
 * @timed_out: it gave up waiting for @go (the test failed)
 * @resched: times a batch or a resize offered to reschedule
 */
struct push_stop {
	struct seqring_ring ring;
	enum seqring_hook point;
	struct task_struct *task;
	struct seqring_reading *batch;
	unsigned int n;
	struct completion stopped;
	bool go;
	struct completion done;
	bool timed_out;
	atomic_t resched;
};

static struct push_stop *push_stop_cur;

static void push_test_hook(struct seqring_ring *ring, enum seqring_hook point)
{
	struct push_stop *ps = READ_ONCE(push_stop_cur);
	unsigned long deadline;

	if (!ps || ring != &ps->ring)
		return;
	if (point == SEQRING_HOOK_RESCHED)
		atomic_inc(&ps->resched);
	if (current != ps->task || point != ps->point || READ_ONCE(ps->go))
		return;
	complete_all(&ps->stopped);
	deadline = jiffies + msecs_to_jiffies(PUSH_TEST_STOP_MS);
	if (point == SEQRING_HOOK_CHUNK) {
		/* Between chunks: asleep, as a descheduled producer is. */
		while (!READ_ONCE(ps->go) && time_before(jiffies, deadline))
			usleep_range(500, 1000);
	} else {
		/* Interrupts are off: spin, as a slow CPU would. */
		while (!READ_ONCE(ps->go) && time_before(jiffies, deadline))
			cpu_relax();
	}
	if (!READ_ONCE(ps->go))
		WRITE_ONCE(ps->timed_out, true);
	/* Once only: a batch's later chunks go through. */
	WRITE_ONCE(ps->go, true);
}

static int push_test_producer(void *data)
{
	struct push_stop *ps = data;

	if (ps->n == 1)
		__seqring_ring_push_one(&ps->ring, ps->batch, true);
	else
		seqring_ring_push(&ps->ring, ps->batch, ps->n, NULL);
	complete_all(&ps->done);
	return 0;
}

static void push_test_reading(struct seqring_reading *r, unsigned int i)
{
	memset(r, 0, sizeof(*r));
	r->value = i;
	r->channel = i % 7;
	r->timestamp_ns = 1000 + i;
}

/*
 * A ring of @capacity with the hook set, for @test; stopped by
 * push_test_exit().
 */
static struct push_stop *push_stop_ring(struct kunit *test, u32 capacity)
{
	struct push_stop *ps;

	ps = kunit_kzalloc(test, sizeof(*ps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ps);
	KUNIT_ASSERT_EQ(test, seqring_ring_init(&ps->ring, "kunit", capacity,
						seqring_readers_wake), 0);
	init_completion(&ps->stopped);
	init_completion(&ps->done);
	atomic_set(&ps->resched, 0);
	test->priv = ps;
	WRITE_ONCE(push_stop_cur, ps);
	seqring_test_hook_set(push_test_hook);
	return ps;
}

/*
 * push_stop_ring(), and a producer of @n readings (values from @first)
 * that will stop at @point, on a CPU other than the test's (which is
 * pinned to its own). The producer is created but not started. Skips
 * without a second CPU: a producer spinning with preemption off needs one
 * of its own.
 */
static struct push_stop *push_stop_new(struct kunit *test, u32 capacity,
				       enum seqring_hook point, unsigned int n,
				       unsigned int first)
{
	struct push_stop *ps;
	struct task_struct *task;
	unsigned int i, cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs: one producer spins with preemption off");
	ps = push_stop_ring(test, capacity);
	ps->batch = kunit_kmalloc_array(test, n, sizeof(*ps->batch), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ps->batch);
	for (i = 0; i < n; i++)
		push_test_reading(&ps->batch[i], first + i);
	ps->point = point;
	ps->n = n;

	cpu = cpumask_first(cpu_online_mask);
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
	task = kthread_create(push_test_producer, ps, "seqring-kunit");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	kthread_bind(task, cpumask_next(cpu, cpu_online_mask));
	ps->task = task;
	return ps;
}

/* Start the producer and wait until it stands at its point. */
static void push_stop_start(struct kunit *test, struct push_stop *ps)
{
	unsigned long left;

	wake_up_process(ps->task);
	left = wait_for_completion_timeout(&ps->stopped,
					   msecs_to_jiffies(PUSH_TEST_STOP_MS));
	KUNIT_ASSERT_NE(test, left, 0UL);
}

/* Let it go on, and wait for its push to return. */
static void push_stop_release(struct kunit *test, struct push_stop *ps)
{
	unsigned long left;

	WRITE_ONCE(ps->go, true);
	left = wait_for_completion_timeout(&ps->done,
					   msecs_to_jiffies(PUSH_TEST_STOP_MS));
	KUNIT_EXPECT_NE(test, left, 0UL);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(ps->timed_out));
}

static void push_test_exit(struct kunit *test)
{
	struct push_stop *ps = test->priv;

	seqring_test_hook_set(NULL);
	WRITE_ONCE(push_stop_cur, NULL);
	if (!ps)
		return;
	/* Never leave a producer spinning: let it go, wait for it. */
	WRITE_ONCE(ps->go, true);
	if (ps->task) {
		/* Created but never started (an assertion failed first)? */
		if (!completion_done(&ps->stopped))
			wake_up_process(ps->task);
		wait_for_completion_timeout(&ps->done,
					    msecs_to_jiffies(PUSH_TEST_STOP_MS));
		set_cpus_allowed_ptr(current, cpu_possible_mask);
	}
	seqring_ring_destroy(&ps->ring);
}

/* Push @n single readings from the test's own task, values from @first. */
static void push_test_singles(struct seqring_ring *ring, unsigned int first,
			      unsigned int n)
{
	struct seqring_reading r;
	unsigned int i;

	for (i = first; i < first + n; i++) {
		push_test_reading(&r, i);
		__seqring_ring_push_one(ring, &r, true);
	}
}

/* The reading of sequence number @seq is visible and is value @value. */
static void expect_visible(struct kunit *test, struct seqring_ring *ring,
			   u64 seq, s64 value)
{
	struct seqring_record rec;

	KUNIT_EXPECT_GT(test, seqring_ring_next_seq(ring), seq);
	KUNIT_ASSERT_TRUE(test, seqring_ring_copy(ring, seq, &rec));
	KUNIT_EXPECT_EQ(test, rec.seq, seq);
	KUNIT_EXPECT_EQ(test, rec.reading.value, value);
}

/*
 * A batch producer kept off its CPU between two chunks (asleep, as
 * SCHED_IDLE beside a hog or a cgroup throttle keeps it) holds back no
 * other producer: the readings pushed meanwhile are visible at once, after
 * the batch's first chunk, which is visible too. The rest of the batch
 * follows when the producer runs again.
 */
static void push_test_stop_between_chunks(struct kunit *test)
{
	const unsigned int n = 3 * SEQRING_CHUNK;
	struct push_stop *ps = push_stop_new(test, 1024, SEQRING_HOOK_CHUNK,
					     n, 1);
	struct seqring_ring *ring = &ps->ring;

	push_stop_start(test, ps);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 1ULL + SEQRING_CHUNK);
	expect_visible(test, ring, SEQRING_CHUNK, SEQRING_CHUNK);

	push_test_singles(ring, 1000, 2);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 3ULL + SEQRING_CHUNK);
	expect_visible(test, ring, SEQRING_CHUNK + 1, 1000);
	expect_visible(test, ring, SEQRING_CHUNK + 2, 1001);

	push_stop_release(test, ps);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 3ULL + n);
	/* The batch's second chunk came after the singles. */
	expect_visible(test, ring, SEQRING_CHUNK + 3, SEQRING_CHUNK + 1);
	expect_visible(test, ring, n + 2, n);
}

/*
 * A producer stopped between reserve and store, preemption off: another
 * producer's push returns at once (it waits for nobody), its reading is
 * not visible yet (nothing is, past a number not stored: the one
 * exception, a CPU that holds a section open), and readers do not wait
 * either. When the stopped one goes on, its publish takes both.
 */
static void push_test_stop_after_reserve(struct kunit *test)
{
	struct push_stop *ps = push_stop_new(test, 16, SEQRING_HOOK_RESERVED,
					     1, 7);
	struct seqring_ring *ring = &ps->ring;
	struct seqring_record rec;
	struct seqring_stats st;

	push_stop_start(test, ps);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&ring->head), 2ULL);
	push_test_singles(ring, 8, 1);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 1ULL);
	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, 1, &rec));
	seqring_ring_stats(ring, &st);
	KUNIT_EXPECT_EQ(test, st.count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.total, 0ULL);

	push_stop_release(test, ps);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 3ULL);
	expect_visible(test, ring, 1, 7);
	expect_visible(test, ring, 2, 8);
}

/*
 * A producer stopped after its commit, before its publish: the next
 * producer publishes the committed reading with its own.
 */
static void push_test_stop_before_publish(struct kunit *test)
{
	struct push_stop *ps = push_stop_new(test, 16, SEQRING_HOOK_STORED,
					     1, 7);
	struct seqring_ring *ring = &ps->ring;

	push_stop_start(test, ps);
	push_test_singles(ring, 8, 1);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 3ULL);
	expect_visible(test, ring, 1, 7);
	expect_visible(test, ring, 2, 8);
	push_stop_release(test, ps);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 3ULL);
}

/*
 * A publish walks at most SEQRING_PUBLISH_MAX slots with preemption off.
 * While one producer is stopped after reserving, others commit three
 * times that; when it goes on, its walk stops at the bound, and the
 * publish irq_work goes on: every reading is visible soon after, without
 * another push, and no walk was longer than the bound.
 */
static void push_test_publish_bounded(struct kunit *test)
{
	const unsigned int n = 3 * SEQRING_PUBLISH_MAX;
	struct push_stop *ps = push_stop_new(test, 4 * n, SEQRING_HOOK_RESERVED,
					     1, 1);
	struct seqring_ring *ring = &ps->ring;
	unsigned long deadline;

	push_stop_start(test, ps);
	push_test_singles(ring, 2, n);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 1ULL);
	push_stop_release(test, ps);

	deadline = jiffies + msecs_to_jiffies(PUSH_TEST_STOP_MS);
	while (seqring_ring_next_seq(ring) < n + 2 &&
	       time_before(jiffies, deadline))
		usleep_range(500, 1000);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), n + 2ULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ring->walk_max), SEQRING_PUBLISH_MAX);
	expect_visible(test, ring, n + 1, n + 1);
}

/*
 * A batch offers to reschedule between every two chunks, wherever it
 * starts (one whose first sequence number is not a multiple of the chunk
 * did not, with a modulo test), and a batch larger than the ring is
 * stored whole, chunk by chunk, each reading overwriting the one a
 * capacity before.
 */
static void push_test_batch_reschedules(struct kunit *test)
{
	const unsigned int n = 40 * SEQRING_CHUNK + 5;
	struct push_stop *ps = push_stop_ring(test, 20 * SEQRING_CHUNK + 3);
	struct seqring_ring *ring = &ps->ring;
	struct seqring_reading *r;
	unsigned int i, chunks;

	r = kunit_kmalloc_array(test, n, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	for (i = 0; i < n; i++)
		push_test_reading(&r[i], i);
	push_test_singles(ring, 0, 3);
	KUNIT_EXPECT_EQ(test, seqring_ring_push(ring, r, n, NULL), 0);
	chunks = DIV_ROUND_UP(n, SEQRING_CHUNK);
	KUNIT_EXPECT_EQ(test, atomic_read(&ps->resched), chunks - 1);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), n + 4ULL);
	expect_visible(test, ring, n + 3, n - 1);

	/* A resize copies in sections of a chunk, rescheduling after each. */
	chunks = DIV_ROUND_UP(seqring_ring_capacity(ring), SEQRING_CHUNK);
	atomic_set(&ps->resched, 0);
	KUNIT_ASSERT_EQ(test, seqring_ring_resize(ring, 4 * n), 0);
	KUNIT_EXPECT_GE(test, atomic_read(&ps->resched), chunks);
}

/* A resize run by a kthread, while the test goes on. */
struct push_resize {
	struct seqring_ring *ring;
	u32 capacity;
	int ret;
	struct completion done;
};

static int push_test_resizer(void *data)
{
	struct push_resize *pr = data;

	pr->ret = seqring_ring_resize(pr->ring, pr->capacity);
	complete_all(&pr->done);
	return 0;
}

/*
 * A shrink drops readings that a producer reserved and has not stored
 * yet, and a publish walk then passes them: next_seq goes past a number
 * still being stored. Nobody may take that slot meanwhile, in either
 * array; the stopped producer still stores into one. Here a producer is
 * stopped after reserving 11, readings 12 to 31 are committed behind it,
 * and a resize from 64 slots to 16 swaps the arrays and drops everything
 * below 16 (then waits for the stopped producer's section). The publish
 * irq_work walks to 32; the test pushes 16 more, and lets the producer go
 * on. The ring must not stop (its mark finding a newer reading in the
 * slot of 11, "busy or newer"), and every push that returned 0 must be
 * visible, with its own value, once the resize is over.
 */
static void push_test_resize_drops_reserved(struct kunit *test)
{
	struct push_stop *ps = push_stop_new(test, 64, SEQRING_HOOK_RESERVED,
					     1, 11);
	struct seqring_ring *ring = &ps->ring;
	struct seqring_slots *old = rcu_access_pointer(ring->slots);
	struct push_resize pr = { .ring = ring, .capacity = 16 };
	unsigned int i, stored = 0, found = 0;
	struct seqring_reading r;
	struct seqring_record rec;
	struct task_struct *task;
	unsigned long deadline, left;
	bool pushed[16], broken;
	u64 seq;

	push_test_singles(ring, 1, 10);
	push_stop_start(test, ps);
	push_test_singles(ring, 12, 20);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 11ULL);

	init_completion(&pr.done);
	task = kthread_create(push_test_resizer, &pr, "seqring-resize");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	kthread_bind(task, cpumask_first(cpu_online_mask));
	wake_up_process(task);
	/* From here on no assertion: the resize must end before the ring. */
	deadline = jiffies + msecs_to_jiffies(PUSH_TEST_STOP_MS);
	while ((rcu_access_pointer(ring->slots) == old ||
		seqring_ring_oldest_seq(ring) < 16) &&
	       time_before(jiffies, deadline))
		usleep_range(500, 1000);
	KUNIT_EXPECT_EQ(test, seqring_ring_oldest_seq(ring), 16ULL);

	/* A walk from another context: past 11, dropped, to 32. */
	irq_work_queue(&ring->publish_work);
	irq_work_sync(&ring->publish_work);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 32ULL);
	for (i = 0; i < ARRAY_SIZE(pushed); i++) {
		push_test_reading(&r, 100 + i);
		pushed[i] = !__seqring_ring_push_one(ring, &r, true);
		stored += pushed[i];
	}
	kunit_info(test, "%u of %zu pushes stored during the resize\n",
		   stored, ARRAY_SIZE(pushed));

	push_stop_release(test, ps);
	left = wait_for_completion_timeout(&pr.done,
					   msecs_to_jiffies(PUSH_TEST_STOP_MS));
	KUNIT_EXPECT_NE(test, left, 0UL);
	KUNIT_EXPECT_EQ(test, pr.ret, 0);
	broken = READ_ONCE(ring->broken);
	KUNIT_EXPECT_FALSE(test, broken);

	for (seq = seqring_ring_oldest_seq(ring);
	     seq < seqring_ring_next_seq(ring); seq++) {
		if (!seqring_ring_copy(ring, seq, &rec) ||
		    rec.reading.value < 100)
			continue;
		i = rec.reading.value - 100;
		KUNIT_EXPECT_LT(test, i, ARRAY_SIZE(pushed));
		if (i < ARRAY_SIZE(pushed) && pushed[i]) {
			pushed[i] = false;
			found++;
		}
	}
	KUNIT_EXPECT_EQ(test, found, stored);

	/* And the ring goes on. */
	push_test_reading(&r, 1000);
	KUNIT_EXPECT_EQ(test, __seqring_ring_push_one(ring, &r, true), 0);
	expect_visible(test, ring, seqring_ring_next_seq(ring) - 1, 1000);
}

static struct kunit_case push_test_cases[] = {
	KUNIT_CASE(push_test_stop_between_chunks),
	KUNIT_CASE(push_test_stop_after_reserve),
	KUNIT_CASE(push_test_stop_before_publish),
	KUNIT_CASE(push_test_publish_bounded),
	KUNIT_CASE(push_test_batch_reschedules),
	KUNIT_CASE(push_test_resize_drops_reserved),
	{}
};

static struct kunit_suite push_test_suite = {
	.name = "seqring_push",
	.exit = push_test_exit,
	.test_cases = push_test_cases,
};

kunit_test_suite(push_test_suite);
