#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 10-version.sh - one version, from VERSION, everywhere; dkms.conf as the
# issue asks. Needs the modules and the tool built (make all).

. "$SEQRING_TESTS/lib.sh"

plan 18

version=$(cat VERSION)
like "$version" '^[0-9]+\.[0-9]+\.[0-9]+$' "VERSION holds one version: $version"
is "$version $version $version" \
	"$(for m in seqring.ko sequence.ko samples/seqring_timerlat.ko; do modinfo -F version $m; done | words)" \
	"modinfo seqring.ko, sequence.ko and samples/seqring_timerlat.ko show it"
is "seqringctl $version" "$(tools/seqringctl --version)" \
	"seqringctl --version shows it"
is "$version" "$(dpkg-parsechangelog -SVersion)" \
	"debian/changelog has it"
is "$version" "$(sed -n 's/^version = "\(.*\)"$/\1/p' python/pyproject.toml)" \
	"python/pyproject.toml has it (python3-seqring's version)"

# The tree's dkms.conf leaves the version to who installs it (dh_dkms -V,
# make install-dkms), as Debian's DKMS packages do.
is '#MODULE_VERSION#' "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)" \
	"dkms.conf: PACKAGE_VERSION=\"#MODULE_VERSION#\""
make -s install-dkms DESTDIR="$T/dkms" >/dev/null
src=$T/dkms/usr/src/seqring-$version

# conf KERNELVER EXPR: EXPR after sourcing the installed dkms.conf as dkms
# does: with bash, from another directory, with the variables dkms sets.
conf() {
	(cd / && kernelver=$1 kernel_source_dir=/lib/modules/$1/build \
		dkms_tree=/var/lib/dkms arch=x86_64 \
		bash -c '. "$0"; eval "echo \"$1\""' "$src/dkms.conf" "$2")
}
is "seqring $version" "$(conf 6.1.0-1-amd64 '$PACKAGE_NAME $PACKAGE_VERSION')" \
	"installed dkms.conf: PACKAGE_NAME seqring, PACKAGE_VERSION from VERSION"
is "$(cat KERNEL_MIN)" "$(conf 6.1.0-1-amd64 '$BUILD_EXCLUSIVE_KERNEL_MIN')" \
	"dkms.conf: BUILD_EXCLUSIVE_KERNEL_MIN from KERNEL_MIN"
is "seqring sequence seqring_timerlat samples/ /updates/dkms /updates/dkms /updates/dkms yes" \
	"$(conf 6.1.0-1-amd64 '${BUILT_MODULE_NAME[*]} ${BUILT_MODULE_LOCATION[2]} ${DEST_MODULE_LOCATION[*]} $AUTOINSTALL')" \
	"dkms.conf: the three modules (the sample from samples/), to updates/dkms, AUTOINSTALL"

is "dkms-postbuild.sh /var/lib/dkms/seqring/$version/6.1.0-1-amd64/x86_64" \
	"$(conf 6.1.0-1-amd64 '$POST_BUILD')" \
	"dkms.conf: POST_BUILD keeps Module.symvers beside each kernel's modules"

# For dkms < 3.1 the same bound is a BUILD_EXCLUSIVE_KERNEL expression:
# "excluded" when the kernel version does not match it.
excluded() {
	conf "$1" '$BUILD_EXCLUSIVE_KERNEL' | {
		read -r re
		if [ -n "$re" ] && ! [[ $1 =~ $re ]]; then
			echo excluded
		else
			echo built
		fi
	}
}
is "built built built built" \
	"$(for k in "$(cat KERNEL_MIN).0" 6.1.0-57-amd64 6.12.57+deb12-amd64 \
		10.0.0; do excluded $k; done | words)" \
	"BUILD_EXCLUSIVE_KERNEL lets KERNEL_MIN and newer build"
is "excluded excluded" \
	"$(for k in 5.4.0-1-amd64 4.19.0-27-amd64; do excluded $k; done | words)" \
	"... and excludes older kernels (5.4, 4.19)"

# BUILD_EXCLUSIVE_ARCH: dkms builds for a machine that matches it.
arch_excluded() {
	local re
	re=$(conf 6.1.0-1-amd64 '$BUILD_EXCLUSIVE_ARCH')
	if [ -n "$re" ] && ! [[ $1 =~ $re ]]; then
		echo excluded
	else
		echo built
	fi
}
is "built built built built" \
	"$(for a in x86_64 aarch64 ppc64le riscv64; do arch_excluded $a; done | words)" \
	"BUILD_EXCLUSIVE_ARCH lets 64-bit machines build (x86_64 aarch64 ppc64le riscv64)"
is "excluded excluded excluded excluded" \
	"$(for a in i686 i386 armv7l armv6l; do arch_excluded $a; done | words)" \
	"... and excludes 32-bit ones (i686 i386 armv7l armv6l)"

is "" "$(grep -n 'uname' dkms.conf Kbuild)" "no uname in dkms.conf or Kbuild"
is "" "$(grep -nE '^[[:space:]]*CLEAN=' dkms.conf)" "no deprecated CLEAN in dkms.conf"
like "$(conf 6.1.0-1-amd64 '${MAKE[0]}')" \
	'^make -C /lib/modules/6\.1\.0-1-amd64/build M=/var/lib/dkms/seqring/[0-9.]+/build modules && \./module-btf\.sh /lib/modules/6\.1\.0-1-amd64/build 6\.1\.0-1-amd64 seqring\.ko$' \
	"MAKE[0] builds with kbuild in dkms's build directory, then the module's BTF where kbuild made none"
is "" "$(grep -rn 'MODULE_VERSION("' driver/)" \
	"MODULE_VERSION takes SEQRING_VERSION, not a literal"

done_testing
