// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Producers push from any context but NMI, and never wait for a reader or
 * for another producer's copy. A push (seqring_ring_push_one(), or a batch,
 * seqring_ring_push()) goes through three steps:
 *
 *   reserve  lock-free, interrupts off: raise last_stamp to the time stamp
 *            (never below it, so that sequence and time order agree), then
 *            take sequence numbers by a cmpxchg of head, starting again if
 *            head moved meanwhile; then load the slot array and move
 *            oldest_seq (cmpxchg, only raised) past what the new readings
 *            will overwrite there.
 *   store    per reading, interrupts off: claim the slot by a cmpxchg of
 *            its seq word to (seq | SLOT_BUSY), copy the reading, commit
 *            with smp_store_release() of seq (| SLOT_MORE for each reading
 *            of a batch but its last, so that a batch is published whole).
 *   publish  lockless: move next_seq over the slots committed after it,
 *            up to the end of a push, by cmpxchg. Any producer may publish
 *            the readings of others that committed meanwhile; one that was
 *            slow publishes the readings that waited behind its own.
 *
 * A slot still BUSY with an older sequence number is being written by a
 * producer on another CPU (interrupts are off while a slot is BUSY, so no
 * producer on this CPU can hold one): the claim spins for that one copy.
 * That happens only when the ring is a whole lap ahead of a copy, i.e. it
 * is smaller than the readings being stored at once. A slot that holds a
 * newer sequence number means the reading was overwritten before it was
 * stored: it is not stored, and oldest_seq is past it already.
 *
 * Readers take no lock a producer takes: they copy a reading out of its
 * slot and then check that it was not overwritten meanwhile, as
 * read_seqcount_retry() does, with the slot's own sequence number as the
 * count (sequence numbers are never reused, so no ABA).
 *
 * Memory ordering. A producer storing sequence number s:
 *   1. atomic64_read_acquire(&head), then reads last_stamp and raises it
 *      to its stamp (cmpxchg, fully ordered), then moves head past s by
 *      cmpxchg (fully ordered): the producer of s + 1 read head after
 *      this one moved it, so it reads last_stamp after it was raised, and
 *      its stamp is not below this one's (message passing: the acquire
 *      pairs with the cmpxchg of head). Then it loads the slot array and
 *      moves oldest_seq past s - capacity (a relaxed cmpxchg);
 *   2. claims the slot with cmpxchg() (fully ordered: 1. before the claim,
 *      the claim before the copy);
 *   3. copies the reading, then smp_store_release(&slot->seq, s);
 *   4. publishes: smp_load_acquire() of the seq words it passes, then
 *      atomic64_try_cmpxchg() of next_seq (fully ordered: the slots it saw
 *      before next_seq; the release of 3. is cumulative, so readers that
 *      see next_seq see every reading below it);
 *   5. after its own successful publish (a fully ordered RMW, so an
 *      smp_mb()), READ_ONCE(wake_seq): wake the stream readers only if
 *      next_seq reached the lowest wake-up threshold of a waiting reader.
 * A reader:
 *   a. atomic64_read_acquire(&next_seq), then oldest_seq: it
 *      sees an oldest_seq at least as new as the one stored before it;
 *   b. for s in [oldest_seq, next_seq): smp_load_acquire(&slot->seq),
 *      copies, smp_rmb(), READ_ONCE(slot->seq): both must be s;
 *   c. if not, smp_rmb() and start again at a.: the producer that changed
 *      the slot had moved oldest_seq past s before (1. and 2. pair with
 *      c.), so the reader moves on and never waits for that producer.
 * A stream reader that is about to wait (read() or poll(), reader.c):
 *   d. is on its file's wait queue (poll_wait(), or wait_event()'s
 *      prepare_to_wait() before its second check);
 *   e. lowers wake_seq to its own threshold under readers_lock, smp_mb();
 *   f. loads next_seq and oldest_seq (a.) and sleeps only if below its
 *      threshold.
 * 4.-5. against e.-f. is the store-buffering pattern, which even x86
 * allows without the two full barriers: with them, either the producer
 * sees the reader's threshold in wake_seq and wakes it, or the reader sees
 * the new next_seq and does not sleep. The wake-up itself takes
 * readers_lock and the file's wait-queue lock, which order the rest; a
 * producer that may not take them (interrupts off, or any atomic context:
 * they are sleeping locks on PREEMPT_RT) leaves the wake-up to an
 * irq_work.
 *
 * A resize swaps the slot array and keeps the old one as the new one's
 * prev, then (smp_mb()) loads head: the cut. Against 1. (reserve,
 * a full barrier, then load the array) this is the store-buffering
 * pattern: a producer that loads the old array reserved below the cut,
 * and every reservation from the cut on loads the new one. Producers may
 * still store into the old array: an RCU grace period waits for them
 * (every store runs with interrupts off, an RCU read-side section). Then
 * the readings below the cut that fit are copied into the new array,
 * claiming slots as producers do, so a producer that stored a newer
 * reading there meanwhile wins. Until prev is cleared, readers and
 * publishers look for a reading in prev when the new array does not have
 * it. The old array is freed with kvfree_rcu(), without waiting.
 *
 * Counters are derived: every sequence number below next_seq was either
 * dropped, cleared or is held, so total == count + dropped + cleared holds
 * for any (next_seq, oldest_seq, cleared) a reader sees. Only a CLEAR
 * changes oldest_seq and cleared together, inside a stats_seq write
 * section under clear_lock; it raises oldest_seq by cmpxchg, as
 * producers do, so that what they dropped first is not counted cleared.
 */

#include <linux/export.h>
#include <linux/irq_work.h>
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
#define CREATE_TRACE_POINTS
#include "seqring_trace.h"

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

/**
 * seqring_ring_init - allocate an empty ring
 * @ring: ring to set up
 * @name: name in trace events: the device's name
 * @capacity: number of readings it holds, 1 to %SEQRING_CAPACITY_MAX
 *
 * Return: 0, or -ENOMEM when the slots cannot be allocated.
 */
int seqring_ring_init(struct seqring_ring *ring, const char *name,
		      u32 capacity)
{
	struct seqring_slots *slots = seqring_alloc_slots(capacity);

	if (!slots)
		return -ENOMEM;

	raw_spin_lock_init(&ring->clear_lock);
	seqcount_raw_spinlock_init(&ring->stats_seq, &ring->clear_lock);
	mutex_init(&ring->resize_lock);
	RCU_INIT_POINTER(ring->slots, slots);
	ring->name = name;
	atomic64_set(&ring->head, 1);
	atomic64_set(&ring->last_stamp, 0);
	atomic64_set(&ring->next_seq, 1);
	atomic64_set(&ring->oldest_seq, 1);
	ring->cleared = 0;
	ring->wake_seq = U64_MAX;
	ring->dead = false;
	spin_lock_init(&ring->readers_lock);
	INIT_LIST_HEAD(&ring->readers);
	init_irq_work(&ring->wake_work, seqring_ring_wake_work);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_init);

/**
 * seqring_ring_destroy - free the ring's slots
 * @ring: ring set up by seqring_ring_init(), no longer in use: no push
 *	runs or will run, and no reader is left
 */
void seqring_ring_destroy(struct seqring_ring *ring)
{
	irq_work_sync(&ring->wake_work);
	kvfree(rcu_dereference_protected(ring->slots, true));
	RCU_INIT_POINTER(ring->slots, NULL);
	mutex_destroy(&ring->resize_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_destroy);

/* The sequence number a slot's seq word holds, without its state bits. */
static __always_inline u64 seqring_slot_seq(u64 v)
{
	return v & SEQRING_SLOT_SEQ;
}

/* The slot of @seq in @slots. */
static __always_inline struct seqring_slot *
seqring_slot_of(const struct seqring_slots *slots, u64 seq)
{
	u32 idx;

	div_u64_rem(seq, slots->capacity, &idx);
	return (struct seqring_slot *)&slots->slot[idx];
}

/*
 * Move oldest_seq up to @seq, unless it is there already: everything
 * below @seq is dropped (or cleared). Relaxed: the fully ordered claim of
 * a slot comes after it (step 2.).
 */
static __always_inline void seqring_ring_drop_before(struct seqring_ring *ring,
						     u64 seq)
{
	s64 old = atomic64_read(&ring->oldest_seq);

	while (old < seq &&
	       !atomic64_try_cmpxchg_relaxed(&ring->oldest_seq, &old, seq))
		;
}

/*
 * Reserve @n sequence numbers (step 1. at the top of this file) and the
 * time stamp. Interrupts off. Returns the first sequence number.
 * *@stamp: on entry, whether a reading has a zero timestamp; on return,
 * the time to give them.
 */
static __always_inline u64 seqring_ring_reserve(struct seqring_ring *ring,
						unsigned int n, u64 *stamp)
{
	/*
	 * Read once, before the reservation; only when some reading needs
	 * it (*@stamp set on entry): a clock read is a good part of a
	 * push's cost. The clock may have been set back, and a producer
	 * that read it earlier may reserve later: the stamp is never below
	 * last_stamp, so that sequence and time order agree.
	 */
	s64 now = *stamp ? ktime_get_real_ns() : 0;
	s64 seq, last, t;

	for (;;) {
		/* Pairs with the cmpxchg of head below, by the producer before. */
		seq = atomic64_read_acquire(&ring->head);
		last = atomic64_read(&ring->last_stamp);
		t = max(now, last);
		/* Fully ordered: last_stamp is at least t before head moves. */
		if (t != last &&
		    !atomic64_try_cmpxchg(&ring->last_stamp, &last, t))
			continue;
		/*
		 * Fully ordered. Success means head did not move since it
		 * was read (it only grows): the producer of seq - 1 had
		 * raised last_stamp to its stamp, or seen it there, before
		 * it moved head, and this one read last_stamp after.
		 */
		if (atomic64_try_cmpxchg(&ring->head, &seq, seq + n))
			break;
	}
	*stamp = t;
	return seq;
}

/*
 * The slot array to store the readings of a reservation that ends before
 * @end in, loaded after the reservation (see seqring_ring_resize()); moves
 * oldest_seq past what they overwrite there. Interrupts off, in the
 * section that stores them.
 */
static __always_inline struct seqring_slots *
seqring_ring_slots_for(struct seqring_ring *ring, u64 end)
{
	struct seqring_slots *slots = rcu_dereference_sched(ring->slots);

	if (end > slots->capacity)
		seqring_ring_drop_before(ring, end - slots->capacity);
	return slots;
}

/*
 * Claim the slot of @seq for writing (step 2.). Interrupts off. Returns
 * false when a newer reading holds or claims the slot: @seq was
 * overwritten before it could be stored, and oldest_seq is past it.
 */
static __always_inline bool seqring_slot_claim(struct seqring_slot *slot,
					       u64 seq)
{
	u64 v = READ_ONCE(slot->seq);

	for (;;) {
		if (seqring_slot_seq(v) >= seq)
			return false;
		if (v & SEQRING_SLOT_BUSY) {
			/*
			 * A producer on another CPU is copying the reading a
			 * lap before ours, with interrupts off: one copy.
			 */
			cpu_relax();
			v = READ_ONCE(slot->seq);
			continue;
		}
		/* Fully ordered: oldest_seq before, the copy after. */
		if (likely(cmpxchg(&slot->seq, v, seq | SEQRING_SLOT_BUSY) == v))
			return true;
		v = READ_ONCE(slot->seq);
	}
}

/*
 * Store @r as @seq in @slot, its slot (steps 2. and 3.), a zero timestamp
 * replaced by @stamp; @more: more readings of the same push follow.
 * Interrupts off.
 */
static __always_inline void seqring_ring_store(struct seqring_ring *ring,
					       struct seqring_slot *slot,
					       const struct seqring_reading *r,
					       u64 seq, u64 stamp, bool more)
{
	if (!seqring_slot_claim(slot, seq))
		return;
	slot->r = *r;
	if (!r->timestamp_ns)
		slot->r.timestamp_ns = stamp;
	trace_seqring_push(ring->name, seq, &slot->r);
	/* The reading before its seq: pairs with the acquire in copy_rcu(). */
	smp_store_release(&slot->seq, seq | (more ? SEQRING_SLOT_MORE : 0));
}

/*
 * Where publishing may stop at @seq: 1 if @seq is stored and ends its
 * push, 2 if stored and more of its push follows, 0 if not stored yet.
 * A slot that holds a newer reading means @seq was overwritten (or will
 * never be stored), and everything up to it is dropped: an end.
 */
static __always_inline int seqring_slot_state(const struct seqring_slot *slot,
					      u64 seq)
{
	/* Pairs with the release in seqring_ring_store(). */
	u64 v = smp_load_acquire(&slot->seq);

	if (seqring_slot_seq(v) > seq)
		return 1;
	if (seqring_slot_seq(v) < seq || (v & SEQRING_SLOT_BUSY))
		return 0;
	return v & SEQRING_SLOT_MORE ? 2 : 1;
}

/*
 * Publish what is stored after next_seq (step 4.). Interrupts off, so in
 * an RCU read-side section. Returns the next_seq this call stored, or 0
 * when it stored none.
 */
static u64 seqring_ring_publish(struct seqring_ring *ring)
{
	struct seqring_slots *slots = rcu_dereference_sched(ring->slots);
	struct seqring_slots *prev;
	u64 next = atomic64_read(&ring->next_seq);
	u64 seq, end, published = 0;
	int state;
	u32 idx;

	for (;;) {
		/* Below oldest_seq all is dropped: nothing to wait for. */
		seq = max_t(u64, next, atomic64_read(&ring->oldest_seq));
		end = seq > next ? seq : 0;
		prev = rcu_dereference_sched(slots->prev);
		div_u64_rem(seq, slots->capacity, &idx);
		for (;; seq++) {
			state = seqring_slot_state(&slots->slot[idx], seq);
			/* Stored before a resize and not copied yet? */
			if (!state && prev)
				state = seqring_slot_state(seqring_slot_of(prev, seq),
							   seq);
			if (!state)
				break;
			if (state == 1)
				end = seq + 1;
			if (++idx == slots->capacity)
				idx = 0;
		}
		if (!end)
			return published;
		/* Fully ordered: the slots seen before next_seq. */
		if (atomic64_try_cmpxchg(&ring->next_seq, &next, end)) {
			published = end;
			next = end;
		} else if (next >= end) {
			return published;
		}
	}
}

/*
 * Step 5.: does the next_seq this push published reach the wake-up
 * threshold of a waiting stream reader? The successful try_cmpxchg() of
 * next_seq was fully ordered: pairs with the smp_mb() in
 * seqring_reader_arm().
 */
static __always_inline bool seqring_ring_needs_wake(struct seqring_ring *ring,
						    u64 published)
{
	return published && published >= READ_ONCE(ring->wake_seq);
}

/**
 * seqring_ring_wake_readers - wake the stream readers that wait for pushes
 * @ring: the ring
 * @all: wake every reader that has waited (CLEAR, resize, destroy), not
 *	only those whose wake-up threshold the readings now unread meet
 *
 * The threshold is checked here, on the waker's side, so that a reader
 * waiting for W readings sleeps through the pushes that leave it below W.
 * A reader woken here drops out of wake_seq until it arms itself again
 * before its next wait (seqring_reader_arm()). Takes readers_lock; process
 * context or the ring's irq_work; O(readers that have waited).
 */
void seqring_ring_wake_readers(struct seqring_ring *ring, bool all)
{
	struct seqring_reader *rd;
	u64 next, oldest, lowest = U64_MAX, target;
	u32 capacity = seqring_ring_capacity(ring);
	unsigned long flags;

	spin_lock_irqsave(&ring->readers_lock, flags);
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
	spin_unlock_irqrestore(&ring->readers_lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_wake_readers);

/* The wake-ups of pushes that could not wake readers themselves. */
void seqring_ring_wake_work(struct irq_work *work)
{
	seqring_ring_wake_readers(container_of(work, struct seqring_ring,
					       wake_work), false);
}

/*
 * Wake readers after a push that published @published: directly when the
 * caller may take sleeping locks (@can_sleep), else from an irq_work
 * (which on PREEMPT_RT runs in a thread, where the wait-queue locks may be
 * taken).
 */
static void seqring_ring_wake(struct seqring_ring *ring, u64 published,
			      bool can_sleep)
{
	/*
	 * Checked on every push, not only those that wake someone: a caller
	 * that says it may sleep where it may not is caught at once by a
	 * CONFIG_DEBUG_ATOMIC_SLEEP kernel, whatever the readers do.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP) && can_sleep)
		might_sleep();
	if (!seqring_ring_needs_wake(ring, published))
		return;
	if (can_sleep)
		seqring_ring_wake_readers(ring, false);
	else
		irq_work_queue(&ring->wake_work);
}

/*
 * Readings of a batch stored per section with interrupts off, and between
 * two cond_resched(): a section stays short, and the batch is invisible
 * until it is published whole anyway.
 */
#define SEQRING_STORE_CHUNK	32
#define SEQRING_RESCHED_CHUNK	1024

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_readings_prepare()
 * @n: number of readings, at least 1
 * @pushed: if not NULL, a counter that grows by @n
 *
 * The readings become visible to readers all at once, and a concurrent
 * seqring_ring_clear() comes before or after all of them. Zero timestamps
 * are stamped with one time, taken when the sequence numbers are. When @n
 * exceeds the capacity only the last capacity readings are stored; the
 * others get their sequence numbers and count as dropped. Process context;
 * may sleep between readings.
 */
void seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		       unsigned int n, atomic64_t *pushed)
{
	struct seqring_slots *slots;
	unsigned long flags;
	u64 seq, stamp, published;
	unsigned int i, skip = 0;
	u32 idx;

	/* One clock read for the batch, whatever its readings' timestamps. */
	stamp = 1;
	local_irq_save(flags);
	seq = seqring_ring_reserve(ring, n, &stamp);
	slots = seqring_ring_slots_for(ring, seq + n);
	/* Readings that the push itself overwrites are not stored at all. */
	if (n > slots->capacity)
		skip = n - slots->capacity;
	local_irq_restore(flags);

	for (i = skip; i < n; ) {
		unsigned int end = min(n, i + SEQRING_STORE_CHUNK);

		local_irq_save(flags);
		/*
		 * Again in each section: a resize may have swapped arrays,
		 * and what the readings overwrite in a smaller one must be
		 * dropped before they do.
		 */
		slots = seqring_ring_slots_for(ring, seq + n);
		div_u64_rem(seq + i, slots->capacity, &idx);
		for (; i < end; i++) {
			seqring_ring_store(ring, &slots->slot[idx], &r[i],
					   seq + i, stamp, i + 1 < n);
			if (++idx == slots->capacity)
				idx = 0;
		}
		local_irq_restore(flags);
		if (!(i % SEQRING_RESCHED_CHUNK))
			cond_resched();
	}

	local_irq_save(flags);
	published = seqring_ring_publish(ring);
	local_irq_restore(flags);
	if (pushed)
		atomic64_add(n, pushed);
	seqring_ring_wake(ring, published, true);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

/**
 * __seqring_ring_push_one - append one prepared reading, from any context
 * @ring: the ring
 * @r: a reading checked by seqring_readings_prepare()
 * @can_sleep: the caller may take sleeping locks to wake readers
 *
 * Never sleeps; interrupts are off while the reading is stored. Not NMI.
 */
void __seqring_ring_push_one(struct seqring_ring *ring,
			     const struct seqring_reading *r, bool can_sleep)
{
	struct seqring_slots *slots;
	unsigned long flags;
	u64 seq, stamp, published;

	stamp = !r->timestamp_ns;
	local_irq_save(flags);
	seq = seqring_ring_reserve(ring, 1, &stamp);
	slots = seqring_ring_slots_for(ring, seq + 1);
	seqring_ring_store(ring, seqring_slot_of(slots, seq), r, seq, stamp,
			   false);
	published = seqring_ring_publish(ring);
	local_irq_restore(flags);
	seqring_ring_wake(ring, published, can_sleep);
}
EXPORT_SYMBOL_IF_KUNIT(__seqring_ring_push_one);

/**
 * seqring_ring_push_one - check and append one reading
 * @ring: the ring
 * @r: kernel copy of a reading from userspace
 * @pushed: if not NULL, a counter that grows by one
 *
 * seqring_readings_prepare() and __seqring_ring_push_one() for a single
 * reading, the PUSH ioctl, in one call: at about one system call per
 * reading, calls are a measurable share of its cost. Process context.
 *
 * Return: 0, or -EINVAL as seqring_readings_prepare() (nothing stored).
 */
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r, atomic64_t *pushed)
{
	int ret = seqring_reading_check(r);

	if (ret)
		return ret;
	__seqring_ring_push_one(ring, r, true);
	if (pushed)
		atomic64_inc(pushed);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push_one);

/**
 * seqring_ring_clear - discard every reading held
 * @ring: the ring
 *
 * Sequence numbers are not reset, so readers positioned by sequence number
 * never see a number twice. A push whose readings are not published yet
 * comes after the clear. Never waits for a reader or a producer.
 *
 * Return: 0.
 */
int seqring_ring_clear(struct seqring_ring *ring)
{
	s64 next, oldest;

	/* Producers never take it: interrupts may stay on. */
	raw_spin_lock(&ring->clear_lock);
	next = atomic64_read(&ring->next_seq);
	oldest = atomic64_read(&ring->oldest_seq);
	/*
	 * Producers may raise oldest_seq meanwhile (dropping readings), so
	 * it is raised by cmpxchg too; what they dropped first counts as
	 * dropped, not cleared.
	 */
	write_seqcount_begin(&ring->stats_seq);
	while (oldest < next) {
		if (atomic64_try_cmpxchg_relaxed(&ring->oldest_seq, &oldest,
						 next)) {
			ring->cleared += next - oldest;
			break;
		}
	}
	write_seqcount_end(&ring->stats_seq);
	raw_spin_unlock(&ring->clear_lock);
	/* Stream readers that were behind must learn it. */
	seqring_ring_wake_readers(ring, true);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_clear);

/*
 * Copy the readings [@from, @to) that @old holds into @new (a resize),
 * claiming each slot as a producer does: one that stored a newer reading
 * there meanwhile wins. No producer stores into @old any more.
 */
static void seqring_ring_migrate(struct seqring_ring *ring,
				 const struct seqring_slots *old,
				 struct seqring_slots *new, u64 from, u64 to)
{
	const struct seqring_slot *src;
	struct seqring_slot *dst;
	unsigned long flags;
	u64 seq, v;

	for (seq = from; seq < to; ) {
		u64 end = min(to, seq + SEQRING_STORE_CHUNK);

		local_irq_save(flags);
		for (; seq < end; seq++) {
			src = seqring_slot_of(old, seq);
			v = READ_ONCE(src->seq);
			if ((v & ~SEQRING_SLOT_MORE) != seq)
				continue;
			dst = seqring_slot_of(new, seq);
			if (!seqring_slot_claim(dst, seq))
				continue;
			dst->r = src->r;
			/* As in seqring_ring_store(), MORE bit included. */
			smp_store_release(&dst->seq, v);
		}
		local_irq_restore(flags);
		if (!(seq % SEQRING_RESCHED_CHUNK))
			cond_resched();
	}
}

/**
 * seqring_ring_resize - change the number of readings the ring holds
 * @ring: the ring
 * @capacity: new capacity, 1 to %SEQRING_CAPACITY_MAX
 *
 * The newest min(count, @capacity) readings are kept, with their sequence
 * numbers; those that do not fit count as dropped. The new slots are
 * allocated before any lock is taken, and never by waking the OOM killer.
 * Producers go on pushing into the new array while the readings are
 * copied; readers, listing walks included, never make the resize wait,
 * and it never makes them wait. Process context; sleeps (an expedited
 * RCU grace period). Resizes are serialised.
 *
 * Return: 0, -EINVAL for a capacity out of range, or -ENOMEM (the ring is
 * untouched).
 */
int seqring_ring_resize(struct seqring_ring *ring, u32 capacity)
{
	struct seqring_slots *old, *new;
	u64 head;

	if (!capacity || capacity > SEQRING_CAPACITY_MAX)
		return -EINVAL;
	new = seqring_alloc_slots(capacity);
	if (!new)
		return -ENOMEM;

	mutex_lock(&ring->resize_lock);
	old = rcu_dereference_protected(ring->slots,
					lockdep_is_held(&ring->resize_lock));
	RCU_INIT_POINTER(new->prev, old);
	rcu_assign_pointer(ring->slots, new);
	/*
	 * The swap before the load of head; a producer reserves, a fully
	 * ordered RMW, before it loads the slots pointer: one that stores
	 * into the old array reserved below head, which the migration below
	 * covers, and every reservation from head on stores into the new one.
	 */
	smp_mb();
	head = atomic64_read(&ring->head);
	if (head > capacity)
		seqring_ring_drop_before(ring, head - capacity);

	/*
	 * Producers that took the old array (interrupts off) are done. An
	 * expedited grace period: a normal one waits for CPUs busy with
	 * listing walks, and resizes are rare and root's (PREEMPT_RT makes
	 * it a normal one after boot, rcupdate.rcu_normal_after_boot).
	 */
	synchronize_rcu_expedited();
	seqring_ring_migrate(ring, old, new, atomic64_read(&ring->oldest_seq),
			     head);
	/* The copies before: pairs with the acquire in seqring_ring_copy_rcu(). */
	rcu_assign_pointer(new->prev, NULL);
	mutex_unlock(&ring->resize_lock);

	/* A reader's wake-up threshold may now be out of reach: let it see. */
	seqring_ring_wake_readers(ring, true);
	/* Readers may still copy from the old array: free it after them. */
	kvfree_rcu(old, rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_resize);

/**
 * seqring_ring_kill - wake every reader for good: the ring is destroyed
 * @ring: the ring; no push runs or will run
 *
 * Readers see seqring_ring_dead() from here on.
 */
void seqring_ring_kill(struct seqring_ring *ring)
{
	WRITE_ONCE(ring->dead, true);
	/* dead before the wake-ups' locks: woken readers see it. */
	smp_mb();
	irq_work_sync(&ring->wake_work);
	seqring_ring_wake_readers(ring, true);
}

/**
 * seqring_ring_stats - take a consistent snapshot of the counters
 * @ring: the ring
 * @st: filled in completely, reserved fields included
 *
 * Takes no lock a producer takes, on PREEMPT_RT too: any user can read the
 * counters (sysfs), and pushes must not wait for them. The counters are
 * derived from next_seq, oldest_seq and cleared (see the top of the file).
 */
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st)
{
	unsigned int start;
	u64 next, oldest, cleared;

	memset(st, 0, sizeof(*st));
	rcu_read_lock();
	do {
		start = read_seqcount_begin(&ring->stats_seq);
		next = seqring_ring_next_seq(ring);
		oldest = atomic64_read(&ring->oldest_seq);
		cleared = ring->cleared;
		st->capacity = rcu_dereference(ring->slots)->capacity;
	} while (read_seqcount_retry(&ring->stats_seq, start));
	rcu_read_unlock();

	/* Producers may have moved oldest_seq past what they published yet. */
	oldest = min(oldest, next);
	st->total = next - 1;
	st->cleared = cleared;
	st->dropped = oldest - 1 - cleared;
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
 * seqring_ring_next_seq - the sequence number after the newest published
 * @ring: the ring
 *
 * Return: it; every reading below it that is still held is visible.
 */
u64 seqring_ring_next_seq(struct seqring_ring *ring)
{
	/* Pairs with the fully ordered cmpxchg in seqring_ring_publish(). */
	return atomic64_read_acquire(&ring->next_seq);
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
	return atomic64_read(&ring->oldest_seq);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_oldest_seq);

/*
 * Copy the reading @seq out of @slots if the slot holds it, checking
 * afterwards that it was not overwritten meanwhile (step b.).
 */
static __always_inline bool seqring_slot_copy(const struct seqring_slots *slots,
					      u64 seq,
					      struct seqring_reading *out)
{
	const struct seqring_slot *slot = seqring_slot_of(slots, seq);

	/* Pairs with the release in seqring_ring_store(). */
	if ((smp_load_acquire(&slot->seq) & ~SEQRING_SLOT_MORE) != seq)
		return false;
	/*
	 * Racing with a writer is expected: the copy is validated below and
	 * thrown away if it was torn.
	 */
	*out = data_race(slot->r);
	/* The copy before the check: the claim's cmpxchg orders the writer. */
	smp_rmb();
	return (READ_ONCE(slot->seq) & ~SEQRING_SLOT_MORE) == seq;
}

/**
 * seqring_ring_copy_rcu - copy out the first reading held at or after @seq
 * @ring: the ring
 * @seq: sequence number wanted; readings before it are not looked at
 * @rec: where the reading and its sequence number go
 *
 * Lockless and safe against any writer, resize included: a reading
 * overwritten or cleared before it could be copied is skipped, and the
 * copy never waits for a writer. The caller is in an RCU read-side
 * section, which keeps the slot arrays alive across a resize. Does not
 * sleep.
 *
 * Return: true with @rec filled (@rec->seq >= @seq), or false when no
 * reading at or after @seq is held.
 */
bool seqring_ring_copy_rcu(struct seqring_ring *ring, u64 seq,
			   struct seqring_record *rec)
{
	const struct seqring_slots *slots, *prev;
	u64 next, oldest;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "outside an RCU read section");
	for (;;) {
		next = seqring_ring_next_seq(ring);
		oldest = atomic64_read(&ring->oldest_seq);
		if (seq < oldest)
			seq = oldest;
		if (seq >= next)
			return false;
		slots = rcu_dereference(ring->slots);
		if (seqring_slot_copy(slots, seq, &rec->reading))
			break;
		/*
		 * During a resize, a reading not copied into the new array
		 * yet is still in the old one. Once prev is NULL, every
		 * copy was made: the next pass sees them (smp_rmb() below).
		 */
		prev = rcu_dereference(slots->prev);
		if (prev && seqring_slot_copy(prev, seq, &rec->reading))
			break;
		/*
		 * Overwritten meanwhile, so oldest_seq has moved past it:
		 * pairs with the claim's cmpxchg in seqring_slot_claim().
		 */
		smp_rmb();
	}
	rec->seq = seq;
	return true;
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
