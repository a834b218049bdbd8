// SPDX-License-Identifier: GPL-2.0
/*
 * splice_copy - copy stdin to stdout in the kernel, as cat and cp do
 *
 * Usage: splice_copy sendfile|splice
 *
 * sendfile: sendfile(1, 0, NULL, 16 MiB) until it returns 0, as busybox
 * cat does. One such call may read its input file several times through
 * an internal pipe (splice_direct_to_actor()), and returns what it moved
 * even when one of those reads returned end of file.
 * splice: splice() from stdin into a pipe and from the pipe to stdout,
 * until the first returns 0. Every read of the input is one system call.
 *
 * Exit status 0 at end of file; 1 with "splice_copy: CALL: ERRNAME" on
 * stderr if a call fails (EINVAL: the input has no splice_read, as debugfs
 * files); 2 on misuse.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "tap.h"

#define CHUNK	(16UL << 20)

static int fail(const char *call)
{
	fprintf(stderr, "splice_copy: %s: %s\n", call, errname(errno));
	return 1;
}

static int copy_sendfile(void)
{
	ssize_t n;

	while ((n = sendfile(1, 0, NULL, CHUNK)) > 0)
		;
	return n ? fail("sendfile") : 0;
}

static int copy_splice(void)
{
	ssize_t n, m;
	int p[2];

	if (pipe(p))
		return fail("pipe");
	while ((n = splice(0, NULL, p[1], NULL, CHUNK, 0)) > 0) {
		for (; n > 0; n -= m) {
			m = splice(p[0], NULL, 1, NULL, n, 0);
			if (m <= 0)
				return fail("splice to stdout");
		}
	}
	return n ? fail("splice from stdin") : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "sendfile"))
		return copy_sendfile();
	if (argc == 2 && !strcmp(argv[1], "splice"))
		return copy_splice();
	fprintf(stderr, "usage: splice_copy sendfile|splice\n");
	return 2;
}
