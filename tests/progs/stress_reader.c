// SPDX-License-Identifier: GPL-2.0
/*
 * stress_reader - read and check seqring listings, saved or live
 *
 * Usage:
 *   stress_reader check [-x] [-a] [-e N0,N1,...] FILE
 *   stress_reader stream [-x] [-u] [-r] [-t SECS] [-s SEED] [-b MAXREAD] PATH
 *   stress_reader cat [-u] [-t SECS] PATH...
 *   stress_reader seek PATH OFFSET...
 *
 * Every listing line must be a reading pushed by stress_writer (stress.h:
 * channel = writer, label and timestamp derived from the value), sequence
 * numbers must strictly increase (no duplicate, nothing out of order) and
 * so must each writer's values. With -x nothing may be missing either:
 * the ring lost nothing, so sequence numbers and each writer's values go up
 * by exactly one, and a listing read from offset 0 starts at 1.
 *
 * check: FILE is one listing (e.g. saved by cat), header first. -e gives
 *   the number of readings each writer pushed: then the listing must hold
 *   exactly values 1..Ni of writer i, and nothing else. -a accepts readings
 *   of any content (pushed by a fuzzer): only the form of each line and
 *   the order of sequence numbers are checked.
 * stream: reads PATH live for SECS seconds (default 10) or until SIGTERM,
 *   with read() sizes of 1 to MAXREAD bytes (default 256) and random
 *   lseek()s (SEEK_SET, SEEK_CUR, and SEEK_END or negative offsets, which
 *   must fail with EINVAL), going on reading after end of file. The lines
 *   of each stretch of reads between two seeks are checked as above (the
 *   partial line after a seek to another offset than 0 is skipped). -r
 *   reopens PATH every few reads, pausing up to 5 ms with it closed.
 * cat: reads each PATH whole, over and over (1 ms apart), for SECS seconds
 *   (at least once); a file named "stats" must have total == count +
 *   dropped + cleared.
 *
 * seek: for each OFFSET, lseek() PATH there and read() a byte, then
 *   pread() a byte at half of it, and print how long each call took.
 *
 * -u: the module may be unloaded meanwhile. Then read() failing with EIO
 * (an open /proc file whose entry is removed) or ENODEV (a walk ended by
 * the unload; in cat mode also an open sysfs file whose device is
 * removed) and open() failing with ENOENT, ENODEV or ENXIO end the run
 * without error, and lseek() may fail with
 * EINVAL (a removed /proc entry) or ENODEV (a walk ended by the unload)
 * if the next read() fails with EIO.
 *
 * stream and cat print "ready" after their first read. All modes print a
 * summary line of figures; problems are printed as "# " lines (the first
 * few). Exit status 0 if all was well, 1 if not, 2 on misuse.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts.h"
#include "stress.h"

#define MAX_WRITERS	1000
#define MAX_ERRNO	256
#define LINE_MAX_LEN	4096
#define MAX_REPORTS	10

static atomic_int stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Options shared by the modes. */
static bool exact, unload_ok, reopen, any_content;

static const char check_usage[] = "stress_reader check [-x] [-a] [-e N0,N1,...] FILE";
static const char stream_usage[] =
	"stress_reader stream [-x] [-u] [-r] [-t SECS] [-s SEED] [-b MAXREAD] PATH";
static const char cat_usage[] = "stress_reader cat [-u] [-t SECS] PATH...";
static const char seek_usage[] = "stress_reader seek PATH OFFSET...";
static unsigned long long bad;
static const char *cur_path;

static void report(const char *fmt, ...)
{
	va_list ap;

	if (++bad > MAX_REPORTS)
		return;
	printf("# %s: ", cur_path);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Checks one stretch of consecutive listing text. */
struct checker {
	char line[LINE_MAX_LEN];
	size_t len;
	bool synced;		/* at the start of a line */
	bool expect_header;	/* read from offset 0 */
	bool from_start;	/* this stretch began at offset 0 */
	unsigned long long last_seq;
	long long last_value[MAX_WRITERS];
	unsigned long long count[MAX_WRITERS];
	unsigned long long lines;
	unsigned long long first_seq;
};

static void checker_reset(struct checker *c, bool at_zero)
{
	c->len = 0;
	c->synced = at_zero;
	c->expect_header = at_zero;
	c->from_start = at_zero;
	c->last_seq = 0;
	c->first_seq = 0;
	c->lines = 0;
	memset(c->last_value, 0, sizeof(c->last_value));
	memset(c->count, 0, sizeof(c->count));
}

static void check_line(struct checker *c, const char *s, size_t len)
{
	struct seqring_reading want;
	char esc[STRESS_ESCAPED_LEN];
	struct stress_line l;
	unsigned int ch;

	if (c->expect_header) {
		c->expect_header = false;
		if (len != strlen(STRESS_HEADER) ||
		    memcmp(s, STRESS_HEADER, len))
			report("first line at offset 0 is '%.*s', not the header",
			       (int)len, s);
		return;
	}
	c->lines++;
	if (!stress_parse_line(s, len, &l)) {
		report("malformed line '%.*s'", (int)(len > 200 ? 200 : len), s);
		return;
	}
	if (!c->first_seq)
		c->first_seq = l.seq;
	if (l.seq <= c->last_seq)
		report("sequence number %llu after %llu (duplicate or out of order)",
		       l.seq, c->last_seq);
	else if (exact && c->last_seq && l.seq != c->last_seq + 1)
		report("sequence number %llu after %llu: readings missing",
		       l.seq, c->last_seq);
	else if (exact && !c->last_seq && c->from_start && l.seq != 1)
		report("listing read from offset 0 starts at %llu, not 1", l.seq);
	c->last_seq = l.seq;
	if (any_content)
		return;

	if (l.channel >= MAX_WRITERS || l.value <= 0) {
		report("seq %llu: channel %llu value %lld is not a writer's reading",
		       l.seq, l.channel, l.value);
		return;
	}
	ch = (unsigned int)l.channel;
	stress_reading(&want, ch, (unsigned long long)l.value);
	stress_escape(want.label, esc);
	if (strcmp(esc, l.label))
		report("seq %llu: label '%s', pushed '%s'", l.seq, l.label, esc);
	if (want.timestamp_ns ? l.timestamp_ns != want.timestamp_ns :
				!l.timestamp_ns)
		report("seq %llu: timestamp %llu, pushed %llu (0: stamped)",
		       l.seq, l.timestamp_ns,
		       (unsigned long long)want.timestamp_ns);

	if (l.value <= c->last_value[ch])
		report("seq %llu: writer %u value %lld after %lld", l.seq, ch,
		       l.value, c->last_value[ch]);
	else if (exact && c->last_value[ch] &&
		 l.value != c->last_value[ch] + 1)
		report("seq %llu: writer %u value %lld after %lld: readings missing",
		       l.seq, ch, l.value, c->last_value[ch]);
	else if (exact && !c->last_value[ch] && c->from_start && l.value != 1)
		report("seq %llu: writer %u's first value is %lld, not 1",
		       l.seq, ch, l.value);
	c->last_value[ch] = l.value;
	c->count[ch]++;
}

static void checker_feed(struct checker *c, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (c->len < sizeof(c->line))
				c->line[c->len] = buf[i];
			c->len++;
			continue;
		}
		if (!c->synced)
			c->synced = true;
		else if (c->len > sizeof(c->line))
			report("line of %zu bytes", c->len);
		else
			check_line(c, c->line, c->len);
		c->len = 0;
	}
}

/* ---- check ---- */

static int do_check(int argc, char **argv)
{
	static struct checker c;
	unsigned long long expect[MAX_WRITERS];
	unsigned int nexpect = 0, i;
	char buf[65536], *p, *end;
	const char *expected = NULL;
	bool listed = false;
	const struct opt opts[] = {
		{ 'x', OPT_SET, &exact }, { 'a', OPT_SET, &any_content },
		{ 'e', OPT_STR, &expected },
	};
	ssize_t n;
	int fd, arg;

	arg = opts_parse(argc, argv, opts, OPTS_NR(opts), check_usage);
	for (p = (char *)expected; p && *p && nexpect < MAX_WRITERS; p = end) {
		expect[nexpect++] = strtoull(p, &end, 10);
		if (end == p || (*end && *end != ','))
			return 2;
		if (*end)
			end++;
	}
	if (arg + 1 != argc)
		return 2;
	cur_path = argv[arg];
	fd = open(cur_path, O_RDONLY);
	if (fd < 0) {
		printf("# open %s: %s\n", cur_path, errname(errno));
		return 1;
	}
	checker_reset(&c, true);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		checker_feed(&c, buf, (size_t)n);
	if (n < 0)
		report("read: %s", errname(errno));
	close(fd);
	if (c.len)
		report("last line has no newline");
	if (c.expect_header)
		report("empty: no header");

	if (expected) {
		unsigned long long total = 0;

		for (i = 0; i < MAX_WRITERS; i++) {
			unsigned long long want = i < nexpect ? expect[i] : 0;

			total += want;
			if (c.count[i] != want ||
			    (unsigned long long)c.last_value[i] != want)
				report("writer %u: %llu listed (last %lld), %llu pushed",
				       i, c.count[i], c.last_value[i], want);
		}
		if (c.lines != total)
			report("%llu readings listed, writers pushed %llu",
			       c.lines, total);
	}

	printf("listing %s: lines=%llu seq=%llu..%llu writers=", cur_path,
	       c.lines, c.first_seq, c.last_seq);
	for (i = 0; i < MAX_WRITERS; i++) {
		if (!c.count[i])
			continue;
		printf("%s%u:%llu", listed ? "," : "", i, c.count[i]);
		listed = true;
	}
	printf("%s bad=%llu\n", listed ? "" : "-", bad);
	return bad ? 1 : 0;
}

/* ---- stream ---- */

struct stream_stats {
	unsigned long long reads, bytes, eofs, seeks, bad_seeks, opens;
	unsigned long long errors[MAX_ERRNO];
};

static void count_errno(struct stream_stats *st, int e)
{
	st->errors[e > 0 && e < MAX_ERRNO ? e : 0]++;
}

static void print_errors(const struct stream_stats *st)
{
	int e, any = 0;

	printf(" errors=");
	for (e = 0; e < MAX_ERRNO; e++) {
		if (!st->errors[e])
			continue;
		printf("%s%s:%llu", any ? "," : "", errname(e), st->errors[e]);
		any = 1;
	}
	printf("%s", any ? "" : "none");
}

static bool gone_errno(int e)
{
	return e == ENOENT || e == ENODEV || e == ENXIO;
}

static int do_stream(int argc, char **argv)
{
	static struct checker c;
	struct stream_stats st = { 0 };
	unsigned long long secs = 10, seed = 0, maxread = 256;
	unsigned long long reads_left = 0, lines = 0;
	long long pos = 0, maxpos = 0;
	bool ready = false, pending_eio = false;
	const char *end = "time";
	char buf[65536], why[32];
	__u64 rng;
	double t0;
	const struct opt opts[] = {
		{ 'x', OPT_SET, &exact }, { 'u', OPT_SET, &unload_ok },
		{ 'r', OPT_SET, &reopen }, { 't', OPT_ULL, &secs },
		{ 's', OPT_ULL, &seed }, { 'b', OPT_ULL, &maxread },
	};
	int fd = -1;

	optind = opts_parse(argc, argv, opts, OPTS_NR(opts), stream_usage);
	if (optind + 1 != argc || !maxread || maxread > sizeof(buf))
		return 2;
	cur_path = argv[optind];
	if (!seed)
		seed = stress_clock_seed();
	rng = seed;
	printf("# stream %s: seed %llu\n", cur_path, seed);

	t0 = stress_now();
	while (!stop && stress_now() - t0 < (double)secs) {
		unsigned long long k;
		ssize_t n;

		if (fd < 0) {
			fd = open(cur_path, O_RDONLY);
			if (fd < 0) {
				int e = errno;

				if (unload_ok && gone_errno(e)) {
					snprintf(why, sizeof(why), "gone:%s",
						 errname(e));
					end = why;
					break;
				}
				count_errno(&st, e);
				report("open: %s", errname(e));
				end = "error";
				break;
			}
			st.opens++;
			lines += c.lines;
			checker_reset(&c, true);
			pos = 0;
			reads_left = 1 + stress_below(&rng, 64);
		}

		/* About one call in 50 is an lseek. */
		if (stress_below(&rng, 50) == 0) {
			long long off = 0, want = 0, got;
			int whence = SEEK_SET;
			bool valid = true;

			switch (stress_below(&rng, 6)) {
			case 0:
			case 1:
				break;
			case 2:
				off = (long long)stress_below(&rng, maxpos + 4096);
				break;
			case 3:
				whence = SEEK_CUR;
				off = (long long)stress_below(&rng, 8192) -
				      (long long)stress_below(&rng, pos + 1);
				break;
			case 4:
				whence = SEEK_END;
				valid = false;
				break;
			default:
				off = -1 - (long long)stress_below(&rng, 1000);
				valid = false;
			}
			want = whence == SEEK_CUR ? pos + off : off;
			st.seeks++;
			got = lseek(fd, off, whence);
			if (!valid) {
				if (got != -1 || errno != EINVAL) {
					st.bad_seeks++;
					report("lseek(%lld, %s) gave %lld (%s), not EINVAL",
					       off, whence == SEEK_END ? "SEEK_END" : "SEEK_SET",
					       got, got < 0 ? errname(errno) : "no error");
				}
				/* A failed lseek changes nothing. */
			} else if (got == -1 && unload_ok &&
				   (errno == EINVAL || errno == ENODEV)) {
				pending_eio = true;
			} else if (got != want) {
				st.bad_seeks++;
				report("lseek to %lld returned %lld (%s)", want,
				       got, got < 0 ? errname(errno) : "no error");
				if (got >= 0)
					pos = got;
				lines += c.lines;
				checker_reset(&c, false);
			} else {
				pos = got;
				lines += c.lines;
				checker_reset(&c, pos == 0);
			}
			continue;
		}

		k = 1 + stress_below(&rng, maxread);
		n = read(fd, buf, k);
		st.reads++;
		if (n < 0) {
			int e = errno;

			/* ENODEV: a walk ended by the unload. */
			if (unload_ok && (e == EIO || e == ENODEV)) {
				end = errname(e);
				break;
			}
			count_errno(&st, e);
			report("read of %llu bytes at %lld: %s", k, pos,
			       errname(e));
			end = "error";
			break;
		}
		if (pending_eio) {
			report("lseek failed with EINVAL or ENODEV but the next read() worked");
			pending_eio = false;
		}
		if (!ready) {
			printf("ready\n");
			fflush(stdout);
			ready = true;
		}
		if (n == 0) {
			st.eofs++;
			/* At the end: start over, or wait for more. */
			if (stress_below(&rng, 4) == 0) {
				if (lseek(fd, 0, SEEK_SET) == 0) {
					st.seeks++;
					lines += c.lines;
					checker_reset(&c, true);
					pos = 0;
				} else if (!(unload_ok &&
					     (errno == EINVAL || errno == ENODEV))) {
					report("lseek to 0: %s", errname(errno));
				}
			} else {
				usleep(1000);
			}
		} else {
			checker_feed(&c, buf, (size_t)n);
			st.bytes += (unsigned long long)n;
			pos += n;
			if (pos > maxpos)
				maxpos = pos;
		}
		if (reopen && --reads_left == 0) {
			close(fd);
			fd = -1;
			usleep((useconds_t)stress_below(&rng, 5000));
		}
	}
	if (fd >= 0)
		close(fd);
	if (stop)
		end = "signal";
	lines += c.lines;
	printf("stream %s: reads=%llu bytes=%llu lines=%llu seeks=%llu",
	       cur_path, st.reads, st.bytes, lines, st.seeks);
	printf(" eofs=%llu opens=%llu secs=%.1f end=%s bad=%llu", st.eofs,
	       st.opens, stress_now() - t0, end, bad);
	print_errors(&st);
	putchar('\n');
	return bad || !strcmp(end, "error") ? 1 : 0;
}

/* ---- cat ---- */

/* Check "key: value" stats text; returns false if inconsistent. */
static bool check_stats(const char *text)
{
	unsigned long long v[5] = { 0 };
	static const char * const keys[5] = {
		"capacity: ", "count: ", "total: ", "dropped: ", "cleared: "
	};
	unsigned int i;

	for (i = 0; i < 5; i++) {
		const char *p = strstr(text, keys[i]);

		if (!p || (p != text && p[-1] != '\n')) {
			report("no '%s' line", keys[i]);
			return false;
		}
		v[i] = strtoull(p + strlen(keys[i]), NULL, 10);
	}
	if (v[2] != v[1] + v[3] + v[4] || v[1] > v[0]) {
		report("capacity %llu count %llu total %llu dropped %llu cleared %llu",
		       v[0], v[1], v[2], v[3], v[4]);
		return false;
	}
	return true;
}

static int do_cat(int argc, char **argv)
{
	struct stream_stats st = { 0 };
	unsigned long long secs = 10, gone_n = 0;
	static char buf[1 << 20];
	bool ready = false, *gone;
	double t0;
	const struct opt opts[] = {
		{ 'u', OPT_SET, &unload_ok }, { 't', OPT_ULL, &secs },
	};
	int i, npaths;

	optind = opts_parse(argc, argv, opts, OPTS_NR(opts), cat_usage);
	npaths = argc - optind;
	if (npaths < 1)
		return 2;
	gone = calloc((size_t)npaths, sizeof(*gone));
	if (!gone)
		return 1;

	t0 = stress_now();
	do {
		for (i = 0; i < npaths && !stop; i++) {
			const char *path = argv[optind + i];
			const char *base = strrchr(path, '/');
			size_t len = 0;
			ssize_t n;
			int fd;

			if (gone[i])
				continue;
			cur_path = path;
			fd = open(path, O_RDONLY);
			if (fd < 0) {
				if (unload_ok && gone_errno(errno)) {
					gone[i] = true;
					gone_n++;
				} else {
					count_errno(&st, errno);
					report("open: %s", errname(errno));
				}
				continue;
			}
			st.opens++;
			while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
				len += (size_t)n;
				st.reads++;
				if (len == sizeof(buf) - 1)
					len = 0; /* only short files are checked */
			}
			if (n < 0) {
				if (unload_ok && (errno == EIO || errno == ENODEV)) {
					gone[i] = true;
					gone_n++;
				} else {
					count_errno(&st, errno);
					report("read: %s", errname(errno));
				}
			} else {
				st.bytes += len;
				buf[len] = '\0';
				if (base && !strcmp(base, "/stats"))
					check_stats(buf);
			}
			close(fd);
		}
		if (!ready) {
			printf("ready\n");
			fflush(stdout);
			ready = true;
		}
		usleep(1000);
	} while (!stop && gone_n < (unsigned long long)npaths &&
		 stress_now() - t0 < (double)secs);
	printf("cat: files=%d opens=%llu reads=%llu gone=%llu secs=%.1f end=%s bad=%llu",
	       npaths, st.opens, st.reads, gone_n, stress_now() - t0,
	       stop ? "signal" : gone_n == (unsigned long long)npaths ?
	       "gone" : "time", bad);
	print_errors(&st);
	putchar('\n');
	free(gone);
	return bad ? 1 : 0;
}

/* ---- seek ---- */

static int do_seek(int argc, char **argv)
{
	double t0, t_seek, t_read, t_pread;
	long long off, got;
	ssize_t n, pn;
	char c;
	int fd, i;

	if (argc < 3)
		return 2;
	cur_path = argv[1];
	fd = open(cur_path, O_RDONLY);
	if (fd < 0) {
		printf("# open %s: %s\n", cur_path, errname(errno));
		return 1;
	}
	for (i = 2; i < argc; i++) {
		off = (long long)stress_parse_u("offset", argv[i]);
		t0 = stress_now();
		got = lseek(fd, off, SEEK_SET);
		t_seek = stress_now();
		if (got != off)
			report("lseek to %lld returned %lld (%s)", off, got,
			       got < 0 ? errname(errno) : "no error");
		n = read(fd, &c, 1);
		t_read = stress_now();
		if (n < 0)
			report("read after lseek to %lld: %s", off,
			       errname(errno));
		pn = pread(fd, &c, 1, off / 2);
		t_pread = stress_now();
		if (pn < 0)
			report("pread at %lld: %s", off / 2, errname(errno));
		printf("seek %lld: lseek %.0f ms, read %.0f ms (%zd byte),",
		       off, (t_seek - t0) * 1000, (t_read - t_seek) * 1000, n);
		printf(" pread at %lld %.0f ms (%zd byte)\n", off / 2,
		       (t_pread - t_read) * 1000, pn);
		fflush(stdout);
	}
	close(fd);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (argc >= 2 && !strcmp(argv[1], "check"))
		ret = do_check(argc - 1, argv + 1);
	else if (argc >= 2 && !strcmp(argv[1], "stream"))
		ret = do_stream(argc - 1, argv + 1);
	else if (argc >= 2 && !strcmp(argv[1], "cat"))
		ret = do_cat(argc - 1, argv + 1);
	else if (argc >= 2 && !strcmp(argv[1], "seek"))
		ret = do_seek(argc - 1, argv + 1);
	if (ret == 2)
		fprintf(stderr, "usage: %s\n       %s\n       %s\n       %s\n",
			check_usage, stream_usage, cat_usage, seek_usage);
	return ret;
}
