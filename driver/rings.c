// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the rings that have files, by name; the kernel API
 *
 * Every ring, the default one of /dev/seqring included, is made by
 * seqring_alloc() (alloc.c) and seqring_register() and goes by
 * seqring_unregister() and the last seqring_put(). This file is the top of
 * the driver: it calls the files' code (chardev.c, debugfs.c), which never
 * calls back into it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "seqring.h"

/* The rings that have files, by name; the default ring's name is "". */
static DEFINE_MUTEX(seqring_rings_lock);
static LIST_HEAD(seqring_rings);

/**
 * seqring_register - give a ring its device and debugfs files
 * @sr: the ring, from seqring_alloc()
 *
 * The device comes last of what can fail; debugfs cannot. Under
 * seqring_rings_lock from the check of the name to the last file, as
 * seqring_unregister() is from the first file removed to the name's
 * release: a name is taken or free with all its files, so that a create
 * that comes while the same name is being destroyed waits for the destroy
 * to finish (misc_register() of a name still in sysfs would fail, and
 * debugfs would refuse the directory).
 *
 * Return: 0, -EEXIST if a ring of that name has files, or the errno of
 * misc_register().
 */
int seqring_register(struct seqring *sr)
{
	struct seqring *other;
	int ret;

	ret = seqring_bpf_prepare(sr);
	if (ret)
		return ret;
	mutex_lock(&seqring_rings_lock);
	list_for_each_entry(other, &seqring_rings, node) {
		if (!strcmp(other->name, sr->name)) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	ret = seqring_chardev_register(sr);
	if (ret)
		goto unlock;
	list_add_tail(&sr->node, &seqring_rings);
	/* Pairs with the smp_load_acquire() in seqring_listing_open_dev(). */
	smp_store_release(&sr->ready, true);
	seqring_debugfs_init(sr);
unlock:
	mutex_unlock(&seqring_rings_lock);
	/* Programs find it once it has its files. */
	if (ret)
		seqring_bpf_unprepare(sr);
	else
		seqring_bpf_add(sr);
	return ret;
}

/**
 * seqring_unregister - remove a ring's files
 * @sr: a ring seqring_register() gave files
 *
 * New opens fail at once; a listing walk in progress ends at its next
 * record; stream readers, blocked ones included, get -ENODEV. Files still
 * open keep the ring's memory until they close. The name is free again
 * when this returns, not before (see seqring_register()).
 */
void seqring_unregister(struct seqring *sr)
{
	/* New BPF pushes first: those in flight are refused once killed. */
	seqring_bpf_del(sr);
	WRITE_ONCE(sr->dying, true);
	mutex_lock(&seqring_rings_lock);
	seqring_chardev_unregister(sr);
	/* Waits for the debugfs calls in progress, which see dying. */
	seqring_debugfs_exit(sr);
	list_del_init(&sr->node);
	mutex_unlock(&seqring_rings_lock);
	seqring_ring_kill(&sr->ring);
}

/*
 * 1 to SEQRING_NAME_MAX of [a-z0-9_-]: a device name and a file name. Not
 * islower(): the kernel's ctype table is Latin-1, where 0xdf-0xff (but
 * 0xf7) are lower-case letters too.
 */
static bool seqring_name_valid(const char *name)
{
	size_t len = strnlen(name, SEQRING_NAME_MAX + 1);
	size_t i;
	char c;

	if (!len || len > SEQRING_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		c = name[i];
		if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') &&
		    c != '_' && c != '-')
			return false;
	}
	return true;
}

/* Kernel-doc of the three exported functions: include/linux/seqring.h. */
struct seqring *seqring_create(const char *name, u32 capacity)
{
	struct seqring *sr;
	int ret;

	might_sleep();
	if (!name || !seqring_name_valid(name))
		return ERR_PTR(-EINVAL);

	sr = seqring_alloc(name, capacity);
	if (IS_ERR(sr))
		return sr;
	ret = seqring_register(sr);
	if (ret) {
		seqring_put(sr);
		return ERR_PTR(ret);
	}
	return sr;
}
EXPORT_SYMBOL_GPL(seqring_create);

void seqring_destroy(struct seqring *sr)
{
	if (IS_ERR_OR_NULL(sr))
		return;
	might_sleep();
	seqring_unregister(sr);
	seqring_put(sr);
}
EXPORT_SYMBOL_GPL(seqring_destroy);

int seqring_push(struct seqring *sr, u32 channel, s64 value,
		 const char *label)
{
	struct seqring_reading r = {
		.channel = channel,
		.value = value,
	};
	size_t len;

	if (label) {
		len = strnlen(label, SEQRING_LABEL_LEN);
		if (len == SEQRING_LABEL_LEN)
			return -EINVAL;
		memcpy(r.label, label, len);
	}
	/*
	 * One rule for every context, NMI included: readers are woken
	 * through an irq_work, never from here (as ftrace's rb_wakeups()).
	 */
	return __seqring_ring_push_one(&sr->ring, &r, false);
}
EXPORT_SYMBOL_GPL(seqring_push);
