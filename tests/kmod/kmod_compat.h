/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences of the test modules in tests/kmod/ (the
 * driver's own are in driver/compat.h). Feature tests come from Kbuild,
 * made on the kernel tree built against.
 */
#ifndef _SEQRING_KMOD_COMPAT_H
#define _SEQRING_KMOD_COMPAT_H

#include <linux/hrtimer.h>

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

#endif /* _SEQRING_KMOD_COMPAT_H */
