#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages that building the modules, the tool, the test
# programs and running the QEMU test VM need, plus any packages named as
# arguments (tests/debug/build-kernel.sh adds what a kernel build needs).
# Idempotent: when everything is already installed it touches nothing (no
# apt-get update, no network).
# Must run as root on Debian bookworm (CI runs it that way via `make check`).

set -eu

here=$(cd "$(dirname "$0")" && pwd)

# One package per line; keep sorted by purpose rather than alphabetically.
packages="
make
gcc
libc6-dev
gcc-multilib
sparse
linux-image-amd64
linux-headers-amd64
qemu-system-x86
busybox-static
kmod
udev
cpio
gzip
xz-utils
curl
stress-ng
trinity
jq
systemd
python3
python3-pytest
prometheus
mandoc
dwarves
clang
llvm
libbpf-dev
bpftool
libelf-dev
zlib1g-dev
libzstd-dev
linux-source-6.1
"

# dpkg-query prints "install ok installed" for an installed package; for an
# unknown or removed one it prints something else or fails.
is_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=
for p in $packages "$@"; do
	is_installed "$p" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: need root to install packages (run 'sudo $0')" >&2
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
