// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_bench - throughput, latency and memory of the seqring driver
 *
 * Runs inside the test VM, started by tests/bench/NN-*.sh; the host side is
 * tests/bench/run-bench.sh. Absolute times mean little under QEMU's
 * software emulation on a shared machine, so every figure comes with a
 * baseline measured by the same process in the same rounds: a round runs
 * one block of every subject, in an order that rotates from round to round,
 * and a figure is the median over the rounds. A ratio is the median of the
 * per-round ratios, so drift of the machine's speed cancels out.
 *
 * Usage: seqring_bench [-q] [-r ROUNDS] [-o FILE] COMMAND [ARG...]
 *
 *   ingest          ns per reading: PUSH (a reading with its timestamp
 *                   set, and one the driver stamps), PUSH_BATCH of 1, 16,
 *                   256 and 4096 readings; baseline: an unknown ioctl on
 *                   the same fd (-ENOTTY); peers: the same reading written
 *                   as text to trace_marker and as binary to
 *                   trace_marker_raw (tracefs at /sys/kernel/tracing)
 *   fill N          push readings until the ring (capacity N) is full and
 *                   has wrapped
 *   listing N       read /proc/seqring whole (N readings held) with 4 KiB
 *                   and 64 KiB read()s; baselines: the first N lines of
 *                   /proc/sequence, read the same way (compared per line
 *                   and per byte), and, for N up to 100k, tracefs' trace
 *                   holding N trace_marker entries (64 KiB read()s)
 *   contention      PUSH latency (p50, p99, max) with 0, 1 and 2 processes
 *                   looping over /proc/seqring, and with 1 process looping
 *                   pread() at 9/10 of it (pusher on CPU 0, readers on the
 *                   other CPUs; one PUSH every 25 to 75 us)
 *   stream          readings/s from a producer (PUSH) to a consumer
 *                   (read() of /dev/seqring) against trace_marker writes
 *                   read from trace_pipe; wake-up latency (p50, p99) from
 *                   a PUSH (a marker write) to a blocked read() returning;
 *                   PUSH with a consumer following the stream against
 *                   PUSH with none
 *   mapped          readings/s a consumer takes from a full ring: from
 *                   the mapping (libseqring's srl_map_read()) against
 *                   read() of the device (64 KiB), trace_pipe (the same
 *                   number of trace_marker entries) and, from 6.10 on,
 *                   ftrace's own mapped ring (as many 40-byte readings
 *                   written to trace_marker_raw, drained through the
 *                   mapping of per_cpu/cpu0/trace_pipe_raw); PUSH latency
 *                   (p50, p99) with 2 consumers spinning on the mapping
 *                   against none, and against 2 plain spinners (what
 *                   busy CPUs cost under emulation)
 *   kapi            ns per reading of seqring_push() from a kernel thread
 *                   against a trace event of the same fields written to
 *                   ftrace's ring (seqring_kbench.ko, loaded by the
 *                   caller, the event enabled in tracefs); readings/s of
 *                   two kernel threads pushing into one ring on CPUs 0
 *                   and 1 against one thread, and as its control the
 *                   same for the trace event (per-CPU buffers); and ns
 *                   per step of seqring_push() alone (clock read,
 *                   cmpxchg, smp_mb(), interrupts off and on, division)
 *   (bpf)           the BPF rows are tests/progs/bpf_push.c's (bench), which
 *                   tests/bench/55-bpf.sh adds to the results: ns a
 *                   tp_btf program adds to an event pushing a reading
 *                   against writing it with bpf_ringbuf_output()
 *   memory N BEFORE bytes per reading from the driver's debugfs stats, and
 *                   the Slab and VmallocUsed deltas from the copy BEFORE
 *                   of /proc/meminfo (taken before insmod) to now
 *   idlefiles       PUSH latency (p50, p99, max) with 10000 open files of
 *                   the device that nobody reads or polls, against none
 *   adversary       the gap from a PUSH returning (one a millisecond, on
 *                   CPU 0) to GET_STATS showing it (p50, p99, max), idle
 *                   and while a process at SCHED_IDLE on CPU 1 loops on
 *                   64K-reading batches beside a busy loop there
 *   irqsoff         the irqsoff tracer's longest interrupts-off section
 *                   (the caller makes it the current tracer) idle, while
 *                   64K batches, single PUSHes and resizes (1M -> 4K -> 1M)
 *                   run on every CPU, and while the same load goes through
 *                   trace_marker writes and buffer_size_kb resizes;
 *                   with "pushes", both loads without their resizes
 *   report [-c CSV] [-j JSON] [-n NOTES]
 *                   read the results, add the derived figures and the
 *                   targets, print the table (and the lines of NOTES:
 *                   why something was not measured), write it as CSV and
 *                   JSON
 *
 * -q (quick, for CI) runs fewer and shorter rounds; -r sets the rounds.
 * Measuring commands append one line per figure to FILE (default
 * /tmp/bench/results.csv): group,metric,param,unit,median,min,max,rounds.
 * Exit status: 0, or 1 (with a message) if something did not work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <linux/seqring.h>

#include "../../tools/lib/libseqring.h"

#define DEV_PATH	"/dev/seqring"
#define PROC_PATH	"/proc/seqring"
#define SEQUENCE_PATH	"/proc/sequence"
#define STATS_PATH	"/sys/kernel/debug/seqring/stats"
#define TRACING_DIR	"/sys/kernel/tracing"
#define DEFAULT_OUT	"/tmp/bench/results.csv"

/* An ioctl number the driver does not know: the no-op baseline. */
#define BENCH_IOC_NOOP	_IO(SEQRING_IOC_MAGIC, 0xff)

#define MAX_ROUNDS	301
#define MAX_ROWS	512
#define NAME_LEN	64
#define LISTING_BUF	(64 * 1024)

static bool quick;
static int rounds_opt;
static const char *out_path = DEFAULT_OUT;
static FILE *out;

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("seqring_bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	return fd;
}

static int rounds_or(int full, int fast)
{
	int r = rounds_opt ? rounds_opt : quick ? fast : full;

	return r > MAX_ROUNDS ? MAX_ROUNDS : r;
}

/* ---- statistics and the results file -------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	double med, min, max;
};

static struct summary summarize(const double *v, int n)
{
	double s[MAX_ROUNDS];
	struct summary r;

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	r.min = s[0];
	r.max = s[n - 1];
	r.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

static void open_out(void)
{
	char dir[256], *slash;

	snprintf(dir, sizeof(dir), "%s", out_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	out = fopen(out_path, "a");
	if (!out)
		die("open %s: %s", out_path, strerror(errno));
}

static void print_row_head(void)
{
	printf("%-10s %-30s %-8s %12s %12s %12s  %s\n", "group", "metric",
	       "param", "median", "min", "max", "unit");
}

static void print_row(const char *group, const char *metric,
		      const char *param, const char *unit, double med,
		      double min, double max)
{
	printf("%-10s %-30s %-8s %12.4g %12.4g %12.4g  %s\n", group, metric,
	       param, med, min, max, unit);
}

/* Summarize @n per-round values of one figure, print and append it. */
static void record(const char *group, const char *metric, const char *param,
		   const char *unit, const double *v, int n)
{
	struct summary s = summarize(v, n);

	fprintf(out, "%s,%s,%s,%s,%.6g,%.6g,%.6g,%d\n", group, metric, param,
		unit, s.med, s.min, s.max, n);
	fflush(out);
	print_row(group, metric, param, unit, s.med, s.min, s.max);
	fflush(stdout);
}

static void record1(const char *group, const char *metric, const char *param,
		    const char *unit, double v)
{
	record(group, metric, param, unit, &v, 1);
}

/* Per-round ratios a[r] / b[r], recorded as one figure. */
static void record_ratio(const char *group, const char *metric,
			 const char *param, const double *a, const double *b,
			 int n)
{
	double q[MAX_ROUNDS];
	int r;

	for (r = 0; r < n; r++)
		q[r] = a[r] / b[r];
	record(group, metric, param, "x", q, n);
}

/* ---- ingest ----------------------------------------------------------- */

enum op_kind { OP_IOCTL, OP_WRITE };

/**
 * struct subject - one thing whose cost per reading is measured
 * @name: metric name
 * @param: readings per call, as text
 * @kind: ioctl(@fd, @req, @arg) or write(@fd, @arg, @len)
 * @expect: return value of a successful call
 * @per_call: readings per call
 * @iters: calls per block, from calibrate()
 * @ns: ns per reading, one value per round
 */
struct subject {
	const char *name;
	const char *param;
	enum op_kind kind;
	int fd;
	unsigned long req;
	const void *arg;
	size_t len;
	long expect;
	unsigned int per_call;
	unsigned long iters;
	double ns[MAX_ROUNDS];
};

static double run_block(const struct subject *s, unsigned long iters)
{
	long long t0 = now_ns();
	unsigned long i;
	long ret;

	for (i = 0; i < iters; i++) {
		if (s->kind == OP_IOCTL)
			ret = ioctl(s->fd, s->req, s->arg);
		else
			ret = write(s->fd, s->arg, s->len);
		if (ret != s->expect)
			die("%s: returned %ld, expected %ld (%s)", s->name, ret,
			    s->expect, strerror(errno));
	}
	return now_ns() - t0;
}

/*
 * Find the number of calls that takes about @block_ns, from the fastest of
 * a few tries (a slow one was interrupted); warms up too.
 */
static void calibrate(struct subject *s, double block_ns)
{
	unsigned long n = 1;
	double t, t2;
	int i;

	for (;;) {
		t = run_block(s, n);
		if (t >= block_ns / 4 || n >= 1UL << 30)
			break;
		n *= 2;
	}
	for (i = 0; i < 4; i++) {
		t2 = run_block(s, n);
		if (t2 < t)
			t = t2;
	}
	n = n * block_ns / (t > 1 ? t : 1);
	s->iters = n ? n : 1;
}

static struct subject *find_subject(struct subject *s, int n,
				    const char *name, const char *param)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, name) && !strcmp(s[i].param, param))
			return &s[i];
	return NULL;
}

static void fill_reading(struct seqring_reading *r, unsigned long long ts,
			 long long value)
{
	memset(r, 0, sizeof(*r));
	r->timestamp_ns = ts;
	r->value = value;
	r->channel = 3;
	snprintf(r->label, sizeof(r->label), "bench");
}

static unsigned long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const unsigned int batch_sizes[] = { 1, 16, 256, 4096 };
static const char * const batch_params[] = { "1", "16", "256", "4096" };

static int cmd_ingest(void)
{
	static struct seqring_reading one, one_ts0, many[4096];
	static struct seqring_batch batches[4];
	static char text[128], raw[sizeof(unsigned int) + sizeof(one)];
	struct subject subj[16], *noop, *push, *s;
	int nsubj = 0, fd, tfd, rfd, rounds, r, k, i;
	unsigned long long ts = realtime_ns();
	/*
	 * Many short blocks rather than a few long ones: on a loaded host the
	 * vCPU is taken away for milliseconds at a time. Most blocks of half a
	 * millisecond are not hit, and the median of the rounds is one of them.
	 */
	double block_ns = 0.5e6;
	unsigned int id = 1;
	size_t tlen;

	rounds = rounds_or(301, 101);
	fd = xopen(DEV_PATH, O_RDWR);

	fill_reading(&one, ts, 42);
	fill_reading(&one_ts0, 0, 42);
	for (i = 0; i < 4096; i++)
		fill_reading(&many[i], ts + i, i);
	tlen = snprintf(text, sizeof(text), "%llu %u %lld %s\n",
			(unsigned long long)one.timestamp_ns, one.channel,
			(long long)one.value, one.label);
	memcpy(raw, &id, sizeof(id));
	memcpy(raw + sizeof(id), &one, sizeof(one));

	if (ioctl(fd, BENCH_IOC_NOOP, NULL) != -1 || errno != ENOTTY)
		die("the no-op ioctl did not fail with ENOTTY");

	memset(subj, 0, sizeof(subj));
	subj[nsubj++] = (struct subject){ .name = "noop_ioctl", .param = "1",
		.kind = OP_IOCTL, .fd = fd, .req = BENCH_IOC_NOOP,
		.expect = -1, .per_call = 1 };
	subj[nsubj++] = (struct subject){ .name = "push", .param = "1",
		.kind = OP_IOCTL, .fd = fd, .req = SEQRING_IOC_PUSH,
		.arg = &one, .per_call = 1 };
	subj[nsubj++] = (struct subject){ .name = "push_stamped", .param = "1",
		.kind = OP_IOCTL, .fd = fd, .req = SEQRING_IOC_PUSH,
		.arg = &one_ts0, .per_call = 1 };
	for (i = 0; i < 4; i++) {
		batches[i].readings = (unsigned long)many;
		batches[i].count = batch_sizes[i];
		subj[nsubj++] = (struct subject){ .name = "push_batch",
			.param = batch_params[i], .kind = OP_IOCTL, .fd = fd,
			.req = SEQRING_IOC_PUSH_BATCH, .arg = &batches[i],
			.per_call = batch_sizes[i] };
	}

	tfd = open(TRACING_DIR "/trace_marker", O_WRONLY);
	if (tfd >= 0)
		subj[nsubj++] = (struct subject){ .name = "trace_marker",
			.param = "1", .kind = OP_WRITE, .fd = tfd, .arg = text,
			.len = tlen, .expect = tlen, .per_call = 1 };
	else
		printf("# no %s/trace_marker (%s): peer not measured\n",
		       TRACING_DIR, strerror(errno));
	rfd = open(TRACING_DIR "/trace_marker_raw", O_WRONLY);
	if (rfd >= 0)
		subj[nsubj++] = (struct subject){ .name = "trace_marker_raw",
			.param = "1", .kind = OP_WRITE, .fd = rfd, .arg = raw,
			.len = sizeof(raw), .expect = sizeof(raw),
			.per_call = 1 };
	else
		printf("# no %s/trace_marker_raw (%s): peer not measured\n",
		       TRACING_DIR, strerror(errno));

	/*
	 * Calibrate twice, with a warm-up in between: the first calls after
	 * boot can be many times slower (code not translated by tcg yet, a
	 * vCPU taken away by the host), and blocks calibrated then would be
	 * too short to mean anything.
	 */
	for (k = 0; k < nsubj; k++)
		calibrate(&subj[k], block_ns);
	for (r = 0; r < 50; r++)
		for (k = 0; k < nsubj; k++)
			run_block(&subj[k], subj[k].iters);
	for (k = 0; k < nsubj; k++)
		calibrate(&subj[k], block_ns);
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < nsubj; k++) {
			s = &subj[(k + r) % nsubj];
			s->ns[r] = run_block(s, s->iters) /
				   ((double)s->iters * s->per_call);
		}
	}

	print_row_head();
	for (k = 0; k < nsubj; k++)
		record("ingest", subj[k].name, subj[k].param, "ns/reading",
		       subj[k].ns, rounds);

	noop = find_subject(subj, nsubj, "noop_ioctl", "1");
	push = find_subject(subj, nsubj, "push", "1");
	record_ratio("ingest", "push/noop_ioctl", "1", push->ns, noop->ns,
		     rounds);
	s = find_subject(subj, nsubj, "push_stamped", "1");
	record_ratio("ingest", "push_stamped/noop_ioctl", "1", s->ns,
		     noop->ns, rounds);
	for (i = 0; i < 4; i++) {
		s = find_subject(subj, nsubj, "push_batch", batch_params[i]);
		record_ratio("ingest", "push_batch/noop_ioctl",
			     batch_params[i], s->ns, noop->ns, rounds);
	}
	s = find_subject(subj, nsubj, "trace_marker", "1");
	if (s)
		record_ratio("ingest", "trace_marker/push", "1", s->ns,
			     push->ns, rounds);
	s = find_subject(subj, nsubj, "trace_marker_raw", "1");
	if (s)
		record_ratio("ingest", "trace_marker_raw/push", "1", s->ns,
			     push->ns, rounds);

	close(fd);
	if (tfd >= 0)
		close(tfd);
	if (rfd >= 0)
		close(rfd);
	return 0;
}

/* ---- fill and the ring's state ----------------------------------------- */

static void get_stats(struct seqring_stats *st)
{
	int fd = xopen(DEV_PATH, O_RDONLY);

	if (ioctl(fd, SEQRING_IOC_GET_STATS, st))
		die("GET_STATS: %s", strerror(errno));
	close(fd);
}

/*
 * Push capacity + capacity / 2 readings: the ring is full and its oldest
 * reading is not in slot 0. Labels vary in length like real ones.
 */
/* Push 1.5 x @n readings, so that a ring of @n is full and has wrapped. */
static void fill_ring(unsigned long long n)
{
	static struct seqring_reading r[4096];
	unsigned long long ts = realtime_ns(), done = 0, want = n + n / 2;
	static const char * const labels[] = {
		"kitchen", "t0", "back door", "pressure_hpa", "", "rpm",
	};
	struct seqring_batch b = { .readings = (unsigned long)r };
	unsigned int i, k;
	int fd;

	fd = xopen(DEV_PATH, O_RDWR);
	while (done < want) {
		k = want - done > 4096 ? 4096 : want - done;
		for (i = 0; i < k; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].timestamp_ns = ts + (done + i) * 1000;
			r[i].value = (long long)((done + i) * 7919 % 200001) -
				     100000;
			r[i].channel = (done + i) % 8;
			snprintf(r[i].label, sizeof(r[i].label), "%s",
				 labels[(done + i) % 6]);
		}
		b.count = k;
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
			die("PUSH_BATCH: %s", strerror(errno));
		done += k;
	}
	close(fd);
}

static int cmd_fill(unsigned long long n)
{
	struct seqring_stats st;

	fill_ring(n);
	get_stats(&st);
	if (st.capacity != n || st.count != n)
		die("after fill: capacity %llu count %llu, expected %llu",
		    (unsigned long long)st.capacity,
		    (unsigned long long)st.count, n);
	printf("# filled: capacity %llu, count %llu, oldest %llu, newest %llu\n",
	       (unsigned long long)st.capacity, (unsigned long long)st.count,
	       (unsigned long long)st.oldest_seq,
	       (unsigned long long)st.newest_seq);
	return 0;
}

/* ---- listing ------------------------------------------------------------- */

static char listing_buf[LISTING_BUF];

/*
 * Read @path from the start with read()s of @bs bytes, to end of file or,
 * if @limit, to exactly @limit bytes. Counts lines if @lines.
 */
static double read_pass(const char *path, size_t bs, unsigned long long limit,
			unsigned long long *bytes, unsigned long long *lines)
{
	unsigned long long got = 0;
	long long t0 = now_ns();
	size_t want;
	ssize_t n;
	int fd;

	fd = xopen(path, O_RDONLY);
	for (;;) {
		want = bs;
		if (limit && limit - got < want)
			want = limit - got;
		if (!want)
			break;
		n = read(fd, listing_buf, want);
		if (n < 0)
			die("read %s: %s", path, strerror(errno));
		if (!n)
			break;
		if (lines) {
			char *p = listing_buf, *end = listing_buf + n;

			while ((p = memchr(p, '\n', end - p))) {
				++*lines;
				p++;
			}
		}
		got += n;
	}
	close(fd);
	*bytes = got;
	return now_ns() - t0;
}

/* Bytes of the first @n lines of /proc/sequence: "0\n" to "n-1\n". */
static unsigned long long sequence_bytes(unsigned long long n)
{
	unsigned long long b = 0, lo = 0, hi = 10, top;
	int digits = 1;

	while (lo < n) {
		top = hi < n ? hi : n;
		b += (top - lo) * (digits + 1);
		lo = hi;
		hi *= 10;
		digits++;
	}
	return b;
}

struct lsubject {
	const char *name;
	const char *path;
	size_t bs;
	unsigned long long limit;
	unsigned long long bytes;
	double pass_ns[MAX_ROUNDS];
};

/* Peer of the listing: tracefs' trace with as many trace_marker entries. */
#define TRACE_PEER_MAX	100000	/* formatting 1M trace lines takes too long */

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write %s: %s", path, strerror(errno));
	close(fd);
}

/*
 * Fill CPU 0's trace buffer with @n trace_marker entries shaped like the
 * listing's lines (written from CPU 0, into a buffer made big enough that
 * nothing is overwritten) and check that `trace` shows exactly @n of them.
 * Returns false, saying why, if tracefs is not there.
 */
static bool trace_setup(unsigned long long n)
{
	char line[128], kb[32];
	unsigned long long i, lines = 0;
	cpu_set_t set, old;
	int fd;

	if (access(TRACING_DIR "/trace_marker", W_OK)) {
		printf("# no %s/trace_marker (%s): trace peer not measured\n",
		       TRACING_DIR, strerror(errno));
		return false;
	}
	/* An entry is ~80 bytes with its headers; pages are not filled. */
	snprintf(kb, sizeof(kb), "%llu", n * 160 / 1024 + 1024);
	write_file(TRACING_DIR "/per_cpu/cpu0/buffer_size_kb", kb);
	write_file(TRACING_DIR "/trace", "");
	write_file(TRACING_DIR "/tracing_on", "1");

	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity: %s", strerror(errno));
	fd = xopen(TRACING_DIR "/trace_marker", O_WRONLY);
	for (i = 1; i <= n; i++) {
		int len = snprintf(line, sizeof(line),
				   "%llu 1764755200123456789 %llu %llu kitchen\n",
				   i, i % 8, i * 7);

		if (write(fd, line, len) != len)
			die("write trace_marker: %s", strerror(errno));
	}
	close(fd);
	sched_setaffinity(0, sizeof(old), &old);

	fd = xopen(TRACING_DIR "/trace", O_RDONLY);
	for (;;) {
		ssize_t got = read(fd, listing_buf, sizeof(listing_buf));
		char *p = listing_buf, *end = listing_buf + (got > 0 ? got : 0);

		if (got <= 0)
			break;
		while (p < end && (p = memmem(p, end - p, "tracing_mark_write: ", 20))) {
			lines++;
			p += 20;
		}
	}
	close(fd);
	if (lines != n)
		die("trace holds %llu trace_marker entries, expected %llu", lines, n);
	return true;
}

static void trace_cleanup(void)
{
	write_file(TRACING_DIR "/trace", "");
	write_file(TRACING_DIR "/per_cpu/cpu0/buffer_size_kb", "1408");
}

static int cmd_listing(unsigned long long n)
{
	struct lsubject ls[5] = {
		{ .name = "seqring.4k", .path = PROC_PATH, .bs = 4096 },
		{ .name = "sequence.4k", .path = SEQUENCE_PATH, .bs = 4096,
		  .limit = sequence_bytes(n) },
		{ .name = "seqring.64k", .path = PROC_PATH, .bs = 65536 },
		{ .name = "sequence.64k", .path = SEQUENCE_PATH, .bs = 65536,
		  .limit = sequence_bytes(n) },
		{ .name = "trace.64k", .path = TRACING_DIR "/trace",
		  .bs = 65536 },
	};
	double rec[MAX_ROUNDS], mbs[MAX_ROUNDS], ms[MAX_ROUNDS];
	double mbs_a[MAX_ROUNDS], mbs_b[MAX_ROUNDS];
	unsigned long long lines, bytes, passes;
	struct seqring_stats st;
	char param[32], metric[NAME_LEN];
	int rounds, r, k, i, nls = 4;
	long long t;

	get_stats(&st);
	if (st.count != n)
		die("the ring holds %llu readings, expected %llu (run fill)",
		    (unsigned long long)st.count, n);
	snprintf(param, sizeof(param), "%llu", n);
	if (n >= 1000000)
		rounds = rounds_or(7, 1);
	else if (n >= 100000)
		rounds = rounds_or(15, 3);
	else
		rounds = rounds_or(31, 9);
	/* Short files are read several times per block. */
	passes = n >= 20000 ? 1 : 20000 / n;
	if (n <= TRACE_PEER_MAX && trace_setup(n))
		nls = 5;

	/* One untimed pass each: check what is read, warm up. */
	for (k = 0; k < nls; k++) {
		lines = 0;
		read_pass(ls[k].path, ls[k].bs, ls[k].limit, &ls[k].bytes,
			  &lines);
		/* trace: checked by trace_setup(); it has header lines. */
		if (k < 4 && lines != n + (ls[k].limit ? 0 : 1))
			die("%s read %zu: %llu lines, expected %llu",
			    ls[k].path, ls[k].bs, lines,
			    n + (ls[k].limit ? 0 : 1));
	}
	printf("# %s: %llu readings, %llu bytes; %s: %llu bytes; %llu passes per block\n",
	       PROC_PATH, n, ls[0].bytes, SEQUENCE_PATH, ls[1].bytes, passes);
	if (nls == 5)
		printf("# %s: %llu trace_marker entries, %llu bytes\n",
		       ls[4].path, n, ls[4].bytes);

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < nls; k++) {
			struct lsubject *s = &ls[(k + r) % nls];

			t = 0;
			for (i = 0; i < (int)passes; i++)
				t += read_pass(s->path, s->bs, s->limit,
					       &bytes, NULL);
			s->pass_ns[r] = (double)t / passes;
		}
	}
	if (nls == 5)
		trace_cleanup();

	print_row_head();
	for (k = 0; k < nls; k++) {
		for (r = 0; r < rounds; r++) {
			rec[r] = n / (ls[k].pass_ns[r] / 1e9);
			mbs[r] = ls[k].bytes / ls[k].pass_ns[r] * 1e3;
			ms[r] = ls[k].pass_ns[r] / 1e6;
		}
		snprintf(metric, sizeof(metric), "%s.records_per_s",
			 ls[k].name);
		record("listing", metric, param, "rec/s", rec, rounds);
		snprintf(metric, sizeof(metric), "%s.MB_per_s", ls[k].name);
		record("listing", metric, param, "MB/s", mbs, rounds);
		snprintf(metric, sizeof(metric), "%s.pass_ms", ls[k].name);
		record("listing", metric, param, "ms", ms, rounds);
	}
	/* records/s ratio == inverse ratio of the times of a pass. */
	record_ratio("listing", "seqring/sequence.4k", param, ls[1].pass_ns,
		     ls[0].pass_ns, rounds);
	record_ratio("listing", "seqring/sequence.64k", param, ls[3].pass_ns,
		     ls[2].pass_ns, rounds);
	/* Per byte: a seqring line is ~6 times as long as a sequence one. */
	for (k = 0; k < 4; k += 2) {
		for (r = 0; r < rounds; r++) {
			mbs_a[r] = ls[k].bytes / ls[k].pass_ns[r];
			mbs_b[r] = ls[k + 1].bytes / ls[k + 1].pass_ns[r];
		}
		record_ratio("listing", k ? "bytes:seqring/sequence.64k" :
			     "bytes:seqring/sequence.4k", param, mbs_a, mbs_b,
			     rounds);
	}
	if (nls == 5)
		record_ratio("listing", "seqring/trace.64k", param,
			     ls[4].pass_ns, ls[2].pass_ns, rounds);
	return 0;
}

/* ---- contention ------------------------------------------------------------ */

struct reader_stats {
	unsigned long long reads;
	unsigned long long ns;
	unsigned long long passes;
};

/*
 * A reader: with @deep 0, reads the whole listing with 4 KiB read()s, over
 * and over (a looping cat); else pread()s 100 bytes at byte @deep, over
 * and over (seq_file replays the listing up to @deep for each one).
 */
static void reader_loop(struct reader_stats *st, int ready_fd, off_t deep)
{
	static char buf[4096];
	long long t0, t1;
	bool told = false;
	ssize_t n;
	int fd;

	for (;;) {
		fd = xopen(PROC_PATH, O_RDONLY);
		do {
			t0 = now_ns();
			if (deep)
				n = pread(fd, buf, 100, deep) > 0 ? 0 : -1;
			else
				n = read(fd, buf, sizeof(buf));
			t1 = now_ns();
			st->reads++;
			st->ns += t1 - t0;
			if (!told) {
				if (write(ready_fd, "r", 1) != 1)
					_exit(1);
				told = true;
			}
		} while (n > 0);
		close(fd);
		st->passes++;
	}
}

/*
 * The pusher runs on CPU 0 and the readers on the other CPUs, so that what
 * is measured is how long a reader keeps the ring's lock, not how often the
 * scheduler gives the pusher's CPU to a reader. (With 2 CPUs, 2 readers
 * share CPU 1 and take turns at the lock.)
 */
static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(CPU %d): %s", cpu, strerror(errno));
}

static void pin_to_cpu0(void)
{
	pin_to_cpu(0);
}

static void pin_away_from_cpu0(void)
{
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (n < 2)
		return;
	CPU_ZERO(&set);
	for (i = 1; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * One block: @nreaders readers loop over the listing (or pread() at @deep,
 * see reader_loop()) while @samples PUSHes are timed one by one (fewer if
 * they take more than @max_ns in all, but at least 100). Returns p50, p99
 * and max in ns, the readers' mean time per read() (0 without readers) and
 * the number of PUSHes timed.
 */
static void contention_block(int fd, int nreaders, off_t deep, long long *lat,
			     int samples, long long max_ns, double res[5],
			     struct reader_stats *rs)
{
	static unsigned long long rng = 1;
	struct seqring_reading rd;
	long long t0, end;
	pid_t pid[2];
	int p[2], i;
	char c;

	if (pipe(p))
		die("pipe: %s", strerror(errno));
	for (i = 0; i < nreaders; i++) {
		memset(&rs[i], 0, sizeof(rs[i]));
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork: %s", strerror(errno));
		if (!pid[i]) {
			close(p[0]);
			pin_away_from_cpu0();
			reader_loop(&rs[i], p[1], deep);
		}
	}
	close(p[1]);
	for (i = 0; i < nreaders; i++)
		if (read(p[0], &c, 1) != 1)
			die("a reader did not start");
	close(p[0]);

	/*
	 * Back to back, most PUSHes would fall between two read()s of a
	 * reader: pace them at random gaps of 25 to 75 us (spinning, as a
	 * sleep would take far longer under emulation), so that they land at
	 * random points of the readers' work, as independent writers' would.
	 */
	fill_reading(&rd, realtime_ns(), 1);
	end = now_ns() + max_ns;
	for (i = 0; i < samples && (i < 100 || now_ns() < end); i++) {
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		t0 = now_ns() + 25000 + (long long)(rng >> 33) % 50000;
		while (now_ns() < t0)
			;
		t0 = now_ns();
		if (ioctl(fd, SEQRING_IOC_PUSH, &rd))
			die("PUSH: %s", strerror(errno));
		lat[i] = now_ns() - t0;
	}

	samples = i;
	for (i = 0; i < nreaders; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}

	qsort(lat, samples, sizeof(*lat), cmp_ll);
	res[0] = lat[samples / 2];
	res[1] = lat[(samples * 99 + 99) / 100 - 1];
	res[2] = lat[samples - 1];
	res[3] = 0;
	res[4] = samples;
	if (nreaders) {
		unsigned long long reads = 0, ns = 0;

		for (i = 0; i < nreaders; i++) {
			reads += rs[i].reads;
			ns += rs[i].ns;
		}
		res[3] = reads ? (double)ns / reads : 0;
	}
}

/*
 * The blocks of a round: no reader (the baseline), 1 and 2 readers looping
 * over the whole listing, 1 reader looping pread() deep into it.
 */
/* A process that only burns CPU away from CPU 0, never touching the ring. */
static pid_t start_spinner(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		pin_away_from_cpu0();
		for (;;)
			__asm__ __volatile__("" ::: "memory");
	}
	return pid;
}

/* What runs on the other CPUs while writers_block() times CLEAR and resize. */
enum writers_with { W_IDLE, W_SPIN, W_PREAD, WRITERS_WITH_N };

static const char * const writers_param[WRITERS_WITH_N] = {
	"0", "spin", "pread",
};

/*
 * CLEAR and a resize (by one slot: a full copy), each timed on a full ring
 * of @cap readings, with nothing else running, with a process spinning on
 * the other CPUs (what sharing the emulator's CPUs costs, which has nothing
 * to do with the driver), or while a reader replays the listing up to
 * @deep with pread() there: no walk may hold up a writer. Leaves the ring
 * full, at capacity @cap.
 */
static void writers_block(int fd, unsigned long long cap,
			  enum writers_with with, off_t deep, double *clear_ns,
			  double *resize_ns, struct reader_stats *rs)
{
	__u32 c = (__u32)cap + 1;
	pid_t pid = 0;
	long long t0;
	int p[2];
	char ch;

	if (with == W_SPIN)
		pid = start_spinner();
	if (with == W_PREAD) {
		if (pipe(p))
			die("pipe: %s", strerror(errno));
		memset(rs, 0, sizeof(*rs));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			close(p[0]);
			pin_away_from_cpu0();
			reader_loop(rs, p[1], deep);
		}
		close(p[1]);
		if (read(p[0], &ch, 1) != 1)
			die("the reader did not start");
		close(p[0]);
	}
	fill_ring(cap);
	t0 = now_ns();
	if (ioctl(fd, SEQRING_IOC_CLEAR))
		die("CLEAR: %s", strerror(errno));
	*clear_ns = now_ns() - t0;
	fill_ring(cap);
	t0 = now_ns();
	if (ioctl(fd, SEQRING_IOC_SET_CAPACITY, &c))
		die("SET_CAPACITY %u: %s", c, strerror(errno));
	*resize_ns = now_ns() - t0;
	if (pid) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	c = (__u32)cap;
	if (ioctl(fd, SEQRING_IOC_SET_CAPACITY, &c))
		die("SET_CAPACITY %u: %s", c, strerror(errno));
	fill_ring(cap);
}

#define NCONF	4
static const char * const kparam[NCONF] = { "0", "1", "2", "pread" };
static const int kreaders[NCONF] = { 0, 1, 2, 1 };

static int cmd_contention(void)
{
	double v[NCONF][5][MAX_ROUNDS], wv[WRITERS_WITH_N][2][MAX_ROUNDS];
	int rounds, wrounds, samples, r, k, j, fd;
	unsigned long long size;
	long long max_ns;
	struct reader_stats *rs;
	struct seqring_stats st;
	long long *lat;
	off_t deep;

	rounds = rounds_or(9, 3);
	wrounds = rounds_or(5, 2);
	samples = quick ? 3000 : 10000;
	max_ns = quick ? 400000000LL : 1500000000LL;
	lat = calloc(samples, sizeof(*lat));
	rs = mmap(NULL, 2 * sizeof(*rs), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!lat || rs == MAP_FAILED)
		die("out of memory");
	get_stats(&st);
	if (!st.count)
		die("the ring is empty (run fill)");
	read_pass(PROC_PATH, LISTING_BUF, 0, &size, NULL);
	deep = (off_t)(size / 10 * 9);
	printf("# %llu readings held (%llu bytes), deep pread() at %lld\n",
	       (unsigned long long)st.count, size, (long long)deep);
	printf("# up to %d pushes timed per block (%.1f s)\n", samples,
	       max_ns / 1e9);
	pin_to_cpu0();

	fd = xopen(DEV_PATH, O_RDWR);
	/* Warm up. */
	contention_block(fd, 0, 0, lat, samples, max_ns, v[0][0], rs);
	for (r = 0; r < rounds; r++) {
		for (j = 0; j < NCONF; j++) {
			double res[5];

			k = (j + r) % NCONF;
			contention_block(fd, kreaders[k],
					 strcmp(kparam[k], "pread") ? 0 : deep,
					 lat, samples, max_ns, res, rs);
			v[k][0][r] = res[0];
			v[k][1][r] = res[1];
			v[k][2][r] = res[2];
			v[k][3][r] = res[3];
			v[k][4][r] = res[4];
		}
	}
	for (r = 0; r < wrounds; r++)
		for (j = 0; j < WRITERS_WITH_N; j++) {
			k = (j + r) % WRITERS_WITH_N;
			writers_block(fd, st.capacity, k, deep, &wv[k][0][r],
				      &wv[k][1][r], rs);
		}
	close(fd);

	print_row_head();
	for (k = 0; k < WRITERS_WITH_N; k++) {
		record("contention", "clear_ns", writers_param[k], "ns",
		       wv[k][0], wrounds);
		record("contention", "resize_ns", writers_param[k], "ns",
		       wv[k][1], wrounds);
	}
	record_ratio("contention", "clear(pread)/clear(idle)", "pread",
		     wv[W_PREAD][0], wv[W_IDLE][0], wrounds);
	record_ratio("contention", "resize(pread)/resize(idle)", "pread",
		     wv[W_PREAD][1], wv[W_IDLE][1], wrounds);
	record_ratio("contention", "resize(spin)/resize(idle)", "spin",
		     wv[W_SPIN][1], wv[W_IDLE][1], wrounds);
	for (k = 0; k < NCONF; k++) {
		record("contention", "push_p50", kparam[k], "ns", v[k][0],
		       rounds);
		record("contention", "push_p99", kparam[k], "ns", v[k][1],
		       rounds);
		record("contention", "push_max", kparam[k], "ns", v[k][2],
		       rounds);
		record("contention", "pushes_timed", kparam[k], "n", v[k][4],
		       rounds);
		if (k)
			record("contention", "reader_ns_per_read", kparam[k],
			       "ns", v[k][3], rounds);
	}
	for (k = 1; k < NCONF; k++)
		record_ratio("contention", "p99(readers)/p99(idle)", kparam[k],
			     v[k][1], v[0][1], rounds);
	free(lat);
	return 0;
}

/* ---- stream ------------------------------------------------------------------ */

/*
 * Producer and consumer of a stream: readings pushed to /dev/seqring and
 * read() back by another process, against the same readings written as
 * text to trace_marker and read back from trace_pipe. The producer runs
 * on CPU 0, the consumer on the others.
 */
enum stream_kind { STREAM_SEQRING, STREAM_TRACE };

static const char * const stream_names[] = { "seqring_read", "trace_pipe" };

#define STREAM_MAX_LAT	4096

struct stream_shared {
	unsigned long long got;		/* readings the consumer received */
	long long t_last;		/* when it received the last of them */
	int ready;
	unsigned int nlat;
	long long lat[STREAM_MAX_LAT];	/* wake-up latencies, ns */
};

static struct stream_shared *ssh;
/* The consumer's SEQRING_IOC_SET_WAKEUP threshold (1: the default). */
static __u32 stream_wakeup = 1;

/* The value a trace_pipe line carries after "tracing_mark_write: ". */
static long long trace_line_value(const char *line, const char *end)
{
	static const char tag[] = "tracing_mark_write: ";
	const char *p = memmem(line, end - line, tag, sizeof(tag) - 1);

	return p ? strtoll(p + sizeof(tag) - 1, NULL, 10) : -1;
}

/*
 * Consumer: read until @want readings arrived. With @latency, each reading
 * carries the CLOCK_MONOTONIC time it was produced (as its timestamp, or as
 * the text of the marker) and the consumer stores how long it took to get
 * it. Never returns.
 */
static void stream_consumer(enum stream_kind kind, unsigned long long want,
			    bool latency)
{
	static char buf[65536];
	char *p, *end, *nl;
	long long now;
	ssize_t n;
	size_t i;
	int fd;

	pin_away_from_cpu0();
	if (kind == STREAM_SEQRING) {
		fd = xopen(DEV_PATH, O_RDONLY);
		if (lseek(fd, 0, SEEK_END))
			die("lseek(SEEK_END) on %s: %s", DEV_PATH,
			    strerror(errno));
		if (ioctl(fd, SEQRING_IOC_SET_WAKEUP, &stream_wakeup))
			die("SET_WAKEUP %u on %s: %s", stream_wakeup, DEV_PATH,
			    strerror(errno));
	} else {
		fd = xopen(TRACING_DIR "/trace_pipe", O_RDONLY);
	}
	__atomic_store_n(&ssh->ready, 1, __ATOMIC_RELEASE);
	while (ssh->got < want) {
		n = read(fd, buf, sizeof(buf));
		now = now_ns();
		if (n <= 0) {
			if (n < 0 && (errno == EINTR || errno == EPIPE))
				continue;
			die("read from the %s stream: %s", stream_names[kind],
			    n ? strerror(errno) : "end of file");
		}
		if (kind == STREAM_SEQRING) {
			const struct seqring_record *rec = (const void *)buf;

			for (i = 0; latency && i < n / sizeof(*rec); i++)
				if (ssh->nlat < STREAM_MAX_LAT)
					ssh->lat[ssh->nlat++] = now -
						rec[i].reading.timestamp_ns;
			ssh->got += n / sizeof(*rec);
		} else {
			for (p = buf, end = buf + n;
			     (nl = memchr(p, '\n', end - p)); p = nl + 1) {
				if (latency && ssh->nlat < STREAM_MAX_LAT)
					ssh->lat[ssh->nlat++] = now -
						trace_line_value(p, nl);
				ssh->got++;
			}
		}
		ssh->t_last = now;
	}
	_exit(0);
}

/* One reading into the stream, carrying @value. */
static void stream_produce(enum stream_kind kind, int fd, long long value)
{
	struct seqring_reading r;
	char text[32];
	int len;

	if (kind == STREAM_SEQRING) {
		fill_reading(&r, value, value);
		if (ioctl(fd, SEQRING_IOC_PUSH, &r))
			die("PUSH: %s", strerror(errno));
	} else {
		len = snprintf(text, sizeof(text), "%lld\n", value);
		if (write(fd, text, len) != len)
			die("write trace_marker: %s", strerror(errno));
	}
}

static pid_t stream_start(enum stream_kind kind, unsigned long long want,
			  bool latency)
{
	int fd;
	pid_t pid;

	memset(ssh, 0, sizeof(*ssh));
	if (kind == STREAM_TRACE) {
		/* Start from an empty trace buffer. */
		fd = xopen(TRACING_DIR "/trace", O_WRONLY | O_TRUNC);
		close(fd);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		stream_consumer(kind, want, latency);
	while (!__atomic_load_n(&ssh->ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	/* Let it get into its first read(). */
	usleep(20000);
	return pid;
}

/*
 * Wait up to @ms for the consumer; kill it after that (trace_pipe may
 * lose events, and then it would wait for ever).
 */
static void stream_stop(pid_t pid, int ms)
{
	int i;

	for (i = 0; i < ms / 10; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int stream_producer_fd(enum stream_kind kind)
{
	return kind == STREAM_SEQRING ? xopen(DEV_PATH, O_WRONLY) :
		xopen(TRACING_DIR "/trace_marker", O_WRONLY);
}

/* Readings per second from the first produced to the last consumed. */
static double stream_throughput(enum stream_kind kind, unsigned long long n)
{
	unsigned long long i;
	long long t0;
	pid_t pid;
	int fd;

	fd = stream_producer_fd(kind);
	pid = stream_start(kind, n, false);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		stream_produce(kind, fd, (long long)i + 1);
	stream_stop(pid, 10000);
	close(fd);
	if (ssh->got < n)
		printf("# %s: %llu of %llu readings arrived\n",
		       stream_names[kind], ssh->got, n);
	return ssh->got / ((ssh->t_last - t0) / 1e9);
}

/*
 * Wake-up latency: @samples readings, each produced after a pause long
 * enough for the consumer to be asleep in read() again. *@p50, *@p99 in ns.
 */
static void stream_latency(enum stream_kind kind, int samples, double *p50,
			   double *p99)
{
	double v[STREAM_MAX_LAT];
	unsigned int i;
	pid_t pid;
	int fd;

	fd = stream_producer_fd(kind);
	pid = stream_start(kind, samples, true);
	for (i = 0; i < (unsigned int)samples; i++) {
		usleep(500 + rand() % 1000);
		stream_produce(kind, fd, now_ns());
	}
	stream_stop(pid, 10000);
	close(fd);
	for (i = 0; i < ssh->nlat; i++)
		v[i] = ssh->lat[i];
	if (!ssh->nlat)
		die("%s: no reading arrived", stream_names[kind]);
	/* Not summarize(): that takes at most MAX_ROUNDS values. */
	qsort(v, ssh->nlat, sizeof(v[0]), cmp_double);
	*p50 = v[ssh->nlat / 2];
	*p99 = v[(ssh->nlat * 99 + 99) / 100 - 1];
}

/* Value of "KEY: N" (or "KEY: N kB") in @path, -1 if absent. */
static long long file_key(const char *path, const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		die("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ':') {
			v = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	if (v < 0)
		die("no '%s' in %s", key, path);
	return v;
}

/* ns per PUSH in a block of @iters. */
static double push_block(int fd, unsigned long iters)
{
	struct seqring_reading r;
	unsigned long i;
	long long t0;

	fill_reading(&r, 1, 1);
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		if (ioctl(fd, SEQRING_IOC_PUSH, &r))
			die("PUSH: %s", strerror(errno));
	return (double)(now_ns() - t0) / iters;
}

/* What runs on the other CPU while stream_push_cost() times a block. */
enum push_with { WITH_NOTHING, WITH_CONSUMER, WITH_SPINNER, PUSH_WITH_N };

/*
 * PUSH with a consumer that follows the stream with blocking read()s,
 * against PUSH with that consumer stopped (SIGSTOP takes it off the wait
 * queue: its read() is interrupted and restarted on SIGCONT), and against
 * PUSH with a process spinning on the consumer's CPU instead, which shares
 * nothing with the ring: what that costs is the emulator's, not the
 * driver's. @sleeps gets the consumer's voluntary context switches per
 * PUSH while it follows: how often a push found it asleep and woke it.
 */
static void stream_push_cost(int rounds, double *alone, double *followed,
			     double *busy, double *sleeps)
{
	unsigned long iters = quick ? 2000 : 5000;
	char status[64];
	pid_t pid, spin;
	long long sw;
	int fd, r, k;

	fd = xopen(DEV_PATH, O_WRONLY);
	pid = stream_start(STREAM_SEQRING, ~0ULL, false);
	spin = start_spinner();
	kill(spin, SIGSTOP);
	snprintf(status, sizeof(status), "/proc/%d/status", (int)pid);
	/* Warm up, consumer running. */
	push_block(fd, iters);
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < PUSH_WITH_N; k++) {
			enum push_with with = (k + r) % PUSH_WITH_N;

			kill(pid, with == WITH_CONSUMER ? SIGCONT : SIGSTOP);
			kill(spin, with == WITH_SPINNER ? SIGCONT : SIGSTOP);
			usleep(20000);
			if (with == WITH_CONSUMER) {
				sw = file_key(status, "voluntary_ctxt_switches");
				followed[r] = push_block(fd, iters);
				sleeps[r] = (double)(file_key(status,
					"voluntary_ctxt_switches") - sw) / iters;
			} else if (with == WITH_SPINNER) {
				busy[r] = push_block(fd, iters);
			} else {
				alone[r] = push_block(fd, iters);
			}
		}
	}
	kill(spin, SIGKILL);
	waitpid(spin, NULL, 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd);
}

/*
 * @iters single PUSHes, 2 ms apart (spinning, as a sleep would take far
 * longer under emulation): time enough for a consumer on another CPU to
 * wake up (p99 ~4 ms here, p50 ~0.1 ms), read what there is and block
 * again between two of them.
 */
static void push_paced(int fd, unsigned long iters)
{
	struct seqring_reading r;
	unsigned long i;
	long long t;

	fill_reading(&r, 1, 1);
	for (i = 0; i < iters; i++) {
		if (ioctl(fd, SEQRING_IOC_PUSH, &r))
			die("PUSH: %s", strerror(errno));
		t = now_ns() + 2000000;
		while (now_ns() < t)
			;
	}
}

/*
 * How often a consumer blocked in read() with wake-up threshold @wakeup is
 * woken, per PUSH: its voluntary context switches over a block of paced
 * single PUSHes. A threshold checked by the pusher wakes it once per @wakeup
 * readings; one it checks itself, once per PUSH.
 */
static void stream_wakeups(__u32 wakeup, int rounds, double *per_push)
{
	unsigned long iters = quick ? 256 : 1024;
	char status[64];
	long long sw;
	pid_t pid;
	int fd, r;

	fd = xopen(DEV_PATH, O_WRONLY);
	stream_wakeup = wakeup;
	pid = stream_start(STREAM_SEQRING, ~0ULL, false);
	stream_wakeup = 1;
	snprintf(status, sizeof(status), "/proc/%d/status", (int)pid);
	for (r = 0; r < rounds; r++) {
		sw = file_key(status, "voluntary_ctxt_switches");
		push_paced(fd, iters);
		usleep(20000);
		per_push[r] = (double)(file_key(status,
				"voluntary_ctxt_switches") - sw) / iters;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd);
}

static int cmd_stream(void)
{
	double rate[2][MAX_ROUNDS], p50[2][MAX_ROUNDS], p99[2][MAX_ROUNDS];
	double alone[MAX_ROUNDS], followed[MAX_ROUNDS], busy[MAX_ROUNDS];
	double sleeps[MAX_ROUNDS], woken[2][MAX_ROUNDS];
	static const __u32 wakeups[2] = { 1, 64 };
	unsigned long long n = quick ? 5000 : 20000;
	int rounds, lrounds, samples, nkinds, r, j, k;
	char param[32];

	ssh = mmap(NULL, sizeof(*ssh), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ssh == MAP_FAILED)
		die("out of memory");
	pin_to_cpu0();
	nkinds = access(TRACING_DIR "/trace_pipe", R_OK) ? 1 : 2;
	if (nkinds == 1)
		printf("# no %s/trace_pipe: peer not measured\n", TRACING_DIR);
	rounds = rounds_or(9, 3);
	lrounds = rounds_or(5, 2);
	samples = quick ? 200 : 500;

	/* Warm up both paths. */
	for (k = 0; k < nkinds; k++)
		stream_throughput(k, n / 4);
	for (r = 0; r < rounds; r++)
		for (j = 0; j < nkinds; j++) {
			k = (j + r) % nkinds;
			rate[k][r] = stream_throughput(k, n);
		}
	for (r = 0; r < lrounds; r++)
		for (j = 0; j < nkinds; j++) {
			k = (j + r) % nkinds;
			stream_latency(k, samples, &p50[k][r], &p99[k][r]);
		}
	stream_push_cost(rounds, alone, followed, busy, sleeps);
	for (k = 0; k < 2; k++)
		stream_wakeups(wakeups[k], rounds, woken[k]);

	print_row_head();
	snprintf(param, sizeof(param), "%llu", n);
	for (k = 0; k < nkinds; k++) {
		char metric[NAME_LEN];

		snprintf(metric, sizeof(metric), "%s.readings_per_s",
			 stream_names[k]);
		record("stream", metric, param, "rec/s", rate[k], rounds);
		snprintf(metric, sizeof(metric), "%s.wake_p50", stream_names[k]);
		record("stream", metric, "1", "ns", p50[k], lrounds);
		snprintf(metric, sizeof(metric), "%s.wake_p99", stream_names[k]);
		record("stream", metric, "1", "ns", p99[k], lrounds);
	}
	if (nkinds == 2) {
		record_ratio("stream", "seqring/trace_pipe.readings_per_s",
			     param, rate[0], rate[1], rounds);
		record_ratio("stream", "seqring/trace_pipe.wake_p50", "1",
			     p50[0], p50[1], lrounds);
		record_ratio("stream", "seqring/trace_pipe.wake_p99", "1",
			     p99[0], p99[1], lrounds);
	}
	record("stream", "push_alone", "1", "ns", alone, rounds);
	record("stream", "push_followed", "1", "ns", followed, rounds);
	record_ratio("stream", "push_followed/push_alone", "1", followed,
		     alone, rounds);
	record("stream", "push_cpu1_busy", "1", "ns", busy, rounds);
	record_ratio("stream", "push_cpu1_busy/push_alone", "1", busy, alone,
		     rounds);
	record("stream", "consumer_sleeps_per_push", "1", "n", sleeps, rounds);
	for (k = 0; k < 2; k++) {
		snprintf(param, sizeof(param), "%u", wakeups[k]);
		record("stream", "wakeups_per_push", param, "n", woken[k],
		       rounds);
	}
	return 0;
}

/* ---- the mapping ---------------------------------------------------------------- */

/*
 * What a consumer costs per reading, with the producer out of the way: the
 * ring is filled first (PUSH_BATCH), then drained whole and timed, from
 * the mapping, with read(), and (the peers) trace_pipe after as many
 * trace_marker writes, and ftrace's mapped ring after as many
 * trace_marker_raw writes of the same 40-byte reading. Readings/s.
 */
enum map_kind {
	MAP_MAPPING, MAP_READ, MAP_TRACE, MAP_FTRACE,
	MAP_READ_1, MAP_READ_16, MAP_READ_256,	/* what a call costs */
	MAP_KINDS
};

#define MAP_BATCH	4096
#define MAP_SPIN_RECS	256

static const char * const map_names[MAP_KINDS] = {
	"mapping", "read", "trace_pipe", "ftrace_map",
	"read(1)", "read(16)", "read(256)",
};

/*
 * Records a read() asks for: 64 KiB's worth (1365) for "read", fewer for
 * the rows that tell the system call's cost from the record's.
 */
static const size_t map_read_recs[MAP_KINDS] = {
	[MAP_READ] = LISTING_BUF / sizeof(struct seqring_record),
	[MAP_READ_1] = 1,
	[MAP_READ_16] = 16,
	[MAP_READ_256] = 256,
};

/*
 * ftrace's mapped ring, include/uapi/linux/trace_mmap.h (6.10): the host's
 * headers may be older than the kernel measured, so its ABI is spelt here.
 */
struct ftrace_map_meta {
	__u32 meta_page_size;
	__u32 meta_struct_len;
	__u32 subbuf_size;
	__u32 nr_subbufs;
	struct {
		__u64 lost_events;
		__u32 id;
		__u32 read;
	} reader;
	__u64 flags;
	__u64 entries;
	__u64 overrun;
	__u64 read;
	__u64 reserved[2];
};

#define FTRACE_MAP_GET_READER	_IO('R', 0x20)
#define FTRACE_PIPE_RAW		TRACING_DIR "/per_cpu/cpu0/trace_pipe_raw"
#define FTRACE_RAW_FORMAT	TRACING_DIR "/events/ftrace/raw_data/format"

/*
 * A sub-buffer as events/header_page describes it: a time stamp, then
 * the bytes committed (a local_t, with two flags in its top bits), then
 * the events.
 */
struct ftrace_subbuf {
	__u64 time_stamp;
	long commit;
	unsigned char data[];
};

#define FTRACE_COMMIT_FLAGS	(3UL << 30)	/* RB_MISSED_{EVENTS,STORED} */

/* The ring buffer's event header: type_len in the low 5 bits. */
#define FTRACE_TYPE_LEN(h)	((h) & 0x1f)
#define FTRACE_PADDING		29
#define FTRACE_TIME_EXTEND	30
#define FTRACE_TIME_STAMP	31

/* The raw_data event of trace_marker_raw: its type and its buf field. */
static unsigned int ftrace_raw_id;
static size_t ftrace_raw_buf;

/* What trace_marker_raw takes: a 4-byte tag, then the event's bytes. */
#define FTRACE_RAW_TAG		4

/*
 * Why ftrace's ring cannot be mapped here, or NULL when it can: it can
 * from 6.10 on, by mmap() of trace_pipe_raw; the event's type and
 * layout are read from its format file.
 */
static const char *ftrace_map_unavailable(void)
{
	static char why[160];
	char buf[4096], *p;
	struct utsname u;
	int major = 0, minor = 0, fd;
	ssize_t len;
	void *meta;

	uname(&u);
	if (sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major < 6 || (major == 6 && minor < 10)) {
		snprintf(why, sizeof(why),
			 "%s is older than 6.10, whose ftrace ring can be mapped",
			 u.release);
		return why;
	}
	fd = open(FTRACE_RAW_FORMAT, O_RDONLY);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return "no " FTRACE_RAW_FORMAT;
	buf[len] = '\0';
	p = strstr(buf, "\nID: ");
	if (p)
		ftrace_raw_id = strtoul(p + 5, NULL, 10);
	p = strstr(buf, " buf[];");
	if (p)
		p = strstr(p, "offset:");
	if (!ftrace_raw_id || !p)
		return "no ID or buf field in " FTRACE_RAW_FORMAT;
	ftrace_raw_buf = strtoul(p + 7, NULL, 10);
	fd = open(FTRACE_PIPE_RAW, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", FTRACE_PIPE_RAW,
			 strerror(errno));
		return why;
	}
	meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		snprintf(why, sizeof(why), "mmap %s: %s", FTRACE_PIPE_RAW,
			 strerror(errno));
		close(fd);
		return why;
	}
	munmap(meta, getpagesize());
	close(fd);
	return NULL;
}

/*
 * Copy the readings of a sub-buffer's events from byte *@off up to @end
 * of its data into @rec, at most @max (seq: their count so far, *@got),
 * as srl_map_read() copies slots out; *@off moves past what was taken.
 * Returns the readings copied.
 */
static size_t ftrace_subbuf_read(const unsigned char *data, size_t *off,
				 size_t end, struct seqring_record *rec,
				 size_t max, unsigned long long *got)
{
	const unsigned char *ev;
	size_t n = 0, len, size;
	__u32 hdr, arg;
	__u16 type;

	while (n < max && *off + 4 <= end) {
		ev = data + *off;
		memcpy(&hdr, ev, 4);
		memcpy(&arg, ev + 4, 4);
		switch (FTRACE_TYPE_LEN(hdr)) {
		case 0:			/* long event: its length in array[0] */
			size = 4 + arg;
			ev += 8;
			len = arg - 4;
			break;
		case FTRACE_PADDING:	/* a discarded event, or the end */
			if (!(hdr >> 5)) {
				*off = end;
				return n;
			}
			size = 4 + arg;
			len = 0;
			break;
		case FTRACE_TIME_EXTEND:
		case FTRACE_TIME_STAMP:
			size = 8;
			len = 0;
			break;
		default:
			size = 4 + FTRACE_TYPE_LEN(hdr) * 4;
			ev += 4;
			len = size - 4;
			break;
		}
		*off += size;
		if (len < ftrace_raw_buf + sizeof(rec->reading))
			continue;
		memcpy(&type, ev, sizeof(type));
		if (type != ftrace_raw_id)
			continue;
		rec[n].seq = (*got)++;
		memcpy(&rec[n].reading, ev + ftrace_raw_buf,
		       sizeof(rec->reading));
		n++;
	}
	return n;
}

/*
 * Fill CPU 0's ftrace buffer with @n trace_marker_raw events (@fd) and
 * drain it through its mapping as a consumer of trace_mmap.h does:
 * TRACE_MMAP_IOCTL_GET_READER hands over the next sub-buffer (the kernel
 * counts it read), whose events are parsed in place and copied out.
 * Returns readings/s.
 */
static double ftrace_map_drain(int fd, unsigned long long n)
{
	static struct seqring_record rec[MAP_SPIN_RECS];
	unsigned char w[FTRACE_RAW_TAG + sizeof(struct seqring_reading)] = { 1 };
	struct seqring_reading reading;
	const struct ftrace_map_meta *meta;
	const struct ftrace_subbuf *sb;
	size_t meta_len, data_len, off = 0, end, k;
	unsigned long long got = 0, i;
	unsigned char *data;
	long long t0, t;
	long last = -1;
	int rfd;

	write_file(TRACING_DIR "/trace", "");
	for (i = 0; i < n; i++) {
		fill_reading(&reading, 1, (long long)i);
		memcpy(w + FTRACE_RAW_TAG, &reading, sizeof(reading));
		if (write(fd, w, sizeof(w)) != sizeof(w))
			die("write trace_marker_raw: %s", strerror(errno));
	}
	rfd = xopen(FTRACE_PIPE_RAW, O_RDONLY | O_NONBLOCK);
	meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, rfd, 0);
	if (meta == MAP_FAILED)
		die("mmap %s: %s", FTRACE_PIPE_RAW, strerror(errno));
	meta_len = meta->meta_page_size;
	data_len = (size_t)meta->subbuf_size * meta->nr_subbufs;
	data = mmap(NULL, data_len, PROT_READ, MAP_SHARED, rfd, meta_len);
	if (data == MAP_FAILED)
		die("mmap %s's sub-buffers: %s", FTRACE_PIPE_RAW,
		    strerror(errno));
	t0 = now_ns();
	for (;;) {
		if (ioctl(rfd, FTRACE_MAP_GET_READER))
			die("TRACE_MMAP_IOCTL_GET_READER: %s", strerror(errno));
		/* A new reader sub-buffer is read from its start. */
		if (meta->reader.id != last) {
			last = meta->reader.id;
			off = 0;
		}
		sb = (const void *)(data + (size_t)last * meta->subbuf_size);
		end = sb->commit & ~FTRACE_COMMIT_FLAGS;
		if (off >= end)
			break;
		while (off < end) {
			k = ftrace_subbuf_read(sb->data, &off, end, rec,
					       MAP_SPIN_RECS, &got);
			/* Reading i holds value i: the events were parsed right. */
			if (k && rec[k - 1].reading.value != (__s64)rec[k - 1].seq)
				die("%s: reading %llu holds %lld, expected %llu",
				    map_names[MAP_FTRACE], rec[k - 1].seq,
				    (long long)rec[k - 1].reading.value,
				    rec[k - 1].seq);
		}
	}
	t = now_ns() - t0;
	if (got != n)
		printf("# %s: %llu of %llu readings drained\n",
		       map_names[MAP_FTRACE], got, n);
	munmap(data, data_len);
	munmap((void *)meta, getpagesize());
	close(rfd);
	return got / (t / 1e9);
}

static void map_fill(int fd, unsigned long long n)
{
	static struct seqring_reading batch[MAP_BATCH];
	unsigned long long i;
	size_t k;

	for (k = 0; k < MAP_BATCH; k++)
		fill_reading(&batch[k], 1, (long long)k);
	if (ioctl(fd, SEQRING_IOC_CLEAR))
		die("CLEAR: %s", strerror(errno));
	for (i = 0; i < n; i += k) {
		k = n - i < MAP_BATCH ? n - i : MAP_BATCH;
		if (srl_push_batch(fd, batch, k, NULL))
			die("PUSH_BATCH: %s", strerror(errno));
	}
}

static double map_drain(enum map_kind kind, int fd, unsigned long long n)
{
	static char buf[LISTING_BUF];
	struct seqring_record *rec = (struct seqring_record *)buf;
	size_t max = sizeof(buf) / sizeof(*rec);
	unsigned long long got = 0;
	struct srl_map *map = NULL;
	char line[32];
	long long t0, t;
	ssize_t k;
	int rfd, i, len;
	char *p;

	if (kind == MAP_TRACE) {
		rfd = xopen(TRACING_DIR "/trace", O_WRONLY | O_TRUNC);
		close(rfd);
		for (i = 0; i < (int)n; i++) {
			len = snprintf(line, sizeof(line), "%d\n", i);
			if (write(fd, line, len) != len)
				die("write trace_marker: %s", strerror(errno));
		}
		rfd = xopen(TRACING_DIR "/trace_pipe", O_RDONLY | O_NONBLOCK);
	} else {
		map_fill(fd, n);
		/* A new file reads from the oldest reading held. */
		rfd = xopen(DEV_PATH, O_RDONLY | O_NONBLOCK);
		if (kind == MAP_MAPPING && srl_map_open(rfd, &map))
			die("cannot map %s", DEV_PATH);
	}
	t0 = now_ns();
	while (got < n) {
		if (kind == MAP_MAPPING)
			k = srl_map_read(map, rec, max);
		else if (map_read_recs[kind])
			k = srl_read(rfd, rec, map_read_recs[kind]);
		else
			k = read(rfd, buf, sizeof(buf));
		if (k <= 0)
			break;
		if (kind == MAP_TRACE)
			for (p = buf; (p = memchr(p, '\n', buf + k - p)); p++)
				got++;
		else
			got += k;
	}
	t = now_ns() - t0;
	if (got < n)
		printf("# %s: %llu of %llu readings drained\n", map_names[kind],
		       got, n);
	srl_map_close(map);
	close(rfd);
	return got / (t / 1e9);
}

/* A consumer spinning on the mapping from the next reading pushed on. */
static pid_t start_map_spinner(void)
{
	static struct seqring_record rec[MAP_SPIN_RECS];
	struct srl_map *map;
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		pin_away_from_cpu0();
		if (srl_map_open_ring(NULL, &map))
			_exit(1);
		srl_map_seek(map, UINT64_MAX);
		for (;;)
			srl_map_read(map, rec, MAP_SPIN_RECS);
	}
	return pid;
}

/* Say in the report's notes (next to the results file) why a row is not there. */
static void note(const char *fmt, ...)
{
	char path[256];
	const char *slash = strrchr(out_path, '/');
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%.*snotes.txt",
		 slash ? (int)(slash - out_path + 1) : 0, out_path);
	f = fopen(path, "a");
	if (!f)
		die("open %s: %s", path, strerror(errno));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static double map_drain_kind(enum map_kind kind, const int *fds,
			     unsigned long long n)
{
	if (kind == MAP_FTRACE)
		return ftrace_map_drain(fds[kind], n);
	return map_drain(kind, fds[kind], n);
}

static int cmd_mapped(void)
{
	static const char * const with_name[3] = { "0", "2map", "2spin" };
	double rate[MAP_KINDS][MAX_ROUNDS], v[3][2][MAX_ROUNDS], res[5];
	unsigned long long n = quick ? 16384 : 32768;
	int rounds, samples, nkinds = 0, r, i, j, k, fd;
	int fds[MAP_KINDS];
	enum map_kind kinds[MAP_KINDS];
	long long max_ns, *lat;
	pid_t pid[2] = { 0, 0 };
	const char *why;
	char param[32];

	pin_to_cpu0();
	rounds = rounds_or(9, 3);
	samples = quick ? 3000 : 10000;
	max_ns = quick ? 400000000LL : 1500000000LL;
	lat = calloc(samples, sizeof(*lat));
	if (!lat)
		die("out of memory");
	fd = xopen(DEV_PATH, O_RDWR);
	for (k = 0; k < MAP_KINDS; k++)
		fds[k] = map_read_recs[k] ? fd : -1;
	fds[MAP_MAPPING] = fd;
	for (k = 0; k < MAP_KINDS; k++)
		if (fds[k] >= 0)
			kinds[nkinds++] = k;
	if (access(TRACING_DIR "/trace_pipe", R_OK)) {
		printf("# no %s/trace_pipe: peer not measured\n", TRACING_DIR);
	} else {
		fds[MAP_TRACE] = xopen(TRACING_DIR "/trace_marker", O_WRONLY);
		kinds[nkinds++] = MAP_TRACE;
	}
	why = ftrace_map_unavailable();
	if (why) {
		printf("# ftrace's mapped ring not measured: %s\n", why);
		note("ftrace_map: not measured: %s", why);
	} else {
		fds[MAP_FTRACE] = xopen(TRACING_DIR "/trace_marker_raw",
					O_WRONLY);
		kinds[nkinds++] = MAP_FTRACE;
		/*
		 * An event is 56 bytes (header, trace_entry, tag, reading),
		 * ~72 to a 4 KiB sub-buffer: room for all, none overwritten.
		 */
		snprintf(param, sizeof(param), "%llu", n * 80 / 1024 + 1024);
		write_file(TRACING_DIR "/per_cpu/cpu0/buffer_size_kb", param);
	}

	/* Warm up every path. */
	for (k = 0; k < nkinds; k++)
		map_drain_kind(kinds[k], fds, n / 4);
	for (r = 0; r < rounds; r++)
		for (j = 0; j < nkinds; j++) {
			k = kinds[(j + r) % nkinds];
			rate[k][r] = map_drain_kind(k, fds, n);
		}
	if (fds[MAP_FTRACE] >= 0) {
		close(fds[MAP_FTRACE]);
		trace_cleanup();
	}

	contention_block(fd, 0, 0, lat, samples, max_ns, res, NULL);
	for (r = 0; r < rounds; r++)
		for (j = 0; j < 3; j++) {
			k = (j + r) % 3;
			if (k) {
				pid[0] = k == 1 ? start_map_spinner() :
					 start_spinner();
				pid[1] = k == 1 ? start_map_spinner() :
					 start_spinner();
				usleep(20000);
			}
			contention_block(fd, 0, 0, lat, samples, max_ns, res,
					 NULL);
			v[k][0][r] = res[0];
			v[k][1][r] = res[1];
			for (i = 0; k && i < 2; i++) {
				kill(pid[i], SIGKILL);
				waitpid(pid[i], NULL, 0);
			}
		}
	if (fds[MAP_TRACE] >= 0)
		close(fds[MAP_TRACE]);
	close(fd);

	print_row_head();
	snprintf(param, sizeof(param), "%llu", n);
	for (j = 0; j < nkinds; j++) {
		char metric[NAME_LEN];

		k = kinds[j];
		snprintf(metric, sizeof(metric), "%s.readings_per_s",
			 map_names[k]);
		record("mapped", metric, param, "rec/s", rate[k], rounds);
	}
	record_ratio("mapped", "mapping/read.readings_per_s", param,
		     rate[MAP_MAPPING], rate[MAP_READ], rounds);
	if (fds[MAP_TRACE] >= 0)
		record_ratio("mapped", "mapping/trace_pipe.readings_per_s",
			     param, rate[MAP_MAPPING], rate[MAP_TRACE],
			     rounds);
	if (fds[MAP_FTRACE] >= 0)
		record_ratio("mapped", "mapping/ftrace_map.readings_per_s",
			     param, rate[MAP_MAPPING], rate[MAP_FTRACE],
			     rounds);
	for (k = MAP_READ_1; k <= MAP_READ_256; k++) {
		char metric[NAME_LEN];

		snprintf(metric, sizeof(metric), "mapping/%s.readings_per_s",
			 map_names[k]);
		record_ratio("mapped", metric, param, rate[MAP_MAPPING],
			     rate[k], rounds);
	}
	for (k = 0; k < 3; k++) {
		record("mapped", "push_p50", with_name[k], "ns", v[k][0],
		       rounds);
		record("mapped", "push_p99", with_name[k], "ns", v[k][1],
		       rounds);
	}
	record_ratio("mapped", "p99(2 map spinners)/p99(idle)", "2",
		     v[1][1], v[0][1], rounds);
	record_ratio("mapped", "p99(2 spinners)/p99(idle)", "2", v[2][1],
		     v[0][1], rounds);
	free(lat);
	return 0;
}

/* ---- memory ----------------------------------------------------------------- */

static int cmd_memory(unsigned long long n, const char *before)
{
	static const char * const keys[] = { "Slab", "VmallocUsed" };
	static const char * const names[] = { "slab_delta", "vmalloc_delta" };
	long long cap, ring;
	char param[32];
	double d;
	int i;

	snprintf(param, sizeof(param), "%llu", n);
	cap = file_key(STATS_PATH, "capacity");
	ring = file_key(STATS_PATH, "ring_bytes");
	if (cap != (long long)n)
		die("debugfs capacity is %lld, expected %llu", cap, n);

	print_row_head();
	record1("memory", "driver_bytes_per_reading", param, "B",
		(double)ring / cap);
	for (i = 0; i < 2; i++) {
		d = file_key("/proc/meminfo", keys[i]) -
		    file_key(before, keys[i]);
		record1("memory", names[i], param, "kB", d);
	}
	return 0;
}

static void read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	if (fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* ---- the kernel API ---------------------------------------------------------- */

#define KBENCH_DIR	"/sys/kernel/debug/seqring_kbench"
#define KBENCH_EVENT	TRACING_DIR "/events/seqring_kbench/seqring_kbench_reading/enable"

/*
 * One measurement of seqring_kbench.ko: write @cmd to its control file,
 * which returns when the kernel threads are done; their time in ns.
 */
static double kbench_run(const char *cmd)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = xopen(KBENCH_DIR "/control", O_WRONLY);
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		die("write '%s' to %s/control: %s", cmd, KBENCH_DIR,
		    strerror(errno));
	close(fd);
	fd = xopen(KBENCH_DIR "/result", O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		die("read %s/result: %s", KBENCH_DIR, n ? strerror(errno) : "empty");
	close(fd);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* Whether @cmd runs, without dying when it does not (EOPNOTSUPP). */
static bool kbench_try(const char *cmd)
{
	bool ok;
	int fd;

	fd = xopen(KBENCH_DIR "/control", O_WRONLY);
	ok = write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd);
	close(fd);
	return ok;
}

static bool kbench_event_enabled(void)
{
	char buf[8];

	read_small(KBENCH_EVENT, buf, sizeof(buf));
	return !strcmp(buf, "1");
}

/*
 * What the steps of seqring_push() cost alone on this machine (the module's
 * "op" command): ns per clock read, fully ordered cmpxchg, smp_mb(),
 * interrupts off and on, and division, less the empty loop's; for the
 * profile of a push (doc/performance.md, "BPF programs"). No target.
 */
static void kapi_ops(int rounds)
{
	/* seqring_kbench.c's kbench_ops[], the empty loop first. */
	enum { NOPS = 6 };
	static const char * const ops[NOPS] = {
		"loop", "clock", "cmpxchg", "mb", "irqsave", "div",
	};
	const unsigned long long n = quick ? 20000 : 100000;
	double t[NOPS][MAX_ROUNDS], v[MAX_ROUNDS];
	char cmd[64];
	int r, k, i;

	snprintf(cmd, sizeof(cmd), "op loop 1");
	if (!kbench_try(cmd)) {
		printf("# seqring_kbench.ko has no op command: the writer's steps not measured\n");
		return;
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NOPS; i++) {
			k = (i + r) % NOPS;
			snprintf(cmd, sizeof(cmd), "op %s %llu", ops[k], n);
			t[k][r] = kbench_run(cmd);
		}
	}
	for (k = 1; k < NOPS; k++) {
		for (r = 0; r < rounds; r++)
			v[r] = (t[k][r] - t[0][r]) / n;
		record("kapi", "op", ops[k], "ns/op", v, rounds);
	}
}

/*
 * seqring_push() from a kernel thread against the trace event of the same
 * fields (seqring_kbench.ko), both on CPU 0; and readings/s of two threads
 * pushing into one ring, on CPUs 0 and 1, against one. A round measures
 * each once, in an order that rotates; the ratios are per round.
 */
static int cmd_kapi(void)
{
	enum { PUSH1, TRACE1, PUSH2, TRACE2, NMIPUSH, NMITRACE, NSUBJ };
	static const char * const names[NSUBJ] = {
		"push", "trace_event", "push_2cpus", "trace_event_2cpus",
		"nmi_push", "nmi_trace_event",
	};
	/* Calls an NMI makes, and NMIs a measurement raises. */
	const unsigned long long nmi_calls = 64, nmis = quick ? 16 : 64;
	bool nmi;
	double t[NSUBJ][MAX_ROUNDS], v[4][MAX_ROUNDS], best;
	bool trace = kbench_event_enabled();
	bool two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	double block_ns = quick ? 4e6 : 10e6;
	unsigned long long n = 256;
	int rounds = rounds_or(101, 31), r, k, i;
	bool skip[NSUBJ];
	char cmd[NSUBJ][64];

	if (!trace)
		printf("# %s is not 1: the trace event peer not measured\n",
		       KBENCH_EVENT);
	if (!two)
		printf("# one CPU: two producers not measured\n");
	/* From an NMI: x86 only (the module raises them through the APIC). */
	snprintf(cmd[0], sizeof(cmd[0]), "nmipush 1 1");
	nmi = kbench_try(cmd[0]);
	if (!nmi)
		printf("# no NMIs from seqring_kbench.ko here: the NMI rows not measured\n");
	skip[PUSH1] = false;
	skip[TRACE1] = !trace;
	skip[PUSH2] = !two;
	skip[TRACE2] = !trace || !two;
	skip[NMIPUSH] = !nmi || !trace;
	skip[NMITRACE] = !nmi || !trace;

	/* Readings a block, for about block_ns of pushes (best of three). */
	for (;;) {
		snprintf(cmd[0], sizeof(cmd[0]), "push %llu 0", n);
		best = kbench_run(cmd[0]);
		for (i = 0; i < 2; i++)
			best = fmin(best, kbench_run(cmd[0]));
		if (best >= block_ns / 4 || n >= 1ULL << 26)
			break;
		n *= 2;
	}
	n = n * block_ns / fmax(best, 1);
	if (!n)
		n = 1;
	snprintf(cmd[PUSH1], sizeof(cmd[PUSH1]), "push %llu 0", n);
	snprintf(cmd[TRACE1], sizeof(cmd[TRACE1]), "trace %llu 0", n);
	snprintf(cmd[PUSH2], sizeof(cmd[PUSH2]), "push %llu 0 1", n);
	snprintf(cmd[TRACE2], sizeof(cmd[TRACE2]), "trace %llu 0 1", n);
	snprintf(cmd[NMIPUSH], sizeof(cmd[NMIPUSH]), "nmipush %llu %llu",
		 nmi_calls, nmis);
	snprintf(cmd[NMITRACE], sizeof(cmd[NMITRACE]), "nmitrace %llu %llu",
		 nmi_calls, nmis);
	printf("# %llu readings a block and thread; %llu NMIs of %llu calls\n",
	       n, nmis, nmi_calls);

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NSUBJ; i++) {
			k = (i + r) % NSUBJ;
			if (!skip[k])
				t[k][r] = kbench_run(cmd[k]);
		}
	}

	print_row_head();
	for (k = 0; k < NSUBJ; k++) {
		if (skip[k])
			continue;
		for (r = 0; r < rounds; r++)
			v[0][r] = t[k][r] / (k >= NMIPUSH ? nmi_calls * nmis : n);
		record("kapi", names[k], k == PUSH2 || k == TRACE2 ? "2" : "1",
		       "ns/reading", v[0], rounds);
	}
	if (trace)
		record_ratio("kapi", "push/trace_event", "1", t[PUSH1],
			     t[TRACE1], rounds);
	/* The same NMIs, the same calls: the time inside them. */
	if (!skip[NMIPUSH])
		record_ratio("kapi", "nmi_push/nmi_trace_event", "1", t[NMIPUSH],
			     t[NMITRACE], rounds);
	kapi_ops(rounds);
	if (!two)
		return 0;
	for (r = 0; r < rounds; r++) {
		v[0][r] = n / (t[PUSH1][r] / 1e9);
		v[1][r] = 2 * n / (t[PUSH2][r] / 1e9);
	}
	record("kapi", "pushes_per_s", "1", "readings/s", v[0], rounds);
	record("kapi", "pushes_per_s", "2", "readings/s", v[1], rounds);
	record_ratio("kapi", "pushes_per_s(2)/pushes_per_s(1)", "2", v[1],
		     v[0], rounds);
	if (!trace)
		return 0;
	/*
	 * The control: trace events go to per-CPU buffers and share nothing,
	 * so their scaling is what two vCPUs of this host give at best.
	 */
	for (r = 0; r < rounds; r++) {
		v[2][r] = n / (t[TRACE1][r] / 1e9);
		v[3][r] = 2 * n / (t[TRACE2][r] / 1e9);
	}
	record_ratio("kapi", "trace_events_per_s(2)/trace_events_per_s(1)",
		     "2", v[3], v[2], rounds);
	/* seqring's gain from a second producer against the control's. */
	for (r = 0; r < rounds; r++) {
		v[0][r] = v[1][r] / v[0][r];
		v[1][r] = v[3][r] / v[2][r];
	}
	record_ratio("kapi", "push_gain/trace_event_gain", "2", v[0], v[1],
		     rounds);
	return 0;
}

/* ---- idle open files ----------------------------------------------------------- */

/* Open files in the idle-files blocks; the rlimit is raised to fit them. */
#define IDLE_FILES	10000

/*
 * PUSH latency (paced as in contention) with IDLE_FILES open files of the
 * device that nobody reads or polls, against none, in rounds whose order
 * alternates. A push must cost nothing for files that do not wait: a
 * wake-up used to walk every file that had ever waited, so a member of the
 * device's group could make every push slower by opening files.
 */
static int cmd_idlefiles(void)
{
	static const char * const param[2] = { "0", "10000" };
	double v[2][3][MAX_ROUNDS], res[5];
	int rounds, samples, r, j, k, i, fd, *fds;
	long long max_ns, *lat, t0, open_ns = 0;
	struct rlimit rl;

	rl.rlim_cur = IDLE_FILES + 64;
	rl.rlim_max = IDLE_FILES + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE, %d): %s", IDLE_FILES + 64,
		    strerror(errno));
	rounds = rounds_or(9, 3);
	samples = quick ? 3000 : 10000;
	max_ns = quick ? 400000000LL : 1500000000LL;
	lat = calloc(samples, sizeof(*lat));
	fds = calloc(IDLE_FILES, sizeof(*fds));
	if (!lat || !fds)
		die("out of memory");
	pin_to_cpu0();
	fd = xopen(DEV_PATH, O_RDWR);
	/* Warm up. */
	contention_block(fd, 0, 0, lat, samples, max_ns, res, NULL);
	for (r = 0; r < rounds; r++) {
		for (j = 0; j < 2; j++) {
			k = (j + r) % 2;
			if (k) {
				t0 = now_ns();
				for (i = 0; i < IDLE_FILES; i++)
					fds[i] = xopen(DEV_PATH, O_RDONLY);
				open_ns += now_ns() - t0;
			}
			contention_block(fd, 0, 0, lat, samples, max_ns, res,
					 NULL);
			v[k][0][r] = res[0];
			v[k][1][r] = res[1];
			v[k][2][r] = res[2];
			if (k)
				for (i = 0; i < IDLE_FILES; i++)
					close(fds[i]);
		}
	}
	close(fd);
	printf("# %d files opened in %.0f ms a round\n", IDLE_FILES,
	       open_ns / 1e6 / rounds);

	print_row_head();
	for (k = 0; k < 2; k++) {
		record("idlefiles", "push_p50", param[k], "ns", v[k][0], rounds);
		record("idlefiles", "push_p99", param[k], "ns", v[k][1], rounds);
		record("idlefiles", "push_max", param[k], "ns", v[k][2], rounds);
	}
	record_ratio("idlefiles", "p99(idle files)/p99(none)", param[1],
		     v[1][1], v[0][1], rounds);
	record_ratio("idlefiles", "p50(idle files)/p50(none)", param[1],
		     v[1][0], v[0][0], rounds);
	free(fds);
	free(lat);
	return 0;
}

/* ---- visibility under a scheduling adversary ------------------------------------- */

/* The channel of the pusher's readings, which the adversary never uses. */
#define VIS_CHANNEL	0x5eed
#define VIS_PERIOD_NS	1000000LL
#define ADV_BATCH	SEQRING_BATCH_MAX
/* Give up on readings not seen this long after the block's end. */
#define VIS_GRACE_NS	10000000000LL

/* One GET_STATS: when it returned, and the newest_seq it showed. */
struct vis_sample {
	long long t;
	unsigned long long newest;
};

/*
 * The adversary: on CPU 1 at SCHED_IDLE, beside a busy loop there, so that
 * the scheduler keeps it off the CPU for long stretches, in the middle of
 * its batches. Counts its batches in @batches. Everything before the loop
 * (filling 64K readings, the first batch's faults) runs at normal
 * priority: at SCHED_IDLE beside the hog it would take the whole block.
 * Writes a byte to @ready_fd when it starts the loop. Never returns.
 */
static void adversary_loop(unsigned long long *batches, int ready_fd)
{
	static struct seqring_reading r[ADV_BATCH];
	struct seqring_batch b = { .readings = (unsigned long)r,
				   .count = ADV_BATCH };
	struct sched_param sp = { .sched_priority = 0 };
	unsigned long long ts = realtime_ns();
	int fd, i;

	pin_to_cpu(1);
	for (i = 0; i < ADV_BATCH; i++)
		fill_reading(&r[i], ts + i, i);
	fd = xopen(DEV_PATH, O_WRONLY);
	if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
		die("adversary PUSH_BATCH: %s", strerror(errno));
	if (sched_setscheduler(0, SCHED_IDLE, &sp))
		die("sched_setscheduler(SCHED_IDLE): %s", strerror(errno));
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	for (;;) {
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
			die("adversary PUSH_BATCH: %s", strerror(errno));
		__atomic_add_fetch(batches, 1, __ATOMIC_RELAXED);
	}
}

static pid_t start_hog(int cpu)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		pin_to_cpu(cpu);
		for (;;)
			__asm__ __volatile__("" ::: "memory");
	}
	return pid;
}

/*
 * One block of @dur ns on CPU 0: push one reading every millisecond and
 * poll GET_STATS in between; a reading's gap is the time from its PUSH
 * returning to the first GET_STATS that returns a newest_seq at or past
 * its sequence number. PUSH does not say which sequence number it gave,
 * so the pusher also follows the stream with O_NONBLOCK read()s and finds
 * its readings there by their channel and value; every GET_STATS is kept
 * (those that show nothing new only right after a push), so the gap is
 * that of the first one that showed the reading, however late the stream
 * gave its sequence number away. Readings the stream skipped (an overrun)
 * are counted in *@lost; *@others gets the readings other producers pushed
 * meanwhile. Fills @gap_us (µs), returns how many.
 */
static int vis_block(long long dur, double *gap_us, int max_gaps, int *lost,
		     unsigned long long *others)
{
	static struct seqring_record buf[4096];
	unsigned long long *seq;
	struct seqring_reading rd;
	struct seqring_stats st;
	struct vis_sample *log;
	size_t nlog = 0, cap = 1 << 16, lpos = 0, p;
	long long *t_ret, now, next, end, t;
	int fd, rfd, npush = 0, first = 0, ngaps = 0, i, k, idx;
	bool pushed = false;
	ssize_t n;

	seq = calloc(max_gaps, sizeof(*seq));
	t_ret = calloc(max_gaps, sizeof(*t_ret));
	log = malloc(cap * sizeof(*log));
	if (!seq || !t_ret || !log)
		die("out of memory");
	*lost = 0;
	fd = xopen(DEV_PATH, O_RDWR);
	rfd = xopen(DEV_PATH, O_RDONLY | O_NONBLOCK);
	if (lseek(rfd, 0, SEEK_END))
		die("lseek(SEEK_END) on %s: %s", DEV_PATH, strerror(errno));
	fill_reading(&rd, 0, 0);
	rd.channel = VIS_CHANNEL;
	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		die("GET_STATS: %s", strerror(errno));
	*others = st.total;
	next = now_ns();
	end = next + dur;
	for (;;) {
		now = now_ns();
		if (now < end && now >= next && npush < max_gaps) {
			rd.value = npush;
			if (ioctl(fd, SEQRING_IOC_PUSH, &rd))
				die("PUSH: %s", strerror(errno));
			t_ret[npush++] = now_ns();
			pushed = true;
			next += VIS_PERIOD_NS;
			if (next < now)
				next = now + VIS_PERIOD_NS;
		} else if (now >= end &&
			   (first == npush || now >= end + VIS_GRACE_NS)) {
			break;
		}

		if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
			die("GET_STATS: %s", strerror(errno));
		t = now_ns();
		if (pushed || !nlog || st.newest_seq != log[nlog - 1].newest) {
			if (nlog == cap) {
				cap *= 2;
				log = realloc(log, cap * sizeof(*log));
				if (!log)
					die("out of memory");
			}
			log[nlog].t = t;
			log[nlog++].newest = st.newest_seq;
			pushed = false;
		}

		for (k = 0; k < 64; k++) {
			n = read(rfd, buf, sizeof(buf));
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0 && errno == EPIPE)
				continue;
			if (n <= 0)
				die("read %s: %s", DEV_PATH,
				    n ? strerror(errno) : "end of file");
			for (i = 0; i < n / (ssize_t)sizeof(buf[0]); i++) {
				if (buf[i].reading.channel != VIS_CHANNEL)
					continue;
				idx = buf[i].reading.value;
				if (idx < first || idx >= npush)
					continue;
				seq[idx] = buf[i].seq;
			}
			if (n < (ssize_t)sizeof(buf))
				break;
		}

		/* Sequence numbers follow push order: resolve in order. */
		while (first < npush) {
			if (!seq[first]) {
				/* Skipped by an overrun if a later one came. */
				for (i = first + 1; i < npush && !seq[i]; i++)
					;
				if (i == npush)
					break;
				++*lost;
				first++;
				continue;
			}
			while (lpos < nlog && log[lpos].t < t_ret[first])
				lpos++;
			for (p = lpos; p < nlog && log[p].newest < seq[first]; p++)
				;
			if (p == nlog)
				break;
			gap_us[ngaps++] = (log[p].t - t_ret[first]) / 1e3;
			first++;
		}
		if (lpos > cap / 2) {
			memmove(log, log + lpos, (nlog - lpos) * sizeof(*log));
			nlog -= lpos;
			lpos = 0;
		}
	}
	*lost += npush - first;
	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		die("GET_STATS: %s", strerror(errno));
	*others = st.total - *others - npush;
	close(rfd);
	close(fd);
	free(log);
	free(t_ret);
	free(seq);
	return ngaps;
}

/*
 * The longest gap between a push and its visibility, with nothing else
 * running (the floor: polling and the stream's own cost), with only the
 * busy loop on CPU 1 (the control: what the host's scheduling of two busy
 * vCPUs adds), and against the adversary (issue: a descheduled batch hid
 * every other producer's readings for seconds). Reported, no target.
 */
static int cmd_adversary(void)
{
	enum { VIS_IDLE, VIS_HOG, VIS_ADV, VIS_N };
	static const char * const param[VIS_N] = { "idle", "hog", "adversary" };
	long long dur[VIS_N];
	unsigned long long *batches, others;
	double *gaps, x;
	int k, n, lost, max_gaps, p[2];
	pid_t hog = 0, adv = 0;
	char c;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("# one CPU: the adversary needs a second one\n");
		return 0;
	}
	dur[VIS_IDLE] = quick ? 1000000000LL : 3000000000LL;
	dur[VIS_HOG] = quick ? 1000000000LL : 5000000000LL;
	dur[VIS_ADV] = quick ? 4000000000LL : 15000000000LL;
	max_gaps = dur[VIS_ADV] / VIS_PERIOD_NS + 16;
	gaps = calloc(max_gaps, sizeof(*gaps));
	batches = mmap(NULL, sizeof(*batches), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!gaps || batches == MAP_FAILED)
		die("out of memory");
	pin_to_cpu0();

	print_row_head();
	for (k = 0; k < VIS_N; k++) {
		if (k == VIS_ADV) {
			*batches = 0;
			if (pipe(p))
				die("pipe: %s", strerror(errno));
			fflush(stdout);
			adv = fork();
			if (adv < 0)
				die("fork: %s", strerror(errno));
			if (!adv) {
				close(p[0]);
				adversary_loop(batches, p[1]);
			}
			close(p[1]);
			if (read(p[0], &c, 1) != 1)
				die("the adversary did not start");
			close(p[0]);
			hog = start_hog(1);
			/* Let it get into the middle of a batch. */
			usleep(200000);
		}
		if (k == VIS_HOG)
			hog = start_hog(1);
		n = vis_block(dur[k], gaps, max_gaps, &lost, &others);
		if (k != VIS_IDLE) {
			kill(hog, SIGKILL);
			waitpid(hog, NULL, 0);
		}
		if (k == VIS_ADV) {
			kill(adv, SIGKILL);
			waitpid(adv, NULL, 0);
			/* Whole batches, and readings: it was mid-batch. */
			record1("adversary", "adversary_batches", param[k], "n",
				*batches);
			record1("adversary", "adversary_readings", param[k],
				"n", others);
		}
		if (!n)
			die("%s: none of the pushes became visible", param[k]);
		qsort(gaps, n, sizeof(*gaps), cmp_double);
		x = gaps[(n * 99 + 99) / 100 - 1];
		record1("adversary", "visibility_gap_p50", param[k], "us",
			gaps[n / 2]);
		record1("adversary", "visibility_gap_p99", param[k], "us", x);
		record1("adversary", "visibility_gap_max", param[k], "us",
			gaps[n - 1]);
		record1("adversary", "pushes_seen", param[k], "n", n);
		record1("adversary", "pushes_lost", param[k], "n", lost);
	}
	free(gaps);
	return 0;
}

/* ---- interrupts-off sections (the irqsoff tracer) -------------------------------- */

enum irq_load { IRQ_IDLE, IRQ_SEQRING, IRQ_MARKER, IRQ_LOADS };
static const char * const irq_names[IRQ_LOADS] = {
	"idle", "seqring", "trace_marker",
};

enum irq_role { ROLE_BATCH, ROLE_SINGLE, ROLE_RESIZE, ROLES };

#define IRQ_CAP_BIG	(1024U * 1024U)
#define IRQ_CAP_SMALL	4096U
/* A slot of the ring: a reading and its sequence number (debugfs record_size). */
#define IRQ_SLOT_BYTES	48

/*
 * One process of a load, pinned to @cpu, never returning. The seqring
 * load: 64K-reading batches, single PUSHes, or resizes 1M -> 4K -> 1M.
 * The trace_marker load, the same work through ftrace's ring: writes of
 * as many bytes to trace_marker (ftrace truncates each to its 1 KiB
 * buffer), and resizes of its buffer between the same numbers of bytes,
 * shared by the CPUs (buffer_size_kb is per CPU).
 */
static void irq_worker(enum irq_load load, enum irq_role role, int cpu,
		       long ncpus)
{
	static struct seqring_reading r[ADV_BATCH];
	struct seqring_batch b = { .readings = (unsigned long)r,
				   .count = ADV_BATCH };
	const size_t big = sizeof(r), one = sizeof(r[0]);
	unsigned int caps[3] = { IRQ_CAP_BIG, IRQ_CAP_SMALL, IRQ_CAP_BIG };
	unsigned long long bytes;
	char kb[32];
	int fd, i;

	pin_to_cpu(cpu);
	for (i = 0; i < ADV_BATCH; i++)
		fill_reading(&r[i], 1 + i, i);
	if (load == IRQ_SEQRING) {
		fd = xopen(DEV_PATH, O_RDWR);
		for (i = 0;; i++) {
			if (role == ROLE_BATCH)
				ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b);
			else if (role == ROLE_SINGLE)
				ioctl(fd, SEQRING_IOC_PUSH, &r[0]);
			else
				ioctl(fd, SEQRING_IOC_SET_CAPACITY,
				      &caps[i % 3]);
		}
	}
	if (role == ROLE_RESIZE) {
		for (i = 0;; i++) {
			bytes = (unsigned long long)caps[i % 3] *
				IRQ_SLOT_BYTES;
			snprintf(kb, sizeof(kb), "%llu",
				 bytes / 1024 / ncpus + 1);
			fd = open(TRACING_DIR "/buffer_size_kb", O_WRONLY);
			if (fd >= 0) {
				if (write(fd, kb, strlen(kb)) < 0)
					usleep(1000);
				close(fd);
			}
		}
	}
	/*
	 * Errors are part of the load: ftrace refuses writes (EBADF) while
	 * its buffer is being resized.
	 */
	fd = xopen(TRACING_DIR "/trace_marker", O_WRONLY);
	for (;;)
		if (write(fd, r, role == ROLE_BATCH ? big : one) < 0 &&
		    errno != EBADF)
			die("write trace_marker: %s", strerror(errno));
}

static long long read_ll(const char *path)
{
	char buf[64];

	read_small(path, buf, sizeof(buf));
	return strtoll(buf, NULL, 10);
}

/* The "=> started at" and "=> ended at" lines of the latency trace. */
static void irq_show_where(const char *what, int round, double max_us)
{
	char line[256];
	FILE *f = fopen(TRACING_DIR "/trace", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "=> started at:") || strstr(line, "=> ended at:"))
			printf("# %s, round %d, %.0f us: %s", what, round,
			       max_us, line + 2);
	fclose(f);
}

/* Leave the resizes out of both loads (irqsoff pushes): to tell causes. */
static bool irq_no_resize;

/*
 * One block: the load on every CPU for @dur ns; returns the irqsoff
 * tracer's tracing_max_latency (µs), reset once the load is running.
 */
static double irq_block(enum irq_load load, long long dur, int round)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid[64];
	int np = 0, c, role;
	unsigned int cap = IRQ_CAP_BIG;
	double max_us;
	int fd;

	for (c = 0; load != IRQ_IDLE && c < ncpus && np < 64 - ROLES; c++) {
		for (role = 0; role < ROLES; role++) {
			if (role == ROLE_RESIZE && irq_no_resize)
				continue;
			fflush(stdout);
			pid[np] = fork();
			if (pid[np] < 0)
				die("fork: %s", strerror(errno));
			if (!pid[np])
				irq_worker(load, role, c, ncpus);
			np++;
		}
	}
	usleep(100000);
	write_file(TRACING_DIR "/tracing_max_latency", "0");
	usleep(dur / 1000);
	max_us = read_ll(TRACING_DIR "/tracing_max_latency");
	irq_show_where(irq_names[load], round, max_us);
	for (c = 0; c < np; c++)
		kill(pid[c], SIGKILL);
	for (c = 0; c < np; c++)
		waitpid(pid[c], NULL, 0);
	/* As the next block expects to find them. */
	write_file(TRACING_DIR "/buffer_size_kb", "1408");
	fd = xopen(DEV_PATH, O_RDWR);
	if (ioctl(fd, SEQRING_IOC_SET_CAPACITY, &cap))
		die("SET_CAPACITY %u: %s", cap, strerror(errno));
	close(fd);
	return max_us;
}

/*
 * The longest interrupts-off section (the irqsoff tracer, which must be
 * the current tracer) with nothing running, under the seqring load on
 * every CPU, and under the same load through trace_marker: the driver's
 * sections must be bounded like ftrace's own (issue: target at most 2x).
 */
static int cmd_irqsoff(void)
{
	double v[IRQ_LOADS][MAX_ROUNDS];
	long long dur = quick ? 2000000000LL : 4000000000LL;
	int rounds = rounds_or(5, 2), r, j, k;

	print_row_head();
	for (r = 0; r < rounds; r++)
		for (j = 0; j < IRQ_LOADS; j++) {
			k = (j + r) % IRQ_LOADS;
			v[k][r] = irq_block(k, dur, r);
		}
	for (k = 0; k < IRQ_LOADS; k++)
		record("irqsoff", "max_us", irq_names[k], "us", v[k], rounds);
	record_ratio("irqsoff", "max_us(seqring)/max_us(trace_marker)", "all",
		     v[IRQ_SEQRING], v[IRQ_MARKER], rounds);
	record_ratio("irqsoff", "max_us(trace_marker)/max_us(idle)", "all",
		     v[IRQ_MARKER], v[IRQ_IDLE], rounds);
	return 0;
}

/* ---- report ------------------------------------------------------------------ */

#define MAX_RUNS	16

/*
 * One figure of the report. A figure measured by several runs (the listing
 * script loads each capacity more than once, in turn) gets the median of
 * their medians, the smallest minimum and the largest maximum.
 */
struct row {
	char group[NAME_LEN], metric[NAME_LEN], param[32], unit[16];
	double med, min, max;
	int rounds;
	double runs[MAX_RUNS];
	int nruns;
	char target[16];
	int met;		/* -1: no target */
};

static struct row rows[MAX_ROWS];
static int nrows;

static struct row *find_row(const char *group, const char *metric,
			    const char *param)
{
	int i;

	for (i = nrows - 1; i >= 0; i--)
		if (!strcmp(rows[i].group, group) &&
		    !strcmp(rows[i].metric, metric) &&
		    (!param || !strcmp(rows[i].param, param)))
			return &rows[i];
	return NULL;
}

static struct row *add_row(const char *group, const char *metric,
			   const char *param, const char *unit, double med,
			   double min, double max, int rounds)
{
	struct row *w;

	if (nrows == MAX_ROWS)
		die("too many results");
	w = &rows[nrows++];
	memset(w, 0, sizeof(*w));
	snprintf(w->group, sizeof(w->group), "%s", group);
	snprintf(w->metric, sizeof(w->metric), "%s", metric);
	snprintf(w->param, sizeof(w->param), "%s", param);
	snprintf(w->unit, sizeof(w->unit), "%s", unit);
	w->med = med;
	w->min = min;
	w->max = max;
	w->rounds = rounds;
	w->met = -1;
	return w;
}

static void load_rows(const char *path)
{
	char line[512], g[NAME_LEN], m[NAME_LEN], p[32], u[16];
	double med, min, max;
	struct row *w;
	int rounds;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		die("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line,
			   "%63[^,],%63[^,],%31[^,],%15[^,],%lf,%lf,%lf,%d",
			   g, m, p, u, &med, &min, &max, &rounds) != 8)
			continue;
		w = find_row(g, m, p);
		if (!w) {
			w = add_row(g, m, p, u, med, min, max, rounds);
		} else {
			w->min = fmin(w->min, min);
			w->max = fmax(w->max, max);
			w->rounds += rounds;
		}
		if (w->nruns < MAX_RUNS)
			w->runs[w->nruns++] = med;
		w->med = summarize(w->runs, w->nruns).med;
	}
	fclose(f);
}

/*
 * Kernel memory per reading from the meminfo deltas, (d(N) - d(1)) / (N - 1)
 * with the load of capacity 1 as the baseline: Slab, VmallocUsed and both.
 * (kmalloc() of more than a page counts as Slab.)
 */
static void derive_memory(void)
{
	struct row *w, *base, *v, *vbase;
	unsigned long long cap;
	int i, n = nrows;
	double s, d;

	for (i = 0; i < n; i++) {
		w = &rows[i];
		cap = strtoull(w->param, NULL, 10);
		if (strcmp(w->group, "memory") || cap <= 1 ||
		    strcmp(w->metric, "slab_delta"))
			continue;
		base = find_row("memory", "slab_delta", "1");
		v = find_row("memory", "vmalloc_delta", w->param);
		vbase = find_row("memory", "vmalloc_delta", "1");
		if (!base || !v || !vbase)
			continue;
		s = (w->med - base->med) * 1024 / (cap - 1);
		d = (v->med - vbase->med) * 1024 / (cap - 1);
		add_row("memory", "slab_bytes_per_reading", w->param, "B", s, s,
			s, 1);
		add_row("memory", "vmalloc_bytes_per_reading", w->param, "B", d,
			d, d, 1);
		add_row("memory", "kernel_bytes_per_reading", w->param, "B",
			s + d, s + d, s + d, 1);
	}
}

/* t(1M) / t(100k) of a pass over the listing: close to 10 if linear. */
static void derive_scaling(void)
{
	static const char * const names[] = {
		"seqring.4k.pass_ms", "seqring.64k.pass_ms",
		"sequence.4k.pass_ms", "sequence.64k.pass_ms",
	};
	char metric[NAME_LEN];
	struct row *a, *b;
	int k;

	for (k = 0; k < 4; k++) {
		a = find_row("listing", names[k], "1000000");
		b = find_row("listing", names[k], "100000");
		if (!a || !b)
			continue;
		snprintf(metric, sizeof(metric), "scaling.%.*s",
			 (int)(strlen(names[k]) - 8), names[k]);
		add_row("listing", metric, "1M/100k", "x", a->med / b->med,
			a->min / b->max, a->max / b->min, 1);
	}
}

/* One target: @le true for "value <= limit", false for ">=". */
static void target(const char *name, const char *param, const struct row *w,
		   bool le, double limit)
{
	struct row *t;

	if (!w) {
		t = add_row("target", name, param, "x", NAN, NAN, NAN, 0);
	} else {
		t = add_row("target", name, param, w->unit, w->med, w->min,
			    w->max, w->rounds);
		t->met = le ? w->med <= limit : w->med >= limit;
	}
	snprintf(t->target, sizeof(t->target), "%s%g", le ? "<=" : ">=",
		 limit);
}

/* The row with the largest (or smallest) median among matching ones. */
static struct row *worst_row(const char *group, const char *prefix,
			     const char *param, bool largest)
{
	struct row *best = NULL;
	int i;

	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		if (strcmp(w->group, group) ||
		    strncmp(w->metric, prefix, strlen(prefix)) ||
		    (param && strcmp(w->param, param)))
			continue;
		if (!best || (largest ? w->med > best->med :
					w->med < best->med))
			best = w;
	}
	return best;
}

static void derive_targets(void)
{
	/* Issue 23's targets (1.15 before; 1.2 the next step). */
	target("push/noop_ioctl", "1",
	       find_row("ingest", "push/noop_ioctl", "1"), true, 1.3);
	target("push_batch(4096)/noop_ioctl", "4096",
	       find_row("ingest", "push_batch/noop_ioctl", "4096"), true,
	       0.05);
	target("trace_marker/push", "1",
	       find_row("ingest", "trace_marker/push", "1"), false, 2.0);
	target("listing seqring/trace records/s (worst)", "<=100k",
	       worst_row("listing", "seqring/trace", NULL, false), false, 5);
	target("listing seqring/sequence per byte (worst)", "all",
	       worst_row("listing", "bytes:seqring/sequence", NULL, false),
	       false, 0.8);
	target("scaling seqring 1M/100k (worst)", "1M/100k",
	       worst_row("listing", "scaling.seqring", NULL, true), true, 11);
	target("p99(2 cat readers)/p99(idle)", "2",
	       find_row("contention", "p99(readers)/p99(idle)", "2"), true, 2);
	target("p99(1 deep pread reader)/p99(idle)", "pread",
	       find_row("contention", "p99(readers)/p99(idle)", "pread"), true,
	       2);
	target("push_max ns, 2 cat readers", "2",
	       find_row("contention", "push_max", "2"), true, 1e6);
	target("push_max ns, 1 deep pread reader", "pread",
	       find_row("contention", "push_max", "pread"), true, 1e6);
	/* The stress tier's bound is 3 x idle + 20 ms; here the ratio. */
	target("resize with a deep pread reader / idle", "pread",
	       find_row("contention", "resize(pread)/resize(idle)", "pread"),
	       true, 3);
	target("stream seqring/trace_pipe readings/s", "all",
	       find_row("stream", "seqring/trace_pipe.readings_per_s", NULL),
	       false, 3.0);
	/* Issue 24's: the mapping's consumer, in one boot. */
	target("mapping / read() consumer readings/s", "all",
	       find_row("mapped", "mapping/read.readings_per_s", NULL), false,
	       20);
	target("mapping / trace_pipe consumer readings/s", "all",
	       find_row("mapped", "mapping/trace_pipe.readings_per_s", NULL),
	       false, 100);
	/* From 6.10 on; the same 40-byte reading on both sides. */
	target("mapping / ftrace mapped ring readings/s", "all",
	       find_row("mapped", "mapping/ftrace_map.readings_per_s", NULL),
	       false, 1);
	target("push p99, 2 mapping consumers spinning / idle", "2",
	       find_row("mapped", "p99(2 map spinners)/p99(idle)", "2"), true,
	       1.2);
	target("push_followed/push_alone", "1",
	       find_row("stream", "push_followed/push_alone", "1"), true, 1.1);
	/* Threshold 64: one wake-up per 64 pushes, 1% of slack. */
	target("wake-ups per push, SET_WAKEUP 64", "64",
	       find_row("stream", "wakeups_per_push", "64"), true,
	       1.0 / 64 + 0.01);
	target("kapi push/trace_event", "1",
	       find_row("kapi", "push/trace_event", "1"), true, 0.6);
	target("kapi pushes/s, 2 producers / 1", "2",
	       find_row("kapi", "pushes_per_s(2)/pushes_per_s(1)", "2"),
	       false, 1.3);
	/* Issue 31's: against the control of the same run, and from NMI. */
	target("kapi 2 producers' gain / the trace event's", "2",
	       find_row("kapi", "push_gain/trace_event_gain", "2"), false,
	       0.95);
	target("kapi NMI push / trace event from the same NMI", "1",
	       find_row("kapi", "nmi_push/nmi_trace_event", "1"), true, 1.0);
	/*
	 * Issue 33's: what a BPF program adds to an event when it pushes,
	 * against bpf_ringbuf_output() of the same record (tests/progs/
	 * bpf_push.c bench, tests/bench/55-bpf.sh).
	 */
	target("bpf push / bpf_ringbuf_output", "1",
	       find_row("bpf", "push/ringbuf_output", "1"), true, 1.0);
	target("push p99, 10k idle open files / none", "10000",
	       find_row("idlefiles", "p99(idle files)/p99(none)", "10000"),
	       true, 1.2);
	target("irqsoff max, seqring / trace_marker", "all",
	       find_row("irqsoff", "max_us(seqring)/max_us(trace_marker)",
			"all"), true, 2);
	target("memory bytes/reading (worst)", "all",
	       worst_row("memory", "driver_bytes_per_reading", NULL, true),
	       true, 48);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

/* Lines of the notes file: why a figure was not measured, and where. */
#define MAX_NOTES	16
static char notes[MAX_NOTES][256];
static int nnotes;

static void load_notes(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (nnotes < MAX_NOTES && fgets(notes[nnotes], sizeof(notes[0]), f)) {
		notes[nnotes][strcspn(notes[nnotes], "\n")] = '\0';
		if (notes[nnotes][0])
			nnotes++;
	}
	fclose(f);
}

static void write_json(const char *path, const char *kernel,
		       const char *clocksource)
{
	FILE *f = fopen(path, "w");
	const char *sep = "";
	int i;

	if (!f)
		die("open %s: %s", path, strerror(errno));
	fprintf(f, "{\n  \"quick\": %s,\n  \"kernel\": ",
		quick ? "true" : "false");
	json_str(f, kernel);
	fputs(",\n  \"clocksource\": ", f);
	json_str(f, clocksource);
	fprintf(f, ",\n  \"cpus\": %ld,\n  \"results\": [",
		sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		if (!strcmp(w->group, "target"))
			continue;
		fprintf(f, "%s\n    {\"group\": ", sep);
		json_str(f, w->group);
		fputs(", \"metric\": ", f);
		json_str(f, w->metric);
		fputs(", \"param\": ", f);
		json_str(f, w->param);
		fputs(", \"unit\": ", f);
		json_str(f, w->unit);
		fputs(", \"median\": ", f);
		json_num(f, w->med);
		fputs(", \"min\": ", f);
		json_num(f, w->min);
		fputs(", \"max\": ", f);
		json_num(f, w->max);
		fprintf(f, ", \"rounds\": %d}", w->rounds);
		sep = ",";
	}
	fputs("\n  ],\n  \"targets\": [", f);
	sep = "";
	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		if (strcmp(w->group, "target"))
			continue;
		fprintf(f, "%s\n    {\"name\": ", sep);
		json_str(f, w->metric);
		fputs(", \"value\": ", f);
		json_num(f, w->med);
		fputs(", \"target\": ", f);
		json_str(f, w->target);
		fprintf(f, ", \"met\": %s}",
			w->met < 0 ? "null" : w->met ? "true" : "false");
		sep = ",";
	}
	fputs("\n  ],\n  \"notes\": [", f);
	for (i = 0; i < nnotes; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_str(f, notes[i]);
	}
	fputs("\n  ]\n}\n", f);
	fclose(f);
}

static void write_csv(const char *path)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		die("open %s: %s", path, strerror(errno));
	fputs("group,metric,param,unit,median,min,max,rounds,target,met\n", f);
	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.6g,%d,%s,%s\n", w->group,
			w->metric, w->param, w->unit, w->med, w->min, w->max,
			w->rounds, w->target,
			w->met < 0 ? "" : w->met ? "met" : "missed");
	}
	fclose(f);
}

static int cmd_report(int argc, char **argv)
{
	const char *csv = NULL, *json = NULL, *last = "";
	char kernel[128], clocksource[64];
	struct utsname u;
	int i, missed = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-c") && i + 1 < argc)
			csv = argv[++i];
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			load_notes(argv[++i]);
		else
			die("report: bad argument '%s'", argv[i]);
	}
	load_rows(out_path);
	if (!nrows)
		die("no results in %s", out_path);
	derive_memory();
	derive_scaling();
	derive_targets();

	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s", u.release);
	read_small("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		   clocksource, sizeof(clocksource));
	printf("seqring benchmark (%s): kernel %s, %ld CPUs, clocksource %s\n",
	       quick ? "quick" : "full", kernel,
	       sysconf(_SC_NPROCESSORS_ONLN), clocksource);
	printf("figures: median over rounds [min, max]; ratios: median of per-round ratios\n\n");
	print_row_head();
	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		if (!strcmp(w->group, "target"))
			continue;
		if (strcmp(w->group, last) && *last)
			putchar('\n');
		last = w->group;
		print_row(w->group, w->metric, w->param, w->unit, w->med,
			  w->min, w->max);
	}
	printf("\n%-36s %10s  %-8s %s\n", "target", "value", "limit",
	       "status");
	for (i = 0; i < nrows; i++) {
		struct row *w = &rows[i];

		if (strcmp(w->group, "target"))
			continue;
		printf("%-36s %10.4g  %-8s %s\n", w->metric, w->med, w->target,
		       w->met < 0 ? "not measured" : w->met ? "met" : "MISSED");
		missed += w->met != 1;
	}
	printf("\n%d of the targets missed or not measured\n", missed);
	if (nnotes)
		printf("\nnotes:\n");
	for (i = 0; i < nnotes; i++)
		printf("  %s\n", notes[i]);
	if (csv)
		write_csv(csv);
	if (json)
		write_json(json, kernel, clocksource);
	return 0;
}

/* ---- main ------------------------------------------------------------------- */

static void print_usage(void)
{
	fprintf(stderr,
		"usage: seqring_bench [-q] [-r ROUNDS] [-o FILE] ingest | fill N | listing N |\n"
		"       contention | stream | kapi | idlefiles | adversary |\n"
		"       irqsoff [pushes] |\n"
		"       memory N MEMINFO_BEFORE |\n"
		"       report [-c CSV] [-j JSON] [-n NOTES]\n");
	exit(2);
}

static unsigned long long parse_n(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || !v)
		print_usage();
	return v;
}

int main(int argc, char **argv)
{
	const char *cmd;
	int opt;

	while ((opt = getopt(argc, argv, "+qr:o:")) != -1) {
		switch (opt) {
		case 'q':
			quick = true;
			break;
		case 'r':
			rounds_opt = atoi(optarg);
			if (rounds_opt < 1)
				print_usage();
			break;
		case 'o':
			out_path = optarg;
			break;
		default:
			print_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		print_usage();
	cmd = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);

	open_out();
	if (!strcmp(cmd, "ingest") && argc == 1)
		return cmd_ingest();
	if (!strcmp(cmd, "fill") && argc == 2)
		return cmd_fill(parse_n(argv[1]));
	if (!strcmp(cmd, "listing") && argc == 2)
		return cmd_listing(parse_n(argv[1]));
	if (!strcmp(cmd, "contention") && argc == 1)
		return cmd_contention();
	if (!strcmp(cmd, "stream") && argc == 1)
		return cmd_stream();
	if (!strcmp(cmd, "mapped") && argc == 1)
		return cmd_mapped();
	if (!strcmp(cmd, "kapi") && argc == 1)
		return cmd_kapi();
	if (!strcmp(cmd, "idlefiles") && argc == 1)
		return cmd_idlefiles();
	if (!strcmp(cmd, "adversary") && argc == 1)
		return cmd_adversary();
	if (!strcmp(cmd, "irqsoff") && argc == 1)
		return cmd_irqsoff();
	if (!strcmp(cmd, "irqsoff") && argc == 2 && !strcmp(argv[1], "pushes")) {
		irq_no_resize = true;
		return cmd_irqsoff();
	}
	if (!strcmp(cmd, "memory") && argc == 3)
		return cmd_memory(parse_n(argv[1]), argv[2]);
	print_usage();
	return 2;
}
