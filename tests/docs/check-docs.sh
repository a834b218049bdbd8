#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-docs.sh - the man pages against the code (host side, no VM; run by
# `make lint`). TAP; exit status 0 iff every check passed.
#
#   - every man page of the tree is clean for `mandoc -Tlint` (style
#     warnings included: none is allowed, so none needs a reason);
#   - every option of seqringctl's getopt_long tables (long and short form)
#     and every command of its command table appears in seqringctl(1);
#   - every man page as man(1) and mandoc(1) render it: its SYNOPSIS has
#     no quote but those the source writes \(dq, and brackets that pair
#     up; in seqringctl(1), each command's SYNOPSIS and the heading of its
#     entry under COMMANDS are its usage (COMMAND --help), word for word;
#   - per command, its options subsections (.SS naming it) describe
#     exactly the options it takes (COMMAND --list-options);
#   - --help and every COMMAND --help are laid out as they should be: no
#     line wider than 79 columns, under Commands: only the commands'
#     first lines at two blanks, everything else further in;
#   - every ioctl of the UAPI header appears in seqring(4);
#   - every errno the driver's file operations (the device, the listing,
#     sysfs) return appears in the ERRORS section of seqring(4);
#   - every file the driver creates (device, proc, debugfs, sysfs) is in
#     the FILES section of seqring(4);
#   - every function of the kernel API (include/linux/seqring.h) and every
#     parameter of the sample (samples/*.c) is in seqring(4) and README;
#   - the one-line summaries (NAME, --help, the package description) name
#     the commands watch and capacity.
# Lists are taken from the sources, so a new option, ioctl, errno or file
# fails this until its man page says what it is.

cd "$(dirname "$0")/../.." || exit 1
SEQRING_TESTS=${SEQRING_TESTS:-$PWD/tests}
. "$SEQRING_TESTS/lib.sh"

ctl_c=tools/seqringctl-main.c
ctl_srcs=$(ls tools/seqringctl*.c)
ctl_man=tools/seqringctl.1
dev_man=doc/seqring.4
uapi=include/uapi/linux/seqring.h

plan 15

# --- every man page: mandoc -Tlint ---------------------------------------------------

man_pages=$(git ls-files '*.[1-8]' 2>/dev/null || ls tools/*.1 doc/*.4)
command -v mandoc >/dev/null || tests/vm/deps.sh mandoc >&2
lint=$(mandoc -Tlint $man_pages 2>&1)
is "" "$lint" "mandoc -Tlint reports nothing for $(echo $man_pages)"

# man_text FILE: the page as roff source with "\-" read as "-", so that
# "\-\-device" is found as "--device".
man_text() {
	sed 's/\\-/-/g' "$1"
}

# section FILE NAME: the roff source of section .SH NAME of FILE.
section() {
	man_text "$1" | awk -v s="$2" '
		/^\.SH / { on = ($0 == ".SH " s || $0 == ".SH \"" s "\"") ; next }
		on'
}

# missing WORD... < TEXT: the WORDs (fixed strings) not in TEXT.
missing() {
	local text w out=
	text=$(cat)
	for w in "$@"; do
		[[ $text == *"$w"* ]] || out="$out $w"
	done
	echo "${out# }"
}

# --- seqringctl(1) -----------------------------------------------------------------

# The option tables: lines like { "channel", required_argument, NULL, 'c' },
# between "struct option NAME[] = {" and "};".
opt_lines=$(awk '/^(static )?const struct option [a-z_]+\[\] = \{/ { on = 1; next }
	on && /^\};/ { on = 0 } on' $ctl_srcs)
longs=$(printf '%s\n' "$opt_lines" | sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*/--\1/p' | sort -u)
shorts=$(printf '%s\n' "$opt_lines" | sed -n "s/.*'\\([a-zA-Z0-9]\\)' },\$/-\\1/p" | sort -u)
commands=$(sed -n 's/^[[:space:]]*\.name = "\([a-z]*\)",$/\1/p' "$ctl_c")

is "" "$(man_text "$ctl_man" | missing $longs)" \
	"every long option of seqringctl's getopt_long tables is in seqringctl(1) ($(echo $longs | wc -w))"
is "" "$(man_text "$ctl_man" | missing $shorts)" \
	"every short option is in seqringctl(1) ($(echo $shorts | wc -w))"
cmds_missing=
for c in $commands; do
	section "$ctl_man" COMMANDS | grep -Eq "^(\.BR? $c( |\$)|\\\\fB$c\\\\fR)" ||
		cmds_missing="$cmds_missing $c"
done
is "" "${cmds_missing# }" \
	"every command has its entry under COMMANDS in seqringctl(1) ($(echo $commands | wc -w))"

# opt_words: the options (-x, --xyz) named in roff text on stdin, font
# escapes removed, sorted, on one line.
opt_words() {
	sed 's/\\f[BIRP]//g' | grep -oE -- '(^|[^a-zA-Z0-9=-])--?[a-zA-Z][a-zA-Z-]*' |
		grep -oE -- '--?[a-zA-Z][a-zA-Z-]*' | sort -u | words
}

# The tool as built from these sources is what is documented.
make -s -C tools >/dev/null || { echo "Bail out! cannot build tools/seqringctl"; exit 1; }
ctl=tools/seqringctl

# usage CMD: CMD's usage as its --help says it, on one line: the lines
# up to the first empty one, "Usage: " left out.
usage() {
	"$ctl" "$1" --help | sed '/^$/q' | sed 's/^Usage: //' | tr '\n' ' ' |
		sed 's/  */ /g; s/ $//'
}

# render PROGRAM FILE: the page as PROGRAM (man or mandoc) renders it for
# a terminal, plain text, so wide that no line is broken or hyphenated.
render() {
	case $1 in
	man) MANWIDTH=1000 man -l "$2" 2>/dev/null ;;
	mandoc) mandoc -Tascii -O width=1000 "$2" ;;
	esac | col -bx
}

# rendered_section TEXT NAME: section NAME of rendered TEXT, its lines
# without their indentation.
rendered_section() {
	printf '%s\n' "$1" | awk -v s="$2" '
		/^[A-Z]/ { on = ($0 == s); next }
		on { sub(/^ +/, ""); print }'
}

command -v man >/dev/null && command -v col >/dev/null ||
	tests/vm/deps.sh man-db bsdextrautils >&2
syn_diff='' cmds_diff='' quote_diff=''
for r in man mandoc; do
	for page in $man_pages; do
		text=$(render $r "$page")
		syn=$(rendered_section "$text" SYNOPSIS)
		want=$(section "$page" SYNOPSIS | grep -o '\\(dq' | wc -l)
		got=$(printf '%s' "$syn" | tr -cd '"' | wc -c)
		[ "$got" = "$want" ] || quote_diff="$quote_diff
$r $page: $got quotes in SYNOPSIS, the source writes $want: $(printf '%s\n' "$syn" | grep '"' | head -n 3)"
		unpaired=$(printf '%s\n' "$syn" | awk '{
			d = 0
			for (i = 1; i <= length($0); i++) {
				c = substr($0, i, 1)
				if (c == "[") d++
				if (c == "]" && --d < 0) break
			}
			if (d) print }')
		[ -z "$unpaired" ] || quote_diff="$quote_diff
$r $page: brackets that do not pair up in SYNOPSIS: $unpaired"
	done
	text=$(render $r "$ctl_man")
	syn=$(rendered_section "$text" SYNOPSIS | sed 's/  */ /g')
	# A tag narrower than the indent has the text on its line, after
	# two blanks or more.
	cmds=$(rendered_section "$text" COMMANDS | sed 's/   *.*//')
	for c in $commands; do
		u=$(usage "$c")
		# "seqringctl [-d DEVICE] dump|watch ..." is both commands'.
		s=$(printf '%s\n' "$syn" | sed -E "s/^(seqringctl (\\[-d DEVICE\\] )?)([a-z]+\\|)*$c(\\|[a-z]+)*( |\$)/\\1$c\\5/" |
			grep -E "^seqringctl (\\[-d DEVICE\\] )?$c( |\$)")
		[ "$s" = "$u" ] || syn_diff="$syn_diff
$r: usage '$u'
$r: SYNOPSIS '$s'"
		t=$(printf '%s\n' "$cmds" | grep -E "^$c( |\$)" | head -n 1)
		[ "seqringctl ${t:+[-d DEVICE] }$t" = "$u" ] ||
			[ "seqringctl $t" = "$u" ] || cmds_diff="$cmds_diff
$r: usage '$u'
$r: COMMANDS '$t'"
	done
done
is "" "${quote_diff#?}" \
	"every man page's SYNOPSIS, as man and mandoc render it: no stray quote, brackets paired"
is "" "${syn_diff#?}" \
	"seqringctl(1) as man and mandoc render it: each command's SYNOPSIS is its usage, word for word"
is "" "${cmds_diff#?}" \
	"... and the heading of its entry under COMMANDS too"

opts_diff=''
for c in $commands; do
	# OPTIONS: the tags (.TP, .TQ) of the subsections whose title names it.
	takes=$("$ctl" "$c" --list-options | sed 's/=$//' | grep -vx -- '-h\|--help' | words)
	doc=$(section "$ctl_man" OPTIONS | awk -v c="$c" '
		/^\.SS / { on = (" " $0 " ") ~ (" " c " "); next }
		on && (prev == ".TP" || prev == ".TQ") { print }
		{ prev = $0 }' | sed 's/^\.[A-Z]* //' | opt_words)
	[ "$doc" = "$(printf '%s\n' $takes | sort -u | words)" ] || opts_diff="$opts_diff
$c: takes '$takes', documented '$doc'"
done
is "" "${opts_diff#?}" "every command's options subsection documents exactly the options it takes"

# --help's layout: a second line of a summary or of a synopsis at the
# left margin, or a line too wide for a terminal, is what a user sees.
layout=$( {
	"$ctl" --help | awk '
		length($0) > 79 { print "--help: " length($0) " columns: " $0 }
		/^Commands:/ { on = 1; next }
		on && /^$/ { blank = 1; next }
		on && /^Exit status/ { on = 0 }
		on && /^  [^ ]/ { if (!blank && n) print "--help: no empty line before: " $0; n++; blank = 0; next }
		on && !/^      / { print "--help: not indented under its command: " $0 }'
	for c in $commands; do
		"$ctl" "$c" --help | awk -v c="$c" '
			length($0) > 79 { print c " --help: " length($0) " columns: " $0 }
			NR == 1 && !/^Usage: / { print c " --help: first line not Usage: " $0 }
			NR > 1 && !done && /^$/ { done = 1 }
			NR > 1 && !done && !/^          / { print c " --help: usage continued at the margin: " $0 }
			/^Options:$/ { opts = 1; next }
			opts && !/^  / { print c " --help: option line not indented: " $0 }'
		# A usage error: the message, then the usage as --help has it.
		"$ctl" "$c" --no-such-option 2>&1 | awk -v c="$c" '
			NR > 1 && length($0) > 79 { print c " usage error: " length($0) " columns: " $0 }'
	done
} )
is "" "$layout" "--help, every COMMAND --help and usage error: lines of at most 79 columns, each indented as it belongs"

# --- seqring(4) --------------------------------------------------------------------

ioctls=$(sed -n 's/^#define \(SEQRING_IOC_[A-Z_]*\)[[:space:]]*_IO.*/\1/p' "$uapi")
is "" "$(man_text "$dev_man" | missing $ioctls)" \
	"every ioctl of the UAPI header is in seqring(4) ($(echo $ioctls | wc -w))"

# The file operations: the device (chardev.c, and the ring functions it
# calls), the listing of /proc and debugfs, the sysfs attributes. Module
# init (main.c) returns its errors to insmod, not to a file's user.
# Beyond what the sources spell out: write(2) on the device is EINVAL and
# pread(2) ESPIPE (the VFS's answers for what the driver leaves out).
errnos=$( (grep -ohE -- '-E[A-Z0-9]+' driver/chardev.c driver/ring.c \
	driver/listing.c driver/procfs.c driver/debugfs.c driver/sysfs.c |
	sed 's/^-//'; echo EINVAL; echo ESPIPE) | sort -u)
is "" "$(section "$dev_man" ERRORS | grep -E '^\.B ' | missing $errnos)" \
	"every errno of the driver's file operations is under ERRORS in seqring(4) ($(echo $errnos | wc -w))"

# The files: /dev/NAME and /proc/NAME (misc.name, proc_create_data: both
# SEQRING_NAME), debugfs_create_file() names in /sys/kernel/debug/NAME/,
# sysfs attributes (DEVICE_ATTR_*) in /sys/class/misc/NAME/, and the module
# parameters in /sys/module/seqring/parameters/.
name=$(sed -n 's/^#define SEQRING_NAME[[:space:]]*"\([a-z]*\)".*/\1/p' driver/seqring.h)
files="/dev/$name /proc/$name"
for f in $(sed -n 's/.*debugfs_create_file("\([a-z_]*\)".*/\1/p' driver/debugfs.c); do
	files="$files /sys/kernel/debug/$name/$f"
done
attrs=$(sed -n 's/^static DEVICE_ATTR_R[OW]*(\([a-z_]*\));/\1/p' driver/sysfs.c)
params=$(sed -n 's/^module_param\(_cb\)\{0,1\}(\([a-z_]*\),.*/\2/p' driver/*.c)
for p in $params; do
	files="$files /sys/module/$name/parameters/$p"
done
fsec=$(section "$dev_man" FILES)
is "" "$(printf '%s\n' "$fsec" | grep -E '^\.I' | missing $files)" \
	"every file the driver creates in /dev, /proc, debugfs and module parameters is under FILES in seqring(4) ($(echo $files | wc -w))"
# Attributes may be listed as /sys/class/misc/NAME/ATTR or after such a path.
sysfs_missing=
for a in $attrs; do
	printf '%s\n' "$fsec" | grep -A1 -E '^\.I.*/sys/class/misc/' |
		grep -qE "(/|\"| )$a( |\"|\$)" || sysfs_missing="$sysfs_missing $a"
done
is "" "${sysfs_missing# }" \
	"every sysfs attribute of the device is under FILES in seqring(4) ($(echo $attrs | wc -w))"

# The kernel API and the sample's parameters, in the man page and README.
kapi=$(sed -n 's/^[a-z].*[ *]\(seqring_[a-z_]*\)(.*/\1/p' include/linux/seqring.h)
sparams=$(sed -n 's/^module_param\(_cb\)\{0,1\}(\([a-z_]*\),.*/\2/p' samples/*.c)
is "" "$( (man_text "$dev_man" | missing $kapi $sparams; missing $kapi $sparams <README.md) |
	grep . | words)" \
	"every function of <linux/seqring.h> and parameter of the sample is in seqring(4) and README ($(echo $kapi $sparams | wc -w))"

# --- one-line summaries ---------------------------------------------------------------

name_line=$(section "$ctl_man" NAME)
help_line=$(sed -n '/^static void print_usage/,/^}/p' "$ctl_c" | grep -A2 'Push readings')
pkg_desc=$(awk '/^Package: seqring-tools$/ { on = 1 } on && /^Description:/ { print; exit }' debian/control)
is "" "$(for s in "$name_line" "$help_line" "$pkg_desc"; do
	printf '%s\n' "$s" | missing watch capacity
done | grep . | words)" \
	"seqringctl(1)'s NAME, --help and seqring-tools' description name watch and capacity" ||
	diag "NAME: $name_line" "--help: $help_line" "package: $pkg_desc"

done_testing
