// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the ring of readings
 *
 * Producers push from any context, NMI included. They never wait: not for
 * a reader, not for another producer, not for a task the scheduler keeps
 * off its CPU, not for the context an NMI interrupted. Every sequence
 * number is reserved, stored, committed and offered for publishing inside
 * one section with preemption off, so a reading whose push has returned
 * is visible as soon as every reading before it is committed: only a CPU
 * in the middle of such a section holds it back, until it leaves it (or
 * the interrupts that came in meanwhile return). A
 * push (__seqring_ring_push_one(), or a batch, seqring_ring_push(), in
 * chunks of at most SEQRING_CHUNK readings, a section each) goes through:
 *
 *   reserve  take sequence numbers by a cmpxchg of head, only as many as
 *            there are free slots: the slot of s is free once s minus the
 *            capacity is published (and, during a resize, below
 *            mig_seq). Raise last_stamp to the time stamp
 *            first (never below it, so that sequence and time order
 *            agree). No free slot: the push stores nothing, takes no
 *            number, fails (ENOBUFS) and counts it in lost[]; it never
 *            waits for the context that holds the slot, which may be the
 *            one an NMI interrupted.
 *   store    load the slot array, raise oldest_seq past what the new
 *            readings overwrite there; mark each slot BUSY with its new
 *            sequence number, copy the readings, commit each with a
 *            release store of its seq word. Plain stores: a free slot is
 *            stored by no other context.
 *   publish  a full barrier, then move next_seq over the slots committed
 *            after it by cmpxchg, at most SEQRING_PUBLISH_MAX slots a
 *            walk. Any producer publishes the readings of others that
 *            committed meanwhile; one that was slow publishes those that
 *            waited behind its own. A walk that stops at its bound leaves
 *            the rest to an irq_work (hard, on PREEMPT_RT too) that goes on
 *            in a section of its own.
 *
 * So a batch is not published whole: readers see it in order, chunk by
 * chunk, and a CLEAR may fall between two chunks. Holding a batch back
 * until its last reading is stored would hold back every later push too,
 * for as long as the batch's producer is kept off its CPU.
 *
 * Preemption is off for at most SEQRING_CHUNK copies and a walk of
 * SEQRING_PUBLISH_MAX slots; nothing in a section depends on the capacity,
 * the batch or the number of readers, and nothing in one spins on another
 * context: every loop ends (each names its bound where it is). The loss
 * is the price: a push finds no free slot only when the readings reserved
 * and not yet published fill the ring, that is when, while one push is
 * between its reservation and its commit, a capacity's worth of later
 * readings is reserved. Its section is short (a chunk's copies, a walk),
 * unless something stops its CPU there: an NMI (which may itself push
 * into the ring, on its own slot), a hypervisor, a debugger. So a ring is
 * lossless as long as it holds more readings than are pushed during the
 * longest such stop: any ring of a few chunks per CPU on a machine whose
 * CPUs are not stopped, and only a ring of fewer slots than the readings
 * stored at once (a capacity below SEQRING_CHUNK, with several
 * producers) loses pushes in normal running.
 *
 * Readers take no lock a producer takes: they copy a reading out of its
 * slot and then check that it was not overwritten meanwhile, as
 * read_seqcount_retry() does, with the slot's own sequence number as the
 * count (sequence numbers are never reused, so no ABA).
 *
 * Memory ordering. Each pairing is checked by the Linux-kernel memory
 * model: tests/litmus/NAME.litmus (herd7, `make check-litmus`), each
 * modelling the code it names (file:function), with every context that
 * takes part, and each with a mutant, one barrier removed, that the model
 * allows. Each barrier carries a label, LMM(function:X), which the litmus
 * tests cite. A producer storing sequence number s:
 *   1. atomic64_read_acquire() of head (reserve:A), then
 *      atomic64_read_acquire() of next_seq (reserve:B) and
 *      smp_load_acquire() of mig_seq (reserve:C): the slot of s is free if
 *      s - capacity is below both; then raises last_stamp (cmpxchg, fully
 *      ordered) and moves head past s by cmpxchg (reserve:D, fully
 *      ordered). The producer of s + 1 read head after this one moved it,
 *      so it reads last_stamp after it was raised, and its stamp is not
 *      below this one's (reserve-stamp.litmus). The producer of s -
 *      capacity committed before its reading was published (3., 4.): its
 *      stores to the slot come before this one's, and nobody stores the
 *      slot until s is published in turn (reserve-free.litmus).
 *   2. loads the slot array (slots_for:A) and raises oldest_seq past
 *      s - capacity (a relaxed cmpxchg), smp_wmb() (push_chunk:B; an
 *      smp_mb() when it found oldest_seq raised by another producer
 *      instead of raising it itself: only a full barrier orders another
 *      CPU's store before this one's), marks the slot (s | SLOT_BUSY,
 *      WRITE_ONCE()), smp_wmb() (slots_store:A, a slot at a time);
 *   3. copies the reading, then smp_store_release(&slot->seq, s)
 *      (slot_fill:A; a persistent ring's checksum before it,
 *      persist-crc.litmus);
 *   4. smp_mb() (push_chunk:D), then publishes: smp_load_acquire() of the
 *      seq words it passes (slot_done:A), then atomic64_try_cmpxchg() of
 *      next_seq (publish:C, fully ordered: the slots it saw before
 *      next_seq; the release of 3. is cumulative, so readers that see
 *      next_seq see every reading below it: commit-publish.litmus). The
 *      smp_mb() of 4. is what makes two producers that commit at once see
 *      each other's commit: without it each may find the other's slot
 *      still busy and neither publishes (store buffering,
 *      publish-two.litmus). A walk stops at SEQRING_PUBLISH_MAX slots and
 *      queues the publish irq_work, whose walk sees what this one saw
 *      (publish-budget.litmus); a walk starts at oldest_seq when that is
 *      above next_seq, over readings dropped (publish-drop.litmus);
 *   5. after its own successful publish (a fully ordered RMW, so an
 *      smp_mb()), READ_ONCE(wake_seq) (needs_wake:A): wakes the stream
 *      readers only if next_seq reached the lowest wake-up threshold of an
 *      armed reader.
 * A reader:
 *   a. atomic64_read_acquire(&next_seq) (next_seq:A), then oldest_seq: it
 *      sees an oldest_seq at least as new as the one stored before it
 *      (reader-oldest.litmus);
 *   b. for s in [oldest_seq, next_seq): smp_load_acquire(&slot->seq)
 *      (slot_copy:A), copies, smp_rmb() (slot_copy:B),
 *      READ_ONCE(slot->seq): both must be s;
 *   c. if not, smp_rmb() (copy_rcu:C) and start again at a.: the producer
 *      that changed the slot had moved oldest_seq past s before it marked
 *      it (2.), so the reader moves on and never waits for that producer
 *      (store-validate.litmus).
 * A consumer of the ring's mapping (mmap.c) is such a reader, in user
 * space: next_seq and oldest_seq are the words of the meta page (the
 * ring points at them; producers store nothing more for a mapping), the
 * slots are the mapped array, and the UAPI header's protocol is a. to c.
 * with C11 acquire loads and an acquire fence for smp_rmb()
 * (map-consumer.litmus, with two producers), and the meta page's flags
 * loaded with acquire first (kill-gone.litmus).
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
 * A resize copies what is published into the new array while nobody else
 * sees it, then stores next_seq into mig_seq, swaps the arrays, keeping
 * the old one as the new one's prev, and (smp_mb(), resize:A) loads head:
 * the cut. Dropping at the cut (and producers that find the new array too
 * small, below) moves oldest_seq past next_seq, over readings that may
 * not be stored yet, and a walk then publishes over them: mig_seq, stored
 * before, keeps producers off their slots (1., reserve:C) until a grace
 * period after the last such drop (resize-drop.litmus,
 * resize-drop-grace.litmus). Against 1.-2.
 * (reserve, a full barrier, then load the array) this is the
 * store-buffering pattern: a producer that loads the old array reserved
 * below the cut, and every reservation from the cut on loads the new one
 * (resize-cut.litmus). A producer checks its slots free in the array it
 * loaded before reserving; if the array it loads after is another (the
 * swap fell in between), it stores there only if the slots are free there
 * too, else into the array it checked (slots_for). Producers may still
 * store into the old array: an RCU grace period waits for them (every
 * store runs with preemption off, an RCU read-side section); then what was
 * stored or published since the first copy, up to head as it is then, is
 * copied over if producers did not lap it meanwhile: mig_seq is lowered to
 * the first such reading, a grace period before the copy (producers never
 * wait for the copy to start; both grace periods: resize-grace.litmus),
 * and the copy goes a chunk of slots at a time, each chunk
 * released into mig_seq (migrate:C), which keeps producers off the slots
 * still to be filled (1., reserve:C; resize-migrate.litmus): the copy and
 * a producer never store one slot at once. Until prev is cleared, readers
 * and publishers look for a reading in prev when the new array does not
 * have it. prev is cleared by smp_store_release() after the copies
 * (resize:B) and loaded by smp_load_acquire() (publish:A): one that finds
 * it NULL sees every copy (prev-clear.litmus). rcu_assign_pointer() would
 * not do: for a constant NULL it is a plain store. The old array is freed
 * after a grace period (call_rcu()), without waiting. A ring that is
 * mapped is not resized (EBUSY, seqring_ring_resize()).
 *
 * Destroying a ring (seqring_ring_kill()) sets dead (kill:A), which every
 * push reads inside its section (push_chunk:A), waits for a grace period
 * (kill:B): every section that did not see it is over, and what they
 * committed is published; only then is GONE stored into the meta page
 * with a release (kill:C). A consumer that loads flags with acquire and
 * sees GONE, then loads next_seq, has every reading there will be
 * (kill-gone.litmus).
 *
 * Counters are derived: every sequence number below next_seq was either
 * dropped, cleared or is held, so total == count + dropped + cleared holds
 * for any (next_seq, oldest_seq, cleared) a reader sees. Only a CLEAR
 * changes oldest_seq and cleared together, inside a stats_seq write
 * section under clear_lock; it reads next_seq with acquire (clear:A), as
 * readers do, then a full barrier (clear:B: the producer's next_seq it
 * read before its own stores, for readers of the counters), and raises
 * oldest_seq by cmpxchg, as producers do, so that
 * what they dropped first is not counted cleared, and oldest_seq never
 * goes down (clear-raise.litmus); readers of the counters keep a snapshot
 * only from one side of a CLEAR, and never see more cleared than pushed
 * (clear-stats.litmus).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/irq_work.h>
#include <linux/cpumask.h>
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

#if IS_ENABLED(CONFIG_KUNIT) || defined(SEQRING_TEST_HOOKS)
/* See seqring_hook(): set by the tests only. */
DEFINE_STATIC_KEY_FALSE(seqring_hook_key);
seqring_hook_fn seqring_hook_fn_ptr;
EXPORT_SYMBOL_GPL(seqring_hook_fn_ptr);

/**
 * seqring_test_hook_set - have @fn called at each step of pushes (tests)
 * @fn: the hook, called with the ring and the step; NULL for none
 *
 * When it returns after @fn NULL, no call of the hook is running in a
 * section with preemption off (an RCU grace period); the caller makes
 * sure of its calls in process context (SEQRING_HOOK_CHUNK, _RESCHED).
 * Process context.
 */
void seqring_test_hook_set(seqring_hook_fn fn)
{
	WRITE_ONCE(seqring_hook_fn_ptr, fn);
	if (fn) {
		static_branch_enable(&seqring_hook_key);
	} else {
		static_branch_disable(&seqring_hook_key);
		synchronize_rcu();
	}
}
EXPORT_SYMBOL_GPL(seqring_test_hook_set);
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
 * Memory a user causes (SEQRING_GFP_USER): charged to the caller's memory
 * cgroup, and never at the price of another process: a ring too large for
 * the memory there fails with NULL instead of waking the OOM killer, as
 * ftrace's __rb_allocate_pages() does. Pages that si_mem_available() does
 * not see are not asked for at all; __GFP_RETRY_MAYFAIL gives up rather
 * than kill when reclaim fails; and if something else's allocation does
 * bring the OOM killer meanwhile, it picks the caller first (oom origin).
 */
#define SEQRING_GFP	(SEQRING_GFP_USER | __GFP_NOWARN | __GFP_ZERO)

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
	unsigned long bits, dirty;
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
	dirty = w[i] & ~zero_bytemask(create_zero_mask(bits));
	w[i] ^= dirty;
	while (++i < ARRAY_SIZE(w)) {
		dirty |= w[i];
		w[i] = 0;
	}
	/* Most labels come zero-padded: a store only for those that do not. */
	if (dirty)
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
	unsigned int i;

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
	ring->mig_seq = U64_MAX;
	for (i = 0; i < SEQRING_LOST_NR; i++)
		atomic64_set(&ring->lost[i], 0);
	ring->broken = false;
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
 * below @seq is dropped (or cleared). Relaxed: the caller orders it
 * (LMM(seqring_ring_push_chunk:B)). Bounded: the cmpxchg fails only when
 * another context raised oldest_seq, and the loop ends once it is at @seq
 * or above.
 *
 * Return: true when this call did not store oldest_seq itself but found it
 * at @seq or above, raised by another context: a barrier that orders this
 * CPU's own stores does not then order that one, and the caller needs a
 * full one (store-validate.litmus).
 */
static __always_inline bool seqring_ring_drop_before(struct seqring_ring *ring,
						     u64 seq)
{
	s64 old = atomic64_read(ring->oldest_seq);

	while (old < seq) {
		if (atomic64_try_cmpxchg_relaxed(ring->oldest_seq, &old, seq))
			return false;
	}
	return true;
}

/*
 * Stop the ring for good: an invariant failed, which only a bug or a
 * forged region can make happen. Like ftrace's RB_WARN_ON(), it warns
 * once (the caller's WARN_ON_ONCE()) and disables the ring instead of
 * hanging: pushes store nothing from here on (counted, EIO), readers read
 * what is there. Any context.
 */
static void seqring_ring_break(struct seqring_ring *ring, const char *why)
{
	if (!READ_ONCE(ring->broken))
		pr_err("%s: %s: the ring is stopped\n", ring->name, why);
	WRITE_ONCE(ring->broken, true);
}

/* Count @n readings that a push could not store, and say why (errno). */
static void seqring_ring_lost(struct seqring_ring *ring, int err,
			      unsigned int n)
{
	enum seqring_lost why = SEQRING_LOST_FULL;

	if (err == -ENODEV)
		why = SEQRING_LOST_DEAD;
	else if (err == -EIO)
		why = SEQRING_LOST_BROKEN;
	atomic64_add(n, &ring->lost[why]);
}

/*
 * Reserve up to @n sequence numbers and the time stamp (step 1. at the top
 * of this file), for slots of an array of @cap slots. Preemption off.
 *
 * Only free slots are taken: the reading a lap before each, @cap sequence
 * numbers earlier, must be published (below next_seq). A reading is
 * published only once its producer committed it, so that producer, in
 * whatever context, is done with the slot, and nobody else can take it
 * until this one's reading is published in turn: a slot is never stored
 * by two contexts at once, without any lock or claim
 * (tests/litmus/reserve-free.litmus). During a resize's copy, mig_seq
 * keeps producers off the slots it has still to fill the same way
 * (tests/litmus/resize-migrate.litmus).
 *
 * Returns how many were taken, from *@first: fewer than @n when fewer
 * slots are free, 0 when none is (the push stores nothing and counts it:
 * it never waits for the producer that holds the slot, which may be the
 * very context this one interrupted). *@stamp: on entry, whether a
 * reading has a zero timestamp; on return, the time to give them.
 *
 * The loop starts again only when another context moved head or raised
 * last_stamp since it was read: lock-free, each retry is another
 * reservation or stamp made.
 */
static __always_inline unsigned int
seqring_ring_reserve(struct seqring_ring *ring, u32 cap, unsigned int n,
		     u64 *first, u64 *stamp)
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
	s64 last, t;
	u64 seq, limit;
	unsigned int k;

	lockdep_assert_preemption_disabled();
	for (;;) {
		/* LMM(seqring_ring_reserve:A): pairs with :D of the producer before. */
		seq = atomic64_read_acquire(&ring->head);
		/*
		 * LMM(seqring_ring_reserve:B): the publish of the reading a
		 * lap before (LMM(seqring_ring_publish:C)) and its producer's
		 * stores before the stores into its slot.
		 */
		limit = atomic64_read_acquire(ring->next_seq);
		/* LMM(seqring_ring_reserve:C): pairs with seqring_ring_migrate:C. */
		limit = min(limit, smp_load_acquire(&ring->mig_seq)) + cap;
		if (limit <= seq)
			return 0;
		k = min_t(u64, n, limit - seq);
		if (WARN_ON_ONCE(seq + k > SEQRING_SLOT_SEQ)) {
			/* A sequence number would reach the BUSY bit. */
			seqring_ring_break(ring, "sequence numbers used up");
			return 0;
		}
		last = atomic64_read(&ring->last_stamp);
		t = max(now, last);
		/* Fully ordered: last_stamp is at least t before head moves. */
		if (t != last &&
		    !atomic64_try_cmpxchg(&ring->last_stamp, &last, t))
			continue;
		/*
		 * LMM(seqring_ring_reserve:D), fully ordered. Success means
		 * head did not move since it was read (it only grows): the
		 * producer of seq - 1 had raised last_stamp to its stamp, or
		 * seen it there, before it moved head, and this one read
		 * last_stamp after (tests/litmus/reserve-stamp.litmus).
		 */
		if (atomic64_try_cmpxchg(&ring->head, &seq, seq + k))
			break;
	}
	*stamp = t;
	*first = seq;
	return k;
}

/*
 * The slot array to store the readings of a reservation that ends before
 * @end in, loaded again after the reservation (see seqring_ring_resize()),
 * and oldest_seq moved past what they overwrite there. @pre is the array
 * the reservation was checked against. If a resize replaced it in
 * between, the new array takes them only if its slots are free too (its
 * capacity may be smaller); else they go into @pre, checked, from where
 * the resize's copy takes them (it waits for this section). Preemption
 * off, in the section that stores them. *@others: as
 * seqring_ring_drop_before() returns, or false when nothing is dropped.
 */
static __always_inline struct seqring_slots *
seqring_ring_slots_for(struct seqring_ring *ring, struct seqring_slots *pre,
		       u64 end, bool *others)
{
	/* LMM(seqring_ring_slots_for:A): the resize's cut, resize-cut.litmus. */
	struct seqring_slots *slots = rcu_dereference_sched(ring->slots);
	u64 limit;

	*others = false;
	if (unlikely(slots != pre)) {
		/* An acquire, as LMM(seqring_ring_reserve:B). */
		limit = atomic64_read_acquire(ring->next_seq);
		/* An acquire, as LMM(seqring_ring_reserve:C). */
		limit = min(limit, smp_load_acquire(&ring->mig_seq));
		if (end > limit + slots->capacity) {
			/* Overwritten there at once, if the new one is smaller. */
			if (end > slots->capacity)
				*others = seqring_ring_drop_before(ring, end -
								   slots->capacity);
			slots = pre;
		}
	}
	if (end > slots->capacity)
		*others |= seqring_ring_drop_before(ring, end - slots->capacity);
	return slots;
}

/*
 * Mark @slot BUSY for @seq before its reading is stored (step 2.): a
 * reader that copies the slot meanwhile sees, when it checks the seq word
 * again, that the copy may be torn. A plain store: nobody else stores the
 * slot (seqring_ring_reserve()). Preemption off. Returns false, having
 * stopped the ring, when the slot says otherwise: busy, or holding a
 * reading from the future.
 */
static __always_inline bool seqring_slot_mark(struct seqring_ring *ring,
					      struct seqring_slot *slot,
					      u64 seq)
{
	u64 v = READ_ONCE(slot->seq);

	/*
	 * Busy or newer, in one comparison (one branch for each reading of
	 * a batch): @seq is below SEQRING_SLOT_BUSY (seqring_ring_reserve()),
	 * so a word with the BUSY bit is above it, and one without it is
	 * the slot's sequence number.
	 */
	if (WARN_ON_ONCE(v >= seq)) {
		seqring_ring_break(ring, "a slot taken is busy or newer");
		return false;
	}
	WRITE_ONCE(slot->seq, seq | SEQRING_SLOT_BUSY);
	return true;
}

/*
 * Store @r as @seq in @slot, marked by seqring_slot_mark() (step 3.), a
 * zero timestamp replaced by @stamp, its checksum into @crc (a persistent
 * ring's; else NULL), and commit it. Preemption off.
 */
static __always_inline void seqring_slot_fill(struct seqring_ring *ring,
					      struct seqring_slot *slot,
					      u32 *crc,
					      const struct seqring_reading *r,
					      u64 seq, u64 stamp)
{
	slot->r = *r;
	if (!r->timestamp_ns)
		slot->r.timestamp_ns = stamp;
	/*
	 * A persistent ring: the checksum before the commit, so that the
	 * next boot finds, for any slot it can read as committed, the
	 * checksum of that reading (or a mismatch, if the crash tore it;
	 * tests/litmus/persist-crc.litmus).
	 */
	if (crc)
		WRITE_ONCE(*crc, seqring_persist_crc(seq, &slot->r));
	trace_seqring_push(ring->name, seq, &slot->r);
	/*
	 * LMM(seqring_slot_fill:A): the reading before its seq; pairs with
	 * the acquires in seqring_slot_copy() and seqring_slot_done().
	 */
	smp_store_release(&slot->seq, seq);
}

/*
 * May publishing go past @seq? Yes if it is committed, or if the slot
 * holds a newer reading: @seq was overwritten after it was published, or,
 * in the array a resize made, copied there and lapped. No while it is
 * not stored yet.
 */
static __always_inline bool seqring_slot_done(const struct seqring_slot *slot,
					      u64 seq)
{
	/* LMM(seqring_slot_done:A): pairs with seqring_slot_fill:A. */
	u64 v = smp_load_acquire(&slot->seq);

	if (seqring_slot_seq(v) != seq)
		return seqring_slot_seq(v) > seq;
	return !(v & SEQRING_SLOT_BUSY);
}

/*
 * Publish what is committed after next_seq (step 4.), walking at most
 * SEQRING_PUBLISH_MAX slots. [@own, @own_end) are the caller's own
 * readings, committed by it: not looked at again. Preemption off (or
 * interrupts: the irq_work, seqring_ring_kill()), so in an RCU read-side
 * section. Returns the next_seq this call stored, or 0 when it stored none.
 *
 * A walk ends at the first slot not committed yet: its producer publishes
 * past it when it commits (its walk comes after a full barrier, so of two
 * producers that commit at once, at least one sees both:
 * tests/litmus/publish-two.litmus). A walk that only stops at the bound
 * leaves the rest to the publish irq_work, so that no reading waits for
 * the next push, and no section walks more (publish-budget.litmus). When
 * the cmpxchg fails, another walk moved next_seq: this one still publishes
 * up to where it looked, if that is further, without looking again; each
 * failure sees next_seq higher, so the loop ends by @end at the latest.
 */
static __always_inline u64 seqring_ring_publish(struct seqring_ring *ring,
						u64 own, u64 own_end)
{
	struct seqring_slots *slots = rcu_dereference_sched(ring->slots);
	/*
	 * LMM(seqring_ring_publish:A): pairs with seqring_ring_resize:B; a
	 * walk that finds prev NULL sees every reading the resize copied.
	 */
	struct seqring_slots *prev = smp_load_acquire(&slots->prev);
	unsigned int budget = SEQRING_PUBLISH_MAX;
	u64 next, seq;
	u32 idx;

	lockdep_assert_preemption_disabled();
	seqring_hook(ring, SEQRING_HOOK_WALK);
	next = atomic64_read(ring->next_seq);
	/*
	 * Below oldest_seq all is dropped: nothing to wait for
	 * (publish-drop.litmus). oldest_seq passes next_seq only in a
	 * resize, over readings stored into the array it replaced.
	 */
	seq = max_t(u64, next, atomic64_read(ring->oldest_seq));
	if (seq >= own && seq < own_end)
		seq = own_end;
	div_u64_rem(seq, slots->capacity, &idx);
	for (; budget; budget--, seq++) {
		/* Stored before a resize and not copied yet? */
		if (!seqring_slot_done(&slots->slot[idx], seq) &&
		    (!prev || !seqring_slot_done(seqring_slot_of(prev, seq), seq)))
			break;
		if (++idx == slots->capacity)
			idx = 0;
	}
	if (SEQRING_PUBLISH_MAX - budget > READ_ONCE(ring->walk_max))
		WRITE_ONCE(ring->walk_max, SEQRING_PUBLISH_MAX - budget);
	/* At the bound: the irq_work goes on from there. */
	if (!budget)
		irq_work_queue(&ring->publish_work);
	while (next < seq) {
		/*
		 * LMM(seqring_ring_publish:C), fully ordered: the slots seen
		 * before next_seq (tests/litmus/commit-publish.litmus).
		 */
		if (atomic64_try_cmpxchg(ring->next_seq, &next, seq))
			return seq;
	}
	return 0;
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
	/* LMM(seqring_ring_needs_wake:A): publish-wake.litmus. */
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
 * for none of them. A producer in process context with interrupts on
 * (@can_sleep: the ioctls) queues it; every other one (the kernel API,
 * whatever its context, NMI included, as ftrace's rb_wakeups() does) goes
 * through an irq_work: the caller may hold a runqueue lock that
 * queue_work()'s wake-up takes, or be in an NMI.
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

	seqring_ring_wake(ring, seqring_ring_publish(ring, 0, 0), false);
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
 * Mark, store and commit (steps 2. and 3.) the @k readings @r as @seq on,
 * into @slots from index @idx on. Preemption off. Returns false when a
 * slot was not free, having stopped the ring (seqring_slot_mark()): the
 * readings before it are committed, the rest not stored.
 */
static __always_inline bool
seqring_slots_store(struct seqring_ring *ring, struct seqring_slots *slots,
		    u32 idx, const struct seqring_reading *r, unsigned int k,
		    u64 seq, u64 stamp)
{
	u32 *crcs = ring->crcs;
	unsigned int i;

	for (i = 0; i < k; i++) {
		if (!seqring_slot_mark(ring, &slots->slot[idx], seq + i))
			return false;
		/* LMM(seqring_slots_store:A): the mark before the reading. */
		smp_wmb();
		if (!i)
			seqring_hook(ring, SEQRING_HOOK_STORING);
		seqring_slot_fill(ring, &slots->slot[idx], crcs ? &crcs[idx] : NULL,
				  &r[i], seq + i, stamp);
		if (++idx == slots->capacity)
			idx = 0;
	}
	return true;
}

/*
 * Reserve, store, commit and publish up to @n readings (at most
 * SEQRING_CHUNK) in one section with preemption off, from any context, NMI
 * included: nothing here waits for another context, and each loop is
 * bounded (seqring_ring_reserve(), seqring_ring_publish()).
 *
 * Preemption off, not interrupts, as ftrace's ring buffer reserves: the
 * section must not let the scheduler hold back the readings reserved after
 * its own (and it is an RCU read-side section, which resize and kill wait
 * for), but an interrupt may come in and push into the ring too. It waits
 * for nothing of this section: it takes free slots only, and its walk
 * stops at this section's slot, which this section then publishes past,
 * as for an NMI. Entering and leaving an interrupts-off section cost a
 * PUSH 0.07 of a system call more (doc/performance.md). The _notrace
 * forms, as ftrace's: a BPF program on the preemption tracepoints may be
 * the one pushing. @stamp: some
 * reading may have a zero timestamp. Returns how many it stored, from the
 * first (fewer than @n when fewer slots were free, 0 when none was), or
 * -ENODEV (destroyed), -EIO (stopped): nothing stored. *@published: what
 * seqring_ring_publish() returned.
 */
static __always_inline int
seqring_ring_push_chunk(struct seqring_ring *ring,
			const struct seqring_reading *r, unsigned int n,
			bool stamp, u64 *published)
{
	struct seqring_slots *pre, *slots;
	bool others;
	u64 seq, t = stamp;
	unsigned int k;
	int ret = 0;
	u32 idx;

	preempt_disable_notrace();
	/*
	 * LMM(seqring_ring_push_chunk:A): inside the section, which
	 * seqring_ring_kill() waits for once it set dead (kill-gone.litmus).
	 */
	if (unlikely(READ_ONCE(ring->dead) || READ_ONCE(ring->broken))) {
		ret = READ_ONCE(ring->dead) ? -ENODEV : -EIO;
		goto out;
	}
	pre = rcu_dereference_sched(ring->slots);
	k = seqring_ring_reserve(ring, pre->capacity, n, &seq, &t);
	if (!k) {
		ret = READ_ONCE(ring->broken) ? -EIO : 0;
		goto out;
	}
	seqring_hook(ring, SEQRING_HOOK_RESERVED);
	slots = seqring_ring_slots_for(ring, pre, seq + k, &others);
	/*
	 * LMM(seqring_ring_push_chunk:B): oldest_seq raised before the slots
	 * are marked, so a reader whose check fails on a mark finds it past
	 * the reading it wanted (store-validate.litmus). When this producer
	 * found it raised by another context instead of storing it, only a
	 * full barrier carries that store along (cumulativity); that is
	 * rare: a producer raises it itself in a ring that is full, unless
	 * another one, reserving after it, got there first.
	 */
	if (unlikely(others))
		smp_mb();	/* LMM(seqring_ring_push_chunk:B), above */
	else
		smp_wmb();	/* LMM(seqring_ring_push_chunk:B), above */
	div_u64_rem(seq, slots->capacity, &idx);
	if (!seqring_slots_store(ring, slots, idx, r, k, seq, t)) {
		ret = -EIO;
		goto out;
	}
	seqring_hook(ring, SEQRING_HOOK_STORED);
	/*
	 * LMM(seqring_ring_push_chunk:D): the commits before the walk's
	 * loads. Two producers that commit at once and walk are the
	 * store-buffering pattern: without it, each may see the other's
	 * slot still busy and publish neither (publish-two.litmus).
	 */
	smp_mb();
	*published = seqring_ring_publish(ring, seq, seq + k);
	ret = k;
out:
	preempt_enable_notrace();
	return ret;
}

/**
 * seqring_ring_push - append prepared readings, overwriting the oldest
 * @ring: the ring
 * @r: readings checked by seqring_readings_prepare()
 * @n: number of readings, at least 1
 * @pushed: if not NULL, a counter that grows by the readings stored
 *
 * The readings are reserved, stored and published in chunks of up to
 * %SEQRING_CHUNK (less in a small ring), each in one section with
 * preemption off: readers see
 * them in order, chunk by chunk, and a concurrent seqring_ring_clear()
 * may fall between two chunks. The batch never holds back another
 * producer's readings, however long the scheduler keeps this one from its
 * CPU between chunks. Zero timestamps are stamped per chunk, when its
 * sequence numbers are taken. A batch larger than the ring is stored
 * whole, each reading overwriting the one a capacity before. Readings
 * that find no free slot are not stored (counted lost), the batch goes
 * on. Process context; may sleep between chunks.
 *
 * Return: 0; -ENOBUFS when some reading found no free slot; -ENODEV or
 * -EIO when the ring was destroyed or stopped, where the batch stopped
 * (what was not stored is counted lost).
 */
int seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		      unsigned int n, atomic64_t *pushed)
{
	unsigned int i, k, chunk, stored = 0;
	u64 published = 0;
	int got, ret = 0;

	/*
	 * A section takes at most a 2 * CPUs-th of the ring: the sections
	 * of every CPU, and NMIs, then find free slots at once in a ring
	 * smaller than SEQRING_CHUNK per CPU too.
	 */
	chunk = clamp_t(unsigned int,
			seqring_ring_capacity(ring) / (2 * num_online_cpus()),
			1, SEQRING_CHUNK);
	for (i = 0; i < n; i += k) {
		k = min(n - i, chunk);
		got = seqring_ring_push_chunk(ring, &r[i], k, true, &published);
		if (got < 0) {
			seqring_ring_lost(ring, got, n - i);
			ret = got;
			break;
		}
		if (!got) {
			seqring_ring_lost(ring, -ENOBUFS, k);
			ret = -ENOBUFS;
		} else {
			k = got;
			stored += got;
			seqring_ring_wake(ring, published, true);
		}
		seqring_hook(ring, SEQRING_HOOK_CHUNK);
		if (i + k < n) {
			seqring_hook(ring, SEQRING_HOOK_RESCHED);
			cond_resched();
		}
	}
	if (pushed)
		atomic64_add(stored, pushed);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push);

/*
 * __seqring_ring_push_one(), inline in it and in seqring_ring_push_one():
 * with seqring_ring_publish() inline too, a PUSH makes two calls fewer,
 * 4-6% of its time under tcg (doc/performance.md).
 */
static __always_inline int
seqring_ring_push_single(struct seqring_ring *ring,
			 const struct seqring_reading *r, bool can_sleep)
{
	u64 published = 0;
	int got;

	got = seqring_ring_push_chunk(ring, r, 1, !r->timestamp_ns, &published);
	if (got <= 0) {
		if (!got)
			got = -ENOBUFS;
		seqring_ring_lost(ring, got, 1);
		return got;
	}
	seqring_ring_wake(ring, published, can_sleep);
	return 0;
}

/**
 * __seqring_ring_push_one - append one prepared reading, from any context
 * @ring: the ring
 * @r: a reading checked by seqring_readings_prepare()
 * @can_sleep: the caller is in process context with interrupts on, where
 *	it may queue the wake-up of readers itself
 *
 * Never sleeps, never waits; preemption is off while the reading is
 * stored. NMI included (with @can_sleep false).
 *
 * Return: 0; -ENOBUFS (no free slot), -ENODEV (destroyed), -EIO
 * (stopped): nothing stored, counted lost.
 */
int __seqring_ring_push_one(struct seqring_ring *ring,
			    const struct seqring_reading *r, bool can_sleep)
{
	return seqring_ring_push_single(ring, r, can_sleep);
}
EXPORT_SYMBOL_IF_KUNIT(__seqring_ring_push_one);

/**
 * seqring_ring_push_one - check and append one reading
 * @ring: the ring
 * @r: kernel copy of a reading from userspace
 * @pushed: if not NULL, a counter that grows by one when it is stored
 *
 * seqring_readings_prepare() and __seqring_ring_push_one() for a single
 * reading, the PUSH ioctl, in one call: at about one system call per
 * reading, calls are a measurable share of its cost. Process context.
 *
 * Return: 0, -EINVAL as seqring_readings_prepare() (nothing stored, not
 * counted), or what __seqring_ring_push_one() returned.
 */
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r, atomic64_t *pushed)
{
	int ret = seqring_reading_check(r);

	if (ret)
		return ret;
	ret = seqring_ring_push_single(ring, r, true);
	if (!ret && pushed)
		atomic64_inc(pushed);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_ring_push_one);

/*
 * Copy the reading @seq out of @slots if the slot holds it, checking
 * afterwards that it was not overwritten meanwhile (step b.).
 */
static __always_inline bool seqring_slot_copy(const struct seqring_slots *slots,
					      u64 seq,
					      struct seqring_reading *out)
{
	const struct seqring_slot *slot = seqring_slot_of(slots, seq);

	/* LMM(seqring_slot_copy:A): pairs with seqring_slot_fill:A. */
	if (smp_load_acquire(&slot->seq) != seq)
		return false;
	/*
	 * Racing with a writer is expected: the copy is validated below and
	 * thrown away if it was torn.
	 */
	*out = data_race(slot->r);
	/*
	 * LMM(seqring_slot_copy:B): the copy before the check; pairs with
	 * seqring_slots_store:A, the mark before the writer's stores
	 * (store-validate.litmus).
	 */
	smp_rmb();
	return READ_ONCE(slot->seq) == seq;
}

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
	/*
	 * LMM(seqring_ring_clear:A): an acquire, as any reader's, pairing
	 * with the publish's cmpxchg: what it clears was published.
	 */
	next = seqring_ring_next_seq(ring);
	/*
	 * LMM(seqring_ring_clear:B): a full barrier, not only the acquire:
	 * next_seq was stored by a producer's publish, and a reader of the
	 * counters that sees this clear's cleared must see that next_seq too
	 * (cumulativity); else it could count more cleared than pushed
	 * (clear-stats.litmus). CLEARs are rare.
	 */
	smp_mb();
	oldest = atomic64_read(ring->oldest_seq);
	/*
	 * Producers may raise oldest_seq meanwhile (dropping readings), so
	 * it is raised by cmpxchg too; what they dropped first counts as
	 * dropped, not cleared (clear-raise.litmus). Bounded: a failure
	 * means a producer raised it, and the loop ends at next.
	 */
	write_seqcount_begin(&ring->stats_seq);
	seqring_hook(ring, SEQRING_HOOK_CLEAR);
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

/* Copies made before the swap, at most, in seqring_ring_resize(). */
#define SEQRING_PRECOPY_PASSES	4

/*
 * Copy the readings [@from, @to) that @src holds into @dst, a slot array
 * no one else can see yet (a resize's new one, before it replaces the
 * ring's): each is copied as a reader copies it, checked afterwards, since
 * producers go on storing into @src. Plain stores into @dst: the
 * rcu_assign_pointer() that makes it the ring's publishes them.
 */
static void seqring_ring_precopy(struct seqring_ring *ring,
				 const struct seqring_slots *src,
				 struct seqring_slots *dst, u64 from, u64 to)
{
	struct seqring_slot *slot;
	struct seqring_reading r;
	u64 seq, end;

	for (seq = from; seq < to; seq = end) {
		end = min(to, seq + SEQRING_CHUNK);
		for (; seq < end; seq++) {
			if (!seqring_slot_copy(src, seq, &r))
				continue;
			slot = seqring_slot_of(dst, seq);
			slot->r = r;
			slot->seq = seq;
		}
		seqring_hook(ring, SEQRING_HOOK_RESCHED);
		cond_resched();
	}
}

/*
 * The first of [@from, @to) that @old holds and @new does not, neither the
 * reading nor a newer one in its slot: what is left for
 * seqring_ring_migrate() to copy. @to if none. Read only; producers may
 * store into @new meanwhile (a slot they take only gets newer), none into
 * @old any more.
 */
static u64 seqring_ring_unmigrated(struct seqring_ring *ring,
				   const struct seqring_slots *old,
				   const struct seqring_slots *new,
				   u64 from, u64 to)
{
	u64 seq;

	for (seq = from; seq < to; seq++) {
		if (READ_ONCE(seqring_slot_of(old, seq)->seq) == seq &&
		    seqring_slot_seq(READ_ONCE(seqring_slot_of(new, seq)->seq)) < seq)
			break;
		if (!((seq + 1) % SEQRING_CHUNK)) {
			seqring_hook(ring, SEQRING_HOOK_RESCHED);
			cond_resched();
		}
	}
	return seq;
}

/*
 * Copy the readings [@from, @to) that @old holds into @new, the ring's own
 * array now, where producers store (a resize's last step). No producer
 * stores into @old any more, and none takes a slot of @new whose reading
 * a lap before is at or above mig_seq, which rises after each chunk: the
 * copy and producers never store one slot at once. A slot that a producer
 * stored before it learnt of mig_seq holds a newer reading: left alone.
 * Interrupts off for SEQRING_CHUNK slots at a time (NMIs may still push
 * there: they take other slots), with a chance to reschedule after each
 * such section. resize_lock held.
 */
static void seqring_ring_migrate(struct seqring_ring *ring,
				 const struct seqring_slots *old,
				 struct seqring_slots *new, u64 from, u64 to)
{
	bool copy[SEQRING_CHUNK];
	const struct seqring_slot *src;
	struct seqring_slot *dst;
	unsigned long flags;
	u64 seq, end;
	unsigned int i;

	lockdep_assert_held(&ring->resize_lock);
	for (seq = from; seq < to; seq = end) {
		end = min(to, seq + SEQRING_CHUNK);
		local_irq_save(flags);
		for (i = 0; i < end - seq; i++) {
			src = seqring_slot_of(old, seq + i);
			dst = seqring_slot_of(new, seq + i);
			copy[i] = READ_ONCE(src->seq) == seq + i &&
				  seqring_slot_seq(READ_ONCE(dst->seq)) < seq + i &&
				  seqring_slot_mark(ring, dst, seq + i);
		}
		/* As LMM(seqring_slots_store:A). */
		smp_wmb();
		seqring_hook(ring, SEQRING_HOOK_MIGRATE);
		for (i = 0; i < end - seq; i++) {
			if (!copy[i])
				continue;
			src = seqring_slot_of(old, seq + i);
			dst = seqring_slot_of(new, seq + i);
			dst->r = src->r;
			/* As LMM(seqring_slot_fill:A). */
			smp_store_release(&dst->seq, seq + i);
		}
		/*
		 * LMM(seqring_ring_migrate:C): the copies before mig_seq;
		 * pairs with seqring_ring_reserve:C (resize-migrate.litmus).
		 */
		smp_store_release(&ring->mig_seq, end);
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
 * Producers go on pushing while the readings are copied; readers, listing
 * walks included, never make the resize wait, and it never makes them
 * wait. Process context; sleeps (expedited RCU grace periods). Resizes
 * are serialised.
 *
 * What is published is copied into the new array first, while nobody
 * else sees it (producers store into the old one meanwhile), again while
 * much was pushed during the copy; then the new array replaces the old
 * one, and what was published or stored since is copied after a grace
 * period (seqring_ring_migrate()). Producers that reserve meanwhile leave
 * those slots alone (mig_seq), and from the swap until two grace periods
 * later they reserve no further than a capacity past what was published
 * before it: the readings a shrink drops may still be on their way into
 * their slots. A push that finds no free slot then, in a ring too small
 * for what is pushed meanwhile, fails and is counted as any such push.
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
	u64 head, copied, from, next, keep;
	unsigned int i;

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

	/*
	 * What is published, copied while producers go on in the old array,
	 * again and again while that leaves much behind: what is left for
	 * after the swap is what was pushed during the last copy.
	 */
	copied = atomic64_read(ring->oldest_seq);
	for (i = 0; i < SEQRING_PRECOPY_PASSES; i++) {
		next = seqring_ring_next_seq(ring);
		from = max_t(u64, copied, next > capacity ? next - capacity : 1);
		seqring_ring_precopy(ring, old, new, from, next);
		copied = next;
		if (seqring_ring_next_seq(ring) - copied <= SEQRING_CHUNK)
			break;
	}

	/*
	 * The cut below drops readings, and so may the producers that find
	 * the new array too small for theirs (seqring_ring_slots_for()):
	 * oldest_seq then passes next_seq, and the next publish walk moves
	 * next_seq past those readings even where their producers have not
	 * stored them yet. next_seq no longer says that the slots a lap
	 * before it are free; mig_seq does, from now until a grace period
	 * after the last such drop: every reading below what next_seq is
	 * now is committed, and none of the others is passed before it is
	 * stored. A producer that sees next_seq moved by such a walk sees
	 * this store too: it comes before the drops (the release below, the
	 * smp_mb() after it, and a producer's dependency on the array it
	 * loaded), the walk's cmpxchg of next_seq is fully ordered, and
	 * reserve:B and :C are acquires (resize-drop.litmus).
	 */
	keep = seqring_ring_next_seq(ring);
	WRITE_ONCE(ring->mig_seq, keep);
	/* Published by the release of rcu_assign_pointer() below. */
	new->prev = old;
	rcu_assign_pointer(ring->slots, new);
	/*
	 * LMM(seqring_ring_resize:A): the swap before the load of head; a
	 * producer reserves, a fully ordered RMW, before it loads the slots
	 * pointer: one that stores into the old array reserved below head,
	 * or checked the new array's slots free (seqring_ring_slots_for()),
	 * and every reservation from head on stores into the new one
	 * (resize-cut.litmus).
	 */
	smp_mb();
	head = atomic64_read(&ring->head);
	if (head > capacity)
		seqring_ring_drop_before(ring, head - capacity);

	/*
	 * Producers that took the old array (preemption off) are done. An
	 * expedited grace period: a normal one waits for CPUs busy with
	 * listing walks, and resizes are rare and root's (PREEMPT_RT makes
	 * it a normal one after boot, rcupdate.rcu_normal_after_boot).
	 * Meanwhile producers store into the new array as far as mig_seq
	 * lets them: nothing copies into it yet.
	 */
	synchronize_rcu_expedited();
	/*
	 * What is left to copy: readings the old array holds from the first
	 * copy's end on (up to head as it is now: a producer that reserved
	 * before the swap and found the new array's slots taken stored into
	 * the old one, above the cut), that the new one does not hold yet
	 * nor producers have lapped there. In a small ring that producers
	 * fill fast, none: then only the bound kept in mig_seq at the swap
	 * keeps producers off slots, until the second grace period.
	 */
	head = atomic64_read(&ring->head);
	from = seqring_ring_unmigrated(ring, old, new,
				       max3(copied,
					    (u64)atomic64_read(ring->oldest_seq),
					    head > capacity ? head - capacity : 1),
				       head);
	/*
	 * Producers leave the slots still to be copied alone from a grace
	 * period on (resize-grace.litmus, resize-migrate.litmus); the copy
	 * then takes them. That grace period also ends every section that
	 * began before the first one ended: every reading a drop above
	 * passed is stored, and mig_seq may rise (resize-drop-grace.litmus).
	 */
	if (from < keep)
		WRITE_ONCE(ring->mig_seq, from);
	synchronize_rcu_expedited();
	if (from < head)
		seqring_ring_migrate(ring, old, new, from, head);
	/*
	 * LMM(seqring_ring_resize:B): the copies before; pairs with the
	 * acquires of prev in seqring_ring_publish() and
	 * seqring_ring_copy_rcu(), which then find every copy
	 * (prev-clear.litmus). Not rcu_assign_pointer(): for NULL it is a
	 * plain store.
	 */
	smp_store_release(&new->prev, NULL);
	/* As LMM(seqring_ring_migrate:C): every copy is made. */
	smp_store_release(&ring->mig_seq, U64_MAX);
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
 * seqring_ring_kill - stop every push and wake every reader for good: the
 *	ring is destroyed
 * @ring: the ring
 *
 * Pushes that start from here on store nothing (-ENODEV, counted); those
 * in progress end before the mapping's meta page says
 * %SEQRING_MMAP_GONE, after the last move of next_seq: a consumer that
 * sees GONE, then loads next_seq, has every reading there will be
 * (kill-gone.litmus). Readers see seqring_ring_dead() from here on; every
 * armed one is woken before this returns. Process context; sleeps (an
 * expedited RCU grace period).
 */
void seqring_ring_kill(struct seqring_ring *ring)
{
	unsigned long flags;
	u64 published;

	/* LMM(seqring_ring_kill:A): pairs with seqring_ring_push_chunk:A. */
	WRITE_ONCE(ring->dead, true);
	/*
	 * LMM(seqring_ring_kill:B): every push section that saw dead false
	 * is over: they run with preemption off (NMIs too), RCU readers.
	 */
	synchronize_rcu_expedited();
	/*
	 * What they committed is published: each walked after its commit,
	 * and a walk that stopped at its bound queued the publish work,
	 * which may queue itself again. Walk here until nothing is left.
	 */
	do {
		local_irq_save(flags);
		published = seqring_ring_publish(ring, 0, 0);
		local_irq_restore(flags);
	} while (published);
	irq_work_sync(&ring->publish_work);
	irq_work_sync(&ring->wake_irq_work);
	/* LMM(seqring_ring_kill:C): after next_seq's last move. */
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
	unsigned int start, i;
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
	for (i = 0; i < SEQRING_LOST_NR; i++)
		st->lost += atomic64_read(&ring->lost[i]);
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
	/*
	 * LMM(seqring_ring_next_seq:A): pairs with seqring_ring_publish:C
	 * (commit-publish.litmus).
	 */
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
		 * LMM(seqring_ring_copy_rcu:C): overwritten meanwhile, so
		 * oldest_seq has moved past it: pairs with
		 * seqring_ring_push_chunk:B (store-validate.litmus).
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
