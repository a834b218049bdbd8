#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 26-python.sh - the Python module seqring (python/) on the host, no device
# needed: every struct size, member offset and ioctl number it uses is the
# UAPI header's (a C program built against include/uapi prints them); it
# decodes records and keeps cursor files as seqringctl does; and the
# README's way to install it without the package, on bookworm (a virtual
# environment) works.

. "$SEQRING_TESTS/lib.sh"

plan 6

# Debian's python3 where there is one: a PATH may put another first
# (pyenv's, a virtualenv's) without setuptools and wheel.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

py() {
	PYTHONPATH=$REPO/python "$PY" -c "$1"
}

# The layouts as the module has them: "STRUCT SIZE" and "STRUCT.MEMBER
# OFFSET" lines, then "IOCTL NUMBER" lines; the C program prints the same
# names from the header, so any difference is a line that differs.
py '
import seqring
for s, (size, members) in sorted(seqring.LAYOUTS.items()):
    print(s, size)
    for m, off in sorted(members.items()):
        print(f"{s}.{m}", off)
for name, nr in sorted(seqring.IOCTLS.items()):
    print(name, nr)
' >"$T/py.txt"
{
	echo '#include <stddef.h>'
	echo '#include <stdio.h>'
	echo '#include <linux/seqring.h>'
	echo 'int main(void) {'
	awk '$1 !~ /^SEQRING_IOC/ && $1 !~ /\./ { printf "\tprintf(\"%s %%zu\\n\", sizeof(struct %s));\n", $1, $1 }
	     $1 ~ /\./ { split($1, a, "."); printf "\tprintf(\"%s %%zu\\n\", offsetof(struct %s, %s));\n", $1, a[1], a[2] }
	     $1 ~ /^SEQRING_IOC/ { printf "\tprintf(\"%s %%lu\\n\", (unsigned long)%s);\n", $1, $1 }' "$T/py.txt"
	echo '	return 0;'
	echo '}'
} >"$T/layout.c"
cc -Wall -Werror -I"$REPO/include/uapi" -o "$T/layout" "$T/layout.c" 2>"$T/cc.err" ||
	diag "$(cat "$T/cc.err")"
is "$(cat "$T/py.txt")" "$("$T/layout")" \
	"every size, offset and ioctl number of the module is the UAPI header's ($(wc -l <"$T/py.txt"))"
# Every struct and ioctl of the header is in the module.
is "$(sed -n 's/^struct \(seqring_[a-z]*\) {$/\1/p' "$REPO/include/uapi/linux/seqring.h" | sort | words) \
$(sed -n 's/^#define \(SEQRING_IOC_[A-Z_]*\)[[:space:]]*_IO.*/\1/p' "$REPO/include/uapi/linux/seqring.h" | sort | words)" \
	"$(py 'import seqring; print(*sorted(seqring.LAYOUTS)); print(*sorted(seqring.IOCTLS))' | words)" \
	"the module knows every struct and every ioctl of the header"

# Records as read(2) returns them: packed by C's layout, decoded by the module.
py '
import struct, seqring
rec = struct.pack("=QQqII16s", 7, 1000000000123456789, -5, 3, 0, b"kitchen")
print(*seqring.unpack_records(rec + rec[:10]))
' >"$T/rec.txt" 2>&1
is "Record(seq=7, timestamp_ns=1000000000123456789, value=-5, channel=3, label='kitchen')" \
	"$(cat "$T/rec.txt")" "a record decodes to seq, time, value, channel, label as text (a partial one is left)"

py "
import seqring
seqring.save_cursor('$T/cursor', 42)
print(seqring.load_cursor('$T/cursor'), seqring.load_cursor('$T/none'), open('$T/cursor').read().strip())
try:
    seqring.Ring.push.__globals__['_label']('sixteen bytes!!!')
except ValueError as e:
    print('ValueError')
" >"$T/cur.txt" 2>&1
is "42 None 42
ValueError" "$(cat "$T/cur.txt")" \
	"cursor files as seqringctl's (one decimal line); a label of 16 bytes is refused"

# The README's command for bookworm, whose pip installs nothing for the
# system's Python (PEP 668): a virtual environment, pip install ./python.
# Offline here: no index, and the build backend (setuptools, wheel) the
# system's, which --system-site-packages lets the environment see.
if ! "$PY" -c 'import ensurepip, setuptools, wheel' 2>/dev/null; then
	skip "python3 -m venv V && V/bin/pip install ./python (README)" \
		"no venv, setuptools or wheel for python3 (apt-get install python3-venv python3-wheel)"
	skip "... the README's command for it" "no venv for python3"
else
	"$PY" -m venv --system-site-packages "$T/venv" >"$T/pip.log" 2>&1 &&
		"$T/venv/bin/pip" install --quiet --no-deps --no-build-isolation --no-index \
			"$REPO/python" >>"$T/pip.log" 2>&1
	is "0 $T/venv" "$? $(cd / && "$T/venv/bin/python" -c \
		'import seqring, sys; print(sys.prefix if seqring.__file__.startswith(sys.prefix) else seqring.__file__)')" \
		"python3 -m venv V && V/bin/pip install ./python (README): seqring in the environment" ||
		diag "$(tail -n 20 "$T/pip.log")"
	grep -q 'python3 -m venv ~/venv && ~/venv/bin/pip install ./python' "$REPO/README.md"
	is 0 $? "... the README's command for it"
fi

done_testing
