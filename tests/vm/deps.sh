#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [TARGET...] [PACKAGE...] - install the Debian packages a make
# target needs, and no more: each target that builds or boots something
# runs it first with its own name (make demo: deps.sh demo), so that
# `make demo` pulls in the compiler, the kernel and QEMU, not stress-ng or
# Prometheus, which only `make stress` and `make check-fleet` use.
# doc/testing.md lists the packages of each target with their sizes (the
# sizes are from `tests/vm/deps.sh --sizes`, on a fresh bookworm root).
#
# A TARGET is one of the sets below (several may be given; none is
# "base"); any other word is a package (tests/debug/build-kernel.sh adds
# what a kernel build needs). Idempotent: when everything is installed
# already it touches nothing (no apt-get update, no network).
# Must run as root on Debian bookworm (CI runs it that way via make).
#
# --sizes TARGET...: print, for each TARGET, the packages apt would
# install on this machine with it and their installed size, and install
# nothing.

set -eu

here=$(cd "$(dirname "$0")" && pwd)

# set_packages TARGET: the packages of one set. Each set names the sets it
# builds on first.
set_packages() {
	case $1 in
	# make all (the modules, the tool, the test programs) and the VM
	# that make demo boots; dwarves (pahole) for the module's BTF.
	base | demo)
		echo make gcc libc6-dev linux-image-amd64 linux-headers-amd64 \
			qemu-system-x86 busybox-static kmod udev cpio gzip xz-utils \
			dwarves ;;
	# make shell: what a user tries there, journald and journalctl, the
	# Python module's python3, the man pages' mandoc.
	shell)
		set_packages base
		echo systemd python3 mandoc ;;
	# make check: the 32-bit ABI programs (gcc-multilib), jq for the
	# JSON, pytest; the BPF programs of 97-bpf (clang, bpftool, libbpf
	# linked statically) and the resolve_btfids that Debian's 6.1 kbuild
	# lacks, built from linux-source-6.1 (below).
	check)
		set_packages shell
		echo gcc-multilib jq python3-pytest clang llvm libbpf-dev bpftool \
			libelf-dev zlib1g-dev libzstd-dev linux-source-6.1 ;;
	stress)
		set_packages check
		echo stress-ng trinity ;;
	# make check-fleet: the exporters' other ends.
	fleet)
		set_packages check
		echo prometheus prometheus-node-exporter systemd-journal-remote curl ;;
	# make check-kernels, check-arch: the mirror's indexes (curl).
	kernels)
		set_packages check
		echo curl ;;
	bench)
		set_packages check ;;
	# make lint: sparse (C=2), the man pages rendered by man and mandoc
	# (col from bsdextrautils); checkpatch comes from linux-source-6.1.
	lint)
		set_packages base
		echo sparse mandoc man-db bsdextrautils linux-source-6.1 ;;
	# make check-packages: promtool (prometheus), pkg-config, the Python
	# module in a virtual environment (python3-venv), and what make check
	# needs for its VM.
	packages)
		set_packages check
		echo prometheus pkg-config python3-venv python3-setuptools python3-wheel ;;
	*) return 1 ;;
	esac
}

sizes=
if [ "${1:-}" = --sizes ]; then
	sizes=1
	shift
fi

packages=
[ $# -gt 0 ] || set -- base
for arg; do
	if list=$(set_packages "$arg" 2>/dev/null); then
		packages="$packages $list"
	else
		packages="$packages $arg"
	fi
done
packages=$(printf '%s\n' $packages | awk '!seen[$0]++' | tr '\n' ' ')

# --sizes: what apt would add to this machine, and how much.
if [ -n "$sizes" ]; then
	# shellcheck disable=SC2086 # word splitting of the list is intended
	new=$(apt-get install -s --no-install-recommends $packages 2>/dev/null |
		awk '$1 == "Inst" { print $2 }')
	kb=0
	for p in $new; do
		kb=$((kb + $(apt-cache show --no-all-versions "$p" 2>/dev/null |
			sed -n 's/^Installed-Size: //p' | head -n 1)))
	done
	echo "$* ($packages): $(echo $new | wc -w) packages, $((kb / 1024)) MB"
	exit 0
fi

# dpkg-query prints "install ok installed" for an installed package; for an
# unknown or removed one it prints something else or fails.
is_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=
for p in $packages; do
	is_installed "$p" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: need root to install packages (run 'sudo $0 $*')" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	# Other users of this machine may hold the dpkg lock: wait for it.
	apt-get -o DPkg::Lock::Timeout=600 update
	# shellcheck disable=SC2086 # word splitting of the list is intended
	apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
		$missing </dev/null
	for p in $missing; do
		is_installed "$p" || { echo "deps: $p still not installed" >&2; exit 1; }
	done
fi

# The kernel checks are for the sets that build the modules or boot them.
case " $packages " in *" linux-image-amd64 "*) ;; *) echo "deps: ok"; exit 0 ;; esac

# The image the VM boots and the headers the modules are built against must
# be the same kernel. The two meta-packages pull in matching versions when
# installed from the same archive; catch the case where one was upgraded
# without the other.
img=$(dpkg-query -W -f='${Version}' linux-image-amd64)
hdr=$(dpkg-query -W -f='${Version}' linux-headers-amd64)
if [ "$img" != "$hdr" ]; then
	echo "deps: linux-image-amd64 ($img) and linux-headers-amd64 ($hdr) differ;" \
	     "run: apt-get install linux-image-amd64 linux-headers-amd64" >&2
	exit 1
fi

if ! kver=$("$here/kver.sh"); then
	echo "deps: no kernel found with both /boot/vmlinuz-VER and" \
	     "/lib/modules/VER/build; the test VM cannot run" >&2
	exit 1
fi
# The module's kfunc IDs need resolve_btfids, which Debian's 6.1 kbuild
# lacks: build one from the kernel's source (cached; module-btf.sh, make
# modules).
if [ ! -x "/lib/modules/$kver/build/tools/bpf/resolve_btfids/resolve_btfids" ]; then
	"$here/resolve-btfids.sh" "$(echo "$kver" | cut -d. -f1,2)" >/dev/null ||
		echo "deps: no resolve_btfids for $kver: BPF programs will not push in the VM" >&2
fi
echo "deps: ok (kernel $kver)"
