#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 10-prometheus.sh - the metrics at the other end, with Debian's programs
# (tests/fleet/binaries.txt): seqring-metrics.service's command writes
# the textfile, Debian's prometheus-node-exporter serves it with its
# textfile collector on the directory the unit writes, Debian's
# prometheus scrapes that on loopback every second, and a PromQL query
# over its HTTP API returns the value of a reading pushed a moment before;
# once the module is unloaded the unit's command fails, seqring_up goes to
# 0 in Prometheus and the reading's series goes stale.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}
UNIT=${SEQRING_TESTS:-/tests}/units/seqring-metrics.service.in
PROM=127.0.0.1:9090
NODE=127.0.0.1:9100

plan 10

for p in prometheus prometheus-node-exporter jq curl; do
	command -v $p >/dev/null || fail_rest "$p is not in the VM (tests/fleet/binaries.txt)"
done
# The unit's command, as systemd runs it (seqringctl is in /usr/bin here).
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT" | sed "s|@BINDIR@|$(dirname "$(command -v "$CTL")")|")
dir=$(sed -n 's/^ReadWritePaths=//p' "$UNIT")
if [ -z "$exec_start" ] || [ -z "$dir" ]; then
	fail_rest "no ExecStart= or ReadWritePaths= in $UNIT"
fi
mkdir -p "$dir"

check_load "load seqring.ko" capacity=64

# get URL: the body of an HTTP GET, or nothing. (curl: busybox's wget
# crashes in its static resolver.)
get() {
	curl -fsS -m 5 "http://$1" 2>/dev/null
}

# wait_http URL: up to 30 s for it to answer.
wait_http() {
	_i=0
	while [ $_i -lt 300 ]; do
		get "$1" >/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# query PROMQL_URLENCODED: the value of the first series the instant query
# returns, or "none".
query() {
	get "$PROM/api/v1/query?query=$1" |
		jq -r 'if .data.result | length > 0 then .data.result[0].value[1] else "none" end' 2>/dev/null
}

# wait_value PROMQL_URLENCODED VALUE: up to 30 s for the query to give
# VALUE; prints what it gave last.
wait_value() {
	_i=0
	while [ $_i -lt 150 ]; do
		_v=$(query "$1")
		[ "$_v" = "$2" ] && break
		sleep 0.2
		_i=$((_i + 1))
	done
	echo "$_v"
}

prometheus-node-exporter --web.listen-address=$NODE --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$dir" >"$T/node.log" 2>&1 &
_tap_pids="$_tap_pids $!"
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['$NODE']
EOF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address=$PROM >"$T/prom.log" 2>&1 &
_tap_pids="$_tap_pids $!"
if wait_http "$NODE/metrics" && wait_http "$PROM/-/ready"; then
	ok "node_exporter (textfile collector on $dir) and prometheus answer on loopback"
else
	not_ok "node_exporter and prometheus answer on loopback" "expected both to answer in 30 s" \
		"$(tail -n 5 "$T/node.log" "$T/prom.log")"
	fail_rest "no exporter or no prometheus"
fi

# A value no earlier run could have left.
value=$(( $(date +%s) % 100000 + 1000 ))
"$CTL" push -c 5 -l fleet "$value" || fail_rest "seqringctl push failed"
sh -c "$exec_start" 2>"$T/unit.err"
is "0 1" "$? $(grep -c '^seqring_up{.*} 1$' "$dir/seqring.prom")" \
	"the unit's command ($exec_start) writes seqring_up 1 into $dir"

q_value='seqring_reading_value%7Blabel%3D%22fleet%22%7D'
q_up='seqring_up%7Bring%3D%22seqring%22%7D'
is "$value" "$(wait_value "$q_value" "$value")" \
	"PromQL seqring_reading_value{label=\"fleet\"} over the HTTP API: the value pushed ($value)"
is 5 "$(get "$PROM/api/v1/query?query=$q_value" | jq -r '.data.result[0].metric.channel')" \
	"... with its channel as a label"
is 1 "$(wait_value "$q_up" 1)" "seqring_up{ring=\"seqring\"} is 1"

check_unload "unload seqring.ko"
sh -c "$exec_start" 2>"$T/unit.err"
is "1 1" "$? $(grep -c '^seqring_up{.*} 0$' "$dir/seqring.prom")" \
	"without the module the unit's command fails, and writes seqring_up 0" ||
	diag "$(cat "$T/unit.err")"
is 0 "$(wait_value "$q_up" 0)" "seqring_up{ring=\"seqring\"} goes to 0 in Prometheus"
is none "$(wait_value "$q_value" none)" \
	"... and the reading's series is gone, not left at its last value"

done_testing
