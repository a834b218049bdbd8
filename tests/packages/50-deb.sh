#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 50-deb.sh - make deb builds the packages (and the debug symbols of
# seqring-tools and libseqring1) into build/deb/, lintian
# finds nothing (no error, no warning, and no info or pedantic tag either,
# or only overridden ones), and each package holds exactly its files.
# The later scripts install these packages.

. "$SEQRING_TESTS/lib.sh"

plan 16

version=$(cat VERSION)
arch=$(dpkg --print-architecture)
out=build/deb

make deb >"$T/deb.log" 2>&1
rc=$?
is 0 "$rc" "make deb" || diag "$(tail -n 30 "$T/deb.log")"
is "libseqring1-dbgsym_${version}_$arch.deb libseqring1_${version}_$arch.deb python3-seqring_${version}_all.deb seqring-dev_${version}_$arch.deb seqring-dkms_${version}_all.deb seqring-examples-dbgsym_${version}_$arch.deb seqring-examples_${version}_$arch.deb seqring-tools-dbgsym_${version}_$arch.deb seqring-tools_${version}_$arch.deb" \
	"$(cd $out 2>/dev/null && ls ./*.deb | sed 's|^\./||' | LC_ALL=C sort | words)" \
	"build/deb/ has libseqring1, python3-seqring, seqring-dev, seqring-dkms, seqring-examples, seqring-tools and debug symbols"

tags=$(lintian --pedantic --display-info --tag-display-limit 0 \
	"$out/seqring_${version}_$arch.changes" 2>&1 | grep -v 'running with root privileges')
is "" "$tags" "lintian --pedantic -I: no tag at all"

field() {
	dpkg-deb -f "$out/$1" "$2"
}

# contents PKG: "MODE PATH" of every file, without the docs dpkg adds.
contents() {
	dpkg-deb --fsys-tarfile "$out/$1" | tar -tv |
		awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $1, $6 }' |
		grep -v ' usr/share/doc/' | LC_ALL=C sort -k 2
}
src=usr/src/seqring-$version
expected=$( ( (printf '%s\n' etc/modprobe.d/seqring.conf etc/modules-load.d/seqring.conf
	dkms_sources | sed "s|^|$src/|") |
	sed "s|^|-rw-r--r-- |"; echo "-rwxr-xr-x $src/dkms-postbuild.sh"
	echo "-rwxr-xr-x $src/module-btf.sh") | LC_ALL=C sort -k 2)
is "$expected" "$(contents seqring-dkms_${version}_all.deb)" \
	"seqring-dkms: the DKMS sources in /usr/src/seqring-$version, the modprobe.d and modules-load.d examples"
is "$version" "$(dpkg-deb --fsys-tarfile "$out/seqring-dkms_${version}_all.deb" |
	tar -xO ./$src/dkms.conf | sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p')" \
	"... its dkms.conf with #MODULE_VERSION# filled in by dh_dkms"
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
is "-rw-r--r-- usr/include/libseqring.h
-rw-r--r-- usr/include/linux/seqring.h
-rw-r--r-- usr/include/seqring/seqring.bpf.h
-rw-r--r-- usr/lib/$ma/libseqring.a
lrwxrwxrwx usr/lib/$ma/libseqring.so
-rw-r--r-- usr/lib/$ma/pkgconfig/seqring.pc" "$(contents seqring-dev_${version}_$arch.deb)" \
	"seqring-dev: the headers (the BPF kfuncs' too), the library's link and archive, seqring.pc"
is "-rw-r--r-- usr/lib/$ma/libseqring.so.1 -rw-r--r-- usr/lib/$ma/libseqring.so.1.1.0" \
	"$(contents libseqring1_${version}_$arch.deb | sed 's/^l[^ ]*/-rw-r--r--/' | words)" \
	"libseqring1: the shared library and its soname link"

# pybuild's install, as pip's: the module and its .dist-info, no bytecode
# (dh_python3's postinst compiles it on the machine).
py=usr/lib/python3/dist-packages
is "-rw-r--r-- $py/seqring-$version.dist-info/METADATA
-rw-r--r-- $py/seqring-$version.dist-info/RECORD
-rw-r--r-- $py/seqring-$version.dist-info/WHEEL
-rw-r--r-- $py/seqring-$version.dist-info/top_level.txt
-rw-r--r-- $py/seqring/__init__.py" "$(contents python3-seqring_${version}_all.deb)" \
	"python3-seqring: the module seqring and its dist-info in $py"
like "$(field python3-seqring_${version}_all.deb Depends)" '(^|, )python3(:any)?( |,|$)' \
	"python3-seqring depends on python3 (dh_python3)"

expected="-rw-r--r-- lib/systemd/system/seqring-journal.service
-rw-r--r-- lib/systemd/system/seqring-journal@.service
-rw-r--r-- lib/systemd/system/seqring-metrics.service
-rw-r--r-- lib/systemd/system/seqring-metrics.timer
-rw-r--r-- lib/systemd/system/seqring-metrics@.service
-rw-r--r-- lib/systemd/system/seqring-metrics@.timer
-rwxr-xr-x usr/bin/seqringctl
-rw-r--r-- usr/lib/sysusers.d/seqring.conf
-rw-r--r-- usr/lib/udev/rules.d/60-seqring.rules
-rw-r--r-- usr/share/bash-completion/completions/seqringctl
-rw-r--r-- usr/share/lintian/overrides/seqring-tools
-rw-r--r-- usr/share/man/man1/seqringctl.1.gz
-rw-r--r-- usr/share/man/man4/seqring.4.gz"
is "$expected" "$(contents seqring-tools_${version}_$arch.deb)" \
	"seqring-tools: tool, man pages, rule, sysusers.d, units, completion"

# The examples' sources are in usr/share/doc/seqring-examples/examples.
ex=usr/share/doc/seqring-examples/examples/bpf
is "-rwxr-xr-x usr/sbin/seqring-wakeup
-rw-r--r-- $ex/Makefile
-rw-r--r-- $ex/seqring-wakeup.c
-rw-r--r-- $ex/wakeup.bpf.c
-rw-r--r-- usr/share/man/man8/seqring-wakeup.8.gz" \
	"$(dpkg-deb --fsys-tarfile "$out/seqring-examples_${version}_$arch.deb" | tar -tv |
		awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $1, $6 }' |
		grep -v ' usr/share/doc/seqring-examples/[^e]' | LC_ALL=C sort -k 2)" \
	"seqring-examples: seqring-wakeup, its man page, its sources (uncompressed) and Makefile"
like "$(field seqring-examples_${version}_$arch.deb Depends)" '(^|, )libbpf1( |,|$)' \
	"seqring-examples depends on libbpf1 (shlibs)"

like "$(field seqring-dkms_${version}_all.deb Depends)" '(^|, )dkms( |,|$)' \
	"seqring-dkms depends on dkms"
like "$(field seqring-dkms_${version}_all.deb Recommends)" \
	'linux-headers-amd64 \| linux-headers-arm64 \| linux-headers-generic \| linux-headers$' \
	"seqring-dkms recommends the kernel flavour's headers, as dkms does"
like "$(field seqring-tools_${version}_$arch.deb Depends)" \
	'systemd \| systemd-standalone-sysusers' \
	"seqring-tools depends on a systemd-sysusers (for group seqring)"
is "$version $version $version $version" \
	"$(field seqring-dkms_${version}_all.deb Version) $(field seqring-tools_${version}_$arch.deb Version) $(field seqring-dev_${version}_$arch.deb Version) $(field python3-seqring_${version}_all.deb Version)" \
	"the packages have VERSION"

done_testing
