#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-litmus.sh [FILE.litmus...] - the ring's memory ordering checked by
# the Linux-kernel memory model (make check-litmus)
#
# Every litmus test of tests/litmus/ models one pairing of barriers that
# driver/ring.c's ordering comment names (doc/testing.md lists them), and
# must come out "Never": the outcome its `exists` clause describes is
# forbidden. Every mutant, tests/litmus/mutants/NAME+WHAT.litmus, is test
# NAME with one barrier removed or weakened, and must come out
# "Sometimes": the barrier is needed, and the test can fail.
#
# herd7 is Debian's herdtools7, which only sid has (bookworm does not):
# it runs in a sid root (tests/roots/mkroot.sh, cached as a tarball in
# $SEQRING_CACHE/roots; unpacked into a scratch directory for the run and
# removed afterwards). The model is tools/memory-model of the kernel
# source that Debian's linux-source-6.1 installs (/usr/src, installed
# here if missing), extracted once into $SEQRING_CACHE/litmus/memory-model
# and run as its README says: herd7 -conf linux-kernel.cfg, from that
# directory.
#
# herd7 exits 0 even when a file does not exist or uses a macro the model
# does not define (an atomic64_* one, say): a test is judged only by its
# "Observation NAME Never|Sometimes|Always" line, NAME being the file's
# name less .litmus (which the `C NAME` line must match). No such line is
# a failure. Also checked, as part of each file's test: the "Result:" its
# header states is the one expected; a mutant's test exists and asks the
# same question (the same `exists` clause).
#
# Before herd7, for the whole set (no FILE arguments), three checks that
# keep the set and driver/ring.c together, which need no root: (1) the
# tests are the files ring.c's ordering comment (its first comment) cites
# as NAME.litmus, no more and no fewer; (2) every test has a mutant and a
# "Models:" paragraph naming at least one FILE:FUNCTION() that exists
# (FILE from the top of the tree, FUNCTION defined in it); (3) every
# label LMM(function:X) in ring.c is named by some test, and every label
# a test names is in ring.c.
#
# Output: TAP, the three checks, then one test per file ("ok 6 -
# publish-wake: Never"), a failure
# with expected and got and herd7's output as "# " lines; the plan; as the
# last line "N passed, N failed". herd7's output for each file is kept in
# build/litmus/NAME.out. Exit status 0 iff every test passed.
#
# With FILE arguments (paths from the top of the tree) only those files
# run, and a test's mutant need not be among them. Needs root
# (debootstrap, chroot).
# Environment: SEQRING_CACHE (default /var/cache/seqring), KSRC_TAR (the
# kernel source tarball, default /usr/src/linux-source-6.1.tar.xz),
# LITMUS_TIMEOUT (seconds per file, default 1200), LITMUS_JOBS (herd7s at
# once, default one a CPU), LITMUS_SHORT (set: the whole set but the tests
# of tests/litmus/slow.list and their mutants, each such test one skipped
# result saying so: CI's short form), LITMUS_CROSSCHECK_ONLY
# (set: only the three checks before herd7, which need neither root nor
# herd7).

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
out=build/litmus
cache=${SEQRING_CACHE:-/var/cache/seqring}/litmus
ksrc=${KSRC_TAR:-/usr/src/linux-source-6.1.tar.xz}
limit=${LITMUS_TIMEOUT:-1200}
jobs=${LITMUS_JOBS:-$(nproc)}
pkgs=herdtools7

passed=0 failed=0 nskipped=0 n=0
result() {
	n=$((n + 1))
	echo "$1 $n - $2"
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}
finish() {
	echo "1..$n"
	if [ "$nskipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $nskipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}
# setup_failed WHAT [LOG]: nothing can run; one failure, LOG's tail.
setup_failed() {
	result "not ok" "$1${2:+ (log: $2)}"
	[ -z "${2:-}" ] || tail -n 20 "$2" | sed 's/^/# /'
	finish
}

if [ $# -gt 0 ]; then
	files=("$@")
else
	files=(tests/litmus/*.litmus tests/litmus/mutants/*.litmus)
fi
# slow_why NAME: why NAME (a test, or a mutant of one) is left out of the
# short form, or nothing.
slow_why() {
	awk -F '\t' -v n="${1%%+*}" '$1 == n { print "herd7 " $2 " s: " $3 }' \
		tests/litmus/slow.list
}
skipped=()
if [ $# -eq 0 ] && [ -n "${LITMUS_SHORT:-}" ]; then
	kept=()
	for f in "${files[@]}"; do
		if [ -n "$(slow_why "$(basename "$f" .litmus)")" ]; then
			skipped+=("$f")
		else
			kept+=("$f")
		fi
	done
	files=("${kept[@]}")
fi
for f in "${files[@]}"; do
	[ -f "$f" ] || setup_failed "no litmus file $f"
done

# --- the set against driver/ring.c -------------------------------------------
# crosscheck WHAT PROBLEMS: one TAP test, each problem (a line) as "# ".
crosscheck() {
	if [ -z "$2" ]; then
		result ok "$1"
	else
		result "not ok" "$1"
		while IFS= read -r line; do echo "# $line"; done <<<"$2"
	fi
}
if [ $# -eq 0 ]; then
	ring=driver/ring.c
	# Both sorted alike for comm: the glob sorts the names with their
	# .litmus, which puts resize-drop-grace before resize-drop.
	tests=$(for f in tests/litmus/*.litmus; do basename "$f" .litmus; done |
		sort)
	cited=$(sed -n '1,/\*\//p' "$ring" | grep -o '[a-z0-9-]\+\.litmus' |
		sed 's/\.litmus$//' | sort -u)
	crosscheck "every test is cited by $ring's ordering comment, every citation is a test" \
		"$(comm -23 <(echo "$tests") <(echo "$cited") | sed 's/$/.litmus: not cited/'
		   comm -13 <(echo "$tests") <(echo "$cited") | sed 's/$/.litmus: cited, no such test/')"
	problems=
	for name in $tests; do
		f=tests/litmus/$name.litmus
		compgen -G "tests/litmus/mutants/$name+*.litmus" >/dev/null ||
			problems+="$f: no mutant (tests/litmus/mutants/$name+WHAT.litmus)"$'\n'
		models=$(sed -n '/^ \* Models:/,/^ \*$/p' "$f" |
			grep -o '[A-Za-z0-9_./-]*\.[ch]:[A-Za-z0-9_]*()' | sort -u)
		[ -n "$models" ] ||
			problems+="$f: no \"Models: FILE:FUNCTION()\" paragraph"$'\n'
		for m in $models; do
			file=${m%%:*}
			fn=${m#*:}
			fn=${fn%()}
			if [ ! -f "$file" ]; then
				problems+="$f: models $m, but there is no $file"$'\n'
			elif ! grep -q "^[A-Za-z].*[ *]$fn(" "$file" &&
				! grep -q "^$fn(" "$file"; then
				problems+="$f: models $m, but $file defines no $fn()"$'\n'
			fi
		done
	done
	crosscheck "every test has a mutant and names the FILE:FUNCTION() it models" "${problems%$'\n'}"
	labels=$(grep -o 'LMM([A-Za-z0-9_]*:[A-Z])' "$ring" | grep -vx 'LMM(function:X)' | sort -u)
	named=$(cat tests/litmus/*.litmus | grep -o 'LMM([A-Za-z0-9_]*:[A-Z])' | sort -u)
	crosscheck "every label LMM(function:X) of $ring is named by a test, every label named is in $ring" \
		"$(comm -23 <(echo "$labels") <(echo "$named") | sed 's/$/: named by no test/'
		   comm -13 <(echo "$labels") <(echo "$named") | sed "s|\$|: named by a test, not in $ring|")"
	[ -z "${LITMUS_CROSSCHECK_ONLY:-}" ] || finish
fi
[ "$(id -u)" -eq 0 ] || setup_failed "check-litmus needs root (debootstrap, chroot)"
rm -rf "$out"
mkdir -p "$out" "$cache"

# --- the root -----------------------------------------------------------------
root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-litmus.XXXXXX") || exit 1
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	local p
	# herd7 runs under timeout(1), in a process group of its own: stop
	# every process chrooted into this root, or an interrupted run
	# leaves them running.
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" != "$root" ] ||
			kill "${p#/proc/}" 2>/dev/null
	done
	tests/roots/rmroot.sh "$root"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rmdir "$root"
t0=$(date +%s)
tests/roots/mkroot.sh sid "$root" "$pkgs" >"$out/root.log" 2>&1 ||
	setup_failed "a sid root with $pkgs" "$out/root.log"
echo "# sid root with $pkgs in $(($(date +%s) - t0)) s: $(tail -n 1 "$out/root.log")"
mkdir -p "$root/litmus"

# --- the model ----------------------------------------------------------------
# Extracted again only when the tarball changes (a new linux-source-6.1),
# and copied into the root under the lock that guards its replacement.
if [ ! -f "$ksrc" ]; then
	echo "# installing linux-source-6.1 for $ksrc"
	tests/vm/deps.sh linux-source-6.1 >"$out/deps.log" 2>&1 ||
		setup_failed "install linux-source-6.1" "$out/deps.log"
fi
model=$cache/memory-model
key="$ksrc $(stat -c '%s %Y' "$ksrc")"
exec 9>"$cache/.lock"
flock 9
if [ "$(cat "$model/.source" 2>/dev/null)" != "$key" ]; then
	echo "# extracting tools/memory-model from $ksrc (~20 s)"
	rm -rf "$model" "$model.tmp"
	mkdir -p "$model.tmp"
	tar -xf "$ksrc" -C "$model.tmp" --strip-components=3 \
		--wildcards '*/tools/memory-model/*' >"$out/model.log" 2>&1 ||
		setup_failed "extract tools/memory-model from $ksrc" "$out/model.log"
	[ -f "$model.tmp/linux-kernel.cfg" ] ||
		setup_failed "$ksrc has no tools/memory-model/linux-kernel.cfg"
	echo "$key" >"$model.tmp/.source"
	mv "$model.tmp" "$model"
fi
cp -r "$model" "$root/litmus/model"
exec 9>&-

# herd7 runs in the root, once per file, from the model's directory.
mkdir -p "$root/litmus/out"
cp --parents "${files[@]}" "$root/litmus/"
echo "# $(tests/roots/inroot.sh "$root" herd7 -version 2>&1 | head -n 1 | sed 's/^/herd7 /'), model: $key"
t0=$(date +%s)
# $jobs herd7s at once (one a CPU: herd7 is single-threaded), the
# largest files first, as they take longest.
# shellcheck disable=SC2016,SC2012 # expanded by the root's shell; our file names
ls -S "${files[@]}" | tests/roots/inroot.sh "$root" sh -c '
	cd /litmus/model || exit 1
	xargs -P "$2" -I FILE sh -c '\''
		o=/litmus/out/$(basename "$1" .litmus).out
		timeout "$0" herd7 -conf linux-kernel.cfg "/litmus/$1" >"$o" 2>&1 ||
			echo "(herd7 exit status $?)" >>"$o"
		exit 0'\'' "$1" FILE' sh "$limit" "$jobs" >"$out/herd7.log" 2>&1 &
# In the background: a signal's trap runs at once, not when herd7 ends.
wait $! || setup_failed "herd7 in the sid root" "$out/herd7.log"
echo "# herd7 ran ${#files[@]} files, $jobs at once, in $(($(date +%s) - t0)) s"
cp "$root"/litmus/out/*.out "$out/" 2>/dev/null

# --- the results --------------------------------------------------------------
# cond FILE: its `exists` clause (from that line to the end), blanks and
# comments squeezed out.
cond() {
	sed -n '/^exists/,$p' "$1" | sed 's/(\*.*\*)//g' | tr -d ' \t\n'
}

for f in ${skipped[@]+"${skipped[@]}"}; do
	name=$(basename "$f" .litmus)
	n=$((n + 1))
	nskipped=$((nskipped + 1))
	echo "ok $n - ${f#tests/litmus/} # SKIP LITMUS_SHORT: $(slow_why "$name")"
done
for f in "${files[@]}"; do
	name=$(basename "$f" .litmus)
	case $f in
	*/mutants/*) want=Sometimes ;;
	*) want=Never ;;
	esac
	o=$out/$name.out
	got=$(sed -n "s/^Observation $name \([A-Za-z]*\) .*/\1/p" "$o" 2>/dev/null)
	stated=$(sed -n 's/^ \* Result: *\([A-Za-z]*\).*/\1/p' "$f" | head -n 1)
	why=
	if [ -z "$got" ]; then
		why="expected $want, got no Observation line for $name"
		other=$(sed -n 's/^Observation \([^ ]*\) .*/\1/p' "$o" 2>/dev/null)
		[ -z "$other" ] || why+=" (the file's test is named $other)"
	elif [ "$got" != "$want" ]; then
		why="expected $want, got $got"
	elif [ "$stated" != "$want" ]; then
		why="herd7 says $got, as expected, but the header says \"Result: ${stated:-(none)}\""
	elif [ "$want" = Sometimes ]; then
		base=tests/litmus/${name%%+*}.litmus
		if [ ! -f "$base" ]; then
			why="$got, but its test $base does not exist"
		elif [ "$(cond "$base")" != "$(cond "$f")" ]; then
			why="$got, but its exists clause is not that of $base"
		fi
	fi
	desc=${f#tests/litmus/}
	desc=${desc%.litmus}
	if [ -z "$why" ]; then
		result ok "$desc: $got"
	else
		result "not ok" "$desc: $why"
		sed '/^$/d; s/^/# /' "$o" 2>/dev/null
	fi
done
finish
