/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - internal interfaces shared by the driver's files
 */
#ifndef _SEQRING_H
#define _SEQRING_H

#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/seqring.h>

struct dentry;
struct proc_dir_entry;

#define SEQRING_NAME		"seqring"

/**
 * struct seqring_ring - fixed-capacity ring of readings
 * @lock: protects every field below and the contents of @slots
 * @slots: @capacity readings, one kmalloc() or vmalloc() allocation
 * @capacity: number of slots
 * @head: slot the next pushed reading goes to
 * @next_seq: sequence number the next pushed reading gets; starts at 1
 * @oldest_seq: sequence number of the oldest reading held; equal to
 *	@next_seq when the ring is empty
 * @dropped: readings overwritten because the ring was full
 * @cleared: readings discarded by seqring_ring_clear()
 *
 * Sequence numbers held are exactly [@oldest_seq, @next_seq), and sequence
 * number s is in slot (s - 1) % @capacity, found in O(1) by counting back
 * from @head (which saves a 64-bit division on every push). That is also why
 * the sequence number is not stored: a slot holds the validated struct
 * seqring_reading exactly as the ABI defines it, 40 bytes.
 *
 * @lock is a spinlock rather than a mutex: every critical section is a
 * bounded copy (one record, a chunk of a batch, or one seq_file buffer of
 * listing output) that never sleeps, and writers should not be put to sleep
 * behind a reader formatting one page of text.
 */
struct seqring_ring {
	spinlock_t lock;	/* protects all below and *slots */
	struct seqring_reading *slots;
	u32 capacity;
	u32 head;
	u64 next_seq;
	u64 oldest_seq;
	u64 dropped;
	u64 cleared;
};

/**
 * struct seqring - the one device instance
 * @ring: the readings
 * @misc: /dev/seqring; its .groups carry the sysfs attributes
 * @clients_lock: protects @clients
 * @clients: open files of @misc, struct seqring_client
 * @debugfs_dir: /sys/kernel/debug/seqring
 * @proc_entry: /proc/seqring
 */
struct seqring {
	struct seqring_ring ring;
	struct miscdevice misc;
	struct mutex clients_lock;	/* protects @clients */
	struct list_head clients;
	struct dentry *debugfs_dir;
	struct proc_dir_entry *proc_entry;
};

/* ring.c */
struct seqring_reading *seqring_alloc_readings(size_t n, gfp_t gfp);
int seqring_ring_init(struct seqring_ring *ring, u32 capacity);
void seqring_ring_destroy(struct seqring_ring *ring);
int seqring_readings_prepare(struct seqring_reading *r, unsigned int n);
void seqring_ring_push(struct seqring_ring *ring,
		       const struct seqring_reading *r, unsigned int n);
int seqring_ring_push_one(struct seqring_ring *ring,
			  struct seqring_reading *r);
void seqring_ring_clear(struct seqring_ring *ring);
void seqring_ring_stats(struct seqring_ring *ring, struct seqring_stats *st);
struct seqring_reading *seqring_ring_find(struct seqring_ring *ring, u64 seq);

/* chardev.c */
int seqring_chardev_register(struct seqring *sr);
void seqring_chardev_unregister(struct seqring *sr);
void seqring_chardev_show_clients(struct seq_file *m, struct seqring *sr);
unsigned int seqring_chardev_nr_clients(struct seqring *sr);

/* listing.c */
extern const struct file_operations seqring_listing_fops;
int seqring_listing_open_dev(struct file *file, struct seqring *sr);
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
