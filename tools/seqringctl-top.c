// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-top - the command top: every ring at a glance, refreshed like
 * top(1): pushes per second, dropped, readers, how full it is, and the
 * latest value of each channel and label
 *
 * Each ring is held open (read-only, non-blocking) for as long as top
 * runs: a frame reads only the records pushed since the last one, so that
 * a ring of 16 million readings costs no more a second than a small one.
 * Its own files are not counted among the readers.
 *
 * On a terminal (standard input and output both) the view is drawn over
 * the whole screen (the alternate screen, as top and less do) and q ends
 * it; the terminal is given back as it was however it ends: q, a signal
 * (SIGINT, SIGTERM, SIGHUP, after which top dies by it, as watch does),
 * Ctrl-Z (SIGTSTP: restored, stopped, taken again on SIGCONT) or a write
 * that fails. Anywhere else (a pipe, a file, -b) frames are plain text,
 * one unless -n says more.
 */

/* ppoll() */
#define _GNU_SOURCE

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

#define READ_RECORDS	256
/* Series followed per ring: a ring whose labels never repeat stays bounded. */
#define SERIES_LIMIT	4096
#define MISC_CLASS	"/sys/class/misc"
#define LINE_LEN	512

const struct option top_options[] = {
	{ "batch",	no_argument,		NULL,	'b' },
	{ "interval",	required_argument,	NULL,	'i' },
	{ "iterations",	required_argument,	NULL,	'n' },
	{ "help",	no_argument,		NULL,	'h' },
	{ NULL,		0,			NULL,	0 }
};

struct ring_view {
	char name[NAME_MAX + 1];	/* seqring, seqring-NAME */
	char path[NAME_MAX + 6];	/* /dev/NAME, or the -d DEVICE */
	int fd;
	int err;			/* why it cannot be shown, -errno */
	bool gone;			/* its ring was destroyed */
	bool found;			/* still listed by the last scan */
	dev_t rdev;
	struct seqring_stats st;
	__u64 prev_total;
	double rate;			/* pushes a second, < 0: not yet known */
	unsigned int readers;
	struct series_table series;
};

struct top {
	struct ring_view **rings;
	size_t n;
	const char *device;		/* NULL: every ring */
	bool interactive;
	bool readers_partial;		/* some processes' files unseen */
	unsigned int rows, cols;
	long interval_ms;
	struct timespec last;		/* when the rings were last read */
};

/* Signals, delivered only inside ppoll() (see watch_wait()). */
static const int top_end_signals[] = { SIGHUP, SIGINT, SIGTERM };
static sig_atomic_t top_ended, top_resized, top_stopped;

static void top_on_signal(int sig)
{
	if (sig == SIGWINCH)
		top_resized = 1;
	else if (sig == SIGTSTP)
		top_stopped = 1;
	else
		top_ended = sig;
}

static struct termios saved_termios;

/*
 * Keys one at a time, unechoed; signals keys (Ctrl-C, Ctrl-Z) stay signals.
 * The alternate screen keeps the user's scrollback as it was.
 */
static int term_enter(void)
{
	struct termios t;

	if (tcgetattr(STDIN_FILENO, &saved_termios))
		return -errno;
	t = saved_termios;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t))
		return -errno;
	fputs("\033[?1049h\033[?25l", stdout);
	return 0;
}

static void term_leave(void)
{
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
}

static void term_size(struct top *top)
{
	struct winsize ws;

	top->rows = 24;
	top->cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		top->rows = ws.ws_row;
		top->cols = ws.ws_col;
	}
}

static long ms_since(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000 +
	       (b->tv_nsec - a->tv_nsec) / 1000000;
}

/* --- the rings --------------------------------------------------------- */

static bool is_ring_name(const char *name)
{
	return !strcmp(name, "seqring") || !strncmp(name, "seqring-", 8);
}

static struct ring_view *ring_find(struct top *top, const char *name)
{
	size_t i;

	for (i = 0; i < top->n; i++)
		if (!strcmp(top->rings[i]->name, name))
			return top->rings[i];
	return NULL;
}

static int ring_add(struct top *top, const char *name, const char *path)
{
	struct ring_view **rings, *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	rings = realloc(top->rings, (top->n + 1) * sizeof(*rings));
	if (!rings) {
		free(r);
		return -ENOMEM;
	}
	top->rings = rings;
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->fd = -1;
	r->rate = -1;
	r->found = true;
	r->series.limit = SERIES_LIMIT;
	top->rings[top->n++] = r;
	return 0;
}

static void ring_free(struct ring_view *r)
{
	if (r->fd >= 0)
		close(r->fd);
	series_free(&r->series);
	free(r);
}

static int ring_cmp(const void *a, const void *b)
{
	const struct ring_view *x = *(struct ring_view * const *)a;
	const struct ring_view *y = *(struct ring_view * const *)b;

	return strcmp(x->name, y->name);
}

/*
 * The rings the misc class lists now, sorted by name: new ones are added,
 * those gone from it dropped. With -d DEVICE, that device alone.
 */
static int rings_scan(struct top *top)
{
	char path[sizeof(((struct ring_view *)0)->path)];
	struct dirent *de;
	size_t i, j;
	DIR *dir;
	int ret = 0;

	if (top->device) {
		if (!top->n)
			ret = ring_add(top, strrchr(top->device, '/') ?
				       strrchr(top->device, '/') + 1 :
				       top->device, top->device);
		return ret;
	}
	for (i = 0; i < top->n; i++)
		top->rings[i]->found = false;
	dir = opendir(MISC_CLASS);
	while (dir && (de = readdir(dir))) {
		if (!is_ring_name(de->d_name) ||
		    strlen(de->d_name) > NAME_MAX)
			continue;
		if (ring_find(top, de->d_name)) {
			ring_find(top, de->d_name)->found = true;
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		ret = ring_add(top, de->d_name, path);
		if (ret)
			break;
	}
	if (dir)
		closedir(dir);
	for (i = j = 0; i < top->n; i++) {
		if (top->rings[i]->found)
			top->rings[j++] = top->rings[i];
		else
			ring_free(top->rings[i]);
	}
	top->n = j;
	qsort(top->rings, top->n, sizeof(*top->rings), ring_cmp);
	return ret;
}

/* The records pushed since the last frame, up to the newest of @end. */
static int ring_read(struct ring_view *r, __u64 end)
{
	struct seqring_record buf[READ_RECORDS];
	ssize_t len;
	size_t i;
	int ret;

	for (;;) {
		len = srl_read(r->fd, buf, ARRAY_SIZE(buf));
		/* Fell behind: it goes on from the oldest held. */
		if (len == -EPIPE)
			continue;
		if (len == -EAGAIN)
			return 0;
		if (!len) {
			r->gone = true;
			return 0;
		}
		if (len < 0)
			return len;
		for (i = 0; i < (size_t)len; i++) {
			ret = series_add(&r->series, &buf[i].reading);
			if (ret == -ENOMEM)
				return ret;
		}
		if (buf[len - 1].seq >= end)
			return 0;
	}
}

/* Read @r's counters and new records; @ms since the last frame, 0: first. */
static int ring_update(struct ring_view *r, long ms)
{
	struct stat sb;
	int ret;

	if (r->gone)
		return 0;
	if (r->fd < 0) {
		r->fd = srl_open(r->path, O_RDONLY | O_NONBLOCK);
		if (r->fd < 0) {
			r->err = r->fd;
			return 0;
		}
		r->rdev = fstat(r->fd, &sb) ? 0 : sb.st_rdev;
		ms = 0;
	}
	ret = srl_get_stats(r->fd, &r->st);
	if (ret) {
		r->err = ret;
		close(r->fd);
		r->fd = -1;
		return 0;
	}
	r->err = 0;
	/* A total that went down is another ring of the same name. */
	if (ms > 0 && r->st.total >= r->prev_total)
		r->rate = (r->st.total - r->prev_total) * 1000.0 / ms;
	else
		r->rate = -1;
	r->prev_total = r->st.total;
	ret = ring_read(r, r->st.total);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		r->err = ret;
	return 0;
}

/* O_ACCMODE of the open file /proc/PID/fdinfo/FD describes. */
static int fdinfo_accmode(const char *pid, const char *fd)
{
	char path[2 * NAME_MAX + 16], line[128];
	unsigned int flags;
	int mode = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %o", &flags) == 1) {
			mode = flags & O_ACCMODE;
			break;
		}
	fclose(f);
	return mode;
}

/*
 * Readers: the files open for reading on each ring's device, as fuser(1)
 * finds them, in every process this user may look into (all of them, for
 * root), this one left out.
 */
static void count_readers(struct top *top)
{
	char self[24], path[2 * NAME_MAX + 16];
	struct dirent *p, *f;
	DIR *proc, *fds;
	struct stat sb;
	size_t i;

	top->readers_partial = false;
	for (i = 0; i < top->n; i++)
		top->rings[i]->readers = 0;
	snprintf(self, sizeof(self), "%d", (int)getpid());
	proc = opendir("/proc");
	while (proc && (p = readdir(proc))) {
		if (!isdigit((unsigned char)p->d_name[0]) ||
		    !strcmp(p->d_name, self))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds) {
			if (errno == EACCES)
				top->readers_partial = true;
			continue;
		}
		while ((f = readdir(fds))) {
			if (f->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, f->d_name);
			if (stat(path, &sb) || !S_ISCHR(sb.st_mode))
				continue;
			for (i = 0; i < top->n; i++) {
				if (top->rings[i]->fd < 0 ||
				    top->rings[i]->rdev != sb.st_rdev)
					continue;
				if (fdinfo_accmode(p->d_name, f->d_name) !=
				    O_WRONLY)
					top->rings[i]->readers++;
				break;
			}
		}
		closedir(fds);
	}
	if (proc)
		closedir(proc);
}

static int top_update(struct top *top)
{
	struct timespec now;
	long ms;
	size_t i;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = top->last.tv_sec ? ms_since(&top->last, &now) : 0;
	top->last = now;
	ret = rings_scan(top);
	for (i = 0; !ret && i < top->n; i++)
		ret = ring_update(top->rings[i], ms);
	if (ret)
		return out_of_memory();
	count_readers(top);
	return 0;
}

/* --- the frame --------------------------------------------------------- */

struct frame {
	const struct top *top;
	unsigned int lines;		/* printed so far */
	unsigned int max;		/* at most, 0: no limit */
};

/*
 * One line, cut at the terminal's width (in cells: a label may hold
 * characters two cells wide, or none) and cleared to its end; false once
 * the screen is full.
 */
static bool frame_line(struct frame *fr, const char *fmt, ...)
{
	char line[LINE_LEN];
	va_list ap;
	int len;

	if (fr->max && fr->lines >= fr->max)
		return false;
	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	if (fr->top->interactive) {
		line[len] = '\0';
		len = text_cut(line, fr->top->cols);
		/* No newline after the last row: the screen would scroll. */
		printf("%s%.*s\033[K", fr->lines ? "\n" : "", len, line);
	} else {
		printf("%.*s\n", len, line);
	}
	fr->lines++;
	return true;
}

/* How long ago: 0.4s, 12s, 5m07s, 3h02m, 2d04h. */
static void format_age(char *buf, size_t size, __u64 ts, __u64 now)
{
	__u64 s;

	if (ts > now) {
		snprintf(buf, size, "-");
		return;
	}
	s = (now - ts) / 1000000000;
	if (s < 10)
		snprintf(buf, size, "%.1fs", (now - ts) / 1e9);
	else if (s < 60)
		snprintf(buf, size, "%llus", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, size, "%llum%02llus", (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else if (s < 86400)
		snprintf(buf, size, "%lluh%02llum",
			 (unsigned long long)s / 3600,
			 (unsigned long long)s / 60 % 60);
	else
		snprintf(buf, size, "%llud%02lluh",
			 (unsigned long long)s / 86400,
			 (unsigned long long)s / 3600 % 24);
}

static bool draw_ring(struct frame *fr, const struct ring_view *r, __u64 now)
{
	char rate[24], readers[16], used[48], label[SRL_ESCAPED_LABEL_LEN];
	char age[24], column[SRL_ESCAPED_LABEL_LEN + 16];
	struct series *s;
	size_t i;

	if (r->gone)
		return frame_line(fr, "%-16s (destroyed)", r->name);
	if (r->fd < 0)
		return frame_line(fr, "%-16s %s", r->name, strerror(-r->err));
	if (r->rate < 0)
		snprintf(rate, sizeof(rate), "-");
	else
		snprintf(rate, sizeof(rate), "%.1f", r->rate);
	snprintf(readers, sizeof(readers), "%u%s", r->readers,
		 fr->top->readers_partial ? "+" : "");
	snprintf(used, sizeof(used), "%llu/%llu %3llu%%",
		 (unsigned long long)r->st.count,
		 (unsigned long long)r->st.capacity,
		 (unsigned long long)(r->st.capacity ?
				      r->st.count * 100 / r->st.capacity : 0));
	if (!frame_line(fr, "%-16s %10s %12llu %10llu %7s  %s%s%s", r->name,
			rate, (unsigned long long)r->st.total,
			(unsigned long long)r->st.dropped, readers, used,
			r->err ? "  " : "", r->err ? strerror(-r->err) : ""))
		return false;
	if (!r->series.used)
		return true;
	s = series_sorted(&r->series);
	if (!s)
		return frame_line(fr, "  %s", strerror(ENOMEM));
	for (i = 0; i < r->series.used; i++) {
		/* The last row says what did not fit. */
		if (fr->max && fr->lines + 1 == fr->max &&
		    i + 1 < r->series.used) {
			frame_line(fr, "  ... %zu more", r->series.used - i);
			break;
		}
		/* As people write it, padded to 16 cells, not bytes. */
		label_text(label, s[i].label);
		text_pad(column, sizeof(column), label, 16);
		format_age(age, sizeof(age), s[i].timestamp_ns, now);
		if (!frame_line(fr, "  %s %10u %20lld %9s", column,
				s[i].channel, (long long)s[i].value, age))
			break;
	}
	free(s);
	if (r->series.refused && i == r->series.used)
		frame_line(fr, "  (%llu readings of further labels not shown: %d at most)",
			   r->series.refused, SERIES_LIMIT);
	return i == r->series.used;
}

static int top_draw(struct top *top)
{
	struct frame fr = { .top = top };
	char when[TIME_LEN];
	struct timespec rt;
	struct tm tm;
	size_t i;
	__u64 now;

	clock_gettime(CLOCK_REALTIME, &rt);
	now = (__u64)rt.tv_sec * 1000000000 + rt.tv_nsec;
	localtime_r(&rt.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (top->interactive) {
		fr.max = top->rows;
		fputs("\033[H", stdout);
	}
	frame_line(&fr, "seqringctl top - %s, %zu ring%s, every %ld.%01lds%s",
		   when, top->n, top->n == 1 ? "" : "s",
		   top->interval_ms / 1000, top->interval_ms % 1000 / 100,
		   top->interactive ? " (q quits)" : "");
	frame_line(&fr, "%-16s %10s %12s %10s %7s  %s", "RING", "PUSHES/S",
		   "PUSHED", "DROPPED", "READERS", "HELD/CAPACITY USED");
	frame_line(&fr, "  %-16s %10s %20s %9s", "LABEL", "CHANNEL",
		   "LATEST VALUE", "AGE");
	if (!top->n)
		frame_line(&fr, "(no ring: is the module loaded? try: modprobe seqring)");
	for (i = 0; i < top->n; i++)
		if (!draw_ring(&fr, top->rings[i], now))
			break;
	if (top->interactive)
		fputs("\033[J", stdout);
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		return output_error(errno ? errno : EIO);
	return 0;
}

/* --- the loop ---------------------------------------------------------- */

enum { WAIT_FRAME, WAIT_EARLY, WAIT_QUIT };

/*
 * Wait for the next frame, a key or a signal, with @waitmask's signals
 * deliverable only in here: WAIT_FRAME when it is time for the next
 * frame, WAIT_QUIT for q, WAIT_EARLY for anything else.
 */
static int top_wait(struct top *top, const sigset_t *waitmask)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	struct timespec now, ts;
	long left;
	char c;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left = top->interval_ms - ms_since(&top->last, &now);
	if (left <= 0)
		return WAIT_FRAME;
	ts.tv_sec = left / 1000;
	ts.tv_nsec = left % 1000 * 1000000;
	ret = ppoll(&pfd, top->interactive ? 1 : 0, &ts, waitmask);
	if (!ret)
		return WAIT_FRAME;
	if (ret > 0 && (pfd.revents & (POLLHUP | POLLERR)))
		return WAIT_QUIT;
	while (ret > 0 && read(STDIN_FILENO, &c, 1) == 1)
		if (c == 'q' || c == 'Q')
			return WAIT_QUIT;
	return WAIT_EARLY;
}

/* Ctrl-Z: the terminal as it was while stopped, taken again after. */
static int top_stop(struct top *top)
{
	term_leave();
	kill(getpid(), SIGSTOP);
	if (term_enter())
		return device_error("stdin", "cannot set the terminal", -errno);
	term_size(top);
	return top_draw(top);
}

static int top_loop(struct top *top, unsigned long frames,
		    const sigset_t *waitmask)
{
	unsigned long drawn = 0;
	int status, ret;

	status = top_update(top);
	if (status)
		return status;
	/* A terminal shows the rings at once; rates come with the next frame. */
	if (top->interactive) {
		status = top_draw(top);
		if (status)
			return status;
		drawn++;
	}
	while (!frames || drawn < frames) {
		ret = top_wait(top, waitmask);
		if (ret == WAIT_QUIT || top_ended)
			return EXIT_SUCCESS;
		if (top_stopped) {
			top_stopped = 0;
			status = top_stop(top);
		} else if (top_resized) {
			top_resized = 0;
			term_size(top);
			status = top_draw(top);
		} else if (ret == WAIT_FRAME) {
			if (drawn && !top->interactive)
				putchar('\n');
			status = top_update(top);
			if (!status)
				status = top_draw(top);
			drawn++;
		}
		if (status)
			return status;
	}
	return EXIT_SUCCESS;
}

/*
 * What the last frame could not show makes the exit status 1, as for any
 * command that cannot read its device: no ring at all, or a ring that
 * could not be opened or read (its reason on stderr, with the hint that
 * open_error() gives).
 */
static int top_status(const struct top *top)
{
	int status = EXIT_SUCCESS;
	size_t i;

	if (!top->n) {
		fputs("seqringctl: top: no ring: is the module loaded? try: modprobe seqring\n",
		      stderr);
		return EXIT_FAILURE;
	}
	for (i = 0; i < top->n; i++) {
		if (top->rings[i]->gone || !top->rings[i]->err)
			continue;
		if (top->rings[i]->fd < 0)
			status = open_error(top->rings[i]->path,
					    top->rings[i]->err);
		else
			status = device_error(top->rings[i]->path,
					      "cannot read readings",
					      top->rings[i]->err);
	}
	return status;
}

/* "0.5", "2", "1.25": milliseconds, 100 ms to an hour. */
static int parse_interval(const struct command *cmd, const char *str,
			  long *ms)
{
	const char *dot = strchr(str, '.');
	char whole[24];
	__u64 s = 0, frac = 0;
	size_t n = dot ? (size_t)(dot - str) : strlen(str);
	int i, digits = 0;

	if (n >= sizeof(whole))
		goto bad;
	memcpy(whole, str, n);
	whole[n] = '\0';
	if ((n || !dot) && srl_parse_u64(whole, &s))
		goto bad;
	if (dot) {
		for (i = 1; dot[i]; i++) {
			if (!isdigit((unsigned char)dot[i]))
				goto bad;
			if (digits < 3) {
				frac = frac * 10 + dot[i] - '0';
				digits++;
			}
		}
		if (i == 1)
			goto bad;
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (s > 3600 || s * 1000 + frac < 100 || s * 1000 + frac > 3600000)
		goto bad;
	*ms = s * 1000 + frac;
	return 0;
bad:
	return usage_error(cmd, "invalid interval '%s' (seconds, 0.1..3600)",
			   str);
}

int cmd_top(const struct command *cmd, const char *device,
	    int argc, char **argv)
{
	int sigs[ARRAY_SIZE(top_end_signals) + 2];
	struct caught_signals cs;
	struct top top = { .interval_ms = 1000 };
	unsigned long frames = 0;
	size_t i, nsigs;
	sigset_t waitmask;
	bool batch = false;
	int opt, status;
	__u64 v;

	while ((opt = getopt_long(argc, argv, cmd->shortopts,
				  cmd->longopts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			batch = true;
			break;
		case 'i':
			status = parse_interval(cmd, optarg, &top.interval_ms);
			if (status)
				return status;
			break;
		case 'n':
			status = arg_number(cmd, "iterations", optarg, 1,
					    UINT32_MAX, &v);
			if (status)
				return status;
			frames = v;
			break;
		default:
			return other_option(cmd, opt);
		}
	}
	if (optind < argc)
		return unexpected_arg(cmd, argv[optind]);

	/* -d DEVICE: that ring alone. */
	if (strcmp(device, SRL_DEFAULT_DEVICE))
		top.device = device;
	top.interactive = !batch && isatty(STDIN_FILENO) &&
			  isatty(STDOUT_FILENO);
	/* Without a terminal, one frame: a snapshot for a script or a mail. */
	if (!top.interactive && !frames)
		frames = 1;

	/*
	 * As watch: the signals that end it, and SIGWINCH, and on a terminal
	 * SIGTSTP, are delivered only inside ppoll() (top_wait()).
	 */
	memcpy(sigs, top_end_signals, sizeof(top_end_signals));
	nsigs = ARRAY_SIZE(top_end_signals);
	sigs[nsigs++] = SIGWINCH;
	if (top.interactive)
		sigs[nsigs++] = SIGTSTP;
	signals_catch(&cs, sigs, nsigs, top_on_signal, &waitmask);

	if (top.interactive) {
		term_size(&top);
		status = term_enter();
		if (status) {
			status = device_error("stdin", "cannot set the terminal",
					      status);
			goto out;
		}
	}
	status = top_loop(&top, frames, &waitmask);
	if (top.interactive)
		term_leave();
	if (!status && !top_ended)
		status = top_status(&top);
out:
	signals_restore(&cs);
	/* main() re-raises it once the output is flushed, as for watch. */
	fatal_signal = top_ended;
	for (i = 0; i < top.n; i++)
		ring_free(top.rings[i]);
	free(top.rings);
	return status;
}
