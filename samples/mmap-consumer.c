// SPDX-License-Identifier: GPL-2.0
/*
 * mmap-consumer - the smallest consumer of a ring's mapping: read the
 * readings where the driver keeps them, without a system call each, and
 * sleep in poll() only when there is nothing to read (libseqring's
 * srl_map_*; seqring(4) "Mapping" has the protocol it follows)
 *
 * Usage: mmap-consumer [-n COUNT] [RING]
 *
 * Prints every reading of /dev/seqring (or /dev/seqring-RING) from the
 * oldest held on, in the format of /proc/seqring, until COUNT were
 * printed or the ring is destroyed. Readings overwritten before it read
 * them are counted on standard error, never skipped silently.
 *
 * Build: cc mmap-consumer.c $(pkg-config --cflags --libs seqring)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libseqring.h>

/* Records copied out of the mapping at a time. */
#define BATCH	64

int main(int argc, char **argv)
{
	char label[SRL_ESCAPED_LABEL_LEN];
	struct seqring_record rec[BATCH];
	unsigned long long count = 0, shown = 0;
	struct srl_map *map;
	__u64 lost = 0;
	ssize_t n, i;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			goto usage;
		count = strtoull(optarg, NULL, 10);
	}
	if (argc - optind > 1)
		goto usage;
	ret = srl_map_open_ring(argv[optind], &map);
	if (ret) {
		fprintf(stderr, "mmap-consumer: cannot map the ring: %s\n",
			strerror(-ret));
		return EXIT_FAILURE;
	}
	while (!count || shown < count) {
		n = srl_map_read(map, rec, BATCH);
		if (n == -EAGAIN) {
			/* Tells the driver where we are, then poll()s. */
			ret = srl_map_wait(map, -1);
			if (ret < 0 && ret != -EINTR)
				break;
			continue;
		}
		if (n == -EPIPE) {
			fprintf(stderr, "mmap-consumer: %llu readings lost\n",
				(unsigned long long)(srl_map_lost(map) - lost));
			lost = srl_map_lost(map);
			continue;
		}
		if (n <= 0) {
			/* 0: the ring was destroyed, and all of it read. */
			ret = n;
			break;
		}
		for (i = 0; i < n && (!count || shown < count); i++, shown++) {
			srl_escape_label(label, rec[i].reading.label);
			printf("%llu %llu %u %lld %s\n",
			       (unsigned long long)rec[i].seq,
			       (unsigned long long)rec[i].reading.timestamp_ns,
			       rec[i].reading.channel,
			       (long long)rec[i].reading.value, label);
		}
		fflush(stdout);
		ret = 0;
	}
	srl_map_close(map);
	if (ret < 0) {
		fprintf(stderr, "mmap-consumer: %s\n", strerror(-ret));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;

usage:
	fprintf(stderr, "usage: mmap-consumer [-n COUNT] [RING]\n");
	return 2;
}
