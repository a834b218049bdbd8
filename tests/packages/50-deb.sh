#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 50-deb.sh - make deb builds the two packages into build/deb/, lintian
# finds nothing (no error, no warning, and no info or pedantic tag either,
# or only overridden ones), and each package holds exactly its files.
# The later scripts install these packages.

. "$SEQRING_TESTS/lib.sh"

plan 8

version=$(cat VERSION)
arch=$(dpkg --print-architecture)
out=build/deb

make deb >"$T/deb.log" 2>&1
rc=$?
is 0 "$rc" "make deb" || diag "$(tail -n 30 "$T/deb.log")"
is "seqring-dkms_${version}_all.deb seqring-tools_${version}_$arch.deb" \
	"$(cd $out 2>/dev/null && ls ./*.deb | sed 's|^\./||' | words)" \
	"build/deb/ has seqring-dkms_${version}_all.deb and seqring-tools_${version}_$arch.deb"

tags=$(lintian --pedantic --display-info --tag-display-limit 0 \
	"$out/seqring_${version}_$arch.changes" 2>&1 | grep -v 'running with root privileges')
is "" "$tags" "lintian --pedantic -I: no tag at all"

# contents PKG: "MODE PATH" of every file, without the docs dpkg adds.
contents() {
	dpkg-deb --fsys-tarfile "$out/$1" | tar -tv |
		awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $1, $6 }' |
		grep -v ' usr/share/doc/' | LC_ALL=C sort -k 2
}
src=usr/src/seqring-$version
expected=$( (printf '%s\n' dkms.conf Kbuild VERSION KERNEL_MIN \
	include/uapi/linux/seqring.h; ls driver/*.[ch]) |
	sed "s|^|-rw-r--r-- $src/|" | LC_ALL=C sort -k 2)
is "$expected" "$(contents seqring-dkms_${version}_all.deb)" \
	"seqring-dkms: the DKMS sources in /usr/src/seqring-$version"

expected="-rw-r--r-- etc/modprobe.d/seqring.conf
-rw-r--r-- etc/modules-load.d/seqring.conf
-rw-r--r-- lib/systemd/system/seqring-journal.service
-rw-r--r-- lib/systemd/system/seqring-metrics.service
-rw-r--r-- lib/systemd/system/seqring-metrics.timer
-rw-r--r-- usr/include/linux/seqring.h
-rw-r--r-- usr/lib/sysusers.d/seqring.conf
-rw-r--r-- usr/lib/udev/rules.d/60-seqring.rules
-rwxr-xr-x usr/bin/seqringctl
-rw-r--r-- usr/share/bash-completion/completions/seqringctl
-rw-r--r-- usr/share/man/man1/seqringctl.1.gz
-rw-r--r-- usr/share/man/man4/seqring.4.gz"
is "$expected" "$(contents seqring-tools_${version}_$arch.deb)" \
	"seqring-tools: tool, man pages, rule, sysusers.d, header, examples, completion"

field() {
	dpkg-deb -f "$out/$1" "$2"
}
like "$(field seqring-dkms_${version}_all.deb Depends)" '(^|, )dkms( |,|$)' \
	"seqring-dkms depends on dkms"
like "$(field seqring-tools_${version}_$arch.deb Depends)" \
	'systemd \| systemd-standalone-sysusers' \
	"seqring-tools depends on a systemd-sysusers (for group seqring)"
is "$version $version" \
	"$(field seqring-dkms_${version}_all.deb Version) $(field seqring-tools_${version}_$arch.deb Version)" \
	"both packages have VERSION"

done_testing
