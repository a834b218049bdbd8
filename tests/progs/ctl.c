// SPDX-License-Identifier: GPL-2.0
/*
 * ctl - write a command to a control file and say how the write ended
 *
 * Usage: ctl PATH TEXT
 *
 * Opens PATH write-only and writes TEXT in one write(2), as the debugfs
 * control files of the test modules (tests/kmod/) want it, and prints "ok"
 * or the errno's name (EINVAL, EEXIST, ...) that open or write failed
 * with: the shell's echo says only strerror(), and not for open. Exit
 * status 0 either way, 2 on misuse.
 */
#include <fcntl.h>
#include <unistd.h>

#include "tap.h"

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: ctl PATH TEXT\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0)
		printf("%s\n", errname(errno));
	else if ((size_t)n != len)
		printf("short write %zd of %zu\n", n, len);
	else
		printf("ok\n");
	close(fd);
	return 0;
}
