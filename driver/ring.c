// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Readings live in one array of struct seqring_reading. The ring keeps only
 * two sequence numbers, the oldest held and the next to assign; everything
 * else (count, slot of a sequence number) is derived from them.
 */

#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <kunit/visibility.h>

#include "seqring.h"

static_assert(sizeof(struct seqring_reading) == 40);
static_assert(sizeof(struct seqring_batch) == 16);
static_assert(sizeof(struct seqring_stats) == 64);

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
	ring->slots = kvmalloc_array(capacity, sizeof(*ring->slots),
				     GFP_KERNEL | __GFP_NOWARN);
	if (!ring->slots)
		return -ENOMEM;

	spin_lock_init(&ring->lock);
	ring->capacity = capacity;
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

/**
 * seqring_reading_prepare - check a reading from userspace and complete it
 * @r: kernel copy of the reading
 *
 * Done before the ring's lock is taken, so that a push under the lock is a
 * plain copy. Bytes after the label's NUL are zeroed so that nothing the
 * caller left there is stored or shown; a zero timestamp is replaced by
 * the current time.
 *
 * Return: 0, or -EINVAL for non-zero flags or a label without a NUL.
 */
int seqring_reading_prepare(struct seqring_reading *r)
{
	size_t len;

	if (r->flags)
		return -EINVAL;

	len = strnlen(r->label, sizeof(r->label));
	if (len == sizeof(r->label))
		return -EINVAL;
	memset(r->label + len, 0, sizeof(r->label) - len);

	if (!r->timestamp_ns)
		r->timestamp_ns = ktime_get_real_ns();
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reading_prepare);

static u32 seqring_slot(const struct seqring_ring *ring, u64 seq)
{
	u32 slot;

	div_u64_rem(seq - 1, ring->capacity, &slot);
	return slot;
}

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_reading_prepare()
 * @n: number of readings; callers keep it small, as it bounds the time
 *	the lock is held
 */
void seqring_ring_push(struct seqring_ring *ring,
		       const struct seqring_reading *r, unsigned int n)
{
	u64 over;

	spin_lock(&ring->lock);
	while (n) {
		u32 slot = seqring_slot(ring, ring->next_seq);
		u32 len = min_t(u32, n, ring->capacity - slot);

		memcpy(&ring->slots[slot], r, len * sizeof(*r));
		ring->next_seq += len;
		r += len;
		n -= len;
	}

	if (ring->next_seq - ring->oldest_seq > ring->capacity) {
		over = ring->next_seq - ring->oldest_seq - ring->capacity;
		ring->oldest_seq += over;
		ring->dropped += over;
	}
	spin_unlock(&ring->lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

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
	lockdep_assert_held(&ring->lock);

	if (seq < ring->oldest_seq || seq >= ring->next_seq)
		return NULL;
	return &ring->slots[seqring_slot(ring, seq)];
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_find);
