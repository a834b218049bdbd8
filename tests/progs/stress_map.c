// SPDX-License-Identifier: GPL-2.0
/*
 * stress_map - a consumer of the ring's mapping (libseqring srl_map_*)
 * that checks every reading against what stress_writer pushed
 *
 * Usage: stress_map [-d DEV] [-m wait|spin] [-x STOPFILE] [-t SECS]
 *
 * Maps DEV (default /dev/seqring) and reads from the oldest reading held
 * until STOPFILE exists and everything published is read (or SECS, default
 * 600, passed). -m wait (default) sleeps in srl_map_wait() (SET_CURSOR,
 * then poll() with a 100 ms timeout, to look for STOPFILE) when there is
 * nothing to read; -m spin only yields the CPU.
 *
 * Every reading must be one that stress_writer pushed (stress.h: channel
 * the writer's ID, label and odd timestamps derived from ID and value,
 * even ones stamped by the driver, not 0): one that is not is torn. The
 * sequence numbers must follow each other but for the gaps that -EPIPE
 * reported and srl_map_lost() counts; each writer's values must increase
 * (one seen twice or going back is a duplicate or out of order). At the
 * end one line:
 *   map: read=R lost=L pipes=P torn=T gaps=G order=O first=F next=N
 *        writers=ID:SEEN:LAST,...
 * G counts gaps not reported as lost, O values not above the writer's
 * last; F is the first sequence number (the cursor when mapped), N the
 * one after the last read. The caller checks R + L == N - F and, per
 * writer, SEEN against what it pushed. Exit status 0 if T, G, O are 0 and
 * no call failed.
 */
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "../../tools/lib/libseqring.h"
#include "stress.h"

#define USAGE \
	"usage: stress_map [-d DEV] [-m wait|spin] [-x STOPFILE] [-t SECS]\n"
#define BATCH		256
#define WRITERS_MAX	64

struct writer_seen {
	unsigned long long seen;
	unsigned long long last;
};

/* Is @rec what stress_writer's writer rec->channel pushed as its value? */
static bool reading_ok(const struct seqring_record *rec)
{
	const struct seqring_reading *r = &rec->reading;
	struct seqring_reading want;

	if (r->value <= 0 || r->channel >= WRITERS_MAX)
		return false;
	stress_reading(&want, r->channel, (unsigned long long)r->value);
	/* Even values were pushed with 0: the driver stamped them. */
	if (!want.timestamp_ns) {
		if (!r->timestamp_ns)
			return false;
		want.timestamp_ns = r->timestamp_ns;
	}
	return !memcmp(r, &want, sizeof(want));
}

static void print_torn(const struct seqring_record *rec)
{
	printf("# torn: seq %llu channel %u value %lld label %.16s ts %llu\n",
	       (unsigned long long)rec->seq, rec->reading.channel,
	       (long long)rec->reading.value, rec->reading.label,
	       (unsigned long long)rec->reading.timestamp_ns);
}

int main(int argc, char **argv)
{
	unsigned long long torn = 0, gaps = 0, order = 0, pipes = 0, read = 0;
	static struct writer_seen seen[WRITERS_MAX];
	const char *dev = "/dev/seqring", *stop = NULL;
	struct seqring_record rec[BATCH];
	unsigned long long secs = 600;
	__u64 first, expect, lost;
	bool spin = false, stopping = false;
	struct srl_map *map;
	double deadline;
	int opt, fd, ret, failed = 0;
	ssize_t n, i;
	unsigned int w;

	while ((opt = getopt(argc, argv, "d:m:x:t:")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'm':
			spin = !strcmp(optarg, "spin");
			break;
		case 'x':
			stop = optarg;
			break;
		case 't':
			secs = stress_parse_u("seconds", optarg);
			break;
		default:
			fputs(USAGE, stderr);
			return 2;
		}
	}
	fd = srl_open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "stress_map: %s: %s\n", dev, strerror(-fd));
		return 1;
	}
	ret = srl_map_open(fd, &map);
	if (ret) {
		fprintf(stderr, "stress_map: cannot map %s: %s\n", dev,
			strerror(-ret));
		return 1;
	}
	first = srl_map_cursor(map);
	expect = first;
	deadline = stress_now() + (double)secs;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		n = srl_map_read(map, rec, BATCH);
		if (n == -EAGAIN) {
			/* Drained after the stop file appeared: done. */
			if (stopping || stress_now() > deadline)
				break;
			if (stop && !access(stop, F_OK)) {
				stopping = true;
				continue;
			}
			if (spin) {
				sched_yield();
				continue;
			}
			ret = srl_map_wait(map, 100);
			if (ret < 0) {
				fprintf(stderr, "stress_map: wait: %s\n",
					strerror(-ret));
				failed = 1;
				break;
			}
			continue;
		}
		if (n == -EPIPE) {
			pipes++;
			expect = srl_map_cursor(map);
			continue;
		}
		if (n <= 0) {
			fprintf(stderr, "stress_map: read: %s\n",
				n ? strerror((int)-n) : "end of file");
			failed = 1;
			break;
		}
		for (i = 0; i < n; i++) {
			if (rec[i].seq != expect)
				gaps++;
			expect = rec[i].seq + 1;
			if (!reading_ok(&rec[i])) {
				if (torn++ < 5)
					print_torn(&rec[i]);
				continue;
			}
			w = rec[i].reading.channel;
			if ((unsigned long long)rec[i].reading.value <=
			    seen[w].last)
				order++;
			seen[w].last = (unsigned long long)rec[i].reading.value;
			seen[w].seen++;
		}
		read += n;
	}
	lost = srl_map_lost(map);
	printf("map: read=%llu lost=%llu pipes=%llu torn=%llu gaps=%llu ",
	       read, (unsigned long long)lost, pipes, torn, gaps);
	printf("order=%llu first=%llu next=%llu writers=", order,
	       (unsigned long long)first, (unsigned long long)expect);
	for (w = 0; w < WRITERS_MAX; w++)
		if (seen[w].seen)
			printf("%u:%llu:%llu,", w, seen[w].seen, seen[w].last);
	printf("\n");
	srl_map_close(map);
	close(fd);
	return failed || torn || gaps || order;
}
