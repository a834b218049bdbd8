/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the programs of the stress tier (tests/stress/): a
 * seeded pseudo-random generator, the readings the writers push, the text
 * the listing shows for them, and a parser for listing lines.
 *
 * A reading pushed by stress_writer number ID with value V (1, 2, 3, ... per
 * writer) has channel ID, a label derived from ID and V, and timestamp
 * V * 1000 + ID when V is odd, 0 (stamped by the driver) when V is even. So
 * a reader can tell from one listing line whether the driver stored exactly
 * what was pushed.
 */
#ifndef _SEQRING_STRESS_H
#define _SEQRING_STRESS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include <linux/seqring.h>

#include "tap.h"

/* splitmix64: small, fast, and the same sequence for the same seed. */
static inline __u64 stress_rand(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n), n > 0. */
static inline __u64 stress_below(__u64 *state, __u64 n)
{
	return stress_rand(state) % n;
}

/* Seconds on the monotonic clock. */
static inline double stress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A seed from the clock, for runs that were not given one. */
static inline __u64 stress_clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec) &
	       0xffffffffffffULL;
}

/* Parse an unsigned number or exit with status 2. */
static inline unsigned long long stress_parse_u(const char *what, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-') {
		fprintf(stderr, "bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/*
 * The label of writer @id's reading @value. The separator cycles through
 * the characters seq_escape() must escape, so the listing shows escapes.
 */
static inline void stress_label(char label[SEQRING_LABEL_LEN],
				unsigned int id, unsigned long long value)
{
	static const char sep[] = " \t\\_";

	memset(label, 0, SEQRING_LABEL_LEN);
	snprintf(label, SEQRING_LABEL_LEN, "w%u%c%llu", id % 1000,
		 sep[value % 4], value % 1000000000ULL);
}

/* The reading writer @id pushes with value @value. */
static inline void stress_reading(struct seqring_reading *r, unsigned int id,
				  unsigned long long value)
{
	memset(r, 0, sizeof(*r));
	r->timestamp_ns = value % 2 ? value * 1000 + id : 0;
	r->value = (long long)value;
	r->channel = id;
	stress_label(r->label, id, value);
}

/*
 * The listing's form of a label: every byte that is not printable ASCII
 * (0x00-0x20, 0x7f, 0x80-0xff) and the backslash as three-digit octal
 * escapes, other bytes as they are; "-" when empty, and "\055" for a label
 * that is "-" itself. @out needs 4 * SEQRING_LABEL_LEN + 1 bytes.
 */
static inline void stress_escape(const char *label, char *out)
{
	size_t i;

	if (!label[0]) {
		strcpy(out, "-");
		return;
	}
	if (!strcmp(label, "-")) {
		strcpy(out, "\\055");
		return;
	}
	for (i = 0; i < SEQRING_LABEL_LEN && label[i]; i++) {
		unsigned char c = (unsigned char)label[i];

		if (c <= ' ' || c >= 0x7f || c == '\\') {
			sprintf(out, "\\%03o", c);
			out += 4;
		} else {
			*out++ = (char)c;
		}
	}
	*out = '\0';
}

#define STRESS_ESCAPED_LEN	(4 * SEQRING_LABEL_LEN + 1)

/* One listing line, split into its fields. */
struct stress_line {
	unsigned long long seq;
	unsigned long long timestamp_ns;
	unsigned long long channel;
	long long value;
	char label[STRESS_ESCAPED_LEN];
};

static inline bool stress_parse_field_u(const char **p,
					unsigned long long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno || *end != ' ')
		return false;
	*p = end + 1;
	return true;
}

/*
 * Parse "SEQ TIMESTAMP CHANNEL VALUE LABEL" (@s without its newline, @len
 * bytes). Returns false if the line does not have exactly that form.
 */
static inline bool stress_parse_line(const char *s, size_t len,
				     struct stress_line *l)
{
	const char *p = s, *end = s + len;
	char *e;
	size_t n;

	if (memchr(s, '\0', len))
		return false;
	if (!stress_parse_field_u(&p, &l->seq) ||
	    !stress_parse_field_u(&p, &l->timestamp_ns) ||
	    !stress_parse_field_u(&p, &l->channel) || l->channel > UINT32_MAX)
		return false;
	if (*p != '-' && (*p < '0' || *p > '9'))
		return false;
	errno = 0;
	l->value = strtoll(p, &e, 10);
	if (errno || *e != ' ' || e == p)
		return false;
	p = e + 1;
	n = (size_t)(end - p);
	if (!n || n >= sizeof(l->label) || memchr(p, ' ', n))
		return false;
	memcpy(l->label, p, n);
	l->label[n] = '\0';
	return true;
}

#define STRESS_HEADER	"# SEQ TIMESTAMP_NS CHANNEL VALUE LABEL"

#endif /* _SEQRING_STRESS_H */
