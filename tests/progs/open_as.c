// SPDX-License-Identifier: GPL-2.0
/*
 * open_as - try to open a file as another user
 *
 * Usage: open_as UID GID[,SUPPLEMENTARY_GID...] r|w|rw PATH
 *
 * Sets the supplementary groups (exactly the listed extra GIDs), the GID
 * and the UID (dropping every capability), then opens PATH. Prints "ok" or
 * the errno name (e.g. EACCES). Exit status: 0 opened, 1 open failed,
 * 2 usage error or could not change identity.
 */
#include <fcntl.h>
#include <grp.h>
#include <unistd.h>

#include "tap.h"

#define MAX_GROUPS 16

int main(int argc, char **argv)
{
	gid_t groups[MAX_GROUPS];
	unsigned long uid, gid;
	int ngroups = 0, flags, fd;
	char *p, *end;

	if (argc != 5) {
		fprintf(stderr, "usage: open_as UID GID[,GID...] r|w|rw PATH\n");
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
	if (!strcmp(argv[3], "r"))
		flags = O_RDONLY;
	else if (!strcmp(argv[3], "w"))
		flags = O_WRONLY;
	else if (!strcmp(argv[3], "rw"))
		flags = O_RDWR;
	else
		return 2;

	if (setgroups(ngroups, groups) || setgid(gid) || setuid(uid)) {
		printf("cannot change identity: %s\n", errname(errno));
		return 2;
	}
	fd = open(argv[4], flags);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	close(fd);
	printf("ok\n");
	return 0;
}
