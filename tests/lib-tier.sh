# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib-tier.sh - what the tiers that run the check tier on many kernels
# share (bash; sourced by tests/kernels/check-kernels.sh and
# tests/arch/check-arch.sh): one TAP stream in which every result of every
# kernel is renumbered and named after its kernel ("ok 12 - 5.10: ..."),
# counted, and closed like every tier: the plan, the per-kernel table as
# comments, and as the last line
#   N passed, N failed[, N skipped]
#
# Use:	. tests/lib-tier.sh
#	tier_tap NAME "ok 1 - the modules build"
#	tier_merge NAME build/kernels/NAME/check.log   # sets tier_summary
#	tier_merge NAME script.log $?                  # a TAP script's
#	...
#	tier_end check-kernels build/kernels/results.md  # exit status
#
# "# SKIP" on an ok and "# TODO" on a not ok count as skipped.
#
# And the mirror's kernels: tier_image_there, tier_older_kernel (the
# packages of amd64, or of the Debian architecture in ARCH, as
# tests/kernels/suite-apt.sh; the caller's cache in $cache); and
# tier_modules, the modules a VM needs from a kernel's package. And what
# building the driver for such a kernel in a root needs: tier_btf_prep
# (the module's BTF), tier_built (the modules a VM loads, copied out).

tier_passed=0 tier_failed=0 tier_skipped=0 tier_n=0
tier_summary=
tier_start=$(date +%s)

# tier_tap NAME LINE: renumber one TAP result LINE of kernel NAME into
# this stream and count it.
tier_tap() {
	local name=$1 line=$2 status desc
	case $line in
	"not ok "*) status="not ok" desc=${line#not ok } ;;
	*) status=ok desc=${line#ok } ;;
	esac
	desc=${desc#*[0-9] } # the old number
	desc=${desc#- }
	tier_n=$((tier_n + 1))
	echo "$status $tier_n - $name: $desc"
	case $status$line in
	ok*"# SKIP"* | ok*"# skip"* | "not ok"*"# TODO"* | "not ok"*"# todo"*)
		tier_skipped=$((tier_skipped + 1)) ;;
	ok*) tier_passed=$((tier_passed + 1)) ;;
	*) tier_failed=$((tier_failed + 1)) ;;
	esac
}

# tier_fail NAME WHAT [LOG]: kernel NAME failed before its tests ran: one
# "not ok", and the tail of LOG as comments.
tier_fail() {
	tier_tap "$1" "not ok 1 - $2${3:+ (log: $3)}"
	if [ -n "${3:-}" ] && [ -f "$3" ]; then
		tail -n 20 "$3" | sed 's/^/# /'
	fi
}

# tier_merge NAME LOG [STATUS]: the results and comments of LOG,
# renumbered for kernel NAME. LOG is a tests/vm/run.sh log, or with STATUS
# the output of a TAP script that exited with STATUS. Sets tier_summary
# to the closing line ("N passed, N failed..."): run.sh's last one, or
# for a script, its own counts. A log that did not run to its end (no
# summary line; for a script, fewer results than its plan, or a failing
# exit status without a failed test) adds a "not ok" and leaves
# tier_summary empty.
tier_merge() {
	local line plan=none ran=0 bad=0 skip=0
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*)
			tier_tap "$1" "$line"
			ran=$((ran + 1))
			case $line in
			ok*"# SKIP"* | ok*"# skip"*) skip=$((skip + 1)) ;;
			"not ok"*) bad=$((bad + 1)) ;;
			esac
			;;
		1..[0-9]*) plan=${line#1..} plan=${plan%%[!0-9]*} ;;
		"#"*) echo "$line" ;;
		"Bail out!"*) echo "# $line" ;;
		esac
	done <"$2"
	tier_summary=
	if [ $# -ge 3 ]; then
		if [ "$ran" != "$plan" ]; then
			tier_fail "$1" "planned $plan tests, ran $ran" "$2"
		elif [ "$3" -ne 0 ] && [ "$bad" -eq 0 ]; then
			tier_fail "$1" "exited with status $3" "$2"
		else
			tier_summary="$((ran - bad - skip)) passed, $bad failed"
			[ "$skip" -eq 0 ] || tier_summary+=", $skip skipped"
		fi
		return
	fi
	tier_summary=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	if [ -z "$tier_summary" ]; then
		tier_fail "$1" "the check tier ran to its summary" "$2"
	fi
}

# tier_image_there SUITE KVER VERSION: the mirror has the image package's
# file (or it is cached). A mirror can list a version whose file it lacks
# (seen: bullseye-security's signed rt-amd64 and arm64 images answer 404
# while their headers are there).
tier_image_there() {
	local uri
	# shellcheck disable=SC2154 # $cache is the caller's
	[ ! -s "$cache/kernels/$2_$3/vmlinuz-$2" ] || return 0
	uri=$(tests/kernels/suite-apt.sh "$1" apt-get download --print-uris "linux-image-$2=$3" 2>/dev/null |
		sed -n "s/^'\([^']*\)'.*/\1/p" | head -n 1)
	[ -n "$uri" ] && curl -sfI -o /dev/null --retry 2 "$uri"
}

# tier_older_kernel SUITE FLAVOUR KVER: "linux-headers-K VERSION" of the
# newest kernel of FLAVOUR in SUITE older than KVER whose image the
# mirror has.
tier_older_kernel() {
	local h k v
	for h in $(tests/kernels/suite-apt.sh "$1" apt-cache pkgnames linux-headers- 2>/dev/null |
		grep -E "^linux-headers-[0-9][0-9.]*-[0-9]+-$2\$" | sort -Vr); do
		k=${h#linux-headers-}
		[ "$(printf '%s\n%s\n' "$k" "$3" | sort -V | head -n 1)" = "$k" ] &&
			[ "$k" != "$3" ] || continue
		v=$(tests/kernels/suite-apt.sh "$1" apt-cache policy "$h" 2>/dev/null |
			awk '$1 == "Candidate:" { print $2 }')
		[ -n "$v" ] && [ "$v" != "(none)" ] || continue
		if tier_image_there "$1" "$k" "$v"; then
			echo "# using $k ($v), the newest older $2 kernel the mirror has" >&2
			echo "$h $v"
			return 0
		fi
	done
	return 1
}

# tier_modules TREE OUT MOD...: from TREE, an unpacked linux-image (or
# linux-modules) package, copy each MOD's .ko file into OUT after the
# modules it depends on, and list them in load order in OUT/order (the
# package has no modules.dep: its postinst runs depmod; modinfo reads the
# dependencies of another CPU's module too). A MOD built into the kernel
# has no file and is left out. For /init to load before anything else
# (tests/vm/mkinitramfs.sh, SEQRING_EARLY_MODULES).
tier_modules() {
	local tree=$1 out=$2 m
	shift 2
	mkdir -p "$out" && : >"$out/order" || return 1
	for m; do
		_tier_module "$tree" "$out" "$m" || return 1
	done
}

_tier_module() {
	local f d
	f=$(find "$1" -name "$3.ko*" -o -name "${3//_/-}.ko*" | head -n 1)
	[ -n "$f" ] || return 0
	grep -qx "${f##*/}" "$2/order" && return 0
	for d in $(modinfo -F depends "$f" | tr ',' ' '); do
		_tier_module "$1" "$2" "$d" || return 1
	done
	cp "$f" "$2/" && echo "${f##*/}" >>"$2/order"
}

# tier_btf_prep ROOT HDR KVER IMAGE LOG: ready ROOT, whose /usr/src/HDR
# holds the headers of kernel KVER, to make the module's BTF (README, "From
# a BPF program") where the headers ship no vmlinux: its base is KVER's own
# BTF, out of IMAGE (its vmlinuz, never the host's; copied to ROOT's /boot,
# where module-btf.sh looks), and a resolve_btfids (the build machine's: it
# reads any ELF) where the kbuild has none (6.1), built from the host's
# linux-source of that series (tests/vm/resolve-btfids.sh; its errors into
# LOG). Prints the make argument to add (RESOLVE_BTFIDS=...), or nothing.
# Nothing to do for a kernel without module BTF.
tier_btf_prep() {
	local root=$1 hdr=$2 k=$3 img=$4 log=$5 rb
	[ ! -f "$root/usr/src/$hdr/vmlinux" ] &&
		grep -qs '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$root/usr/src/$hdr/.config" ||
		return 0
	if [ -s "$img" ]; then
		mkdir -p "$root/boot" && cp "$img" "$root/boot/vmlinuz-$k" || return 1
	fi
	[ ! -x "$root/usr/src/$hdr/tools/bpf/resolve_btfids/resolve_btfids" ] || return 0
	rb=$(tests/vm/resolve-btfids.sh "$(echo "$k" | cut -d. -f1,2)" 2>>"$log") || return 0
	cp "$rb" "$root/usr/local/bin/resolve_btfids" &&
		echo RESOLVE_BTFIDS=/usr/local/bin/resolve_btfids
}

# tier_built SRC DIR: the modules that `make modules extmod` built in the
# tree SRC and a VM of the check tier loads, copied into DIR.
tier_built() {
	cp "$1/seqring.ko" "$1/sequence.ko" "$1/samples/seqring_timerlat.ko" \
		"$1/tests/extmod/seqring_extmod.ko" "$1/seqring_producer.ko" \
		"$1/seqring_kbench.ko" "$1/seqring_ramprobe.ko" \
		"$1/seqring_nmi.ko" "$1/seqring_panicpush.ko" "$2/"
}

# tier_end TIER TABLE: the plan, the markdown table in file TABLE as
# comments, the time since this file was sourced, and the closing line.
# Returns 0 iff nothing failed.
tier_end() {
	echo "1..$tier_n"
	sed 's/^/# /' "$2"
	echo "# $1 took $(($(date +%s) - tier_start))s"
	if [ "$tier_skipped" -gt 0 ]; then
		echo "$tier_passed passed, $tier_failed failed, $tier_skipped skipped"
	else
		echo "$tier_passed passed, $tier_failed failed"
	fi
	[ "$tier_failed" -eq 0 ]
}
