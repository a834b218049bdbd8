// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-util - what every command does the same way: its --help and
 * usage hint, the messages for a number, a label, a device or standard
 * output that fails, and how the program ends (finish())
 *
 * The commands call these; nothing here calls a command.
 */

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

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
		where, label, strlen(label), SRL_LABEL_MAX);
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
 * Output that cannot be written is a failure, not a silent success. A
 * command ended by a signal (watch) dies by it now, with the default
 * disposition, so that its caller (a shell loop, systemd) sees why.
 */
int finish(int status)
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
