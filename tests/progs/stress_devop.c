// SPDX-License-Identifier: GPL-2.0
/*
 * stress_devop - open a file and try operations on it, saying what happened
 *
 * Usage: stress_devop PATH r|w|rw [OP...]
 *
 * Opens PATH read-only, write-only or read-write, then does each OP in
 * turn on that fd: push (SEQRING_IOC_PUSH of one reading, label "perm"),
 * batch (SEQRING_IOC_PUSH_BATCH of two), clear (SEQRING_IOC_CLEAR), stats
 * (SEQRING_IOC_GET_STATS) or read (read() to the end). Prints one line,
 * "open:RESULT OP:RESULT ...", where RESULT is "ok" or the errno name (e.g.
 * "open:EACCES", and then nothing else). Run it as another user through
 * stress_runas. Exit status 0, or 2 on misuse.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

static int do_op(int fd, const char *op)
{
	struct seqring_reading r[2];
	struct seqring_batch b = {
		.readings = (__u64)(uintptr_t)r,
		.count = 2,
	};
	struct seqring_stats st;
	char buf[4096];
	ssize_t n;

	memset(r, 0, sizeof(r));
	strcpy(r[0].label, "perm");
	strcpy(r[1].label, "perm");
	r[1].value = 1;
	if (!strcmp(op, "push"))
		return ioctl(fd, SEQRING_IOC_PUSH, &r[0]) ? errno : 0;
	if (!strcmp(op, "batch"))
		return ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b) ? errno : 0;
	if (!strcmp(op, "clear"))
		return ioctl(fd, SEQRING_IOC_CLEAR) ? errno : 0;
	if (!strcmp(op, "stats"))
		return ioctl(fd, SEQRING_IOC_GET_STATS, &st) ? errno : 0;
	if (!strcmp(op, "read")) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		return n ? errno : 0;
	}
	fprintf(stderr, "stress_devop: unknown operation '%s'\n", op);
	exit(2);
}

int main(int argc, char **argv)
{
	int flags, fd, i, e;

	if (argc < 3) {
		fprintf(stderr, "usage: stress_devop PATH r|w|rw [OP...]\n");
		return 2;
	}
	if (!strcmp(argv[2], "r"))
		flags = O_RDONLY;
	else if (!strcmp(argv[2], "w"))
		flags = O_WRONLY;
	else if (!strcmp(argv[2], "rw"))
		flags = O_RDWR;
	else
		return 2;

	fd = open(argv[1], flags);
	if (fd < 0) {
		printf("open:%s\n", errname(errno));
		return 0;
	}
	printf("open:ok");
	for (i = 3; i < argc; i++) {
		e = do_op(fd, argv[i]);
		printf(" %s:%s", argv[i], e ? errname(e) : "ok");
	}
	printf("\n");
	close(fd);
	return 0;
}
