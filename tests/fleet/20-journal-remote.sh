#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 20-journal-remote.sh - the journal at the other end, with Debian's
# programs (tests/fleet/binaries.txt): seqringctl watch --journal (what
# seqring-journal.service runs) puts a reading into journald,
# systemd-journal-upload sends the journal to systemd-journal-remote on
# loopback, and the reading is in the remote journal with its fields
# (SEQRING_SEQ, SEQRING_LABEL, SEQRING_VALUE, SEQRING_CHANNEL).

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}
SD=/lib/systemd
SOCK=/run/systemd/journal/socket
PORT=19532

plan 8

for p in $SD/systemd-journald $SD/systemd-journal-remote $SD/systemd-journal-upload; do
	[ -x "$p" ] || fail_rest "$p is not in the VM (tests/fleet/binaries.txt)"
done
command -v jq >/dev/null || fail_rest "jq is not in the VM (tests/fleet/binaries.txt)"
check_load "load seqring.ko" capacity=64

start_journald "$T/journald.log" ||
	fail_rest "systemd-journald did not create $SOCK: $(cat "$T/journald.log")"

mkdir -p "$T/remote"
$SD/systemd-journal-remote --listen-http=127.0.0.1:$PORT --split-mode=none \
	--output="$T/remote/remote.journal" >"$T/remote.log" 2>&1 &
rpid=$!
_tap_pids="$_tap_pids $rpid"
sleep 1
kill -0 "$rpid" 2>/dev/null
is 0 $? "systemd-journal-remote listens on 127.0.0.1:$PORT" || diag "$(cat "$T/remote.log")"

# A value no earlier run could have left.
value=$(( $(date +%s) % 100000 + 1000 ))
"$CTL" push -c 6 -l remote "$value" || fail_rest "seqringctl push failed"
seq=$("$CTL" stats | awk -F': ' '$1 == "newest_seq" { print $2 }')
"$CTL" watch --journal --count=1 --after=$((seq - 1)) 2>"$T/watch.err"
is 0 $? "seqringctl watch --journal (what seqring-journal.service runs) sends it to journald" ||
	diag "$(cat "$T/watch.err")"

$SD/systemd-journal-upload --url=http://127.0.0.1:$PORT --follow=no \
	--save-state="$T/upload.state" >"$T/upload.log" 2>&1
is 0 $? "systemd-journal-upload --url=http://127.0.0.1:$PORT sends the journal" ||
	diag "$(tail -n 20 "$T/upload.log" "$T/remote.log")"

# The remote side may write it a moment later.
i=0
while [ $i -lt 100 ]; do
	journalctl -D "$T/remote" -o json "SEQRING_SEQ=$seq" >"$T/j" 2>"$T/je"
	[ -s "$T/j" ] && break
	sleep 0.1
	i=$((i + 1))
done
is 1 "$(grep -c . "$T/j")" "the remote journal has the entry SEQRING_SEQ=$seq" ||
	diag "$(cat "$T/je" "$T/remote.log")"
is "$value 6 remote" "$(jq -r '"\(.SEQRING_VALUE) \(.SEQRING_CHANNEL) \(.SEQRING_LABEL)"' "$T/j")" \
	"... with SEQRING_VALUE, SEQRING_CHANNEL and SEQRING_LABEL as pushed"
is "seqringctl channel 6 value $value label remote" \
	"$(jq -r '"\(.SYSLOG_IDENTIFIER) \(.MESSAGE)"' "$T/j")" \
	"... and SYSLOG_IDENTIFIER seqringctl, its MESSAGE"

check_unload "unload seqring.ko"

done_testing
