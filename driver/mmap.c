// SPDX-License-Identifier: GPL-2.0
/*
 * seqring - the read-only mapping of a ring
 *
 * mmap(PROT_READ, MAP_SHARED) of a ring's device maps its meta page
 * (struct seqring_mmap_meta, with the ring's own next_seq and oldest_seq:
 * ring.c keeps them there) and then its slot array, whole pages that hold
 * slots only (ring.c allocates them so). A consumer reads the readings
 * where producers store them, with the check lockless readers use in the
 * kernel (the UAPI header gives the protocol; ring.c the ordering).
 *
 * As the in-tree mappings of such rings (ftrace's ring_buffer_map(), the
 * BPF ring buffer): the pages are inserted at mmap() time with
 * vm_insert_pages(), each holding a reference to its page; VM_DONTCOPY
 * (a child of fork() has no mapping, unless madvise(MADV_DOFORK) asked
 * for one: then the child shares the same read-only pages, and its copy
 * is one more mapping, counted by vm_ops->open(); nothing in it can harm
 * the ring, so it is not refused), VM_DONTEXPAND (mremap() cannot grow
 * it past the ring), VM_DONTDUMP (no core dump holds the readings);
 * VM_MAYWRITE and VM_MAYEXEC cleared, so mprotect() cannot make it
 * writable or executable. Not VM_IO nor VM_PFNMAP: these are ordinary
 * pages, which ptrace() and /proc/PID/mem (a debugger) may read.
 *
 * Lifetime: a mapping holds its file, which holds the ring, so the pages
 * stay until munmap() even when the ring is destroyed meanwhile (its meta
 * page then says SEQRING_MMAP_GONE). A resize would replace the slot array
 * a mapping shows: it is refused while ring->mappings, the number of
 * mappings (VMAs) that exist, is not zero. A new mapping is counted under
 * resize_lock, so a resize sees it or it sees the resized array; a VMA
 * split or moved from an existing one is counted by vm_ops->open() while
 * that one still counts, and vm_ops->close() uncounts each.
 */

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "seqring.h"

static void seqring_vm_open(struct vm_area_struct *vma)
{
	struct seqring_ring *ring = vma->vm_private_data;

	atomic_inc(&ring->mappings);
}

static void seqring_vm_close(struct vm_area_struct *vma)
{
	struct seqring_ring *ring = vma->vm_private_data;

	atomic_dec(&ring->mappings);
}

/*
 * No .fault: every page is inserted by seqring_ring_mmap(). An access to
 * one that is no longer there (the owner zapped it with MADV_DONTNEED)
 * gets SIGBUS, as with ftrace's mapping; mapping again brings it back.
 */
static const struct vm_operations_struct seqring_vm_ops = {
	.open	= seqring_vm_open,
	.close	= seqring_vm_close,
};

/* Pages inserted by one vm_insert_pages() call: their array is a page. */
#define SEQRING_MMAP_BATCH	(PAGE_SIZE / sizeof(struct page *))

/* Page @i of the mapping: the meta page, then those of the slot array. */
static struct page *seqring_mmap_page(struct seqring_ring *ring,
				      const struct seqring_slots *slots,
				      unsigned long i)
{
	void *addr;

	if (!i)
		return virt_to_page(ring->meta);
	/* One page of slots is the page itself (ring.c), more are vmalloc()'s. */
	addr = (char *)slots->slot + ((i - 1) << PAGE_SHIFT);
	return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) : virt_to_page(addr);
}

/*
 * Insert @k pages at @addr: vm_insert_pages(), but on 5.10 a page charged
 * to a memory cgroup by its PFN, which vm_insert_pages() refuses there
 * (compat.h).
 */
static int seqring_mmap_insert_pages(struct vm_area_struct *vma,
				     unsigned long addr, struct page **pages,
				     unsigned long k)
{
	unsigned long j, left;
	int ret;

	for (j = 0; j < k; j++) {
		if (seqring_page_charged(pages[j]))
			break;
	}
	if (j == k) {
		left = k;
		return vm_insert_pages(vma, addr, pages, &left);
	}
	for (j = 0; j < k; j++, addr += PAGE_SIZE) {
		ret = seqring_page_charged(pages[j]) ?
		      seqring_insert_charged_page(vma, addr, pages[j]) :
		      vm_insert_page(vma, addr, pages[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Insert the @n first pages of the mapping, a page of pointers at a time. */
static int seqring_mmap_insert(struct seqring_ring *ring,
			       const struct seqring_slots *slots,
			       struct vm_area_struct *vma, unsigned long n)
{
	unsigned long i, j, k;
	struct page **pages;
	int ret = 0;

	/* At most a page, for this call only; ENOMEM rather than the OOM killer. */
	pages = kmalloc_array(min_t(unsigned long, n, SEQRING_MMAP_BATCH),
			      sizeof(*pages), SEQRING_GFP_USER | __GFP_NOWARN);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i += k) {
		k = min_t(unsigned long, n - i, SEQRING_MMAP_BATCH);
		for (j = 0; j < k; j++)
			pages[j] = seqring_mmap_page(ring, slots, i + j);
		ret = seqring_mmap_insert_pages(vma,
						vma->vm_start + (i << PAGE_SHIFT),
						pages, k);
		if (ret)
			break;
		cond_resched();
	}
	kfree(pages);
	return ret;
}

/**
 * seqring_ring_mmap - map a ring read-only: its meta page, then its slots
 * @ring: the ring; the caller's file holds it, and so does the mapping
 * @vma: the new mapping, from the mmap file operation (mmap lock held for
 *	writing)
 *
 * Permission is the file's: the core allows a mapping only of a file open
 * for reading, and a shared writable one only of a file open for writing
 * (EACCES before this runs). A mapping shorter than the whole maps its
 * first pages.
 *
 * Return: 0, -EPERM for PROT_WRITE or PROT_EXEC, -EINVAL for MAP_PRIVATE,
 * an offset other than 0 or a length past the slots, -ENODEV once the
 * ring is destroyed, for the previous boot's ring and for a persistent
 * ring in a physical range the kernel does not manage, -ENOMEM, or what
 * vm_insert_pages() returned (the core then unmaps what was inserted).
 */
int seqring_ring_mmap(struct seqring_ring *ring, struct vm_area_struct *vma)
{
	unsigned long n = vma_pages(vma);
	const struct seqring_slots *slots;
	int ret;

	/* The readings are the ring's: nobody writes or runs them. */
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	/*
	 * Private would mean a copy on write; there is nothing to write.
	 * VM_MAYSHARE: VM_SHARED is not set for a file open read-only.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff)
		return -EINVAL;

	/*
	 * Not the previous boot's ring: its holes (readings lost in the
	 * crash) would make a consumer wait for an oldest_seq that never
	 * moves. Not a persistent ring outside the kernel's memory (above
	 * mem=): its pages have no struct page to insert.
	 */
	if (ring->frozen || (ring->crcs && !virt_addr_valid(ring->meta)))
		return -ENODEV;

	mutex_lock(&ring->resize_lock);
	if (READ_ONCE(ring->dead)) {
		ret = -ENODEV;
		goto out_unlock;
	}
	slots = rcu_dereference_protected(ring->slots,
					  lockdep_is_held(&ring->resize_lock));
	if (n > 1 + (slots->size >> PAGE_SHIFT)) {
		ret = -EINVAL;
		goto out_unlock;
	}

	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	ret = seqring_mmap_insert(ring, slots, vma, n);
	if (ret)
		goto out_unlock;

	/* Counted before resize_lock is dropped: a resize now sees it. */
	vma->vm_private_data = ring;
	vma->vm_ops = &seqring_vm_ops;
	atomic_inc(&ring->mappings);
out_unlock:
	mutex_unlock(&ring->resize_lock);
	return ret;
}
