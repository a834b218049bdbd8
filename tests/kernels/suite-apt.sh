#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# suite-apt.sh SUITE update|apt-get|apt-cache [ARGS...] - the host's apt,
# looking at another Debian suite
#
# Runs the host's apt-get or apt-cache with a private configuration, lists
# and cache in $SEQRING_CACHE/apt/SUITE/ (SEQRING_CACHE defaults to
# /var/cache/seqring), so that the packages of any suite can be looked up
# and downloaded (`apt-get download`) without a root of that suite and
# without touching the host's own apt state. Nothing is ever installed
# through it (its dpkg status file is empty).
#
#   SUITE   as for tests/roots/mkroot.sh: bullseye, bookworm, sid, ... or
#           BASE-backports (BASE plus BASE-backports, the latter preferred:
#           APT::Default-Release)
#   update  refresh the package lists (apt-get update); the other commands
#           run it first when there are no lists yet
#
# Packages are those of amd64, or of the Debian architecture in ARCH
# (arm64, ppc64el, ...; their lists are kept apart).
#
# The mirror is the host's, as in mkroot.sh (MIRROR, SECURITY_MIRROR
# override it). Release files past their Valid-Until (sid's often are) are
# accepted; signatures are checked against Debian's archive keyring.

set -eu

[ $# -ge 2 ] || { echo "usage: $0 SUITE update|apt-get|apt-cache [ARGS...]" >&2; exit 2; }
suite=$1
cmd=$2
shift 2
case $suite in
*[!a-z0-9-]* | "" | -*) echo "suite-apt: bad suite '$suite'" >&2; exit 2 ;;
esac

# shellcheck source=tests/roots/mirror.sh
. "$(dirname "$0")/../roots/mirror.sh"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

base=${suite%-backports}
arch=${ARCH:-amd64}
case $arch in
*[!a-z0-9]* | "") echo "suite-apt: bad ARCH '$arch'" >&2; exit 2 ;;
esac
dir=${SEQRING_CACHE:-/var/cache/seqring}/apt/$suite
[ "$arch" = amd64 ] || dir=$dir-$arch
mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/empty"
: >>"$dir/status"
{
	echo "deb [signed-by=$keyring] $mirror $base main"
	case $base in
	sid | unstable | experimental) ;;
	*)
		echo "deb [signed-by=$keyring] $mirror $base-updates main"
		echo "deb [signed-by=$keyring] $security $base-security main"
		;;
	esac
	[ "$base" = "$suite" ] || echo "deb [signed-by=$keyring] $mirror $suite main"
} >"$dir/sources.list"

opts=(
	-o Dir::Etc::SourceList="$dir/sources.list"
	-o Dir::Etc::SourceParts="$dir/empty"
	-o Dir::Etc::Preferences="$dir/empty/none"
	-o Dir::Etc::PreferencesParts="$dir/empty"
	-o Dir::State::Lists="$dir/lists"
	-o Dir::State::status="$dir/status"
	-o Dir::Cache="$dir"
	-o Dir::Cache::archives="$dir/archives"
	-o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache=""
	-o APT::Architecture="$arch" -o APT::Architectures="$arch"
	-o Acquire::Check-Valid-Until=false
	-o Acquire::Languages=none
	-o Debug::NoLocking=true
)
[ "$base" = "$suite" ] || opts+=(-o APT::Default-Release="$suite")

# One user of a suite's lists at a time.
exec 8>"$dir/.lock"
flock 8

if [ "$cmd" = update ] || [ -z "$(ls "$dir/lists" | grep -v -e partial -e lock)" ]; then
	apt-get "${opts[@]}" -q update >&2 || { echo "suite-apt: apt-get update for $suite failed" >&2; exit 1; }
	[ "$cmd" != update ] || exit 0
fi
case $cmd in
apt-get | apt-cache) exec "$cmd" "${opts[@]}" "$@" ;;
*) echo "suite-apt: unknown command '$cmd'" >&2; exit 2 ;;
esac
