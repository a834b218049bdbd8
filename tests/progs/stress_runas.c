// SPDX-License-Identifier: GPL-2.0
/*
 * stress_runas - run a program as another user
 *
 * Usage: stress_runas UID GID[,SUPPLEMENTARY_GID...] PROG [ARG...]
 *
 * Sets exactly the listed supplementary groups, then the GID and the UID
 * (which drops every capability when UID is not 0), and executes PROG
 * (looked up in PATH). Exit status: PROG's, or 127 if the identity could not
 * be changed or PROG not run, 2 on misuse.
 */
#include <grp.h>
#include <unistd.h>

#include "tap.h"

#define MAX_GROUPS 16

int main(int argc, char **argv)
{
	gid_t groups[MAX_GROUPS];
	unsigned long uid, gid;
	int ngroups = 0;
	char *p, *end;

	if (argc < 4) {
		fprintf(stderr, "usage: stress_runas UID GID[,GID...] PROG [ARG...]\n");
		return 2;
	}
	uid = strtoul(argv[1], &end, 10);
	if (*end || end == argv[1])
		return 2;
	gid = strtoul(argv[2], &end, 10);
	if (end == argv[2] || (*end && *end != ','))
		return 2;
	for (p = end; *p == ',' && ngroups < MAX_GROUPS; p = end) {
		groups[ngroups++] = strtoul(p + 1, &end, 10);
		if (end == p + 1 || (*end && *end != ','))
			return 2;
	}
	if (setgroups(ngroups, groups) || setgid(gid) || setuid(uid)) {
		fprintf(stderr, "stress_runas: cannot change identity: %s\n",
			errname(errno));
		return 127;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "stress_runas: %s: %s\n", argv[3], errname(errno));
	return 127;
}
