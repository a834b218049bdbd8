// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-metrics - the readings themselves as Prometheus gauges (stats
 * --format=prometheus --readings): the latest value of each channel and
 * label the ring holds, and that reading's time.
 *
 * The time is a gauge of its own, not the sample's timestamp: node_exporter's
 * textfile collector, which these files are for, refuses samples that carry
 * one.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/seqring.h>

#include "seqring-utils.h"
#include "seqringctl.h"

#define READ_RECORDS	256

/* The latest reading of one channel and label. */
struct series {
	bool used;
	__u32 channel;
	char label[SEQRING_LABEL_LEN];
	__s64 value;
	__u64 timestamp_ns;
};

/* Open addressing, at most half full. */
struct table {
	struct series *slot;
	size_t size;
	size_t used;
};

static size_t series_hash(__u32 channel, const char *label)
{
	size_t h = 2166136261u ^ channel;	/* FNV-1a */
	size_t i;

	for (i = 0; i < SEQRING_LABEL_LEN && label[i]; i++)
		h = (h ^ (unsigned char)label[i]) * 16777619u;
	return h;
}

static struct series *table_find(struct table *t, __u32 channel,
				 const char *label)
{
	size_t i = series_hash(channel, label) & (t->size - 1);

	while (t->slot[i].used &&
	       (t->slot[i].channel != channel ||
		strncmp(t->slot[i].label, label, SEQRING_LABEL_LEN)))
		i = (i + 1) & (t->size - 1);
	return &t->slot[i];
}

static int table_grow(struct table *t)
{
	struct table bigger = { .size = t->size ? 2 * t->size : 256 };
	struct series *s;
	size_t i;

	bigger.slot = calloc(bigger.size, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -ENOMEM;
	for (i = 0; i < t->size; i++) {
		if (!t->slot[i].used)
			continue;
		s = table_find(&bigger, t->slot[i].channel, t->slot[i].label);
		*s = t->slot[i];
		bigger.used++;
	}
	free(t->slot);
	*t = bigger;
	return 0;
}

/* Records come oldest first: a later one is the latest of its series. */
static int table_add(struct table *t, const struct seqring_reading *r)
{
	struct series *s;

	if (2 * (t->used + 1) > t->size && table_grow(t))
		return -ENOMEM;
	s = table_find(t, r->channel, r->label);
	if (!s->used) {
		s->used = true;
		s->channel = r->channel;
		memcpy(s->label, r->label, SEQRING_LABEL_LEN);
		t->used++;
	}
	s->value = r->value;
	s->timestamp_ns = r->timestamp_ns;
	return 0;
}

static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	if (x->channel != y->channel)
		return x->channel < y->channel ? -1 : 1;
	return strncmp(x->label, y->label, SEQRING_LABEL_LEN);
}

/*
 * A label value must be UTF-8: a label that is, as it is; any other in the
 * listing's escaping (\ooo), which is ASCII. prom_label_value() then
 * escapes the backslashes.
 */
static void print_labels(const char *device, const struct series *s)
{
	char label[4 * SEQRING_LABEL_LEN];
	size_t len = strnlen(s->label, SEQRING_LABEL_LEN);

	printf("{device=\"");
	prom_label_value(device);
	printf("\",channel=\"%u\",label=\"", s->channel);
	if (seqring_utf8_valid(s->label, len)) {
		memcpy(label, s->label, len);
		label[len] = '\0';
	} else {
		escape_label(label, s->label);
	}
	prom_label_value(label);
	printf("\"}");
}

static void print_series(const char *device, const struct series *s,
			 size_t n)
{
	size_t i;

	puts("# HELP seqring_reading_value Latest value of the channel and label in the ring.\n"
	     "# TYPE seqring_reading_value gauge");
	for (i = 0; i < n; i++) {
		printf("seqring_reading_value");
		print_labels(device, &s[i]);
		printf(" %lld\n", (long long)s[i].value);
	}
	puts("# HELP seqring_reading_timestamp_seconds Time of that reading (Unix time).\n"
	     "# TYPE seqring_reading_timestamp_seconds gauge");
	for (i = 0; i < n; i++) {
		printf("seqring_reading_timestamp_seconds");
		print_labels(device, &s[i]);
		printf(" %llu.%09llu\n",
		       (unsigned long long)(s[i].timestamp_ns / 1000000000),
		       (unsigned long long)(s[i].timestamp_ns % 1000000000));
	}
}

int print_readings_prometheus(int fd, const char *device, const char *label,
			      __u64 end_seq)
{
	struct seqring_record buf[READ_RECORDS];
	struct table t = { .slot = NULL };
	size_t i, n = 0;
	ssize_t len;
	int ret = 0;

	/* Read from the oldest held to the newest there was at the start. */
	for (;;) {
		len = read(fd, buf, sizeof(buf));
		if (len < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;
			if (errno == EAGAIN)
				break;
			ret = device_error(device, "cannot read readings",
					   -errno);
			goto out;
		}
		if (!len)
			break;
		for (i = 0; i < len / sizeof(buf[0]); i++) {
			if (buf[i].seq > end_seq)
				goto done;
			if (table_add(&t, &buf[i].reading)) {
				ret = out_of_memory();
				goto out;
			}
		}
	}
done:
	/* Packed and sorted: the same ring gives the same file. */
	for (i = 0; i < t.size; i++)
		if (t.slot[i].used)
			t.slot[n++] = t.slot[i];
	if (n) {
		qsort(t.slot, n, sizeof(*t.slot), series_cmp);
		print_series(label, t.slot, n);
	}
out:
	free(t.slot);
	return ret;
}
