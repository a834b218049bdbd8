#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 81-prometheus.sh - seqringctl stats --format=prometheus and --version
# (guest, busybox ash).
#
# Pushes a known history into a small ring (overwrites and a clear
# included), then checks that the Prometheus text output has a HELP and a
# TYPE line before every sample, only well-formed sample lines, the right
# types, the same numbers as `stats` and debugfs, and the device's real
# path as its label. With --readings, the latest value of each channel and
# label and that reading's time as gauges; --output writes a file whole.
# Every run writes seqring_up and seqring_last_scrape_timestamp_seconds,
# and a run that cannot read the device (module unloaded, not a seqring
# device) still rewrites the file, with seqring_up 0 alone, and exits 1.
# (tests/packages/70-promtool.sh checks the output with promtool.)

. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 25

check_load "load seqring capacity=4" capacity=4 || fail_rest "seqring did not load"

# 6 pushed into 4 slots: 2 dropped; clear: 4 cleared; 3 more held.
push 6 && seqringctl clear && push 3 ||
	fail_rest "could not push the readings"

out=$(seqringctl stats --format=prometheus)
check "stats --format=prometheus exits 0" seqringctl stats --format=prometheus

# sample NAME: the value of the one sample of NAME on /dev/seqring.
sample() {
	printf '%s\n' "$out" |
		sed -n "s|^$1{device=\"/dev/seqring\"} \\([0-9]*\\)\$|\\1|p"
}

is "4 3 9 2 4 7 9 0" "$(sample seqring_capacity) $(sample seqring_readings) \
$(sample seqring_pushed_total) $(sample seqring_dropped_total) \
$(sample seqring_cleared_total) $(sample seqring_oldest_seq) \
$(sample seqring_newest_seq) $(sample seqring_lost_total)" \
	"capacity readings pushed dropped cleared oldest newest lost"

is "$(debugfs_stat total) $(debugfs_stat dropped)" \
	"$(sample seqring_pushed_total) $(sample seqring_dropped_total)" \
	"pushed and dropped are debugfs total and dropped"

bad=$(printf '%s\n' "$out" | grep -Ev \
	'^(# HELP seqring_[a-z_]+ .+|# TYPE seqring_[a-z_]+ (gauge|counter)|seqring_[a-z_]+\{device="/dev/seqring"(,ring="seqring")?\} [0-9]+(\.[0-9]{9})?)$')
is "" "$bad" "every line is a HELP, TYPE or sample line"

is 10 "$(printf '%s\n' "$out" | grep -c '^seqring_')" "10 samples"

# up_sample NAME TEXT: the value of NAME{device="/dev/seqring",ring="seqring"}.
up_sample() {
	printf '%s\n' "$2" |
		sed -n "s|^$1{device=\"/dev/seqring\",ring=\"seqring\"} \\([0-9.]*\\)\$|\\1|p"
}
before=$(date +%s)
out=$(seqringctl stats --format=prometheus)
after=$(date +%s)
is 1 "$(up_sample seqring_up "$out")" "seqring_up{ring=\"seqring\"} is 1 when the device is read"
scrape=$(up_sample seqring_last_scrape_timestamp_seconds "$out")
if [ "${scrape%.*}" -ge "$before" ] 2>/dev/null && [ "${scrape%.*}" -le "$after" ]; then
	ok "seqring_last_scrape_timestamp_seconds is the time of the run"
else
	not_ok "seqring_last_scrape_timestamp_seconds is the time of the run" \
		"expected $before..$after, got '$scrape'"
fi

# Each sample's metric has HELP then TYPE right before it.
order=$(printf '%s\n' "$out" | awk '
	/^# HELP / { help = $3; next }
	/^# TYPE / { type = $3; next }
	{ split($0, a, "{"); if (a[1] != help || a[1] != type) print a[1] }')
is "" "$order" "HELP and TYPE precede each sample"

counters=$(printf '%s\n' "$out" | sed -n 's/^# TYPE \(.*\) counter$/\1/p' |
	tr '\n' ' ')
is "seqring_pushed_total seqring_dropped_total seqring_cleared_total seqring_lost_total " \
	"$counters" "the counters, each named _total"

# The label value is escaped: a backslash and a quote in the device path
# (a device node of its own, in /dev: a symlink would be resolved, and the
# test's directory is on a filesystem mounted nodev).
odd="/dev/a\\b\"c"
mkdir -p "$odd"
majmin=$(stat -c '%t %T' /dev/seqring)
mknod "$odd/dev" c "$((0x${majmin% *}))" "$((0x${majmin#* }))"
like "$(seqringctl -d "$odd/dev" stats --format=prometheus)" \
	'^seqring_capacity\{device="/dev/a\\\\b\\"c/dev"\} 4$' \
	"backslash and quote escaped in the device label"
rm -rf "$odd"

# The device label is the device's real path, whatever path was typed.
like "$(seqringctl -d /dev/seqring0 stats --format=prometheus)" \
	'^seqring_capacity\{device="/dev/seqring"\} 4$' \
	"-d /dev/seqring0 (udev's symlink): device=\"/dev/seqring\""
like "$(cd /dev && seqringctl -d ./seqring stats --format=prometheus)" \
	'^seqring_capacity\{device="/dev/seqring"\} 4$' \
	"-d ./seqring in /dev: device=\"/dev/seqring\""

# --- --readings ---
seqringctl capacity 16
seqringctl clear
latin1=$(printf 'caf\351')
utf8=$(printf 'caf\303\251')
seqringctl push -c 1 -l kitchen 10 && seqringctl push -c 1 -l kitchen 11 &&
	seqringctl push -c 2 -l kitchen 20 && seqringctl push -c 1 -- -5 &&
	seqringctl push -c 3 -l "$latin1" 7 && seqringctl push -c 3 -l "$utf8" 8 &&
	seqringctl push -c 4 -l t -t 1000000000123456789 9 ||
	diag "seqringctl push failed"
seqringctl stats --format=prometheus --readings >"$T/r" 2>"$T/e"
is "0 " "$? $(cat "$T/e")" "stats --format=prometheus --readings exits 0"
# value CHANNEL LABEL-AS-WRITTEN: the sample of seqring_reading_value.
value() {
	grep -F "seqring_reading_value{device=\"/dev/seqring\",channel=\"$1\",label=\"$2\"} " "$T/r" |
		cut -d ' ' -f 2
}
is "11 20 -5" "$(value 1 kitchen) $(value 2 kitchen) $(value 1 '')" \
	"the latest value of each channel and label (11 of 10, 11)"
# shellcheck disable=SC1003 # the backslashes are the escapes expected
is "7 8" "$(value 3 'caf\\351') $(value 3 "$utf8")" \
	"a label that is not UTF-8 in the listing's escaping, a UTF-8 one as it is"
is 6 "$(grep -c '^seqring_reading_value{' "$T/r")" "one series per channel and label (6)"
is "1000000000.123456789" \
	"$(grep -F 'seqring_reading_timestamp_seconds{device="/dev/seqring",channel="4",label="t"} ' "$T/r" | cut -d ' ' -f 2)" \
	"seqring_reading_timestamp_seconds: the reading's time, to the nanosecond"
seqringctl stats --readings >"$T/x" 2>&1
is 2 $? "--readings without --format=prometheus is a usage error (exit 2)"
seqringctl stats -o prometheus --readings --output-file="$T/seqring.prom" >"$T/x" 2>&1
is "0 0" "$? $(wc -c <"$T/x")" "--output-file=FILE: exit 0, nothing on stdout"
# The same but for the time of the run.
grep -v '^seqring_last_scrape' "$T/r" >"$T/r1"
grep -v '^seqring_last_scrape' "$T/seqring.prom" >"$T/p1"
if cmp -s "$T/r1" "$T/p1" && [ ! -e "$T/seqring.prom.tmp" ]; then
	ok "... FILE has what stdout had, and no FILE.tmp is left"
else
	not_ok "... FILE has what stdout had, and no FILE.tmp is left" "$(ls -la "$T")"
fi

like "$(seqringctl --version)" '^seqringctl [0-9]+\.[0-9]+\.[0-9]+$' \
	"--version prints seqringctl VERSION"

# A run that cannot read the device rewrites the file all the same:
# seqring_up 0, the time of the run, no value of before; exit status 1.
# The cases: CASE-NAME DEVICE STDERR-PATTERN.
unreadable_cases="
unloaded /dev/seqring is.the.module.loaded
not-a-seqring-device /dev/null not.a.seqring.device
"
unload_seqring
while read -r name dev pattern; do
	[ -n "$name" ] || continue
	ring=${dev##*/}
	before=$(date +%s)
	seqringctl -d "$dev" stats --format=prometheus --readings \
		--output-file="$T/seqring.prom" >"$T/x" 2>"$T/e"
	st=$?
	got="$st $(grep -c '^seqring_' "$T/seqring.prom")"
	got="$got $(sed -n "s|^seqring_up{device=\"$dev\",ring=\"$ring\"} ||p" "$T/seqring.prom")"
	scrape=$(sed -n 's|^seqring_last_scrape_timestamp_seconds{.*} \([0-9]*\)\..*|\1|p' "$T/seqring.prom")
	[ "${scrape:-0}" -ge "$before" ] && got="$got fresh"
	grep -q "$pattern" "$T/e" && got="$got hint"
	is "1 2 0 fresh hint" "$got" \
		"$name: exit 1; the file rewritten, seqring_up 0, scrape time fresh; stderr says why" ||
		diag "file:" "$(cat "$T/seqring.prom")" "stderr:" "$(cat "$T/e")"
done <<EOF
$unreadable_cases
EOF

before=$(date +%s)
out=$(seqringctl stats --format=prometheus 2>/dev/null)
is "1 0" "$? $(up_sample seqring_up "$out")" \
	"without --output-file: seqring_up 0 on stdout, exit 1"

done_testing
