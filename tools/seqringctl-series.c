// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-series - the latest reading of each channel and label, for
 * stats --readings (the gauges it exports) and top (the values it shows)
 *
 * Readings are added oldest first, so the one a series keeps is its
 * latest. Open addressing, at most half full.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seqring.h>

#include "seqringctl.h"

static size_t series_hash(__u32 channel, const char *label)
{
	size_t h = 2166136261u ^ channel;	/* FNV-1a */
	size_t i;

	for (i = 0; i < SEQRING_LABEL_LEN && label[i]; i++)
		h = (h ^ (unsigned char)label[i]) * 16777619u;
	return h;
}

static struct series *series_find(struct series_table *t, __u32 channel,
				  const char *label)
{
	size_t i = series_hash(channel, label) & (t->size - 1);

	while (t->slot[i].used &&
	       (t->slot[i].channel != channel ||
		strncmp(t->slot[i].label, label, SEQRING_LABEL_LEN)))
		i = (i + 1) & (t->size - 1);
	return &t->slot[i];
}

static int series_grow(struct series_table *t)
{
	struct series_table bigger = *t;
	struct series *s;
	size_t i;

	bigger.size = t->size ? 2 * t->size : 256;
	bigger.used = 0;
	bigger.slot = calloc(bigger.size, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -ENOMEM;
	for (i = 0; i < t->size; i++) {
		if (!t->slot[i].used)
			continue;
		s = series_find(&bigger, t->slot[i].channel, t->slot[i].label);
		*s = t->slot[i];
		bigger.used++;
	}
	free(t->slot);
	*t = bigger;
	return 0;
}

int series_add(struct series_table *t, const struct seqring_reading *r)
{
	struct series *s;

	if (2 * (t->used + 1) > t->size && series_grow(t))
		return -ENOMEM;
	s = series_find(t, r->channel, r->label);
	if (!s->used) {
		if (t->limit && t->used >= t->limit) {
			t->refused++;
			return -ENOSPC;
		}
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

struct series *series_sorted(const struct series_table *t)
{
	struct series *out;
	size_t i, n = 0;

	out = malloc((t->used ? t->used : 1) * sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i < t->size; i++)
		if (t->slot[i].used)
			out[n++] = t->slot[i];
	qsort(out, n, sizeof(*out), series_cmp);
	return out;
}

void series_free(struct series_table *t)
{
	free(t->slot);
	t->slot = NULL;
	t->size = 0;
	t->used = 0;
}
