// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_errors - TAP test of the /dev/seqring ioctl ABI
 *
 * Usage: ioctl_errors [--fresh] [DEVICE]
 *
 * One test per behaviour of SEQRING_IOC_PUSH, SEQRING_IOC_PUSH_BATCH,
 * SEQRING_IOC_GET_STATS and SEQRING_IOC_CLEAR, including every errno the
 * driver promises. Expectations come from include/uapi/linux/seqring.h and
 * the spec, computed from what this program pushed, never from a previous
 * run. --fresh says the module was loaded just before (sequence numbers
 * start at 1); without it the tests that need that are skipped. The same
 * source is built with -m32 as ioctl_errors32 to exercise compat_ioctl.
 *
 * The caller loads the module; the capacity it picked only changes how many
 * readings a full batch drops, which is computed from GET_STATS.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "caps.h"
#include "tap.h"

#define LISTING		"/proc/seqring"
#define PARAM_CAPACITY	"/sys/module/seqring/parameters/capacity"
#define UNPRIV_UID	1000
#define UNPRIV_GID	1000
#define PATTERN		0xA5
#define PATTERN64	0xA5A5A5A5A5A5A5A5ULL

/* Commands the driver must reject: right number, wrong size or direction. */
#define MAGIC		SEQRING_IOC_MAGIC
#define RSZ		sizeof(struct seqring_reading)
#define BSZ		sizeof(struct seqring_batch)
#define SSZ		sizeof(struct seqring_stats)
#define IOC_PUSH_SHORT	_IOC(_IOC_WRITE, MAGIC, 0x01, RSZ - 8)
#define IOC_PUSH_LONG	_IOC(_IOC_WRITE, MAGIC, 0x01, RSZ + 8)
#define IOC_PUSH_READ	_IOC(_IOC_READ, MAGIC, 0x01, RSZ)
#define IOC_PUSH_RW	_IOC(_IOC_READ | _IOC_WRITE, MAGIC, 0x01, RSZ)
#define IOC_BATCH_SHORT	_IOC(_IOC_WRITE, MAGIC, 0x02, BSZ - 4)
#define IOC_STATS_SHORT	_IOC(_IOC_READ, MAGIC, 0x03, SSZ - 8)
#define IOC_STATS_WRITE	_IOC(_IOC_WRITE, MAGIC, 0x03, SSZ)
#define IOC_CLEAR_SIZED	_IOW(MAGIC, 0x04, __u32)
/*
 * The UAPI reserves numbers 0x00-0x0F of the magic (0x05 and 0x06 are
 * SET_WAKEUP and SET_CAPACITY, which may or may not work yet): 0x10 is
 * outside that range, so it stays unknown whatever later versions add.
 */
#define IOC_UNKNOWN_NR	_IO(MAGIC, 0x10)
/* 0xB8, the magic before 0xB9: old binaries must get ENOTTY. */
#define IOC_OTHER_MAGIC	_IOC(_IOC_WRITE, 0xB8, 0x01, RSZ)

static const char *dev_path = "/dev/seqring";
static bool fresh;
static int fd_rw = -1, fd_ro = -1, fd_wo = -1;
static size_t page_size;
/* Counters taken before a call whose effect (or absence) a later test checks. */
static struct seqring_stats snap;

struct line {
	unsigned long long seq;
	unsigned long long ts;
	unsigned int channel;
	long long value;
	char label[128];
};

static void reading_init(struct seqring_reading *r, long long value,
			 const char *label)
{
	memset(r, 0, sizeof(*r));
	r->value = value;
	r->channel = 1;
	strncpy(r->label, label, sizeof(r->label) - 1);
}

static struct seqring_stats get_stats(void)
{
	struct seqring_stats st;

	if (ioctl(fd_ro, SEQRING_IOC_GET_STATS, &st))
		tap_bail("GET_STATS failed: %s", errname(errno));
	return st;
}

static int push(int fd, long long value, const char *label)
{
	struct seqring_reading r;

	reading_init(&r, value, label);
	return ioctl(fd, SEQRING_IOC_PUSH, &r);
}

static int push_batch(int fd, struct seqring_reading *r, __u32 count)
{
	struct seqring_batch b = {
		.readings = (__u64)(uintptr_t)r,
		.count = count,
	};

	return ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b);
}

static struct seqring_reading *readings_alloc(size_t n, long long first)
{
	struct seqring_reading *r = calloc(n, sizeof(*r));
	size_t i;

	if (!r)
		tap_bail("out of memory");
	for (i = 0; i < n; i++)
		reading_init(&r[i], first + (long long)i, "batch");
	return r;
}

/* An address with nothing mapped at it (a page mapped, then unmapped). */
static void *unmapped_page(void)
{
	void *p = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	munmap(p, page_size);
	return p;
}

/*
 * @n readings ending 8 bytes into an unmapped page: the last one cannot be
 * read completely. *@map and *@len are what to munmap afterwards.
 */
static struct seqring_reading *readings_faulting(size_t n, void **map,
						 size_t *len)
{
	size_t bytes = n * RSZ;
	size_t mapped = (bytes + page_size - 1) / page_size * page_size;
	struct seqring_reading *r;
	char *p;
	size_t i;

	p = mmap(NULL, mapped + page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	munmap(p + mapped, page_size);
	r = (struct seqring_reading *)(p + mapped + 8 - bytes);
	/* The bytes of the last reading that are mapped: leave them zero. */
	for (i = 0; i + 1 < n; i++)
		reading_init(&r[i], (long long)i, "fault");
	*map = p;
	*len = mapped;
	return r;
}

/* Find the listing line of sequence number @seq. */
static bool listing_find(unsigned long long seq, struct line *out)
{
	char buf[512];
	bool found = false;
	FILE *f;

	f = fopen(LISTING, "r");
	if (!f) {
		tap_diag("cannot open %s: %s", LISTING, errname(errno));
		return false;
	}
	while (!found && fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '#')
			continue;
		if (sscanf(buf, "%llu %llu %u %lld %127s", &out->seq, &out->ts,
			   &out->channel, &out->value, out->label) != 5)
			continue;
		found = out->seq == seq;
	}
	fclose(f);
	if (!found)
		tap_diag("no line for sequence number %llu in %s", seq,
			 LISTING);
	return found;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void expect_ok(int ret, int err, const char *desc)
{
	if (!tap_result(ret == 0, "%s", desc))
		tap_diag("expected return 0, got %d (errno %s)", ret,
			 ret == -1 ? errname(err) : "-");
}

static void expect_errno(int ret, int err, int want, const char *desc)
{
	if (!tap_result(ret == -1 && err == want, "%s", desc)) {
		if (ret == -1)
			tap_diag("expected -1 with errno %s, got -1 with errno %s",
				 errname(want), errname(err));
		else
			tap_diag("expected -1 with errno %s, got %d",
				 errname(want), ret);
	}
}

static void expect_u64(unsigned long long want, unsigned long long got,
		       const char *desc)
{
	if (!tap_result(want == got, "%s", desc))
		tap_diag("expected %llu, got %llu", want, got);
}

/* Nothing stored or discarded since @snap was taken. */
static void expect_unchanged(const char *desc)
{
	struct seqring_stats st = get_stats();

	if (!tap_result(st.total == snap.total && st.count == snap.count &&
			st.newest_seq == snap.newest_seq, "%s", desc))
		tap_diag("expected total/count/newest_seq %llu/%llu/%llu, got %llu/%llu/%llu",
			 (unsigned long long)snap.total,
			 (unsigned long long)snap.count,
			 (unsigned long long)snap.newest_seq,
			 (unsigned long long)st.total,
			 (unsigned long long)st.count,
			 (unsigned long long)st.newest_seq);
}

/* ---- a freshly loaded module ---- */

static void test_fresh_empty(void)
{
	const char *desc =
		"fresh module: GET_STATS shows every counter and seq as 0";
	struct seqring_stats st;

	if (!fresh) {
		tap_skip("module not freshly loaded (no --fresh)", "%s", desc);
		return;
	}
	st = get_stats();
	if (!tap_result(st.count == 0 && st.total == 0 && st.dropped == 0 &&
			st.cleared == 0 && st.oldest_seq == 0 &&
			st.newest_seq == 0 && st.lost == 0, "%s", desc))
		tap_diag("expected 0 0 0 0 0 0 0, got %llu %llu %llu %llu %llu %llu %llu",
			 (unsigned long long)st.count,
			 (unsigned long long)st.total,
			 (unsigned long long)st.dropped,
			 (unsigned long long)st.cleared,
			 (unsigned long long)st.oldest_seq,
			 (unsigned long long)st.newest_seq,
			 (unsigned long long)st.lost);
}

static void test_fresh_first_seq(void)
{
	const char *desc = "fresh module: the first PUSH gets sequence number 1";
	struct seqring_stats st;

	if (!fresh) {
		tap_skip("module not freshly loaded (no --fresh)", "%s", desc);
		return;
	}
	if (push(fd_rw, 100, "first"))
		tap_diag("PUSH failed: %s", errname(errno));
	st = get_stats();
	expect_u64(1, st.newest_seq, desc);
}

/* ---- PUSH that works ---- */

static void test_push_ok(void)
{
	int ret = push(fd_rw, 1, "push");

	expect_ok(ret, errno, "PUSH of a valid reading on an O_RDWR fd returns 0");
}

static void test_push_seq_increments(void)
{
	const char *desc = "each PUSH takes the next sequence number (total + 1)";
	struct seqring_stats before = get_stats(), st;
	bool pass = true;
	int i;

	for (i = 1; i <= 3 && pass; i++) {
		if (push(fd_rw, i, "inc")) {
			tap_diag("PUSH %d failed: %s", i, errname(errno));
			pass = false;
			break;
		}
		st = get_stats();
		if (st.newest_seq != before.total + i ||
		    st.total != before.total + i) {
			tap_diag("PUSH %d: expected newest_seq = total = %llu, got %llu, %llu",
				 i, (unsigned long long)before.total + i,
				 (unsigned long long)st.newest_seq,
				 (unsigned long long)st.total);
			pass = false;
		}
	}
	tap_result(pass, "%s", desc);
}

/*
 * A reading that PUSH must store as given, and the label it must be
 * listed with. A timestamp_ns of 0 asks the driver to stamp the reading:
 * the listed time must then lie between the clock read before and after
 * the PUSH.
 */
struct listed_case {
	const char *desc;
	unsigned long long ts;
	unsigned int channel;
	long long value;
	/*
	 * One byte more than the ABI's: a case fills all SEQRING_LABEL_LEN
	 * bytes and the initializer's NUL still fits (gcc 15 and later
	 * refuse to drop it). Only SEQRING_LABEL_LEN bytes are pushed.
	 */
	char label[SEQRING_LABEL_LEN + 1];
	const char *want_label;
};

static const struct listed_case listed_cases[] = {
	{ "PUSH stores timestamp, channel, value and label as given",
	  1234567890123456789ULL, 7, -42, "fields", "fields" },
	{ "PUSH with timestamp_ns 0 is stamped with the current CLOCK_REALTIME",
	  0, 1, 5, "stamp", "stamp" },
	{ "PUSH with a non-zero timestamp_ns keeps it unchanged",
	  42, 1, 6, "kept", "kept" },
	{ "label bytes after the NUL are ignored",
	  0, 1, 7, "ab\0zzzzzzzzzzzzz", "ab" },
	{ "a 15-byte label (NUL in the last byte) is accepted and listed whole",
	  0, 1, 8, "abcdefghijklmno", "abcdefghijklmno" },
};

static void expect_listed(const struct listed_case *c)
{
	unsigned long long before, after, lo, hi;
	struct seqring_reading r;
	struct line l;
	int ret;

	memset(&r, 0, sizeof(r));
	r.timestamp_ns = c->ts;
	r.channel = c->channel;
	r.value = c->value;
	memcpy(r.label, c->label, sizeof(r.label));
	before = now_ns();
	ret = ioctl(fd_rw, SEQRING_IOC_PUSH, &r);
	after = now_ns();
	if (ret) {
		tap_result(false, "%s", c->desc);
		tap_diag("expected PUSH to return 0, got errno %s",
			 errname(errno));
		return;
	}
	if (!listing_find(get_stats().newest_seq, &l)) {
		tap_result(false, "%s", c->desc);
		return;
	}
	lo = c->ts ? c->ts : before;
	hi = c->ts ? c->ts : after;
	if (tap_result(l.ts >= lo && l.ts <= hi && l.channel == c->channel &&
		       l.value == c->value && !strcmp(l.label, c->want_label),
		       "%s", c->desc))
		return;
	tap_diag("expected timestamp in [%llu, %llu], channel %u, value %lld, label '%s'",
		 lo, hi, c->channel, c->value, c->want_label);
	tap_diag("got timestamp %llu, channel %u, value %lld, label '%s'",
		 l.ts, l.channel, l.value, l.label);
}

static void test_push_listed(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(listed_cases); i++)
		expect_listed(&listed_cases[i]);
}

/* ---- commands that do not exist: ENOTTY ---- */

/* Valid-looking argument, so a driver that ignores size/direction "works". */
static union {
	struct seqring_reading r;
	struct seqring_batch b;
	struct seqring_stats s;
	char pad[128];
} argbuf;

static const struct {
	unsigned long cmd;
	const char *desc;
} enotty_cases[] = {
	{ IOC_UNKNOWN_NR, "unknown command number 0x10 -> ENOTTY" },
	{ IOC_OTHER_MAGIC, "PUSH's number and size with another magic -> ENOTTY" },
	{ IOC_PUSH_SHORT, "PUSH number with a smaller size -> ENOTTY" },
	{ IOC_PUSH_LONG, "PUSH number with a larger size -> ENOTTY" },
	{ IOC_PUSH_READ, "PUSH number and size with direction _IOC_READ -> ENOTTY" },
	{ IOC_PUSH_RW, "PUSH number and size with direction read|write -> ENOTTY" },
	{ IOC_BATCH_SHORT, "PUSH_BATCH number with a smaller size -> ENOTTY" },
	{ IOC_STATS_SHORT, "GET_STATS number with a smaller size -> ENOTTY" },
	{ IOC_STATS_WRITE, "GET_STATS number and size with direction _IOC_WRITE -> ENOTTY" },
	{ IOC_CLEAR_SIZED, "CLEAR number with a size and direction -> ENOTTY" },
};

static void test_enotty(void)
{
	size_t i;
	int ret;

	snap = get_stats();
	for (i = 0; i < ARRAY_SIZE(enotty_cases); i++) {
		reading_init(&argbuf.r, 9, "enotty");
		ret = ioctl(fd_rw, enotty_cases[i].cmd, &argbuf);
		expect_errno(ret, errno, ENOTTY, enotty_cases[i].desc);
	}
}

static void test_enotty_no_effect(void)
{
	expect_unchanged("the rejected commands stored and cleared nothing");
}

/* ---- bad pointers: EFAULT ---- */

/* Where a pointer points that the driver must not copy through. */
enum bad_ptr { PTR_NULL, PTR_UNMAPPED, PTR_READONLY };

static const struct efault_case {
	const char *desc;
	unsigned long cmd;
	bool rdonly;		/* on fd_ro, else fd_rw */
	enum bad_ptr ptr;
	bool readings;		/* in batch.readings (count 1), not the argument */
} efault_cases[] = {
	{ "PUSH with a NULL argument -> EFAULT",
	  SEQRING_IOC_PUSH, false, PTR_NULL, false },
	{ "PUSH_BATCH with a NULL argument -> EFAULT",
	  SEQRING_IOC_PUSH_BATCH, false, PTR_NULL, false },
	{ "GET_STATS with a NULL argument -> EFAULT",
	  SEQRING_IOC_GET_STATS, true, PTR_NULL, false },
	{ "PUSH with an unmapped argument -> EFAULT",
	  SEQRING_IOC_PUSH, false, PTR_UNMAPPED, false },
	{ "PUSH_BATCH with an unmapped argument -> EFAULT",
	  SEQRING_IOC_PUSH_BATCH, false, PTR_UNMAPPED, false },
	{ "GET_STATS with an unmapped argument -> EFAULT",
	  SEQRING_IOC_GET_STATS, true, PTR_UNMAPPED, false },
	{ "GET_STATS into read-only memory -> EFAULT",
	  SEQRING_IOC_GET_STATS, true, PTR_READONLY, false },
	{ "PUSH_BATCH with readings = NULL -> EFAULT",
	  SEQRING_IOC_PUSH_BATCH, false, PTR_NULL, true },
	{ "PUSH_BATCH with readings unmapped -> EFAULT",
	  SEQRING_IOC_PUSH_BATCH, false, PTR_UNMAPPED, true },
};

static void *bad_pointer(enum bad_ptr kind)
{
	void *p;

	if (kind == PTR_NULL)
		return NULL;
	if (kind == PTR_UNMAPPED)
		return unmapped_page();
	p = mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	return p;
}

static void expect_efault(const struct efault_case *c)
{
	void *p = bad_pointer(c->ptr);
	int fd = c->rdonly ? fd_ro : fd_rw;
	int ret;

	if (c->readings)
		ret = push_batch(fd, p, 1);
	else
		ret = ioctl(fd, c->cmd, p);
	expect_errno(ret, errno, EFAULT, c->desc);
	if (c->ptr == PTR_READONLY)
		munmap(p, page_size);
}

static void test_efault(void)
{
	size_t i;

	snap = get_stats();
	for (i = 0; i < ARRAY_SIZE(efault_cases); i++)
		expect_efault(&efault_cases[i]);
}

/* ---- invalid contents: EINVAL, E2BIG ---- */

static const struct {
	const char *desc;
	__u32 flags;
	bool unterminated;	/* 16 label bytes, none of them NUL */
} bad_reading_cases[] = {
	{ "PUSH with reading.flags = 1 -> EINVAL", 1, false },
	{ "PUSH with reading.flags = 0x80000000 -> EINVAL", 0x80000000u, false },
	{ "PUSH with 16 non-NUL label bytes -> EINVAL", 0, true },
};

static void test_einval_reading(void)
{
	struct seqring_reading r;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad_reading_cases); i++) {
		reading_init(&r, 10 + (long long)i, "bad");
		r.flags = bad_reading_cases[i].flags;
		if (bad_reading_cases[i].unterminated)
			memcpy(r.label, "0123456789abcdef", SEQRING_LABEL_LEN);
		ret = ioctl(fd_rw, SEQRING_IOC_PUSH, &r);
		expect_errno(ret, errno, EINVAL, bad_reading_cases[i].desc);
	}
}

/*
 * A PUSH_BATCH the driver must refuse. Its readings are valid but for the
 * one at position @bad (from 1; 0: none), which has @bad_flags set or an
 * unterminated label, and, with @fault, the last one, which runs into an
 * unmapped page. Of a @count above SEQRING_BATCH_MAX only 4 readings
 * exist: the driver must refuse it before it copies any. With
 * @unchanged, the refused batch is also a test of its own that none of
 * its readings was stored (all or nothing).
 */
struct batch_case {
	const char *desc;
	__u32 count;
	__u32 flags;		/* batch.flags */
	__u32 bad;
	__u32 bad_flags;
	bool unterminated;
	bool fault;
	int want;
	const char *unchanged;
};

static void expect_batch_refused(const struct batch_case *c)
{
	__u32 n = c->count > SEQRING_BATCH_MAX ? 4 : c->count;
	struct seqring_reading *r;
	struct seqring_batch b;
	void *map = NULL;
	size_t len = 0;
	int ret;

	if (c->fault)
		r = readings_faulting(n, &map, &len);
	else
		r = readings_alloc(n, 1);
	if (c->bad) {
		r[c->bad - 1].flags = c->bad_flags;
		if (c->unterminated)
			memcpy(r[c->bad - 1].label, "0123456789abcdef",
			       SEQRING_LABEL_LEN);
	}
	memset(&b, 0, sizeof(b));
	b.readings = (__u64)(uintptr_t)r;
	b.count = c->count;
	b.flags = c->flags;
	if (c->unchanged)
		snap = get_stats();
	ret = ioctl(fd_rw, SEQRING_IOC_PUSH_BATCH, &b);
	expect_errno(ret, errno, c->want, c->desc);
	if (c->unchanged)
		expect_unchanged(c->unchanged);
	if (map)
		munmap(map, len);
	else
		free(r);
}

static const struct batch_case batch_refused_cases[] = {
	{ .desc = "PUSH_BATCH with batch.flags = 1 -> EINVAL",
	  .count = 2, .flags = 1, .want = EINVAL },
	{ .desc = "PUSH_BATCH with count SEQRING_BATCH_MAX + 1 -> E2BIG",
	  .count = SEQRING_BATCH_MAX + 1, .want = E2BIG },
	{ .desc = "PUSH_BATCH with count UINT32_MAX -> E2BIG",
	  .count = UINT32_MAX, .want = E2BIG },
};

static void test_batch_refused(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(batch_refused_cases); i++)
		expect_batch_refused(&batch_refused_cases[i]);
}

static void test_rejected_no_effect(void)
{
	expect_unchanged("the calls rejected with EFAULT/EINVAL/E2BIG stored nothing");
}

/* ---- PUSH_BATCH ---- */

static void expect_batch_ok(__u32 count, long long first, const char *desc)
{
	struct seqring_reading *r = readings_alloc(count ? count : 1, first);
	int ret;

	snap = get_stats();
	ret = push_batch(fd_rw, r, count);
	expect_ok(ret, errno, desc);
	free(r);
}

static void test_batch_zero(void)
{
	expect_batch_ok(0, 16, "PUSH_BATCH with count 0 returns 0");
}

static void test_batch_zero_no_effect(void)
{
	expect_unchanged("PUSH_BATCH with count 0 stores nothing");
}

static const struct batch_case batch_all_or_nothing_cases[] = {
	{ .desc = "PUSH_BATCH of 5 with flags = 1 in the 3rd -> EINVAL",
	  .count = 5, .bad = 3, .bad_flags = 1, .want = EINVAL,
	  .unchanged = "... and none of its 5 readings is stored (all or nothing)" },
	{ .desc = "PUSH_BATCH of 5 with an unterminated label in the last -> EINVAL",
	  .count = 5, .bad = 5, .unterminated = true, .want = EINVAL,
	  .unchanged = "... and none of its 5 readings is stored (all or nothing)" },
	{ .desc = "PUSH_BATCH of 2 whose 2nd reading runs into an unmapped page -> EFAULT",
	  .count = 2, .fault = true, .want = EFAULT,
	  .unchanged = "... and its readable 1st reading is not stored (all or nothing)" },
	{ .desc = "PUSH_BATCH of SEQRING_BATCH_MAX with flags set in the last -> EINVAL",
	  .count = SEQRING_BATCH_MAX, .bad = SEQRING_BATCH_MAX, .bad_flags = 2,
	  .want = EINVAL,
	  .unchanged = "... and none of its readings is stored (all or nothing)" },
	{ .desc = "PUSH_BATCH of SEQRING_BATCH_MAX whose last reading is unmapped -> EFAULT",
	  .count = SEQRING_BATCH_MAX, .fault = true, .want = EFAULT,
	  .unchanged = "... and none of its readings is stored (all or nothing)" },
};

static void test_batch_all_or_nothing(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(batch_all_or_nothing_cases); i++)
		expect_batch_refused(&batch_all_or_nothing_cases[i]);
}

static void test_batch_three(void)
{
	expect_batch_ok(3, 1001, "PUSH_BATCH of 3 valid readings returns 0");
}

static void test_batch_three_seqs(void)
{
	const char *desc = "PUSH_BATCH of 3 takes the next 3 sequence numbers";
	struct seqring_stats st = get_stats();

	if (!tap_result(st.total == snap.total + 3 &&
			st.newest_seq == snap.total + 3, "%s", desc))
		tap_diag("expected total and newest_seq %llu, got %llu and %llu",
			 (unsigned long long)snap.total + 3,
			 (unsigned long long)st.total,
			 (unsigned long long)st.newest_seq);
}

static void test_batch_three_listed(void)
{
	const char *desc = "PUSH_BATCH readings are listed in array order (values 1001..1003)";
	unsigned long long seq = snap.total + 1;
	bool pass = true;
	struct line l;
	int i;

	for (i = 0; i < 3 && pass; i++) {
		if (!listing_find(seq + i, &l)) {
			pass = false;
		} else if (l.value != 1001 + i) {
			tap_diag("seq %llu: expected value %d, got %lld",
				 seq + i, 1001 + i, l.value);
			pass = false;
		}
	}
	tap_result(pass, "%s", desc);
}

static void test_batch_max(void)
{
	expect_batch_ok(SEQRING_BATCH_MAX, 1,
			"PUSH_BATCH with count SEQRING_BATCH_MAX returns 0");
}

static void test_batch_max_total(void)
{
	struct seqring_stats st = get_stats();

	expect_u64(snap.total + SEQRING_BATCH_MAX, st.total,
		   "... total grows by SEQRING_BATCH_MAX");
}

static void test_batch_max_count(void)
{
	unsigned long long want = snap.count + SEQRING_BATCH_MAX;
	struct seqring_stats st = get_stats();

	if (want > st.capacity)
		want = st.capacity;
	expect_u64(want, st.count, "... count becomes min(capacity, count + SEQRING_BATCH_MAX)");
}

static void test_batch_max_dropped(void)
{
	unsigned long long held = snap.count + SEQRING_BATCH_MAX, over = 0;
	struct seqring_stats st = get_stats();

	if (held > st.capacity)
		over = held - st.capacity;
	expect_u64(snap.dropped + over, st.dropped,
		   "... dropped grows by the readings that did not fit");
}

/* ---- file access mode ---- */

static void test_ebadf_push(void)
{
	int ret;

	snap = get_stats();
	ret = push(fd_ro, 20, "ro");
	expect_errno(ret, errno, EBADF, "PUSH on an O_RDONLY fd -> EBADF");
}

static void test_ebadf_batch(void)
{
	struct seqring_reading *r = readings_alloc(2, 21);
	int ret = push_batch(fd_ro, r, 2);

	expect_errno(ret, errno, EBADF, "PUSH_BATCH on an O_RDONLY fd -> EBADF");
	free(r);
}

static void test_ebadf_no_effect(void)
{
	expect_unchanged("... and neither stored anything");
}

static void test_stats_rdonly(void)
{
	struct seqring_stats st;
	int ret = ioctl(fd_ro, SEQRING_IOC_GET_STATS, &st);

	expect_ok(ret, errno, "GET_STATS on an O_RDONLY fd returns 0");
}

static void test_push_wronly(void)
{
	int ret = push(fd_wo, 22, "wo");

	expect_ok(ret, errno, "PUSH on an O_WRONLY fd returns 0");
}

/* ---- CLEAR ---- */

static void test_clear_rdwr(void)
{
	int ret;

	if (push(fd_rw, 23, "pre-clear"))
		tap_diag("PUSH before CLEAR failed: %s", errname(errno));
	snap = get_stats();
	ret = ioctl(fd_rw, SEQRING_IOC_CLEAR);
	expect_ok(ret, errno, "CLEAR on an O_RDWR fd returns 0");
}

static void test_clear_empties(void)
{
	const char *desc = "... then count, oldest_seq and newest_seq are 0";
	struct seqring_stats st = get_stats();

	if (!tap_result(st.count == 0 && st.oldest_seq == 0 &&
			st.newest_seq == 0, "%s", desc))
		tap_diag("expected 0/0/0, got %llu/%llu/%llu",
			 (unsigned long long)st.count,
			 (unsigned long long)st.oldest_seq,
			 (unsigned long long)st.newest_seq);
}

static void test_clear_counts(void)
{
	const char *desc = "... cleared grows by the count it had, total and dropped stay";
	struct seqring_stats st = get_stats();

	if (!tap_result(st.cleared == snap.cleared + snap.count &&
			st.total == snap.total && st.dropped == snap.dropped,
			"%s", desc))
		tap_diag("expected cleared %llu total %llu dropped %llu, got %llu %llu %llu",
			 (unsigned long long)(snap.cleared + snap.count),
			 (unsigned long long)snap.total,
			 (unsigned long long)snap.dropped,
			 (unsigned long long)st.cleared,
			 (unsigned long long)st.total,
			 (unsigned long long)st.dropped);
}

static void test_clear_seq_continues(void)
{
	struct seqring_stats st;

	if (push(fd_rw, 24, "post-clear"))
		tap_diag("PUSH failed: %s", errname(errno));
	st = get_stats();
	expect_u64(snap.total + 1, st.newest_seq,
		   "... and the next PUSH continues the sequence (not reset by CLEAR)");
}

static bool is_root(void)
{
	return geteuid() == 0;
}

enum drop { DROP_NONE, DROP_CAP, DROP_UID };

/*
 * CLEAR on @fd (opened by us, as root) in a child that first gives up the
 * privilege @how names. Returns 0 if CLEAR succeeded, its errno if it
 * failed, -1 if the child could not drop privilege or died.
 */
static int clear_as(int fd, enum drop how)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (how == DROP_CAP && drop_cap_sys_admin())
			_exit(255);
		if (how == DROP_UID && (setgroups(0, NULL) ||
					setgid(UNPRIV_GID) ||
					setuid(UNPRIV_UID)))
			_exit(255);
		if (ioctl(fd, SEQRING_IOC_CLEAR))
			_exit(errno < 255 ? errno : 254);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

static void expect_child(int res, int want, const char *desc)
{
	if (!tap_result(res == want, "%s", desc)) {
		if (res < 0)
			tap_diag("child could not drop privilege or died");
		else
			tap_diag("expected %s, got %s", want ? errname(want) : "success",
				 res ? errname(res) : "success");
	}
}

/* Everything held before a CLEAR that worked (since @snap) is cleared. */
static void expect_emptied(const char *desc)
{
	struct seqring_stats st = get_stats();

	if (!tap_result(st.count == 0 && st.cleared == snap.cleared + snap.count,
			"%s", desc))
		tap_diag("expected count 0 cleared %llu, got %llu %llu",
			 (unsigned long long)(snap.cleared + snap.count),
			 (unsigned long long)st.count,
			 (unsigned long long)st.cleared);
}

/*
 * CLEAR from a child with the privilege @how leaves it, and the errno it
 * must fail with (0: it must work). Each case is two tests: the call, and
 * that it discarded nothing or everything.
 */
static const struct {
	const char *desc;
	bool rdonly;		/* on fd_ro, else fd_rw */
	enum drop how;
	int want;
} clear_cases[] = {
	{ "CLEAR on an O_RDONLY fd with CAP_SYS_ADMIN returns 0",
	  true, DROP_NONE, 0 },
	{ "CLEAR on an O_RDONLY fd without CAP_SYS_ADMIN -> EPERM",
	  true, DROP_CAP, EPERM },
	{ "CLEAR on an O_RDWR fd without CAP_SYS_ADMIN returns 0",
	  false, DROP_CAP, 0 },
	{ "CLEAR on an O_RDONLY fd after setuid(1000) -> EPERM",
	  true, DROP_UID, EPERM },
};

static void test_clear_privilege(void)
{
	const char *discarded_nothing = "... and it discarded nothing";
	const char *emptied = "... and it emptied the ring";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(clear_cases); i++) {
		const char *then = clear_cases[i].want ? discarded_nothing :
							 emptied;

		if (!is_root()) {
			tap_skip("not running as root", "%s", clear_cases[i].desc);
			tap_skip("not running as root", "%s", then);
			continue;
		}
		/* Something to discard, so that a CLEAR that worked shows. */
		if (push(fd_rw, 25 + (long long)i, "keep"))
			tap_diag("PUSH failed: %s", errname(errno));
		snap = get_stats();
		expect_child(clear_as(clear_cases[i].rdonly ? fd_ro : fd_rw,
				      clear_cases[i].how),
			     clear_cases[i].want, clear_cases[i].desc);
		if (clear_cases[i].want)
			expect_unchanged(then);
		else
			expect_emptied(then);
	}
}

/* ---- GET_STATS output ---- */

static unsigned char statbuf[SSZ + 64];
static struct seqring_stats st_filled;
static int st_ret;

static void test_stats_filled(void)
{
	struct seqring_reading *r = readings_alloc(3, 30);

	/* Make every counter non-trivial: held readings and cleared ones. */
	if (push_batch(fd_rw, r, 3))
		tap_diag("PUSH_BATCH failed: %s", errname(errno));
	free(r);
	memset(statbuf, PATTERN, sizeof(statbuf));
	st_ret = ioctl(fd_ro, SEQRING_IOC_GET_STATS, statbuf);
	memcpy(&st_filled, statbuf, SSZ);
	expect_ok(st_ret, errno, "GET_STATS into a buffer filled with 0xA5 returns 0");
}

static void test_stats_no_pattern(void)
{
	const __u64 *f = (const __u64 *)&st_filled;
	unsigned int i, n = SSZ / sizeof(__u64);
	bool pass = true;

	for (i = 0; i < n; i++) {
		if (f[i] == PATTERN64) {
			tap_diag("field %u (byte offset %u) still holds the 0xA5 fill",
				 i, i * 8);
			pass = false;
		}
	}
	tap_result(pass, "GET_STATS writes every field of struct seqring_stats");
}

/* Every push so far found a free slot: nothing was lost. */
static void test_stats_lost(void)
{
	expect_u64(0, st_filled.lost, "GET_STATS: lost is 0 (every push stored)");
}

static void test_stats_invariant(void)
{
	const struct seqring_stats *s = &st_filled;

	if (!tap_result(s->total == s->count + s->dropped + s->cleared,
			"GET_STATS: total == count + dropped + cleared"))
		tap_diag("expected total %llu (= %llu + %llu + %llu), got %llu",
			 (unsigned long long)(s->count + s->dropped + s->cleared),
			 (unsigned long long)s->count,
			 (unsigned long long)s->dropped,
			 (unsigned long long)s->cleared,
			 (unsigned long long)s->total);
}

static void test_stats_capacity(void)
{
	const char *desc = "GET_STATS capacity equals the module parameter";
	unsigned long long cap;
	FILE *f = fopen(PARAM_CAPACITY, "r");

	if (!f) {
		tap_skip("cannot read " PARAM_CAPACITY, "%s", desc);
		return;
	}
	if (fscanf(f, "%llu", &cap) != 1)
		cap = 0;
	fclose(f);
	expect_u64(cap, st_filled.capacity, desc);
}

static void test_stats_seq_range(void)
{
	const struct seqring_stats *s = &st_filled;
	const char *desc =
		"GET_STATS: newest_seq = total, oldest_seq = newest - count + 1, count <= capacity";

	/* test_stats_filled pushed 3, so the ring is not empty here. */
	if (!tap_result(s->count >= 1 && s->count <= s->capacity &&
			s->newest_seq == s->total &&
			s->oldest_seq == s->newest_seq - s->count + 1,
			"%s", desc))
		tap_diag("got capacity %llu count %llu total %llu oldest_seq %llu newest_seq %llu",
			 (unsigned long long)s->capacity,
			 (unsigned long long)s->count,
			 (unsigned long long)s->total,
			 (unsigned long long)s->oldest_seq,
			 (unsigned long long)s->newest_seq);
}

static void test_stats_no_overrun(void)
{
	bool pass = true;
	size_t i;

	for (i = SSZ; i < sizeof(statbuf); i++) {
		if (statbuf[i] != PATTERN) {
			tap_diag("byte %zu after the struct: expected 0xa5, got 0x%02x",
				 i - SSZ, statbuf[i]);
			pass = false;
			break;
		}
	}
	tap_result(pass, "GET_STATS writes nothing past sizeof(struct seqring_stats)");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_fresh_empty),
	TAP_TEST(test_fresh_first_seq),
	TAP_TEST(test_push_ok),
	TAP_TEST(test_push_seq_increments),
	{ test_push_listed, ARRAY_SIZE(listed_cases) },
	{ test_enotty, ARRAY_SIZE(enotty_cases) },
	TAP_TEST(test_enotty_no_effect),
	{ test_efault, ARRAY_SIZE(efault_cases) },
	{ test_einval_reading, ARRAY_SIZE(bad_reading_cases) },
	{ test_batch_refused, ARRAY_SIZE(batch_refused_cases) },
	TAP_TEST(test_rejected_no_effect),
	TAP_TEST(test_batch_zero),
	TAP_TEST(test_batch_zero_no_effect),
	{ test_batch_all_or_nothing, 2 * ARRAY_SIZE(batch_all_or_nothing_cases) },
	TAP_TEST(test_batch_three),
	TAP_TEST(test_batch_three_seqs),
	TAP_TEST(test_batch_three_listed),
	TAP_TEST(test_batch_max),
	TAP_TEST(test_batch_max_total),
	TAP_TEST(test_batch_max_count),
	TAP_TEST(test_batch_max_dropped),
	TAP_TEST(test_ebadf_push),
	TAP_TEST(test_ebadf_batch),
	TAP_TEST(test_ebadf_no_effect),
	TAP_TEST(test_stats_rdonly),
	TAP_TEST(test_push_wronly),
	TAP_TEST(test_clear_rdwr),
	TAP_TEST(test_clear_empties),
	TAP_TEST(test_clear_counts),
	TAP_TEST(test_clear_seq_continues),
	{ test_clear_privilege, 2 * ARRAY_SIZE(clear_cases) },
	TAP_TEST(test_stats_filled),
	TAP_TEST(test_stats_no_pattern),
	TAP_TEST(test_stats_lost),
	TAP_TEST(test_stats_invariant),
	TAP_TEST(test_stats_capacity),
	TAP_TEST(test_stats_seq_range),
	TAP_TEST(test_stats_no_overrun),
};

static int open_dev(int flags, const char *name)
{
	int fd = open(dev_path, flags);

	if (fd < 0)
		tap_bail("open(%s, %s): %s", dev_path, name, errname(errno));
	return fd;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fresh")) {
			fresh = true;
		} else if (argv[i][0] != '-') {
			dev_path = argv[i];
		} else {
			fprintf(stderr, "usage: %s [--fresh] [DEVICE]\n", argv[0]);
			return 2;
		}
	}
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	tap_diag("ioctl ABI test, %zu-bit userspace, device %s",
		 sizeof(void *) * 8, dev_path);
	tap_plan_tests(tests, ARRAY_SIZE(tests));
	fd_rw = open_dev(O_RDWR, "O_RDWR");
	fd_ro = open_dev(O_RDONLY, "O_RDONLY");
	fd_wo = open_dev(O_WRONLY, "O_WRONLY");
	for (i = 0; i < (int)ARRAY_SIZE(tests); i++)
		tests[i].run();
	close(fd_wo);
	close(fd_ro);
	close(fd_rw);
	return tap_finish();
}
