// SPDX-License-Identifier: GPL-2.0
/*
 * seqring-utils - helpers shared by the seqring tools
 *
 * Device access through the ioctls of <linux/seqring.h> and strict parsing
 * of the numbers that end up in a struct seqring_reading.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/seqring.h>

#include "seqring-utils.h"

int seqring_open(const char *device, int flags)
{
	int fd;

	fd = open(device, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
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

int seqring_parse_s64(const char *str, __s64 *val)
{
	long long v;
	char *end;

	if (check_number_start(str))
		return -EINVAL;
	errno = 0;
	v = strtoll(str, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*val = v;
	return 0;
}

int seqring_parse_u64(const char *str, __u64 *val)
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

int seqring_parse_u32(const char *str, __u32 *val)
{
	__u64 v;
	int ret;

	ret = seqring_parse_u64(str, &v);
	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*val = (__u32)v;
	return 0;
}

int seqring_set_label(struct seqring_reading *reading, const char *label,
		      size_t len)
{
	if (len > SEQRING_LABEL_MAX)
		return -ENAMETOOLONG;
	memset(reading->label, 0, sizeof(reading->label));
	memcpy(reading->label, label, len);
	return 0;
}

bool seqring_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	unsigned char lo, hi;
	size_t n, i;

	while (p < end) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		/* The range of the second byte rules out overlongs,
		 * surrogates and code points above U+10FFFF.
		 */
		lo = 0x80;
		hi = 0xbf;
		if (*p >= 0xc2 && *p <= 0xdf) {
			n = 1;
		} else if (*p >= 0xe0 && *p <= 0xef) {
			n = 2;
			if (*p == 0xe0)
				lo = 0xa0;
			else if (*p == 0xed)
				hi = 0x9f;
		} else if (*p >= 0xf0 && *p <= 0xf4) {
			n = 3;
			if (*p == 0xf0)
				lo = 0x90;
			else if (*p == 0xf4)
				hi = 0x8f;
		} else {
			return false;
		}
		if ((size_t)(end - p) <= n || p[1] < lo || p[1] > hi)
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
static int seqring_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return 0;
}

int seqring_push(int fd, const struct seqring_reading *reading)
{
	return seqring_ioctl(fd, SEQRING_IOC_PUSH, (void *)reading);
}

int seqring_push_batch(int fd, const struct seqring_reading *readings,
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
		ret = seqring_ioctl(fd, SEQRING_IOC_PUSH_BATCH, &batch);
		if (ret)
			break;
		done += n;
	}
	if (pushed)
		*pushed = done;
	return ret;
}

int seqring_get_stats(int fd, struct seqring_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	return seqring_ioctl(fd, SEQRING_IOC_GET_STATS, stats);
}

int seqring_clear(int fd)
{
	return seqring_ioctl(fd, SEQRING_IOC_CLEAR, NULL);
}

int seqring_set_capacity(int fd, __u32 capacity)
{
	return seqring_ioctl(fd, SEQRING_IOC_SET_CAPACITY, &capacity);
}

int seqring_set_wakeup(int fd, __u32 readings)
{
	return seqring_ioctl(fd, SEQRING_IOC_SET_WAKEUP, &readings);
}
