// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - module init and exit
 *
 * seqring keeps a ring of timestamped readings pushed by userspace through
 * ioctls on /dev/seqring, and lists them in /proc/seqring and debugfs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "seqring.h"

static unsigned int capacity = 4096;
static struct seqring *seqring_dev;

/*
 * The parameter shows the ring's capacity as it is now, after any resize
 * (sysfs capacity, SET_CAPACITY), not only the value it was loaded with.
 * Parameter callbacks run under kernel_param_lock(), which exit takes to
 * clear seqring_dev.
 */
static int seqring_capacity_get(char *buf, const struct kernel_param *kp)
{
	if (seqring_dev)
		return sysfs_emit(buf, "%u\n",
				  seqring_ring_capacity(&seqring_dev->ring));
	return param_get_uint(buf, kp);
}

static const struct kernel_param_ops seqring_capacity_ops = {
	.set	= param_set_uint,
	.get	= seqring_capacity_get,
};
module_param_cb(capacity, &seqring_capacity_ops, &capacity, 0444);
MODULE_PARM_DESC(capacity,
		 "readings the ring holds, 1 to 16777216 (default 4096); shows the capacity after a resize");

static int __init seqring_init(void)
{
	struct seqring *sr;
	int ret;

	if (!capacity || capacity > SEQRING_CAPACITY_MAX) {
		pr_err("capacity=%u is out of range 1..%u\n",
		       capacity, SEQRING_CAPACITY_MAX);
		return -EINVAL;
	}

	sr = kzalloc(sizeof(*sr), GFP_KERNEL);
	if (!sr)
		return -ENOMEM;
	mutex_init(&sr->clients_lock);
	INIT_LIST_HEAD(&sr->clients);

	ret = seqring_ring_init(&sr->ring, capacity);
	if (ret) {
		pr_err("cannot allocate a ring of %u readings\n", capacity);
		goto err_free_dev;
	}

	/*
	 * Steps that can fail come first, the last of them misc_register():
	 * a load that fails must leave no file open, and open files of
	 * /dev/seqring would pin a module that is about to be freed.
	 * /proc/seqring has to exist by then, but refuses to open until
	 * sr->ready; debugfs cannot fail and comes last.
	 */
	ret = seqring_procfs_init(sr);
	if (ret)
		goto err_free_ring;

	ret = seqring_chardev_register(sr);
	if (ret)
		goto err_remove_proc;

	/* Pairs with the smp_load_acquire() in seqring_listing_open_dev(). */
	smp_store_release(&sr->ready, true);
	seqring_debugfs_init(sr);
	kernel_param_lock(THIS_MODULE);
	seqring_dev = sr;
	kernel_param_unlock(THIS_MODULE);
	return 0;

err_remove_proc:
	seqring_procfs_exit(sr);
err_free_ring:
	seqring_ring_destroy(&sr->ring);
err_free_dev:
	mutex_destroy(&sr->clients_lock);
	kfree(sr);
	return ret;
}
module_init(seqring_init);

static void __exit seqring_exit(void)
{
	struct seqring *sr = seqring_dev;

	kernel_param_lock(THIS_MODULE);
	seqring_dev = NULL;
	kernel_param_unlock(THIS_MODULE);
	/*
	 * Files of /dev/seqring and debugfs pin the module, so none is open.
	 * /proc/seqring does not: proc_remove() waits for its calls in
	 * progress, and a walk in progress ends at its next record once it
	 * sees sr->dying, however deep it was seeking.
	 */
	WRITE_ONCE(sr->dying, true);
	seqring_chardev_unregister(sr);
	seqring_debugfs_exit(sr);
	seqring_procfs_exit(sr);
	seqring_ring_destroy(&sr->ring);
	mutex_destroy(&sr->clients_lock);
	kfree(sr);
}
module_exit(seqring_exit);

MODULE_DESCRIPTION("Ring of timestamped readings shown through seq_file");
MODULE_LICENSE("GPL");
MODULE_VERSION(SEQRING_VERSION);
