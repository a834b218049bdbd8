// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - /dev/seqring, its ioctls and the list of open files
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/fs.h>
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
 * @pushed: readings pushed through this file; changed under the ring's
 *	write_lock
 * @follow_lock: serialises registering with seqring_ring_follow()
 * @streaming: has registered with seqring_ring_follow()
 * @batch_lock: protects @batch_buf and @batch_cap
 * @batch_buf: copy of the last batch pushed, NULL until the first
 * @batch_cap: readings @batch_buf can hold
 * @read_lock: protects @cursor; held by read() from start to end
 * @cursor: sequence number of the next reading read() returns
 * @wakeup: readings unread that end a wait in read() or poll()
 *
 * @cursor is also read without @read_lock, by poll(): a stale value only
 * makes poll() report the state of a moment before.
 */
struct seqring_client {
	struct list_head node;
	struct seqring *sr;
	struct file *file;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	u64 pushed;
	struct mutex batch_lock;	/* protects batch_buf, batch_cap */
	struct seqring_reading *batch_buf;
	unsigned int batch_cap;
	struct mutex read_lock;		/* protects cursor */
	u64 cursor;
	u32 wakeup;
	struct mutex follow_lock;	/* serialises registering */
	bool streaming;
};

static int seqring_open(struct inode *inode, struct file *file)
{
	/* misc_open() has pointed private_data at our miscdevice. */
	struct seqring *sr = container_of(file->private_data, struct seqring,
					  misc);
	struct seqring_client *client;
	u64 next;

	client = kzalloc(sizeof(*client), GFP_KERNEL_ACCOUNT);
	if (!client)
		return -ENOMEM;

	client->sr = sr;
	client->file = file;
	client->pid = get_pid(task_tgid(current));
	get_task_comm(client->comm, current);
	mutex_init(&client->batch_lock);
	mutex_init(&client->read_lock);
	mutex_init(&client->follow_lock);
	/* A new reader starts at the oldest reading held. */
	next = seqring_ring_next_seq(&sr->ring);
	client->cursor = min(next, seqring_ring_oldest_seq(&sr->ring));
	client->wakeup = 1;

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

	put_pid(client->pid);
	kvfree(client->batch_buf);
	if (client->streaming)
		seqring_ring_unfollow(&sr->ring);
	mutex_destroy(&client->follow_lock);
	mutex_destroy(&client->read_lock);
	mutex_destroy(&client->batch_lock);
	kfree(client);
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
		buf = seqring_alloc_readings(cap, GFP_KERNEL_ACCOUNT);
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
					   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
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

	seqring_ring_push(&client->sr->ring, r, batch.count, &client->pushed);

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
 * The stream: each open file reads the readings from its own cursor, a
 * sequence number, as /dev/kmsg does. The ring knows nothing of readers:
 * a push never waits for one, and a reader that fell behind (its cursor
 * below the oldest reading held) finds out by comparing sequence numbers,
 * gets -EPIPE once and goes on from the oldest reading held. The cursor
 * never passes the next sequence number, so a cursor below the oldest
 * means readings it had not read are gone, and only that.
 */

/*
 * Where @cursor stands: false if readings it had not read are gone, else
 * true with the number of readings it has not read in *@unread. Lockless;
 * the next sequence number is read before the oldest, as ring.c asks.
 */
static bool seqring_cursor_state(struct seqring_ring *ring, u64 cursor,
				 u64 *unread)
{
	u64 next = seqring_ring_next_seq(ring);

	if (cursor < seqring_ring_oldest_seq(ring))
		return false;
	*unread = next > cursor ? next - cursor : 0;
	return true;
}

/*
 * Is there something for a reader of @client that waits for its wake-up
 * threshold: readings gone, or enough unread? The threshold counts as at
 * most the capacity, which a resize may have brought below it: a fuller
 * ring than that cannot be.
 */
static bool seqring_client_ready(struct seqring_client *client)
{
	struct seqring_ring *ring = &client->sr->ring;
	u64 unread;
	u32 wakeup;

	if (!seqring_cursor_state(ring, READ_ONCE(client->cursor), &unread))
		return true;
	wakeup = min(READ_ONCE(client->wakeup), seqring_ring_capacity(ring));
	return unread >= wakeup;
}

/*
 * Copy records from the cursor on into @buf, as many as fit; read_lock
 * held. Returns the bytes copied; 0 if nothing is unread; -EPIPE if
 * readings the cursor had not reached are gone (the cursor then moves to
 * the oldest reading held, for the next read()); -EFAULT if not even one
 * record could be copied (the cursor stays before the records not copied).
 */
static ssize_t seqring_read_records(struct seqring_client *client,
				    char __user *buf, size_t count)
{
	struct seqring_ring *ring = &client->sr->ring;
	struct seqring_record rec;
	size_t done = 0;

	while (count - done >= sizeof(rec)) {
		if (!seqring_ring_copy(ring, client->cursor, &rec))
			break;
		if (rec.seq != client->cursor) {
			/* Gone before we got to it; after records, stop there. */
			if (done)
				break;
			WRITE_ONCE(client->cursor, rec.seq);
			return -EPIPE;
		}
		if (copy_to_user(buf + done, &rec, sizeof(rec)))
			return done ? done : -EFAULT;
		WRITE_ONCE(client->cursor, rec.seq + 1);
		done += sizeof(rec);
		cond_resched();
	}
	/* Nothing left to copy: gone (CLEAR, or all overwritten), or none yet? */
	if (!done && client->cursor < seqring_ring_oldest_seq(ring)) {
		WRITE_ONCE(client->cursor, seqring_ring_oldest_seq(ring));
		return -EPIPE;
	}
	return done;
}

/*
 * Before a reader of this file first waits for pushes, it registers, so
 * that pushes wake it (pushes skip the wake-up check while nobody has).
 */
static void seqring_client_follow(struct seqring_client *client)
{
	/* Pairs with the release below. */
	if (smp_load_acquire(&client->streaming))
		return;
	mutex_lock(&client->follow_lock);
	if (!client->streaming) {
		seqring_ring_follow(&client->sr->ring);
		/* Registered before anyone skips it: pairs with the acquire. */
		smp_store_release(&client->streaming, true);
	}
	mutex_unlock(&client->follow_lock);
}

/*
 * Whole records from the cursor on. A blocking read waits until the
 * file's wake-up threshold of readings is unread (or it fell behind); an
 * O_NONBLOCK one returns whatever is unread, or -EAGAIN.
 */
static ssize_t seqring_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct seqring_client *client = file->private_data;
	bool nonblock = file->f_flags & O_NONBLOCK;
	ssize_t ret;

	if (count < sizeof(struct seqring_record))
		return -EINVAL;

	ret = mutex_lock_interruptible(&client->read_lock);
	if (ret)
		return ret;
	if (!nonblock)
		seqring_client_follow(client);
	for (;;) {
		if (!nonblock) {
			ret = wait_event_interruptible(client->sr->ring.wait,
						       seqring_client_ready(client));
			if (ret)
				break;
		}
		ret = seqring_read_records(client, buf, count);
		if (ret)
			break;
		if (nonblock) {
			ret = -EAGAIN;
			break;
		}
	}
	mutex_unlock(&client->read_lock);
	return ret;
}

static __poll_t seqring_poll(struct file *file, poll_table *wait)
{
	struct seqring_client *client = file->private_data;
	struct seqring_ring *ring = &client->sr->ring;
	__poll_t mask = 0;
	u64 unread;

	/* Pushes never block. */
	if (file->f_mode & FMODE_WRITE)
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (!(file->f_mode & FMODE_READ))
		return mask;

	seqring_client_follow(client);
	poll_wait(file, &ring->wait, wait);
	if (!seqring_cursor_state(ring, READ_ONCE(client->cursor), &unread))
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLERR | EPOLLPRI;
	else if (seqring_client_ready(client))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

/*
 * Only the two ends: SEEK_SET 0 is the oldest reading held, SEEK_END 0 the
 * next one pushed; either forgets that the file fell behind. The file
 * position itself stays 0.
 */
static loff_t seqring_llseek(struct file *file, loff_t offset, int whence)
{
	struct seqring_client *client = file->private_data;
	struct seqring_ring *ring = &client->sr->ring;
	u64 next;
	int ret;

	if (offset || (whence != SEEK_SET && whence != SEEK_END))
		return -EINVAL;

	ret = mutex_lock_interruptible(&client->read_lock);
	if (ret)
		return ret;
	next = seqring_ring_next_seq(ring);
	if (whence == SEEK_SET)
		next = min(next, seqring_ring_oldest_seq(ring));
	WRITE_ONCE(client->cursor, next);
	mutex_unlock(&client->read_lock);
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
	WRITE_ONCE(client->wakeup, n);
	/* A lower threshold may be met already: let a waiter look again. */
	wake_up_interruptible_poll(&ring->wait, SEQRING_POLL_WAKE);
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
	default:
		return -ENOTTY;
	}
}

static const struct file_operations seqring_fops = {
	.owner		= THIS_MODULE,
	.open		= seqring_open,
	.release	= seqring_release,
	.read		= seqring_read,
	.poll		= seqring_poll,
	.llseek		= seqring_llseek,
	.unlocked_ioctl	= seqring_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/**
 * seqring_chardev_show_clients - list the open files of /dev/seqring
 * @m: seq_file to print into
 * @sr: the device
 *
 * One line per open file: pid, command name, path it was opened by and the
 * readings pushed through it.
 */
void seqring_chardev_show_clients(struct seq_file *m, struct seqring *sr)
{
	struct seqring_client *client;

	seq_puts(m, "# PID COMM PATH PUSHED\n");

	mutex_lock(&sr->clients_lock);
	list_for_each_entry(client, &sr->clients, node) {
		seq_printf(m, "%d ", pid_nr(client->pid));
		seqring_seq_escape(m, client->comm);
		seq_putc(m, ' ');
		seq_file_path(m, client->file, " \t\n\\");
		seq_printf(m, " %llu\n", READ_ONCE(client->pushed));
	}
	mutex_unlock(&sr->clients_lock);
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
	sr->misc.name = SEQRING_NAME;
	sr->misc.fops = &seqring_fops;
	/* Attributes are in place before the uevent reaches udev. */
	sr->misc.groups = seqring_groups;
	return misc_register(&sr->misc);
}

/**
 * seqring_chardev_unregister - remove /dev/seqring
 * @sr: the device
 *
 * No file can be open here: each one holds a reference on the module.
 */
void seqring_chardev_unregister(struct seqring *sr)
{
	misc_deregister(&sr->misc);
}
