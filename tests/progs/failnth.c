// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - run one operation on the seqring driver with an allocation
 * failure injected at the Nth fault-injection point, for the failslab test
 * of the debug kernel
 *
 * Usage: failnth N OP [ARG...]
 *
 *   load KO [PARAMS]     finit_module(KO, PARAMS)
 *   open PATH r|w|rw     open(2) (the fd is closed after the check)
 *   read PATH            open without injection, then read(2) to EOF
 *   openread PATH        open and read to EOF, both with injection
 *   push DEV             SEQRING_IOC_PUSH of one reading
 *   batch DEV COUNT      SEQRING_IOC_PUSH_BATCH of COUNT readings
 *   stats DEV            SEQRING_IOC_GET_STATS
 *   clear DEV            SEQRING_IOC_CLEAR
 *   capacity DEV N       SEQRING_IOC_SET_CAPACITY to N (DEV opened read-only)
 *   write PATH TEXT      open without injection, then write(2) TEXT
 *
 * N counts the calls to should_fail() of this thread during the operation
 * only (see Documentation/fault-injection/fault-injection.rst, "fail-nth"):
 * failslab and fail_page_alloc calls that pass their debugfs filters (the
 * test turns off ignore-gfp-wait so that GFP_KERNEL allocations count).
 * N = 0 injects nothing. For ioctls on DEV the device is opened before and
 * closed after the injection window.
 *
 * Prints one line, "injected RESULT" or "not-injected RESULT", where RESULT
 * is "ok" or the errno name (ENOMEM, ...), and exits 0. A caller increases
 * N from 1 until it sees "not-injected": then every fault-injection point
 * of the operation has failed once. Exit status 2: usage error; 1: the
 * setup outside the injection window failed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/seqring.h>

#define FAIL_NTH "/proc/thread-self/fail-nth"

static int nth_fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "failnth: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: failnth N load KO [PARAMS] | open PATH r|w|rw | read PATH |\n"
		"       openread PATH | push DEV | batch DEV COUNT | stats DEV | clear DEV |\n"
		"       capacity DEV N | write PATH TEXT\n");
	exit(2);
}

static void set_nth(unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	if (pwrite(nth_fd, buf, len, 0) != len)
		die("write " FAIL_NTH);
}

/* Remaining count: 0 after the failure was injected. */
static unsigned long get_nth(void)
{
	char buf[32];
	ssize_t len = pread(nth_fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		die("read " FAIL_NTH);
	buf[len] = '\0';
	return strtoul(buf, NULL, 10);
}

static int open_mode(const char *m)
{
	if (!strcmp(m, "r"))
		return O_RDONLY;
	if (!strcmp(m, "w"))
		return O_WRONLY;
	if (!strcmp(m, "rw"))
		return O_RDWR;
	print_usage();
	return -1;
}

/* read(2) @fd to end of file; 0 or an errno. */
static int read_all(int fd)
{
	static char buf[8192];
	ssize_t n;

	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0);
	return n < 0 ? errno : 0;
}

int main(int argc, char **argv)
{
	struct seqring_reading *readings = NULL;
	struct seqring_reading reading;
	struct seqring_batch batch;
	struct seqring_stats stats;
	unsigned long n, left;
	__u32 capacity = 0;
	const char *op;
	int fd = -1, err = 0, ret, count = 0;

	if (argc < 4)
		print_usage();
	n = strtoul(argv[1], NULL, 10);
	op = argv[2];

	/* Everything that allocates in userspace happens before arming. */
	memset(&reading, 0, sizeof(reading));
	memset(&stats, 0, sizeof(stats));
	if (!strcmp(op, "batch")) {
		if (argc != 5)
			print_usage();
		count = atoi(argv[4]);
		if (count <= 0)
			print_usage();
		readings = calloc(count, sizeof(*readings));
		if (!readings)
			die("calloc");
		batch.readings = (unsigned long)readings;
		batch.count = count;
		batch.flags = 0;
	}
	if (!strcmp(op, "load")) {
		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "read")) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "push") || !strcmp(op, "batch") ||
		   !strcmp(op, "clear")) {
		fd = open(argv[3], O_WRONLY);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "stats")) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "capacity")) {
		if (argc != 5)
			print_usage();
		capacity = strtoul(argv[4], NULL, 10);
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "write")) {
		if (argc != 5)
			print_usage();
		fd = open(argv[3], O_WRONLY);
		if (fd < 0)
			die(argv[3]);
	} else if (strcmp(op, "open") && strcmp(op, "openread")) {
		print_usage();
	}
	nth_fd = open(FAIL_NTH, O_RDWR);
	if (nth_fd < 0)
		die(FAIL_NTH);

	set_nth(n);
	if (!strcmp(op, "load")) {
		ret = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
		err = ret ? errno : 0;
	} else if (!strcmp(op, "open")) {
		if (argc != 5)
			print_usage();
		fd = open(argv[3], open_mode(argv[4]));
		err = fd < 0 ? errno : 0;
	} else if (!strcmp(op, "read")) {
		err = read_all(fd);
	} else if (!strcmp(op, "openread")) {
		fd = open(argv[3], O_RDONLY);
		err = fd < 0 ? errno : read_all(fd);
	} else if (!strcmp(op, "push")) {
		ret = ioctl(fd, SEQRING_IOC_PUSH, &reading);
		err = ret ? errno : 0;
	} else if (!strcmp(op, "batch")) {
		ret = ioctl(fd, SEQRING_IOC_PUSH_BATCH, &batch);
		err = ret ? errno : 0;
	} else if (!strcmp(op, "stats")) {
		ret = ioctl(fd, SEQRING_IOC_GET_STATS, &stats);
		err = ret ? errno : 0;
	} else if (!strcmp(op, "capacity")) {
		ret = ioctl(fd, SEQRING_IOC_SET_CAPACITY, &capacity);
		err = ret ? errno : 0;
	} else if (!strcmp(op, "write")) {
		ret = write(fd, argv[4], strlen(argv[4]));
		err = ret < 0 ? errno : 0;
	} else {
		ret = ioctl(fd, SEQRING_IOC_CLEAR);
		err = ret ? errno : 0;
	}
	left = get_nth();
	set_nth(0);

	printf("%s %s\n", n && !left ? "injected" : "not-injected",
	       err ? strerrorname_np(err) : "ok");
	if (fd >= 0)
		close(fd);
	free(readings);
	return 0;
}
