// SPDX-License-Identifier: GPL-2.0
/*
 * forge - regions of a persistent ring as a forger makes them
 *
 * Usage: forge [-s SEED] [-S SIZE] [-P PAGE] [-K KPAGE] [-o IMAGE]
 *              [-e EXPECT] [-w READINGS] CASE
 *        forge -l
 *
 * Builds a region of SIZE bytes (default 65536) in the format of
 * driver/persist.c, laid out for pages of PAGE bytes (default this
 * machine's): the header (with its crc32), the meta page, the slots and a
 * crc32 per slot, every checksum right. The region holds a ring of
 * readings; CASE then varies one field, or one reading, or a few readings
 * (random ones, from SEED). The checksums are made right again afterwards
 * unless the case is about a wrong one: a forger writes the checksums too,
 * so that what is varied reaches the code behind them.
 *
 * IMAGE gets the region (default: standard output). Standard error gets
 * one line saying what was varied. EXPECT gets, as shell assignments,
 * what a kernel of KPAGE-byte pages (default this machine's: forge runs
 * in the guest) must make of the region
 * when seqring.ko loads over it, worked out from the format as
 * doc/design.md and seqring(4) describe it, not from the driver's code:
 *   EXPECT_MSG    the load's message after "seqring: region ADDR+SIZE: "
 *   EXPECT_PREV   1 if /dev/seqring.prev must exist, else 0
 *   EXPECT_NEXT   the sequence number of the new ring's first reading
 *   EXPECT_REGION its /sys/kernel/debug/seqring.prev/region without the
 *                 "region:" line, lines joined with ' '
 * READINGS gets the readings /dev/seqring.prev must show, as
 * `seqringctl dump` prints them. -l lists the cases.
 *
 * Deterministic: the same arguments give the same bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "tap.h"

/* driver/seqring.h: struct seqring_persist_header (not ABI; page 0). */
struct header {
	__u64 magic;
	__u32 version;
	__u32 header_crc;
	__u32 page_size;
	__u32 slot_size;
	__u32 capacity;
	__u32 reserved;
	__u64 region_size;
};

#define MAGIC		0x5352455052514553ULL	/* "SEQRPERS" */
#define VERSION		1
/* Counters above 2^62 are refused (driver/seqring.h). */
#define SEQ_MAX		0x4000000000000000ULL
#define SLOT_SIZE	sizeof(struct seqring_mmap_slot)

struct layout {
	__u64 size, page, capacity, slots_size, crcs_offset;
};

static __u8 *img;
static struct layout lay;
static __u64 seed_state;
static char varied[512];

/* xorshift64*: every random choice of a case, from the seed. */
static __u64 rnd(void)
{
	seed_state ^= seed_state >> 12;
	seed_state ^= seed_state << 25;
	seed_state ^= seed_state >> 27;
	return seed_state * 0x2545f4914f6cdd1dULL;
}

static __u64 rnd_below(__u64 n)
{
	return n ? rnd() % n : 0;
}

/* The kernel's crc32_le(): reflected 0xedb88320, no final inversion. */
static __u32 crc32_le(__u32 crc, const void *p, size_t len)
{
	const __u8 *b = p;
	int k;

	while (len--) {
		crc ^= *b++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (crc & 1 ? 0xedb88320 : 0);
	}
	return crc;
}

static __u64 page_align(__u64 n, __u64 page)
{
	return (n + page - 1) / page * page;
}

/*
 * The layout of a region of @size bytes for pages of @page bytes: header
 * and meta pages, then the slots and one crc32 each, each part whole
 * pages, the largest capacity that fits (at most SEQRING_CAPACITY_MAX).
 * Capacity 0: no ring fits.
 */
static struct layout layout_of(__u64 size, __u64 page)
{
	struct layout l = { .size = size, .page = page };
	__u64 cap;

	if (size % page || size < 4 * page)
		return l;
	cap = (size - 2 * page) / (SLOT_SIZE + 4);
	if (cap > SEQRING_CAPACITY_MAX)
		cap = SEQRING_CAPACITY_MAX;
	for (; cap; cap--) {
		l.slots_size = page_align(cap * SLOT_SIZE, page);
		if (2 * page + l.slots_size + page_align(cap * 4, page) <= size)
			break;
	}
	l.capacity = cap;
	l.crcs_offset = 2 * page + l.slots_size;
	return l;
}

static struct header *hdr(void)
{
	return (struct header *)img;
}

static struct seqring_mmap_meta *meta(void)
{
	return (struct seqring_mmap_meta *)(img + lay.page);
}

static struct seqring_mmap_slot *slot_of(__u64 seq)
{
	return (struct seqring_mmap_slot *)(img + 2 * lay.page) +
	       seq % lay.capacity;
}

static __u32 *crc_of(__u64 seq)
{
	return (__u32 *)(img + lay.crcs_offset) + seq % lay.capacity;
}

/* The checksum of a slot holding @r as @seq: seq word, then the reading. */
static __u32 slot_crc(__u64 seq, const struct seqring_reading *r)
{
	return crc32_le(crc32_le(~0U, &seq, sizeof(seq)), r, sizeof(*r));
}

static __u32 header_crc(void)
{
	struct header h = *hdr();

	h.magic = MAGIC;
	h.header_crc = 0;
	return crc32_le(~0U, &h, sizeof(h));
}

/* Store @r as @seq, with its checksum: a forger's or a producer's store. */
static void put(__u64 seq, const struct seqring_reading *r)
{
	slot_of(seq)->seq = seq;
	slot_of(seq)->reading = *r;
	*crc_of(seq) = slot_crc(seq, r);
}

/* Reading @seq of the base ring: what a push would have stored. */
static struct seqring_reading base_reading(__u64 seq)
{
	struct seqring_reading r = {
		.timestamp_ns = 1700000000000000000ULL + seq * 1000,
		.value = (__s64)(seq * 7) - 100,
		.channel = (__u32)(seq % 5),
	};

	snprintf(r.label, sizeof(r.label), "f%llu", seq % 1000000);
	return r;
}

/* A formatted region holding readings [@first, @first + @n). */
static void base_ring(__u64 first, __u64 n)
{
	struct seqring_mmap_meta *m = meta();
	struct header *h = hdr();
	__u64 seq;

	memset(img, 0, lay.size);
	m->version = SEQRING_MMAP_VERSION;
	m->meta_size = lay.page;
	m->slot_size = SLOT_SIZE;
	m->capacity = lay.capacity;
	m->slots_offset = lay.page;
	m->slots_size = lay.slots_size;
	for (seq = first; seq < first + n; seq++) {
		struct seqring_reading r = base_reading(seq);

		put(seq, &r);
	}
	m->next_seq = first + n;
	m->oldest_seq = first;
	h->magic = MAGIC;
	h->version = VERSION;
	h->page_size = lay.page;
	h->slot_size = SLOT_SIZE;
	h->capacity = lay.capacity;
	h->region_size = lay.size;
	h->header_crc = header_crc();
}

/* ---- the cases ---------------------------------------------------------- */

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(varied, sizeof(varied), fmt, ap);
	va_end(ap);
}

/* A header field set to @v, the header's checksum made right again. */
static void header_field(const char *name, void *field, size_t size, __u64 v)
{
	memcpy(field, &v, size);
	hdr()->header_crc = header_crc();
	say("header %s = %#llx (checksum made right)", name, v);
}

/* Values at and near the limits of a field of @bits bits around @around. */
static __u64 edge_value(unsigned int bits, __u64 around)
{
	const __u64 max = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	const __u64 vals[] = {
		0, 1, around - 1, around + 1, 2 * around, around / 2,
		max, max - 1, max >> 1, (max >> 1) + 1, SEQRING_CAPACITY_MAX,
		SEQRING_CAPACITY_MAX + 1ULL, 4096, 16384, 65536,
	};
	__u64 v;

	do
		v = vals[rnd_below(ARRAY_SIZE(vals))] & max;
	while (v == around);
	return v;
}

/* The reading @seq as a forger changes it: @how, its checksum right. */
static void vary_reading(__u64 seq, const char *how)
{
	struct seqring_reading r = slot_of(seq)->reading;
	unsigned int i;

	if (!strcmp(how, "flag")) {
		i = rnd_below(32);
		r.flags = 1U << i;
		say("reading %llu: flag bit %u set", seq, i);
	} else if (!strcmp(how, "nonul")) {
		for (i = 0; i < SEQRING_LABEL_LEN; i++)
			r.label[i] = 'a' + rnd_below(26);
		say("reading %llu: label of 16 letters, no NUL", seq);
	} else if (!strcmp(how, "ff")) {
		memset(r.label, 0xff, sizeof(r.label));
		say("reading %llu: label of 16 bytes 0xff", seq);
	} else if (!strcmp(how, "afternul")) {
		size_t len = strnlen(r.label, SEQRING_LABEL_LEN);

		i = len + 1 + rnd_below(SEQRING_LABEL_LEN - len - 1);
		r.label[i] = 1 + rnd_below(255);
		say("reading %llu: byte %#x at %u, after the label's NUL",
		    seq, (__u8)r.label[i], i);
	} else if (!strcmp(how, "ctrl")) {
		/* A label a push stores: any byte but NUL before the NUL. */
		size_t len = 1 + rnd_below(SEQRING_LABEL_LEN - 1);

		memset(r.label, 0, sizeof(r.label));
		for (i = 0; i < len; i++)
			r.label[i] = 1 + rnd_below(255);
		say("reading %llu: label of %zu bytes from 0x01-0xff (a push stores such)",
		    seq, len);
	} else if (!strcmp(how, "empty")) {
		memset(r.label, 0, sizeof(r.label));
		say("reading %llu: empty label", seq);
	} else if (!strcmp(how, "dash")) {
		memset(r.label, 0, sizeof(r.label));
		r.label[0] = '-';
		say("reading %llu: label \"-\"", seq);
	} else if (!strcmp(how, "fields")) {
		const __s64 values[] = { INT64_MIN, INT64_MAX, -1, 0 };
		const __u64 stamps[] = { 1, ~0ULL, 1ULL << 63, 0 };

		r.value = values[rnd_below(4)];
		r.timestamp_ns = stamps[rnd_below(4)];
		r.channel = rnd_below(2) ? ~0U : 0;
		say("reading %llu: value %lld timestamp %llu channel %u",
		    seq, (__s64)r.value, (__u64)r.timestamp_ns, r.channel);
	} else if (!strcmp(how, "busy")) {
		slot_of(seq)->seq |= SEQRING_SEQ_BUSY;
		say("reading %llu: seq word BUSY (a store never finished)", seq);
		return;
	} else if (!strcmp(how, "crc")) {
		*crc_of(seq) ^= 1U << rnd_below(32);
		say("reading %llu: its checksum wrong (a torn store)", seq);
		return;
	} else if (!strcmp(how, "seq")) {
		/* Another number in the slot, with that number's checksum. */
		__u64 other = seq + (rnd_below(2) ? lay.capacity : -lay.capacity);

		put(other, &r);
		say("reading %llu: slot holds %llu instead", seq, other);
		return;
	}
	put(seq, &r);
}

static const char *const reading_ways[] = {
	"flag", "nonul", "ff", "afternul", "ctrl", "empty", "dash", "fields",
	"busy", "crc", "seq",
};

#define NR_WAYS ARRAY_SIZE(reading_ways)

struct forge_case {
	const char *name;
	const char *what;
	void (*make)(const char *arg);
	const char *arg;
};

static __u64 held(void)
{
	__u64 n = 20 + rnd_below(lay.capacity - 20 + 1);

	return n > lay.capacity ? lay.capacity : n;
}

static void c_valid(const char *arg)
{
	__u64 first = 1 + rnd_below(arg ? 1000000 : 3);

	base_ring(first, held());
	say("nothing (a valid ring from %llu)", first);
}

static void c_zero(const char *arg)
{
	(void)arg;
	memset(img, 0, lay.size);
	say("every byte zero");
}

static void c_noise(const char *arg)
{
	__u64 i;
	(void)arg;

	for (i = 0; i < lay.size; i += 8) {
		__u64 w = rnd();

		memcpy(img + i, &w, 8);
	}
	say("every byte random");
}

static void c_foreign(const char *arg)
{
	__u32 word = !strcmp(arg, "ramoops") ? 0x43474244 : 0xbadfeed;

	base_ring(1, held());
	memcpy(img, &word, 4);
	say("the first word %#x, as %s leaves it", word, arg);
}

static void c_header(const char *field)
{
	struct header *h = hdr();

	base_ring(1, held());
	if (!strcmp(field, "magic")) {
		h->magic ^= 1ULL << rnd_below(64);
		say("header magic %#llx", (__u64)h->magic);
	} else if (!strcmp(field, "version")) {
		header_field("version", &h->version, 4, edge_value(32, VERSION));
	} else if (!strcmp(field, "crc")) {
		h->header_crc ^= 1U << rnd_below(32);
		say("header checksum wrong");
	} else if (!strcmp(field, "page_size")) {
		header_field("page_size", &h->page_size, 4, edge_value(32, lay.page));
	} else if (!strcmp(field, "slot_size")) {
		header_field("slot_size", &h->slot_size, 4, edge_value(32, SLOT_SIZE));
	} else if (!strcmp(field, "capacity")) {
		header_field("capacity", &h->capacity, 4, edge_value(32, lay.capacity));
	} else if (!strcmp(field, "region_size")) {
		header_field("region_size", &h->region_size, 8, edge_value(64, lay.size));
	} else if (!strcmp(field, "reserved")) {
		header_field("reserved", &h->reserved, 4, 1 + rnd_below(~0U));
	}
}

/* The meta page's words other than the counters: nobody reads them. */
static void c_meta_layout(const char *arg)
{
	struct seqring_mmap_meta *m = meta();
	__u64 *w = (__u64 *)m;
	unsigned int i;
	(void)arg;

	base_ring(1, held());
	for (i = 0; i < 16; i++)
		w[i] = rnd();
	for (i = 17; i < 32; i++)
		w[i] = rnd();
	for (i = 33; i < 48; i++)
		w[i] = rnd();
	say("every word of the meta page but next_seq and oldest_seq random");
}

/*
 * next_seq at @arg (2^62, 2^63 - 1, ...): the ring's readings just below
 * it, their checksums right. "63-1" is the region of issue 34: the newest
 * intact reading at 2^63 - 2.
 */
static __u64 power_arg(const char *arg)
{
	int p = atoi(arg);
	const char *d = strchr(arg, '-');
	const char *u = strchr(arg, '+');
	__u64 v = p == 64 ? 0 : 1ULL << p;

	if (d)
		v -= strtoull(d + 1, NULL, 10);
	if (u)
		v += strtoull(u + 1, NULL, 10);
	return v;
}

static void c_next(const char *arg)
{
	__u64 next = power_arg(arg);
	__u64 n = 1 + rnd_below(lay.capacity < 8 ? lay.capacity : 8);

	base_ring(next - n, n);
	say("next_seq %#llx (2^%s), readings %#llx..%#llx below it",
	    next, arg, next - n, next - 1);
}

static void c_oldest(const char *arg)
{
	struct seqring_mmap_meta *m = meta();

	base_ring(1, held());
	if (!strcmp(arg, "zero"))
		m->oldest_seq = 0;
	else if (!strcmp(arg, "above"))
		m->oldest_seq = m->next_seq + 1 + rnd_below(3 * lay.capacity);
	else if (!strcmp(arg, "low"))
		m->oldest_seq = 1;
	else
		m->oldest_seq = power_arg(arg);
	say("oldest_seq %#llx (next_seq %#llx)",
	    (__u64)m->oldest_seq, (__u64)m->next_seq);
}

static void c_next_zero(const char *arg)
{
	(void)arg;
	base_ring(1, held());
	meta()->next_seq = 0;
	say("next_seq 0");
}

static void c_reading(const char *how)
{
	__u64 n = held(), seq;

	base_ring(1, n);
	seq = 1 + rnd_below(n);
	vary_reading(seq, how);
}

/*
 * A producer stopped in the middle of a store: its slot BUSY, next_seq
 * held there; later readings stored after it, above next_seq (a push that
 * returned), maybe a lap later, oldest_seq raised past what they
 * overwrote.
 */
static void c_above_next(const char *arg)
{
	__u64 n = 10 + rnd_below(lay.capacity / 2), stuck, later, seq;
	struct seqring_mmap_meta *m = meta();

	base_ring(1, n);
	stuck = n + 1;
	slot_of(stuck)->seq = stuck | SEQRING_SEQ_BUSY;
	/* "lap": past the stuck slot's next turn, which that push gave up. */
	later = arg ? lay.capacity + rnd_below(lay.capacity / 2) :
		      1 + rnd_below(lay.capacity / 2);
	for (seq = stuck + 1; seq <= stuck + later; seq++) {
		struct seqring_reading r = base_reading(seq);

		/* A lap later, the stuck slot: that push gave up. */
		if (seq % lay.capacity != stuck % lay.capacity)
			put(seq, &r);
	}
	if (stuck + later >= lay.capacity && stuck + later - lay.capacity + 1 > m->oldest_seq)
		m->oldest_seq = stuck + later - lay.capacity + 1;
	m->next_seq = stuck;
	say("%llu stopped in its store, %llu stored after it (next_seq %llu, oldest_seq %llu)",
	    stuck, later, (__u64)m->next_seq, (__u64)m->oldest_seq);
}

/*
 * The second region of issue 34: readings no push could make, each with
 * its checksum right (a label of 16 bytes without a NUL, a byte after the
 * NUL, flags 0xdead, a label of 0xff bytes), and one a push could.
 */
static void c_labels_34(const char *arg)
{
	struct seqring_reading r;
	__u64 seq;

	(void)arg;
	base_ring(1, 5);
	for (seq = 1; seq <= 4; seq++) {
		r = base_reading(seq);
		switch (seq) {
		case 1:
			memcpy(r.label, "sixteen_bytes_xx", SEQRING_LABEL_LEN);
			break;
		case 2:
			r.label[SEQRING_LABEL_LEN - 1] = 'z';
			break;
		case 3:
			r.flags = 0xdead;
			break;
		case 4:
			memset(r.label, 0xff, sizeof(r.label));
			break;
		}
		put(seq, &r);
	}
	say("readings 1-4: %s; reading 5 as pushed",
	    "a label of 16 bytes, no NUL; a byte after the NUL; flags 0xdead; a label of 0xff");
}

/* A few readings, each varied one of the ways above, chosen at random. */
static void c_mixed(const char *arg)
{
	__u64 n = held(), k = 2 + rnd_below(5), i, seq;
	char all[sizeof(varied)] = "";
	(void)arg;

	base_ring(1 + rnd_below(1000), n);
	for (i = 0; i < k; i++) {
		seq = meta()->next_seq - 1 - rnd_below(n);
		vary_reading(seq, reading_ways[rnd_below(NR_WAYS)]);
		if (strlen(all) + strlen(varied) + 3 < sizeof(all)) {
			strcat(all, i ? "; " : "");
			strcat(all, varied);
		}
	}
	say("%s", all);
}

static const struct forge_case cases[] = {
	{ "valid", "a ring as the driver leaves it", c_valid, NULL },
	{ "valid-far", "a ring whose numbers start far from 1", c_valid, "far" },
	{ "zero", "zeroes", c_zero, NULL },
	{ "noise", "random bytes", c_noise, NULL },
	{ "foreign-ramoops", "ramoops's signature at the start", c_foreign, "ramoops" },
	{ "foreign-ftrace", "ftrace's ring buffer magic at the start", c_foreign, "ftrace" },
	{ "header-magic", "a bit of the magic", c_header, "magic" },
	{ "header-version", "the version", c_header, "version" },
	{ "header-crc", "the header's checksum", c_header, "crc" },
	{ "header-page_size", "the page size", c_header, "page_size" },
	{ "header-slot_size", "the slot size", c_header, "slot_size" },
	{ "header-capacity", "the capacity", c_header, "capacity" },
	{ "header-region_size", "the region's size", c_header, "region_size" },
	{ "header-reserved", "the reserved word", c_header, "reserved" },
	{ "meta-layout", "the meta page's layout words", c_meta_layout, NULL },
	{ "next-zero", "next_seq 0", c_next_zero, NULL },
	{ "next-62-1", "next_seq 2^62 - 1", c_next, "62-1" },
	{ "next-62", "next_seq 2^62", c_next, "62" },
	{ "next-62+1", "next_seq 2^62 + 1", c_next, "62+1" },
	{ "next-63-2", "next_seq 2^63 - 2", c_next, "63-2" },
	{ "next-63-1", "next_seq 2^63 - 1: the newest reading at 2^63 - 2", c_next, "63-1" },
	{ "next-63", "next_seq 2^63, the BUSY bit", c_next, "63" },
	{ "next-63+1", "next_seq 2^63 + 1", c_next, "63+1" },
	{ "next-64-2", "next_seq 2^64 - 2", c_next, "64-2" },
	{ "next-64-1", "next_seq 2^64 - 1", c_next, "64-1" },
	{ "oldest-zero", "oldest_seq 0", c_oldest, "zero" },
	{ "oldest-above", "oldest_seq above next_seq", c_oldest, "above" },
	{ "oldest-low", "oldest_seq 1, far below", c_oldest, "low" },
	{ "oldest-62+1", "oldest_seq 2^62 + 1", c_oldest, "62+1" },
	{ "oldest-63", "oldest_seq 2^63", c_oldest, "63" },
	{ "oldest-64-1", "oldest_seq 2^64 - 1", c_oldest, "64-1" },
	{ "reading-flag", "a flag bit", c_reading, "flag" },
	{ "reading-nonul", "a label without its NUL", c_reading, "nonul" },
	{ "reading-ff", "a label of 0xff bytes", c_reading, "ff" },
	{ "reading-afternul", "a byte after the label's NUL", c_reading, "afternul" },
	{ "reading-ctrl", "control and high bytes in a label", c_reading, "ctrl" },
	{ "reading-empty", "an empty label", c_reading, "empty" },
	{ "reading-dash", "the label \"-\"", c_reading, "dash" },
	{ "reading-fields", "extreme value, timestamp, channel", c_reading, "fields" },
	{ "reading-busy", "a slot left BUSY", c_reading, "busy" },
	{ "reading-crc", "a wrong checksum", c_reading, "crc" },
	{ "reading-seq", "another number in a slot", c_reading, "seq" },
	{ "above-next", "readings stored above next_seq", c_above_next, NULL },
	{ "above-next-lap", "readings stored above next_seq, a lap and more", c_above_next, "lap" },
	{ "mixed", "a few readings varied at random", c_mixed, NULL },
	{ "labels-34", "issue 34's readings no push makes", c_labels_34, NULL },
};

#define NR_CASES ARRAY_SIZE(cases)

/* ---- what the driver must make of it ------------------------------------- */

static bool pushable(const struct seqring_reading *r)
{
	const char *nul = memchr(r->label, 0, sizeof(r->label));
	const char *p;

	if (r->flags || !nul)
		return false;
	for (p = nul; p < r->label + sizeof(r->label); p++)
		if (*p)
			return false;
	return true;
}

/* The label as seqringctl and the listing print it (seqring(4)). */
static void escape(char *o, const char *label)
{
	size_t len = strnlen(label, SEQRING_LABEL_LEN), i;
	const unsigned char *p = (const unsigned char *)label;

	if (!len) {
		strcpy(o, "-");
		return;
	}
	if (len == 1 && p[0] == '-') {
		strcpy(o, "\\055");
		return;
	}
	for (i = 0; i < len; i++) {
		if (p[i] <= ' ' || p[i] >= 0x7f || p[i] == '\\')
			o += sprintf(o, "\\%03o", p[i]);
		else
			*o++ = p[i];
	}
	*o = '\0';
}

/* What the message adds for a region that holds another facility's data. */
static const char foreign_ramoops[] =
	"; it holds ramoops data (is ramoops given the region too?)";
static const char foreign_ftrace[] =
	"; it holds an ftrace ring buffer (is ftrace given the region too?)";

enum slot_state { ABSENT, DAMAGED, REFUSED, INTACT };

static enum slot_state slot_state(__u64 seq)
{
	const struct seqring_mmap_slot *s = slot_of(seq);

	if (s->seq != seq)
		return ABSENT;
	if (slot_crc(seq, &s->reading) != *crc_of(seq))
		return DAMAGED;
	return pushable(&s->reading) ? INTACT : REFUSED;
}

static void expect(FILE *e, FILE *w, __u64 kpage)
{
	const struct header *h = hdr();
	struct layout k = layout_of(lay.size, kpage);
	__u64 next, oldest, first, end, seq, valid = 0, last = 0;
	__u64 refused = 0, refused_in = 0, refused_high = 0, lost;
	const char *verdict = NULL, *foreign = "";
	char label[4 * SEQRING_LABEL_LEN + 1];
	__u32 word;
	__u64 i;

	memcpy(&word, img, 4);
	if (h->magic != MAGIC) {
		for (i = 0; i < kpage && !img[i]; i++)
			;
		verdict = i == kpage ? "empty (a cold boot, or never used)" :
				       "not a seqring ring (no magic)";
		if (word == 0x43474244)
			foreign = foreign_ramoops;
		else if (word == 0xbadfeed)
			foreign = foreign_ftrace;
		if (i == kpage)
			foreign = "";
	} else if (h->version != VERSION) {
		verdict = "a format version this driver does not know";
	} else if (h->header_crc != header_crc() || h->page_size != kpage ||
		   h->region_size != lay.size || h->capacity != k.capacity ||
		   h->slot_size != SLOT_SIZE || h->reserved) {
		verdict = "a damaged header (checksum or sizes)";
	} else {
		/* The region is laid out for kpage: page == kpage here. */
		next = meta()->next_seq;
		oldest = meta()->oldest_seq;
		if (!next || !oldest || next > SEQ_MAX || oldest > SEQ_MAX)
			verdict = "damaged counters";
	}
	if (verdict) {
		fprintf(e, "EXPECT_MSG='%s%s; formatted for %llu readings'\n",
			verdict, foreign, k.capacity);
		fprintf(e, "EXPECT_PREV=0\nEXPECT_NEXT=1\nEXPECT_REGION=''\n");
		return;
	}

	/* Held: one capacity from oldest_seq, or from next_seq - capacity. */
	first = oldest;
	if (next > lay.capacity && next - lay.capacity > first)
		first = next - lay.capacity;
	for (seq = first; seq < first + lay.capacity; seq++) {
		switch (slot_state(seq)) {
		case INTACT:
			valid++;
			last = seq;
			refused_in += refused_high;
			refused_high = 0;
			break;
		case REFUSED:
			refused++;
			if (seq < next)
				refused_in++;
			else
				refused_high++;
			break;
		default:
			break;
		}
	}
	end = valid && last + 1 > next ? last + 1 : next;
	if (first > end)
		first = end;
	lost = end - first - valid - refused_in;
	for (seq = first; seq < end; seq++) {
		const struct seqring_reading *r = &slot_of(seq)->reading;

		if (slot_state(seq) != INTACT)
			continue;
		escape(label, r->label);
		fprintf(w, "%llu %llu %u %lld %s\n", seq,
			(__u64)r->timestamp_ns, r->channel, (__s64)r->value,
			label);
	}
	/* The message, as seqring(4) gives it. */
	fprintf(e, "EXPECT_MSG='");
	if (first == end)
		fprintf(e, "a ring that held no readings (next %llu)", next);
	else
		fprintf(e, "previous readings %llu..%llu, %llu intact",
			first, end - 1, valid);
	if (lost && first != end)
		fprintf(e, ", %llu damaged or lost (left out)", lost);
	if (refused)
		fprintf(e, ", %llu refused (no push makes them: left out)",
			refused);
	if (first == end)
		fprintf(e, "; formatted for %llu readings", k.capacity);
	fprintf(e, "'\n");
	fprintf(e, "EXPECT_PREV=%d\nEXPECT_NEXT=%llu\n", valid ? 1 : 0,
		valid ? last + 1 : 1);
	fprintf(e, "EXPECT_REGION='capacity: %llu first_seq: %llu end_seq: %llu",
		k.capacity, first, end);
	fprintf(e, " next_seq: %llu intact: %llu lost: %llu refused: %llu'\n",
		next, valid, lost, refused);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: forge [-s SEED] [-S SIZE] [-P PAGE] [-K KPAGE] [-o IMAGE] [-e EXPECT] [-w READINGS] CASE\n"
		"       forge -l\n");
	exit(2);
}

static __u64 parse_u64(const char *s)
{
	char *end;
	__u64 v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "forge: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static FILE *open_out(const char *path)
{
	FILE *f = path ? fopen(path, "w") : NULL;

	if (path && !f) {
		fprintf(stderr, "forge: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	const char *image = NULL, *expect_path = NULL, *readings = NULL;
	__u64 seed = 1, size = 65536, page = getpagesize(), kpage = 0;
	FILE *out, *e, *w;
	unsigned int i;
	int opt;

	while ((opt = getopt(argc, argv, "ls:S:P:K:o:e:w:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < NR_CASES; i++)
				printf("%s\t%s\n", cases[i].name, cases[i].what);
			return 0;
		case 's':
			seed = parse_u64(optarg);
			break;
		case 'S':
			size = parse_u64(optarg);
			break;
		case 'P':
			page = parse_u64(optarg);
			break;
		case 'K':
			kpage = parse_u64(optarg);
			break;
		case 'o':
			image = optarg;
			break;
		case 'e':
			expect_path = optarg;
			break;
		case 'w':
			readings = optarg;
			break;
		default:
			print_usage();
		}
	}
	if (optind + 1 != argc)
		print_usage();
	if (!kpage)
		kpage = getpagesize();
	for (i = 0; i < NR_CASES && strcmp(cases[i].name, argv[optind]); i++)
		;
	if (i == NR_CASES) {
		fprintf(stderr, "forge: no case '%s' (forge -l lists them)\n",
			argv[optind]);
		return 2;
	}
	lay = layout_of(size, page);
	if (lay.capacity < 20) {
		fprintf(stderr, "forge: %llu bytes hold %llu readings (%llu-byte pages), not 20\n",
			size, lay.capacity, page);
		return 2;
	}
	img = calloc(1, size);
	if (!img)
		return 1;
	/* The same seed gives each case other choices: the name counts too. */
	seed_state = (seed + 1) * 0x9e3779b97f4a7c15ULL ^
		     crc32_le(~0U, cases[i].name, strlen(cases[i].name));
	if (!seed_state)
		seed_state = 1;
	cases[i].make(cases[i].arg);
	fprintf(stderr, "forge: %s seed %llu: %s\n", cases[i].name, seed,
		varied);

	out = image ? open_out(image) : stdout;
	if (fwrite(img, 1, size, out) != size || fflush(out)) {
		fprintf(stderr, "forge: cannot write the image: %s\n", strerror(errno));
		return 1;
	}
	e = open_out(expect_path);
	w = open_out(readings);
	if (e && w) {
		expect(e, w, kpage);
		if (fclose(e) || fclose(w))
			return 1;
	}
	return 0;
}
