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

#include "opts.h"
#include "tap.h"

int main(int argc, char **argv)
{
	const char *path = "/dev/seqring";
	unsigned long k = 0, i;
	bool rdonly = false;
	int fd, first;
	const struct opt opts[] = {
		{ 'r', OPT_SET, &rdonly }, { 'n', OPT_UL, &k },
	};

	first = opts_parse(argc, argv, opts, OPTS_NR(opts),
			   "hold_open [-r] [-n K] [PATH]");
	if (first < argc)
		path = argv[first];

	fd = open(path, rdonly ? O_RDONLY : O_RDWR);
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
