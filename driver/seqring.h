/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - internal interfaces shared by the driver's files
 */
#ifndef _SEQRING_H
#define _SEQRING_H

#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
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

/**
 * struct seqring_slot - one place in the ring
 * @seq: sequence number of the reading in @r; 0 while a writer changes @r
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
 * @slot: the slots
 */
struct seqring_slots {
	u32 capacity;
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
 * struct seqring_ring - a ring of readings that readers never lock
 * @write_lock: serialises writers: pushes, CLEAR and resize
 * @walk_lock: held by a listing from start() to stop(); CLEAR and resize
 *	take it too, so that a walk sees neither. Never taken by a push.
 * @stats_seq: lets counters be read as one consistent snapshot
 * @slots: the slots; replaced under both locks, freed after RCU readers
 * @head: slot of @next_seq (saves a division per push)
 * @next_seq: sequence number the next pushed reading gets; starts at 1
 * @oldest_seq: sequence number of the oldest reading held; held readings
 *	are [@oldest_seq, @next_seq), empty when @oldest_seq >= @next_seq
 * @dropped: readings overwritten because the ring was full
 * @cleared: readings discarded by seqring_ring_clear()
 * @wait: stream readers waiting for pushes
 * @streamers: stream readers registered by seqring_ring_follow(); a push
 *	checks @wait only when there is one
 *
 * Writers change @next_seq, @oldest_seq, @dropped and @cleared under
 * @write_lock and inside @stats_seq write sections; readers of readings
 * read @next_seq and @oldest_seq without a lock (ring.c says in which
 * order), readers of counters use @stats_seq.
 */
struct seqring_ring {
	struct mutex write_lock;	/* serialises writers */
	struct mutex walk_lock;		/* listing walks vs. CLEAR, resize */
	seqcount_mutex_t stats_seq;
	struct seqring_slots __rcu *slots;
	u32 head;
	u64 next_seq;
	u64 oldest_seq;
	u64 dropped;
	u64 cleared;
	wait_queue_head_t wait;
	atomic_t streamers;
};

/**
 * struct seqring - the one device instance
 * @ring: the readings
 * @misc: /dev/seqring; its .groups carry the sysfs attributes
 * @clients_lock: protects @clients
 * @clients: open files of @misc, struct seqring_client
 * @debugfs_dir: /sys/kernel/debug/seqring
 * @proc_entry: /proc/seqring
 * @ready: set once init can no longer fail; until then /proc/seqring
 *	cannot be opened (a file of a load that fails must never be open)
 * @dying: set when the module goes; walks in progress end at once
 */
struct seqring {
	struct seqring_ring ring;
	struct miscdevice misc;
	struct mutex clients_lock;	/* protects @clients */
	struct list_head clients;
	struct dentry *debugfs_dir;
	struct proc_dir_entry *proc_entry;
	bool ready;
	bool dying;
};

/**
 * struct seqring_iter - one open listing (listing.c)
 * @sr: the device
 * @end: sequence number the walk stops before
 * @eof: the last read() returned end of file
 * @rescan: the last two read()s returned end of file: take a new @end
 * @locked: holds the ring's walk_lock (between start() and stop())
 * @rec: the reading being shown, copied out of the ring
 */
struct seqring_iter {
	struct seqring *sr;
	u64 end;
	bool eof;
	bool rescan;
	bool locked;
	struct seqring_record rec;
};

/* ring.c */
struct seqring_reading *seqring_alloc_readings(size_t n, gfp_t gfp);
int seqring_ring_init(struct seqring_ring *ring, u32 capacity);
void seqring_ring_destroy(struct seqring_ring *ring);
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n);
void seqring_ring_push(struct seqring_ring *ring,
		       const struct seqring_reading *r, unsigned int n,
		       u64 *pushed);
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r, u64 *pushed);
void seqring_ring_follow(struct seqring_ring *ring);
void seqring_ring_unfollow(struct seqring_ring *ring);
int seqring_ring_clear(struct seqring_ring *ring);
int seqring_ring_resize(struct seqring_ring *ring, u32 capacity);
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st);
u32 seqring_ring_capacity(struct seqring_ring *ring);
u64 seqring_ring_next_seq(struct seqring_ring *ring);
u64 seqring_ring_oldest_seq(struct seqring_ring *ring);
bool seqring_ring_copy(struct seqring_ring *ring, u64 seq,
		       struct seqring_record *rec);

/* chardev.c */
int seqring_chardev_register(struct seqring *sr);
void seqring_chardev_unregister(struct seqring *sr);
void seqring_chardev_show_clients(struct seq_file *m, struct seqring *sr);
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
