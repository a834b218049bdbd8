// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_ramprobe - does this memory survive a reboot? (make check-crash)
 *
 * The persistent ring (issue 25) keeps its readings in memory that the
 * next kernel does not touch: a range above mem= on 5.10 and 6.1, a
 * reserve_mem= region from 6.12 on. Whether such memory keeps its
 * contents across a panic and the reset that follows is a property of
 * the machine (QEMU, its firmware, the next kernel's early boot), not of
 * the driver; this module measures it, so that the crash tests of the
 * ring can tell a lost reading from lost memory.
 *
 *   insmod seqring_ramprobe.ko phys=ADDR size=BYTES seed=N op=fill
 *	fills [ADDR, ADDR + BYTES) with a pattern derived from N;
 *   insmod seqring_ramprobe.ko phys=ADDR size=BYTES seed=N op=check
 *	compares it, and leaves in the read-only parameters
 *	"words" (8-byte words compared), "differ" (words that differ) and
 *	"first_differ" (byte offset of the first, or -1).
 *   insmod seqring_ramprobe.ko phys=ADDR size=BYTES op=poke offset=OFF value=V
 *	writes the 8-byte word V at ADDR + OFF (a multiple of 8, below
 *	BYTES): what a test crafts or damages in a region, one word a load.
 *   insmod seqring_ramprobe.ko phys=ADDR size=BYTES op=hold
 *	keeps the range mapped until rmmod, as the file
 *	/sys/kernel/debug/seqring_ramprobe/mem: read() and write() at any
 *	offset below BYTES read and write the range, so that a test puts a
 *	whole region there (tests/progs/forge.c's) before seqring.ko loads
 *	over it, as if a previous boot had left it;
 *   insmod seqring_ramprobe.ko region=NAME ...
 *	the same on the reserve_mem= region NAME (kernels that export
 *	reserve_mem_find_by_name(), 6.12 on); phys and size are then set
 *	from it.
 *
 * The range is mapped with memremap(MEMREMAP_WB): cacheable, as the ring
 * will map it. The fill ends with a full barrier only; nothing is flushed
 * before the crash on purpose, because the ring will not get the chance
 * either. Loading never fails because of the contents: the result is in
 * the parameters; it fails with EINVAL for a bad argument and ENOMEM when
 * the range cannot be mapped.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "kmod_compat.h"

static unsigned long phys;
module_param(phys, ulong, 0444);
MODULE_PARM_DESC(phys, "physical address of the range (page aligned)");

static unsigned long size;
module_param(size, ulong, 0444);
MODULE_PARM_DESC(size, "bytes of the range (a multiple of 8)");

static char region[32];
module_param_string(region, region, sizeof(region), 0444);
MODULE_PARM_DESC(region, "name of a reserve_mem= region instead of phys/size");

static unsigned int seed;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "pattern seed");

static char op[8];
module_param_string(op, op, sizeof(op), 0444);
MODULE_PARM_DESC(op, "fill, check, poke or hold");

static unsigned long offset;
module_param(offset, ulong, 0444);
MODULE_PARM_DESC(offset, "poke: byte offset of the word to write");

static unsigned long value;
module_param(value, ulong, 0444);
MODULE_PARM_DESC(value, "poke: the word to write");

static unsigned long words;
module_param(words, ulong, 0444);
MODULE_PARM_DESC(words, "result of check: 8-byte words compared");

static unsigned long differ;
module_param(differ, ulong, 0444);
MODULE_PARM_DESC(differ, "result of check: words that differ");

static long first_differ = -1;
module_param(first_differ, long, 0444);
MODULE_PARM_DESC(first_differ, "result of check: byte offset of the first difference, -1 if none");

/* xorshift64: a different word at every offset, for every seed. */
static u64 pattern(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* op=hold: the range, mapped, and its file. */
static void *held;
static struct dentry *held_dir;

static ssize_t mem_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, held, size);
}

static ssize_t mem_write(struct file *file, const char __user *buf,
			 size_t len, loff_t *ppos)
{
	ssize_t n = simple_write_to_buffer(held, size, ppos, buf, len);

	/* Before the load of the module under test that reads it. */
	mb();
	return n;
}

static const struct file_operations mem_fops = {
	.owner	= THIS_MODULE,
	.read	= mem_read,
	.write	= mem_write,
	.llseek	= default_llseek,
};

static int ramprobe_hold(void)
{
	held = memremap(phys, size, MEMREMAP_WB);
	if (!held)
		return -ENOMEM;
	held_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file_size("mem", 0600, held_dir, NULL, &mem_fops, size);
	pr_info("seqring_ramprobe: holding %lu bytes at %#lx\n", size, phys);
	return 0;
}

static int __init ramprobe_init(void)
{
	u64 state, *p;
	unsigned long i;
	bool poke = !strcmp(op, "poke");
	bool fill;

	if (!strcmp(op, "fill") || poke)
		fill = true;
	else if (!strcmp(op, "check") || !strcmp(op, "hold"))
		fill = false;
	else
		return -EINVAL;

	if (region[0] && seqring_kmod_reserve_mem(region, &phys, &size))
		return -EINVAL;
	if (!size || size % 8 || !PAGE_ALIGNED(phys))
		return -EINVAL;
	if (poke && (offset % 8 || offset >= size))
		return -EINVAL;

	if (!strcmp(op, "hold"))
		return ramprobe_hold();

	p = memremap(phys, size, MEMREMAP_WB);
	if (!p)
		return -ENOMEM;
	if (poke) {
		p[offset / 8] = value;
		/* Before the load of the module under test that reads it. */
		mb();
		memunmap(p);
		pr_info("seqring_ramprobe: poke %#lx at %#lx + %#lx\n", value,
			phys, offset);
		return 0;
	}

	/* Never 0: xorshift would stay 0. */
	state = 0x9e3779b97f4a7c15ULL ^ seed;
	words = size / 8;
	for (i = 0; i < words; i++) {
		u64 want = pattern(&state);

		if (fill) {
			p[i] = want;
		} else if (p[i] != want) {
			if (!differ++)
				first_differ = i * 8;
		}
	}
	if (fill) {
		words = 0;
		/* Ordered before whatever the test does next (the crash). */
		mb();
	}
	memunmap(p);
	pr_info("seqring_ramprobe: %s %lu bytes at %#lx seed %u: %lu of %lu words differ\n",
		op, size, phys, seed, differ, words);
	return 0;
}

static void __exit ramprobe_exit(void)
{
	if (held) {
		debugfs_remove_recursive(held_dir);
		memunmap(held);
	}
}

module_init(ramprobe_init);
module_exit(ramprobe_exit);
MODULE_DESCRIPTION("seqring test: does a range of memory survive a reboot");
MODULE_LICENSE("GPL");
