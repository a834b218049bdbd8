// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-journal - readings into the systemd journal, through its
 * native protocol (systemd.journal-fields(7), "Native Journal Protocol"
 * on systemd.io): one datagram a reading on /run/systemd/journal/socket,
 * one field a line, KEY=VALUE, or for a value that may hold a newline
 * KEY, a newline, the value's length as a little-endian 64-bit number,
 * the value and a newline.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

#define JOURNAL_SOCKET		"/run/systemd/journal/socket"

int journal_connect(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(sa.sun_path, JOURNAL_SOCKET);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

struct datagram {
	char buf[1024];
	size_t len;
};

/* KEY=VALUE\n; the values put here never hold a newline. */
static void add_text(struct datagram *d, const char *key, const char *fmt,
		     ...)
{
	va_list ap;

	d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len, "%s=",
			   key);
	va_start(ap, fmt);
	d->len += vsnprintf(d->buf + d->len, sizeof(d->buf) - d->len, fmt, ap);
	va_end(ap);
	d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len, "\n");
}

/* KEY\n, length (le64), the bytes, \n: a label may hold any byte. */
static void add_binary(struct datagram *d, const char *key, const char *val,
		       size_t len)
{
	uint64_t n = len;
	size_t i;

	d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len, "%s\n",
			   key);
	for (i = 0; i < sizeof(n); i++)
		d->buf[d->len++] = (n >> (8 * i)) & 0xff;
	memcpy(d->buf + d->len, val, len);
	d->len += len;
	d->buf[d->len++] = '\n';
}

void reading_message(char *buf, size_t size,
		     const struct seqring_reading *r)
{
	char label[SRL_ESCAPED_LABEL_LEN];

	srl_escape_label(label, r->label);
	snprintf(buf, size, "channel %u value %lld label %s", r->channel,
		 (long long)r->value, label);
}

int journal_send(int fd, const struct seqring_record *rec)
{
	const struct seqring_reading *r = &rec->reading;
	time_t sec = r->timestamp_ns / 1000000000;
	char message[JOURNAL_MESSAGE_LEN];
	char stamp[32] = "";
	struct datagram d = { .len = 0 };
	struct tm tm;

	/* The reading's own time, as syslog writes it (to the second). */
	if (localtime_r(&sec, &tm))
		strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", &tm);

	reading_message(message, sizeof(message), r);
	add_text(&d, "MESSAGE", "%s", message);
	add_text(&d, "PRIORITY", "6");
	add_text(&d, "SYSLOG_IDENTIFIER", "seqringctl");
	add_text(&d, "SYSLOG_TIMESTAMP", "%s", stamp);
	add_text(&d, "SEQRING_SEQ", "%llu", (unsigned long long)rec->seq);
	add_text(&d, "SEQRING_TIMESTAMP_NS", "%llu",
		 (unsigned long long)r->timestamp_ns);
	add_text(&d, "SEQRING_CHANNEL", "%u", r->channel);
	add_text(&d, "SEQRING_VALUE", "%lld", (long long)r->value);
	add_binary(&d, "SEQRING_LABEL", r->label,
		   strnlen(r->label, SEQRING_LABEL_LEN));

	while (send(fd, d.buf, d.len, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}
