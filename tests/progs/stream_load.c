// SPDX-License-Identifier: GPL-2.0
/*
 * stream_load - writers, stream consumers, listing readers and a resizer
 * on /dev/seqring at once; TAP results about what the consumers saw
 *
 * Usage: stream_load [-a] [-w WRITERS] [-c CONSUMERS] [-n PER_WRITER]
 *                    [-l LISTERS] [-s SIZE[,SIZE...]] [-t SECONDS] [DEVICE]
 *
 * Each writer w (1..WRITERS) pushes PER_WRITER readings on channel w with
 * values 1, 2, ..., in PUSH and PUSH_BATCH calls of random sizes; the label
 * and the timestamp are computed from channel and value, so a consumer can
 * tell a reading that was copied torn or from the wrong slot. CONSUMERS
 * processes read the stream, alternately with blocking read()s and with
 * poll() + O_NONBLOCK read()s, in buffers of 1 to 64 records. LISTERS
 * processes read /proc/seqring over and over. With -s, one more process
 * resizes the ring through the sizes given, round and round, while the
 * writers run. When the writers are done the parent pushes one last
 * reading on channel 0, the sentinel, at which every consumer stops.
 *
 * Results, one behaviour each: the writers pushed everything (no push
 * failed, but with ENOBUFS where the ring is smaller than what the
 * writers store at once, and never with -a); per
 * consumer: no reading twice or out of order, no gap in the sequence
 * numbers that an EPIPE did not announce, every record is the reading that
 * was pushed, and with -a (the ring can hold every reading) every reading
 * seen exactly once with no EPIPE; every listing pass in order with
 * readings as pushed; the resizes succeeded; the counters add up and a new
 * reader reads exactly the readings the counters say are held.
 *
 * Everything ends within SECONDS (default 60): whatever is still running
 * then is killed and its results fail.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "opts.h"
#include "tap.h"

#define MAX_WRITERS	8
#define MAX_CONSUMERS	8
#define MAX_LISTERS	4
#define MAX_SIZES	16
#define SENTINEL_VALUE	(-1)
#define LISTING		"/proc/seqring"

struct consumer_res {
	bool done;			/* saw the sentinel */
	unsigned long long records;	/* not counting the sentinel */
	unsigned int epipes;
	unsigned int disorder;		/* seq not above the previous one */
	unsigned int silent_gaps;	/* seq gap without an EPIPE */
	unsigned int bad;		/* record not as pushed */
	unsigned int errors;		/* read()/poll() failures */
	int first_errno;
	char why[160];			/* the first problem */
};

struct shared {
	int writers_done;		/* __atomic_*: set by the parent */
	struct consumer_res cons[MAX_CONSUMERS];
	unsigned int writer_fail[MAX_WRITERS];	/* but ENOBUFS */
	unsigned int writer_nobufs[MAX_WRITERS];
	unsigned long long list_passes, list_lines;
	unsigned int list_bad;
	char list_why[160];
	unsigned long long resizes;
	unsigned int resize_fail;
	int resize_errno;
};

static const char *dev_path = "/dev/seqring";
static struct shared *sh;
static unsigned int nwriters = 2, nconsumers = 2, nlisters;
static unsigned long long per_writer = 20000;
static __u32 sizes[MAX_SIZES];
static unsigned int nsizes;
static bool expect_all;
static unsigned int seconds = 60;

static void reading_of(struct seqring_reading *r, __u32 channel, __s64 value)
{
	char label[48] = "";

	memset(r, 0, sizeof(*r));
	r->channel = channel;
	r->value = value;
	r->timestamp_ns = (__u64)channel * 1000000000000ULL + (__u64)value;
	/* At most "c8v1000000000": -n is at most 10^9. */
	snprintf(label, sizeof(label), "c%uv%lld", channel, (long long)value);
	/* Zeroes after the NUL, as the driver stores a label. */
	memcpy(r->label, label, sizeof(r->label) - 1);
}

static bool reading_ok(const struct seqring_reading *r)
{
	struct seqring_reading want;

	reading_of(&want, r->channel, r->value);
	return !memcmp(&want, r, sizeof(want));
}

static int open_or_die(int flags)
{
	int fd = open(dev_path, flags);

	if (fd < 0) {
		fprintf(stderr, "stream_load: open %s: %s\n", dev_path,
			errname(errno));
		_exit(3);
	}
	return fd;
}

/* ---- writers ---- */

static void writer(unsigned int w)
{
	struct seqring_reading batch[64];
	struct seqring_batch b;
	unsigned int seed = w * 7919, i, n;
	__s64 value = 1;
	int ret;
	int fd = open_or_die(O_WRONLY);

	while ((unsigned long long)value <= per_writer) {
		n = rand_r(&seed) % 3 ? 1 : 1 + rand_r(&seed) % ARRAY_SIZE(batch);
		if ((unsigned long long)value + n - 1 > per_writer)
			n = per_writer - value + 1;
		for (i = 0; i < n; i++)
			reading_of(&batch[i], w, value + i);
		if (n == 1) {
			ret = ioctl(fd, SEQRING_IOC_PUSH, &batch[0]);
		} else {
			memset(&b, 0, sizeof(b));
			b.readings = (__u64)(uintptr_t)batch;
			b.count = n;
			ret = ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b);
		}
		/*
		 * ENOBUFS: some reading found no free slot (a ring smaller
		 * than what the writers store at once) and was not stored,
		 * counted in the ring's lost (checked at the end).
		 */
		if (ret && errno == ENOBUFS)
			sh->writer_nobufs[w - 1]++;
		else if (ret)
			sh->writer_fail[w - 1]++;
		value += n;
	}
	_exit(0);
}

/* ---- consumers ---- */

static void note(struct consumer_res *res, const char *fmt,
		 unsigned long long a, unsigned long long b)
{
	if (!res->why[0])
		snprintf(res->why, sizeof(res->why), fmt, a, b);
}

static void consumer(unsigned int k)
{
	struct consumer_res *res = &sh->cons[k];
	struct seqring_record rec[64];
	unsigned long long last[MAX_WRITERS + 1] = { 0 };
	unsigned int seed = 1 + k * 104729, i, want;
	bool use_poll = k & 1, behind = false;
	__u64 prev = 0;
	struct pollfd pfd;
	ssize_t n;
	int fd;

	fd = open_or_die(O_RDONLY | (use_poll ? O_NONBLOCK : 0));
	while (!res->done) {
		want = 1 + rand_r(&seed) % ARRAY_SIZE(rec);
		n = read(fd, rec, want * sizeof(rec[0]));
		if (n < 0) {
			if (errno == EPIPE) {
				res->epipes++;
				behind = true;
			} else if (errno == EAGAIN && use_poll) {
				pfd.fd = fd;
				pfd.events = POLLIN;
				if (poll(&pfd, 1, 1000) < 0 && errno != EINTR) {
					res->errors++;
					res->first_errno = errno;
					break;
				}
			} else if (errno != EINTR) {
				res->errors++;
				res->first_errno = errno;
				break;
			}
			continue;
		}
		if (n == 0 || n % sizeof(rec[0])) {
			res->errors++;
			note(res, "read returned %llu bytes, errno %llu", n, errno);
			break;
		}
		for (i = 0; i < n / sizeof(rec[0]); i++) {
			const struct seqring_record *r = &rec[i];
			__u32 ch = r->reading.channel;

			if (prev && r->seq <= prev) {
				res->disorder++;
				note(res, "seq %llu after seq %llu", r->seq, prev);
			} else if (prev && r->seq != prev + 1 && !behind) {
				res->silent_gaps++;
				note(res, "seq %llu after seq %llu, no EPIPE",
				     r->seq, prev);
			}
			behind = false;
			prev = r->seq;
			if (ch == 0 && r->reading.value == SENTINEL_VALUE) {
				res->done = true;
				break;
			}
			if (ch < 1 || ch > nwriters || !reading_ok(&r->reading) ||
			    (unsigned long long)r->reading.value <= last[ch]) {
				res->bad++;
				note(res, "seq %llu: channel %llu not as pushed or out of order",
				     r->seq, ch);
			} else {
				last[ch] = r->reading.value;
			}
			res->records++;
		}
	}
	_exit(0);
}

/* ---- listing readers ---- */

static void lister(void)
{
	unsigned long long seq, ts, prev;
	struct seqring_reading r;
	char *line = NULL;
	size_t cap = 0;
	long long value;
	char label[64];
	unsigned int ch;
	FILE *f;

	while (!__atomic_load_n(&sh->writers_done, __ATOMIC_ACQUIRE)) {
		f = fopen(LISTING, "r");
		if (!f) {
			sh->list_bad++;
			break;
		}
		prev = 0;
		while (getline(&line, &cap, f) > 0) {
			if (line[0] == '#')
				continue;
			sh->list_lines++;
			if (sscanf(line, "%llu %llu %u %lld %63s", &seq, &ts, &ch,
				   &value, label) != 5) {
				sh->list_bad++;
				continue;
			}
			reading_of(&r, ch, value);
			if (seq <= prev || ts != r.timestamp_ns ||
			    strcmp(label, r.label)) {
				if (!sh->list_bad)
					snprintf(sh->list_why, sizeof(sh->list_why),
						 "after seq %llu: %s", prev, line);
				sh->list_bad++;
			}
			prev = seq;
		}
		fclose(f);
		sh->list_passes++;
	}
	free(line);
	_exit(0);
}

/* ---- resizer ---- */

static void resizer(void)
{
	int fd = open_or_die(O_RDONLY);
	unsigned int i = 0;
	__u32 cap;

	while (!__atomic_load_n(&sh->writers_done, __ATOMIC_ACQUIRE)) {
		cap = sizes[i++ % nsizes];
		if (ioctl(fd, SEQRING_IOC_SET_CAPACITY, &cap)) {
			if (!sh->resize_fail)
				sh->resize_errno = errno;
			sh->resize_fail++;
		} else {
			sh->resizes++;
		}
		usleep(1000);
	}
	_exit(0);
}

/* ---- parent ---- */

static pid_t spawn(void (*fn)(unsigned int), unsigned int arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", errname(errno));
	if (!pid)
		fn(arg);
	return pid;
}

static void run_lister(unsigned int arg)
{
	(void)arg;
	lister();
}

static void run_resizer(unsigned int arg)
{
	(void)arg;
	resizer();
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Reap @pid by @deadline (ms); kill it after that. true if it exited 0. */
static bool reap(pid_t pid, long long deadline)
{
	int status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return false;
		}
		usleep(10000);
	}
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static void parse_sizes(char *arg)
{
	char *tok, *end;
	unsigned long v;

	for (tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		v = strtoul(tok, &end, 10);
		if (*end || !v || v > SEQRING_CAPACITY_MAX || nsizes == MAX_SIZES)
			tap_bail("bad -s size '%s'", tok);
		sizes[nsizes++] = v;
	}
}

static const char usage[] =
	"stream_load [-a] [-w WRITERS] [-c CONSUMERS] [-n PER_WRITER] [-l LISTERS]\n"
	"       [-s SIZE[,SIZE...]] [-t SECONDS] [DEVICE]";

/* After the run: a new reader reads exactly [oldest_seq, newest_seq]. */
static void check_final(int fd_w, unsigned long long pushed)
{
	struct seqring_record rec[64];
	struct seqring_stats st;
	unsigned long long n = 0, bad = 0;
	unsigned int i;
	__u64 next;
	ssize_t got;
	int fd;

	memset(&st, 0, sizeof(st));
	ioctl(fd_w, SEQRING_IOC_GET_STATS, &st);
	if (!tap_result(st.total == st.count + st.dropped + st.cleared &&
			st.total + st.lost == pushed,
			"the counters add up (total == count + dropped + cleared, and total + lost == the %llu readings pushed)",
			pushed))
		tap_diag("total %llu count %llu dropped %llu cleared %llu lost %llu",
			 (unsigned long long)st.total,
			 (unsigned long long)st.count,
			 (unsigned long long)st.dropped,
			 (unsigned long long)st.cleared,
			 (unsigned long long)st.lost);

	fd = open(dev_path, O_RDONLY | O_NONBLOCK);
	next = st.oldest_seq;
	while (fd >= 0 && (got = read(fd, rec, sizeof(rec))) > 0) {
		for (i = 0; i < got / sizeof(rec[0]); i++) {
			if (rec[i].seq != next ||
			    (rec[i].reading.channel && !reading_ok(&rec[i].reading)))
				bad++;
			next = rec[i].seq + 1;
			n++;
		}
	}
	if (!tap_result(fd >= 0 && n == st.count && !bad &&
			(!n || next == st.newest_seq + 1),
			"a new reader reads exactly the readings held, in order, as pushed"))
		tap_diag("expected %llu records %llu..%llu, got %llu (%llu wrong), up to %llu",
			 (unsigned long long)st.count,
			 (unsigned long long)st.oldest_seq,
			 (unsigned long long)st.newest_seq, n, bad,
			 (unsigned long long)next);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	pid_t wpid[MAX_WRITERS], cpid[MAX_CONSUMERS], lpid[MAX_LISTERS], rpid = 0;
	struct seqring_reading sentinel;
	unsigned long long wfail = 0, wnobufs = 0;
	long long deadline;
	unsigned int i;
	const char *size_list = NULL;
	const struct opt opts[] = {
		{ 'a', OPT_SET, &expect_all }, { 'w', OPT_U32, &nwriters },
		{ 'c', OPT_U32, &nconsumers }, { 'n', OPT_ULL, &per_writer },
		{ 'l', OPT_U32, &nlisters }, { 's', OPT_STR, &size_list },
		{ 't', OPT_U32, &seconds },
	};
	bool ok;
	int arg, fd_w;

	arg = opts_parse(argc, argv, opts, OPTS_NR(opts), usage);
	if (size_list)
		parse_sizes((char *)size_list);
	if (arg < argc)
		dev_path = argv[arg++];
	if (arg < argc || nwriters < 1 || nwriters > MAX_WRITERS ||
	    nconsumers < 1 || nconsumers > MAX_CONSUMERS ||
	    nlisters > MAX_LISTERS || !per_writer || per_writer > 1000000000 ||
	    !seconds)
		opts_usage(usage);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	memset(sh, 0, sizeof(*sh));
	fd_w = open(dev_path, O_WRONLY);
	if (fd_w < 0)
		tap_bail("open %s: %s", dev_path, errname(errno));

	tap_diag("%u writers x %llu readings, %u consumers, %u listers, %u sizes",
		 nwriters, per_writer, nconsumers, nlisters, nsizes);
	tap_plan(1 + nconsumers * (expect_all ? 4 : 3) + (nlisters ? 1 : 0) +
		 (nsizes ? 1 : 0) + 2);

	deadline = now_ms() + seconds * 1000LL;
	/* Consumers first, so that they start at the oldest reading. */
	for (i = 0; i < nconsumers; i++)
		cpid[i] = spawn(consumer, i);
	for (i = 0; i < nlisters; i++)
		lpid[i] = spawn(run_lister, 0);
	if (nsizes)
		rpid = spawn(run_resizer, 0);
	for (i = 0; i < nwriters; i++)
		wpid[i] = spawn(writer, i + 1);

	ok = true;
	for (i = 0; i < nwriters; i++) {
		ok &= reap(wpid[i], deadline);
		wfail += sh->writer_fail[i];
		wnobufs += sh->writer_nobufs[i];
	}
	__atomic_store_n(&sh->writers_done, 1, __ATOMIC_RELEASE);
	if (rpid)
		reap(rpid, deadline);
	for (i = 0; i < nlisters; i++)
		reap(lpid[i], deadline);

	reading_of(&sentinel, 0, SENTINEL_VALUE);
	if (ioctl(fd_w, SEQRING_IOC_PUSH, &sentinel))
		tap_diag("pushing the sentinel failed: %s", errname(errno));
	for (i = 0; i < nconsumers; i++)
		reap(cpid[i], deadline);

	/* Where the ring holds everything, every slot is free. */
	if (!tap_result(ok && !wfail && (!expect_all || !wnobufs),
			"%u writers pushed %llu readings each without an error%s",
			nwriters, per_writer,
			expect_all ? "" : " but ENOBUFS (no free slot)"))
		tap_diag("%llu pushes failed, %llu with ENOBUFS%s", wfail, wnobufs,
			 ok ? "" : "; a writer died or ran out of time");
	if (wnobufs)
		tap_diag("%llu pushes failed with ENOBUFS: no free slot (a small ring)",
			 wnobufs);

	for (i = 0; i < nconsumers; i++) {
		struct consumer_res *c = &sh->cons[i];
		const char *how = i & 1 ? "poll" : "blocking";

		tap_diag("consumer %u (%s): %llu records, %u EPIPE%s%s", i, how,
			 c->records, c->epipes, c->why[0] ? "; first problem: " : "",
			 c->why);
		if (!tap_result(c->done && !c->errors && !c->disorder,
				"consumer %u (%s read): reached the end, no reading twice or out of order",
				i, how))
			tap_diag("done %d, %u errors (first %s), %u out of order",
				 c->done, c->errors, errname(c->first_errno),
				 c->disorder);
		if (!tap_result(!c->silent_gaps,
				"consumer %u: every gap in seq came after an EPIPE", i))
			tap_diag("%u gaps without EPIPE", c->silent_gaps);
		if (!tap_result(!c->bad,
				"consumer %u: every record is the reading pushed", i))
			tap_diag("%u records not as pushed", c->bad);
		if (expect_all &&
		    !tap_result(c->records == nwriters * per_writer && !c->epipes,
				"consumer %u: saw all %llu readings exactly once, no EPIPE",
				i, nwriters * per_writer))
			tap_diag("expected %llu records and 0 EPIPE, got %llu and %u",
				 nwriters * per_writer, c->records, c->epipes);
	}
	if (nlisters && !tap_result(sh->list_passes && !sh->list_bad,
				    "%u listing readers: every pass in order, readings as pushed",
				    nlisters))
		tap_diag("%llu passes, %llu lines, %u bad; first: %s",
			 sh->list_passes, sh->list_lines, sh->list_bad,
			 sh->list_why);
	if (nlisters)
		tap_diag("listing: %llu passes, %llu lines", sh->list_passes,
			 sh->list_lines);
	if (nsizes && !tap_result(sh->resizes && !sh->resize_fail,
				  "%llu resizes during the run, none failed",
				  sh->resizes))
		tap_diag("%u failed, first with %s", sh->resize_fail,
			 errname(sh->resize_errno));
	/* The writers' readings and the sentinel. */
	check_final(fd_w, nwriters * per_writer + 1);
	close(fd_w);
	return tap_finish();
}
