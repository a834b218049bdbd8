// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - module init and exit
 *
 * seqring keeps a ring of timestamped readings pushed by userspace through
 * ioctls on /dev/seqring, and lists them in /proc/seqring and debugfs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
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

	/* First: every ring joins the BPF programs' list as it registers. */
	ret = seqring_bpf_init();
	if (ret)
		return ret;

	/* In a region that survives a reboot, if the parameters give one. */
	sr = seqring_persist_open();
	if (IS_ERR(sr)) {
		ret = PTR_ERR(sr);
		goto err_bpf;
	}
	if (!sr)
		sr = seqring_alloc("", capacity);
	if (IS_ERR(sr)) {
		if (PTR_ERR(sr) == -EINVAL)
			pr_err("capacity=%u is out of range 1..%u\n",
			       capacity, SEQRING_CAPACITY_MAX);
		else
			pr_err("cannot allocate a ring of %u readings\n",
			       capacity);
		ret = PTR_ERR(sr);
		goto err_bpf;
	}

	/*
	 * /proc/seqring has to exist before the device, the last step that
	 * can fail (a load that fails must leave no file open: open files of
	 * /dev/seqring would pin a module that is about to be freed), but it
	 * refuses to open until seqring_register() is done.
	 */
	ret = seqring_procfs_init(sr);
	if (ret)
		goto err_put;

	ret = seqring_register(sr);
	if (ret)
		goto err_remove_proc;

	/* The module's BPF counters, beside the default ring's files. */
	seqring_bpf_debugfs(sr->debugfs_dir);

	kernel_param_lock(THIS_MODULE);
	seqring_dev = sr;
	kernel_param_unlock(THIS_MODULE);
	return 0;

err_remove_proc:
	seqring_procfs_exit(sr);
err_put:
	seqring_put(sr);
	seqring_bpf_exit();
	seqring_persist_close();
	return ret;
err_bpf:
	seqring_bpf_exit();
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
	 * Files of /dev/seqring and debugfs pin the module, so none is open;
	 * rings of other modules are gone, as those modules are (they use
	 * our symbols). /proc/seqring does not pin it: proc_remove() waits
	 * for its calls in progress, and a walk in progress ends at its next
	 * record once it sees sr->dying, however deep it was seeking.
	 */
	seqring_unregister(sr);
	seqring_procfs_exit(sr);
	seqring_put(sr);
	/* Rings programs made, and the last references of the BPF list. */
	seqring_bpf_exit();
	seqring_persist_close();
	/* Slot arrays a resize replaced are freed by RCU callbacks here. */
	rcu_barrier();
}
module_exit(seqring_exit);

MODULE_DESCRIPTION("Ring of timestamped readings shown through seq_file");
MODULE_LICENSE("GPL");
MODULE_VERSION(SEQRING_VERSION);
