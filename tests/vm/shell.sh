#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of `make shell` (installed as /tests/shell.sh, run by
# /init on the terminal's serial port as the session's controlling
# terminal): sets the machine up as a user's would be after installing
# seqring, then gives the user a login shell. When it ends, /init powers
# the VM off and `make shell` returns.
#
# What is there: seqring.ko loaded (and modprobe'able again, with
# sequence.ko and the sample seqring_timerlat.ko, from
# /lib/modules/KVER/extra), udev and its rule (/dev/seqring, group
# seqring), seqringctl, libseqring.so.1 and the sample mmap-consumer, the
# Python module seqring, systemd-journald (journalctl reads what watch
# --journal sends), the man pages (man is mandoc), and the users root
# (this shell), member (in group seqring) and tester (not).

# The terminal as a login gives one: cooked, and the size of the user's
# (SEQRING_TTY_SIZE, ROWSxCOLS, from run.sh through /init).
stty sane
size=${SEQRING_TTY_SIZE:-}
[ -z "$size" ] || stty rows "${size%x*}" cols "${size#*x}"
unset SEQRING_TTY_SIZE

# busybox ash runs its own module applets for bare names: kmod's by path.
/bin/insmod /modules/seqring.ko || echo "shell: insmod seqring.ko failed"
udevadm settle

kv=$(uname -r)
mkdir -p "/lib/modules/$kv/extra"
for m in seqring sequence seqring_timerlat; do
	cp "/modules/$m.ko" "/lib/modules/$kv/extra/" 2>/dev/null
done
: >"/lib/modules/$kv/modules.order"
: >"/lib/modules/$kv/modules.builtin"
/bin/depmod -a 2>/dev/null

# journald as systemd would start it (tests/lib.sh's start_journald).
tr -d '-' </proc/sys/kernel/random/uuid >/etc/machine-id
mkdir -p /run/systemd/journal /run/log/journal
grep -q ' /sys/fs/cgroup ' /proc/mounts ||
	mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
/lib/systemd/systemd-journald >/dev/null 2>&1 &
i=0
while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done

cat >/etc/profile <<'EOF'
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/tests/bin
PS1='seqring-vm:\w# '
PAGER=less
export PATH PS1 PAGER
alias modprobe=/bin/modprobe insmod=/bin/insmod rmmod=/bin/rmmod \
	lsmod=/bin/lsmod modinfo=/bin/modinfo
cd /root 2>/dev/null
EOF
mkdir -p /root
cat <<'EOF'

seqring in a VM: seqring.ko is loaded, /dev/seqring is group seqring's, and
seqringctl, libseqring, the Python module, journald and the man pages are
here. Every example of the README works; to start:
  seqringctl push -c 3 -l kitchen 21; cat /proc/seqring
  seqringctl watch                   (Ctrl-C ends it)
  seqringctl top                     (q quits)
  seqringctl dump -n 10 -o short; seqringctl stats -o prometheus
  seqringctl watch --journal -n all --count=1; journalctl -o verbose -n 1
  python3 -c 'import seqring; print(seqring.Ring().stats())'
  modprobe seqring_timerlat; seqringctl -d /dev/seqring-timerlat watch
  man seqringctl; su member          (a user in group seqring)
exit (or Ctrl-D) ends the shell and powers the VM off.

EOF

exec /bin/sh -l
