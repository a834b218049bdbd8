# SPDX-License-Identifier: GPL-2.0
#
# Top-level Makefile: builds the modules (through Kbuild), the tool and the
# test programs, and drives the QEMU test harness. `make help` lists targets.

# Kernel to build against. A running kernel with its build tree wins; on a
# machine that cannot load modules (or runs another kernel) we take the newest
# installed Debian image that has matching headers, which is also the kernel
# the test VM boots.
#
# On a fresh machine the headers appear only when `deps` has run, so the
# choice is made when a recipe first needs it (a recursive variable that
# replaces itself with its value), never while this file is read, and it is
# not exported: a sub-make chooses again. Values given on the command line
# or in the environment are passed down by make as usual.
ifeq ($(origin KDIR),undefined)
  ifeq ($(origin KVER),undefined)
    KVER = $(eval KVER := $(shell if [ -d /lib/modules/$$(uname -r)/build ]; \
		then uname -r; else tests/vm/kver.sh; fi))$(KVER)
  endif
  KDIR = /lib/modules/$(KVER)/build
endif
KERNEL ?= /boot/vmlinuz-$(KVER)

.PHONY: all modules tool progs clean help deps check demo lint stress bench check-debug \
	check-planted debug-kernel check-fresh

all: modules tool progs

modules:
	@test -d "$(KDIR)" || { echo "no kernel build tree at '$(KDIR)'; run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tool:
	$(MAKE) -C tools

progs:
	$(MAKE) -C tests/progs

clean:
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools clean
	$(MAKE) -C tests/progs clean
	$(MAKE) -C tests/bench clean
	rm -rf build

help:
	@echo "Targets:"
	@echo "  all      build seqring.ko, sequence.ko, tools/seqringctl, test programs"
	@echo "  deps     install the Debian packages the build and the VM need"
	@echo "  check    deps + all + boot the test VM and run the test suite (TAP)"
	@echo "  demo     deps + all + boot the VM and show the driver at work"
	@echo "  stress   deps + all + the reliability tier (concurrency, unload,"
	@echo "           ioctl fuzzing, permissions, stress-ng, trinity, ENOMEM)"
	@echo "  bench    deps + all + benchmarks as ratios (QUICK=1: short run)"
	@echo "  check-debug  build a KASAN/lockdep/kmemleak/failslab kernel (cached"
	@echo "           in SEQRING_CACHE), then the check and stress tiers and"
	@echo "           tests/debugvm on it (DEBUG_MODES=\"check ...\": a subset)"
	@echo "  debug-kernel  only build (or find cached) the debug kernel"
	@echo "  check-planted  plant each bug of tests/debug/planted/ in a copy of"
	@echo "           the tree and show that the debug kernel run catches it"
	@echo "  check-fresh  README's quick start (make demo, make check) in a fresh"
	@echo "           debootstrapped bookworm root with only git and make"
	@echo "  lint     checkpatch --strict and sparse on driver/ and tools/"
	@echo "  clean    remove build products"
	@echo "Variables: KDIR (kernel build tree), KERNEL (image the VM boots)"

deps:
	tests/vm/deps.sh

# checkpatch.pl is not in the headers package; take it (and the data files
# it reads) from Debian's kernel source tarball. sparse runs through kbuild.
KSRC_TAR ?= /usr/src/linux-source-6.1.tar.xz
CHECKPATCH := build/checkpatch/scripts/checkpatch.pl
LINT_FILES := $(wildcard driver/*.[ch] tools/*.[ch] tests/progs/*.[ch] \
		tests/bench/*.[ch] tests/debug/*.[ch] tests/kunit/*.[ch]) \
		include/uapi/linux/seqring.h

$(CHECKPATCH):
	@test -f $(KSRC_TAR) || tests/vm/deps.sh linux-source-6.1
	mkdir -p build/checkpatch
	tar -xf $(KSRC_TAR) -C build/checkpatch --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'

# driver/compat.h is where version checks belong: there only, checkpatch
# is told to accept them.
lint: $(CHECKPATCH)
	$(CHECKPATCH) --strict --no-tree --quiet -f $(filter-out driver/compat.h,$(LINT_FILES))
	$(CHECKPATCH) --strict --no-tree --quiet -f \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON driver/compat.h
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules 2>&1 | tee build/lint.log
	@! grep -E 'warning:|error:' build/lint.log

# The sub-make re-reads this file so KDIR/KVER see freshly installed headers.
check: deps
	$(MAKE) all
	KERNEL=$(KERNEL) tests/vm/run.sh check

demo: deps
	$(MAKE) all
	KERNEL=$(KERNEL) tests/vm/run.sh demo

# 512 MiB: small enough that the largest ring (16M x 40 bytes) cannot be
# allocated, which tests/stress/70-enomem.sh needs. The unload loop runs
# 50 cycles and may take over two minutes under emulation.
stress: deps
	$(MAKE) all
	KERNEL=$(KERNEL) VM_MEM=512 VM_TIMEOUT=900 VM_SCRIPT_TIMEOUT=300 \
		tests/vm/run.sh stress

# Prints a table and writes build/bench/results.{txt,csv,json}.
bench: deps
	$(MAKE) all
	$(MAKE) -C tests/bench
	KERNEL=$(KERNEL) QUICK=$(QUICK) tests/bench/run-bench.sh

# The modules are rebuilt against the debug kernel; a later `make check`
# rebuilds them against Debian's (kbuild sees the changed command line).
# Every mode of DEBUG_MODES runs, even after one fails; each prints its own
# summary. The stress tier keeps its small VM (tests/stress/70-enomem.sh).
DEBUG_MODES ?= check stress debugvm

# Builds (or finds cached) the debug kernel; KDIR and KERNEL in the file.
debug-kernel: deps
	mkdir -p build
	tests/debug/build-kernel.sh > build/debug-kernel.env

check-debug: debug-kernel
	. build/debug-kernel.env && $(MAKE) all KDIR=$$KDIR
	. build/debug-kernel.env && status=0 && \
	for mode in $(DEBUG_MODES); do \
		mem=1024; [ $$mode != stress ] || mem=512; \
		KERNEL=$$KERNEL VM_MEM=$$mem VM_TIMEOUT=2400 \
			VM_SCRIPT_TIMEOUT=900 tests/vm/run.sh $$mode || status=1; \
	done; exit $$status

# Needs nothing installed beforehand but what mkroot.sh installs itself.
check-fresh:
	tests/fresh/check-fresh.sh

check-planted: debug-kernel
	. build/debug-kernel.env && KDIR=$$KDIR KERNEL=$$KERNEL \
		tests/debug/planted-bugs.sh
