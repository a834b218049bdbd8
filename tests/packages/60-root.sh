#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 60-root.sh - the packages as a user installs them, in a fresh Debian
# bookworm root (tests/roots/mkroot.sh, as `make check-fresh` makes one)
# that sees bookworm-backports and has the headers of the kernel the test
# VM boots:
#   - `apt-get install ./seqring-dkms_*.deb ./seqring-tools_*.deb` pulls
#     dkms and a compiler, DKMS builds the three modules for that kernel
#     (`dkms status`, /lib/modules/KVER/updates/dkms, the module's version)
#     and keeps the build's Module.symvers, and group seqring exists;
#   - tests/extmod builds in the root as README tells a driver author,
#     against the package's /usr/src/seqring-VERSION/include and the
#     Module.symvers DKMS kept;
#   - the check tier in the VM (PKG_VM_FILTER, VM_FILTER's globs: only
#     those scripts; .ci/run's short form) on the DKMS-built modules and that one, with
#     the packaged seqringctl, udev rule and Python module (python3-seqring,
#     which 68-python.sh's pytest tests import);
#   - an install killed while DKMS builds, and one whose build fails, are
#     followed by a reinstall of the same version that works;
#   - the headers of a second kernel (bookworm-backports' linux-headers-
#     amd64): DKMS builds for it when they are installed;
#   - `apt-get purge` of both leaves nothing in /lib/modules, the DKMS
#     tree, /usr/src, the udev rules or /usr/bin.
# Needs build/deb/ from 50-deb.sh, root, the VM's packages
# (tests/vm/deps.sh) and the network or a warm cache: the root is cached
# by mkroot.sh, the packages apt downloads in the root are kept in
# $SEQRING_CACHE/archives/bookworm-backports/ for the next run.

. "$SEQRING_TESTS/lib.sh"

plan 20

version=$(cat VERSION)
arch=$(dpkg --print-architecture)
kver=$(tests/vm/kver.sh) || { echo "1..0 # no bookworm kernel image"; exit 1; }
cache=${SEQRING_CACHE:-/var/cache/seqring}
archives=$cache/archives/bookworm-backports
dkms_deb=seqring-dkms_${version}_all.deb
tools_deb=seqring-tools_${version}_$arch.deb
dev_deb=seqring-dev_${version}_$arch.deb
lib_deb=libseqring1_${version}_$arch.deb
py_deb=python3-seqring_${version}_all.deb
out=$REPO/build/packages/root
rm -rf "$out"
mkdir -p "$out" "$archives"

root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-pkgroot.XXXXXX") || exit 1
rmdir "$root"
cleanup_root() {
	# What apt downloaded is kept for the next run.
	cp -n "$root"/var/cache/apt/archives/*.deb "$archives/" 2>/dev/null
	tests/roots/rmroot.sh "$root"
}
trap 'cleanup_root; _tap_cleanup' EXIT

# inroot CMD...: run CMD in the root, output to $T/in.log (shown on failure).
inroot() {
	tests/roots/inroot.sh "$root" env DEBIAN_FRONTEND=noninteractive "$@" \
		</dev/null >"$T/in.log" 2>&1
}
# inroot_ok DESC CMD...: a test that CMD succeeds in the root.
inroot_ok() {
	local desc=$1
	shift
	if inroot "$@"; then
		ok "$desc"
	else
		not_ok "$desc" "expected exit status 0 from '$*' in the root, got $?" \
			"$(tail -n 30 "$T/in.log")"
	fi
}
# dkms_state KVER: seqring's state for KVER as `dkms status` prints it.
dkms_state() {
	tests/roots/inroot.sh "$root" dkms status -m seqring -v "$version" -k "$1" 2>/dev/null |
		sed -n "s/^seqring\/$version, $1, [^:]*: \(.*\)$/\1/p"
}

t0=$(date +%s)
if tests/roots/mkroot.sh bookworm-backports "$root" "linux-headers-$kver" \
	>"$out/mkroot.log" 2>&1; then
	ok "a fresh bookworm root with the headers of $kver ($(($(date +%s) - t0))s)"
else
	not_ok "a fresh bookworm root with the headers of $kver" "$(tail -n 20 "$out/mkroot.log")"
	fail_rest "no root"
fi
# dpkg without an fsync() per file (a root thrown away afterwards; a
# killed dpkg loses nothing that way, only a power cut would).
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/seqring-test-unsafe-io"
cp "$archives"/*.deb "$root/var/cache/apt/archives/" 2>/dev/null
mkdir -p "$root/tmp/debs"
cp "build/deb/$dkms_deb" "build/deb/$tools_deb" "build/deb/$dev_deb" "build/deb/$lib_deb" \
	"build/deb/$py_deb" "$root/tmp/debs/" ||
	fail_rest "no packages in build/deb (50-deb.sh makes them)"

# --- install ----------------------------------------------------------------
inroot_ok "apt-get install ./$dkms_deb ./$tools_deb ./$dev_deb ./$lib_deb ./$py_deb (pulls dkms, a compiler, python3)" \
	apt-get install -y "/tmp/debs/$dkms_deb" "/tmp/debs/$tools_deb" "/tmp/debs/$dev_deb" \
	"/tmp/debs/$lib_deb" "/tmp/debs/$py_deb"
cp "$T/in.log" "$out/install.log"
is installed "$(dkms_state "$kver")" "dkms status: seqring/$version installed for $kver"
mods=$root/lib/modules/$kver/updates/dkms
is "seqring.ko seqring_timerlat.ko sequence.ko" \
	"$(cd "$mods" 2>/dev/null && ls seqring.ko* seqring_timerlat.ko* sequence.ko* 2>/dev/null | sed 's/\.ko.*/.ko/' | LC_ALL=C sort | words)" \
	"the three modules are in /lib/modules/$kver/updates/dkms"
is "$version" "$(modinfo -F version "$mods"/seqring.ko* 2>/dev/null)" \
	"the DKMS-built seqring.ko has version $version"
like "$(tests/roots/inroot.sh "$root" getent group seqring)" '^seqring:' \
	"group seqring exists (sysusers.d)"

# --- a driver built against the package -------------------------------------------
symvers=/var/lib/dkms/seqring/$version/$kver/$(uname -m)/Module.symvers
is "seqring_create seqring_destroy seqring_push" \
	"$(awk '{ print $2 }' "$root$symvers" 2>/dev/null | grep '^seqring_' | LC_ALL=C sort | words)" \
	"DKMS kept the build's Module.symvers, with the kernel API, in ${symvers%/*}"
rm -rf "$root/tmp/extmod"
cp -r tests/extmod "$root/tmp/extmod"
inroot_ok "tests/extmod builds against /usr/src/seqring-$version/include and that Module.symvers" \
	make -C /tmp/extmod KDIR="/lib/modules/$kver/build" \
	SEQRING="/usr/src/seqring-$version" SYMVERS="$symvers"
cp "$T/in.log" "$out/extmod.log"

# --- the check tier on what the packages installed ----------------------------
mkdir -p "$out/ko"
cp "$root/tmp/extmod/seqring_extmod.ko" "$out/ko/" 2>/dev/null
for m in seqring sequence seqring_timerlat; do
	f=$(ls "$mods/$m".ko* 2>/dev/null | head -n 1)
	case $f in
	*.ko.xz) xz -dc "$f" >"$out/ko/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" >"$out/ko/$m.ko" ;;
	*) cp "$f" "$out/ko/$m.ko" 2>/dev/null ;;
	esac
done
SEQRING_KO_DIR=$out/ko SEQRINGCTL=$root/usr/bin/seqringctl \
	SEQRING_RULES=$root/usr/lib/udev/rules.d/60-seqring.rules \
	SEQRING_PYTHON=$root/usr/lib/python3/dist-packages \
	VM_FILTER=${PKG_VM_FILTER:-} tests/vm/run.sh check >"$out/check.log" 2>&1
rc=$?
summary=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$out/check.log" | tail -n 1)
if [ "$rc" -eq 0 ] && [ -n "$summary" ]; then
	ok "the check tier on the DKMS-built modules and tests/extmod's with the packaged tool, rule and Python module ($summary)"
else
	not_ok "the check tier on the DKMS-built modules and tests/extmod's with the packaged tool, rule and Python module" \
		"exit status $rc, ${summary:-no summary} (log: $out/check.log)" \
		"$(grep -a '^not ok' "$out/check.log" | head -n 20)"
fi

# --- reinstall after an interrupted and after a failed install ---------------
# An install killed while DKMS builds leaves the package half-configured
# and the DKMS tree with the version added: the classic "DKMS tree
# already contains" state.
tests/roots/inroot.sh "$root" dpkg -i "/tmp/debs/$dkms_deb" </dev/null \
	>"$out/killed.log" 2>&1 &
inst=$!
killed=no
for _ in $(seq 1200); do
	if [ -n "$(find "$root/var/lib/dkms/seqring/$version/build" -name '*.o' 2>/dev/null | head -n 1)" ]; then
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] &&
				kill -9 "${p#/proc/}" 2>/dev/null
		done
		killed=yes
		break
	fi
	kill -0 "$inst" 2>/dev/null || break
	sleep 0.05
done
wait "$inst"
if [ "$killed" = yes ]; then
	ok "a reinstall killed while DKMS compiles"
else
	not_ok "a reinstall killed while DKMS compiles" "the build was never seen running" \
		"$(tail -n 20 "$out/killed.log")"
fi
inroot_ok "dpkg -i of the same version after it" dpkg -i "/tmp/debs/$dkms_deb"
cp "$T/in.log" "$out/after-killed.log"
is installed "$(dkms_state "$kver")" "... and seqring is installed for $kver again"

# A build that fails (the kernel's build tree is broken), then is fixed.
mk=$root/usr/src/linux-headers-$kver/Makefile
mv "$mk" "$mk.away"
inroot dpkg -i "/tmp/debs/$dkms_deb"
rc=$?
cp "$T/in.log" "$out/failed.log"
diag "dpkg -i with a broken kernel build tree exited with status $rc (log: $out/failed.log)"
isnt installed "$(dkms_state "$kver")" "a DKMS build that fails does not leave seqring installed"
mv "$mk.away" "$mk"
inroot_ok "dpkg -i of the same version once the build tree is fixed" \
	sh -c "dpkg --configure -a && dpkg -i /tmp/debs/$dkms_deb"
cp "$T/in.log" "$out/after-failed.log"
is installed "$(dkms_state "$kver")" "... and seqring is installed for $kver again"

# --- a second kernel -------------------------------------------------------------
inroot_ok "apt-get install -t bookworm-backports linux-headers-amd64" \
	apt-get install -y -t bookworm-backports linux-headers-amd64
cp "$T/in.log" "$out/second-kernel.log"
kver2=$(cd "$root/usr/src" && ls -d linux-headers-*-amd64 2>/dev/null |
	sed 's/^linux-headers-//' | grep -vx "$kver" | sort -V | tail -n 1)
is installed "$(dkms_state "${kver2:-none}")" \
	"DKMS built seqring for the new kernel (${kver2:-none}) when its headers came"

# --- remove --------------------------------------------------------------------------
inroot_ok "apt-get purge seqring-dkms seqring-tools seqring-dev libseqring1 python3-seqring" \
	apt-get purge -y seqring-dkms seqring-tools seqring-dev libseqring1 python3-seqring
left=$(cd "$root" && find lib/modules usr/src var/lib/dkms usr/lib/udev/rules.d \
	etc/udev/rules.d etc/modprobe.d etc/modules-load.d usr/bin usr/share/man \
	lib/systemd/system \
	usr/include usr/lib/sysusers.d usr/share/pkgconfig usr/lib/python3 \
	"usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)" \
	\( -iname '*seqring*' -o -name 'sequence.ko*' \) 2>/dev/null)
is "" "$left" "nothing of seqring is left after the purge"
is "" "$(tests/roots/inroot.sh "$root" dkms status 2>/dev/null | grep seqring)" \
	"dkms status no longer lists seqring"

done_testing
