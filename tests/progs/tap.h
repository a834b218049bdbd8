/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output and small helpers for the seqring test programs
 *
 * Modelled on the kernel's tools/testing/selftests/kselftest.h: a plan line,
 * one "ok N - desc" / "not ok N - desc" line per test, "# " diagnostics
 * that say what was expected and what was got, skips with a reason, and an
 * exit status of 0 only if every test passed or was skipped.
 */
#ifndef _SEQRING_TAP_H
#define _SEQRING_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int tap_planned, tap_run, tap_passed, tap_failed, tap_skipped;

/*
 * A test and the number of results it reports: one, or for a test run
 * from a table of cases, one (or two) a case.
 */
struct tap_test {
	void (*run)(void);
	unsigned int results;
};

#define TAP_TEST(fn)	{ (fn), 1 }

static inline void tap_plan(unsigned int n)
{
	tap_planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

/* Plan every result of the @n tests at @t. */
static inline void tap_plan_tests(const struct tap_test *t, size_t n)
{
	unsigned int results = 0;
	size_t i;

	for (i = 0; i < n; i++)
		results += t[i].results;
	tap_plan(results);
}

/* Print a diagnostic line: "# " followed by the formatted text. */
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void tap_vresult(bool pass, const char *fmt, va_list ap)
{
	tap_run++;
	if (pass)
		tap_passed++;
	else
		tap_failed++;
	printf("%s %u - ", pass ? "ok" : "not ok", tap_run);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

/* Report one test; returns @pass so callers can add diagnostics. */
static inline bool tap_result(bool pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, fmt, ap);
	va_end(ap);
	return pass;
}

static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	tap_skipped++;
	printf("ok %u - ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
	fflush(stdout);
}

/* Print totals and return the exit status: 0 if nothing failed. */
static inline int tap_finish(void)
{
	if (tap_run != tap_planned) {
		tap_diag("planned %u tests but ran %u", tap_planned, tap_run);
		tap_failed++;
	}
	tap_diag("Totals: pass:%u fail:%u skip:%u", tap_passed, tap_failed,
		 tap_skipped);
	return tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Give up: the remaining planned tests cannot run. */
static inline void tap_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(EXIT_FAILURE);
}

/* Symbolic name of an errno value, for messages that tests compare. */
static inline const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0:
		return "0";
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case EINTR:
		return "EINTR";
	case EIO:
		return "EIO";
	case ENXIO:
		return "ENXIO";
	case E2BIG:
		return "E2BIG";
	case EBADF:
		return "EBADF";
	case EAGAIN:
		return "EAGAIN";
	case ENOMEM:
		return "ENOMEM";
	case EACCES:
		return "EACCES";
	case EFAULT:
		return "EFAULT";
	case EBUSY:
		return "EBUSY";
	case ENODEV:
		return "ENODEV";
	case EINVAL:
		return "EINVAL";
	case ENOTTY:
		return "ENOTTY";
	case ENOSPC:
		return "ENOSPC";
	case ESPIPE:
		return "ESPIPE";
	case EPIPE:
		return "EPIPE";
	case EROFS:
		return "EROFS";
	case EOVERFLOW:
		return "EOVERFLOW";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EEXIST:
		return "EEXIST";
	case ERANGE:
		return "ERANGE";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EPROTO:
		return "EPROTO";
	case EPROTONOSUPPORT:
		return "EPROTONOSUPPORT";
	case ENOBUFS:
		return "ENOBUFS";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

#endif /* _SEQRING_TAP_H */
