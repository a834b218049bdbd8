#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 70-promtool.sh - what seqringctl stats --format=prometheus --readings
# writes passes `promtool check metrics` (Debian package prometheus, which
# tests/vm/deps.sh installs). The output is made in the test VM (a tier of
# one script, written here) and printed into the TAP stream as comment
# lines, then checked on the host: promtool (48 MB) stays out of the VM.

. "$SEQRING_TESTS/lib.sh"

plan 3

if ! command -v promtool >/dev/null; then
	skip_rest "promtool not installed (apt-get install prometheus)"
fi

tier=$T/tier
mkdir -p "$tier"
cat >"$tier/10-metrics.sh" <<'SCRIPT'
#!/bin/sh
# Labels of every kind, a counter history, then the metrics as "# prom: ".
. /tests/lib.sh
plan 1
load_seqring capacity=4 || { not_ok "load seqring"; done_testing; }
for i in 1 2 3 4 5 6; do seqringctl push -c "$i" -l kitchen "$i"; done
seqringctl clear
seqringctl push -c 1 -l "$(printf 'caf\303\251')" -- -9223372036854775808
seqringctl push -c 2 -l "$(printf 'caf\351')" 9223372036854775807
seqringctl push -c 3 -l 'a"b\c' -t 1 0
seqringctl push -c 4 7
if seqringctl stats --format=prometheus --readings >/tmp/prom; then
	ok "stats --format=prometheus --readings"
else
	not_ok "stats --format=prometheus --readings"
fi
sed 's/^/# prom: /' /tmp/prom
unload_seqring
done_testing
SCRIPT

SEQRING_TIER_DIR=$tier VM_TIMEOUT=300 tests/vm/run.sh promtool >"$T/vm.log" 2>&1
is 0 $? "the VM made the metrics" || diag "$(tail -n 30 "$T/vm.log")"
sed -n 's/^# prom: //p' "$T/vm.log" >"$T/seqring.prom"
is 8 "$(grep -c '^seqring_reading_' "$T/seqring.prom")" \
	"four series, a value and a time each" || diag "$(cat "$T/seqring.prom")"
out=$(promtool check metrics <"$T/seqring.prom" 2>&1)
is "0 " "$? $out" "promtool check metrics: no error, no lint complaint"

done_testing
