// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the format of a ring kept in memory that survives a reboot
 *
 * A persistent ring lives in a region of physical memory that the next
 * kernel leaves alone (a reserve_mem= region, or a range above mem=). Its
 * layout, in pages (PAGE_SIZE of the kernel that wrote it, which the
 * header records):
 *
 *   page 0          struct seqring_persist_header
 *   page 1          the ring's meta page, as a mapping shows it (struct
 *                   seqring_mmap_meta: next_seq and oldest_seq live here)
 *   pages 2..       the slot array (struct seqring_slot), whole pages
 *   then            one crc32 per slot, whole pages
 *
 * Everything in the region is hostile input when a kernel finds it: the
 * previous boot may have died in the middle of a store, its last cache
 * lines may never have reached memory, the firmware or the early boot may
 * have written over part of it, and a cold boot leaves zeroes or noise.
 * seqring_persist_scan() therefore trusts nothing it reads: every size is
 * checked against the region's own and the layout recomputed from it,
 * every index it derives is reduced modulo a capacity it checked, the
 * counters are bounded far below the BUSY bit (SEQRING_PERSIST_SEQ_MAX),
 * and a reading counts only when its slot holds exactly its sequence
 * number (not BUSY), the slot's crc32 matches, and a push could have made
 * it (flags zero, the label NUL-terminated, zero after the NUL). What is
 * valid is kept; the rest is counted, as lost or refused, never shown.
 *
 * A crc32 is no authentication: whoever can write the region (the
 * previous kernel after memory corruption, firmware, a device doing DMA,
 * root through /dev/mem) can write checksums that match. So nothing after
 * the checksums trusts more than before them: a forged region that checks
 * out can make the driver show readings that a push could have made, in
 * the numbers the bound allows, and nothing else (doc/design.md, "Threat
 * model"; tests/progs/forge.c builds such regions).
 *
 * This file knows the format only: no ring, no lock, no allocation, so
 * that KUnit can feed it any bytes (tests/kunit/persist_test.c).
 */

#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "compat.h"
#include "seqring.h"

/**
 * seqring_persist_crc - the checksum of a slot holding @r as @seq
 * @seq: the sequence number, as the slot's seq word holds it once stored
 * @r: the reading
 *
 * The seq word is part of what it covers, so that a slot whose reading is
 * from one push and whose seq word is from another does not pass. The
 * same bytes as the slot itself (seq, then the reading, no padding).
 *
 * Return: the crc32.
 */
u32 seqring_persist_crc(u64 seq, const struct seqring_reading *r)
{
	return crc32_le(crc32_le(~0U, (const u8 *)&seq, sizeof(seq)),
			(const u8 *)r, sizeof(*r));
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_crc);

static_assert(offsetof(struct seqring_slot, r) == sizeof(u64));

/**
 * seqring_persist_layout - where everything is in a region of @size bytes
 * @size: bytes of the region
 * @lay: filled on success
 *
 * The capacity is the largest that fits: the header and meta pages, the
 * slots and their checksums, each part in whole pages.
 *
 * Return: 0, or -EINVAL if @size is not a multiple of the page size or
 * holds fewer than one slot (or more than %SEQRING_CAPACITY_MAX).
 */
int seqring_persist_layout(size_t size, struct seqring_persist_layout *lay)
{
	const size_t per_slot = sizeof(struct seqring_slot) + sizeof(u32);
	size_t cap, slots_size, crcs_size;

	if (!size || !PAGE_ALIGNED(size) || size < 4 * PAGE_SIZE)
		return -EINVAL;
	cap = min_t(size_t, (size - 2 * PAGE_SIZE) / per_slot,
		    SEQRING_CAPACITY_MAX);
	/* Rounding each part up to pages may take a few slots back. */
	for (; cap; cap--) {
		slots_size = PAGE_ALIGN(cap * sizeof(struct seqring_slot));
		crcs_size = PAGE_ALIGN(cap * sizeof(u32));
		if (2 * PAGE_SIZE + slots_size + crcs_size <= size)
			break;
	}
	if (!cap)
		return -EINVAL;
	lay->size = size;
	lay->capacity = cap;
	lay->meta_offset = PAGE_SIZE;
	lay->slots_offset = 2 * PAGE_SIZE;
	lay->slots_size = slots_size;
	lay->crcs_offset = 2 * PAGE_SIZE + slots_size;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_layout);

/*
 * Computed as if the magic were there already: seqring_persist_format()
 * writes it last, after the checksum.
 */
static u32 seqring_persist_header_crc(const struct seqring_persist_header *h)
{
	struct seqring_persist_header copy = *h;

	copy.magic = SEQRING_PERSIST_MAGIC;
	copy.header_crc = 0;
	return crc32_le(~0U, (const u8 *)&copy, sizeof(copy));
}

/**
 * seqring_persist_format - make @region an empty persistent ring
 * @region: the region, mapped
 * @lay: its layout (seqring_persist_layout())
 * @next_seq: the sequence number the first reading gets (1, or the one
 *	after the previous ring's newest intact reading, so that no number
 *	is shown twice)
 *
 * Zeroes the meta page, the slots and their checksums, then writes the
 * header. A crash in the middle leaves a region that the next scan finds
 * invalid or empty, never one that shows stale readings as new.
 */
void seqring_persist_format(void *region, const struct seqring_persist_layout *lay,
			    u64 next_seq)
{
	struct seqring_persist_header *h = region;
	struct seqring_mmap_meta *meta = region + lay->meta_offset;

	/* The header first: no valid magic while the rest is rewritten. */
	memset(h, 0, PAGE_SIZE);
	memset(region + lay->meta_offset, 0, lay->size - lay->meta_offset);
	meta->version = SEQRING_MMAP_VERSION;
	meta->meta_size = PAGE_SIZE;
	meta->slot_size = sizeof(struct seqring_slot);
	meta->capacity = lay->capacity;
	meta->slots_offset = PAGE_SIZE;
	meta->slots_size = lay->slots_size;
	meta->next_seq = next_seq;
	meta->oldest_seq = next_seq;

	h->version = SEQRING_PERSIST_VERSION;
	h->page_size = PAGE_SIZE;
	h->region_size = lay->size;
	h->capacity = lay->capacity;
	h->slot_size = sizeof(struct seqring_slot);
	h->header_crc = seqring_persist_header_crc(h);
	/* Last: a header with the magic is a complete one. */
	wmb();
	WRITE_ONCE(h->magic, SEQRING_PERSIST_MAGIC);
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_format);

/**
 * seqring_persist_store - the checksum of a slot a producer just filled,
 *	as seqring_ring_store() writes it (for the KUnit tests' regions)
 * @region: the region
 * @lay: its layout
 * @seq: the reading's sequence number (the slot's seq word once stored)
 * @slot: the slot, its reading copied, its seq word not yet released
 *
 * Written before the release of the slot's seq word: a reader (or the
 * next boot) that sees the seq word sees the checksum of that reading.
 */
void seqring_persist_store(void *region, const struct seqring_persist_layout *lay,
			   u64 seq, const struct seqring_slot *slot)
{
	u32 *crcs = region + lay->crcs_offset;

	WRITE_ONCE(crcs[seq % lay->capacity], seqring_persist_crc(seq, &slot->r));
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_store);

/*
 * Could a push have made @r? The check a push makes (ring.c): flags zero,
 * the label NUL-terminated within its bytes; and a push zeroes the bytes
 * after the NUL, so a reading with any of them set was not pushed either.
 * Whatever reads a reading relies on this: the listing prints the label as
 * a C string.
 */
static bool seqring_persist_pushable(const struct seqring_reading *r)
{
	const char *nul = memchr(r->label, 0, sizeof(r->label));

	return !r->flags && nul &&
	       !memchr_inv(nul, 0, r->label + sizeof(r->label) - nul);
}

/**
 * seqring_persist_reading - one reading of a region found at boot
 * @region: the region
 * @lay: its layout (as seqring_persist_scan() checked it)
 * @seq: the sequence number wanted
 * @out: the reading, if intact
 *
 * Reads only inside the region, whatever it holds.
 *
 * Return: %SEQRING_PERSIST_INTACT (and @out) if the slot of @seq holds
 * exactly @seq, not busy, its checksum matches and a push could have made
 * the reading; %SEQRING_PERSIST_REFUSED if all but the last hold;
 * %SEQRING_PERSIST_DAMAGED if only the checksum fails;
 * %SEQRING_PERSIST_ABSENT if the slot holds another number.
 */
enum seqring_persist_slot
seqring_persist_reading(const void *region,
			const struct seqring_persist_layout *lay, u64 seq,
			struct seqring_reading *out)
{
	const struct seqring_slot *slots = region + lay->slots_offset;
	const u32 *crcs = region + lay->crcs_offset;
	u32 idx = seq % lay->capacity;
	struct seqring_slot copy;

	/* One copy: the region may be anything, but not changing under us. */
	memcpy(&copy, &slots[idx], sizeof(copy));
	if (copy.seq != seq)
		return SEQRING_PERSIST_ABSENT;
	if (seqring_persist_crc(copy.seq, &copy.r) != crcs[idx])
		return SEQRING_PERSIST_DAMAGED;
	if (!seqring_persist_pushable(&copy.r))
		return SEQRING_PERSIST_REFUSED;
	*out = copy.r;
	return SEQRING_PERSIST_INTACT;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_reading);

/**
 * seqring_persist_scan - what a region holds from the previous boot
 * @region: the region, mapped
 * @size: its bytes
 * @res: filled: the verdict, and for %SEQRING_PERSIST_FOUND the layout,
 *	the range of sequence numbers the previous ring held, and how many
 *	of them are intact, lost or refused
 *
 * Never reads outside [@region, @region + @size), whatever the region
 * holds; looks at one capacity of sequence numbers, no more. Process
 * context (it may reschedule).
 *
 * Return: 0, or -EINVAL if @size cannot hold a ring at all.
 */
int seqring_persist_scan(const void *region, size_t size,
			 struct seqring_persist_result *res)
{
	const struct seqring_persist_header *h = region;
	const struct seqring_mmap_meta *meta;
	u64 next, oldest, seq, cap, refused_high = 0, refused_in = 0;
	struct seqring_reading r;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = seqring_persist_layout(size, &res->layout);
	if (ret)
		return ret;
	cap = res->layout.capacity;

	if (h->magic != SEQRING_PERSIST_MAGIC) {
		res->verdict = memchr_inv(region, 0, PAGE_SIZE) ?
			       SEQRING_PERSIST_NOISE : SEQRING_PERSIST_EMPTY;
		return 0;
	}
	if (h->version != SEQRING_PERSIST_VERSION) {
		res->verdict = SEQRING_PERSIST_VERSION_UNKNOWN;
		return 0;
	}
	/* Every field, the reserved one too: the format writes it zero. */
	if (h->header_crc != seqring_persist_header_crc(h) ||
	    h->page_size != PAGE_SIZE || h->region_size != size ||
	    h->capacity != cap || h->slot_size != sizeof(struct seqring_slot) ||
	    h->reserved) {
		res->verdict = SEQRING_PERSIST_BAD_HEADER;
		return 0;
	}

	/*
	 * The counters are the only words of the meta page read here: the
	 * others (layout, flags) are the format's, which writes them again.
	 * Sequence numbers start at 1 and stay at or below
	 * SEQRING_PERSIST_SEQ_MAX (seqring.h says why).
	 */
	meta = region + res->layout.meta_offset;
	next = READ_ONCE(meta->next_seq);
	oldest = READ_ONCE(meta->oldest_seq);
	if (!next || !oldest || next > SEQRING_PERSIST_SEQ_MAX ||
	    oldest > SEQRING_PERSIST_SEQ_MAX) {
		res->verdict = SEQRING_PERSIST_BAD_META;
		return 0;
	}

	/*
	 * What the ring held: at most a capacity's worth, from oldest_seq
	 * (or one capacity below next_seq, if that is later). A producer
	 * raises oldest_seq past what it will overwrite before it claims a
	 * slot, so every number reserved is below oldest_seq + capacity:
	 * the scan looks at [first, first + capacity), one number per slot.
	 * Below next_seq everything was published. At or above it are
	 * readings stored but not yet published when the machine stopped:
	 * a producer stopped in the middle of a store holds back the publish
	 * of every later one, whose pushes may have returned, and a publish
	 * that reached its bound leaves the rest to an irq_work that may
	 * never have run. Those that are intact are kept too: the ring held
	 * [first, end), end past the newest intact one, the gaps lost.
	 */
	res->verdict = SEQRING_PERSIST_FOUND;
	res->next_seq = next;
	res->first_seq = max(oldest, next > cap ? next - cap : 1);
	for (seq = res->first_seq; seq < res->first_seq + cap; seq++) {
		switch (seqring_persist_reading(region, &res->layout, seq, &r)) {
		case SEQRING_PERSIST_INTACT:
			res->valid++;
			res->last_valid = seq;
			/* Refused ones below it are inside the range. */
			refused_in += refused_high;
			refused_high = 0;
			break;
		case SEQRING_PERSIST_REFUSED:
			res->refused++;
			if (seq < next)
				refused_in++;
			else
				refused_high++;
			break;
		default:
			break;
		}
		if (!(seq % 4096))
			cond_resched();
	}
	res->end_seq = res->valid ? max(next, res->last_valid + 1) : next;
	/* oldest_seq above next_seq and nothing after: nothing was held. */
	res->first_seq = min(res->first_seq, res->end_seq);
	res->lost = res->end_seq - res->first_seq - res->valid - refused_in;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(seqring_persist_scan);
