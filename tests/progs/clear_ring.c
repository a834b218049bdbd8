// SPDX-License-Identifier: GPL-2.0
/*
 * clear_ring - SEQRING_IOC_CLEAR through an O_RDWR fd
 *
 * Usage: clear_ring [DEV]
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/seqring";
	int fd;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "clear_ring: open %s: %s\n", dev, errname(errno));
		return 1;
	}
	if (ioctl(fd, SEQRING_IOC_CLEAR)) {
		fprintf(stderr, "clear_ring: CLEAR: %s\n", errname(errno));
		return 1;
	}
	close(fd);
	return 0;
}
