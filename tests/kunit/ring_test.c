// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the seqring ring (driver/ring.c)
 *
 * Built as seqring_kunit.ko when the target kernel has CONFIG_KUNIT; it
 * uses the ring functions that seqring.ko exports to the
 * EXPORTED_FOR_KUNIT_TESTING namespace, so seqring.ko must be loaded first.
 * Loading this module runs the suite "seqring_ring" and prints its KTAP
 * results to the kernel log (and to /sys/kernel/debug/kunit/seqring_ring/
 * results).
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/err.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "seqring.h"

/**
 * struct ring_test_ctx - per-test state
 * @ring: the ring under test
 * @initialized: @ring was set up and must be destroyed by ring_test_exit()
 */
struct ring_test_ctx {
	struct seqring_ring ring;
	bool initialized;
};

static int ring_test_init(struct kunit *test)
{
	struct ring_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

/* Runs even when a test case aborted on a failed assertion. */
static void ring_test_exit(struct kunit *test)
{
	struct ring_test_ctx *ctx = test->priv;

	if (ctx->initialized)
		seqring_ring_destroy(&ctx->ring);
}

/* A ring of @capacity slots, destroyed by ring_test_exit(). */
static struct seqring_ring *new_ring(struct kunit *test, u32 capacity)
{
	struct ring_test_ctx *ctx = test->priv;
	int ret = seqring_ring_init(&ctx->ring, "kunit", capacity,
				    seqring_readers_wake);

	KUNIT_ASSERT_EQ(test, ret, 0);
	ctx->initialized = true;
	return &ctx->ring;
}

/*
 * The reading that the tests push as number @i: every field derived from
 * @i, so that the reading found at a sequence number shows which push
 * stored it.
 */
static void make_reading(struct seqring_reading *r, unsigned int i)
{
	memset(r, 0, sizeof(*r));
	r->timestamp_ns = 1000000ULL + i;
	r->value = -(s64)i;
	r->channel = i % 7;
	snprintf(r->label, sizeof(r->label), "r%u", i);
}

/*
 * Push readings number @first to @first + @n - 1, one call per reading, as
 * the PUSH ioctl does.
 */
static void push_singles(struct kunit *test, struct seqring_ring *ring,
			 unsigned int first, unsigned int n)
{
	struct seqring_reading r;
	unsigned int i;

	for (i = first; i < first + n; i++) {
		make_reading(&r, i);
		KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	}
}

/* Push readings number @first to @first + @n - 1 in one call. */
static void push_batch(struct kunit *test, struct seqring_ring *ring,
		       unsigned int first, unsigned int n)
{
	struct seqring_reading *r;
	unsigned int i;

	r = kunit_kmalloc_array(test, n, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	for (i = 0; i < n; i++)
		make_reading(&r[i], first + i);
	seqring_ring_push(ring, r, n, NULL);
}

/* The slot array; the tests run alone, so no lock or RCU is needed. */
static struct seqring_slots *ring_slots(struct seqring_ring *ring)
{
	return rcu_dereference_protected(ring->slots, true);
}

/*
 * Copy the reading with sequence number @seq to @out, the lockless way
 * readers do. Returns false if the ring does not hold it.
 */
static bool ring_get(struct seqring_ring *ring, u64 seq,
		     struct seqring_reading *out)
{
	struct seqring_record rec;

	if (!seqring_ring_copy(ring, seq, &rec) || rec.seq != seq)
		return false;
	*out = rec.reading;
	return true;
}

/* The timestamp stored with @seq (0 if the ring does not hold it). */
static u64 stored_time(struct kunit *test, struct seqring_ring *ring, u64 seq)
{
	struct seqring_reading r;

	if (!ring_get(ring, seq, &r)) {
		KUNIT_FAIL(test, "seq %llu is not held", seq);
		return 0;
	}
	return r.timestamp_ns;
}

/* Index of the slot that holds @seq, or -1. */
static long ring_slot_of(struct seqring_ring *ring, u64 seq)
{
	struct seqring_slots *slots = ring_slots(ring);
	u32 i;

	for (i = 0; i < slots->capacity; i++) {
		if ((slots->slot[i].seq & SEQRING_SLOT_SEQ) == seq)
			return i;
	}
	return -1;
}

/* The ring holds sequence number @seq, and it is the reading pushed as @i. */
static void expect_held(struct kunit *test, struct seqring_ring *ring,
			u64 seq, unsigned int i)
{
	struct seqring_reading got, want;

	make_reading(&want, i);
	if (!ring_get(ring, seq, &got)) {
		KUNIT_FAIL(test, "seq %llu not found", seq);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&got, &want, sizeof(got)), 0,
			    "seq %llu: value %lld label '%s', expected %lld '%s'",
			    seq, got.value, got.label, want.value, want.label);
}

static void expect_not_held(struct kunit *test, struct seqring_ring *ring,
			    u64 seq)
{
	struct seqring_reading got;

	KUNIT_EXPECT_FALSE_MSG(test, ring_get(ring, seq, &got),
			       "seq %llu should not be held", seq);
}

/* Check the counters, and the invariant that nothing is lost silently. */
static void expect_stats(struct kunit *test, struct seqring_ring *ring,
			 u64 count, u64 total, u64 dropped, u64 cleared,
			 u64 oldest, u64 newest)
{
	struct seqring_stats st;

	memset(&st, 0xa5, sizeof(st));
	seqring_ring_stats(ring, &st);
	KUNIT_EXPECT_EQ(test, st.capacity, (u64)ring_slots(ring)->capacity);
	KUNIT_EXPECT_EQ(test, st.count, count);
	KUNIT_EXPECT_EQ(test, st.total, total);
	KUNIT_EXPECT_EQ(test, st.dropped, dropped);
	KUNIT_EXPECT_EQ(test, st.cleared, cleared);
	KUNIT_EXPECT_EQ(test, st.oldest_seq, oldest);
	KUNIT_EXPECT_EQ(test, st.newest_seq, newest);
	/* Filled whole: the 0xa5 bytes are gone from every field. */
	KUNIT_EXPECT_EQ(test, st.lost,
			(u64)atomic64_read(&ring->lost[SEQRING_LOST_FULL]) +
			atomic64_read(&ring->lost[SEQRING_LOST_DEAD]) +
			atomic64_read(&ring->lost[SEQRING_LOST_BROKEN]));
	KUNIT_EXPECT_EQ(test, st.total, st.count + st.dropped + st.cleared);
}

static void ring_test_empty(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);

	expect_stats(test, ring, 0, 0, 0, 0, 0, 0);
	expect_not_held(test, ring, 0);
	expect_not_held(test, ring, 1);
}

static void ring_test_push_into_empty(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);

	push_singles(test, ring, 1, 1);
	expect_stats(test, ring, 1, 1, 0, 0, 1, 1);
	expect_held(test, ring, 1, 1);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 1), 1L);
	expect_not_held(test, ring, 0);
	expect_not_held(test, ring, 2);
}

static void ring_test_fill_to_capacity(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	u64 seq;

	push_singles(test, ring, 1, 4);
	expect_stats(test, ring, 4, 4, 0, 0, 1, 4);
	for (seq = 1; seq <= 4; seq++) {
		expect_held(test, ring, seq, seq);
		KUNIT_EXPECT_EQ(test, ring_slot_of(ring, seq), (long)(seq % 4));
	}
	expect_not_held(test, ring, 5);
}

static void ring_test_wrap_overwrites_oldest(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	u64 seq;

	push_singles(test, ring, 1, 6);
	expect_stats(test, ring, 4, 6, 2, 0, 3, 6);
	expect_not_held(test, ring, 1);
	expect_not_held(test, ring, 2);
	for (seq = 3; seq <= 6; seq++)
		expect_held(test, ring, seq, seq);
	expect_not_held(test, ring, 7);

	/* One more full turn: everything from before is gone. */
	push_singles(test, ring, 7, 4);
	expect_stats(test, ring, 4, 10, 6, 0, 7, 10);
	for (seq = 1; seq <= 6; seq++)
		expect_not_held(test, ring, seq);
	for (seq = 7; seq <= 10; seq++)
		expect_held(test, ring, seq, seq);
}

static void ring_test_find_at_wrap_boundary(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);

	push_singles(test, ring, 1, 5);
	expect_stats(test, ring, 4, 5, 1, 0, 2, 5);

	/* Last slot of the array, then the first slot after the wrap. */
	expect_held(test, ring, 3, 3);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 3), 3L);
	expect_held(test, ring, 4, 4);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 4), 0L);
	/* Newest, in the slot of seq 1. Oldest held, third slot. */
	expect_held(test, ring, 5, 5);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 5), 1L);
	expect_held(test, ring, 2, 2);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 2), 2L);

	/* Seq 1 was just overwritten by seq 5 in the same slot. */
	expect_not_held(test, ring, 1);
	/* Not pushed yet, although its slot holds seq 2. */
	expect_not_held(test, ring, 6);
	expect_not_held(test, ring, 0);
	expect_not_held(test, ring, U64_MAX);
}

static void ring_test_clear(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	u64 seq;

	push_singles(test, ring, 1, 3);
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	expect_stats(test, ring, 0, 3, 0, 3, 0, 0);
	for (seq = 0; seq <= 4; seq++)
		expect_not_held(test, ring, seq);

	/* Clearing an empty ring changes nothing. */
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	expect_stats(test, ring, 0, 3, 0, 3, 0, 0);

	/* Sequence numbers go on; the new reading lands in the next slot. */
	push_singles(test, ring, 4, 1);
	expect_stats(test, ring, 1, 4, 0, 3, 4, 4);
	expect_held(test, ring, 4, 4);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 4), 0L);
	expect_not_held(test, ring, 3);

	/*
	 * Seqs 4 to 9 in 4 slots: 4 and 5 are overwritten. Cleared readings
	 * do not count as dropped.
	 */
	push_singles(test, ring, 5, 5);
	expect_stats(test, ring, 4, 9, 2, 3, 6, 9);
	expect_not_held(test, ring, 5);
	expect_held(test, ring, 6, 6);
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	expect_stats(test, ring, 0, 9, 2, 7, 0, 0);
}

static void ring_test_batch_larger_than_capacity(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	u64 seq;

	push_batch(test, ring, 1, 10);
	expect_stats(test, ring, 4, 10, 6, 0, 7, 10);
	for (seq = 1; seq <= 6; seq++)
		expect_not_held(test, ring, seq);
	for (seq = 7; seq <= 10; seq++) {
		expect_held(test, ring, seq, seq);
		KUNIT_EXPECT_EQ(test, ring_slot_of(ring, seq),
				(long)(seq % 4));
	}

	/* A batch starting in the middle of the array, crossing its end. */
	push_batch(test, ring, 11, 3);
	expect_stats(test, ring, 4, 13, 9, 0, 10, 13);
	for (seq = 10; seq <= 13; seq++)
		expect_held(test, ring, seq, seq);

	/* Exactly the capacity, from a slot other than 0. */
	push_batch(test, ring, 14, 4);
	expect_stats(test, ring, 4, 17, 13, 0, 14, 17);
	for (seq = 14; seq <= 17; seq++)
		expect_held(test, ring, seq, seq);

	/* An empty batch changes nothing. */
	push_batch(test, ring, 18, 0);
	expect_stats(test, ring, 4, 17, 13, 0, 14, 17);
}

/* Singles and batches of every length move the same head. */
static void ring_test_singles_and_batches(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 5);
	unsigned int next = 1, n;
	u64 seq;

	for (n = 0; n <= 11; n++) {
		push_batch(test, ring, next, n);
		next += n;
		push_singles(test, ring, next, n % 3);
		next += n % 3;
	}
	expect_stats(test, ring, 5, next - 1, next - 6, 0, next - 5,
		     next - 1);
	for (seq = next - 5; seq < next; seq++) {
		expect_held(test, ring, seq, seq);
		KUNIT_EXPECT_EQ(test, ring_slot_of(ring, seq),
				(long)(seq % 5));
	}
	expect_not_held(test, ring, next - 6);
}

/* A bad reading is refused by PUSH and stores nothing. */
static void ring_test_push_one_refuses(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	struct seqring_reading r;

	push_singles(test, ring, 1, 2);
	make_reading(&r, 3);
	r.flags = 4;
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), -EINVAL);
	make_reading(&r, 3);
	memset(r.label, '#', sizeof(r.label));
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), -EINVAL);
	expect_stats(test, ring, 2, 2, 0, 0, 1, 2);

	/* A zero timestamp is stamped in the ring. */
	make_reading(&r, 3);
	r.timestamp_ns = 0;
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	expect_stats(test, ring, 3, 3, 0, 0, 1, 3);
	KUNIT_EXPECT_NE(test, stored_time(test, ring, 3), 0ULL);
}

/* More than a page of slots: the array comes from vmalloc(). */
static void ring_test_large_ring(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 1000);
	u64 seq;

	push_batch(test, ring, 1, 2500);
	expect_stats(test, ring, 1000, 2500, 1500, 0, 1501, 2500);
	for (seq = 1501; seq <= 2500; seq++)
		expect_held(test, ring, seq, seq);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 1999), 999L);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 2000), 0L);
	expect_not_held(test, ring, 1500);
}

static void ring_test_capacity_one(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 1);

	push_singles(test, ring, 1, 1);
	expect_stats(test, ring, 1, 1, 0, 0, 1, 1);
	expect_held(test, ring, 1, 1);

	push_singles(test, ring, 2, 1);
	expect_stats(test, ring, 1, 2, 1, 0, 2, 2);
	expect_not_held(test, ring, 1);
	expect_held(test, ring, 2, 2);
	KUNIT_EXPECT_EQ(test, ring_slot_of(ring, 2), 0L);
	expect_not_held(test, ring, 3);

	push_batch(test, ring, 3, 3);
	expect_stats(test, ring, 1, 5, 4, 0, 5, 5);
	expect_held(test, ring, 5, 5);
	expect_not_held(test, ring, 4);

	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	expect_stats(test, ring, 0, 5, 4, 1, 0, 0);
	push_singles(test, ring, 6, 1);
	expect_stats(test, ring, 1, 6, 4, 1, 6, 6);
	expect_held(test, ring, 6, 6);
}

static void ring_test_prepare_flags(struct kunit *test)
{
	struct seqring_reading r;

	make_reading(&r, 1);
	r.flags = 1;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), -EINVAL);
	r.flags = 0x80000000;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), -EINVAL);
	r.flags = 0;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), 0);
}

static void ring_test_prepare_label(struct kunit *test)
{
	struct seqring_reading r, want;

	/* No NUL in the 16 bytes. */
	make_reading(&r, 1);
	memset(r.label, 'x', sizeof(r.label));
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), -EINVAL);

	/* 15 characters and the NUL: the longest valid label. */
	make_reading(&r, 1);
	memset(r.label, 'y', sizeof(r.label) - 1);
	r.label[sizeof(r.label) - 1] = '\0';
	want = r;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&r, &want, sizeof(r)), 0);

	/* Bytes after the NUL are zeroed, the rest is left alone. */
	make_reading(&r, 2);
	want = r;
	memset(r.label, 0xff, sizeof(r.label));
	memcpy(r.label, "ab", 3);
	memset(want.label, 0, sizeof(want.label));
	memcpy(want.label, "ab", 3);
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&r, &want, sizeof(r)), 0);

	/* An empty label is valid and becomes all zeroes. */
	make_reading(&r, 3);
	memset(r.label, 'z', sizeof(r.label));
	r.label[0] = '\0';
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), 0);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(r.label, 0, sizeof(r.label)),
			    NULL);
}

/*
 * Every label length from 0 to 15, with junk after the NUL: the label is
 * checked and cleaned a word at a time, so the NUL in each byte of either
 * word, and in none, are different cases.
 */
static void ring_test_prepare_label_lengths(struct kunit *test)
{
	struct seqring_reading r, want;
	unsigned int len;

	for (len = 0; len < SEQRING_LABEL_LEN; len++) {
		make_reading(&r, len);
		memset(r.label, 0xa5, sizeof(r.label));
		memset(r.label, 'L', len);
		r.label[len] = '\0';
		want = r;
		memset(want.label + len, 0, sizeof(want.label) - len);
		/*
		 * Assert: stop at the first bad length, so that the case's
		 * log (512 bytes in debugfs) keeps its result line.
		 */
		KUNIT_ASSERT_EQ_MSG(test, seqring_readings_prepare(&r, 1), 0,
				    "label length %u", len);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(&r, &want, sizeof(r)), 0,
				    "label length %u", len);
	}

	/* No NUL, whatever the bytes: 0x80 and 0x01 are near-zero cases. */
	make_reading(&r, 1);
	memset(r.label, 0x80, sizeof(r.label));
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), -EINVAL);
	memset(r.label, 0x01, sizeof(r.label));
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(&r, 1), -EINVAL);
}

/* An array: one bad reading anywhere fails it; one time for all. */
static void ring_test_prepare_array(struct kunit *test)
{
	struct seqring_ring *ring;
	struct seqring_reading r[5];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(r); i++)
		make_reading(&r[i], i);
	r[3].flags = 2;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(r, 5), -EINVAL);
	r[3].flags = 0;
	memset(r[4].label, 'x', sizeof(r[4].label));
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(r, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(r, 4), 0);
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(r, 0), 0);

	/* Zero timestamps are left for the push; one time for the batch. */
	for (i = 0; i < ARRAY_SIZE(r); i++)
		make_reading(&r[i], i);
	r[1].timestamp_ns = 0;
	r[3].timestamp_ns = 0;
	KUNIT_EXPECT_EQ(test, seqring_readings_prepare(r, 5), 0);
	KUNIT_EXPECT_EQ(test, r[1].timestamp_ns, 0ULL);
	/* Large enough for a chunk of 5 with any number of CPUs here. */
	ring = new_ring(test, 1024);
	seqring_ring_push(ring, r, 5, NULL);
	KUNIT_EXPECT_NE(test, stored_time(test, ring, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, stored_time(test, ring, 2),
			stored_time(test, ring, 4));
	KUNIT_EXPECT_EQ(test, stored_time(test, ring, 3), 1000002ULL);
}

/* The push stamps a zero timestamp when it assigns the sequence number. */
static void ring_test_push_timestamp(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 8);
	struct seqring_reading r;
	u64 before, after;

	/* Zero: stamped with the current time. */
	make_reading(&r, 1);
	r.timestamp_ns = 0;
	before = ktime_get_real_ns();
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	after = ktime_get_real_ns();
	KUNIT_EXPECT_GE(test, stored_time(test, ring, 1), before);
	KUNIT_EXPECT_LE(test, stored_time(test, ring, 1), after);

	/* Anything else is kept as given, even 1 and the largest value. */
	r.timestamp_ns = 1;
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	KUNIT_EXPECT_EQ(test, stored_time(test, ring, 2), 1ULL);
	r.timestamp_ns = U64_MAX;
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	KUNIT_EXPECT_EQ(test, stored_time(test, ring, 3), U64_MAX);

	/*
	 * A clock set back never makes a stamp earlier than the one before:
	 * with the last stamp in the future, the next stamp is that one.
	 */
	atomic64_set(&ring->last_stamp, after + 1000000000ULL);
	r.timestamp_ns = 0;
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), 0);
	KUNIT_EXPECT_EQ(test, stored_time(test, ring, 4), after + 1000000000ULL);
}

/* A copy asked for a reading no longer held gets the oldest one held. */
/*
 * A copy from @from finds sequence number @seq first, and it is the
 * reading pushed as number @seq.
 */
static void expect_copy(struct kunit *test, struct seqring_ring *ring,
			u64 from, u64 seq)
{
	struct seqring_record rec;

	if (!seqring_ring_copy(ring, from, &rec)) {
		KUNIT_FAIL(test, "nothing copied from seq %llu, expected %llu",
			   from, seq);
		return;
	}
	KUNIT_EXPECT_EQ(test, rec.seq, seq);
	KUNIT_EXPECT_EQ(test, rec.reading.value, -(s64)seq);
}

static void ring_test_copy_skips(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	struct seqring_record rec;

	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, 0, &rec));
	push_singles(test, ring, 1, 6);
	expect_copy(test, ring, 1, 3);
	expect_copy(test, ring, 6, 6);
	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, 7, &rec));
	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, U64_MAX, &rec));
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, 1, &rec));
}

/* A slot being rewritten (BUSY) is never copied as a reading. */
static void ring_test_copy_torn_slot(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	struct seqring_record rec;
	u32 idx = 2 % 4;

	push_singles(test, ring, 1, 3);
	/* What a writer leaves mid-copy, after moving oldest_seq past 2. */
	atomic64_set(ring->oldest_seq, 3);
	ring_slots(ring)->slot[idx].seq = 6 | SEQRING_SLOT_BUSY;
	KUNIT_ASSERT_TRUE(test, seqring_ring_copy(ring, 2, &rec));
	KUNIT_EXPECT_EQ(test, rec.seq, 3ULL);
}

/*
 * A broken invariant stops the ring instead of hanging it: a push whose
 * slot holds a reading from the future (only a bug or a forged region
 * makes one) warns once, stores nothing, and so does every push after it
 * (-EIO, counted in lost_broken); what the ring held is still read. The
 * warning is this test's: the line before it tells tests/vm/run.sh to
 * expect it, and the run fails if it does not come.
 */
static void ring_test_future_slot_stops(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	struct seqring_reading r;

	push_singles(test, ring, 1, 3);
	/* Seq 4 goes into slot 0: there, a reading four laps ahead. */
	ring_slots(ring)->slot[0].seq = 4 + 4 * 4;
	pr_info("seqring-vm: expect a warning at driver/ring.c\n");
	make_reading(&r, 4);
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, seqring_ring_push_one(ring, &r, NULL), -EIO);
	push_batch(test, ring, 5, 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ring->lost[SEQRING_LOST_BROKEN]),
			4LL);
	KUNIT_EXPECT_EQ(test, seqring_ring_next_seq(ring), 4ULL);
	expect_held(test, ring, 1, 1);
	expect_held(test, ring, 2, 2);
	expect_held(test, ring, 3, 3);
	expect_not_held(test, ring, 4);
}

/*
 * The previous boot's ring (persist_region.c): restored readings with a
 * hole where one was lost, then frozen. Readers step over the hole; the
 * ring refuses CLEAR and resize.
 */
static void ring_test_frozen_holes(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 8);
	struct seqring_reading r;
	struct seqring_record rec;
	unsigned int i;

	for (i = 10; i < 15; i++) {
		if (i == 12)
			continue;
		make_reading(&r, i);
		seqring_ring_restore(ring, i, &r);
	}
	seqring_ring_freeze(ring, 10, 15);
	expect_held(test, ring, 11, 11);
	expect_copy(test, ring, 12, 13);
	expect_copy(test, ring, 1, 10);
	KUNIT_EXPECT_FALSE(test, seqring_ring_copy(ring, 15, &rec));
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), -EROFS);
	KUNIT_EXPECT_EQ(test, seqring_ring_resize(ring, 16), -EROFS);
	expect_stats(test, ring, 5, 14, 9, 0, 10, 14);
}

/*
 * What a producer leaves while it stores seq @seq: reserved (head moved
 * past it) and its slot marked BUSY, not committed yet.
 */
static void fake_store_in_progress(struct seqring_ring *ring, u64 seq)
{
	atomic64_set(&ring->head, seq + 1);
	ring_slots(ring)->slot[seq % ring_slots(ring)->capacity].seq =
		seq | SEQRING_SLOT_BUSY;
}

/* ... and its commit. */
static void fake_commit(struct seqring_ring *ring, u64 seq, unsigned int i)
{
	struct seqring_slot *slot =
		&ring_slots(ring)->slot[seq % ring_slots(ring)->capacity];

	make_reading(&slot->r, i);
	/* The reading before its seq, as seqring_slot_fill() commits. */
	smp_store_release(&slot->seq, seq);
}

/*
 * Producers never wait for each other, and readings appear in sequence
 * order: a push that commits while an earlier one is still storing stays
 * unpublished, and the earlier one's publish takes both.
 */
static void ring_test_publish_waits_for_slow_producer(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 8);

	push_singles(test, ring, 1, 3);
	fake_store_in_progress(ring, 4);
	push_singles(test, ring, 5, 2);		/* seq 5 and 6, committed */
	expect_stats(test, ring, 3, 3, 0, 0, 1, 3);
	expect_not_held(test, ring, 5);

	fake_commit(ring, 4, 4);
	push_singles(test, ring, 7, 1);		/* publishes 4 to 7 */
	expect_stats(test, ring, 7, 7, 0, 0, 1, 7);
	expect_held(test, ring, 4, 4);
	expect_held(test, ring, 5, 5);
	expect_held(test, ring, 7, 7);
}

/*
 * A slot whose reading a lap before is not published yet is not free:
 * its producer may still be storing it (here: stopped after its
 * reservation, as an NMI or a hypervisor can stop a CPU). A push that
 * finds no free slot stores nothing, takes no sequence number, fails
 * with -ENOBUFS and counts it lost; it never waits. Once the slow one
 * commits and its walk publishes (the publish irq_work's walk, here),
 * pushes find free slots again, and the numbers go on without a gap.
 */
static void ring_test_no_free_slot(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 3);
	struct seqring_reading r;
	struct seqring_stats st;

	push_singles(test, ring, 1, 1);
	fake_store_in_progress(ring, 2);
	push_singles(test, ring, 3, 2);		/* seq 3 and 4, after the slow 2 */
	make_reading(&r, 5);
	KUNIT_EXPECT_EQ(test, __seqring_ring_push_one(ring, &r, true), -ENOBUFS);
	seqring_ring_stats(ring, &st);
	KUNIT_EXPECT_EQ(test, st.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&ring->head), 5ULL);
	/* 1 overwritten by 4's reservation; 2 to 4 not published yet. */
	expect_stats(test, ring, 0, 1, 1, 0, 0, 0);

	fake_commit(ring, 2, 2);
	irq_work_queue(&ring->publish_work);
	irq_work_sync(&ring->publish_work);
	expect_stats(test, ring, 3, 4, 1, 0, 2, 4);
	push_singles(test, ring, 5, 1);		/* seq 5 */
	expect_stats(test, ring, 3, 5, 2, 0, 3, 5);
	expect_held(test, ring, 3, 3);
	expect_held(test, ring, 5, 5);
	seqring_ring_stats(ring, &st);
	KUNIT_EXPECT_EQ(test, st.lost, 1ULL);
}

/*
 * The wake-up threshold is the waker's to check: a reader armed for 3
 * readings sets the ring's wake_seq to cursor + 3; pushes below it leave
 * it; the push that reaches it has the reader woken and taken off the
 * list of armed readers, out of wake_seq until it arms again. A second
 * reader with a lower threshold lowers wake_seq; the lowest target wins.
 * The wake-up runs in the ring's worker: flushed before each look.
 */
static void ring_test_wake_threshold(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 8);
	struct seqring_reader a, b;

	seqring_reader_init(&a, ring);
	seqring_reader_init(&b, ring);
	KUNIT_EXPECT_EQ(test, ring->wake_seq, U64_MAX);

	a.wakeup = 3;
	KUNIT_EXPECT_FALSE(test, seqring_reader_arm(&a, ring));
	KUNIT_EXPECT_EQ(test, ring->wake_seq, 4ULL);
	KUNIT_EXPECT_TRUE(test, a.armed);
	push_singles(test, ring, 1, 2);
	flush_work(&ring->wake_work);
	KUNIT_EXPECT_EQ(test, ring->wake_seq, 4ULL);
	KUNIT_EXPECT_FALSE(test, seqring_reader_ready(&a, ring));
	KUNIT_EXPECT_TRUE(test, a.armed);
	push_singles(test, ring, 3, 1);
	flush_work(&ring->wake_work);
	KUNIT_EXPECT_TRUE(test, seqring_reader_ready(&a, ring));
	KUNIT_EXPECT_EQ(test, ring->wake_seq, U64_MAX);
	KUNIT_EXPECT_FALSE(test, a.armed);
	KUNIT_EXPECT_TRUE(test, list_empty(&ring->readers));

	/* a read all three; b wants 1, a 3 more: b's target is lower. */
	atomic64_set(&a.cursor, 4);
	KUNIT_EXPECT_FALSE(test, seqring_reader_arm(&a, ring));
	atomic64_set(&b.cursor, 4);
	KUNIT_EXPECT_FALSE(test, seqring_reader_arm(&b, ring));
	KUNIT_EXPECT_EQ(test, ring->wake_seq, 5ULL);
	push_singles(test, ring, 4, 1);
	flush_work(&ring->wake_work);
	/* b woken and off the list; a still waits for seq 7. */
	KUNIT_EXPECT_EQ(test, ring->wake_seq, 7ULL);
	KUNIT_EXPECT_FALSE(test, b.armed);
	KUNIT_EXPECT_TRUE(test, a.armed);

	/* A threshold above the capacity counts as the capacity. */
	a.wakeup = 100;
	KUNIT_EXPECT_EQ(test, seqring_reader_target(&a, 8), 4ULL + 8);

	seqring_reader_disarm(&a, ring);
	seqring_reader_disarm(&b, ring);
	KUNIT_EXPECT_TRUE(test, list_empty(&ring->readers));
}

/*
 * Counter readers take no lock a writer holds, on PREEMPT_RT too: the
 * counters' seqcount is associated with the raw clear_lock (with a
 * seqcount_spinlock_t or seqcount_mutex_t, RT readers that see a write in
 * progress take that lock), and a snapshot can be taken where sleeping is
 * not allowed. Another seqcount type there fails the build of this test.
 */
static void ring_test_stats_lockless(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	struct seqring_stats st;

	BUILD_BUG_ON(!__same_type(ring->stats_seq, seqcount_raw_spinlock_t));
	push_singles(test, ring, 1, 6);
	preempt_disable();
	seqring_ring_stats(ring, &st);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, st.total, st.count + st.dropped + st.cleared);
	KUNIT_EXPECT_EQ(test, st.total, 6ULL);
}

/* Resizing keeps the newest readings that fit, and the counters add up. */
static void ring_test_resize(struct kunit *test)
{
	struct seqring_ring *ring = new_ring(test, 4);
	u64 seq;

	push_singles(test, ring, 1, 6);
	KUNIT_ASSERT_EQ(test, seqring_ring_resize(ring, 10), 0);
	expect_stats(test, ring, 4, 6, 2, 0, 3, 6);
	for (seq = 3; seq <= 6; seq++) {
		expect_held(test, ring, seq, seq);
		KUNIT_EXPECT_EQ(test, ring_slot_of(ring, seq), (long)seq);
	}
	/* The new head is right: more pushes land after the kept ones. */
	push_singles(test, ring, 7, 6);
	expect_stats(test, ring, 10, 12, 2, 0, 3, 12);
	for (seq = 3; seq <= 12; seq++)
		expect_held(test, ring, seq, seq);

	/* Down: only the newest 3 stay, the other 7 count as dropped. */
	KUNIT_ASSERT_EQ(test, seqring_ring_resize(ring, 3), 0);
	expect_stats(test, ring, 3, 12, 9, 0, 10, 12);
	expect_not_held(test, ring, 9);
	for (seq = 10; seq <= 12; seq++)
		expect_held(test, ring, seq, seq);
	push_singles(test, ring, 13, 1);
	expect_stats(test, ring, 3, 13, 10, 0, 11, 13);
	expect_held(test, ring, 13, 13);

	KUNIT_EXPECT_EQ(test, seqring_ring_resize(ring, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, seqring_ring_resize(ring, SEQRING_CAPACITY_MAX + 1),
			-EINVAL);
	expect_stats(test, ring, 3, 13, 10, 0, 11, 13);

	/* An empty ring after CLEAR stays empty. */
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(ring), 0);
	KUNIT_ASSERT_EQ(test, seqring_ring_resize(ring, 1), 0);
	expect_stats(test, ring, 0, 13, 10, 3, 0, 0);
}

/* Print @s with seqring_seq_escape() into a seq_file of our own. */
static const char *escaped(struct kunit *test, const char *s)
{
	struct seq_file *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	m->size = 128;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m->buf);
	seqring_seq_escape(m, s);
	KUNIT_ASSERT_LT(test, m->count, m->size);
	m->buf[m->count] = '\0';
	return m->buf;
}

static void ring_test_escape(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, escaped(test, "kitchen"), "kitchen");
	KUNIT_EXPECT_STREQ(test, escaped(test, ""), "-");
	KUNIT_EXPECT_STREQ(test, escaped(test, "-"), "\\055");
	KUNIT_EXPECT_STREQ(test, escaped(test, "--"), "--");
	KUNIT_EXPECT_STREQ(test, escaped(test, "a-b"), "a-b");
	KUNIT_EXPECT_STREQ(test, escaped(test, "a b\\"), "a\\040b\\134");
	KUNIT_EXPECT_STREQ(test, escaped(test, "\t\n\r\v\f\x1b"),
			   "\\011\\012\\015\\013\\014\\033");
	KUNIT_EXPECT_STREQ(test, escaped(test, "\x1c\x1d\x1e\x1f\x7f"),
			   "\\034\\035\\036\\037\\177");
	KUNIT_EXPECT_STREQ(test, escaped(test, "caf\xc3\xa9"), "caf\\303\\251");
	KUNIT_EXPECT_STREQ(test, escaped(test, "\xff\xff\xff\xff\xff\xff\xff\xff"
					 "\xff\xff\xff\xff\xff\xff\xff"),
			   "\\377\\377\\377\\377\\377\\377\\377\\377"
			   "\\377\\377\\377\\377\\377\\377\\377");
	KUNIT_EXPECT_STREQ(test, escaped(test, "~!\"#$%&'()*+,./:;<=>?@[]^_`{|}"),
			   "~!\"#$%&'()*+,./:;<=>?@[]^_`{|}");
}

/**
 * struct walk - the listing's iterator driven by hand, as seq_read_iter()
 *	and traverse() drive it
 * @sr: a device around the ring under test
 * @it: the iterator of one open file
 * @m: its seq_file
 * @v: what start() or next() returned last
 * @walking: between start() and stop()
 */
struct walk {
	struct seqring sr;
	struct seqring_iter it;
	struct seq_file m;
	void *v;
	bool walking;
};

static struct walk *walk_open(struct kunit *test, u32 capacity)
{
	struct walk *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	KUNIT_ASSERT_EQ(test, seqring_ring_init(&w->sr.ring, "kunit",
						capacity, seqring_readers_wake),
			0);
	w->it.sr = &w->sr;
	w->it.end = seqring_ring_next_seq(&w->sr.ring);
	w->m.private = &w->it;
	return w;
}

static void walk_close(struct walk *w)
{
	seqring_ring_destroy(&w->sr.ring);
}

/* Sequence number of what the iterator returned: 0 header, -1 the end. */
static long long walk_at(struct walk *w)
{
	if (w->v == SEQ_START_TOKEN)
		return 0;
	if (!w->v || IS_ERR(w->v))
		return -1;
	return ((struct seqring_record *)w->v)->seq;
}

static long long walk_start(struct walk *w)
{
	w->v = seqring_listing_sops.start(&w->m, &w->m.index);
	w->walking = true;
	return walk_at(w);
}

static long long walk_next(struct kunit *test, struct walk *w)
{
	loff_t pos = w->m.index;

	w->v = seqring_listing_sops.next(&w->m, w->v, &w->m.index);
	/* seq_file's "buggy .next function" check. */
	KUNIT_EXPECT_NE(test, w->m.index, pos);
	return walk_at(w);
}

static void walk_stop(struct kunit *test, struct walk *w)
{
	seqring_listing_sops.stop(&w->m, w->v);
	w->walking = false;
	/* Needs lockdep (the debug kernel has it) to tell. */
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
}

/*
 * Push as a producer on another CPU would, between two calls of the walk:
 * a push sleeps, which it may not do in the walk's RCU read section.
 */
static void push_to(struct kunit *test, struct walk *w, unsigned int first,
		    unsigned int n)
{
	if (w->walking)
		rcu_read_unlock();
	push_singles(test, &w->sr.ring, first, n);
	if (w->walking)
		rcu_read_lock();
}

/*
 * Pushes and overwrites between next() calls: the walk skips what was
 * overwritten, never goes back, and stops at the newest reading held when
 * it began; the walk is in an RCU read section from start() to stop() and
 * only there.
 */
static void ring_test_iter_overwrite(struct kunit *test)
{
	struct walk *w = walk_open(test, 4);

	push_to(test, w, 1, 4);
	w->it.end = seqring_ring_next_seq(&w->sr.ring);	/* opened now */

	KUNIT_EXPECT_EQ(test, walk_start(w), 0LL);
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_held());
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 1LL);
	/* 5 and 6 overwrite 1 and 2: 2 is skipped, 3 comes next. */
	push_to(test, w, 5, 2);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 3LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 4LL);
	/* 5 and 6 came after the reader began: this walk ends before them. */
	KUNIT_EXPECT_EQ(test, walk_next(test, w), -1LL);
	walk_stop(test, w);

	/* The next read() starts where this one stopped: still the end. */
	KUNIT_EXPECT_EQ(test, walk_start(w), -1LL);
	walk_stop(test, w);

	/* After two read()s returned end of file, 5 and 6 are shown. */
	w->it.rescan = true;
	KUNIT_EXPECT_EQ(test, walk_start(w), 5LL);
	/* Everything the walk has not reached is overwritten. */
	push_to(test, w, 7, 8);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), -1LL);
	walk_stop(test, w);
	w->it.rescan = true;
	KUNIT_EXPECT_EQ(test, walk_start(w), 11LL);
	walk_stop(test, w);
	walk_close(w);
}

/* A CLEAR between two read() calls: the next walk shows only newer ones. */
static void ring_test_iter_clear(struct kunit *test)
{
	struct walk *w = walk_open(test, 8);

	push_to(test, w, 1, 5);
	w->it.end = seqring_ring_next_seq(&w->sr.ring);

	KUNIT_EXPECT_EQ(test, walk_start(w), 0LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 1LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 2LL);
	walk_stop(test, w);

	/* A CLEAR between two reads: the walk goes on after what it had. */
	KUNIT_EXPECT_EQ(test, seqring_ring_clear(&w->sr.ring), 0);
	KUNIT_EXPECT_EQ(test, walk_start(w), -1LL);
	walk_stop(test, w);

	push_to(test, w, 6, 2);
	w->it.rescan = true;
	KUNIT_EXPECT_EQ(test, walk_start(w), 6LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 7LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), -1LL);
	walk_stop(test, w);

	/* A replay from the header (lseek, pread) shows the same again. */
	w->m.index = 0;
	KUNIT_EXPECT_EQ(test, walk_start(w), 0LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 6LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 7LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), -1LL);
	walk_stop(test, w);
	walk_close(w);
}

/* A walk of a device that is going ends at its next record; none starts. */
static void ring_test_iter_dying(struct kunit *test)
{
	struct walk *w = walk_open(test, 8);

	push_to(test, w, 1, 5);
	w->it.end = seqring_ring_next_seq(&w->sr.ring);
	KUNIT_EXPECT_EQ(test, walk_start(w), 0LL);
	KUNIT_EXPECT_EQ(test, walk_next(test, w), 1LL);
	w->sr.dying = true;
	walk_next(test, w);
	KUNIT_EXPECT_TRUE(test, IS_ERR(w->v));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(w->v), -ENODEV);
	walk_stop(test, w);

	/* seq_lseek() leaves a failed seek at 0: no header there either. */
	w->m.index = 0;
	walk_start(w);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(w->v), -ENODEV);
	walk_stop(test, w);
	walk_close(w);
}

/*
 * /proc/seqring exists before misc_register(), which can still fail: until
 * init is done (and once exit has begun) the listing refuses to open, so
 * that no file of a load that fails is ever open.
 */
static void ring_test_open_gate(struct kunit *test)
{
	struct seqring *sr = kunit_kzalloc(test, sizeof(*sr), GFP_KERNEL);
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	KUNIT_ASSERT_EQ(test, seqring_ring_init(&sr->ring, "kunit", 4,
						seqring_readers_wake), 0);

	KUNIT_EXPECT_EQ(test, seqring_listing_open_dev(file, sr), -ENODEV);
	KUNIT_EXPECT_PTR_EQ(test, file->private_data, NULL);

	sr->ready = true;
	KUNIT_EXPECT_EQ(test, seqring_listing_open_dev(file, sr), 0);
	KUNIT_EXPECT_PTR_NE(test, file->private_data, NULL);
	if (file->private_data)
		seq_release_private(NULL, file);

	file->private_data = NULL;
	sr->dying = true;
	KUNIT_EXPECT_EQ(test, seqring_listing_open_dev(file, sr), -ENODEV);
	seqring_ring_destroy(&sr->ring);
}

static struct kunit_case ring_test_cases[] = {
	KUNIT_CASE(ring_test_empty),
	KUNIT_CASE(ring_test_push_into_empty),
	KUNIT_CASE(ring_test_fill_to_capacity),
	KUNIT_CASE(ring_test_wrap_overwrites_oldest),
	KUNIT_CASE(ring_test_find_at_wrap_boundary),
	KUNIT_CASE(ring_test_clear),
	KUNIT_CASE(ring_test_batch_larger_than_capacity),
	KUNIT_CASE(ring_test_singles_and_batches),
	KUNIT_CASE(ring_test_push_one_refuses),
	KUNIT_CASE(ring_test_large_ring),
	KUNIT_CASE(ring_test_capacity_one),
	KUNIT_CASE(ring_test_prepare_flags),
	KUNIT_CASE(ring_test_prepare_label),
	KUNIT_CASE(ring_test_prepare_label_lengths),
	KUNIT_CASE(ring_test_prepare_array),
	KUNIT_CASE(ring_test_push_timestamp),
	KUNIT_CASE(ring_test_copy_skips),
	KUNIT_CASE(ring_test_copy_torn_slot),
	KUNIT_CASE(ring_test_future_slot_stops),
	KUNIT_CASE(ring_test_frozen_holes),
	KUNIT_CASE(ring_test_publish_waits_for_slow_producer),
	KUNIT_CASE(ring_test_no_free_slot),
	KUNIT_CASE(ring_test_resize),
	KUNIT_CASE(ring_test_wake_threshold),
	KUNIT_CASE(ring_test_stats_lockless),
	KUNIT_CASE(ring_test_escape),
	KUNIT_CASE(ring_test_iter_overwrite),
	KUNIT_CASE(ring_test_iter_clear),
	KUNIT_CASE(ring_test_iter_dying),
	KUNIT_CASE(ring_test_open_gate),
	{}
};

static struct kunit_suite ring_test_suite = {
	.name = "seqring_ring",
	.init = ring_test_init,
	.exit = ring_test_exit,
	.test_cases = ring_test_cases,
};

kunit_test_suite(ring_test_suite);

MODULE_DESCRIPTION("KUnit tests for the seqring ring");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
