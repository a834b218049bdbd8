#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-kernels.sh - the check tier on every supported kernel (make
# check-kernels)
#
# For each kernel of tests/kernels/kernels.list (KERNELS="5.10 6.12-rt"
# picks some by NAME):
#   1. resolve: the version linux-headers-FLAVOUR of the kernel's Debian
#      suite depends on now (tests/kernels/suite-apt.sh; sid moves on, so
#      "newest" is whatever sid has when the run starts);
#   2. build: in a root of that suite with make, sparse and exactly those
#      headers, which pull in the compiler the kernel was built with
#      (tests/roots/mkroot.sh, cached; one root per suite, holding the
#      headers of every kernel the list has from that suite), the source
#      tree copied in, `make modules extmod KDIR=/usr/src/linux-headers-KVER
#      CC=<the compiler its .config names> W=1 C=2` (the modules, the
#      sample, and tests/extmod's module built out of tree against them),
#      a warning or a sparse report failing the kernel; the root is
#      removed after;
#   3. image: linux-image-VER (in sid: the linux-binary-VER it depends on)
#      downloaded with `apt-get download` and its bzImage extracted with
#      `dpkg-deb -x`, never installed; kept in
#      $SEQRING_CACHE/kernels/KVER_VERSION/vmlinuz-KVER;
#   4. boot (the kernels of KERNELS_BOOT, default all of KERNELS; the
#      others count one result, their W=1 C=2 build): that image in the
#      VM with those modules and the host's tool,
#      test programs and initramfs (tests/vm/run.sh check): the whole check
#      tier, the same scripts on every kernel. With KERNELS_TIER=crash
#      (make check-crash KERNELS=...), the crash tier instead, with run.sh's
#      VM_* settings from make, and the state disk's driver (virtio_blk,
#      and what it needs) taken from the image's package into
#      $SEQRING_CACHE/kernels/KVER_VERSION/blk/.
#
# Output: one TAP stream, every result named after its kernel ("ok 12 -
# 5.10: ..."), a failure before the VM ran being one "not ok" for that
# kernel; then the per-kernel table (also in build/kernels/results.md, in
# the form of doc/testing.md's "Supported kernels" table) and as the last line
#   N passed, N failed[, N skipped]
# Per kernel, build/kernels/NAME/ keeps build.log, check.log (run.sh's
# output), console.log and the modules. Exit status 0 iff nothing failed.
#
# `check-kernels.sh --prepare` only fills the cache (steps 1, the roots of
# step 2, and 3) and boots nothing: .ci/run runs it in the background while
# other tiers use the VM, so that a cold cache costs less time.
#
# Needs the host's tool and test programs built (`make tool progs`) and
# tests/vm/deps.sh's packages; `make check-kernels` does both.
# Environment: KERNELS, KERNELS_BOOT, KERNELS_TIER, SEQRING_CACHE, and run.sh's VM_*
# variables.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
prepare=0
[ "${1:-}" != --prepare ] || prepare=1
here=tests/kernels
cache=${SEQRING_CACHE:-/var/cache/seqring}
out=$repo/build/kernels
mkdir -p "$out" "$cache/kernels"
vm_tier=${KERNELS_TIER:-check}

. tests/lib-tier.sh
rows=

say() {
	echo "# check-kernels: $*"
}

# fail_kernel NAME WHAT [LOG]: kernel NAME failed before its VM ran.
fail_kernel() {
	tier_fail "$@"
	rows+="| $1 | ${suite[$1]} | ${kver[$1]:--} | ${ver[$1]:--} | - | - | failed: $2 |"$'\n'
}

# --- the list ----------------------------------------------------------------
declare -A suite flavour hdr kver ver cc rt fail
names=() # selected, in list order
all=()   # every kernel of the list
want=" ${KERNELS:-} "
while read -r name s f _ <&3; do
	case $name in "" | "#"*) continue ;; esac
	suite[$name]=$s
	flavour[$name]=$f
	all+=("$name")
	[ "$want" = "  " ] || [ "${want#* "$name" }" != "$want" ] || continue
	names+=("$name")
done 3<"$here/kernels.list"
[ ${#names[@]} -gt 0 ] || { echo "check-kernels: no kernel named '$KERNELS' in $here/kernels.list" >&2; exit 2; }
# The suites the selected kernels come from, in list order.
suites=()
for name in "${names[@]}"; do
	case " ${suites[*]} " in *" ${suite[$name]} "*) ;; *) suites+=("${suite[$name]}") ;; esac
done

# --- 1. resolve ----------------------------------------------------------------
# Every kernel of a suite in use is resolved, selected or not: a suite's
# root holds the headers of all of them, so its cache key does not depend
# on KERNELS.
for s in "${suites[@]}"; do
	"$here/suite-apt.sh" "$s" update 2>&1 | tail -n 1 | sed "s/^/# $s: /"
	for name in "${all[@]}"; do
		[ "${suite[$name]}" = "$s" ] || continue
		h=$("$here/suite-apt.sh" "$s" apt-cache depends "linux-headers-${flavour[$name]}" 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-headers-[0-9][^ ]*\)$/\1/p' | head -n 1)
		v=$([ -z "$h" ] || "$here/suite-apt.sh" "$s" apt-cache policy "$h" 2>/dev/null |
			awk '$1 == "Candidate:" { print $2 }')
		if [ -z "$h" ] || [ -z "$v" ] || [ "$v" = "(none)" ]; then
			fail[$name]="no linux-headers-${flavour[$name]} in $s"
			continue
		fi
		if ! tier_image_there "$s" "${h#linux-headers-}" "$v"; then
			say "$name: the mirror lists linux-image-${h#linux-headers-} $v but has no such file"
			if ! other=$(tier_older_kernel "$s" "${flavour[$name]}" "${h#linux-headers-}"); then
				fail[$name]="no image of ${h#linux-headers-} ($v) nor of an older ${flavour[$name]} kernel on the mirror"
				continue
			fi
			read -r h v <<<"$other"
		fi
		hdr[$name]=$h
		kver[$name]=${h#linux-headers-}
		ver[$name]=$v
		say "$name: ${kver[$name]} ($v) from $s"
	done
done

# image NAME DIR: extract the bzImage of kernel NAME into DIR.
image() {
	local s=${suite[$1]} k=${kver[$1]} v=${ver[$1]} dl deb bin
	dl=$(mktemp -d "$cache/kernels/.dl-XXXXXX") || return 1
	(
		cd "$dl" || exit 1
		"$repo/$here/suite-apt.sh" "$s" apt-get -q download "linux-image-$k=$v" || exit 1
		deb=$(ls linux-image-*.deb)
		if dpkg-deb -c "$deb" | grep -q "/boot/vmlinuz-$k\$"; then
			dpkg-deb -x "$deb" x || exit 1
			cp "x/boot/vmlinuz-$k" vmlinuz
		else
			# sid: linux-image-KVER is a metapackage; the image is
			# in linux-binary-KVER, under /usr/lib/modules.
			bin=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' |
				grep -o "linux-binary-$k\b" | head -n 1)
			[ -n "$bin" ] || { echo "no bzImage in $deb, no linux-binary"; exit 1; }
			"$repo/$here/suite-apt.sh" "$s" apt-get -q download "$bin=$v" || exit 1
			dpkg-deb -x "$bin"_*.deb x || exit 1
			cp "x/usr/lib/modules/$k/vmlinuz" vmlinuz
		fi
	) || { rm -rf "$dl"; return 1; }
	mkdir -p "$2"
	mv "$dl/vmlinuz" "$2/vmlinuz-$k.tmp" && mv "$2/vmlinuz-$k.tmp" "$2/vmlinuz-$k"
	rm -rf "$dl"
}

# --- 2. build, one root per suite ---------------------------------------------
for s in "${suites[@]}"; do
	# dwarves: pahole, which makes the module's BTF (module-btf.sh);
	# xz-utils: module-btf.sh takes the kernel's BTF out of an image
	# whose kernel is xz-compressed (Debian's 6.1 for amd64), and a
	# minbase root has no xz.
	pkgs=(make sparse)
	[ "$s" = bullseye ] || pkgs+=(dwarves xz-utils)
	for name in "${all[@]}"; do
		[ "${suite[$name]}" = "$s" ] && [ -n "${hdr[$name]:-}" ] &&
			pkgs+=("${hdr[$name]}=${ver[$name]}")
	done
	log=$out/root-$s.log
	t0=$(date +%s)
	root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-kernel.XXXXXX") && rmdir "$root"
	if ! tests/roots/mkroot.sh "$s" "$root" "${pkgs[@]}" >"$log" 2>&1; then
		tests/roots/rmroot.sh "$root"
		for name in "${names[@]}"; do
			[ "${suite[$name]}" = "$s" ] && [ -z "${fail[$name]:-}" ] &&
				fail[$name]="$s root with ${pkgs[*]} (log: $log)"
		done
		tail -n 20 "$log" | sed 's/^/# /'
		continue
	fi
	say "$s root ready in $(($(date +%s) - t0))s"
	if [ "$prepare" = 1 ]; then
		tests/roots/rmroot.sh "$root"
		continue
	fi
	for name in "${names[@]}"; do
		[ "${suite[$name]}" = "$s" ] && [ -z "${fail[$name]:-}" ] || continue
		dir=$out/$name
		rm -rf "$dir"
		mkdir -p "$dir"
		config=$root/usr/src/${hdr[$name]}/.config
		# The compiler the kernel was built with, as its config names
		# it ("gcc-12 (Debian 12.2.0-14) 12.2.0"); the headers
		# depend on it.
		c=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$config")
		rt[$name]=$(grep -c '^CONFIG_PREEMPT_RT=y' "$config")
		src=$root/src-$name
		mkdir -p "$src"
		git ls-files -z -co --exclude-standard | tar --null -T - -cf - |
			tar -C "$src" -xf -
		# The module's BTF (tier_btf_prep), over this kernel's image:
		# fetched here when neither --prepare nor a boot cached it (step
		# 3 boots the same file); tier_btf_prep decides whether it is
		# needed.
		img=$cache/kernels/${kver[$name]}_${ver[$name]}/vmlinuz-${kver[$name]}
		[ -s "$img" ] || image "$name" "${img%/*}" >>"$dir/build.log" 2>&1
		read -ra btf < <(tier_btf_prep "$root" "${hdr[$name]}" "${kver[$name]}" \
			"$img" "$dir/build.log")
		# W=1 C=2, as make lint on the default kernel: every
		# supported kernel's headers must build the driver silently.
		if tests/roots/inroot.sh "$root" make -C "/src-$name" modules extmod \
			KDIR="/usr/src/${hdr[$name]}" KVER="${kver[$name]}" "${btf[@]}" \
			${c:+CC=$c} W=1 C=2 \
			>"$dir/build.log" 2>&1 &&
		   tier_built "$src" "$dir"; then
			cc[$name]=$(tests/roots/inroot.sh "$root" "${c:-gcc}" --version | head -n 1)
			say "$name: modules built with ${cc[$name]}, W=1 C=2"
			if grep -qE 'warning:|error:' "$dir/build.log"; then
				fail[$name]="the W=1 C=2 build warns (log: $dir/build.log)"
				grep -E 'warning:|error:' "$dir/build.log" | head -n 20 | sed 's/^/# /'
			fi
		else
			fail[$name]="build the modules for ${kver[$name]} with ${c:-gcc} (log: $dir/build.log)"
			tail -n 20 "$dir/build.log" | sed 's/^/# /'
		fi
	done
	tests/roots/rmroot.sh "$root"
done

# --- 3. image, 4. boot ------------------------------------------------------------
# blk_modules NAME DIR: the state disk's driver for kernel NAME (the crash
# tier), from its image's package (sid: and linux-modules-KVER), into DIR.
blk_modules() {
	local s=${suite[$1]} k=${kver[$1]} v=${ver[$1]} dl p
	dl=$(mktemp -d "$cache/kernels/.dl-XXXXXX") || return 1
	(
		cd "$dl" || exit 1
		"$repo/$here/suite-apt.sh" "$s" apt-get -q download "linux-image-$k=$v" || exit 1
		for p in $(dpkg-deb -f linux-image-*.deb Depends | tr ',' '\n' |
			grep -o "linux-modules-$k\b"); do
			"$repo/$here/suite-apt.sh" "$s" apt-get -q download "$p=$v" || exit 1
		done
		for p in *.deb; do dpkg-deb -x "$p" x || exit 1; done
		tier_modules x blk virtio_pci virtio_blk
	) || { rm -rf "$dl"; return 1; }
	rm -rf "$2"
	mv "$dl/blk" "$2"
	rm -rf "$dl"
}

if [ "$prepare" = 1 ]; then
	status=0
	for name in "${names[@]}"; do
		img=$cache/kernels/${kver[$name]:-none}_${ver[$name]:-none}/vmlinuz-${kver[$name]:-none}
		if [ -n "${fail[$name]:-}" ]; then
			say "$name: ${fail[$name]}"
			status=1
		elif [ ! -s "$img" ] && ! image "$name" "${img%/*}" >"$out/image-$name.log" 2>&1; then
			say "$name: cannot download the image (log: $out/image-$name.log)"
			status=1
		fi
	done
	say "prepared in $(($(date +%s) - tier_start))s"
	exit "$status"
fi

boot=" ${KERNELS_BOOT-${names[*]}} "
for name in "${names[@]}"; do
	if [ -n "${fail[$name]:-}" ]; then
		fail_kernel "$name" "${fail[$name]}"
		continue
	fi
	if [ "${boot#* "$name" }" = "$boot" ]; then
		tier_tap "$name" "ok 1 - modules built with W=1 C=2, silent (not booted: KERNELS_BOOT)"
		c=${cc[$name]}
		rows+="| $name | ${suite[$name]} | ${kver[$name]} | ${ver[$name]} | ${c%% (*} ${c##* } |"
		rows+=" $([ "${rt[$name]}" -gt 0 ] && echo PREEMPT_RT || echo -) | built only |"$'\n'
		continue
	fi
	dir=$out/$name
	t0=$(date +%s)
	img=$cache/kernels/${kver[$name]}_${ver[$name]}/vmlinuz-${kver[$name]}
	if [ ! -s "$img" ] && ! image "$name" "${img%/*}" >>"$dir/build.log" 2>&1; then
		fail_kernel "$name" "download the image of ${kver[$name]} (${ver[$name]})" "$dir/build.log"
		continue
	fi
	touch -c "${img%/*}" # used: prune-cache.sh keeps it
	blk=
	if [ "$vm_tier" = crash ]; then
		if [ ! -f "${img%/*}/blk/order" ] &&
		   ! blk_modules "$name" "${img%/*}/blk" >>"$dir/build.log" 2>&1; then
			fail_kernel "$name" "virtio_blk of ${kver[$name]} (${ver[$name]})" "$dir/build.log"
			continue
		fi
		blk=$(sed "s|^|${img%/*}/blk/|" "${img%/*}/blk/order")
	fi
	VM_STATE_MODULES=$blk SEQRING_KO_DIR=$dir KERNEL=$img \
		tests/vm/run.sh "$vm_tier" >"$dir/$vm_tier.log" 2>&1
	cp "build/vm/$vm_tier-console.log" "$dir/console.log" 2>/dev/null
	tier_merge "$name" "$dir/$vm_tier.log"
	summary=$tier_summary
	say "$name: ${summary:-no summary} (VM: $(($(date +%s) - t0))s)"
	c=${cc[$name]}
	rows+="| $name | ${suite[$name]} | ${kver[$name]} | ${ver[$name]} | ${c%% (*} ${c##* } |"
	rows+=" $([ "${rt[$name]}" -gt 0 ] && echo PREEMPT_RT || echo -) | ${summary:-failed before its summary} |"$'\n'
done

{
	echo "| kernel | Debian suite | \`uname -r\` | package version | compiler | preemption | $vm_tier tier |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s' "$rows"
} >"$out/results.md"
tier_end check-kernels "$out/results.md"
