#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 40-completion.sh - the bash completion offers what seqringctl accepts.
# COMP_WORDS is split as bash splits it ("=" is a word of its own), and
# every option offered is checked against the tool's --help.

. "$SEQRING_TESTS/lib.sh"
. tools/seqringctl.bash-completion

plan 9

# comp WORD...: the completions offered for the last WORD.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_seqringctl
	printf '%s\n' "${COMPREPLY[@]}" | words
}

is "seqringctl" "$(complete -p seqringctl | awk '{ print $NF }')" \
	"complete -F _seqringctl seqringctl is registered"
is "push feed stats clear" "$(comp seqringctl '')" "the commands"
is "stats" "$(comp seqringctl -d /dev/null st)" "the command after -d DEVICE"
is "-d --device= -h --help -V --version" "$(comp seqringctl -)" "global options"
is "/dev/null" "$(comp seqringctl --device = /dev/nul)" "a path after --device="
is "text json prometheus" "$(comp seqringctl stats --format =)" \
	"--format= values"
is "prometheus" "$(comp seqringctl stats -f pro)" "-f pro completes"

# Every long option offered for a command is in that command's --help
# (which does not list --help itself).
missing=
for cmd in push feed stats clear; do
	help=$(tools/seqringctl "$cmd" --help)
	for opt in $(comp seqringctl "$cmd" --); do
		opt=${opt%=}
		[ "$opt" != --help ] || continue
		case $help in *"$opt"*) ;; *) missing="$missing $cmd $opt" ;; esac
	done
done
is "" "$missing" "every option offered is in the command's --help"

help=$(tools/seqringctl --help)
missing=
for opt in $(comp seqringctl --); do
	case $help in *"${opt%=}"*) ;; *) missing="$missing $opt" ;; esac
done
is "" "$missing" "every global option offered is in --help"

done_testing
