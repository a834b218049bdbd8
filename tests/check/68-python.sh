#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 68-python.sh - the Python module seqring against the real driver: the
# pytest tests of python/tests/ (push, batch, stats, clear, iterate,
# follow with a timeout, cursor resume), run by Debian's python3 and
# pytest (copied in by binaries.txt and trees.txt), each test function
# one TAP result. The module is the source tree's, or the one
# mkinitramfs.sh was given (SEQRING_PYTHON: a package's).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

PYDIR=${SEQRING_TESTS:-/tests}/python

# The test functions, in the order of the files: one result each.
names=$(cd "$PYDIR" 2>/dev/null && for f in test_*.py; do
	sed -n "s/^def \(test_[a-z0-9_]*\)(.*/$f::\1/p" "$f"
done)
plan $((2 + $(printf '%s\n' "$names" | grep -c .)))

[ -n "$names" ] || fail_rest "no tests in $PYDIR (python/tests/)"
command -v python3 >/dev/null || fail_rest "python3 is not in the VM (tests/check/binaries.txt)"
check_load "load seqring.ko capacity=64" capacity=64

start=$(date +%s)
(cd "$PYDIR" && PYTHONPATH=$PYDIR PYTHONDONTWRITEBYTECODE=1 \
	python3 -m pytest -p no:cacheprovider -rA -q test_*.py) >"$T/py.log" 2>&1
rc=$?
diag "pytest: exit status $rc in $(($(date +%s) - start)) s, $(python3 -m pytest --version 2>&1)"

for n in $names; do
	line=$(grep -E "^(PASSED|FAILED|ERROR|SKIPPED).* $n( |\$)" "$T/py.log" | head -n 1)
	case $line in
	PASSED*) ok "$n" ;;
	SKIPPED*) skip "$n" "${line#* - }" ;;
	"")
		not_ok "$n" "expected pytest to report it PASSED, got nothing (exit status $rc)" \
			"$(tail -n 20 "$T/py.log")"
		;;
	*)
		not_ok "$n" "expected PASSED, got: $line" \
			"$(sed -n "/_ ${n#*::} _/,/^\(___\|===\)/p" "$T/py.log" | tail -n 25)"
		;;
	esac
done

check_unload "unload seqring.ko"

done_testing
