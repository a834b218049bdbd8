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
 * 5.10 marks a page charged to a memory cgroup (allocated with
 * __GFP_ACCOUNT by a task outside the root cgroup: a module loaded by a
 * systemd unit with MemoryAccounting=, a ring a driver creates there) with
 * the page type PageKmemcg, and vm_insert_page() refuses every page with
 * a type (EINVAL). 5.11 moved the mark into page->memcg_data, where
 * nothing refuses it. On 5.10, such a page is mapped by its PFN instead
 * (a special entry of a VM_MIXEDMAP mapping, as vm_insert_pages() makes
 * them), which maps the same memory; ptrace() and /proc/PID/mem cannot
 * read those entries. PG_kmemcg, the type's value, is a macro of 5.10's
 * <linux/page-flags.h> only.
 */
#include <linux/mm.h>
#ifdef PG_kmemcg
#include <linux/pfn_t.h>

#define seqring_page_charged(page)	PageKmemcg(page)

static inline int seqring_insert_charged_page(struct vm_area_struct *vma,
					      unsigned long addr,
					      struct page *page)
{
	vm_fault_t ret;

	/* What vm_insert_page() sets; vmf_insert_mixed() wants it set. */
	vma->vm_flags |= VM_MIXEDMAP;
	ret = vmf_insert_mixed(vma, addr, page_to_pfn_t(page));

	if (ret == VM_FAULT_NOPAGE)
		return 0;
	return ret == VM_FAULT_OOM ? -ENOMEM : -EFAULT;
}
#else
#define seqring_page_charged(page)	false

static inline int seqring_insert_charged_page(struct vm_area_struct *vma,
					      unsigned long addr,
					      struct page *page)
{
	return -EINVAL;
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
 * BPF kfuncs of a module: register_btf_kfunc_id_set() came with 5.18
 * (Kbuild looks for it in <linux/btf.h>); 5.10 has none, and the module
 * loads without them (bpf.c says so).
 */
#ifdef SEQRING_HAVE_KFUNCS
#include <linux/btf.h>
#include <linux/btf_ids.h>

/*
 * 6.8 (and stable 6.6.x) wants a kfunc set marked as one
 * (BTF_KFUNCS_START); before, a plain set8 is what the kernel takes.
 */
#ifndef BTF_KFUNCS_START
#define BTF_KFUNCS_START(name)	BTF_SET8_START(name)
#define BTF_KFUNCS_END(name)	BTF_SET8_END(name)
#endif

/*
 * __bpf_kfunc (6.2) keeps a kfunc out of line (and so in BTF); before,
 * the same by hand. (The kfuncs' prototypes are in seqring.h, for W=1.)
 */
#ifndef __bpf_kfunc
#define __bpf_kfunc noinline
#endif

/*
 * 6.16 made every kfunc's pointer arguments trusted and dropped the flag
 * that asked for it.
 */
#ifndef KF_TRUSTED_ARGS
#define KF_TRUSTED_ARGS		0
#endif
#endif /* SEQRING_HAVE_KFUNCS */

#endif /* _SEQRING_COMPAT_H */
