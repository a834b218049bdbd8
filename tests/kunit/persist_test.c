// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the persistent ring's format (driver/persist.c): what a
 * region found at boot is taken for, whatever it holds.
 *
 * Each region is a vmalloc() of exactly its size, so that on a KASAN
 * kernel a read past its end is reported, and a guard page follows it on
 * any kernel.
 */

#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "seqring.h"

#define REGION_PAGES	16

static void *new_region(struct kunit *test, size_t size)
{
	void *region = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, region);
	return region;
}

static void free_region(void *region)
{
	vfree(region);
}

/* A producer's store, as the ring does it into a persistent region. */
static void put_reading(void *region, const struct seqring_persist_layout *lay,
			u64 seq, s64 value)
{
	struct seqring_slot *slot = (struct seqring_slot *)(region + lay->slots_offset) +
				    seq % lay->capacity;
	struct seqring_mmap_meta *meta = region + lay->meta_offset;

	memset(&slot->r, 0, sizeof(slot->r));
	slot->r.value = value;
	slot->r.timestamp_ns = seq * 1000;
	strscpy(slot->r.label, "persist", sizeof(slot->r.label));
	seqring_persist_store(region, lay, seq, slot);
	slot->seq = seq;
	meta->next_seq = seq + 1;
	if (seq >= lay->capacity + meta->oldest_seq)
		meta->oldest_seq = seq - lay->capacity + 1;
}

/* A formatted region of REGION_PAGES pages with readings 1..@n. */
static void *filled_region(struct kunit *test, struct seqring_persist_layout *lay,
			   u64 n)
{
	void *region = new_region(test, REGION_PAGES * PAGE_SIZE);
	u64 seq;

	KUNIT_ASSERT_EQ(test, seqring_persist_layout(REGION_PAGES * PAGE_SIZE, lay), 0);
	seqring_persist_format(region, lay, 1);
	for (seq = 1; seq <= n; seq++)
		put_reading(region, lay, seq, -(s64)seq);
	return region;
}

static void persist_test_layout(struct kunit *test)
{
	static const struct {
		size_t size;
		int ret;
	} cases[] = {
		{ 0, -EINVAL },
		{ PAGE_SIZE, -EINVAL },
		{ 3 * PAGE_SIZE, -EINVAL },
		{ 4 * PAGE_SIZE + 1, -EINVAL },
		{ 4 * PAGE_SIZE, 0 },
		{ 16 * PAGE_SIZE, 0 },
		{ 256 * PAGE_SIZE, 0 },
		{ 512 * PAGE_SIZE, 0 },
	};
	struct seqring_persist_layout lay;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = seqring_persist_layout(cases[i].size, &lay);

		KUNIT_EXPECT_EQ_MSG(test, ret, cases[i].ret, "size %zu", cases[i].size);
		if (ret)
			continue;
		/* Every part inside, none overlapping, no room for one more. */
		KUNIT_EXPECT_GT(test, lay.capacity, 0U);
		KUNIT_EXPECT_EQ(test, lay.slots_offset, 2 * PAGE_SIZE);
		KUNIT_EXPECT_GE(test, lay.slots_size,
				(size_t)lay.capacity * sizeof(struct seqring_slot));
		KUNIT_EXPECT_EQ(test, lay.crcs_offset, lay.slots_offset + lay.slots_size);
		KUNIT_EXPECT_LE(test, lay.crcs_offset + lay.capacity * sizeof(u32),
				cases[i].size);
		KUNIT_EXPECT_GT(test, 2 * PAGE_SIZE +
				PAGE_ALIGN((lay.capacity + 1) * sizeof(struct seqring_slot)) +
				PAGE_ALIGN((lay.capacity + 1) * sizeof(u32)),
				cases[i].size);
	}
}

static void persist_test_empty_and_noise(struct kunit *test)
{
	size_t size = REGION_PAGES * PAGE_SIZE;
	struct seqring_persist_result res;
	void *region = new_region(test, size);

	KUNIT_EXPECT_EQ(test, seqring_persist_scan(region, size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_EMPTY);

	get_random_bytes(region, size);
	KUNIT_EXPECT_EQ(test, seqring_persist_scan(region, size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_NOISE);
	free_region(region);
}

static void persist_test_found(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	struct seqring_reading r;
	void *region = filled_region(test, &lay, 100);
	u64 seq;

	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.first_seq, 1ULL);
	KUNIT_EXPECT_EQ(test, res.next_seq, 101ULL);
	KUNIT_EXPECT_EQ(test, res.end_seq, 101ULL);
	KUNIT_EXPECT_EQ(test, res.valid, 100ULL);
	KUNIT_EXPECT_EQ(test, res.last_valid, 100ULL);
	KUNIT_EXPECT_EQ(test, res.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, res.refused, 0ULL);
	for (seq = 1; seq <= 100; seq++) {
		KUNIT_ASSERT_EQ(test, seqring_persist_reading(region, &lay, seq, &r),
				SEQRING_PERSIST_INTACT);
		KUNIT_EXPECT_EQ(test, r.value, -(s64)seq);
		KUNIT_EXPECT_STREQ(test, r.label, "persist");
	}
	free_region(region);
}

/* Readings overwritten by the ring's own wrap-around are not counted. */
static void persist_test_wrapped(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	void *region;

	KUNIT_ASSERT_EQ(test, seqring_persist_layout(REGION_PAGES * PAGE_SIZE, &lay), 0);
	region = filled_region(test, &lay, 2 * lay.capacity + 7);
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.first_seq, (u64)lay.capacity + 8);
	KUNIT_EXPECT_EQ(test, res.valid, (u64)lay.capacity);
	KUNIT_EXPECT_EQ(test, res.lost, 0ULL);
	free_region(region);
}

/* A damaged slot loses its reading, and only that one. */
static void persist_test_damaged_slots(struct kunit *test)
{
	static const char *const what[] = {
		"a byte of the reading", "the seq word", "busy", "the checksum",
	};
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	struct seqring_reading r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(what); i++) {
		void *region = filled_region(test, &lay, 50);
		struct seqring_slot *slot = (struct seqring_slot *)(region + lay.slots_offset) + 20;
		u32 *crc = (u32 *)(region + lay.crcs_offset) + 20;

		switch (i) {
		case 0:
			slot->r.label[3] ^= 0x20;
			break;
		case 1:
			slot->seq = 21;
			break;
		case 2:
			slot->seq |= SEQRING_SLOT_BUSY;
			break;
		case 3:
			*crc ^= 1;
			break;
		}
		KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
		KUNIT_EXPECT_EQ_MSG(test, res.valid, 49ULL, "%s", what[i]);
		KUNIT_EXPECT_EQ_MSG(test, res.lost, 1ULL, "%s", what[i]);
		KUNIT_EXPECT_NE_MSG(test, seqring_persist_reading(region, &lay, 20, &r),
				    SEQRING_PERSIST_INTACT, "%s", what[i]);
		KUNIT_EXPECT_EQ(test, seqring_persist_reading(region, &lay, 21, &r),
				SEQRING_PERSIST_INTACT);
		free_region(region);
	}
}

/* Headers that lie about the region are refused, whatever their checksum. */
static void persist_test_crafted_header(struct kunit *test)
{
	static const struct {
		const char *what;
		enum seqring_persist_verdict verdict;
	} cases[] = {
		{ "capacity larger than the region", SEQRING_PERSIST_BAD_HEADER },
		{ "region size", SEQRING_PERSIST_BAD_HEADER },
		{ "page size", SEQRING_PERSIST_BAD_HEADER },
		{ "slot size", SEQRING_PERSIST_BAD_HEADER },
		{ "checksum", SEQRING_PERSIST_BAD_HEADER },
		{ "version", SEQRING_PERSIST_VERSION_UNKNOWN },
		{ "next_seq 0", SEQRING_PERSIST_BAD_META },
		{ "next_seq with the busy bit", SEQRING_PERSIST_BAD_META },
	};
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		void *region = filled_region(test, &lay, 10);
		struct seqring_persist_header *h = region;
		struct seqring_mmap_meta *meta = region + lay.meta_offset;
		bool recrc = true;

		switch (i) {
		case 0:
			h->capacity = U32_MAX;
			break;
		case 1:
			h->region_size *= 2;
			break;
		case 2:
			h->page_size = 65536;
			break;
		case 3:
			h->slot_size = 64;
			break;
		case 4:
			h->capacity--;
			recrc = false;
			break;
		case 5:
			h->version = 2;
			break;
		case 6:
			meta->next_seq = 0;
			break;
		case 7:
			meta->next_seq = SEQRING_SLOT_BUSY | 5;
			break;
		}
		if (recrc) {
			/* As a forger would: a header that checks out. */
			h->header_crc = 0;
			h->header_crc = crc32_le(~0U, (const u8 *)h, sizeof(*h));
		}
		KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
		KUNIT_EXPECT_EQ_MSG(test, res.verdict, cases[i].verdict, "%s", cases[i].what);
		free_region(region);
	}
}

/* Counters far from the slots: the scan looks at one capacity at most. */
static void persist_test_far_counters(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	void *region = filled_region(test, &lay, 10);
	struct seqring_mmap_meta *meta = region + lay.meta_offset;

	meta->next_seq = SEQRING_PERSIST_SEQ_MAX;
	meta->oldest_seq = 1;
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.valid, 0ULL);
	KUNIT_EXPECT_EQ(test, res.lost, (u64)lay.capacity);
	KUNIT_EXPECT_EQ(test, res.end_seq, SEQRING_PERSIST_SEQ_MAX);

	/* oldest above next, and nothing stored from there on: nothing held. */
	meta->next_seq = 5;
	meta->oldest_seq = 20;
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.valid + res.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, res.first_seq, res.end_seq);
	free_region(region);
}

/*
 * A reading forged as a writer of the region would: its checksum made to
 * match, whatever it holds.
 */
static void forge_reading(void *region, const struct seqring_persist_layout *lay,
			  u64 seq, const struct seqring_reading *r)
{
	struct seqring_slot *slot = (struct seqring_slot *)(region + lay->slots_offset) +
				    seq % lay->capacity;
	u32 *crcs = region + lay->crcs_offset;

	slot->r = *r;
	slot->seq = seq;
	crcs[seq % lay->capacity] = seqring_persist_crc(seq, r);
}

/*
 * Counters at and near the BUSY bit and the top of 64 bits, from a forger
 * who keeps every checksum right: refused above SEQRING_PERSIST_SEQ_MAX,
 * so that the new ring, which goes on after the newest intact reading,
 * can never reach the BUSY bit. The first case is the region of issue 34:
 * the newest intact reading at 2^63 - 2.
 */
static void persist_test_seq_bound(struct kunit *test)
{
	static const struct {
		u64 next, oldest;
		enum seqring_persist_verdict verdict;
	} cases[] = {
		{ BIT_ULL(63) - 1, BIT_ULL(63) - 2, SEQRING_PERSIST_BAD_META },
		{ BIT_ULL(63), BIT_ULL(63) - 1, SEQRING_PERSIST_BAD_META },
		{ BIT_ULL(63) + 1, 1, SEQRING_PERSIST_BAD_META },
		{ U64_MAX, U64_MAX - 1, SEQRING_PERSIST_BAD_META },
		{ U64_MAX - 1, 1, SEQRING_PERSIST_BAD_META },
		{ SEQRING_PERSIST_SEQ_MAX + 1, SEQRING_PERSIST_SEQ_MAX, SEQRING_PERSIST_BAD_META },
		{ 100, SEQRING_PERSIST_SEQ_MAX + 1, SEQRING_PERSIST_BAD_META },
		{ 100, U64_MAX, SEQRING_PERSIST_BAD_META },
		{ SEQRING_PERSIST_SEQ_MAX, SEQRING_PERSIST_SEQ_MAX - 1, SEQRING_PERSIST_FOUND },
		{ SEQRING_PERSIST_SEQ_MAX, 1, SEQRING_PERSIST_FOUND },
	};
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	struct seqring_reading r = { .value = 7, .timestamp_ns = 1, .label = "edge" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		void *region = filled_region(test, &lay, 0);
		struct seqring_mmap_meta *meta = region + lay.meta_offset;

		/* The newest reading just below next, as a forger puts it. */
		forge_reading(region, &lay, cases[i].next - 1, &r);
		meta->next_seq = cases[i].next;
		meta->oldest_seq = cases[i].oldest;
		KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
		KUNIT_EXPECT_EQ_MSG(test, res.verdict, cases[i].verdict,
				    "next %llu oldest %llu", cases[i].next,
				    cases[i].oldest);
		if (res.verdict == SEQRING_PERSIST_FOUND) {
			KUNIT_EXPECT_EQ(test, res.valid, 1ULL);
			KUNIT_EXPECT_LE(test, res.last_valid + 1, SEQRING_PERSIST_SEQ_MAX);
			KUNIT_EXPECT_LE(test, res.end_seq, SEQRING_PERSIST_SEQ_MAX);
		}
		free_region(region);
	}
}

/*
 * Readings whose checksum a forger made right but that no push could have
 * made are refused and counted, one field or one byte at a time: every
 * flag bit, a label without its NUL (0xff bytes too), a byte after the NUL.
 * Labels a push does store (control bytes, 0xff before the NUL, empty)
 * are kept.
 */
static void persist_test_refused(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	struct seqring_reading r, got;
	unsigned int i, n = 0;
	void *region = filled_region(test, &lay, 0);
	struct seqring_mmap_meta *meta = region + lay.meta_offset;
	u64 seq = 1;

	/* Refused: flag bits, one at a time. */
	for (i = 0; i < 32; i++, seq++) {
		memset(&r, 0, sizeof(r));
		r.flags = BIT(i);
		strscpy(r.label, "flag", sizeof(r.label));
		forge_reading(region, &lay, seq, &r);
		KUNIT_EXPECT_EQ_MSG(test, seqring_persist_reading(region, &lay, seq, &got),
				    SEQRING_PERSIST_REFUSED, "flag bit %u", i);
		n++;
	}
	/* Refused: 16 bytes and no NUL. */
	memset(&r, 0, sizeof(r));
	memset(r.label, 'x', sizeof(r.label));
	forge_reading(region, &lay, seq, &r);
	KUNIT_EXPECT_EQ(test, seqring_persist_reading(region, &lay, seq++, &got),
			SEQRING_PERSIST_REFUSED);
	n++;
	memset(r.label, 0xff, sizeof(r.label));
	forge_reading(region, &lay, seq, &r);
	KUNIT_EXPECT_EQ(test, seqring_persist_reading(region, &lay, seq++, &got),
			SEQRING_PERSIST_REFUSED);
	n++;
	/* Refused: a byte after the NUL, at each place it can be. */
	for (i = 2; i < SEQRING_LABEL_LEN; i++, seq++) {
		memset(&r, 0, sizeof(r));
		r.label[0] = 'a';
		r.label[i] = 'z';
		forge_reading(region, &lay, seq, &r);
		KUNIT_EXPECT_EQ_MSG(test, seqring_persist_reading(region, &lay, seq, &got),
				    SEQRING_PERSIST_REFUSED, "byte at %u", i);
		n++;
	}
	/* Kept: what a push stores. */
	memset(&r, 0, sizeof(r));
	memcpy(r.label, "\x01\x1f\x7f\xff\\ -", 7);
	r.value = S64_MIN;
	r.timestamp_ns = U64_MAX;
	r.channel = U32_MAX;
	forge_reading(region, &lay, seq, &r);
	KUNIT_EXPECT_EQ(test, seqring_persist_reading(region, &lay, seq, &got),
			SEQRING_PERSIST_INTACT);
	KUNIT_EXPECT_EQ(test, memcmp(&got, &r, sizeof(r)), 0);
	seq++;
	memset(&r, 0, sizeof(r));
	memset(r.label, 'y', SEQRING_LABEL_LEN - 1);
	forge_reading(region, &lay, seq, &r);
	KUNIT_EXPECT_EQ(test, seqring_persist_reading(region, &lay, seq++, &got),
			SEQRING_PERSIST_INTACT);

	meta->next_seq = seq;
	meta->oldest_seq = 1;
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.refused, (u64)n);
	KUNIT_EXPECT_EQ(test, res.valid, 2ULL);
	KUNIT_EXPECT_EQ(test, res.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, res.last_valid, seq - 1);
	free_region(region);
}

/*
 * A producer stopped in the middle of a store (its slot BUSY) holds back
 * next_seq; readings stored after it are above next_seq, and kept. A
 * hole above next_seq is lost; refused readings are counted wherever they
 * are; slots above the newest intact reading, which held older readings,
 * are neither.
 */
static void persist_test_above_next(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	struct seqring_reading r = { .timestamp_ns = 1, .label = "late" };
	void *region = filled_region(test, &lay, 21);
	struct seqring_mmap_meta *meta = region + lay.meta_offset;
	struct seqring_slot *slots = region + lay.slots_offset;
	u64 seq;

	/* 21 published; 22 stopped mid-store; 23..30 stored, 25 torn. */
	slots[22 % lay.capacity].seq = 22 | SEQRING_SLOT_BUSY;
	for (seq = 23; seq <= 30; seq++)
		forge_reading(region, &lay, seq, &r);
	slots[25 % lay.capacity].r.value ^= 1;
	/* A refused reading above the newest intact one: not in the range. */
	r.flags = 1;
	forge_reading(region, &lay, 35, &r);
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_FOUND);
	KUNIT_EXPECT_EQ(test, res.next_seq, 22ULL);
	KUNIT_EXPECT_EQ(test, res.first_seq, 1ULL);
	KUNIT_EXPECT_EQ(test, res.end_seq, 31ULL);
	KUNIT_EXPECT_EQ(test, res.last_valid, 30ULL);
	KUNIT_EXPECT_EQ(test, res.valid, 21ULL + 7);
	KUNIT_EXPECT_EQ(test, res.lost, 2ULL);
	KUNIT_EXPECT_EQ(test, res.refused, 1ULL);

	/* oldest_seq raised past next_seq by the producers that went on. */
	meta->oldest_seq = 24;
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.first_seq, 24ULL);
	KUNIT_EXPECT_EQ(test, res.end_seq, 31ULL);
	KUNIT_EXPECT_EQ(test, res.valid, 6ULL);
	KUNIT_EXPECT_EQ(test, res.lost, 1ULL);
	free_region(region);
}

/* The header's reserved word, which the format writes zero. */
static void persist_test_header_reserved(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	void *region = filled_region(test, &lay, 10);
	struct seqring_persist_header *h = region;

	h->reserved = 1;
	h->header_crc = 0;
	h->header_crc = crc32_le(~0U, (const u8 *)h, sizeof(*h));
	KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
	KUNIT_EXPECT_EQ(test, res.verdict, SEQRING_PERSIST_BAD_HEADER);
	free_region(region);
}

/* The largest capacity, whatever the size: layouts only, nothing mapped. */
static void persist_test_layout_max(struct kunit *test)
{
	struct seqring_persist_layout lay;
	size_t need = 2 * PAGE_SIZE +
		      PAGE_ALIGN((size_t)SEQRING_CAPACITY_MAX * sizeof(struct seqring_slot)) +
		      PAGE_ALIGN((size_t)SEQRING_CAPACITY_MAX * sizeof(u32));

	KUNIT_ASSERT_EQ(test, seqring_persist_layout(need, &lay), 0);
	KUNIT_EXPECT_EQ(test, lay.capacity, SEQRING_CAPACITY_MAX);
	KUNIT_ASSERT_EQ(test, seqring_persist_layout(need - PAGE_SIZE, &lay), 0);
	KUNIT_EXPECT_LT(test, lay.capacity, SEQRING_CAPACITY_MAX);
	KUNIT_ASSERT_EQ(test, seqring_persist_layout(64 * need, &lay), 0);
	KUNIT_EXPECT_EQ(test, lay.capacity, SEQRING_CAPACITY_MAX);
	KUNIT_EXPECT_LE(test, lay.crcs_offset + lay.capacity * sizeof(u32), 64 * need);
}

/*
 * Random headers that check out, random counters, random slots: the
 * scan ends, never reads outside (KASAN, the guard page), and counts
 * no more than it looked at.
 */
static void persist_test_fuzz(struct kunit *test)
{
	struct seqring_persist_layout lay;
	struct seqring_persist_result res;
	unsigned int i;

	for (i = 0; i < 200; i++) {
		void *region = filled_region(test, &lay, 30);
		struct seqring_persist_header *h = region;
		struct seqring_mmap_meta *meta = region + lay.meta_offset;
		u32 noise = get_random_u32();

		get_random_bytes(region + lay.slots_offset, PAGE_SIZE);
		if (noise & 1)
			h->capacity = get_random_u32();
		if (noise & 2)
			meta->next_seq = get_random_u64();
		if (noise & 4)
			meta->oldest_seq = get_random_u64();
		if (noise & 8)
			get_random_bytes(region + lay.crcs_offset, PAGE_SIZE);
		h->header_crc = 0;
		h->header_crc = crc32_le(~0U, (const u8 *)h, sizeof(*h));
		KUNIT_ASSERT_EQ(test, seqring_persist_scan(region, lay.size, &res), 0);
		if (res.verdict == SEQRING_PERSIST_FOUND)
			KUNIT_EXPECT_LE(test, res.valid + res.lost + res.refused,
					(u64)lay.capacity);
		free_region(region);
	}
}

static struct kunit_case persist_test_cases[] = {
	KUNIT_CASE(persist_test_layout),
	KUNIT_CASE(persist_test_empty_and_noise),
	KUNIT_CASE(persist_test_found),
	KUNIT_CASE(persist_test_wrapped),
	KUNIT_CASE(persist_test_damaged_slots),
	KUNIT_CASE(persist_test_crafted_header),
	KUNIT_CASE(persist_test_far_counters),
	KUNIT_CASE(persist_test_seq_bound),
	KUNIT_CASE(persist_test_refused),
	KUNIT_CASE(persist_test_above_next),
	KUNIT_CASE(persist_test_header_reserved),
	KUNIT_CASE(persist_test_layout_max),
	KUNIT_CASE(persist_test_fuzz),
	{}
};

static struct kunit_suite persist_test_suite = {
	.name = "seqring_persist",
	.test_cases = persist_test_cases,
};

kunit_test_suite(persist_test_suite);
