// SPDX-License-Identifier: GPL-2.0
/*
 * starve - a producer starved in the middle of a batch must not hide the
 * pushes of another CPU (issue 23: a reading's visibility never depends on
 * another task being scheduled)
 *
 * Usage: starve [-c CGROUP] [-t SECONDS] [-l LIMIT_MS] [DEV]
 *
 * The adversary, on CPU 1: a process that loops on PUSH_BATCH of
 * SEQRING_BATCH_MAX readings and is kept off the CPU most of the time,
 * either by SCHED_IDLE beside a busy loop (SCHED_OTHER) on the same CPU
 * (default), or, with -c, by the cgroup v2 group CGROUP, whose cpu.max this
 * program sets to THROTTLE_QUOTA_US every THROTTLE_PERIOD_US (the group
 * must exist with the cpu controller; the caller removes it). The scheduler
 * then stops it wherever in a batch the kernel lets it go. Starved all the
 * time, it gets so little CPU that in a few seconds it may not even get
 * through copying its first batch in; so it is let run FREE_MS out of every
 * CYCLE_MS (the busy loop stopped, or the throttle lifted), and starved
 * again at whatever point of its batch it has then reached: inside the
 * store of the batch for most of a batch's time.
 *
 * The probe, on CPU 0: for SECONDS (default 3) it pushes one reading every
 * millisecond (channel PROBE_CHANNEL, label "probe") with SEQRING_IOC_PUSH,
 * and between pushes reads the counters (SEQRING_IOC_GET_STATS) every
 * POLL_US, noting when @total (the newest sequence number published)
 * changes. PUSH does not return the sequence number a reading got; the
 * seqring_push trace event, filtered to the probe's channel, tells it: it
 * fires when the reading is stored, before PUSH returns. A probe reading
 * is visible once @total reaches its sequence number; its gap is the time
 * from its PUSH returning to the first GET_STATS that shows it. Reading
 * the stream instead would cost the probe's CPU the copy of every batch.
 *
 * Results (TAP): the adversary looped on PUSH_BATCH during the run (else
 * the test proved nothing); every probe reading became visible once the
 * adversary was stopped; the longest gap is at most LIMIT_MS (default 50,
 * the target under TCG), reported as "# longest visibility gap: N us"
 * either way. Without the trace event (no tracefs) all three skip.
 *
 * Nothing waits unbounded: the run is SECONDS, the wait for late probes
 * LATE_WAIT_MS with the adversary still starved, then the adversary is
 * stopped (throttle lifted, busy loop killed, batcher killed: it dies when
 * its batch returns) and the rest is awaited for REAP_WAIT_MS. An alarm
 * kills the children and ends the program if that ever fails, and the
 * children die with it (PR_SET_PDEATHSIG) on any path.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

#define ADVERSARY_CPU		1
#define PROBE_CPU		0
#define BATCH_CHANNEL		1
#define PROBE_CHANNEL		2
#define PROBE_PERIOD_US		1000
#define POLL_US			100
/* 1 ms of CPU a second: a batch takes many periods to store. */
#define THROTTLE_QUOTA_US	1000
#define THROTTLE_PERIOD_US	1000000
/* The adversary runs freely FREE_MS out of every CYCLE_MS. */
#define FREE_MS			20
#define CYCLE_MS		500
/* How long the adversary, running freely, may take for its first batch. */
#define START_WAIT_MS		10000
/* Probes still unseen after the run: awaited with the adversary running. */
#define LATE_WAIT_MS		1000
/* And after it was stopped, for its last batch to return. */
#define REAP_WAIT_MS		20000

/*
 * Written by the batcher, read by the probe: how far the adversary got.
 * Shared memory between processes: __atomic_*() on every access.
 */
struct adversary_state {
	unsigned long batches_started;
	unsigned long batches_done;
	unsigned long error;
};

static struct adversary_state *adv;

static unsigned long adv_get(const unsigned long *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static void adv_set(unsigned long *v, unsigned long val)
{
	__atomic_store_n(v, val, __ATOMIC_RELAXED);
}

static pid_t hog_pid, batcher_pid;
static const char *cgroup_dir;

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Write @s to @dir/@file. */
static int write_cg(const char *dir, const char *file, const char *s)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/* The group's cpu.max, made once: stop_adversary() runs in a handler too. */
static char cpu_max[300];

/*
 * Stop the adversary: lift the throttle first, so that a batcher stopped
 * inside a batch can finish it and die. Async-signal-safe.
 */
static void stop_adversary(void)
{
	int fd;

	if (cgroup_dir) {
		fd = open(cpu_max, O_WRONLY);
		if (fd >= 0 && write(fd, "max\n", 4) != 4)
			fd = -1;
		if (fd >= 0)
			close(fd);
	}
	if (hog_pid > 0)
		kill(hog_pid, SIGKILL);
	if (batcher_pid > 0)
		kill(batcher_pid, SIGKILL);
}

/* Let the adversary run (@free), or starve it again. */
static int adversary_free(bool free)
{
	char quota[64];

	if (!cgroup_dir)
		return kill(hog_pid, free ? SIGSTOP : SIGCONT);
	snprintf(quota, sizeof(quota), "%d %d\n", THROTTLE_QUOTA_US,
		 THROTTLE_PERIOD_US);
	return write_cg(cgroup_dir, "cpu.max", free ? "max\n" : quota);
}

static void on_alarm(int sig)
{
	static const char msg[] = "Bail out! starve: timed out; children killed\n";

	(void)sig;
	stop_adversary();
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* In a child: die with the parent, even if it died before this. */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

static void run_hog(void)
{
	if (pin_to(ADVERSARY_CPU))
		_exit(1);
	for (;;)
		;
}

static void run_batcher(const char *dev)
{
	struct seqring_reading *r;
	struct seqring_batch b = { .count = SEQRING_BATCH_MAX };
	struct sched_param sp = { 0 };
	unsigned int i;
	int fd;

	r = calloc(SEQRING_BATCH_MAX, sizeof(*r));
	fd = open(dev, O_WRONLY);
	if (!r || fd < 0 || pin_to(ADVERSARY_CPU)) {
		adv_set(&adv->error, errno);
		_exit(1);
	}
	for (i = 0; i < SEQRING_BATCH_MAX; i++) {
		r[i].value = i;
		r[i].channel = BATCH_CHANNEL;
		strcpy(r[i].label, "batch");
	}
	b.readings = (uintptr_t)r;
	if (cgroup_dir ? write_cg(cgroup_dir, "cgroup.procs", "0\n") :
			 sched_setscheduler(0, SCHED_IDLE, &sp)) {
		adv_set(&adv->error, errno);
		_exit(1);
	}
	for (;;) {
		adv_set(&adv->batches_started, adv_get(&adv->batches_started) + 1);
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b)) {
			adv_set(&adv->error, errno);
			_exit(1);
		}
		adv_set(&adv->batches_done, adv_get(&adv->batches_done) + 1);
	}
}

static pid_t spawn(void (*fn)(const char *), const char *arg)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		die_with_parent(parent);
		fn(arg);
		_exit(0);
	}
	return pid;
}

static void hog_fn(const char *unused)
{
	(void)unused;
	run_hog();
}

/* Wait up to @ms for @pid; true if it was reaped. */
static bool reap(pid_t pid, long ms)
{
	long long end = now_us() + ms * 1000LL;

	do {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return true;
		sleep_us(10000);
	} while (now_us() < end);
	return false;
}

/* The probe's readings, and what GET_STATS showed when. */
struct probes {
	long long *pushed_at;	/* when PUSH of value i + 1 returned */
	__u64 *seq;		/* its sequence number, 0 if not traced */
	unsigned long n;	/* pushed */
	unsigned long max;
	unsigned long traced;
	long long *sample_at;	/* GET_STATS whose @total changed */
	__u64 *sample_total;
	unsigned long samples;
	unsigned long max_samples;
	__u64 last_total;
};

/* Note @total if it changed; it never decreases. */
static int sample(int fd, struct probes *p)
{
	struct seqring_stats st;

	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		return -1;
	if (st.total == p->last_total || p->samples == p->max_samples)
		return 0;
	p->sample_at[p->samples] = now_us();
	p->sample_total[p->samples++] = st.total;
	p->last_total = st.total;
	return 0;
}

static int push_probe(int wfd, struct probes *p)
{
	struct seqring_reading r = { .channel = PROBE_CHANNEL };

	r.value = p->n + 1;
	strcpy(r.label, "probe");
	if (ioctl(wfd, SEQRING_IOC_PUSH, &r))
		return -1;
	p->pushed_at[p->n++] = now_us();
	return 0;
}

/* Sample until @total reaches @seq or @ms passed. */
static void await_total(int fd, struct probes *p, __u64 seq, long ms)
{
	long long end = now_us() + ms * 1000LL;

	while (p->last_total < seq && now_us() < end) {
		sleep_us(POLL_US);
		if (sample(fd, p))
			return;
	}
}

static char tracing[256] = "/sys/kernel/tracing";

static int trace_write(const char *file, const char *s)
{
	return write_cg(tracing, file, s);
}

/* The event only for the probe's readings, in an emptied buffer. */
static int trace_start(void)
{
	char filter[64], path[300];
	int fd;

	snprintf(filter, sizeof(filter), "channel == %d\n", PROBE_CHANNEL);
	if (trace_write("events/seqring/seqring_push/filter", filter))
		return -1;
	snprintf(path, sizeof(path), "%s/trace", tracing);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	close(fd);
	return trace_write("events/seqring/seqring_push/enable", "1\n");
}

static void trace_stop(void)
{
	trace_write("events/seqring/seqring_push/enable", "0\n");
	trace_write("events/seqring/seqring_push/filter", "0\n");
}

/*
 * The sequence numbers of the probe readings, from the events in the
 * trace: "... seqring_push: ring=R seq=S channel=C value=V label=L".
 */
static void trace_collect(struct probes *p)
{
	static char buf[1 << 20];
	char path[300], *line, *nl, *at;
	unsigned long long seq;
	long long value;
	unsigned int channel;
	size_t len = 0;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/trace", tracing);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	while (len < sizeof(buf) - 1 &&
	       (got = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = '\0';
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		at = strstr(line, "seqring_push: ");
		if (at)
			at = strstr(at, " seq=");
		if (!at || sscanf(at, " seq=%llu channel=%u value=%lld", &seq,
				  &channel, &value) != 3 ||
		    channel != PROBE_CHANNEL || value < 1 ||
		    (unsigned long)value > p->n || p->seq[value - 1])
			continue;
		p->seq[value - 1] = seq;
		p->traced++;
	}
}

/* When GET_STATS first showed @seq: the first sample with @total >= it. */
static long long visible_at(const struct probes *p, __u64 seq)
{
	unsigned long lo = 0, hi = p->samples;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (p->sample_total[mid] >= seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < p->samples ? p->sample_at[lo] : 0;
}

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: starve [-c CGROUP] [-t SECONDS] [-l LIMIT_MS] [-T TRACEFS] [DEV]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/seqring";
	long seconds = 3, limit_ms = 50;
	struct probes p = { 0 };
	long long start, end, next, toggle, gap, worst = 0, seen;
	unsigned long i, worst_i = 0, warm, unseen = 0;
	__u64 last_seq = 0;
	int opt, wfd;
	bool freed;

	while ((opt = getopt(argc, argv, "c:t:l:T:")) != -1) {
		switch (opt) {
		case 'c':
			cgroup_dir = optarg;
			break;
		case 't':
			seconds = strtol(optarg, NULL, 10);
			break;
		case 'l':
			limit_ms = strtol(optarg, NULL, 10);
			break;
		case 'T':
			snprintf(tracing, sizeof(tracing), "%s", optarg);
			break;
		default:
			bad_usage();
		}
	}
	if (optind < argc)
		dev = argv[optind++];
	if (optind != argc || seconds < 1 || seconds > 60 || limit_ms < 1)
		bad_usage();
	if (cgroup_dir)
		snprintf(cpu_max, sizeof(cpu_max), "%s/cpu.max", cgroup_dir);

	tap_plan(3);
	tap_diag("adversary on CPU %d: %s, free %d ms of every %d",
		 ADVERSARY_CPU, cgroup_dir ?
		 "PUSH_BATCH loop throttled by cgroup cpu.max" :
		 "PUSH_BATCH loop at SCHED_IDLE beside a busy loop",
		 FREE_MS, CYCLE_MS);
	tap_diag("probe on CPU %d: a PUSH every %d us for %ld s", PROBE_CPU,
		 PROBE_PERIOD_US, seconds);

	if (trace_start()) {
		const char *why =
			"no seqring_push trace event (tracefs) to learn sequence numbers from";

		trace_stop();
		tap_skip(why, "the adversary looped on PUSH_BATCH");
		tap_skip(why, "every probe reading became visible");
		tap_skip(why, "no probe reading stays invisible longer than %ld ms",
			 limit_ms);
		return tap_finish();
	}

	/* Bounds every path below, the children's included. */
	signal(SIGALRM, on_alarm);
	alarm(START_WAIT_MS / 1000 + seconds +
	      (LATE_WAIT_MS + 2 * REAP_WAIT_MS) / 1000 + 10);

	p.max = seconds * 1000000 / PROBE_PERIOD_US + 1;
	p.max_samples = seconds * 1000000 / POLL_US * 2 + 1024;
	p.pushed_at = calloc(p.max, sizeof(*p.pushed_at));
	p.seq = calloc(p.max, sizeof(*p.seq));
	p.sample_at = calloc(p.max_samples, sizeof(*p.sample_at));
	p.sample_total = calloc(p.max_samples, sizeof(*p.sample_total));
	adv = mmap(NULL, sizeof(*adv), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!p.pushed_at || !p.seq || !p.sample_at || !p.sample_total ||
	    adv == MAP_FAILED)
		tap_bail("out of memory");
	wfd = open(dev, O_WRONLY);
	if (wfd < 0)
		tap_bail("open %s: %s", dev, errname(errno));
	if (pin_to(PROBE_CPU))
		tap_bail("pinning to CPU %d: %s", PROBE_CPU, errname(errno));
	if (!cgroup_dir)
		hog_pid = spawn(hog_fn, NULL);
	batcher_pid = spawn(run_batcher, dev);
	if (hog_pid < 0 || batcher_pid < 0) {
		stop_adversary();
		tap_bail("fork: %s", errname(errno));
	}

	/* Warm-up, free: the probes start once a whole batch went through. */
	if (adversary_free(true)) {
		stop_adversary();
		tap_bail("freeing the adversary: %s", errname(errno));
	}
	start = now_us();
	while (!adv_get(&adv->batches_done) && !adv_get(&adv->error) &&
	       now_us() - start < START_WAIT_MS * 1000LL)
		sleep_us(10000);
	warm = adv_get(&adv->batches_done);
	tap_diag("warm-up: %lu batches returned in %lld us", warm,
		 now_us() - start);

	start = now_us();
	end = start + seconds * 1000000LL;
	next = start;
	freed = false;
	toggle = start + (CYCLE_MS - FREE_MS) * 1000LL;
	adversary_free(false);
	while (warm && now_us() < end && p.n < p.max) {
		if (now_us() >= toggle) {
			freed = !freed;
			adversary_free(freed);
			toggle += (freed ? FREE_MS : CYCLE_MS - FREE_MS) * 1000LL;
		}
		if (now_us() >= next) {
			if (push_probe(wfd, &p)) {
				tap_diag("PUSH failed: %s", errname(errno));
				break;
			}
			next += PROBE_PERIOD_US;
		}
		if (sample(wfd, &p)) {
			tap_diag("GET_STATS failed: %s", errname(errno));
			break;
		}
		sleep_us(POLL_US);
	}
	/* The events are in the trace once PUSH has returned. */
	trace_collect(&p);
	trace_stop();
	for (i = 0; i < p.n; i++)
		last_seq = p.seq[i] > last_seq ? p.seq[i] : last_seq;
	/* Still starved: late probes wait for the adversary, as they would. */
	adversary_free(false);
	await_total(wfd, &p, last_seq, LATE_WAIT_MS);
	tap_diag("adversary: %lu batches started, %lu returned%s%s",
		 adv_get(&adv->batches_started), adv_get(&adv->batches_done),
		 adv_get(&adv->error) ? ", failed with " : "",
		 adv_get(&adv->error) ? errname((int)adv_get(&adv->error)) : "");

	stop_adversary();
	if (hog_pid > 0 && !reap(hog_pid, REAP_WAIT_MS))
		tap_diag("the busy loop did not die");
	if (!reap(batcher_pid, REAP_WAIT_MS))
		tap_diag("the batcher did not die within %d ms", REAP_WAIT_MS);
	await_total(wfd, &p, last_seq, REAP_WAIT_MS);
	alarm(0);

	if (!tap_result(warm && !adv_get(&adv->error),
			"the adversary looped on PUSH_BATCH, starved, while the probe pushed"))
		tap_diag("expected a batch returned within %d ms, no error; got %lu, error %s",
			 START_WAIT_MS, warm, errname((int)adv_get(&adv->error)));

	for (i = 0; i < p.n; i++) {
		seen = p.seq[i] ? visible_at(&p, p.seq[i]) : 0;
		if (!seen)
			unseen++;
		/* Never seen: invisible at least until now. */
		gap = (seen ? seen : now_us()) - p.pushed_at[i];
		if (gap > worst) {
			worst = gap;
			worst_i = i;
		}
	}
	if (!tap_result(p.n && p.traced == p.n && !unseen,
			"every probe reading became visible"))
		tap_diag("expected %lu traced and shown; got %lu traced, %lu unshown (total %llu)",
			 p.n, p.traced, unseen, (unsigned long long)p.last_total);

	tap_diag("%lu probe readings, %lu samples of GET_STATS", p.n, p.samples);
	tap_diag("longest visibility gap: %lld us", worst);
	if (!tap_result(p.n && worst <= limit_ms * 1000LL,
			"no probe reading stays invisible longer than %ld ms",
			limit_ms))
		tap_diag("expected gaps <= %ld us, got %lld us (probe %lu, seq %llu, at %lld us)",
			 limit_ms * 1000, worst, worst_i + 1,
			 (unsigned long long)(p.n ? p.seq[worst_i] : 0),
			 p.n ? p.pushed_at[worst_i] - start : 0);
	return tap_finish();
}
