/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libseqring - a client of seqring's devices: open a ring, push readings,
 * read its counters, clear or resize it, read and follow its readings and
 * resume where an earlier run stopped (a cursor file), and read a ring's
 * readings from a mapping of it without a system call each.
 *
 * Every name starts with srl_ (SRL_ for macros), never with seqring_: those
 * are the kernel API's (<linux/seqring.h> in the module's sources) and the
 * ABI's (struct seqring_reading, SEQRING_IOC_*), which this library uses.
 *
 * Nothing here prints anything: each function returns 0 (or a count, a
 * file descriptor) on success and a negative errno value on failure, and
 * the caller says what went wrong, naming the device or the input line.
 * The functions keep no state of their own (but a struct srl_map's) and
 * may be called from any thread. Build with `pkg-config --cflags --libs seqring`.
 */
#ifndef _LIBSEQRING_H_
#define _LIBSEQRING_H_

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include <linux/seqring.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SRL_DEFAULT_DEVICE	"/dev/seqring"

/* Longest label in bytes, not counting the terminating NUL. */
#define SRL_LABEL_MAX		(SEQRING_LABEL_LEN - 1)

/* Longest ring name (seqring-NAME), as the kernel API allows. */
#define SRL_NAME_MAX		15

/* open(2) of @device with O_CLOEXEC added: a file descriptor or -errno. */
int srl_open(const char *device, int flags);

/*
 * The ring a driver named @name, /dev/seqring-NAME, or the default ring
 * /dev/seqring if @name is NULL or "". -EINVAL if @name is not 1 to 15 of
 * [a-z0-9_-].
 */
int srl_open_ring(const char *name, int flags);

/*
 * Decimal numbers only, optionally signed with '+' (and '-' for s64). The
 * whole string must be the number: no leading blanks, no trailing garbage,
 * not empty. -EINVAL if it is not a number, -ERANGE if it does not fit.
 */
int srl_parse_s64(const char *str, __s64 *val);
int srl_parse_u64(const char *str, __u64 *val);
int srl_parse_u32(const char *str, __u32 *val);

/* Copy @len bytes of @label, NUL-padded; -ENAMETOOLONG if it does not fit. */
int srl_set_label(struct seqring_reading *reading, const char *label,
		  size_t len);

int srl_push(int fd, const struct seqring_reading *reading);

/*
 * Push @count readings with SEQRING_IOC_PUSH_BATCH, in chunks of at most
 * SEQRING_BATCH_MAX. Each chunk is stored whole or not at all; on failure
 * *@pushed (if not NULL) tells how many readings went in before it.
 */
int srl_push_batch(int fd, const struct seqring_reading *readings,
		   size_t count, size_t *pushed);

int srl_get_stats(int fd, struct seqring_stats *stats);
int srl_clear(int fd);
int srl_set_capacity(int fd, __u32 capacity);
int srl_set_wakeup(int fd, __u32 readings);

/*
 * Up to @count whole records from the file's cursor: how many, 0 at the
 * end of a ring that was destroyed, -EAGAIN if there are none yet (with
 * O_NONBLOCK), -EPIPE once after readings were overwritten before they
 * were read (the next call goes on from the oldest held), or another
 * negative errno value.
 *
 * -EPIPE is not an error to give up on: a consumer that fell behind reads
 * again, and the gap in sequence numbers says how many it missed, as
 * seqringctl watch says it:
 *
 *	struct seqring_record rec[64];
 *	__u64 next = 0;
 *	ssize_t i, n;
 *
 *	for (;;) {
 *		n = srl_read(fd, rec, 64);
 *		if (n == -EPIPE)
 *			continue;	// overwritten: on from the oldest held
 *		if (n == -EAGAIN && srl_wait(fd, -1) >= 0)
 *			continue;	// nothing yet (O_NONBLOCK): wait
 *		if (n <= 0)
 *			break;		// 0: the ring was destroyed
 *		if (next && rec[0].seq > next)
 *			fprintf(stderr, "%llu readings missed\n",
 *				(unsigned long long)(rec[0].seq - next));
 *		for (i = 0; i < n; i++)
 *			use(&rec[i].reading);
 *		next = rec[n - 1].seq + 1;
 *	}
 */
ssize_t srl_read(int fd, struct seqring_record *records, size_t count);

/*
 * Wait until srl_read() has something to return, at most @timeout_ms
 * milliseconds (-1: no limit): 1 if it has, 0 on timeout, or -errno
 * (-EINTR when a signal came).
 */
int srl_wait(int fd, int timeout_ms);

/*
 * A cursor file holds the sequence number of the last reading a consumer
 * read, one decimal line. srl_cursor_load(): 0 and *@seq, -ENOENT if
 * there is no such file yet, -EINVAL if it is not a cursor. srl_cursor_save()
 * replaces it whole (written to FILE.tmp, renamed over it), so that a
 * reader never finds half a number.
 */
int srl_cursor_load(const char *file, __u64 *seq);
int srl_cursor_save(const char *file, __u64 seq);

/*
 * True if the @len bytes at @s are well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF).
 */
bool srl_utf8_valid(const char *s, size_t len);

/*
 * The listing's escaping of a label (/proc/seqring): one word of printable
 * ASCII, \ooo for the rest and the backslash, "-" for the empty label.
 * @buf holds SRL_ESCAPED_LABEL_LEN bytes.
 */
#define SRL_ESCAPED_LABEL_LEN	(4 * SEQRING_LABEL_LEN)
void srl_escape_label(char *buf, const char *label);

/*
 * A mapping of a ring (mmap(2) of its device, seqring(4) "Mapping"): its
 * readings read where they lie, without a system call each. A struct
 * srl_map holds a cursor of its own, like an open file of the device, and
 * is used by one thread at a time; several may map one ring.
 *
 * srl_map_open() maps the ring open on @fd (open for reading; the mapping
 * does not own it, close it after srl_map_close()); srl_map_open_ring()
 * opens the ring @name as srl_open_ring() does (O_RDONLY | O_NONBLOCK)
 * and closes it with the mapping. The cursor starts at the oldest reading
 * held, as an open file's does. 0 and *@map, or: -ENODEV if the driver
 * cannot be mapped (older than the mapping: read() it instead),
 * -EPROTONOSUPPORT if the mapping's version (SEQRING_MMAP_VERSION) or
 * layout is not one this library knows, -EOPNOTSUPP on a 32-bit build
 * whose C library cannot load 64-bit words atomically without a lock,
 * -ENOMEM, or another negative errno value of mmap(2).
 */
struct srl_map;

int srl_map_open(int fd, struct srl_map **map);
int srl_map_open_ring(const char *name, struct srl_map **map);
void srl_map_close(struct srl_map *map);

/* The device's file descriptor, to poll() with others. */
int srl_map_fd(const struct srl_map *map);

/*
 * Up to @count records from the cursor, as srl_read() returns them: how
 * many, 0 at the end of a ring that was destroyed, -EAGAIN if there are
 * none yet, -EPIPE once after readings were overwritten (or cleared)
 * before they were read: the cursor moves to the oldest held and
 * srl_map_lost() counts those skipped. Never blocks.
 */
ssize_t srl_map_read(struct srl_map *map, struct seqring_record *records,
		     size_t count);

/* Readings this mapping skipped because they were gone, since it opened. */
__u64 srl_map_lost(const struct srl_map *map);

/* The sequence number of the next reading srl_map_read() returns. */
__u64 srl_map_cursor(const struct srl_map *map);

/*
 * Move the cursor to @seq, within [oldest held, next pushed]: 0 the
 * oldest, UINT64_MAX the next reading pushed (lseek()'s SEEK_END).
 */
void srl_map_seek(struct srl_map *map, __u64 seq);

/*
 * Tell the driver where the cursor is (SEQRING_IOC_SET_CURSOR), so that
 * poll() of srl_map_fd() and the wake-up threshold (srl_set_wakeup())
 * count from there: call it before each poll() of your own. 0 or -errno.
 */
int srl_map_sync_cursor(struct srl_map *map);

/*
 * srl_map_sync_cursor(), then wait at most @timeout_ms milliseconds (-1:
 * no limit) until srl_map_read() has something to return: 1 if it has
 * (or the ring was destroyed), 0 on timeout, or -errno (-EINTR when a
 * signal came).
 */
int srl_map_wait(struct srl_map *map, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* _LIBSEQRING_H_ */
