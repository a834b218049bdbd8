// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-stream - the commands that read the stream of /dev/seqring:
 * dump prints what the ring holds and exits, watch follows it like tail -f
 *
 * Each open file of the device reads whole struct seqring_record from a
 * cursor of its own (seqring(4)): from the oldest reading held, or with
 * lseek(SEEK_END) from the next one pushed; read() says -EPIPE once when
 * readings it had not read were overwritten, and goes on from the oldest.
 *
 * --after SEQ and --cursor-file resume where an earlier run stopped: read
 * from the oldest reading held and skip those up to SEQ; the gap between
 * SEQ and the first reading after it is what was missed in between.
 */

/* ppoll() */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
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

/* Values of the options that have no short form. */
enum {
	OPT_AFTER = 0x100,
	OPT_CURSOR_FILE,
	OPT_TIME_FORMAT,
	OPT_JOURNAL,
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

/* "2026-12-04T21:07:31.123456789+01:00": local time, as dmesg --time-format=iso. */
#define ISO_TIME_LEN		36

static void format_iso_time(char *buf, __u64 ns)
{
	time_t sec = ns / 1000000000;
	char zone[8] = "+0000";
	struct tm tm;
	size_t n;

	if (!localtime_r(&sec, &tm)) {
		snprintf(buf, ISO_TIME_LEN, "-");
		return;
	}
	n = strftime(buf, ISO_TIME_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	/* ISO 8601 writes the offset +hh:mm; strftime's %z gives +hhmm. */
	snprintf(buf + n, ISO_TIME_LEN - n, ".%09llu%.3s:%.2s",
		 (unsigned long long)(ns % 1000000000), zone, zone + 3);
}

struct stream {
	const char *device;
	int fd;
	bool follow;		/* watch: wait for more; dump: stop at the end */
	bool poll_stdout;	/* stdout is a pipe or socket: watch it */
	bool json;
	int journal;		/* --journal: the journal's socket, else -1 */
	bool iso_time;		/* -T: the time as ISO 8601, not nanoseconds */
	bool new_only;		/* watch --new */
	__u64 limit;		/* readings to show; 0: no limit */
	__u64 shown;
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
	size_t i;

	for (i = 0; i < st->nr_channels; i++)
		if (r->channel == st->channels[i])
			break;
	if (st->nr_channels && i == st->nr_channels)
		return false;
	for (i = 0; i < st->nr_labels; i++)
		if (!strncmp(r->label, st->labels[i], SEQRING_LABEL_LEN))
			break;
	return !st->nr_labels || i < st->nr_labels;
}

static void stream_print(const struct stream *st,
			 const struct seqring_record *rec)
{
	const struct seqring_reading *r = &rec->reading;
	char label[SRL_ESCAPED_LABEL_LEN];
	char time[ISO_TIME_LEN];

	if (st->json || st->iso_time)
		format_iso_time(time, r->timestamp_ns);
	if (st->json) {
		/* 64-bit numbers as strings, as in print_stats(). */
		printf("{\"seq\": \"%llu\", \"timestamp_ns\": \"%llu\", \"time\": \"%s\", ",
		       (unsigned long long)rec->seq,
		       (unsigned long long)r->timestamp_ns, time);
		printf("\"channel\": %u, \"value\": \"%lld\", \"label\": ",
		       r->channel, (long long)r->value);
		json_print_label(r->label);
		fputs("}\n", stdout);
		return;
	}
	printf("%llu ", (unsigned long long)rec->seq);
	if (st->iso_time)
		printf("%s ", time);
	else
		printf("%llu ", (unsigned long long)r->timestamp_ns);
	srl_escape_label(label, r->label);
	printf("%u %lld %s\n", r->channel, (long long)r->value, label);
}

/* Readings missed since the cursor: from next_seq up to, not with, @seq. */
static void report_resume_gap(struct stream *st, __u64 seq)
{
	if (seq > st->next_seq)
		fprintf(stderr,
			"seqringctl: %s: %llu readings missed after the cursor (seq %llu)\n",
			st->device, (unsigned long long)(seq - st->next_seq),
			(unsigned long long)st->after);
	st->resuming = false;
}

/*
 * After -EPIPE the driver resumes at the oldest reading it holds; the gap
 * between that reading and the one expected is what was missed.
 */
static int stream_record(struct stream *st, const struct seqring_record *rec)
{
	char label[SRL_ESCAPED_LABEL_LEN];
	int ret;

	/* Shown (or filtered out) by the run that saved the cursor. */
	if (st->have_after && rec->seq <= st->after)
		return 0;
	if (st->behind && !st->resuming) {
		if (rec->seq > st->next_seq)
			fprintf(stderr,
				"seqringctl: %s: fell behind, %llu readings missed\n",
				st->device,
				(unsigned long long)(rec->seq - st->next_seq));
		else
			fprintf(stderr,
				"seqringctl: %s: fell behind, readings missed\n",
				st->device);
	}
	if (st->resuming)
		report_resume_gap(st, rec->seq);
	st->behind = false;
	if (stream_match(st, &rec->reading)) {
		if (st->journal >= 0) {
			srl_escape_label(label, rec->reading.label);
			ret = journal_send(st->journal, rec, label);
			/* Not sent: the cursor stays before it. */
			if (ret)
				return device_error("journal",
						    "cannot send a reading", ret);
		} else {
			stream_print(st, rec);
		}
		st->shown++;
	}
	st->next_seq = rec->seq + 1;
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
	if (!st->have_after)
		return 0;
	/*
	 * Sequence numbers start at 1 when the module is loaded: a cursor
	 * past the newest reading ever pushed is from before a reload.
	 */
	if (st->after > s.total) {
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
	if (st->end_seq < st->next_seq)
		return EXIT_SUCCESS;
	if (st->resuming)
		report_resume_gap(st, st->end_seq + 1);
	else if (st->behind)
		fprintf(stderr,
			"seqringctl: %s: fell behind, %llu readings missed\n",
			st->device,
			(unsigned long long)(st->end_seq + 1 - st->next_seq));
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
		n = srl_read(st->fd, buf, want);
		switch (n) {
		case -EAGAIN:
			if (!st->follow)
				return stream_end(st);
			if (watch_wait(st, waitmask))
				return EXIT_FAILURE;
			continue;
		case -EPIPE:
			st->behind = true;
			continue;
		case -EIO:
			return device_error(st->device,
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
 * The options of watch and dump; getopt_long() refuses those that the
 * command's table does not have.
 */
static int stream_parse(const struct command *cmd, struct stream *st,
			int argc, char **argv)
{
	char label[SEQRING_LABEL_LEN];
	__u32 channel;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts, cmd->longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'j':
			st->json = true;
			break;
		case 'n':
			ret = srl_parse_u64(optarg, &st->limit);
			if (!ret && !st->limit)
				ret = -ERANGE;
			if (ret) {
				report_number("", "count", optarg, ret,
					      "1..18446744073709551615");
				return usage_hint(cmd);
			}
			break;
		case 'N':
			st->new_only = true;
			break;
		case 'c':
			ret = srl_parse_u32(optarg, &channel);
			if (ret) {
				report_number("", "channel", optarg, ret,
					      RANGE_U32);
				return usage_hint(cmd);
			}
			if (append(&st->channels, &st->nr_channels, &channel,
				   sizeof(channel)))
				return out_of_memory();
			break;
		case 'l':
			if (strlen(optarg) > SRL_LABEL_MAX) {
				report_label("", optarg);
				return usage_hint(cmd);
			}
			memset(label, 0, sizeof(label));
			memcpy(label, optarg, strlen(optarg));
			if (append(&st->labels, &st->nr_labels, label,
				   sizeof(label)))
				return out_of_memory();
			break;
		case 'T':
			st->iso_time = true;
			break;
		case OPT_AFTER:
			ret = srl_parse_u64(optarg, &st->after);
			if (ret) {
				report_number("", "sequence number", optarg,
					      ret, RANGE_U64);
				return usage_hint(cmd);
			}
			st->have_after = true;
			break;
		case OPT_CURSOR_FILE:
			st->cursor_file = optarg;
			break;
		case OPT_JOURNAL:
			st->journal = 0;	/* connected in stream_run() */
			break;
		case OPT_TIME_FORMAT:
			if (!strcmp(optarg, "iso")) {
				st->iso_time = true;
			} else if (!strcmp(optarg, "ns")) {
				st->iso_time = false;
			} else {
				fprintf(stderr,
					"seqringctl: %s: unknown time format '%s' (ns, iso)\n",
					cmd->name, optarg);
				return usage_hint(cmd);
			}
			break;
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);
	if (st->journal >= 0 && st->json) {
		fprintf(stderr,
			"seqringctl: %s: --journal goes without --json\n",
			cmd->name);
		return usage_hint(cmd);
	}
	if (st->have_after && (st->cursor_file || st->new_only)) {
		fprintf(stderr,
			"seqringctl: %s: --after goes with neither --cursor-file nor --new\n",
			cmd->name);
		return usage_hint(cmd);
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
	struct sigaction sa, old_sa[ARRAY_SIZE(watch_signals)];
	sigset_t block, waitmask;
	int status;
	size_t i;

	status = stream_parse(cmd, st, argc, argv);
	if (status >= 0)
		goto out_free;

	if (st->cursor_file) {
		status = cursor_load(st);
		if (status)
			goto out_free;
	}
	st->fd = srl_open(st->device, O_RDONLY | O_NONBLOCK);
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
	/* A cursor says where to go on; --new is for the first run. */
	if (st->have_after)
		st->new_only = false;
	if (st->new_only && lseek(st->fd, 0, SEEK_END) < 0) {
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

	/*
	 * The signals are delivered only inside ppoll(); see watch_wait().
	 * One that is ignored (nohup, a background job of a script) stays
	 * ignored.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watch_on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(watch_signals); i++) {
		sigaction(watch_signals[i], NULL, &old_sa[i]);
		if (old_sa[i].sa_handler != SIG_IGN)
			sigaddset(&block, watch_signals[i]);
	}
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	for (i = 0; i < ARRAY_SIZE(watch_signals); i++) {
		if (!sigismember(&block, watch_signals[i]))
			continue;
		sigdelset(&waitmask, watch_signals[i]);
		sigaction(watch_signals[i], &sa, NULL);
	}

	status = stream_loop(st, &waitmask);

	for (i = 0; i < ARRAY_SIZE(watch_signals); i++)
		if (sigismember(&block, watch_signals[i]))
			sigaction(watch_signals[i], &old_sa[i], NULL);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	/* main() re-raises it after flushing what was read. */
	fatal_signal = watch_interrupted;
out_close:
	if (st->journal >= 0)
		close(st->journal);
	close(st->fd);
out_free:
	free(st->channels);
	free(st->labels);
	return status;
}

const struct option watch_options[] = {
	{ "json",	no_argument,		NULL,	'j' },
	{ "count",	required_argument,	NULL,	'n' },
	{ "new",	no_argument,		NULL,	'N' },
	{ "channel",	required_argument,	NULL,	'c' },
	{ "label",	required_argument,	NULL,	'l' },
	{ "time-format", required_argument,	NULL,	OPT_TIME_FORMAT },
	{ "after",	required_argument,	NULL,	OPT_AFTER },
	{ "cursor-file", required_argument,	NULL,	OPT_CURSOR_FILE },
	{ "journal",	no_argument,		NULL,	OPT_JOURNAL },
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

const struct option dump_options[] = {
	{ "json",	no_argument,		NULL,	'j' },
	{ "channel",	required_argument,	NULL,	'c' },
	{ "label",	required_argument,	NULL,	'l' },
	{ "time-format", required_argument,	NULL,	OPT_TIME_FORMAT },
	{ "after",	required_argument,	NULL,	OPT_AFTER },
	{ "cursor-file", required_argument,	NULL,	OPT_CURSOR_FILE },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_dump(const struct command *cmd, const char *device,
	     int argc, char **argv)
{
	struct stream st = { .device = device, .fd = -1, .journal = -1 };

	return stream_run(cmd, &st, argc, argv);
}
