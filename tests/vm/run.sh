#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh MODE - boot the test VM and run one tier of tests (host side).
#
#   tests/vm/run.sh check    the check tier (tests/check/*.sh), as TAP
#   tests/vm/run.sh demo     show the driver at work (tests/vm/demo.sh)
#   tests/vm/run.sh shell    a shell in the VM on this terminal, seqring
#                            loaded (tests/vm/shell.sh); exit ends it
#   tests/vm/run.sh MODE     any other tier tests/MODE/*.sh, like check
#
# Builds build/vm/initramfs-MODE.cpio.gz (mkinitramfs.sh), boots KERNEL in
# QEMU with pure emulation (tcg: KVM is not used), and collects two logs:
#   build/vm/console.log   ttyS0: kernel messages and /init diagnostics
#   build/vm/tap.log       ttyS1: the guest runner's output
# (copies are kept as build/vm/MODE-console.log and build/vm/MODE-tap.log).
#
# The guest's output is printed as it comes. TAP modes print the guest's
# TAP stream, then host-side results: the
# kernel log must be free of Oops/BUG/WARNING/panic/lockup/KASAN/UBSAN/
# lockdep reports (but those expected-warnings lists, and one a test said
# it would provoke: kernel_reports() below), the VM must finish in time,
# and the stream must be
# complete (plan line present, as many results as planned). Then the plan of
# the merged stream, and as the last line:
#   N passed, N failed              or   N passed, N failed, N skipped
# ("not ok ... # TODO" counts as skipped). Exit status 0 iff nothing failed.
# On failure the last 80 lines of the console log are shown before it.
#
# Demo mode prints the guest output; exit status is the demo script's, or
# 1 if the VM did not finish or the kernel log has a report. Shell mode
# puts the guest's second serial port on this terminal (its size and TERM
# passed on), Ctrl-C going to the guest; exit status that of the shell,
# or 1 if the kernel log has a report. It has no time limit unless
# VM_TIMEOUT sets one, and takes the check tier's programs (python3,
# journald, jq).
#
# Environment:
#   KERNEL             image to boot (default /boot/vmlinuz-$(tests/vm/kver.sh))
#   VM_MEM             guest memory in MiB (default 1280: enough for the
#                      largest ring, 16M readings of 48 bytes, in 05-load)
#   VM_SMP             guest CPUs (default 2)
#   VM_TIMEOUT         seconds before the whole VM is killed (default 900)
#   VM_SCRIPT_TIMEOUT  seconds each guest script may run (default 120)
#   VM_FILTER          globs, separated by commas: run only guest scripts
#                      whose name matches one, and none of the globs
#                      written "!GLOB" ('!8*': all but 80-89)
#   VM_APPEND          extra kernel command line arguments
#   VM_PVH             0: boot KERNEL as is, not its extracted vmlinux
#   VM_BOOTS           boots the run may take (default 1). Above 1 (make
#                      check-crash): the guest reboots on a panic (panic=1,
#                      and QEMU without -no-reboot, so guest RAM is kept),
#                      and a small virtio disk, build/vm/state-MODE.img,
#                      keeps the runner's state from one boot to the next
#                      (guest-run.sh); the virtio_blk modules come from
#                      /lib/modules/KVER of the booted image, or from
#                      VM_STATE_MODULES (.ko files in load order; set
#                      and empty: built in, or among
#                      SEQRING_EARLY_MODULES); on aarch64 the disk is a
#                      virtio-mmio device (virtio-blk-device), on x86_64
#                      a PCI one
#   VM_PANIC_TIMEOUT   with VM_BOOTS above 1: seconds a panic may take to
#                      reboot (default 120; panic=1 reboots after one):
#                      a panic whose path hangs ends the run at once,
#                      as a failure, instead of at VM_TIMEOUT
#   VM_ARCH            the guest's CPU: x86_64 (default) or aarch64
#                      (qemu-system-aarch64 -M virt -cpu max; console on
#                      its UART ttyAMA0, TAP on a virtio console, hvc0,
#                      whose modules mkinitramfs.sh must be given through
#                      SEQRING_EARLY_MODULES)
#   (and SEQRING_KO_DIR, SEQRINGCTL, SEQRING_RULES, SEQRING_TIER_DIR:
#   see mkinitramfs.sh)

set -u

mode=${1:-}
if [ -z "$mode" ] || [ $# -ne 1 ]; then
	echo "usage: $0 MODE   (check, demo, shell, ...)" >&2
	exit 2
fi
# The shell's machine has the programs of the check tier.
[ "$mode" != shell ] || export SEQRING_TIER_DIR=${SEQRING_TIER_DIR:-$PWD/tests/check}

# A relative KERNEL is relative to the caller's directory.
case ${KERNEL:-} in "" | /*) ;; *) KERNEL=$PWD/$KERNEL ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=build/vm
mkdir -p "$out"

# One VM at a time per work tree: runs share build/vm/ (initramfs staging,
# logs). A second run waits here for the first to finish.
exec 9>"$out/.lock"
if ! flock -n 9; then
	echo "run.sh: waiting for another tests/vm/run.sh in this tree" >&2
	flock 9
fi

if [ -z "${KERNEL:-}" ]; then
	kver=$(tests/vm/kver.sh) || {
		echo "run.sh: no kernel image with matching headers; run 'make deps'" >&2
		exit 1
	}
	KERNEL=/boot/vmlinuz-$kver
fi
[ -r "$KERNEL" ] || { echo "run.sh: cannot read kernel image $KERNEL" >&2; exit 1; }

vm_timeout=${VM_TIMEOUT:-900}
script_timeout=${VM_SCRIPT_TIMEOUT:-120}
boots=${VM_BOOTS:-1}
case $boots in '' | *[!0-9]* | 0) echo "run.sh: bad VM_BOOTS '$boots'" >&2; exit 2 ;; esac

# The state disk's driver, for /init to load first: virtio_blk and what it
# depends on, from the modules of the booted kernel.
if [ "$boots" -gt 1 ]; then
	state_modules=${VM_STATE_MODULES:-}
	if [ -z "${VM_STATE_MODULES+set}" ]; then
		kv=${KERNEL##*/vmlinuz-}
		for m in virtio_pci virtio_blk; do
			state_modules+=" $(modprobe -S "$kv" --show-depends "$m" 2>/dev/null |
				sed -n 's/^insmod \([^ ]*\).*/\1/p' | tr '\n' ' ')"
		done
		if [ -z "${state_modules// /}" ] &&
		   ! grep -qs '^CONFIG_VIRTIO_BLK=y' "/boot/config-$kv"; then
			echo "run.sh: VM_BOOTS=$boots needs virtio_blk for ${KERNEL##*/}:" \
			     "none in /lib/modules/$kv; give VM_STATE_MODULES" >&2
			exit 1
		fi
	fi
	# Each once, in order (virtio and virtio_ring are named twice).
	SEQRING_EARLY_MODULES="${SEQRING_EARLY_MODULES:-} $(echo "$state_modules" |
		tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')"
	export SEQRING_EARLY_MODULES
fi

initrd=$out/initramfs-$mode.cpio.gz
tests/vm/mkinitramfs.sh "$initrd" "$mode" || exit 1

# Modules built for another kernel would only fail later, inside the VM,
# with a terse "Invalid module format"; say it here.
case ${KERNEL##*/} in
vmlinuz-*)
	kv=${KERNEL##*/vmlinuz-}
	for m in "${SEQRING_KO_DIR:-.}"/seqring.ko "${SEQRING_KO_DIR:-.}"/sequence.ko; do
		magic=$(modinfo -F vermagic "$m" 2>/dev/null)
		if [ "${magic%% *}" != "$kv" ]; then
			echo "run.sh: $m is built for '${magic%% *}' but the VM boots $kv;" \
			     "run 'make clean all'" >&2
			exit 1
		fi
	done
	;;
esac

# Booting a compressed bzImage under tcg spends seconds in the kernel's own
# decompressor. When the image holds an xz or gzip vmlinux with a PVH entry
# point (Xen ELF note 18, CONFIG_PVH=y, as in Debian's kernels), QEMU can
# boot that ELF file directly instead; it is extracted once and cached in
# build/vm/. Any other image is booted as it is. VM_PVH=0 disables this.
boot_image() {
	local img=$1 key cache off magic unpack
	key=$(stat -L -c '%s-%Y' "$img") || return 1
	cache=$out/vmlinux-${img##*/}-$key
	if [ ! -e "$cache" ]; then
		rm -f "$out"/vmlinux-"${img##*/}"-*
		for magic in xz gzip; do
			case $magic in
			xz) off='\xfd7zXZ\x00' unpack='xz -dc --single-stream' ;;
			gzip) off='\x1f\x8b\x08\x00' unpack='gzip -dc' ;;
			esac
			# Only the offset: the match itself may hold a NUL byte.
			off=$(LC_ALL=C grep -obUaP "$off" "$img" 2>/dev/null |
				head -n 1 | cut -d: -f1)
			[ -n "$off" ] || continue
			# The compressed kernel is followed by other data: stop at
			# the end of the first stream, ignore what follows (gzip
			# complains about it; the result is checked below).
			tail -c +$((off + 1)) "$img" | $unpack >"$cache.tmp" 2>/dev/null
			if [ "$(head -c 4 "$cache.tmp")" = $'\x7fELF' ] &&
			   readelf -n "$cache.tmp" 2>/dev/null |
			   grep -qE 'Xen.*note type: \(0x00000012\)|PHYS32_ENTRY'; then
				mv "$cache.tmp" "$cache"
				break
			fi
			rm -f "$cache.tmp"
		done
		[ -e "$cache" ] || : >"$cache" # empty: not bootable through PVH
	fi
	if [ -s "$cache" ]; then echo "$cache"; else echo "$img"; fi
}
vm_arch=${VM_ARCH:-x86_64}
boot=$KERNEL
[ "${VM_PVH:-1}" = 0 ] || [ "$vm_arch" != x86_64 ] ||
	boot=$(boot_image "$KERNEL") || boot=$KERNEL

console=$out/console.log
tap=$out/tap.log
rm -f "$console" "$tap"

# oops=panic, with panic=-1 and -no-reboot: a guest that oopses powers off
# at once (the run fails on the report) instead of hanging until VM_TIMEOUT.
# The machine: the console on the first serial port, TAP on a second
# one (x86) or on a virtio console (arm64's virt has one UART). pauth-impdef:
# tcg's pointer authentication with QEMU's own hash, several times faster
# than the architected one. arm64 gets a GICv3 and pseudo-NMI
# (irqchip.gicv3_pseudo_nmi=1, where the kernel has ARM64_PSEUDO_NMI): the
# PMU's interrupt is then an NMI, from which tests/check/65-nmi.sh pushes.
# The second port: the TAP file, or (shell) this terminal, whose Ctrl-C
# is the guest's (signal=off), not QEMU's end.
tapdev=(file "path=$tap")
[ "$mode" != shell ] || tapdev=(stdio signal=off)
case $vm_arch in
x86_64)
	qemu=(qemu-system-x86_64 -accel tcg
		-serial "file:$console"
		-chardev "$(IFS=,; echo "${tapdev[*]},id=tap")" -serial chardev:tap)
	append="console=ttyS0,115200"
	;;
aarch64)
	qemu=(qemu-system-aarch64 -M virt,gic-version=3
		-cpu max,pauth-impdef=on -accel tcg
		-serial "file:$console"
		-device virtio-serial-device
		-chardev "$(IFS=,; echo "${tapdev[*]},id=tap")"
		-device virtconsole,chardev=tap)
	append="console=ttyAMA0 seqringvm.tap=/dev/hvc0 irqchip.gicv3_pseudo_nmi=1"
	;;
*)
	echo "run.sh: unknown VM_ARCH '$vm_arch' (x86_64, aarch64)" >&2
	exit 2
	;;
esac
# With VM_BOOTS, a panic reboots instead (panic=1), the same kernel and
# initramfs, with the guest's RAM as it was: the crash tests' point.
noreboot=(-no-reboot)
if [ "$boots" -gt 1 ]; then
	state=$out/state-$mode.img
	rm -f "$state"
	truncate -s 4M "$state"
	# On arm64's virt, the disk is a virtio-mmio device as the TAP
	# console is: virtio_mmio is in the early modules already, and
	# virtio_blk over it needs no PCI host bridge nor virtio_pci.
	blk=virtio-blk-pci
	[ "$vm_arch" != aarch64 ] || blk=virtio-blk-device
	qemu+=(-drive "file=$state,format=raw,if=none,id=state"
		-device "$blk,drive=state")
	noreboot=()
	append+=" panic=1 seqringvm.boots=$boots"
else
	append+=" panic=-1"
fi
append+=" oops=panic loglevel=7 seqringvm.mode=$mode"
append+=" seqringvm.timeout=$script_timeout"
[ -n "${VM_FILTER:-}" ] && append+=" seqringvm.filter=$VM_FILTER"
[ -n "${VM_APPEND:-}" ] && append+=" $VM_APPEND"

# The shell: the terminal's size and type, which a serial port cannot
# tell the guest; no time limit unless one is asked for.
if [ "$mode" = shell ]; then
	size=$(stty size 2>/dev/null) && append+=" seqringvm.size=${size% *}x${size#* }"
	append+=" seqringvm.term=${TERM:-vt100}"
	[ -n "${VM_TIMEOUT:-}" ] || vm_timeout=0
fi

echo "run.sh: booting $boot (mode $mode, timeout ${vm_timeout}s)" >&2
start=$(date +%s)
# -no-reboot: the guest's final reboot (or a panic, with panic=-1) ends QEMU;
# with VM_BOOTS the guest powers off at the end instead.
# -nodefaults: no NIC, VGA or option ROMs to emulate and load.
# The shell's QEMU reads the terminal: timeout must leave it in the
# terminal's foreground process group (--foreground), not in one of its own.
fg=()
[ "$mode" != shell ] || fg=(--foreground)
# vm [exec]: QEMU under timeout; with exec, in place of the shell that runs
# it (a background job: its $! is then timeout's, which a kill reaches).
vm() {
	${1:-} timeout "${fg[@]}" -k 10 "$vm_timeout" "${qemu[@]}" \
		-smp "${VM_SMP:-2}" -m "${VM_MEM:-1280}" \
		-nodefaults -no-user-config -display none "${noreboot[@]}" \
		-kernel "$boot" -initrd "$initrd" -append "$append"
}

# guest_lines: what the guest writes on its second port, line by line as
# it comes (not once the VM has ended), until QEMU ($qemu_pid) ends.
guest_lines() {
	tail -n +1 -F -s 0.2 --pid="$qemu_pid" "$tap" 2>/dev/null |
		while IFS= read -r line || [ -n "$line" ]; do
			printf '%s\n' "${line%$'\r'}"
		done
}

# tap_stream: the guest's TAP stream, results counted as they come; then
# QEMU's exit status in qemu_rc.
tap_stream() {
	passed=0 failed=0 skipped=0 count=0 plan=
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*)
			count=$((count + 1))
			case $line in
			"ok "*"# SKIP"* | "ok "*"# skip"* | "not ok "*"# TODO"* | "not ok "*"# todo"*)
				skipped=$((skipped + 1)) ;;
			"ok "*) passed=$((passed + 1)) ;;
			*) failed=$((failed + 1)) ;;
			esac
			echo "$line"
			;;
		1..*)
			plan=${line#1..}
			plan=${plan%%[!0-9]*}
			;;
		*)
			echo "$line"
			;;
		esac
	done < <(guest_lines)
	wait "$qemu_pid"
	qemu_rc=$?
}

# With VM_BOOTS, every panic reboots (panic=1): the console's last "Kernel
# panic" after its last boot banner for longer than VM_PANIC_TIMEOUT is a
# panic path that hangs (a notifier that waits for a CPU panic() stopped).
# panic_watch ends the VM then, and leaves the timeout in $hung_flag, so that
# the run fails at once instead of at VM_TIMEOUT.
hung_flag=$(dirname "$tap")/panic-hung
rm -f "$hung_flag"
panic_watch() {
	local seen=
	while kill -0 "$qemu_pid" 2>/dev/null; do
		sleep 2
		if tr -d '\r' <"$console" 2>/dev/null | awk '
			/Linux version / { b = NR }
			/Kernel panic - not syncing/ { p = NR }
			END { exit !(p > b) }'; then
			seen=${seen:-$(date +%s)}
			if [ $(($(date +%s) - seen)) -gt "$1" ]; then
				echo "$1" >"$hung_flag"
				kill "$qemu_pid"
				return
			fi
		else
			seen=
		fi
	done
}

case $mode in
shell)
	: >"$tap"
	vm
	qemu_rc=$?
	;;
demo)
	vm exec </dev/null &
	qemu_pid=$!
	guest_lines
	wait "$qemu_pid"
	qemu_rc=$?
	;;
*)
	vm exec </dev/null &
	qemu_pid=$!
	[ "$boots" -le 1 ] || panic_watch "${VM_PANIC_TIMEOUT:-120}" &
	;;
esac
[ "$mode" = shell ] || [ "$mode" = demo ] || tap_stream
panic_hung=$(cat "$hung_flag" 2>/dev/null)
secs=$(($(date +%s) - start))
echo "run.sh: VM ran ${secs}s, qemu exit status $qemu_rc" >&2
touch "$console" "$tap"
cp "$console" "$out/$mode-console.log"
cp "$tap" "$out/$mode-tap.log"

# Headers of the reports the kernel prints when something went wrong
# (case-sensitive: "KASAN"/"UBSAN" are report headers, the boot messages of
# those features are spelled differently). Lockdep and KASAN reports also
# start with WARNING:/BUG:. A bare "Call Trace:" is deliberately not matched:
# fault injection (failslab, fail_page_alloc) prints stack dumps on purpose.
# seq_file reports a .next() that did not advance the position only with a
# pr_info ("buggy .next function %ps did not update position index").
kernel_report_re='Oops|BUG:|WARNING:|Kernel panic|kernel BUG|general protection fault|'
kernel_report_re+='soft lockup|hard LOCKUP|rcu.*detected stalls|blocked for more than|'
kernel_report_re+='KASAN|UBSAN|possible circular locking|inconsistent lock state|'
kernel_report_re+='possible recursive locking|suspicious RCU usage|bad unlock balance|'
kernel_report_re+='lockdep is turned off|suspected memory leak|list_(add|del) corruption|usercopy:|'
kernel_report_re+='buggy \.next function'

# The console log as text: no CRs, no terminal escapes (the BIOS prints some
# in front of the first kernel line).
console_text() {
	sed -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' "$console"
}

# KCSAN (the kcsan debug kernel) reports data races anywhere in the kernel;
# only those in the driver count here. A report runs from its
# "BUG: KCSAN:" header to the next line of "=" signs, and is the driver's
# when its header names a seqring function: the header names the
# functions that made the racing accesses (the module's print with
# [seqring]). A race inside a kernel function that the driver calls, such
# as 6.1's timekeeping latch read in ktime_get_real_fast_ns(), which that
# kernel does not mark for KCSAN, has the driver only further down its
# stack. Those outside the driver are shown, not counted.
kcsan_reports() {
	console_text | awk -v want="$1" '
		/BUG: KCSAN:/ { inrep = 1; head = $0; ours = /seqring/; next }
		inrep && /^(\[ *[0-9.]+\] )?=+$/ {
			if (ours == want)
				print head
			inrep = 0
		}'
}

# The kernel's own warnings on injected allocation failures (the file says).
# From $root: the working directory is $root, not where $0 was started
# (check-planted runs copies as build/planted/NAME/tests/vm/run.sh), and
# an empty list would take every report out below.
expected_warnings=$(grep -vE '^(#|$)' "$root/tests/vm/expected-warnings")
# An empty list would make the grep -v below take out every report.
[ -n "$expected_warnings" ] || {
	echo "run.sh: no patterns in $root/tests/vm/expected-warnings: the kernel log cannot be checked" >&2
	exit 1
}

# A crash a test asked for (lib.sh's reboot_now) and what the kernel prints
# until the next boot begins are not reports. Nor is a warning a test
# provokes on purpose (a KUnit case checking that a broken invariant warns
# once): it first logs "seqring-vm: expect a warning at TEXT", and the
# next WARNING line that contains TEXT is taken out; if none comes, a
# report says so.
kernel_reports() {
	console_text | awk '/seqring-vm: [a-z]* reboot on purpose/ { skip = 1 }
		/Linux version / { skip = 0 } !skip' |
		awk '/seqring-vm: expect a warning at / {
			w = $0; sub(/.*seqring-vm: expect a warning at /, "", w)
			want[++n] = w; next
		}
		/WARNING:/ && got < n && index($0, want[got + 1]) { got++; next }
		{ print }
		END {
			for (i = got + 1; i <= n; i++)
				print "WARNING: expected by a test, never came: a warning at " want[i]
		}' |
		grep -aE "$kernel_report_re" | grep -avE '^(\[ *[0-9.]+\] )?seqring-vm: ' |
		grep -av 'BUG: KCSAN:' | grep -avE "$expected_warnings"
	kcsan_reports 1
}

show_console_tail() {
	echo "# ----- last 80 lines of $console -----"
	console_text | tail -n 80 | sed 's/^/# /'
	echo "# ----- end of $console -----"
}

if [ "$mode" = demo ] || [ "$mode" = shell ]; then
	status=$(console_text | sed -n 's/.*seqring-vm: runner finished: mode=[^ ]* status=\([0-9]*\).*/\1/p' | tail -n 1)
	reports=$(kernel_reports)
	if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
		echo "run.sh: the VM did not finish within ${vm_timeout}s" >&2
		status=1
	elif [ -z "$status" ]; then
		echo "run.sh: the guest did not report the end of the $mode" >&2
		status=1
	fi
	if [ -n "$reports" ]; then
		echo "run.sh: the kernel log has reports:" >&2
		echo "$reports" | head -n 20 >&2
		status=1
	fi
	[ "$status" -eq 0 ] || show_console_tail >&2
	exit "$status"
fi

# --- TAP modes ---------------------------------------------------------------

# host_result STATUS DESC: one more result in the merged stream.
host_result() {
	count=$((count + 1))
	echo "$1 $count - host: $2"
	if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

guest_count=$count
if [ -n "$panic_hung" ]; then
	host_result "not ok" "every panic rebooted within ${panic_hung}s (one did not: the VM was ended; set VM_PANIC_TIMEOUT)"
elif [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
	host_result "not ok" "VM finished within ${vm_timeout}s (killed; set VM_TIMEOUT)"
elif [ "$qemu_rc" -ne 0 ]; then
	host_result "not ok" "qemu exited with status $qemu_rc"
fi
if [ -z "$plan" ]; then
	host_result "not ok" "guest TAP stream complete (no plan line; $guest_count results)"
elif [ "$plan" -ne "$guest_count" ]; then
	host_result "not ok" "guest ran its plan (planned $plan, got $guest_count)"
fi
others=$(kcsan_reports 0 | sort | uniq -c)
[ -n "$others" ] && echo "# KCSAN reports outside the driver (not counted):" &&
	echo "$others" | head -n 20 | sed 's/^/#   /'
reports=$(kernel_reports)
if [ -z "$reports" ]; then
	host_result ok "kernel log has no Oops/BUG/WARNING/panic/lockup/KASAN/UBSAN/lockdep reports"
else
	host_result "not ok" "kernel log has no Oops/BUG/WARNING/panic/lockup/KASAN/UBSAN/lockdep reports"
	echo "$reports" | head -n 20 | sed 's/^/# /'
fi
echo "1..$count"

if [ "$failed" -ne 0 ]; then
	show_console_tail
fi
if [ "$skipped" -ne 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
