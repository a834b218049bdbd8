// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-stream - the commands that read the stream of /dev/seqring:
 * dump prints what the ring holds and exits, watch (or dump -f) follows it
 * like tail -f; both with journalctl's options (-n, -f, -r, -g, --since,
 * --until, -o, --utc, -q) for what and how
 *
 * Each open file of the device reads whole struct seqring_record from a
 * cursor of its own (seqring(4)): from the oldest reading held, or with
 * lseek(SEEK_END) from the next one pushed; read() says -EPIPE once when
 * readings it had not read were overwritten, and goes on from the oldest.
 *
 * --after SEQ and --cursor-file resume where an earlier run stopped: read
 * from the oldest reading held and skip those up to SEQ; the gap between
 * SEQ and the first reading after it is what was missed in between.
 *
 * Where the driver can be mapped, the readings are read from the mapping
 * (libseqring's srl_map_*), which returns the same records with the same
 * -EAGAIN, -EPIPE and end of file as read(), so that everything after it
 * is the same either way; --no-mmap reads them with read().
 */

/* ppoll() */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

/* Records per read(): 12 KiB, a few hundred lines of output per flush. */
#define STREAM_RECORDS		256

/* -n without a number, and what watch shows of those held: journalctl's. */
#define LINES_DEFAULT		10

/* Values of the options that have no short form. */
enum {
	OPT_AFTER = 0x100,
	OPT_CURSOR_FILE,
	OPT_TIME_FORMAT,
	OPT_JOURNAL,
	OPT_COUNT,
	OPT_NO_MMAP,
	OPT_UTC,
	OPT_NO_PAGER,
};

/* -o MODE, as journalctl names its own; listing is the default. */
enum output_mode {
	OUT_LISTING,		/* SEQ TIMESTAMP_NS CHANNEL VALUE LABEL */
	OUT_SHORT,		/* Dec 04 21:07:31 seqring[SEQ]: MESSAGE */
	OUT_SHORT_PRECISE,	/* Dec 04 21:07:31.123456 seqring[SEQ]: ... */
	OUT_SHORT_ISO,		/* 2026-12-04T21:07:31+01:00 seqring[SEQ]: ... */
	OUT_JSON,		/* one object per line */
	OUT_JSON_PRETTY,	/* one object, one member a line */
	OUT_CAT,		/* MESSAGE */
	OUT_VERBOSE,		/* the journal entry's fields, one a line */
	OUT_EXPORT,		/* the journal's export format */
};

static const char * const output_names[] = {
	[OUT_LISTING] = "listing",
	[OUT_SHORT] = "short",
	[OUT_SHORT_PRECISE] = "short-precise",
	[OUT_SHORT_ISO] = "short-iso",
	[OUT_JSON] = "json",
	[OUT_JSON_PRETTY] = "json-pretty",
	[OUT_CAT] = "cat",
	[OUT_VERBOSE] = "verbose",
	[OUT_EXPORT] = "export",
};

/* --time-format: TIMESTAMP_NS of the listing as it is, or as a time. */
enum listing_time { TIME_NS, TIME_AS_ISO, TIME_AS_CTIME };

static const char * const time_format_names[] = {
	[TIME_NS] = "ns",
	[TIME_AS_ISO] = "iso",
	[TIME_AS_CTIME] = "ctime",
};

/* The signals that end watch, as they end tail -f. */
static const int watch_signals[] = { SIGHUP, SIGINT, SIGTERM };

/*
 * Not volatile: these signals are delivered only inside ppoll()
 * (watch_wait()), a call the compiler cannot see through, so the flag is
 * read afresh after every call.
 */
static sig_atomic_t watch_interrupted;

static void watch_on_signal(int sig)
{
	watch_interrupted = sig;
}

/*
 * A label is any bytes, a JSON string is Unicode text. As journald's JSON
 * output does: a label that is valid UTF-8 is a string (its characters as
 * they are; the quote, the backslash and the control characters escaped),
 * and any other label is an array of its bytes as numbers, so that no byte
 * is lost or changed and a consumer can tell the two apart by type.
 */
static void json_print_label(const char *label)
{
	const unsigned char *p = (const unsigned char *)label;
	size_t len = strnlen(label, SEQRING_LABEL_LEN);
	size_t i;

	if (!srl_utf8_valid(label, len)) {
		putchar('[');
		for (i = 0; i < len; i++)
			printf("%s%u", i ? ", " : "", p[i]);
		putchar(']');
		return;
	}
	putchar('"');
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\')
			printf("\\%c", p[i]);
		else if (p[i] < ' ' || p[i] == 0x7f)
			printf("\\u%04x", p[i]);
		else
			putchar(p[i]);
	}
	putchar('"');
}

struct stream {
	const char *device;
	char *prev_device;	/* --boot -1: DEVICE.prev, allocated */
	int fd;
	struct srl_map *map;	/* NULL: read() (--no-mmap, or no mapping) */
	bool no_mmap;
	bool follow;		/* watch: wait for more; dump: stop at the end */
	bool poll_stdout;	/* stdout is a pipe or socket: watch it */
	enum output_mode mode;	/* -o */
	const char *ring;	/* the short forms' "identifier": seqring-NAME */
	int journal;		/* --journal: the journal's socket, else -1 */
	enum listing_time time;	/* -T, --time-format */
	bool new_only;		/* watch --new, -n 0 */
	bool quiet;		/* -q: no notes of readings missed */
	bool reverse;		/* -r: newest first */
	bool have_grep;		/* -g */
	regex_t grep;
	__u64 limit;		/* --count: readings to show; 0: no limit */
	__u64 shown;
	/*
	 * -n N: of the readings held at the start, the last N that pass the
	 * filters, kept in a ring of N (grown as they come, up to N) until
	 * the newest held is read; -r keeps them all, to show them newest
	 * first.
	 */
	bool have_lines;
	__u64 lines;
	struct seqring_record *tail;
	size_t tail_size, tail_cap, tail_len, tail_head;
	__u64 since, until;	/* --since, --until, in ns; until 0: none */
	__u64 next_seq;		/* sequence number expected next */
	__u64 end_seq;		/* dump: the newest reading when it began */
	bool behind;		/* read() said -EPIPE; next_seq is stale */
	bool have_after;	/* --after or a cursor file: skip to after */
	__u64 after;
	bool resuming;		/* the gap after @after is not reported yet */
	const char *cursor_file;
	__u64 saved;		/* the sequence number in the cursor file */
	/* Filters: a reading is shown if it matches one of each given. */
	__u32 *channels;
	size_t nr_channels;
	char (*labels)[SEQRING_LABEL_LEN];
	size_t nr_labels;
};

static bool stream_match(const struct stream *st,
			 const struct seqring_reading *r)
{
	char message[JOURNAL_MESSAGE_LEN];
	size_t i;

	if (r->timestamp_ns < st->since ||
	    (st->until && r->timestamp_ns > st->until))
		return false;
	for (i = 0; i < st->nr_channels; i++)
		if (r->channel == st->channels[i])
			break;
	if (st->nr_channels && i == st->nr_channels)
		return false;
	for (i = 0; i < st->nr_labels; i++)
		if (!strncmp(r->label, st->labels[i], SEQRING_LABEL_LEN))
			break;
	if (st->nr_labels && i == st->nr_labels)
		return false;
	if (!st->have_grep)
		return true;
	/* journalctl -g matches MESSAGE: -o cat's line. */
	reading_message(message, sizeof(message), r);
	return !regexec(&st->grep, message, 0, NULL, 0);
}

/*
 * The JSON object of a reading: on one line, or (json-pretty) one member
 * a line, as journalctl -o json-pretty prints an entry.
 */
static void print_json(const struct seqring_record *rec, bool pretty)
{
	const struct seqring_reading *r = &rec->reading;
	const char *sep = pretty ? ",\n\t" : ", ";
	char time[TIME_LEN];

	format_time(time, sizeof(time), r->timestamp_ns, TIME_ISO_NS);
	/* 64-bit numbers as strings, as in print_stats(). */
	printf("{%s\"seq\": \"%llu\"%s\"timestamp_ns\": \"%llu\"%s\"time\": \"%s\"%s",
	       pretty ? "\n\t" : "", (unsigned long long)rec->seq, sep,
	       (unsigned long long)r->timestamp_ns, sep, time, sep);
	printf("\"channel\": %u%s\"value\": \"%lld\"%s\"label\": ",
	       r->channel, sep, (long long)r->value, sep);
	json_print_label(r->label);
	fputs(pretty ? "\n}\n" : "}\n", stdout);
}

static void stream_print(const struct stream *st,
			 const struct seqring_record *rec)
{
	static const enum time_style short_time[] = {
		[OUT_SHORT] = TIME_SYSLOG,
		[OUT_SHORT_PRECISE] = TIME_SYSLOG_US,
		[OUT_SHORT_ISO] = TIME_ISO,
	};
	const struct seqring_reading *r = &rec->reading;
	char message[JOURNAL_MESSAGE_LEN];
	char label[SRL_ESCAPED_LABEL_LEN];
	char time[TIME_LEN];

	switch (st->mode) {
	case OUT_JSON:
	case OUT_JSON_PRETTY:
		print_json(rec, st->mode == OUT_JSON_PRETTY);
		return;
	case OUT_SHORT:
	case OUT_SHORT_PRECISE:
	case OUT_SHORT_ISO:
		format_time(time, sizeof(time), r->timestamp_ns,
			    short_time[st->mode]);
		reading_message(message, sizeof(message), r);
		printf("%s %s[%llu]: %s\n", time, st->ring,
		       (unsigned long long)rec->seq, message);
		return;
	case OUT_CAT:
		reading_message(message, sizeof(message), r);
		puts(message);
		return;
	case OUT_VERBOSE:
		journal_verbose(rec, st->ring);
		return;
	case OUT_EXPORT:
		journal_export(rec);
		return;
	case OUT_LISTING:
		break;
	}
	printf("%llu ", (unsigned long long)rec->seq);
	if (st->time != TIME_NS) {
		format_time(time, sizeof(time), r->timestamp_ns,
			    st->time == TIME_AS_ISO ? TIME_ISO_NS : TIME_CTIME);
		printf("%s ", time);
	} else {
		printf("%llu ", (unsigned long long)r->timestamp_ns);
	}
	srl_escape_label(label, r->label);
	printf("%u %lld %s\n", r->channel, (long long)r->value, label);
}

/* Print a reading, or send it to the journal: 0 or EXIT_FAILURE. */
static int stream_show(struct stream *st, const struct seqring_record *rec)
{
	int ret;

	if (st->journal >= 0) {
		ret = journal_send(st->journal, rec);
		/* Not sent: the cursor stays before it. */
		if (ret)
			return device_error("journal", "cannot send a reading",
					    ret);
	} else {
		stream_print(st, rec);
	}
	st->shown++;
	return 0;
}

/*
 * -n: keep @rec among the last tail_size; the array grows as readings
 * come, so that -n all and -r take memory for what there is, not for the
 * capacity. 0 or -ENOMEM.
 */
static int tail_keep(struct stream *st, const struct seqring_record *rec)
{
	struct seqring_record *p;
	size_t cap;

	if (st->tail_len == st->tail_cap && st->tail_cap < st->tail_size) {
		cap = st->tail_cap ? 2 * st->tail_cap : 256;
		if (cap > st->tail_size)
			cap = st->tail_size;
		p = realloc(st->tail, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->tail = p;
		st->tail_cap = cap;
	}
	/* Until it is full, the ring starts at 0 and grows in place. */
	st->tail[(st->tail_head + st->tail_len) % st->tail_size] = *rec;
	if (st->tail_len < st->tail_size)
		st->tail_len++;
	else
		st->tail_head = (st->tail_head + 1) % st->tail_size;
	return 0;
}

/* -n: show the last readings kept, oldest first (-r: newest), once. */
static int tail_flush(struct stream *st)
{
	size_t i, k;
	int ret;

	if (!st->have_lines)
		return 0;
	for (i = 0; i < st->tail_len && (!st->limit || st->shown < st->limit);
	     i++) {
		k = st->reverse ? st->tail_len - 1 - i : i;
		ret = stream_show(st, &st->tail[(st->tail_head + k) %
						 st->tail_size]);
		if (ret)
			return ret;
	}
	free(st->tail);
	st->tail = NULL;
	st->have_lines = false;
	return 0;
}

/* Readings missed since the cursor: from next_seq up to, not with, @seq. */
static void report_resume_gap(struct stream *st, __u64 seq)
{
	unsigned long long n = seq - st->next_seq;

	if (seq > st->next_seq && !st->quiet)
		fprintf(stderr,
			"seqringctl: %s: %llu reading%s missed after the cursor (seq %llu)\n",
			st->device, n, plural(n),
			(unsigned long long)st->after);
	st->resuming = false;
}

/*
 * Readings the stream skipped: overwritten before they were read, or in
 * the previous boot's ring, not intact after the crash (the driver left
 * them out). @n: how many, 0 when not known.
 */
static void report_missed(const struct stream *st, unsigned long long n)
{
	const char *what = st->prev_device ?
			   "damaged or lost in the crash, left out" :
			   "fell behind, readings missed";

	if (st->quiet)
		return;
	if (!n)
		fprintf(stderr, "seqringctl: %s: %s\n", st->device, what);
	else if (st->prev_device)
		fprintf(stderr, "seqringctl: %s: %llu reading%s %s\n",
			st->device, n, plural(n), what);
	else
		fprintf(stderr, "seqringctl: %s: fell behind, %llu reading%s missed\n",
			st->device, n, plural(n));
}

/*
 * After -EPIPE the driver resumes at the oldest reading it holds; the gap
 * between that reading and the one expected is what was missed.
 */
static int stream_record(struct stream *st, const struct seqring_record *rec)
{
	/* Shown (or filtered out) by the run that saved the cursor. */
	if (st->have_after && rec->seq <= st->after)
		return 0;
	if (st->behind && !st->resuming)
		report_missed(st, rec->seq > st->next_seq ?
			      rec->seq - st->next_seq : 0);
	if (st->resuming)
		report_resume_gap(st, rec->seq);
	st->behind = false;
	st->next_seq = rec->seq + 1;
	if (st->have_lines && rec->seq <= st->end_seq) {
		/* One of those held at the start: keep the last N. */
		if (stream_match(st, &rec->reading) && tail_keep(st, rec))
			return out_of_memory();
		return rec->seq == st->end_seq ? tail_flush(st) : 0;
	}
	if (tail_flush(st))
		return EXIT_FAILURE;
	if (stream_match(st, &rec->reading))
		return stream_show(st, rec);
	return 0;
}

/*
 * Sequence number of the first reading this open file will read, for the
 * count of readings missed if the first read() already says -EPIPE; and
 * for dump the newest reading, where it stops. The stats come after
 * open() (or lseek()), so a reading overwritten in between is not
 * counted: the count errs low, never high.
 */
static int stream_start(struct stream *st)
{
	struct seqring_stats s;
	int ret;

	ret = srl_get_stats(st->fd, &s);
	if (ret)
		return device_error(st->device, "cannot read stats", ret);
	st->next_seq = (s.count && !st->new_only) ? s.oldest_seq : s.total + 1;
	st->end_seq = s.total;
	/* No more than are held can be the last N of them. */
	if (st->have_lines && s.count && !st->new_only)
		st->tail_size = st->lines < s.count ? st->lines : s.count;
	else
		st->have_lines = false;
	if (!st->have_after)
		return 0;
	/*
	 * Sequence numbers start at 1 when the module is loaded: a cursor
	 * past the newest reading ever pushed is from before a reload.
	 */
	if (st->after > s.total) {
		if (!st->quiet)
			fprintf(stderr,
				"seqringctl: %s: cursor %llu is past the newest reading ever pushed (%llu): the module was reloaded? Reading from the oldest held\n",
				st->device, (unsigned long long)st->after,
				(unsigned long long)s.total);
		st->after = 0;
		st->saved = 0;
	}
	st->next_seq = st->after + 1;
	st->resuming = true;
	return 0;
}

/*
 * --cursor-file: the sequence number of the last reading this command
 * read (shown or filtered out). None yet (ENOENT): as without it.
 */
static int cursor_load(struct stream *st)
{
	int ret;

	ret = srl_cursor_load(st->cursor_file, &st->after);
	if (ret == -ENOENT)
		return 0;
	if (ret == -EINVAL) {
		fprintf(stderr,
			"seqringctl: %s: not a cursor (one sequence number expected)\n",
			st->cursor_file);
		return EXIT_FAILURE;
	}
	if (ret) {
		fprintf(stderr, "seqringctl: %s: cannot read the cursor: %s\n",
			st->cursor_file, strerror(-ret));
		return EXIT_FAILURE;
	}
	st->have_after = true;
	st->saved = st->after;
	return 0;
}

/*
 * A cursor that cannot be saved is said before anything is shown: found
 * only after the readings went out, the next run would show them all
 * again. The directory must take FILE.tmp (srl_cursor_save() renames it
 * over FILE).
 */
static int cursor_check(struct stream *st)
{
	char *tmp;
	int fd, err = 0;

	if (asprintf(&tmp, "%s.tmp", st->cursor_file) < 0)
		return out_of_memory();
	fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		err = errno;
	else if (close(fd) || unlink(tmp))
		err = errno;
	free(tmp);
	if (!err)
		return 0;
	fprintf(stderr, "seqringctl: %s: cannot save the cursor: %s\n",
		st->cursor_file, strerror(err));
	return EXIT_FAILURE;
}

/* Save @seq in the cursor file, if it moved. */
static int cursor_save(struct stream *st, __u64 seq)
{
	int ret;

	if (!st->cursor_file || seq <= st->saved)
		return 0;
	ret = srl_cursor_save(st->cursor_file, seq);
	if (ret) {
		fprintf(stderr, "seqringctl: %s: cannot save the cursor: %s\n",
			st->cursor_file, strerror(-ret));
		return EXIT_FAILURE;
	}
	st->saved = seq;
	return 0;
}

/*
 * Wait for readings with the signals of watch_signals[] blocked except
 * inside ppoll(), so that one arriving at any moment ends the wait: a
 * blocking read() would miss one that came just before it started.
 *
 * A pipe on stdout is polled too (for no event: POLLERR comes when its
 * reader is gone), so that "watch | head -n 1" ends when head does, not
 * only at the next reading, as tail -f does.
 */
static int watch_wait(struct stream *st, const sigset_t *waitmask)
{
	struct pollfd pfd[2] = {
		{ .fd = st->fd, .events = POLLIN },
		{ .fd = STDOUT_FILENO, .events = 0 },
	};

	/* The driver wakes us from where the mapping is, not the file. */
	if (st->map) {
		int ret = srl_map_sync_cursor(st->map);

		if (ret)
			return device_error(st->device, "cannot set the cursor",
					    ret);
	}
	if (ppoll(pfd, st->poll_stdout ? 2 : 1, NULL, waitmask) < 0) {
		if (errno == EINTR)
			return 0;
		return device_error(st->device, "cannot poll", -errno);
	}
	if (pfd[0].revents & POLLNVAL)
		return device_error(st->device, "cannot poll", -EBADF);
	if (st->poll_stdout && (pfd[1].revents & (POLLERR | POLLHUP)))
		return output_error(EPIPE);
	return 0;
}

/*
 * dump read all there was when it began: what it did not get up to there
 * was missed (cleared or overwritten, with nothing held after it), and
 * the cursor moves to the end.
 */
static int stream_end(struct stream *st)
{
	if (tail_flush(st))
		return EXIT_FAILURE;
	if (st->end_seq < st->next_seq)
		return EXIT_SUCCESS;
	if (st->resuming)
		report_resume_gap(st, st->end_seq + 1);
	else if (st->behind)
		report_missed(st, st->end_seq + 1 - st->next_seq);
	st->behind = false;
	st->next_seq = st->end_seq + 1;
	return cursor_save(st, st->end_seq);
}

/* Read and show until the limit, a signal, or (dump) the end. */
static int stream_loop(struct stream *st, const sigset_t *waitmask)
{
	struct seqring_record buf[STREAM_RECORDS];
	int status = 0;
	size_t want, i;
	ssize_t n;

	while (!watch_interrupted && (!st->limit || st->shown < st->limit)) {
		want = ARRAY_SIZE(buf);
		/* Filtered: what is read need not be shown. */
		if (st->limit && !st->nr_channels && !st->nr_labels &&
		    st->limit - st->shown < want)
			want = st->limit - st->shown;
		if (st->map)
			n = srl_map_read(st->map, buf, want);
		else
			n = srl_read(st->fd, buf, want);
		switch (n) {
		case -EAGAIN:
			if (!st->follow)
				return stream_end(st);
			/* All that was held is read: -n's are due. */
			if (tail_flush(st))
				return EXIT_FAILURE;
			errno = 0;
			if (fflush(stdout) || ferror(stdout))
				return output_error(errno ? errno : EIO);
			if (watch_wait(st, waitmask))
				return EXIT_FAILURE;
			continue;
		case -EPIPE:
			st->behind = true;
			continue;
		case -EIO:
			/* The mapping: a slot overwritten, oldest_seq not raised. */
			return device_error(st->device, st->map ?
					    "a reading changed in the mapping while held" :
					    "read a partial record", -EIO);
		case 0:
			break;
		default:
			if (n < 0)
				return device_error(st->device,
						    "cannot read readings", n);
		}
		if (!n)
			break;
		for (i = 0; i < (size_t)n; i++) {
			/* dump: what was pushed after it began is not its. */
			if (!st->follow && buf[i].seq > st->end_seq)
				break;
			status = stream_record(st, &buf[i]);
			if (status ||
			    (st->limit && st->shown == st->limit))
				break;
		}
		/*
		 * Like tail -f: each batch shows up as soon as it is read;
		 * then the cursor moves past it.
		 */
		errno = 0;
		if (fflush(stdout) || ferror(stdout))
			return output_error(errno ? errno : EIO);
		if (cursor_save(st, st->next_seq - 1) || status)
			return EXIT_FAILURE;
		if (i < (size_t)n && !st->follow)
			return stream_end(st);
	}
	return EXIT_SUCCESS;
}

/* Is @fd a pipe or a socket, whose reader can go away? */
static bool is_pipe(int fd)
{
	struct stat sb;

	return !fstat(fd, &sb) && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

/* Append @item (@size bytes) to the array *@arr of *@nr items. */
static int append(void *arr, size_t *nr, const void *item, size_t size)
{
	void *p = realloc(*(void **)arr, (*nr + 1) * size);

	if (!p)
		return -ENOMEM;
	memcpy((char *)p + *nr * size, item, size);
	*(void **)arr = p;
	(*nr)++;
	return 0;
}

/*
 * -n's number, in its word (-n5, --lines=5) or, as journalctl takes it, in
 * the next one (-n 5) if that is a number or "all"; none is 10.
 */
static int parse_lines(const struct command *cmd, struct stream *st,
		       int argc, char **argv)
{
	const char *arg = optarg;
	__u64 v;

	if (!arg && optind < argc &&
	    (!strcmp(argv[optind], "all") || !srl_parse_u64(argv[optind], &v)))
		arg = argv[optind++];
	st->have_lines = true;
	if (!arg)
		st->lines = LINES_DEFAULT;
	else if (!strcmp(arg, "all"))
		st->lines = UINT64_MAX;
	else if (arg_number(cmd, "number of lines", arg, 0, UINT64_MAX,
			    &st->lines))
		return EXIT_USAGE;
	/* -n 0: none of those held, as --new. */
	if (!st->lines)
		st->new_only = true;
	return 0;
}

/*
 * -g PATTERN: a POSIX extended regular expression, as grep -E takes it
 * (journalctl's are PCRE2's), matched without regard to case when it has
 * no capital letter, as journalctl does.
 */
static int parse_grep(const struct command *cmd, struct stream *st,
		      const char *pattern)
{
	char msg[256];
	const char *p;
	int flags = REG_EXTENDED | REG_NOSUB, ret;

	for (p = pattern; *p && !(*p >= 'A' && *p <= 'Z'); p++)
		;
	if (!*p)
		flags |= REG_ICASE;
	if (st->have_grep)
		regfree(&st->grep);
	st->have_grep = false;
	ret = regcomp(&st->grep, pattern, flags);
	if (ret) {
		regerror(ret, &st->grep, msg, sizeof(msg));
		return usage_error(cmd, "invalid pattern '%s': %s", pattern, msg);
	}
	st->have_grep = true;
	return 0;
}

/*
 * The options of watch and dump; getopt_long() refuses those that the
 * command's table does not have.
 */
static int stream_parse(const struct command *cmd, struct stream *st,
			int argc, char **argv)
{
	char label[SEQRING_LABEL_LEN];
	__u32 channel;
	int i;
	int opt;

	while ((opt = getopt_long(argc, argv, cmd->shortopts, cmd->longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'b':
			/* journalctl's offsets; only one boot is kept before. */
			free(st->prev_device);
			st->prev_device = NULL;
			if (!strcmp(optarg, "0"))
				break;
			if (strcmp(optarg, "-1"))
				return usage_error(cmd,
						   "boot '%s': 0 (this boot) and -1 (the previous one) are kept, no other",
						   optarg);
			if (asprintf(&st->prev_device, "%s.prev", st->device) < 0)
				return out_of_memory();
			break;
		case 'j':
			st->mode = OUT_JSON;
			break;
		case 'o':
			i = arg_name(cmd, "output mode", optarg, output_names,
				     ARRAY_SIZE(output_names));
			if (i < 0)
				return EXIT_USAGE;
			st->mode = i;
			break;
		case 'f':
			st->follow = true;
			break;
		case 'n':
			if (parse_lines(cmd, st, argc, argv))
				return EXIT_USAGE;
			break;
		case 'r':
			st->reverse = true;
			break;
		case 'g':
			if (parse_grep(cmd, st, optarg))
				return EXIT_USAGE;
			break;
		case 'q':
			st->quiet = true;
			break;
		case OPT_UTC:
			format_time_utc(true);
			break;
		case OPT_NO_PAGER:
			break;
		case OPT_COUNT:
			if (arg_number(cmd, "count", optarg, 1, UINT64_MAX,
				       &st->limit))
				return EXIT_USAGE;
			break;
		case 'S':
		case 'U':
			if (parse_time(optarg, opt == 'S' ? &st->since :
					       &st->until))
				return usage_error(cmd,
						   "invalid time '%s' (as journalctl takes it: \"2026-12-05 10:00[:00]\", 2026-12-05, 10:00, now, today, yesterday, -5min, \"5min ago\", @EPOCH)",
						   optarg);
			break;
		case 'N':
			st->new_only = true;
			break;
		case 'c':
			if (arg_u32(cmd, "channel", optarg, &channel))
				return EXIT_USAGE;
			if (append(&st->channels, &st->nr_channels, &channel,
				   sizeof(channel)))
				return out_of_memory();
			break;
		case 'l':
			if (strlen(optarg) > SRL_LABEL_MAX)
				return arg_label_error(cmd, optarg);
			memset(label, 0, sizeof(label));
			memcpy(label, optarg, strlen(optarg));
			if (append(&st->labels, &st->nr_labels, label,
				   sizeof(label)))
				return out_of_memory();
			break;
		case 'T':
			st->time = TIME_AS_CTIME;
			break;
		case OPT_AFTER:
			if (arg_number(cmd, "sequence number", optarg, 0,
				       UINT64_MAX, &st->after))
				return EXIT_USAGE;
			st->have_after = true;
			break;
		case OPT_CURSOR_FILE:
			st->cursor_file = optarg;
			break;
		case OPT_JOURNAL:
			st->journal = 0;	/* connected in stream_run() */
			break;
		case OPT_NO_MMAP:
			st->no_mmap = true;
			break;
		case OPT_TIME_FORMAT:
			i = arg_name(cmd, "time format", optarg,
				     time_format_names,
				     ARRAY_SIZE(time_format_names));
			if (i < 0)
				return EXIT_USAGE;
			st->time = i;
			break;
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);
	if (st->journal >= 0 && st->mode != OUT_LISTING)
		return usage_error(cmd, "--journal goes without --json and -o");
	if (st->have_after && (st->cursor_file || st->new_only))
		return usage_error(cmd, "--after goes with neither --cursor-file nor --new");
	/* Where a cursor says to go on, the last N held mean nothing. */
	if (st->have_lines && (st->have_after || st->cursor_file))
		return usage_error(cmd, "-n goes with neither --after nor --cursor-file");
	if (st->until && st->until < st->since)
		return usage_error(cmd, "--until is before --since");
	if (st->prev_device && st->follow)
		return usage_error(cmd,
				   "--boot -1 goes without -f: the previous boot's readings are all there");
	/* As journalctl: the newest first cannot wait for newer ones. */
	if (st->reverse && (st->follow || st->cursor_file))
		return usage_error(cmd, "-r goes with neither -f nor --cursor-file");
	/* -r: all of those held (or the last N), newest first. */
	if (st->reverse && !st->have_lines) {
		st->have_lines = true;
		st->lines = UINT64_MAX;
	}
	/*
	 * journalctl -f and tail -f show the last 10 before the new ones;
	 * a cursor says where to go on, and --new, -n, --after say where
	 * to start.
	 */
	if (st->follow && !st->have_lines && !st->new_only &&
	    !st->have_after && !st->cursor_file) {
		st->have_lines = true;
		st->lines = LINES_DEFAULT;
	}
	return -1;
}

/*
 * Open the device and read from where the options say, until the end
 * (dump) or a signal (watch).
 */
static int stream_run(const struct command *cmd, struct stream *st,
		      int argc, char **argv)
{
	struct caught_signals cs;
	sigset_t waitmask;
	int status;

	status = stream_parse(cmd, st, argc, argv);
	if (status >= 0)
		goto out_free;
	if (st->prev_device)
		st->device = st->prev_device;
	st->ring = strrchr(st->device, '/') ? strrchr(st->device, '/') + 1 :
		   st->device;

	if (st->cursor_file) {
		status = cursor_load(st);
		if (!status)
			status = cursor_check(st);
		if (status)
			goto out_free;
	}
	st->fd = srl_open(st->device, O_RDONLY | O_NONBLOCK);
	if (st->fd == -ENOENT && st->prev_device) {
		fprintf(stderr,
			"seqringctl: %s: no previous boot's readings: the ring is not persistent, or its region held none (see seqring(4), PERSISTENT RING)\n",
			st->device);
		status = EXIT_FAILURE;
		goto out_free;
	}
	if (st->fd < 0) {
		status = open_error(st->device, st->fd);
		goto out_free;
	}
	if (st->journal >= 0) {
		st->journal = journal_connect();
		if (st->journal < 0) {
			fprintf(stderr,
				"seqringctl: cannot connect to the journal (/run/systemd/journal/socket): %s\n",
				strerror(-st->journal));
			status = EXIT_FAILURE;
			goto out_close;
		}
	}
	/*
	 * Any driver, any ring can be read(): a mapping that cannot be made
	 * (a driver older than the mapping, a version or a 32-bit build the
	 * library refuses) leaves the command to read() without a word.
	 */
	if (!st->no_mmap && srl_map_open(st->fd, &st->map))
		st->map = NULL;
	/* A cursor says where to go on; --new is for the first run. */
	if (st->have_after)
		st->new_only = false;
	if (st->new_only && st->map) {
		srl_map_seek(st->map, UINT64_MAX);
	} else if (st->new_only && lseek(st->fd, 0, SEEK_END) < 0) {
		status = device_error(st->device,
				      "cannot seek past the newest reading",
				      -errno);
		goto out_close;
	}
	status = stream_start(st);
	if (status)
		goto out_close;
	if (!st->follow) {
		status = stream_loop(st, NULL);
		goto out_close;
	}

	st->poll_stdout = is_pipe(STDOUT_FILENO);

	/* The signals are delivered only inside ppoll(); see watch_wait(). */
	signals_catch(&cs, watch_signals, ARRAY_SIZE(watch_signals),
		      watch_on_signal, &waitmask);
	status = stream_loop(st, &waitmask);
	signals_restore(&cs);
	/* main() re-raises it after flushing what was read. */
	fatal_signal = watch_interrupted;
out_close:
	if (st->journal >= 0)
		close(st->journal);
	srl_map_close(st->map);
	close(st->fd);
out_free:
	free(st->channels);
	free(st->labels);
	free(st->tail);
	free(st->prev_device);
	if (st->have_grep)
		regfree(&st->grep);
	return status;
}

/*
 * dump and watch take the same options: watch is dump -f. Old spellings
 * stay where they do not clash with journalctl's: -j/--json (-o json),
 * --time-format, -N/--new (-n 0); watch -n COUNT became --count, as -n is
 * journalctl's (and tail's) number of lines, and -T dmesg -T's time.
 */
const struct option stream_options[] = {
	{ "boot",	required_argument,	NULL,	'b' },
	{ "json",	no_argument,		NULL,	'j' },
	{ "output",	required_argument,	NULL,	'o' },
	{ "follow",	no_argument,		NULL,	'f' },
	{ "lines",	optional_argument,	NULL,	'n' },
	{ "new",	no_argument,		NULL,	'N' },
	{ "reverse",	no_argument,		NULL,	'r' },
	{ "grep",	required_argument,	NULL,	'g' },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "utc",	no_argument,		NULL,	OPT_UTC },
	{ "no-pager",	no_argument,		NULL,	OPT_NO_PAGER },
	{ "since",	required_argument,	NULL,	'S' },
	{ "until",	required_argument,	NULL,	'U' },
	{ "count",	required_argument,	NULL,	OPT_COUNT },
	{ "channel",	required_argument,	NULL,	'c' },
	{ "label",	required_argument,	NULL,	'l' },
	{ "time-format", required_argument,	NULL,	OPT_TIME_FORMAT },
	{ "after",	required_argument,	NULL,	OPT_AFTER },
	{ "cursor-file", required_argument,	NULL,	OPT_CURSOR_FILE },
	{ "journal",	no_argument,		NULL,	OPT_JOURNAL },
	{ "no-mmap",	no_argument,		NULL,	OPT_NO_MMAP },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_watch(const struct command *cmd, const char *device,
	      int argc, char **argv)
{
	struct stream st = {
		.device = device, .fd = -1, .journal = -1, .follow = true
	};

	return stream_run(cmd, &st, argc, argv);
}

int cmd_dump(const struct command *cmd, const char *device,
	     int argc, char **argv)
{
	struct stream st = { .device = device, .fd = -1, .journal = -1 };

	return stream_run(cmd, &st, argc, argv);
}
