// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the default ring in memory that survives a reboot
 *
 * With a region given at load, /dev/seqring's ring lives in it (persist.c's
 * format: header, meta page, slots, checksums), and what the region held
 * when the module loaded becomes a read-only ring of its own,
 * /dev/seqring.prev: after a panic or a warm reboot, the previous boot's
 * readings; after rmmod and a new load in the same boot, the earlier
 * load's. Where the region comes from:
 *
 *   persist_mem=NAME        a reserve_mem=SIZE:ALIGN:NAME region of the
 *                           kernel command line (6.12 and later, where
 *                           reserve_mem_find_by_name() is exported)
 *   persist_addr=, persist_size=
 *                           a physical range the kernel does not use, as
 *                           ramoops takes it: above mem=, or kept off by
 *                           memmap=SIZE$ADDR (any kernel)
 *
 * The mapping is cacheable (memremap(MEMREMAP_WB)), not write-combined as
 * ramoops' default: producers claim and commit slots with atomic
 * read-modify-writes, which memory mapped write-combined (x86 WC, arm64
 * Normal-NC) does not promise to make atomic, and readers copy slots at
 * cache speed. So the last stores may sit in a CPU's cache when the
 * machine resets. Two notifiers write the region's lines back to memory
 * (arch_wb_cache_pmem(): clwb/clflushopt on x86, DC CVAP on arm64, each
 * by address, so lines dirty in any CPU's cache are written): one at
 * panic, after the other CPUs are stopped, and one at an orderly reboot.
 * QEMU keeps no cache apart from RAM, so the tests cannot show what they
 * save; on hardware, a reset that runs neither (a watchdog's hard reset)
 * may lose the lines written last. Nothing else runs at panic time: every
 * reading is in the region when its push returns.
 *
 * What the next load finds is checked whole (seqring_persist_scan()):
 * anything that is not a complete header of this driver's format, with
 * counters in range, is reported in one message and formatted again; a
 * reading counts only if its slot holds its sequence number and its
 * checksum matches.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "compat.h"
#include "seqring.h"

static char *persist_mem;
module_param(persist_mem, charp, 0444);
MODULE_PARM_DESC(persist_mem,
		 "keep the ring in the reserve_mem= region of this name (6.12 and later)");

static unsigned long persist_addr;
module_param(persist_addr, ulong, 0444);
MODULE_PARM_DESC(persist_addr,
		 "keep the ring in the physical range at this address (with persist_size; above mem= or under memmap=)");

static unsigned long persist_size;
module_param(persist_size, ulong, 0444);
MODULE_PARM_DESC(persist_size, "bytes of the range at persist_addr");

/* The region of the default ring, and the previous boot's ring. */
static struct {
	phys_addr_t phys;
	size_t size;
	struct resource *res;
	void *mem;
	struct seqring *prev;
} seqring_region;

/* Write the region's cache lines back to memory (see the top). */
static int seqring_persist_write_back(struct notifier_block *nb,
				      unsigned long event, void *data)
{
	if (IS_ENABLED(CONFIG_ARCH_HAS_PMEM_API))
		arch_wb_cache_pmem(seqring_region.mem, seqring_region.size);
	return NOTIFY_DONE;
}

static struct notifier_block seqring_panic_nb = {
	.notifier_call	= seqring_persist_write_back,
};

static struct notifier_block seqring_reboot_nb = {
	.notifier_call	= seqring_persist_write_back,
};

/* Where the region is, from the parameters; claims a physical range. */
static int seqring_persist_find(void)
{
	if (persist_mem && (persist_addr || persist_size)) {
		pr_err("persist_mem= or persist_addr= with persist_size=, not both\n");
		return -EINVAL;
	}
	if (persist_mem) {
		phys_addr_t start, size;

		if (!seqring_reserve_mem_find(persist_mem, &start, &size)) {
			pr_err("persist_mem=%s: no such reserve_mem= region%s\n",
			       persist_mem, seqring_have_reserve_mem ? "" :
			       " (this kernel has none a module can find: use persist_addr= and persist_size=)");
			return -ENODEV;
		}
		seqring_region.phys = start;
		seqring_region.size = size;
		return 0;
	}
	if (!persist_addr || !persist_size ||
	    !PAGE_ALIGNED(persist_addr) || !PAGE_ALIGNED(persist_size)) {
		pr_err("persist_addr=%#lx persist_size=%#lx: both needed, page-aligned\n",
		       persist_addr, persist_size);
		return -EINVAL;
	}
	/*
	 * Memory the kernel allocates from would be overwritten by both: a
	 * range of System RAM is refused (mem= or memmap=SIZE$ADDR takes it
	 * out first).
	 */
	if (region_intersects(persist_addr, persist_size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("persist_addr=%#lx persist_size=%#lx: the range is the kernel's RAM; keep the kernel off it with mem= or memmap=SIZE$ADDR\n",
		       persist_addr, persist_size);
		return -EINVAL;
	}
	/* Nobody else's: a driver or another module may not have it. */
	seqring_region.res = request_mem_region(persist_addr, persist_size,
						SEQRING_NAME);
	if (!seqring_region.res) {
		pr_err("persist_addr=%#lx persist_size=%#lx: the range is in use\n",
		       persist_addr, persist_size);
		return -EBUSY;
	}
	seqring_region.phys = persist_addr;
	seqring_region.size = persist_size;
	return 0;
}

/* What the load found in the region: one message, whatever it was. */
static void seqring_persist_report(const struct seqring_persist_result *res)
{
	static const char * const what[] = {
		[SEQRING_PERSIST_EMPTY] = "empty (a cold boot, or never used)",
		[SEQRING_PERSIST_NOISE] = "not a seqring ring (no magic)",
		[SEQRING_PERSIST_VERSION_UNKNOWN] = "a format version this driver does not know",
		[SEQRING_PERSIST_BAD_HEADER] = "a damaged header (checksum or sizes)",
		[SEQRING_PERSIST_BAD_META] = "damaged counters",
	};
	const struct seqring_persist_layout *lay = &res->layout;

	if (res->verdict != SEQRING_PERSIST_FOUND) {
		pr_info("region %pa+%#zx: %s; formatted for %u readings\n",
			&seqring_region.phys, seqring_region.size,
			what[res->verdict], lay->capacity);
		return;
	}
	if (res->invalid)
		pr_warn("region %pa+%#zx: previous readings %llu..%llu, %llu intact, %llu damaged or lost (left out)\n",
			&seqring_region.phys, seqring_region.size,
			res->first_seq, res->next_seq - 1, res->valid,
			res->invalid);
	else
		pr_info("region %pa+%#zx: previous readings %llu..%llu, %llu intact\n",
			&seqring_region.phys, seqring_region.size,
			res->first_seq, res->next_seq - 1, res->valid);
}

/*
 * The previous readings as a read-only ring, SEQRING_NAME ".prev", copied
 * out of the region before it is formatted again. Only intact readings;
 * the others are holes.
 */
static struct seqring *
seqring_persist_prev(const struct seqring_persist_result *res)
{
	const struct seqring_persist_layout *lay = &res->layout;
	struct seqring_reading r;
	struct seqring *sr;
	u64 seq;
	int ret;

	sr = seqring_alloc("", lay->capacity);
	if (IS_ERR(sr))
		return sr;
	/* No ring of a driver can have it: their names have no dot. */
	strscpy(sr->name, SEQRING_PREV_SUFFIX, sizeof(sr->name));
	snprintf(sr->devname, sizeof(sr->devname), "%s%s", SEQRING_NAME,
		 SEQRING_PREV_SUFFIX);
	for (seq = res->first_seq; seq < res->next_seq; seq++) {
		if (seqring_persist_reading(seqring_region.mem, lay, seq, &r))
			seqring_ring_restore(&sr->ring, seq, &r);
		if (!(seq % 4096))
			cond_resched();
	}
	seqring_ring_freeze(&sr->ring, res->first_seq, res->next_seq);
	ret = seqring_register(sr);
	if (ret) {
		seqring_put(sr);
		return ERR_PTR(ret);
	}
	return sr;
}

/*
 * Undo what seqring_persist_open() did before its notifiers: the previous
 * boot's ring, the mapping, the claim on the range; each only if made.
 */
static void seqring_persist_release(void)
{
	if (seqring_region.prev) {
		seqring_unregister(seqring_region.prev);
		seqring_put(seqring_region.prev);
		seqring_region.prev = NULL;
	}
	if (seqring_region.mem) {
		memunmap(seqring_region.mem);
		seqring_region.mem = NULL;
	}
	if (seqring_region.res) {
		release_mem_region(seqring_region.phys, seqring_region.size);
		seqring_region.res = NULL;
	}
}

/**
 * seqring_persist_open - the default ring, in the region the parameters give
 *
 * Maps and checks the region, makes /dev/seqring.prev of the readings it
 * held, formats it again (sequence numbers go on after the newest intact
 * reading) and sets up a ring in it.
 *
 * Return: the ring (not registered), NULL when no region is given, or an
 * ERR_PTR(): -EINVAL (parameters), -ENODEV (no such region), -EBUSY (the
 * range is in use), -ENOMEM.
 * After a ring is returned, seqring_persist_close() once its last
 * reference is gone.
 */
struct seqring *seqring_persist_open(void)
{
	struct seqring_persist_result res;
	struct seqring *sr;
	int ret;

	if (!persist_mem && !persist_addr && !persist_size)
		return NULL;
	ret = seqring_persist_find();
	if (ret)
		return ERR_PTR(ret);
	seqring_region.mem = memremap(seqring_region.phys, seqring_region.size,
				      MEMREMAP_WB);
	if (!seqring_region.mem) {
		pr_err("region %pa+%#zx: cannot map it\n",
		       &seqring_region.phys, seqring_region.size);
		ret = -ENOMEM;
		goto err_release;
	}
	ret = seqring_persist_scan(seqring_region.mem, seqring_region.size,
				   &res);
	if (ret) {
		pr_err("region %pa+%#zx: too small for a ring (%lu KiB at least)\n",
		       &seqring_region.phys, seqring_region.size,
		       4 * PAGE_SIZE / SZ_1K);
		goto err_release;
	}
	seqring_persist_report(&res);

	if (res.verdict == SEQRING_PERSIST_FOUND && res.valid) {
		seqring_region.prev = seqring_persist_prev(&res);
		if (IS_ERR(seqring_region.prev)) {
			pr_warn("no %s%s (error %ld): the previous readings are dropped\n",
				SEQRING_NAME, SEQRING_PREV_SUFFIX,
				PTR_ERR(seqring_region.prev));
			seqring_region.prev = NULL;
		}
	}
	/*
	 * Numbers go on after the newest intact reading, so that a reader of
	 * both rings never sees one twice. Not from next_seq itself: only a
	 * checksummed reading vouches for a counter, and a damaged one could
	 * start the new ring next to the BUSY bit.
	 */
	seqring_persist_format(seqring_region.mem, &res.layout,
			       res.verdict == SEQRING_PERSIST_FOUND && res.valid ?
			       res.last_valid + 1 : 1);
	sr = seqring_alloc_region(seqring_region.mem, &res.layout);
	if (IS_ERR(sr)) {
		ret = PTR_ERR(sr);
		goto err_release;
	}
	atomic_notifier_chain_register(&panic_notifier_list, &seqring_panic_nb);
	register_reboot_notifier(&seqring_reboot_nb);
	return sr;

err_release:
	seqring_persist_release();
	return ERR_PTR(ret);
}

/**
 * seqring_persist_close - undo seqring_persist_open()
 *
 * After the default ring's last reference is gone; the readings stay in
 * the region for the next load. Nothing when no region was opened.
 */
void seqring_persist_close(void)
{
	if (!seqring_region.mem)
		return;
	unregister_reboot_notifier(&seqring_reboot_nb);
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &seqring_panic_nb);
	/* What the CPUs wrote, in memory before the next load reads it. */
	seqring_persist_write_back(NULL, 0, NULL);
	seqring_persist_release();
}
