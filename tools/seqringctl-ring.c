// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-ring - the commands that change the ring: push and feed
 * readings, clear it, show or set its capacity; each one ioctl (a batch
 * of them for feed)
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

#define FEED_BATCH_DEFAULT	256

/*
 * "push -5" must take -5 as a VALUE, not as an unknown option: stop option
 * parsing at the first argument that looks like a negative number.
 */
static bool next_is_negative(int argc, char **argv)
{
	int next = optind ? optind : 1;

	return next < argc && argv[next][0] == '-' &&
	       isdigit((unsigned char)argv[next][1]);
}

const struct option push_options[] = {
	{ "channel",	required_argument,	NULL,	'c' },
	{ "label",	required_argument,	NULL,	'l' },
	{ "timestamp",	required_argument,	NULL,	't' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_push(const struct command *cmd, const char *device,
	     int argc, char **argv)
{
	struct seqring_reading *readings;
	struct seqring_reading tmpl;
	size_t count, pushed = 0;
	int opt, fd, ret, i;

	memset(&tmpl, 0, sizeof(tmpl));
	while (!next_is_negative(argc, argv)) {
		opt = getopt_long(argc, argv, cmd->shortopts, cmd->longopts,
				  NULL);
		if (opt == -1)
			break;
		switch (opt) {
		case 'c':
			if (arg_u32(cmd, "channel", optarg, &tmpl.channel))
				return EXIT_USAGE;
			break;
		case 'l':
			if (srl_set_label(&tmpl, optarg, strlen(optarg)))
				return arg_label_error(cmd, optarg);
			break;
		case 't':
			if (arg_number(cmd, "timestamp", optarg, 0, UINT64_MAX,
				       &tmpl.timestamp_ns))
				return EXIT_USAGE;
			break;
		default:
			return other_option(cmd, opt);
		}
	}
	if (!optind)
		optind = 1;
	if (optind >= argc)
		return usage_error(cmd, "missing VALUE");

	count = argc - optind;
	readings = calloc(count, sizeof(*readings));
	if (!readings)
		return out_of_memory();
	for (i = 0; optind + i < argc; i++) {
		readings[i] = tmpl;
		ret = srl_parse_s64(argv[optind + i], &readings[i].value);
		if (ret) {
			report_number("push: ", "VALUE", argv[optind + i], ret,
				      RANGE_S64);
			free(readings);
			return usage_hint(cmd);
		}
	}

	fd = srl_open(device, O_WRONLY);
	if (fd < 0) {
		free(readings);
		return open_error(device, fd);
	}
	if (count == 1) {
		ret = srl_push(fd, readings);
		pushed = ret ? 0 : 1;
	} else {
		ret = srl_push_batch(fd, readings, count, &pushed);
	}
	close(fd);
	free(readings);
	if (ret) {
		device_error(device, "cannot push readings", ret);
		if (pushed)
			fprintf(stderr,
				"seqringctl: %s: %zu of %zu readings pushed\n",
				device, pushed, count);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

static char *skip_blanks(char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

/* Cut off the word at @p; return where the rest of the line starts. */
static char *cut_word(char *p)
{
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = '\0';
	return p;
}

/*
 * Parse one input line of "feed": VALUE [CHANNEL [LABEL]]. Returns 1 if
 * @r now holds a reading, 0 for a blank or comment line, and -1 if the
 * line is malformed, after saying why on stderr.
 */
static int parse_feed_line(char *line, size_t len, unsigned long lineno,
			   __u32 channel, struct seqring_reading *r)
{
	char where[32];
	char *p, *word, *end;
	int ret;

	snprintf(where, sizeof(where), "stdin:%lu: ", lineno);
	if (memchr(line, '\0', len)) {
		fprintf(stderr, "seqringctl: %sline contains a NUL byte\n",
			where);
		return -1;
	}

	p = skip_blanks(line);
	if (!*p || *p == '#')
		return 0;

	memset(r, 0, sizeof(*r));
	r->channel = channel;

	word = p;
	p = cut_word(p);
	ret = srl_parse_s64(word, &r->value);
	if (ret) {
		report_number(where, "VALUE", word, ret, RANGE_S64);
		return -1;
	}

	p = skip_blanks(p);
	if (!*p)
		return 1;
	word = p;
	p = cut_word(p);
	ret = srl_parse_u32(word, &r->channel);
	if (ret) {
		report_number(where, "CHANNEL", word, ret, RANGE_U32);
		return -1;
	}

	/* The label is the rest of the line, trimmed; it may hold blanks. */
	p = skip_blanks(p);
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	if (srl_set_label(r, p, end - p)) {
		report_label(where, p);
		return -1;
	}
	return 1;
}

struct feed_state {
	const char *device;
	int fd;
	struct seqring_reading *readings;
	size_t pending;
	unsigned long first_line;	/* input line of readings[0] */
	unsigned long last_line;	/* input line of the newest one */
	size_t pushed;
};

/* Push what is pending. Returns 0, or EXIT_FAILURE after saying why. */
static int feed_flush(struct feed_state *st)
{
	int ret;

	if (!st->pending)
		return 0;
	ret = srl_push_batch(st->fd, st->readings, st->pending, NULL);
	if (ret) {
		char what[80];

		snprintf(what, sizeof(what),
			 "cannot push the readings of stdin lines %lu-%lu",
			 st->first_line, st->last_line);
		return device_error(st->device, what, ret);
	}
	st->pushed += st->pending;
	st->pending = 0;
	return 0;
}

const struct option feed_options[] = {
	{ "batch",	required_argument,	NULL,	'b' },
	{ "channel",	required_argument,	NULL,	'c' },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

/*
 * Everything before a malformed line is pushed (the pending batch is
 * flushed), nothing from it on is parsed or pushed, and the exit status is
 * 1: the ring holds a prefix of the input and the message says where it
 * ends, so the feed can be resumed from that line once it is fixed.
 */
int cmd_feed(const struct command *cmd, const char *device,
	     int argc, char **argv)
{
	struct feed_state st = { .device = device, .fd = -1 };
	__u64 batch = FEED_BATCH_DEFAULT;
	__u32 channel = 0;
	bool verbose = false;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int status = EXIT_SUCCESS;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			if (arg_number(cmd, "batch size", optarg, 1,
				       SEQRING_BATCH_MAX, &batch))
				return EXIT_USAGE;
			break;
		case 'c':
			if (arg_u32(cmd, "channel", optarg, &channel))
				return EXIT_USAGE;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	st.readings = calloc(batch, sizeof(*st.readings));
	if (!st.readings)
		return out_of_memory();
	st.fd = srl_open(device, O_WRONLY);
	if (st.fd < 0) {
		free(st.readings);
		return open_error(device, st.fd);
	}

	for (;;) {
		errno = 0;
		len = getline(&line, &cap, stdin);
		if (len < 0) {
			if (ferror(stdin)) {
				ret = errno ? errno : EIO;
				fprintf(stderr, "seqringctl: stdin:%lu: %s\n",
					lineno + 1, strerror(ret));
				status = EXIT_FAILURE;
			}
			break;
		}
		lineno++;
		ret = parse_feed_line(line, len, lineno, channel,
				      &st.readings[st.pending]);
		if (ret < 0) {
			status = EXIT_FAILURE;
			break;
		}
		if (!ret)
			continue;
		if (!st.pending)
			st.first_line = lineno;
		st.last_line = lineno;
		if (++st.pending == batch && feed_flush(&st)) {
			status = EXIT_FAILURE;
			goto out;
		}
	}
	if (feed_flush(&st))
		status = EXIT_FAILURE;
out:
	if (verbose)
		printf("%zu reading%s pushed\n", st.pushed, plural(st.pushed));
	free(line);
	free(st.readings);
	close(st.fd);
	return status;
}

const struct option clear_options[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_clear(const struct command *cmd, const char *device,
	      int argc, char **argv)
{
	int opt, fd, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	fd = srl_open(device, O_WRONLY);
	if (fd < 0)
		return open_error(device, fd);
	ret = srl_clear(fd);
	close(fd);
	if (ret)
		return device_error(device, "cannot clear", ret);
	return EXIT_SUCCESS;
}

/*
 * --- capacity: show or set the size of the ring ---------------------------
 */

const struct option capacity_options[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

int cmd_capacity(const struct command *cmd, const char *device,
		 int argc, char **argv)
{
	struct seqring_stats s;
	__u64 capacity = 0;
	int opt, fd, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc) {
		if (arg_number(cmd, "capacity", argv[optind], 1,
			       SEQRING_CAPACITY_MAX, &capacity))
			return EXIT_USAGE;
		optind++;
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	/* Resizing needs CAP_SYS_ADMIN, not a writable file. */
	fd = srl_open(device, O_RDONLY);
	if (fd < 0)
		return open_error(device, fd);
	if (capacity) {
		ret = srl_set_capacity(fd, capacity);
		close(fd);
		if (ret)
			return device_error(device, "cannot set the capacity",
					    ret);
		return EXIT_SUCCESS;
	}
	ret = srl_get_stats(fd, &s);
	close(fd);
	if (ret)
		return device_error(device, "cannot read stats", ret);
	printf("%llu\n", (unsigned long long)s.capacity);
	return EXIT_SUCCESS;
}
