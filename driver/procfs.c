// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - /proc/seqring, the readings listing
 *
 * Readings reach the same audience as /dev/seqring: the file is 0440
 * root:root when it appears, and the udev rule that gives the device to
 * group seqring gives it this file too (procfs lets root chgrp its
 * entries). world_readable=1 makes it 0444 for everyone.
 *
 * proc_ops carry no module owner: on unload, proc_remove() waits for
 * calls in progress and releases files still open, whose later calls fail
 * with -EIO. That is why this file, unlike the debugfs ones, does not keep
 * the module loaded.
 */

#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "compat.h"
#include "seqring.h"

static bool world_readable;
module_param(world_readable, bool, 0444);
MODULE_PARM_DESC(world_readable,
		 "/proc/seqring readable by every user, not only group seqring (default N)");

/* /proc/seqring: the default ring's alone. */
static struct proc_dir_entry *seqring_proc_entry;

/* The data of a proc entry is i_private only since 5.17: ask procfs. */
static int seqring_proc_open(struct inode *inode, struct file *file)
{
	return seqring_listing_open_dev(file, pde_data(inode));
}

static const struct proc_ops seqring_proc_ops = {
	.proc_open	= seqring_proc_open,
	.proc_read_iter	= seqring_listing_read_iter,
	.proc_lseek	= seq_lseek,
	.proc_release	= seq_release_private,
};

/**
 * seqring_procfs_init - create /proc/seqring
 * @sr: the default ring
 *
 * Return: 0 or -ENOMEM.
 */
int seqring_procfs_init(struct seqring *sr)
{
	seqring_proc_entry = proc_create_data(SEQRING_NAME,
					      world_readable ? 0444 : 0440,
					      NULL, &seqring_proc_ops, sr);
	return seqring_proc_entry ? 0 : -ENOMEM;
}

/**
 * seqring_procfs_exit - remove /proc/seqring
 * @sr: the default ring
 */
void seqring_procfs_exit(struct seqring *sr)
{
	proc_remove(seqring_proc_entry);
}
