// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Readings live in one array of struct seqring_reading. The ring keeps only
 * two sequence numbers, the oldest held and the next to assign, and the slot
 * of the next; everything else (count, slot of a sequence number) is derived
 * from them.
 */

#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include "compat.h"
#include <asm/word-at-a-time.h>

#include "seqring.h"

static_assert(sizeof(struct seqring_reading) == 40);
static_assert(sizeof(struct seqring_batch) == 16);
static_assert(sizeof(struct seqring_stats) == 64);

/**
 * seqring_alloc_readings - allocate an array of readings
 * @n: number of readings
 * @gfp: GFP_KERNEL, optionally with modifiers
 *
 * Like kvmalloc_array(), without its kmalloc() attempt for sizes above a
 * page: that rounds up to a power of two, which for most sizes of an array
 * of 40-byte readings wastes up to half of it. Pages from vmalloc() waste
 * less than one. Freed with kvfree().
 *
 * Return: the uninitialised array, or NULL.
 */
struct seqring_reading *seqring_alloc_readings(size_t n, gfp_t gfp)
{
	size_t size = array_size(n, sizeof(struct seqring_reading));

	if (size <= PAGE_SIZE)
		return kmalloc(size, gfp);
	return __vmalloc(size, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_alloc_readings);

/**
 * seqring_ring_init - allocate an empty ring
 * @ring: ring to set up
 * @capacity: number of readings it holds, at least 1
 *
 * Return: 0, or -ENOMEM when the slots cannot be allocated.
 */
int seqring_ring_init(struct seqring_ring *ring, u32 capacity)
{
	/* A failure is reported by the caller; no allocator splat for it. */
	ring->slots = seqring_alloc_readings(capacity,
					     GFP_KERNEL | __GFP_NOWARN);
	if (!ring->slots)
		return -ENOMEM;

	spin_lock_init(&ring->lock);
	ring->capacity = capacity;
	ring->head = 0;
	ring->next_seq = 1;
	ring->oldest_seq = 1;
	ring->dropped = 0;
	ring->cleared = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_init);

/**
 * seqring_ring_destroy - free the ring's slots
 * @ring: ring set up by seqring_ring_init(), no longer in use
 */
void seqring_ring_destroy(struct seqring_ring *ring)
{
	kvfree(ring->slots);
	ring->slots = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_destroy);

/*
 * Check the flags and the label of @r; zero the label's bytes after its
 * NUL. strnlen() and memset() a word at a time, inline: this runs for
 * every reading pushed, where out-of-line calls are a measurable share.
 */
static __always_inline int seqring_reading_check(struct seqring_reading *r)
{
	const struct word_at_a_time constants = WORD_AT_A_TIME_CONSTANTS;
	unsigned long w[SEQRING_LABEL_LEN / sizeof(unsigned long)];
	unsigned long bits;
	unsigned int i;

	if (r->flags)
		return -EINVAL;

	memcpy(w, r->label, sizeof(w));
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (has_zero(w[i], &bits, &constants))
			break;
	}
	if (i == ARRAY_SIZE(w))
		return -EINVAL;
	bits = prep_zero_mask(w[i], bits, &constants);
	w[i] &= zero_bytemask(create_zero_mask(bits));
	while (++i < ARRAY_SIZE(w))
		w[i] = 0;
	memcpy(r->label, w, sizeof(w));
	return 0;
}

/*
 * seqring_reading_check(), then a zero timestamp replaced by *@now, which
 * is read from the clock the first time it is needed (0: not yet).
 */
static __always_inline int
seqring_reading_prepare(struct seqring_reading *r, u64 *now)
{
	int ret;

	ret = seqring_reading_check(r);
	if (ret)
		return ret;
	if (!r->timestamp_ns) {
		if (!*now)
			*now = ktime_get_real_ns();
		r->timestamp_ns = *now;
	}
	return 0;
}

/**
 * seqring_readings_prepare - check readings from userspace and complete them
 * @r: kernel copy of the readings
 * @n: number of readings
 *
 * Done before the ring's lock is taken, so that a push under the lock is a
 * plain copy. Bytes after a label's NUL are zeroed so that nothing the
 * caller left there is stored or shown; a zero timestamp is replaced by
 * the current time, the same for every reading of the call.
 *
 * Return: 0, or -EINVAL if any reading has non-zero flags or a label
 * without a NUL; the readings are then partly prepared.
 */
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n)
{
	u64 now = 0;
	int ret;

	for (; n; r++, n--) {
		ret = seqring_reading_prepare(r, &now);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_readings_prepare);

/* Account for @n readings just stored at the head. Lock held. */
static void seqring_ring_advance(struct seqring_ring *ring, unsigned int n)
{
	u64 over;

	ring->next_seq += n;
	if (ring->next_seq - ring->oldest_seq > ring->capacity) {
		over = ring->next_seq - ring->oldest_seq - ring->capacity;
		ring->oldest_seq += over;
		ring->dropped += over;
	}
}

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_readings_prepare()
 * @n: number of readings; callers keep it small, as it bounds the time
 *	the lock is held
 */
void seqring_ring_push(struct seqring_ring *ring,
		       const struct seqring_reading *r, unsigned int n)
{
	unsigned int left = n;

	spin_lock(&ring->lock);
	while (left) {
		u32 len = min_t(u32, left, ring->capacity - ring->head);

		memcpy(&ring->slots[ring->head], r, len * sizeof(*r));
		ring->head += len;
		if (ring->head == ring->capacity)
			ring->head = 0;
		r += len;
		left -= len;
	}
	seqring_ring_advance(ring, n);
	spin_unlock(&ring->lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

/**
 * seqring_ring_push_one - check and append one reading
 * @ring: the ring
 * @r: kernel copy of a reading from userspace
 *
 * seqring_readings_prepare() and seqring_ring_push() for a single reading,
 * the PUSH ioctl, in one call and with a fixed-size copy: at about one
 * system call per reading, calls are a measurable share of its cost.
 *
 * Return: 0, or -EINVAL as seqring_readings_prepare() (nothing stored).
 */
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r)
{
	u64 now = 0;
	int ret;

	ret = seqring_reading_prepare(r, &now);
	if (ret)
		return ret;

	spin_lock(&ring->lock);
	ring->slots[ring->head] = *r;
	if (++ring->head == ring->capacity)
		ring->head = 0;
	seqring_ring_advance(ring, 1);
	spin_unlock(&ring->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push_one);

/**
 * seqring_ring_clear - discard every reading held
 * @ring: the ring
 *
 * Sequence numbers are not reset, so readers positioned by sequence number
 * never see a number twice.
 */
void seqring_ring_clear(struct seqring_ring *ring)
{
	spin_lock(&ring->lock);
	ring->cleared += ring->next_seq - ring->oldest_seq;
	ring->oldest_seq = ring->next_seq;
	spin_unlock(&ring->lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_clear);

/**
 * seqring_ring_stats - take a consistent snapshot of the counters
 * @ring: the ring
 * @st: filled in completely, reserved fields included
 */
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st)
{
	memset(st, 0, sizeof(*st));

	spin_lock(&ring->lock);
	st->capacity = ring->capacity;
	st->count = ring->next_seq - ring->oldest_seq;
	st->total = ring->next_seq - 1;
	st->dropped = ring->dropped;
	st->cleared = ring->cleared;
	if (st->count) {
		st->oldest_seq = ring->oldest_seq;
		st->newest_seq = ring->next_seq - 1;
	}
	spin_unlock(&ring->lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_stats);

/**
 * seqring_ring_find - the reading with a given sequence number
 * @ring: the ring, with its lock held
 * @seq: sequence number
 *
 * Return: the reading, valid until the lock is dropped, or NULL if @seq is
 * not held (overwritten, cleared or not yet pushed).
 */
struct seqring_reading *seqring_ring_find(struct seqring_ring *ring, u64 seq)
{
	u32 back;

	lockdep_assert_held(&ring->lock);

	if (seq < ring->oldest_seq || seq >= ring->next_seq)
		return NULL;
	/* 1..capacity slots behind the head, as at most capacity are held. */
	back = ring->next_seq - seq;
	if (back <= ring->head)
		return &ring->slots[ring->head - back];
	return &ring->slots[ring->capacity - (back - ring->head)];
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_find);
