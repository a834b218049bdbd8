/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - differences between the kernels the driver builds for
 *
 * The oldest kernel supported is the one named in the KERNEL_MIN file at
 * the top of the source tree (the build and dkms.conf read it there).
 * Every entry says which kernel changed what. Feature tests (an #ifndef
 * of a macro, a header that Kbuild finds or not) come first; a version check is
 * used only where nothing else can tell, such as a renamed function
 * (`make lint` lets checkpatch accept LINUX_VERSION_CODE in this file only).
 */
#ifndef _SEQRING_COMPAT_H
#define _SEQRING_COMPAT_H

#include <linux/irq_work.h>
#include <linux/version.h>

/*
 * EXPORT_SYMBOL_IF_KUNIT() and its header came with 6.2 (and 6.1.x
 * stable). Before, there is no KUnit test module to export anything to.
 * Kbuild looks for the header (sparse has no __has_include()).
 */
#ifdef SEQRING_HAVE_KUNIT_VISIBILITY_H
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif

/*
 * 5.17 renamed PDE_DATA() to pde_data() (and made it read i_private). It
 * is a function, not a macro, so only the version tells.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 17, 0)
#define pde_data(inode) PDE_DATA(inode)
#endif

/*
 * IRQ_WORK_INIT_HARD() (an irq_work that runs in hard interrupt context on
 * PREEMPT_RT too) is not in 5.10, but in its PREEMPT_RT patches; every
 * irq_work of a kernel without PREEMPT_RT runs there anyway.
 */
#ifdef IRQ_WORK_INIT_HARD
#define seqring_init_irq_work_hard(work, func) \
	(*(work) = IRQ_WORK_INIT_HARD(func))
#else
#define seqring_init_irq_work_hard(work, func) init_irq_work(work, func)
#endif

/*
 * 6.3 made vma->vm_flags read-only and gave vm_flags_set() and
 * vm_flags_clear() to change it (with the mmap lock held for writing, as
 * it is in an mmap file operation). Before, the flags are changed in
 * place. Kbuild looks for the functions in <linux/mm.h>.
 */
#ifndef SEQRING_HAVE_VM_FLAGS_SET
#include <linux/mm_types.h>

static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/*
 * panic_notifier_list moved from <linux/kernel.h> to a header of its own
 * in 5.14. Kbuild looks for the header.
 */
#ifdef SEQRING_HAVE_PANIC_NOTIFIER_H
#include <linux/panic_notifier.h>
#else
#include <linux/kernel.h>
#endif

/*
 * reserve_mem= (6.11) and reserve_mem_find_by_name(), exported from 6.12:
 * Kbuild looks for the declaration. Before, there is no region to find;
 * a physical range (persist_addr=) is the way there.
 */
#ifdef SEQRING_HAVE_RESERVE_MEM
#include <linux/mm.h>

#define seqring_have_reserve_mem	true
#define seqring_reserve_mem_find	reserve_mem_find_by_name
#else
#define seqring_have_reserve_mem	false

static inline int seqring_reserve_mem_find(const char *name,
					   phys_addr_t *start,
					   phys_addr_t *size)
{
	return 0;
}
#endif

/*
 * 6.10 dropped __assign_str()'s second argument (trace events): the
 * source is the one __string() names. Only the version tells.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#define seqring_assign_str(dst, src)	__assign_str(dst, src)
#else
#define seqring_assign_str(dst, src)	__assign_str(dst)
#endif

#endif /* _SEQRING_COMPAT_H */
