#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 25-units.sh - the systemd units make install-tools installs (host side):
# systemd-analyze verify accepts each (with the tree's tool as ExecStart's
# binary and the tree's man pages for Documentation=), ExecStart names the
# installed tool, and seqring-journal.service runs unprivileged: a dynamic
# user in group seqring, its cursor in its state directory, started by the
# device. The metrics units run whether the device is there or not (the
# tool writes seqring_up 0 then), and have a template per named ring.

. "$SEQRING_TESTS/lib.sh"

plan 18

d=$T/usr
make -s install-tools DESTDIR="$d" PREFIX=/usr >/dev/null
units=$d/lib/systemd/system
unit=$units/seqring-journal.service

# verify UNIT: systemd-analyze verify, ExecStart pointed at the tree's tool.
verify() {
	sed "s|/usr/bin/seqringctl|$REPO/tools/seqringctl|" "$1" >"$T/${1##*/}"
	MANPATH=$d/usr/share/man SYSTEMD_LOG_LEVEL=warning \
		systemd-analyze verify "$T/${1##*/}" 2>&1
}

is "" "$(verify "$unit")" "systemd-analyze verify seqring-journal.service: no complaint"
like "$(grep '^ExecStart=' "$unit")" \
	'^ExecStart=/usr/bin/seqringctl watch --journal --cursor-file=%S/seqring-journal/cursor$' \
	"ExecStart: the installed tool, watch --journal with a cursor in the state directory"
is "DynamicUser=yes SupplementaryGroups=seqring StateDirectory=seqring-journal" \
	"$(grep -E '^(DynamicUser|SupplementaryGroups|StateDirectory)=' "$unit" | words)" \
	"a dynamic user in group seqring, with a state directory"
is "BindsTo=dev-seqring.device WantedBy=dev-seqring.device" \
	"$(grep -E '^(BindsTo|WantedBy)=' "$unit" | words)" \
	"started and stopped with /dev/seqring once enabled"
like "$(cat udev-rules/60-seqring.rules)" 'TAG\+="systemd"' \
	"the udev rule tags the device for systemd (dev-seqring.device)"

# The template, for a named ring, verified as an instance whose name needs
# escaping: the device unit of /dev/seqring-my-ring is dev-seqring\x2dmy\x2dring.
tmpl=$units/seqring-journal@.service
sed "s|/usr/bin/seqringctl|$REPO/tools/seqringctl|" "$tmpl" >"$T/seqring-journal@.service"
is "" "$(MANPATH=$d/usr/share/man SYSTEMD_LOG_LEVEL=warning \
	systemd-analyze verify "$T/seqring-journal@my\x2dring.service" 2>&1)" \
	"systemd-analyze verify seqring-journal@my\\x2dring.service: no complaint"
is 'BindsTo=dev-seqring\x2d%i.device StateDirectory=seqring-journal-%I DeviceAllow=/dev/seqring-%I WantedBy=dev-seqring\x2d%i.device' \
	"$(grep -E '^(BindsTo|WantedBy|DeviceAllow|StateDirectory)=' "$tmpl" | sed 's/ r$//' | words)" \
	"seqring-journal@NAME follows /dev/seqring-NAME, reads only it, keeps its own state"
# The template is seqring-journal.service for another device: the rest of
# their [Service] sections, the sandbox, must not drift apart.
service_rest() {
	sed -n '/^\[Service\]/,/^\[/p' "$1" | grep -vE '^(ExecStart|StateDirectory|DeviceAllow)='
}
is "$(service_rest "$unit")" "$(service_rest "$tmpl")" \
	"seqring-journal@.service runs as seqring-journal.service does, but for its device and state"
like "$(grep '^ExecStart=' "$tmpl")" \
	'^ExecStart=/usr/bin/seqringctl --device=/dev/seqring-%I watch --journal --cursor-file=%S/seqring-journal-%I/cursor$' \
	"seqring-journal@NAME: watch --journal of /dev/seqring-NAME"

# The metrics: a oneshot service and its timer.
is "" "$(verify "$units/seqring-metrics.service")" "systemd-analyze verify seqring-metrics.service: no complaint"
is "" "$(cd "$T" && cp "$units/seqring-metrics.timer" . &&
	MANPATH=$d/usr/share/man SYSTEMD_LOG_LEVEL=warning systemd-analyze verify \
		"$T/seqring-metrics.timer" 2>&1)" \
	"systemd-analyze verify seqring-metrics.timer: no complaint"
like "$(grep '^ExecStart=' "$units/seqring-metrics.service")" \
	'^ExecStart=/usr/bin/seqringctl stats -o prometheus --readings --output-file=/var/lib/prometheus/node-exporter/seqring.prom$' \
	"ExecStart: counters and readings, written whole into node_exporter's textfile directory"
is "User=prometheus SupplementaryGroups=seqring ReadWritePaths=/var/lib/prometheus/node-exporter" \
	"$(grep -E '^(User|SupplementaryGroups|ReadWritePaths)=' "$units/seqring-metrics.service" | words)" \
	"as node_exporter's user, in group seqring, writing only the textfile directory"
is "" "$(grep -E '^Condition.*/dev/' "$units/seqring-metrics.service")" \
	"seqring-metrics.service runs without the device too (it writes seqring_up 0)"

# The metrics template, for a named ring, verified as an escaped instance.
mtmpl=$units/seqring-metrics@.service
sed "s|/usr/bin/seqringctl|$REPO/tools/seqringctl|" "$mtmpl" >"$T/seqring-metrics@.service"
cp "$units/seqring-metrics@.timer" "$T/"
is "" "$(cd "$T" && MANPATH=$d/usr/share/man SYSTEMD_LOG_LEVEL=warning \
	systemd-analyze verify "$T/seqring-metrics@my\x2dring.service" \
		"$T/seqring-metrics@my\x2dring.timer" 2>&1)" \
	"systemd-analyze verify seqring-metrics@my\\x2dring.service and .timer: no complaint"
like "$(grep '^ExecStart=' "$mtmpl")" \
	'^ExecStart=/usr/bin/seqringctl --device=/dev/seqring-%I stats -o prometheus --readings --output-file=/var/lib/prometheus/node-exporter/seqring-%I.prom$' \
	"seqring-metrics@NAME: the metrics of /dev/seqring-NAME into seqring-NAME.prom"
# Each template is its unit for another device: the sandbox must not drift.
metrics_rest() {
	sed -n '/^\[Service\]/,$p' "$1" | grep -vE '^(ExecStart|DeviceAllow)='
}
is "$(metrics_rest "$units/seqring-metrics.service") $(grep -E '^DeviceAllow=' "$mtmpl")" \
	"$(metrics_rest "$mtmpl") DeviceAllow=/dev/seqring-%I r" \
	"seqring-metrics@.service runs as seqring-metrics.service does, reading only its device"
is "$(sed -n '/^\[Timer\]/,$p' "$units/seqring-metrics.timer")" \
	"$(sed -n '/^\[Timer\]/,$p' "$units/seqring-metrics@.timer")" \
	"seqring-metrics@.timer runs as often as seqring-metrics.timer"

done_testing
