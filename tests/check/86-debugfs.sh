#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debugfs /sys/kernel/debug/seqring/{stats,clients,readings}: stats agree
# with the spec and GET_STATS, clients lists every open file of /dev/seqring
# with its process, path and push count, readings equals /proc/seqring.

# shellcheck source=SCRIPTDIR/../lib.sh
. "${SEQRING_TESTS:-/tests}/lib.sh"

plan 28

KEYS="capacity count total dropped cleared oldest_seq newest_seq lost lost_full lost_dead lost_broken record_size ring_bytes clients"
CMP_KEYS="capacity count total dropped cleared oldest_seq newest_seq lost"

# clients_lines: the clients file without its header.
clients_lines() {
	sed 1d "$DEBUGFS/clients"
}

check_load "load seqring.ko capacity=8" capacity=8
if ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
check "debugfs has seqring/stats, clients and readings" \
	test -r "$DEBUGFS/stats" -a -r "$DEBUGFS/clients" -a -r "$DEBUGFS/readings"

got=$(awk -F': ' '{ print $1 }' "$DEBUGFS/stats" | sort | words)
exp=$(for k in $KEYS; do echo "$k"; done | sort | words)
is "$exp" "$got" "stats has each key once: $KEYS"
is 0 "$(grep -Evc '^[a-z_]+: [0-9]+$' "$DEBUGFS/stats")" "every stats line is 'key: decimal'"

push 12
"$BIN/clear_ring"
push 3 -v 13
vals=$(for k in $CMP_KEYS; do debugfs_stat "$k"; done | words)
is "8 3 15 4 8 13 15 0" "$vals" \
	"12 pushes, CLEAR, 3 pushes: capacity 8 count 3 total 15 dropped 4 cleared 8 oldest 13 newest 15 lost 0"
"$BIN/getstats" >"$T/stats"
# shellcheck disable=SC2086 # CMP_KEYS is a list of keys
gs=$(kvs "$T/stats" $CMP_KEYS)
is "$gs" "$vals" "debugfs stats equal GET_STATS for $CMP_KEYS"

is "# PID COMM PATH PUSHED" "$(head -n 1 "$DEBUGFS/clients")" "clients starts with its header"
is "" "$(clients_lines)" "nobody has /dev/seqring open: no client lines"
is 0 "$(debugfs_stat clients)" "... and stats clients is 0"

if start_holder "$T/h1" -n 4 "$DEV"; then
	p1=$HOLDER_PID
	is "$p1 hold_open /dev/seqring 4" "$(clients_lines | grep "^$p1 ")" \
		"a process holding /dev/seqring after 4 pushes: 'PID hold_open /dev/seqring 4'"
else
	p1=none
	not_ok "a process holding /dev/seqring after 4 pushes: 'PID hold_open /dev/seqring 4'" \
		"hold_open did not start"
fi
is 1 "$(debugfs_stat clients)" "... and stats clients is 1"

path2=/dev/seqring0
[ -e "$path2" ] || { diag "no /dev/seqring0 symlink, opening $DEV instead"; path2=$DEV; }
if start_holder "$T/h2" -r "$path2"; then
	p2=$HOLDER_PID
	is "$p2 hold_open /dev/seqring 0" "$(clients_lines | grep "^$p2 ")" \
		"an O_RDONLY opener through $path2 is listed with path /dev/seqring and 0 pushed"
else
	p2=none
	not_ok "an O_RDONLY opener through $path2 is listed with path /dev/seqring and 0 pushed" \
		"hold_open did not start"
fi
is 2 "$(debugfs_stat clients)" "with two openers stats clients is 2"
is 2 "$(clients_lines | wc -l)" "... and there are two client lines"

push 2 -v 100
is "$p1 hold_open /dev/seqring 4" "$(clients_lines | grep "^$p1 ")" \
	"pushes through another fd do not count for the holder"

cp "$BIN/hold_open" "$T/hold open"
if HOLD_PROG="$T/hold open" start_holder "$T/h3" -n 1 "$DEV"; then
	p3=$HOLDER_PID
	is "$p3 hold\\040open /dev/seqring 1" "$(clients_lines | grep "^$p3 ")" \
		"a command name with a space is escaped as \\040"
	stop_pid "$p3"
else
	not_ok "a command name with a space is escaped as \\040" "hold_open did not start"
fi

# comm_is NAME EXPECTED DESC: run hold_open under the program name NAME
# (its comm), check how the clients listing shows it.
comm_is() {
	cp "$BIN/hold_open" "$T/$1"
	if HOLD_PROG="$T/$1" start_holder "$T/h4" -n 1 "$DEV"; then
		is "$HOLDER_PID $2 /dev/seqring 1" "$(clients_lines | grep "^$HOLDER_PID ")" "$3"
		stop_pid "$HOLDER_PID"
	else
		not_ok "$3" "hold_open did not start as '$1'"
	fi
	rm -f "$T/$1"
}

comm_is "$(printf 'h\033[1m\r\177\303\251')" 'h\033[1m\015\177\303\251' \
	"a command name's ESC, CR, DEL and bytes >= 0x80 are escaped like labels"
comm_is - '\055' "a command name that is literally - is shown as \\055"

# A node of the device at a path with a control byte, a byte >= 0x80 and
# a space: the path is escaped as labels are, so it stays one field.
majmin=$(cat "$SYSFS/dev")
odd="/dev/$(printf 'n\001\303\251 x')"
if mknod "$odd" c "${majmin%:*}" "${majmin#*:}" &&
   start_holder "$T/h5" -r "$odd"; then
	is "$HOLDER_PID hold_open /dev/n\\001\\303\\251\\040x 0" \
		"$(clients_lines | grep "^$HOLDER_PID ")" \
		"a path's control bytes, bytes >= 0x80 and spaces are escaped like labels"
	stop_pid "$HOLDER_PID"
else
	not_ok "a path's control bytes, bytes >= 0x80 and spaces are escaped like labels" \
		"could not open the device through mknod $odd"
fi
rm -f "$odd"

# The pid is the one the reader's pid namespace knows: a process that
# opens the device in a new namespace, where it is pid 1, sees itself as 1.
if ! unshare -p -f true 2>"$T/err"; then
	skip "a reader in another pid namespace sees pids of its own namespace" \
		"no pid namespaces here (CONFIG_PID_NS): $(cat "$T/err")"
	skip "the initial namespace sees that opener under its global pid" \
		"no pid namespaces here (CONFIG_PID_NS)"
else
	if unshare -p -f sh -c "exec 3<$DEV; grep '^1 sh ' $DEBUGFS/clients" >"$T/ns" 2>&1; then
		ok "a reader in another pid namespace sees pids of its own namespace"
	else
		not_ok "a reader in another pid namespace sees pids of its own namespace" \
			"expected a line '1 sh $DEV 0', got: $(cat "$T/ns")"
	fi
	# ... and the initial namespace sees that process under its own pid.
	unshare -p -f sh -c "exec 3<$DEV; sleep 30" &
	nsp=$!
	_tap_pids="$_tap_pids $nsp"
	i=0
	while [ $i -lt 50 ] && ! clients_lines | grep -q '^[0-9]* sh '; do
		sleep 0.1
		i=$((i + 1))
	done
	inner=$(clients_lines | awk '$2 == "sh" { print $1 }')
	if [ -n "$inner" ] && [ "$inner" != 1 ] && [ -d "/proc/$inner" ]; then
		ok "the initial namespace sees that opener under its global pid"
	else
		not_ok "the initial namespace sees that opener under its global pid" \
			"expected a pid other than 1 that exists here, got '$inner': $(clients_lines)"
	fi
	# Killing the namespace's init (its pid 1) ends everything in it.
	[ -n "$inner" ] && kill -9 "$inner" 2>/dev/null
	stop_pid "$nsp"
fi

[ "$p1" != none ] && stop_pid "$p1"
[ "$p2" != none ] && stop_pid "$p2"
is "" "$(clients_lines)" "after the holders exit there are no client lines"
is 0 "$(debugfs_stat clients)" "... and stats clients is 0"

# clients tells who has the device open: root's alone, even where the
# debugfs mount lets others in (its root is 0700 here, as by default).
sr_gid=$(awk -F: '$1 == "seqring" { print $3 }' /etc/group)
dbgmode=$(stat -c %a /sys/kernel/debug)
chmod 0755 /sys/kernel/debug
"$BIN/stress_runas" 1001 "1001,${sr_gid:-990}" cat "$DEBUGFS/clients" >"$T/c" 2>&1
crc=$?
"$BIN/stress_runas" 1001 "1001,${sr_gid:-990}" cat "$DEBUGFS/stats" >/dev/null 2>&1
src=$?
chmod "$dbgmode" /sys/kernel/debug
is "400 1 0" "$(stat -c %a "$DEBUGFS/clients") $crc $src" \
	"clients is 0400: a member of group seqring cannot read it (stats it can), debugfs open to all" ||
	diag "$(cat "$T/c")"

cat "$DEBUGFS/readings" >"$T/dbg"
cat "$PROC" >"$T/proc"
same_file "$T/proc" "$T/dbg" "debugfs readings equals /proc/seqring"
push 20 -v 200 -l over
cat "$DEBUGFS/readings" >"$T/dbg"
cat "$PROC" >"$T/proc"
same_file "$T/proc" "$T/dbg" "... also after the ring overwrote itself"

check_unload "rmmod seqring"
check_fails "the debugfs directory is gone after rmmod" test -e "$DEBUGFS"
done_testing
