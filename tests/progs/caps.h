/* SPDX-License-Identifier: GPL-2.0 */
/*
 * caps.h - give up CAP_SYS_ADMIN, for the tests of what it guards
 *
 * Shared by ioctl_errors (CLEAR) and stream (SET_CAPACITY).
 */
#ifndef _SEQRING_CAPS_H
#define _SEQRING_CAPS_H

#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/types.h>

/**
 * drop_cap_sys_admin - remove CAP_SYS_ADMIN from every set of this process
 *
 * Raw syscalls, as the test programs link no libcap. Reads the sets
 * back, so a caller never runs a test it believes to be unprivileged with
 * the capability still effective.
 *
 * Return: 0 if CAP_SYS_ADMIN is no longer effective, -1 otherwise.
 */
static inline int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i = CAP_TO_INDEX(CAP_SYS_ADMIN);
	__u32 mask = CAP_TO_MASK(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[i].effective &= ~mask;
	data[i].permitted &= ~mask;
	data[i].inheritable &= ~mask;
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	return (data[i].effective & mask) ? -1 : 0;
}

#endif /* _SEQRING_CAPS_H */
