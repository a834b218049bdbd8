// SPDX-License-Identifier: GPL-2.0
/*
 * seqringctl-text - labels as people write them, for the outputs people
 * read (-o short, cat, verbose, top, the journal's MESSAGE), and their
 * width on a terminal
 *
 * A label is any 15 bytes. The listing escapes every byte outside
 * printable ASCII, so that a line of it stays five fields whatever the
 * label (srl_escape_label()). Text for people is written as journalctl
 * writes a field: valid UTF-8 as it is ("café", "日本"), and only what
 * could garble a terminal or hide bytes escaped, in the listing's \ooo:
 * bytes that are not valid UTF-8, control characters (C0, DEL, and the
 * C1 controls U+0080 to U+009F, which some terminals obey), and the
 * backslash, so that an escape is never ambiguous. "-" stands for no label
 * and \055 for a label that is "-", as in the listing.
 *
 * Widths are in terminal cells, as wcwidth(3) counts them in a UTF-8
 * locale ("日" takes two, a combining accent none): the tool's text is
 * UTF-8 whatever the user's locale, so text_init() takes C.UTF-8 where
 * the user's locale is not UTF-8. Without any UTF-8 locale installed,
 * every character counts one cell.
 */

/* wcwidth() */
#define _XOPEN_SOURCE 700

#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <linux/seqring.h>

#include "lib/libseqring.h"
#include "seqringctl.h"

static bool utf8_locale;

void text_init(void)
{
	if (setlocale(LC_CTYPE, "") && !strcmp(nl_langinfo(CODESET), "UTF-8")) {
		utf8_locale = true;
		return;
	}
	utf8_locale = setlocale(LC_CTYPE, "C.UTF-8") &&
		      !strcmp(nl_langinfo(CODESET), "UTF-8");
}

/*
 * The length of the UTF-8 sequence at @p (at most @left bytes) and its
 * code point, or 0 if it is not valid UTF-8 (srl_utf8_valid()'s rules).
 */
static size_t utf8_next(const unsigned char *p, size_t left, unsigned int *cp)
{
	size_t n;

	if (*p < 0x80) {
		*cp = *p;
		return 1;
	}
	n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
	if (n > left || !srl_utf8_valid((const char *)p, n))
		return 0;
	*cp = n == 2 ? *p & 0x1f : n == 3 ? *p & 0x0f : *p & 0x07;
	for (size_t i = 1; i < n; i++)
		*cp = (*cp << 6) | (p[i] & 0x3f);
	return n;
}

static bool is_control(unsigned int cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

void label_text(char *buf, const char *label)
{
	const unsigned char *p = (const unsigned char *)label;
	size_t len = strnlen(label, SEQRING_LABEL_LEN);
	size_t i, n, k;
	unsigned int cp;
	char *o = buf;

	if (!len || (len == 1 && p[0] == '-')) {
		srl_escape_label(buf, label);
		return;
	}
	for (i = 0; i < len; i += n) {
		n = utf8_next(p + i, len - i, &cp);
		if (n && !is_control(cp) && cp != '\\') {
			memcpy(o, p + i, n);
			o += n;
			continue;
		}
		/* Not UTF-8: this byte alone; a control: all of its bytes. */
		if (!n)
			n = 1;
		for (k = 0; k < n; k++)
			o += sprintf(o, "\\%03o", p[i + k]);
	}
	*o = '\0';
}

bool text_printable(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t i, n;

	for (i = 0; i < len; i += n) {
		n = utf8_next(p + i, len - i, &cp);
		if (!n || is_control(cp))
			return false;
	}
	return true;
}

size_t text_cells(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), cells = 0, n;
	unsigned int cp;
	int w;

	while (left) {
		n = utf8_next(p, left, &cp);
		if (!n) {
			n = 1;
			w = 1;
		} else {
			w = utf8_locale ? wcwidth((wchar_t)cp) : 1;
			if (w < 0)
				w = 1;
		}
		cells += w;
		p += n;
		left -= n;
	}
	return cells;
}

size_t text_cut(const char *s, size_t cells)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), used = 0, n, w;
	unsigned int cp;
	char one[5];

	while (left) {
		n = utf8_next(p, left, &cp);
		if (!n)
			n = 1;
		memcpy(one, p, n);
		one[n] = '\0';
		w = text_cells(one);
		if (used + w > cells)
			break;
		used += w;
		p += n;
		left -= n;
	}
	return p - (const unsigned char *)s;
}

void text_pad(char *buf, size_t size, const char *s, size_t cells)
{
	size_t have = text_cells(s);

	snprintf(buf, size, "%s%*s", s, have < cells ? (int)(cells - have) : 0,
		 "");
}

const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}
