// SPDX-License-Identifier: GPL-2.0
/*
 * stress_writer - push readings into /dev/seqring for a bounded time
 *
 * Usage: stress_writer [-i ID] [-t SECS] [-n MAX] [-s SEED] [-p PCT]
 *                      [-b MAXBATCH] [-r RATE] [-m hold|reopen] [-d DEV]
 *                      [-L MS]
 *
 * Pushes writer ID's readings with values 1, 2, 3, ... (see stress.h for
 * their channel, label and timestamp), PCT percent of the calls as single
 * SEQRING_IOC_PUSH and the others as SEQRING_IOC_PUSH_BATCH of 1 to
 * MAXBATCH readings (default 64; the mix is drawn from SEED), until SECS
 * seconds have passed (default 10), MAX readings are pushed (default no
 * limit) or SIGTERM/SIGINT arrives. With -r it pushes at most RATE
 * readings per second on average (it sleeps when ahead).
 *
 * -m hold (default) opens the device once and keeps it open; -m reopen
 * opens and closes it around every call, and ends quietly ("gone") when
 * the open fails with ENOENT, ENODEV or ENXIO, as it does once the module
 * is being or has been unloaded.
 *
 * Prints "ready" after the first successful push, then at the end one line
 *   writer ID: pushed=N push=P batch=B opens=O secs=S maxlat_ms=L
 *              end=REASON errors=E
 * where N counts the readings handed to the ring, L is the longest time one
 * push ioctl took, REASON is time, count, signal, gone:ERRNO or error, and
 * E is "none" or ERRNO:COUNT,... ENOBUFS ends nothing: the ring found no
 * free slot for some readings of that call (a small ring, a producer held
 * off its CPU inside its section) and counted them in its stats' lost; they
 * count in N, which is then the ring's total plus lost. With -L
 * MS, a push taking longer than MS milliseconds is reported on a "# " line
 * as it happens. Exit status 0 unless a call failed (1) or the arguments
 * are wrong (2).
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "opts.h"
#include "stress.h"

#define MAX_ERRNO	256

static atomic_int stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char usage[] =
	"stress_writer [-i ID] [-t SECS] [-n MAX] [-s SEED] [-p PCT] [-b MAXBATCH]\n"
	"       [-r RATE] [-m hold|reopen] [-d DEV] [-L MS]";

static bool gone_errno(int e)
{
	return e == ENOENT || e == ENODEV || e == ENXIO;
}

int main(int argc, char **argv)
{
	unsigned long long max = ~0ULL, secs = 10, seed = 1, pct = 50;
	unsigned long long maxbatch = 64, value = 1, pushed = 0, warn_ms = 0;
	unsigned long long rate = 0;
	unsigned long long n_push = 0, n_batch = 0, n_open = 0;
	unsigned long long errors[MAX_ERRNO] = { 0 };
	struct seqring_reading *r;
	const char *dev = "/dev/seqring", *end = "time";
	char gone[32];
	bool reopen = false, ready = false, failed = false, single, any;
	unsigned int id = 0;
	double t0, elapsed, t1, lat, maxlat = 0;
	__u64 rng;
	const char *mode = NULL;
	const struct opt opts[] = {
		{ 'i', OPT_U32, &id }, { 't', OPT_ULL, &secs },
		{ 'n', OPT_ULL, &max }, { 's', OPT_ULL, &seed },
		{ 'p', OPT_ULL, &pct }, { 'b', OPT_ULL, &maxbatch },
		{ 'r', OPT_ULL, &rate }, { 'm', OPT_STR, &mode },
		{ 'd', OPT_STR, &dev }, { 'L', OPT_ULL, &warn_ms },
	};
	int fd = -1, e;

	if (opts_parse(argc, argv, opts, OPTS_NR(opts), usage) != argc ||
	    id > 999 || pct > 100 || !maxbatch || maxbatch > SEQRING_BATCH_MAX ||
	    (mode && strcmp(mode, "hold") && strcmp(mode, "reopen")))
		opts_usage(usage);
	reopen = mode && !strcmp(mode, "reopen");

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);

	r = calloc(maxbatch, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stress_writer: out of memory\n");
		return 1;
	}
	rng = seed;
	t0 = stress_now();
	for (;;) {
		unsigned long long k, i;
		int ret;

		if (stop) {
			end = "signal";
			break;
		}
		if (stress_now() - t0 >= (double)secs)
			break;
		if (pushed >= max) {
			end = "count";
			break;
		}
		if (fd < 0) {
			fd = open(dev, O_RDWR);
			if (fd < 0) {
				e = errno;
				if (reopen && gone_errno(e)) {
					snprintf(gone, sizeof(gone), "gone:%s",
						 errname(e));
					end = gone;
					break;
				}
				errors[e < MAX_ERRNO ? e : 0]++;
				fprintf(stderr, "stress_writer %u: open %s: %s\n",
					id, dev, errname(e));
				end = "error";
				failed = true;
				break;
			}
			n_open++;
		}

		single = stress_below(&rng, 100) < pct;
		k = single ? 1 : 1 + stress_below(&rng, maxbatch);
		if (k > max - pushed)
			k = max - pushed;
		for (i = 0; i < k; i++)
			stress_reading(&r[i], id, value + i);

		t1 = stress_now();
		if (single) {
			ret = ioctl(fd, SEQRING_IOC_PUSH, &r[0]);
			n_push++;
		} else {
			struct seqring_batch b = {
				.readings = (__u64)(uintptr_t)r,
				.count = (__u32)k,
			};

			ret = ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b);
			n_batch++;
		}
		lat = stress_now() - t1;
		if (lat > maxlat)
			maxlat = lat;
		if (warn_ms && lat * 1000 > (double)warn_ms) {
			printf("# writer %u: a push of %llu took %.0f ms\n", id, k,
			       lat * 1000);
			fflush(stdout);
		}
		if (ret && errno == ENOBUFS) {
			errors[ENOBUFS]++;
		} else if (ret) {
			e = errno;
			errors[e < MAX_ERRNO ? e : 0]++;
			fprintf(stderr, "stress_writer %u: push of values %llu..%llu: %s\n",
				id, value, value + k - 1, errname(e));
			end = "error";
			failed = true;
			break;
		}
		value += k;
		pushed += k;
		if (!ready) {
			printf("ready\n");
			fflush(stdout);
			ready = true;
		}
		if (reopen) {
			close(fd);
			fd = -1;
		}
		if (rate) {
			double ahead = (double)pushed / (double)rate -
				       (stress_now() - t0);

			if (ahead > 0)
				usleep((useconds_t)(ahead * 1e6));
		}
	}
	elapsed = stress_now() - t0;
	if (fd >= 0)
		close(fd);

	printf("writer %u: pushed=%llu push=%llu batch=%llu opens=%llu",
	       id, pushed, n_push, n_batch, n_open);
	printf(" secs=%.1f maxlat_ms=%.0f end=%s errors=", elapsed,
	       maxlat * 1000, end);
	any = false;
	for (e = 0; e < MAX_ERRNO; e++) {
		if (!errors[e])
			continue;
		printf("%s%s:%llu", any ? "," : "", errname(e), errors[e]);
		any = true;
	}
	printf("%s\n", any ? "" : "none");
	free(r);
	return failed ? 1 : 0;
}
