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

.PHONY: all modules tool progs extmod samples clean help deps check demo shell check-shell lint \
	stress bench check-debug \
	check-planted debug-kernel check-kcsan kcsan-kernel check-debug-bpf debug-bpf-kernel \
	check-fresh check-kernels check-arch \
	prune-cache bench-arch check-litmus check-crash check-fleet check-lib \
	check-all install install-tools install-bin install-conf install-lib install-dev install-dkms \
	install-examples \
	uninstall uninstall-dkms sign deb check-packages

all: modules tool progs extmod samples

# The module's BTF, which BPF programs call its kfuncs through: kbuild
# makes it where the headers let it, module-btf.sh where they do not
# (Debian's 6.1: no vmlinux, no resolve_btfids; README, "From a BPF
# program"). RESOLVE_BTFIDS: a resolve_btfids for a kernel whose kbuild
# has none; by default the one tests/vm/resolve-btfids.sh built, if any.
# A cross build's objcopy (CROSS_COMPILE) is the one pahole adds .BTF with.
SEQRING_CACHE ?= /var/cache/seqring
# The release as `uname -r` says it (Debian's kernel.release is the
# upstream version).
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
RESOLVE_BTFIDS ?= $(lastword $(wildcard $(SEQRING_CACHE)/resolve_btfids/$(shell \
	echo $(KRELEASE) | cut -d. -f1,2)-*/resolve_btfids))

modules:
	@test -d "$(KDIR)" || { echo "no kernel build tree at '$(KDIR)': install the" \
		"headers of Linux $(KVER) (apt-get install linux-headers-$(KVER))," \
		"run 'make deps', or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	$(if $(RESOLVE_BTFIDS),RESOLVE_BTFIDS=$(RESOLVE_BTFIDS)) \
		$(if $(CROSS_COMPILE),OBJCOPY=$(CROSS_COMPILE)objcopy) \
		./module-btf.sh $(KDIR) $(KRELEASE) seqring.ko

# A module outside the tree, built against it as README tells a driver
# author: this tree's include/ and the Module.symvers `modules` leaves.
extmod: modules
	$(MAKE) -C tests/extmod KDIR=$(KDIR) SEQRING=$(CURDIR) modules

tool:
	$(MAKE) -C tools

progs:
	$(MAKE) -C tests/progs

# The userspace sample (samples/Makefile; kbuild builds the module sample
# from samples/Kbuild): it links the library `tool` builds.
samples: tool
	$(MAKE) -C samples
	@if command -v clang >/dev/null && { command -v bpftool || test -x /usr/sbin/bpftool; } >/dev/null && \
	    test -f /usr/include/bpf/libbpf.h; then \
		$(MAKE) -C samples/bpf STATIC=1 CFLAGS="-O2 -Wall -Wextra$(if $(filter 1,$(WERROR)), -Werror)"; \
	else echo "samples/bpf: no clang, bpftool or libbpf-dev: seqring-wakeup not built"; fi

clean:
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-test -d "$(KDIR)" && $(MAKE) -C tests/extmod KDIR=$(KDIR) clean
	$(MAKE) -C tools clean
	$(MAKE) -C tests/progs clean
	$(MAKE) -C samples clean
	$(MAKE) -C samples/bpf clean
	$(MAKE) -C tests/bench clean
	rm -rf build

help:
	@echo "Targets:"
	@echo "  all      build seqring.ko, sequence.ko, the samples"
	@echo "           samples/seqring_timerlat.ko and samples/mmap-consumer,"
	@echo "           samples/bpf/seqring-wakeup (with clang, bpftool, libbpf-dev),"
	@echo "           tools/seqringctl, test programs"
	@echo "  extmod   build tests/extmod/seqring_extmod.ko out of tree against"
	@echo "           this one, as README tells driver authors"
	@echo "  deps     install the Debian packages the build and the VM need;"
	@echo "           each target below installs those it needs itself"
	@echo "           (tests/vm/deps.sh TARGET; doc/testing.md lists them)"
	@echo "  check    deps + all + boot the test VM and run the test suite (TAP)"
	@echo "  check-fleet  the metrics in Prometheus, the journal in journal-remote (VM, TAP)"
	@echo "  demo     deps + all + boot the VM and show the driver at work"
	@echo "  shell    deps + all + a shell in the VM on this terminal, the"
	@echo "           module loaded, udev, the tool, the library, the Python"
	@echo "           module, journald, the man pages; exit ends it"
	@echo "  check-shell  make shell driven from a pseudo-terminal: every"
	@echo "           piece of it used once, then exit (TAP)"
	@echo "  stress   deps + all + the reliability tier (concurrency, unload,"
	@echo "           ioctl fuzzing, permissions, stress-ng, trinity, ENOMEM)"
	@echo "  bench    deps + all + benchmarks as ratios (QUICK=1: short run)"
	@echo "  check-crash  deps + all + tests that panic or reboot the VM and"
	@echo "           check what the next boot finds (tests/crash/);"
	@echo "           KERNELS=\"6.12 ...\": on those kernels (check-kernels'),"
	@echo "           ARCHES=\"arm64-6.1 ...\": on those arm64 kernels"
	@echo "           (check-arch's, tcg, slow)"
	@echo "  check-debug  build a KASAN/lockdep/kmemleak/failslab kernel (cached"
	@echo "           in SEQRING_CACHE), then the check and stress tiers and"
	@echo "           tests/debugvm on it (DEBUG_MODES=\"check ...\": a subset)"
	@echo "  debug-kernel  only build (or find cached) the debug kernel"
	@echo "  check-kcsan  build a KCSAN kernel (cached like the debug kernel),"
	@echo "           then the stream tests, the kernel API's tests, the"
	@echo "           mapping's tests and the stress tier on it"
	@echo "           (KCSAN_MODES=\"stream kapi map writer stress\": a subset)"
	@echo "  kcsan-kernel  only build (or find cached) the KCSAN kernel"
	@echo "  check-debug-bpf  build a debug kernel with BPF and BTF (cached"
	@echo "           like the others; slower: DWARF) and run the BPF tests"
	@echo "           on it under KASAN and lockdep (DEBUG_BPF_MODES=check"
	@echo "           crash bench)"
	@echo "  debug-bpf-kernel  only build (or find cached) that kernel"
	@echo "  check-planted  plant each bug of tests/debug/planted/ in a copy of"
	@echo "           the tree and show that the debug kernel run catches it"
	@echo "  check-fresh  the VM quick start (doc/testing.md) in a fresh"
	@echo "           debootstrapped bookworm root with only git and make"
	@echo "  check-kernels  the check tier on each kernel of"
	@echo "           tests/kernels/kernels.list (5.10 to sid's newest, -rt"
	@echo "           too), each built in its own Debian suite's root and"
	@echo "           booted (KERNELS=\"5.10 6.12-rt\": a subset)"
	@echo "  check-arch  the driver on other CPUs (tests/arch/arches.list):"
	@echo "           arm64 cross-built and its check tier run on Debian's"
	@echo "           arm64 kernels (PREEMPT_RT too) under"
	@echo "           qemu-system-aarch64 (tcg, slow); the Debian packages built and"
	@echo "           installed in an arm64 root under qemu-user, DKMS"
	@echo "           building the module there; riscv64 and ppc64el"
	@echo "           cross-built with W=1 C=2"
	@echo "           (ARCHES=\"arm64-6.1 riscv64\": a subset)"
	@echo "  bench-arch  make bench's benchmarks in an arm64 VM (tcg):"
	@echo "           the booted kernels of ARCHES (default arm64-6.1),"
	@echo "           results in build/arch/NAME/bench/ (QUICK=1: short)"
	@echo "  prune-cache  remove the cached roots, kernel images and lists"
	@echo "           the tree no longer uses (PRUNE_ARGS=--dry-run: list"
	@echo "           them); check-kernels and check-arch end with it"
	@echo "  check-all  every tier: what .ci/run runs, whole (the check tier"
	@echo "           on every kernel, 6.1 too, with the tool's scripts;"
	@echo "           debugvm's failslab sweep), the debug kernel's stress"
	@echo "           tier, check-planted, check-kcsan, check-debug-bpf and"
	@echo "           check-arch"
	@echo "  lint     checkpatch --strict and sparse on driver/, samples/,"
	@echo "           include/, tools/ and tests/extmod,"
	@echo "           and the man pages checked against the code"
	@echo "  check-lib  libseqring's mapping consumer against a faked mapping,"
	@echo "           on the host (tests/progs/map_unit; TAP; no VM)"
	@echo "  check-litmus  the ring's memory ordering in the Linux-kernel memory"
	@echo "           model: herd7 (in a sid root, cached) must find each"
	@echo "           tests/litmus/*.litmus Never and each of its mutants"
	@echo "           (tests/litmus/mutants/) Sometimes (TAP)"
	@echo "  install  install the modules for KVER (modules_install, depmod)"
	@echo "  install-tools  install the tool, man pages, libseqring, headers and seqring.pc,"
	@echo "           udev rule, sysusers.d entry, systemd units,"
	@echo "           modprobe.d/modules-load.d examples (= install-bin,"
	@echo "           install-conf, install-lib, install-dev)"
	@echo "  install-examples  the BPF sample seqring-wakeup (needs clang,"
	@echo "           bpftool, libbpf-dev), its man page, and its sources to"
	@echo "           build against the installed seqring/seqring.bpf.h"
	@echo "  install-dkms   copy the DKMS sources to /usr/src/seqring-VERSION"
	@echo "           and have DKMS build and install them"
	@echo "  uninstall      remove what install, install-tools and"
	@echo "           install-examples installed"
	@echo "  uninstall-dkms remove the DKMS module and its sources"
	@echo "  sign     sign the built modules: make sign KEY=key.pem CERT=cert.pem"
	@echo "  deb      build the Debian packages into build/deb/"
	@echo "  check-packages  test the packages, DKMS and make install (TAP)"
	@echo "  clean    remove build products"
	@echo "Variables: KDIR (kernel build tree), KERNEL (image the VM boots),"
	@echo "  DESTDIR, PREFIX (default /usr/local), KVER (kernel to install for)"

deps:
	tests/vm/deps.sh

# Each target's own packages (tests/vm/deps.sh says which): make demo
# installs what the demo uses, not stress-ng or Prometheus.
DEPS_TARGETS := deps-demo deps-shell deps-check deps-stress deps-fleet deps-bench \
	deps-kernels deps-lint deps-packages
.PHONY: $(DEPS_TARGETS)
$(DEPS_TARGETS): deps-%:
	tests/vm/deps.sh $*

# checkpatch.pl is not in the headers package; take it (and the data files
# it reads) from Debian's kernel source tarball. sparse runs through kbuild.
KSRC_TAR ?= /usr/src/linux-source-6.1.tar.xz
CHECKPATCH := build/checkpatch/scripts/checkpatch.pl
# (kbuild writes NAME.mod.c beside the modules of samples/ and tests/extmod.)
LINT_FILES := $(filter-out %.mod.c,$(wildcard driver/*.[ch] samples/*.[ch] tools/*.[ch] tools/lib/*.[ch] \
		tests/progs/*.[ch] tests/bench/*.[ch] tests/debug/*.[ch] tests/kunit/*.[ch] \
		tests/extmod/*.[ch] tests/kmod/*.[ch])) \
		include/uapi/linux/seqring.h include/linux/seqring.h

$(CHECKPATCH):
	@test -f $(KSRC_TAR) || tests/vm/deps.sh linux-source-6.1
	mkdir -p build/checkpatch
	tar -xf $(KSRC_TAR) -C build/checkpatch --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'

# driver/compat.h is where version checks belong: there only, checkpatch
# is told to accept them; a trace event header has the layout of
# include/trace/events/, which checkpatch's open-ended-line checks dislike.
# tests/docs/check-docs.sh runs mandoc -Tlint on the man pages and checks
# them against the code (options, commands, ioctls, errnos, files), asking
# the tool as built for its options: hence `tool`.
lint: deps-lint $(CHECKPATCH) tool
	tests/docs/check-docs.sh
	$(CHECKPATCH) --strict --no-tree --quiet -f $(filter-out driver/compat.h driver/seqring_trace.h,$(LINT_FILES))
	$(CHECKPATCH) --strict --no-tree --quiet -f \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON driver/compat.h
	$(CHECKPATCH) --strict --no-tree --quiet -f \
		--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT driver/seqring_trace.h
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules 2>&1 | tee build/lint.log
	$(MAKE) -C tests/extmod KDIR=$(KDIR) SEQRING=$(CURDIR) W=1 C=2 modules 2>&1 | \
		tee -a build/lint.log
	@! grep -E 'warning:|error:' build/lint.log

# Every pairing of barriers in driver/ring.c as a litmus test, in herd7 with
# tools/memory-model of KSRC_TAR; herd7 is sid's herdtools7, run in a sid
# root (tests/litmus/check-litmus.sh says how; doc/testing.md lists the
# tests). Needs no kernel and no VM.
check-litmus:
	KSRC_TAR=$(KSRC_TAR) tests/litmus/check-litmus.sh

# The library's consumer of the mapping needs no driver: a memfd laid out
# as the mapping, a producer thread keeping the driver's protocol
# (tests/progs/map_unit.c). The 32-bit build runs in the VM (83-dump-mmap).
check-lib:
	$(MAKE) -C tests/progs
	tests/progs/map_unit | awk -f tests/tap-summary.awk

# The sub-make re-reads this file so KDIR/KVER see freshly installed headers.
# The test targets build the tool with WERROR=1 (tools/Makefile): a warning
# fails them, and CI, which runs them; a user's plain `make` only warns.
check: deps-check
	$(MAKE) all WERROR=1
	KERNEL=$(KERNEL) tests/vm/run.sh check

demo: deps-demo
	$(MAKE) all
	KERNEL=$(KERNEL) tests/vm/run.sh demo

# The VM of the check tier, with a shell on this terminal
# (tests/vm/shell.sh says what is there).
shell: deps-shell
	$(MAKE) all
	KERNEL=$(KERNEL) tests/vm/run.sh shell

# make shell, driven through a pseudo-terminal (tests/shell/check-shell.sh).
check-shell: deps-shell
	$(MAKE) all WERROR=1
	KERNEL=$(KERNEL) tests/shell/check-shell.sh | awk -f tests/tap-summary.awk

# The exporters' other ends, Debian's: prometheus-node-exporter and
# prometheus (tests/fleet/10-prometheus.sh), systemd-journal-upload and
# systemd-journal-remote (20-journal-remote.sh), in the VM on loopback.
check-fleet: deps-fleet
	$(MAKE) all WERROR=1
	KERNEL=$(KERNEL) tests/vm/run.sh fleet

# 512 MiB: small enough that the largest ring (16M x 48 bytes) cannot be
# allocated, which tests/stress/70-enomem.sh needs. The unload loop runs
# 50 cycles and may take over two minutes under emulation.
stress: deps-stress
	$(MAKE) all WERROR=1
	KERNEL=$(KERNEL) VM_MEM=512 VM_TIMEOUT=900 VM_SCRIPT_TIMEOUT=300 \
		tests/vm/run.sh stress

# Tests that span boots (tests/crash/, guest-run.sh says how): a script
# panics or reboots the guest on purpose, and QEMU boots it again with its
# RAM as it was. mem= keeps the kernel below 896 MiB of the 1024, where the
# tests keep what must survive; reserve_mem= (6.12 on) asks for two
# regions more, which 20-reserve-mem watches, and for four that
# 45-persist-claim must see refused: two not in whole pages (the second,
# allocated right below the first, starts where the first does, off a
# page), one given to an ftrace instance too, one to ramoops too. A
# script's phases take a
# boot each. KERNELS="6.12 ..." (tests/kernels/kernels.list): on those
# kernels, as check-kernels runs the check tier. ARCHES="arm64-6.1 ..."
# (tests/arch/arches.list, booted kernels): on those, cross-built and
# booted under qemu-system-aarch64 as check-arch does (ARCH_TIER=crash).
CRASH_BOOTS ?= 20
CRASH_VM = VM_MEM=1024 VM_BOOTS=$(CRASH_BOOTS) VM_TIMEOUT=1200 \
	VM_APPEND="mem=896M reserve_mem=1M:4K:seqring_1m reserve_mem=2M:2M:seqring_2m \
	reserve_mem=65600:64:seqring_odd reserve_mem=64K:64:seqring_odd2 \
	reserve_mem=1M:4K:seqring_ft \
	trace_instance=seqring_test@seqring_ft reserve_mem=64K:4K:seqring_ro \
	ramoops.mem_name=seqring_ro $(VM_APPEND)"
check-crash: deps-check
ifneq ($(ARCHES),)
	tests/vm/deps.sh qemu-system-arm
	ARCH_TIER=crash ARCHES="$(ARCHES)" $(CRASH_VM) tests/arch/check-arch.sh
else ifeq ($(KERNELS),)
	$(MAKE) all WERROR=1
	KERNEL=$(KERNEL) $(CRASH_VM) tests/vm/run.sh crash
else
	$(MAKE) tool progs WERROR=1
	KERNELS="$(KERNELS)" KERNELS_TIER=crash $(CRASH_VM) tests/kernels/check-kernels.sh
endif

# Prints a table and writes build/bench/results.{txt,csv,json}.
bench: deps-bench
	$(MAKE) all WERROR=1
	$(MAKE) -C tests/bench
	KERNEL=$(KERNEL) QUICK=$(QUICK) tests/bench/run-bench.sh

# The modules are rebuilt against the debug kernel; a later `make check`
# rebuilds them against Debian's (kbuild sees the changed command line).
# Every mode of DEBUG_MODES runs, even after one fails; each prints its own
# summary. The stress tier keeps its small VM (tests/stress/70-enomem.sh).
DEBUG_MODES ?= check stress debugvm

# Builds (or finds cached) the debug kernel; KDIR and KERNEL in the file.
debug-kernel: deps-check
	mkdir -p build
	tests/debug/build-kernel.sh > build/debug-kernel.env

# A script may take 25 minutes: tests/debugvm/50-failslab.sh takes about 7
# on an idle host and 22 on one shared with two other VMs. debugvm boots
# with mem=960M of its 1024 MiB: 70-persist-fuzz's region is above it.
check-debug: debug-kernel
	. build/debug-kernel.env && $(MAKE) all KDIR=$$KDIR WERROR=1
	. build/debug-kernel.env && status=0 && \
	for mode in $(DEBUG_MODES); do \
		mem=1024; [ $$mode != stress ] || mem=512; \
		app=; [ $$mode != debugvm ] || app="mem=960M"; \
		KERNEL=$$KERNEL VM_MEM=$$mem VM_TIMEOUT=2400 \
			VM_APPEND="$$app $(VM_APPEND)" \
			VM_SCRIPT_TIMEOUT=1500 tests/vm/run.sh $$mode || status=1; \
	done; exit $$status

# Needs nothing installed beforehand but what mkroot.sh installs itself.
check-fresh:
	tests/fresh/check-fresh.sh

# The tool and the test programs are the host's; only the modules are built
# for each kernel, in that kernel's own Debian root.
check-kernels: deps-kernels
	$(MAKE) tool progs samples WERROR=1
	KERNELS="$(KERNELS)" tests/kernels/check-kernels.sh
	tests/kernels/prune-cache.sh

# Everything for the other CPUs is built in Debian roots; the host only
# runs QEMU.
# qemu-user (binfmt_misc) runs the arm64 root that builds and installs the
# packages (tests/arch/packages.sh).
check-arch: deps-kernels
	tests/vm/deps.sh qemu-system-arm qemu-user-static binfmt-support
	ARCHES="$(ARCHES)" tests/arch/check-arch.sh
	tests/kernels/prune-cache.sh

# make bench's run in an arm64 VM (tests/arch/check-arch.sh, ARCH_TIER=bench):
# the booted kernels of ARCHES (default arm64-6.1); results in
# build/arch/NAME/bench/. QUICK=1 as for make bench.
bench-arch: deps-kernels
	tests/vm/deps.sh qemu-system-arm
	ARCH_TIER=bench ARCHES="$(or $(ARCHES),arm64-6.1)" QUICK=$(QUICK) \
		tests/arch/check-arch.sh

# Removes from SEQRING_CACHE the roots, images and package lists this tree
# no longer uses (tests/kernels/prune-cache.sh says which);
# PRUNE_ARGS=--dry-run only lists them.
prune-cache:
	tests/kernels/prune-cache.sh $(PRUNE_ARGS)

# CI's tiers and those that do not fit its time, summed up (see .ci/run).
check-all:
	CHECK_ALL=1 bash .ci/run

# The second debug kernel, KCSAN (tests/kcsan.config): the stream tests
# of the check tier, its kernel API tests (pushes from process, softirq and
# hardirq context at once), its mapping tests (mmap of rings being pushed
# to, cleared and destroyed), then the stress tier. KCSAN reports in the
# driver fail a run; those elsewhere in the kernel are listed
# (tests/vm/run.sh).
KCSAN_MODES ?= stream kapi map writer stress

kcsan-kernel: deps-check
	mkdir -p build
	tests/debug/build-kernel.sh kcsan > build/kcsan-kernel.env

check-kcsan: kcsan-kernel
	. build/kcsan-kernel.env && $(MAKE) all KDIR=$$KDIR
	. build/kcsan-kernel.env && status=0 && \
	for mode in $(KCSAN_MODES); do \
		case $$mode in \
		stream) tier=check mem=1024 filter='6[23]-*' ;; \
		kapi) tier=check mem=1024 filter='93-kapi-*' ;; \
		map) tier=check mem=1024 filter='*-mmap*' ;; \
		writer) tier=check mem=1024 filter='44-*,65-*,94-gone*' ;; \
		*) tier=$$mode mem=512 filter='*' ;; \
		esac; \
		KERNEL=$$KERNEL VM_MEM=$$mem VM_FILTER=$$filter VM_TIMEOUT=2400 \
			VM_SCRIPT_TIMEOUT=900 tests/vm/run.sh $$tier || status=1; \
	done; exit $$status

# The third debug kernel, BPF (tests/debug-bpf.config: the debug kernel's
# KASAN, lockdep and kmemleak with BPF, DWARF and BTF; its own cache entry,
# a slower build than the debug kernel's, so `make check-all` only, never
# CI's short path): BPF programs calling the module's kfuncs, from every
# attach type and from NMI (check: 97-bpf*), the panic with a probe pushing
# into the persistent ring (crash: 55-bpf-persist; the state disk's
# virtio-blk is built in), and the benchmark's program in all its modes
# (bench: 55-bpf, quick; its figures mean nothing under KASAN).
DEBUG_BPF_MODES ?= check crash bench
# Its PCI interrupts without ACPI: under KASAN and tcg, evaluating the
# firmware's _PRT ran past ACPICA's 30 s loop limit (AE_AML_LOOP_TIMEOUT),
# and the crash tier's state disk then had no interrupt and hung; the
# BIOS's PIRQ table routes them instead.
check-debug-bpf: VM_APPEND += pci=noacpi

debug-bpf-kernel: deps
	mkdir -p build
	tests/debug/build-kernel.sh bpf > build/debug-bpf-kernel.env

check-debug-bpf: debug-bpf-kernel
	. build/debug-bpf-kernel.env && $(MAKE) all KDIR=$$KDIR WERROR=1
	. build/debug-bpf-kernel.env && status=0 && \
	for mode in $(DEBUG_BPF_MODES); do \
		case $$mode in \
		check) KERNEL=$$KERNEL VM_FILTER='97-*' VM_MEM=1024 VM_TIMEOUT=2400 \
			VM_SCRIPT_TIMEOUT=1500 tests/vm/run.sh check ;; \
		crash) KERNEL=$$KERNEL VM_FILTER='55-bpf-*' VM_STATE_MODULES= \
			$(CRASH_VM) tests/vm/run.sh crash ;; \
		bench) KERNEL=$$KERNEL VM_FILTER='55-*' VM_MEM=1024 VM_TIMEOUT=2400 \
			VM_SCRIPT_TIMEOUT=1500 VM_APPEND="seqringbench.quick=1 $(VM_APPEND)" \
			tests/vm/run.sh bench ;; \
		*) echo "check-debug-bpf: no mode $$mode (check crash bench)" >&2; false ;; \
		esac || status=1; \
	done; exit $$status

check-planted: debug-kernel kcsan-kernel
	tests/debug/planted-bugs.sh

# --- installing ---------------------------------------------------------------
# The layout is described in README.md ("Install") and doc/install.md, and
# tests/packages/10-make-install.sh checks it file by file. Only `install`
# and `install-dkms` need a kernel; every path below honours DESTDIR.

SEQRING_VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SBINDIR ?= $(PREFIX)/sbin
# The examples' sources; the Debian package seqring-examples gives
# /usr/share/doc/seqring-examples/examples.
EXAMPLESDIR ?= $(PREFIX)/share/doc/seqring/examples
# libseqring; Debian's packages give the multiarch directory
# (/usr/lib/x86_64-linux-gnu). Its .pc names the library: it goes beside it.
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
include $(dir $(lastword $(MAKEFILE_LIST)))tools/lib/version.mk
# Packages (PREFIX=/usr) put udev rules and sysusers.d entries in /usr/lib;
# the administrator's own go to /etc.
# systemd units go where Debian bookworm's systemd.pc says
# (systemdsystemunitdir), or for another PREFIX in PREFIX/lib/systemd/system,
# which systemd searches too (/usr/local/lib/systemd/system).
ifeq ($(PREFIX),/usr)
  UDEVRULESDIR ?= /usr/lib/udev/rules.d
  SYSUSERSDIR ?= /usr/lib/sysusers.d
  SYSTEMDUNITDIR ?= /lib/systemd/system
else
  UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
  SYSUSERSDIR ?= $(SYSCONFDIR)/sysusers.d
  SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
endif
UNITS := seqring-journal.service seqring-journal@.service seqring-metrics.service \
	seqring-metrics@.service seqring-metrics@.timer \
	seqring-metrics.timer
# Beside Debian's own DKMS (updates/dkms), a hand-installed module goes
# where kbuild puts external modules by default.
INSTALL_MOD_DIR ?= extra

# modules_install would sign with the kernel build's own key, which a
# headers package does not ship (Debian's: an SSL error); signing is `make
# sign`'s job, with a key you name. It also skips depmod (no System.map in
# a headers package): depmod runs here, on the real system only; a staged
# tree (DESTDIR) gets it on its target.
# Without the test modules (Kbuild): modules_install installs what the
# build listed, so the build leaves them out too.
install:
	$(MAKE) modules SEQRING_TEST_MODULES=n
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(abspath $(DESTDIR)) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) CONFIG_MODULE_SIG_ALL= \
		SEQRING_TEST_MODULES=n modules_install
	$(if $(DESTDIR),,depmod -a $(KVER))

# install-tools is four parts, which the Debian packages take apart:
# install-bin (seqring-tools), install-conf (the module's modprobe.d and
# modules-load.d examples: seqring-dkms), install-lib (libseqring1) and
# install-dev (seqring-dev).
install-tools: install-bin install-conf install-lib install-dev

# The tool is built for the C library (it is statically linked only for
# the test VM), so build it afresh: `make tool` links it -static.
install-bin:
	$(MAKE) -C tools clean
	$(MAKE) -C tools STATIC=0
	install -D -m 0755 tools/seqringctl $(DESTDIR)$(BINDIR)/seqringctl
	install -D -m 0644 tools/seqringctl.1 $(DESTDIR)$(MANDIR)/man1/seqringctl.1
	install -D -m 0644 doc/seqring.4 $(DESTDIR)$(MANDIR)/man4/seqring.4
	install -D -m 0644 udev-rules/60-seqring.rules \
		$(DESTDIR)$(UDEVRULESDIR)/60-seqring.rules
	install -D -m 0644 conf/sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/seqring.conf
	install -D -m 0644 tools/seqringctl.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/seqringctl
	for u in $(UNITS); do \
		src=systemd/$$u; [ -f $$src ] || src=$$src.in; \
		mkdir -p $(DESTDIR)$(SYSTEMDUNITDIR) && \
		sed 's|@BINDIR@|$(BINDIR)|g' $$src \
			>$(DESTDIR)$(SYSTEMDUNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit 1; \
	done
	@echo "To create the group now: systemd-sysusers" \
		"$(SYSUSERSDIR)/seqring.conf (or groupadd --system seqring)"

install-conf:
	install -D -m 0644 conf/modprobe.conf \
		$(DESTDIR)$(SYSCONFDIR)/modprobe.d/seqring.conf
	install -D -m 0644 conf/modules-load.conf \
		$(DESTDIR)$(SYSCONFDIR)/modules-load.d/seqring.conf

# The shared library, for other programs (seqringctl links the archive;
# tools/Makefile says why). Without DESTDIR, ldconfig makes its soname
# link known at once.
install-lib:
	$(MAKE) -C tools STATIC=0 lib/libseqring.so.$(LIB_VERSION)
	install -D -m 0644 tools/lib/libseqring.so.$(LIB_VERSION) \
		$(DESTDIR)$(LIBDIR)/libseqring.so.$(LIB_VERSION)
	ln -sf libseqring.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	$(if $(DESTDIR),,ldconfig)

# The archive too, for `cc -static ... $(pkg-config --static --libs
# seqring)`: a program that must run without the shared library.
install-dev:
	$(MAKE) -C tools STATIC=0 lib/libseqring.a
	install -D -m 0644 include/uapi/linux/seqring.h \
		$(DESTDIR)$(INCLUDEDIR)/linux/seqring.h
	install -D -m 0644 include/bpf/seqring.bpf.h \
		$(DESTDIR)$(INCLUDEDIR)/seqring/seqring.bpf.h
	install -D -m 0644 tools/lib/libseqring.h $(DESTDIR)$(INCLUDEDIR)/libseqring.h
	install -D -m 0644 tools/lib/libseqring.a $(DESTDIR)$(LIBDIR)/libseqring.a
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libseqring.so
	mkdir -p $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@VERSION@|$(SEQRING_VERSION)|' \
		include/seqring.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/seqring.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/seqring.pc

# The BPF sample (samples/bpf; the Debian package seqring-examples): the
# program, built for the C library (dynamically linked with libbpf; `make
# samples` links it statically for the test VM), so built afresh; its man
# page; and its sources with their Makefile, which builds them against
# install-dev's seqring/seqring.bpf.h. Needs clang, bpftool and libbpf-dev.
EXAMPLES_SRC := Makefile wakeup.bpf.c seqring-wakeup.c
install-examples:
	$(MAKE) -C samples/bpf clean
	$(MAKE) -C samples/bpf STATIC=0
	install -D -m 0755 samples/bpf/seqring-wakeup $(DESTDIR)$(SBINDIR)/seqring-wakeup
	install -D -m 0644 samples/bpf/seqring-wakeup.8 \
		$(DESTDIR)$(MANDIR)/man8/seqring-wakeup.8
	for f in $(EXAMPLES_SRC); do \
		install -D -m 0644 samples/bpf/$$f $(DESTDIR)$(EXAMPLESDIR)/bpf/$$f || exit 1; \
	done

# Files only: directories may hold other packages' files.
uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/seqring.ko* \
		$(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/sequence.ko* \
		$(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/samples/seqring_timerlat.ko*
	$(if $(DESTDIR),,depmod -a $(KVER))
	rm -f $(DESTDIR)$(BINDIR)/seqringctl \
		$(DESTDIR)$(MANDIR)/man1/seqringctl.1 \
		$(DESTDIR)$(MANDIR)/man4/seqring.4 \
		$(DESTDIR)$(INCLUDEDIR)/linux/seqring.h \
		$(DESTDIR)$(INCLUDEDIR)/seqring/seqring.bpf.h \
		$(DESTDIR)$(INCLUDEDIR)/libseqring.h \
		$(DESTDIR)$(LIBDIR)/libseqring.so.$(LIB_VERSION) \
		$(DESTDIR)$(LIBDIR)/$(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libseqring.so \
		$(DESTDIR)$(LIBDIR)/libseqring.a \
		$(DESTDIR)$(PKGCONFIGDIR)/seqring.pc \
		$(DESTDIR)$(UDEVRULESDIR)/60-seqring.rules \
		$(DESTDIR)$(SYSUSERSDIR)/seqring.conf \
		$(DESTDIR)$(SYSCONFDIR)/modprobe.d/seqring.conf \
		$(DESTDIR)$(SYSCONFDIR)/modules-load.d/seqring.conf \
		$(DESTDIR)$(BASHCOMPDIR)/seqringctl \
		$(addprefix $(DESTDIR)$(SYSTEMDUNITDIR)/,$(UNITS)) \
		$(DESTDIR)$(SBINDIR)/seqring-wakeup \
		$(DESTDIR)$(MANDIR)/man8/seqring-wakeup.8 \
		$(addprefix $(DESTDIR)$(EXAMPLESDIR)/bpf/,$(EXAMPLES_SRC))

# What DKMS needs to build the modules: dkms.conf (its #MODULE_VERSION#
# filled in here, as dh_dkms -V does) reads KERNEL_MIN, Kbuild the rest;
# the sample and include/linux/seqring.h come too, so that a driver author
# finds the kernel API in the same tree (README, "Kernel API"). The Debian
# package seqring-dkms ships the same tree. Without DESTDIR, DKMS then
# builds and installs the modules for KVER; it builds them for each kernel
# installed later by itself (AUTOINSTALL), and `dkms autoinstall -k
# VERSION` does it for any other.
DKMS_SRC := dkms.conf Kbuild VERSION KERNEL_MIN $(wildcard driver/*.[ch]) \
	samples/Kbuild $(filter-out %.mod.c samples/mmap-consumer.c,$(wildcard samples/*.[ch])) \
	include/uapi/linux/seqring.h include/linux/seqring.h
DKMS_DIR := /usr/src/seqring-$(SEQRING_VERSION)

# dkms-postbuild.sh and module-btf.sh are the programs: dkms runs them
# (POST_BUILD, MAKE). The userspace samples, samples/mmap-consumer.c and
# the BPF sample (install-examples), are not the module's.
install-dkms:
ifeq ($(DESTDIR),)
	@test -d /lib/modules/$(KVER)/build || { echo "no headers for Linux $(KVER):" \
		"apt-get install linux-headers-$(KVER)" >&2; exit 1; }
endif
	for f in $(DKMS_SRC); do \
		install -D -m 0644 $$f $(DESTDIR)$(DKMS_DIR)/$$f || exit 1; \
	done
	install -D -m 0755 dkms-postbuild.sh $(DESTDIR)$(DKMS_DIR)/dkms-postbuild.sh
	install -D -m 0755 module-btf.sh $(DESTDIR)$(DKMS_DIR)/module-btf.sh
	sed -i 's/#MODULE_VERSION#/$(SEQRING_VERSION)/g' $(DESTDIR)$(DKMS_DIR)/dkms.conf
ifeq ($(DESTDIR),)
	dkms status seqring/$(SEQRING_VERSION) | grep -q . || dkms add seqring/$(SEQRING_VERSION)
	dkms install seqring/$(SEQRING_VERSION) -k $(KVER)
endif

uninstall-dkms:
	-dkms remove seqring/$(SEQRING_VERSION) --all
	rm -rf $(DKMS_DIR)

# Sign the built modules as kbuild does (scripts/sign-file), for a kernel
# that enforces signatures (Secure Boot). KEY: private key (PEM, or a
# PKCS#11 URI); CERT: its X.509 certificate (PEM or DER; default KEY, for a
# PEM file holding both, like kbuild's certs/signing_key.pem).
SIGN_HASH ?= sha256
SIGN_FILE ?= $(KDIR)/scripts/sign-file

sign: modules
	@test -n "$(KEY)" || { echo "usage: make sign KEY=key.pem [CERT=cert.pem] [SIGN_HASH=sha256]" >&2; exit 2; }
	@for m in seqring.ko sequence.ko samples/seqring_timerlat.ko; do \
		if [ -n "$$(modinfo -F sig_hashalgo $$m)" ]; then \
			echo "$$m is signed already; 'rm $$m && make modules' first" >&2; \
			exit 1; \
		fi; \
		echo "  SIGN    $$m"; \
		$(SIGN_FILE) $(SIGN_HASH) $(KEY) $(or $(CERT),$(KEY)) $$m || exit 1; \
	done

# --- Debian packages ------------------------------------------------------------
# Builds, from a copy of the tree's files (tracked and new, not ignored, so
# no build products), seqring-dkms_VERSION_all.deb,
# seqring-tools_VERSION_ARCH.deb, libseqring1_VERSION_ARCH.deb,
# seqring-dev_VERSION_ARCH.deb, seqring-examples_VERSION_ARCH.deb and
# python3-seqring_VERSION_all.deb (plus
# the source package) into build/deb/,
# then runs lintian on them: any error or warning fails the target
# (debian/*.lintian-overrides hold the accepted ones, with reasons).
DEB_OUT := build/deb
DEB_SRC := $(DEB_OUT)/src/seqring-$(SEQRING_VERSION)

deb:
	@command -v lintian >/dev/null && dpkg-checkbuilddeps 2>/dev/null || \
		apt-get install -y --no-install-recommends lintian dpkg-dev \
			build-essential $$(tests/packages/build-deps.sh)
	rm -rf $(DEB_OUT)
	mkdir -p $(DEB_SRC)
	git ls-files -z --cached --others --exclude-standard | \
		xargs -0 sh -c 'for f; do [ -e "$$f" ] || [ -L "$$f" ] || continue; \
			cp -P --parents -- "$$f" $(DEB_SRC)/ || exit 1; done' sh
	# pybuild runs the python3.X it finds first in PATH: Debian's, not
	# one of pyenv's or a virtualenv's that a user's PATH may put first.
	cd $(DEB_SRC) && PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg-buildpackage -us -uc
	mv $(DEB_OUT)/src/seqring*.* $(DEB_OUT)/src/libseqring*.deb \
		$(DEB_OUT)/src/python3-seqring*.deb $(DEB_OUT)/
	lintian --fail-on error,warning --info $(DEB_OUT)/seqring_$(SEQRING_VERSION)_*.changes
	@ls -1 $(DEB_OUT)/*.deb

# The packaging tests (tests/packages/*.sh, TAP, "N passed, N failed" last):
# versions and dkms.conf, the make install trees, make sign, the bash
# completion, make deb and lintian, and in a fresh Debian root the packages
# installed, DKMS builds for two kernels, the check tier in a VM with the
# DKMS-built module, reinstalls after a failed and an interrupted install,
# and removal. PKG_FILTER='NN*' runs only matching scripts.
check-packages: deps-packages
	$(MAKE) all WERROR=1
	tests/packages/run.sh
