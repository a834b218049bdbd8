/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - internal interfaces shared by the driver's files
 */
#ifndef _SEQRING_H
#define _SEQRING_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/types.h>
#include <linux/seqring.h>

struct dentry;
struct iov_iter;
struct kiocb;
struct proc_dir_entry;
struct vm_area_struct;

/* Kbuild says so first; this is for any other way of compiling. */
#if BITS_PER_LONG != 64
#error "seqring needs a 64-bit kernel: its lockless ring reads 64-bit sequence numbers in one load"
#endif

#define SEQRING_NAME		"seqring"
/* The previous boot's ring is its ring's device name and this. */
#define SEQRING_PREV_SUFFIX	".prev"

/* A slot's seq word: the sequence number, and a state bit (ring.c). */
#define SEQRING_SLOT_BUSY	BIT_ULL(63)	/* a producer is storing it */
#define SEQRING_SLOT_SEQ	(SEQRING_SLOT_BUSY - 1)

/*
 * Readings a producer reserves, stores and commits in one section with
 * preemption off, and slots one publish walks (ring.c): both bound how long
 * preemption stays off (and interrupts, in the publish irq_work), whatever
 * the capacity, the batch or the readers.
 */
#define SEQRING_CHUNK		32

/*
 * Memory a user causes (an open file, a batch's copy, a ring): charged to
 * the caller's memory cgroup, and failing with ENOMEM rather than waking
 * the OOM killer there (__GFP_RETRY_MAYFAIL: reclaim, then give up), as
 * ftrace's ring buffer allocates.
 */
#define SEQRING_GFP_USER	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)
#define SEQRING_PUBLISH_MAX	(4 * SEQRING_CHUNK)

/**
 * struct seqring_slot - one place in the ring
 * @seq: sequence number of the reading in @r, with SEQRING_SLOT_BUSY
 *	while a producer stores it; 0 when the slot never held a reading
 * @r: the reading, as pushed and prepared
 *
 * 48 bytes. @seq is what lets readers copy @r without a lock: see ring.c.
 */
struct seqring_slot {
	u64 seq;
	struct seqring_reading r;
};

/**
 * struct seqring_slots - the array of slots, replaced whole by a resize
 * @capacity: number of slots; sequence number s lives in slot s % @capacity
 * @slot: the slots, in @size bytes of zeroed pages (from vmalloc(), or
 *	the page itself when @size is one page) that hold nothing else:
 *	they are what a mapping of the ring shows (mmap.c), so nothing of
 *	the kernel's (this header) is among them
 * @size: bytes of @slot, whole pages
 * @prev: while a resize copies readings into this array, the array it
 *	replaced, where readers find the readings not copied yet; else NULL.
 *	Not __rcu: cleared with a release and loaded with an acquire, which
 *	order the copies (ring.c); the array it points to lives as long as
 *	this one is reachable, freed after a grace period like it
 * @rcu: frees a replaced array once the readers that may copy from it are
 *	gone (call_rcu()), so that a resize waits for none of them
 */
struct seqring_slots {
	u32 capacity;
	struct seqring_slot *slot;
	size_t size;
	struct seqring_slots *prev;
	struct rcu_head rcu;
};

/*
 * What a stream reader is woken with. A push or a resize can put a reader
 * behind (EPOLLERR | EPOLLPRI) as well as give it readings (EPOLLIN), and
 * epoll passes a wake-up only to waiters that asked for one of its bits:
 * every wake-up carries all of them, and poll() says which apply.
 */
#define SEQRING_POLL_WAKE	(EPOLLIN | EPOLLRDNORM | EPOLLERR | EPOLLPRI)

/**
 * struct seqring_reader - where one open file reads the stream, and when it
 *	wants to be woken
 * @cursor: sequence number of the next reading read() returns; an atomic,
 *	so that lseek() and poll() never wait for a read() in progress
 * @wakeup: readings unread that end a wait in read() or poll()
 * @wait: the file's own wait queue: every file that waits is woken on its
 *	own, so one consumer never takes another's wake-up (EPOLLEXCLUSIVE
 *	then shares wake-ups only among waiters of the same file)
 * @node: entry in the ring's @readers while the file waits (armed)
 * @armed: @node is on the ring's list; cleared by the wake-up that takes
 *	it off, which a sleeping reader checks (changed under readers_lock)
 * @gen: bumped by lseek() and SEQRING_IOC_SET_WAKEUP, which change the
 *	reader's threshold: a sleeping reader arms itself again
 */
struct seqring_reader {
	atomic64_t cursor;
	u32 wakeup;
	wait_queue_head_t wait;
	struct list_head node;
	bool armed;
	atomic_t gen;
};

/* Bits of seqring_ring.wake_flags */
#define SEQRING_WAKE_ALL	0	/* wake every armed reader */

/* Why a push stored nothing: seqring_ring.lost[], the sum in stats.lost. */
enum seqring_lost {
	SEQRING_LOST_FULL,	/* every slot it could take was still being stored */
	SEQRING_LOST_DEAD,	/* the ring was destroyed */
	SEQRING_LOST_BROKEN,	/* an invariant failed: the ring is stopped */
	SEQRING_LOST_NR
};

/**
 * struct seqring_ring - a ring of readings that readers never lock
 * @head: the sequence number the next reservation gets; starts at 1
 * @last_stamp: the latest time the ring stamped a reading with, or is
 *	about to; only ever raised
 * @mig_seq: a producer takes no slot whose reading a lap before is at or
 *	above it. During a resize: from the swap on, next_seq as it was
 *	then (readings the resize drops may still be being stored); while
 *	it copies readings into the new array, the lowest it has not copied
 *	yet. U64_MAX otherwise
 * @clear_lock: serialises CLEARs, the writers of @stats_seq; a raw
 *	spinlock, so that readers of counters never take a lock on
 *	PREEMPT_RT either
 * @stats_seq: makes a CLEAR's change of @oldest_seq and @cleared one
 *	for readers of counters, who take no lock
 * @cleared: readings discarded by seqring_ring_clear()
 * @lost: pushes that stored nothing, by reason (enum seqring_lost)
 * @meta: the meta page of the ring's mapping (mmap.c), a zeroed page of
 *	its own for the ring's life; it holds the two counters below
 * @next_seq: every reading below it is stored (or dropped): published.
 *	Points into @meta, so that a mapping consumer reads the very
 *	counter producers move, and they store nothing more for it
 * @oldest_seq: sequence number of the oldest reading held; held readings
 *	are [@oldest_seq, @next_seq), none when @oldest_seq >= @next_seq;
 *	only ever raised. Points into @meta, as @next_seq
 * @slots: the slots; replaced by a resize, freed after RCU readers
 * @crcs: a persistent ring's checksums, one per slot, in its region
 *	(persist.c's format), which producers write before they commit;
 *	NULL for a ring in memory of its own. A persistent ring's @meta and
 *	slots are in the region too, and it is never resized
 * @frozen: a ring nobody pushes to, clears or resizes: the previous
 *	boot's readings (persist_region.c). Readings that did not survive
 *	are holes in it, which readers step over instead of waiting for a
 *	producer to move oldest_seq past them
 * @mappings: mappings (VMAs) of the ring that exist: a resize is refused
 *	while there is one (mmap.c counts them)
 * @resize_lock: serialises resizes, and resizes against new mappings
 * @name: the ring's name in trace events
 * @dead: the ring is destroyed: readers stop, no push stores any more
 *	(checked inside the push's section; seqring_ring_kill())
 * @broken: an invariant of the ring failed (a warning said which): no
 *	push stores any more, readers read what there is
 * @publish_work: goes on publishing where a publish stopped at
 *	%SEQRING_PUBLISH_MAX slots, in an interrupts-off section of its own
 * @walk_max: the most slots one publish walked (debugfs)
 * @wake_seq: the lowest @next_seq that meets the wake-up threshold of an
 *	armed reader; U64_MAX when there is none
 * @wake_flags: SEQRING_WAKE_ALL
 * @wake_irq_work: queues @wake_work for pushes made where they cannot
 * @wake_work: wakes the armed readers whose threshold is met (the
 *	function given to seqring_ring_init(): reader.c's)
 * @readers_lock: protects @readers and the stores to @wake_seq; a mutex:
 *	the walk of @readers never runs with interrupts off
 * @readers: struct seqring_reader of the files that wait, and only those
 *
 * ring.c states who changes what, and the memory ordering.
 */
struct seqring_ring {
	atomic64_t head;
	atomic64_t last_stamp;
	u64 mig_seq;
	raw_spinlock_t clear_lock;	/* serialises CLEARs */
	seqcount_raw_spinlock_t stats_seq;
	u64 cleared;
	atomic64_t lost[SEQRING_LOST_NR];
	/* Read-mostly from here: the counters themselves are in @meta. */
	struct seqring_mmap_meta *meta ____cacheline_aligned_in_smp;
	atomic64_t *next_seq;
	atomic64_t *oldest_seq;
	struct seqring_slots __rcu *slots;
	u32 *crcs;
	bool frozen;
	bool dead;
	bool broken;
	atomic_t mappings;
	struct mutex resize_lock;	/* serialises resizes, new mappings */
	const char *name;
	struct irq_work publish_work;
	u32 walk_max;
	u64 wake_seq ____cacheline_aligned_in_smp;
	unsigned long wake_flags;
	struct irq_work wake_irq_work;
	struct work_struct wake_work;
	struct mutex readers_lock;	/* protects readers, wake_seq stores */
	struct list_head readers;
};

/**
 * struct seqring - one ring and its files: the default ring, or one a
 *	driver made with seqring_create()
 * @ring: the readings
 * @ref: held by the creator and by each open file of @misc; the last put
 *	frees the ring
 * @name: the name given to seqring_create(); empty for the default ring
 * @devname: "seqring", or "seqring-" and @name: the device's name, and
 *	its debugfs directory's
 * @misc: /dev/@devname; its .groups carry the sysfs attributes
 * @node: entry in the list of rings (rings.c)
 * @clients_lock: protects @clients
 * @clients: open files of @misc, struct seqring_client
 * @debugfs_dir: /sys/kernel/debug/@devname
 * @ready: set once the files are in place; until then the listing cannot
 *	be opened (a file of a load that fails must never be open)
 * @dying: set when the ring is destroyed (or the module goes); walks in
 *	progress end at once, stream readers get -ENODEV
 * @bpf_node: entry in the list of rings BPF programs find by name (bpf.c)
 * @bpf_ref: BPF programs that hold the ring (a per-CPU count while it is
 *	listed), and the list; killed when it goes off the list, and its
 *	release puts the list's reference, through @bpf_irq_work (a program
 *	may run in an NMI) and @bpf_put_work
 * @bpf_irq_work: queues @bpf_put_work
 * @bpf_put_work: drops the reference the list held
 */
struct seqring {
	struct seqring_ring ring;
	struct kref ref;
	char name[SEQRING_NAME_MAX + 1];
	char devname[sizeof(SEQRING_NAME "-") + SEQRING_NAME_MAX +
		     sizeof(SEQRING_PREV_SUFFIX) - 1];
	struct miscdevice misc;
	struct list_head node;
	struct mutex clients_lock;	/* protects @clients */
	struct list_head clients;
	struct dentry *debugfs_dir;
	bool ready;
	bool dying;
	struct list_head bpf_node;
	struct percpu_ref bpf_ref;
	struct irq_work bpf_irq_work;
	struct work_struct bpf_put_work;
};

/**
 * struct seqring_iter - one open listing (listing.c)
 * @sr: the ring
 * @end: sequence number the walk stops before
 * @eof: the last read() returned end of file
 * @rescan: the last two read()s returned end of file: take a new @end
 * @shown: records shown since the walk last left that section
 * @rec: the reading being shown, copied out of the ring
 */
struct seqring_iter {
	struct seqring *sr;
	u64 end;
	bool eof;
	bool rescan;
	unsigned int shown;
	struct seqring_record rec;
};

/* ring.c */
struct seqring_reading *seqring_alloc_readings(size_t n, gfp_t gfp);
int seqring_ring_init(struct seqring_ring *ring, const char *name,
		      u32 capacity, work_func_t wake);
struct seqring_persist_layout;
int seqring_ring_init_region(struct seqring_ring *ring, const char *name,
			     void *region,
			     const struct seqring_persist_layout *lay,
			     work_func_t wake);
void seqring_ring_restore(struct seqring_ring *ring, u64 seq,
			  const struct seqring_reading *r);
void seqring_ring_freeze(struct seqring_ring *ring, u64 oldest, u64 next);
void seqring_ring_destroy(struct seqring_ring *ring);
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n);
int seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		      unsigned int n, atomic64_t *pushed);
int __seqring_ring_push_one(struct seqring_ring *ring,
			    const struct seqring_reading *r, bool can_sleep);
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r, atomic64_t *pushed);
int seqring_ring_clear(struct seqring_ring *ring);
int seqring_ring_resize(struct seqring_ring *ring, u32 capacity);
void seqring_ring_kill(struct seqring_ring *ring);
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st);
u32 seqring_ring_capacity(struct seqring_ring *ring);
u64 seqring_ring_next_seq(struct seqring_ring *ring);
u64 seqring_ring_oldest_seq(struct seqring_ring *ring);
bool seqring_ring_copy(struct seqring_ring *ring, u64 seq,
		       struct seqring_record *rec);
bool seqring_ring_copy_rcu(struct seqring_ring *ring, u64 seq,
			   struct seqring_record *rec);
void seqring_ring_wake_all(struct seqring_ring *ring);

/* mmap.c */
int seqring_ring_mmap(struct seqring_ring *ring, struct vm_area_struct *vma);

/* reader.c */
void seqring_readers_wake(struct work_struct *work);
void seqring_reader_init(struct seqring_reader *rd, struct seqring_ring *ring);
void seqring_reader_disarm(struct seqring_reader *rd,
			   struct seqring_ring *ring);
bool seqring_reader_arm(struct seqring_reader *rd, struct seqring_ring *ring);
int seqring_reader_wait(struct seqring_reader *rd, struct seqring_ring *ring);
void seqring_reader_changed(struct seqring_reader *rd);
bool seqring_reader_behind(struct seqring_reader *rd,
			   struct seqring_ring *ring);
bool seqring_reader_ready(struct seqring_reader *rd, struct seqring_ring *ring);
u64 seqring_reader_target(struct seqring_reader *rd, u32 capacity);

/* alloc.c */
struct seqring *seqring_alloc(const char *name, u32 capacity);
struct seqring *seqring_alloc_region(void *region,
				     const struct seqring_persist_layout *lay);
void seqring_put(struct seqring *sr);

/* rings.c */
int seqring_register(struct seqring *sr);
void seqring_unregister(struct seqring *sr);

/* chardev.c */
int seqring_chardev_register(struct seqring *sr);
void seqring_chardev_unregister(struct seqring *sr);
int seqring_chardev_show_clients(struct seq_file *m, struct seqring *sr);
unsigned int seqring_chardev_nr_clients(struct seqring *sr);

/* listing.c */
extern const struct file_operations seqring_listing_fops;
extern const struct seq_operations seqring_listing_sops;
int seqring_listing_open_dev(struct file *file, struct seqring *sr);
ssize_t seqring_listing_read_iter(struct kiocb *iocb, struct iov_iter *to);
void seqring_seq_escape(struct seq_file *m, const char *s);
size_t seqring_escaped_len(const char *s, size_t n);
void seqring_escape(char *dst, size_t size, const char *s, size_t n);

/* procfs.c */
int seqring_procfs_init(struct seqring *sr);
void seqring_procfs_exit(struct seqring *sr);

/* debugfs.c */
void seqring_debugfs_init(struct seqring *sr);
void seqring_debugfs_exit(struct seqring *sr);

/* bpf.c: BPF programs push into rings */
int seqring_bpf_init(void);
void seqring_bpf_exit(void);
void seqring_bpf_debugfs(struct dentry *dir);

/* bpf_rings.c: the rings BPF programs find, and their handles' lives */
int seqring_bpf_rings_init(void);
void seqring_bpf_rings_exit(void);
int seqring_bpf_prepare(struct seqring *sr);
void seqring_bpf_unprepare(struct seqring *sr);
void seqring_bpf_add(struct seqring *sr);
void seqring_bpf_del(struct seqring *sr);
struct seqring *seqring_bpf_find(const char *name, size_t n);

/* bpf.c: the kfuncs, which BPF programs call (include/bpf/seqring.bpf.h). */
struct seqring *seqring_bpf_ring_get(const char *name, u32 name__sz);
void seqring_bpf_ring_put(struct seqring *sr);
int seqring_bpf_push(struct seqring *sr, u32 channel, s64 value,
		     const char *label, u32 label__sz);
int seqring_bpf_create(const char *name, u32 name__sz, u32 capacity);
int seqring_bpf_destroy(const char *name, u32 name__sz);

/* sysfs.c */
extern const struct attribute_group *seqring_groups[];

/* persist.c: the format of a ring in memory that survives a reboot */
#define SEQRING_PERSIST_MAGIC	0x5352455052514553ULL	/* "SEQRPERS" */
#define SEQRING_PERSIST_VERSION	1

/**
 * struct seqring_persist_header - page 0 of a persistent ring's region
 * @magic: %SEQRING_PERSIST_MAGIC, written last by seqring_persist_format()
 * @version: %SEQRING_PERSIST_VERSION
 * @header_crc: crc32 of this header with @header_crc zero
 * @page_size: PAGE_SIZE of the kernel that formatted it
 * @slot_size: sizeof(struct seqring_slot)
 * @capacity: slots in the region
 * @region_size: bytes of the region it was formatted for
 *
 * Not ABI: only the driver that wrote it reads it, in the next boot; a
 * header it does not know is a region it formats again.
 */
struct seqring_persist_header {
	u64 magic;
	u32 version;
	u32 header_crc;
	u32 page_size;
	u32 slot_size;
	u32 capacity;
	u32 reserved;
	u64 region_size;
};

/**
 * struct seqring_persist_layout - where the parts of a region are
 * @size: bytes of the region
 * @capacity: slots
 * @meta_offset: offset of the meta page (struct seqring_mmap_meta)
 * @slots_offset: offset of the slot array
 * @slots_size: bytes of the slot array, whole pages
 * @crcs_offset: offset of the slots' crc32s (u32 each)
 */
struct seqring_persist_layout {
	size_t size;
	u32 capacity;
	size_t meta_offset;
	size_t slots_offset;
	size_t slots_size;
	size_t crcs_offset;
};

/*
 * The largest sequence number a region's counters may hold (2^62). The
 * new ring goes on after the newest intact reading, which is below this
 * plus one capacity (at most 2^24): that leaves 2^62 - 2^24 numbers before
 * the BUSY bit (2^63), 146 years at a billion readings a second, so no
 * number a region holds can ever bring a ring to the BUSY bit or make a
 * counter wrap. No ring gets there by pushing (the same 146 years), so a
 * counter above it was written by something else: the region is refused.
 */
#define SEQRING_PERSIST_SEQ_MAX	BIT_ULL(62)

/* What seqring_persist_scan() found in a region. */
enum seqring_persist_verdict {
	SEQRING_PERSIST_EMPTY,		/* zeroes: a cold boot, or never used */
	SEQRING_PERSIST_NOISE,		/* no magic, not zeroes */
	SEQRING_PERSIST_VERSION_UNKNOWN,
	SEQRING_PERSIST_BAD_HEADER,	/* checksum or sizes do not match */
	SEQRING_PERSIST_BAD_META,	/* counters out of range */
	SEQRING_PERSIST_FOUND,		/* a ring: see the counts */
};

/* What one slot of a region holds for a sequence number. */
enum seqring_persist_slot {
	SEQRING_PERSIST_ABSENT,		/* another number, or still BUSY */
	SEQRING_PERSIST_DAMAGED,	/* its number, its checksum fails */
	SEQRING_PERSIST_REFUSED,	/* checksum fine, but no push makes it */
	SEQRING_PERSIST_INTACT,
};

/**
 * struct seqring_persist_result - a region, as found at boot
 * @verdict: what it is
 * @layout: its layout, for this size
 * @first_seq: the oldest sequence number the ring held (FOUND)
 * @end_seq: one past the newest it held (FOUND): @next_seq, or above it
 *	when readings were stored but not yet published when it stopped
 * @next_seq: the region's next_seq: every number below it was published
 * @valid: readings in [@first_seq, @end_seq) that are intact
 * @last_valid: the newest of them, if @valid
 * @lost: the others there, not refused: lost in the crash (never stored,
 *	or torn), or overwritten since
 * @refused: readings whose checksum matches but that no push could have
 *	made (flags set, a label without its NUL or with bytes after it):
 *	written by something other than the driver, left out and counted
 */
struct seqring_persist_result {
	enum seqring_persist_verdict verdict;
	struct seqring_persist_layout layout;
	u64 first_seq;
	u64 end_seq;
	u64 next_seq;
	u64 valid;
	u64 last_valid;
	u64 lost;
	u64 refused;
};

u32 seqring_persist_crc(u64 seq, const struct seqring_reading *r);
int seqring_persist_layout(size_t size, struct seqring_persist_layout *lay);
void seqring_persist_format(void *region, const struct seqring_persist_layout *lay,
			    u64 next_seq);
void seqring_persist_store(void *region, const struct seqring_persist_layout *lay,
			   u64 seq, const struct seqring_slot *slot);
enum seqring_persist_slot
seqring_persist_reading(const void *region,
			const struct seqring_persist_layout *lay, u64 seq,
			struct seqring_reading *out);
int seqring_persist_scan(const void *region, size_t size,
			 struct seqring_persist_result *res);

/* persist_region.c: the default ring in a region that survives a reboot */
struct seqring *seqring_persist_open(void);
void seqring_persist_close(void);

/*
 * Test hooks: the KUnit tests (tests/kunit/) and the NMI test module
 * (tests/kmod/seqring_nmi.c) stop a producer, or raise an NMI, at each step
 * of a push, a walk, a resize's copy and a CLEAR. Compiled only in kernels
 * with KUnit, or where Kbuild builds the test modules (SEQRING_TEST_HOOKS:
 * the tree with tests/, never the DKMS sources); elsewhere they are
 * nothing. A static key: nothing but a no-op until a test sets a hook.
 */
enum seqring_hook {
	SEQRING_HOOK_RESERVED,	/* numbers taken, nothing stored; no preemption */
	SEQRING_HOOK_STORING,	/* slots marked BUSY, readings not copied */
	SEQRING_HOOK_STORED,	/* stored and committed, not published */
	SEQRING_HOOK_WALK,	/* inside a publish walk; no preemption */
	SEQRING_HOOK_CHUNK,	/* between two chunks of a batch; may sleep */
	SEQRING_HOOK_RESCHED,	/* a batch or a resize offers to reschedule */
	SEQRING_HOOK_MIGRATE,	/* a resize's copy, slots BUSY; irqs off */
	SEQRING_HOOK_CLEAR,	/* inside a CLEAR's write section */
};

#if IS_ENABLED(CONFIG_KUNIT) || defined(SEQRING_TEST_HOOKS)
#include <linux/jump_label.h>

typedef void (*seqring_hook_fn)(struct seqring_ring *ring,
				enum seqring_hook point);
DECLARE_STATIC_KEY_FALSE(seqring_hook_key);
extern seqring_hook_fn seqring_hook_fn_ptr;
void seqring_test_hook_set(seqring_hook_fn fn);

static __always_inline void seqring_hook(struct seqring_ring *ring,
					 enum seqring_hook point)
{
	seqring_hook_fn fn;

	if (!static_branch_unlikely(&seqring_hook_key))
		return;
	fn = READ_ONCE(seqring_hook_fn_ptr);
	if (fn)
		fn(ring, point);
}
#else
static __always_inline void seqring_hook(struct seqring_ring *ring,
					 enum seqring_hook point)
{
}
#endif

#endif /* _SEQRING_H */
