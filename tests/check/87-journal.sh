#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 87-journal.sh - seqringctl watch --journal against a real systemd-journald
# (guest, busybox ash; journald and journalctl are copied in from the host
# by tests/check/binaries.txt and run here without systemd as PID 1): one
# journal entry per reading, with the structured fields SEQRING_SEQ,
# SEQRING_TIMESTAMP_NS, SEQRING_CHANNEL, SEQRING_VALUE, SEQRING_LABEL,
# MESSAGE and the reading's own time as SYSLOG_TIMESTAMP, read back with
# journalctl -o json and jq.

. "${SEQRING_TESTS:-/tests}/lib.sh"

CTL=${SEQRINGCTL:-seqringctl}
JOURNALD=/lib/systemd/systemd-journald
SOCK=/run/systemd/journal/socket

plan 13

if [ ! -x "$JOURNALD" ] || ! command -v journalctl >/dev/null || ! command -v jq >/dev/null; then
	fail_rest "systemd-journald, journalctl or jq is not in the VM (tests/check/binaries.txt)"
fi
check_load "load seqring capacity=16" capacity=16

start_journald "$T/journald.log" ||
	fail_rest "systemd-journald did not create $SOCK: $(cat "$T/journald.log")"

utf8=$(printf 'caf\303\251')
nl=$(printf 'a\nb')
"$CTL" push -c 7 -l "$utf8" 42 &&
	"$CTL" push -c 8 -l "$nl" -- -5 &&
	"$CTL" push -c 9 -t 1000000000123456789 -- -9223372036854775808 ||
	fail_rest "seqringctl push failed"

"$CTL" watch --journal --cursor-file "$T/cursor" --count=3 >"$T/out" 2>"$T/err"
is "0 0 3" "$? $(wc -c <"$T/out") $(cat "$T/cursor")" \
	"watch --journal --cursor-file --count=3: exit 0, nothing on stdout, cursor 3" ||
	diag "$(cat "$T/err" "$T/journald.log")"

# The entries, oldest first; journald may write them a moment later.
journal_entries 3 "$T/j" "$T/je"
is 3 "$(wc -l <"$T/j")" "journalctl -o json SYSLOG_IDENTIFIER=seqringctl: three entries" ||
	diag "$(cat "$T/je" "$T/journald.log")"

# field NAME: NAME of the three entries, space-separated.
field() {
	jq -r ".$1" "$T/j" | words
}
is "1 2 3" "$(field SEQRING_SEQ)" "SEQRING_SEQ: the sequence numbers"
is "7 8 9" "$(field SEQRING_CHANNEL)" "SEQRING_CHANNEL"
is "42 -5 -9223372036854775808" "$(field SEQRING_VALUE)" "SEQRING_VALUE, the smallest value exact"
is "1000000000123456789" "$(sed -n 3p "$T/j" | jq -r .SEQRING_TIMESTAMP_NS)" \
	"SEQRING_TIMESTAMP_NS: the reading's time, exact"
is "Sep  9 01:46:40" "$(sed -n 3p "$T/j" | jq -r .SYSLOG_TIMESTAMP)" \
	"SYSLOG_TIMESTAMP: the reading's time as syslog writes it (TZ unset: UTC)"
is "$utf8" "$(sed -n 1p "$T/j" | jq -r .SEQRING_LABEL)" "SEQRING_LABEL: a UTF-8 label as it is"
# journalctl -o json writes a field with a control character as its bytes.
is "$nl" "$(sed -n 2p "$T/j" | jq -r '.SEQRING_LABEL | if type == "array" then implode else . end')" \
	"SEQRING_LABEL: a label with a newline, whole"
is "channel 7 value 42 label $utf8;channel 8 value -5 label a\\012b" \
	"$(jq -r .MESSAGE "$T/j" | head -n 2 | awk '{ printf "%s%s", sep, $0; sep = ";" }')" \
	"MESSAGE: channel, value and the label as people write it: UTF-8 as it is, a control character escaped"

"$CTL" watch --journal --json --count=1 >"$T/out" 2>"$T/err"
is 2 $? "--journal with --json is a usage error (exit 2)"

stop_pid "$JOURNALD_PID"
rm -f "$SOCK"
"$CTL" watch --journal --count=1 >"$T/out" 2>"$T/err"
is "1 yes" "$? $(grep -q 'cannot connect to the journal' "$T/err" && echo yes)" \
	"without journald: exit 1, saying it cannot connect to the journal"

[ -z "$CG_MOUNTED" ] || umount /sys/fs/cgroup
unload_seqring
done_testing
