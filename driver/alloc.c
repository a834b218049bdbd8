// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - a ring's memory and its references
 *
 * A ring has two kinds of users: whoever made it (the module, or the
 * driver that called seqring_create()), and the open files of its device.
 * Each holds a reference; the ring's memory goes with the last one, so a
 * driver can destroy its ring, and unload, while a reader still holds
 * /dev/seqring-NAME open. The files (chardev.c, listing.c) drop their
 * references here, below rings.c, which gives a ring its files.
 */

#include <linux/err.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "seqring.h"

/*
 * A ring with no files yet, its struct seqring_ring set up by @init (which
 * returns 0 or a negative errno).
 */
static struct seqring *
__seqring_alloc(const char *name,
		int (*init)(struct seqring *sr, const void *arg),
		const void *arg)
{
	struct seqring *sr;
	int ret;

	sr = kzalloc(sizeof(*sr), SEQRING_GFP_USER);
	if (!sr)
		return ERR_PTR(-ENOMEM);
	strscpy(sr->name, name, sizeof(sr->name));
	if (*name)
		snprintf(sr->devname, sizeof(sr->devname), "%s-%s",
			 SEQRING_NAME, name);
	else
		strscpy(sr->devname, SEQRING_NAME, sizeof(sr->devname));
	kref_init(&sr->ref);
	INIT_LIST_HEAD(&sr->node);
	mutex_init(&sr->clients_lock);
	INIT_LIST_HEAD(&sr->clients);

	ret = init(sr, arg);
	if (ret)
		goto err_free;
	return sr;

err_free:
	mutex_destroy(&sr->clients_lock);
	kfree(sr);
	return ERR_PTR(ret);
}

static int seqring_init_alloc(struct seqring *sr, const void *capacity)
{
	return seqring_ring_init(&sr->ring, sr->devname,
				 *(const u32 *)capacity, seqring_readers_wake);
}

/**
 * seqring_alloc - allocate a ring that has no files yet
 * @name: "" for the default ring, else a name seqring_create() accepted
 * @capacity: 1 to %SEQRING_CAPACITY_MAX
 *
 * Return: the ring, holding one reference, or ERR_PTR(-EINVAL) for a
 * capacity out of range, ERR_PTR(-ENOMEM).
 */
struct seqring *seqring_alloc(const char *name, u32 capacity)
{
	if (!capacity || capacity > SEQRING_CAPACITY_MAX)
		return ERR_PTR(-EINVAL);
	return __seqring_alloc(name, seqring_init_alloc, &capacity);
}

struct seqring_region_arg {
	void *region;
	const struct seqring_persist_layout *lay;
};

static int seqring_init_region(struct seqring *sr, const void *arg)
{
	const struct seqring_region_arg *a = arg;

	return seqring_ring_init_region(&sr->ring, sr->devname, a->region,
					a->lay, seqring_readers_wake);
}

/**
 * seqring_alloc_region - the default ring, in a persistent region
 * @region: the region, mapped and formatted (persist_region.c)
 * @lay: its layout
 *
 * Return: as seqring_alloc(); the region stays the caller's to unmap,
 * after the ring's last reference is gone.
 */
struct seqring *seqring_alloc_region(void *region,
				     const struct seqring_persist_layout *lay)
{
	struct seqring_region_arg a = { .region = region, .lay = lay };

	return __seqring_alloc("", seqring_init_region, &a);
}

static void seqring_free(struct kref *ref)
{
	struct seqring *sr = container_of(ref, struct seqring, ref);

	seqring_ring_destroy(&sr->ring);
	mutex_destroy(&sr->clients_lock);
	kfree(sr);
}

/**
 * seqring_put - drop a reference to a ring
 * @sr: the ring; freed with the last reference
 */
void seqring_put(struct seqring *sr)
{
	kref_put(&sr->ref, seqring_free);
}
