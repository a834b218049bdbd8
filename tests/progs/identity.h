/* SPDX-License-Identifier: GPL-2.0 */
/*
 * identity.h - become another user, for the permission tests
 *
 * Shared by open_as and stress_runas.
 */
#ifndef _SEQRING_IDENTITY_H
#define _SEQRING_IDENTITY_H

#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

#define IDENTITY_MAX_GROUPS 16

/**
 * become - switch to a user and an exact list of groups
 * @uid: decimal UID
 * @gids: decimal GID, then optional ",GID" supplementary groups
 *
 * Sets the supplementary groups, the GID and last the UID, which drops
 * every capability when the UID is not 0.
 *
 * Return: 0; -1 with errno set if a change failed; -2 if the arguments
 * are not numbers.
 */
static inline int become(const char *uid, const char *gids)
{
	gid_t groups[IDENTITY_MAX_GROUPS];
	unsigned long u, g;
	int ngroups = 0;
	char *p, *end;

	u = strtoul(uid, &end, 10);
	if (*end || end == uid)
		return -2;
	g = strtoul(gids, &end, 10);
	if (end == gids || (*end && *end != ','))
		return -2;
	for (p = end; *p == ','; p = end) {
		if (ngroups == IDENTITY_MAX_GROUPS)
			return -2;
		groups[ngroups++] = strtoul(p + 1, &end, 10);
		if (end == p + 1 || (*end && *end != ','))
			return -2;
	}
	if (setgroups(ngroups, groups) || setgid(g) || setuid(u))
		return -1;
	return 0;
}

#endif /* _SEQRING_IDENTITY_H */
