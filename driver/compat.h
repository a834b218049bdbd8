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

#include <linux/atomic.h>
#include <linux/mmdebug.h>	/* VM_BUG_ON() in cmpxchg_double() */
#include <linux/types.h>
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
 * A fully ordered compare-and-exchange of two adjacent u64s, 16-byte
 * aligned: the ring's producers reserve sequence numbers and a time stamp
 * together with it, lock-free. try_cmpxchg128() came with 6.5 and
 * replaced cmpxchg_double() (gone in 6.6); both exist only where the CPU
 * may have the instruction (x86-64 with CMPXCHG16B, arm64, s390, riscv64
 * with Zacas), and system_has_cmpxchg128() (_double() before) tells at run
 * time whether it does (the driver builds for 64-bit kernels only).
 * Elsewhere (ppc64el, riscv64 without Zacas) seqring_has_cmpxchg_pair() is
 * false and the ring takes a raw spinlock instead; SEQRING_RESERVE_LOCK=y
 * (Kbuild) makes it so anywhere, so that the tests can run that path.
 */
#if !defined(SEQRING_RESERVE_LOCK) && defined(system_has_cmpxchg128)
#define seqring_has_cmpxchg_pair()	system_has_cmpxchg128()
static __always_inline bool seqring_try_cmpxchg_pair(u64 *p, u64 *old,
						     u64 new0, u64 new1)
{
	union { u128 full; u64 w[2]; } o = { .w = { old[0], old[1] } },
				       n = { .w = { new0, new1 } };

	if (try_cmpxchg128((u128 *)p, &o.full, n.full))
		return true;
	old[0] = o.w[0];
	old[1] = o.w[1];
	return false;
}
#elif !defined(SEQRING_RESERVE_LOCK) && defined(system_has_cmpxchg_double)
#define seqring_has_cmpxchg_pair()	system_has_cmpxchg_double()
static __always_inline bool seqring_try_cmpxchg_pair(u64 *p, u64 *old,
						     u64 new0, u64 new1)
{
	if (cmpxchg_double(&p[0], &p[1], old[0], old[1], new0, new1))
		return true;
	/* A failed cmpxchg_double() does not say what it found. */
	old[0] = READ_ONCE(p[0]);
	old[1] = READ_ONCE(p[1]);
	return false;
}
#else
#define seqring_has_cmpxchg_pair()	false
static __always_inline bool seqring_try_cmpxchg_pair(u64 *p, u64 *old,
						     u64 new0, u64 new1)
{
	return false;
}
#endif

#endif /* _SEQRING_COMPAT_H */
