// SPDX-License-Identifier: GPL-2.0
/*
 * two_producers DEVICE SECONDS - two producers push one reading each at the
 * same moment, round after round, and once both pushes have returned both
 * readings must be visible, with no further push
 *
 * Two threads, pinned to CPUs 0 and 1, meet at a barrier each round, push
 * one reading each (SEQRING_IOC_PUSH on one open file each), and meet
 * again. The ring's next_seq (its mapping's meta page: a plain load, so a
 * round costs little more than the two pushes) must then be past both
 * readings: each producer's walk publishes what is committed after
 * next_seq, and of two producers that commit at once, at least one must
 * see the other's commit. A driver without a full barrier between its
 * commit and its walk lets each see the other's slot still busy (store
 * buffering, which x86 and tcg allow), and neither publishes the second
 * reading: it stays invisible until some later push. Such a round is
 * counted, and looked at again 20 ms later (still invisible: nothing but a
 * push would publish it). The ring must be fresh: nobody else pushes.
 *
 * TAP: the rounds made (a skip without two CPUs), and that none left a
 * reading invisible. Exit status 0 iff both passed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "tap.h"

static const char *device;
static atomic_uint gate;		/* round the threads may push in */
static atomic_uint pushed;		/* pushes of the round returned */
static atomic_bool stop;
static int fds[2];
static int push_errno;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int push(int fd, unsigned int round)
{
	struct seqring_reading r = { .value = round, .channel = 1 };

	if (ioctl(fd, SEQRING_IOC_PUSH, &r)) {
		push_errno = errno;
		return -1;
	}
	return 0;
}

/* The second producer: each round, push when the gate opens. */
static void *producer(void *arg)
{
	unsigned int round = 0;

	(void)arg;
	pin(1);
	for (;;) {
		while (atomic_load_explicit(&gate, memory_order_acquire) == round)
			if (atomic_load(&stop))
				return NULL;
		round++;
		if (push(fds[1], round))
			atomic_store(&stop, true);
		atomic_fetch_add_explicit(&pushed, 1, memory_order_release);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long rounds = 0, invisible = 0, still = 0, first;
	const struct seqring_mmap_meta *meta;
	const atomic_ullong *next_seq;
	pthread_t thread;
	double seconds, end;
	long page = sysconf(_SC_PAGESIZE);
	__u64 want;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: two_producers DEVICE SECONDS\n");
		return 2;
	}
	device = argv[1];
	seconds = atof(argv[2]);
	tap_plan(2);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("needs two CPUs", "rounds of two producers");
		tap_skip("needs two CPUs", "no reading left invisible");
		return tap_finish();
	}
	for (i = 0; i < 2; i++) {
		fds[i] = open(device, O_RDWR);
		if (fds[i] < 0)
			tap_bail("open %s: %s", device, strerror(errno));
	}
	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, fds[0], 0);
	if (meta == MAP_FAILED)
		tap_bail("mmap %s: %s", device, strerror(errno));
	next_seq = (const atomic_ullong *)&meta->next_seq;
	first = atomic_load_explicit(next_seq, memory_order_acquire);

	pin(0);
	if (pthread_create(&thread, NULL, producer, NULL))
		tap_bail("pthread_create failed");
	end = now() + seconds;
	while (!atomic_load(&stop)) {
		rounds++;
		atomic_store_explicit(&gate, rounds, memory_order_release);
		if (push(fds[0], rounds)) {
			atomic_store(&stop, true);
			break;
		}
		while (atomic_load_explicit(&pushed, memory_order_acquire) != rounds)
			;
		/* Both pushes returned: both readings are visible. */
		want = first + 2 * rounds;
		if (atomic_load_explicit(next_seq, memory_order_acquire) < want) {
			invisible++;
			usleep(20000);
			if (atomic_load_explicit(next_seq, memory_order_acquire) < want)
				still++;
		}
		if (!(rounds % 4096) && now() > end)
			break;
	}
	atomic_store(&stop, true);
	pthread_join(thread, NULL);

	if (!tap_result(!push_errno && rounds > 0,
			"%llu rounds of two producers on CPUs 0 and 1 in %.0f s",
			rounds, seconds))
		tap_diag("a PUSH failed: %s", strerror(push_errno));
	if (!tap_result(!invisible,
			"once both pushes returned, both readings were visible, every round"))
		tap_diag("expected 0 rounds with one invisible, got %llu (%llu still 20 ms later)",
			 invisible, still);
	return tap_finish();
}
