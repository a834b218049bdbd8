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
 * start() enters an RCU read-side section before anything can fail, and
 * only stop() leaves it (seq_file calls stop() after every start(), even
 * one that returned NULL or an error). That section is what the walk's
 * copies rely on: it keeps the slot array they copy from alive across a
 * resize, which frees the old array only after a grace period. Readings
 * are copied out of the ring without any lock a writer takes
 * (seqring_ring_copy_rcu()), and no writer waits for a walk: a push, a
 * CLEAR or a resize goes through at once, and the walk skips what they
 * removed. To bound the section (a grace period must not wait for a deep
 * seek, nor a CPU go without rescheduling), next() leaves and re-enters
 * it every %SEQRING_WALK_BATCH records; positions are sequence numbers, so
 * the walk goes on where it was.
 *
 * Every member of group seqring (everyone, with world_readable=1) may
 * open /proc/seqring, and lseek() or pread() replay the listing from the
 * header up to the offset in one start()..stop() (seq_file's traverse()).
 * So every walk is bounded and killable: it ends at the newest reading that
 * existed when the reader began (at open, and again after two read()s in a
 * row returned end of file, so a reader that resumes gets what came since),
 * calls cond_resched() every %SEQRING_WALK_BATCH records, ends with -EINTR
 * on a fatal signal, and with -ENODEV when the module is going, so that an
 * unload (proc_remove() waits for calls in progress) never waits for a deep
 * seek.
 *
 * Only sequential read() gives these promises in full: a pread() or lseek()
 * replays the listing and counts bytes, so with readings overwritten
 * between two calls the byte offset may fall inside another line than the
 * one it fell in before (a torn line).
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "compat.h"
#include "seqring.h"

/* Records shown between two quiescent states of a walk. */
#define SEQRING_WALK_BATCH	64

/* The held reading at or after *@pos and before the end, or NULL. */
static void *seqring_listing_find(struct seqring_iter *it, loff_t *pos)
{
	if (*pos >= it->end ||
	    !seqring_ring_copy_rcu(&it->sr->ring, *pos, &it->rec) ||
	    it->rec.seq >= it->end)
		return NULL;
	*pos = it->rec.seq;
	return &it->rec;
}

static void *seqring_listing_start(struct seq_file *m, loff_t *pos)
	__acquires(RCU)
{
	struct seqring_iter *it = m->private;
	struct seqring_ring *ring = &it->sr->ring;

	rcu_read_lock();

	/*
	 * No new walk once exit has begun: a read() after an lseek() that the
	 * unload ended must fail too, not start over at the header.
	 */
	if (READ_ONCE(it->sr->dying))
		return ERR_PTR(-ENODEV);
	if (it->rescan) {
		it->end = seqring_ring_next_seq(ring);
		it->rescan = false;
	}
	if (!*pos)
		return SEQ_START_TOKEN;
	return seqring_listing_find(it, pos);
}

static void *seqring_listing_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct seqring_iter *it = m->private;

	++*pos;
	if (READ_ONCE(it->sr->dying))
		return ERR_PTR(-ENODEV);
	if (fatal_signal_pending(current))
		return ERR_PTR(-EINTR);
	if (++it->shown >= SEQRING_WALK_BATCH) {
		it->shown = 0;
		rcu_read_unlock();
		cond_resched();
		rcu_read_lock();
	}
	return seqring_listing_find(it, pos);
}

static void seqring_listing_stop(struct seq_file *m, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

/*
 * Bytes printed as an octal escape: everything but printable ASCII, and the
 * backslash that starts an escape. What is left never splits a record or a
 * field and cannot drive a terminal.
 */
static bool seqring_needs_escape(unsigned char c)
{
	return c <= ' ' || c >= 0x7f || c == '\\';
}

/* @c as the listing writes it, at @o: itself, or \ooo. Returns its end. */
static char *seqring_escape_byte(char *o, unsigned char c)
{
	if (!seqring_needs_escape(c)) {
		*o++ = c;
		return o;
	}
	*o++ = '\\';
	*o++ = '0' + (c >> 6);
	*o++ = '0' + ((c >> 3) & 7);
	*o++ = '0' + (c & 7);
	return o;
}

/*
 * An empty string is written "-", and a string that is "-" itself "\055",
 * so that the two stay apart; NULL for any other.
 */
static const char *seqring_escape_special(const char *s, size_t n)
{
	size_t len = strnlen(s, n);

	if (!len)
		return "-";
	if (len == 1 && s[0] == '-')
		return "\\055";
	return NULL;
}

/**
 * seqring_escaped_len - bytes the listing's escaping of a string takes
 * @s: the string: NUL-terminated, or @n bytes long
 * @n: the most bytes of @s to read
 *
 * Return: the length of seqring_escape()'s output, with its NUL.
 */
size_t seqring_escaped_len(const char *s, size_t n)
{
	const char *special = seqring_escape_special(s, n);
	size_t len = 1, i;

	if (special)
		return strlen(special) + 1;
	for (i = 0; i < n && s[i]; i++)
		len += seqring_needs_escape(s[i]) ? 4 : 1;
	return len;
}

/**
 * seqring_escape - the listing's escaping of a string, into a buffer
 * @dst: where to write it, NUL-terminated
 * @size: bytes at @dst (seqring_escaped_len() of the same string); what
 *	does not fit is left out, whole escapes only
 * @s: the string: NUL-terminated, or @n bytes long
 * @n: the most bytes of @s to read
 *
 * As seqring_seq_escape() prints it. Sleeps not, allocates nothing: the
 * trace event calls it where a producer pushes, hard interrupts included.
 */
void seqring_escape(char *dst, size_t size, const char *s, size_t n)
{
	const char *special = seqring_escape_special(s, n);
	char *o = dst, *end = dst + size - 1;
	size_t i;

	if (!size)
		return;
	if (special) {
		strscpy(dst, special, size);
		return;
	}
	for (i = 0; i < n && s[i]; i++) {
		if (o + (seqring_needs_escape(s[i]) ? 4 : 1) > end)
			break;
		o = seqring_escape_byte(o, s[i]);
	}
	*o = '\0';
}

/**
 * seqring_seq_escape - print a label, command name or path as one field
 * @m: seq_file to print into
 * @s: NUL-terminated string, of any length
 *
 * Space, control characters, DEL, bytes from 0x80 and backslash come out
 * as \ooo (three octal digits). An empty string prints as "-", and a string
 * that is "-" itself as "\055", so the two stay apart.
 */
void seqring_seq_escape(struct seq_file *m, const char *s)
{
	const char *special = seqring_escape_special(s, SIZE_MAX);
	char buf[4 * SEQRING_LABEL_LEN];
	const unsigned char *p = (const unsigned char *)s;
	char *o;

	if (special) {
		seq_puts(m, special);
		return;
	}
	while (*p && !seqring_needs_escape(*p))
		p++;
	/* Most labels need nothing: no copy. */
	if (!*p) {
		seq_puts(m, s);
		return;
	}

	/* A buffer's worth at a time: paths are longer than labels. */
	for (p = (const unsigned char *)s; *p; ) {
		for (o = buf; *p && o + 4 <= buf + sizeof(buf); p++)
			o = seqring_escape_byte(o, *p);
		seq_write(m, buf, o - buf);
	}
}
EXPORT_SYMBOL_IF_KUNIT(seqring_seq_escape);

static int seqring_listing_show(struct seq_file *m, void *v)
{
	const struct seqring_record *rec = v;
	const struct seqring_reading *r = &rec->reading;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# SEQ TIMESTAMP_NS CHANNEL VALUE LABEL\n");
		return 0;
	}

	seq_put_decimal_ull(m, "", rec->seq);
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

const struct seq_operations seqring_listing_sops = {
	.start	= seqring_listing_start,
	.next	= seqring_listing_next,
	.stop	= seqring_listing_stop,
	.show	= seqring_listing_show,
};
EXPORT_SYMBOL_IF_KUNIT(seqring_listing_sops);

/**
 * seqring_listing_open_dev - open the readings listing of a device
 * @file: file being opened
 * @sr: the device
 *
 * Return: 0, -ENODEV while the module is still loading (or going), or
 * -ENOMEM.
 */
int seqring_listing_open_dev(struct file *file, struct seqring *sr)
{
	struct seqring_iter *it;

	/* Pairs with the smp_store_release() at the end of init. */
	if (!smp_load_acquire(&sr->ready) || READ_ONCE(sr->dying))
		return -ENODEV;

	it = __seq_open_private(file, &seqring_listing_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->sr = sr;
	it->end = seqring_ring_next_seq(&sr->ring);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_listing_open_dev);

/*
 * A read() of the listing returned @ret for @size bytes asked. The walk's
 * end moves to the newest reading only after two end of files in a row.
 * seq_read_iter() returns 0 only when the walk has reached its end, but the
 * reader may never see that 0: sendfile() reads on through its internal
 * pipe after one (splice_direct_to_actor()), and returns what it moved
 * before it, as does a read loop that fills a buffer (busybox tail). Were
 * the end to move at the first 0, such a reader would be handed a new walk
 * at once, and one that producers outrun would never end. A second 0 with
 * nothing read in between comes from a call that moved nothing, so it
 * reaches the reader: it has seen end of file, and its next read gets what
 * came since.
 */
static void seqring_listing_note_read(struct seq_file *m, ssize_t ret,
				      size_t size)
{
	struct seqring_iter *it = m->private;

	if (ret < 0 || !size)
		return;
	/* start() reads them under the same lock. */
	mutex_lock(&m->lock);
	if (ret) {
		it->eof = false;
	} else {
		if (it->eof)
			it->rescan = true;
		it->eof = true;
	}
	mutex_unlock(&m->lock);
}

/**
 * seqring_listing_read_iter - read() of the listing
 * @iocb: the read
 * @to: where the text goes
 *
 * seq_read_iter(), noting an end of file: see seqring_listing_note_read().
 *
 * Return: as seq_read_iter().
 */
ssize_t seqring_listing_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	size_t size = iov_iter_count(to);
	ssize_t ret;

	ret = seq_read_iter(iocb, to);
	seqring_listing_note_read(iocb->ki_filp->private_data, ret, size);
	return ret;
}

/*
 * The debugfs listing keeps the .read it had behind debugfs's proxy, which
 * has no .read_iter: the same as seqring_listing_read_iter(), through
 * seq_read().
 */
static ssize_t seqring_listing_read(struct file *file, char __user *buf,
				    size_t size, loff_t *ppos)
{
	ssize_t ret;

	ret = seq_read(file, buf, size, ppos);
	seqring_listing_note_read(file->private_data, ret, size);
	return ret;
}

/*
 * The debugfs listing has no debugfs proxy (debugfs.c), so that a file
 * still open when its ring is destroyed ends as a walk does at unload,
 * with -ENODEV, rather than with debugfs's EIO. In exchange it keeps the ring alive itself: the
 * open takes a reference while debugfs_file_get() holds the removal off,
 * and debugfs keeps the file's data in i_private on every kernel.
 */
static int seqring_listing_open(struct inode *inode, struct file *file)
{
	struct dentry *dentry = file->f_path.dentry;
	struct seqring *sr;
	int ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	sr = inode->i_private;
	ret = seqring_listing_open_dev(file, sr);
	if (!ret)
		kref_get(&sr->ref);
	debugfs_file_put(dentry);
	return ret;
}

static int seqring_listing_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct seqring *sr = ((struct seqring_iter *)m->private)->sr;
	int ret;

	ret = seq_release_private(inode, file);
	seqring_put(sr);
	return ret;
}

const struct file_operations seqring_listing_fops = {
	.owner		= THIS_MODULE,
	.open		= seqring_listing_open,
	.read		= seqring_listing_read,
	.llseek		= seq_lseek,
	.release	= seqring_listing_release,
};
