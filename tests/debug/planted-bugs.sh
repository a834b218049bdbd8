#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# planted-bugs.sh - show that the debug kernel run catches real bugs
#
# Each tests/debug/planted/NAME.patch plants one bug in the driver. Its
# header says how the debug kernel must catch it:
#   Kernel: FLAVOUR   the debug kernel that must catch it: kasan (the
#                     default: KASAN, lockdep, kmemleak) or kcsan
#   Mode: MODE        the tier to run (check, stress, debugvm)
#   Filter: GLOB      only these guest scripts (VM_FILTER), to keep it short
#   Expect: ERE       a line the kernel log or the TAP output must contain
#   Append: ARGS      extra kernel command line (VM_APPEND), optional
# For each patch, the work tree's files (tracked and untracked, not
# ignored) are copied to build/planted/NAME, the patch is applied there,
# the modules are built against the debug kernel and the tier is run. The
# planted bug is caught when the run fails AND a line matches Expect; the
# matching lines are printed as diagnostics.
#
# Arguments: the patches to run (default: all of tests/debug/planted/).
#
# Output: TAP, one result per patch, then "N passed, N failed". Exit
# status 0 iff every planted bug was caught.
#
# The debug kernels are built, or found cached, by tests/debug/build-kernel.sh.

set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1

patches=(tests/debug/planted/*.patch)
[ $# -eq 0 ] || patches=("$@")
echo "TAP version 13"
echo "1..${#patches[@]}"
n=0 passed=0 failed=0

# result STATUS DESC [DIAG...]
result() {
	local st=$1 desc=$2
	shift 2
	n=$((n + 1))
	echo "$st $n - $desc"
	if [ "$st" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/# /'
	done
}

# field PATCH NAME: value of the "NAME: value" header line.
field() {
	sed -n "s/^$2: //p" "$1" | head -n 1
}

for patch in "${patches[@]}"; do
	name=$(basename "$patch" .patch)
	what=$(field "$patch" "Planted bug")
	mode=$(field "$patch" Mode)
	filter=$(field "$patch" Filter)
	expect=$(field "$patch" Expect)
	append=$(field "$patch" Append)
	flavour=$(field "$patch" Kernel)
	flavour=${flavour:-kasan}
	dir=build/planted/$name
	desc="$name: $what"
	echo "# $name: copying the tree to $dir, applying the patch" >&2

	rm -rf "$dir"
	mkdir -p "$dir"
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -e "$f" ] && cp --parents -P -- "$f" "$dir/"
		done
	# Inside this repository, git apply would take the patch's paths as
	# relative to its top and skip them, saying nothing: stop git from
	# finding the repository above the copy.
	if ! (cd "$dir" && GIT_CEILING_DIRECTORIES=$root/${dir%/*} \
		git apply "$root/$patch") >"$dir.log" 2>&1; then
		result "not ok" "$desc" "the patch does not apply:" "$(cat "$dir.log")"
		continue
	fi
	if ! env=$(tests/debug/build-kernel.sh "$flavour" 2>>"$dir.log"); then
		result "not ok" "$desc" "the $flavour kernel cannot be built (see $dir.log)"
		continue
	fi
	eval "$env"
	if ! make -C "$dir" all KDIR="$KDIR" >>"$dir.log" 2>&1; then
		result "not ok" "$desc" "the patched tree does not build (see $dir.log)"
		continue
	fi

	echo "# $name: running tier $mode (scripts $filter) on the $flavour kernel" >&2
	KERNEL=$KERNEL VM_FILTER=$filter VM_MEM=1024 VM_TIMEOUT=1200 VM_APPEND=$append \
		VM_SCRIPT_TIMEOUT=600 "$dir/tests/vm/run.sh" "$mode" >"$dir/run.log" 2>&1
	rc=$?
	caught=$(sed -e 's/\r//g' "$dir/build/vm/console.log" "$dir/run.log" |
		grep -aE -- "$expect" | head -n 3)
	summary=$(tail -n 1 "$dir/run.log")
	if [ "$rc" -ne 0 ] && [ -n "$caught" ]; then
		result ok "$desc" "run failed ($summary); caught by:" "$caught"
	elif [ "$rc" -eq 0 ]; then
		result "not ok" "$desc" "the run passed: the bug went unnoticed ($summary)"
	else
		result "not ok" "$desc" "the run failed ($summary), but no line matches '$expect'" \
			"see $dir/run.log and $dir/build/vm/console.log"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
