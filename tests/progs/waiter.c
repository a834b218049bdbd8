// SPDX-License-Identifier: GPL-2.0
/*
 * waiter - wait on a seqring device in read(), poll() or epoll_wait() and
 * say how the wait ended
 *
 * Usage: waiter read|poll|epoll|follow PATH
 *
 * Opens PATH read-only, reads what it holds without blocking, prints
 * "ready PID" and then blocks: in read() (a blocking one), in poll() for
 * POLLIN, or in epoll_wait() for EPOLLIN, with no timeout. When that
 * returns it prints one line, "read eof", "read ERRNAME" or "read N" (bytes)
 * for read; "poll IN|ERR|HUP|..." (the events returned) for poll and
 * epoll, followed by what a read() then returns, as above. With follow it
 * reads on (blocking, past -EPIPE) until read() returns 0 or fails
 * otherwise, and prints how that one ended, as for read. The tests of
 * seqring_destroy() destroy the ring under it; the caller bounds the wait.
 * Exit status 0, or 1 if the setup failed (with the reason), 2 on misuse.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

static void print_read(int fd)
{
	struct seqring_record rec[16];
	ssize_t n;

	n = read(fd, rec, sizeof(rec));
	if (n < 0)
		printf("read %s\n", errname(errno));
	else if (n == 0)
		printf("read eof\n");
	else
		printf("read %zd\n", n);
}

static void print_events(unsigned int ev)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{ POLLIN, "IN" }, { POLLPRI, "PRI" }, { POLLOUT, "OUT" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
		{ POLLRDNORM, "RDNORM" }, { POLLRDHUP, "RDHUP" },
	};
	const char *sep = "";
	size_t i;

	printf("poll ");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (ev & names[i].bit) {
			printf("%s%s", sep, names[i].name);
			sep = "|";
		}
	}
	printf("%s\n", *sep ? "" : "0");
}

int main(int argc, char **argv)
{
	struct seqring_record rec[64];
	struct epoll_event ev;
	struct pollfd pfd;
	int fd, ep, n;

	if (argc != 3 || (strcmp(argv[1], "read") && strcmp(argv[1], "poll") &&
			  strcmp(argv[1], "epoll") && strcmp(argv[1], "follow"))) {
		fprintf(stderr, "usage: waiter read|poll|epoll|follow PATH\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open(argv[2], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		printf("error open %s: %s\n", argv[2], errname(errno));
		return 1;
	}
	/* What the ring holds now, so that the wait below blocks. */
	while (read(fd, rec, sizeof(rec)) > 0 || errno == EPIPE)
		;
	if (errno != EAGAIN) {
		printf("error draining %s: %s\n", argv[2], errname(errno));
		return 1;
	}
	if (fcntl(fd, F_SETFL, 0)) {
		printf("error fcntl: %s\n", errname(errno));
		return 1;
	}

	if (!strcmp(argv[1], "read")) {
		printf("ready %d\n", (int)getpid());
		print_read(fd);
		return 0;
	}
	if (!strcmp(argv[1], "follow")) {
		printf("ready %d\n", (int)getpid());
		while ((n = read(fd, rec, sizeof(rec))) > 0 ||
		       (n < 0 && errno == EPIPE))
			;
		if (n < 0)
			printf("read %s\n", errname(errno));
		else
			printf("read eof\n");
		return 0;
	}
	if (!strcmp(argv[1], "poll")) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		printf("ready %d\n", (int)getpid());
		n = poll(&pfd, 1, -1);
		if (n < 0) {
			printf("poll %s\n", errname(errno));
			return 0;
		}
		print_events(pfd.revents);
	} else {
		ep = epoll_create1(0);
		ev.events = EPOLLIN;
		ev.data.fd = fd;
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
			printf("error epoll: %s\n", errname(errno));
			return 1;
		}
		printf("ready %d\n", (int)getpid());
		n = epoll_wait(ep, &ev, 1, -1);
		if (n < 0) {
			printf("poll %s\n", errname(errno));
			return 0;
		}
		print_events(ev.events);
	}
	/* Woken by a hang-up: the read after it must not block either. */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	print_read(fd);
	return 0;
}
