# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers for the seqring guest tests (busybox ash). Modelled on the
# kernel's tools/testing/selftests/kselftest.h: a plan, one result line per
# test, "# " diagnostics saying what was expected and what was got, skips
# with a reason, exit status 0 only if nothing failed.
#
# Use:	. /tests/lib.sh
#	plan 3
#	load_seqring capacity=8
#	is 8 "$(attr capacity)" "sysfs capacity is the module parameter"
#	...
#	done_testing
#
# Checks (is, isnt, like, check, check_fails, same_file) return 0 when the
# test passed and 1 when it failed, so a script can skip what depends on it.

# shellcheck disable=SC2034 # constants for the scripts that source this
TESTS_DIR=${TESTS_DIR:-${SEQRING_TESTS:-/tests}}
BIN=${BIN:-$TESTS_DIR/bin}
MODDIR=${MODDIR:-${SEQRING_MODULES:-/modules}}
DEV=/dev/seqring
PROC=/proc/seqring
SYSFS=/sys/class/misc/seqring
PARAM=/sys/module/seqring/parameters/capacity
DEBUGFS=/sys/kernel/debug/seqring
HEADER='# SEQ TIMESTAMP_NS CHANNEL VALUE LABEL'

# busybox ash runs its own insmod/rmmod applets even where kmod's links are
# first in PATH; call kmod's by path when they are there (kmod has no
# "insmod" subcommand, only the links).
for _d in /bin /sbin /usr/bin /usr/sbin; do
	case $(readlink "$_d/insmod" 2>/dev/null) in
	*kmod)
		KMOD_DIR=$_d
		insmod() { "$KMOD_DIR/insmod" "$@"; }
		rmmod() { "$KMOD_DIR/rmmod" "$@"; }
		break
		;;
	esac
done

_tap_plan=0
_tap_n=0
_tap_fail=0
_tap_pids=

# Scratch directory for this script, removed at exit.
T=$(mktemp -d /tmp/seqring-test.XXXXXX) || exit 1

_tap_cleanup() {
	for _p in $_tap_pids; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	rm -rf "$T"
}
trap _tap_cleanup EXIT
trap 'exit 1' INT TERM

# ---- TAP output ----

plan() {
	_tap_plan=$1
	echo "1..$1"
}

# diag TEXT...: every line of every argument as a "# " comment.
diag() {
	for _d in "$@"; do
		[ -n "$_d" ] && printf '%s\n' "$_d" | sed 's/^/# /'
	done
	return 0
}

# ok DESC: a passing test.
ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1"
	return 0
}

# not_ok DESC [DIAG...]: a failing test and why.
not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n - $1"
	shift
	[ $# -gt 0 ] && diag "$@"
	return 1
}

# skip DESC REASON
skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
	return 0
}

# is EXPECTED GOT DESC
is() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		not_ok "$3" "expected '$1', got '$2'"
	fi
}

# isnt UNEXPECTED GOT DESC
isnt() {
	if [ "$1" != "$2" ]; then
		ok "$3"
	else
		not_ok "$3" "expected anything but '$1', got it"
	fi
}

# like GOT EXTENDED_REGEX DESC: GOT (all of it, possibly several lines)
# matches the regular expression somewhere.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok "$3"
	else
		not_ok "$3" "expected a match for /$2/, got '$1'"
	fi
}

# check DESC CMD [ARG...]: passes if the command exits 0.
check() {
	_c_desc=$1
	shift
	_c_out=$("$@" 2>&1)
	_c_rc=$?
	if [ $_c_rc -eq 0 ]; then
		ok "$_c_desc"
	else
		not_ok "$_c_desc" "expected exit status 0 from '$*', got $_c_rc" \
			"$_c_out"
	fi
}

# check_fails DESC CMD [ARG...]: passes if the command exits non-zero.
check_fails() {
	_c_desc=$1
	shift
	_c_out=$("$@" 2>&1)
	_c_rc=$?
	if [ $_c_rc -ne 0 ]; then
		diag "'$*' failed as expected (exit $_c_rc): $_c_out"
		ok "$_c_desc"
	else
		not_ok "$_c_desc" "expected '$*' to fail, got exit status 0" \
			"$_c_out"
	fi
}

# same_file EXPECTED_FILE GOT_FILE DESC: byte-for-byte equal.
same_file() {
	if cmp -s "$1" "$2"; then
		ok "$3"
	else
		not_ok "$3" "$(cmp "$1" "$2" 2>&1)" \
			"expected ($(wc -c <"$1") bytes):" "$(head -c 400 "$1")" \
			"got ($(wc -c <"$2") bytes):" "$(head -c 400 "$2")"
	fi
}

# fail_rest REASON: the remaining planned tests cannot run; report them as
# failed (a broken precondition is a failure, not a skip) and exit.
fail_rest() {
	while [ "$_tap_n" -lt "$_tap_plan" ]; do
		not_ok "not run: $1"
	done
	done_testing
}

# skip_rest REASON: the remaining planned tests do not apply here.
skip_rest() {
	while [ "$_tap_n" -lt "$_tap_plan" ]; do
		skip "not run" "$1"
	done
	done_testing
}

# done_testing: exit 0 if every planned test ran and none failed.
done_testing() {
	if [ "$_tap_n" -ne "$_tap_plan" ]; then
		diag "planned $_tap_plan tests but ran $_tap_n"
		exit 1
	fi
	[ "$_tap_fail" -eq 0 ] && exit 0
	diag "$_tap_fail of $_tap_n tests failed"
	exit 1
}

# tap_include PREFIX FILE: replay the TAP stream in FILE (from a test
# program) as our own tests: results renumbered, descriptions prefixed with
# PREFIX, diagnostics kept, plan and "Bail out!" turned into comments, any
# other output shown as comments. Sets TAP_INC_PLAN to the program's plan
# (0 if it printed none) and TAP_INC_RAN to the results it printed.
tap_include() {
	TAP_INC_PLAN=0
	TAP_INC_RAN=0
	while IFS= read -r _l; do
		case $_l in
		"ok "[0-9]*)
			_rest=${_l#ok }
			_rest=${_rest#"${_rest%%[!0-9]*}"}
			_rest=${_rest# }
			_rest=${_rest#- }
			TAP_INC_RAN=$((TAP_INC_RAN + 1))
			_tap_n=$((_tap_n + 1))
			echo "ok $_tap_n - $1$_rest"
			;;
		"not ok "[0-9]*)
			_rest=${_l#not ok }
			_rest=${_rest#"${_rest%%[!0-9]*}"}
			_rest=${_rest# }
			_rest=${_rest#- }
			TAP_INC_RAN=$((TAP_INC_RAN + 1))
			_tap_n=$((_tap_n + 1))
			_tap_fail=$((_tap_fail + 1))
			echo "not ok $_tap_n - $1$_rest"
			;;
		1..[0-9]*)
			TAP_INC_PLAN=${_l#1..}
			TAP_INC_PLAN=${TAP_INC_PLAN%%[!0-9]*}
			echo "# $1plan $_l"
			;;
		"#"*)
			echo "$_l"
			;;
		*)
			echo "# $_l"
			;;
		esac
	done <"$2"
}

# tap_include_n PREFIX N FILE WHAT RC: tap_include PREFIX FILE, the TAP
# that program WHAT printed before it exited with RC; the results it did
# not print of its N are failures (it stopped early).
tap_include_n() {
	tap_include "$1" "$3"
	while [ "$TAP_INC_RAN" -lt "$2" ]; do
		TAP_INC_RAN=$((TAP_INC_RAN + 1))
		not_ok "${1}${4##*/} test $TAP_INC_RAN not run: it stopped early (exit status $5)"
	done
}

# tap_program PREFIX N CMD [ARG...]: run a program that prints TAP (a
# test program of tests/progs) and take its N results as ours
# (tap_include_n), PREFIX before each. Sets TAP_PROG_RC.
tap_program() {
	_tp_prefix=$1
	_tp_n=$2
	shift 2
	"$@" >"$T/program.tap" 2>&1
	TAP_PROG_RC=$?
	tap_include_n "$_tp_prefix" "$_tp_n" "$T/program.tap" "$1" "$TAP_PROG_RC"
}

# ---- the module ----

# load_seqring [PARAM=VALUE...]: insmod and wait for udev to finish.
load_seqring() {
	insmod "$MODDIR/seqring.ko" "$@" || return 1
	udevadm settle
}

# unload_seqring: rmmod and wait for udev to finish.
unload_seqring() {
	rmmod seqring || return 1
	udevadm settle
}

is_loaded() {
	[ -d /sys/module/seqring ]
}

# check_load DESC [PARAM=VALUE...]: load as a test; if it fails the rest of
# the script cannot run.
check_load() {
	_cl_desc=$1
	shift
	is_loaded && { diag "seqring already loaded, unloading it first"; rmmod seqring; }
	_cl_out=$(load_seqring "$@" 2>&1)
	_cl_rc=$?
	if [ $_cl_rc -eq 0 ] && [ -c "$DEV" ]; then
		ok "$_cl_desc"
	else
		not_ok "$_cl_desc" "expected insmod seqring.ko $* to succeed and create $DEV, got exit status $_cl_rc" "$_cl_out"
		fail_rest "seqring.ko did not load"
	fi
}

# check_unload DESC: rmmod as a test.
check_unload() {
	check "$1" unload_seqring
}

# unload_seqring_bpf: unload once no BPF program holds the module any
# more: the kernel drops a program's module reference after the program
# is freed, asynchronously (6.12 still held it when rmmod came right after
# the program's process ended), so up to 10 s.
unload_seqring_bpf() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		unload_seqring 2>/dev/null && return 0
		sleep 1
	done
	return 1
}

# ring_files NAME: set RDEV, RSYS and RDBG to the device, sysfs and debugfs
# directories of the ring NAME a module created (seqring_create()), as DEV,
# SYSFS and DEBUGFS are the default ring's; mount debugfs if it is not.
ring_files() {
	RDEV=/dev/seqring-$1
	RSYS=/sys/class/misc/seqring-$1
	RDBG=/sys/kernel/debug/seqring-$1
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	return 0
}

# unload_module NAME: rmmod NAME and wait for udev to finish.
unload_module() {
	rmmod "$1" || return 1
	udevadm settle
}

# ---- reading what the driver shows ----

# listing [FILE]: the listing without its header line.
listing() {
	sed 1d "${1:-$PROC}"
}

# listing_col N [FILE]: field N of every line of the listing, space-separated.
listing_col() {
	listing "${2:-$PROC}" | awk -v n="$1" '{ printf "%s%s", sep, $n; sep = " " }'
}

# words: stdin lines joined by single spaces (e.g. seq 1 5 | words).
words() {
	awk '{ printf "%s%s", sep, $0; sep = " " }'
}

# kv KEY [FILE]: the value of the line "KEY: value" of FILE (default: the
# standard input), the form of getstats' output and of the debugfs files.
kv() {
	awk -F': ' -v k="$1" '$1 == k { print $2 }' ${2:+"$2"}
}

# kvs FILE KEY...: the values of KEYs in FILE, on one line.
kvs() {
	_kvs_f=$1
	shift
	for _kvs_k; do
		kv "$_kvs_k" "$_kvs_f"
	done | words
}

# stat_get KEY: one field of SEQRING_IOC_GET_STATS (via tests/bin/getstats).
stat_get() {
	"$BIN/getstats" | kv "$1"
}

# attr NAME: /sys/class/misc/seqring/NAME
attr() {
	cat "$SYSFS/$1"
}

# debugfs_stat KEY [FILE]: the value of "KEY: value" in the debugfs file
# FILE of the ring (default stats; publish has the same form).
debugfs_stat() {
	kv "$1" "$DEBUGFS/${2:-stats}"
}

# push N [push_n options]: push N readings (values 1..N by default).
push() {
	_pn=$1
	shift
	"$BIN/push_n" "$@" "$_pn"
}

# stats_add_up: one result, that debugfs stats add up (total == count +
# dropped + cleared), checked by tests/bin/stress_reader.
stats_add_up() {
	if _sa_out=$("$BIN/stress_reader" cat -t 0 "$DEBUGFS/stats"); then
		ok "debugfs stats add up (total == count + dropped + cleared)"
	else
		not_ok "debugfs stats add up (total == count + dropped + cleared)" "$_sa_out"
	fi
}

# bench_run DESC ROW ARGS...: run "$BENCH" $Q ARGS (the benchmark scripts
# set BENCH and Q), show its output, and give one result: ok if it exits 0
# and, when ROW (an extended regex) is not empty, prints a line matching it.
bench_run() {
	_b_desc=$1
	_b_row=$2
	shift 2
	# shellcheck disable=SC2086 # $Q is empty or one option
	"$BENCH" $Q "$@" >"$T/out" 2>&1
	_b_rc=$?
	cat "$T/out"
	if [ $_b_rc -ne 0 ]; then
		not_ok "$_b_desc" "seqring_bench $* exited with status $_b_rc"
	elif [ -n "$_b_row" ] && ! grep -Eq "$_b_row" "$T/out"; then
		not_ok "$_b_desc" "seqring_bench $* printed no line matching '$_b_row'"
	else
		ok "$_b_desc"
	fi
}

# ---- named rings, through the test module tests/kmod/seqring_producer.c ----

PRODUCER_KO=$MODDIR/seqring_producer.ko
PRODUCER=/sys/kernel/debug/seqring_producer

# need_producer: stop the script with a skip when the test module was not
# built (it is built from the source tree only, not by DKMS or packages).
need_producer() {
	[ -f "$PRODUCER_KO" ] && return 0
	echo "1..0 # SKIP no $PRODUCER_KO (the test modules are built from the source tree only)"
	exit 0
}

# load_producer [PARAM=VALUE...]: insmod the test module (seqring.ko first).
load_producer() {
	insmod "$PRODUCER_KO" "$@"
}

# pctl WORD...: one command to the test module (see its header); prints
# "ok" or the errno name of the write. A create or destroy waits for udev.
pctl() {
	"$BIN/ctl" "$PRODUCER/control" "$*"
	case $1 in create | destroy) udevadm settle ;; esac
}

# pstatus RING CONTEXT [FIELD...]: fields of the producer's status line
# (default: pushed failed wrong_context state), space-separated. Fields:
# channel count pushed failed last_error wrong_context state.
pstatus() {
	_ps_r=$1 _ps_c=$2
	shift 2
	[ $# -gt 0 ] || set -- pushed failed wrong_context state
	awk -v r="$_ps_r" -v c="$_ps_c" -v f="$*" '
		BEGIN {
			split("ring context channel count pushed failed last_error wrong_context state", h)
			for (i in h)
				col[h[i]] = i
			n = split(f, want)
		}
		$1 == r && $2 == c {
			for (i = 1; i <= n; i++)
				printf "%s%s", (i > 1 ? " " : ""), $(col[want[i]])
			print ""
		}' "$PRODUCER/status"
}

# ring_stat NAME KEY: one field of GET_STATS of /dev/seqring-NAME.
ring_stat() {
	"$BIN/getstats" "/dev/seqring-$1" | kv "$2"
}

# ring_stats NAME: "capacity count total dropped cleared" of /dev/seqring-NAME.
ring_stats() {
	"$BIN/getstats" "/dev/seqring-$1" >"$T/ring_stats" 2>&1 || { cat "$T/ring_stats"; return 1; }
	kvs "$T/ring_stats" capacity count total dropped cleared
}

# ring_present NAME: which of the ring's files exist, as "dev debugfs sysfs"
# with "-" for each missing one.
ring_present() {
	_rf=
	if [ -c "/dev/seqring-$1" ]; then _rf=dev; else _rf=-; fi
	if [ -e "/sys/kernel/debug/seqring-$1/readings" ]; then _rf="$_rf debugfs"; else _rf="$_rf -"; fi
	if [ -e "/sys/class/misc/seqring-$1" ]; then _rf="$_rf sysfs"; else _rf="$_rf -"; fi
	echo "$_rf"
}

# cgroup2_mounted: cgroup v2 at $CG, mounted now if it is not (the guest's
# /init mounts no cgroups; an earlier script may have); else a diagnostic.
# /proc/mounts names its source as the mount did ("none"): the type tells.
CG=/sys/fs/cgroup
cgroup2_mounted() {
	awk -v d="$CG" '$2 == d && $3 == "cgroup2" { f = 1 } END { exit !f }' \
		/proc/mounts && return 0
	mkdir -p "$CG"
	mount -t cgroup2 none "$CG" 2>"$T/err" && return 0
	diag "mount cgroup2: $(cat "$T/err")"
	return 1
}

# memcg_controller: cgroup v2 mounted at /sys/fs/cgroup with the memory
# controller on for its children; else the rest of the script skips.
memcg_controller() {
	cgroup2_mounted
	echo +memory >"$CG/cgroup.subtree_control" 2>"$T/err"
	if ! grep -qw memory "$CG/cgroup.subtree_control" 2>/dev/null; then
		skip_rest "no cgroup v2 memory controller here ($(cat "$T/err" 2>/dev/null))"
	fi
}

# ---- kernel log ----

# reboot_now HOW: for a test that spans boots (make check-crash,
# guest-run.sh): keep $SEQRING_STATE over the reboot, then reboot, HOW
# being "panic" (sysrq c: a panic, and panic=1 reboots) or "warm" (reboot
# -f: no panic, no shutdown). The mark tells the host's log check that the
# panic was planned. Returns 1 only if the machine did not go down.
reboot_now() {
	tar cf "$SEQRING_STATE_DISK" -C /state . && sync || return 1
	echo "seqring-vm: ${1:-panic} reboot on purpose (boot $SEQRING_BOOT)" >/dev/kmsg
	# Let the UART take what was printed before the machine stops.
	sleep 1
	case ${1:-panic} in
	panic) echo c >/proc/sysrq-trigger ;;
	warm) reboot -f ;;
	esac
	sleep 30
	return 1
}

# kernel_at_least MAJOR MINOR: the running kernel is MAJOR.MINOR or later.
kernel_at_least() {
	_kv=$(uname -r)
	_major=${_kv%%.*}
	_minor=${_kv#*.}
	_minor=${_minor%%[!0-9]*}
	[ "$_major" -gt "$1" ] || { [ "$_major" -eq "$1" ] && [ "$_minor" -ge "$2" ]; }
}

# crash_phases_only: a crash test's first words: outside the crash tier's
# several boots (no SEQRING_PHASE), skip the script.
crash_phases_only() {
	[ -n "${SEQRING_PHASE:-}" ] && return 0
	echo "1..0 # SKIP needs the crash tier's several boots (make check-crash)"
	exit 0
}

# need_reserve_mem_find: skip the script on kernels before 6.12, which do
# not export reserve_mem_find_by_name().
need_reserve_mem_find() {
	kernel_at_least 6 12 && return 0
	echo "1..0 # SKIP $(uname -r) has no reserve_mem_find_by_name() (6.12 on)"
	exit 0
}

# persist_load N PARAM=VALUE...: load seqring.ko with its ring in a
# persistent region (tests/crash/): insmod's output and status in
# $SEQRING_STATE/load.N, the kernel's line about what the region held in
# $SEQRING_STATE/found.N (what follows "seqring: region ADDR+SIZE: ").
persist_load() {
	_pl_n=$1
	shift
	kmsg_mark "persist-$SEQRING_PHASE-$_pl_n"
	load_seqring "$@" >"$SEQRING_STATE/load.$_pl_n" 2>&1
	echo "$?" >>"$SEQRING_STATE/load.$_pl_n"
	dmesg_since "persist-$SEQRING_PHASE-$_pl_n" | grep -o 'seqring: region .*' |
		sed 's/^seqring: region [^ ]*: //' >"$SEQRING_STATE/found.$_pl_n"
}

# feed_readings N FIRST TAG MOD: push N readings with seqringctl feed:
# value FIRST.., channel value % MOD, label TAG-value.
feed_readings() {
	awk -v n="$1" -v f="$2" -v t="$3" -v m="$4" \
		'BEGIN { for (i = f; i < f + n; i++) printf "%d %d %s-%d\n", i, i % m, t, i }' |
		seqringctl feed
}

# journal_entries N OUT ERR: journalctl -o json SYSLOG_IDENTIFIER=seqringctl
# into OUT (its errors into ERR), again until it has N entries or 10 s
# passed: journald may write them a moment after they were sent.
journal_entries() {
	_je_i=0
	while [ $_je_i -lt 100 ]; do
		journalctl -o json SYSLOG_IDENTIFIER=seqringctl >"$2" 2>"$3"
		[ "$(wc -l <"$2")" -ge "$1" ] && return 0
		sleep 0.1
		_je_i=$((_je_i + 1))
	done
	return 1
}

# dkms_sources: the files of the DKMS sources, the install's and the
# seqring-dkms package's, relative to the source directory (the top of the
# tree): kbuild's samples/*.mod.c and the userspace sample
# samples/mmap-consumer.c are not the module's.
dkms_sources() {
	printf '%s\n' dkms.conf Kbuild VERSION KERNEL_MIN samples/Kbuild \
		include/uapi/linux/seqring.h include/linux/seqring.h
	ls driver/*.[ch] samples/*.[ch] | grep -v '\.mod\.c$\|/mmap-consumer\.c$'
}

# crash_range_phys: the physical address of the mem= limit on the kernel
# command line (in MiB or GiB), from where RAM starts (pc: 0; arm64 virt:
# 1 GiB): memory above it is the crash tests' (make check-crash), which
# the kernel leaves alone. Fails without mem=.
crash_range_phys() {
	case $(uname -m) in
	aarch64) _base=$((0x40000000)) ;;
	*) _base=0 ;;
	esac
	read -r _cmdline </proc/cmdline
	for _a in $_cmdline; do
		case $_a in
		mem=*[Mm]) _unit=1048576 ;;
		mem=*[Gg]) _unit=1073741824 ;;
		*) continue ;;
		esac
		_v=${_a#mem=}
		echo $((_base + ${_v%?} * _unit))
		return 0
	done
	return 1
}

# go_down panic|warm: a crash test's phase ends here, in reboot_now; if
# the machine does not go down, the phase fails.
go_down() {
	reboot_now "$1"
	diag "the $1 reboot did not happen"
	exit 1
}

# region_msgs TAG: the driver's lines in the kernel log since mark TAG, but
# for those every load may print: the kernel's about a module's first load
# (taint, signature) and the driver's about BPF kfuncs (where it has BTF).
region_msgs() {
	dmesg_since "$1" | grep 'seqring: ' |
		grep -v 'taints kernel\|module verification failed\|BPF kfuncs for\|BPF programs cannot'
}

# kmsg_mark TAG: put a marker line into the kernel log.
kmsg_mark() {
	echo "seqring-test: mark $1" >/dev/kmsg
}

# dmesg_since TAG: raw kernel log lines (with <level> prefix) after the
# marker.
dmesg_since() {
	dmesg -r | awk -v t="seqring-test: mark $1" 'f; index($0, t) { f = 1 }'
}

# kernel_reports TAG [ERE]: kernel log lines after the marker that report a
# kernel problem, or match the extra extended regex ERE.
kernel_reports() {
	dmesg_since "$1" | report_lines "${2:-}"
}

# report_lines [ERE]: the lines of the kernel log on stdin that report a
# kernel problem, or match ERE.
report_lines() {
	kcsan_ours |
		grep -E "Oops|\bBUG\b|WARNING|Call Trace|general protection|lockup|stall|buggy \.next function${1:+|$1}"
}

# kcsan_ours: the kernel log on stdin without the KCSAN reports (the kcsan
# debug kernel) whose header does not name the driver: KCSAN reports data
# races anywhere in the kernel, and only the driver's count, as on the
# host (tests/vm/run.sh says why the header). A report runs from its
# "BUG: KCSAN:" line to the next line of "=" signs.
kcsan_ours() {
	awk '
		/BUG: KCSAN:/ { inrep = 1; n = 0; ours = /seqring/ }
		inrep {
			buf[n++] = $0
			if (/^(<[0-9]+>)?(\[ *[0-9.]+\] )?=+$/) {
				for (i = 0; ours && i < n; i++)
					print buf[i]
				inrep = 0
			}
			next
		}
		{ print }
		END { for (i = 0; inrep && i < n; i++) print buf[i] }'
}

# ---- background processes ----

# start_holder OUTFILE [hold_open ARGS...]: run tests/bin/hold_open (or
# $HOLD_PROG) in the background and wait until it says "ready". Sets HOLDER_PID. Returns 1
# (with the holder's output as diagnostics) if it did not get ready.
start_holder() {
	_sh_out=$1
	shift
	# Emptied here, not only by the background redirection: a "ready" of
	# an earlier holder with the same file must not be taken for this one's.
	: >"$_sh_out"
	"${HOLD_PROG:-$BIN/hold_open}" "$@" >"$_sh_out" 2>&1 &
	HOLDER_PID=$!
	_tap_pids="$_tap_pids $HOLDER_PID"
	_sh_i=0
	while [ $_sh_i -lt 100 ]; do
		grep -q '^ready' "$_sh_out" 2>/dev/null && return 0
		kill -0 "$HOLDER_PID" 2>/dev/null || break
		sleep 0.1
		_sh_i=$((_sh_i + 1))
	done
	diag "hold_open $* did not get ready: $(cat "$_sh_out")"
	return 1
}

# start_journald LOG: systemd-journald in the background, as the guest
# runs it without systemd as PID 1 (a machine-id, its directories,
# cgroupfs, where journald finds its cgroup and systemd would have mounted
# it); its output to LOG. Waits up to 10 s for its socket. Sets
# JOURNALD_PID, and CG_MOUNTED to yes if it mounted cgroupfs. Returns 1 if
# the socket did not come.
start_journald() {
	[ -s /etc/machine-id ] || tr -d '-' </proc/sys/kernel/random/uuid >/etc/machine-id
	mkdir -p /run/systemd/journal /run/log/journal
	CG_MOUNTED=
	if ! grep -q ' /sys/fs/cgroup ' /proc/mounts; then
		mount -t cgroup2 none /sys/fs/cgroup && CG_MOUNTED=yes
	fi
	/lib/systemd/systemd-journald >"$1" 2>&1 &
	JOURNALD_PID=$!
	_tap_pids="$_tap_pids $JOURNALD_PID"
	_sj_i=0
	while [ ! -S /run/systemd/journal/socket ] && [ $_sj_i -lt 100 ]; do
		sleep 0.1
		_sj_i=$((_sj_i + 1))
	done
	[ -S /run/systemd/journal/socket ]
}

# stop_writer PID OUT: end tests/bin/stress_writer PID (SIGTERM), which
# wrote to OUT, and give one result: it ended well and its summary line
# ("writer N: ... errors=none") says it pushed without an error. Forgets
# every background process of the script (_tap_pids).
stop_writer() {
	kill -TERM "$1"
	wait "$1"
	_sw_rc=$?
	_sw_line=$(grep '^writer ' "$2")
	diag "$_sw_line"
	if [ "$_sw_rc" -eq 0 ] && [ "${_sw_line%errors=none}" != "$_sw_line" ]; then
		ok "the writer pushed without an error meanwhile"
	else
		not_ok "the writer pushed without an error meanwhile" "$(cat "$2")"
	fi
	_tap_pids=
}

# stop_pid PID: kill a background process and reap it.
stop_pid() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	_sp_new=
	for _p in $_tap_pids; do
		[ "$_p" = "$1" ] || _sp_new="$_sp_new $_p"
	done
	_tap_pids=$_sp_new
	return 0
}

# wait_gone PID SECS [TENTHS]: wait up to SECS seconds (or, with a third
# argument, TENTHS tenths of a second) for process PID to end, and reap it.
# Returns 0 if it ended, 1 if it is still running.
wait_gone() {
	_wg_i=0
	while [ "$_wg_i" -lt "${3:-$(($2 * 10))}" ]; do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1" 2>/dev/null
			return 0
		fi
		sleep 0.1
		_wg_i=$((_wg_i + 1))
	done
	kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
	return 1
}

# ---- seqringctl watch in the background (81-watch, 83-dump-mmap) ----

# watch_bg OUT ERR ARGS...: seqringctl watch ARGS in the background; sets
# WATCH_PID.
watch_bg() {
	_out=$1
	_err=$2
	shift 2
	: >"$_out"
	# As from a terminal: SIGINT not ignored (see tests/progs/sigdfl.c).
	"$BIN/sigdfl" "${CTL:-seqringctl}" watch "$@" >"$_out" 2>"$_err" &
	WATCH_PID=$!
	_tap_pids="$_tap_pids $WATCH_PID"
}

# wait_lines FILE N: wait up to 10 s for FILE to have N lines.
wait_lines() {
	_i=0
	while [ "$(wc -l <"$1")" -lt "$2" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(wc -l <"$1")" -ge "$2" ]
}

# asleep PID: wait up to 10 s for PID to be sleeping (state S).
asleep() {
	_i=0
	while [ $_i -lt 100 ]; do
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = S ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# wait_line FILE REGEX SECS: wait up to SECS seconds for a line matching the
# extended regular expression in FILE. Returns 0 once there is one.
wait_line() {
	_wl_i=0
	while [ "$_wl_i" -lt $(($3 * 10)) ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		_wl_i=$((_wl_i + 1))
	done
	grep -Eq -- "$2" "$1" 2>/dev/null
}

# ms_now: milliseconds since boot (from /proc/uptime, 10 ms resolution).
ms_now() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# prog_pair_run PROG CAPACITY [ARG...]: load seqring.ko with CAPACITY, run
# $BIN/PROG ARG... into $T/PROG.tap, unload. Sets RUN_RC (the program's
# exit status) and RMMOD_OK (yes/no).
prog_pair_run() {
	_p=$1 _cap=$2
	shift 2
	: >"$T/$_p.tap"
	if ! load_seqring capacity="$_cap" >"$T/$_p.load" 2>&1; then
		echo "# insmod seqring.ko capacity=$_cap failed: $(cat "$T/$_p.load")" \
			>"$T/$_p.tap"
	fi
	"$BIN/$_p" "$@" >>"$T/$_p.tap" 2>&1
	RUN_RC=$?
	if unload_seqring >"$T/$_p.rmmod" 2>&1; then
		RMMOD_OK=yes
	else
		RMMOD_OK=no
		rmmod seqring 2>/dev/null
	fi
}

# prog_pair_report PROG PREFIX RC RMMOD_OK: replay the program's TAP and
# add its two own tests (it ran its whole plan, rmmod works after it).
prog_pair_report() {
	tap_include "$2" "$T/$1.tap"
	_ran=$TAP_INC_RAN
	# Keep the count promised by the plan line printed before.
	while [ "$TAP_INC_RAN" -lt "$TAP_INC_PLAN" ]; do
		TAP_INC_RAN=$((TAP_INC_RAN + 1))
		not_ok "$2$1 test $TAP_INC_RAN not run: the program stopped early"
	done
	_desc="$2$1 ran its whole plan ($TAP_INC_PLAN tests) and exited normally"
	if [ "$TAP_INC_PLAN" -gt 0 ] && [ "$_ran" -eq "$TAP_INC_PLAN" ] &&
	   [ "$3" -le 1 ]; then
		ok "$_desc"
	else
		not_ok "$_desc" "expected $TAP_INC_PLAN results and exit status 0 or 1, got $_ran results and exit status $3"
	fi
	if [ "$4" = yes ]; then
		ok "$2rmmod seqring after $1 exited"
	else
		not_ok "$2rmmod seqring after $1 exited" "$(cat "$T/$1.rmmod")"
	fi
}

# prog_pair PROG CAPACITY WHAT [ARG...]: the whole of a script that runs a
# C TAP program natively (64-bit) and, when it was built, as PROG32 (i386,
# through compat_ioctl), each against a freshly loaded module, and passes
# their TAP through as its own tests, prefixed [64] / [32]. WHAT names the
# ABI for the skip message.
prog_pair() {
	_prog=$1 _capacity=$2 _what=$3
	shift 3
	prog_pair_run "$_prog" "$_capacity" "$@"
	_rc64=$RUN_RC _rm64=$RMMOD_OK
	_n64=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$T/$_prog.tap" | head -n 1)
	_total=$((${_n64:-0} + 2))

	_skip32=
	if [ ! -x "$BIN/${_prog}32" ]; then
		_skip32="${_prog}32 not built: the build host's cc cannot link -m32 -static (install gcc-multilib)"
	elif ! "$BIN/${_prog}32" --help 2>&1 | grep -q '^usage:'; then
		_skip32="this kernel cannot run i386 binaries (CONFIG_IA32_EMULATION off?)"
	fi
	if [ -z "$_skip32" ]; then
		prog_pair_run "${_prog}32" "$_capacity" "$@"
		_rc32=$RUN_RC _rm32=$RMMOD_OK
		_n32=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$T/${_prog}32.tap" | head -n 1)
		_total=$((_total + ${_n32:-0} + 2))
	else
		_total=$((_total + 1))
	fi

	plan "$_total"
	prog_pair_report "$_prog" "[64] " "$_rc64" "$_rm64"
	if [ -z "$_skip32" ]; then
		prog_pair_report "${_prog}32" "[32] " "$_rc32" "$_rm32"
	else
		skip "[32] the $_what ABI through compat_ioctl (${_prog}32)" "$_skip32"
	fi
	done_testing
}

# ---- forged regions of the persistent ring (tests/progs/forge.c) ----

# forge_hold PHYS SIZE: keep [PHYS, PHYS + SIZE) writable as
# /sys/kernel/debug/seqring_ramprobe/mem (seqring_ramprobe.ko op=hold)
# until forge_release; forge_put IMAGE writes a region there, as a
# previous boot (or load) would have left it.
FORGE_MEM=/sys/kernel/debug/seqring_ramprobe/mem
forge_hold() {
	insmod "$MODDIR/seqring_ramprobe.ko" phys="$1" size="$2" op=hold
}
forge_put() {
	cat "$1" >$FORGE_MEM
}
forge_release() {
	rmmod seqring_ramprobe
}

# forge_make TAG SIZE FORGE-ARGS...: forge a region of SIZE bytes (forge
# -S SIZE FORGE-ARGS) into $T/fo.img, the forger's expectations into
# $FORGE_DIR/TAG.exp and .want, what it varied into $FORGE_DIR/forge.varied.
FORGE_DIR=$T
forge_make() {
	_fm_tag=$1 _fm_size=$2
	shift 2
	if ! "$BIN/forge" -S "$_fm_size" -o "$T/fo.img" -e "$FORGE_DIR/$_fm_tag.exp" \
		-w "$FORGE_DIR/$_fm_tag.want" "$@" 2>"$T/fo.varied"; then
		echo "$_fm_tag: forge $*: $(cat "$T/fo.varied")" >>"$FORGE_DIR/forge.load"
		return 1
	fi
	echo "$_fm_tag: $(sed 's/^forge: //' "$T/fo.varied")" >>"$FORGE_DIR/forge.varied"
}

# forge_check TAG PHYS SIZE: load seqring.ko over the region at PHYS (put
# there by forge_put, now or before a reboot) and compare what it shows
# with what the forger expected (forge_make TAG). Each difference is a
# line "TAG: ..." in $FORGE_DIR/forge.PROPERTY (load, msg, prev, dump,
# listing, region, next, unload). Leaves seqring.ko unloaded.
forge_check() {
	_fc_tag=$1 _fc_phys=$2 _fc_size=$3 _fc_d=$FORGE_DIR
	EXPECT_MSG= EXPECT_PREV= EXPECT_NEXT= EXPECT_REGION=
	. "$_fc_d/$_fc_tag.exp"
	kmsg_mark "forge-$_fc_tag"
	# insmod and rmmod without waiting for udev: devtmpfs makes the nodes,
	# and root needs no rule to open them (tens of seconds in a sweep).
	if ! insmod "$MODDIR/seqring.ko" persist_addr="$_fc_phys" persist_size="$_fc_size" \
		>"$T/fc.load" 2>&1; then
		echo "$_fc_tag: load failed: $(cat "$T/fc.load")" >>"$_fc_d/forge.load"
		return
	fi
	region_msgs "forge-$_fc_tag" >"$T/fc.msgs"
	_fc_msg=$(sed -n 's/.*seqring: region [^ ]*: //p' "$T/fc.msgs")
	[ "$(grep -c . "$T/fc.msgs")" = 1 ] && [ "$_fc_msg" = "$EXPECT_MSG" ] ||
		echo "$_fc_tag: expected '$EXPECT_MSG', got '$(tr '\n' '|' <"$T/fc.msgs")'" >>"$_fc_d/forge.msg"
	if [ -c /dev/seqring.prev ]; then _fc_prev=1; else _fc_prev=0; fi
	[ "$_fc_prev" = "$EXPECT_PREV" ] ||
		echo "$_fc_tag: /dev/seqring.prev: expected $EXPECT_PREV, got $_fc_prev" >>"$_fc_d/forge.prev"
	if [ "$_fc_prev" = 1 ]; then
		seqringctl dump --boot -1 >"$T/fc.dump" 2>"$T/fc.dump.err"
		cmp -s "$_fc_d/$_fc_tag.want" "$T/fc.dump" ||
			echo "$_fc_tag: dump --boot -1: $(diff "$_fc_d/$_fc_tag.want" "$T/fc.dump" | grep '^[-+][0-9]' | head -n 3 | tr '\n' '|')" >>"$_fc_d/forge.dump"
		grep -v '^#' /sys/kernel/debug/seqring.prev/readings >"$T/fc.listing" 2>&1
		cmp -s "$_fc_d/$_fc_tag.want" "$T/fc.listing" ||
			echo "$_fc_tag: listing: $(diff "$_fc_d/$_fc_tag.want" "$T/fc.listing" | grep '^[-+][0-9]' | head -n 3 | tr '\n' '|')" >>"$_fc_d/forge.listing"
		_fc_region=$(sed 1d /sys/kernel/debug/seqring.prev/region 2>&1 | tr '\n' ' ')
		[ "$_fc_region" = "$EXPECT_REGION " ] ||
			echo "$_fc_tag: region: expected '$EXPECT_REGION', got '$_fc_region'" >>"$_fc_d/forge.region"
	fi
	# One push, no more: a ring that went on next to the BUSY bit would
	# show it here, and a lap of pushes would hang the kernel.
	seqringctl push -l next 1 >/dev/null 2>&1
	_fc_next=$(seqringctl dump 2>/dev/null | tail -n 1 | cut -d ' ' -f 1)
	[ "$_fc_next" = "$EXPECT_NEXT" ] ||
		echo "$_fc_tag: the new ring's first reading: expected $EXPECT_NEXT, got '$_fc_next'" >>"$_fc_d/forge.next"
	rmmod seqring >"$T/fc.unload" 2>&1 ||
		echo "$_fc_tag: unload: $(cat "$T/fc.unload")" >>"$_fc_d/forge.unload"
}

# forge_one TAG PHYS SIZE FORGE-ARGS...: forge_make, forge_put (into a
# range forge_hold holds), forge_check, in one boot.
forge_one() {
	_fo_tag=$1 _fo_phys=$2 _fo_size=$3
	shift 3
	forge_make "$_fo_tag" "$_fo_size" "$@" || return
	forge_put "$T/fo.img"
	forge_check "$_fo_tag" "$_fo_phys" "$_fo_size"
	rm -f "$FORGE_DIR/$_fo_tag.exp" "$FORGE_DIR/$_fo_tag.want"
}

# forge_sweep PHYS SEED: forge_one for every case of forge -l in a region
# of 64 KiB, and some in regions of other sizes (the smallest, 4 pages; 5;
# 1 MiB) and laid out for other page sizes (not with FORGE_SWEEP=short);
# the region of issue 34's readings at 1 MiB. Needs 1 MiB at PHYS and
# forge_hold of it. Sets FORGE_REGIONS to the number of regions.
forge_sweep() {
	_fs_phys=$1 _fs_seed=$2 _fs_n=0
	for _fs_case in $("$BIN/forge" -l | cut -f 1); do
		_fs_n=$((_fs_n + 1))
		forge_one "$_fs_case-64k" "$_fs_phys" 65536 -s "$((_fs_seed + _fs_n))" "$_fs_case"
	done
	# FORGE_SWEEP=short (VM_APPEND): the 64 KiB regions and issue 34's only.
	[ "${FORGE_SWEEP:-full}" = short ] && _fs_sizes= || _fs_sizes="16384 20480 1048576"
	for _fs_size in $_fs_sizes; do
		for _fs_case in valid mixed above-next above-next-lap next-63-1 reading-nonul header-capacity; do
			_fs_n=$((_fs_n + 1))
			forge_one "$_fs_case-$_fs_size" "$_fs_phys" "$_fs_size" -s "$((_fs_seed + _fs_n))" "$_fs_case"
		done
	done
	for _fs_page in ${_fs_sizes:+16384 65536}; do
		_fs_n=$((_fs_n + 1))
		forge_one "valid-page$_fs_page" "$_fs_phys" 262144 -P "$_fs_page" -s "$((_fs_seed + _fs_n))" valid
	done
	_fs_n=$((_fs_n + 1))
	forge_one "labels-34-1m" "$_fs_phys" 1048576 -s "$((_fs_seed + _fs_n))" labels-34
	udevadm settle
	FORGE_REGIONS=$_fs_n
}

# forge_results N: the TAP results (8) of N regions forge_check checked;
# each failure shows the first regions that failed it and what they varied.
forge_results() {
	for _fr in load:"seqring.ko loads over each of $1 forged regions" \
		msg:"... one kernel message each, what the format makes of the region" \
		prev:"... /dev/seqring.prev exactly when the region holds an intact reading" \
		dump:"... dump --boot -1 shows exactly the readings a push could have made, as stored" \
		listing:"... the debugfs listing of seqring.prev shows the same" \
		region:"... seqring.prev/region counts them: first, end, next, intact, lost, refused" \
		next:"... the new ring goes on after the newest intact reading (from 1 if none)" \
		unload:"... and unloads"; do
		_fr_f=$FORGE_DIR/forge.${_fr%%:*}
		if [ -s "$_fr_f" ]; then
			not_ok "${_fr#*:}" "$(grep -c . "$_fr_f") regions differ; the first:" \
				"$(head -n 3 "$_fr_f")" "what they varied:" \
				"$(head -n 3 "$_fr_f" | cut -d : -f 1 | while read -r _fr_t; do
					grep "^$_fr_t:" "$FORGE_DIR/forge.varied"; done)"
		else
			ok "${_fr#*:}"
		fi
	done
}
