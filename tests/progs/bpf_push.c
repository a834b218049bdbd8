// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_push - BPF programs pushing into rings, for tests/check/97-bpf.sh
 *
 *   bpf_push create NAME CAPACITY   a syscall program creates ring NAME
 *   bpf_push destroy NAME           a syscall program destroys it
 *   bpf_push attach TYPE NAME N     load TYPE's program (kprobe fentry fexit
 *                                   tracepoint raw_tp tp_btf perf_event
 *                                   syscall), attach it, make N events of
 *                                   this process, detach; then read every
 *                                   reading of /dev/seqring-NAME back
 *   bpf_push hold TYPE NAME SECONDS attach and make events for SECONDS
 *                                   (or until SIGTERM), then print counts
 *   bpf_push long NAME              push a label of 20 bytes: -EINVAL
 *   bpf_push bad PROG               load bad.bpf.c's PROG alone
 *   bpf_push nmi NAME               a program in NMI and one in this
 *                                   process's system calls push into
 *                                   NAME until SIGTERM (run_nmi())
 *   bpf_push bench N ROUNDS         ns per event: a tp_btf program pushing
 *                                   into ring "bench" against the same
 *                                   record by bpf_ringbuf_output(), and
 *                                   the push's parts (run_bench())
 *
 * attach prints "pushed P failed F no_ring R read N" and, for every
 * reading read back that is not as pushed (channel, label, values 1..P in
 * order), a line saying what; exit 0 when all P were read intact. A
 * program the kernel refuses prints "refused: " and the verifier's last
 * line, exit 3; one it loads but cannot attach with ENOTSUPP (no BPF
 * trampoline: fentry and fexit on arm64 before its ftrace direct calls),
 * exit 4. bad exits 0 when the verifier refused, 1 when it loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/seqring.h>

#include "bpf/push.skel.h"
#include "bpf/bad.skel.h"

static const char *const types[] = {
	"kprobe", "fentry", "fexit", "tracepoint", "raw_tp", "tp_btf",
	"perf_event", "syscall",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NTYPES ARRAY_SIZE(types)

struct args {
	char name[16];
	__u32 capacity;
	__s32 ret;
	__u32 count;
};

/* The verifier's log of the last load, for "refused: LAST LINE". */
static char vlog[16 << 20];
static int stop;

static void on_term(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

/*
 * Whether SIGTERM or SIGINT came: loaded anew each time (gcc -O2 kept a
 * plain stop out of a loop that only makes system calls: it never ended).
 */
static int stopped(void)
{
	return __atomic_load_n(&stop, __ATOMIC_RELAXED);
}

/* libbpf's warnings (why a load failed before the verifier) on stderr. */
static int warnings(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* The verifier's verdict: the log's last lines but its statistics. */
static const char *last_line(void)
{
	size_t n = strlen(vlog);
	int lines = 0;
	char *p;

	while (n && vlog[n - 1] == '\n')
		vlog[--n] = '\0';
	for (p = vlog + n; p > vlog; p--) {
		if (p[-1] == '\n' && strncmp(p, "processed ", 10) &&
		    strncmp(p, "verification time", 17) && ++lines == 3)
			break;
	}
	return p;
}

static int run_syscall(struct bpf_program *prog, struct args *a)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = a,
		    .ctx_size_in = sizeof(*a));

	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
}

/* What fentry and fexit attach to: getppid() calls it. */
static const char *getppid_fn(void)
{
	return "__task_pid_nr_ns";
}

/* The programs of push.bpf.c: the attach types', then the syscall ones. */
static const char *const progs[] = {
	"on_kprobe", "on_fentry", "on_fexit", "on_tracepoint", "on_raw_tp",
	"on_tp_btf", "on_perf", "on_syscall",
	"create_ring", "destroy_ring", "push_long", "on_bench", "on_nmi_push",
};

/* Opens push.bpf.c's programs with only progs[@only] to be loaded. */
static struct push_bpf *open_push(const char *name, int only)
{
	struct push_bpf *skel = push_bpf__open();
	struct bpf_program *p;

	if (!skel) {
		fprintf(stderr, "bpf_push: cannot open the programs: %s\n",
			strerror(errno));
		exit(2);
	}
	skel->bss->target_pid = getpid();
	skel->bss->getppid_nr = SYS_getppid;
	strncpy(skel->bss->ring, name, sizeof(skel->bss->ring) - 1);
	bpf_object__for_each_program(p, skel->obj) {
		int me = !strcmp(bpf_program__name(p), progs[only]);

		bpf_program__set_autoload(p, me);
		if (me)
			bpf_program__set_log_buf(p, vlog, sizeof(vlog));
	}
	if (bpf_program__set_attach_target(skel->progs.on_fentry, 0, getppid_fn()) ||
	    bpf_program__set_attach_target(skel->progs.on_fexit, 0, getppid_fn()))
		fprintf(stderr, "bpf_push: no %s to attach fentry/fexit to: %s\n",
			getppid_fn(), strerror(errno));
	return skel;
}

/* The syscall programs after the attach types, in push.bpf.c's order. */
enum { P_CREATE = NTYPES, P_DESTROY, P_LONG, P_BENCH, P_NMI };

static int syscall_prog(int which, const char *name, __u32 cap)
{
	struct push_bpf *skel = open_push(name, which);
	struct bpf_program *prog = which == P_CREATE ? skel->progs.create_ring :
				   which == P_DESTROY ? skel->progs.destroy_ring :
				   skel->progs.push_long;
	struct args a = { .capacity = cap };

	strncpy(a.name, name, sizeof(a.name) - 1);
	if (push_bpf__load(skel)) {
		printf("refused: %s\n", last_line());
		return 3;
	}
	if (run_syscall(prog, &a)) {
		fprintf(stderr, "bpf_push: test run: %s\n", strerror(errno));
		return 2;
	}
	printf("%d\n", a.ret);
	push_bpf__destroy(skel);
	return 0;
}

static int perf_fd = -1;

static struct bpf_link *attach(struct push_bpf *skel, int t)
{
	struct perf_event_attr pe = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(pe),
		.sample_period = 100000,	/* 0.1 ms of this task's time */
	};
	struct bpf_program *prog;

	prog = bpf_object__find_program_by_name(skel->obj, progs[t]);
	if (t != 6)
		return bpf_program__attach(prog);
	perf_fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
	if (perf_fd < 0)
		return NULL;
	return bpf_program__attach_perf_event(prog, perf_fd);
}

/* Events of type @t for this process: getppid(), or CPU time. */
static void make_events(struct push_bpf *skel, int t, unsigned long n)
{
	unsigned long i;

	if (t == 7) {
		struct args a = { 0 };

		for (i = 0; i < n && !stopped(); i++)
			run_syscall(skel->progs.on_syscall, &a);
		return;
	}
	if (t == 6) {
		time_t end = time(NULL) + 20;

		while (skel->bss->pushed[6] + skel->bss->failed[6] < n &&
		       time(NULL) < end && !stopped())
			;
		return;
	}
	for (i = 0; i < n && !stopped(); i++)
		syscall(SYS_getppid);
}

static int type_of(const char *s)
{
	unsigned int t;

	for (t = 0; t < NTYPES; t++)
		if (!strcmp(s, types[t]))
			return t;
	fprintf(stderr, "bpf_push: no type '%s'\n", s);
	exit(2);
}

/* What a channel of a ring must hold: readings 1, 2, 3... with @label. */
struct chan {
	unsigned int channel;
	const char *label;
	int tail;		/* its oldest may be overwritten: from the first held */
	unsigned long first;	/* the value of the first reading read */
	unsigned long got;	/* the last value read, in order: 1, 2, 3, ... */
	unsigned long bad;	/* of them, not as pushed */
};

/*
 * Reads every reading of ring @name and checks those of the channels of
 * @c against what was pushed: values 1, 2, 3, ... in order (for a @tail
 * channel, from the first held on), the label. Prints the first readings
 * not as pushed. Returns the readings not as pushed, or -1 when the ring
 * cannot be read; *@dropped (if not NULL): the ring's overwritten.
 */
static long read_ring(const char *name, struct chan *c, int nc,
		      unsigned long long *dropped)
{
	struct seqring_stats st;
	struct seqring_record rec[64];
	long bad = 0;
	char dev[64];
	ssize_t n;
	int fd, i, k;

	/* The default ring, "", is /dev/seqring. */
	snprintf(dev, sizeof(dev), "/dev/seqring%s%s", *name ? "-" : "", name);
	fd = open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "bpf_push: %s: %s\n", dev, strerror(errno));
		return -1;
	}
	/* From the oldest reading held (an open starts at the newest). */
	lseek(fd, 0, SEEK_SET);
	if (dropped)
		*dropped = ioctl(fd, SEQRING_IOC_GET_STATS, &st) ? ~0ULL : st.dropped;
	while ((n = read(fd, rec, sizeof(rec))) > 0) {
		for (i = 0; i < n / (ssize_t)sizeof(rec[0]); i++) {
			struct seqring_record *r = &rec[i];

			for (k = 0; k < nc && c[k].channel != r->reading.channel; k++)
				;
			if (k == nc)
				continue;
			if (!c[k].got) {
				if (c[k].tail && r->reading.value > 1)
					c[k].got = r->reading.value - 1;
				c[k].first = c[k].got + 1;
			}
			c[k].got++;
			if (r->reading.value == (__s64)c[k].got &&
			    !strncmp(r->reading.label, c[k].label,
				     sizeof(r->reading.label)))
				continue;
			c[k].bad++;
			if (bad++ < 5)
				printf("seq %llu channel %u: %lld '%.16s', want %lu '%s'\n",
				       (unsigned long long)r->seq, c[k].channel,
				       (long long)r->reading.value, r->reading.label,
				       c[k].got, c[k].label);
		}
	}
	if (n < 0 && errno != EAGAIN) {
		fprintf(stderr, "bpf_push: read %s: %s\n", dev, strerror(errno));
		bad++;
	}
	close(fd);
	return bad;
}

/* Reads ring @name back: every reading of type @t as pushed, @pushed of them. */
static int read_back(const char *name, int t, unsigned long pushed)
{
	struct chan c = { .channel = t, .label = types[t] };
	long bad = read_ring(name, &c, 1, NULL);

	printf(" read %lu\n", c.got);
	return bad || c.got != pushed;
}

static int run_attach(int t, const char *name, unsigned long n, int hold)
{
	struct push_bpf *skel = open_push(name, t);
	struct bpf_link *link = NULL;
	int ret = 0;

	if (push_bpf__load(skel)) {
		printf("refused: %s\n", last_line());
		return 3;
	}
	if (t != 7) {
		link = attach(skel, t);
		if (!link) {
			/* ENOTSUPP (524), the kernel's own errno: no name in libc. */
			int notsupp = errno == 524;

			fprintf(stderr, "bpf_push: attach %s: %s\n", types[t],
				notsupp ? "not supported by this kernel (ENOTSUPP)" :
				strerror(errno));
			return notsupp ? 4 : 2;
		}
	}
	if (hold) {
		time_t end = time(NULL) + n;

		while (!stopped() && time(NULL) < end)
			make_events(skel, t, 1000);
	} else {
		make_events(skel, t, n);
	}
	bpf_link__destroy(link);
	if (perf_fd >= 0)
		close(perf_fd);
	printf("pushed %llu failed %llu no_ring %llu",
	       (unsigned long long)skel->bss->pushed[t],
	       (unsigned long long)skel->bss->failed[t],
	       (unsigned long long)skel->bss->no_ring[t]);
	if (hold)
		printf("\n");
	else
		ret = read_back(name, t, skel->bss->pushed[t]);
	push_bpf__destroy(skel);
	return ret;
}

/*
 * A program in NMI (on_nmi_push) and one in this process's system calls
 * (on_tp_btf), pushing into ring @name at once: attach both, say
 * "attached", make events until SIGTERM, detach; print what each pushed,
 * then read every reading back: exit 0 when all are there intact.
 */
static int run_nmi(const char *name)
{
	struct push_bpf *skel = open_push(name, P_NMI);
	unsigned long long in = 0, sys_pushed, dropped = 0;
	int nc = 1, cpu, t = type_of("tp_btf");
	struct bpf_link *nmi, *sys;
	struct chan c[1 + 64];
	long bad;

	bpf_program__set_autoload(skel->progs.on_tp_btf, true);
	/* tests/kmod/seqring_nmi.c: CH_NMI + cpu, from its NMI handler. */
	skel->bss->nmi_lo = 3000;
	skel->bss->nmi_hi = 4000;
	if (push_bpf__load(skel)) {
		printf("refused: %s\n", last_line());
		return 3;
	}
	nmi = bpf_program__attach(skel->progs.on_nmi_push);
	sys = bpf_program__attach(skel->progs.on_tp_btf);
	if (!nmi || !sys) {
		fprintf(stderr, "bpf_push: attach: %s\n", strerror(errno));
		return 2;
	}
	printf("attached\n");
	fflush(stdout);
	while (!stopped())
		syscall(SYS_getppid);
	bpf_link__destroy(nmi);
	bpf_link__destroy(sys);
	/*
	 * The system calls' program may push more than the ring holds: its
	 * oldest are overwritten, counted as dropped. Never an NMI reading:
	 * those channels must be whole from 1.
	 */
	c[0] = (struct chan){ .channel = t, .label = types[t], .tail = 1 };
	for (cpu = 0; cpu < 64; cpu++) {
		if (!skel->bss->nmi_pushed[cpu])
			continue;
		in += skel->bss->nmi_pushed[cpu];
		c[nc++] = (struct chan){ .channel = 100 + cpu, .label = "nmi" };
	}
	sys_pushed = skel->bss->pushed[t];
	printf("tp_btf pushed %llu failed %llu no_ring %llu\n", sys_pushed,
	       (unsigned long long)skel->bss->failed[t],
	       (unsigned long long)skel->bss->no_ring[t]);
	printf("nmi pushed %llu failed %llu no_ring %llu cpus %d\n", in,
	       (unsigned long long)skel->bss->nmi_failed,
	       (unsigned long long)skel->bss->nmi_no_ring, nc - 1);
	bad = read_ring(name, c, nc, &dropped);
	for (cpu = 1; cpu < nc; cpu++) {
		in -= c[cpu].got;
		printf("cpu %u: read %lu\n", c[cpu].channel - 100, c[cpu].got);
	}
	printf("tp_btf: read %lu..%lu, overwritten %llu\n", c[0].first,
	       c[0].got, dropped);
	push_bpf__destroy(skel);
	/* What is not held was overwritten, the oldest of tp_btf only. */
	return bad || in || c[0].got != sys_pushed || c[0].first - 1 != dropped;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int drain(void *ctx, void *data, size_t size)
{
	(void)ctx;
	(void)data;
	(void)size;
	return 0;
}

/* What the benchmark's program does per event, by bench_mode. */
static const char *const bench_modes[] = {
	"none", "push", "ringbuf_output", "get_put", "second_push",
};

#define NMODES ARRAY_SIZE(bench_modes)

/* A figure of the benchmark as bench.c's results.csv has it. */
static void bench_row(const char *metric, const char *unit, double *v,
		      int rounds)
{
	qsort(v, rounds, sizeof(v[0]), cmp_double);
	printf("csv bpf,%s,1,%s,%.6g,%.6g,%.6g,%d\n", metric, unit,
	       v[rounds / 2], v[0], v[rounds - 1], rounds);
}

/*
 * ns per getppid() of this process with the program doing each of
 * bench_modes[]: ROUNDS rounds of all of them in an order that rotates, N
 * calls each, the ring buffer drained between blocks. Prints the median
 * of each, what each adds to the program doing nothing (a second push:
 * to one push), and the ratio of the push's addition to the ring
 * buffer's, per round; then the same as "csv " lines for the report
 * (tests/bench/55-bpf.sh).
 */
static int run_bench(unsigned long n, int rounds)
{
	struct push_bpf *skel = open_push("bench", P_BENCH);
	double t[NMODES][64], d[64];
	struct ring_buffer *rbuf;
	struct bpf_link *link;
	unsigned long i;
	unsigned int m, k;
	int r;

	if (rounds > 64)
		rounds = 64;
	if (push_bpf__load(skel)) {
		printf("refused: %s\n", last_line());
		return 3;
	}
	link = bpf_program__attach(skel->progs.on_bench);
	rbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), drain, NULL, NULL);
	if (!link || !rbuf) {
		fprintf(stderr, "bpf_push: bench: %s\n", strerror(errno));
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NMODES; k++) {
			double t0;

			m = (k + r) % NMODES;
			skel->bss->bench_mode = m;
			t0 = now_ns();
			for (i = 0; i < n; i++)
				syscall(SYS_getppid);
			t[m][r] = (now_ns() - t0) / n;
			ring_buffer__consume(rbuf);
		}
	}
	skel->bss->bench_mode = 0;
	printf("calls %lu rounds %d lost %llu\n", n, rounds,
	       (unsigned long long)skel->bss->bench_lost);
	for (m = 0; m < NMODES; m++) {
		/* What it adds: to nothing, or the second push to one. */
		unsigned int base = m == 4 ? 1 : 0;

		memcpy(d, t[m], sizeof(d));
		qsort(d, rounds, sizeof(d[0]), cmp_double);
		printf("%s %.0f ns", bench_modes[m], d[rounds / 2]);
		for (r = 0; r < rounds && m; r++)
			d[r] = t[m][r] - t[base][r];
		if (m) {
			qsort(d, rounds, sizeof(d[0]), cmp_double);
			printf(" (+%.0f)", d[rounds / 2]);
		}
		printf("\n");
	}
	for (r = 0; r < rounds; r++)
		d[r] = (t[1][r] - t[0][r]) / (t[2][r] - t[0][r]);
	qsort(d, rounds, sizeof(d[0]), cmp_double);
	printf("ratio %.3f\n", d[rounds / 2]);

	memcpy(d, t[0], sizeof(d));
	bench_row("getppid", "ns/event", d, rounds);
	for (m = 1; m < NMODES; m++) {
		for (r = 0; r < rounds; r++)
			d[r] = t[m][r] - t[m == 4 ? 1 : 0][r];
		bench_row(bench_modes[m], "ns/event", d, rounds);
	}
	for (r = 0; r < rounds; r++)
		d[r] = (t[1][r] - t[0][r]) / (t[2][r] - t[0][r]);
	bench_row("push/ringbuf_output", "x", d, rounds);
	ring_buffer__free(rbuf);
	bpf_link__destroy(link);
	push_bpf__destroy(skel);
	return 0;
}

static int run_bad(const char *prog_name)
{
	struct bad_bpf *skel = bad_bpf__open();
	struct bpf_program *p, *want = NULL;

	if (!skel)
		return 2;
	bpf_object__for_each_program(p, skel->obj) {
		int me = !strcmp(bpf_program__name(p), prog_name);

		bpf_program__set_autoload(p, me);
		if (me) {
			want = p;
			bpf_program__set_log_buf(p, vlog, sizeof(vlog));
		}
	}
	if (!want) {
		fprintf(stderr, "bpf_push: no program '%s'\n", prog_name);
		return 2;
	}
	if (bad_bpf__load(skel)) {
		printf("refused: %s\n", last_line());
		return 0;
	}
	printf("loaded\n");
	bad_bpf__destroy(skel);
	return 1;
}

int main(int argc, char **argv)
{
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	libbpf_set_print(warnings);
	if (argc == 4 && !strcmp(argv[1], "create"))
		return syscall_prog(P_CREATE, argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "destroy"))
		return syscall_prog(P_DESTROY, argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "long"))
		return syscall_prog(P_LONG, argv[2], 0);
	if (argc == 5 && !strcmp(argv[1], "attach"))
		return run_attach(type_of(argv[2]), argv[3],
				  strtoul(argv[4], NULL, 0), 0);
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return run_attach(type_of(argv[2]), argv[3],
				  strtoul(argv[4], NULL, 0), 1);
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return run_bench(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "bad"))
		return run_bad(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "nmi"))
		return run_nmi(argv[2]);
	fprintf(stderr, "usage: bpf_push create NAME CAP | destroy NAME | long NAME |\n"
			"       attach TYPE NAME N | hold TYPE NAME SECONDS | bad PROG |\n"
			"       bench N ROUNDS | nmi NAME\n");
	return 2;
}
