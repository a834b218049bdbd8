// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Writers (PUSH, PUSH_BATCH, CLEAR, resize) serialise on write_lock.
 * Readers take no lock that a writer takes: they copy a reading out of its
 * slot and then check that it was not overwritten meanwhile, as
 * read_seqcount_retry() does, with the slot's own sequence number as the
 * count (sequence numbers are never reused, so no ABA).
 *
 * Memory ordering. A writer storing sequence number s into a slot that
 * held s - capacity:
 *   1. moves oldest_seq past s - capacity (WRITE_ONCE), then smp_wmb();
 *   2. sets slot->seq to 0, smp_wmb(), copies the reading;
 *   3. smp_store_release(&slot->seq, s);
 *   4. when every reading of the push is stored, smp_store_release() of
 *      next_seq past them, so a batch becomes visible at once;
 *   5. smp_mb(), then READ_ONCE(wake_seq): wake the stream readers only if
 *      next_seq reached the lowest wake-up threshold of a waiting reader.
 * A reader:
 *   a. smp_load_acquire(&next_seq), then READ_ONCE(oldest_seq): it sees an
 *      oldest_seq at least as new as the one stored before that next_seq;
 *   b. for s in [oldest_seq, next_seq): smp_load_acquire(&slot->seq),
 *      copies, smp_rmb(), READ_ONCE(slot->seq): both must be s;
 *   c. if not, smp_rmb() and start again at a.: the writer that changed
 *      the slot had moved oldest_seq past s before (1. pairs with c.), so
 *      the reader moves on and never waits for that writer.
 * A stream reader that is about to wait (read() or poll(), reader.c):
 *   d. is on its file's wait queue (poll_wait(), or wait_event()'s
 *      prepare_to_wait() before its second check);
 *   e. lowers wake_seq to its own threshold under readers_lock, smp_mb();
 *   f. loads next_seq and oldest_seq (a.) and sleeps only if below its
 *      threshold.
 * 4.-5. against e.-f. is the store-buffering pattern, which even x86
 * allows without the two full barriers: with them, either the writer sees
 * the reader's threshold in wake_seq and wakes it, or the reader sees the
 * new next_seq and does not sleep. The wake-up itself takes readers_lock
 * and the file's wait-queue lock, which order the rest.
 *
 * A resize swaps the slot array under write_lock and frees the old one
 * with kvfree_rcu(), after a grace period, without waiting for it:
 * lockless readers copy inside an RCU read-side section, which is what
 * keeps the array they copy from alive.
 *
 * Counters (for GET_STATS, sysfs, debugfs) change only inside stats_seq
 * write sections: short, with preemption off (a counter reader spins only
 * while a writer is running, never on a preempted one, and takes no lock,
 * PREEMPT_RT included), so a snapshot keeps total == count + dropped +
 * cleared without a lock.
 */

#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include "compat.h"
#include <asm/word-at-a-time.h>

#include "seqring.h"

static_assert(sizeof(struct seqring_reading) == 40);
static_assert(sizeof(struct seqring_batch) == 16);
static_assert(sizeof(struct seqring_stats) == 64);
static_assert(sizeof(struct seqring_record) == 48);
static_assert(sizeof(struct seqring_slot) == 48);

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

/*
 * A zeroed array: a slot whose seq is 0 holds nothing. Charged to the
 * caller's memory cgroup, and never at the price of another process: a
 * ring too large for the memory there is fails with NULL instead of waking
 * the OOM killer, as ftrace's __rb_allocate_pages() does. Pages that
 * si_mem_available() does not see are not asked for at all;
 * __GFP_RETRY_MAYFAIL gives up rather than kill when reclaim fails; and if
 * something else's allocation does bring the OOM killer meanwhile, it
 * picks the caller first (oom origin).
 */
static struct seqring_slots *seqring_alloc_slots(u32 capacity)
{
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			  __GFP_NOWARN | __GFP_ZERO;
	struct seqring_slots *slots;
	size_t size = struct_size(slots, slot, capacity);

	if (size > PAGE_SIZE && size >> PAGE_SHIFT > si_mem_available())
		return NULL;

	set_current_oom_origin();
	if (size <= PAGE_SIZE)
		slots = kmalloc(size, gfp);
	else
		slots = __vmalloc(size, gfp);
	clear_current_oom_origin();
	if (slots)
		slots->capacity = capacity;
	return slots;
}

/**
 * seqring_ring_init - allocate an empty ring
 * @ring: ring to set up
 * @capacity: number of readings it holds, 1 to %SEQRING_CAPACITY_MAX
 *
 * Return: 0, or -ENOMEM when the slots cannot be allocated.
 */
int seqring_ring_init(struct seqring_ring *ring, u32 capacity)
{
	struct seqring_slots *slots = seqring_alloc_slots(capacity);

	if (!slots)
		return -ENOMEM;

	mutex_init(&ring->write_lock);
	seqcount_init(&ring->stats_seq);
	RCU_INIT_POINTER(ring->slots, slots);
	ring->next_seq = 1;
	ring->oldest_seq = 1;
	ring->head = 1 % capacity;
	ring->dropped = 0;
	ring->cleared = 0;
	ring->last_stamp = 0;
	ring->wake_seq = U64_MAX;
	spin_lock_init(&ring->readers_lock);
	INIT_LIST_HEAD(&ring->readers);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_init);

/**
 * seqring_ring_destroy - free the ring's slots
 * @ring: ring set up by seqring_ring_init(), no longer in use
 */
void seqring_ring_destroy(struct seqring_ring *ring)
{
	kvfree(rcu_dereference_protected(ring->slots, true));
	RCU_INIT_POINTER(ring->slots, NULL);
	mutex_destroy(&ring->write_lock);
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

/**
 * seqring_readings_prepare - check readings from userspace and complete them
 * @r: kernel copy of the readings
 * @n: number of readings
 *
 * Done before the ring's lock is taken, so that a push under the lock is
 * little more than a copy. Bytes after a label's NUL are zeroed so that
 * nothing the caller left there is stored or shown. A zero timestamp is
 * left for the push to stamp, when it gives the reading its sequence number.
 *
 * Return: 0, or -EINVAL if any reading has non-zero flags or a label
 * without a NUL; the readings are then partly prepared.
 */
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n)
{
	int ret;

	for (; n; r++, n--) {
		ret = seqring_reading_check(r);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_readings_prepare);

static struct seqring_slots *seqring_ring_slots(struct seqring_ring *ring)
{
	return rcu_dereference_protected(ring->slots,
					 lockdep_is_held(&ring->write_lock));
}

/*
 * A stats_seq write section. Writers hold write_lock (which serialises
 * them, as a plain seqcount_t needs) and keep preemption off inside, so
 * that a counter reader only ever spins on a writer that is running. A
 * seqcount_mutex_t would instead make readers take write_lock on
 * PREEMPT_RT, and a sysfs reader could then hold up producers.
 */
static __always_inline void seqring_stats_begin(struct seqring_ring *ring)
{
	lockdep_assert_held(&ring->write_lock);
	preempt_disable();
	write_seqcount_begin(&ring->stats_seq);
}

static __always_inline void seqring_stats_end(struct seqring_ring *ring)
{
	write_seqcount_end(&ring->stats_seq);
	preempt_enable();
}

/*
 * The time a reading pushed with a zero timestamp gets: CLOCK_REALTIME,
 * read when its sequence number is assigned (write_lock held), and never
 * earlier than the time given to the reading before it, even when the
 * clock is set back: along sequence numbers, the ring's own timestamps
 * never decrease.
 */
static __always_inline u64 seqring_ring_stamp(struct seqring_ring *ring)
{
	u64 now = ktime_get_real_ns();

	if (now < ring->last_stamp)
		now = ring->last_stamp;
	ring->last_stamp = now;
	return now;
}

/*
 * Move oldest_seq to @oldest, counting what it passes as dropped. Before a
 * slot that holds a reading is overwritten, readers must be able to see
 * that the reading is gone: the barrier orders this store before the
 * slot's (pairs with the smp_rmb() in seqring_ring_copy_rcu()).
 */
static void seqring_ring_drop_to(struct seqring_ring *ring, u64 oldest)
{
	if (oldest <= ring->oldest_seq)
		return;
	seqring_stats_begin(ring);
	ring->dropped += oldest - ring->oldest_seq;
	WRITE_ONCE(ring->oldest_seq, oldest);
	seqring_stats_end(ring);
	/* oldest_seq before the slot: pairs with smp_rmb() in ring_copy(). */
	smp_wmb();
}

/*
 * Store @r as sequence number @seq in the head slot, a zero timestamp
 * replaced by *@stamp (taken from the clock the first time it is needed).
 * write_lock held.
 */
static __always_inline void
seqring_ring_store(struct seqring_ring *ring, struct seqring_slots *slots,
		   const struct seqring_reading *r, u64 seq, u64 *stamp)
{
	struct seqring_slot *slot = &slots->slot[ring->head];

	WRITE_ONCE(slot->seq, 0);
	/* seq 0 before the reading: pairs with smp_rmb() in ring_copy(). */
	smp_wmb();
	slot->r = *r;
	if (!r->timestamp_ns) {
		if (!*stamp)
			*stamp = seqring_ring_stamp(ring);
		slot->r.timestamp_ns = *stamp;
	}
	/* The reading before its seq: pairs with the acquire in ring_copy(). */
	smp_store_release(&slot->seq, seq);
	if (++ring->head == slots->capacity)
		ring->head = 0;
}

/*
 * Store @next as next_seq, which makes the readings before it visible, and
 * tell whether it reaches the wake-up threshold of a waiting stream reader
 * (steps 4. and 5. of the ordering rules at the top of this file).
 */
static __always_inline bool seqring_ring_set_next(struct seqring_ring *ring,
						  u64 next)
{
	/* Slots and oldest_seq first: pairs with the acquire in ring_copy(). */
	smp_store_release(&ring->next_seq, next);
	/*
	 * next_seq before wake_seq: pairs with the smp_mb() in
	 * seqring_reader_arm(). Either this push sees the reader's
	 * threshold, or the reader sees this push's readings.
	 */
	smp_mb();
	return next >= READ_ONCE(ring->wake_seq);
}

/*
 * Make readings up to @next visible at once; any that never got a slot
 * (a batch larger than the ring) count as dropped. write_lock held.
 * Returns whether a stream reader needs a wake-up.
 */
static bool seqring_ring_publish(struct seqring_ring *ring,
				 struct seqring_slots *slots, u64 next)
{
	u64 oldest = ring->oldest_seq;
	bool wake;

	if (next > slots->capacity && next - slots->capacity > oldest)
		oldest = next - slots->capacity;

	seqring_stats_begin(ring);
	ring->dropped += oldest - ring->oldest_seq;
	WRITE_ONCE(ring->oldest_seq, oldest);
	wake = seqring_ring_set_next(ring, next);
	seqring_stats_end(ring);
	return wake;
}

/**
 * seqring_ring_wake_readers - wake the stream readers that wait for pushes
 * @ring: the ring
 * @all: wake every reader that has waited (CLEAR, resize), not only those
 *	whose wake-up threshold the readings now unread meet
 *
 * The threshold is checked here, on the waker's side, so that a reader
 * waiting for W readings sleeps through the pushes that leave it below W.
 * A reader woken here drops out of wake_seq until it arms itself again
 * before its next wait (seqring_reader_arm()). Takes readers_lock, never
 * sleeps; O(readers that have waited).
 */
void seqring_ring_wake_readers(struct seqring_ring *ring, bool all)
{
	struct seqring_reader *rd;
	u64 next, oldest, lowest = U64_MAX, target;
	u32 capacity = seqring_ring_capacity(ring);

	spin_lock(&ring->readers_lock);
	next = seqring_ring_next_seq(ring);
	oldest = seqring_ring_oldest_seq(ring);
	list_for_each_entry(rd, &ring->readers, node) {
		target = seqring_reader_target(rd, capacity);
		if (all || next >= target ||
		    atomic64_read(&rd->cursor) < oldest)
			wake_up_interruptible_poll(&rd->wait,
						   SEQRING_POLL_WAKE);
		else
			lowest = min(lowest, target);
	}
	WRITE_ONCE(ring->wake_seq, lowest);
	spin_unlock(&ring->readers_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_wake_readers);

/*
 * Readings of a batch are copied this many at a time between two
 * cond_resched(): write_lock is a mutex, and the batch stays invisible
 * until seqring_ring_publish() anyway.
 */
#define SEQRING_PUSH_CHUNK	1024

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_readings_prepare()
 * @n: number of readings
 * @pushed: if not NULL, a counter that grows by @n under the ring's lock
 *
 * The readings become visible to readers all at once, and a concurrent
 * seqring_ring_clear() comes before or after all of them. Zero timestamps
 * are stamped with one time, taken when the sequence numbers are. When @n
 * exceeds the capacity only the last capacity readings are stored; the
 * others get their sequence numbers and count as dropped. Sleeps.
 */
void seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		       unsigned int n, u64 *pushed)
{
	struct seqring_slots *slots;
	u64 seq, next, stamp = 0;
	unsigned int i, skip = 0;
	bool wake;

	mutex_lock(&ring->write_lock);
	slots = seqring_ring_slots(ring);
	seq = ring->next_seq;
	next = seq + n;
	if (n > slots->capacity) {
		skip = n - slots->capacity;
		ring->head = (ring->head + skip) % slots->capacity;
	}

	/* Everything held that these readings overwrite is gone first. */
	seqring_ring_drop_to(ring, min(ring->next_seq,
				       next - min_t(u64, next, slots->capacity)));
	for (i = skip; i < n; i++) {
		seqring_ring_store(ring, slots, &r[i], seq + i, &stamp);
		if (!((i + 1) % SEQRING_PUSH_CHUNK))
			cond_resched();
	}
	wake = seqring_ring_publish(ring, slots, next);
	if (pushed)
		WRITE_ONCE(*pushed, *pushed + n);
	mutex_unlock(&ring->write_lock);
	if (wake)
		seqring_ring_wake_readers(ring, false);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

/**
 * seqring_ring_push_one - check and append one reading
 * @ring: the ring
 * @r: kernel copy of a reading from userspace
 * @pushed: if not NULL, a counter that grows by one under the ring's lock
 *
 * seqring_readings_prepare() and seqring_ring_push() for a single reading,
 * the PUSH ioctl, in one call: at about one system call per reading, calls
 * are a measurable share of its cost.
 *
 * Return: 0, or -EINVAL as seqring_readings_prepare() (nothing stored).
 */
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r, u64 *pushed)
{
	struct seqring_slots *slots;
	u64 seq, stamp = 0;
	bool wake;
	int ret;

	ret = seqring_reading_check(r);
	if (ret)
		return ret;

	mutex_lock(&ring->write_lock);
	slots = seqring_ring_slots(ring);
	seq = ring->next_seq;
	/*
	 * One stats section around the whole push: copying one reading is
	 * short enough to do with preemption off, and saves a second one.
	 */
	seqring_stats_begin(ring);
	if (seq - ring->oldest_seq >= slots->capacity) {
		ring->dropped++;
		WRITE_ONCE(ring->oldest_seq, seq + 1 - slots->capacity);
		/* As in seqring_ring_drop_to(). */
		smp_wmb();
	}
	seqring_ring_store(ring, slots, r, seq, &stamp);
	wake = seqring_ring_set_next(ring, seq + 1);
	seqring_stats_end(ring);
	if (pushed)
		WRITE_ONCE(*pushed, *pushed + 1);
	mutex_unlock(&ring->write_lock);
	if (wake)
		seqring_ring_wake_readers(ring, false);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push_one);

/**
 * seqring_ring_clear - discard every reading held
 * @ring: the ring
 *
 * Sequence numbers are not reset, so readers positioned by sequence number
 * never see a number twice. A writer like the others: it never waits for
 * a reader, and a listing walk in progress just finds nothing more.
 *
 * Return: 0.
 */
int seqring_ring_clear(struct seqring_ring *ring)
{
	mutex_lock(&ring->write_lock);
	seqring_stats_begin(ring);
	if (ring->next_seq > ring->oldest_seq) {
		ring->cleared += ring->next_seq - ring->oldest_seq;
		WRITE_ONCE(ring->oldest_seq, ring->next_seq);
	}
	seqring_stats_end(ring);
	mutex_unlock(&ring->write_lock);
	/* Stream readers that were behind must learn it. */
	seqring_ring_wake_readers(ring, true);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_clear);

/**
 * seqring_ring_resize - change the number of readings the ring holds
 * @ring: the ring
 * @capacity: new capacity, 1 to %SEQRING_CAPACITY_MAX
 *
 * The newest min(count, @capacity) readings are kept, with their sequence
 * numbers; those that do not fit count as dropped. The new slots are
 * allocated before any lock is taken, and never by waking the OOM killer.
 * Pushes wait for the copy; readers, listing walks included, never make
 * it wait: they copy from the old slots, which are freed after an RCU
 * grace period that the resize does not wait for.
 *
 * Return: 0, -EINVAL for a capacity out of range, or -ENOMEM (the ring is
 * untouched).
 */
int seqring_ring_resize(struct seqring_ring *ring, u32 capacity)
{
	struct seqring_slots *old, *new;
	u64 seq, keep;
	u32 idx, new_idx;

	if (!capacity || capacity > SEQRING_CAPACITY_MAX)
		return -EINVAL;
	new = seqring_alloc_slots(capacity);
	if (!new)
		return -ENOMEM;
	mutex_lock(&ring->write_lock);
	old = seqring_ring_slots(ring);

	keep = ring->oldest_seq;
	if (ring->next_seq - keep > capacity && ring->next_seq > keep)
		keep = ring->next_seq - capacity;
	for (seq = keep; seq < ring->next_seq; seq++) {
		div_u64_rem(seq, old->capacity, &idx);
		div_u64_rem(seq, capacity, &new_idx);
		new->slot[new_idx] = old->slot[idx];
		if (!(seq % SEQRING_PUSH_CHUNK))
			cond_resched();
	}

	seqring_stats_begin(ring);
	if (keep > ring->oldest_seq) {
		ring->dropped += keep - ring->oldest_seq;
		WRITE_ONCE(ring->oldest_seq, keep);
	}
	rcu_assign_pointer(ring->slots, new);
	div_u64_rem(ring->next_seq, capacity, &ring->head);
	seqring_stats_end(ring);
	mutex_unlock(&ring->write_lock);

	/* A reader's wake-up threshold may now be out of reach: let it see. */
	seqring_ring_wake_readers(ring, true);
	/* Readers may still copy from the old array: free it after them. */
	kvfree_rcu(old, rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_resize);

/**
 * seqring_ring_stats - take a consistent snapshot of the counters
 * @ring: the ring
 * @st: filled in completely, reserved fields included
 *
 * Takes no lock a writer takes, on PREEMPT_RT too: any user can read the
 * counters (sysfs), and pushes must not wait for them.
 */
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st)
{
	unsigned int start;
	u64 next, oldest;

	memset(st, 0, sizeof(*st));
	rcu_read_lock();
	do {
		start = read_seqcount_begin(&ring->stats_seq);
		next = ring->next_seq;
		oldest = ring->oldest_seq;
		st->dropped = ring->dropped;
		st->cleared = ring->cleared;
		st->capacity = rcu_dereference(ring->slots)->capacity;
	} while (read_seqcount_retry(&ring->stats_seq, start));
	rcu_read_unlock();

	st->total = next - 1;
	if (next > oldest) {
		st->count = next - oldest;
		st->oldest_seq = oldest;
		st->newest_seq = next - 1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_stats);

/**
 * seqring_ring_capacity - the number of readings the ring holds
 * @ring: the ring
 *
 * Lockless; a resize may change it as soon as it is returned.
 *
 * Return: the capacity.
 */
u32 seqring_ring_capacity(struct seqring_ring *ring)
{
	u32 capacity;

	rcu_read_lock();
	capacity = rcu_dereference(ring->slots)->capacity;
	rcu_read_unlock();
	return capacity;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_capacity);

/**
 * seqring_ring_next_seq - the sequence number the next push will get
 * @ring: the ring
 *
 * Return: it; every reading below it that is still held is visible.
 */
u64 seqring_ring_next_seq(struct seqring_ring *ring)
{
	/* Pairs with the release in seqring_ring_set_next(). */
	return smp_load_acquire(&ring->next_seq);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_next_seq);

/**
 * seqring_ring_oldest_seq - the sequence number of the oldest reading held
 * @ring: the ring
 *
 * Return: it, or a number >= seqring_ring_next_seq() when none is held.
 */
u64 seqring_ring_oldest_seq(struct seqring_ring *ring)
{
	return READ_ONCE(ring->oldest_seq);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_oldest_seq);

/**
 * seqring_ring_copy_rcu - copy out the first reading held at or after @seq
 * @ring: the ring
 * @seq: sequence number wanted; readings before it are not looked at
 * @rec: where the reading and its sequence number go
 *
 * Lockless and safe against any writer, resize included: a reading
 * overwritten or cleared before it could be copied is skipped, and the
 * copy never waits for a writer. The caller is in an RCU read-side
 * section, which keeps the slot array alive across a resize. Does not
 * sleep.
 *
 * Return: true with @rec filled (@rec->seq >= @seq), or false when no
 * reading at or after @seq is held.
 */
bool seqring_ring_copy_rcu(struct seqring_ring *ring, u64 seq,
			   struct seqring_record *rec)
{
	const struct seqring_slots *slots;
	const struct seqring_slot *slot;
	u64 next, oldest;
	u32 idx;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "outside an RCU read section");
	for (;;) {
		/* Pairs with the release in seqring_ring_set_next(). */
		next = smp_load_acquire(&ring->next_seq);
		oldest = READ_ONCE(ring->oldest_seq);
		if (seq < oldest)
			seq = oldest;
		if (seq >= next)
			return false;
		slots = rcu_dereference(ring->slots);
		div_u64_rem(seq, slots->capacity, &idx);
		slot = &slots->slot[idx];
		/* Pairs with the release in seqring_ring_store(). */
		if (smp_load_acquire(&slot->seq) == seq) {
			/*
			 * Racing with a writer is expected: the copy is
			 * validated below and thrown away if it was torn.
			 */
			rec->reading = data_race(slot->r);
			/* The copy before the check: pairs with store()'s wmb. */
			smp_rmb();
			if (READ_ONCE(slot->seq) == seq) {
				rec->seq = seq;
				return true;
			}
		}
		/*
		 * Overwritten meanwhile, so oldest_seq has moved past it:
		 * pairs with the smp_wmb() in seqring_ring_drop_to().
		 */
		smp_rmb();
	}
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_copy_rcu);

/**
 * seqring_ring_copy - seqring_ring_copy_rcu() in an RCU section of its own
 * @ring: the ring
 * @seq: sequence number wanted
 * @rec: where the reading and its sequence number go
 *
 * Return: as seqring_ring_copy_rcu().
 */
bool seqring_ring_copy(struct seqring_ring *ring, u64 seq,
		       struct seqring_record *rec)
{
	bool ok;

	rcu_read_lock();
	ok = seqring_ring_copy_rcu(ring, seq, rec);
	rcu_read_unlock();
	return ok;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_copy);
