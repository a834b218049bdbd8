// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-util - what every command does the same way: its --help and
 * usage hint, the messages for a number, a label, a device or standard
 * output that fails, and how the program ends (finish())
 *
 * The commands call these; nothing here calls a command.
 */

/* asprintf() */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
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

void print_wrapped(FILE *f, const char *first, const char *indent,
		   const char *text)
{
	size_t col = strlen(first), len, depth;
	bool line_empty = !*first || first[col - 1] == ' ';
	const char *p = text, *q;

	fputs(first, f);
	while (*p) {
		/* One unit: up to a blank outside brackets. */
		for (q = p, depth = 0; *q && (*q != ' ' || depth); q++) {
			if (*q == '[')
				depth++;
			else if (*q == ']' && depth)
				depth--;
		}
		len = q - p;
		if (!line_empty && col + 1 + len > 79) {
			fprintf(f, "\n%s", indent);
			col = strlen(indent);
			line_empty = true;
		}
		if (!line_empty) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		line_empty = false;
		for (p = q; *p == ' '; p++)
			;
	}
	fputc('\n', f);
}

static void print_cmd_usage(FILE *f, const struct command *cmd)
{
	char *text;

	if (asprintf(&text, "seqringctl %s%s%s%s",
		     cmd->no_device ? "" : "[-d DEVICE] ", cmd->name,
		     *cmd->synopsis ? " " : "", cmd->synopsis) < 0) {
		fprintf(f, "Usage: seqringctl %s %s\n", cmd->name,
			cmd->synopsis);
		return;
	}
	print_wrapped(f, "Usage: ", "           ", text);
	free(text);
}

int usage_hint(const struct command *cmd)
{
	if (cmd) {
		print_cmd_usage(stderr, cmd);
		fprintf(stderr, "Try 'seqringctl %s --help' for more information.\n",
			cmd->name);
	} else {
		fputs("Try 'seqringctl --help' for more information.\n", stderr);
	}
	return EXIT_USAGE;
}

int command_help(const struct command *cmd)
{
	print_cmd_usage(stdout, cmd);
	printf("\n%s\n", cmd->summary);
	if (*cmd->options)
		printf("\nOptions:\n%s", cmd->options);
	return EXIT_SUCCESS;
}

int unexpected_arg(const struct command *cmd, const char *arg)
{
	return usage_error(cmd, "unexpected argument '%s'", arg);
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

/*
 * The rings there are, as the misc class lists them: "/dev/seqring,
 * /dev/seqring-timerlat", or "" when there are none.
 */
static void list_rings(char *buf, size_t size)
{
	struct dirent *de;
	size_t len = 0;
	DIR *dir;

	buf[0] = '\0';
	dir = opendir("/sys/class/misc");
	while (dir && (de = readdir(dir)))
		if (!strcmp(de->d_name, "seqring") ||
		    !strncmp(de->d_name, "seqring-", 8) ||
		    !strcmp(de->d_name, "seqring.prev"))
			len += snprintf(buf + len, len < size ? size - len : 0,
					"%s/dev/%s", len ? ", " : "",
					de->d_name);
	if (dir)
		closedir(dir);
}

/* What a user can do about the errors a new user meets first. */
int open_error(const char *device, int err)
{
	char rings[512];

	fprintf(stderr, "seqringctl: %s: cannot open: %s\n", device,
		strerror(-err));
	if (err == -ENOENT && access("/sys/module/seqring", F_OK)) {
		fputs("seqringctl: is the module loaded? try: modprobe seqring\n",
		      stderr);
	} else if (err == -ENOENT) {
		list_rings(rings, sizeof(rings));
		if (*rings)
			fprintf(stderr,
				"seqringctl: %s: no such ring; the rings are: %s\n",
				device, rings);
		else
			fprintf(stderr,
				"seqringctl: %s: no such ring; the module is loaded, but no ring has a device (is udev running?)\n",
				device);
	} else if (err == -EACCES) {
		fprintf(stderr,
			"seqringctl: the device is for root and the members of group seqring: usermod -aG seqring USER (then log in again)\n");
	}
	return EXIT_FAILURE;
}

int device_error(const char *device, const char *what, int err)
{
	fprintf(stderr, "seqringctl: %s: %s: %s%s\n", device, what,
		strerror(-err),
		err == -ENOTTY ? " (not a seqring device?)" : "");
	return EXIT_FAILURE;
}

int arg_label_error(const struct command *cmd, const char *label)
{
	char where[32];

	snprintf(where, sizeof(where), "%s: ", cmd->name);
	report_label(where, label);
	return usage_hint(cmd);
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

void signals_catch(struct caught_signals *cs, const int *sigs, size_t n,
		   void (*handler)(int), sigset_t *waitmask)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&cs->block);
	cs->n = n < ARRAY_SIZE(cs->sigs) ? n : ARRAY_SIZE(cs->sigs);
	for (i = 0; i < cs->n; i++) {
		cs->sigs[i] = sigs[i];
		sigaction(sigs[i], NULL, &cs->old[i]);
		if (cs->old[i].sa_handler != SIG_IGN)
			sigaddset(&cs->block, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &cs->block, waitmask);
	for (i = 0; i < cs->n; i++) {
		if (!sigismember(&cs->block, sigs[i]))
			continue;
		sigdelset(waitmask, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
}

void signals_restore(struct caught_signals *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (sigismember(&cs->block, cs->sigs[i]))
			sigaction(cs->sigs[i], &cs->old[i], NULL);
	sigprocmask(SIG_UNBLOCK, &cs->block, NULL);
}

int usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "seqringctl: %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return usage_hint(cmd);
}

/* getopt_long() said what was wrong (main() names it after the command). */
int other_option(const struct command *cmd, int opt)
{
	return opt == 'h' ? command_help(cmd) : usage_hint(cmd);
}

int arg_number(const struct command *cmd, const char *what, const char *str,
	       __u64 min, __u64 max, __u64 *val)
{
	char range[48], where[32];
	int ret;

	ret = srl_parse_u64(str, val);
	if (!ret && (*val < min || *val > max))
		ret = -ERANGE;
	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "%llu..%llu", (unsigned long long)min,
		 (unsigned long long)max);
	snprintf(where, sizeof(where), "%s: ", cmd->name);
	report_number(where, what, str, ret, range);
	return usage_hint(cmd);
}

int arg_u32(const struct command *cmd, const char *what, const char *str,
	    __u32 *val)
{
	__u64 v;
	int ret;

	ret = arg_number(cmd, what, str, 0, UINT32_MAX, &v);
	if (!ret)
		*val = v;
	return ret;
}

int arg_name(const struct command *cmd, const char *what, const char *str,
	     const char * const *names, size_t n)
{
	char list[256] = "";
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(str, names[i]))
			return i;
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? ", " : "", names[i]);
	usage_error(cmd, "unknown %s '%s' (%s)", what, str, list);
	return -1;
}
