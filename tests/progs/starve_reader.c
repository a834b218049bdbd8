// SPDX-License-Identifier: GPL-2.0
/*
 * starve_reader - while a producer is starved in the middle of a batch, a
 * file at the end of the stream is never told that it fell behind (issue
 * 23, item 7: the cursor never passes next_seq)
 *
 * Usage: starve_reader [-t SECONDS] [DEV]
 *
 * Load the ring with a capacity of 4096. A PUSH_BATCH of 65536 readings
 * then drops, when it takes its sequence numbers, every reading the ring
 * held and all of its own but the last 4096: oldest_seq moves past
 * next_seq, and stays there until the batch is published. The adversary
 * (starve.h: SCHED_IDLE beside a busy loop on CPU 1) is stopped inside
 * such batches for hundreds of milliseconds at a time. Meanwhile, every
 * millisecond for SECONDS (default 3), on CPU 0:
 *   - a new file of DEV (O_NONBLOCK) starts at the oldest reading held and
 *     has missed nothing: poll() must not report EPOLLERR, and read() must
 *     not fail with EPIPE;
 *   - a file opened at the start, after lseek(SEEK_END), which forgets
 *     that the file fell behind: read() must not fail with EPIPE.
 * Where the driver places such a file's cursor below oldest_seq (at
 * next_seq), read() takes the EPIPE path of read_records(), which moves
 * the cursor to oldest_seq, past next_seq: the EPIPE is how that shows.
 *
 * A file may fall behind for real between two calls: a push may drop what
 * it had not read. So a check counts only when GET_STATS gave the same
 * total, dropped and cleared before the open (or the seek) and after the
 * read: nothing was published or dropped in between, so the file had
 * nothing it could have missed.
 */
#define _GNU_SOURCE
#include <poll.h>

#include "starve.h"

#define PROBE_CPU		0
#define PROBE_PERIOD_US		1000

struct counts {
	unsigned long checks;	/* calm: the counters did not move */
	unsigned long bad;
};

static int stats(int fd, struct seqring_stats *st)
{
	return ioctl(fd, SEQRING_IOC_GET_STATS, st);
}

/* Nothing published, dropped or cleared between @a and @b. */
static bool calm(const struct seqring_stats *a, const struct seqring_stats *b)
{
	return a->total == b->total && a->dropped == b->dropped &&
	       a->cleared == b->cleared;
}

static void bad_usage(void)
{
	fprintf(stderr, "usage: starve_reader [-t SECONDS] [DEV]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct seqring_record rec[16];
	struct seqring_stats before, after;
	struct counts fresh_poll = { 0 }, fresh_read = { 0 }, seek_read = { 0 };
	const char *dev = "/dev/seqring";
	unsigned long probes = 0, emptied = 0, warm;
	long long end, next;
	long seconds = 3;
	struct pollfd pfd;
	int opt, sfd, fd;
	ssize_t got;
	bool err;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			bad_usage();
		seconds = strtol(optarg, NULL, 10);
	}
	if (optind < argc)
		dev = argv[optind++];
	if (optind != argc || seconds < 1 || seconds > 60)
		bad_usage();

	tap_plan(4);
	tap_diag("adversary on CPU %d: PUSH_BATCH loop at SCHED_IDLE beside a busy loop",
		 ADVERSARY_CPU);
	tap_diag("it runs free %d ms of every %d", FREE_MS, CYCLE_MS);

	/* Bounds every path below, the children's included. */
	signal(SIGALRM, on_alarm);
	alarm(START_WAIT_MS / 1000 + seconds + REAP_WAIT_MS / 1000 * 2 + 10);

	sfd = open(dev, O_RDONLY | O_NONBLOCK);
	if (sfd < 0)
		tap_bail("open %s: %s", dev, errname(errno));
	if (pin_to(PROBE_CPU))
		tap_bail("pinning to CPU %d: %s", PROBE_CPU, errname(errno));
	if (adversary_start(dev))
		tap_bail("starting the adversary: %s", errname(errno));
	warm = adv_get(&adv->batches_done);

	next = now_us();
	end = next + seconds * 1000000LL;
	while (warm && now_us() < end) {
		if (now_us() < next) {
			sleep_us(100);
			continue;
		}
		next += PROBE_PERIOD_US;
		probes++;

		if (stats(sfd, &before))
			break;
		if (before.total && !before.count && before.cleared == 0)
			emptied++;
		fd = open(dev, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			break;
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		poll(&pfd, 1, 0);
		err = pfd.revents & POLLERR;
		got = read(fd, rec, sizeof(rec));
		close(fd);
		if (stats(sfd, &after))
			break;
		if (calm(&before, &after)) {
			fresh_poll.checks++;
			fresh_read.checks++;
			fresh_poll.bad += err;
			fresh_read.bad += got < 0 && errno == EPIPE;
		}

		if (stats(sfd, &before))
			break;
		lseek(sfd, 0, SEEK_END);
		got = read(sfd, rec, sizeof(rec));
		if (stats(sfd, &after))
			break;
		if (calm(&before, &after)) {
			seek_read.checks++;
			seek_read.bad += got < 0 && errno == EPIPE;
		}
	}
	tap_diag("adversary: %lu batches started, %lu returned%s%s",
		 adv_get(&adv->batches_started), adv_get(&adv->batches_done),
		 adv_get(&adv->error) ? ", failed with " : "",
		 adv_get(&adv->error) ? errname((int)adv_get(&adv->error)) : "");
	adversary_end();
	alarm(0);

	if (!tap_result(warm && !adv_get(&adv->error),
			"the adversary looped on PUSH_BATCH, starved, while the probe read"))
		tap_diag("expected a batch returned within %d ms, no error; got %lu, error %s",
			 START_WAIT_MS, warm, errname((int)adv_get(&adv->error)));
	tap_diag("%lu probes; %lu found GET_STATS count 0 though the ring had held readings",
		 probes, emptied);
	tap_diag("(nothing moved: total, dropped and cleared the same before and after)");

	if (!tap_result(!fresh_poll.bad,
			"poll() of a new file never reports EPOLLERR"))
		tap_diag("expected 0 EPOLLERR, got %lu in %lu polls while nothing moved",
			 fresh_poll.bad, fresh_poll.checks);
	if (!tap_result(!fresh_read.bad,
			"read() of a new file never fails with EPIPE"))
		tap_diag("expected 0 EPIPE, got %lu in %lu reads while nothing moved",
			 fresh_read.bad, fresh_read.checks);
	if (!tap_result(!seek_read.bad,
			"read() after lseek(SEEK_END) never fails with EPIPE"))
		tap_diag("expected 0 EPIPE, got %lu in %lu reads while nothing moved",
			 seek_read.bad, seek_read.checks);
	return tap_finish();
}
