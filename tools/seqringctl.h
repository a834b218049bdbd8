/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqringctl - what the command files share: the command table's entry,
 * and the messages every command gives the same way
 *
 * Calls go one way, down: seqringctl-main.c has main(), the command table
 * and --help, and calls the commands; seqringctl-ring.c has push, feed,
 * clear and capacity, seqringctl-metrics.c stats, seqringctl-stream.c dump and
 * watch (which sends to the journal through seqringctl-journal.c),
 * seqringctl-top.c top; they use seqringctl-util.c's messages,
 * seqringctl-text.c's labels as people read them, seqringctl-time.c's
 * times, seqringctl-series.c's table of the latest readings (stats, top)
 * and libseqring (lib/), which calls nothing of the tool's.
 *
 * Every message on stderr starts with "seqringctl: ", then says what it is
 * about: the command, for a usage error ("seqringctl: dump: unknown output
 * mode 'x' ..."); the device, file or input line, for a run-time error
 * ("seqringctl: /dev/seqring: cannot read stats: ...").
 */
#ifndef _SEQRINGCTL_H_
#define _SEQRINGCTL_H_

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"

#define EXIT_USAGE		2

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#define RANGE_S64	"-9223372036854775808..9223372036854775807"
#define RANGE_U32	"0..4294967295"
#define RANGE_CAPACITY	"1..16777216"

struct command {
	const char *name;
	const char *synopsis;
	const char *summary;
	const char *options;
	/*
	 * getopt_long()'s optstring and table, the one source of the
	 * options the command takes: --list-options prints them, and so
	 * the bash completion offers them all, short ones without a long
	 * form (-T) included.
	 */
	const char *shortopts;
	const struct option *longopts;
	int (*run)(const struct command *cmd, const char *device,
		   int argc, char **argv);
	/* Its usage has no [-d DEVICE]: it opens none (help). */
	bool no_device;
};

/*
 * The signal that ended a command (watch), re-raised by main() once the
 * output is flushed, so that the caller sees the process die by it (as
 * tail -f does).
 */
extern int fatal_signal;

/*
 * Each prints its message on stderr and returns the exit status to end
 * with: EXIT_USAGE for usage_hint() and unexpected_arg(), EXIT_FAILURE for
 * the others. @err is a negative errno value, except for output_error().
 */
int usage_hint(const struct command *cmd);
int unexpected_arg(const struct command *cmd, const char *arg);
/*
 * Why @device cannot be opened, and what to do: load the module, join
 * group seqring, or (the module loaded, the ring missing) which rings
 * there are.
 */
int open_error(const char *device, int err);
int device_error(const char *device, const char *what, int err);
/*
 * Standard output cannot be written (@err: errno). A reader that went away
 * (EPIPE) ends the program as tail -f ends: by SIGPIPE, or if that is
 * ignored, with status 1 and nothing on stderr.
 */
int output_error(int err);

/* --help of a command: its usage, summary and options, on stdout. */
int command_help(const struct command *cmd);

/*
 * @text on @f, its lines no wider than 79 columns: broken at blanks
 * outside brackets (a synopsis: "[-c CHANNEL]" stays whole), the first
 * line after @first, the others after @indent.
 */
void print_wrapped(FILE *f, const char *first, const char *indent,
		   const char *text);

/*
 * "invalid WHAT 'STR': ..." for a number; @where is "COMMAND: " for an
 * argument, "stdin:LINE: " for an input line.
 */
void report_number(const char *where, const char *what, const char *str,
		   int err, const char *range);
/* "label 'LABEL' has N bytes, at most 15" */
void report_label(const char *where, const char *label);
/* The same for an argument of @cmd: a usage error, EXIT_USAGE. */
int arg_label_error(const struct command *cmd, const char *label);
int out_of_memory(void);

/*
 * "seqringctl: COMMAND: " and the message on stderr, then the usage hint:
 * returns EXIT_USAGE.
 */
int usage_error(const struct command *cmd, const char *fmt, ...);

/* An option getopt_long() gave that the command's switch has no case for:
 * -h is --help, anything else a usage error.
 */
int other_option(const struct command *cmd, int opt);

/*
 * The option argument @str as a decimal number from @min to @max: 0, or
 * EXIT_USAGE after saying why ("invalid WHAT 'STR': ...").
 */
int arg_number(const struct command *cmd, const char *what, const char *str,
	       __u64 min, __u64 max, __u64 *val);
int arg_u32(const struct command *cmd, const char *what, const char *str,
	    __u32 *val);
/*
 * The index of @str among the @n @names, or -1 after the usage error
 * "unknown WHAT 'STR' (NAME, NAME, ...)".
 */
int arg_name(const struct command *cmd, const char *what, const char *str,
	     const char * const *names, size_t n);

/*
 * The systemd journal's socket, connected: a file descriptor, or a
 * negative errno value.
 */
int journal_connect(void);
/*
 * One reading as one journal entry: MESSAGE (reading_message()),
 * SYSLOG_TIMESTAMP (the reading's time), SEQRING_SEQ,
 * SEQRING_TIMESTAMP_NS, SEQRING_CHANNEL, SEQRING_VALUE, SEQRING_LABEL.
 * Returns 0 or a negative errno value.
 */
int journal_send(int fd, const struct seqring_record *rec);

/*
 * The journal entry's MESSAGE, which -o cat and the short forms print too:
 * "channel 3 value -7 label back door" (the label as label_text() writes
 * it).
 */
#define JOURNAL_MESSAGE_LEN	(64 + SRL_ESCAPED_LABEL_LEN)
void reading_message(char *buf, size_t size,
		     const struct seqring_reading *r);
/* The same entry in the journal's export format, on stdout (-o export). */
void journal_export(const struct seqring_record *rec);
/* The same entry as journalctl -o verbose shows one, on stdout. */
void journal_verbose(const struct seqring_record *rec, const char *ring);

/* The locale, for text_cells(): once, before any output. */
void text_init(void);
/*
 * A label as people read it (seqringctl-text.c): valid UTF-8 as it is,
 * \ooo for invalid bytes, control characters and the backslash; "-" for
 * none. @buf holds SRL_ESCAPED_LABEL_LEN bytes.
 */
void label_text(char *buf, const char *label);
/* Valid UTF-8 without a control character: text a terminal shows as is. */
bool text_printable(const char *s, size_t len);
/* The terminal cells UTF-8 text @s takes (wcwidth(3)). */
size_t text_cells(const char *s);
/* @s, then blanks up to @cells cells, into @buf. */
void text_pad(char *buf, size_t size, const char *s, size_t cells);
/* The bytes of @s that fit in @cells cells, whole characters only. */
size_t text_cut(const char *s, size_t cells);
/* "s" unless @n is 1: "1 reading", "2 readings". */
const char *plural(unsigned long long n);

/*
 * The signals a command that waits (watch, top) catches: delivered only
 * where the @waitmask signals_catch() returns lets them through (ppoll()),
 * so that one arriving at any moment ends the wait; one that was ignored
 * when the command started (nohup, a background job) stays ignored.
 * signals_restore() puts back the dispositions and the mask.
 */
struct caught_signals {
	int sigs[8];
	size_t n;
	struct sigaction old[8];
	sigset_t block;
};

void signals_catch(struct caught_signals *cs, const int *sigs, size_t n,
		   void (*handler)(int), sigset_t *waitmask);
void signals_restore(struct caught_signals *cs);

/*
 * Flush standard output (a failure is one, EPIPE too: see output_error())
 * and end by the signal that ended a command, if one did; else return
 * @status for main() to return.
 */
int finish(int status);

/*
 * A time as journalctl takes it (systemd.time(7)), in nanoseconds since
 * the epoch: "2026-12-05 10:00[:00]", "2026-12-05", "10:00" (today),
 * "now", "today", "yesterday", "tomorrow", "-5min", "+1h 30min",
 * "5min ago", "@1764928800[.5]". -EINVAL if it is none of them.
 */
int parse_time(const char *s, __u64 *ns);

/* How a reading's time is printed, in local time (or UTC: --utc). */
enum time_style {
	TIME_ISO_NS,	/* 2026-12-04T21:07:31.123456789+01:00 (iso, JSON) */
	TIME_ISO,	/* 2026-12-04T21:07:31+01:00 (-o short-iso) */
	TIME_SYSLOG,	/* Dec 04 21:07:31 (-o short) */
	TIME_SYSLOG_US,	/* Dec 04 21:07:31.123456 (-o short-precise) */
	TIME_CTIME,	/* [Fri Dec  4 21:07:31 2026] (-T, as dmesg -T) */
	TIME_VERBOSE,	/* Fri 2026-12-04 21:07:31.123456 CET (-o verbose) */
};

#define TIME_LEN	48
void format_time(char *buf, size_t size, __u64 ns, enum time_style style);
/* --utc: every time printed from now on is UTC's. */
void format_time_utc(bool utc);

/* The latest reading of one channel and label. */
struct series {
	bool used;
	__u32 channel;
	char label[SEQRING_LABEL_LEN];
	__s64 value;
	__u64 timestamp_ns;
};

/*
 * The series of the readings added, oldest first. @limit, if not 0, is
 * the most series it keeps: the readings of any further one are counted
 * in @refused and dropped (top follows a ring for hours; stats reads
 * what it holds once).
 */
struct series_table {
	struct series *slot;
	size_t size;
	size_t used;
	size_t limit;
	unsigned long long refused;
};

/* 0, -ENOMEM, or -ENOSPC for a new series beyond the limit. */
int series_add(struct series_table *t, const struct seqring_reading *r);
/*
 * The @t->used series, sorted by channel, then label, in a new array for
 * free(); NULL if out of memory.
 */
struct series *series_sorted(const struct series_table *t);
void series_free(struct series_table *t);

/* The commands, and the options each takes (its getopt_long table). */
#define DECLARE_COMMAND(name)						\
	extern const struct option name##_options[];			\
	int cmd_##name(const struct command *cmd, const char *device,	\
		       int argc, char **argv)

DECLARE_COMMAND(push);
DECLARE_COMMAND(feed);
DECLARE_COMMAND(stats);
DECLARE_COMMAND(clear);
DECLARE_COMMAND(capacity);
DECLARE_COMMAND(top);
DECLARE_COMMAND(help);

/*
 * dump and watch (dump -f) take the same options. -n takes its number in
 * the next word too (-n 5), or none (10), as journalctl's does.
 */
#define STREAM_SHORTOPTS	"+b:fn::NrS:U:o:jTqg:c:l:h"
extern const struct option stream_options[];
int cmd_dump(const struct command *cmd, const char *device,
	     int argc, char **argv);
int cmd_watch(const struct command *cmd, const char *device,
	      int argc, char **argv);

#endif /* _SEQRINGCTL_H_ */
