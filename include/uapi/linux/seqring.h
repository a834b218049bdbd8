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
 * @lost: pushes that stored nothing and failed: the ring was destroyed
 *	(ENODEV), stopped by a broken invariant (EIO), or every slot the push
 *	could take still held a reading another context had not finished
 *	storing (ENOBUFS; see "Producers" below). Zero before 1.2.0, where
 *	this field was reserved
 *
 * Nothing is lost silently: @total == @count + @dropped + @cleared, and a
 * reading that got no sequence number is counted in @lost.
 */
struct seqring_stats {
	__u64 capacity;
	__u64 count;
	__u64 total;
	__u64 dropped;
	__u64 cleared;
	__u64 oldest_seq;
	__u64 newest_seq;
	__u64 lost;
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

/**
 * DOC: mapping
 *
 * mmap(PROT_READ, MAP_SHARED) of a ring's device (/dev/seqring, or a named
 * ring's /dev/seqring-NAME) at offset 0 maps its meta page (struct
 * seqring_mmap_meta, @meta_size bytes) followed by its slot array
 * (@capacity struct seqring_mmap_slot, rounded up to whole pages). The
 * reading with sequence number s lives in slot s % @capacity. A length up
 * to @slots_offset + the slot array's pages may be mapped; a shorter one
 * maps a prefix. Permission is that of reading the device: a file open for
 * reading maps it, whoever its owner.
 *
 * Refused:
 *  - PROT_WRITE with MAP_SHARED on a file open read-only: EACCES, from the
 *    kernel's mmap() itself, before the driver sees it (as for any file).
 *  - PROT_WRITE otherwise (a file open read-write, or MAP_PRIVATE), or
 *    PROT_EXEC: EPERM (as ftrace's mapped ring buffer). The mapping cannot
 *    gain them later: mprotect() to add either is EACCES.
 *  - a file not open for reading (O_WRONLY): EACCES, from mmap() itself.
 *  - MAP_PRIVATE: EINVAL; a private copy would stop following the ring.
 *  - an offset other than 0, or a length past the end: EINVAL.
 *  - mremap() growing the mapping: EFAULT (shrinking and moving work).
 *  - a ring destroyed before mmap(): ENODEV.
 *
 * Behaviour while mapped:
 *  - Resize (SEQRING_IOC_SET_CAPACITY, the sysfs capacity attribute): EBUSY
 *    as long as any mapping of the ring exists, in any process. The slot
 *    array a mapping shows is the ring's own, where producers store; a
 *    resize replaces it. munmap() every mapping, resize, map again.
 *  - SEQRING_IOC_CLEAR: @oldest_seq moves up to @next_seq; the slots keep
 *    their (cleared) readings, which a consumer must skip, since they are
 *    below @oldest_seq.
 *  - Destroying a named ring (its driver calls seqring_destroy(), or the
 *    module is unloaded): @flags gets %SEQRING_MMAP_GONE and no reading is
 *    pushed any more. The pages stay mapped and readable, with the last
 *    readings, until munmap(); the file may be closed before or after.
 *  - fork(): the child has no mapping there (VM_DONTCOPY): reading the
 *    address faults in the child. It maps again if it wants one. After
 *    madvise(MADV_DOFORK) on the mapping, the child has it: the same
 *    read-only pages, one more mapping of the ring (a resize stays EBUSY
 *    until the child unmaps it or exits). Linux 7.2 refuses that
 *    madvise() for the mapping (EINVAL): there no child ever has it.
 *  - munmap() while another thread reads the mapping: that thread faults
 *    (SIGSEGV), as for any mapping; the ring is not affected.
 *  - Core dumps leave the mapping out; ptrace and /proc/PID/mem read it.
 *  - 32-bit programs map the same layout. Every 64-bit word (@next_seq,
 *    @oldest_seq, @flags, a slot's @seq) must be read with one 64-bit load
 *    (C11 atomic_load() where atomic_is_lock_free() says so; on i386 that
 *    needs i586 or later). A load made of a locked cmpxchg8b writes, and
 *    faults on the read-only mapping; two 32-bit loads may tear.
 *
 * Consumer protocol, for a cursor c (the next sequence number wanted). Every
 * load of a word the driver writes while the consumer reads (@flags,
 * @next_seq, @oldest_seq, a slot's @seq, and the reading's own bytes) is a
 * single atomic load: C11 atomic_load_explicit(); the reading's bytes with
 * memory_order_relaxed, as 64-bit and 32-bit words (the driver may be
 * storing them while they are copied; the check below throws such a copy
 * away, but a plain memcpy() of them would be a data race in C11).
 *  1. f = load-acquire(@flags); then n = load-acquire(@next_seq); then
 *     o = load(@oldest_seq). In this order: the acquire of @flags before
 *     @next_seq is what makes a consumer that sees %SEQRING_MMAP_GONE see
 *     the last @next_seq there will ever be. Every reading in [max(c, o), n)
 *     is published. If c < o, o - c readings were lost (overwritten or
 *     cleared): count them, c = o.
 *  2. For s in [c, n): w = load-acquire(slot->seq); if w != s the slot was
 *     overwritten (or is being, %SEQRING_SEQ_BUSY): go to 4. Else copy
 *     slot->reading with relaxed atomic loads, then
 *     atomic_thread_fence(memory_order_acquire), then load slot->seq again
 *     (relaxed): if it is not s the copy may be torn: go to 4. Else the
 *     copy is the reading s; c = s + 1.
 *  3. c == n: if f has %SEQRING_MMAP_GONE, every reading there will be has
 *     been read: the end (never treat GONE as the end before reading up to
 *     the n loaded after it). Otherwise nothing to read: call
 *     SEQRING_IOC_SET_CURSOR(c), then poll() for POLLIN
 *     (SEQRING_IOC_SET_WAKEUP sets how many unread readings wake it), then
 *     go to 1.
 *  4. A failed check: atomic_thread_fence(memory_order_acquire), then go
 *     to 1. The producer that changed the slot had raised @oldest_seq past
 *     s before; the fence makes the reload of step 1 see that, so the
 *     consumer moves on and never waits for a producer.
 * tests/litmus/map-consumer*.litmus prove each of these orderings against
 * the driver's with the Linux-kernel memory model; libseqring's
 * srl_map_*() and the Python module's mapping follow this text.
 */

#define SEQRING_MMAP_VERSION	1

/* Bit 63 of a slot's seq word: a producer is storing the slot. */
#define SEQRING_SEQ_BUSY	(1ULL << 63)

/* struct seqring_mmap_meta.flags */
#define SEQRING_MMAP_GONE	(1ULL << 0)	/* destroyed: no more readings */

/**
 * struct seqring_mmap_meta - page 0 of a ring's mapping; read-only
 * @version: %SEQRING_MMAP_VERSION; consumers refuse any other
 * @meta_size: bytes of the meta page (the kernel's page size)
 * @slot_size: sizeof(struct seqring_mmap_slot), 48
 * @capacity: slots; the reading with sequence number s is in slot
 *	s % @capacity. Never changes while the ring is mapped
 * @slots_offset: offset of slot 0 in the mapping (== @meta_size)
 * @slots_size: bytes of the slot array in the mapping, whole pages:
 *	@slots_offset + @slots_size is the largest length mmap() accepts
 * @flags: %SEQRING_MMAP_GONE
 * @reserved0: zero
 * @next_seq: every reading below it is published: stored, or dropped.
 *	The ring's own counter, which producers advance with a fully
 *	ordered cmpxchg: load it with acquire, before anything it guards
 * @reserved1: zero; keeps @next_seq alone in its cache line (128 bytes)
 * @oldest_seq: sequence number of the oldest reading held; readings below
 *	it are gone. Only ever raised; may be above @next_seq for a moment
 *	(producers raise it before they publish what overwrites), and when
 *	nothing is held. Load it after @next_seq
 * @reserved2: zero
 *
 * The two counters are at fixed offsets 128 and 256, each in a 128-byte
 * line of its own, because they are the very words producers update (no
 * copy is kept for the mapping): lines shared with each other or with
 * constant fields would cost producers more.
 */
struct seqring_mmap_meta {
	__u32 version;
	__u32 meta_size;
	__u32 slot_size;
	__u32 capacity;
	__u64 slots_offset;
	__u64 slots_size;
	__u64 flags;
	__u64 reserved0[11];
	__u64 next_seq;
	__u64 reserved1[15];
	__u64 oldest_seq;
	__u64 reserved2[15];
};

/**
 * struct seqring_mmap_slot - one slot of the mapped array
 * @seq: sequence number of the reading in @reading, ORed with
 *	%SEQRING_SEQ_BUSY while a producer stores it; 0 for a slot that never
 *	held a reading. Written with a release after @reading
 * @reading: the reading, prepared as read() returns it
 *
 * The same layout as struct seqring_record: a copy made by the protocol
 * above is what read() would have returned.
 */
struct seqring_mmap_slot {
	__u64 seq;
	struct seqring_reading reading;
};

/*
 * 0xB9, numbers 0x00-0x0F. 0xB8 (used up to 0.x) is taken in mainline by
 * uapi/linux/mshv.h and uapi/misc/mrvl_cn10k_dpi.h; 0xB9 is not listed in
 * Documentation/userspace-api/ioctl/ioctl-number.rst (0xBA is liveupdate).
 */
#define SEQRING_IOC_MAGIC	0xB9

/**
 * DOC: producers
 *
 * A push never waits: not for a reader, not for another producer, not for
 * a task the scheduler keeps off its CPU. Each reading gets the next
 * sequence number and is stored in its slot with preemption off on that
 * CPU; it is visible to readers as soon as every reading before it is
 * stored (a CPU storing an earlier one holds it back only until it leaves
 * that section, and the interrupts that came in meanwhile return). A push
 * is lossless while the ring has a free slot: a slot is free again once
 * the reading a capacity before it is visible, and every reading being
 * stored at once (at most 32 a push in progress on each CPU, in each of
 * task, softirq, hardirq and NMI context) holds one. When every slot the
 * push could take still holds a reading not yet visible, which needs the
 * ring to be smaller than the readings in flight, or a CPU held in the
 * middle of a push (by interrupts, an NMI storm, a hypervisor) while a
 * capacity's worth of readings is pushed after its own, the push stores
 * nothing rather than wait: it fails with ENOBUFS, and @lost of struct
 * seqring_stats counts it. Older readings are overwritten as usual: that
 * is @dropped, not a failure.
 */

/*
 * Push one reading. EINVAL: flags or a label without a NUL; ENOBUFS: not
 * stored (see "producers"), counted in @lost; ENODEV: the ring is
 * destroyed.
 */
#define SEQRING_IOC_PUSH	_IOW(SEQRING_IOC_MAGIC, 0x01, struct seqring_reading)
/*
 * Push @count readings: all of them, or none if any is invalid. They are
 * published in chunks of 32 (fewer in a ring of less than 64 readings a
 * CPU: the capacity divided by twice the CPUs), in order: a reader may
 * see the first chunks before the rest, and a CLEAR may fall
 * between two chunks. ENOBUFS: readings that found no free slot were not
 * stored (see "producers"; each counted in @lost), the others were;
 * ENODEV: the ring was destroyed before or during the batch, which stopped
 * there.
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
 * with ENOMEM and is left as it was; it never wakes the OOM killer. A ring
 * that is mapped is not resized: EBUSY (see "mapping" above).
 */
#define SEQRING_IOC_SET_CAPACITY _IOW(SEQRING_IOC_MAGIC, 0x06, __u32)
/*
 * Set this file's stream cursor to a __u64 sequence number, clamped to
 * [oldest_seq, next_seq] as they are when it is set, so that poll(), the
 * wake-up threshold (SEQRING_IOC_SET_WAKEUP) and read() go on from where a
 * mapping consumer is. EBADF on a file not open for reading.
 */
#define SEQRING_IOC_SET_CURSOR	_IOW(SEQRING_IOC_MAGIC, 0x07, __u64)

#endif /* _UAPI_LINUX_SEQRING_H */
