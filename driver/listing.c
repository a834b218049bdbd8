// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the readings listing, one seq_file iterator behind both
 * /proc/seqring and /sys/kernel/debug/seqring/readings
 *
 * The position is not a line number. Position 0 is the header
 * (SEQ_START_TOKEN); any other position is the sequence number of the next
 * reading to show. Writers add and overwrite readings between two read()
 * calls, and a position in sequence numbers survives that: a reader that
 * resumes never sees a reading twice or out of order, and skips exactly
 * those overwritten or cleared before it got to them.
 *
 * The ring's lock is held from start() to stop(); seq_read_iter() calls
 * nothing that sleeps in between, and stop() runs even when start() found
 * nothing to show. One read() formats a buffer of records (a page, ~90
 * lines) between the two, and lseek() or pread() replay the listing from
 * the header up to the offset (seq_file's traverse()) in one
 * start()..stop(): for a big ring that is millions of records, and anyone
 * may do it on /proc/seqring. So next() steps aside, like
 * cond_resched_lock(), when a writer is waiting for the lock or the CPU is
 * wanted, and in any case every SEQRING_LISTING_BREAK records: in a guest
 * without paravirt spinlocks (QEMU's tcg, for one) spinlocks fall back to
 * test-and-set (virt_spin_lock()), whose waiters spin_is_contended() cannot
 * see. Positions being sequence numbers, the walk resumes correctly after
 * the break.
 */

#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "seqring.h"

#define SEQRING_LISTING_BREAK	64	/* a power of 2 */

static struct seqring_ring *seqring_listing_ring(struct seq_file *m)
{
	struct seqring *sr = m->private;

	return &sr->ring;
}

/* Readings overwritten or cleared since the reader's position are skipped. */
static void *seqring_listing_find(struct seqring_ring *ring, loff_t *pos)
{
	if (*pos < ring->oldest_seq)
		*pos = ring->oldest_seq;
	return seqring_ring_find(ring, *pos);
}

static void *seqring_listing_start(struct seq_file *m, loff_t *pos)
	__acquires(&ring->lock)
{
	struct seqring_ring *ring = seqring_listing_ring(m);

	spin_lock(&ring->lock);
	if (!*pos)
		return SEQ_START_TOKEN;
	return seqring_listing_find(ring, pos);
}

static void *seqring_listing_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct seqring_ring *ring = seqring_listing_ring(m);

	if (v == SEQ_START_TOKEN) {
		*pos = ring->oldest_seq;
	} else if (!(++*pos & (SEQRING_LISTING_BREAK - 1)) ||
		   spin_is_contended(&ring->lock) || need_resched()) {
		/* Not spin_needbreak(): that needs CONFIG_PREEMPTION. */
		spin_unlock(&ring->lock);
		cond_resched();
		spin_lock(&ring->lock);
	}
	return seqring_listing_find(ring, pos);
}

static void seqring_listing_stop(struct seq_file *m, void *v)
	__releases(&ring->lock)
{
	struct seqring_ring *ring = seqring_listing_ring(m);

	spin_unlock(&ring->lock);
}

/**
 * seqring_seq_escape - print a label or command name as one field
 * @m: seq_file to print into
 * @s: NUL-terminated string
 *
 * Whitespace and backslashes are octal-escaped so that a record stays on
 * one line and splits on spaces; an empty string prints as "-".
 */
void seqring_seq_escape(struct seq_file *m, const char *s)
{
	static const char esc[] = " \t\n\\";

	/* seq_escape() looks at every byte; most labels need nothing. */
	if (!*s)
		seq_putc(m, '-');
	else if (strpbrk(s, esc))
		seq_escape(m, s, esc);
	else
		seq_puts(m, s);
}

static int seqring_listing_show(struct seq_file *m, void *v)
{
	const struct seqring_reading *r = v;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# SEQ TIMESTAMP_NS CHANNEL VALUE LABEL\n");
		return 0;
	}

	/* seq_file passes @v at position m->index: its sequence number. */
	seq_put_decimal_ull(m, "", m->index);
	seq_put_decimal_ull(m, " ", r->timestamp_ns);
	seq_put_decimal_ull(m, " ", r->channel);
	/* 6.1's seq_put_decimal_ll() prints S64_MIN as "-0": negate in u64. */
	if (r->value < 0)
		seq_put_decimal_ull(m, " -", -(u64)r->value);
	else
		seq_put_decimal_ull(m, " ", r->value);
	seq_putc(m, ' ');
	seqring_seq_escape(m, r->label);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations seqring_listing_sops = {
	.start	= seqring_listing_start,
	.next	= seqring_listing_next,
	.stop	= seqring_listing_stop,
	.show	= seqring_listing_show,
};

/**
 * seqring_listing_open_dev - open the readings listing of a device
 * @file: file being opened
 * @sr: the device
 *
 * Return: 0 or -ENOMEM.
 */
int seqring_listing_open_dev(struct file *file, struct seqring *sr)
{
	struct seq_file *m;
	int ret;

	ret = seq_open(file, &seqring_listing_sops);
	if (ret)
		return ret;

	m = file->private_data;
	m->private = sr;
	return 0;
}

/* debugfs keeps the file's data in i_private on every kernel. */
static int seqring_listing_open(struct inode *inode, struct file *file)
{
	return seqring_listing_open_dev(file, inode->i_private);
}

const struct file_operations seqring_listing_fops = {
	.owner		= THIS_MODULE,
	.open		= seqring_listing_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};
