/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - a test program's options from a table: each letter, and where
 * its value goes, so that one getopt() loop serves them all
 *
 *	bool rdonly = false;
 *	unsigned long k = 0;
 *	const struct opt opts[] = {
 *		{ 'r', OPT_SET, &rdonly },
 *		{ 'n', OPT_UL, &k },
 *	};
 *	int first = opts_parse(argc, argv, opts, OPTS_NR(opts),
 *			       "hold_open [-r] [-n K] [PATH]");
 *
 * Numbers are C's (base 0: 10, 0x10), whole and within their type (a
 * negative number for an unsigned one is refused). An unknown option, a
 * missing argument or a number that is not one prints "usage: USAGE" and
 * exits with status 2. What an option does beyond storing its value (a
 * label copied into a reading, a list split) the program does with the
 * value after opts_parse().
 */
#ifndef _SEQRING_TEST_OPTS_H
#define _SEQRING_TEST_OPTS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum opt_kind {
	OPT_SET,	/* bool, true; no argument */
	OPT_STR,	/* const char *, the argument */
	OPT_INT,	/* int */
	OPT_LONG,	/* long */
	OPT_LL,		/* long long */
	OPT_UL,		/* unsigned long */
	OPT_ULL,	/* unsigned long long (__u64) */
	OPT_U32,	/* __u32 */
	OPT_DOUBLE,	/* double */
};

struct opt {
	char c;
	enum opt_kind kind;
	void *dst;
};

#define OPTS_NR(opts) (sizeof(opts) / sizeof((opts)[0]))

static inline void opts_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(2);
}

/* Store @arg where @o says; false if it is not a number of its kind. */
static inline bool opts_store(const struct opt *o, const char *arg)
{
	unsigned long long u = 0;
	long long v = 0;
	char *end;

	if (o->kind == OPT_SET || o->kind == OPT_STR) {
		if (o->kind == OPT_SET)
			*(bool *)o->dst = true;
		else
			*(const char **)o->dst = arg;
		return true;
	}
	errno = 0;
	if (o->kind == OPT_DOUBLE)
		*(double *)o->dst = strtod(arg, &end);
	else if (o->kind <= OPT_LL)
		v = strtoll(arg, &end, 0);
	else
		u = strtoull(arg, &end, 0);
	if (end == arg || *end || errno ||
	    (o->kind > OPT_LL && o->kind != OPT_DOUBLE && *arg == '-'))
		return false;
	switch (o->kind) {
	case OPT_INT:
		*(int *)o->dst = v;
		return v >= INT32_MIN && v <= INT32_MAX;
	case OPT_LONG:
		*(long *)o->dst = v;
		return true;
	case OPT_LL:
		*(long long *)o->dst = v;
		return true;
	case OPT_UL:
		*(unsigned long *)o->dst = u;
		return true;
	case OPT_ULL:
		*(unsigned long long *)o->dst = u;
		return true;
	case OPT_U32:
		*(uint32_t *)o->dst = u;
		return u <= UINT32_MAX;
	default:
		return true;
	}
}

/* Parse the options of @argv by @opts; returns the index of the first operand. */
static inline int opts_parse(int argc, char **argv, const struct opt *opts,
			     size_t n, const char *usage)
{
	char optstring[2 + 2 * 32 + 1] = ":";
	size_t i, len = 1;
	int c;

	for (i = 0; i < n && len + 3 < sizeof(optstring); i++) {
		optstring[len++] = opts[i].c;
		if (opts[i].kind != OPT_SET)
			optstring[len++] = ':';
	}
	optstring[len] = '\0';
	while ((c = getopt(argc, argv, optstring)) != -1) {
		for (i = 0; i < n && opts[i].c != c; i++)
			;
		if (i == n || !opts_store(&opts[i], optarg))
			opts_usage(usage);
	}
	return optind;
}

#endif /* _SEQRING_TEST_OPTS_H */
