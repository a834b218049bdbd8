// SPDX-License-Identifier: GPL-2.0
/*
 * hold_open - open a file, optionally push through it, then wait
 *
 * Usage: hold_open [-r] [-n K] [PATH]
 *
 * Opens PATH (default /dev/seqring) O_RDWR, or O_RDONLY with -r, pushes K
 * readings (values 1..K, label "hold") through that fd, prints "ready PID"
 * on stdout and then sleeps until a signal kills it. The guest tests use it
 * to keep the device open from a known process (debugfs clients, rmmod).
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

int main(int argc, char **argv)
{
	const char *path = "/dev/seqring";
	unsigned long k = 0, i;
	int flags = O_RDWR;
	int fd, opt;

	while ((opt = getopt(argc, argv, "rn:")) != -1) {
		switch (opt) {
		case 'r':
			flags = O_RDONLY;
			break;
		case 'n':
			k = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: hold_open [-r] [-n K] [PATH]\n");
			return 2;
		}
	}
	if (optind < argc)
		path = argv[optind];

	fd = open(path, flags);
	if (fd < 0) {
		printf("error open %s: %s\n", path, errname(errno));
		return 1;
	}
	for (i = 1; i <= k; i++) {
		struct seqring_reading r = { .value = (long long)i };

		strcpy(r.label, "hold");
		if (ioctl(fd, SEQRING_IOC_PUSH, &r)) {
			printf("error PUSH %lu: %s\n", i, errname(errno));
			return 1;
		}
	}
	printf("ready %ld\n", (long)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
