// SPDX-License-Identifier: GPL-2.0
/*
 * push_n - push N readings into /dev/seqring, for the guest tests
 *
 * Usage: push_n [-b] [-R] [-d DEV] [-c CHANNEL] [-l LABEL] [-t TIMESTAMP_NS]
 *               [-v FIRST] N
 *
 * Reading i (0-based) gets value FIRST + i (FIRST defaults to 1), the given
 * channel (default 0), label (default empty) and timestamp (default 0, which
 * asks the driver to stamp it). A LABEL of exactly 16 bytes is passed without
 * a terminating NUL (the driver must refuse it). With -b the readings go in
 * PUSH_BATCH calls of at most SEQRING_BATCH_MAX, else one PUSH each. With
 * -R it pushes the same N readings again and again until killed, with
 * nothing but the ioctls in its loop: a producer as fast as the driver.
 * ENOBUFS (no free slot, in a ring smaller than what is pushed at once:
 * counted lost by the driver) does not stop it; without -R, how many
 * readings it was refused for is said on stderr at the end. Prints nothing
 * else on success; exits 1 with the errno name on failure.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "opts.h"
#include "tap.h"

static const char usage[] =
	"push_n [-b] [-R] [-d DEV] [-c CHANNEL] [-l LABEL] [-t TIMESTAMP_NS] [-v FIRST] N";

static unsigned long long parse_u(const char *s, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max) {
		fprintf(stderr, "push_n: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct seqring_reading tmpl = { 0 }, *r;
	const char *dev = "/dev/seqring";
	unsigned long long n, i, done, nobufs = 0;
	const char *label = "";
	long long first = 1;
	bool batch = false, repeat = false;
	const struct opt opts[] = {
		{ 'b', OPT_SET, &batch }, { 'R', OPT_SET, &repeat },
		{ 'd', OPT_STR, &dev }, { 'c', OPT_U32, &tmpl.channel },
		{ 'l', OPT_STR, &label }, { 't', OPT_ULL, &tmpl.timestamp_ns },
		{ 'v', OPT_LL, &first },
	};
	int fd, arg;

	arg = opts_parse(argc, argv, opts, OPTS_NR(opts), usage);
	if (arg + 1 != argc)
		opts_usage(usage);
	if (strlen(label) > SEQRING_LABEL_LEN) {
		fprintf(stderr, "push_n: label longer than %d bytes\n",
			SEQRING_LABEL_LEN);
		return 2;
	}
	strncpy(tmpl.label, label, SEQRING_LABEL_LEN);
	n = parse_u(argv[arg], UINT32_MAX);

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "push_n: open %s: %s\n", dev, errname(errno));
		return 1;
	}
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "push_n: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		r[i] = tmpl;
		/* Wraps like the s64 it is stored in; defined for unsigned. */
		r[i].value = (long long)((unsigned long long)first + i);
	}
	for (done = 0; done < n; ) {
		unsigned long long k = 1;
		int ret;

		if (batch) {
			struct seqring_batch b = {
				.readings = (__u64)(uintptr_t)&r[done],
			};

			k = n - done;
			if (k > SEQRING_BATCH_MAX)
				k = SEQRING_BATCH_MAX;
			b.count = k;
			ret = ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b);
		} else {
			ret = ioctl(fd, SEQRING_IOC_PUSH, &r[done]);
		}
		/*
		 * A producer until killed goes on when the ring had no free
		 * slot (a ring smaller than what is pushed at once): the
		 * driver counts those readings lost.
		 */
		if (ret && errno == ENOBUFS) {
			nobufs += k;
			done += k;
			if (repeat && done == n)
				done = 0;
			continue;
		}
		if (ret) {
			fprintf(stderr, "push_n: %s of reading %llu: %s\n",
				batch ? "PUSH_BATCH" : "PUSH", done + 1,
				errname(errno));
			return 1;
		}
		done += k;
		if (repeat && done == n)
			done = 0;
	}
	free(r);
	close(fd);
	if (nobufs)
		fprintf(stderr, "push_n: %llu of %llu readings: no free slot (ENOBUFS, lost)\n",
			nobufs, n);
	return 0;
}
