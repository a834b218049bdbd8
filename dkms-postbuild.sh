#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms-postbuild.sh DIR - keep the Module.symvers of a DKMS build
#
# dkms runs this (POST_BUILD in dkms.conf) in its build directory after it
# built the modules for one kernel, then deletes that directory. DIR is
# dkms's directory for the module, version, kernel and machine
# (/var/lib/dkms/seqring/VERSION/KERNEL/MACHINE/), where the built modules
# are kept and which `dkms remove` deletes. The copy there is what a driver
# that uses seqring's kernel API is built against for that kernel
# (KBUILD_EXTRA_SYMBOLS; README, "Kernel API"), as OpenZFS's DKMS build
# keeps its own.

set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
cp Module.symvers "$1/Module.symvers"
