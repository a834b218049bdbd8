#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 20-make-install.sh - make install / install-tools / install-dkms /
# uninstall with DESTDIR lay out exactly the tree README.md and
# doc/install.md document, and
# remove all of it. Needs the kernel headers (make deps) to build against.

. "$SEQRING_TESTS/lib.sh"

plan 18

version=$(cat VERSION)

# tree DIR: "MODE PATH" of every file and symlink under DIR, sorted.
tree() {
	(cd "$1" && find . \( -type f -o -type l \) -printf '%P %m\n' |
		LC_ALL=C sort | awk '{ print $2, $1 }')
}

# --- PREFIX=/usr/local (the default) ----------------------------------------
d=$T/local
check "make install DESTDIR=..." make -s install DESTDIR="$d"
check "make install-tools DESTDIR=..." make -s install-tools DESTDIR="$d"
kver=$(ls "$d/lib/modules" 2>/dev/null)
expected="644 etc/modprobe.d/seqring.conf
644 etc/modules-load.d/seqring.conf
644 etc/sysusers.d/seqring.conf
644 etc/udev/rules.d/60-seqring.rules
644 lib/modules/$kver/extra/samples/seqring_timerlat.ko
644 lib/modules/$kver/extra/seqring.ko
644 lib/modules/$kver/extra/sequence.ko
755 usr/local/bin/seqringctl
644 usr/local/include/libseqring.h
644 usr/local/include/linux/seqring.h
644 usr/local/include/seqring/seqring.bpf.h
644 usr/local/lib/libseqring.a
777 usr/local/lib/libseqring.so
777 usr/local/lib/libseqring.so.1
644 usr/local/lib/libseqring.so.1.1.0
644 usr/local/lib/pkgconfig/seqring.pc
644 usr/local/lib/systemd/system/seqring-journal.service
644 usr/local/lib/systemd/system/seqring-journal@.service
644 usr/local/lib/systemd/system/seqring-metrics.service
644 usr/local/lib/systemd/system/seqring-metrics.timer
644 usr/local/lib/systemd/system/seqring-metrics@.service
644 usr/local/lib/systemd/system/seqring-metrics@.timer
644 usr/local/share/bash-completion/completions/seqringctl
644 usr/local/share/man/man1/seqringctl.1
644 usr/local/share/man/man4/seqring.4"
is "$expected" "$(tree "$d")" "PREFIX=/usr/local: exactly the documented files and modes"
is "$version seqringctl $version" \
	"$(modinfo -F version "$d/lib/modules/$kver/extra/seqring.ko") $("$d/usr/local/bin/seqringctl" --version)" \
	"the installed module and tool have VERSION"
same_file udev-rules/60-seqring.rules "$d/etc/udev/rules.d/60-seqring.rules" \
	"the udev rule is the tree's"
is "g seqring -" "$(grep -v '^#' "$d/etc/sysusers.d/seqring.conf")" \
	"sysusers.d creates the system group seqring"
is "" "$(grep -hv '^#' "$d/etc/modprobe.d/seqring.conf" \
	"$d/etc/modules-load.d/seqring.conf" | grep -v '^$')" \
	"modprobe.d and modules-load.d examples are all comments"
# The header through pkg-config: a program builds with its flags alone.
pc="env PKG_CONFIG_PATH=$d/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d pkg-config"
is "$version -I$d/usr/local/include" "$($pc --modversion seqring) $($pc --cflags seqring | sed "s/ *$//")" \
	"pkg-config seqring: VERSION, and the header's directory"
printf '#include <linux/seqring.h>\nint main(void) { return SEQRING_IOC_PUSH == 0; }\n' >"$T/p.c"
# shellcheck disable=SC2046 # the flags are words
cc -nostdinc -isystem /usr/include -isystem /usr/lib/gcc/x86_64-linux-gnu/12/include \
	$($pc --cflags seqring) -o "$T/p" "$T/p.c" 2>"$T/cc.err"
is "0" "$?" "a program builds against the installed header with pkg-config's flags" ||
	diag "$(cat "$T/cc.err")"
check "make uninstall DESTDIR=..." make -s uninstall DESTDIR="$d"
is "" "$(tree "$d")" "... leaves no file behind"

# --- PREFIX=/usr (packages) --------------------------------------------------
d=$T/usr
make -s install-tools DESTDIR="$d" PREFIX=/usr >/dev/null
expected="644 etc/modprobe.d/seqring.conf
644 etc/modules-load.d/seqring.conf
644 lib/systemd/system/seqring-journal.service
644 lib/systemd/system/seqring-journal@.service
644 lib/systemd/system/seqring-metrics.service
644 lib/systemd/system/seqring-metrics.timer
644 lib/systemd/system/seqring-metrics@.service
644 lib/systemd/system/seqring-metrics@.timer
755 usr/bin/seqringctl
644 usr/include/libseqring.h
644 usr/include/linux/seqring.h
644 usr/include/seqring/seqring.bpf.h
644 usr/lib/libseqring.a
777 usr/lib/libseqring.so
777 usr/lib/libseqring.so.1
644 usr/lib/libseqring.so.1.1.0
644 usr/lib/pkgconfig/seqring.pc
644 usr/lib/sysusers.d/seqring.conf
644 usr/lib/udev/rules.d/60-seqring.rules
644 usr/share/bash-completion/completions/seqringctl
644 usr/share/man/man1/seqringctl.1
644 usr/share/man/man4/seqring.4"
is "$expected" "$(tree "$d")" \
	"PREFIX=/usr: udev rule and sysusers.d in /usr/lib, the rest as documented"
make -s uninstall DESTDIR="$d" PREFIX=/usr >/dev/null
is "" "$(tree "$d")" "make uninstall PREFIX=/usr leaves no file behind"

# --- the BPF sample ------------------------------------------------------------
# install-examples: the program, its man page and its sources, which a
# user builds against the header install-dev put beside them.
d=$T/examples
ex=usr/local/share/doc/seqring/examples/bpf
make -s install-dev install-examples DESTDIR="$d" >"$T/ex.log" 2>&1
is "755 usr/local/sbin/seqring-wakeup
644 $ex/Makefile
644 $ex/seqring-wakeup.c
644 $ex/wakeup.bpf.c
644 usr/local/share/man/man8/seqring-wakeup.8" "$(tree "$d" | grep -v ' usr/local/include/\| usr/local/lib/')" \
	"install-examples: seqring-wakeup in sbin, its man page, its sources in share/doc/seqring/examples" ||
	diag "$(tail -n 20 "$T/ex.log")"
cp -r "$d/$ex" "$T/ex-build"
make -C "$T/ex-build" SEQRING_BPF_INC="$d/usr/local/include/seqring/seqring.bpf.h" \
	CFLAGS="-O2 -Wall -Wextra -Werror" >"$T/ex-build.log" 2>&1
is "0 usage: seqring-wakeup [CAPACITY]" \
	"$? $("$T/ex-build/seqring-wakeup" --help 2>&1 | head -n 1)" \
	"the installed sources build against the installed seqring/seqring.bpf.h" ||
	diag "$(tail -n 20 "$T/ex-build.log")"
make -s uninstall DESTDIR="$d" >/dev/null
is "" "$(tree "$d")" "make uninstall removes them too"

# --- the DKMS sources ----------------------------------------------------------
d=$T/dkms
make -s install-dkms DESTDIR="$d" >/dev/null
src=usr/src/seqring-$version
expected=$( (dkms_sources | sed "s|^|644 $src/|"
	echo "755 $src/dkms-postbuild.sh"; echo "755 $src/module-btf.sh") | LC_ALL=C sort -k 2)
is "$expected" "$(tree "$d")" \
	"install-dkms: dkms.conf, dkms-postbuild.sh, module-btf.sh, Kbuild, VERSION, KERNEL_MIN, driver/, the module sample, both kernel headers"

# The DKMS sources alone build the modules, as dkms will build them, and
# leave the kernel API's symbols in Module.symvers for drivers built
# against them (README, "Kernel API").
kdir=/lib/modules/$kver/build
make -s -C "$kdir" M="$d/$src" modules >"$T/build.log" 2>&1
is "samples/seqring_timerlat.ko seqring.ko sequence.ko seqring_create seqring_destroy seqring_push" \
	"$(cd "$d/$src" && ls seqring.ko sequence.ko samples/seqring_timerlat.ko 2>&1 | words) $(awk '{ print $2 }' "$d/$src/Module.symvers" 2>/dev/null | grep '^seqring_' | LC_ALL=C sort | words)" \
	"the DKMS sources alone build the three modules against $kver, and export the kernel API" ||
	diag "$(tail -n 20 "$T/build.log")"

done_testing
