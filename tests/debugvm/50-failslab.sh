#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures (failslab + fail_page_alloc, through fail-nth): every
# allocation an operation makes is failed once, one run of the operation
# per allocation, and every run must end cleanly: success (the failure was
# tolerated) or ENOMEM, nothing half-registered after a failed load, the
# driver still working afterwards, and no kernel report (checked here, see
# below; kmemleak in 90-kmemleak.sh then finds the error paths' leaks).
#
# tests/bin/failnth N OP ... runs OP with the Nth fault-injection point of
# the calling thread failed; N goes up from 1 until the operation gets
# through without reaching the Nth point, so every point, in the driver and
# in the kernel code it calls, has failed once. The points are the slab
# allocations (failslab), which is all the driver's allocations of at most
# a page. For the largest PUSH_BATCH, page allocations of order 1 and up
# (fail_page_alloc) count as well, for the vmalloc() of its own copy.
# Elsewhere they stay off: the slab allocator's own order-1+ page
# allocations happen whenever a slab runs empty, which would shift the
# numbering between runs and let a sweep skip a point.
#
# Allocation failures in the kernel's own vmalloc() calls (module loader)
# print "vmalloc error: ..." with a stack dump; they are
# expected here, as are the kernel's warnings tests/vm/expected-warnings
# lists. Any real report (Oops/BUG/WARNING/KASAN/UBSAN/lockdep)
# logged while this script runs fails its last test, so that it is pinned
# on this script and shown in full (the host checks the whole log as well).
#
# Allocation sites of the driver and the operation that reaches each:
#   main.c      kzalloc(struct seqring)                 load
#   ring.c      kmalloc(slots header)                   load, capacity=16
#               (ring memory: GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL;
#               the meta page and a one-page ring's slots come from
#               the page allocator, which failslab does not fail here)
#   ring.c      vmalloc(slots)                          load, capacity=1000
#               (its own slab allocations, and a per-CPU preload of
#               its vmap_area that one load makes and the next does
#               not: the points after it alternate by one between
#               loads, which is why the window below loads a ring of
#               one page)
#   procfs.c    proc_create_data(/proc/seqring)         load
#   debugfs.c   debugfs_create_dir/file (failure ok)    load
#   chardev.c   misc_register(), sysfs groups, uevent   load
#   chardev.c   kzalloc(struct seqring_client)          open /dev/seqring
#   chardev.c   file's batch buffer, kmalloc            PUSH_BATCH of 10
#   chardev.c   file's batch buffer, vmalloc            PUSH_BATCH of 2000
#   chardev.c   vmalloc(batch copy), over 4096 readings PUSH_BATCH of 5000
#                                                       (200000 bytes,
#                                                       charged to the
#                                                       caller's memcg)
#   listing.c   __seq_open_private(), iterator, buffer  open + read of
#                                                       /proc/seqring and
#                                                       debugfs readings
#   debugfs.c   single_open(), seq_file buffer          open + read of
#                                                       debugfs stats,
#                                                       clients
#   chardev.c   __getname() (a path buffer)             read of debugfs
#                                                       clients
#   sysfs.c     sysfs buffer (kernfs)                   open + read of
#                                                       /sys/class/misc/
#                                                       seqring/count
#   ring.c      kmalloc(slots header) of a resize       SET_CAPACITY 20
#   ring.c      vmalloc(slots) of a resize              SET_CAPACITY 2000
#   sysfs.c     the same, through sysfs capacity        write "2000"
#   sequence.c  proc_create()                           load sequence.ko
#   PUSH, GET_STATS and CLEAR allocate nothing; they run once each with
#   injection armed to show that.

# shellcheck disable=SC2317 # the checks are called through sweep
# shellcheck source=SCRIPTDIR/../lib.sh
. "${TESTS_DIR:-/tests}/lib.sh"

FAILSLAB=/sys/kernel/debug/failslab
FAILPAGE=/sys/kernel/debug/fail_page_alloc
FAILNTH=$BIN/failnth
MAXN=2000

if [ ! -d "$FAILSLAB" ] || [ ! -d "$FAILPAGE" ] ||
   [ ! -e /proc/thread-self/fail-nth ]; then
	echo "1..0 # SKIP no failslab/fail_page_alloc/fail-nth (not the debug kernel)"
	exit 0
fi
# On the debug kernel a missing helper is a packaging bug, not a skip.
if [ ! -x "$FAILNTH" ]; then
	echo "1..1"
	echo "not ok 1 - $FAILNTH exists (tests/progs/failnth.c, built static into the image)"
	exit 1
fi

# Only fail-nth injects (probability stays 0); GFP_KERNEL allocations count
# too; no stack dump per injection.
for d in "$FAILSLAB" "$FAILPAGE"; do
	echo 0 >"$d/probability"
	echo 0 >"$d/verbose"
done
echo N >"$FAILSLAB/ignore-gfp-wait"

# page_points on|off: count page allocations of order >= 1, or none (no
# order reaches 11).
page_points() {
	if [ "$1" = on ]; then
		echo 1 >"$FAILPAGE/min-order"
		echo N >"$FAILPAGE/ignore-gfp-wait"
	else
		echo 11 >"$FAILPAGE/min-order"
		echo Y >"$FAILPAGE/ignore-gfp-wait"
	fi
}
page_points off

kmsg_mark "50-failslab start"

plan 29

# leftovers: what a failed load must not leave behind.
leftovers() {
	for p in /sys/module/seqring /proc/seqring /dev/seqring \
		 /sys/class/misc/seqring "$DEBUGFS"; do
		[ -e "$p" ] && echo "$p"
	done
}

# sweep DESC CHECK_FN OP ARGS...: run failnth N OP ARGS for N = SWEEP_FROM
# (default 1), SWEEP_FROM + 1, ... until the operation no longer reaches the
# Nth point. After each run,
# CHECK_FN RESULT must succeed (RESULT: ok, ENOMEM, ...). Passes if every
# run was clean; reports how many points were failed.
sweep() {
	_desc=$1
	_check=$2
	shift 2
	_n=${SWEEP_FROM:-1}
	_bad=
	_enomem=0
	_tolerated=0
	while [ $_n -le $MAXN ]; do
		_out=$("$FAILNTH" $_n "$@" 2>&1)
		_st=${_out%% *}
		_res=${_out#* }
		case $_st in
		injected | not-injected) ;;
		*) _bad="N=$_n: failnth failed: $_out"; break ;;
		esac
		if ! _why=$($_check "$_res" 2>&1); then
			_bad="N=$_n: $_st $_res: $_why"
			break
		fi
		[ "$_st" = not-injected ] && break
		case $_res in
		ENOMEM) _enomem=$((_enomem + 1)) ;;
		ok) _tolerated=$((_tolerated + 1)) ;;
		esac
		_n=$((_n + 1))
	done
	if [ -n "$_bad" ]; then
		not_ok "$_desc" "$_bad"
	elif [ $_n -gt $MAXN ]; then
		not_ok "$_desc" "still injecting after $MAXN points"
	elif [ "$_res" != ok ]; then
		not_ok "$_desc" "without injection: $_res"
	else
		ok "$_desc ($((_n - ${SWEEP_FROM:-1})) points failed: $_enomem ENOMEM, $_tolerated tolerated)"
	fi
	SWEEP_POINTS=$((_n - 1))
	SWEEP_FROM=1
}

# Result checks for sweep.
enomem_or_ok() {
	case $1 in ok | ENOMEM) return 0 ;; esac
	echo "expected ok or ENOMEM"
	return 1
}

# A load attempt: failed cleanly (nothing left) or loaded and working.
load_result() {
	case $1 in
	ok)
		[ -c "$DEV" ] || { echo "loaded but no $DEV"; rmmod seqring; return 1; }
		"$BIN/push_n" 3 || { echo "loaded but push fails"; rmmod seqring; return 1; }
		rmmod seqring || { echo "loaded but rmmod fails"; return 1; }
		;;
	ENOMEM) ;;
	*)
		echo "expected ok or ENOMEM"
		rmmod seqring 2>/dev/null
		return 1
		;;
	esac
	_left=$(leftovers)
	[ -z "$_left" ] && return 0
	echo "left behind: $_left"
	rmmod seqring 2>/dev/null
	return 1
}

seq_load_result() {
	case $1 in
	ok) head -n 3 /proc/sequence >/dev/null && rmmod sequence ;;
	ENOMEM)
		if [ -e /proc/sequence ] || [ -d /sys/module/sequence ]; then
			echo "left behind /proc/sequence or the module"
			rmmod sequence
			return 1
		fi
		;;
	*) echo "expected ok or ENOMEM"; rmmod sequence 2>/dev/null; return 1 ;;
	esac
}

# --- module load --------------------------------------------------------------
sweep "load (capacity=16): every allocation fails once, cleanly" \
	load_result load "$MODDIR/seqring.ko" capacity=16
load_points=$SWEEP_POINTS

# A ring over a page comes from vmalloc(): the driver's init is in the last
# ~100 points of a load (see below), so sweep from there only.
kmsg_mark "50-failslab vmalloc ring"
SWEEP_FROM=$((load_points > 120 ? load_points - 120 : 1))
sweep "load (capacity=1000, vmalloc ring): the allocations of its last points fail once, cleanly" \
	load_result load "$MODDIR/seqring.ko" capacity=1000
if dmesg_since "50-failslab vmalloc ring" | grep -q 'cannot allocate a ring of 1000'; then
	ok "the vmalloc() of the ring was among the failed points"
else
	not_ok "the vmalloc() of the ring was among the failed points" \
		"no 'cannot allocate a ring of 1000' in the kernel log"
fi

# The numbering jitters by a few points between runs (per-CPU caches of
# the radix tree, xarray, percpu allocators refill now and then), so one
# sweep may step over a site. The driver's init runs last in a load, in
# the last ~100 points: sweep that window again, with a stack dump per
# injection, until each allocation of seqring_init() has failed at least
# once. Evidence: the stack dumps, as "caller:callee" pairs of the
# driver's init functions (seqring_alloc() and seqring_register() are
# shared with seqring_create(); a tail call drops its caller's frame, so
# the sites other than kzalloc name only the callee), and for the ring,
# whose __GFP_NOWARN allocation fails without a dump, the driver's
# "cannot allocate a ring" message.
SITES="kzalloc:^seqring_alloc:(kmalloc_trace|kmem_cache_alloc_trace|__kmalloc)\$
ring:^RING\$
proc_create_data::seqring_procfs_init\$
debugfs::seqring_debugfs_init\$
misc_register::misc_register\$"

# evidence < KERNEL_LOG: caller:callee for each call made by a function of
# seqring_init()'s path in the stack dumps (only reliable frames, not the
# "? func" guesses), and RING for the message.
evidence() {
	sed 's/^<[0-9]*>\[ *[0-9.]*\] //' | awk '
	/cannot allocate a ring/ { print "RING" }
	/^ [^ ?][^ ]*\+0x/ {
		f = $1; sub(/\+.*/, "", f)
		if (f ~ /^seqring_(init|alloc|register|chardev_register)$/)
			print f ":" prev
		prev = f
	}' | sort -u
}

missing=$(echo "$SITES" | cut -d: -f1 | tr '\n' ' ')
seen=$T/seen
: >"$seen"
pass=0
echo 2 >"$FAILSLAB/verbose"
while [ -n "${missing% }" ] && [ $pass -lt 3 ]; do
	pass=$((pass + 1))
	kmsg_mark "50-failslab window $pass"
	n=$((load_points > 120 ? load_points - 120 : 1))
	while [ $n -le $((load_points + 3)) ]; do
		r=$("$FAILNTH" $n load "$MODDIR/seqring.ko" capacity=16)
		load_result "${r#* }" >/dev/null
		n=$((n + 1))
	done
	dmesg_since "50-failslab window $pass" | evidence >>"$seen"
	missing=
	for site in $SITES; do
		grep -Eq "${site#*:}" "$seen" || missing="$missing${site%%:*} "
	done
done
echo 0 >"$FAILSLAB/verbose"
if [ -z "$missing" ]; then
	ok "each allocation of seqring_init failed at least once ($pass window pass(es))"
else
	not_ok "each allocation of seqring_init failed at least once" \
		"not seen failing after $pass window passes: $missing" \
		"seen: $(sort -u "$seen" | tr '\n' ' ')"
fi
udevadm settle

# --- the character device -----------------------------------------------------
check_load "seqring.ko loads (capacity=1000) for the next tests" capacity=1000
push 5 >/dev/null
sweep "open /dev/seqring for writing" enomem_or_ok open "$DEV" w
is 0 "$(debugfs_stat clients)" "no client is left registered after the failed opens"
sweep "open /dev/seqring read-only" enomem_or_ok open "$DEV" r
sweep "PUSH_BATCH of 10 readings (file's buffer, kmalloc)" \
	enomem_or_ok batch "$DEV" 10
sweep "PUSH_BATCH of 2000 readings (file's buffer, vmalloc)" \
	enomem_or_ok batch "$DEV" 2000
page_points on
sweep "PUSH_BATCH of 5000 readings (its own vmalloc copy)" \
	enomem_or_ok batch "$DEV" 5000
page_points off
total=$(stat_get total)
sweep "PUSH" enomem_or_ok push "$DEV"
is 0 "$SWEEP_POINTS" "PUSH has no fault-injection point"
sweep "GET_STATS" enomem_or_ok stats "$DEV"
sweep "CLEAR" enomem_or_ok clear "$DEV"
is $((total + 1)) "$(stat_get total)" \
	"after the PUSH sweep, total grew by exactly its one successful PUSH"

# --- resizing ---------------------------------------------------------------------
# A failed resize leaves the old ring as it was: same capacity, counters
# and listing; a resize that got through keeps the newest readings that fit.
# After each sweep the capacity goes back to 1000 (no injection then).
push 50 >/dev/null
cat "$PROC" >"$T/before"
"$BIN/getstats" >"$T/stats-before"

# resize_result CAPACITY RESULT
resize_result() {
	case $2 in
	ENOMEM)
		[ "$(stat_get capacity)" = 1000 ] ||
			{ echo "capacity $(stat_get capacity) after ENOMEM"; return 1; }
		"$BIN/getstats" >"$T/stats-after"
		cmp -s "$T/stats-before" "$T/stats-after" ||
			{ echo "counters changed:"; cat "$T/stats-after"; return 1; }
		cat "$PROC" >"$T/after"
		cmp -s "$T/before" "$T/after" ||
			{ echo "listing changed: $(cmp "$T/before" "$T/after")"; return 1; }
		;;
	ok)
		[ "$(stat_get capacity)" = "$1" ] ||
			{ echo "capacity $(stat_get capacity), expected $1"; return 1; }
		keep=$(($(wc -l <"$T/before") - 1))
		[ "$keep" -gt "$1" ] && keep=$1
		head -n 1 "$T/before" >"$T/want"
		tail -n "$keep" "$T/before" >>"$T/want"
		cat "$PROC" >"$T/after"
		cmp -s "$T/want" "$T/after" ||
			{ echo "listing is not the newest $keep readings"; return 1; }
		# An injected failure that was tolerated (vmalloc has
		# fallbacks) resized the ring: the next run of the sweep must
		# start from capacity 1000 again, with a new snapshot.
		"$BIN/failnth" 0 capacity "$DEV" 1000 >/dev/null ||
			{ echo "cannot resize back to 1000"; return 1; }
		cat "$PROC" >"$T/before"
		"$BIN/getstats" >"$T/stats-before"
		;;
	*) echo "expected ok or ENOMEM"; return 1 ;;
	esac
}
resize_small() { resize_result 20 "$1"; }
resize_big() { resize_result 2000 "$1"; }

sweep "SET_CAPACITY 1000 -> 20 (one page): ENOMEM leaves the old ring intact" \
	resize_small capacity "$DEV" 20
"$BIN/failnth" 0 capacity "$DEV" 1000 >/dev/null
push 50 >/dev/null
cat "$PROC" >"$T/before"
"$BIN/getstats" >"$T/stats-before"
sweep "SET_CAPACITY 1000 -> 2000 (24 pages): ENOMEM leaves the old ring intact" \
	resize_big capacity "$DEV" 2000
"$BIN/failnth" 0 capacity "$DEV" 1000 >/dev/null
cat "$PROC" >"$T/before"
"$BIN/getstats" >"$T/stats-before"
sweep "write 2000 to sysfs capacity: ENOMEM leaves the old ring intact" \
	resize_big write "$SYSFS/capacity" 2000
"$BIN/failnth" 0 capacity "$DEV" 1000 >/dev/null
is 1000 "$(stat_get capacity)" "the capacity is back to 1000 after the resize sweeps"

# --- seq_files and sysfs --------------------------------------------------------
push 50 >/dev/null
sweep "open and read /proc/seqring" enomem_or_ok openread "$PROC"
sweep "read /proc/seqring (the open not failed)" enomem_or_ok read "$PROC"
for f in readings stats clients; do
	sweep "open and read debugfs $f" enomem_or_ok openread "$DEBUGFS/$f"
done
sweep "open and read sysfs count" enomem_or_ok openread "$SYSFS/count"
check_unload "seqring.ko unloads after all that"

# --- sequence.ko ----------------------------------------------------------------
sweep "load sequence.ko: every allocation fails once, cleanly" \
	seq_load_result load "$MODDIR/sequence.ko"
udevadm settle

# --- the kernel log ---------------------------------------------------------------
report_re='Oops|BUG:|WARNING:|Kernel panic|kernel BUG|general protection fault|'
report_re=$report_re'soft lockup|hard LOCKUP|rcu.*detected stalls|blocked for more than|'
report_re=$report_re'KASAN|UBSAN|possible circular locking|inconsistent lock state|'
report_re=$report_re'possible recursive locking|suspicious RCU usage|bad unlock balance|'
report_re=$report_re'lockdep is turned off|list_(add|del) corruption|usercopy:'
# Less the kernel's own warnings on injected failures (tests/vm/expected-warnings).
grep -vE '^(#|$)' "${TESTS_DIR:-/tests}/expected-warnings" >"$T/expected"
dmesg_since "50-failslab start" | grep -vEf "$T/expected" >"$T/log"
if grep -Eq "$report_re" "$T/log"; then
	not_ok "no kernel report during the sweeps (only expected allocation failure warnings)" \
		"$(grep -En "$report_re" "$T/log" | head -n 20)" \
		"kernel log from the first report:" \
		"$(sed -n "$(grep -Enm1 "$report_re" "$T/log" | cut -d: -f1),+60p" "$T/log")"
else
	ok "no kernel report during the sweeps ($(grep -c 'vmalloc error\|page allocation failure' "$T/log") expected allocation failure warnings)"
fi
done_testing
