// SPDX-License-Identifier: GPL-2.0
/*
 * sigdfl - run a command with every signal at its default disposition
 *
 * Usage: sigdfl COMMAND [ARG...]
 *
 * A shell script starts its background jobs with SIGINT and SIGQUIT
 * ignored, and an ignored signal stays ignored across exec(). To test how
 * a program started from a terminal reacts to Ctrl-C, the guest tests run
 * it through this, which also unblocks every signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t none;
	int sig;

	if (argc < 2) {
		fputs("usage: sigdfl COMMAND [ARG...]\n", stderr);
		return 2;
	}
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);	/* fails for SIGKILL, SIGSTOP: fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "sigdfl: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
