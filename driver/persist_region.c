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
 * reading counts only if its slot holds its sequence number, its checksum
 * matches and a push could have made it. The counts are in that message
 * and in /sys/kernel/debug/seqring.prev/region.
 *
 * The region is the module's alone: a persist_addr= range is claimed with
 * request_mem_region(); a persist_mem= region, which is the kernel's RAM
 * (where request_mem_region() refuses every range), with a resource of its
 * own under its "System RAM" in /proc/iomem, which insert_resource() puts
 * there only if nothing else claims any of it. ramoops and ftrace's
 * persistent ring buffer claim nothing when they map a reserve_mem=
 * region: a load refuses a region that the kernel command line (or a
 * loaded ramoops) gives one of them too, and a region found holding their
 * data is named in the message.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
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

/*
 * The region of the default ring, and the previous boot's ring.
 * @res: the claim of a persist_addr= range (request_mem_region()), or of
 *	a persist_mem= region (@res_ram: a resource of our own, inserted
 *	under its System RAM)
 * @found: what the load found there (/sys/kernel/debug/seqring.prev/region)
 */
static struct {
	phys_addr_t phys;
	size_t size;
	struct resource *res;
	bool res_ram;
	void *mem;
	struct seqring *prev;
	struct seqring_persist_result found;
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

/*
 * The first line of the file at @path into @buf (@len bytes, NUL
 * terminated); "" when it cannot be read.
 */
static void seqring_read_line(const char *path, char *buf, size_t len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n = 0;

	if (!IS_ERR(f)) {
		n = kernel_read(f, buf, len - 1, &pos);
		filp_close(f, NULL);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Is @s, up to the first of @end (or its end), the name @name? */
static bool seqring_word_is(const char *s, const char *end, const char *name)
{
	size_t len = strcspn(s, end);

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	return len == strlen(name) && !strncmp(s, name, len);
}

/*
 * Who else is given the reserve_mem= region @name: ftrace's persistent
 * ring buffer (trace_instance=INSTANCE@NAME, kernel command line only),
 * ramoops (ramoops.mem_name=NAME on the command line, or the parameter of
 * a ramoops already loaded). Neither claims the region anywhere a module
 * could see, so their parameters are read. NULL if neither.
 */
static const char *seqring_persist_other_user(const char *name)
{
	const char *who = NULL;
	char *buf, *p, *w, *at;

	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return NULL;
	seqring_read_line("/proc/cmdline", buf, PAGE_SIZE);
	for (p = buf; !who && (w = strsep(&p, " \t")); ) {
		if (str_has_prefix(w, "ramoops.mem_name=") &&
		    seqring_word_is(w + strlen("ramoops.mem_name="), "", name))
			who = "ramoops (ramoops.mem_name=)";
		/* INSTANCE[^FLAGS]@NAME[^FLAGS][,EVENTS] */
		if (str_has_prefix(w, "trace_instance=")) {
			w[strcspn(w, ",")] = '\0';
			at = strchr(w, '@');
			if (at && seqring_word_is(at + 1, "^", name))
				who = "ftrace's persistent ring buffer (trace_instance=)";
		}
	}
	if (!who) {
		seqring_read_line("/sys/module/ramoops/parameters/mem_name", buf,
				  PAGE_SIZE);
		if (!strcmp(buf, name))
			who = "ramoops (its mem_name parameter)";
	}
	kfree(buf);
	return who;
}

/*
 * Claim the persist_mem= region: a resource "seqring" right under the
 * System RAM that holds it, nothing else claiming any part of it.
 * insert_resource() would also nest it under another's claim that covers
 * it, or put another's inside it: both are refused after the fact.
 */
static int seqring_persist_claim_ram(void)
{
	const char *who = seqring_persist_other_user(persist_mem);
	struct resource *res;

	if (who) {
		pr_err("persist_mem=%s: the region is given to %s too, and each would overwrite the other: give each a reserve_mem= region of its own\n",
		       persist_mem, who);
		return -EBUSY;
	}
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	res->name = SEQRING_NAME;
	res->start = seqring_region.phys;
	res->end = seqring_region.phys + seqring_region.size - 1;
	res->flags = IORESOURCE_MEM | IORESOURCE_BUSY;
	if (insert_resource(&iomem_resource, res)) {
		kfree(res);
		res = NULL;
	} else if (!res->parent || !(res->parent->flags & IORESOURCE_SYSRAM) ||
		   res->child) {
		remove_resource(res);
		kfree(res);
		res = NULL;
	}
	if (!res) {
		pr_err("persist_mem=%s: the region %pa+%#zx is in use (see /proc/iomem)\n",
		       persist_mem, &seqring_region.phys, seqring_region.size);
		return -EBUSY;
	}
	seqring_region.res = res;
	seqring_region.res_ram = true;
	return 0;
}

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
		/* A mapping maps whole pages; reserve_mem= aligns to 64 bytes. */
		if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(size)) {
			pr_err("persist_mem=%s: the region %pa+%#llx is not in whole pages: give reserve_mem= a size in pages and an alignment of %lu or more\n",
			       persist_mem, &start, (unsigned long long)size,
			       PAGE_SIZE);
			return -EINVAL;
		}
		seqring_region.phys = start;
		seqring_region.size = size;
		return seqring_persist_claim_ram();
	}
	if (!persist_addr || !persist_size ||
	    !PAGE_ALIGNED(persist_addr) || !PAGE_ALIGNED(persist_size) ||
	    persist_addr + persist_size - 1 < persist_addr) {
		pr_err("persist_addr=%#lx persist_size=%#lx: both needed, page-aligned, not past the end of the address space\n",
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

/*
 * Data another facility leaves at the start of a region (the first 32-bit
 * word): a region that held one of them is named as such.
 */
static const char *seqring_persist_foreign(const void *region)
{
	u32 word = *(const u32 *)region;

	/* struct persistent_ram_buffer's sig: "DBGC" (fs/pstore/ram_core.c) */
	if (word == 0x43474244)
		return "; it holds ramoops data (is ramoops given the region too?)";
	/* struct ring_buffer_meta's magic (kernel/trace/ring_buffer.c) */
	if (word == 0xbadfeed)
		return "; it holds an ftrace ring buffer (is ftrace given the region too?)";
	return "";
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
	char lost[64] = "", refused[80] = "";

	if (res->verdict != SEQRING_PERSIST_FOUND) {
		pr_info("region %pa+%#zx: %s%s; formatted for %u readings\n",
			&seqring_region.phys, seqring_region.size,
			what[res->verdict],
			res->verdict == SEQRING_PERSIST_NOISE ?
			seqring_persist_foreign(seqring_region.mem) : "",
			lay->capacity);
		return;
	}
	if (res->lost)
		snprintf(lost, sizeof(lost), ", %llu damaged or lost (left out)",
			 res->lost);
	if (res->refused)
		snprintf(refused, sizeof(refused),
			 ", %llu refused (no push makes them: left out)",
			 res->refused);
	if (res->first_seq == res->end_seq)
		pr_info("region %pa+%#zx: a ring that held no readings (next %llu)%s; formatted for %u readings\n",
			&seqring_region.phys, seqring_region.size,
			res->next_seq, refused, lay->capacity);
	else if (res->lost || res->refused)
		pr_warn("region %pa+%#zx: previous readings %llu..%llu, %llu intact%s%s\n",
			&seqring_region.phys, seqring_region.size,
			res->first_seq, res->end_seq - 1, res->valid, lost,
			refused);
	else
		pr_info("region %pa+%#zx: previous readings %llu..%llu, %llu intact\n",
			&seqring_region.phys, seqring_region.size,
			res->first_seq, res->end_seq - 1, res->valid);
}

/*
 * /sys/kernel/debug/seqring.prev/region: what the load found, in numbers
 * (the message says it in words). Removed with the directory.
 */
static int seqring_region_show(struct seq_file *m, void *unused)
{
	const struct seqring_persist_result *res = &seqring_region.found;

	seq_printf(m, "region: %pa+%#zx\n", &seqring_region.phys,
		   seqring_region.size);
	seq_printf(m, "capacity: %u\n", res->layout.capacity);
	seq_printf(m, "first_seq: %llu\n", res->first_seq);
	seq_printf(m, "end_seq: %llu\n", res->end_seq);
	seq_printf(m, "next_seq: %llu\n", res->next_seq);
	seq_printf(m, "intact: %llu\n", res->valid);
	seq_printf(m, "lost: %llu\n", res->lost);
	seq_printf(m, "refused: %llu\n", res->refused);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(seqring_region);

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
	for (seq = res->first_seq; seq < res->end_seq; seq++) {
		if (seqring_persist_reading(seqring_region.mem, lay, seq, &r) ==
		    SEQRING_PERSIST_INTACT)
			seqring_ring_restore(&sr->ring, seq, &r);
		if (!(seq % 4096))
			cond_resched();
	}
	seqring_ring_freeze(&sr->ring, res->first_seq, res->end_seq);
	ret = seqring_register(sr);
	if (ret) {
		seqring_put(sr);
		return ERR_PTR(ret);
	}
	debugfs_create_file("region", 0444, sr->debugfs_dir, NULL,
			    &seqring_region_fops);
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
	if (seqring_region.res_ram) {
		remove_resource(seqring_region.res);
		kfree(seqring_region.res);
	} else if (seqring_region.res) {
		release_mem_region(seqring_region.phys, seqring_region.size);
	}
	seqring_region.res = NULL;
	seqring_region.res_ram = false;
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
	seqring_region.found = res;

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
