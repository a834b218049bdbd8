/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs control file of the test modules in tests/kmod/: one
 * command a write(), run under the module's lock; the write fails with
 * the command's error, so that a test sees the errno (tests/bin/ctl).
 */
#ifndef _SEQRING_KMOD_CTL_H
#define _SEQRING_KMOD_CTL_H

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/**
 * kmod_ctl_write - the write() of a control file
 * @ubuf: the command, from userspace
 * @len: its length, less than @max
 * @max: the longest command and its NUL
 * @lock: held while @run runs
 * @run: runs the command, a NUL-terminated copy it may modify
 *
 * Return: @len, or the negative errno of @run, the copy or the lock.
 */
static inline ssize_t kmod_ctl_write(const char __user *ubuf, size_t len,
				     size_t max, struct mutex *lock,
				     int (*run)(char *cmd))
{
	char *buf;
	int err;

	if (len >= max)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	err = mutex_lock_interruptible(lock);
	if (!err) {
		err = run(buf);
		mutex_unlock(lock);
	}
	kfree(buf);
	return err ? err : len;
}

/*
 * DEFINE_KMOD_CTL(name, max, lock, run): name_write() and name_fops, the
 * file operations of a control file whose commands kmod_ctl_write() runs.
 */
#define DEFINE_KMOD_CTL(name, max, lock, run)				\
static ssize_t name##_write(struct file *file, const char __user *ubuf,	\
			    size_t len, loff_t *ppos)			\
{									\
	return kmod_ctl_write(ubuf, len, max, lock, run);		\
}									\
									\
static const struct file_operations name##_fops = {			\
	.owner	= THIS_MODULE,						\
	.open	= simple_open,						\
	.write	= name##_write,						\
	.llseek	= noop_llseek,						\
}

#endif /* _SEQRING_KMOD_CTL_H */
