// SPDX-License-Identifier: GPL-2.0
/*
 * walk - one deep lseek() or pread() on a seq_file, and how it ended
 *
 * Usage: walk [-p] PATH OFFSET [COUNT]
 *
 * Opens PATH read-only, prints "open" (so a test knows the walk is about
 * to start), then lseek()s to OFFSET and read()s up to COUNT bytes (default
 * 1), or with -p pread()s COUNT bytes at OFFSET. A seq_file replays its
 * listing from the start up to OFFSET for either call (traverse()), so
 * this is the walk the guest tests time, kill and unload under. Prints
 *   lseek=RESULT read=RESULT bytes=HEX ms=MS       or
 *   pread=RESULT bytes=HEX ms=MS
 * where RESULT is the call's return value or its errno name, HEX the bytes
 * read (hex, so any byte survives the shell) and MS the time both calls
 * took. Exit status 0 if every call succeeded, 1 if one failed, 2 on misuse.
 */
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define MAX_COUNT	4096

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void print_result(const char *what, long long ret, int err)
{
	if (ret < 0)
		printf("%s=%s ", what, errname(err));
	else
		printf("%s=%lld ", what, ret);
}

int main(int argc, char **argv)
{
	static unsigned char buf[MAX_COUNT];
	unsigned long long off, count = 1;
	bool use_pread = false;
	long long got = 0;
	ssize_t n;
	double t0;
	int fd, opt, i;

	while ((opt = getopt(argc, argv, "p")) != -1) {
		if (opt != 'p')
			goto usage;
		use_pread = true;
	}
	if (argc - optind < 2 || argc - optind > 3)
		goto usage;
	off = strtoull(argv[optind + 1], NULL, 0);
	if (argc - optind == 3)
		count = strtoull(argv[optind + 2], NULL, 0);
	if (count < 1 || count > MAX_COUNT || off > (unsigned long long)INT64_MAX)
		goto usage;

	fd = open(argv[optind], O_RDONLY);
	if (fd < 0) {
		printf("open=%s\n", errname(errno));
		return 1;
	}
	printf("open\n");
	fflush(stdout);

	t0 = now_ms();
	if (use_pread) {
		n = pread(fd, buf, count, (off_t)off);
		print_result("pread", n, errno);
	} else {
		got = lseek(fd, (off_t)off, SEEK_SET);
		print_result("lseek", got, errno);
		n = got < 0 ? -1 : read(fd, buf, count);
		if (got >= 0)
			print_result("read", n, errno);
	}
	printf("bytes=");
	for (i = 0; i < (int)n; i++)
		printf("%02x", buf[i]);
	printf(" ms=%.0f\n", now_ms() - t0);
	return got < 0 || n < 0;

usage:
	fprintf(stderr, "usage: walk [-p] PATH OFFSET [COUNT]\n");
	return 2;
}
