// SPDX-License-Identifier: GPL-2.0
/*
 * starve - a producer starved in the middle of a batch must not hide the
 * pushes of another CPU (issue 23: a reading's visibility never depends on
 * another task being scheduled)
 *
 * Usage: starve [-c CGROUP | -f] [-t SECONDS] [-l LIMIT_MS] [-T TRACEFS] [DEV]
 *
 * The adversary (starve.h), on CPU 1: a PUSH_BATCH loop kept off its CPU
 * by SCHED_IDLE beside a busy loop (default), with -f by a SCHED_FIFO busy
 * loop (the batcher SCHED_OTHER), or, with -c, by a cgroup v2 cpu.max
 * throttle of the group CGROUP.
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
 * either way. What the host's scheduling of the VM adds is allowed for:
 * the longest stall of the adversary's CPU (the meter of starve.h, a
 * SCHED_FIFO thread there that only the host can hold back) and of the
 * probe's own loop (between two of its samples), each less one period,
 * are added to LIMIT_MS, and reported. A driver that hides readings
 * behind a starved producer makes the probe wait while both CPUs run.
 * Without the trace event (no tracefs) all three skip.
 *
 * Nothing waits unbounded: the run is SECONDS, the wait for late probes
 * LATE_WAIT_MS with the adversary still starved, then the adversary is
 * stopped (throttle lifted, busy loop killed, batcher killed: it dies when
 * its batch returns) and the rest is awaited for REAP_WAIT_MS. An alarm
 * kills the children and ends the program if that ever fails, and the
 * children die with it (PR_SET_PDEATHSIG) on any path.
 */
#define _GNU_SOURCE
#include "opts.h"
#include "starve.h"

#define PROBE_CPU		0
#define PROBE_CHANNEL		2
#define PROBE_PERIOD_US		1000
#define POLL_US			100
/* After the run, GET_STATS is sampled this long before anything else. */
#define SETTLE_MS		200
/* Probes still unseen then: awaited with the adversary starved. */
#define LATE_WAIT_MS		1000

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

/*
 * Note @total if it changed; it never decreases. Timed when GET_STATS was
 * called: what it shows was published by the time it looked, and a vCPU
 * that the host keeps off inside the call (tcg on a busy host) would add
 * its own stall to the gap.
 */
static int sample(int fd, struct probes *p)
{
	struct seqring_stats st;
	long long t = now_us();

	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		return -1;
	if (st.total == p->last_total || p->samples == p->max_samples)
		return 0;
	p->sample_at[p->samples] = t;
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

static const char usage[] =
	"starve [-c CGROUP | -f] [-t SECONDS] [-l LIMIT_MS] [-T TRACEFS] [DEV]";

int main(int argc, char **argv)
{
	const char *dev = "/dev/seqring";
	long seconds = 3, limit_ms = 50;
	struct probes p = { 0 };
	long long start, end, next, gap, worst = 0, seen, ended;
	long long last_sample = 0, probe_stall = 0, t, allowed;
	unsigned long i, worst_i = 0, warm, unseen = 0, over = 0;
	__u64 last_seq = 0;
	const char *tracefs = tracing;
	const struct opt opts[] = {
		{ 'c', OPT_STR, &cgroup_dir }, { 'f', OPT_SET, &fifo_hog },
		{ 't', OPT_LONG, &seconds }, { 'l', OPT_LONG, &limit_ms },
		{ 'T', OPT_STR, &tracefs },
	};
	int arg, wfd;

	arg = opts_parse(argc, argv, opts, OPTS_NR(opts), usage);
	if (arg < argc)
		dev = argv[arg++];
	if (arg != argc || seconds < 1 || seconds > 60 || limit_ms < 1 ||
	    (cgroup_dir && fifo_hog))
		opts_usage(usage);
	if (tracefs != tracing)
		snprintf(tracing, sizeof(tracing), "%s", tracefs);
	if (cgroup_dir)
		snprintf(cpu_max, sizeof(cpu_max), "%s/cpu.max", cgroup_dir);

	tap_plan(3);
	tap_diag("adversary on CPU %d: %s, free %d ms of every %d",
		 ADVERSARY_CPU, cgroup_dir ?
		 "PUSH_BATCH loop throttled by cgroup cpu.max" :
		 fifo_hog ? "PUSH_BATCH loop beside a SCHED_FIFO busy loop" :
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
	if (!p.pushed_at || !p.seq || !p.sample_at || !p.sample_total)
		tap_bail("out of memory");
	wfd = open(dev, O_WRONLY);
	if (wfd < 0)
		tap_bail("open %s: %s", dev, errname(errno));
	if (pin_to(PROBE_CPU))
		tap_bail("pinning to CPU %d: %s", PROBE_CPU, errname(errno));
	/* Warm-up, free: the probes start once a whole batch went through. */
	start = now_us();
	if (adversary_start(dev))
		tap_bail("starting the adversary: %s", errname(errno));
	warm = adv_get(&adv->batches_done);
	tap_diag("warm-up: %lu batches returned in %lld us", warm,
		 now_us() - start);
	if (meter_start())
		tap_bail("starting the meter: %s", errname(errno));

	start = now_us();
	end = start + seconds * 1000000LL;
	next = start;
	while (warm && now_us() < end && p.n < p.max) {
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
		/* How long the probe itself was held back. */
		t = now_us();
		if (last_sample && t - last_sample > probe_stall)
			probe_stall = t - last_sample;
		last_sample = t;
		sleep_us(POLL_US);
	}
	/*
	 * Still starved: late probes wait for the adversary, as they would.
	 * Sampling goes on at once, so that the last probes are timed as
	 * closely as the others: reading the trace, and turning the event off
	 * (which waits for RCU grace periods), take long under tcg.
	 */
	ended = now_us();
	while (now_us() - ended < SETTLE_MS * 1000LL && !sample(wfd, &p))
		sleep_us(POLL_US);
	/* The events are in the trace once PUSH has returned. */
	trace_collect(&p);
	for (i = 0; i < p.n; i++)
		last_seq = p.seq[i] > last_seq ? p.seq[i] : last_seq;
	await_total(wfd, &p, last_seq, LATE_WAIT_MS);
	trace_stop();
	tap_diag("adversary: %lu batches started, %lu returned%s%s",
		 adv_get(&adv->batches_started), adv_get(&adv->batches_done),
		 adv_get(&adv->error) ? ", failed with " : "",
		 adv_get(&adv->error) ? errname((int)adv_get(&adv->error)) : "");

	adversary_end();
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
		if (gap < 0)
			gap = 0;
		over += gap > limit_ms * 1000LL;
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
	/* Each stall less the period its measure has anyway. */
	probe_stall = probe_stall > 2 * POLL_US ? probe_stall - 2 * POLL_US : 0;
	t = adv_get(&adv->stall_us);
	allowed = limit_ms * 1000LL + probe_stall + t;
	tap_diag("host stalls: CPU %d %lld us (%lu ticks), the probe %lld us; allowed %lld us",
		 ADVERSARY_CPU, t, adv_get(&adv->ticks), probe_stall, allowed);
	if (!tap_result(p.n && adv_get(&adv->ticks) && worst <= allowed,
			"no probe reading stays invisible longer than %ld ms and what the host held the CPUs back",
			limit_ms))
		tap_diag("expected gaps <= %lld us, got %lld us (probe %lu, seq %llu, at %lld us)",
			 allowed, worst, worst_i + 1,
			 (unsigned long long)(p.n ? p.seq[worst_i] : 0),
			 p.n ? p.pushed_at[worst_i] - start : 0);
	tap_diag("%lu probes over %ld ms; the run ended at %lld us", over,
		 limit_ms, ended - start);
	return tap_finish();
}
