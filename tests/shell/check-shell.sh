#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-shell.sh - `make shell` as a user meets it (make check-shell; host
# side, TAP): tests/vm/run.sh shell runs on a pseudo-terminal
# (tests/progs/ptyrun), which waits for the shell's prompt and types one
# command for each piece the shell promises, each with its answer after
# it; then exit, which must power the VM off and end run.sh with status
# 0. Each command ends with a marker that only its output can print
# ("@@N STATUS": the typed line reads @@""N), so that what a step waits
# for is the command's answer, not the echo of what was typed.
#
# The whole transcript is kept in build/shell/transcript; the results say
# what each command printed. A step whose answer never comes ends the run
# (ptyrun kills the VM): the results from it on fail.
#
# Environment: KERNEL (run.sh's), SHELL_TIMEOUT (seconds for the whole
# run, default 900: a VM under tcg on a busy host boots in 20-300 s).

cd "$(dirname "$0")/../.." || exit 1
SEQRING_TESTS=${SEQRING_TESTS:-$PWD/tests}
. "$SEQRING_TESTS/lib.sh"

out=build/shell
mkdir -p "$out"
ptyrun=tests/progs/ptyrun
[ -x "$ptyrun" ] || make -s -C tests/progs ptyrun >/dev/null ||
	{ echo "Bail out! cannot build $ptyrun"; exit 1; }

# The commands, one a line: DESCRIPTION <tab> COMMAND <tab> what its
# output must hold (an extended regular expression).
steps='the module is loaded, /dev/seqring is group seqring'"'"'s (udev)	grep -c "^seqring " /proc/modules; ls -l /dev/seqring	^1$|crw-rw----.* root +seqring
the tool pushes, the listing shows it	seqringctl push -c 3 -l kitchen 21 && cat /proc/seqring	^1 [0-9]+ 3 21 kitchen$
dump -o short, as the README has it	seqringctl dump -n 10 --since=-1h -o short	seqring\[1\]: channel 3 value 21 label kitchen
the library: the sample linked with libseqring.so.1	/lib64/ld-linux-x86-64.so.2 --list /usr/bin/mmap-consumer | grep -o "libseqring.so.1 => /usr/lib/libseqring.so.1"; mmap-consumer -n 1	^libseqring.so.1 => /usr/lib/libseqring.so.1$|^1 [0-9]+ 3 21 kitchen$
the Python module	python3 -c "import seqring; print('"'"'py'"'"', seqring.Ring().stats().count, list(seqring.Ring().readings())[0].label)"	^py 1 kitchen$
journald: watch --journal, then journalctl	seqringctl watch --journal -n all --count=1 && sleep 1 && journalctl --no-pager -o cat SYSLOG_IDENTIFIER=seqringctl	^channel 3 value 21 label kitchen$
modprobe, as on a machine: the sample timerlat	modprobe seqring_timerlat && sleep 1 && seqringctl -d /dev/seqring-timerlat dump -n 1 -o cat && rmmod seqring_timerlat	^channel 0 value -?[0-9]+ label timerlat$
the man pages	man seqringctl | head -n 1; man 4 seqring | head -n 1	SEQRINGCTL\(1\)|SEQRING\(4\)
a user in group seqring	su member -c "id -Gn; seqringctl stats -o json"	seqring|"count": "1"'

# The steps for ptyrun: the prompt, then for each command its line and
# its marker; then Ctrl-C must end a watch (not the VM), and exit the shell.
# A terminal wide enough that no command line wraps.
args=(t:"${SHELL_TIMEOUT:-900}" z:50x250 w:'seqring-vm:')
n=0
while IFS=$'\t' read -r desc cmd want; do
	n=$((n + 1))
	args+=(k:"$cmd; echo \"@@\"\"$n \$?\""$'\n' w:"@@$n ")
done <<<"$steps"
args+=(k:$'seqringctl watch\n' w:'21 kitchen' k:$'\003'
	k:$'echo "@@""ctrl-c $?"\n' w:'@@ctrl-c '
	k:$'exit\n')

plan $((n + 3))

KERNEL=${KERNEL:-} "$ptyrun" "${args[@]}" -- tests/vm/run.sh shell \
	>"$out/transcript" 2>"$out/ptyrun.err"
rc=$?
tr -d '\r' <"$out/transcript" >"$out/text"

# answer N: what command N printed: the lines after the one it was typed
# on (which ends in its marker as typed), up to its marker's output.
answer() {
	awk -v m="@@$1 " -v typed="@@\"\"$1 " '
		index($0, typed) { on = 1; next }
		on && index($0, m) { exit }
		on' "$out/text"
}

i=0
while IFS=$'\t' read -r desc cmd want; do
	i=$((i + 1))
	got=$(answer "$i")
	status=$(grep -o "^@@$i [0-9]*" "$out/text" | cut -d ' ' -f 2)
	# Every alternative of the pattern must match a line of the answer.
	missing=
	IFS='|' read -ra alts <<<"$want"
	for a in "${alts[@]}"; do
		printf '%s\n' "$got" | grep -Eq -- "$a" || missing="$missing [$a]"
	done
	if [ "$status" = 0 ] && [ -z "$missing" ]; then
		ok "$desc"
	else
		not_ok "$desc" "typed: $cmd" "expected status 0 and lines matching$missing; got status '${status:-none}':" \
			"$got"
	fi
done <<<"$steps"

is 130 "$(grep -o '^@@ctrl-c [0-9]*' "$out/text" | cut -d ' ' -f 2)" \
	"Ctrl-C ends the watch (status 130) and the shell goes on: it went to the guest, not to QEMU"
is "0 yes" "$rc $(grep -q 'runner finished: mode=shell status=0' build/vm/shell-console.log && echo yes)" \
	"exit ends the shell, the VM powers off, make shell returns 0" ||
	diag "$(cat "$out/ptyrun.err")" "$(tail -n 20 "$out/text")"
is "" "$(grep -aE 'seqring-vm: |Oops|BUG:|WARNING:' "$out/text" | head -n 5)" \
	"the kernel's messages stay in the console log, off the user's terminal"

done_testing
