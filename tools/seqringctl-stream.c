// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-stream - the commands that read the stream of /dev/seqring:
 * watch follows it like tail -f
 *
 * Each open file of the device reads whole struct seqring_record from a
 * cursor of its own (seqring(4)): from the oldest reading held, or with
 * lseek(SEEK_END) from the next one pushed; read() says -EPIPE once when
 * readings it had not read were overwritten, and goes on from the oldest.
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
#include <unistd.h>
#include <sys/stat.h>
#include <linux/seqring.h>

#include "seqring-utils.h"
#include "seqringctl.h"

/* Records per read(): 12 KiB, a few hundred lines of output per flush. */
#define WATCH_RECORDS		256

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
 * The listing's escaping, so that watch output and /proc/seqring can be
 * compared line for line: a label is one word of printable ASCII, with
 * every byte that could split or hide a field (controls, space, DEL,
 * non-ASCII) and the backslash written as \ooo. "-" stands for the empty
 * label, so a label that is "-" itself is written \055.
 */
static void watch_print_label(const char *label)
{
	const unsigned char *p = (const unsigned char *)label;
	size_t len = strnlen(label, SEQRING_LABEL_LEN);
	size_t i;

	if (!len) {
		putchar('-');
		return;
	}
	if (len == 1 && p[0] == '-') {
		fputs("\\055", stdout);
		return;
	}
	for (i = 0; i < len; i++) {
		if (p[i] <= ' ' || p[i] >= 0x7f || p[i] == '\\')
			printf("\\%03o", p[i]);
		else
			putchar(p[i]);
	}
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

	if (!seqring_utf8_valid(label, len)) {
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

static void watch_print(const struct seqring_record *rec, bool json)
{
	const struct seqring_reading *r = &rec->reading;

	if (json) {
		/* 64-bit numbers as strings, as in print_stats(). */
		printf("{\"seq\": \"%llu\", \"timestamp_ns\": \"%llu\", ",
		       (unsigned long long)rec->seq,
		       (unsigned long long)r->timestamp_ns);
		printf("\"channel\": %u, \"value\": \"%lld\", \"label\": ",
		       r->channel, (long long)r->value);
		json_print_label(r->label);
		fputs("}\n", stdout);
	} else {
		printf("%llu %llu %u %lld ", (unsigned long long)rec->seq,
		       (unsigned long long)r->timestamp_ns, r->channel,
		       (long long)r->value);
		watch_print_label(r->label);
		putchar('\n');
	}
}

struct watch_state {
	const char *device;
	int fd;
	bool poll_stdout;	/* stdout is a pipe or socket: watch it */
	bool json;
	__u64 limit;		/* readings to show; 0: no limit */
	__u64 shown;
	__u64 next_seq;		/* sequence number expected next */
	bool behind;		/* read() said -EPIPE; next_seq is stale */
};

/*
 * After -EPIPE the driver resumes at the oldest reading it holds; the gap
 * between that reading and the one expected is what was missed.
 */
static void watch_record(struct watch_state *st,
			 const struct seqring_record *rec)
{
	if (st->behind) {
		if (rec->seq > st->next_seq)
			fprintf(stderr,
				"seqringctl: %s: fell behind, %llu readings missed\n",
				st->device,
				(unsigned long long)(rec->seq - st->next_seq));
		else
			fprintf(stderr,
				"seqringctl: %s: fell behind, readings missed\n",
				st->device);
		st->behind = false;
	}
	watch_print(rec, st->json);
	st->next_seq = rec->seq + 1;
	st->shown++;
}

/*
 * Sequence number of the first reading this open file will read, for the
 * count of readings missed if the first read() already says -EPIPE. The
 * stats come after open() (or lseek()), so a reading overwritten in between
 * is not counted: the count errs low, never high.
 */
static int watch_first_seq(struct watch_state *st, bool new_only)
{
	struct seqring_stats s;
	int ret;

	ret = seqring_get_stats(st->fd, &s);
	if (ret)
		return device_error(st->device, "cannot read stats", ret);
	st->next_seq = (s.count && !new_only) ? s.oldest_seq : s.total + 1;
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
static int watch_wait(struct watch_state *st, const sigset_t *waitmask)
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

static int watch_loop(struct watch_state *st, const sigset_t *waitmask)
{
	struct seqring_record buf[WATCH_RECORDS];
	size_t want, i;
	ssize_t n;

	while (!watch_interrupted && (!st->limit || st->shown < st->limit)) {
		want = ARRAY_SIZE(buf);
		if (st->limit && st->limit - st->shown < want)
			want = st->limit - st->shown;
		n = read(st->fd, buf, want * sizeof(buf[0]));
		if (n < 0) {
			switch (errno) {
			case EAGAIN:
				if (watch_wait(st, waitmask))
					return EXIT_FAILURE;
				continue;
			case EINTR:
				continue;
			case EPIPE:
				st->behind = true;
				continue;
			default:
				return device_error(st->device,
						    "cannot read readings",
						    -errno);
			}
		}
		if (!n)
			break;
		if (n % sizeof(buf[0]))
			return device_error(st->device,
					    "read a partial record", -EIO);
		for (i = 0; i < n / sizeof(buf[0]); i++)
			watch_record(st, &buf[i]);
		/* Like tail -f: each batch shows up as soon as it is read. */
		errno = 0;
		if (fflush(stdout) || ferror(stdout))
			return output_error(errno ? errno : EIO);
	}
	return EXIT_SUCCESS;
}

/* Is @fd a pipe or a socket, whose reader can go away? */
static bool is_pipe(int fd)
{
	struct stat sb;

	return !fstat(fd, &sb) && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

const struct option watch_options[] = {
	{ "json",	no_argument,		NULL,	'j' },
	{ "count",	required_argument,	NULL,	'n' },
	{ "new",	no_argument,		NULL,	'N' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_watch(const struct command *cmd, const char *device,
	      int argc, char **argv)
{
	struct watch_state st = { .device = device, .fd = -1 };
	struct sigaction sa, old_sa[ARRAY_SIZE(watch_signals)];
	sigset_t block, waitmask;
	bool new_only = false;
	int opt, ret, status;
	size_t i;

	while ((opt = getopt_long(argc, argv, "+jn:Nh",
				  watch_options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			st.json = true;
			break;
		case 'n':
			ret = seqring_parse_u64(optarg, &st.limit);
			if (!ret && !st.limit)
				ret = -ERANGE;
			if (ret) {
				report_number("", "count", optarg, ret,
					      "1..18446744073709551615");
				return usage_hint(cmd);
			}
			break;
		case 'N':
			new_only = true;
			break;
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	st.fd = seqring_open(device, O_RDONLY | O_NONBLOCK);
	if (st.fd < 0)
		return open_error(device, st.fd);
	if (new_only && lseek(st.fd, 0, SEEK_END) < 0) {
		status = device_error(device, "cannot seek past the newest reading",
				      -errno);
		goto out_close;
	}
	status = watch_first_seq(&st, new_only);
	if (status)
		goto out_close;

	st.poll_stdout = is_pipe(STDOUT_FILENO);

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

	status = watch_loop(&st, &waitmask);

	for (i = 0; i < ARRAY_SIZE(watch_signals); i++)
		if (sigismember(&block, watch_signals[i]))
			sigaction(watch_signals[i], &old_sa[i], NULL);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	/* main() re-raises it after flushing what was read. */
	fatal_signal = watch_interrupted;
out_close:
	close(st.fd);
	return status;
}
