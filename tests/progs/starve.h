/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduling adversary of tests/progs/starve*.c (issue 23): a process
 * on ADVERSARY_CPU that loops on PUSH_BATCH of SEQRING_BATCH_MAX readings
 * and is kept off its CPU most of the time, either by SCHED_IDLE beside a
 * busy loop (SCHED_OTHER) on the same CPU, by a SCHED_FIFO busy loop on
 * that CPU (fifo_hog; the batcher stays SCHED_OTHER and runs only in the
 * share RT throttling leaves), or by the cgroup v2 group
 * cgroup_dir, whose cpu.max is set to THROTTLE_QUOTA_US every
 * THROTTLE_PERIOD_US (the group must exist with the cpu controller; the
 * caller removes it, and sets its cpu.max back to "max" once every process
 * of it is gone). The scheduler then stops it wherever in a batch the
 * kernel lets it go. Starved all the time, it gets so little CPU that in a
 * few seconds it may not even get through copying its first batch in; so
 * a conductor process lets it run FREE_MS out of every CYCLE_MS (the busy
 * loop stopped, or the throttle lifted), and starves it again at whatever
 * point of its batch it has then reached: inside the store of the batch
 * for most of a batch's time. The conductor runs on CONDUCTOR_CPU, not in
 * the probe: a write of cpu.max can take hundreds of milliseconds under
 * tcg, and the probe must not stop for it.
 *
 * The throttle is lifted by a quota of a whole CPU (THROTTLE_OFF), never
 * by "max": a group's first quota turns on a static key of the kernel's
 * CFS bandwidth code and "max" turns it off again, each a patch of the
 * scheduler's text with int3 and IPIs. Flipped every CYCLE_MS under tcg on
 * a loaded host, that patching took an "Oops: int3" in __schedule() (6.12,
 * 6.12-rt and 7.2, in one CI run); the same part wedged 6.1 and 5.10 guests
 * without a report, maybe the same way (issue 34). So the key turns on
 * once, before the adversary starts, and off at the caller's "max", when
 * nothing of the adversary runs.
 *
 * Every path kills the children: stop_adversary() (also from the SIGALRM
 * handler on_alarm(), which a program arms to bound its run), and
 * PR_SET_PDEATHSIG in the children should the program die otherwise.
 */
#ifndef _SEQRING_STARVE_H
#define _SEQRING_STARVE_H

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
#define CONDUCTOR_CPU		0
#define BATCH_CHANNEL		1
/* 1 ms of CPU a second: a batch takes many periods to store. */
#define THROTTLE_QUOTA_US	1000
#define THROTTLE_PERIOD_US	1000000
#define THROTTLE_OFF		"1000000 1000000\n"	/* a whole CPU */
/* The adversary runs freely FREE_MS out of every CYCLE_MS. */
#define FREE_MS			20
#define CYCLE_MS		500
/* How long the adversary, running freely, may take for its first batch. */
#define START_WAIT_MS		10000
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
	/* The meter's (meter_start()): CPU 1's longest stall, in us. */
	unsigned long stall_us;
	unsigned long ticks;
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

static pid_t hog_pid, batcher_pid, conductor_pid, meter_pid;
static const char *cgroup_dir;
static bool fifo_hog;

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
	ssize_t n;
	int fd;

	/* First, so that it throttles nothing after the throttle is lifted. */
	if (conductor_pid > 0) {
		kill(conductor_pid, SIGKILL);
		waitpid(conductor_pid, NULL, 0);
		conductor_pid = 0;
	}
	if (cgroup_dir) {
		fd = open(cpu_max, O_WRONLY);
		if (fd >= 0) {
			n = write(fd, THROTTLE_OFF, sizeof(THROTTLE_OFF) - 1);
			(void)n; /* a handler can do nothing about a failure */
			close(fd);
		}
	}
	if (hog_pid > 0)
		kill(hog_pid, SIGKILL);
	if (batcher_pid > 0)
		kill(batcher_pid, SIGKILL);
	if (meter_pid > 0)
		kill(meter_pid, SIGKILL);
}

/* Let the adversary run (@free), or starve it again. */
static int adversary_free(bool free)
{
	char quota[64];

	if (!cgroup_dir)
		return kill(hog_pid, free ? SIGSTOP : SIGCONT);
	snprintf(quota, sizeof(quota), "%d %d\n", THROTTLE_QUOTA_US,
		 THROTTLE_PERIOD_US);
	return write_cg(cgroup_dir, "cpu.max", free ? THROTTLE_OFF : quota);
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
	struct sched_param sp = { .sched_priority = 1 };

	if (pin_to(ADVERSARY_CPU))
		_exit(1);
	if (fifo_hog && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		adv_set(&adv->error, errno);
		_exit(1);
	}
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
	    fifo_hog ? 0 : sched_setscheduler(0, SCHED_IDLE, &sp)) {
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

static void run_conductor(const char *unused)
{
	(void)unused;
	if (pin_to(CONDUCTOR_CPU))
		_exit(1);
	for (;;) {
		sleep_us((CYCLE_MS - FREE_MS) * 1000L);
		adversary_free(true);
		sleep_us(FREE_MS * 1000L);
		adversary_free(false);
	}
}

/*
 * The meter: on ADVERSARY_CPU at SCHED_FIFO's highest priority, it wakes
 * every METER_US and notes how late it woke. Nothing in the guest keeps it
 * off its CPU longer than an interrupts-off section (the driver's are a
 * few microseconds); the host does, when it runs the vCPU's thread late
 * (tcg on a busy host). The longest such stall of the adversary's CPU is
 * what a reading being stored there at that moment may wait for, whatever
 * the driver does: the probe's bound allows for it.
 */
#define METER_US		1000

static inline void run_meter(const char *unused)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
	struct timespec ts;
	long long due, late;

	(void)unused;
	if (pin_to(ADVERSARY_CPU) || sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	due = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	for (;;) {
		due += METER_US * 1000LL;
		ts.tv_sec = due / 1000000000LL;
		ts.tv_nsec = due % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		late = (now_us() * 1000 - due) / 1000;
		if (late > (long long)adv_get(&adv->stall_us))
			adv_set(&adv->stall_us, late);
		adv_set(&adv->ticks, adv_get(&adv->ticks) + 1);
		/* Behind by more than a tick: start again from now. */
		if (late > METER_US)
			due = now_us() * 1000;
	}
}

/* Start the meter (after adversary_start()); -1 if it cannot run. */
static inline int meter_start(void)
{
	meter_pid = spawn(run_meter, NULL);
	return meter_pid < 0 ? -1 : 0;
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

/*
 * Fork the adversary (@dev: the device it pushes into) and let it run
 * until its first batch has returned; 0, or -1 with errno (the children
 * are stopped then). The shared state must be mapped first.
 */
static int adversary_start(const char *dev)
{
	long long start;

	adv = mmap(NULL, sizeof(*adv), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (adv == MAP_FAILED)
		return -1;
	/* The static key on, while nothing of the adversary runs yet. */
	if (cgroup_dir && adversary_free(true))
		return -1;
	if (!cgroup_dir)
		hog_pid = spawn(hog_fn, NULL);
	batcher_pid = spawn(run_batcher, dev);
	if (hog_pid < 0 || batcher_pid < 0 || adversary_free(true)) {
		stop_adversary();
		return -1;
	}
	start = now_us();
	while (!adv_get(&adv->batches_done) && !adv_get(&adv->error) &&
	       now_us() - start < START_WAIT_MS * 1000LL)
		sleep_us(10000);
	/* Starved from now on, but for the conductor's moments. */
	conductor_pid = spawn(run_conductor, NULL);
	if (conductor_pid < 0 || adversary_free(false)) {
		stop_adversary();
		return -1;
	}
	return 0;
}

/* Stop the adversary and reap it. */
static void adversary_end(void)
{
	stop_adversary();
	if (hog_pid > 0 && !reap(hog_pid, REAP_WAIT_MS))
		tap_diag("the busy loop did not die");
	if (batcher_pid > 0 && !reap(batcher_pid, REAP_WAIT_MS))
		tap_diag("the batcher did not die within %d ms", REAP_WAIT_MS);
	if (meter_pid > 0)
		reap(meter_pid, REAP_WAIT_MS);
}

#endif /* _SEQRING_STARVE_H */
