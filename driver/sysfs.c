// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - counters in /sys/class/misc/seqring/, and the capacity, which
 * root may also write to resize the ring
 */

#include <linux/capability.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "seqring.h"

static struct seqring *dev_to_seqring(struct device *dev)
{
	/* misc_register() sets the device's drvdata to the miscdevice. */
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct seqring, misc);
}

/* Each attribute prints one field of a consistent stats snapshot. */
#define SEQRING_STAT_SHOW(field)					\
static ssize_t field##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct seqring_stats st;					\
									\
	seqring_ring_stats(&dev_to_seqring(dev)->ring, &st);		\
	return sysfs_emit(buf, "%llu\n", st.field);			\
}

SEQRING_STAT_SHOW(capacity)

/* The same rules as SEQRING_IOC_SET_CAPACITY, for scripts. */
static ssize_t capacity_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	u32 capacity;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 10, &capacity);
	if (ret)
		return ret;
	ret = seqring_ring_resize(&dev_to_seqring(dev)->ring, capacity);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(capacity);
SEQRING_STAT_SHOW(count)
static DEVICE_ATTR_RO(count);
SEQRING_STAT_SHOW(total)
static DEVICE_ATTR_RO(total);
SEQRING_STAT_SHOW(dropped)
static DEVICE_ATTR_RO(dropped);
SEQRING_STAT_SHOW(newest_seq)
static DEVICE_ATTR_RO(newest_seq);
SEQRING_STAT_SHOW(lost)
static DEVICE_ATTR_RO(lost);

static struct attribute *seqring_attrs[] = {
	&dev_attr_capacity.attr,
	&dev_attr_count.attr,
	&dev_attr_total.attr,
	&dev_attr_dropped.attr,
	&dev_attr_newest_seq.attr,
	&dev_attr_lost.attr,
	NULL
};

static const struct attribute_group seqring_group = {
	.attrs = seqring_attrs,
};

const struct attribute_group *seqring_groups[] = {
	&seqring_group,
	NULL
};
