#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 40-completion.sh - the bash completion offers what seqringctl accepts.
# COMP_WORDS is split as bash splits it ("=" is a word of its own). The
# completion asks the tool for its commands and options; here they are
# compared with what --help and each command's --help document, both ways,
# so neither the completion nor the help can miss one.

. "$SEQRING_TESTS/lib.sh"
. tools/seqringctl.bash-completion

plan 22

ctl=$PWD/tools/seqringctl

# comp WORD...: the completions offered for the last WORD of
# "seqringctl WORD...".
comp() {
	COMP_WORDS=("$ctl" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_seqringctl
	printf '%s\n' "${COMPREPLY[@]}" | sort | words
}

# long_opts TEXT: the long options named in TEXT (a --help), sorted.
long_opts() {
	printf '%s\n' "$1" | grep -oE -- '--[a-z][a-z-]*' | sort -u | words
}

# short_opts TEXT: the short options (-X) named in TEXT, sorted.
short_opts() {
	printf '%s\n' "$1" | grep -oE -- '(^|[^a-zA-Z0-9-])-[a-zA-Z]([^a-zA-Z-]|$)' |
		grep -oE -- '-[a-zA-Z]' | sort -u | words
}

is "seqringctl" "$(complete -p seqringctl | awk '{ print $NF }')" \
	"complete -F _seqringctl seqringctl is registered"

help=$("$ctl" --help)
# The commands of --help: the lines "  COMMAND [ARGS]" under "Commands:".
help_cmds=$(printf '%s\n' "$help" | sed -n '/^Commands:/,$p' |
	sed -n 's/^  \([a-z][a-z]*\).*/\1/p' | sort | words)
is "$help_cmds" "$(comp '')" "the commands offered are those of --help"
like "$help_cmds" '(^| )watch( |$)' "... watch among them"
like "$help_cmds" '(^| )capacity( |$)' "... capacity among them"

is "stats" "$(comp -d /dev/null st)" "the command after -d DEVICE"
is "dump" "$(comp help du)" "help offers the commands"
is "$(long_opts "$(printf '%s\n' "$help" | sed '/^Commands:/,$d')")" \
	"$(comp -- | tr ' ' '\n' | sed 's/=$//' | sort | words)" \
	"the global long options offered are those of --help"
is "/dev/null" "$(comp --device = /dev/nul)" "a path after --device="
is "/dev/null" "$(comp dump --cursor-file = /dev/nul)" "a path after --cursor-file="
is "json prometheus text" "$(comp stats --format =)" "--format= values"
is "prometheus" "$(comp stats -o pro)" "stats -o pro completes (-o is the mode)"
is "" "$(comp push -c '')" "nothing offered for an option's own value (push -c)"

# For every command: its long options offered and those its --help names
# are the same (--help is offered, and not listed in the help itself).
diff=
for cmd in $help_cmds; do
	want=$(long_opts "$("$ctl" "$cmd" --help; echo --help)")
	got=$(comp "$cmd" -- | tr ' ' '\n' | sed 's/=$//' | sort | words)
	[ "$want" = "$got" ] || diff="$diff
$cmd: --help has '$want', completion offers '$got'"
done
is "" "$diff" "every command: the options offered are those of its --help"

# The same for the short options, -T (which has no long form) among
# them: those --help lists in its option lines, and -h.
diff=
for cmd in $help_cmds; do
	want=$(short_opts "$("$ctl" "$cmd" --help | grep -- '^ *-'; echo -h)")
	got=$(comp "$cmd" - | tr ' ' '\n' | grep -v -- '^--' | sort | words)
	[ "$want" = "$got" ] || diff="$diff
$cmd: --help has '$want', completion offers '$got'"
done
is "" "$diff" "every command: the short options offered are those of its --help"
is "-T/-T" "$(comp dump -T)/$(comp watch -T)" "-T offered for dump and watch"

# Every value offered for an option is in the --help of the command.
# values_missing CMD OPTION: the values offered for CMD's --OPTION= that
# its --help does not name.
values_missing() {
	local v missing=
	for v in $(comp "$1" "$2" =); do
		"$ctl" "$1" --help | grep -q -- "$2=$v\|[ (,]$v\([ ),]\|\$\)" ||
			missing="$missing $v"
	done
	echo "${missing# }"
}
is "" "$(values_missing stats --format)" "every --format value offered is in stats --help"
is "ctime iso ns/" "$(comp watch --time-format =)/$(values_missing watch --time-format)" \
	"--time-format= offers ctime, iso and ns, all in watch --help"
modes="cat export json json-pretty listing short short-iso short-precise verbose"
is "$modes/$modes/" "$(comp dump -o '')/$(comp watch --output =)/$(values_missing dump --output)" \
	"dump and watch -o offer the output modes, all in dump --help"
is "$(printf '%s\n' 0 -1 | sort | words)/" "$(comp dump --boot =)/$(values_missing dump --boot)" \
	"dump --boot= offers 0 and -1, both in dump --help"
is "" "$(comp feed -b '')" "feed -b (--batch) is a number: nothing offered"
is "/dev/null" "$(comp stats --output-file = /dev/nul)" "stats --output-file=: a path"
is "" "$(comp dump -f '')" "dump -f (--follow) takes no value: nothing offered"

done_testing
