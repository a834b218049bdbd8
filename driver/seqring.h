/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - internal interfaces shared by the driver's files
 */
#ifndef _SEQRING_H
#define _SEQRING_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/types.h>
#include <linux/seqring.h>

struct dentry;
struct iov_iter;
struct kiocb;
struct proc_dir_entry;

/* Kbuild says so first; this is for any other way of compiling. */
#if BITS_PER_LONG != 64
#error "seqring needs a 64-bit kernel: its lockless ring reads 64-bit sequence numbers in one load"
#endif

#define SEQRING_NAME		"seqring"

/* A slot's seq word: the sequence number, and two state bits (ring.c). */
#define SEQRING_SLOT_BUSY	BIT_ULL(63)	/* a producer is storing it */
#define SEQRING_SLOT_MORE	BIT_ULL(62)	/* more of its push follows */
#define SEQRING_SLOT_SEQ	(SEQRING_SLOT_MORE - 1)

/**
 * struct seqring_slot - one place in the ring
 * @seq: sequence number of the reading in @r, with SEQRING_SLOT_BUSY
 *	while a producer stores it and SEQRING_SLOT_MORE when more readings
 *	of the same push follow; 0 when the slot never held a reading
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
 * @prev: while a resize copies readings into this array, the array it
 *	replaced, where readers find the readings not copied yet; else NULL
 * @rcu: frees a replaced array once the readers that may copy from it are
 *	gone (kvfree_rcu()), so that a resize waits for none of them
 * @slot: the slots
 */
struct seqring_slots {
	u32 capacity;
	struct seqring_slots __rcu *prev;
	struct rcu_head rcu;
	struct seqring_slot slot[];
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
 * @node: entry in the ring's @readers once the file has waited, empty
 *	before (changed under the ring's readers_lock)
 */
struct seqring_reader {
	atomic64_t cursor;
	u32 wakeup;
	wait_queue_head_t wait;
	struct list_head node;
};

/**
 * struct seqring_ring - a ring of readings that readers never lock
 * @head: the sequence number the next reservation gets; starts at 1
 * @last_stamp: the latest time the ring stamped a reading with, or is
 *	about to; only ever raised
 * @clear_lock: serialises CLEARs, the writers of @stats_seq; a raw
 *	spinlock, so that readers of counters never take a lock on
 *	PREEMPT_RT either
 * @stats_seq: makes a CLEAR's change of @oldest_seq and @cleared one
 *	for readers of counters, who take no lock
 * @oldest_seq: sequence number of the oldest reading held; held readings
 *	are [@oldest_seq, @next_seq), none when @oldest_seq >= @next_seq;
 *	only ever raised
 * @cleared: readings discarded by seqring_ring_clear()
 * @next_seq: every reading below it is stored (or dropped): published
 * @slots: the slots; replaced by a resize, freed after RCU readers
 * @resize_lock: serialises resizes
 * @name: the ring's name in trace events
 * @dead: the ring is destroyed: readers stop, no push comes any more
 * @wake_seq: the lowest @next_seq that meets the wake-up threshold of a
 *	listed reader not yet woken; U64_MAX when there is none
 * @readers_lock: protects @readers and the stores to @wake_seq
 * @readers: struct seqring_reader of the files that have waited
 * @wake_work: wakes readers for pushes made where they could not
 *
 * ring.c states who changes what, and the memory ordering.
 */
struct seqring_ring {
	atomic64_t head;
	atomic64_t last_stamp;
	raw_spinlock_t clear_lock;	/* serialises CLEARs */
	seqcount_raw_spinlock_t stats_seq;
	atomic64_t oldest_seq;
	u64 cleared;
	atomic64_t next_seq ____cacheline_aligned_in_smp;
	struct seqring_slots __rcu *slots;
	struct mutex resize_lock;	/* serialises resizes */
	const char *name;
	bool dead;
	u64 wake_seq ____cacheline_aligned_in_smp;
	spinlock_t readers_lock;	/* protects readers, wake_seq stores */
	struct list_head readers;
	struct irq_work wake_work;
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
 */
struct seqring {
	struct seqring_ring ring;
	struct kref ref;
	char name[SEQRING_NAME_MAX + 1];
	char devname[sizeof(SEQRING_NAME "-") + SEQRING_NAME_MAX];
	struct miscdevice misc;
	struct list_head node;
	struct mutex clients_lock;	/* protects @clients */
	struct list_head clients;
	struct dentry *debugfs_dir;
	bool ready;
	bool dying;
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
		      u32 capacity);
void seqring_ring_destroy(struct seqring_ring *ring);
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n);
void seqring_ring_push(struct seqring_ring *ring, struct seqring_reading *r,
		       unsigned int n, atomic64_t *pushed);
void __seqring_ring_push_one(struct seqring_ring *ring,
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
void seqring_ring_wake_readers(struct seqring_ring *ring, bool all);
void seqring_ring_wake_work(struct irq_work *work);

/* rings.c */
struct seqring *seqring_alloc(const char *name, u32 capacity);
int seqring_register(struct seqring *sr);
void seqring_unregister(struct seqring *sr);
void seqring_put(struct seqring *sr);

/* reader.c */
void seqring_reader_init(struct seqring_reader *rd, struct seqring_ring *ring);
void seqring_reader_remove(struct seqring_reader *rd,
			   struct seqring_ring *ring);
bool seqring_reader_arm(struct seqring_reader *rd, struct seqring_ring *ring);
bool seqring_reader_behind(struct seqring_reader *rd,
			   struct seqring_ring *ring);
bool seqring_reader_ready(struct seqring_reader *rd, struct seqring_ring *ring);
u64 seqring_reader_target(struct seqring_reader *rd, u32 capacity);

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

/* procfs.c */
int seqring_procfs_init(struct seqring *sr);
void seqring_procfs_exit(struct seqring *sr);

/* debugfs.c */
void seqring_debugfs_init(struct seqring *sr);
void seqring_debugfs_exit(struct seqring *sr);

/* sysfs.c */
extern const struct attribute_group *seqring_groups[];

#endif /* _SEQRING_H */
