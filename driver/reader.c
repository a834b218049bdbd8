// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - stream readers: a cursor per open file, and when to wake it
 *
 * Each open file of /dev/seqring reads the readings from its own cursor, a
 * sequence number, as /dev/kmsg does, and waits on its own wait queue. A
 * file that waits is put on the ring's list of readers and lowers the
 * ring's wake_seq to its threshold: the sequence number next_seq must
 * reach before the file has its wake-up threshold of readings unread. A
 * push compares next_seq with wake_seq, so it wakes nobody, and costs
 * nothing more, until some reader's threshold is met; then
 * seqring_ring_wake_readers() wakes exactly the readers whose threshold is
 * met. ring.c states the memory ordering between the two sides.
 *
 * A reader that falls behind (readings it had not read overwritten) always
 * has its threshold met first: the threshold is at most the capacity.
 * CLEAR and resize wake every reader.
 */

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "compat.h"
#include "seqring.h"

/**
 * seqring_reader_init - a new reader, at the oldest reading held
 * @rd: the reader
 * @ring: the ring it reads
 */
void seqring_reader_init(struct seqring_reader *rd, struct seqring_ring *ring)
{
	u64 next = seqring_ring_next_seq(ring);

	atomic64_set(&rd->cursor, min(next, seqring_ring_oldest_seq(ring)));
	rd->wakeup = 1;
	init_waitqueue_head(&rd->wait);
	INIT_LIST_HEAD(&rd->node);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_init);

/**
 * seqring_reader_remove - take a reader off the ring's list
 * @rd: the reader, which nobody uses any more (its file is released)
 * @ring: the ring
 *
 * A wake_seq that was the reader's threshold stays until the next wake-up
 * recomputes it: one push too many looks at the list, none too few.
 */
void seqring_reader_remove(struct seqring_reader *rd,
			   struct seqring_ring *ring)
{
	if (list_empty(&rd->node))
		return;
	spin_lock_irq(&ring->readers_lock);
	list_del_init(&rd->node);
	spin_unlock_irq(&ring->readers_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_remove);

/**
 * seqring_reader_target - the next_seq that meets a reader's threshold
 * @rd: the reader
 * @capacity: the ring's capacity, which caps the threshold: a resize may
 *	have brought it below the threshold, and a fuller ring there is not
 *
 * Return: the cursor plus the threshold.
 */
u64 seqring_reader_target(struct seqring_reader *rd, u32 capacity)
{
	return atomic64_read(&rd->cursor) + min(READ_ONCE(rd->wakeup), capacity);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_target);

/**
 * seqring_reader_behind - have readings the reader had not read gone?
 * @rd: the reader
 * @ring: the ring
 *
 * The cursor never passes next_seq, so a cursor below the oldest reading
 * held means exactly that. Lockless.
 *
 * Return: true if the reader fell behind (overrun, CLEAR or shrink).
 */
bool seqring_reader_behind(struct seqring_reader *rd, struct seqring_ring *ring)
{
	return atomic64_read(&rd->cursor) < seqring_ring_oldest_seq(ring);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_behind);

/**
 * seqring_reader_ready - is there something for a waiting reader?
 * @rd: the reader
 * @ring: the ring
 *
 * Lockless; next_seq is read before oldest_seq, as ring.c asks.
 *
 * Return: true if the reader fell behind or its threshold is met, or the
 * ring was destroyed.
 */
bool seqring_reader_ready(struct seqring_reader *rd, struct seqring_ring *ring)
{
	u64 next = seqring_ring_next_seq(ring);

	/* A destroyed ring ends every wait. */
	if (READ_ONCE(ring->dead) || seqring_reader_behind(rd, ring))
		return true;
	return next >= seqring_reader_target(rd, seqring_ring_capacity(ring));
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_ready);

/**
 * seqring_reader_arm - ask to be woken once the threshold is met, and check
 * @rd: the reader, already on the wait queue it will sleep on
 * @ring: the ring
 *
 * The condition of every wait of a reader (and poll()'s check): the reader
 * re-arms each time it looks, since a wake-up takes it out of wake_seq.
 * After the arming, every push either is seen by the check that follows
 * or wakes @rd->wait. Never sleeps.
 *
 * Return: seqring_reader_ready().
 */
bool seqring_reader_arm(struct seqring_reader *rd, struct seqring_ring *ring)
{
	u64 target = seqring_reader_target(rd, seqring_ring_capacity(ring));

	/* Also taken by the ring's irq_work (seqring_ring_wake_work()). */
	spin_lock_irq(&ring->readers_lock);
	if (list_empty(&rd->node))
		list_add_tail(&rd->node, &ring->readers);
	if (target < ring->wake_seq)
		WRITE_ONCE(ring->wake_seq, target);
	spin_unlock_irq(&ring->readers_lock);
	/*
	 * wake_seq (and the wait-queue entry) before the loads of next_seq
	 * and oldest_seq: pairs with the smp_mb() in seqring_ring_set_next()
	 * (store buffering, see ring.c).
	 */
	smp_mb();
	return seqring_reader_ready(rd, ring);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_arm);
