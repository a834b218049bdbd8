/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * seqring - a ring of timestamped readings behind /dev/seqring
 *
 * This header is the whole userspace ABI of the driver. Every structure has
 * fixed-size members at naturally aligned offsets and a size that is a
 * multiple of 8, so i386 and x86_64 see the same layout and 32-bit programs
 * work through compat_ioctl without translation. Fields named "flags" or
 * "reserved" must be zero on input; the driver checks, so they can gain a
 * meaning later without breaking old binaries.
 */
#ifndef _UAPI_LINUX_SEQRING_H
#define _UAPI_LINUX_SEQRING_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Label bytes, including the terminating NUL. */
#define SEQRING_LABEL_LEN	16

/* Largest @count accepted by SEQRING_IOC_PUSH_BATCH. */
#define SEQRING_BATCH_MAX	65536

/* Largest ring: the capacity= parameter and SEQRING_IOC_SET_CAPACITY. */
#define SEQRING_CAPACITY_MAX	(1U << 24)

/**
 * struct seqring_reading - one sample, as pushed by userspace
 * @timestamp_ns: time of the sample in nanoseconds since the epoch; 0 asks
 *	the driver to stamp it: CLOCK_REALTIME (ktime_get_real_fast_ns(),
 *	safe in any context), read when the reading gets its sequence
 *	number, and never earlier than the driver's stamp of the reading
 *	before it (so the driver's stamps never decrease along sequence
 *	numbers, even when the clock is set back)
 * @value: the sample
 * @channel: free-form channel number
 * @flags: must be zero
 * @label: short name, NUL-terminated within %SEQRING_LABEL_LEN bytes; bytes
 *	after the NUL are ignored and stored as zero
 *
 * The driver assigns the sequence number; it is not part of this structure.
 */
struct seqring_reading {
	__u64 timestamp_ns;
	__s64 value;
	__u32 channel;
	__u32 flags;
	char label[SEQRING_LABEL_LEN];
};

/**
 * struct seqring_batch - argument of SEQRING_IOC_PUSH_BATCH
 * @readings: user address of an array of @count struct seqring_reading
 * @count: number of readings, 0 to %SEQRING_BATCH_MAX
 * @flags: must be zero
 */
struct seqring_batch {
	__u64 readings;
	__u32 count;
	__u32 flags;
};

/**
 * struct seqring_stats - snapshot returned by SEQRING_IOC_GET_STATS
 * @capacity: readings the ring holds
 * @count: readings held now
 * @total: readings pushed since the module was loaded; the newest reading
 *	ever pushed has sequence number @total
 * @dropped: readings overwritten because the ring was full, and readings
 *	discarded because a resize (SEQRING_IOC_SET_CAPACITY, the sysfs
 *	capacity attribute) shrank the ring below them
 * @cleared: readings discarded by SEQRING_IOC_CLEAR
 * @oldest_seq: sequence number of the oldest reading held, 0 if none
 * @newest_seq: sequence number of the newest reading held, 0 if none
 * @reserved: zero
 *
 * Nothing is lost silently: @total == @count + @dropped + @cleared.
 */
struct seqring_stats {
	__u64 capacity;
	__u64 count;
	__u64 total;
	__u64 dropped;
	__u64 cleared;
	__u64 oldest_seq;
	__u64 newest_seq;
	__u64 reserved;
};

/**
 * struct seqring_record - one reading as read() on /dev/seqring returns it
 * @seq: the reading's sequence number; a gap between two records read in
 *	turn counts the readings this file missed
 * @reading: the reading as it was pushed (label bytes after the NUL zeroed,
 *	a zero timestamp replaced by the time it was stored)
 */
struct seqring_record {
	__u64 seq;
	struct seqring_reading reading;
};

/*
 * 0xB9, numbers 0x00-0x0F. 0xB8 (used up to 0.x) is taken in mainline by
 * uapi/linux/mshv.h and uapi/misc/mrvl_cn10k_dpi.h; 0xB9 is not listed in
 * Documentation/userspace-api/ioctl/ioctl-number.rst (0xBA is liveupdate).
 */
#define SEQRING_IOC_MAGIC	0xB9

/* Push one reading. */
#define SEQRING_IOC_PUSH	_IOW(SEQRING_IOC_MAGIC, 0x01, struct seqring_reading)
/*
 * Push @count readings: all of them, or none if any is invalid. They are
 * published in chunks of 32, in order: a reader may see the first chunks
 * before the rest, and a CLEAR may fall between two chunks.
 */
#define SEQRING_IOC_PUSH_BATCH	_IOW(SEQRING_IOC_MAGIC, 0x02, struct seqring_batch)
/* Read the counters. */
#define SEQRING_IOC_GET_STATS	_IOR(SEQRING_IOC_MAGIC, 0x03, struct seqring_stats)
/* Discard every reading held; sequence numbers go on from where they were. */
#define SEQRING_IOC_CLEAR	_IO(SEQRING_IOC_MAGIC, 0x04)
/*
 * Wake a blocked read() or poll() of this file only once this many
 * readings (a __u32, 1 to the capacity; 1 after open) are unread.
 */
#define SEQRING_IOC_SET_WAKEUP	_IOW(SEQRING_IOC_MAGIC, 0x05, __u32)
/*
 * Resize the ring to a __u32 capacity, 1 to %SEQRING_CAPACITY_MAX; the
 * newest readings that fit are kept. Needs CAP_SYS_ADMIN. A ring that does
 * not fit in the memory available (or the caller's memory cgroup) fails
 * with ENOMEM and is left as it was; it never wakes the OOM killer.
 */
#define SEQRING_IOC_SET_CAPACITY _IOW(SEQRING_IOC_MAGIC, 0x06, __u32)

#endif /* _UAPI_LINUX_SEQRING_H */
