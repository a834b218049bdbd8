#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# packages.sh ARCH SUITE HEADERS VERSION OUT - the Debian packages on
# another CPU, as a user of that CPU builds and installs them (TAP; run by
# tests/arch/check-arch.sh for the "packages" lines of arches.list)
#
#   ARCH     Debian architecture (arm64)
#   SUITE    Debian suite of the root (bookworm)
#   HEADERS  the kernel's headers package (linux-headers-6.1.0-57-arm64)
#   VERSION  its version (6.1.192-3)
#   OUT      directory for the logs and for what the boot takes: ko/
#            (the DKMS-built modules), seqringctl and 60-seqring.rules (as
#            the packages installed them)
#
# In a whole root of ARCH and SUITE (tests/roots/mkroot.sh, ROOT_EMULATED:
# every program in it runs under qemu-user through binfmt_misc,
# tests/arch/binfmt.sh) with build-essential, debian/control's
# Build-Depends (tests/packages/build-deps.sh) and HEADERS:
#   - `dpkg-buildpackage -b` of the tree builds seqring-tools for ARCH
#     (its seqringctl an ARCH program) and the two Architecture: all
#     packages, natively, as `make deb` would on such a machine (lintian
#     is `make deb`'s, on amd64: it does not depend on the CPU);
#   - `apt-get install` of the three pulls in dkms, and DKMS builds the
#     modules for HEADERS' kernel: `dkms status`, the files, their
#     vermagic and ELF machine, their version;
#   - the packaged seqringctl runs, group seqring exists;
#   - `apt-get purge` leaves nothing of seqring.
# The check tier on what was installed is the caller's (it has the image).
# Needs root, qemu-user-static and binfmt-support (tests/vm/deps.sh; `make
# check-arch` installs them) and the network or a warm cache.

. "$SEQRING_TESTS/lib.sh"

[ $# -eq 5 ] || { echo "usage: $0 ARCH SUITE HEADERS VERSION OUT" >&2; exit 2; }
arch=$1 suite=$2 hdr=$3 hver=$4 out=$5
kver=${hdr#linux-headers-}
version=$(cat VERSION)
mkdir -p "$out"

plan 15

if ! tests/arch/binfmt.sh "$arch" >"$out/binfmt.log" 2>&1; then
	not_ok "qemu-user runs $arch programs (binfmt_misc)" "$(cat "$out/binfmt.log")"
	fail_rest "$arch programs cannot run here"
fi
ok "qemu-user runs $arch programs ($(tail -n 1 "$out/binfmt.log"))"

root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-pkgarch.XXXXXX") || exit 1
rmdir "$root"
trap 'tests/roots/rmroot.sh "$root"; _tap_cleanup' EXIT

# inroot_ok DESC CMD...: a test that CMD succeeds in the root; its output
# in $T/in.log.
inroot_ok() {
	local desc=$1
	shift
	if tests/roots/inroot.sh "$root" env DEBIAN_FRONTEND=noninteractive "$@" \
		</dev/null >"$T/in.log" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "expected exit status 0 from '$*' in the root, got $?" \
			"$(tail -n 30 "$T/in.log")"
	fi
}

mapfile -t bdeps < <(tests/packages/build-deps.sh)
t0=$(date +%s)
if ROOT_ARCH=$arch ROOT_EMULATED=1 tests/roots/mkroot.sh "$suite" "$root" \
	build-essential "${bdeps[@]}" "$hdr=$hver" \
	>"$out/mkroot.log" 2>&1; then
	ok "a $suite root of $arch with $hdr, emulated ($(($(date +%s) - t0)) s)"
else
	not_ok "a $suite root of $arch with $hdr, emulated" "$(tail -n 20 "$out/mkroot.log")"
	fail_rest "no root"
fi
is "$arch" "$(tests/roots/inroot.sh "$root" dpkg --print-architecture 2>&1)" \
	"dpkg in the root is $arch's"

# --- build --------------------------------------------------------------------
# The tree's files as `make deb` copies them: tracked and new, not ignored.
src=/build/seqring-$version
mkdir -p "$root$src"
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -C "$root$src" -xf -
t0=$(date +%s)
inroot_ok "dpkg-buildpackage -b on $arch ($version)" \
	sh -c "cd $src && dpkg-buildpackage -us -uc -b"
cp "$T/in.log" "$out/build.log"
diag "built in $(($(date +%s) - t0)) s (log: $out/build.log)"
debs="seqring-tools_${version}_$arch.deb seqring-dkms_${version}_all.deb seqring-dev_${version}_$arch.deb libseqring1_${version}_$arch.deb seqring-examples_${version}_$arch.deb"
got=
for d in $debs; do
	[ -f "$root/build/$d" ] && got="$got $d"
done
is " $debs" "$got" "the packages are seqring-tools, seqring-dev, libseqring1 and seqring-examples for $arch, and seqring-dkms"
tools_deb=$root/build/seqring-tools_${version}_$arch.deb
dpkg-deb --fsys-tarfile "$tools_deb" 2>/dev/null | tar -xOf - ./usr/bin/seqringctl >"$T/ctl" 2>/dev/null
machine=$(readelf -h "$T/ctl" 2>/dev/null | sed -n 's/^ *Machine: *//p')
case $arch in
arm64) want=AArch64 ;;
*) want=$arch ;;
esac
is "$arch $want" "$(dpkg-deb -f "$tools_deb" Architecture 2>/dev/null) $machine" \
	"seqring-tools is Architecture: $arch, its seqringctl a $want program"

# --- install ------------------------------------------------------------------
t0=$(date +%s)
inroot_ok "apt-get install of the three packages (pulls dkms; DKMS builds for $kver)" \
	sh -c "cd /build && apt-get install -y ./${debs// / ./}"
cp "$T/in.log" "$out/install.log"
diag "installed in $(($(date +%s) - t0)) s (log: $out/install.log)"
is installed \
	"$(tests/roots/inroot.sh "$root" dkms status -m seqring -v "$version" -k "$kver" 2>/dev/null |
		sed -n "s/^seqring\/$version, $kver, [^:]*: \(.*\)$/\1/p")" \
	"dkms status: seqring/$version installed for $kver"
mods=$root/lib/modules/$kver/updates/dkms
mkdir -p "$out/ko"
rm -f "$out"/ko/*.ko
for m in seqring sequence seqring_timerlat; do
	f=$(ls "$mods/$m".ko* 2>/dev/null | head -n 1)
	case $f in
	"") ;;
	*.ko.xz) xz -dc "$f" >"$out/ko/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" >"$out/ko/$m.ko" ;;
	*) cp "$f" "$out/ko/$m.ko" ;;
	esac
done
is "seqring.ko seqring_timerlat.ko sequence.ko" \
	"$(cd "$out/ko" && ls seqring.ko seqring_timerlat.ko sequence.ko 2>/dev/null | words)" \
	"the three modules (the sample too) are in /lib/modules/$kver/updates/dkms"
like "$(modinfo -F vermagic "$out/ko/seqring.ko" 2>&1) / $(readelf -h "$out/ko/seqring.ko" 2>&1 |
	sed -n 's/^ *Machine: *//p')" "^$kver .* / $want\$" \
	"seqring.ko is built for $kver, a $want module"
is "$version" "$(modinfo -F version "$out/ko/seqring.ko" 2>/dev/null)" \
	"the DKMS-built seqring.ko has version $version"
is "seqringctl $version" "$(tests/roots/inroot.sh "$root" seqringctl --version 2>&1)" \
	"the packaged seqringctl runs: --version"
like "$(tests/roots/inroot.sh "$root" getent group seqring)" '^seqring:' \
	"group seqring exists (sysusers.d)"
cp "$root/usr/bin/seqringctl" "$out/seqringctl"
cp "$root/usr/lib/udev/rules.d/60-seqring.rules" "$out/60-seqring.rules"

# --- remove -------------------------------------------------------------------
# Every package installed above: seqring-examples' man pages too.
purge=()
for d in $debs; do
	purge+=("${d%%_*}")
done
inroot_ok "apt-get purge ${purge[*]}" apt-get purge -y "${purge[@]}"
cp "$T/in.log" "$out/purge.log"
left=$(cd "$root" && find lib/modules usr/src var/lib/dkms usr/lib/udev/rules.d \
	etc/modprobe.d etc/modules-load.d usr/bin usr/share/man lib/systemd/system \
	usr/include/linux usr/lib/sysusers.d usr/share/pkgconfig \
	\( -iname '*seqring*' -o -name 'sequence.ko*' \) 2>/dev/null)
is "" "$left" "nothing of seqring is left after the purge"

done_testing
