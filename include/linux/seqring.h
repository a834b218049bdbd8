/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - rings of timestamped readings that kernel code pushes into
 *
 * A driver creates a ring of its own with seqring_create(), pushes readings
 * into it from any context with seqring_push(), and destroys it with
 * seqring_destroy(). Users read the ring exactly as they read the default
 * ring of /dev/seqring: through /dev/seqring-NAME (read(), poll(), the
 * ioctls of <uapi/linux/seqring.h>), /sys/class/misc/seqring-NAME/ and
 * /sys/kernel/debug/seqring-NAME/. Documentation: seqring(4), README.
 *
 * Out of tree, build against the Module.symvers that building seqring
 * leaves (KBUILD_EXTRA_SYMBOLS), with this directory's parent on the
 * include path; the DKMS source tree (/usr/src/seqring-VERSION) has both.
 */
#ifndef _LINUX_SEQRING_H
#define _LINUX_SEQRING_H

#include <linux/types.h>
#include <uapi/linux/seqring.h>

/* Longest ring name, without the terminating NUL. */
#define SEQRING_NAME_MAX	15

struct seqring;

/**
 * seqring_create - create a named ring of readings
 * @name: 1 to %SEQRING_NAME_MAX characters of [a-z0-9_-]; the ring's
 *	files are /dev/seqring-@name and /sys/kernel/debug/seqring-@name/
 * @capacity: readings the ring holds, 1 to %SEQRING_CAPACITY_MAX
 *
 * Process context; may sleep. The ring's memory is charged to the caller's
 * memory cgroup, and a ring too large fails with -ENOMEM, never by waking
 * the OOM killer. The files appear before this returns.
 *
 * Return: the ring, or ERR_PTR(-EINVAL) for a bad name or capacity,
 * ERR_PTR(-EEXIST) when a ring of that name exists, ERR_PTR(-ENOMEM).
 */
struct seqring *seqring_create(const char *name, u32 capacity);

/**
 * seqring_destroy - remove a ring created by seqring_create()
 * @ring: the ring; NULL or an ERR_PTR() is ignored
 *
 * Process context; may sleep. The ring's files disappear at once: read()
 * of files still open fails with -ENODEV (/dev/seqring-NAME and the
 * debugfs listing; debugfs's other files: -EIO), poll() reports
 * EPOLLHUP | EPOLLERR, and readers blocked in read() or poll() wake.
 * Every seqring_push() into @ring must have returned, and none may
 * start, before this is called. The memory goes when the last open file
 * closes; the module that created the ring may be unloaded as soon as
 * this returns.
 */
void seqring_destroy(struct seqring *ring);

/**
 * seqring_push - push one reading into a ring
 * @ring: the ring
 * @channel: the reading's channel
 * @value: the reading's value
 * @label: NUL-terminated, at most %SEQRING_LABEL_LEN - 1 bytes; NULL for
 *	an empty label
 *
 * Any context: process, softirq, hardirq, with interrupts disabled, on
 * PREEMPT_RT too. Not NMI: the writer keeps interrupts off while it
 * stores a reading, which does not keep an NMI out. Never sleeps, never
 * allocates, takes no lock that a reader of the ring takes, and never
 * waits for a reader or for another producer: it is visible when this
 * returns, unless another CPU is storing an earlier reading with
 * interrupts off, and then as soon as that CPU is done. The reading is
 * stamped when it gets its sequence number: CLOCK_REALTIME, read with
 * ktime_get_real_fast_ns() (safe in any context, and while timekeeping is
 * suspended), never earlier than the reading before it.
 * The oldest reading is overwritten when the ring is full. Readers blocked
 * on the ring are woken by a worker, which the push queues from process
 * context or through an irq_work.
 *
 * Return: 0, or -EINVAL for a label too long (nothing is stored).
 */
int seqring_push(struct seqring *ring, u32 channel, s64 value,
		 const char *label);

#endif /* _LINUX_SEQRING_H */
