// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - stream readers: a cursor per open file, and when to wake it
 *
 * Each open file of /dev/seqring reads the readings from its own cursor, a
 * sequence number, as /dev/kmsg does, and waits on its own wait queue. A
 * file about to wait arms itself: it goes on the ring's list of armed
 * readers and lowers the ring's wake_seq to its threshold, the sequence
 * number next_seq must reach before the file has its wake-up threshold of
 * readings unread. A push compares next_seq with wake_seq, so it wakes
 * nobody, and costs nothing more, until some reader's threshold is met;
 * then the ring's wake work (seqring_readers_wake(), in a worker) takes
 * exactly the readers whose threshold is met off the list and wakes them.
 *
 * Only armed readers are on the list: a wake-up takes a reader off, and
 * it arms itself again before it waits again. So a wake-up costs nothing
 * for files that do not wait, however many are open, and the list is
 * walked under a mutex, with interrupts on, never by a producer: a
 * producer queues the work and goes. ring.c states the memory ordering
 * between the two sides.
 *
 * A reader that falls behind (readings it had not read overwritten) always
 * has its threshold met first: the threshold is at most the capacity.
 * CLEAR, resize and destroy wake every armed reader.
 */

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

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
	rd->armed = false;
	atomic_set(&rd->gen, 0);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_init);

/* Take @rd off the list; readers_lock held. */
static void seqring_reader_unlist(struct seqring_reader *rd,
				  struct seqring_ring *ring)
{
	lockdep_assert_held(&ring->readers_lock);
	list_del_init(&rd->node);
	/* Read by a sleeping reader without the lock (seqring_reader_wait()). */
	WRITE_ONCE(rd->armed, false);
}

/**
 * seqring_reader_disarm - take a reader off the ring's list of armed readers
 * @rd: the reader, which no longer waits (or whose file is released)
 * @ring: the ring
 *
 * A wake_seq that was the reader's threshold stays until the next wake-up
 * recomputes it: one wake-up too many looks at the list, none too few.
 */
void seqring_reader_disarm(struct seqring_reader *rd,
			   struct seqring_ring *ring)
{
	if (!READ_ONCE(rd->armed))
		return;
	mutex_lock(&ring->readers_lock);
	if (rd->armed)
		seqring_reader_unlist(rd, ring);
	mutex_unlock(&ring->readers_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_disarm);

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
 * @rd: the reader, already on the wait queue it will sleep on (poll()),
 *	or about to check again once it is (seqring_reader_wait())
 * @ring: the ring
 *
 * Puts the reader on the ring's list of armed readers and lowers wake_seq
 * to its threshold. After the arming, every push either is seen by the
 * check that follows or has the reader woken. Process context; takes
 * readers_lock (a mutex), never with the task asleep.
 *
 * Return: seqring_reader_ready().
 */
bool seqring_reader_arm(struct seqring_reader *rd, struct seqring_ring *ring)
{
	u64 target = seqring_reader_target(rd, seqring_ring_capacity(ring));

	mutex_lock(&ring->readers_lock);
	if (!rd->armed) {
		list_add_tail(&rd->node, &ring->readers);
		WRITE_ONCE(rd->armed, true);
	}
	if (target < ring->wake_seq)
		WRITE_ONCE(ring->wake_seq, target);
	mutex_unlock(&ring->readers_lock);
	/*
	 * wake_seq before the loads of next_seq and oldest_seq: pairs with
	 * the fully ordered publish in seqring_ring_publish() (store
	 * buffering, see ring.c and tests/litmus/publish-wake.litmus).
	 */
	smp_mb();
	return seqring_reader_ready(rd, ring);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_arm);

/*
 * Has a sleeping reader a reason to look again? Taken off the list by a
 * wake-up, its threshold changed (@gen), or something for it. Runs with
 * the task on its wait queue, not running: takes no lock.
 */
static bool seqring_reader_woken(struct seqring_reader *rd,
				 struct seqring_ring *ring, int gen)
{
	return !READ_ONCE(rd->armed) || atomic_read(&rd->gen) != gen ||
	       seqring_reader_ready(rd, ring);
}

/**
 * seqring_reader_wait - wait until the reader's threshold is met
 * @rd: the reader
 * @ring: the ring
 *
 * Arms the reader (which takes a mutex, so not in the wait's condition)
 * and sleeps until a wake-up takes it off the list, lseek() or
 * SEQRING_IOC_SET_WAKEUP change its threshold (seqring_reader_changed()),
 * or its check passes; then looks again. The reader is off the list when
 * this returns. Process context.
 *
 * Return: 0 once seqring_reader_ready(), or -ERESTARTSYS for a signal.
 */
int seqring_reader_wait(struct seqring_reader *rd, struct seqring_ring *ring)
{
	int gen, ret = 0;

	/* The common case: readings are there, no list to join. */
	if (seqring_reader_ready(rd, ring))
		return 0;
	for (;;) {
		gen = atomic_read(&rd->gen);
		if (seqring_reader_arm(rd, ring))
			break;
		/*
		 * A wake-up between the arming and prepare_to_wait() is not
		 * lost: it took the reader off the list before it took the
		 * wait queue's lock, so the condition, checked after
		 * prepare_to_wait() took that lock, sees armed cleared
		 * (tests/litmus/wake-unlist.litmus).
		 */
		ret = wait_event_interruptible(rd->wait,
					       seqring_reader_woken(rd, ring,
								    gen));
		if (ret)
			break;
	}
	seqring_reader_disarm(rd, ring);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_wait);

/**
 * seqring_reader_changed - the reader's threshold changed: have it look
 * @rd: the reader (its cursor or wake-up threshold was just set)
 *
 * A waiter of the file arms itself again with the new threshold. Never
 * waits.
 */
void seqring_reader_changed(struct seqring_reader *rd)
{
	/* Before the wait queue's lock, which the sleeper's check follows. */
	atomic_inc(&rd->gen);
	wake_up_interruptible_poll(&rd->wait, SEQRING_POLL_WAKE);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_reader_changed);

/**
 * seqring_readers_wake - the ring's wake work: wake the armed readers due
 * @work: the ring's wake_work
 *
 * Takes off the list and wakes every armed reader whose threshold is met,
 * or all of them after seqring_ring_wake_all(), and sets wake_seq to the
 * lowest threshold of those left. Runs in a worker (system_highpri_wq),
 * with interrupts on: the walk is as long as the list of readers that
 * wait, and no producer ever waits for it.
 */
void seqring_readers_wake(struct work_struct *work)
{
	struct seqring_ring *ring = container_of(work, struct seqring_ring,
						 wake_work);
	struct seqring_reader *rd, *tmp;
	u64 next, oldest, lowest, target;
	unsigned int n = 0;
	u32 capacity;
	bool all;

	mutex_lock(&ring->readers_lock);
	do {
		all = test_and_clear_bit(SEQRING_WAKE_ALL, &ring->wake_flags);
		capacity = seqring_ring_capacity(ring);
		next = seqring_ring_next_seq(ring);
		oldest = seqring_ring_oldest_seq(ring);
		lowest = U64_MAX;
		list_for_each_entry_safe(rd, tmp, &ring->readers, node) {
			target = seqring_reader_target(rd, capacity);
			if (all || next >= target ||
			    atomic64_read(&rd->cursor) < oldest) {
				/* Off the list before the wait queue's lock. */
				seqring_reader_unlist(rd, ring);
				wake_up_interruptible_poll(&rd->wait,
							   SEQRING_POLL_WAKE);
			} else {
				lowest = min(lowest, target);
			}
			/* The list changes only under the mutex we hold. */
			if (!(++n % 64))
				cond_resched();
		}
		WRITE_ONCE(ring->wake_seq, lowest);
		/*
		 * As an arming reader does: wake_seq before next_seq, so that
		 * a push that read the old wake_seq and did not queue this
		 * work is seen here and its readers woken on the next pass.
		 */
		smp_mb();
	} while (seqring_ring_next_seq(ring) >= lowest);
	mutex_unlock(&ring->readers_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_readers_wake);
