#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkroot.sh SUITE DEST [EXTRA_PKGS...] - a Debian root of SUITE in DEST
#
#   SUITE       bullseye, bookworm, trixie, sid, ... (any suite debootstrap
#               knows), or BASE-backports (e.g. bookworm-backports): a BASE
#               root whose apt also sees BASE-backports, and EXTRA_PKGS are
#               installed with `-t BASE-backports`.
#   DEST        directory to put the root in; must not exist or be empty.
#   EXTRA_PKGS  apt-get install arguments (pkg, pkg=version, pkg/suite)
#               installed on top of the minimal system.
#
# The root is `debootstrap --variant=minbase SUITE` from the Debian mirror
# that the host's /etc/apt uses, with apt sources for SUITE (and, for the
# stable suites, SUITE-updates and SUITE-security), plus EXTRA_PKGS
# (apt-get install --no-install-recommends). In the root:
#   /etc/apt/sources.list             the suites above, component main
#   /etc/apt/apt.conf.d/99seqring     no recommends; Check-Valid-Until off
#                                     (sid's Release is often past it;
#                                     signatures are still checked)
#   /usr/sbin/policy-rc.d             exit 101: packages start no services
#   /etc/seqring-root                 suite, extra packages, cache key
# apt's package lists are kept (run `apt-get update` in the root before
# installing more if they may be stale); downloaded .debs are not.
#
# Cache: the finished root is kept as a zstd tarball,
#   $SEQRING_CACHE/roots/SUITE-HASH.tar.zst
# (SEQRING_CACHE defaults to /var/cache/seqring), HASH being a hash of the
# suite, the mirror, the sorted EXTRA_PKGS and the recipe version below. The
# same arguments later only unpack the tarball (seconds). A root is not
# refreshed when the archive changes: pin versions (pkg=version) where that
# matters, or delete the tarball. Concurrent calls with the same key wait
# for each other (flock on the tarball's .lock).
#
# Nothing is mounted when this returns. To run commands in the root use
# tests/roots/inroot.sh (mounts /proc, /sys, /dev and unmounts them); to
# remove it, tests/roots/rmroot.sh (refuses while anything is mounted).
#
# Progress goes to stderr; stdout is empty. Exit status 0 iff DEST holds the
# root. Needs root; installs debootstrap and zstd on the host if missing.
#
# Environment:
#   ROOT_ARCH      a Debian architecture the host cannot run (arm64, ...):
#                  the root is only unpacked (`debootstrap --foreign
#                  --arch=ROOT_ARCH --include=EXTRA_PKGS`: nothing in it is
#                  run, no maintainer script, no apt), a tree to take that
#                  architecture's programs and libraries from
#   ROOT_EMULATED  with ROOT_ARCH, set to 1: a whole root of ROOT_ARCH as
#                  for the host's (apt, dpkg, maintainer scripts, EXTRA_PKGS
#                  installed), every program in it run by qemu-user through
#                  the host's binfmt_misc (qemu-user-static registers it;
#                  tests/arch/binfmt.sh checks it); several times slower
#   SEQRING_CACHE  cache directory (default /var/cache/seqring)
#   MIRROR         Debian mirror (default: the host's, from /etc/apt)
#   SECURITY_MIRROR  its debian-security counterpart (default: likewise)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
# Bump when the steps below change what a root contains.
recipe=2

say() {
	echo "mkroot: $*" >&2
}

die() {
	say "$*"
	exit 1
}

[ $# -ge 2 ] || { echo "usage: $0 SUITE DEST [EXTRA_PKGS...]" >&2; exit 2; }
suite=$1
dest=$2
shift 2
[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot)"
case $suite in
*[!a-z0-9-]* | "" | -*) die "bad suite '$suite'" ;;
esac
case $dest in /*) ;; *) dest=$PWD/$dest ;; esac
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	die "$dest exists and is not empty"
fi

for tool in debootstrap zstd; do
	command -v $tool >/dev/null && continue
	say "installing $tool"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q -y \
		install --no-install-recommends $tool </dev/null >&2 ||
		die "cannot install $tool"
done

# --- mirror -----------------------------------------------------------------
# shellcheck source=tests/roots/mirror.sh
. "$here/mirror.sh"

base=${suite%-backports}
emulated=
[ -z "${ROOT_ARCH:-}" ] || [ "${ROOT_EMULATED:-0}" != 1 ] || emulated=1
target=
[ "$base" = "$suite" ] || target=$suite

# --- cache key ---------------------------------------------------------------
cache=${SEQRING_CACHE:-/var/cache/seqring}/roots
hash=$({
	echo "recipe $recipe"
	echo "suite $suite"
	echo "mirror $mirror $security"
	[ -z "${ROOT_ARCH:-}" ] || echo "foreign $ROOT_ARCH${emulated:+ emulated}"
	printf '%s\n' "$@" | LC_ALL=C sort
} | sha256sum | cut -c1-16)
tarball=$cache/$suite${ROOT_ARCH:+-$ROOT_ARCH}-$hash.tar.zst

# Unpacking a root marks it used (tests/kernels/prune-cache.sh keeps
# what was used lately).
restore() {
	touch -c "$tarball"
	mkdir -p "$dest"
	zstd -dcq "$tarball" | tar -C "$dest" --numeric-owner -xpf - ||
		die "cannot unpack $tarball into $dest"
	say "$suite root in $dest (from $tarball)"
}

if [ -s "$tarball" ]; then
	restore
	exit 0
fi
mkdir -p "$cache"
exec 8>"$tarball.lock"
if ! flock -n 8; then
	say "waiting for another build of $tarball"
	flock 8
fi
if [ -s "$tarball" ]; then
	restore
	exit 0
fi

# --- build -------------------------------------------------------------------
# Built in a scratch directory next to the cache, then packed; DEST gets
# the packed root like any later caller, so every root comes from a tarball.
start=$(date +%s)
work=$(mktemp -d "$cache/.build-$suite-XXXXXX")
chmod 755 "$work" # mktemp makes it 0700; _apt and the root need 0755
cleanup() {
	"$here/rmroot.sh" "$work" || say "could not remove $work"
}
trap cleanup EXIT

if [ -n "${ROOT_ARCH:-}" ] && [ -z "$emulated" ]; then
	include=$(IFS=,; echo "$*")
	say "debootstrap --foreign --arch=$ROOT_ARCH --variant=minbase $base${include:+ --include=$include}"
	debootstrap --foreign --arch="$ROOT_ARCH" --variant=minbase \
		${include:+--include="$include"} "$base" "$work" "$mirror" \
		>"$work.log" 2>&1 || {
		tail -n 20 "$work.log" >&2
		die "debootstrap --foreign $base failed (log: $work.log)"
	}
	rm -f "$work.log"
	# The first stage unpacks the base system only; the rest waits in
	# the archive cache for a second stage that cannot run here.
	# Unpacked as dpkg would, keeping /bin, /lib, ... links to /usr.
	for deb in "$work"/var/cache/apt/archives/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" |
			tar -C "$work" --keep-directory-symlink -xf - ||
			die "cannot unpack $deb"
	done
	rm -f "$work"/var/cache/apt/archives/*.deb
	echo "suite=$suite arch=$ROOT_ARCH packages=$* (unpacked only)" >"$work/etc/seqring-root"
	say "packing $tarball"
	tar -C "$work" --numeric-owner -cf - . | zstd -q -T0 -3 >"$tarball.tmp" ||
		die "cannot pack $tarball"
	mv "$tarball.tmp" "$tarball"
	restore
	exit 0
fi

say "debootstrap${ROOT_ARCH:+ --arch=$ROOT_ARCH} --variant=minbase $base from $mirror (~1 min; emulated: ~10)"
debootstrap ${ROOT_ARCH:+--arch="$ROOT_ARCH"} --variant=minbase "$base" "$work" "$mirror" \
	>"$work.log" 2>&1 || {
	tail -n 20 "$work.log" >&2
	die "debootstrap $base failed (log: $work.log)"
}
rm -f "$work.log"

# Stable suites have updates and security suites; testing/unstable do not.
{
	echo "deb $mirror $base main"
	case $base in
	sid | unstable | experimental) ;;
	*)
		echo "deb $mirror $base-updates main"
		echo "deb $security $base-security main"
		;;
	esac
	[ -z "$target" ] || echo "deb $mirror $target main"
} >"$work/etc/apt/sources.list"
cat >"$work/etc/apt/apt.conf.d/99seqring" <<'EOF'
// Written by seqring's tests/roots/mkroot.sh.
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Check-Valid-Until "false";
EOF
printf '#!/bin/sh\nexit 101\n' >"$work/usr/sbin/policy-rc.d"
chmod 755 "$work/usr/sbin/policy-rc.d"

apt_in_root() {
	"$here/inroot.sh" "$work" env DEBIAN_FRONTEND=noninteractive \
		apt-get -q -y "$@" </dev/null
}
apt_in_root update >&2 || die "apt-get update in the $suite root failed"
# debootstrap installs from SUITE alone; take its updates and security
# fixes too, so that the root matches an installed system of SUITE.
apt_in_root dist-upgrade >&2 || die "apt-get dist-upgrade in the $suite root failed"
if [ $# -gt 0 ]; then
	say "installing: $*"
	apt_in_root ${target:+-t "$target"} install "$@" >&2 ||
		die "apt-get install in the $suite root failed"
fi
apt_in_root clean >&2
{
	echo "suite=$suite"
	[ -z "$emulated" ] || echo "arch=$ROOT_ARCH (emulated)"
	echo "packages=$*"
	echo "key=$suite-$hash"
} >"$work/etc/seqring-root"

say "packing $tarball"
tar -C "$work" --numeric-owner -cf - . | zstd -q -T0 -3 >"$tarball.tmp" ||
	die "cannot pack $tarball"
mv "$tarball.tmp" "$tarball"
say "built $suite root in $(($(date +%s) - start))s ($(du -m "$tarball" | cut -f1) MB packed)"
restore
