// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - /dev/seqring, its ioctls and the list of open files
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "seqring.h"

/*
 * Batches of up to this many readings are copied into a buffer the open
 * file keeps (160 KiB at most), not into one allocated per call: for
 * batches of a few thousand readings, allocating and zeroing (Debian has
 * init_on_alloc) cost a third of the time.
 */
#define SEQRING_BATCH_BUF_MAX	4096

/**
 * struct seqring_client - one open file of /dev/seqring
 * @node: entry in &seqring.clients
 * @sr: the device
 * @file: the open file, for its path in the clients listing
 * @pid: thread group that opened it
 * @comm: command name of the opener
 * @pushed: readings pushed through this file
 * @batch_lock: protects @batch_buf and @batch_cap
 * @batch_buf: copy of the last batch pushed, NULL until the first
 * @batch_cap: readings @batch_buf can hold
 * @read_lock: serialises the copying of read()s of this file, so that two
 *	threads never get the same reading; never held while waiting
 * @rd: the file's place in the stream
 */
struct seqring_client {
	struct list_head node;
	struct seqring *sr;
	struct file *file;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	atomic64_t pushed;
	struct mutex batch_lock;	/* protects batch_buf, batch_cap */
	struct seqring_reading *batch_buf;
	unsigned int batch_cap;
	struct mutex read_lock;		/* serialises copying */
	struct seqring_reader rd;
};

static int seqring_open(struct inode *inode, struct file *file)
{
	/* misc_open() has pointed private_data at our miscdevice. */
	struct seqring *sr = container_of(file->private_data, struct seqring,
					  misc);
	struct seqring_client *client;

	/* The previous boot's readings: nobody pushes to them. */
	if (sr->ring.frozen && (file->f_mode & FMODE_WRITE))
		return -EROFS;

	client = kzalloc(sizeof(*client), SEQRING_GFP_USER);
	if (!client)
		return -ENOMEM;

	/* misc_open() holds misc_mtx: the ring is not unregistered yet. */
	kref_get(&sr->ref);
	client->sr = sr;
	client->file = file;
	client->pid = get_pid(task_tgid(current));
	get_task_comm(client->comm, current);
	mutex_init(&client->batch_lock);
	mutex_init(&client->read_lock);
	seqring_reader_init(&client->rd, &sr->ring);

	mutex_lock(&sr->clients_lock);
	list_add_tail(&client->node, &sr->clients);
	mutex_unlock(&sr->clients_lock);

	file->private_data = client;
	/*
	 * Seekable, but only to either end (seqring_llseek()); a position
	 * given with the read would mean nothing, so pread() is ESPIPE.
	 */
	file->f_mode &= ~(FMODE_PREAD | FMODE_PWRITE);
	return 0;
}

static int seqring_release(struct inode *inode, struct file *file)
{
	struct seqring_client *client = file->private_data;
	struct seqring *sr = client->sr;

	mutex_lock(&sr->clients_lock);
	list_del(&client->node);
	mutex_unlock(&sr->clients_lock);

	seqring_reader_disarm(&client->rd, &sr->ring);
	put_pid(client->pid);
	kvfree(client->batch_buf);
	mutex_destroy(&client->read_lock);
	mutex_destroy(&client->batch_lock);
	kfree(client);
	seqring_put(sr);
	return 0;
}

/*
 * copy_from_user() of the reading, field by field: one access check and a
 * few plain moves instead of an out-of-line copy, for the one ioctl that a
 * producer calls per sample.
 */
static int seqring_get_reading(struct seqring_reading *r,
			       const struct seqring_reading __user *u)
{
	const unsigned long __user *label = (const void __user *)u->label;
	unsigned long w[SEQRING_LABEL_LEN / sizeof(unsigned long)];
	unsigned int i;

	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(r->timestamp_ns, &u->timestamp_ns, efault);
	unsafe_get_user(r->value, &u->value, efault);
	unsafe_get_user(r->channel, &u->channel, efault);
	unsafe_get_user(r->flags, &u->flags, efault);
	for (i = 0; i < ARRAY_SIZE(w); i++)
		unsafe_get_user(w[i], &label[i], efault);
	user_read_access_end();
	memcpy(r->label, w, sizeof(w));
	return 0;

efault:
	user_read_access_end();
	return -EFAULT;
}

static long seqring_ioctl_push(struct seqring_client *client,
			       const struct seqring_reading __user *u)
{
	struct seqring_reading r;
	int ret;

	ret = seqring_get_reading(&r, u);
	if (ret)
		return ret;

	return seqring_ring_push_one(&client->sr->ring, &r, &client->pushed);
}

/*
 * The file's batch buffer, grown to hold @count readings, with batch_lock
 * held; NULL when @count is too large for it or another thread is using it
 * (the caller then makes a copy of its own). ERR_PTR(-ENOMEM) when it
 * cannot grow.
 */
static struct seqring_reading *
seqring_batch_buf_get(struct seqring_client *client, unsigned int count)
{
	struct seqring_reading *buf;
	unsigned int cap;

	if (count > SEQRING_BATCH_BUF_MAX || !mutex_trylock(&client->batch_lock))
		return NULL;

	if (count > client->batch_cap) {
		/* Grow in powers of two: a few steps to the largest size. */
		cap = max_t(unsigned int, roundup_pow_of_two(count), 64);
		buf = seqring_alloc_readings(cap, SEQRING_GFP_USER |
					     __GFP_NOWARN);
		if (!buf) {
			mutex_unlock(&client->batch_lock);
			return ERR_PTR(-ENOMEM);
		}
		kvfree(client->batch_buf);
		client->batch_buf = buf;
		client->batch_cap = cap;
	}
	return client->batch_buf;
}

static long seqring_ioctl_push_batch(struct seqring_client *client,
				     const struct seqring_batch __user *u)
{
	const void __user *readings;
	struct seqring_reading *r;
	struct seqring_batch batch;
	bool own_buf;
	size_t size;
	int ret = 0;

	if (copy_from_user(&batch, u, sizeof(batch)))
		return -EFAULT;
	if (batch.flags)
		return -EINVAL;
	if (batch.count > SEQRING_BATCH_MAX)
		return -E2BIG;
	if (!batch.count)
		return 0;

	/*
	 * Copy and check the whole batch before storing any of it: a bad
	 * reading anywhere rejects the batch. A batch that the file's buffer
	 * cannot take gets a copy of its own, charged to the caller like
	 * the buffer (vmemdup_user() would not charge it).
	 */
	readings = u64_to_user_ptr(batch.readings);
	size = array_size(batch.count, sizeof(*r));
	r = seqring_batch_buf_get(client, batch.count);
	if (IS_ERR(r))
		return PTR_ERR(r);
	own_buf = r;
	if (!own_buf) {
		r = seqring_alloc_readings(batch.count,
					   SEQRING_GFP_USER | __GFP_NOWARN);
		if (!r)
			return -ENOMEM;
	}
	if (copy_from_user(r, readings, size)) {
		ret = -EFAULT;
		goto out;
	}

	ret = seqring_readings_prepare(r, batch.count);
	if (ret)
		goto out;

	ret = seqring_ring_push(&client->sr->ring, r, batch.count,
				&client->pushed);

out:
	if (own_buf)
		mutex_unlock(&client->batch_lock);
	else
		kvfree(r);
	return ret;
}

static long seqring_ioctl_get_stats(struct seqring *sr, void __user *argp)
{
	struct seqring_stats st;

	seqring_ring_stats(&sr->ring, &st);
	if (copy_to_user(argp, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

/*
 * The stream: each open file reads the readings from its own cursor
 * (reader.c). The ring knows nothing of readers but their wake-up
 * thresholds: a push never waits for one, and a reader that fell behind
 * (its cursor below the oldest reading held) finds out by comparing
 * sequence numbers, gets -EPIPE once and goes on from the oldest reading
 * held.
 *
 * No lock is held while a read() waits: lseek(), poll(), close() and
 * O_NONBLOCK reads of the same file never wait for a blocked reader.
 * read_lock is held only while records are copied out, so that threads
 * sharing the file each get other readings.
 */

/*
 * Copy records from the cursor on into @buf, as many as fit; read_lock
 * held. Returns the bytes copied; 0 if nothing is unread; -EPIPE if
 * readings the cursor had not reached are gone (the cursor then moves to
 * the oldest reading held, for the next read()); -EFAULT if not even one
 * record could be copied (the cursor stays before the records not copied).
 * An lseek() meanwhile wins: the copy stops at the record it was at.
 */
static ssize_t seqring_read_records(struct seqring_client *client,
				    char __user *buf, size_t count)
{
	struct seqring_ring *ring = &client->sr->ring;
	atomic64_t *cursor = &client->rd.cursor;
	struct seqring_record rec;
	size_t done = 0;
	s64 at = atomic64_read(cursor);

	while (count - done >= sizeof(rec)) {
		if (!seqring_ring_copy(ring, at, &rec))
			break;
		if (rec.seq != at) {
			/* Gone before we got to it; after records, stop there. */
			if (done)
				break;
			atomic64_cmpxchg(cursor, at, rec.seq);
			return -EPIPE;
		}
		if (copy_to_user(buf + done, &rec, sizeof(rec)))
			return done ? done : -EFAULT;
		done += sizeof(rec);
		if (atomic64_cmpxchg(cursor, at, at + 1) != at)
			return done;
		at++;
		cond_resched();
	}
	/* Nothing left to copy: gone (CLEAR, or all overwritten), or none yet? */
	if (!done && seqring_reader_behind(&client->rd, ring)) {
		/*
		 * Producers raise oldest_seq before they publish what they
		 * overwrite with: never past next_seq (read first, ring.c a.).
		 */
		s64 next = seqring_ring_next_seq(ring);

		atomic64_cmpxchg(cursor, at,
				 min_t(s64, next, seqring_ring_oldest_seq(ring)));
		return -EPIPE;
	}
	return done;
}

/*
 * Whole records from the cursor on. A blocking read waits, holding no
 * lock, until the file's wake-up threshold of readings is unread (or it
 * fell behind); an O_NONBLOCK one returns whatever is unread, or -EAGAIN,
 * also while another thread of the file is copying.
 */
static ssize_t seqring_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct seqring_client *client = file->private_data;
	struct seqring_ring *ring = &client->sr->ring;
	struct seqring_reader *rd = &client->rd;
	bool nonblock = file->f_flags & O_NONBLOCK;
	ssize_t ret;

	if (count < sizeof(struct seqring_record))
		return -EINVAL;

	for (;;) {
		/* The ring was destroyed (seqring_destroy()). */
		if (READ_ONCE(ring->dead))
			return -ENODEV;
		if (nonblock) {
			if (!mutex_trylock(&client->read_lock))
				return -EAGAIN;
		} else {
			ret = seqring_reader_wait(rd, ring);
			if (ret)
				return ret;
			ret = mutex_lock_interruptible(&client->read_lock);
			if (ret)
				return ret;
		}
		ret = seqring_read_records(client, buf, count);
		mutex_unlock(&client->read_lock);
		if (ret)
			return ret;
		/* Another thread of this file took what there was. */
		if (nonblock)
			return -EAGAIN;
	}
}

static __poll_t seqring_poll(struct file *file, poll_table *wait)
{
	struct seqring_client *client = file->private_data;
	struct seqring_ring *ring = &client->sr->ring;
	struct seqring_reader *rd = &client->rd;
	__poll_t mask = 0;

	/* Woken by seqring_ring_kill(); dead is read after poll_wait(). */
	poll_wait(file, &rd->wait, wait);
	if (READ_ONCE(ring->dead))
		return EPOLLHUP | EPOLLERR;

	/* Pushes never block. */
	if (file->f_mode & FMODE_WRITE)
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (!(file->f_mode & FMODE_READ))
		return mask;

	/*
	 * Arming includes the smp_mb() after poll_wait() that orders the
	 * wait-queue entry before the checks (ring.c).
	 */
	if (seqring_reader_arm(rd, ring)) {
		mask |= EPOLLIN | EPOLLRDNORM;
		if (seqring_reader_behind(rd, ring))
			mask |= EPOLLERR | EPOLLPRI;
	}
	return mask;
}

/*
 * Only the two ends: SEEK_SET 0 is the oldest reading held, SEEK_END 0 the
 * next one pushed; either forgets that the file fell behind. The file
 * position itself stays 0. Never waits, not even for a blocked read().
 */
static loff_t seqring_llseek(struct file *file, loff_t offset, int whence)
{
	struct seqring_client *client = file->private_data;
	struct seqring_ring *ring = &client->sr->ring;
	u64 next;

	if (offset || (whence != SEEK_SET && whence != SEEK_END))
		return -EINVAL;

	next = seqring_ring_next_seq(ring);
	if (whence == SEEK_SET)
		next = min(next, seqring_ring_oldest_seq(ring));
	atomic64_set(&client->rd.cursor, next);
	/* A waiter of this file may now have readings, or none. */
	seqring_reader_changed(&client->rd);
	return 0;
}

static long seqring_ioctl_set_wakeup(struct seqring_client *client,
				     const u32 __user *argp)
{
	struct seqring_ring *ring = &client->sr->ring;
	u32 n;

	if (get_user(n, argp))
		return -EFAULT;
	if (!n || n > seqring_ring_capacity(ring))
		return -EINVAL;
	WRITE_ONCE(client->rd.wakeup, n);
	/* A lower threshold may be met already: let a waiter look again. */
	seqring_reader_changed(&client->rd);
	return 0;
}

/*
 * Where a consumer of the mapping is: poll() and the wake-up threshold
 * count from there. Clamped as lseek() would: never past next_seq (read
 * first, ring.c a.), never below the oldest reading held.
 */
static long seqring_ioctl_set_cursor(struct seqring_client *client,
				     const u64 __user *argp)
{
	struct seqring_ring *ring = &client->sr->ring;
	u64 seq, next;

	if (!(client->file->f_mode & FMODE_READ))
		return -EBADF;
	if (get_user(seq, argp))
		return -EFAULT;
	next = seqring_ring_next_seq(ring);
	seq = max(seq, min(next, seqring_ring_oldest_seq(ring)));
	atomic64_set(&client->rd.cursor, min(seq, next));
	/* A waiter of this file may now have readings, or none. */
	seqring_reader_changed(&client->rd);
	return 0;
}

static long seqring_ioctl_set_capacity(struct seqring *sr,
				       const u32 __user *argp)
{
	u32 n;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (get_user(n, argp))
		return -EFAULT;
	/* -EINVAL for 0 or above the maximum, -ENOMEM: the ring untouched. */
	return seqring_ring_resize(&sr->ring, n);
}

static long seqring_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct seqring_client *client = file->private_data;
	void __user *argp = (void __user *)arg;
	bool writable = file->f_mode & FMODE_WRITE;

	if (READ_ONCE(client->sr->ring.dead))
		return -ENODEV;

	switch (cmd) {
	case SEQRING_IOC_PUSH:
		if (!writable)
			return -EBADF;
		return seqring_ioctl_push(client, argp);
	case SEQRING_IOC_PUSH_BATCH:
		if (!writable)
			return -EBADF;
		return seqring_ioctl_push_batch(client, argp);
	case SEQRING_IOC_GET_STATS:
		return seqring_ioctl_get_stats(client->sr, argp);
	case SEQRING_IOC_CLEAR:
		/* Anyone allowed to write may clear; readers need the cap. */
		if (!writable && !capable(CAP_SYS_ADMIN))
			return -EPERM;
		return seqring_ring_clear(&client->sr->ring);
	case SEQRING_IOC_SET_WAKEUP:
		return seqring_ioctl_set_wakeup(client, argp);
	case SEQRING_IOC_SET_CAPACITY:
		return seqring_ioctl_set_capacity(client->sr, argp);
	case SEQRING_IOC_SET_CURSOR:
		return seqring_ioctl_set_cursor(client, argp);
	default:
		return -ENOTTY;
	}
}

/* The ring read-only, without a system call per reading (mmap.c). */
static int seqring_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct seqring_client *client = file->private_data;

	return seqring_ring_mmap(&client->sr->ring, vma);
}

static const struct file_operations seqring_fops = {
	.owner		= THIS_MODULE,
	.open		= seqring_open,
	.release	= seqring_release,
	.read		= seqring_read,
	.poll		= seqring_poll,
	.llseek		= seqring_llseek,
	.unlocked_ioctl	= seqring_ioctl,
	/* Every argument has the same layout for 32-bit callers. */
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= seqring_mmap,
};

/**
 * seqring_chardev_show_clients - list the open files of /dev/seqring
 * @m: seq_file to print into
 * @sr: the device
 *
 * One line per open file: pid (as the reader's pid namespace sees it, 0
 * when it cannot), command name, path it was opened by (escaped as labels
 * are) and the readings pushed through it.
 *
 * Return: 0, or -ENOMEM.
 */
int seqring_chardev_show_clients(struct seq_file *m, struct seqring *sr)
{
	struct seqring_client *client;
	char *buf, *path;

	buf = __getname();
	if (!buf)
		return -ENOMEM;

	seq_puts(m, "# PID COMM PATH PUSHED\n");

	mutex_lock(&sr->clients_lock);
	list_for_each_entry(client, &sr->clients, node) {
		seq_printf(m, "%d ", pid_vnr(client->pid));
		seqring_seq_escape(m, client->comm);
		seq_putc(m, ' ');
		path = d_path(&client->file->f_path, buf, PATH_MAX);
		seqring_seq_escape(m, IS_ERR(path) ? "?" : path);
		seq_printf(m, " %llu\n", (u64)atomic64_read(&client->pushed));
	}
	mutex_unlock(&sr->clients_lock);
	__putname(buf);
	return 0;
}

/**
 * seqring_chardev_nr_clients - number of open files of /dev/seqring
 * @sr: the device
 *
 * Return: the number, which may change as soon as it is returned.
 */
unsigned int seqring_chardev_nr_clients(struct seqring *sr)
{
	struct seqring_client *client;
	unsigned int n = 0;

	mutex_lock(&sr->clients_lock);
	list_for_each_entry(client, &sr->clients, node)
		n++;
	mutex_unlock(&sr->clients_lock);
	return n;
}

/**
 * seqring_chardev_register - create /dev/seqring and its sysfs attributes
 * @sr: the device, with its ring ready
 *
 * Return: 0 or a negative errno from misc_register().
 */
int seqring_chardev_register(struct seqring *sr)
{
	sr->misc.minor = MISC_DYNAMIC_MINOR;
	sr->misc.name = sr->devname;
	sr->misc.fops = &seqring_fops;
	/* Attributes are in place before the uevent reaches udev. */
	sr->misc.groups = seqring_groups;
	return misc_register(&sr->misc);
}

/**
 * seqring_chardev_unregister - remove /dev/seqring
 * @sr: the device
 *
 * Files still open hold references to the ring, and to the module.
 */
void seqring_chardev_unregister(struct seqring *sr)
{
	misc_deregister(&sr->misc);
}
