#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel API from every context at once (include/linux/seqring.h,
# through the test module tests/kmod/seqring_producer.c): a kthread
# (process context), a soft hrtimer (softirq) and a hard hrtimer (hard
# interrupt) push N readings each, in bursts, at the same time, into one
# named ring that holds them all. Then:
#   - each producer pushed N, none failed, each in the context it names;
#   - the ring's counters: total = 3N = count, none dropped or cleared;
#   - along the sequence numbers (consecutive), the timestamps never go
#     back and lie between the times before and after the pushes (the
#     driver stamps them), each channel has its values 1..N in order and
#     its context's label, and the contexts interleave;
#   - /dev/seqring-NAME (seqringctl -d ... dump, read()) shows exactly the
#     debugfs listing /sys/kernel/debug/seqring-NAME/readings, and sysfs
#     /sys/class/misc/seqring-NAME/ the same counters;
#   - the ring's files go with seqring_destroy();
#   - into a small ring that a process CLEARs and resizes meanwhile, every
#     reading is counted once: total = count + dropped + cleared, and the
#     pushes that found no free slot in lost (the producers' failed).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

need_producer

CTL=${SEQRINGCTL:-seqringctl}
N=3000
RING=mix
CONTEXTS="process softirq hardirq"

plan 29

check_load "load seqring.ko" capacity=16
check "load seqring_producer.ko" load_producer
is ok "$(pctl create $RING 65536)" "create ring $RING of 65536 readings"
is "dev debugfs sysfs" "$(ring_present $RING)" \
	"/dev/seqring-$RING, its debugfs directory and /sys/class/misc/seqring-$RING exist when create returns"

t0=$(date +%s)
started=
for c in $CONTEXTS; do
	started="$started $(pctl start $RING "$c" $N)"
done
is " ok ok ok" "$started" "start $N pushes from each of: $CONTEXTS"
is ok "$(pctl wait $RING)" "the three producers finish"
t1=$(date +%s)

# Per context: pushed N, none failed, every burst in its own context.
for c in $CONTEXTS; do
	is "$N 0 0 done" "$(pstatus $RING "$c")" \
		"$c producer: pushed $N, 0 failed, 0 in a wrong context, done"
done

is "65536 $((3 * N)) $((3 * N)) 0 0" "$(ring_stats $RING)" \
	"GET_STATS of /dev/seqring-$RING: capacity 65536, count = total = 3N, dropped 0, cleared 0"

listing /sys/kernel/debug/seqring-$RING/readings >"$T/listing"
is $((3 * N)) "$(wc -l <"$T/listing")" "the debugfs listing has 3N readings"

# facts < LISTING: what the listing shows, one "key value" a line. The
# timestamps (19 digits) are compared as strings: awk's numbers are
# doubles, which cannot tell apart nanoseconds at that size.
facts() {
	awk -v t0="$t0" -v t1="$t1" '
	NR > 1 {
		if ($1 != seq + 1)
			gaps++
		if (length($2) < length(ts) || (length($2) == length(ts) && ("" $2) < ("" ts)))
			back++
		if ($3 != ch)
			switches++
	}
	NR == 1 { first = $2 }
	{
		seq = $1; ts = $2; ch = $3
		n[ch]++
		if ($4 != n[ch])
			disorder[ch]++
		if (!(ch in label))
			label[ch] = $5
		else if (label[ch] != $5)
			label[ch] = "mixed"
	}
	END {
		sec = length(first) - 9
		print "seq_gaps " gaps + 0
		print "ts_back " back + 0
		print "ts_in_range " (substr(first, 1, sec) + 0 >= t0 - 1 && substr(ts, 1, length(ts) - 9) + 0 <= t1 + 1)
		for (c = 1; c <= 3; c++)
			print "channel" c " " n[c] + 0 " " disorder[c] + 0 " " label[c]
		print "switches " switches + 0
	}' "$1"
}
facts "$T/listing" >"$T/facts"
fact() {
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$T/facts"
}

is 0 "$(fact seq_gaps)" "sequence numbers are consecutive, increasing along the listing"
is 0 "$(fact ts_back)" "timestamps never go back along the sequence numbers"
is 1 "$(fact ts_in_range)" \
	"timestamps lie between the seconds before and after the pushes ($t0..$t1): the driver stamps them"
ch=1
for c in $CONTEXTS; do
	is "$N 0 $c" "$(fact channel$ch)" \
		"channel $ch ($c): $N readings, values 1..$N in sequence order, label $c"
	ch=$((ch + 1))
done
# Run one after the other, the contexts would give 2 switches of channel.
sw=$(fact switches)
if [ "${sw:-0}" -gt 2 ]; then
	ok "the contexts' readings interleave ($sw switches of channel along the sequence)"
else
	not_ok "the contexts' readings interleave" \
		"expected more than 2 switches of channel along the sequence, got '$sw'"
fi

"$CTL" -d /dev/seqring-$RING dump >"$T/dump" 2>"$T/err"
is "0 " "$? $(cat "$T/err")" "seqringctl -d /dev/seqring-$RING dump exits 0, says nothing on stderr"
same_file "$T/listing" "$T/dump" \
	"the stream of /dev/seqring-$RING (seqringctl -d ... dump) is the debugfs listing"

got=$(for a in capacity count total; do cat /sys/class/misc/seqring-$RING/$a; done | words)
is "65536 $((3 * N)) $((3 * N))" "$got" \
	"sysfs /sys/class/misc/seqring-$RING/{capacity,count,total} agree"

# Destroy: everything of the ring goes at once.
is ok "$(pctl destroy $RING)" "destroy ring $RING"
is "- - -" "$(ring_present $RING)" "its device, debugfs directory and sysfs directory are gone"

# A small ring, overwritten, CLEARed and resized by a process while the
# three contexts push: every reading pushed is counted once, as held,
# dropped or cleared.
pctl create small 256 >/dev/null
for c in $CONTEXTS; do
	pctl start small "$c" $N >/dev/null
done
clears=0
while grep -q running $PRODUCER/status; do
	"$BIN/clear_ring" /dev/seqring-small && clears=$((clears + 1))
	echo $((128 + clears % 3 * 64)) >/sys/class/misc/seqring-small/capacity
	sleep 0.05
done
is ok "$(pctl wait small)" "the producers into ring small (256) finish, $clears CLEARs and resizes meanwhile"
# shellcheck disable=SC2046 # the five fields
set -- $(ring_stats small)
# A push that found no free slot (a ring this small, resized under three
# producers) took no number: it is lost, counted, and the producer's failed.
lost=$(ring_stat small lost)
failed=0
for c in $CONTEXTS; do
	failed=$((failed + $(pstatus small "$c" failed)))
done
is "$((3 * N)) $(($3 + lost)) $failed" "$(($2 + $4 + $5 + lost)) $((3 * N)) $lost" \
	"small: total + lost = 3N pushed = count + dropped + cleared + lost, lost = the producers' failed (count $2, dropped $4, cleared $5, lost $lost)"
if [ "${4:-0}" -gt 0 ] && [ "${5:-0}" -gt 0 ]; then
	ok "small: some readings were dropped and some cleared"
else
	not_ok "small: some readings were dropped and some cleared" "dropped '$4', cleared '$5'"
fi
is ok "$(pctl destroy small)" "destroy ring small"
check "rmmod seqring_producer" rmmod seqring_producer
check_unload "rmmod seqring after it"
done_testing
