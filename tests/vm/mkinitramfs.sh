#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT MODE
#
# Build the test VM's root filesystem: a gzip'd newc cpio archive that the
# kernel unpacks into its initial rootfs and runs /init from. The tree is
# staged in build/vm/initramfs-MODE/ (wiped every time) and packed into OUT.
#
# Guest layout (see also tests/vm/init and tests/vm/guest-run.sh):
#   /bin/busybox + a symlink per applet     (/bin/sh is busybox ash)
#   /bin/kmod + insmod rmmod lsmod modprobe modinfo depmod symlinks
#   /usr/bin/udevadm, /lib/systemd/systemd-udevd (symlink: udevadm is a
#       multi-call binary) and every library ldd lists for them and kmod
#   /etc/udev/rules.d/60-seqring.rules
#   /etc/passwd /etc/group /etc/shadow /etc/nsswitch.conf
#   /modules/seqring.ko /modules/sequence.ko /modules/seqring_timerlat.ko
#   /modules/seqring_extmod.ko (tests/extmod, when built for that kernel)
#   /modules/seqring_kunit.ko, seqring_producer.ko, seqring_kbench.ko,
#       seqring_ramprobe.ko, seqring_nmi.ko, seqring_panicpush.ko (the test
#       modules, where they were built)
#   /usr/bin/seqringctl
#   /tests/lib.sh /tests/MODE/*.sh /tests/bin/<test programs>
#   the programs named in tests/MODE/binaries.txt, with their libraries
#   the directories named in tests/MODE/trees.txt (python3's library)
#   /tests/python/: python/tests/*.py and the module seqring (python/, or
#       SEQRING_PYTHON's)
#   /tests/units/: the systemd units of systemd/ (as in the tree, @BINDIR@)
#   /tests/run (guest runner) /tests/demo.sh /init
#
# Required inputs: the three modules, the tool and the udev rule; a missing
# one is an error. Optional: tests/lib.sh, tests/MODE/, tests/progs/
# programs, tests/extmod's module. For testing the harness itself the
# required inputs can be taken from elsewhere: SEQRING_KO_DIR (dir with the
# .ko files, default the repo root, where the sample is in samples/; and
# seqring_extmod.ko, else tests/extmod's when the default is used),
# SEQRINGCTL (default tools/seqringctl), SEQRING_RULES (default
# udev-rules/60-seqring.rules), and SEQRING_TIER_DIR replaces tests/MODE/.
#
# For another CPU than the host's (tests/arch/check-arch.sh):
#   GUEST_ROOT         a Debian root of the guest's architecture (mkroot.sh
#                      ROOT_ARCH=...) to take busybox, kmod, udevadm and
#                      their libraries from, instead of the host's /
#   SEQRING_PROGS_DIR  the test programs built for it (default tests/progs)
#   SEQRING_EARLY_MODULES  kernel modules (.ko files, in load order) that
#                      /init loads first, e.g. the virtio console the TAP
#                      stream goes to where the machine has one serial port

set -eu

usage() {
	echo "usage: $0 OUT MODE" >&2
	exit 2
}
[ $# -eq 2 ] || usage
out=$1
mode=$2
case $mode in
*[!a-z0-9_-]* | "") echo "mkinitramfs: bad mode '$mode'" >&2; exit 2 ;;
esac
case $out in /*) ;; *) out=$PWD/$out ;; esac

root=$(cd "$(dirname "$0")/../.." && pwd)
vm=$root/tests/vm
ko_dir=${SEQRING_KO_DIR:-$root}
ctl=${SEQRINGCTL:-$root/tools/seqringctl}
rules=${SEQRING_RULES:-$root/udev-rules/60-seqring.rules}
tier=${SEQRING_TIER_DIR:-$root/tests/$mode}

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

# --- required inputs --------------------------------------------------------
for f in "$ko_dir/seqring.ko" "$ko_dir/sequence.ko"; do
	[ -f "$f" ] || die "missing $f (run 'make modules')"
done
# The sample is in samples/ of a build tree, beside the others in a
# directory of modules (DKMS's, check-kernels').
timerlat_ko=$ko_dir/seqring_timerlat.ko
[ -f "$timerlat_ko" ] || timerlat_ko=$ko_dir/samples/seqring_timerlat.ko
[ -f "$timerlat_ko" ] || die "missing $ko_dir/seqring_timerlat.ko (run 'make modules')"
# The out-of-tree test module, only when it was built for the kernel of
# seqring.ko: tests/check/92-extmod.sh says when it is not there.
extmod_ko=$ko_dir/seqring_extmod.ko
[ -f "$extmod_ko" ] || [ -n "${SEQRING_KO_DIR:-}" ] ||
	extmod_ko=$root/tests/extmod/seqring_extmod.ko
if [ -f "$extmod_ko" ] && [ "$(modinfo -F vermagic "$extmod_ko")" != \
	"$(modinfo -F vermagic "$ko_dir/seqring.ko")" ]; then
	echo "mkinitramfs: $extmod_ko is built for another kernel than" \
	     "$ko_dir/seqring.ko; left out (run 'make extmod')" >&2
	extmod_ko=
fi
[ -x "$ctl" ] || die "missing $ctl (run 'make tool')"
[ -f "$rules" ] || die "missing udev rule $rules"
guest=${GUEST_ROOT:-}
progs=${SEQRING_PROGS_DIR:-$root/tests/progs}
if [ -n "$guest" ]; then
	guest=$(cd "$guest" && pwd) || die "no guest root $GUEST_ROOT"
	busybox=$guest/bin/busybox
	kmod=$guest/bin/kmod
	udevadm=$guest/bin/udevadm
	[ -e "$udevadm" ] || udevadm=$guest/usr/bin/udevadm
	for f in "$busybox" "$kmod" "$udevadm"; do
		[ -e "$f" ] || die "missing $f in the guest root"
	done
else
	busybox=/bin/busybox
	[ -x $busybox ] || die "missing $busybox (apt-get install busybox-static)"
	kmod=$(command -v kmod) || die "missing kmod (apt-get install kmod)"
	udevadm=$(command -v udevadm) || die "missing udevadm (apt-get install udev)"
fi

# --- staging tree -----------------------------------------------------------
stage=$root/build/vm/initramfs-$mode
rm -rf "$stage"
mkdir -p "$stage"
cd "$stage"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 lib/systemd lib/udev/rules.d \
	 etc/udev/rules.d proc sys dev tmp run root home var mnt \
	 modules tests/bin
ln -s ../run var/run

# busybox: relative symlinks for every applet, all in /bin. (Running
# `busybox --install -s` would point the links at the host's path of the
# binary, which is not the path inside the guest.)
cp "$busybox" bin/busybox
# A guest root's busybox cannot run here: its applets are taken to be those
# of the host's, the same Debian package for another CPU.
for applet in $(if [ -n "$guest" ]; then /bin/busybox --list; else bin/busybox --list; fi); do
	[ -e "bin/$applet" ] || ln -s busybox "bin/$applet"
done

# guest_libs FILE: the absolute paths (in the guest) of the dynamic loader
# and of every library FILE needs, recursively, found in the guest root by
# their ELF headers (ldd cannot run another CPU's loader): in the
# directories FILE's RUNPATH names (systemd's programs find
# libsystemd-shared there), then in the multiarch and plain lib dirs.
guest_libs() {
	local todo=$1 seen=" " f l c rp
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo=$*
		rp=$(readelf -dW "$f" 2>/dev/null |
			sed -n 's/.*(R.*PATH).*\[\(.*\)\]/\1/p' | tr ':' ' ')
		for l in $(readelf -lW "$f" 2>/dev/null |
			sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p') \
			$(readelf -dW "$f" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $l in
			/*) ;;
			*)
				for c in $(for d in $rp; do echo "$guest$d/$l"; done) \
					 "$guest"/lib/*-linux-gnu/"$l" \
					 "$guest"/usr/lib/*-linux-gnu/"$l" \
					 "$guest/lib/$l" "$guest/usr/lib/$l"; do
					[ -e "$c" ] && { l=${c#"$guest"}; break; }
				done
				;;
			esac
			case $seen in *" $l "*) continue ;; esac
			seen="$seen$l "
			echo "$l"
			todo="$todo $guest$l"
		done
	done
}

# Copy a dynamically linked program plus the libraries ldd lists for it
# (including the dynamic loader) to the same paths in the guest.
copy_with_libs() {
	src=$1
	dst=$2
	cp -L "$src" ".$dst"
	if [ -n "$guest" ]; then
		for lib in $(guest_libs "$src"); do
			[ -e ".$lib" ] && continue
			mkdir -p ".$(dirname "$lib")"
			# Its symlinks are relative: they resolve inside the root.
			cp -L "$guest$lib" ".$lib"
		done
		return 0
	fi
	ldd "$src" | while read -r a b c _; do
		# "libx.so => /lib/.../libx.so (0x..)" or "/lib64/ld-linux... (0x..)"
		if [ "$b" = "=>" ] && [ "${c#/}" != "$c" ]; then
			lib=$c
		elif [ "${a#/}" != "$a" ]; then
			lib=$a
		else
			continue # linux-vdso.so.1 and the like
		fi
		if [ ! -e ".$lib" ]; then
			mkdir -p ".$(dirname "$lib")"
			cp -L "$lib" ".$lib"
		fi
	done
}

# kmod: the real module tools (busybox's insmod/rmmod differ in details).
# They replace the busybox links of the same names. Note that busybox ash
# still runs its own applet for a bare "insmod" in a script (it prefers
# applets to PATH); kmod's are reached as /bin/insmod, /bin/rmmod, ...
copy_with_libs "$kmod" /bin/kmod
for t in insmod rmmod lsmod modprobe modinfo depmod; do
	ln -sf kmod "bin/$t"
done

# udev: systemd-udevd is udevadm invoked under another name.
copy_with_libs "$udevadm" /usr/bin/udevadm
ln -s ../../usr/bin/udevadm lib/systemd/systemd-udevd
cp "$rules" etc/udev/rules.d/60-seqring.rules
# Log to the kernel log (ttyS0) at info level so rule problems are visible.
printf 'udev_log=info\n' >etc/udev/udev.conf

# Users and groups the tests rely on. glibc (used by udevd to resolve
# GROUP="seqring") reads these through nsswitch "files".
cat >etc/passwd <<'EOF'
root:x:0:0:root:/root:/bin/sh
tester:x:1000:1000:tester:/home/tester:/bin/sh
member:x:1001:1001:member:/home/member:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >etc/group <<'EOF'
root:x:0:
tester:x:1000:
member:x:1001:
seqring:x:990:member
nogroup:x:65534:
EOF
cat >etc/shadow <<'EOF'
root:*:1::::::
tester:*:1::::::
member:*:1::::::
nobody:*:1::::::
EOF
chmod 600 etc/shadow
cat >etc/nsswitch.conf <<'EOF'
passwd: files
group: files
shadow: files
hosts: files
EOF
printf 'seqring-vm\n' >etc/hostname
printf '127.0.0.1 localhost seqring-vm\n' >etc/hosts
: >etc/fstab
# The mode baked into this image; the kernel command line can override it.
printf '%s\n' "$mode" >etc/seqring-vm.mode

# The kernel opens /dev/console for init before /init mounts devtmpfs;
# creating the node needs root (the harness runs as root; /init copes
# without it).
if [ "$(id -u)" -eq 0 ]; then
	mknod -m 600 dev/console c 5 1
	mknod -m 666 dev/null c 1 3
fi

# --- the project's pieces ---------------------------------------------------
cp "$ko_dir/seqring.ko" "$ko_dir/sequence.ko" "$timerlat_ko" modules/
[ -f "$extmod_ko" ] && cp "$extmod_ko" modules/
# KUnit tests of the ring: built only against a kernel with CONFIG_KUNIT.
# The test modules of the kernel API (tests/kmod/): built where tests/ is.
for m in seqring_kunit seqring_producer seqring_kbench seqring_ramprobe seqring_nmi \
	seqring_panicpush; do
	if [ -f "$ko_dir/$m.ko" ]; then cp "$ko_dir/$m.ko" modules/; fi
done
# The tree's tool is static; a packaged one (SEQRINGCTL) is dynamically
# linked and brings its libraries.
copy_with_libs "$ctl" /usr/bin/seqringctl 2>/dev/null

cp "$vm/init" init
cp "$vm/guest-run.sh" tests/run
cp "$vm/demo.sh" tests/demo.sh
cp "$vm/expected-warnings" tests/expected-warnings
[ -f "$root/tests/lib.sh" ] && cp "$root/tests/lib.sh" tests/lib.sh

# The tier's scripts: tests/check/*.sh for MODE check, tests/stress/*.sh for
# MODE stress, ... A missing tier is reported by the guest runner, not here.
if [ -d "$tier" ]; then
	mkdir -p "tests/$mode"
	for s in "$tier"/*.sh; do
		[ -f "$s" ] && cp "$s" "tests/$mode/"
	done
fi

# Extra host programs a tier needs (e.g. stress-ng and trinity for MODE
# stress): tests/MODE/binaries.txt names one program per line (a path or a
# name looked up in PATH; "#" starts a comment). Each is copied to the same
# path in the guest with the libraries ldd lists; a missing one is an error
# (tests/vm/deps.sh installs them). With GUEST_ROOT, the guest's CPU is
# another: the program and its libraries come from that root (its maker,
# tests/arch/check-arch.sh, unpacks the packages that hold them there).
if [ -f "$tier/binaries.txt" ]; then
	sed 's/#.*//' "$tier/binaries.txt" | while read -r prog _; do
		[ -n "$prog" ] || continue
		if [ -n "$guest" ]; then
			path=
			case $prog in
			/*) [ -e "$guest$prog" ] && path=$prog ;;
			*)
				for d in /usr/bin /bin /usr/sbin /sbin; do
					[ -e "$guest$d/$prog" ] && { path=$d/$prog; break; }
				done
				;;
			esac
			[ -n "$path" ] ||
				die "missing $prog listed in $tier/binaries.txt in the guest root $guest"
			mkdir -p ".$(dirname "$path")"
			copy_with_libs "$guest$path" "$path"
			continue
		fi
		path=$(command -v "$prog") ||
			die "missing $prog listed in $tier/binaries.txt (run 'make deps')"
		mkdir -p ".$(dirname "$path")"
		copy_with_libs "$path" "$path"
	done
fi

# Directory trees a tier needs whole (python3's standard library and
# pytest for the check tier's Python tests): tests/MODE/trees.txt names
# one directory per line, then names (of files or directories anywhere
# below it) to leave out; or a single file. Each is copied to the same path in the guest
# (from GUEST_ROOT with one), and every shared object in it (a Python
# extension module) brings the libraries it needs.
if [ -f "$tier/trees.txt" ]; then
	sed 's/#.*//' "$tier/trees.txt" | while read -r dir excludes; do
		[ -n "$dir" ] || continue
		if [ -f "$guest$dir" ]; then
			mkdir -p ".$(dirname "$dir")"
			cp "$guest$dir" ".$dir"
			continue
		fi
		[ -d "$guest$dir" ] ||
			die "missing directory $dir listed in $tier/trees.txt (run 'make deps')"
		set --
		for x in $excludes; do
			set -- "$@" "--exclude=$x"
		done
		mkdir -p ".$dir"
		tar -C "$guest$dir" "$@" -cf - . | tar -C ".$dir" -xf -
		find ".$dir" -name '*.so*' -type f | while read -r so; do
			for lib in $(if [ -n "$guest" ]; then guest_libs "$guest${so#.}"; else
				ldd "$so" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'; fi); do
				[ -e ".$lib" ] && continue
				mkdir -p ".$(dirname "$lib")"
				cp -L "$guest$lib" ".$lib"
			done
		done
	done
fi

# Python tests (python/tests/), run by a tier's script with pytest: with
# the module of the source tree, or SEQRING_PYTHON (a directory holding
# the package seqring, such as a root's /usr/lib/python3/dist-packages).
if [ -d "$root/python/tests" ]; then
	mkdir -p tests/python
	cp "$root"/python/tests/*.py tests/python/
	cp -r "${SEQRING_PYTHON:-$root/python}/seqring" tests/python/seqring
	rm -rf tests/python/seqring/__pycache__
fi

# The systemd units, for a tier that runs what they run (tests/fleet).
mkdir -p tests/units
cp "$root"/systemd/*.service.in "$root"/systemd/*.timer tests/units/

# Kernel modules /init loads before anything else, in this order.
if [ -n "${SEQRING_EARLY_MODULES:-}" ]; then
	mkdir -p lib/modules/early
	for m in $SEQRING_EARLY_MODULES; do
		cp "$m" lib/modules/early/
		echo "${m##*/}" >>lib/modules/early/order
	done
fi

# Test programs: every executable regular file in tests/progs/ (or
# SEQRING_PROGS_DIR).
if [ -d "$progs" ]; then
	for p in "$progs"/*; do
		if [ ! -f "$p" ] || [ ! -x "$p" ]; then
			continue
		fi
		cp "$p" tests/bin/
		# The guest has only the libraries copied above; a dynamically
		# linked program (notably a 32-bit one) will not run there.
		if head -c 4 "$p" | grep -q ELF && ldd "$p" >/dev/null 2>&1; then
			echo "mkinitramfs: warning: tests/progs/${p##*/} is" \
			     "dynamically linked; link it -static" >&2
		fi
	done
fi

# The userspace sample (samples/Makefile), run by the tests as the
# others; static like them. With SEQRING_PROGS_DIR (another CPU's
# programs) the caller puts the sample's build there, and this tree's,
# built for the host, would not run.
if [ -z "${SEQRING_PROGS_DIR:-}" ] && [ -x "$root/samples/mmap-consumer" ]; then
	cp "$root/samples/mmap-consumer" tests/bin/
fi
# The BPF sample (samples/bpf/, static), where the host could build it.
if [ -z "${SEQRING_PROGS_DIR:-}" ] && [ -x "$root/samples/bpf/seqring-wakeup" ]; then
	cp "$root/samples/bpf/seqring-wakeup" tests/bin/
fi

chmod 755 init tests/run tests/demo.sh usr/bin/seqringctl
[ -d "tests/$mode" ] && chmod 644 "tests/$mode"/* 2>/dev/null
[ -f tests/lib.sh ] && chmod 644 tests/lib.sh

# --- pack -------------------------------------------------------------------
# Sorted names and -R 0:0 make the archive independent of who built it and of
# directory order. (Files under build/ keep the builder's ownership; in the
# guest everything belongs to root.)
mkdir -p "$(dirname "$out")"
find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet | gzip -1n >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB, mode $mode)"
