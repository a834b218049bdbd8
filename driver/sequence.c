// SPDX-License-Identifier: GPL-2.0
/*
 * sequence - /proc/sequence, the classic seq_file teaching example
 *
 * An endless file of decimal integers, one per line, from 0. The position
 * is the integer, so seq_lseek() can land on any byte: dd with skip= gives
 * pieces that concatenate to the whole. start() allocates the iterator and
 * stop() frees it, as in Documentation/filesystems/seq_file.rst, in the 6.1
 * form where stop() also runs after start() failed.
 *
 * Anyone can open the file and seek: an lseek() or pread() to offset N
 * makes seq_file replay every line before N in one call (traverse()), and
 * the file has no end. So next() yields the CPU on every line, ends the
 * walk with -EINTR on a fatal signal, and with -ENODEV once the module is
 * going: proc_remove() at unload waits for calls in progress, and must not
 * wait for a seek to a petabyte.
 */

#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

static bool sequence_dying;

static void *sequence_start(struct seq_file *m, loff_t *pos)
{
	loff_t *spos;

	/* As in next(): a read() after a seek the unload ended fails too. */
	if (READ_ONCE(sequence_dying))
		return ERR_PTR(-ENODEV);
	spos = kmalloc(sizeof(*spos), GFP_KERNEL);
	if (!spos)
		return ERR_PTR(-ENOMEM);
	*spos = *pos;
	return spos;
}

static void *sequence_next(struct seq_file *m, void *v, loff_t *pos)
{
	loff_t *spos = v;
	int err = 0;

	*pos = ++*spos;
	if (READ_ONCE(sequence_dying))
		err = -ENODEV;
	else if (fatal_signal_pending(current))
		err = -EINTR;
	if (err) {
		/* stop() gets the error, not the iterator: free it here. */
		kfree(spos);
		return ERR_PTR(err);
	}
	cond_resched();
	return spos;
}

static void sequence_stop(struct seq_file *m, void *v)
{
	if (!IS_ERR(v))
		kfree(v);
}

static int sequence_show(struct seq_file *m, void *v)
{
	seq_put_decimal_ll(m, "", *(loff_t *)v);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations sequence_sops = {
	.start	= sequence_start,
	.next	= sequence_next,
	.stop	= sequence_stop,
	.show	= sequence_show,
};

static struct proc_dir_entry *sequence_entry;

static int __init sequence_init(void)
{
	sequence_entry = proc_create_seq("sequence", 0444, NULL,
					 &sequence_sops);
	return sequence_entry ? 0 : -ENOMEM;
}
module_init(sequence_init);

static void __exit sequence_exit(void)
{
	WRITE_ONCE(sequence_dying, true);
	proc_remove(sequence_entry);
}
module_exit(sequence_exit);

MODULE_DESCRIPTION("Endless seekable /proc/sequence, a seq_file example");
MODULE_LICENSE("GPL");
MODULE_VERSION(SEQRING_VERSION);
