// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-time - the times a user types (--since, --until) and reads
 * (-o short, short-precise, short-iso, verbose, -T), in the forms
 * journalctl(1) and dmesg(1) take and print (systemd.time(7)), in local
 * time, or in UTC after format_time_utc() (--utc).
 */

/* strptime(), timegm() */
#define _GNU_SOURCE

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>

#include "seqringctl.h"

#define NSEC_PER_SEC	1000000000ULL

/* --utc: the times printed are UTC's, not the local zone's. */
static bool print_utc;

void format_time_utc(bool utc)
{
	print_utc = utc;
}

/* gmtime_r() names the zone GMT; journalctl --utc writes UTC. */
static struct tm *time_fields(time_t sec, struct tm *tm)
{
	if (!print_utc)
		return localtime_r(&sec, tm);
	if (!gmtime_r(&sec, tm))
		return NULL;
	tm->tm_zone = "UTC";
	return tm;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Local midnight, @days from today's. */
static __u64 midnight_ns(int days)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	return (__u64)mktime(&tm) * NSEC_PER_SEC;
}

/* systemd.time(7)'s time spans; months and years as it counts them. */
static const struct {
	const char *name;
	__u64 ns;
} units[] = {
	{ "usec", 1000 }, { "us", 1000 },
	{ "msec", 1000000 }, { "ms", 1000000 },
	{ "seconds", NSEC_PER_SEC }, { "second", NSEC_PER_SEC },
	{ "sec", NSEC_PER_SEC }, { "s", NSEC_PER_SEC },
	{ "minutes", 60 * NSEC_PER_SEC }, { "minute", 60 * NSEC_PER_SEC },
	{ "min", 60 * NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
	{ "hours", 3600 * NSEC_PER_SEC }, { "hour", 3600 * NSEC_PER_SEC },
	{ "hr", 3600 * NSEC_PER_SEC }, { "h", 3600 * NSEC_PER_SEC },
	{ "days", 86400 * NSEC_PER_SEC }, { "day", 86400 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC },
	{ "weeks", 604800 * NSEC_PER_SEC }, { "week", 604800 * NSEC_PER_SEC },
	{ "w", 604800 * NSEC_PER_SEC },
	{ "months", 2629800 * NSEC_PER_SEC },
	{ "month", 2629800 * NSEC_PER_SEC }, { "M", 2629800 * NSEC_PER_SEC },
	{ "years", 31557600 * NSEC_PER_SEC }, { "year", 31557600 * NSEC_PER_SEC },
	{ "y", 31557600 * NSEC_PER_SEC },
};

/* "5min", "1h 30min", "2 days": the sum, or -EINVAL. */
static int parse_span(const char *s, __u64 *span)
{
	unsigned long long n;
	size_t i, len;
	char *end;

	*span = 0;
	while (*s == ' ')
		s++;
	if (!*s)
		return -EINVAL;
	while (*s) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		n = strtoull(s, &end, 10);
		s = end;
		while (*s == ' ')
			s++;
		len = strcspn(s, " 0123456789");
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (strlen(units[i].name) == len &&
			    !strncmp(s, units[i].name, len))
				break;
		/* A number alone is seconds, as systemd reads it. */
		if (!len)
			*span += n * NSEC_PER_SEC;
		else if (i < ARRAY_SIZE(units))
			*span += n * units[i].ns;
		else
			return -EINVAL;
		s += len;
		while (*s == ' ')
			s++;
	}
	return 0;
}

/*
 * strptime() with @fmt over the whole of @s. What @fmt does not set stays
 * as it was: the date today's, the time midnight.
 */
static bool parse_with(const char *s, const char *fmt, __u64 *ns)
{
	time_t now = time(NULL);
	struct tm tm;
	const char *end;

	localtime_r(&now, &tm);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	end = strptime(s, fmt, &tm);
	if (!end || *end)
		return false;
	tm.tm_isdst = -1;
	*ns = (__u64)mktime(&tm) * NSEC_PER_SEC;
	return true;
}

int parse_time(const char *s, __u64 *ns)
{
	static const char * const forms[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d", "%H:%M:%S", "%H:%M",
	};
	const char *ago;
	char *end;
	__u64 span;
	double sec;
	size_t i;

	if (!strcmp(s, "now")) {
		*ns = now_ns();
		return 0;
	}
	if (!strcmp(s, "today") || !strcmp(s, "yesterday") ||
	    !strcmp(s, "tomorrow")) {
		*ns = midnight_ns(s[0] == 't' ? (s[2] == 'd' ? 0 : 1) : -1);
		return 0;
	}
	if (s[0] == '@') {
		errno = 0;
		sec = strtod(s + 1, &end);
		if (s[1] < '0' || s[1] > '9' || *end || errno || sec > 1.8e10)
			return -EINVAL;
		*ns = (__u64)(sec * NSEC_PER_SEC);
		return 0;
	}
	if (s[0] == '-' || s[0] == '+') {
		if (parse_span(s + 1, &span))
			return -EINVAL;
		*ns = s[0] == '-' ? now_ns() - span : now_ns() + span;
		return 0;
	}
	ago = strstr(s, " ago");
	if (ago && !ago[4]) {
		char buf[64];

		if ((size_t)(ago - s) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s, ago - s);
		buf[ago - s] = '\0';
		if (parse_span(buf, &span))
			return -EINVAL;
		*ns = now_ns() - span;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(forms); i++)
		if (parse_with(s, forms[i], ns))
			return 0;
	return -EINVAL;
}

/* Local time of @ns in strftime()'s @fmt, then ".fraction" of @digits. */
static void format_local(char *buf, size_t size, __u64 ns, const char *fmt,
			 int digits)
{
	time_t sec = ns / NSEC_PER_SEC;
	unsigned long long frac = ns % NSEC_PER_SEC;
	struct tm tm;
	size_t n;
	int i;

	if (!time_fields(sec, &tm)) {
		snprintf(buf, size, "-");
		return;
	}
	n = strftime(buf, size, fmt, &tm);
	if (!digits)
		return;
	for (i = digits; i < 9; i++)
		frac /= 10;
	snprintf(buf + n, size - n, ".%0*llu", digits, frac);
}

/* ISO 8601 writes the offset +hh:mm; strftime's %z gives +hhmm. */
static void append_offset(char *buf, size_t size, __u64 ns)
{
	time_t sec = ns / NSEC_PER_SEC;
	char zone[8] = "+0000";
	size_t n = strlen(buf);
	struct tm tm;

	if (time_fields(sec, &tm))
		strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf + n, size - n, "%.3s:%.2s", zone, zone + 3);
}

/*
 * Each style: strftime()'s format, the digits of a second's fraction, and
 * what follows them: ISO 8601's offset (+01:00), or a format of its own.
 */
static const struct {
	const char *fmt;
	int digits;
	bool offset;
	const char *after;
} styles[] = {
	[TIME_ISO_NS] = { "%Y-%m-%dT%H:%M:%S", 9, true, NULL },
	[TIME_ISO] = { "%Y-%m-%dT%H:%M:%S", 0, true, NULL },
	[TIME_SYSLOG] = { "%b %d %H:%M:%S", 0, false, NULL },
	[TIME_SYSLOG_US] = { "%b %d %H:%M:%S", 6, false, NULL },
	[TIME_CTIME] = { "[%a %b %e %H:%M:%S %Y]", 0, false, NULL },
	[TIME_VERBOSE] = { "%a %Y-%m-%d %H:%M:%S", 6, false, " %Z" },
};

void format_time(char *buf, size_t size, __u64 ns, enum time_style style)
{
	size_t n;

	format_local(buf, size, ns, styles[style].fmt, styles[style].digits);
	if (styles[style].offset)
		append_offset(buf, size, ns);
	if (styles[style].after) {
		n = strlen(buf);
		format_local(buf + n, size - n, ns, styles[style].after, 0);
	}
}
