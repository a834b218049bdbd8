// SPDX-License-Identifier: GPL-2.0
/*
 * gone_push DEVICE - GONE is the end: no reading comes after it
 *
 * A child pushes batches of SEQRING_BATCH_MAX readings into DEVICE (a
 * named ring, /dev/seqring-NAME) back to back, on a file it keeps open,
 * until a push fails; the parent maps the ring and prints "ready", then
 * waits (at most 60 s) for the meta page's flags to say
 * SEQRING_MMAP_GONE, which the test makes happen by destroying the ring
 * meanwhile. A consumer that sees GONE (flags loaded with acquire) and
 * then loads next_seq has every reading there will be: next_seq must not
 * move afterwards, although the child's batch was in the middle of its
 * chunks, and the child's push must fail with ENODEV.
 *
 * TAP, three results: GONE seen; next_seq the same 200 ms later; the
 * child's push failed with ENODEV.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "tap.h"

static struct seqring_reading batch[SEQRING_BATCH_MAX];

/* Push batches until one fails; exit with its errno. */
static int child(int fd)
{
	struct seqring_batch b = {
		.readings = (unsigned long)batch,
		.count = SEQRING_BATCH_MAX,
	};
	unsigned int i;

	for (i = 0; i < SEQRING_BATCH_MAX; i++)
		batch[i].value = i;
	while (!ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
		;
	return errno;
}

int main(int argc, char **argv)
{
	const struct seqring_mmap_meta *meta;
	const atomic_ullong *flags, *next_seq;
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	long page = sysconf(_SC_PAGESIZE);
	__u64 n1 = 0, n2 = 0;
	int fd, status, i;
	bool gone = false;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: gone_push DEVICE\n");
		return 2;
	}
	tap_plan(3);
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		tap_bail("open %s: %s", argv[1], strerror(errno));
	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		tap_bail("mmap %s: %s", argv[1], strerror(errno));
	flags = (const atomic_ullong *)&meta->flags;
	next_seq = (const atomic_ullong *)&meta->next_seq;

	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (!pid)
		_exit(child(fd));

	/* Batches are under way: the test may destroy the ring now. */
	while (atomic_load_explicit(next_seq, memory_order_acquire) < 4096)
		usleep(1000);
	printf("ready\n");
	fflush(stdout);
	for (i = 0; i < 60000 && !gone; i++) {
		gone = atomic_load_explicit(flags, memory_order_acquire) &
		       SEQRING_MMAP_GONE;
		if (gone)
			n1 = atomic_load_explicit(next_seq, memory_order_acquire);
		else
			usleep(1000);
	}
	tap_result(gone, "the meta page says GONE once the ring is destroyed");
	nanosleep(&pause, NULL);
	n2 = atomic_load_explicit(next_seq, memory_order_acquire);
	if (!tap_result(gone && n1 == n2,
			"no reading after GONE: next_seq loaded after it stays, 200 ms later"))
		tap_diag("expected next_seq %llu, got %llu", (unsigned long long)n1,
			 (unsigned long long)n2);
	if (!gone)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (!tap_result(WIFEXITED(status) && WEXITSTATUS(status) == ENODEV,
			"the producer's PUSH_BATCH in progress fails with ENODEV"))
		tap_diag("expected exit status %d (ENODEV), got %s %d", ENODEV,
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return tap_finish();
}
