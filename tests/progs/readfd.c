// SPDX-License-Identifier: GPL-2.0
/*
 * readfd - read an inherited fd to its end and say how that ended
 *
 * Usage: readfd FD
 *
 * Reads FD (e.g. 3 after the shell's "exec 3</proc/seqring") until read()
 * returns 0 or fails, discarding the data, and prints "eof BYTES" or
 * "ERRNAME BYTES" (e.g. "EIO 0"). Exit status 0 either way, 2 on misuse.
 */
#include <unistd.h>

#include "tap.h"

int main(int argc, char **argv)
{
	unsigned long long bytes = 0;
	char buf[4096];
	char *end;
	ssize_t n;
	long fd;

	if (argc != 2) {
		fprintf(stderr, "usage: readfd FD\n");
		return 2;
	}
	fd = strtol(argv[1], &end, 10);
	if (*end || end == argv[1] || fd < 0)
		return 2;
	for (;;) {
		n = read((int)fd, buf, sizeof(buf));
		if (n == 0) {
			printf("eof %llu\n", bytes);
			return 0;
		}
		if (n < 0) {
			printf("%s %llu\n", errname(errno), bytes);
			return 0;
		}
		bytes += (unsigned long long)n;
	}
}
