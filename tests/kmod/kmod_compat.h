/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences of the test modules in tests/kmod/ (the
 * driver's own are in driver/compat.h). Feature tests come from Kbuild,
 * made on the kernel tree built against.
 */
#ifndef _SEQRING_KMOD_COMPAT_H
#define _SEQRING_KMOD_COMPAT_H

#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>

/*
 * 6.13 added hrtimer_setup(), which sets the callback with the rest; the
 * newest kernels have no hrtimer_init() any more.
 */
#ifndef SEQRING_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * The reserve_mem= region NAME: its physical range, or -ENOENT. 6.12
 * exported reserve_mem_find_by_name() (6.11 had it unexported); before,
 * there is no such region.
 */
static inline int seqring_kmod_reserve_mem(const char *name, unsigned long *phys,
					   unsigned long *size)
{
#ifdef SEQRING_HAVE_RESERVE_MEM
	phys_addr_t start, len;

	if (!reserve_mem_find_by_name(name, &start, &len))
		return -ENOENT;
	*phys = start;
	*size = len;
	return 0;
#else
	return -ENOENT;
#endif
}

#endif /* _SEQRING_KMOD_COMPAT_H */
