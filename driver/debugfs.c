// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - /sys/kernel/debug/seqring: readings, stats, clients, publish
 *
 * All files are read-only: debugfs files that can be written are refused
 * under kernel lockdown, and diagnosis only needs to read. clients names
 * the processes that have the device open, their pids, commands and the
 * paths they opened it by: root's alone (0400), whatever the mode of the
 * debugfs mount.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "seqring.h"

static int seqring_stats_show(struct seq_file *m, void *unused)
{
	struct seqring *sr = m->private;
	struct seqring_stats st;

	seqring_ring_stats(&sr->ring, &st);
	seq_printf(m, "capacity: %llu\n", st.capacity);
	seq_printf(m, "count: %llu\n", st.count);
	seq_printf(m, "total: %llu\n", st.total);
	seq_printf(m, "dropped: %llu\n", st.dropped);
	seq_printf(m, "cleared: %llu\n", st.cleared);
	seq_printf(m, "oldest_seq: %llu\n", st.oldest_seq);
	seq_printf(m, "newest_seq: %llu\n", st.newest_seq);
	seq_printf(m, "lost: %llu\n", st.lost);
	/* Why, one counter each: enum seqring_lost. */
	seq_printf(m, "lost_full: %lld\n",
		   (s64)atomic64_read(&sr->ring.lost[SEQRING_LOST_FULL]));
	seq_printf(m, "lost_dead: %lld\n",
		   (s64)atomic64_read(&sr->ring.lost[SEQRING_LOST_DEAD]));
	seq_printf(m, "lost_broken: %lld\n",
		   (s64)atomic64_read(&sr->ring.lost[SEQRING_LOST_BROKEN]));
	seq_printf(m, "record_size: %zu\n", sizeof(struct seqring_slot));
	seq_printf(m, "ring_bytes: %llu\n",
		   st.capacity * sizeof(struct seqring_slot));
	seq_printf(m, "clients: %u\n", seqring_chardev_nr_clients(sr));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(seqring_stats);

/*
 * How long producers keep preemption off (the publish irq_work,
 * interrupts): the longest publish walk so far, against its bound, and the
 * readings stored per section.
 */
static int seqring_publish_show(struct seq_file *m, void *unused)
{
	struct seqring *sr = m->private;

	seq_printf(m, "walk_max: %u\n", READ_ONCE(sr->ring.walk_max));
	seq_printf(m, "walk_limit: %u\n", SEQRING_PUBLISH_MAX);
	seq_printf(m, "chunk: %u\n", SEQRING_CHUNK);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(seqring_publish);

static int seqring_clients_show(struct seq_file *m, void *unused)
{
	return seqring_chardev_show_clients(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(seqring_clients);

/**
 * seqring_debugfs_init - create /sys/kernel/debug/seqring and its files
 * @sr: the device
 *
 * Failures are not reported: debugfs is optional and the driver works
 * without it.
 */
void seqring_debugfs_init(struct seqring *sr)
{
	struct dentry *dir = debugfs_create_dir(sr->devname, NULL);

	sr->debugfs_dir = dir;
	/* Without debugfs's proxy: see seqring_listing_open(). */
	debugfs_create_file_unsafe("readings", 0444, dir, sr,
				   &seqring_listing_fops);
	debugfs_create_file("stats", 0444, dir, sr, &seqring_stats_fops);
	debugfs_create_file("clients", 0400, dir, sr, &seqring_clients_fops);
	debugfs_create_file("publish", 0444, dir, sr, &seqring_publish_fops);
}

/**
 * seqring_debugfs_exit - remove /sys/kernel/debug/seqring
 * @sr: the device
 *
 * debugfs waits for reads in progress; open files pin the module through
 * the fops' owner, so none is left when this runs at unload.
 */
void seqring_debugfs_exit(struct seqring *sr)
{
	debugfs_remove(sr->debugfs_dir);
}
