#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A persistent ring's region as hostile input, on the debug kernel (KASAN,
# lockdep): seqring.ko loads over a region of noise, and over a valid ring
# with crafted or random words written into its header, its counters, its
# slots' sequence words, readings and checksums (tests/kmod/
# seqring_ramprobe.ko op=poke). Each load must succeed, say in one message
# what it found, and show as /dev/seqring.prev only readings that were
# pushed, unaltered, as many as the message counts intact. The host's
# check of the kernel log fails the run on any KASAN or other report.
#
# No reboot: a load finds what the region held when the module was last
# unloaded (seqring(4), "Persistent ring"). The region: 64 KiB (1024
# readings) right above the mem= limit that `make check-debug` boots
# debugvm with; the scan itself is fuzzed more widely by KUnit
# (10-kunit, suite seqring_persist).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

SIZE=65536
PAGE=4096
PREV=/dev/seqring.prev
PROBE=$SEQRING_MODULES/seqring_ramprobe.ko

if ! PHYS=$(crash_range_phys); then
	echo "1..0 # SKIP no mem= on the kernel command line (make check-debug gives debugvm one)"
	exit 0
fi
is_loaded && unload_seqring

# poke OFFSET VALUE: write one word of the region.
poke() {
	insmod "$PROBE" phys="$PHYS" size=$SIZE op=poke offset="$1" value="$2" &&
		rmmod seqring_ramprobe
}

# words CASE SEED: the words the case writes, "OFFSET VALUE" lines, the
# random ones from SEED (diag prints them: a failure can be replayed).
# Slot i is at 2 pages + 48 i (its seq word, then the reading); the 1024
# checksums follow the 12 pages of slots.
words() {
	awk -v c="$1" -v seed="$2" -v page=$PAGE -v size=$SIZE '
	function r(n) { return int(rand() * n) }
	function word() { return sprintf("0x%04x%04x%04x%04x", r(65536), r(65536), r(65536), r(65536)) }
	function slot(i, off) { return 2 * page + 48 * i + off }
	BEGIN {
		srand(seed)
		if (c == "magic") print 0, word()
		else if (c == "version") printf "8 0x%x\n", r(4) + 2
		else if (c == "header") print 8 * r(5), word()
		else if (c == "next-huge") print page + 128, "0x7ffffffffffffff0"
		else if (c == "next-busy") print page + 128, "0x8000000000000005"
		else if (c == "next-zero") print page + 128, 0
		else if (c == "oldest-above") print page + 256, "0x7000000000000000"
		else if (c == "capacity") print page + 8, word()
		else if (c == "seq-words") for (k = 0; k < 3; k++) print slot(r(1024), 0), word()
		else if (c == "readings") for (k = 0; k < 3; k++) print slot(r(1024), 8 * (r(5) + 1)), word()
		else if (c == "checksums") for (k = 0; k < 3; k++) print 14 * page + 8 * r(512), word()
		else if (c == "anywhere") for (k = 0; k < 6; k++) print 8 * r(size / 8), word()
	}'
}
cases="magic version header next-huge next-busy next-zero oldest-above capacity seq-words readings checksums anywhere"

# load TAG: seqring.ko on the region; its message in $T/found.TAG, the
# previous readings in $T/prev.TAG (empty without .prev), the status of
# the load last in $T/load.TAG.
load() {
	kmsg_mark "70-$1"
	load_seqring persist_addr="$PHYS" persist_size=$SIZE >"$T/load.$1" 2>&1
	echo "$?" >>"$T/load.$1"
	dmesg_since "70-$1" | grep -o 'seqring: region .*' >"$T/found.$1"
	: >"$T/prev.$1"
	[ -c $PREV ] && seqringctl dump --boot -1 >"$T/prev.$1" 2>"$T/prev.$1.err"
}

plan 8
kmsg_mark 70-persist-fuzz
failed_loads=''
noise_prev=''
garbage=''
miscount=''
highseq=''
holes=''
messages=''
seed=$(date +%s)
diag "random words from seed $seed"

for seed in 11 12 13; do
	insmod "$PROBE" phys="$PHYS" size=$SIZE seed=$seed op=fill && rmmod seqring_ramprobe
	load "noise$seed"
	[ "$(tail -n 1 "$T/load.noise$seed")" = 0 ] || failed_loads="$failed_loads noise$seed"
	[ -s "$T/prev.noise$seed" ] && noise_prev="$noise_prev noise$seed"
	unload_seqring
done

# A valid ring of 300 readings, left in the region by the unload; each
# case damages it, loads (.prev: what survived), and leaves a new ring of
# 300 for the next case.
load start
feed_readings 300 1 z 7 >/dev/null 2>&1
seqringctl dump >"$T/pushed"
unload_seqring
for c in $cases; do
	words "$c" "$seed" >"$T/words.$c"
	while read -r off val; do
		poke "$off" "$val" || diag "poke $off $val failed"
	done <"$T/words.$c"
	load "$c"
	[ "$(tail -n 1 "$T/load.$c")" = 0 ] || failed_loads="$failed_loads $c"
	[ "$(grep -c . "$T/found.$c")" = 1 ] || messages="$messages $c"
	bad=$(grep -vxF -f "$T/pushed" "$T/prev.$c" | head -n 1)
	[ -z "$bad" ] || garbage="$garbage $c: $bad;"
	if grep -q "intact" "$T/found.$c"; then
		n=$(sed -n 's/.*, \([0-9]*\) intact.*/\1/p' "$T/found.$c")
		[ "$n" = "$(grep -c . "$T/prev.$c")" ] || miscount="$miscount $c"
	fi
	# A hole inside what .prev shows is said to be the crash's.
	if [ -s "$T/prev.$c.err" ] &&
	   ! grep -q "damaged or lost in the crash, left out" "$T/prev.$c.err"; then
		holes="$holes $c: $(head -n 1 "$T/prev.$c.err");"
	fi
	diag "$c ($(tr '\n' ' ' <"$T/words.$c")): $(sed 's/^seqring: region [^ ]*: //' "$T/found.$c")"
	feed_readings 300 1 z 7 >/dev/null 2>&1
	seqringctl dump >"$T/pushed"
	# Numbers the damage chose would run into the BUSY bit (2^63).
	last=$(tail -n 1 "$T/pushed" | cut -d ' ' -f 1)
	[ "${#last}" -le 12 ] || highseq="$highseq $c: $last;"
	unload_seqring
done

is "" "$failed_loads" "seqring.ko loads over every region: noise, and a ring with crafted or random words"
is "" "$noise_prev" "a region of noise shows no previous readings"
is "" "$messages" "every load over a damaged ring says in one message what it found"
is "" "$garbage" "every reading shown as the previous one was pushed, unaltered (none made of the damage)"
is "" "$miscount" "the message's count of intact readings is what $PREV shows"
is "" "$holes" "dump --boot -1 says of the holes that they were damaged or lost in the crash"
is "" "$highseq" "the new ring's numbers start low whatever a damaged counter said (at most 12 digits)"
is "" "$(dmesg_since 70-persist-fuzz | grep -E 'KASAN|BUG:|WARNING:|Oops|general protection' | head -n 3)" \
	"no KASAN report, BUG, warning or oops for any region"
done_testing
