// SPDX-License-Identifier: GPL-2.0
/*
 * libseqring - a client of seqring's devices (libseqring.h says what each
 * function does)
 *
 * Device access through the ioctls and the stream of <linux/seqring.h>,
 * cursor files, and strict parsing of the numbers that end up in a struct
 * seqring_reading.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
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
