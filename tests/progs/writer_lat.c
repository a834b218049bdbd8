// SPDX-License-Identifier: GPL-2.0
/*
 * writer_lat - time one CLEAR or one resize
 *
 * Usage: writer_lat clear [DEV]
 *        writer_lat capacity N [DEV]
 *
 * Issues SEQRING_IOC_CLEAR, or SEQRING_IOC_SET_CAPACITY with N, on an
 * O_RDWR file of DEV (default /dev/seqring) and prints "us=MICROSECONDS"
 * for the ioctl alone. Exit status 1 if it failed, 2 on misuse.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/seqring";
	bool clear = argc >= 2 && !strcmp(argv[1], "clear");
	__u32 cap = 0;
	long long t0;
	int fd, ret;

	if (clear && argc <= 3) {
		if (argc == 3)
			dev = argv[2];
	} else if (argc >= 3 && argc <= 4 && !strcmp(argv[1], "capacity")) {
		cap = (__u32)strtoul(argv[2], NULL, 10);
		if (argc == 4)
			dev = argv[3];
	} else {
		fprintf(stderr, "usage: writer_lat clear [DEV] | capacity N [DEV]\n");
		return 2;
	}
	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "writer_lat: open %s: %s\n", dev, errname(errno));
		return 1;
	}
	t0 = now_us();
	ret = clear ? ioctl(fd, SEQRING_IOC_CLEAR) :
		      ioctl(fd, SEQRING_IOC_SET_CAPACITY, &cap);
	if (ret) {
		fprintf(stderr, "writer_lat: %s: %s\n", argv[1], errname(errno));
		return 1;
	}
	printf("us=%lld\n", now_us() - t0);
	close(fd);
	return 0;
}
