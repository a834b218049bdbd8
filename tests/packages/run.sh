#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the packaging tests (host side, as root): `make check-packages`.
#
# Runs every tests/packages/NN-*.sh in sort order (PKG_FILTER, shell globs
# separated by commas as VM_FILTER's, keeps only the scripts whose name
# matches one, and of those none that matches a glob with a leading "!")
# and merges their TAP
# output into one stream:
#   - "ok I - desc" / "not ok I - desc" of a script become
#     "ok M - SCRIPT: desc" with M counting across all scripts; "# SKIP"
#     and "# TODO" directives are kept;
#   - "#" lines are kept; any other output becomes a "# " comment;
#   - a script that prints a number of results different from its plan, or
#     exits non-zero without reporting a failure, adds a "not ok".
# Then the plan "1..M" and, as the last line,
#   N passed, N failed        or   N passed, N failed, N skipped
# Exit status 0 iff nothing failed.
#
# The scripts source tests/lib.sh (SEQRING_TESTS points at tests/) and run
# from the top of the tree, which is also $REPO. What they need (Debian
# packages, a Debian root, a VM slot) each says in its header.

set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
export REPO=$root SEQRING_TESTS=$root/tests
mkdir -p build/packages

n=0
passed=0
failed=0
skipped=0

# result LINE-WITHOUT-NUMBER STATUS: print one renumbered result and count it.
result() {
	n=$((n + 1))
	echo "$2 $n - $1"
	case "$2 $1" in
	"not ok"*"# TODO"*) skipped=$((skipped + 1)) ;;
	"not ok"*) failed=$((failed + 1)) ;;
	*"# SKIP"*) skipped=$((skipped + 1)) ;;
	*) passed=$((passed + 1)) ;;
	esac
}

# wanted NAME: PKG_FILTER keeps script NAME.
wanted() {
	local g in=0 pos=0 globs
	IFS=, read -ra globs <<<"${PKG_FILTER:-*}"
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053 # globs on purpose
		case $g in
		!*) [[ $1 == ${g#!} ]] && return 1 ;;
		*) pos=1; [[ $1 == $g ]] && in=1 ;;
		esac
	done
	# Only "!" globs: every other script.
	[ "$in" = 1 ] || [ "$pos" = 0 ]
}

for script in tests/packages/[0-9]*.sh; do
	name=$(basename "$script" .sh)
	wanted "$name" || continue
	echo "# $name"
	log=build/packages/$name.log
	start=$SECONDS
	bash "$script" </dev/null >"$log" 2>&1
	rc=$?
	plan=0
	ran=0
	nfail=0
	while IFS= read -r line; do
		case $line in
		"ok "[0-9]* | "not ok "[0-9]*)
			status=ok
			rest=${line#ok }
			case $line in "not ok "*) status="not ok"; rest=${line#not ok } ;; esac
			rest=${rest#"${rest%%[!0-9]*}"}
			rest=${rest# }
			rest=${rest#- }
			ran=$((ran + 1))
			[ "$status" = ok ] || nfail=$((nfail + 1))
			result "$name: $rest" "$status"
			;;
		1..[0-9]*)
			plan=${line#1..}
			plan=${plan%%[!0-9]*}
			;;
		"#"*)
			echo "$line"
			;;
		*)
			echo "# $line"
			;;
		esac
	done <"$log"
	echo "# $name: exit status $rc, $((SECONDS - start))s"
	if [ "$ran" -ne "$plan" ]; then
		result "$name: planned $plan tests, ran $ran" "not ok"
	elif [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then
		result "$name: exited with status $rc" "not ok"
	fi
done

echo "1..$n"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
