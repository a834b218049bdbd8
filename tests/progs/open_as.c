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

#include "identity.h"
#include "tap.h"

int main(int argc, char **argv)
{
	int flags, fd, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: open_as UID GID[,GID...] r|w|rw PATH\n");
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

	ret = become(argv[1], argv[2]);
	if (ret == -2)
		return 2;
	if (ret) {
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
