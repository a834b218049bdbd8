/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring-utils - helpers shared by the seqring tools
 *
 * None of these print anything: they return 0 (or a file descriptor) on
 * success and a negative errno value on failure, and the caller says what
 * went wrong, naming the device or the input line.
 */
#ifndef _SEQRING_UTILS_H_
#define _SEQRING_UTILS_H_

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <linux/seqring.h>

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#define SEQRING_DEFAULT_DEVICE	"/dev/seqring"

/* Longest label in bytes, not counting the terminating NUL. */
#define SEQRING_LABEL_MAX	(SEQRING_LABEL_LEN - 1)

int seqring_open(const char *device, int flags);

/*
 * Decimal numbers only, optionally signed with '+' (and '-' for s64). The
 * whole string must be the number: no leading blanks, no trailing garbage,
 * not empty. -EINVAL if it is not a number, -ERANGE if it does not fit.
 */
int seqring_parse_s64(const char *str, __s64 *val);
int seqring_parse_u64(const char *str, __u64 *val);
int seqring_parse_u32(const char *str, __u32 *val);

/* Copy @len bytes of @label, NUL-padded; -ENAMETOOLONG if it does not fit. */
int seqring_set_label(struct seqring_reading *reading, const char *label,
		      size_t len);

int seqring_push(int fd, const struct seqring_reading *reading);

/*
 * Push @count readings with SEQRING_IOC_PUSH_BATCH, in chunks of at most
 * SEQRING_BATCH_MAX. Each chunk is stored whole or not at all; on failure
 * *@pushed (if not NULL) tells how many readings went in before it.
 */
int seqring_push_batch(int fd, const struct seqring_reading *readings,
		       size_t count, size_t *pushed);

/*
 * True if the @len bytes at @s are well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF).
 */
bool seqring_utf8_valid(const char *s, size_t len);

int seqring_get_stats(int fd, struct seqring_stats *stats);
int seqring_clear(int fd);
int seqring_set_capacity(int fd, __u32 capacity);
int seqring_set_wakeup(int fd, __u32 readings);

#endif /* _SEQRING_UTILS_H_ */
