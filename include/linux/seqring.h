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
 * start, before this returns: a push meanwhile stores nothing (-ENODEV) or
 * is visible before the files go. The memory goes when the last open file
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
 * Any context: process, softirq, hardirq, with interrupts disabled, NMI
 * (a perf overflow handler, the hard-lockup detector's path), on
 * PREEMPT_RT too. Never sleeps, never allocates, takes no lock, and never
 * waits: not for a reader, not for another producer, not for the context
 * an NMI interrupted, even in the middle of its own push into @ring. The
 * reading is visible when this returns, unless an earlier reading is being
 * stored in a section with preemption off, on another CPU or by the
 * context this push interrupted (or that section is stopped, as by an NMI
 * or an interrupt), and then as soon as it is done. The reading is stamped
 * when it gets its sequence number: CLOCK_REALTIME, read with
 * ktime_get_real_fast_ns() (safe in any context, and while timekeeping is
 * suspended), never earlier than the reading before it. The oldest
 * reading is overwritten when the ring is full. Readers blocked on the
 * ring are woken by a worker, which the push queues through an irq_work.
 *
 * Lossless while @ring has a free slot: one whose reading a capacity
 * before is visible. A push finds none only when the readings being
 * stored fill the ring (a ring smaller than what is pushed at once, or a
 * CPU stopped in the middle of a push while a capacity of later readings
 * is pushed); it then stores nothing and fails, counted in the ring's
 * stats (lost). A push racing with seqring_destroy() stores nothing
 * (counted) or is visible before the ring is gone.
 *
 * Return: 0; -EINVAL for a label too long (nothing stored, not counted);
 * -ENOBUFS, no free slot, or -ENODEV, the ring is being destroyed (nothing
 * stored, counted in lost); -EIO, the ring stopped after a warning that an
 * invariant failed (counted).
 */
int seqring_push(struct seqring *ring, u32 channel, s64 value,
		 const char *label);

#endif /* _LINUX_SEQRING_H */
