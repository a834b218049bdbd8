// SPDX-License-Identifier: GPL-2.0
/*
 * push_lat - how long single PUSHes take, for the stall detector
 *
 * Usage: push_lat [-t SECS] [-d DEV]
 *
 * Pushes one reading at a time into DEV (default /dev/seqring) for SECS
 * seconds (default 10), sleeping a random 25 to 75 us between pushes (so
 * a reader gets the CPU time a real producer would leave it), timing each
 * ioctl with CLOCK_MONOTONIC. Prints "ready" after the first push, then
 *   pushes=N p50_us=A p99_us=B max_us=C
 * Exit status 0, 1 if a push failed, 2 on misuse.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

#define MAX_SAMPLES	(4 * 1024 * 1024)

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct seqring_reading r = { .channel = 7 };
	const char *dev = "/dev/seqring";
	double secs = 10, t0, t, *lat;
	size_t n = 0;
	int fd, opt;

	while ((opt = getopt(argc, argv, "t:d:")) != -1) {
		switch (opt) {
		case 't':
			secs = strtod(optarg, NULL);
			break;
		case 'd':
			dev = optarg;
			break;
		default:
			fprintf(stderr, "usage: push_lat [-t SECS] [-d DEV]\n");
			return 2;
		}
	}
	lat = malloc(MAX_SAMPLES * sizeof(*lat));
	fd = open(dev, O_RDWR);
	if (!lat || fd < 0) {
		printf("# open %s: %s\n", dev, errname(errno));
		return 1;
	}
	strcpy(r.label, "lat");
	srand((unsigned int)getpid());
	t0 = now_us();
	while (n < MAX_SAMPLES && (t = now_us()) - t0 < secs * 1e6) {
		r.value = (long long)n;
		if (ioctl(fd, SEQRING_IOC_PUSH, &r)) {
			printf("# PUSH: %s\n", errname(errno));
			return 1;
		}
		lat[n] = now_us() - t;
		if (!n++) {
			printf("ready\n");
			fflush(stdout);
		}
		usleep((useconds_t)(25 + rand() % 51));
	}
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("pushes=%zu p50_us=%.0f p99_us=%.0f max_us=%.0f\n", n,
	       lat[n / 2], lat[n * 99 / 100], lat[n - 1]);
	return 0;
}
