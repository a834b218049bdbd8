// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Producers push from any context but NMI. They never wait for a reader,
 * nor for a task that can be descheduled: every sequence number is
 * reserved, stored, committed and offered for publishing inside one
 * section with interrupts off, so a reading whose push has returned is
 * visible as soon as the CPUs that hold interrupts off leave their
 * sections, whatever the scheduler does to any other producer. A push
 * (__seqring_ring_push_one(), or a batch, seqring_ring_push(), in chunks
 * of at most SEQRING_CHUNK readings, a section each) goes through:
 *
 *   reserve  raise last_stamp to the time stamp (never below it, so that
 *            sequence and time order agree), then take sequence numbers
 *            by a cmpxchg of head, starting again if head moved
 *            meanwhile; then load the slot array and move oldest_seq
 *            (cmpxchg, only raised) past what the new readings will
 *            overwrite there.
 *   store    per reading: claim the slot by a cmpxchg of its seq word to
 *            (seq | SLOT_BUSY), copy the reading, commit with
 *            smp_store_release() of seq.
 *   publish  move next_seq over the slots committed after it by cmpxchg,
 *            at most SEQRING_PUBLISH_MAX slots a walk. Any producer
 *            publishes the readings of others that committed meanwhile;
 *            one that was slow publishes those that waited behind its
 *            own. A walk that stops at its bound with more committed
 *            behind it leaves the rest to an irq_work (hard, on
 *            PREEMPT_RT too) that goes on in a section of its own.
 *
 * So a batch is not published whole: readers see it in order, chunk by
 * chunk, and a CLEAR may fall between two chunks. Holding a batch back
 * until its last reading is stored would hold back every later push too,
 * for as long as the batch's producer is kept off its CPU.
 *
 * Interrupts are off for at most SEQRING_CHUNK copies and a walk of
 * SEQRING_PUBLISH_MAX slots; nothing in a section depends on the capacity,
 * the batch or the number of readers. A slot still BUSY with an older
 * sequence number is being written by another CPU, in such a section: the
 * claim spins for that one copy, which cannot be descheduled. That
 * happens only when the ring is smaller than what CPUs store at once. A
 * slot that holds a newer sequence number means the reading was
 * overwritten before it was stored: it is not stored, and oldest_seq is
 * past it already.
 *
 * Readers take no lock a producer takes: they copy a reading out of its
 * slot and then check that it was not overwritten meanwhile, as
 * read_seqcount_retry() does, with the slot's own sequence number as the
 * count (sequence numbers are never reused, so no ABA).
 *
 * Memory ordering. Each pairing is checked by the Linux-kernel memory
 * model: tests/litmus/NAME.litmus (herd7, `make check-litmus`), each with
 * a mutant, its barrier removed, that the model allows. A producer storing
 * sequence number s:
 *   1. atomic64_read_acquire(&head), then reads last_stamp and raises it
 *      to its stamp (cmpxchg, fully ordered), then moves head past s by
 *      cmpxchg (fully ordered): the producer of s + 1 read head after
 *      this one moved it, so it reads last_stamp after it was raised, and
 *      its stamp is not below this one's (message passing: the acquire
 *      pairs with the cmpxchg of head; reserve-stamp.litmus). Then it
 *      loads the slot array and moves oldest_seq past s - capacity (a
 *      relaxed cmpxchg);
 *   2. claims the slot with cmpxchg() (fully ordered: 1. before the claim,
 *      the claim before the copy);
 *   3. copies the reading, then smp_store_release(&slot->seq, s);
 *   4. publishes: smp_load_acquire() of the seq words it passes, then
 *      atomic64_try_cmpxchg() of next_seq (fully ordered: the slots it saw
 *      before next_seq; the release of 3. is cumulative, so readers that
 *      see next_seq see every reading below it; commit-publish.litmus);
 *   5. after its own successful publish (a fully ordered RMW, so an
 *      smp_mb()), READ_ONCE(wake_seq): wakes the stream readers only if
 *      next_seq reached the lowest wake-up threshold of an armed reader.
 * A reader:
 *   a. atomic64_read_acquire(&next_seq), then oldest_seq: it
 *      sees an oldest_seq at least as new as the one stored before it
 *      (reader-oldest.litmus);
 *   b. for s in [oldest_seq, next_seq): smp_load_acquire(&slot->seq),
 *      copies, smp_rmb(), READ_ONCE(slot->seq): both must be s;
 *   c. if not, smp_rmb() and start again at a.: the producer that changed
 *      the slot had moved oldest_seq past s before (1. and 2. pair with
 *      c.), so the reader moves on and never waits for that producer
 *      (claim-validate.litmus).
 * A consumer of the ring's mapping (mmap.c) is such a reader, in user
 * space: next_seq and oldest_seq are the words of the meta page (the
 * ring points at them; producers store nothing more for a mapping), the
 * slots are the mapped array, and the UAPI header's protocol is a. to c.
 * with C11 acquire loads and an acquire fence for smp_rmb(). The kernel
 * side is the same stores, so the same pairings hold; the consumer's
 * litmus test lives with the library.
 * A stream reader that is about to wait (read() or poll(), reader.c):
 *   d. is on its file's wait queue (poll_wait(), or prepare_to_wait());
 *   e. puts itself on the ring's list of armed readers and lowers wake_seq
 *      to its own threshold under readers_lock, smp_mb();
 *   f. loads next_seq and oldest_seq (a.) and sleeps only if below its
 *      threshold.
 * 4.-5. against e.-f. is the store-buffering pattern, which even x86
 * allows without the two full barriers: with them, either the producer
 * sees the reader's threshold in wake_seq and has it woken, or the reader
 * sees the new next_seq and does not sleep (publish-wake.litmus). The
 * wake-up itself runs in a worker (reader.c), never in the producer's
 * section: it takes the reader off the list, then wakes its wait queue,
 * whose lock orders that against the sleeper's check (wake-unlist.litmus).
 *
 * A resize swaps the slot array and keeps the old one as the new one's
 * prev, then (smp_mb()) loads head: the cut. Against 1. (reserve,
 * a full barrier, then load the array) this is the store-buffering
 * pattern: a producer that loads the old array reserved below the cut,
 * and every reservation from the cut on loads the new one
 * (resize-cut.litmus). Producers may still store into the old array: an
 * RCU grace period waits for them (every store runs with interrupts off,
 * an RCU read-side section). Then the readings below the cut that fit are
 * copied into the new array, claiming slots as producers do, so a
 * producer that stored a newer reading there meanwhile wins. Until prev
 * is cleared, readers and publishers look for a reading in prev when the
 * new array does not have it. prev is cleared by smp_store_release() after
 * the copies and loaded by smp_load_acquire(): one that finds it NULL sees
 * every copy (prev-clear.litmus). rcu_assign_pointer() would not do: for
 * a constant NULL it is a plain store. The old array is freed after a
 * grace period (call_rcu()), without waiting. A ring that is mapped is
 * not resized (EBUSY, seqring_ring_resize()).
 *
 * Counters are derived: every sequence number below next_seq was either
 * dropped, cleared or is held, so total == count + dropped + cleared holds
 * for any (next_seq, oldest_seq, cleared) a reader sees. Only a CLEAR
 * changes oldest_seq and cleared together, inside a stats_seq write
 * section under clear_lock; it raises oldest_seq by cmpxchg, as
 * producers do, so that what they dropped first is not counted cleared,
 * and oldest_seq never goes down (clear-raise.litmus); readers of the
 * counters keep a snapshot only from one side of a CLEAR
 * (clear-stats.litmus).
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
#include <linux/workqueue.h>
#include "compat.h"
#include <asm/word-at-a-time.h>

#include "seqring.h"
#define CREATE_TRACE_POINTS
#include "seqring_trace.h"

#if IS_ENABLED(CONFIG_KUNIT)
/* See seqring_hook(): set by the KUnit tests only. */
struct seqring_test_hook seqring_test_hook;
EXPORT_SYMBOL_IF_KUNIT(seqring_test_hook);
#endif
static_assert(sizeof(struct seqring_reading) == 40);
static_assert(sizeof(struct seqring_batch) == 16);
static_assert(sizeof(struct seqring_stats) == 64);
static_assert(sizeof(struct seqring_record) == 48);
static_assert(sizeof(struct seqring_slot) == 48);
/* The mapping shows struct seqring_slot as struct seqring_mmap_slot. */
static_assert(sizeof(struct seqring_slot) == sizeof(struct seqring_mmap_slot));
static_assert(offsetof(struct seqring_slot, seq) ==
	      offsetof(struct seqring_mmap_slot, seq));
static_assert(offsetof(struct seqring_slot, r) ==
	      offsetof(struct seqring_mmap_slot, reading));
static_assert(SEQRING_SLOT_BUSY == SEQRING_SEQ_BUSY);
/* The counters each in a line of their own, and the meta in a page. */
static_assert(offsetof(struct seqring_mmap_meta, next_seq) == 128);
static_assert(offsetof(struct seqring_mmap_meta, oldest_seq) == 256);
static_assert(sizeof(struct seqring_mmap_meta) == 384);
static_assert(sizeof(struct seqring_mmap_meta) <= PAGE_SIZE);
/* The counters there are the ring's atomic64_t. */
static_assert(sizeof(atomic64_t) == sizeof(__u64));

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
 * Memory a user causes: charged to the caller's memory cgroup, and never
 * at the price of another process: a ring too large for the memory there
 * fails with NULL instead of waking the OOM killer, as ftrace's
 * __rb_allocate_pages() does. Pages that si_mem_available() does not see
 * are not asked for at all; __GFP_RETRY_MAYFAIL gives up rather than kill
 * when reclaim fails; and if something else's allocation does bring the
 * OOM killer meanwhile, it picks the caller first (oom origin).
 */
#define SEQRING_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
			 __GFP_NOWARN | __GFP_ZERO)

/*
 * A zeroed array (a slot whose seq is 0 holds nothing) in whole pages of
 * its own, apart from its header: a mapping of the ring shows these pages
 * (mmap.c), which must hold nothing of the kernel's, and nothing of
 * another allocation, as the tail of a kmalloc() object could. Pages from
 * vmalloc(), not one high-order block: a large ring needs no contiguous
 * memory; a ring of one page is that page.
 */
static struct seqring_slots *seqring_alloc_slots(u32 capacity)
{
	size_t size = PAGE_ALIGN(array_size(capacity,
					    sizeof(struct seqring_slot)));
	struct seqring_slots *slots;

	if (size >> PAGE_SHIFT > si_mem_available())
		return NULL;
	slots = kmalloc(sizeof(*slots), SEQRING_GFP);
	if (!slots)
		return NULL;

	set_current_oom_origin();
	/*
	 * A ring of one page (85 readings or fewer) takes the page itself: no
	 * vmalloc() area, with its guard page, its own allocations and the
	 * per-CPU preload of those, for what fits in one page.
	 */
	if (size == PAGE_SIZE) {
		struct page *page = alloc_page(SEQRING_GFP);

		slots->slot = page ? page_address(page) : NULL;
	} else {
		slots->slot = __vmalloc(size, SEQRING_GFP);
	}
	clear_current_oom_origin();
	if (!slots->slot) {
		kfree(slots);
		return NULL;
	}
	slots->capacity = capacity;
	slots->size = size;
	return slots;
}

static void seqring_free_slots(struct seqring_slots *slots)
{
	if (is_vmalloc_addr(slots->slot))
		vfree(slots->slot);
	else
		free_page((unsigned long)slots->slot);
	kfree(slots);
}

/*
 * After a grace period: readers may still copy from a replaced array.
 * vfree() from an RCU callback (softirq) defers the unmapping to a worker.
 */
static void seqring_free_slots_rcu(struct rcu_head *rcu)
{
	seqring_free_slots(container_of(rcu, struct seqring_slots, rcu));
}

/*
 * The meta page of the ring's mapping, with the ring's counters in it:
 * what a consumer of the mapping needs to find the readings (mmap.c).
 * Filled for @slots; changed only by a resize, which no mapping sees.
 */
static void seqring_meta_layout(struct seqring_mmap_meta *meta,
				const struct seqring_slots *slots)
{
	WRITE_ONCE(meta->capacity, slots->capacity);
	WRITE_ONCE(meta->slots_size, slots->size);
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

static void seqring_ring_publish_work(struct irq_work *work);
static void seqring_ring_wake_irq_work(struct irq_work *work);

/*
 * Set up @ring around its meta page and slots, its first reading to be
 * sequence number @first.
 */
static void seqring_ring_setup(struct seqring_ring *ring, const char *name,
			       struct seqring_mmap_meta *meta,
			       struct seqring_slots *slots, u64 first,
			       work_func_t wake)
{
	ring->meta = meta;
	ring->meta->version = SEQRING_MMAP_VERSION;
	ring->meta->meta_size = PAGE_SIZE;
	ring->meta->slot_size = sizeof(struct seqring_slot);
	ring->meta->slots_offset = PAGE_SIZE;
	seqring_meta_layout(ring->meta, slots);
	ring->next_seq = (atomic64_t *)&ring->meta->next_seq;
	ring->oldest_seq = (atomic64_t *)&ring->meta->oldest_seq;
	atomic_set(&ring->mappings, 0);

	raw_spin_lock_init(&ring->clear_lock);
	seqcount_raw_spinlock_init(&ring->stats_seq, &ring->clear_lock);
	mutex_init(&ring->resize_lock);
	RCU_INIT_POINTER(ring->slots, slots);
	ring->name = name;
	atomic64_set(&ring->head, first);
	atomic64_set(&ring->last_stamp, 0);
	atomic64_set(ring->next_seq, first);
	atomic64_set(ring->oldest_seq, first);
	ring->cleared = 0;
	ring->dead = false;
	/* Hard: on PREEMPT_RT too, publishing never waits for a thread. */
	seqring_init_irq_work_hard(&ring->publish_work,
				   seqring_ring_publish_work);
	ring->walk_max = 0;
	ring->wake_seq = U64_MAX;
	ring->wake_flags = 0;
	init_irq_work(&ring->wake_irq_work, seqring_ring_wake_irq_work);
	INIT_WORK(&ring->wake_work, wake);
	mutex_init(&ring->readers_lock);
	INIT_LIST_HEAD(&ring->readers);
	ring->crcs = NULL;
	ring->frozen = false;
}

/**
 * seqring_ring_init - allocate an empty ring
 * @ring: ring to set up
 * @name: name in trace events: the device's name
 * @capacity: number of readings it holds, 1 to %SEQRING_CAPACITY_MAX
 * @wake: the work that wakes the ring's stream readers when a push meets
 *	wake_seq, or a CLEAR, a resize or seqring_ring_kill() asks for it
 *	(reader.c's; the ring itself knows nothing of readers)
 *
 * Return: 0, or -ENOMEM when the slots cannot be allocated.
 */
int seqring_ring_init(struct seqring_ring *ring, const char *name,
		      u32 capacity, work_func_t wake)
{
	struct seqring_slots *slots;
	struct page *meta;

	meta = alloc_page(SEQRING_GFP);
	if (!meta)
		return -ENOMEM;
	slots = seqring_alloc_slots(capacity);
	if (!slots) {
		__free_page(meta);
		return -ENOMEM;
	}
	seqring_ring_setup(ring, name, page_address(meta), slots, 1, wake);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_init);

/**
 * seqring_ring_init_region - set up a ring in a persistent region
 * @ring: ring to set up
 * @name: as for seqring_ring_init()
 * @region: the region, mapped, formatted by seqring_persist_format()
 * @lay: its layout
 * @wake: as for seqring_ring_init()
 *
 * The meta page, the slots and their checksums are the region's; the ring
 * goes on from the sequence number the format gave it. It cannot be
 * resized: its capacity is the region's.
 *
 * Return: 0, or -ENOMEM.
 */
int seqring_ring_init_region(struct seqring_ring *ring, const char *name,
			     void *region,
			     const struct seqring_persist_layout *lay,
			     work_func_t wake)
{
	struct seqring_mmap_meta *meta = region + lay->meta_offset;
	struct seqring_slots *slots;

	slots = kzalloc(sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	slots->capacity = lay->capacity;
	slots->slot = region + lay->slots_offset;
	slots->size = lay->slots_size;
	seqring_ring_setup(ring, name, meta, slots, READ_ONCE(meta->next_seq),
			   wake);
	ring->crcs = region + lay->crcs_offset;
	return 0;
}

/**
 * seqring_ring_destroy - free the ring's slots
 * @ring: ring set up by seqring_ring_init(), no longer in use: no push
 *	runs or will run, and no reader is left
 */
void seqring_ring_destroy(struct seqring_ring *ring)
{
	/* The publish work may queue the wake-up's, which queues the work. */
	irq_work_sync(&ring->publish_work);
	irq_work_sync(&ring->wake_irq_work);
	cancel_work_sync(&ring->wake_work);
	/*
	 * No mapping is left: each holds the file, which holds the ring. A
	 * persistent ring's slots and meta page are its region's, which
	 * persist_region.c unmaps; it is never resized, so its array is the
	 * one seqring_ring_init_region() allocated.
	 */
	if (ring->crcs) {
		kfree(rcu_dereference_protected(ring->slots, true));
	} else {
		seqring_free_slots(rcu_dereference_protected(ring->slots, true));
		free_page((unsigned long)ring->meta);
	}
	RCU_INIT_POINTER(ring->slots, NULL);
	ring->meta = NULL;
	mutex_destroy(&ring->readers_lock);
	mutex_destroy(&ring->resize_lock);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_destroy);

/* The sequence number a slot's seq word holds, without its state bit. */
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

/**
 * seqring_ring_restore - put a reading of the previous boot in its slot
 * @ring: a ring set up by seqring_ring_init(), that nobody can reach yet
 * @seq: its sequence number, in increasing order across calls
 * @r: the reading
 *
 * Then seqring_ring_freeze(). Plain stores: no reader, no producer.
 */
void seqring_ring_restore(struct seqring_ring *ring, u64 seq,
			  const struct seqring_reading *r)
{
	struct seqring_slot *slot;

	slot = seqring_slot_of(rcu_dereference_protected(ring->slots, true),
			       seq);
	slot->r = *r;
	slot->seq = seq;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_restore);

/**
 * seqring_ring_freeze - make a restored ring read-only, holding [@oldest, @next)
 * @ring: the ring, filled by seqring_ring_restore()
 * @oldest: the first sequence number it holds
 * @next: the one after the last
 *
 * Slots in the range that seqring_ring_restore() did not fill are holes:
 * readers step over them. Before the ring is registered: no barrier.
 */
void seqring_ring_freeze(struct seqring_ring *ring, u64 oldest, u64 next)
{
	atomic64_set(&ring->head, next);
	atomic64_set(ring->next_seq, next);
	atomic64_set(ring->oldest_seq, oldest);
	ring->frozen = true;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_freeze);

/*
 * Move oldest_seq up to @seq, unless it is there already: everything
 * below @seq is dropped (or cleared). Relaxed: the fully ordered claim of
 * a slot comes after it (step 2.).
 */
static __always_inline void seqring_ring_drop_before(struct seqring_ring *ring,
						     u64 seq)
{
	s64 old = atomic64_read(ring->oldest_seq);

	while (old < seq &&
	       !atomic64_try_cmpxchg_relaxed(ring->oldest_seq, &old, seq))
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
	 * push's cost. The fast accessor: safe in any context, NMI
	 * included, and while timekeeping is suspended (a push from a
	 * syscore or s2idle path), where ktime_get_real_ns() warns. The
	 * clock may have been set back, and a producer that read it earlier
	 * may reserve later: the stamp is never below last_stamp, so that
	 * sequence and time order agree.
	 */
	s64 now = *stamp ? ktime_get_real_fast_ns() : 0;
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
			 * Another CPU is copying the reading a lap before
			 * ours in a section with interrupts off: one copy,
			 * by a task that cannot be descheduled meanwhile.
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
 * Store @r as @seq in slot @idx of @slots (steps 2. and 3.), a zero
 * timestamp replaced by @stamp. Interrupts off.
 */
static __always_inline void seqring_ring_store(struct seqring_ring *ring,
					       struct seqring_slots *slots,
					       u32 idx,
					       const struct seqring_reading *r,
					       u64 seq, u64 stamp)
{
	struct seqring_slot *slot = &slots->slot[idx];

	if (!seqring_slot_claim(slot, seq))
		return;
	slot->r = *r;
	if (!r->timestamp_ns)
		slot->r.timestamp_ns = stamp;
	/*
	 * A persistent ring: the checksum before the commit, so that the
	 * next boot finds, for any slot it can read as committed, the
	 * checksum of that reading (or a mismatch, if the crash tore it).
	 */
	if (ring->crcs)
		WRITE_ONCE(ring->crcs[idx], seqring_persist_crc(seq, &slot->r));
	trace_seqring_push(ring->name, seq, &slot->r);
	/* The reading before its seq: pairs with the acquire in copy_rcu(). */
	smp_store_release(&slot->seq, seq);
}

/*
 * May publishing go past @seq? Yes if it is committed, or if the slot
 * holds a newer reading: @seq was overwritten (or will never be stored),
 * and everything up to it is dropped. No while it is not stored yet.
 */
static __always_inline bool seqring_slot_done(const struct seqring_slot *slot,
					      u64 seq)
{
	/* Pairs with the release in seqring_ring_store(). */
	u64 v = smp_load_acquire(&slot->seq);

	if (seqring_slot_seq(v) != seq)
		return seqring_slot_seq(v) > seq;
	return !(v & SEQRING_SLOT_BUSY);
}

/*
 * Publish what is committed after next_seq (step 4.), walking at most
 * SEQRING_PUBLISH_MAX slots. Interrupts off, so in an RCU read-side
 * section. Returns the next_seq this call stored, or 0 when it stored
 * none.
 *
 * A walk ends at the first slot not committed yet: its producer is in its
 * own section and publishes past it when it commits. A walk that only
 * stops at the bound leaves the rest to the publish irq_work, so that no
 * reading waits for the next push, and no section walks more.
 */
static u64 seqring_ring_publish(struct seqring_ring *ring)
{
	struct seqring_slots *slots = rcu_dereference_sched(ring->slots);
	/* Pairs with the release in seqring_ring_resize(): see the copies. */
	struct seqring_slots *prev = smp_load_acquire(&slots->prev);
	u64 next = atomic64_read(ring->next_seq);
	unsigned int budget = SEQRING_PUBLISH_MAX;
	u64 seq, end;
	u32 idx;

	for (;;) {
		/* Below oldest_seq all is dropped: nothing to wait for. */
		seq = max_t(u64, next, atomic64_read(ring->oldest_seq));
		div_u64_rem(seq, slots->capacity, &idx);
		for (; budget; budget--, seq++) {
			/* Stored before a resize and not copied yet? */
			if (!seqring_slot_done(&slots->slot[idx], seq) &&
			    (!prev || !seqring_slot_done(seqring_slot_of(prev, seq),
							 seq)))
				break;
			if (++idx == slots->capacity)
				idx = 0;
		}
		end = seq;
		if (SEQRING_PUBLISH_MAX - budget > READ_ONCE(ring->walk_max))
			WRITE_ONCE(ring->walk_max, SEQRING_PUBLISH_MAX - budget);
		if (end <= next)
			return 0;
		/* Fully ordered: the slots seen before next_seq. */
		if (atomic64_try_cmpxchg(ring->next_seq, &next, end))
			break;
		/* Another producer published meanwhile, maybe past us. */
		if (next >= end)
			return 0;
	}
	if (!budget)
		irq_work_queue(&ring->publish_work);
	return end;
}

/*
 * Step 5.: does the next_seq this push published reach the wake-up
 * threshold of an armed stream reader? The successful try_cmpxchg() of
 * next_seq was fully ordered: pairs with the smp_mb() in
 * seqring_reader_arm().
 */
static __always_inline bool seqring_ring_needs_wake(struct seqring_ring *ring,
						    u64 published)
{
	return published && published >= READ_ONCE(ring->wake_seq);
}

/* Wakes readers for pushes made where queue_work() may not be called. */
static void seqring_ring_wake_irq_work(struct irq_work *work)
{
	struct seqring_ring *ring = container_of(work, struct seqring_ring,
						 wake_irq_work);

	queue_work(system_highpri_wq, &ring->wake_work);
}

/*
 * Have readers woken after a push that published @published: the walk of
 * the armed readers runs in a worker, never in the producer, which waits
 * for none of them. A producer that may call queue_work() (@can_sleep:
 * process context) queues it; any other goes through an irq_work (the
 * caller may hold a runqueue lock that queue_work()'s wake-up takes).
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
		queue_work(system_highpri_wq, &ring->wake_work);
	else
		irq_work_queue(&ring->wake_irq_work);
}

/* Goes on where a publish stopped at its bound. Hard irq context. */
static void seqring_ring_publish_work(struct irq_work *work)
{
	struct seqring_ring *ring = container_of(work, struct seqring_ring,
						 publish_work);

	seqring_ring_wake(ring, seqring_ring_publish(ring), false);
}

/**
 * seqring_ring_wake_all - have every armed stream reader woken
 * @ring: the ring
 *
 * For what moves readers without a push: CLEAR, resize, destroy. The
 * wake-up runs in the ring's worker; never waits. Process context.
 */
void seqring_ring_wake_all(struct seqring_ring *ring)
{
	set_bit(SEQRING_WAKE_ALL, &ring->wake_flags);
	queue_work(system_highpri_wq, &ring->wake_work);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_wake_all);

/*
 * Reserve, store, commit and publish @n readings (at most SEQRING_CHUNK)
 * in one section with interrupts off, after dropping @drop sequence
 * numbers that are reserved but never stored (a batch larger than the
 * ring). @stamp: some reading may have a zero timestamp. Returns what
 * seqring_ring_publish() returned.
 */
static __always_inline u64
seqring_ring_push_chunk(struct seqring_ring *ring,
			const struct seqring_reading *r, unsigned int n,
			unsigned int drop, bool stamp)
{
	struct seqring_slots *slots;
	unsigned long flags;
	u64 seq, t = stamp, published;
	unsigned int i;
	u32 idx;

	local_irq_save(flags);
	seq = seqring_ring_reserve(ring, drop + n, &t);
	seqring_hook(ring, SEQRING_HOOK_RESERVED);
	slots = seqring_ring_slots_for(ring, seq + drop + n);
	if (drop) {
		/* Whatever the capacity is now: they were never stored. */
		seqring_ring_drop_before(ring, seq + drop);
		seq += drop;
	}
	div_u64_rem(seq, slots->capacity, &idx);
	for (i = 0; i < n; i++) {
		seqring_ring_store(ring, slots, idx, &r[i], seq + i, t);
		if (++idx == slots->capacity)
			idx = 0;
	}
	seqring_hook(ring, SEQRING_HOOK_STORED);
	published = seqring_ring_publish(ring);
	local_irq_restore(flags);
	return published;
}

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_readings_prepare()
 * @n: number of readings, at least 1
 * @pushed: if not NULL, a counter that grows by @n
 *
 * The readings are reserved, stored and published in chunks of
 * %SEQRING_CHUNK, each in one section with interrupts off: readers see
 * them in order, chunk by chunk, and a concurrent seqring_ring_clear()
 * may fall between two chunks. The batch never holds back another
 * producer's readings, however long the scheduler keeps this one from its
 * CPU between chunks. Zero timestamps are stamped per chunk, when its
 * sequence numbers are taken. When @n exceeds the capacity only the last
 * capacity readings are stored; the others get their sequence numbers and
 * count as dropped. Process context; may sleep between chunks.
 */
void seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		       unsigned int n, atomic64_t *pushed)
{
	u32 capacity = seqring_ring_capacity(ring);
	unsigned int i, k, drop = 0;
	u64 published;

	/* Readings that the push itself overwrites are not stored at all. */
	if (n > capacity)
		drop = n - capacity;
	for (i = drop; i < n; i += k) {
		k = min_t(unsigned int, n - i, SEQRING_CHUNK);
		published = seqring_ring_push_chunk(ring, &r[i], k,
						    i == drop ? drop : 0, true);
		seqring_ring_wake(ring, published, true);
		seqring_hook(ring, SEQRING_HOOK_CHUNK);
		if (i + k < n) {
			seqring_hook(ring, SEQRING_HOOK_RESCHED);
			cond_resched();
		}
	}
	if (pushed)
		atomic64_add(n, pushed);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

/**
 * __seqring_ring_push_one - append one prepared reading, from any context
 * @ring: the ring
 * @r: a reading checked by seqring_readings_prepare()
 * @can_sleep: the caller is in process context, where it may queue the
 *	wake-up of readers itself
 *
 * Never sleeps; interrupts are off while the reading is stored. Not NMI.
 */
void __seqring_ring_push_one(struct seqring_ring *ring,
			     const struct seqring_reading *r, bool can_sleep)
{
	seqring_ring_wake(ring,
			  seqring_ring_push_chunk(ring, r, 1, 0,
						  !r->timestamp_ns),
			  can_sleep);
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
 * never see a number twice. A reading not published yet comes after the
 * clear; a batch being pushed may be cut in two by it, between chunks.
 * Never waits for a reader or a producer.
 *
 * Return: 0, or -EROFS for the previous boot's ring.
 */
int seqring_ring_clear(struct seqring_ring *ring)
{
	s64 next, oldest;

	if (ring->frozen)
		return -EROFS;

	/* Producers never take it: interrupts may stay on. */
	raw_spin_lock(&ring->clear_lock);
	next = atomic64_read(ring->next_seq);
	oldest = atomic64_read(ring->oldest_seq);
	/*
	 * Producers may raise oldest_seq meanwhile (dropping readings), so
	 * it is raised by cmpxchg too; what they dropped first counts as
	 * dropped, not cleared.
	 */
	write_seqcount_begin(&ring->stats_seq);
	while (oldest < next) {
		if (atomic64_try_cmpxchg_relaxed(ring->oldest_seq, &oldest,
						 next)) {
			ring->cleared += next - oldest;
			break;
		}
	}
	write_seqcount_end(&ring->stats_seq);
	raw_spin_unlock(&ring->clear_lock);
	/* Stream readers that were behind must learn it. */
	seqring_ring_wake_all(ring);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_clear);

/*
 * Copy the readings [@from, @to) that @old holds into @new (a resize),
 * claiming each slot as a producer does: one that stored a newer reading
 * there meanwhile wins. No producer stores into @old any more. Interrupts
 * are off for SEQRING_CHUNK slots at a time, and the copy offers to
 * reschedule after each such section.
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
		u64 end = min(to, seq + SEQRING_CHUNK);

		local_irq_save(flags);
		for (; seq < end; seq++) {
			src = seqring_slot_of(old, seq);
			v = READ_ONCE(src->seq);
			if (v != seq)
				continue;
			dst = seqring_slot_of(new, seq);
			if (!seqring_slot_claim(dst, seq))
				continue;
			dst->r = src->r;
			/* As in seqring_ring_store(). */
			smp_store_release(&dst->seq, seq);
		}
		local_irq_restore(flags);
		seqring_hook(ring, SEQRING_HOOK_RESCHED);
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
 * A ring that is mapped is not resized: a mapping shows the slot array
 * producers store into, and a resize replaces it. Keeping the old array
 * for the mappings would show them readings that stop coming, and moving
 * them to the new one would change an array under a consumer's feet; both
 * would need every consumer to notice and remap. So the resize fails, and
 * says why: munmap(), resize, mmap() again.
 *
 * A persistent ring's capacity is its region's; the previous boot's ring
 * is read-only.
 *
 * Return: 0, -EINVAL for a capacity out of range, -EBUSY while the ring
 * is mapped, -EOPNOTSUPP for a persistent ring, -EROFS for the previous
 * boot's, or -ENOMEM (the ring is untouched).
 */
int seqring_ring_resize(struct seqring_ring *ring, u32 capacity)
{
	struct seqring_slots *old, *new;
	u64 head;

	if (ring->frozen)
		return -EROFS;
	if (ring->crcs)
		return -EOPNOTSUPP;

	if (!capacity || capacity > SEQRING_CAPACITY_MAX)
		return -EINVAL;
	/* Before allocating, for the common case; checked again below. */
	if (atomic_read(&ring->mappings))
		return -EBUSY;
	new = seqring_alloc_slots(capacity);
	if (!new)
		return -ENOMEM;

	mutex_lock(&ring->resize_lock);
	/*
	 * seqring_ring_mmap() counts a new mapping under resize_lock; a
	 * mapping split or moved is counted while another still exists.
	 */
	if (atomic_read(&ring->mappings)) {
		mutex_unlock(&ring->resize_lock);
		seqring_free_slots(new);
		return -EBUSY;
	}
	old = rcu_dereference_protected(ring->slots,
					lockdep_is_held(&ring->resize_lock));
	/* Published by the release of rcu_assign_pointer() below. */
	new->prev = old;
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
	seqring_ring_migrate(ring, old, new, atomic64_read(ring->oldest_seq),
			     head);
	/*
	 * The copies before: pairs with the acquires of prev in
	 * seqring_ring_publish() and seqring_ring_copy_rcu(), which then
	 * find every copy. Not rcu_assign_pointer(): for NULL it is a plain
	 * store.
	 */
	smp_store_release(&new->prev, NULL);
	/* No mapping can see it: the next one is made under resize_lock. */
	seqring_meta_layout(ring->meta, new);
	mutex_unlock(&ring->resize_lock);

	/* A reader's wake-up threshold may now be out of reach: let it see. */
	seqring_ring_wake_all(ring);
	/*
	 * Readers may still copy from the old array: free it after them.
	 * The module's exit waits for the callback (rcu_barrier()).
	 */
	call_rcu(&old->rcu, seqring_free_slots_rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_resize);

/**
 * seqring_ring_kill - wake every reader for good: the ring is destroyed
 * @ring: the ring; no push runs or will run
 *
 * Readers see seqring_ring_dead() from here on; every armed one is woken
 * before this returns. Process context; sleeps.
 */
void seqring_ring_kill(struct seqring_ring *ring)
{
	WRITE_ONCE(ring->dead, true);
	/* dead before the wake-ups' locks: woken readers see it. */
	smp_mb();
	irq_work_sync(&ring->publish_work);
	irq_work_sync(&ring->wake_irq_work);
	/*
	 * Mapping consumers see it too: after next_seq's last move, so one
	 * that loads flags with acquire and sees GONE, then loads next_seq,
	 * has every reading there will be.
	 */
	smp_store_release(&ring->meta->flags,
			  READ_ONCE(ring->meta->flags) | SEQRING_MMAP_GONE);
	seqring_ring_wake_all(ring);
	flush_work(&ring->wake_work);
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
		oldest = atomic64_read(ring->oldest_seq);
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
	return atomic64_read_acquire(ring->next_seq);
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
	return atomic64_read(ring->oldest_seq);
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
	if (smp_load_acquire(&slot->seq) != seq)
		return false;
	/*
	 * Racing with a writer is expected: the copy is validated below and
	 * thrown away if it was torn.
	 */
	*out = data_race(slot->r);
	/* The copy before the check: the claim's cmpxchg orders the writer. */
	smp_rmb();
	return READ_ONCE(slot->seq) == seq;
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
		oldest = atomic64_read(ring->oldest_seq);
		if (seq < oldest)
			seq = oldest;
		if (seq >= next)
			return false;
		slots = rcu_dereference(ring->slots);
		if (seqring_slot_copy(slots, seq, &rec->reading))
			break;
		/*
		 * During a resize, a reading not copied into the new array
		 * yet is still in the old one. Once prev is NULL, every copy
		 * was made: pairs with the release in seqring_ring_resize().
		 */
		prev = smp_load_acquire(&slots->prev);
		if (prev && seqring_slot_copy(prev, seq, &rec->reading))
			break;
		/* Nothing moves in a frozen ring: a hole, lost in the crash. */
		if (ring->frozen) {
			seq++;
			continue;
		}
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
