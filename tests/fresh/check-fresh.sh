#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-fresh.sh - the VM quick start of doc/testing.md on a fresh Debian bookworm (make
# check-fresh)
#
# Makes a fresh bookworm root (tests/roots/mkroot.sh: debootstrap
# --variant=minbase plus only what the VM quick start of doc/testing.md tells a user to
# install, git and make), clones the commit under test into it
# (/root/seqring), and runs README's two commands there, in that order, each
# exactly once, as root in the chroot:
#   make demo
#   make check
# Both must pass the first time: `make demo` installs the packages itself,
# so this is what catches a build that only works on a machine that has
# them already. QEMU runs inside the chroot (inroot.sh mounts /proc, /sys
# and /dev for it). The root is removed afterwards, pass or fail.
#
# The commit under test is HEAD of this clone; uncommitted changes are not
# tested (a warning says so). Output: TAP: the steps above, and the
# results of the check tier run by `make check` in the root, renumbered
# into this stream ("ok 17 - fresh: 05-load: ..."), so that they count;
# other output as "# " lines (all of it in build/fresh/demo.log and
# build/fresh/check.log); as the last line "N passed, N failed[, N
# skipped]". Exit status 0 iff everything passed.
#
# Environment: SEQRING_CACHE (for the root's tarball and the packages
# make demo downloads), KEEP_ROOT=1 keeps
# the root (its path is printed) for a look around; remove it with
# tests/roots/rmroot.sh.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
out=build/fresh
mkdir -p "$out"
# The packages the VM quick start of doc/testing.md names; nothing else is installed.
user_pkgs="git make"

passed=0 failed=0 skipped=0 n=0
result() {
	n=$((n + 1))
	echo "$1 $n - $2"
	case $1 in
	skip) skipped=$((skipped + 1)) ;;
	ok) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
}
# inner LINE: one TAP result of the check tier in the root, renumbered.
inner() {
	local status=ok desc
	case $1 in "not ok "*) status="not ok" ;; esac
	desc=${1#"$status" }
	desc=${desc#*[0-9] }
	desc=${desc#- }
	case $status$desc in
	ok*"# SKIP"* | ok*"# skip"* | "not ok"*"# TODO"* | "not ok"*"# todo"*)
		n=$((n + 1)) skipped=$((skipped + 1))
		echo "$status $n - fresh: $desc"
		;;
	*) result "$status" "fresh: $desc" ;;
	esac
}
finish() {
	echo "1..$n"
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}

commit=$(git rev-parse HEAD) || exit 1
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "# warning: uncommitted changes are not tested; testing $commit"
fi

root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-fresh.XXXXXX") || exit 1
cleanup() {
	if [ "${KEEP_ROOT:-0}" = 1 ]; then
		echo "# root kept in $root (remove: tests/roots/rmroot.sh $root)"
	else
		tests/roots/rmroot.sh "$root"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rmdir "$root"

start=$(date +%s)
if tests/roots/mkroot.sh bookworm "$root" $user_pkgs 2>&1 | sed 's/^/# /'; [ "${PIPESTATUS[0]}" -eq 0 ]; then
	result ok "fresh bookworm root with $user_pkgs ($(($(date +%s) - start))s)"
	# dpkg without an fsync() per file: what make deps installs is the
	# same, in a fraction of the time (a root thrown away afterwards).
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/seqring-test-unsafe-io"
else
	result "not ok" "fresh bookworm root with $user_pkgs"
	finish
fi

# As a user would: clone, then check out the commit. The clone is made on
# the host (the root cannot see this repository), with git's own transport
# so that nothing but committed files is copied.
if git clone -q --no-checkout "file://$repo" "$root/root/seqring" &&
   git -C "$root/root/seqring" checkout -q --detach "$commit"; then
	result ok "clone of $commit"
else
	result "not ok" "clone of $commit"
	finish
fi

# run NAME: `make NAME` in the clone inside the root, once.
run() {
	local name=$1 log=$out/$1.log t0 rc summary
	t0=$(date +%s)
	tests/roots/inroot.sh "$root" sh -c "cd /root/seqring && make $name" \
		</dev/null >"$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*) inner "$line" ;;
		*) echo "# $line" ;;
		esac
	done <"$log"
	summary=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		result ok "make $name passes the first time in the fresh root ($(($(date +%s) - t0))s${summary:+; $summary})"
	else
		result "not ok" "make $name passes the first time in the fresh root (exit status $rc${summary:+; $summary}; log: $log)"
	fi
}
# The packages `make demo` downloads are kept between runs in
# $SEQRING_CACHE/fresh-debs and put in the root's archive beforehand: apt
# still installs every one of them, as on a user's machine, but does not
# fetch again what it fetched last time (a third of the tier's time).
# A lock keeps two runs from reading it while the other replaces it.
debs=${SEQRING_CACHE:-/var/cache/seqring}/fresh-debs
mkdir -p "$debs"
(
	flock 8
	cp -n "$debs"/*.deb "$root/var/cache/apt/archives/" 2>/dev/null
) 8>"$debs.lock"
run demo
# What this run's apt kept, and nothing older.
if compgen -G "$root/var/cache/apt/archives/*.deb" >/dev/null; then
	(
		flock 8
		rm -f "$debs"/*.deb
		cp "$root"/var/cache/apt/archives/*.deb "$debs/"
	) 8>"$debs.lock"
fi
run check
echo "# check-fresh took $(($(date +%s) - start))s"
finish
