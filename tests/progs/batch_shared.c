// SPDX-License-Identifier: GPL-2.0
/*
 * batch_shared - PUSH_BATCH from several processes through one open file
 *
 * Usage: batch_shared PROCS BATCHES
 *
 * Opens /dev/seqring once and forks PROCS processes that share that open
 * file, so they share its batch buffer: each pushes BATCHES batches whose
 * sizes cycle through 1, 100, 4096, 5000 (over the buffer's 4096, its own
 * copy) and 3000 readings. Process k stamps its readings with channel k + 1
 * and values 0, 1, 2, ... in order. Batches that meet another in progress
 * on the same file take the fallback copy, so both paths run at once.
 *
 * Then, as TAP: every batch succeeded; `total` grew by the number pushed;
 * and the listing (the ring must hold them all) shows each process's values
 * exactly once and in order: a batch buffer shared wrongly would show
 * another process's readings, or lose some.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

#define DEV_PATH	"/dev/seqring"
#define PROC_PATH	"/proc/seqring"
#define MAX_PROCS	8

static const unsigned int sizes[] = { 1, 100, 4096, 5000, 3000 };

static unsigned int batch_size(unsigned int j)
{
	return sizes[j % ARRAY_SIZE(sizes)];
}

/* Child @k: push @batches batches through @fd; exit status 0 or errno. */
static void child(int fd, unsigned int k, unsigned int batches)
{
	struct seqring_reading *r;
	struct seqring_batch b;
	unsigned long long v = 0;
	unsigned int j, i, n;

	r = calloc(5000, sizeof(*r));
	if (!r)
		_exit(ENOMEM);
	for (j = 0; j < batches; j++) {
		n = batch_size(j);
		for (i = 0; i < n; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].timestamp_ns = 1;
			r[i].channel = k + 1;
			r[i].value = v++;
			snprintf(r[i].label, sizeof(r[i].label), "p%u", k);
		}
		memset(&b, 0, sizeof(b));
		b.readings = (uintptr_t)r;
		b.count = n;
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
			_exit(errno);
	}
	_exit(0);
}

static int get_total(int fd, unsigned long long *total)
{
	struct seqring_stats st;

	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		return -1;
	*total = st.total;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long want[MAX_PROCS], next[MAX_PROCS] = { 0 };
	unsigned long long before, after, pushed = 0, seq, ts, value;
	unsigned int procs = 0, batches = 0, k, j, ch, bad_lines = 0;
	char line[256], label[64], first_bad[256] = "";
	int fd, status, failed = 0, first_err = 0;
	pid_t pid[MAX_PROCS];
	FILE *f;

	if (argc == 3) {
		procs = strtoul(argv[1], NULL, 10);
		batches = strtoul(argv[2], NULL, 10);
	}
	if (argc != 3 || procs < 1 || procs > MAX_PROCS || batches < 1) {
		fprintf(stderr, "usage: batch_shared PROCS(1..%d) BATCHES\n",
			MAX_PROCS);
		return 2;
	}

	tap_plan(3);
	fd = open(DEV_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open %s: %s", DEV_PATH, strerror(errno));
	if (get_total(fd, &before))
		tap_bail("GET_STATS: %s", strerror(errno));

	for (k = 0; k < procs; k++) {
		want[k] = 0;
		for (j = 0; j < batches; j++)
			want[k] += batch_size(j);
		pushed += want[k];
		pid[k] = fork();
		if (pid[k] < 0)
			tap_bail("fork: %s", strerror(errno));
		if (!pid[k])
			child(fd, k, batches);
	}
	for (k = 0; k < procs; k++) {
		if (waitpid(pid[k], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			failed++;
			if (!first_err && WIFEXITED(status))
				first_err = WEXITSTATUS(status);
		}
	}
	if (!tap_result(!failed, "%u processes x %u batches through one file all succeed",
			procs, batches))
		tap_diag("%d process(es) failed, first with %s", failed,
			 first_err ? errname(first_err) : "a signal");

	if (get_total(fd, &after))
		tap_bail("GET_STATS: %s", strerror(errno));
	if (!tap_result(after - before == pushed, "total grew by the %llu readings pushed",
			pushed))
		tap_diag("expected %llu, got %llu", pushed, after - before);
	close(fd);

	f = fopen(PROC_PATH, "r");
	if (!f)
		tap_bail("open %s: %s", PROC_PATH, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%llu %llu %u %llu %63s", &seq, &ts, &ch, &value,
			   label) != 5 || ch < 1 || ch > procs ||
		    value != next[ch - 1]) {
			if (!bad_lines++)
				snprintf(first_bad, sizeof(first_bad), "%s", line);
			continue;
		}
		next[ch - 1]++;
	}
	fclose(f);
	for (k = 0; k < procs; k++)
		if (next[k] != want[k])
			bad_lines++;
	if (!tap_result(!bad_lines, "the listing holds each process's readings once, in order")) {
		tap_diag("%u unexpected line(s) or short channel(s); first bad line: %s",
			 bad_lines, first_bad[0] ? first_bad : "(none)");
		for (k = 0; k < procs; k++)
			tap_diag("channel %u: %llu of %llu in order", k + 1, next[k],
				 want[k]);
	}
	return tap_finish();
}
