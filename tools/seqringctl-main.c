// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl - push readings to /dev/seqring, dump or watch them, print its
 * counters, clear it, show or set its capacity, watch every ring (top)
 *
 * This file is the dispatcher: main() parses the global options, finds
 * the command in the table below and runs it; the commands live in
 * seqringctl-*.c (seqringctl.h says which) and call nothing here. The
 * table is the one source of each command's synopsis, --help and options
 * (also for --list-options, and so for the bash completion); seqringctl(1)
 * is checked against it (tests/docs/check-docs.sh).
 *
 * Exit status: 0 on success, 1 if something failed at run time, 2 for a
 * usage error (nothing is sent to the device then); watch dies by the
 * signal that ends it. See seqringctl(1).
 */

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

/* getopt() starts its messages with argv[0]: this, in main(). */
static char prog_name[64];

/* What dump and watch share: all their options. */
#define STREAM_SYNOPSIS							\
	"[-b BOOT] [-f] [-n [N] | -N] [-r] [-S TIME] [-U TIME] [-g PATTERN] [-o MODE | --json | --journal] [-T] [--utc] [-q] [--no-pager] [-c CHANNEL]... [-l LABEL]... [--after=SEQ | --cursor-file=FILE] [--count=COUNT] [--no-mmap]"

#define STREAM_OPTIONS_HELP						\
	"  -b, --boot=BOOT        0 (this boot, the default) or -1 (the\n" \
	"                         previous boot's readings, of a persistent\n" \
	"                         ring: DEVICE.prev)\n"			\
	"  -f, --follow           go on with readings as they arrive (dump -f\n" \
	"                         is watch)\n"				\
	"  -n, --lines[=N]        of those held, only the last N (no N: 10;\n" \
	"                         all; 0: none, as --new); then, with -f, the\n" \
	"                         new ones. watch: 10, unless -n, --new or a\n" \
	"                         cursor says where\n"			\
	"  -N, --new              none of those held, only new ones\n"	\
	"  -r, --reverse          newest first (not with -f)\n"		\
	"  -S, --since=TIME       only readings of TIME or later\n"	\
	"  -U, --until=TIME       only readings of TIME or earlier; TIME as\n" \
	"                         journalctl takes it: \"2026-12-05 10:00\",\n" \
	"                         10:00, today, yesterday, -5min, @EPOCH\n" \
	"  -g, --grep=PATTERN     only readings whose message (-o cat) matches\n" \
	"                         the extended regular expression PATTERN,\n" \
	"                         without regard to case if it has no capital\n" \
	"  -o, --output=MODE      listing (default: SEQ TIMESTAMP_NS CHANNEL\n" \
	"                         VALUE LABEL), short, short-precise,\n"	\
	"                         short-iso, json, json-pretty, cat, verbose,\n" \
	"                         export\n"				\
	"  -j, --json             the same as -o json\n"		\
	"  -T                     listing: the time as dmesg -T prints it\n" \
	"      --time-format=FORMAT  listing: ns (the default), iso (ISO\n" \
	"                         8601) or ctime (as -T)\n"		\
	"      --utc              times in UTC, not in local time\n"	\
	"  -q, --quiet            no notes on stderr of readings missed\n" \
	"      --no-pager         taken, as journalctl's: nothing is paged\n" \
	"  -c, --channel=CHANNEL  only readings of CHANNEL (repeatable)\n" \
	"  -l, --label=LABEL      only readings labelled LABEL\n"		\
	"                         (repeatable)\n"				\
	"      --after=SEQ        only readings after sequence number SEQ\n" \
	"      --cursor-file=FILE go on after the SEQ saved in FILE, and\n" \
	"                         save there the last reading read\n"	\
	"      --count=COUNT      stop after COUNT readings shown\n"	\
	"      --journal          send each reading to the systemd journal\n" \
	"                         (fields SEQRING_*), not to stdout\n" \
	"      --no-mmap          read() the readings, not from a mapping\n" \
	"                         of the ring (which cannot be resized\n" \
	"                         while mapped)\n"

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
		"[-o MODE | --json] [--readings] [--output-file=FILE]",
		.summary = "Print the counters of the ring.",
		.options =
		"  -o, --output=MODE      text (key: value lines, the default),\n"
		"                         json (one object) or prometheus (the\n"
		"                         text exposition format)\n"
		"      --format=MODE      the same as -o\n"
		"  -j, --json             the same as -o json\n"
		"      --readings         with prometheus: also the latest value\n"
		"                         of each channel and label, and its time\n"
		"      --output-file=FILE write FILE whole (FILE.tmp, renamed),\n"
		"                         not standard output\n",
		.shortopts = "+jo:h",
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
		.synopsis = STREAM_SYNOPSIS,
		.summary =
		"Print the readings the ring holds, oldest first, and exit;\n"
		"with -f, go on as watch.",
		.options = STREAM_OPTIONS_HELP,
		.shortopts = STREAM_SHORTOPTS,
		.longopts = stream_options,
		.run = cmd_dump,
	},
	{
		.name = "watch",
		.synopsis = STREAM_SYNOPSIS,
		.summary =
		"Follow readings as they arrive, like tail -f, until a signal\n"
		"(dump -f).",
		.options = STREAM_OPTIONS_HELP,
		.shortopts = STREAM_SHORTOPTS,
		.longopts = stream_options,
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
	{
		.name = "top",
		.synopsis = "[-b] [-i SECONDS] [-n FRAMES]",
		.summary =
		"Show every ring, refreshed like top: pushes a second, dropped,\n"
		"readers, how full, the latest value of each label.",
		.options =
		"  -i, --interval=SECONDS between frames, 0.1..3600 (1)\n"
		"  -n, --iterations=FRAMES stop after FRAMES frames\n"
		"  -b, --batch            plain text frames, no keys, as without a\n"
		"                         terminal (where one frame is the default)\n"
		"  On a terminal, q quits. With -d DEVICE, that ring alone.\n",
		.shortopts = "+bi:n:h",
		.longopts = top_options,
		.run = cmd_top,
	},
	{
		.name = "help",
		.synopsis = "[COMMAND]",
		.summary =
		"Print the help of COMMAND, as COMMAND --help does, or of every\n"
		"command, as --help does.",
		.options = "",
		.shortopts = "+h",
		.longopts = help_options,
		.run = cmd_help,
		.no_device = true,
	},
};

/* Print the lines of @text, each preceded by @indent. */
static void print_indented(FILE *f, const char *indent, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		fprintf(f, "%s%.*s\n", indent, (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
}

/*
 * Each command's synopsis as its usage line says it, wrapped; under it,
 * indented more, its summary and options.
 */
static void print_usage(FILE *f)
{
	char line[512];
	size_t i;

	fprintf(f,
		"Usage: seqringctl [-d DEVICE] COMMAND [ARGS]\n"
		"\n"
		"Push readings to a seqring device, dump or watch them, print its\n"
		"counters, clear it, show or set its capacity, watch every ring.\n"
		"\n"
		"Options (before COMMAND):\n"
		"  -d, --device=DEVICE    device node (default %s)\n"
		"  -h, --help             print this help and exit\n"
		"  -V, --version          print the version and exit\n"
		"\n"
		"Commands:\n",
		SRL_DEFAULT_DEVICE);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		snprintf(line, sizeof(line), "%s %s", commands[i].name,
			 commands[i].synopsis);
		if (i)
			fputc('\n', f);
		print_wrapped(f, "  ", "        ", line);
		print_indented(f, "      ", commands[i].summary);
		print_indented(f, "    ", commands[i].options);
	}
	fprintf(f,
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error; watch and top\n"
		"die by the signal that ends them.\n"
		"See seqringctl(1).\n");
}

const struct option help_options[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* seqringctl help [COMMAND], as git help: the help of one, or of all. */
int cmd_help(const struct command *cmd, const char *device,
	     int argc, char **argv)
{
	const struct command *of;
	int opt;

	(void)device;
	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1)
		return other_option(cmd, opt);
	if (optind + 1 < argc)
		return unexpected_arg(cmd, argv[optind + 1]);
	if (optind == argc) {
		print_usage(stdout);
		return EXIT_SUCCESS;
	}
	of = find_command(argv[optind]);
	if (!of)
		return usage_error(cmd, "unknown command '%s'", argv[optind]);
	return command_help(of);
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
	const char *device = SRL_DEFAULT_DEVICE;
	const struct command *cmd = NULL;
	size_t i;
	int opt;

	text_init();
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
	cmd = find_command(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "seqringctl: unknown command '%s'\n",
			argv[optind]);
		return usage_hint(NULL);
	}

	if (optind + 2 == argc && !strcmp(argv[optind + 1], "--list-options"))
		return finish(list_options(cmd->shortopts, cmd->longopts));

	/*
	 * The command parses its own options, from its own argv[1]. getopt
	 * starts its messages with argv[0]: "seqringctl: dump: unrecognized
	 * option '--x'", as the tool's own usage errors start.
	 */
	argc -= optind;
	argv += optind;
	optind = 0;
	snprintf(prog_name, sizeof(prog_name), "seqringctl: %s", cmd->name);
	argv[0] = prog_name;
	return finish(cmd->run(cmd, device, argc, argv));
}
