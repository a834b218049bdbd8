// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl - push readings to /dev/seqring, dump or watch them, print its
 * counters, clear it, show or set its capacity
 *
 * Usage:
 *	seqringctl [-d DEVICE] push [-c CHANNEL] [-l LABEL] [-t NS] VALUE...
 *	seqringctl [-d DEVICE] feed [-b BATCH] [-c CHANNEL] [-v] < FILE
 *	seqringctl [-d DEVICE] stats [--json | --format=FORMAT]
 *	seqringctl [-d DEVICE] clear
 *	seqringctl [-d DEVICE] dump [--json] [-T] [-c CHANNEL]... [-l LABEL]...
 *	seqringctl [-d DEVICE] watch [--json] [-T] [-c CHANNEL]... [-l LABEL]...
 *		[-n COUNT] [--new]
 *	seqringctl [-d DEVICE] capacity [N]
 *	seqringctl --version
 *
 * Exit status: 0 on success, 1 if something failed at run time, 2 for a
 * usage error (nothing is sent to the device then); watch dies by the
 * signal that ends it. See seqringctl(1).
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "seqring-utils.h"
#include "seqringctl.h"

#define FEED_BATCH_DEFAULT	256

/* getopt() names the program after argv[0] in its messages. */
static char prog_name[64];

/* See seqringctl.h. */
int fatal_signal;

/* The output was found closed or failing and that was reported already. */
static bool output_failed;

/* The other errors are reported. */
int output_error(int err)
{
	output_failed = true;
	if (err == EPIPE) {
		raise(SIGPIPE);
		return EXIT_FAILURE;
	}
	fprintf(stderr, "seqringctl: stdout: write error: %s\n",
		strerror(err));
	return EXIT_FAILURE;
}

static void print_cmd_usage(FILE *f, const struct command *cmd)
{
	fprintf(f, "Usage: seqringctl [-d DEVICE] %s%s%s\n", cmd->name,
		*cmd->synopsis ? " " : "", cmd->synopsis);
}

int usage_hint(const struct command *cmd)
{
	if (cmd)
		print_cmd_usage(stderr, cmd);
	fputs("Try 'seqringctl --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

int cmd_help(const struct command *cmd)
{
	print_cmd_usage(stdout, cmd);
	printf("%s\n%s", cmd->summary, cmd->options);
	return EXIT_SUCCESS;
}

int unexpected_arg(const struct command *cmd, const char *arg)
{
	fprintf(stderr, "seqringctl: %s: unexpected argument '%s'\n",
		cmd->name, arg);
	return usage_hint(cmd);
}

void report_number(const char *where, const char *what,
		   const char *str, int err, const char *range)
{
	if (err == -ERANGE)
		fprintf(stderr,
			"seqringctl: %sinvalid %s '%s': out of range (%s)\n",
			where, what, str, range);
	else
		fprintf(stderr,
			"seqringctl: %sinvalid %s '%s': not a decimal number\n",
			where, what, str);
}

void report_label(const char *where, const char *label)
{
	fprintf(stderr, "seqringctl: %slabel '%s' has %zu bytes, at most %d\n",
		where, label, strlen(label), SEQRING_LABEL_MAX);
}

/* What a user can do about the two errors a new user meets first. */
int open_error(const char *device, int err)
{
	fprintf(stderr, "seqringctl: cannot open %s: %s\n",
		device, strerror(-err));
	if (err == -ENOENT)
		fputs("seqringctl: is the module loaded? try: modprobe seqring\n",
		      stderr);
	else if (err == -EACCES)
		fprintf(stderr,
			"seqringctl: the device is for root and the members of group seqring: usermod -aG seqring USER (then log in again)\n");
	return EXIT_FAILURE;
}

int device_error(const char *device, const char *what, int err)
{
	fprintf(stderr, "seqringctl: %s: %s: %s%s\n", device, what,
		strerror(-err),
		err == -ENOTTY ? " (not a seqring device?)" : "");
	return EXIT_FAILURE;
}

int out_of_memory(void)
{
	fprintf(stderr, "seqringctl: %s\n", strerror(ENOMEM));
	return EXIT_FAILURE;
}

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

static const struct option push_options[] = {
	{ "channel",	required_argument,	NULL,	'c' },
	{ "label",	required_argument,	NULL,	'l' },
	{ "timestamp",	required_argument,	NULL,	't' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

static int cmd_push(const struct command *cmd, const char *device,
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
			ret = seqring_parse_u32(optarg, &tmpl.channel);
			if (ret) {
				report_number("", "channel", optarg, ret,
					      RANGE_U32);
				return usage_hint(cmd);
			}
			break;
		case 'l':
			ret = seqring_set_label(&tmpl, optarg, strlen(optarg));
			if (ret) {
				report_label("", optarg);
				return usage_hint(cmd);
			}
			break;
		case 't':
			ret = seqring_parse_u64(optarg, &tmpl.timestamp_ns);
			if (ret) {
				report_number("", "timestamp", optarg, ret,
					      RANGE_U64);
				return usage_hint(cmd);
			}
			break;
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (!optind)
		optind = 1;
	if (optind >= argc) {
		fprintf(stderr, "seqringctl: push: missing VALUE\n");
		return usage_hint(cmd);
	}

	count = argc - optind;
	readings = calloc(count, sizeof(*readings));
	if (!readings)
		return out_of_memory();
	for (i = 0; optind + i < argc; i++) {
		readings[i] = tmpl;
		ret = seqring_parse_s64(argv[optind + i], &readings[i].value);
		if (ret) {
			report_number("", "VALUE", argv[optind + i], ret,
				      RANGE_S64);
			free(readings);
			return usage_hint(cmd);
		}
	}

	fd = seqring_open(device, O_WRONLY);
	if (fd < 0) {
		free(readings);
		return open_error(device, fd);
	}
	if (count == 1) {
		ret = seqring_push(fd, readings);
		pushed = ret ? 0 : 1;
	} else {
		ret = seqring_push_batch(fd, readings, count, &pushed);
	}
	close(fd);
	free(readings);
	if (ret) {
		device_error(device, "cannot push readings", ret);
		if (pushed)
			fprintf(stderr,
				"seqringctl: %zu of %zu readings pushed\n",
				pushed, count);
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
	ret = seqring_parse_s64(word, &r->value);
	if (ret) {
		report_number(where, "VALUE", word, ret, RANGE_S64);
		return -1;
	}

	p = skip_blanks(p);
	if (!*p)
		return 1;
	word = p;
	p = cut_word(p);
	ret = seqring_parse_u32(word, &r->channel);
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
	if (seqring_set_label(r, p, end - p)) {
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
	ret = seqring_push_batch(st->fd, st->readings, st->pending, NULL);
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

static const struct option feed_options[] = {
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
static int cmd_feed(const struct command *cmd, const char *device,
		    int argc, char **argv)
{
	struct feed_state st = { .device = device, .fd = -1 };
	__u32 batch = FEED_BATCH_DEFAULT;
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
			ret = seqring_parse_u32(optarg, &batch);
			if (!ret && (batch < 1 || batch > SEQRING_BATCH_MAX))
				ret = -ERANGE;
			if (ret) {
				report_number("", "batch size", optarg, ret,
					      "1..65536");
				return usage_hint(cmd);
			}
			break;
		case 'c':
			ret = seqring_parse_u32(optarg, &channel);
			if (ret) {
				report_number("", "channel", optarg, ret,
					      RANGE_U32);
				return usage_hint(cmd);
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	st.readings = calloc(batch, sizeof(*st.readings));
	if (!st.readings)
		return out_of_memory();
	st.fd = seqring_open(device, O_WRONLY);
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
		printf("%zu readings pushed\n", st.pushed);
	free(line);
	free(st.readings);
	close(st.fd);
	return status;
}

enum {
	OPT_READINGS = 0x100,
};

static const struct option stats_options[] = {
	{ "json",	no_argument,		NULL,	'j' },
	{ "format",	required_argument,	NULL,	'f' },
	{ "readings",	no_argument,		NULL,	OPT_READINGS },
	{ "output",	required_argument,	NULL,	'o' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

enum stats_format { STATS_TEXT, STATS_JSON, STATS_PROMETHEUS };

static const char * const stats_format_names[] = {
	[STATS_TEXT] = "text",
	[STATS_JSON] = "json",
	[STATS_PROMETHEUS] = "prometheus",
};

/*
 * A Prometheus label value in double quotes: backslash, double quote and
 * newline are escaped, as the text exposition format requires.
 */
void prom_label_value(const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			printf("\\%c", *v);
		else if (*v == '\n')
			printf("\\n");
		else
			putchar(*v);
	}
}

/*
 * The Prometheus text format, for node_exporter's textfile collector:
 * counters get the _total suffix, the rest are gauges, and every sample
 * carries the device it was read from.
 */
static void print_stats_prometheus(const struct seqring_stats *s,
				   const char *label)
{
	const struct {
		const char *name;
		const char *type;
		const char *help;
		__u64 val;
	} metric[] = {
		{ "seqring_capacity", "gauge",
		  "Readings the ring holds.", s->capacity },
		{ "seqring_readings", "gauge",
		  "Readings held now.", s->count },
		{ "seqring_pushed_total", "counter",
		  "Readings pushed since the module was loaded.", s->total },
		{ "seqring_dropped_total", "counter",
		  "Readings overwritten because the ring was full or discarded when it shrank.",
		  s->dropped },
		{ "seqring_cleared_total", "counter",
		  "Readings discarded by clear.", s->cleared },
		{ "seqring_oldest_seq", "gauge",
		  "Sequence number of the oldest reading held, 0 if none.",
		  s->oldest_seq },
		{ "seqring_newest_seq", "gauge",
		  "Sequence number of the newest reading held, 0 if none.",
		  s->newest_seq },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(metric); i++) {
		printf("# HELP %s %s\n# TYPE %s %s\n%s{device=\"",
		       metric[i].name, metric[i].help, metric[i].name,
		       metric[i].type, metric[i].name);
		prom_label_value(label);
		printf("\"} %llu\n", (unsigned long long)metric[i].val);
	}
}

/*
 * seqring_up and seqring_last_scrape_timestamp_seconds, in every file the
 * exporter writes, the device there or not: a file that goes stale when
 * the device is gone, with the last values in it, is what Prometheus would
 * otherwise keep showing. @ring is the device's name, the basename of its
 * path (seqring, seqring-NAME).
 */
static void print_up_prometheus(const char *label, bool up)
{
	const char *ring = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	printf("# HELP seqring_up Whether the device could be read, 1 or 0.\n"
	       "# TYPE seqring_up gauge\n"
	       "seqring_up{device=\"");
	prom_label_value(label);
	printf("\",ring=\"");
	prom_label_value(ring);
	printf("\"} %d\n", up);
	printf("# HELP seqring_last_scrape_timestamp_seconds When seqringctl wrote these metrics (Unix time).\n"
	       "# TYPE seqring_last_scrape_timestamp_seconds gauge\n"
	       "seqring_last_scrape_timestamp_seconds{device=\"");
	prom_label_value(label);
	printf("\",ring=\"");
	prom_label_value(ring);
	printf("\"} %lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
}

static void print_stats(const struct seqring_stats *s, bool json)
{
	const struct {
		const char *key;
		__u64 val;
	} field[] = {
		{ "capacity",	s->capacity },
		{ "count",	s->count },
		{ "total",	s->total },
		{ "dropped",	s->dropped },
		{ "cleared",	s->cleared },
		{ "oldest_seq",	s->oldest_seq },
		{ "newest_seq",	s->newest_seq },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field); i++) {
		/*
		 * Strings, as journald writes 64-bit numbers: a JSON number
		 * above 2^53 is rounded by jq 1.6 and JavaScript.
		 */
		if (json)
			printf("%s\"%s\": \"%llu\"", i ? ", " : "{", field[i].key,
			       (unsigned long long)field[i].val);
		else
			printf("%s: %llu\n", field[i].key,
			       (unsigned long long)field[i].val);
	}
	if (json)
		printf("}\n");
}

/*
 * --output FILE: stdout becomes FILE.tmp, renamed over FILE once all is
 * written, so that a reader (node_exporter) never sees half of it.
 */
static char *output_tmp;

static int output_open(const char *file)
{
	output_tmp = malloc(strlen(file) + sizeof(".tmp"));
	if (!output_tmp)
		return out_of_memory();
	sprintf(output_tmp, "%s.tmp", file);
	if (!freopen(output_tmp, "we", stdout)) {
		fprintf(stderr, "seqringctl: %s: %s\n", output_tmp,
			strerror(errno));
		return EXIT_FAILURE;
	}
	return 0;
}

/* Start FILE.tmp over, empty: what was written to it is dropped. */
static int output_restart(void)
{
	if (fflush(stdout) || ftruncate(fileno(stdout), 0)) {
		fprintf(stderr, "seqringctl: %s: %s\n", output_tmp,
			strerror(errno));
		return -1;
	}
	rewind(stdout);
	return 0;
}

static int output_close(const char *file, int status)
{
	errno = 0;
	if (!status && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "seqringctl: %s: write error: %s\n",
			output_tmp, strerror(errno ? errno : EIO));
		status = EXIT_FAILURE;
	}
	if (!status && rename(output_tmp, file)) {
		fprintf(stderr, "seqringctl: cannot rename %s to %s: %s\n",
			output_tmp, file, strerror(errno));
		status = EXIT_FAILURE;
	}
	if (status)
		unlink(output_tmp);
	free(output_tmp);
	return status;
}

static int cmd_stats(const struct command *cmd, const char *device,
		     int argc, char **argv)
{
	enum stats_format format = STATS_TEXT;
	const char *output = NULL;
	bool readings = false;
	struct seqring_stats s;
	int opt, fd, ret, status = EXIT_SUCCESS;
	char *real;
	size_t i;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			format = STATS_JSON;
			break;
		case 'f':
			for (i = 0; i < ARRAY_SIZE(stats_format_names); i++)
				if (!strcmp(optarg, stats_format_names[i]))
					break;
			if (i == ARRAY_SIZE(stats_format_names)) {
				fprintf(stderr,
					"seqringctl: stats: unknown format '%s' (text, json, prometheus)\n",
					optarg);
				return usage_hint(cmd);
			}
			format = i;
			break;
		case OPT_READINGS:
			readings = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);
	if (readings && format != STATS_PROMETHEUS) {
		fprintf(stderr,
			"seqringctl: stats: --readings goes with --format=prometheus\n");
		return usage_hint(cmd);
	}

	if (output) {
		status = output_open(output);
		if (status)
			return status;
	}
	/*
	 * One ring, one series: /dev/seqring0 (udev's symlink) and relative
	 * paths name the device by its real path.
	 */
	real = realpath(device, NULL);
	/* Non-blocking: --readings reads what is there, then stops. */
	fd = seqring_open(device, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		status = open_error(device, fd);
	} else {
		ret = seqring_get_stats(fd, &s);
		if (ret)
			status = device_error(device, "cannot read stats", ret);
	}
	if (!status && format == STATS_PROMETHEUS) {
		print_up_prometheus(real ? real : device, true);
		print_stats_prometheus(&s, real ? real : device);
		if (readings)
			status = print_readings_prometheus(fd, device,
							   real ? real : device,
							   s.total);
	} else if (!status) {
		print_stats(&s, format == STATS_JSON);
	}
	if (fd >= 0)
		close(fd);
	/*
	 * The exporter's file is rewritten on every run, failed or not: with
	 * seqring_up 0 and nothing else, what Prometheus shows is a ring that
	 * is down, not the last values it had.
	 */
	if (status && format == STATS_PROMETHEUS && output &&
	    output_restart() == 0) {
		print_up_prometheus(real ? real : device, false);
		if (output_close(output, EXIT_SUCCESS))
			status = EXIT_FAILURE;
	} else if (status && format == STATS_PROMETHEUS && !output) {
		print_up_prometheus(real ? real : device, false);
	} else if (output) {
		status = output_close(output, status);
	}
	free(real);
	return status;
}

static const struct option clear_options[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

static int cmd_clear(const struct command *cmd, const char *device,
		     int argc, char **argv)
{
	int opt, fd, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	fd = seqring_open(device, O_WRONLY);
	if (fd < 0)
		return open_error(device, fd);
	ret = seqring_clear(fd);
	close(fd);
	if (ret)
		return device_error(device, "cannot clear", ret);
	return EXIT_SUCCESS;
}

/*
 * --- capacity: show or set the size of the ring ---------------------------
 */

static const struct option capacity_options[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

static int cmd_capacity(const struct command *cmd, const char *device,
			int argc, char **argv)
{
	struct seqring_stats s;
	__u32 capacity = 0;
	int opt, fd, ret;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			return cmd_help(cmd);
		default:
			return usage_hint(cmd);
		}
	}
	if (optind < argc) {
		ret = seqring_parse_u32(argv[optind], &capacity);
		if (!ret && (!capacity || capacity > SEQRING_CAPACITY_MAX))
			ret = -ERANGE;
		if (ret) {
			report_number("", "capacity", argv[optind], ret,
				      RANGE_CAPACITY);
			return usage_hint(cmd);
		}
		optind++;
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	/* Resizing needs CAP_SYS_ADMIN, not a writable file. */
	fd = seqring_open(device, O_RDONLY);
	if (fd < 0)
		return open_error(device, fd);
	if (capacity) {
		ret = seqring_set_capacity(fd, capacity);
		close(fd);
		if (ret)
			return device_error(device, "cannot set the capacity",
					    ret);
		return EXIT_SUCCESS;
	}
	ret = seqring_get_stats(fd, &s);
	close(fd);
	if (ret)
		return device_error(device, "cannot read stats", ret);
	printf("%llu\n", (unsigned long long)s.capacity);
	return EXIT_SUCCESS;
}

/* What dump and watch share. */
#define STREAM_OPTIONS_HELP						\
	"  -j, --json             one JSON object per line\n"		\
	"  -T, --time-format=iso  the time as ISO 8601, not nanoseconds\n" \
	"      --time-format=ns   nanoseconds since the epoch (default)\n" \
	"  -c, --channel=CHANNEL  only readings of CHANNEL (repeatable)\n" \
	"  -l, --label=LABEL      only readings labelled LABEL\n"		\
	"                         (repeatable)\n"					\
	"      --after=SEQ        only readings after sequence number SEQ\n" \
	"      --cursor-file=FILE go on after the SEQ saved in FILE, and\n" \
	"                         save there the last reading read\n"

static const struct command commands[] = {
	{
		.name = "push",
		.synopsis =
		"[-c CHANNEL] [-l LABEL] [-t TIMESTAMP_NS] VALUE...",
		.summary = "Push one reading per VALUE, all in one batch.",
		.options =
		"  -c, --channel=CHANNEL  channel, " RANGE_U32 " (0)\n"
		"  -l, --label=LABEL      label, at most 15 bytes (none)\n"
		"  -t, --timestamp=NS     nanoseconds since the epoch\n"
		"                         (0: the driver stamps it)\n",
		.shortopts = "+c:l:t:h",
		.longopts = push_options,
		.run = cmd_push,
	},
	{
		.name = "feed",
		.synopsis = "[-b BATCH] [-c CHANNEL] [-v]",
		.summary =
		"Push one reading per stdin line 'VALUE [CHANNEL [LABEL]]'.",
		.options =
		"  -b, --batch=BATCH      readings per ioctl, 1..65536 (256)\n"
		"  -c, --channel=CHANNEL  channel of lines without one (0)\n"
		"  -v, --verbose          print how many readings were pushed\n"
		"  A malformed line stops the feed: the lines before it are\n"
		"  pushed, none after it, and the exit status is 1.\n",
		.shortopts = "+b:c:vh",
		.longopts = feed_options,
		.run = cmd_feed,
	},
	{
		.name = "stats",
		.synopsis =
		"[--json | --format=FORMAT [--readings]] [--output=FILE]",
		.summary = "Print the counters of the ring.",
		.options =
		"  -f, --format=FORMAT    text (key: value lines), json (one\n"
		"                         object) or prometheus (the text\n"
		"                         exposition format)\n"
		"  -j, --json             the same as --format=json\n"
		"      --readings         with prometheus: also the latest value\n"
		"                         of each channel and label, and its time\n"
		"  -o, --output=FILE      write FILE whole (FILE.tmp, renamed)\n",
		.shortopts = "+jf:o:h",
		.longopts = stats_options,
		.run = cmd_stats,
	},
	{
		.name = "clear",
		.synopsis = "",
		.summary = "Discard the readings held; sequence numbers go on.",
		.options = "",
		.shortopts = "+h",
		.longopts = clear_options,
		.run = cmd_clear,
	},
	{
		.name = "dump",
		.synopsis =
		"[--json] [-T] [-c CHANNEL]... [-l LABEL]... [--after=SEQ | --cursor-file=FILE]",
		.summary =
		"Print the readings the ring holds, oldest first, and exit.",
		.options =
		STREAM_OPTIONS_HELP,
		.shortopts = "+jc:l:Th",
		.longopts = dump_options,
		.run = cmd_dump,
	},
	{
		.name = "watch",
		.synopsis =
		"[--json | --journal] [-T] [-c CHANNEL]... [-l LABEL]... [--after=SEQ | --cursor-file=FILE] [-n COUNT] [--new]",
		.summary =
		"Follow readings as they arrive, like tail -f, until a signal.",
		.options =
		STREAM_OPTIONS_HELP
		"      --journal          send each reading to the systemd journal\n"
		"                         (fields SEQRING_*), not to stdout\n"
		"  -n, --count=COUNT      stop after COUNT readings shown\n"
		"  -N, --new              only readings pushed from now on\n"
		"                         (default: from the oldest held)\n",
		.shortopts = "+jn:Nc:l:Th",
		.longopts = watch_options,
		.run = cmd_watch,
	},
	{
		.name = "capacity",
		.synopsis = "[N]",
		.summary =
		"Print the capacity, or resize the ring to N readings (root).",
		.options =
		"  N is " RANGE_CAPACITY "; the newest readings that fit\n"
		"  are kept.\n",
		.shortopts = "+h",
		.longopts = capacity_options,
		.run = cmd_capacity,
	},
};

/* Print the lines of @text, each preceded by @indent. */
static void print_indented(FILE *f, const char *indent, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text) - 1;
		fprintf(f, "%s%.*s\n", indent, (int)(nl - text), text);
		text = nl + 1;
	}
}

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: seqringctl [-d DEVICE] COMMAND [ARGS]\n"
		"\n"
		"Push readings to a seqring device, dump or watch them, print its\n"
		"counters, clear it, show or set its capacity.\n"
		"\n"
		"Options (before COMMAND):\n"
		"  -d, --device=DEVICE    device node (default %s)\n"
		"  -h, --help             print this help and exit\n"
		"  -V, --version          print the version and exit\n"
		"\n"
		"Commands:\n",
		SEQRING_DEFAULT_DEVICE);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		fprintf(f, "%s  %s%s%s\n      %s\n", i ? "\n" : "",
			commands[i].name, *commands[i].synopsis ? " " : "",
			commands[i].synopsis, commands[i].summary);
		print_indented(f, "    ", commands[i].options);
	}
	fprintf(f,
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error; watch dies by\n"
		"the signal that ends it.\n"
		"See seqringctl(1).\n");
}

/*
 * Output that cannot be written is a failure, not a silent success. A
 * command ended by a signal (watch) dies by it now, with the default
 * disposition, so that its caller (a shell loop, systemd) sees why.
 */
static int finish(int status)
{
	errno = 0;
	if (!output_failed && (fflush(stdout) || ferror(stdout)))
		status = output_error(errno ? errno : EIO);
	if (fatal_signal) {
		signal(fatal_signal, SIG_DFL);
		raise(fatal_signal);
	}
	return status;
}

/* Values of the options that have no short form. */
enum {
	OPT_LIST_COMMANDS = 0x100,
	OPT_LIST_OPTIONS,
};

#define MAIN_SHORTOPTS	"+d:hV"
static const struct option main_options[] = {
	{ "device",	required_argument,	NULL,	'd' },
	{ "help",	no_argument,		NULL,	'h' },
	{ "version",	no_argument,		NULL,	'V' },
	{ "list-commands", no_argument,		NULL,	OPT_LIST_COMMANDS },
	{ "list-options", no_argument,		NULL,	OPT_LIST_OPTIONS },
	{ NULL,		0,			NULL,	0 }
};

/* Does @opts have a long form of the short option @c? */
static bool has_long_form(const struct option *opts, int c)
{
	for (; opts->name; opts++)
		if (opts->val == c)
			return true;
	return false;
}

/*
 * For the bash completion, which so never lists an option the tool does
 * not take: every option of @shortopts and @opts, one per line, the short
 * form on a line of its own before its long form, a long one that takes
 * an argument with a trailing "=", then the short options that have no
 * long form. The --list-* options themselves are not listed.
 */
static int list_options(const char *shortopts, const struct option *opts)
{
	const struct option *o;
	const char *p;

	for (o = opts; o->name; o++) {
		if (!strncmp(o->name, "list-", 5))
			continue;
		if (o->val > 0 && o->val < 0x100 && strchr(shortopts, o->val))
			printf("-%c\n", o->val);
		printf("--%s%s\n", o->name,
		       o->has_arg == required_argument ? "=" : "");
	}
	for (p = shortopts; *p; p++)
		if (isalnum((unsigned char)*p) && !has_long_form(opts, *p))
			printf("-%c\n", *p);
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	const char *device = SEQRING_DEFAULT_DEVICE;
	const struct command *cmd = NULL;
	size_t i;
	int opt;

	snprintf(prog_name, sizeof(prog_name), "seqringctl");
	argv[0] = prog_name;
	while ((opt = getopt_long(argc, argv, MAIN_SHORTOPTS,
				  main_options, NULL)) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return finish(EXIT_SUCCESS);
		case 'V':
			printf("seqringctl %s\n", SEQRING_VERSION);
			return finish(EXIT_SUCCESS);
		case OPT_LIST_COMMANDS:
			for (i = 0; i < ARRAY_SIZE(commands); i++)
				printf("%s\n", commands[i].name);
			return finish(EXIT_SUCCESS);
		case OPT_LIST_OPTIONS:
			return finish(list_options(MAIN_SHORTOPTS, main_options));
		default:
			return usage_hint(NULL);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "seqringctl: missing COMMAND\n");
		return usage_hint(NULL);
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[optind], commands[i].name))
			cmd = &commands[i];
	if (!cmd) {
		fprintf(stderr, "seqringctl: unknown command '%s'\n",
			argv[optind]);
		return usage_hint(NULL);
	}

	if (optind + 2 == argc && !strcmp(argv[optind + 1], "--list-options"))
		return finish(list_options(cmd->shortopts, cmd->longopts));

	/* The command parses its own options, from its own argv[1]. */
	argc -= optind;
	argv += optind;
	optind = 0;
	snprintf(prog_name, sizeof(prog_name), "seqringctl %s", cmd->name);
	argv[0] = prog_name;
	return finish(cmd->run(cmd, device, argc, argv));
}
