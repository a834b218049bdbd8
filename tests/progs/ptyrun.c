// SPDX-License-Identifier: GPL-2.0
/*
 * ptyrun - run a command on a pseudo-terminal, as a user at a terminal
 * would: for seqringctl top, which behaves otherwise without one
 *
 *   ptyrun STEP... -- COMMAND [ARG...]
 *
 * COMMAND runs in a session of its own with the pty's slave as its
 * controlling terminal and standard input, output and error (80x24, the
 * line discipline's defaults: ICANON, ECHO, ISIG). The STEPs then run in
 * order:
 *   w:TEXT       wait (10 s at most) until TEXT appears in its output after
 *                what the last w: step found
 *   k:BYTES      type BYTES (a Ctrl-C typed is \003, which the shell's
 *                printf makes: k:$(printf '\003'))
 *   z:ROWSxCOLS  resize the terminal (the kernel sends SIGWINCH)
 *   s:MS         sleep MS milliseconds
 *   t:SECS       from here on, wait SECS seconds at most, not 10 (a VM
 *                that boots: tests/shell/check-shell.sh)
 * then ptyrun waits (10 s at most, or t:'s, then SIGKILL) for COMMAND to
 * end.
 *
 * Standard output: everything COMMAND wrote to the terminal, as it was.
 * Standard error: "ptyrun: icanon=N echo=N" (the terminal's modes after
 * COMMAND ended: whether it gave the terminal back as it found it), and
 * why a step failed. Exit status: COMMAND's, 128 + N if it died by signal
 * N, 124 if it did not end in time or a w: step timed out (it is killed,
 * with every process of its process group), 125 if ptyrun itself failed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

static long timeout_ms = 10000;

/* The command, and its wait status once it has ended (exited: true). */
static pid_t pid;
static int status;
static bool exited;

static char *out;
static size_t out_len, out_size, out_mark;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Take what the command wrote, waiting at most @ms; -1 once it is gone. */
static int drain(int master, int ms)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	n = read(master, buf, sizeof(buf));
	if (n <= 0)
		return -1;	/* EIO: no slave open any more */
	if (out_len + n + 1 > out_size) {
		out_size = 2 * (out_len + n + 1);
		out = realloc(out, out_size);
		if (!out) {
			perror("ptyrun");
			exit(125);
		}
	}
	memcpy(out + out_len, buf, n);
	out_len += n;
	out[out_len] = '\0';
	return 0;
}

static int wait_text(int master, const char *text)
{
	long end = now_ms() + timeout_ms;
	char *hit;

	for (;;) {
		hit = out ? strstr(out + out_mark, text) : NULL;
		if (hit) {
			out_mark = hit - out + strlen(text);
			return 0;
		}
		/*
		 * The slave stays open here: a command that ended is seen
		 * by waitpid(), not by the end of its output.
		 */
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			/* What it wrote before it ended, then one more look. */
			while (poll(&(struct pollfd){ .fd = master, .events = POLLIN },
				    1, 0) > 0 && !drain(master, 0))
				;
			continue;
		}
		if (now_ms() > end || exited || drain(master, 100) < 0) {
			fprintf(stderr, "ptyrun: '%s' never came%s\n", text,
				exited ? " (the command ended)" : "");
			return -1;
		}
	}
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	int master, slave, i, cmd, rc = 0;
	struct termios t;
	long end;

	for (cmd = 1; cmd < argc && strcmp(argv[cmd], "--"); cmd++)
		;
	if (cmd + 1 >= argc) {
		fprintf(stderr, "usage: ptyrun STEP... -- COMMAND [ARG...]\n");
		return 125;
	}
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("ptyrun: posix_openpt");
		return 125;
	}
	/* Kept open here, so that its modes can be read after the command. */
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0) {
		perror("ptyrun: slave");
		return 125;
	}
	ioctl(master, TIOCSWINSZ, &ws);
	pid = fork();
	if (pid < 0) {
		perror("ptyrun: fork");
		return 125;
	}
	if (!pid) {
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		close(slave);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(argv[cmd + 1], argv + cmd + 1);
		perror("ptyrun: exec");
		_exit(127);
	}

	for (i = 1; i < cmd && !rc; i++) {
		const char *arg = argv[i] + 2;

		if (!strncmp(argv[i], "w:", 2)) {
			if (wait_text(master, arg))
				rc = 124;
		} else if (!strncmp(argv[i], "k:", 2)) {
			if (write(master, arg, strlen(arg)) < 0)
				rc = 125;
		} else if (!strncmp(argv[i], "z:", 2)) {
			if (sscanf(arg, "%hux%hu", &ws.ws_row, &ws.ws_col) != 2 ||
			    ioctl(master, TIOCSWINSZ, &ws))
				rc = 125;
		} else if (!strncmp(argv[i], "s:", 2)) {
			for (end = now_ms() + atol(arg); now_ms() < end;)
				drain(master, end - now_ms());
		} else if (!strncmp(argv[i], "t:", 2)) {
			timeout_ms = atol(arg) * 1000;
		} else {
			fprintf(stderr, "ptyrun: unknown step '%s'\n", argv[i]);
			rc = 125;
		}
	}
	/* Its session's process group: what it started goes too. */
	if (rc)
		kill(-pid, SIGKILL);

	end = now_ms() + timeout_ms;
	while (!exited && waitpid(pid, &status, WNOHANG) == 0) {
		if (now_ms() > end) {
			kill(-pid, SIGKILL);
			rc = rc ? rc : 124;
		}
		drain(master, 50);
	}
	while (drain(master, 0) == 0 && out_len &&
	       poll(&(struct pollfd){ .fd = master, .events = POLLIN }, 1, 0) > 0)
		;
	if (out_len)
		fwrite(out, 1, out_len, stdout);
	if (!tcgetattr(slave, &t))
		fprintf(stderr, "ptyrun: icanon=%d echo=%d\n",
			!!(t.c_lflag & ICANON), !!(t.c_lflag & ECHO));
	if (rc)
		return rc;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
