// SPDX-License-Identifier: GPL-2.0
/*
 * batch_chunks - a batch becomes visible in order, chunk by chunk, and a
 * CLEAR falls only between two chunks of one
 *
 * Usage: batch_chunks [-b B] [-t SECS]
 *
 * Forks a writer that pushes batches of B readings (default 1000, 31
 * chunks of SEQRING_CHUNK = 32 and a part) with PUSH_BATCH, batch k as
 * channel k and values 0..B-1, and a clearer that CLEARs at random gaps of
 * 0 to 20 ms. The writer never overwrites: it waits for the clearer while
 * the ring (whose capacity must be a multiple of B) has no room for a
 * batch, so readings only ever leave the ring through CLEAR. Meanwhile,
 * for SECS seconds (default 10), the parent observes:
 *   - GET_STATS: dropped is 0, total == count + dropped + cleared, and
 *     total and cleared end at a chunk: a multiple of 32 into a batch, or
 *     its end (the writer is the only producer, so next_seq moves a whole
 *     chunk at a time);
 *   - sysfs total: never goes down, and ends at a chunk too;
 *   - the listing, read whole: the readings of each batch are consecutive
 *     values, never with a gap, and a batch that does not start at value 0
 *     starts at a chunk (a CLEAR fell between two chunks);
 *   - when cleared did not change while it was read, every batch in it is
 *     complete (values 0..B-1) but the oldest, which a CLEAR before may
 *     have cut between two chunks, and the newest, which may be a prefix
 *     of whole chunks: readers see a batch in order.
 *
 * Then, as TAP, one result per kind of observation, each saying how many
 * observations were made and showing the first bad one. Exit status 0 if
 * all passed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "opts.h"
#include "tap.h"

#define DEV_PATH	"/dev/seqring"
#define PROC_PATH	"/proc/seqring"
#define SYSFS_DIR	"/sys/class/misc/seqring/"
#define MAX_BATCH	SEQRING_BATCH_MAX
#define READ_BUF	(64 * 1024)
#define BAD_LEN		256
/* The driver's SEQRING_CHUNK (driver/seqring.h): readings per section. */
#define CHUNK		32

static unsigned long long batch = 1000;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_dev(void)
{
	int fd = open(DEV_PATH, O_RDWR);

	if (fd < 0) {
		printf("# open %s: %s\n", DEV_PATH, errname(errno));
		_exit(1);
	}
	return fd;
}

/* Writer: batches until killed; exits with the errno of a failed push. */
static void writer(void)
{
	struct seqring_reading *r = calloc(batch, sizeof(*r));
	struct seqring_batch b = { 0 };
	unsigned int k = 0;
	unsigned long long i;
	int fd = open_dev();

	if (!r)
		_exit(ENOMEM);
	b.readings = (uintptr_t)r;
	b.count = (__u32)batch;
	for (;; k++) {
		struct seqring_stats s;

		do {
			if (ioctl(fd, SEQRING_IOC_GET_STATS, &s))
				_exit(errno);
			if (s.count + batch > s.capacity)
				usleep(1000);
		} while (s.count + batch > s.capacity);
		for (i = 0; i < batch; i++) {
			r[i].timestamp_ns = 1;
			r[i].channel = k;
			r[i].value = (long long)i;
			strcpy(r[i].label, "chunks");
		}
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
			_exit(errno);
		usleep(200);
	}
}

/* Clearer: CLEAR at random gaps of 0 to 20 ms until killed. */
static void clearer(void)
{
	int fd = open_dev();

	srand((unsigned int)getpid());
	for (;;) {
		if (ioctl(fd, SEQRING_IOC_CLEAR))
			_exit(errno);
		usleep((useconds_t)(rand() % 20000));
	}
}

static pid_t spawn(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid < 0) {
		printf("# fork: %s\n", errname(errno));
		exit(1);
	}
	if (!pid)
		fn();
	return pid;
}

static struct seqring_stats get_stats(int fd)
{
	struct seqring_stats s;

	if (ioctl(fd, SEQRING_IOC_GET_STATS, &s)) {
		printf("# GET_STATS: %s\n", errname(errno));
		exit(1);
	}
	return s;
}

static unsigned long long sysfs_u(const char *name)
{
	char path[128], buf[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSFS_DIR "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ~0ULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return ~0ULL;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

struct tally {
	unsigned long long seen, bad;
	char first[BAD_LEN];
};

static void tally_bad(struct tally *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->bad++) {
		va_start(ap, fmt);
		vsnprintf(t->first, sizeof(t->first), fmt, ap);
		va_end(ap);
	}
}

static struct tally t_stats, t_sysfs, t_gaps, t_whole;

/* Does sequence number count @n end at a chunk of a batch? */
static bool at_chunk(unsigned long long n)
{
	return n % batch % CHUNK == 0;
}

static unsigned long long listings;
static char *text;

/*
 * Read the listing whole into @text; NUL-terminated; returns its length,
 * or -1 (with a diagnostic) if a read failed.
 */
static long read_listing(void)
{
	size_t len = 0, cap = READ_BUF * 16;
	ssize_t n;
	int fd = open(PROC_PATH, O_RDONLY);

	if (fd < 0)
		return -1;
	for (;;) {
		if (cap - len < READ_BUF + 1) {
			char *t = realloc(text, cap * 2);

			if (!t)
				break;
			text = t;
			cap *= 2;
		}
		n = read(fd, text + len, READ_BUF);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n < 0)
		return -1;
	text[len] = '\0';
	return (long)len;
}

/*
 * Check the batch just ended in a listing (values @first..@last); @oldest:
 * it is the listing's first, which a CLEAR before the listing may have cut
 * between two chunks; @newest: its last, which may not be complete yet.
 */
static void check_batch(unsigned long long ch, unsigned long long first,
			unsigned long long last, bool oldest, bool newest)
{
	if ((!oldest && first != 0) ||
	    (!newest && last != batch - 1) ||
	    (newest && (last + 1) % CHUNK && last != batch - 1))
		tally_bad(&t_whole,
			  "listing %llu: batch %llu shows values %llu..%llu of 0..%llu%s%s",
			  listings, ch, first, last, batch - 1,
			  oldest ? " (its oldest)" : "", newest ? " (its newest)" : "");
}

/* Check one listing; @quiet: nothing was cleared meanwhile. */
static void check_listing(bool quiet)
{
	unsigned long long seq, ts, ch, cur_ch = ~0ULL, first = 0, last = 0;
	unsigned long long batches = 0;
	long long val;
	char *line, *save = NULL;

	listings++;
	if (quiet)
		t_whole.seen++;
	t_gaps.seen++;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%llu %llu %llu %lld", &seq, &ts, &ch, &val) != 4) {
			tally_bad(&t_gaps, "listing %llu: bad line '%.80s'", listings, line);
			return;
		}
		if (batches && ch == cur_ch) {
			if ((unsigned long long)val != last + 1)
				tally_bad(&t_gaps,
					  "listing %llu: batch %llu has value %lld after %llu",
					  listings, ch, val, last);
			last = (unsigned long long)val;
			continue;
		}
		if (batches && quiet)
			check_batch(cur_ch, first, last, batches == 1, false);
		batches++;
		cur_ch = ch;
		first = (unsigned long long)val;
		last = first;
		if (first % CHUNK)
			tally_bad(&t_gaps,
				  "listing %llu: batch %llu starts at value %llu, inside a chunk",
				  listings, ch, first);
	}
	if (batches && quiet)
		check_batch(cur_ch, first, last, batches == 1, true);
}

static void check_stats(const struct seqring_stats *s)
{
	t_stats.seen++;
	if (!at_chunk(s->total) || s->dropped || !at_chunk(s->cleared) ||
	    s->total != s->count + s->dropped + s->cleared)
		tally_bad(&t_stats, "total %llu count %llu dropped %llu cleared %llu",
			  (unsigned long long)s->total, (unsigned long long)s->count,
			  (unsigned long long)s->dropped, (unsigned long long)s->cleared);
}

static void report(struct tally *t, const char *what, const char *desc)
{
	if (tap_result(t->seen && !t->bad, "%s", desc)) {
		tap_diag("%llu %s, all in whole chunks", t->seen, what);
		return;
	}
	if (!t->seen) {
		tap_diag("expected some %s, got none", what);
		return;
	}
	tap_diag("expected batches of %llu in order, in whole chunks of %d, in %llu %s;",
		 batch, CHUNK, t->seen, what);
	tap_diag("got %llu bad; first: %s", t->bad, t->first);
}

int main(int argc, char **argv)
{
	struct seqring_stats before, after;
	unsigned long long prev_total = 0;
	static const char usage[] = "batch_chunks [-b B] [-t SECS]";
	double secs = 10, t0;
	const struct opt opts[] = {
		{ 'b', OPT_ULL, &batch }, { 't', OPT_DOUBLE, &secs },
	};
	pid_t wpid, cpid;
	int fd, st;

	if (opts_parse(argc, argv, opts, OPTS_NR(opts), usage) != argc ||
	    batch < 2 || batch > MAX_BATCH || secs <= 0)
		opts_usage(usage);
	text = malloc(READ_BUF * 16);
	if (!text)
		return 1;

	fd = open_dev();
	before = get_stats(fd);
	if (before.capacity % batch) {
		printf("# the ring's capacity %llu is not a multiple of %llu\n",
		       (unsigned long long)before.capacity, batch);
		return 2;
	}
	tap_plan(4);
	wpid = spawn(writer);
	cpid = spawn(clearer);

	t0 = now_s();
	while (now_s() - t0 < secs) {
		unsigned long long tot;

		before = get_stats(fd);
		check_stats(&before);
		tot = sysfs_u("total");
		t_sysfs.seen++;
		if (!at_chunk(tot) || tot < prev_total)
			tally_bad(&t_sysfs, "sysfs total %llu after %llu", tot,
				  prev_total);
		prev_total = tot;
		if (read_listing() < 0) {
			printf("# reading %s: %s\n", PROC_PATH, errname(errno));
			break;
		}
		after = get_stats(fd);
		check_stats(&after);
		check_listing(before.cleared == after.cleared);
	}

	kill(wpid, SIGKILL);
	kill(cpid, SIGKILL);
	waitpid(wpid, &st, 0);
	if (!WIFSIGNALED(st))
		tap_diag("the writer stopped early: %s", strerror(WEXITSTATUS(st)));
	waitpid(cpid, &st, 0);
	if (!WIFSIGNALED(st))
		tap_diag("the clearer stopped early: %s", strerror(WEXITSTATUS(st)));
	after = get_stats(fd);
	tap_diag("%llu listings; at the end total %llu cleared %llu dropped %llu",
		 listings, (unsigned long long)after.total,
		 (unsigned long long)after.cleared, (unsigned long long)after.dropped);

	report(&t_stats, "GET_STATS snapshots",
	       "GET_STATS counts whole chunks that add up, with CLEAR in a loop");
	report(&t_sysfs, "sysfs total reads",
	       "sysfs total counts whole chunks and never goes down");
	report(&t_gaps, "listings",
	       "no listing shows a batch with a gap, or cut inside a chunk");
	report(&t_whole, "listings read with no CLEAR meanwhile",
	       "a listing read with no CLEAR meanwhile shows whole batches but its two ends");
	return tap_failed ? 1 : 0;
}
