// SPDX-License-Identifier: GPL-2.0
/*
 * libseqring - a client of seqring's devices (libseqring.h says what each
 * function does)
 *
 * Device access through the ioctls and the stream of <linux/seqring.h>,
 * cursor files, and strict parsing of the numbers that end up in a struct
 * seqring_reading.
 */

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/seqring.h>

#include "libseqring.h"

#define SRL_NELEM(arr) (sizeof(arr) / sizeof((arr)[0]))

int srl_open(const char *device, int flags)
{
	int fd;

	fd = open(device, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
}

int srl_open_ring(const char *name, int flags)
{
	char path[sizeof(SRL_DEFAULT_DEVICE "-") + SRL_NAME_MAX];
	size_t len;

	if (!name || !*name)
		return srl_open(SRL_DEFAULT_DEVICE, flags);
	len = strlen(name);
	/* The kernel API's rule: it never makes another name. */
	if (len > SRL_NAME_MAX ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != len)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s-%s", SRL_DEFAULT_DEVICE, name);
	return srl_open(path, flags);
}

/* strto*() skip leading white space; we do not want to. */
static int check_number_start(const char *str)
{
	const char *p = str;

	if (*p == '+' || *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	return 0;
}

int srl_parse_u64(const char *str, __u64 *val)
{
	unsigned long long v;
	char *end;

	if (check_number_start(str))
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (*end)
		return -EINVAL;
	/* strtoull() takes "-1" and returns ULLONG_MAX: refuse any sign. */
	if (errno == ERANGE || *str == '-')
		return -ERANGE;
	*val = v;
	return 0;
}

/* The magnitude as srl_parse_u64() reads it, then the sign. */
int srl_parse_s64(const char *str, __s64 *val)
{
	bool neg = *str == '-';
	const char *p = str;
	__u64 mag;
	int ret;

	if (*p == '-' || *p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	ret = srl_parse_u64(p, &mag);
	if (ret)
		return ret;
	if (mag > (neg ? (__u64)INT64_MAX + 1 : (__u64)INT64_MAX))
		return -ERANGE;
	*val = neg ? (__s64)(0 - mag) : (__s64)mag;
	return 0;
}

int srl_parse_u32(const char *str, __u32 *val)
{
	__u64 v;
	int ret;

	ret = srl_parse_u64(str, &v);
	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*val = (__u32)v;
	return 0;
}

int srl_set_label(struct seqring_reading *reading, const char *label,
		  size_t len)
{
	if (len > SRL_LABEL_MAX)
		return -ENAMETOOLONG;
	memset(reading->label, 0, sizeof(reading->label));
	memcpy(reading->label, label, len);
	return 0;
}

/*
 * RFC 3629's table of well-formed sequences: for each range of lead
 * bytes, how many bytes follow and the range of the first of them, which
 * rules out overlong forms, surrogates and code points above U+10FFFF;
 * every later byte is 0x80 to 0xbf.
 */
static const struct {
	unsigned char lead_lo, lead_hi, follow, next_lo, next_hi;
} utf8_seqs[] = {
	{ 0xc2, 0xdf, 1, 0x80, 0xbf },
	{ 0xe0, 0xe0, 2, 0xa0, 0xbf },
	{ 0xe1, 0xec, 2, 0x80, 0xbf },
	{ 0xed, 0xed, 2, 0x80, 0x9f },
	{ 0xee, 0xef, 2, 0x80, 0xbf },
	{ 0xf0, 0xf0, 3, 0x90, 0xbf },
	{ 0xf1, 0xf3, 3, 0x80, 0xbf },
	{ 0xf4, 0xf4, 3, 0x80, 0x8f },
};

bool srl_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	size_t i, k, n;

	while (p < end) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		for (k = 0; k < SRL_NELEM(utf8_seqs); k++)
			if (*p >= utf8_seqs[k].lead_lo &&
			    *p <= utf8_seqs[k].lead_hi)
				break;
		if (k == SRL_NELEM(utf8_seqs))
			return false;
		n = utf8_seqs[k].follow;
		if ((size_t)(end - p) <= n || p[1] < utf8_seqs[k].next_lo ||
		    p[1] > utf8_seqs[k].next_hi)
			return false;
		for (i = 2; i <= n; i++)
			if (p[i] < 0x80 || p[i] > 0xbf)
				return false;
		p += n + 1;
	}
	return true;
}

/*
 * The driver may sleep interruptibly; a push that was interrupted stored
 * nothing, so it is safe to repeat it.
 */
static int srl_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return 0;
}

int srl_push(int fd, const struct seqring_reading *reading)
{
	return srl_ioctl(fd, SEQRING_IOC_PUSH, (void *)reading);
}

int srl_push_batch(int fd, const struct seqring_reading *readings,
		   size_t count, size_t *pushed)
{
	struct seqring_batch batch;
	size_t done = 0;
	size_t n;
	int ret = 0;

	while (done < count) {
		n = count - done;
		if (n > SEQRING_BATCH_MAX)
			n = SEQRING_BATCH_MAX;
		memset(&batch, 0, sizeof(batch));
		batch.readings = (__u64)(uintptr_t)(readings + done);
		batch.count = (__u32)n;
		ret = srl_ioctl(fd, SEQRING_IOC_PUSH_BATCH, &batch);
		if (ret)
			break;
		done += n;
	}
	if (pushed)
		*pushed = done;
	return ret;
}

int srl_get_stats(int fd, struct seqring_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	return srl_ioctl(fd, SEQRING_IOC_GET_STATS, stats);
}

int srl_clear(int fd)
{
	return srl_ioctl(fd, SEQRING_IOC_CLEAR, NULL);
}

int srl_set_capacity(int fd, __u32 capacity)
{
	return srl_ioctl(fd, SEQRING_IOC_SET_CAPACITY, &capacity);
}

int srl_set_wakeup(int fd, __u32 readings)
{
	return srl_ioctl(fd, SEQRING_IOC_SET_WAKEUP, &readings);
}

ssize_t srl_read(int fd, struct seqring_record *records, size_t count)
{
	ssize_t n;

	do {
		n = read(fd, records, count * sizeof(*records));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* The driver returns whole records; anything else is not seqring. */
	if (n % sizeof(*records))
		return -EIO;
	return n / sizeof(*records);
}

int srl_wait(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret && (pfd.revents & POLLNVAL))
		return -EBADF;
	return ret > 0;
}

int srl_cursor_load(const char *file, __u64 *seq)
{
	char buf[32];
	size_t n;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (n == sizeof(buf) - 1 || srl_parse_u64(buf, seq))
		return -EINVAL;
	return 0;
}

int srl_cursor_save(const char *file, __u64 seq)
{
	char *tmp;
	FILE *f;
	int err = 0;

	tmp = malloc(strlen(file) + sizeof(".tmp"));
	if (!tmp)
		return -ENOMEM;
	sprintf(tmp, "%s.tmp", file);
	f = fopen(tmp, "we");
	if (!f) {
		err = -errno;
		goto out;
	}
	fprintf(f, "%llu\n", (unsigned long long)seq);
	if (fclose(f))
		err = -errno;
	else if (rename(tmp, file))
		err = -errno;
	if (err)
		unlink(tmp);
out:
	free(tmp);
	return err;
}

/*
 * The listing's escaping, so that a tool's output and /proc/seqring can be
 * compared line for line: every byte that could split or hide a field
 * (controls, space, DEL, non-ASCII) and the backslash written as \ooo.
 * "-" stands for the empty label, so a label that is "-" itself is \055.
 */
void srl_escape_label(char *buf, const char *label)
{
	const unsigned char *p = (const unsigned char *)label;
	size_t len = strnlen(label, SEQRING_LABEL_LEN);
	char *o = buf;
	size_t i;

	if (!len) {
		strcpy(buf, "-");
		return;
	}
	if (len == 1 && p[0] == '-') {
		strcpy(buf, "\\055");
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

/*
 * The mapping's consumer (seqring(4) "Mapping", doc/design.md).
 *
 * Memory ordering. The kernel's side is the ordering comment of
 * driver/ring.c; this is its reader (a.-c. there) in C11 atomics, checked
 * by the Linux-kernel memory model in tests/litmus/map-consumer.litmus
 * (a C11 acquire load is the model's smp_load_acquire(), a relaxed one
 * READ_ONCE(), atomic_thread_fence(memory_order_acquire) its smp_rmb()
 * between loads). To read reading s:
 *   A. load-acquire next_seq (pairs with the producers' fully ordered
 *      cmpxchg that publishes it, cumulative over the release of each
 *      slot's seq): every reading below it is committed and visible;
 *      then oldest_seq, which is at least as new as the next_seq seen
 *      (reader-oldest.litmus);
 *   B. load-acquire the slot's seq (pairs with the producer's
 *      smp_store_release() of it): if it is s, the reading stored before
 *      it is visible;
 *   C. copy the reading word by word, relaxed: a producer may be storing
 *      a newer one over it meanwhile, so the copy may be torn, and is not
 *      used unless D. says it was not;
 *   D. acquire fence (the kernel reader's smp_rmb()), then load seq again,
 *      relaxed: still s means no producer marked the slot busy before the
 *      copy ended (it marks the slot, then smp_wmb(), before it writes
 *      the reading), so the copy is whole;
 *   E. seq not s in B. or D.: the reading was overwritten. An acquire
 *      fence, then oldest_seq: the producer that marked the slot had
 *      raised oldest_seq past s before its mark, so it is seen here, and
 *      the readings up to it are counted lost, never skipped silently
 *      (map-consumer.litmus).
 * GONE: the flags word is loaded with acquire before next_seq, so a
 * consumer that sees the flag sees every reading published before the
 * ring was destroyed, and stops only after reading them.
 *
 * Every word a producer stores is read through an atomic, never a plain
 * load: the copy of C. races with producers by design, and only atomics
 * make that race defined in C11 (as for seqlocks in C11: the data read
 * relaxed, then a fence, then the count).
 */

/*
 * 64-bit words loaded in one instruction, without a lock: a lock of the
 * C library's would not order anything against the kernel, and a load
 * built from a compare-and-exchange would write to the read-only mapping
 * and fault. Always so on 64-bit; on 32-bit x86 only from i586 on.
 */
#define SRL_MAP_ATOMIC64	(ATOMIC_LLONG_LOCK_FREE == 2)

/* The words of a reading, copied one at a time (C. above). */
#define SRL_READING_WORDS	(sizeof(struct seqring_reading) / sizeof(__u64))

static_assert(sizeof(unsigned long long) == sizeof(__u64),
	      "a __u64 is an unsigned long long");
static_assert(sizeof(atomic_ullong) == sizeof(__u64),
	      "an atomic __u64 has the layout of the kernel's");
static_assert(sizeof(struct seqring_reading) % sizeof(__u64) == 0,
	      "a reading is whole 64-bit words");

struct srl_map {
	int fd;
	bool own_fd;
	void *base;
	size_t len;
	const atomic_ullong *next_seq;
	const atomic_ullong *oldest_seq;
	const atomic_ullong *flags;
	const unsigned char *slots;
	size_t slot_size;
	__u32 capacity;
	__u64 cursor;		/* the next reading to read */
	__u64 lost;
};

static const atomic_ullong *srl_map_seq(const struct srl_map *map, __u64 s)
{
	return (const atomic_ullong *)(map->slots +
				       (s % map->capacity) * map->slot_size);
}

static __u64 srl_map_oldest(const struct srl_map *map)
{
	return atomic_load_explicit(map->oldest_seq, memory_order_relaxed);
}

/*
 * The meta page is checked before anything in it is trusted: a version
 * and a layout this library knows, slots of the size of the struct it
 * copies, 8-byte aligned, and a slot array inside the mapping.
 */
static int srl_map_check(const struct seqring_mmap_meta *meta)
{
	if (meta->version != SEQRING_MMAP_VERSION ||
	    meta->slot_size != sizeof(struct seqring_mmap_slot) ||
	    meta->slots_offset < sizeof(*meta) ||
	    meta->slots_offset % sizeof(__u64) ||
	    meta->slots_offset > SIZE_MAX / 2 || !meta->capacity ||
	    meta->capacity > SEQRING_CAPACITY_MAX)
		return -EPROTONOSUPPORT;
	return 0;
}

int srl_map_open(int fd, struct srl_map **mapp)
{
	const struct seqring_mmap_meta *meta;
	long page = sysconf(_SC_PAGESIZE);
	struct srl_map *map;
	size_t len;
	void *head;
	int ret;

	if (!SRL_MAP_ATOMIC64)
		return -EOPNOTSUPP;
	if (page <= 0)
		return -EINVAL;
	/*
	 * The meta page first, for the size of the rest; it stays mapped
	 * until the whole is, so the ring cannot be resized in between
	 * (EBUSY while mapped).
	 */
	head = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (head == MAP_FAILED)
		return -errno;
	meta = head;
	ret = srl_map_check(meta);
	if (ret)
		goto out_head;
	len = meta->slots_offset +
	      (size_t)meta->capacity * sizeof(struct seqring_mmap_slot);
	map = calloc(1, sizeof(*map));
	if (!map) {
		ret = -ENOMEM;
		goto out_head;
	}
	map->base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map->base == MAP_FAILED) {
		ret = -errno;
		goto out_map;
	}
	map->len = len;
	meta = map->base;
	if (srl_map_check(meta) || meta->capacity !=
	    ((const struct seqring_mmap_meta *)head)->capacity) {
		ret = -EPROTONOSUPPORT;
		goto out_base;
	}
	munmap(head, page);
	map->fd = fd;
	map->next_seq = (const atomic_ullong *)&meta->next_seq;
	map->oldest_seq = (const atomic_ullong *)&meta->oldest_seq;
	map->flags = (const atomic_ullong *)&meta->flags;
	map->slots = (const unsigned char *)map->base + meta->slots_offset;
	map->slot_size = meta->slot_size;
	map->capacity = meta->capacity;
	map->cursor = srl_map_oldest(map);
	*mapp = map;
	return 0;

out_base:
	munmap(map->base, len);
out_map:
	free(map);
out_head:
	munmap(head, page);
	return ret;
}

int srl_map_open_ring(const char *name, struct srl_map **mapp)
{
	int fd, ret;

	fd = srl_open_ring(name, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	ret = srl_map_open(fd, mapp);
	if (ret) {
		close(fd);
		return ret;
	}
	(*mapp)->own_fd = true;
	return 0;
}

void srl_map_close(struct srl_map *map)
{
	if (!map)
		return;
	munmap(map->base, map->len);
	if (map->own_fd)
		close(map->fd);
	free(map);
}

int srl_map_fd(const struct srl_map *map)
{
	return map->fd;
}

__u64 srl_map_lost(const struct srl_map *map)
{
	return map->lost;
}

__u64 srl_map_cursor(const struct srl_map *map)
{
	return map->cursor;
}

void srl_map_seek(struct srl_map *map, __u64 seq)
{
	__u64 next = atomic_load_explicit(map->next_seq, memory_order_acquire);
	__u64 oldest = srl_map_oldest(map);

	if (seq > next)
		seq = next;
	if (seq < oldest)
		seq = oldest;
	map->cursor = seq;
}

/*
 * Readings below oldest_seq are gone: count them and go on from there,
 * -EPIPE once, as read() does.
 */
static ssize_t srl_map_skip(struct srl_map *map, __u64 oldest)
{
	map->lost += oldest - map->cursor;
	map->cursor = oldest;
	return -EPIPE;
}

ssize_t srl_map_read(struct srl_map *map, struct seqring_record *records,
		     size_t count)
{
	union {
		__u64 word[SRL_READING_WORDS];
		struct seqring_reading reading;
	} copy;
	const atomic_ullong *seq, *word;
	__u64 flags, next, oldest, s;
	size_t n = 0, i;

	/* Before next_seq: see GONE above. */
	flags = atomic_load_explicit(map->flags, memory_order_acquire);
	/* A. */
	next = atomic_load_explicit(map->next_seq, memory_order_acquire);
	oldest = srl_map_oldest(map);
	if (map->cursor < oldest)
		return srl_map_skip(map, oldest);
	while (n < count && map->cursor < next) {
		s = map->cursor;
		seq = srl_map_seq(map, s);
		word = seq + 1;
		/* B. */
		if (atomic_load_explicit(seq, memory_order_acquire) != s)
			goto overwritten;
		/* C. */
		for (i = 0; i < SRL_READING_WORDS; i++)
			copy.word[i] = atomic_load_explicit(&word[i],
							    memory_order_relaxed);
		/* D. */
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(seq, memory_order_relaxed) != s)
			goto overwritten;
		records[n].seq = s;
		records[n].reading = copy.reading;
		n++;
		map->cursor++;
	}
	if (n)
		return n;
	if (flags & SEQRING_MMAP_GONE)
		return 0;
	return -EAGAIN;

overwritten:
	/* E. */
	atomic_thread_fence(memory_order_acquire);
	oldest = srl_map_oldest(map);
	/* What was read is returned; the next call says -EPIPE. */
	if (n)
		return n;
	/*
	 * The producer that overwrote the slot raised oldest_seq first: not
	 * seeing it raised means the mapping does not keep the protocol.
	 */
	if (oldest <= map->cursor)
		return -EIO;
	return srl_map_skip(map, oldest);
}

int srl_map_sync_cursor(struct srl_map *map)
{
	__u64 cursor = map->cursor;

	return srl_ioctl(map->fd, SEQRING_IOC_SET_CURSOR, &cursor);
}

/*
 * Something for srl_map_read(): readings at the cursor, readings lost, or
 * the end. The cursor may be above next_seq for a moment (oldest_seq is
 * raised before what overwrites is published): nothing to read then.
 */
static bool srl_map_ready(const struct srl_map *map)
{
	__u64 flags, next;

	flags = atomic_load_explicit(map->flags, memory_order_acquire);
	next = atomic_load_explicit(map->next_seq, memory_order_acquire);
	return map->cursor < next || map->cursor < srl_map_oldest(map) ||
	       (flags & SEQRING_MMAP_GONE);
}

int srl_map_wait(struct srl_map *map, int timeout_ms)
{
	int ret;

	if (srl_map_ready(map))
		return 1;
	ret = srl_map_sync_cursor(map);
	if (ret)
		return ret;
	return srl_wait(map->fd, timeout_ms);
}
