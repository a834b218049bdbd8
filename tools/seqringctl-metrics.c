// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-metrics - the command stats: the counters of the ring as
 * text, JSON or Prometheus metrics, and with --readings the readings
 * themselves as Prometheus gauges: the latest value of each channel and
 * label the ring holds, and that reading's time.
 *
 * The time is a gauge of its own, not the sample's timestamp: node_exporter's
 * textfile collector, which these files are for, refuses samples that carry
 * one.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

#define READ_RECORDS	256

enum {
	OPT_READINGS = 0x100,
	OPT_FORMAT,
	OPT_OUTPUT_FILE,
};

/*
 * -o is the output mode, as for dump and watch; --format is its older
 * name. The file to write has a long option only, so that no -o can be
 * taken for one.
 */
const struct option stats_options[] = {
	{ "json",	no_argument,		NULL,	'j' },
	{ "output",	required_argument,	NULL,	'o' },
	{ "format",	required_argument,	NULL,	OPT_FORMAT },
	{ "readings",	no_argument,		NULL,	OPT_READINGS },
	{ "output-file", required_argument,	NULL,	OPT_OUTPUT_FILE },
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
static void prom_label_value(const char *v)
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
		{ "seqring_lost_total", "counter",
		  "Pushes that stored nothing (ring destroyed, or no free slot).",
		  s->lost },
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
	printf("# HELP seqring_last_scrape_timestamp_seconds %s\n"
	       "# TYPE seqring_last_scrape_timestamp_seconds gauge\n"
	       "seqring_last_scrape_timestamp_seconds{device=\"",
	       "When seqringctl wrote these metrics (Unix time).");
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
		{ "lost",	s->lost },
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
 * --output-file FILE: stdout becomes FILE.tmp, renamed over FILE once all
 * is written, so that a reader (node_exporter) never sees half of it.
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

/*
 * A label value must be UTF-8: a label that is, as it is; any other in the
 * listing's escaping (\ooo), which is ASCII. prom_label_value() then
 * escapes the backslashes.
 */
static void print_labels(const char *device, const struct series *s)
{
	char label[4 * SEQRING_LABEL_LEN];
	size_t len = strnlen(s->label, SEQRING_LABEL_LEN);

	printf("{device=\"");
	prom_label_value(device);
	printf("\",channel=\"%u\",label=\"", s->channel);
	if (srl_utf8_valid(s->label, len)) {
		memcpy(label, s->label, len);
		label[len] = '\0';
	} else {
		srl_escape_label(label, s->label);
	}
	prom_label_value(label);
	printf("\"}");
}

static void print_series(const char *device, const struct series *s,
			 size_t n)
{
	size_t i;

	puts("# HELP seqring_reading_value Latest value of the channel and label in the ring.\n"
	     "# TYPE seqring_reading_value gauge");
	for (i = 0; i < n; i++) {
		printf("seqring_reading_value");
		print_labels(device, &s[i]);
		printf(" %lld\n", (long long)s[i].value);
	}
	puts("# HELP seqring_reading_timestamp_seconds Time of that reading (Unix time).\n"
	     "# TYPE seqring_reading_timestamp_seconds gauge");
	for (i = 0; i < n; i++) {
		printf("seqring_reading_timestamp_seconds");
		print_labels(device, &s[i]);
		printf(" %llu.%09llu\n",
		       (unsigned long long)(s[i].timestamp_ns / 1000000000),
		       (unsigned long long)(s[i].timestamp_ns % 1000000000));
	}
}

static int print_readings_prometheus(int fd, const char *device,
				     const char *label, __u64 end_seq)
{
	struct seqring_record buf[READ_RECORDS];
	struct series_table t = { .slot = NULL };
	struct series *sorted;
	ssize_t len;
	size_t i;
	int ret = 0;

	/* Read from the oldest held to the newest there was at the start. */
	for (;;) {
		len = srl_read(fd, buf, ARRAY_SIZE(buf));
		if (len == -EPIPE)
			continue;
		if (len == -EAGAIN || !len)
			break;
		if (len < 0) {
			ret = device_error(device, "cannot read readings", len);
			goto out;
		}
		for (i = 0; i < (size_t)len; i++) {
			if (buf[i].seq > end_seq)
				goto done;
			if (series_add(&t, &buf[i].reading)) {
				ret = out_of_memory();
				goto out;
			}
		}
	}
done:
	/* Sorted: the same ring gives the same file. */
	if (t.used) {
		sorted = series_sorted(&t);
		if (!sorted) {
			ret = out_of_memory();
			goto out;
		}
		print_series(label, sorted, t.used);
		free(sorted);
	}
out:
	series_free(&t);
	return ret;
}

/*
 * The mode -o names. Before 1.1, stats -o was the file to write: a word
 * that is no mode is refused with where the file goes now.
 */
static int stats_mode(const struct command *cmd, const char *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stats_format_names); i++)
		if (!strcmp(mode, stats_format_names[i]))
			return i;
	usage_error(cmd,
		    "unknown output mode '%s' (text, json, prometheus); a file to write is --output-file=FILE",
		    mode);
	return -1;
}

int cmd_stats(const struct command *cmd, const char *device,
	      int argc, char **argv)
{
	enum stats_format format = STATS_TEXT;
	const char *output = NULL;
	bool readings = false;
	struct seqring_stats s;
	int opt, fd, ret, status = EXIT_SUCCESS;
	char *real;
	int i;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			format = STATS_JSON;
			break;
		case 'o':
		case OPT_FORMAT:
			i = stats_mode(cmd, optarg);
			if (i < 0)
				return EXIT_USAGE;
			format = i;
			break;
		case OPT_READINGS:
			readings = true;
			break;
		case OPT_OUTPUT_FILE:
			/* "--output-file=json" is -o json mistyped. */
			for (i = 0; i < (int)ARRAY_SIZE(stats_format_names); i++)
				if (!strcmp(optarg, stats_format_names[i]))
					return usage_error(cmd,
							   "'%s' is an output mode: -o %s (a file of that name: --output-file=./%s)",
							   optarg, optarg, optarg);
			output = optarg;
			break;
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);
	if (readings && format != STATS_PROMETHEUS)
		return usage_error(cmd, "--readings goes with -o prometheus");

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
	fd = srl_open(device, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		status = open_error(device, fd);
	} else {
		ret = srl_get_stats(fd, &s);
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
