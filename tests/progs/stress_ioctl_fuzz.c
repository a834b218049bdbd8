// SPDX-License-Identifier: GPL-2.0
/*
 * stress_ioctl_fuzz - seeded ioctl fuzzer for /dev/seqring, with a model
 *
 * Usage: stress_ioctl_fuzz [-s SEED] [-n CALLS] [-d DEV] [-l LISTING]
 *
 * Issues CALLS ioctls (default 100000) drawn from SEED (default: from the
 * clock; printed either way, and the same seed gives the same calls):
 * random command numbers in and around the driver's magic (other numbers,
 * wrong sizes, wrong directions, neighbouring magics), and the four real
 * commands with good, unaligned, read-only, NULL, unmapped, kernel-space,
 * non-canonical and page-straddling pointers, batch counts of 0, 1, 256,
 * 257, SEQRING_BATCH_MAX, SEQRING_BATCH_MAX + 1, UINT32_MAX and more,
 * labels without a NUL, non-zero flags, and fds opened read-only.
 *
 * A model of the ring (capacity from GET_STATS; the ring is cleared first)
 * gives the documented result of every call, which must be what the call
 * returns. Every successful GET_STATS must match the model, write exactly
 * its 64 bytes (the bytes around it keep a fill pattern) and zero
 * "reserved"; a failed one may only have written a prefix of the right
 * bytes. At the end (after one more batch that fills the ring) the stats,
 * the listing (default /proc/seqring: every reading the ring holds, in
 * order, as pushed) and, when readable, the debugfs files and the sysfs
 * counters must all agree with the model.
 *
 * The fuzzer must be the only user of the device while it runs. Output is
 * TAP with the figures as "# " lines.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "opts.h"
#include "stress.h"

#define MAX_ERRNO	256
#define MAX_REPORTS	20
#define PATTERN		0xa5
#define RO_READINGS	4
#define DEBUGFS_DIR	"/sys/kernel/debug/seqring"
#define SYSFS_DIR	"/sys/class/misc/seqring"

/* ---- the model ---- */

struct model {
	__u64 capacity;
	__u64 next_seq, oldest_seq, dropped, cleared;
	struct seqring_reading *slots;	/* seq s in slot (s - 1) % capacity */
};

static struct model m;

static void model_push(const struct seqring_reading *r, __u64 n)
{
	__u64 i;

	for (i = 0; i < n; i++) {
		struct seqring_reading *s;
		size_t len;

		s = &m.slots[(m.next_seq - 1) % m.capacity];
		*s = r[i];
		/* What the driver keeps: nothing after the label's NUL. */
		len = strnlen(s->label, SEQRING_LABEL_LEN);
		memset(s->label + len, 0, SEQRING_LABEL_LEN - len);
		m.next_seq++;
	}
	if (m.next_seq - m.oldest_seq > m.capacity) {
		__u64 over = m.next_seq - m.oldest_seq - m.capacity;

		m.oldest_seq += over;
		m.dropped += over;
	}
}

static void model_clear(void)
{
	m.cleared += m.next_seq - m.oldest_seq;
	m.oldest_seq = m.next_seq;
}

static void model_stats(struct seqring_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->capacity = m.capacity;
	st->count = m.next_seq - m.oldest_seq;
	st->total = m.next_seq - 1;
	st->dropped = m.dropped;
	st->cleared = m.cleared;
	if (st->count) {
		st->oldest_seq = m.oldest_seq;
		st->newest_seq = m.next_seq - 1;
	}
}

/* ---- memory to point at ---- */

/*
 * buf: BUF_READINGS readings of read-write memory followed by a PROT_NONE
 * guard page; ro: one read-only page with a reading, a batch and a small
 * array; unmapped: a page that was mapped and is not any more.
 */
#define BUF_READINGS	(SEQRING_BATCH_MAX + 8)

static long page_size;
static unsigned char *buf, *buf_end;	/* buf_end: start of the guard */
static unsigned char *ro_page, *unmapped;

struct ro_layout {
	struct seqring_reading reading;
	struct seqring_batch batch;
	struct seqring_reading readings[RO_READINGS];
};

enum ptr_kind {
	P_GOOD, P_UNALIGNED, P_RO, P_NULL, P_LOW, P_UNMAPPED, P_KERNEL,
	P_NONCANON, P_STRADDLE, P_MINUS1, P_NR
};

static const char * const ptr_names[P_NR] = {
	"good", "unaligned", "read-only", "NULL", "low", "unmapped",
	"kernel", "non-canonical", "straddling", "-1"
};

static bool ptr_faults(enum ptr_kind k)
{
	return k >= P_NULL;
}

static __u64 rng;

/* An address of @kind for @size bytes; P_GOOD/P_UNALIGNED are in buf. */
static void *bad_ptr(enum ptr_kind kind, size_t size)
{
	static const __u64 kernel[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xffffffffff600000ULL, 0xffffc90000000000ULL,
	};
	static const __u64 noncanon[] = {
		0x0000800000000000ULL, 0x8000000000000000ULL,
		0xdead000000000000ULL, 0x7fffffffffffffffULL,
	};

	switch (kind) {
	case P_NULL:
		return NULL;
	case P_LOW:
		return (void *)(uintptr_t)(1 + stress_below(&rng, 0xfff));
	case P_UNMAPPED:
		return unmapped + stress_below(&rng, 64);
	case P_KERNEL:
		return (void *)(uintptr_t)(kernel[stress_below(&rng, 4)] +
					   stress_below(&rng, 4096));
	case P_NONCANON:
		return (void *)(uintptr_t)noncanon[stress_below(&rng, 4)];
	case P_STRADDLE:
		/* Starts in buf, ends in the guard page. */
		return buf_end - size + 1 + stress_below(&rng, size - 1);
	case P_MINUS1:
		return (void *)~(uintptr_t)0;
	default:
		return buf;
	}
}

static enum ptr_kind pick_ptr_kind(void)
{
	__u64 r = stress_below(&rng, 100);

	if (r < 60)
		return P_GOOD;
	if (r < 70)
		return P_UNALIGNED;
	if (r < 75)
		return P_RO;
	return P_NULL + stress_below(&rng, P_NR - P_NULL);
}

/* ---- results ---- */

static unsigned long long calls, mismatches, stats_checked, stats_bad;
static unsigned long long by_errno[MAX_ERRNO];
static unsigned long long pushed, cap_batches;
static unsigned long long by_class[5];
static const char * const class_names[5] = {
	"random command", "PUSH", "PUSH_BATCH", "GET_STATS", "CLEAR"
};

static void mismatch(const char *what, unsigned int cmd, int want, int got)
{
	mismatches++;
	if (mismatches <= MAX_REPORTS)
		tap_diag("call %llu: %s (cmd 0x%08x): expected %s, got %s",
			 calls, what, cmd, errname(want), errname(got));
}

/* Issue one ioctl; returns 0 or the errno, counted. */
static int do_ioctl(int fd, unsigned int cmd, void *arg)
{
	int ret, e;

	calls++;
	ret = ioctl(fd, cmd, arg);
	e = ret ? errno : 0;
	if (ret && ret != -1) {
		tap_diag("call %llu: ioctl returned %d", calls, ret);
		e = 255;
	}
	by_errno[e < MAX_ERRNO ? e : 0]++;
	return e;
}

/* ---- the calls ---- */

static bool is_vfs_cmd(unsigned int cmd)
{
	/* Handled by fs/ioctl.c before the driver sees them. */
	static const unsigned int vfs[] = {
		FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC, FIOQSIZE, FIFREEZE,
		FITHAW, FS_IOC_FIEMAP, FIGETBSZ, FICLONE, FICLONERANGE,
		FIDEDUPERANGE, FIONREAD, FS_IOC_GETFLAGS, FS_IOC_SETFLAGS,
		FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vfs); i++)
		if (cmd == vfs[i])
			return true;
	return false;
}

static const unsigned int real_cmds[4] = {
	SEQRING_IOC_PUSH, SEQRING_IOC_PUSH_BATCH, SEQRING_IOC_GET_STATS,
	SEQRING_IOC_CLEAR,
};

/*
 * Defined in the UAPI for a later version: they may answer ENOTTY today and
 * work tomorrow, so random commands never hit them exactly.
 */
static const unsigned int later_cmds[2] = {
	SEQRING_IOC_SET_WAKEUP, SEQRING_IOC_SET_CAPACITY,
};

static void fuzz_random_cmd(int fd)
{
	unsigned int cmd, real, dir, size, nr, i;
	int got;

	do {
		real = real_cmds[stress_below(&rng, 4)];
		dir = _IOC_DIR(real);
		size = _IOC_SIZE(real);
		nr = _IOC_NR(real);
		switch (stress_below(&rng, 6)) {
		case 0:
			cmd = (unsigned int)stress_rand(&rng);
			break;
		case 1:
			cmd = _IOC(stress_below(&rng, 4), SEQRING_IOC_MAGIC,
				   stress_below(&rng, 256),
				   stress_below(&rng, 1 << _IOC_SIZEBITS));
			break;
		case 2:	/* right number, wrong size */
			cmd = _IOC(dir, SEQRING_IOC_MAGIC, nr,
				   stress_below(&rng, 2) ?
				   size + 1 + stress_below(&rng, 16) :
				   stress_below(&rng, 1 << _IOC_SIZEBITS));
			break;
		case 3:	/* right number, wrong direction */
			cmd = _IOC(stress_below(&rng, 4), SEQRING_IOC_MAGIC,
				   nr, size);
			break;
		case 4:	/* neighbouring magic */
			cmd = _IOC(dir, SEQRING_IOC_MAGIC +
				   (stress_below(&rng, 2) ? 1 : -1), nr, size);
			break;
		default: /* other numbers */
			cmd = _IOC(dir, SEQRING_IOC_MAGIC,
				   stress_below(&rng, 2) ? 0 :
				   5 + stress_below(&rng, 251), size);
		}
		for (i = 0; i < 4; i++)
			if (cmd == real_cmds[i])
				cmd = FIOCLEX; /* draw again */
		for (i = 0; i < 2; i++)
			if (cmd == later_cmds[i])
				cmd = FIOCLEX;
	} while (is_vfs_cmd(cmd));

	by_class[0]++;
	got = do_ioctl(fd, cmd, stress_below(&rng, 2) ? buf :
		       bad_ptr(P_NULL + stress_below(&rng, P_NR - P_NULL), 64));
	if (got != ENOTTY)
		mismatch("unknown command", cmd, ENOTTY, got);
}

/* A random reading; returns false if the driver must refuse it. */
static bool random_reading(struct seqring_reading *r, bool may_be_bad)
{
	unsigned int i, nul;
	__u64 kind = may_be_bad ? stress_below(&rng, 100) : 99;

	r->timestamp_ns = stress_below(&rng, 4) ? stress_rand(&rng) : 0;
	r->value = (long long)stress_rand(&rng);
	r->channel = (unsigned int)stress_rand(&rng);
	r->flags = 0;
	for (i = 0; i < SEQRING_LABEL_LEN; i++)
		r->label[i] = (char)(1 + stress_below(&rng, 255));
	if (kind < 12) {
		/* No NUL anywhere in the 16 bytes. */
		return false;
	}
	/* A NUL somewhere, and bytes the driver must ignore after it. */
	nul = stress_below(&rng, SEQRING_LABEL_LEN);
	r->label[nul] = '\0';
	if (kind < 25) {
		r->flags = (unsigned int)stress_rand(&rng) | 1u << stress_below(&rng, 32);
		return false;
	}
	return true;
}

static struct seqring_reading *place(enum ptr_kind kind)
{
	if (kind == P_GOOD)
		return (void *)buf;
	return (void *)(buf + 1 + stress_below(&rng, 7));
}

static void fuzz_push(int fd, bool writable)
{
	enum ptr_kind kind = pick_ptr_kind();
	struct seqring_reading r, *arg;
	const struct ro_layout *ro = (const void *)ro_page;
	int want, got;

	by_class[1]++;
	want = random_reading(&r, true) ? 0 : EINVAL;
	if (kind == P_RO) {
		arg = (struct seqring_reading *)&ro->reading;
		r = ro->reading;
		want = 0;
	} else if (ptr_faults(kind)) {
		arg = bad_ptr(kind, sizeof(r));
		want = EFAULT;
	} else {
		arg = place(kind);
		memcpy(arg, &r, sizeof(r));
	}
	if (!writable)
		want = EBADF;
	got = do_ioctl(fd, SEQRING_IOC_PUSH, arg);
	if (got != want) {
		char what[64];

		snprintf(what, sizeof(what), "PUSH, %s pointer", ptr_names[kind]);
		mismatch(what, SEQRING_IOC_PUSH, want, got);
	}
	if (!got) {
		model_push(&r, 1);
		pushed++;
	}
}

static __u32 pick_count(void)
{
	__u64 r = stress_below(&rng, 1000);

	if (r < 80)
		return 0;
	if (r < 180)
		return 1;
	if (r < 680)
		return 2 + stress_below(&rng, 63);
	if (r < 780)
		return 255 + stress_below(&rng, 3);
	if (r < 783)
		return SEQRING_BATCH_MAX;
	if (r < 850)
		return SEQRING_BATCH_MAX + 1;
	if (r < 920)
		return UINT32_MAX;
	return SEQRING_BATCH_MAX + 2 +
	       stress_below(&rng, UINT32_MAX - SEQRING_BATCH_MAX - 2);
}

static void fuzz_batch(int fd, bool writable)
{
	const struct ro_layout *ro = (const void *)ro_page;
	enum ptr_kind bkind = pick_ptr_kind(), rkind = pick_ptr_kind();
	struct seqring_reading *readings = NULL;
	struct seqring_batch b, *arg;
	int want = 0, got;
	__u32 i;
	char what[96];

	by_class[2]++;
	memset(&b, 0, sizeof(b));
	b.count = pick_count();
	if (stress_below(&rng, 10) == 0)
		b.flags = (unsigned int)stress_rand(&rng) | 1u << stress_below(&rng, 32);

	/* Where the readings are, and what the driver must say about them. */
	if (rkind == P_RO && b.count > RO_READINGS)
		rkind = P_GOOD;
	if (b.count > SEQRING_BATCH_MAX || !b.count) {
		b.readings = stress_below(&rng, 2) ? (uintptr_t)buf :
			     (uintptr_t)bad_ptr(P_NULL + stress_below(&rng, P_NR - P_NULL), 64);
	} else if (rkind == P_RO) {
		b.readings = (uintptr_t)ro->readings;
		readings = (struct seqring_reading *)ro->readings;
	} else if (ptr_faults(rkind)) {
		b.readings = (uintptr_t)bad_ptr(rkind, (size_t)b.count * sizeof(*readings));
		want = EFAULT;
	} else {
		readings = place(rkind);
		b.readings = (uintptr_t)readings;
		for (i = 0; i < b.count; i++)
			random_reading(&readings[i], false);
		/* Sometimes one bad reading anywhere rejects the batch. */
		if (stress_below(&rng, 7) == 0) {
			i = stress_below(&rng, b.count);
			random_reading(&readings[i], true);
			if (stress_below(&rng, 2))
				readings[i].flags = 1u << stress_below(&rng, 32);
			else
				memset(readings[i].label, 'x', SEQRING_LABEL_LEN);
			want = EINVAL;
		}
	}
	if (b.count > SEQRING_BATCH_MAX)
		want = E2BIG;
	else if (!b.count)
		want = 0;
	if (b.flags)
		want = EINVAL;

	if (bkind == P_RO) {
		/* The read-only batch: count RO_READINGS of valid readings. */
		arg = (struct seqring_batch *)&ro->batch;
		b = ro->batch;
		readings = (struct seqring_reading *)ro->readings;
		rkind = P_RO;
		want = 0;
	} else if (ptr_faults(bkind)) {
		arg = bad_ptr(bkind, sizeof(b));
		want = EFAULT;
	} else {
		/* Behind the largest array, so that both fit in buf. */
		arg = (void *)(buf_end - page_size + (bkind == P_UNALIGNED ?
						     1 + stress_below(&rng, 7) : 0));
		memcpy(arg, &b, sizeof(b));
	}
	if (!writable)
		want = EBADF;

	got = do_ioctl(fd, SEQRING_IOC_PUSH_BATCH, arg);
	if (got == ENOMEM && b.count && b.count <= SEQRING_BATCH_MAX &&
	    !b.flags && !ptr_faults(bkind) && writable)
		want = ENOMEM; /* documented; nothing stored */
	if (got != want) {
		snprintf(what, sizeof(what),
			 "PUSH_BATCH count %u flags 0x%x, %s batch, %s readings",
			 b.count, b.flags, ptr_names[bkind], ptr_names[rkind]);
		mismatch(what, SEQRING_IOC_PUSH_BATCH, want, got);
	}
	if (!got && b.count && readings) {
		model_push(readings, b.count);
		pushed += b.count;
		if (b.count == SEQRING_BATCH_MAX)
			cap_batches++;
	}
}

static bool stats_equal(const struct seqring_stats *a,
			const struct seqring_stats *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static void print_stats(const char *what, const struct seqring_stats *s)
{
	tap_diag("%s: capacity %llu count %llu total %llu dropped %llu",
		 what, (unsigned long long)s->capacity,
		 (unsigned long long)s->count, (unsigned long long)s->total,
		 (unsigned long long)s->dropped);
	tap_diag("%s: cleared %llu oldest %llu newest %llu lost %llu",
		 what, (unsigned long long)s->cleared,
		 (unsigned long long)s->oldest_seq,
		 (unsigned long long)s->newest_seq,
		 (unsigned long long)s->lost);
}

static void fuzz_stats(int fd)
{
	enum ptr_kind kind = pick_ptr_kind();
	struct seqring_stats want_st;
	const unsigned char *want_bytes = (const void *)&want_st;
	unsigned char *arg, *area = buf + page_size;
	size_t sz = sizeof(struct seqring_stats), i;
	int want = 0, got;
	bool ok = true;

	by_class[3]++;
	model_stats(&want_st);
	if (kind == P_GOOD || kind == P_UNALIGNED) {
		/* Pattern around and under it. */
		memset(area, PATTERN, 3 * sz);
		arg = area + sz + (kind == P_UNALIGNED ?
				   1 + stress_below(&rng, 7) : 0);
	} else if (kind == P_RO) {
		arg = ro_page + page_size - sz;
		want = EFAULT;
	} else {
		arg = bad_ptr(kind, sz);
		want = EFAULT;
		if (kind == P_STRADDLE)
			memset(buf_end - sz, PATTERN, sz);
	}
	got = do_ioctl(fd, SEQRING_IOC_GET_STATS, arg);
	if (got != want) {
		char what[64];

		snprintf(what, sizeof(what), "GET_STATS, %s pointer",
			 ptr_names[kind]);
		mismatch(what, SEQRING_IOC_GET_STATS, want, got);
		return;
	}
	if (kind == P_GOOD || kind == P_UNALIGNED) {
		struct seqring_stats st;

		stats_checked++;
		for (i = 0; i < 3 * sz; i++) {
			if (area + i >= arg && area + i < arg + sz)
				continue;
			if (area[i] != PATTERN)
				ok = false;
		}
		memcpy(&st, arg, sz);
		if (!ok || !stats_equal(&st, &want_st)) {
			stats_bad++;
			if (stats_bad <= MAX_REPORTS) {
				tap_diag("call %llu: GET_STATS %s", calls, ok ?
					 "does not match the model" :
					 "wrote outside its 64 bytes");
				print_stats("got", &st);
				print_stats("model", &want_st);
			}
		}
	} else if (kind == P_STRADDLE) {
		/* Whatever reached the buffer must be the real bytes. */
		stats_checked++;
		for (i = 0; arg + i < buf_end; i++) {
			if (arg[i] != PATTERN && arg[i] != want_bytes[i])
				ok = false;
		}
		if (!ok) {
			stats_bad++;
			if (stats_bad <= MAX_REPORTS)
				tap_diag("call %llu: failed GET_STATS wrote wrong bytes",
					 calls);
		}
	}
}

static bool have_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_SYS_ADMIN / 32].effective &
	       (1u << (CAP_SYS_ADMIN % 32));
}

static bool cap_admin;

static void fuzz_clear(int fd, bool writable)
{
	int want = writable || cap_admin ? 0 : EPERM, got;
	void *arg = stress_below(&rng, 2) ? NULL :
		    bad_ptr(P_NULL + stress_below(&rng, P_NR - P_NULL), 8);

	by_class[4]++;
	got = do_ioctl(fd, SEQRING_IOC_CLEAR, arg);
	if (got != want)
		mismatch(writable ? "CLEAR, fd open for writing" :
			 "CLEAR, read-only fd", SEQRING_IOC_CLEAR, want, got);
	if (!got)
		model_clear();
}

/* ---- final checks ---- */

static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	ssize_t r;
	int fd;

	if (!p)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(p);
		return NULL;
	}
	while ((r = read(fd, p + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n < 4096) {
			char *q = realloc(p, cap * 2);

			if (!q)
				break;
			p = q;
			cap *= 2;
		}
	}
	close(fd);
	if (r < 0) {
		free(p);
		return NULL;
	}
	p[n] = '\0';
	*len = n;
	return p;
}

/* The listing must be the model's readings, oldest first. */
static bool check_listing(const char *path, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	__u64 seq = m.oldest_seq;
	unsigned int reports = 0;
	bool ok = true;

	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl || (size_t)(nl - p) != strlen(STRESS_HEADER) ||
	    memcmp(p, STRESS_HEADER, (size_t)(nl - p))) {
		tap_diag("%s: no header line", path);
		return false;
	}
	for (p = nl + 1; p < end; p = nl + 1, seq++) {
		const struct seqring_reading *r;
		char esc[STRESS_ESCAPED_LEN];
		struct stress_line l;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			tap_diag("%s: last line has no newline", path);
			return false;
		}
		if (seq >= m.next_seq) {
			tap_diag("%s: more lines than the %llu readings held",
				 path, (unsigned long long)(m.next_seq - m.oldest_seq));
			return false;
		}
		r = &m.slots[(seq - 1) % m.capacity];
		stress_escape(r->label, esc);
		if (!stress_parse_line(p, (size_t)(nl - p), &l) ||
		    l.seq != seq || l.channel != r->channel ||
		    l.value != r->value || strcmp(l.label, esc) ||
		    (r->timestamp_ns ? l.timestamp_ns != r->timestamp_ns :
				       !l.timestamp_ns)) {
			ok = false;
			if (++reports <= 5)
				tap_diag("%s: '%.*s', expected %llu %llu %u %lld %s",
					 path, (int)(nl - p), p,
					 (unsigned long long)seq,
					 (unsigned long long)r->timestamp_ns,
					 r->channel, (long long)r->value, esc);
		}
	}
	if (seq != m.next_seq) {
		tap_diag("%s: %llu readings listed, %llu held", path,
			 (unsigned long long)(seq - m.oldest_seq),
			 (unsigned long long)(m.next_seq - m.oldest_seq));
		ok = false;
	}
	return ok;
}

static bool check_kv(const char *text, const char *key, unsigned long long want)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "%s: ", key);
	p = strstr(text, k);
	if (p && (p == text || p[-1] == '\n') &&
	    strtoull(p + strlen(k), NULL, 10) == want)
		return true;
	tap_diag("debugfs stats: %s is not %llu", key, want);
	return false;
}

static bool check_sysfs(const char *name, unsigned long long want)
{
	char path[128], *text;
	size_t len;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", SYSFS_DIR, name);
	text = slurp(path, &len);
	ok = text && strtoull(text, NULL, 10) == want;
	if (!ok)
		tap_diag("%s: '%s', expected %llu", path,
			 text ? text : "(unreadable)", want);
	free(text);
	return ok;
}

static const char usage[] =
	"stress_ioctl_fuzz [-s SEED] [-n CALLS] [-d DEV] [-l LISTING]";

int main(int argc, char **argv)
{
	const char *dev = "/dev/seqring", *listing = "/proc/seqring";
	unsigned long long n = 100000, seed = 0, i, fill;
	struct seqring_batch fill_batch = { 0 };
	struct seqring_stats st, want_st;
	struct ro_layout *ro;
	char *text, *dtext;
	size_t len, dlen;
	int rw, rd, e;
	double t0, secs;
	const struct opt opts[] = {
		{ 's', OPT_ULL, &seed }, { 'n', OPT_ULL, &n },
		{ 'd', OPT_STR, &dev }, { 'l', OPT_STR, &listing },
	};
	bool ok;

	if (opts_parse(argc, argv, opts, OPTS_NR(opts), usage) != argc)
		opts_usage(usage);
	if (!seed)
		seed = stress_clock_seed();
	rng = seed;
	cap_admin = have_cap_sys_admin();

	tap_plan(5);
	tap_diag("seed %llu (rerun: stress_ioctl_fuzz -s %llu -n %llu), uid %d, CAP_SYS_ADMIN %s",
		 seed, seed, n, (int)geteuid(), cap_admin ? "yes" : "no");

	page_size = sysconf(_SC_PAGESIZE);
	len = (BUF_READINGS * sizeof(struct seqring_reading) + 2 * page_size +
	       page_size - 1) & ~(size_t)(page_size - 1);
	buf = mmap(NULL, len + page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unmapped = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || ro_page == MAP_FAILED ||
	    unmapped == MAP_FAILED)
		tap_bail("mmap: %s", errname(errno));
	buf_end = buf + len;
	if (mprotect(buf_end, page_size, PROT_NONE) ||
	    munmap(unmapped, page_size))
		tap_bail("mprotect/munmap: %s", errname(errno));

	ro = (struct ro_layout *)ro_page;
	random_reading(&ro->reading, false);
	for (i = 0; i < RO_READINGS; i++)
		random_reading(&ro->readings[i], false);
	ro->batch.readings = (uintptr_t)ro->readings;
	ro->batch.count = RO_READINGS;
	if (mprotect(ro_page, page_size, PROT_READ))
		tap_bail("mprotect: %s", errname(errno));

	rw = open(dev, O_RDWR);
	rd = open(dev, O_RDONLY);
	if (rw < 0 || rd < 0)
		tap_bail("open %s: %s", dev, errname(errno));

	/* Start from an empty ring whose counters we know. */
	if (ioctl(rw, SEQRING_IOC_CLEAR) || ioctl(rw, SEQRING_IOC_GET_STATS, &st))
		tap_bail("CLEAR/GET_STATS: %s", errname(errno));
	if (!st.capacity || st.capacity > (1 << 24) || st.count)
		tap_bail("unexpected stats after CLEAR (capacity %llu count %llu)",
			 (unsigned long long)st.capacity,
			 (unsigned long long)st.count);
	m.capacity = st.capacity;
	m.next_seq = st.total + 1;
	m.oldest_seq = m.next_seq;
	m.dropped = st.dropped;
	m.cleared = st.cleared;
	m.slots = calloc(m.capacity, sizeof(*m.slots));
	if (!m.slots)
		tap_bail("out of memory");
	tap_diag("capacity %llu, starting at sequence number %llu",
		 (unsigned long long)m.capacity,
		 (unsigned long long)m.next_seq);

	t0 = stress_now();
	for (i = 0; i < n; i++) {
		__u64 r = stress_below(&rng, 100);
		bool writable = stress_below(&rng, 10) != 0;
		int fd = writable ? rw : rd;

		if (r < 25)
			fuzz_random_cmd(fd);
		else if (r < 55)
			fuzz_push(fd, writable);
		else if (r < 80)
			fuzz_batch(fd, writable);
		else if (r < 97)
			fuzz_stats(fd);
		else
			fuzz_clear(fd, writable);
	}
	secs = stress_now() - t0;

	/* End with a full, wrapped ring, so that the listing check has work. */
	fill = m.capacity + 17 > SEQRING_BATCH_MAX ? SEQRING_BATCH_MAX :
						     m.capacity + 17;
	for (i = 0; i < fill; i++)
		random_reading((struct seqring_reading *)buf + i, false);
	fill_batch.readings = (uintptr_t)buf;
	fill_batch.count = (__u32)fill;
	if (ioctl(rw, SEQRING_IOC_PUSH_BATCH, &fill_batch)) {
		tap_diag("final PUSH_BATCH of %llu readings: %s", fill,
			 errname(errno));
		mismatches++;
	} else {
		model_push((struct seqring_reading *)buf, fill);
	}

	tap_diag("%llu ioctls in %.1f s (%.0f/s)", calls, secs,
		 secs > 0 ? (double)calls / secs : 0.0);
	for (e = 0; e < 5; e++)
		tap_diag("  %-15s %llu", class_names[e], by_class[e]);
	for (e = 0; e < MAX_ERRNO; e++)
		if (by_errno[e])
			tap_diag("  returned %-9s %llu", errname(e), by_errno[e]);
	tap_diag("readings stored %llu (%llu batches of %d), dropped %llu, cleared %llu",
		 pushed, cap_batches, SEQRING_BATCH_MAX,
		 (unsigned long long)m.dropped, (unsigned long long)m.cleared);

	tap_result(!mismatches && calls == n,
		   "%llu ioctls returned the documented result (%llu did not)",
		   calls, mismatches);
	tap_result(!stats_bad && stats_checked,
		   "GET_STATS wrote only its 64 bytes, reserved 0, values as modelled (%llu checked)",
		   stats_checked);

	model_stats(&want_st);
	ok = !ioctl(rd, SEQRING_IOC_GET_STATS, &st) && stats_equal(&st, &want_st);
	if (!ok) {
		print_stats("got", &st);
		print_stats("model", &want_st);
	}
	tap_result(ok, "final GET_STATS agrees with the model");

	text = slurp(listing, &len);
	if (!text)
		tap_diag("cannot read %s: %s", listing, errname(errno));
	tap_result(text && check_listing(listing, text, len),
		   "%s holds exactly the %llu readings of the model",
		   listing, (unsigned long long)(m.next_seq - m.oldest_seq));

	dtext = slurp(DEBUGFS_DIR "/readings", &dlen);
	if (!dtext) {
		tap_skip("debugfs not readable here",
			 "debugfs readings and stats, sysfs counters agree");
	} else {
		ok = text && dlen == len && !memcmp(text, dtext, len);
		if (!ok)
			tap_diag("debugfs readings differ from %s", listing);
		free(dtext);
		dtext = slurp(DEBUGFS_DIR "/stats", &dlen);
		ok = dtext && ok;
		ok = ok && check_kv(dtext, "capacity", want_st.capacity);
		ok = ok && check_kv(dtext, "count", want_st.count);
		ok = ok && check_kv(dtext, "total", want_st.total);
		ok = ok && check_kv(dtext, "dropped", want_st.dropped);
		ok = ok && check_kv(dtext, "cleared", want_st.cleared);
		ok = ok && check_kv(dtext, "oldest_seq", want_st.oldest_seq);
		ok = ok && check_kv(dtext, "newest_seq", want_st.newest_seq);
		ok = check_sysfs("capacity", want_st.capacity) && ok;
		ok = check_sysfs("count", want_st.count) && ok;
		ok = check_sysfs("total", want_st.total) && ok;
		ok = check_sysfs("dropped", want_st.dropped) && ok;
		ok = check_sysfs("newest_seq", want_st.newest_seq) && ok;
		tap_result(ok, "debugfs readings and stats, sysfs counters agree");
	}
	free(dtext);
	free(text);
	close(rw);
	close(rd);
	return tap_finish();
}
