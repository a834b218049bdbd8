// SPDX-License-Identifier: GPL-2.0
/*
 * getstats - print SEQRING_IOC_GET_STATS as "key: value" lines
 *
 * Usage: getstats [DEV]
 *
 * Opens the device read-only. Keys, in struct order: capacity, count, total,
 * dropped, cleared, oldest_seq, newest_seq, lost.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/seqring";
	struct seqring_stats st;
	int fd;

	fd = open(dev, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "getstats: open %s: %s\n", dev, errname(errno));
		return 1;
	}
	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st)) {
		fprintf(stderr, "getstats: GET_STATS: %s\n", errname(errno));
		return 1;
	}
	close(fd);
	printf("capacity: %llu\n", (unsigned long long)st.capacity);
	printf("count: %llu\n", (unsigned long long)st.count);
	printf("total: %llu\n", (unsigned long long)st.total);
	printf("dropped: %llu\n", (unsigned long long)st.dropped);
	printf("cleared: %llu\n", (unsigned long long)st.cleared);
	printf("oldest_seq: %llu\n", (unsigned long long)st.oldest_seq);
	printf("newest_seq: %llu\n", (unsigned long long)st.newest_seq);
	printf("lost: %llu\n", (unsigned long long)st.lost);
	return 0;
}
