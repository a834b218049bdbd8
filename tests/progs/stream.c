// SPDX-License-Identifier: GPL-2.0
/*
 * stream - TAP test of read(), poll() and lseek() on /dev/seqring, and of
 * SEQRING_IOC_SET_WAKEUP and SEQRING_IOC_SET_CAPACITY
 *
 * Usage: stream [DEVICE]
 *
 * One test per behaviour of the stream ABI in include/uapi/linux/seqring.h:
 * whole 48-byte records from a per-open cursor that starts at the oldest
 * reading held, -EINVAL for a short buffer, -EAGAIN, -EPIPE once after an
 * overrun or a CLEAR and the resume point after it, SEEK_SET/SEEK_END and
 * the seeks refused, poll() flags, the wake-up threshold, a blocked read()
 * woken by a push and by a signal, and resizing. Each test starts from an
 * empty ring (CLEAR) and computes what it expects from what it pushed and
 * from GET_STATS. The caller loads the module (any capacity of at least
 * 16) and runs this as root; the same source is built with -m32 as
 * stream32 to run the whole ABI through compat_ioctl.
 *
 * Whatever blocks runs in a child process, and the parent waits for it a
 * bounded time (CHILD_TIMEOUT_MS): a driver that never wakes a reader
 * fails a test, it does not hang the suite.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "caps.h"
#include "tap.h"

#define REC			sizeof(struct seqring_record)
#define CHANNEL			7
/* How long a child may take to report; generous for QEMU's tcg. */
#define CHILD_TIMEOUT_MS	10000
/* How long a child must stay blocked to count as "still waiting". */
#define STILL_BLOCKED_MS	300

static const char *dev_path = "/dev/seqring";
static int fd_w = -1;		/* O_WRONLY: pushes and CLEAR */
static __u32 capacity;		/* the module's, restored after resizing */

/* ---- helpers ---- */

static struct seqring_stats get_stats(void)
{
	struct seqring_stats st;

	memset(&st, 0, sizeof(st));
	if (ioctl(fd_w, SEQRING_IOC_GET_STATS, &st))
		tap_bail("GET_STATS failed: %s", errname(errno));
	return st;
}

static void clear_ring(void)
{
	if (ioctl(fd_w, SEQRING_IOC_CLEAR))
		tap_bail("CLEAR failed: %s", errname(errno));
}

static void reading_init(struct seqring_reading *r, long long value)
{
	memset(r, 0, sizeof(*r));
	r->timestamp_ns = 1000000000ULL + (unsigned long long)value;
	r->value = value;
	r->channel = CHANNEL;
	snprintf(r->label, sizeof(r->label), "v%lld", value);
}

/*
 * Push @n readings with values @first, @first + 1, ... in one batch.
 * Returns the sequence number of the first one.
 */
static __u64 push(long long first, unsigned int n)
{
	struct seqring_reading *r;
	struct seqring_batch b;
	unsigned int i;

	r = calloc(n, sizeof(*r));
	if (!r)
		tap_bail("out of memory");
	for (i = 0; i < n; i++)
		reading_init(&r[i], first + i);
	memset(&b, 0, sizeof(b));
	b.readings = (__u64)(uintptr_t)r;
	b.count = n;
	if (ioctl(fd_w, SEQRING_IOC_PUSH_BATCH, &b))
		tap_bail("PUSH_BATCH of %u failed: %s", n, errname(errno));
	free(r);
	return get_stats().total - n + 1;
}

static int open_reader(int flags)
{
	int fd = open(dev_path, O_RDONLY | flags);

	if (fd < 0)
		tap_bail("open(%s, O_RDONLY): %s", dev_path, errname(errno));
	return fd;
}

/* read() up to @max records: their number, or -errno. */
static int read_recs(int fd, struct seqring_record *rec, unsigned int max)
{
	ssize_t n = read(fd, rec, (size_t)max * REC);

	if (n < 0)
		return -errno;
	if (n % REC)
		return -1000 - (int)n;	/* never valid: shows as E-10NN */
	return (int)(n / REC);
}

static const char *res_name(int res)
{
	static char buf[32];

	if (res < 0)
		return errname(-res);
	snprintf(buf, sizeof(buf), "%d records", res);
	return buf;
}

static bool expect_errno(int res, int want, const char *desc)
{
	if (tap_result(res == -want, "%s", desc))
		return true;
	tap_diag("expected %s, got %s", errname(want), res_name(res));
	return false;
}

static bool expect_u64(unsigned long long want, unsigned long long got,
		       const char *desc)
{
	if (tap_result(want == got, "%s", desc))
		return true;
	tap_diag("expected %llu, got %llu", want, got);
	return false;
}

/*
 * Do @n records read in a row have sequence numbers @first, @first + 1,
 * ... and exactly the readings push() made of them, value @value0 for
 * the first? Says what differs first.
 */
static bool recs_match(const struct seqring_record *rec, int n, __u64 first,
		       long long value0, char *why, size_t whylen)
{
	struct seqring_reading want;
	int i;

	for (i = 0; i < n; i++) {
		reading_init(&want, value0 + i);
		if (rec[i].seq != first + i) {
			snprintf(why, whylen,
				 "record %d: expected seq %llu, got %llu", i,
				 (unsigned long long)(first + i),
				 (unsigned long long)rec[i].seq);
			return false;
		}
		if (memcmp(&rec[i].reading, &want, sizeof(want))) {
			snprintf(why, whylen,
				 "record %d (seq %llu): expected value %lld label %s, got value %lld label %.16s",
				 i, (unsigned long long)rec[i].seq,
				 (long long)want.value, want.label,
				 (long long)rec[i].reading.value,
				 rec[i].reading.label);
			return false;
		}
	}
	return true;
}

/* read() @n records from @fd and check them in one test. */
static void expect_recs(int fd, int n, __u64 first, long long value0,
			const char *desc)
{
	struct seqring_record rec[64];
	char why[200];
	int got;

	got = read_recs(fd, rec, ARRAY_SIZE(rec));
	if (got != n) {
		tap_result(false, "%s", desc);
		tap_diag("expected %d records from seq %llu, got %s", n,
			 (unsigned long long)first, res_name(got));
		return;
	}
	if (!tap_result(recs_match(rec, n, first, value0, why, sizeof(why)),
			"%s", desc))
		tap_diag("%s", why);
}

static int set_u32(int fd, unsigned long cmd, __u32 val)
{
	return ioctl(fd, cmd, &val) ? -errno : 0;
}

static void set_capacity(__u32 cap)
{
	int ret = set_u32(fd_w, SEQRING_IOC_SET_CAPACITY, cap);

	if (ret)
		tap_bail("SET_CAPACITY %u failed: %s", cap, errname(-ret));
}

static short poll_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLRDNORM | POLLPRI };

	if (poll(&pfd, 1, 0) < 0)
		tap_bail("poll: %s", errname(errno));
	return pfd.revents;
}

static const char *poll_name(short ev)
{
	static char buf[80];

	snprintf(buf, sizeof(buf), "%s%s%s%s%s%s(0x%x)",
		 ev & POLLIN ? "POLLIN " : "",
		 ev & POLLRDNORM ? "POLLRDNORM " : "",
		 ev & POLLERR ? "POLLERR " : "",
		 ev & POLLPRI ? "POLLPRI " : "",
		 ev & POLLHUP ? "POLLHUP " : "",
		 ev & POLLNVAL ? "POLLNVAL " : "", ev);
	return buf;
}

static bool expect_poll(int fd, short want, const char *desc)
{
	short got = poll_now(fd) & (POLLIN | POLLRDNORM | POLLERR | POLLPRI |
				    POLLHUP | POLLNVAL);

	if (tap_result(got == want, "%s", desc))
		return true;
	tap_diag("expected %s", poll_name(want));
	tap_diag("got %s", poll_name(got));
	return false;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ---- children that block ---- */

/* What a child reports through its pipe. */
struct child_res {
	int ret;		/* records read, revents, or -errno */
	__u64 first_seq;	/* seq of the first record read */
};

struct child {
	pid_t pid;
	int rfd;
};

enum child_op {
	OP_READ, OP_POLL, OP_READ_SIGINT, OP_EPOLL_PRI, OP_EPOLL_EXCL, OP_SEEK_END,
	OP_READ_NONBLOCK
};

static void on_signal(int sig)
{
	(void)sig;
}

/*
 * Fork a child that does @op on @fd (blocking) and reports the outcome.
 * OP_READ_SIGINT first installs a SIGUSR1 handler without SA_RESTART, so a
 * signal ends the read with EINTR; OP_READ installs one with SA_RESTART,
 * so the read goes on after it (-ERESTARTSYS). OP_EPOLL_PRI waits in
 * epoll_wait() for EPOLLPRI alone, OP_EPOLL_EXCL for EPOLLIN as an
 * exclusive waiter; OP_SEEK_END reports what lseek(fd, 0, SEEK_END) did,
 * OP_READ_NONBLOCK what a read() did after fcntl() made the file
 * O_NONBLOCK (a read already blocked in it stays blocked).
 */
static void child_start(struct child *c, int fd, enum child_op op)
{
	struct seqring_record rec[16];
	struct child_res res = { 0 };
	struct sigaction sa;
	struct pollfd pfd;
	int p[2];

	if (pipe(p))
		tap_bail("pipe: %s", errname(errno));
	fflush(stdout);
	c->pid = fork();
	if (c->pid < 0)
		tap_bail("fork: %s", errname(errno));
	if (c->pid) {
		close(p[1]);
		c->rfd = p[0];
		return;
	}
	close(p[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = op == OP_READ_SIGINT ? 0 : SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	if (op == OP_SEEK_END) {
		res.ret = lseek(fd, 0, SEEK_END) < 0 ? -errno : 0;
	} else if (op == OP_READ_NONBLOCK) {
		res.ret = fcntl(fd, F_SETFL, O_NONBLOCK) ? -errno :
			  read_recs(fd, rec, ARRAY_SIZE(rec));
	} else if (op == OP_EPOLL_PRI || op == OP_EPOLL_EXCL) {
		struct epoll_event ev = {
			.events = op == OP_EPOLL_PRI ? EPOLLPRI :
				  EPOLLIN | EPOLLEXCLUSIVE,
		};
		int ep = epoll_create1(0);

		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			res.ret = -errno;
		else
			res.ret = epoll_wait(ep, &ev, 1, -1) < 0 ? -errno : (int)ev.events;
	} else if (op == OP_POLL) {
		pfd.fd = fd;
		pfd.events = POLLIN | POLLRDNORM | POLLPRI;
		pfd.revents = 0;
		res.ret = poll(&pfd, 1, -1) < 0 ? -errno : pfd.revents;
	} else {
		res.ret = read_recs(fd, rec, ARRAY_SIZE(rec));
		if (res.ret > 0)
			res.first_seq = rec[0].seq;
	}
	if (write(p[1], &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

/* Wait up to @ms for the child's report. */
static bool child_result(struct child *c, int ms, struct child_res *res)
{
	struct pollfd pfd = { .fd = c->rfd, .events = POLLIN };

	if (poll(&pfd, 1, ms) <= 0)
		return false;
	return read(c->rfd, res, sizeof(*res)) == sizeof(*res);
}

/* Is the child asleep (state S in /proc/PID/stat)? Wait up to @ms. */
static bool child_sleeping(struct child *c, int ms)
{
	long long end = now_ms() + ms;
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)c->pid);
	do {
		f = fopen(path, "r");
		if (f) {
			p = fgets(buf, sizeof(buf), f);
			fclose(f);
			p = p ? strrchr(buf, ')') : NULL;
			if (p && p[1] == ' ' && p[2] == 'S')
				return true;
		}
		usleep(10000);
	} while (now_ms() < end);
	return false;
}

static void child_end(struct child *c)
{
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	close(c->rfd);
}

/* ---- read() ---- */

static void test_empty_eagain(void)
{
	struct seqring_record rec;
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	expect_errno(read_recs(fd, &rec, 1), EAGAIN,
		     "read, O_NONBLOCK, empty ring -> EAGAIN");
	close(fd);
}

static const struct {
	size_t len;
	const char *desc;
} short_read_cases[] = {
	{ REC - 1, "read with a 47-byte buffer, readings unread -> EINVAL" },
	{ 0, "read with a 0-byte buffer -> EINVAL" },
};

static void test_short_buffers(void)
{
	char buf[REC];
	ssize_t n;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(short_read_cases); i++) {
		clear_ring();
		push(1, 2);
		fd = open_reader(O_NONBLOCK);
		n = read(fd, buf, short_read_cases[i].len);
		expect_errno(n < 0 ? -errno : (int)n, EINVAL,
			     short_read_cases[i].desc);
		close(fd);
	}
}

static void test_short_buffer_no_effect(void)
{
	char buf[REC];
	__u64 first;
	int fd;

	clear_ring();
	first = push(1, 2);
	fd = open_reader(O_NONBLOCK);
	if (read(fd, buf, REC - 1) >= 0)
		tap_diag("the 47-byte read did not fail");
	expect_recs(fd, 2, first, 1,
		    "... and a read after it still starts at the oldest reading");
	close(fd);
}

static void test_from_oldest(void)
{
	__u64 first;
	int fd;

	clear_ring();
	first = push(100, 5);
	fd = open_reader(O_NONBLOCK);
	expect_recs(fd, 5, first, 100,
		    "a new open file reads every reading held, oldest first, as pushed");
	close(fd);
}

static void test_from_oldest_wrapped(void)
{
	__u64 first;
	int fd;

	clear_ring();
	first = push(200, capacity + 3) + 3;
	fd = open_reader(O_NONBLOCK);
	expect_recs(fd, capacity > 64 ? 64 : (int)capacity, first, 203,
		    "after an overwrite a new open file starts at the oldest held (no EPIPE)");
	close(fd);
}

static void test_whole_records(void)
{
	struct seqring_record rec[4];
	ssize_t n;
	int fd;

	clear_ring();
	push(1, 4);
	fd = open_reader(O_NONBLOCK);
	n = read(fd, rec, 3 * REC - 1);
	if (!tap_result(n == 2 * REC,
			"a 143-byte buffer gets two whole records (96 bytes)"))
		tap_diag("expected 96, got %zd (%s)", n,
			 n < 0 ? errname(errno) : "bytes");
	close(fd);
}

static void test_no_more_than_held(void)
{
	struct seqring_record *rec;
	__u64 first;
	ssize_t n;
	int fd;

	clear_ring();
	first = push(1, 3);
	fd = open_reader(O_NONBLOCK);
	rec = calloc(1024, REC);
	if (!rec)
		tap_bail("out of memory");
	n = read(fd, rec, 1024 * REC);
	if (!tap_result(n == 3 * REC && rec[0].seq == first &&
			rec[2].seq == first + 2,
			"a 48 KiB buffer with 3 readings unread gets 3 records"))
		tap_diag("expected 144 bytes from seq %llu, got %zd",
			 (unsigned long long)first, n);
	free(rec);
	close(fd);
}

static void test_cursor_advances(void)
{
	struct seqring_record rec;
	__u64 first;
	int fd;

	clear_ring();
	first = push(10, 3);
	fd = open_reader(O_NONBLOCK);
	read_recs(fd, &rec, 1);
	expect_recs(fd, 2, first + 1, 11,
		    "a second read continues after the record the first returned");
	close(fd);
}

static void test_consumed_eagain(void)
{
	struct seqring_record rec[8];
	int fd;

	clear_ring();
	push(1, 3);
	fd = open_reader(O_NONBLOCK);
	read_recs(fd, rec, ARRAY_SIZE(rec));
	expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EAGAIN,
		     "read, O_NONBLOCK, everything read -> EAGAIN");
	close(fd);
}

static void test_new_after_consumed(void)
{
	struct seqring_record rec[8];
	__u64 first;
	int fd;

	clear_ring();
	push(1, 3);
	fd = open_reader(O_NONBLOCK);
	read_recs(fd, rec, ARRAY_SIZE(rec));
	first = push(50, 2);
	expect_recs(fd, 2, first, 50,
		    "readings pushed after everything was read are read next");
	close(fd);
}

static void test_independent(void)
{
	struct seqring_record rec[8];
	__u64 first;
	int a, b;

	clear_ring();
	first = push(1, 4);
	a = open_reader(O_NONBLOCK);
	b = open_reader(O_NONBLOCK);
	read_recs(a, rec, ARRAY_SIZE(rec));
	expect_recs(b, 4, first, 1,
		    "a second open file reads everything the first one already read");
	close(b);
	close(a);
}

static void test_label_zeroed(void)
{
	struct seqring_reading r;
	struct seqring_record rec;
	static const char want[SEQRING_LABEL_LEN] = "ab";
	int fd, n;

	clear_ring();
	reading_init(&r, 1);
	memset(r.label, 'x', sizeof(r.label));
	memcpy(r.label, "ab", 3);
	if (ioctl(fd_w, SEQRING_IOC_PUSH, &r))
		tap_bail("PUSH failed: %s", errname(errno));
	fd = open_reader(O_NONBLOCK);
	n = read_recs(fd, &rec, 1);
	if (!tap_result(n == 1 && !memcmp(rec.reading.label, want, sizeof(want)),
			"a record's label bytes after the NUL are zero"))
		tap_diag("expected \"ab\" and 14 zero bytes, got %s", res_name(n));
	close(fd);
}

static void test_timestamp_stamped(void)
{
	struct seqring_reading r;
	struct seqring_record rec;
	int fd, n;

	clear_ring();
	reading_init(&r, 1);
	r.timestamp_ns = 0;
	if (ioctl(fd_w, SEQRING_IOC_PUSH, &r))
		tap_bail("PUSH failed: %s", errname(errno));
	fd = open_reader(O_NONBLOCK);
	n = read_recs(fd, &rec, 1);
	if (!tap_result(n == 1 && rec.reading.timestamp_ns > 1500000000ULL * 1000000000ULL,
			"a reading pushed with timestamp 0 is read with the time it was stored"))
		tap_diag("expected a timestamp after 2017, got %s, %llu", res_name(n),
			 (unsigned long long)rec.reading.timestamp_ns);
	close(fd);
}

static void test_efault(void)
{
	void *p;
	ssize_t n;
	int fd;

	clear_ring();
	push(1, 2);
	fd = open_reader(O_NONBLOCK);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	n = read(fd, p, 2 * REC);
	expect_errno(n < 0 ? -errno : (int)(n / REC), EFAULT,
		     "read into a read-only buffer -> EFAULT");
	munmap(p, 4096);
	close(fd);
}

static void test_efault_no_effect(void)
{
	__u64 first;
	void *p;
	int fd;

	clear_ring();
	first = push(1, 2);
	fd = open_reader(O_NONBLOCK);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	if (read(fd, p, 2 * REC) >= 0)
		tap_diag("the read into a read-only buffer did not fail");
	munmap(p, 4096);
	expect_recs(fd, 2, first, 1,
		    "... and the records it could not copy are read next");
	close(fd);
}

static void test_wronly_ebadf(void)
{
	struct seqring_record rec;

	expect_errno(read_recs(fd_w, &rec, 1), EBADF,
		     "read on an O_WRONLY file -> EBADF");
}

/* ---- overrun and CLEAR: -EPIPE once ---- */

/*
 * A reader that has read nothing when @extra more readings than the ring
 * holds are pushed. Returns the reader; *@first is the seq of the first
 * reading pushed.
 */
static int overrun_reader(unsigned int extra, __u64 *first)
{
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	*first = push(1, capacity + extra);
	return fd;
}

static void test_overrun_epipe(void)
{
	struct seqring_record rec[8];
	__u64 first;
	int fd = overrun_reader(5, &first);

	expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EPIPE,
		     "overrun: the next read -> EPIPE");
	close(fd);
}

static void test_overrun_resume(void)
{
	struct seqring_record rec[8];
	__u64 first;
	int fd = overrun_reader(5, &first);

	read_recs(fd, rec, ARRAY_SIZE(rec));
	expect_recs(fd, capacity > 64 ? 64 : (int)capacity, first + 5, 6,
		    "overrun: the read after EPIPE resumes at the oldest held");
	close(fd);
}

static void test_overrun_once(void)
{
	struct seqring_record rec[64];
	unsigned int got = 0, epipes = 0, reads = 0;
	__u64 first, next;
	int fd = overrun_reader(5, &first);
	int n;

	next = first + 5;
	for (;;) {
		n = read_recs(fd, rec, 7);
		if (n == -EAGAIN || ++reads > capacity + 10)
			break;
		if (n == -EPIPE) {
			epipes++;
			continue;
		}
		if (n <= 0 || rec[0].seq != next)
			break;
		got += n;
		next += n;
	}
	if (!tap_result(epipes == 1 && got == capacity && n == -EAGAIN,
			"overrun: exactly one EPIPE, then every reading held once, then EAGAIN"))
		tap_diag("expected 1 EPIPE, %u records, EAGAIN; got %u EPIPE, %u records, then %s",
			 capacity, epipes, got, res_name(n));
	close(fd);
}

static void test_partial_overrun_gap(void)
{
	struct seqring_record rec[4];
	__u64 second;
	int fd, n;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	push(1, 4);
	read_recs(fd, rec, 2);
	/* The reader is at first + 2; 'capacity' more overwrite 2 unread. */
	second = push(100, capacity);
	n = read_recs(fd, rec, 1);
	if (n == -EPIPE)
		n = read_recs(fd, rec, 1);
	if (!tap_result(n == 1 && rec[0].seq == second,
			"overrun after a partial read: EPIPE, then a gap of the missed"))
		tap_diag("expected seq %llu (a gap of 2), got %s seq %llu",
			 (unsigned long long)second, res_name(n),
			 (unsigned long long)rec[0].seq);
	close(fd);
}

static void test_clear_unread_epipe(void)
{
	struct seqring_record rec[4];
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	push(1, 3);
	clear_ring();
	expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EPIPE,
		     "CLEAR with readings unread: the next read -> EPIPE");
	close(fd);
}

static void test_clear_unread_then(void)
{
	struct seqring_record rec[4];
	__u64 first;
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	push(1, 3);
	clear_ring();
	read_recs(fd, rec, ARRAY_SIZE(rec));
	expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EAGAIN,
		     "... then EAGAIN on the empty ring");
	first = push(9, 1);
	expect_recs(fd, 1, first, 9, "... then the next reading pushed");
	close(fd);
}

static void test_clear_read_no_epipe(void)
{
	struct seqring_record rec[4];
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	push(1, 3);
	read_recs(fd, rec, ARRAY_SIZE(rec));
	clear_ring();
	expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EAGAIN,
		     "CLEAR after everything was read: no EPIPE, EAGAIN");
	close(fd);
}

/* ---- lseek ---- */

static void test_seek_end(void)
{
	struct seqring_record rec;
	off_t off;
	int fd;

	clear_ring();
	push(1, 3);
	fd = open_reader(O_NONBLOCK);
	off = lseek(fd, 0, SEEK_END);
	if (off)
		tap_diag("lseek(0, SEEK_END) returned %lld (%s)", (long long)off,
			 errname(errno));
	expect_errno(read_recs(fd, &rec, 1), EAGAIN,
		     "lseek(0, SEEK_END) skips every reading held: EAGAIN");
	close(fd);
}

static void test_seek_end_new(void)
{
	__u64 first;
	int fd;

	clear_ring();
	push(1, 3);
	fd = open_reader(O_NONBLOCK);
	lseek(fd, 0, SEEK_END);
	first = push(40, 2);
	expect_recs(fd, 2, first, 40,
		    "after lseek(0, SEEK_END) only the readings pushed later are read");
	close(fd);
}

static void test_seek_set(void)
{
	struct seqring_record rec[8];
	__u64 first;
	off_t off;
	int fd;

	clear_ring();
	first = push(1, 5);
	fd = open_reader(O_NONBLOCK);
	read_recs(fd, rec, ARRAY_SIZE(rec));
	off = lseek(fd, 0, SEEK_SET);
	if (off)
		tap_diag("lseek(0, SEEK_SET) returned %lld (%s)", (long long)off,
			 errname(errno));
	expect_recs(fd, 5, first, 1,
		    "lseek(0, SEEK_SET) goes back to the oldest reading held");
	close(fd);
}

static void test_seek_returns_zero(void)
{
	off_t a, b;
	int fd;

	clear_ring();
	push(1, 5);
	fd = open_reader(O_NONBLOCK);
	a = lseek(fd, 0, SEEK_END);
	b = lseek(fd, 0, SEEK_SET);
	if (!tap_result(a == 0 && b == 0,
			"lseek(0, SEEK_END) and lseek(0, SEEK_SET) return 0"))
		tap_diag("expected 0 and 0, got %lld and %lld",
			 (long long)a, (long long)b);
	close(fd);
}

static void test_seek_clears_epipe(void)
{
	struct seqring_record rec;
	__u64 first;
	int fd = overrun_reader(5, &first);

	lseek(fd, 0, SEEK_END);
	expect_errno(read_recs(fd, &rec, 1), EAGAIN,
		     "overrun, then lseek(0, SEEK_END): no EPIPE, EAGAIN");
	close(fd);
}

static const struct {
	off_t off;
	int whence;
	const char *desc;
} bad_seek_cases[] = {
	{ 0, SEEK_CUR, "lseek(0, SEEK_CUR) -> EINVAL" },
	{ REC, SEEK_SET, "lseek(48, SEEK_SET) -> EINVAL" },
	{ -(off_t)REC, SEEK_END, "lseek(-48, SEEK_END) -> EINVAL" },
	{ 0, SEEK_DATA, "lseek(0, SEEK_DATA) -> EINVAL" },
};

static void test_bad_seeks(void)
{
	off_t ret;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad_seek_cases); i++) {
		fd = open_reader(O_NONBLOCK);
		ret = lseek(fd, bad_seek_cases[i].off, bad_seek_cases[i].whence);
		expect_errno(ret < 0 ? -errno : (int)ret, EINVAL,
			     bad_seek_cases[i].desc);
		close(fd);
	}
}

static void test_bad_seek_no_effect(void)
{
	struct seqring_record rec[8];
	__u64 first;
	int fd;

	clear_ring();
	first = push(1, 4);
	fd = open_reader(O_NONBLOCK);
	read_recs(fd, rec, 2);
	lseek(fd, 0, SEEK_CUR);
	lseek(fd, 1, SEEK_SET);
	expect_recs(fd, 2, first + 2, 3,
		    "refused seeks leave the cursor where it was");
	close(fd);
}

static void test_pread(void)
{
	struct seqring_record rec;
	ssize_t n;
	int fd;

	clear_ring();
	push(1, 2);
	fd = open_reader(O_NONBLOCK);
	n = pread(fd, &rec, REC, 0);
	expect_errno(n < 0 ? -errno : (int)n, ESPIPE, "pread -> ESPIPE");
	close(fd);
}

/* ---- poll ---- */

/*
 * What poll() must report on a file opened on an empty ring, with wake-up
 * threshold @wakeup (0: the default), after @push readings were pushed
 * (@push more than the ring holds, with @overrun) and one read() of up to
 * @read records (0: none) was made.
 */
struct poll_case {
	const char *desc;
	__u32 wakeup;
	bool overrun;
	unsigned int push;
	unsigned int read;
	short want;
};

static void expect_poll_cases(const struct poll_case *c, size_t n)
{
	struct seqring_record rec[8];
	unsigned int count;
	size_t i;
	int fd;

	for (i = 0; i < n; i++, c++) {
		clear_ring();
		fd = open_reader(O_NONBLOCK);
		if (c->wakeup)
			set_u32(fd, SEQRING_IOC_SET_WAKEUP, c->wakeup);
		count = c->push + (c->overrun ? capacity : 0);
		if (count)
			push(1, count);
		if (c->read)
			read_recs(fd, rec, c->read);
		expect_poll(fd, c->want, c->desc);
		close(fd);
	}
}

static const struct poll_case poll_cases[] = {
	{ .desc = "poll, nothing unread: no event", .want = 0 },
	{ .desc = "poll, a reading unread: POLLIN | POLLRDNORM",
	  .push = 1, .want = POLLIN | POLLRDNORM },
	{ .desc = "poll, everything read: no event",
	  .push = 2, .read = 4, .want = 0 },
	{ .desc = "poll after an overrun: POLLIN | POLLRDNORM | POLLERR | POLLPRI",
	  .overrun = true, .push = 2,
	  .want = POLLIN | POLLRDNORM | POLLERR | POLLPRI },
	{ .desc = "poll after the EPIPE was read: POLLIN | POLLRDNORM only",
	  .overrun = true, .push = 2, .read = 1, .want = POLLIN | POLLRDNORM },
};

static void test_poll(void)
{
	expect_poll_cases(poll_cases, ARRAY_SIZE(poll_cases));
}

/* ---- SET_WAKEUP ---- */

/*
 * SET_WAKEUP or SET_CAPACITY with the value @val (capacity + @val with
 * @cap_plus) or, with @null_arg, a NULL argument; on a new O_RDONLY file
 * or, with @writer, on fd_w. It must fail with @want, or succeed if @want
 * is 0.
 */
struct set_case {
	const char *desc;
	unsigned long cmd;
	bool writer;
	bool null_arg;
	bool cap_plus;
	__u32 val;
	int want;
};

static void expect_set_cases(const struct set_case *c, size_t n)
{
	size_t i;
	int fd, ret;

	for (i = 0; i < n; i++, c++) {
		fd = c->writer ? fd_w : open_reader(O_NONBLOCK);
		if (c->null_arg)
			ret = ioctl(fd, c->cmd, NULL) ? -errno : 0;
		else
			ret = set_u32(fd, c->cmd,
				      c->val + (c->cap_plus ? capacity : 0));
		if (c->want)
			expect_errno(ret, c->want, c->desc);
		else if (!tap_result(!ret, "%s", c->desc))
			tap_diag("expected success, got %s", errname(-ret));
		if (!c->writer)
			close(fd);
	}
}

static const struct set_case wakeup_cases[] = {
	{ .desc = "SET_WAKEUP 0 -> EINVAL",
	  .cmd = SEQRING_IOC_SET_WAKEUP, .val = 0, .want = EINVAL },
	{ .desc = "SET_WAKEUP capacity + 1 -> EINVAL",
	  .cmd = SEQRING_IOC_SET_WAKEUP, .cap_plus = true, .val = 1,
	  .want = EINVAL },
	{ .desc = "SET_WAKEUP capacity succeeds",
	  .cmd = SEQRING_IOC_SET_WAKEUP, .cap_plus = true, .val = 0 },
	{ .desc = "SET_WAKEUP with a NULL argument -> EFAULT",
	  .cmd = SEQRING_IOC_SET_WAKEUP, .null_arg = true, .want = EFAULT },
};

static void test_wakeup_args(void)
{
	expect_set_cases(wakeup_cases, ARRAY_SIZE(wakeup_cases));
}

static const struct poll_case wakeup_poll_cases[] = {
	{ .desc = "SET_WAKEUP 3, 2 unread: poll reports no event",
	  .wakeup = 3, .push = 2, .want = 0 },
	{ .desc = "SET_WAKEUP 3, 3 unread: POLLIN | POLLRDNORM",
	  .wakeup = 3, .push = 3, .want = POLLIN | POLLRDNORM },
};

static void test_wakeup_poll(void)
{
	expect_poll_cases(wakeup_poll_cases, ARRAY_SIZE(wakeup_poll_cases));
}

static void test_wakeup_other_file(void)
{
	int a, b;

	clear_ring();
	a = open_reader(O_NONBLOCK);
	b = open_reader(O_NONBLOCK);
	set_u32(a, SEQRING_IOC_SET_WAKEUP, 3);
	push(1, 1);
	expect_poll(b, POLLIN | POLLRDNORM,
		    "SET_WAKEUP on one file leaves another at 1");
	close(b);
	close(a);
}

static void test_wakeup_nonblock_reads(void)
{
	__u64 first;
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	set_u32(fd, SEQRING_IOC_SET_WAKEUP, 3);
	first = push(1, 2);
	expect_recs(fd, 2, first, 1,
		    "SET_WAKEUP 3, 2 unread: an O_NONBLOCK read returns the 2");
	close(fd);
}

/* ---- a blocked read(), poll() or epoll_wait() ---- */

/*
 * A child blocked in @op on a file opened on an empty ring, with wake-up
 * threshold @wakeup (0: the default). @behind readings more than the ring
 * holds are pushed before the child starts, which must then not block.
 * Once it sleeps, the child gets SIGUSR1 (with @signal), then @early
 * pushes of one reading each that must leave it asleep, then a push of
 * @count readings (capacity + @count with @overrun) that must wake it. It
 * must report the error @want_err; or, from a read, every reading pushed
 * since it started; or, from a poll or epoll_wait, the event @want_ev.
 */
struct wake_case {
	const char *desc;
	enum child_op op;
	__u32 wakeup;
	unsigned int behind;
	bool signal;
	unsigned int early;
	unsigned int count;
	bool overrun;
	int want_err;
	short want_ev;
};

static bool op_reads(enum child_op op)
{
	return op == OP_READ || op == OP_READ_SIGINT;
}

/* What a child reported, for a diagnostic. */
static const char *child_res_name(enum child_op op, const struct child_res *res)
{
	static char buf[96];

	if (res->ret < 0 || !op_reads(op))
		return res->ret < 0 ? errname(-res->ret) : poll_name(res->ret);
	snprintf(buf, sizeof(buf), "%s from seq %llu", res_name(res->ret),
		 (unsigned long long)res->first_seq);
	return buf;
}

static void expect_wake(const struct wake_case *c)
{
	unsigned int count = c->count + (c->overrun ? capacity : 0);
	unsigned int i, n = c->early + count;
	struct child_res res;
	struct child ch;
	char want[96];
	__u64 first;
	bool pass;
	int fd;

	clear_ring();
	fd = open_reader(0);
	if (c->wakeup)
		set_u32(fd, SEQRING_IOC_SET_WAKEUP, c->wakeup);
	if (c->behind)
		push(1, capacity + c->behind);
	/* The sequence number the first reading pushed from here on gets. */
	first = get_stats().total + 1;
	if (c->want_err)
		snprintf(want, sizeof(want), "%s", errname(c->want_err));
	else if (op_reads(c->op))
		snprintf(want, sizeof(want), "%u records from seq %llu", n,
			 (unsigned long long)first);
	else
		snprintf(want, sizeof(want), "%s", poll_name(c->want_ev));
	child_start(&ch, fd, c->op);
	if ((n || c->signal) && !child_sleeping(&ch, CHILD_TIMEOUT_MS))
		tap_diag("the waiting child is not asleep");
	if (c->signal)
		kill(ch.pid, SIGUSR1);
	for (i = 0; i < c->early; i++)
		push(1 + i, 1);
	if (count && (c->early || c->signal) &&
	    child_result(&ch, STILL_BLOCKED_MS, &res)) {
		tap_result(false, "%s", c->desc);
		tap_diag("expected no answer yet, got %s",
			 child_res_name(c->op, &res));
		goto out;
	}
	if (count)
		push(1 + c->early, count);
	if (!child_result(&ch, CHILD_TIMEOUT_MS, &res)) {
		tap_result(false, "%s", c->desc);
		tap_diag("expected %s within %d ms, got nothing", want,
			 CHILD_TIMEOUT_MS);
		goto out;
	}
	if (c->want_err)
		pass = res.ret == -c->want_err;
	else if (op_reads(c->op))
		pass = res.ret == (int)n && res.first_seq == first;
	else
		pass = res.ret > 0 && (res.ret & c->want_ev);
	if (!tap_result(pass, "%s", c->desc))
		tap_diag("expected %s, got %s", want,
			 child_res_name(c->op, &res));
out:
	child_end(&ch);
	close(fd);
}

static const struct wake_case wake_cases[] = {
	{ .desc = "overrun: a blocking read returns EPIPE at once",
	  .op = OP_READ, .behind = 3, .want_err = EPIPE },
	{ .desc = "a blocked poll wakes on a push with POLLIN",
	  .op = OP_POLL, .count = 1, .want_ev = POLLIN },
	/*
	 * epoll hands a wake-up only to waiters that asked for one of its
	 * bits: one waiting for EPOLLPRI alone must be woken by the push
	 * that overruns it.
	 */
	{ .desc = "an epoll waiter for EPOLLPRI alone wakes on an overrun",
	  .op = OP_EPOLL_PRI, .count = 1, .overrun = true,
	  .want_ev = EPOLLPRI },
	{ .desc = "SET_WAKEUP 3: a blocked read sleeps through 2 pushes, gets 3 after a third",
	  .op = OP_READ, .wakeup = 3, .early = 2, .count = 1 },
	{ .desc = "SET_WAKEUP 2: a blocked poll stays asleep after 1 push, wakes after the second",
	  .op = OP_POLL, .wakeup = 2, .early = 1, .count = 1,
	  .want_ev = POLLIN },
	{ .desc = "a blocked read wakes on a push and returns it",
	  .op = OP_READ, .count = 1 },
	{ .desc = "a blocked read is woken by a signal: EINTR",
	  .op = OP_READ_SIGINT, .signal = true, .want_err = EINTR },
	{ .desc = "a signal with SA_RESTART restarts a blocked read, which returns the next push",
	  .op = OP_READ, .signal = true, .count = 1 },
};

static void test_wakes(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wake_cases); i++)
		expect_wake(&wake_cases[i]);
}

/* ---- SET_CAPACITY ---- */

static void test_capacity_eperm(void)
{
	const char *desc = "SET_CAPACITY without CAP_SYS_ADMIN -> EPERM";
	int status, ret;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", errname(errno));
	if (!pid) {
		if (drop_cap_sys_admin())
			_exit(255);
		ret = set_u32(fd_w, SEQRING_IOC_SET_CAPACITY, capacity * 2);
		_exit(ret ? -ret : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255) {
		tap_result(false, "%s", desc);
		tap_diag("the child could not drop CAP_SYS_ADMIN or died");
		return;
	}
	expect_errno(-WEXITSTATUS(status), EPERM, desc);
}

static void test_capacity_eperm_no_effect(void)
{
	expect_u64(capacity, get_stats().capacity,
		   "... and the capacity is unchanged");
}

static const struct set_case capacity_cases[] = {
	{ .desc = "SET_CAPACITY 0 -> EINVAL",
	  .cmd = SEQRING_IOC_SET_CAPACITY, .writer = true, .val = 0,
	  .want = EINVAL },
	{ .desc = "SET_CAPACITY SEQRING_CAPACITY_MAX + 1 -> EINVAL",
	  .cmd = SEQRING_IOC_SET_CAPACITY, .writer = true,
	  .val = SEQRING_CAPACITY_MAX + 1, .want = EINVAL },
	{ .desc = "SET_CAPACITY with a NULL argument -> EFAULT",
	  .cmd = SEQRING_IOC_SET_CAPACITY, .writer = true, .null_arg = true,
	  .want = EFAULT },
	{ .desc = "SET_CAPACITY works on an O_RDONLY file (the cap counts)",
	  .cmd = SEQRING_IOC_SET_CAPACITY, .cap_plus = true, .val = 0 },
};

static void test_capacity_args(void)
{
	expect_set_cases(capacity_cases, ARRAY_SIZE(capacity_cases));
}

static void test_capacity_einval_no_effect(void)
{
	expect_u64(capacity, get_stats().capacity,
		   "... and the refused sizes left the capacity unchanged");
}

static bool stats_add_up(const struct seqring_stats *s)
{
	return s->total == s->count + s->dropped + s->cleared;
}

static void test_shrink_counts(void)
{
	struct seqring_stats before, after;

	clear_ring();
	push(1, 10);
	before = get_stats();
	set_capacity(4);
	after = get_stats();
	if (!tap_result(after.capacity == 4 && after.count == 4 &&
			after.total == before.total &&
			after.dropped == before.dropped + 6 &&
			after.oldest_seq == before.newest_seq - 3 &&
			after.newest_seq == before.newest_seq &&
			stats_add_up(&after),
			"shrink 10 readings to capacity 4: 6 oldest dropped, stats add up")) {
		tap_diag("expected cap 4 count 4 total %llu dropped %llu oldest %llu",
			 (unsigned long long)before.total,
			 (unsigned long long)before.dropped + 6,
			 (unsigned long long)before.newest_seq - 3);
		tap_diag("got cap %llu count %llu total %llu dropped %llu oldest %llu",
			 (unsigned long long)after.capacity,
			 (unsigned long long)after.count,
			 (unsigned long long)after.total,
			 (unsigned long long)after.dropped,
			 (unsigned long long)after.oldest_seq);
	}
	set_capacity(capacity);
}

/*
 * A reader of 10 readings when the ring shrinks to capacity 4: opened
 * before the pushes (@before) and having read @read of them, or opened
 * after the shrink. It gets EPIPE first if @epipe describes that test,
 * then the @n readings after the first @skip, as pushed.
 */
static const struct {
	const char *epipe;
	const char *desc;
	bool before;
	unsigned int read;
	int n;
	unsigned int skip;
} shrink_cases[] = {
	{ NULL, "after the shrink the newest 4 readings are held, unchanged",
	  false, 0, 4, 6 },
	{ "a reader behind the readings a shrink dropped gets EPIPE",
	  "... then the 4 readings kept", true, 0, 4, 6 },
	{ NULL, "a reader past the readings a shrink dropped goes on without EPIPE",
	  true, 7, 3, 7 },
};

static void test_shrink_readers(void)
{
	struct seqring_record rec[8];
	__u64 first;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(shrink_cases); i++) {
		clear_ring();
		fd = shrink_cases[i].before ? open_reader(O_NONBLOCK) : -1;
		first = push(1, 10);
		if (shrink_cases[i].read)
			read_recs(fd, rec, shrink_cases[i].read);
		set_capacity(4);
		if (fd < 0)
			fd = open_reader(O_NONBLOCK);
		if (shrink_cases[i].epipe)
			expect_errno(read_recs(fd, rec, ARRAY_SIZE(rec)), EPIPE,
				     shrink_cases[i].epipe);
		expect_recs(fd, shrink_cases[i].n,
			    first + shrink_cases[i].skip,
			    1 + shrink_cases[i].skip, shrink_cases[i].desc);
		close(fd);
		set_capacity(capacity);
	}
}

static void test_grow_keeps_all(void)
{
	struct seqring_stats before, after;
	__u64 first;
	int fd;

	clear_ring();
	first = push(1, capacity);
	before = get_stats();
	set_capacity(capacity * 2);
	after = get_stats();
	fd = open_reader(O_NONBLOCK);
	if (!tap_result(after.capacity == capacity * 2 &&
			after.count == capacity &&
			after.dropped == before.dropped && stats_add_up(&after),
			"grow a full ring to twice its size: every reading kept, nothing dropped"))
		tap_diag("expected capacity %u count %u dropped %llu, got %llu %llu %llu",
			 capacity * 2, capacity,
			 (unsigned long long)before.dropped,
			 (unsigned long long)after.capacity,
			 (unsigned long long)after.count,
			 (unsigned long long)after.dropped);
	expect_recs(fd, capacity > 64 ? 64 : (int)capacity, first, 1,
		    "... and they read back in order, unchanged");
	close(fd);
	set_capacity(capacity);
}

static void test_grow_then_fill(void)
{
	struct seqring_stats before, after;

	clear_ring();
	push(1, capacity);
	set_capacity(capacity * 2);
	before = get_stats();
	push(1000, capacity);
	after = get_stats();
	if (!tap_result(after.count == 2 * (__u64)capacity &&
			after.dropped == before.dropped,
			"after growing, the ring holds twice as many before it drops"))
		tap_diag("expected count %u dropped %llu, got %llu %llu",
			 2 * capacity, (unsigned long long)before.dropped,
			 (unsigned long long)after.count,
			 (unsigned long long)after.dropped);
	set_capacity(capacity);
}

static void test_resize_same(void)
{
	struct seqring_stats before, after;

	clear_ring();
	push(1, 5);
	before = get_stats();
	set_capacity(capacity);
	after = get_stats();
	if (!tap_result(!memcmp(&before, &after, sizeof(before)),
			"SET_CAPACITY to the current capacity changes nothing"))
		tap_diag("count %llu -> %llu, dropped %llu -> %llu",
			 (unsigned long long)before.count,
			 (unsigned long long)after.count,
			 (unsigned long long)before.dropped,
			 (unsigned long long)after.dropped);
}

static void test_resize_seq_goes_on(void)
{
	__u64 before, first;
	int fd;

	clear_ring();
	push(1, 5);
	before = get_stats().total;
	set_capacity(3);
	set_capacity(capacity);
	fd = open_reader(O_NONBLOCK);
	lseek(fd, 0, SEEK_END);
	first = push(77, 1);
	if (!tap_result(first == before + 1,
			"sequence numbers go on across a resize"))
		tap_diag("expected seq %llu, got %llu",
			 (unsigned long long)before + 1,
			 (unsigned long long)first);
	close(fd);
}

static void test_wakeup_after_shrink(void)
{
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	set_u32(fd, SEQRING_IOC_SET_WAKEUP, capacity);
	set_capacity(4);
	push(1, 4);
	expect_poll(fd, POLLIN | POLLRDNORM,
		    "a wake-up threshold above a shrunk capacity wakes when the ring is full");
	close(fd);
	set_capacity(capacity);
}

/* ---- every file a consumer of its own (wake-ups) ---- */

/*
 * Two files, each waited on by an exclusive epoll waiter of its own: a
 * push wakes both. EPOLLEXCLUSIVE shares a wake-up only among the waiters
 * of one file; files that shared a wait queue took turns.
 */
static void test_exclusive_files_all_woken(void)
{
	const char *desc =
		"a push wakes the EPOLLEXCLUSIVE waiters of two files, one each";
	struct child_res res[2];
	struct child c[2];
	int fd[2], i, woken = 0;

	clear_ring();
	for (i = 0; i < 2; i++) {
		fd[i] = open_reader(0);
		child_start(&c[i], fd[i], OP_EPOLL_EXCL);
	}
	for (i = 0; i < 2; i++)
		child_sleeping(&c[i], CHILD_TIMEOUT_MS);
	push(1, 1);
	for (i = 0; i < 2; i++)
		woken += child_result(&c[i], CHILD_TIMEOUT_MS, &res[i]) &&
			 res[i].ret > 0 && (res[i].ret & EPOLLIN);
	if (!tap_result(woken == 2, "%s", desc))
		tap_diag("expected 2 waiters woken with EPOLLIN, got %d", woken);
	for (i = 0; i < 2; i++) {
		child_end(&c[i]);
		close(fd[i]);
	}
}

/* voluntary_ctxt_switches of @pid: how often it went to sleep. */
static long ctxt_switches(pid_t pid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * The child's context switches once it sleeps where it waits: asleep, and
 * no switch for 100 ms (on its way there, a slow kernel may put it to
 * sleep for a moment elsewhere). -1 if it never settles.
 */
static long settled_switches(struct child *c)
{
	long long end = now_ms() + CHILD_TIMEOUT_MS;
	long n, prev = -1;

	do {
		child_sleeping(c, CHILD_TIMEOUT_MS);
		n = ctxt_switches(c->pid);
		if (n >= 0 && n == prev)
			return n;
		prev = n;
		usleep(100000);
	} while (now_ms() < end);
	return -1;
}

/*
 * A waiter with a threshold of the whole capacity sleeps through the
 * capacity - 1 pushes below it: the threshold is checked by the pusher,
 * so the waiter is not woken to check it for itself (each such wake-up
 * is a voluntary context switch of the waiter).
 */
static void expect_sleeps_through(enum child_op op, const char *desc)
{
	struct child_res res;
	long before, after;
	struct child c;
	unsigned int i;
	int fd;

	clear_ring();
	fd = open_reader(0);
	set_u32(fd, SEQRING_IOC_SET_WAKEUP, capacity);
	child_start(&c, fd, op);
	before = settled_switches(&c);
	for (i = 0; i < capacity - 1; i++)
		push(i, 1);
	after = settled_switches(&c);
	if (child_result(&c, 0, &res)) {
		tap_result(false, "%s", desc);
		tap_diag("expected no answer below the threshold, got %s",
			 res_name(res.ret));
	} else if (!tap_result(before >= 0 && after == before, "%s", desc)) {
		tap_diag("expected 0 wake-ups over %u pushes, got %ld",
			 capacity - 1, after - before);
	}
	child_end(&c);
	close(fd);
}

static const struct {
	enum child_op op;
	const char *desc;
} sleeps_through_cases[] = {
	{ OP_READ, "SET_WAKEUP capacity: a blocked read is not woken by the pushes below it" },
	{ OP_POLL, "SET_WAKEUP capacity: a blocked poll is not woken by the pushes below it" },
};

static void test_wakeup_not_woken_below(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sleeps_through_cases); i++)
		expect_sleeps_through(sleeps_through_cases[i].op,
				      sleeps_through_cases[i].desc);
}

/*
 * The first poll() of a file registers it for wake-ups without sleeping
 * (it used to wait for an RCU grace period).
 */
static void test_first_poll_no_sleep(void)
{
	struct rusage a, b;
	int fd;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	getrusage(RUSAGE_THREAD, &a);
	poll_now(fd);
	getrusage(RUSAGE_THREAD, &b);
	if (!tap_result(b.ru_nvcsw == a.ru_nvcsw,
			"the first poll() of a file does not sleep"))
		tap_diag("expected 0 voluntary context switches, got %ld",
			 b.ru_nvcsw - a.ru_nvcsw);
	close(fd);
}

/* ---- a blocked read() holds nothing the file's other users need ---- */

/*
 * What another user of a file does while a read() of it is blocked, in a
 * forked child (which shares the open file, as a thread would): it must
 * return at once, not wait for the blocked reader.
 */
static const struct {
	enum child_op op;
	int want;
	const char *desc;
} beside_blocked[] = {
	{ OP_SEEK_END, 0,
	  "lseek(SEEK_END) returns while a read() of the same file is blocked" },
	{ OP_READ_NONBLOCK, -EAGAIN,
	  "an O_NONBLOCK read gets EAGAIN while a read() of the same file is blocked" },
};

static void test_beside_blocked_read(void)
{
	struct child_res res;
	struct child r, s;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(beside_blocked); i++) {
		clear_ring();
		fd = open_reader(0);
		child_start(&r, fd, OP_READ);
		child_sleeping(&r, CHILD_TIMEOUT_MS);
		child_start(&s, fd, beside_blocked[i].op);
		if (!child_result(&s, CHILD_TIMEOUT_MS, &res)) {
			tap_result(false, "%s", beside_blocked[i].desc);
			tap_diag("expected %s, got no answer in %d ms",
				 res_name(beside_blocked[i].want),
				 CHILD_TIMEOUT_MS);
		} else if (!tap_result(res.ret == beside_blocked[i].want, "%s",
				       beside_blocked[i].desc)) {
			tap_diag("expected %s, got %s",
				 res_name(beside_blocked[i].want),
				 res_name(res.ret));
		}
		child_end(&s);
		child_end(&r);
		close(fd);
	}
}

static void test_poll_while_read_blocked(void)
{
	struct child r;
	int fd;

	clear_ring();
	fd = open_reader(0);
	child_start(&r, fd, OP_READ);
	child_sleeping(&r, CHILD_TIMEOUT_MS);
	expect_poll(fd, 0,
		    "poll() of a file answers at once while its read() waits");
	child_end(&r);
	close(fd);
}

/* ---- timestamps ---- */

/* Push @n readings with timestamp 0 (the driver's), as PUSH or batches. */
static void push_unstamped(int fd, unsigned int n, bool batches)
{
	struct seqring_reading r[4];
	struct seqring_batch b;
	unsigned int i;

	memset(r, 0, sizeof(r));
	for (i = 0; i < ARRAY_SIZE(r); i++)
		r[i].channel = CHANNEL;
	memset(&b, 0, sizeof(b));
	b.readings = (__u64)(uintptr_t)r;
	b.count = ARRAY_SIZE(r);
	/*
	 * ENOBUFS goes on: in a ring of 16, a producer held off its CPU by
	 * the host inside its section leaves the other no free slot for a
	 * while (counted lost); the readings stored are what is checked.
	 */
	for (i = 0; i < n; i++) {
		if ((batches ? ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b) :
			       ioctl(fd, SEQRING_IOC_PUSH, r)) &&
		    errno != ENOBUFS)
			_exit(1);
	}
}

/* Is @rec, read after @prev, stamped earlier? Says so once if @say. */
static bool stamp_decreases(const struct seqring_record *prev,
			    const struct seqring_record *rec, bool say)
{
	if (rec->reading.timestamp_ns >= prev->reading.timestamp_ns)
		return false;
	if (say)
		tap_diag("seq %llu has %llu ns, seq %llu before it %llu ns",
			 (unsigned long long)rec->seq,
			 (unsigned long long)rec->reading.timestamp_ns,
			 (unsigned long long)prev->seq,
			 (unsigned long long)prev->reading.timestamp_ns);
	return true;
}

/*
 * Two producers push readings that the driver stamps; a reader follows.
 * Along sequence numbers, the driver's timestamps never decrease: the
 * time is taken when the sequence number is.
 */
static void test_stamps_in_seq_order(void)
{
	const char *desc =
		"driver-stamped times never decrease along seq with two producers";
	struct seqring_record rec[64], last = { 0 };
	unsigned long long pairs = 0, bad = 0;
	pid_t pid[2];
	int fd, i, n, k, live = 2;

	clear_ring();
	fd = open_reader(O_NONBLOCK);
	fflush(stdout);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			tap_bail("fork: %s", errname(errno));
		if (!pid[i]) {
			int w = open(dev_path, O_WRONLY);

			if (w < 0)
				_exit(1);
			push_unstamped(w, 3000, i);
			_exit(0);
		}
	}
	while (live) {
		n = read_recs(fd, rec, ARRAY_SIZE(rec));
		for (k = 0; k < n; k++) {
			if (last.seq) {
				pairs++;
				bad += stamp_decreases(&last, &rec[k], !bad);
			}
			last = rec[k];
		}
		if (n == -EAGAIN && waitpid(-1, NULL, WNOHANG) > 0)
			live--;
	}
	if (!tap_result(pairs > 0 && !bad, "%s", desc)) {
		struct seqring_stats st = get_stats();

		tap_diag("expected 0 decreases, got %llu in %llu pairs", bad,
			 pairs);
		tap_diag("the ring: total %llu, lost %llu, count %llu",
			 (unsigned long long)st.total,
			 (unsigned long long)st.lost,
			 (unsigned long long)st.count);
	}
	close(fd);
}

/* ---- the capacity module parameter ---- */

static void test_param_follows_resize(void)
{
	const char *path = "/sys/module/seqring/parameters/capacity";
	unsigned long got = 0;
	FILE *f;

	set_capacity(capacity + 1);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lu", &got) != 1)
			got = 0;
		fclose(f);
	}
	if (!tap_result(got == capacity + 1,
			"the capacity module parameter shows the capacity after a resize"))
		tap_diag("expected %u in %s, got %lu", capacity + 1, path, got);
	set_capacity(capacity);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_empty_eagain),
	{ test_short_buffers, ARRAY_SIZE(short_read_cases) },
	TAP_TEST(test_short_buffer_no_effect),
	TAP_TEST(test_from_oldest),
	TAP_TEST(test_from_oldest_wrapped),
	TAP_TEST(test_whole_records),
	TAP_TEST(test_no_more_than_held),
	TAP_TEST(test_cursor_advances),
	TAP_TEST(test_consumed_eagain),
	TAP_TEST(test_new_after_consumed),
	TAP_TEST(test_independent),
	TAP_TEST(test_label_zeroed),
	TAP_TEST(test_timestamp_stamped),
	TAP_TEST(test_efault),
	TAP_TEST(test_efault_no_effect),
	TAP_TEST(test_wronly_ebadf),
	TAP_TEST(test_overrun_epipe),
	TAP_TEST(test_overrun_resume),
	TAP_TEST(test_overrun_once),
	TAP_TEST(test_partial_overrun_gap),
	TAP_TEST(test_clear_unread_epipe),
	{ test_clear_unread_then, 2 },
	TAP_TEST(test_clear_read_no_epipe),
	TAP_TEST(test_seek_end),
	TAP_TEST(test_seek_end_new),
	TAP_TEST(test_seek_set),
	TAP_TEST(test_seek_returns_zero),
	TAP_TEST(test_seek_clears_epipe),
	{ test_bad_seeks, ARRAY_SIZE(bad_seek_cases) },
	TAP_TEST(test_bad_seek_no_effect),
	TAP_TEST(test_pread),
	{ test_poll, ARRAY_SIZE(poll_cases) },
	{ test_wakeup_args, ARRAY_SIZE(wakeup_cases) },
	{ test_wakeup_poll, ARRAY_SIZE(wakeup_poll_cases) },
	TAP_TEST(test_wakeup_other_file),
	TAP_TEST(test_wakeup_nonblock_reads),
	{ test_wakes, ARRAY_SIZE(wake_cases) },
	TAP_TEST(test_capacity_eperm),
	TAP_TEST(test_capacity_eperm_no_effect),
	{ test_capacity_args, ARRAY_SIZE(capacity_cases) },
	TAP_TEST(test_capacity_einval_no_effect),
	TAP_TEST(test_shrink_counts),
	/* One more: the EPIPE of the reader behind the shrink. */
	{ test_shrink_readers, ARRAY_SIZE(shrink_cases) + 1 },
	{ test_grow_keeps_all, 2 },
	TAP_TEST(test_grow_then_fill),
	TAP_TEST(test_resize_same),
	TAP_TEST(test_resize_seq_goes_on),
	TAP_TEST(test_wakeup_after_shrink),
	TAP_TEST(test_exclusive_files_all_woken),
	{ test_wakeup_not_woken_below, ARRAY_SIZE(sleeps_through_cases) },
	TAP_TEST(test_first_poll_no_sleep),
	{ test_beside_blocked_read, ARRAY_SIZE(beside_blocked) },
	TAP_TEST(test_poll_while_read_blocked),
	TAP_TEST(test_stamps_in_seq_order),
	TAP_TEST(test_param_follows_resize),
};

int main(int argc, char **argv)
{
	struct seqring_stats st;
	unsigned int i;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: %s [DEVICE]\n", argv[0]);
		return 2;
	}
	if (argc == 2)
		dev_path = argv[1];
	tap_diag("stream ABI test, %zu-bit userspace, device %s",
		 sizeof(void *) * 8, dev_path);
	tap_plan_tests(tests, ARRAY_SIZE(tests));
	fd_w = open(dev_path, O_WRONLY);
	if (fd_w < 0)
		tap_bail("open(%s, O_WRONLY): %s", dev_path, errname(errno));
	st = get_stats();
	if (st.capacity < 16 || st.capacity > 4096)
		tap_bail("the module's capacity %llu is not in 16..4096",
			 (unsigned long long)st.capacity);
	capacity = (__u32)st.capacity;
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i].run();
	close(fd_w);
	return tap_finish();
}
