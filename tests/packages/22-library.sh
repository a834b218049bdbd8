#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 22-library.sh - libseqring as make install-tools installs it (host side,
# no device needed): a consumer builds and links with pkg-config's flags
# for the installed seqring.pc alone, and runs against the installed
# library; the library has its soname and exports exactly the functions
# of <libseqring.h>, each versioned by the symbol map, none with a name of
# the kernel API's (seqring_*).

. "$SEQRING_TESTS/lib.sh"

plan 9

d=$T/root
make -s install-tools DESTDIR="$d" PREFIX=/usr/local >/dev/null 2>"$T/make.err" ||
	bail_out_diag=$(cat "$T/make.err")
lib=$d/usr/local/lib
pc="env PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d pkg-config"

is "-I$d/usr/local/include -L$d/usr/local/lib -lseqring" \
	"$($pc --cflags --libs seqring | sed 's/ *$//')" \
	"pkg-config --cflags --libs seqring: the installed headers and library" ||
	diag "${bail_out_diag:-}"

# A consumer of the library's device-free parts; the system's headers
# only, so that nothing of the tree is found by accident.
cat >"$T/consumer.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libseqring.h>

int main(int argc, char **argv)
{
	char esc[SRL_ESCAPED_LABEL_LEN], cursor[4096];
	int parsed, bad_name, saved, loaded;
	__u64 seq = 0;
	__u32 ch = 0;

	snprintf(cursor, sizeof(cursor), "%s/cursor", argv[1]);
	parsed = srl_parse_u32("42", &ch);
	bad_name = srl_open_ring("Not A Name", 0) == -EINVAL;
	srl_escape_label(esc, "back door");
	saved = srl_cursor_save(cursor, 1234);
	loaded = srl_cursor_load(cursor, &seq);
	printf("%d %u %d %s %d %d %llu\n", parsed, ch, bad_name, esc, saved,
	       loaded, (unsigned long long)seq);
	return argc != 2;
}
C
# shellcheck disable=SC2046 # the flags are words
cc -Wall -Werror -nostdinc -isystem /usr/include \
	-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include \
	$($pc --cflags seqring) -o "$T/consumer" "$T/consumer.c" \
	$($pc --libs seqring) 2>"$T/cc.err"
is 0 $? "a consumer builds with pkg-config's flags alone" || diag "$(cat "$T/cc.err")"
is '0 42 1 back\040door 0 0 1234' "$(LD_LIBRARY_PATH=$lib "$T/consumer" "$T" 2>&1)" \
	"... and runs against the installed libseqring.so.1 (parse, escape, open_ring, cursor)"
# The example <libseqring.h> gives for srl_read() (-EPIPE: read again),
# as it stands, in a function of a program of its own.
{
	printf '%s\n' '#include <errno.h>' '#include <stdio.h>' '#include <libseqring.h>' \
		'static void use(const struct seqring_reading *r) { (void)r; }' \
		'int consume(int fd);' 'int consume(int fd)' '{'
	awk '/^ \*\tstruct seqring_record rec\[64\];$/ { on = 1 }
		on && /^ \*\/$/ { exit }
		on { sub(/^ \*\t?/, ""); print }' "$d/usr/local/include/libseqring.h"
	printf '%s\n' '	return 0;' '}'
} >"$T/example.c"
# shellcheck disable=SC2046 # the flags are words
cc -Wall -Wextra -Werror -c -nostdinc -isystem /usr/include \
	-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include \
	$($pc --cflags seqring) -o "$T/example.o" "$T/example.c" 2>"$T/cc.err"
is "0 yes" "$? $(grep -q 'srl_read(fd, rec, 64)' "$T/example.c" && echo yes)" \
	"the example of srl_read() in <libseqring.h> (-EPIPE: read again) compiles" ||
	diag "$(cat "$T/cc.err" "$T/example.c")"

# pkg-config --static, and the archive: a program without the shared
# library (a rescue system's, a container's from scratch).
# shellcheck disable=SC2046 # the flags are words
cc -static -Wall -Werror -nostdinc -isystem /usr/include \
	-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include \
	$($pc --static --cflags seqring) -o "$T/static" "$T/consumer.c" \
	$($pc --static --libs seqring) 2>"$T/cc.err"
is "0 no '0 42 1 back\040door 0 0 1234'" \
	"$? $(readelf -d "$T/static" 2>/dev/null | grep -q NEEDED && echo yes || echo no) '$("$T/static" "$T" 2>&1)'" \
	"cc -static with pkg-config --static: links the installed libseqring.a, needs no library" ||
	diag "$(cat "$T/cc.err")"
is "libseqring.so.1 libseqring.so.1" \
	"$(readelf -d "$lib/libseqring.so.1.1.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p') $(readelf -d "$T/consumer" |
		sed -n 's/.*(NEEDED).*\[\(libseqring[^]]*\)\]/\1/p')" \
	"soname libseqring.so.1, which the consumer needs"

# The functions <libseqring.h> declares, the version node libseqring.map
# gives each, and what the library exports.
declared=$(sed -n 's/^[a-z_].*[ *]\(srl_[a-z0-9_]*\)(.*/\1/p' tools/lib/libseqring.h | sort | words)
versioned=$(awk '/^[A-Z0-9_.]+ \{/ { node = $1 } /^\t\tsrl_/ { sub(";", "", $1); print $1 }' \
	tools/lib/libseqring.map | sort | words)
is "$declared" "$versioned" "libseqring.map gives every function of <libseqring.h> a version, and no other"
expected=$(awk '/^[A-Z0-9_.]+ \{/ { node = $1 } /^\t\tsrl_/ { sub(";", "", $1); print $1 "@@" node }' \
	tools/lib/libseqring.map | sort | words)
exported=$(nm -D --defined-only "$lib/libseqring.so.1" | awk '$2 == "T" { print $3 }' | sort | words)
is "$expected" "$exported" "it exports exactly those functions, each at its node of libseqring.map"
is "" "$(nm -D --defined-only "$lib/libseqring.so.1" | awk '{ print $3 }' | grep '^seqring_')" \
	"no exported name is one of the kernel API's (seqring_*)"

done_testing
