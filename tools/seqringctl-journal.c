// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-journal - a reading as a journal entry: its fields, sent to
 * the systemd journal through its native protocol (systemd.journal-fields(7),
 * "Native Journal Protocol" on systemd.io), written in the journal's export
 * format (-o export, "Journal Export Formats" on systemd.io), or shown one
 * a line as journalctl -o verbose shows them.
 *
 * The native protocol and the export format write a field the same way:
 * KEY=VALUE and a newline where VALUE is printable UTF-8, else KEY, a
 * newline, VALUE's length as a little-endian 64-bit number, VALUE and a
 * newline. A datagram on /run/systemd/journal/socket is one entry; in the
 * export format an empty line ends each.
 */

#include <errno.h>
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

void reading_message(char *buf, size_t size,
		     const struct seqring_reading *r)
{
	char label[SRL_ESCAPED_LABEL_LEN];

	label_text(label, r->label);
	snprintf(buf, size, "channel %u value %lld label %s", r->channel,
		 (long long)r->value, label);
}

/* The fields of one entry, in the order they are written. */
#define ENTRY_FIELDS	9

struct field {
	const char *key;
	char val[JOURNAL_MESSAGE_LEN];
	size_t len;
};

static void field_set(struct field *f, const char *key, const char *fmt,
		      unsigned long long n)
{
	f->key = key;
	f->len = snprintf(f->val, sizeof(f->val), fmt, n);
}

/*
 * MESSAGE (reading_message()), PRIORITY 6, SYSLOG_IDENTIFIER, the
 * reading's own time as SYSLOG_TIMESTAMP (as syslog writes it, to the
 * second), SEQRING_SEQ, SEQRING_TIMESTAMP_NS, SEQRING_CHANNEL,
 * SEQRING_VALUE and SEQRING_LABEL (its bytes as they are).
 */
static void entry_fields(const struct seqring_record *rec, struct field *f)
{
	const struct seqring_reading *r = &rec->reading;
	time_t sec = r->timestamp_ns / 1000000000;
	struct tm tm;

	f[0].key = "MESSAGE";
	reading_message(f[0].val, sizeof(f[0].val), r);
	f[0].len = strlen(f[0].val);
	field_set(&f[1], "PRIORITY", "%llu", 6);
	f[2].key = "SYSLOG_IDENTIFIER";
	f[2].len = snprintf(f[2].val, sizeof(f[2].val), "seqringctl");
	f[3].key = "SYSLOG_TIMESTAMP";
	f[3].len = 0;
	if (localtime_r(&sec, &tm))
		f[3].len = strftime(f[3].val, sizeof(f[3].val),
				    "%b %e %H:%M:%S", &tm);
	field_set(&f[4], "SEQRING_SEQ", "%llu", rec->seq);
	field_set(&f[5], "SEQRING_TIMESTAMP_NS", "%llu", r->timestamp_ns);
	field_set(&f[6], "SEQRING_CHANNEL", "%llu", r->channel);
	f[7].key = "SEQRING_VALUE";
	f[7].len = snprintf(f[7].val, sizeof(f[7].val), "%lld",
			    (long long)r->value);
	f[8].key = "SEQRING_LABEL";
	f[8].len = strnlen(r->label, SEQRING_LABEL_LEN);
	memcpy(f[8].val, r->label, f[8].len);
}

/*
 * Printable UTF-8 is written KEY=VALUE; anything else (a control
 * character, C1 too, or bytes that are not UTF-8) in the binary form, as
 * journald decides for its own export.
 */
static bool field_is_text(const struct field *f)
{
	return text_printable(f->val, f->len);
}

struct datagram {
	char buf[1024];
	size_t len;
};

static void add_field(struct datagram *d, const struct field *f)
{
	uint64_t n = f->len;
	size_t i;

	if (field_is_text(f)) {
		d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len,
				   "%s=%.*s\n", f->key, (int)f->len, f->val);
		return;
	}
	d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len, "%s\n",
			   f->key);
	for (i = 0; i < sizeof(n); i++)
		d->buf[d->len++] = (n >> (8 * i)) & 0xff;
	memcpy(d->buf + d->len, f->val, f->len);
	d->len += f->len;
	d->buf[d->len++] = '\n';
}

static void entry_datagram(struct datagram *d, const struct seqring_record *rec)
{
	struct field f[ENTRY_FIELDS];
	size_t i;

	entry_fields(rec, f);
	for (i = 0; i < ENTRY_FIELDS; i++)
		add_field(d, &f[i]);
}

int journal_send(int fd, const struct seqring_record *rec)
{
	struct datagram d = { .len = 0 };

	entry_datagram(&d, rec);
	while (send(fd, d.buf, d.len, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/*
 * The entry in the export format, with the reading's time as the entry's
 * (__REALTIME_TIMESTAMP, microseconds), so that systemd-journal-remote
 * files it at that time.
 */
void journal_export(const struct seqring_record *rec)
{
	struct datagram d = { .len = 0 };

	d.len = snprintf(d.buf, sizeof(d.buf), "__REALTIME_TIMESTAMP=%llu\n",
			 (unsigned long long)rec->reading.timestamp_ns / 1000);
	entry_datagram(&d, rec);
	d.buf[d.len++] = '\n';
	fwrite(d.buf, 1, d.len, stdout);
}

/*
 * As journalctl -o verbose: the time to the microsecond and where the
 * entry is (for a reading, its ring and sequence number), then each field
 * on a line of its own, the label as people read it (label_text()).
 */
void journal_verbose(const struct seqring_record *rec, const char *ring)
{
	struct field f[ENTRY_FIELDS];
	char time[TIME_LEN];
	size_t i;

	format_time(time, sizeof(time), rec->reading.timestamp_ns,
		    TIME_VERBOSE);
	printf("%s [%s seq=%llu]\n", time, ring, (unsigned long long)rec->seq);
	entry_fields(rec, f);
	label_text(f[8].val, rec->reading.label);
	f[8].len = strlen(f[8].val);
	for (i = 0; i < ENTRY_FIELDS; i++)
		printf("    %s=%.*s\n", f[i].key, (int)f[i].len, f[i].val);
}
