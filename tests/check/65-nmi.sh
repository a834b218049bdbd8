#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Pushes from NMI (tests/kmod/seqring_nmi.c; x86: NMIs through the local
# APIC, an NMI_LOCAL handler that pushes with seqring_push(); arm64: the
# PMU's overflow handler, an NMI with pseudo-NMI, irqchip.gicv3_pseudo_nmi=1
# on a GICv3, which the harness gives arm64 guests):
#   - a storm: on every CPU a kthread and a hard hrtimer push while NMIs
#     land on every CPU, each NMI pushing too; NMIs are handled, and
#     pushed from, on every CPU, and none is of unknown reason (x86 merges
#     an NMI sent while one is pending); then every reading is there once,
#     intact, in order: each producer's values 1..n in sequence order, its
#     label, consecutive sequence numbers, total = the readings the
#     producers stored, lost = the pushes that failed;
#   - a hook at each step of the writer (reserved, storing, stored, walk,
#     migrate, clear) raises an NMI on the CPU standing there, which pushes
#     into the same ring: it lands at each (nothing deadlocks: the hook
#     waits at most 1 ms), stores in a ring with free slots, and its
#     readings are there, intact;
#   - in a ring of 1 slot each push of a batch reserves it: an NMI that
#     lands after the reservation finds no free slot, fails with ENOBUFS
#     and is counted in lost, never waits; the ring goes on.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

NMI_KO=$MODDIR/seqring_nmi.ko
NMI=/sys/kernel/debug/seqring_nmi
CTL=${SEQRINGCTL:-seqringctl}
POINTS="reserved storing stored walk migrate clear"

if [ ! -f "$NMI_KO" ]; then
	echo "1..0 # SKIP no $NMI_KO (the test modules are built from the source tree only)"
	exit 0
fi
case $(uname -m) in
x86_64 | aarch64) ;;
*)
	echo "1..0 # SKIP NMIs come from the x86 local APIC or the arm64 PMU; $(uname -m) has no such test here"
	exit 0
	;;
esac

plan 35

nctl() {
	"$BIN/ctl" "$NMI/control" "$*"
	case $1 in create | destroy) udevadm settle ;; esac
}

# status WHO CHANNEL FIELD: a field of a producer's status line.
status() {
	awk -v w="$1" -v c="$2" -v f="$3" '
		$1 == w && $2 == c { for (i = 3; i < NF; i += 2) if ($i == f) print $(i + 1) }' \
		"$NMI/status"
}

# status_sum FIELD [WHO]: a field summed over the producers (of WHO).
status_sum() {
	awk -v f="$1" -v w="${2:-}" '
		$1 == "task" || $1 == "irq" || $1 == "nmi" || $1 == "hook" || $1 == "resize" {
			if (w != "" && $1 != w)
				next
			for (i = 3; i < NF; i += 2) if ($i == f) s += $(i + 1)
		}
		END { print s + 0 }' "$NMI/status"
}

# point NAME FIELD: raised, landed or timeouts of a hook point.
point() {
	awk -v p="$1" -v f="$2" '
		$1 == "point" && $2 == p { for (i = 3; i < NF; i += 2) if ($i == f) print $(i + 1) }' \
		"$NMI/status"
}

# verify LISTING [CHANNEL...]: what the listing shows against the module's
# status. Prints one line per problem; nothing when every reading of every
# producer is there once, in order, with its label, and the sequence
# numbers are consecutive. Readings of the CHANNELs (pushed by the test
# itself) count only for the sequence numbers.
verify() {
	_vf=$1
	shift
	awk -v status="$NMI/status" -v ignore=" $* " '
		BEGIN {
			while ((getline line < status) > 0) {
				split(line, f, " ")
				if (f[1] == "task" || f[1] == "irq" || f[1] == "nmi" ||
				    f[1] == "hook" || f[1] == "resize") {
					want[f[2]] = f[4]
					lab[f[2]] = f[1] == "hook" ? "hook-nmi" : f[1]
				}
			}
		}
		{
			if (NR > 1 && $1 != seq + 1)
				print "sequence numbers jump from " seq " to " $1
			seq = $1
			if (index(ignore, " " $3 " "))
				next
			n[$3]++
			if ($4 != n[$3])
				bad[$3] = "value " $4 " where " n[$3] " was due"
			if ($5 != lab[$3])
				bad[$3] = "label " $5 " where " lab[$3] " was due"
		}
		END {
			for (c in want)
				if (n[c] + 0 != want[c])
					print "channel " c ": " n[c] + 0 " readings, the producer stored " want[c]
			for (c in n)
				if (!(c in want))
					print "channel " c ": readings of no producer"
			for (c in bad)
				print "channel " c ": " bad[c]
		}' "$_vf" | head -n 20
}

check_load "load seqring.ko"
check "load seqring_nmi.ko" insmod "$NMI_KO"
is ok "$(nctl create nmi 262144)" "create ring nmi of 262144 readings"

# --- the storm ---------------------------------------------------------------
kmsg_mark nmi-storm
is ok "$(nctl storm 1500)" "storm: 1.5 s of pushes from kthreads, hard interrupts and NMIs on every CPU"
cpus=$(awk '$1 == "nmi-cpu" { n++ } END { print n + 0 }' "$NMI/status")
notnmi=$(awk '$1 == "nmi-cpu" { n += $10 } END { print n + 0 }' "$NMI/status")
if [ "$notnmi" -gt 0 ]; then
	# arm64 without pseudo-NMI: the PMU's interrupt is a hard one.
	diag "$(grep nmi-cpu "$NMI/status" | tr '\n' ';')"
	nctl destroy >/dev/null
	rmmod seqring_nmi
	unload_seqring
	skip_rest "the PMU's handler ran in hard interrupt context $notnmi times, not NMI: this kernel has no pseudo-NMI (Debian's arm64 kernels are built without CONFIG_ARM64_PSEUDO_NMI)"
fi
sent=$(awk '$1 == "nmi-cpu" && $4 > 0 && $6 > 0 && $6 <= $4 && $8 == $6 { n++ } END { print n + 0 }' "$NMI/status")
is "$cpus" "$sent" "every CPU was sent NMIs and handled them, in NMI context"
is "" "$(dmesg_since nmi-storm | grep 'NMI received for unknown reason')" "no NMI of unknown reason"
diag "$(grep nmi-cpu "$NMI/status" | tr '\n' ';')"
got=0
for c in $(awk '$1 == "nmi" { print $2 }' "$NMI/status"); do
	[ "$(status nmi "$c" stored)" -gt 0 ] && got=$((got + 1))
done
is "$cpus" "$got" "on every CPU, pushes from NMI were stored"
is "0 0" "$(status_sum other) $(ring_stat nmi dropped)" "no push failed but for a full ring, none dropped"
is "$(status_sum stored)" "$(ring_stat nmi total)" "total: every reading a producer stored, no more"
is "$(status_sum enobufs)" "$(ring_stat nmi lost)" "lost: every push that failed (ENOBUFS), no more"
diag "stored: $(status_sum stored task) by kthreads, $(status_sum stored irq) by hard interrupts, $(status_sum stored nmi) by NMIs; lost $(ring_stat nmi lost)"
listing /sys/kernel/debug/seqring-nmi/readings >"$T/storm"
is "" "$(verify "$T/storm")" \
	"every reading once, intact, in order: values 1..n and the label of each producer, consecutive sequence numbers"

is ok "$(nctl destroy)" "destroy ring nmi"

# --- an NMI at each step of the writer ----------------------------------------
nctl create hook 4096 >/dev/null
is ok "$(nctl hook all)" "ring hook: an NMI at each step of the writer, on the CPU standing there"
"$CTL" -d /dev/seqring-hook push -c 7 -l single 1 >/dev/null &&
	"$CTL" -d /dev/seqring-hook push -c 7 -l single 2 >/dev/null
is 0 $? "two PUSHes"
"$CTL" -d /dev/seqring-hook push -c 8 -l batch $(seq 1 100) >/dev/null
is 0 $? "a PUSH_BATCH of 100"
check "resize to 8192 (with readings pushed during its copy)" \
	sh -c 'echo 8192 >/sys/class/misc/seqring-hook/capacity'
listing /sys/kernel/debug/seqring-hook/readings >"$T/hooked"
is "" "$(verify "$T/hooked" 7 8)" "after them, every reading once, intact, in order (the NMIs' too)"
"$BIN/clear_ring" /dev/seqring-hook
is 0 $? "CLEAR"
for p in $POINTS; do
	r=$(point "$p" raised) l=$(point "$p" landed) t=$(point "$p" timeouts)
	if [ "${r:-0}" -gt 0 ] && [ "$r" = "$l" ] && [ "$t" = 0 ]; then
		ok "an NMI landed at '$p' each time one was raised there ($r), none timed out"
	else
		not_ok "an NMI landed at '$p' each time one was raised there" \
			"raised '$r', landed '$l', timed out '$t'"
	fi
done
is "0 0" "$(status_sum enobufs hook) $(status_sum other hook)" \
	"in a ring with free slots, every push from those NMIs was stored"
# shellcheck disable=SC2046 # the five fields
set -- $(ring_stats hook)
is "$3" "$(($2 + $4 + $5))" "total = count + dropped + cleared ($3 = $2 + $4 + $5)"
is ok "$(nctl unhook)" "unhook"
is ok "$(nctl destroy)" "destroy ring hook"

# --- no free slot -------------------------------------------------------------
nctl create tiny 1 >/dev/null
is ok "$(nctl hook reserved)" "ring tiny of 1 slot, an NMI after each reservation"
"$CTL" -d /dev/seqring-tiny push -c 9 -l batch $(seq 1 64) >/dev/null
is 0 $? "a PUSH_BATCH of 64, in chunks of 1, each taking the slot"
lost=$(ring_stat tiny lost) enobufs=$(status_sum enobufs hook)
if [ "$enobufs" -gt 0 ] && [ "$lost" = "$enobufs" ]; then
	ok "the NMIs found no free slot: ENOBUFS, counted in lost ($lost)"
else
	not_ok "the NMIs found no free slot: ENOBUFS, counted in lost" \
		"ENOBUFS $enobufs, lost '$lost'"
fi
"$CTL" -d /dev/seqring-tiny push -c 9 -l after 65 >/dev/null
is "0 $((65 + $(status_sum stored hook)))" "$? $(ring_stat tiny total)" \
	"a push after them is stored, its NMI's too: total 64 + 1 + the NMIs' stored"
is ok "$(nctl destroy)" "destroy ring tiny"
check "rmmod seqring_nmi" rmmod seqring_nmi
check_unload "rmmod seqring after it"
done_testing
