#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-arch.sh - the driver on other CPUs than the host's (make check-arch)
#
# First the cache pruning's test on a fake cache
# (tests/kernels/prune-cache-test.sh). Then for each kernel of
# tests/arch/arches.list (ARCHES="arm64-6.1 riscv64" picks some by NAME):
#   1. resolve: the version linux-headers-FLAVOUR of SUITE depends on now,
#      for that architecture (tests/kernels/suite-apt.sh with ARCH); for a
#      kernel to boot whose image the mirror lists but lacks, the newest
#      older one of the flavour (tests/lib-tier.sh, as check-kernels);
#   2. build: in an amd64 root of SUITE (tests/roots/mkroot.sh, cached)
#      with make, sparse, the cross compiler of the version the headers
#      name (gcc-12-aarch64-linux-gnu, ...), the cross libc, and what the
#      headers depend on but the compiler and the image (their -common
#      part and the amd64 linux-kbuild, which is Multi-Arch: foreign); the
#      ARCH headers package itself is unpacked into the root, not
#      installed, because it depends on gcc-N of ARCH, which cannot sit
#      beside amd64's; for "boot" and "packages" (not 5.10) dwarves too.
#      Then the modules with W=1 C=2 (a warning fails the kernel), and
#      their BTF over the kernel's, out of its image (step 3, made
#      first), with a resolve_btfids where the kbuild has none (6.1);
#      and for "boot" and "packages" the tool, the test programs and the
#      bench, static, in a bookworm root whatever the kernel's suite
#      (the guest's libraries are bookworm's), with the BPF ones
#      (bpf_push, the sample seqring-wakeup): clang and bpftool in the
#      root, ARCH's libbpf-dev, libelf-dev, zlib1g-dev and libzstd-dev
#      of bookworm unpacked;
#   2b. packages ("packages" only): tests/arch/packages.sh builds the
#      Debian packages natively in an emulated root of ARCH and SUITE
#      (qemu-user), installs them there, DKMS building the modules for
#      the kernel, and purges them (TAP, merged);
#   3. image ("boot", "packages"; made before step 2): linux-image-KVER
#      of ARCH downloaded and unpacked, never installed: the kernel and
#      the virtio modules the harness needs (the TAP stream goes to a
#      virtio console, the crash tier's state to a virtio disk) with
#      those they depend on, kept in $SEQRING_CACHE/kernels/KVER_VERSION/;
#   4. boot ("boot", "packages"): tests/vm/run.sh check with VM_ARCH, the
#      initramfs taking busybox, kmod, udevadm and the programs of
#      tests/check/binaries.txt (jq, journald, python3) from an unpacked root of
#      ARCH (mkroot.sh ROOT_ARCH): the whole check tier, the same scripts,
#      on the cross-built modules, or for "packages" on the DKMS-built
#      ones with the packaged tool and udev rule. With ARCH_TIER=bench
#      (make bench-arch), the booted kernels only, and the bench
#      (tests/bench/run-bench.sh) instead of the check tier. With
#      ARCH_TIER=crash (make check-crash ARCHES=...), the booted kernels
#      only, and the crash tier (tests/crash/) with the VM settings make
#      gives it (VM_BOOTS, VM_MEM, VM_APPEND: mem=, reserve_mem=); the
#      state disk is a virtio-mmio one there, its virtio_blk among the
#      early modules.
#
# Output: one TAP stream, every result named after its kernel, then the
# per-kernel table (build/arch/results.md) and as the last line
#   N passed, N failed[, N skipped]
# Per kernel, build/arch/NAME/ keeps build.log, check.log (crash.log),
# console.log and the modules (pkg/ for the packages' test, bench/ for the
# bench). Exit status 0 iff nothing failed.
# Environment: ARCHES, ARCH_TIER (check, bench or crash), QUICK (the bench's),
# SEQRING_CACHE, ARCH_VM_TIMEOUT (default 3600 s), ARCH_SCRIPT_TIMEOUT
# (default 600 s per guest script: tcg emulates arm64 several times slower
# than x86), and run.sh's VM_* variables.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
here=tests/arch
apt=tests/kernels/suite-apt.sh
cache=${SEQRING_CACHE:-/var/cache/seqring}
out=$repo/build/arch
mkdir -p "$out" "$cache/kernels"

. tests/lib-tier.sh
rows=

say() {
	echo "# check-arch: $*"
}

# row NAME RESULT: one line of the table.
row() {
	rows+="| $1 | ${suite[$1]} | ${arch[$1]} | ${kver[$1]:--} | ${ver[$1]:--} | ${what[$1]} | $2 |"$'\n'
}

# fail NAME WHAT [LOG]: kernel NAME failed before its tests.
fail() {
	tier_fail "$@"
	row "$1" "failed: $2"
}

# The kernel's name of a Debian architecture, and its GNU triplet.
karch() {
	case $1 in
	arm64) echo arm64 ;;
	riscv64) echo riscv ;;
	ppc64el) echo powerpc ;;
	i386) echo x86 ;;
	esac
}
triplet() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	riscv64) echo riscv64-linux-gnu ;;
	ppc64el) echo powerpc64le-linux-gnu ;;
	i386) echo i686-linux-gnu ;;
	esac
}

# refuse NAME ROOT HEADERS CC TRIPLET: a 32-bit kernel; two results: the
# build stops at once with Kbuild's sentence and no compiler error, and
# dkms (the machine given as i686 or armv7l, as on such a system) says
# the module is not for it instead of building.
refuse() {
	local name=$1 root=$2 h=$3 c=$4 tr=$5 k=${3#linux-headers-} desc
	desc="a 32-bit build ($k) stops at once with one sentence"
	if tests/roots/inroot.sh "$root" make -C /src modules KDIR="/usr/src/$h" \
		ARCH="$(karch "${arch[$name]}")" CROSS_COMPILE="$tr-" CC="$c" \
		>"$out/$name/build.log" 2>&1; then
		tier_tap "$name" "not ok 1 - $desc: it built"
	elif grep -q '\*\*\* seqring needs a 64-bit kernel' "$out/$name/build.log" &&
	     ! grep -q 'error:' "$out/$name/build.log"; then
		tier_tap "$name" "ok 1 - $desc"
		grep '\*\*\*' "$out/$name/build.log" | sed 's/^/# /'
	else
		tier_tap "$name" "not ok 1 - $desc (log: $out/$name/build.log)"
		tail -n 20 "$out/$name/build.log" | sed 's/^/# /'
	fi
	desc="dkms build for $k on ${dkms_machine[${arch[$name]}]} says the module is not for it"
	# The DKMS tree as make install-dkms (and the package) lays it out:
	# dkms.conf's #MODULE_VERSION# filled in.
	tests/roots/inroot.sh "$root" sh -c "make -C /src install-dkms DESTDIR=/ &&
		dkms add \"seqring/\$(cat /src/VERSION)\" &&
		setarch ${dkms_machine[${arch[$name]}]} dkms build \"seqring/\$(cat /src/VERSION)\" -k $k" \
		>"$out/$name/dkms.log" 2>&1
	if grep -q 'BUILD_EXCLUSIVE' "$out/$name/dkms.log" &&
	   ! grep -qE 'error:|make.*Error' "$out/$name/dkms.log"; then
		tier_tap "$name" "ok 2 - $desc"
		grep -i 'exclusive\|not supported' "$out/$name/dkms.log" | head -n 3 | sed 's/^/# /'
		row "$name" "refused: Kbuild stops, dkms skips"
	else
		tier_tap "$name" "not ok 2 - $desc (log: $out/$name/dkms.log)"
		tail -n 20 "$out/$name/dkms.log" | sed 's/^/# /'
		row "$name" "failed: see $out/$name/dkms.log"
	fi
}
declare -A dkms_machine=([i386]=i686 [armhf]=armv7l)

tier=${ARCH_TIER:-check}
case $tier in
check | bench) ;;
crash)
	# Without several boots every crash test only skips.
	if [ "${VM_BOOTS:-1}" -le 1 ] 2>/dev/null; then
		echo "check-arch: ARCH_TIER=crash needs the crash tier's VM settings" \
		     "(VM_BOOTS, VM_MEM, VM_APPEND): make check-crash ARCHES=..." >&2
		exit 2
	fi
	;;
*) echo "check-arch: ARCH_TIER is check, bench or crash, not '$tier'" >&2; exit 2 ;;
esac

# unpack_into ROOT SUITE PKG...: architecture $a's PKGs of SUITE, downloaded
# into $dir and unpacked into ROOT without being installed (their
# maintainer scripts would run $a's programs), then removed. For the
# headers of another CPU's kernel and the static libraries the programs
# link.
unpack_into() {
	local root=$1 s=$2 deb
	shift 2
	(
		cd "$dir" || exit 1
		ARCH=$a "$repo/$apt" "$s" apt-get -q download "$@" || exit 1
		for deb in ./*.deb; do
			dpkg-deb --fsys-tarfile "$deb" |
				tar -C "$root" --keep-directory-symlink -xf - || exit 1
		done
		rm -f ./*.deb
	)
}

# fetch_image NAME: the kernel and the modules of the virtio console and of
# the crash tier's state disk (virtio_blk; loaded by every tier, it
# finds no disk but there), with the modules they need (5.10 has
# virtio and virtio_ring as modules; 6.12 has the console built in),
# in the order to load them: early/order. early/wanted names the
# modules asked for: an entry cached with another set (or before
# those files existed) is fetched again. Uses k, v, img, a, s and dir
# of the loop below; 1 (the kernel failed) when the download failed.
fetch_image() {
	local name=$1 dl early_set
	early_set="virtio_mmio virtio_console virtio_blk"
	if [ ! -s "$img/vmlinuz-$k" ] || [ ! -f "$img/early/order" ] ||
	   [ "$(cat "$img/early/wanted" 2>/dev/null)" != "$early_set" ]; then
		dl=$(mktemp -d "$cache/kernels/.dl-XXXXXX")
		if ! (
			cd "$dl" || exit 1
			ARCH=$a "$repo/$apt" "$s" apt-get -q download "linux-image-$k=$v" || exit 1
			deb=$(ls linux-image-*.deb)
			# sid: linux-image-KVER depends on linux-binary-KVER (the
			# kernel) and linux-modules-KVER.
			for p in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' |
				grep -o -e "linux-binary-$k\b" -e "linux-modules-$k\b"); do
				ARCH=$a "$repo/$apt" "$s" apt-get -q download "$p=$v" || exit 1
			done
			for d in *.deb; do dpkg-deb -x "$d" x || exit 1; done
			# shellcheck disable=SC2086 # a list of names
			tier_modules x early $early_set || exit 1
			echo "$early_set" >early/wanted
			if [ -f "x/boot/vmlinuz-$k" ]; then
				cp "x/boot/vmlinuz-$k" vmlinuz
			else
				cp "x/usr/lib/modules/$k/vmlinuz" vmlinuz
			fi
		) >"$dir/image.log" 2>&1; then
			rm -rf "$dl"
			fail "$name" "download the image of $k ($v)" "$dir/image.log"
			return 1
		fi
		mkdir -p "$img"
		rm -rf "$img/early"
		mv "$dl/early" "$img/early"
		mv "$dl/vmlinuz" "$img/vmlinuz-$k"
		rm -rf "$dl"
	fi
}

declare -A suite arch flavour what kver ver
names=()
want=" ${ARCHES:-} "
while read -r name s a f w _ <&3; do
	case $name in "" | "#"*) continue ;; esac
	[ "$want" = "  " ] || [ "${want#* "$name" }" != "$want" ] || continue
	# The bench and the crash tier run on booted kernels only.
	[ "$tier" = check ] || [ "$w" = boot ] || continue
	suite[$name]=$s arch[$name]=$a flavour[$name]=$f what[$name]=$w
	names+=("$name")
done 3<"$here/arches.list"
[ ${#names[@]} -gt 0 ] || { echo "check-arch: no kernel named '${ARCHES:-}' in $here/arches.list" >&2; exit 2; }

# The cache's pruning (make prune-cache), on a fake cache: check-arch is
# what adds most to the cache.
if [ "$tier" = check ]; then
	bash tests/kernels/prune-cache-test.sh </dev/null >"$out/prune-cache-test.log" 2>&1
	tier_merge cache "$out/prune-cache-test.log" $?
fi

for name in "${names[@]}"; do
	s=${suite[$name]} a=${arch[$name]} t0=$(date +%s)
	dir=$out/$name
	rm -rf "$dir"
	mkdir -p "$dir"

	# 1. resolve
	ARCH=$a "$apt" "$s" update 2>&1 | tail -n 1 | sed "s/^/# $name: /"
	h=$(ARCH=$a "$apt" "$s" apt-cache depends "linux-headers-${flavour[$name]}" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[0-9][^ ]*\)$/\1/p' | head -n 1)
	v=$([ -z "$h" ] || ARCH=$a "$apt" "$s" apt-cache policy "$h" 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	if [ -z "$h" ] || [ -z "$v" ] || [ "$v" = "(none)" ]; then
		fail "$name" "no linux-headers-${flavour[$name]} for $a in $s"
		continue
	fi
	# A kernel to boot must have its image on the mirror; else the
	# newest older one of the flavour that has (as check-kernels).
	case ${what[$name]} in
	boot | packages)
		if ! ARCH=$a tier_image_there "$s" "${h#linux-headers-}" "$v"; then
			say "$name: the mirror lists linux-image-${h#linux-headers-} $v but has no such file"
			if ! other=$(ARCH=$a tier_older_kernel "$s" "${flavour[$name]}" "${h#linux-headers-}"); then
				fail "$name" "no image of ${h#linux-headers-} ($v) nor of an older ${flavour[$name]} kernel on the mirror"
				continue
			fi
			read -r h v <<<"$other"
		fi
		;;
	esac
	kver[$name]=${h#linux-headers-} ver[$name]=$v
	say "$name: ${kver[$name]} ($v) from $s"
	k=${kver[$name]}
	img=$cache/kernels/${k}_$v
	# 2a. image, before the build: the module's BTF is made over the
	# kernel's (below); step 4 boots it.
	case ${what[$name]} in
	boot | packages) fetch_image "$name" || continue ;;
	esac

	# 2. build. The headers' dependencies: their compiler (gcc-N,
	# gcc-N-for-host in sid, linux-compiler-gcc-N-x86 for i386) becomes the cross compiler of version N,
	# what is of ARCH only (the headers, sid's linux-base-KVER-FLAVOUR) is
	# unpacked, the rest installed: "=" versions pinned, ">=" dropped but
	# for linux-kbuild (the same build as the headers).
	tr=$(triplet "$a")
	deps=$(ARCH=$a "$apt" "$s" apt-cache show "$h=$v" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1 | tr -d ' ' | tr ',' '\n' |
		sed 's/(=\(.*\))$/=\1/; s/^\(linux-kbuild-[^(]*\)(>=\(.*\))$/\1=\2/; s/(>=.*)$//')
	gcc=$(echo "$deps" | grep -E '^(gcc-[0-9]+(-for-host)?|linux-compiler-gcc-[0-9]+-.*)$')
	gccv=$(echo "$gcc" | grep -oE 'gcc-[0-9]+')
	c=$tr-$gccv
	pkgs=(make sparse "$gccv-$tr" "libc6-dev-$a-cross")
	[ "${what[$name]}" != refuse ] || pkgs+=(dkms)
	unpack=("$h=$v")
	for p in $deps; do
		case $p in
		# The image (6.12's headers depend on it) is booted, not
		# installed.
		"$gcc" | linux-image-*) ;;
		*"-${flavour[$name]}="*) unpack+=("$p") ;;
		*) pkgs+=("$p") ;;
		esac
	done
	# dwarves: pahole, which makes the module's BTF (module-btf.sh), for
	# the kernels booted (5.10 has no module kfuncs).
	case ${what[$name]}/$s in
	*/bullseye) ;;
	boot/* | packages/*) pkgs+=(dwarves) ;;
	esac
	root=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-arch.XXXXXX") && rmdir "$root"
	if ! tests/roots/mkroot.sh "$s" "$root" "${pkgs[@]}" >"$dir/root.log" 2>&1 ||
	   ! unpack_into "$root" "$s" "${unpack[@]}" >>"$dir/root.log" 2>&1; then
		tests/roots/rmroot.sh "$root"
		fail "$name" "$s root with ${pkgs[*]}, ${unpack[*]} of $a unpacked" "$dir/root.log"
		continue
	fi
	src=$root/src
	mkdir -p "$src"
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -C "$src" -xf -
	build() {
		tests/roots/inroot.sh "$root" make -C /src "$@" >>"$dir/build.log" 2>&1
	}
	if [ "${what[$name]}" = refuse ]; then
		refuse "$name" "$root" "$h" "$c" "$tr"
		tests/roots/rmroot.sh "$root"
		continue
	fi
	# The module's BTF (tier_btf_prep), over the image fetched above.
	read -ra btf < <(tier_btf_prep "$root" "$h" "$k" "$img/vmlinuz-$k" "$dir/build.log")
	if ! build modules extmod KDIR="/usr/src/$h" KVER="$k" "${btf[@]}" ARCH="$(karch "$a")" \
		CROSS_COMPILE="$tr-" CC="$c" W=1 C=2; then
		tests/roots/rmroot.sh "$root"
		fail "$name" "cross-build the modules for ${kver[$name]} with $c" "$dir/build.log"
		continue
	fi
	if grep -qE 'warning:|error:' "$dir/build.log"; then
		grep -E 'warning:|error:' "$dir/build.log" | head -n 20 | sed 's/^/# /'
		tests/roots/rmroot.sh "$root"
		fail "$name" "the W=1 C=2 build warns" "$dir/build.log"
		continue
	fi
	tier_built "$src" "$dir"
	tier_tap "$name" "ok 1 - the modules cross-build for ${kver[$name]} with $c, W=1 C=2, no warning"
	if [ "${what[$name]}" = build ]; then
		tests/roots/rmroot.sh "$root"
		row "$name" "built, W=1 C=2 silent ($(($(date +%s) - t0)) s)"
		continue
	fi
	# The programs run in the guest on bookworm's libraries (the guest
	# root's), so they are built in a bookworm root with bookworm's cross
	# compiler, whatever the kernel's suite, as check-kernels uses the
	# host's for every kernel: bullseye's C library is too old for them
	# (strerrorname_np() came in glibc 2.32), and a newer suite's static
	# libraries need more than bookworm's (bookworm-backports' libelf.a
	# wants elfutils' own eu_search_tree_init()). With them the BPF test
	# programs and sample (97-bpf): clang -target bpf and bpftool of the
	# build machine, and ARCH's static libbpf and what it links (their
	# -dev packages unpacked, as the headers: the cross compiler finds
	# them in the multiarch directories).
	tests/roots/rmroot.sh "$root"
	c=$tr-gcc
	unpack=(libbpf-dev libelf-dev zlib1g-dev libzstd-dev)
	if ! tests/roots/mkroot.sh bookworm "$root" make "gcc-$tr" "libc6-dev-$a-cross" \
		clang bpftool >>"$dir/root.log" 2>&1 ||
	   ! { ARCH=$a "$repo/$apt" bookworm update &&
	       unpack_into "$root" bookworm "${unpack[@]}"; } >>"$dir/root.log" 2>&1; then
		tests/roots/rmroot.sh "$root"
		fail "$name" "a bookworm root with gcc-$tr, clang, bpftool, ${unpack[*]} of $a unpacked" "$dir/root.log"
		continue
	fi
	mkdir -p "$src"
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -C "$src" -xf -
	if ! build tool progs samples CC="$c" || ! build -C tests/bench CC="$c"; then
		tests/roots/rmroot.sh "$root"
		fail "$name" "cross-build the tool, the test programs, the sample and the bench with $c" "$dir/build.log"
		continue
	fi
	mkdir -p "$dir/progs"
	find "$src/tests/progs" -maxdepth 1 -type f -perm -u+x -exec cp {} "$dir/progs/" \;
	# The userspace samples are run by the tests as test programs (the
	# BPF one where it was built: clang, bpftool and ARCH's libbpf).
	cp "$src/samples/mmap-consumer" "$dir/progs/"
	[ ! -x "$src/samples/bpf/seqring-wakeup" ] ||
		cp "$src/samples/bpf/seqring-wakeup" "$dir/progs/"
	cp "$src/tools/seqringctl" "$dir/"
	tests/roots/rmroot.sh "$root"
	boot_ko=$dir boot_ctl=$dir/seqringctl boot_rules=$repo/udev-rules/60-seqring.rules

	# 2b. "packages": the Debian packages built and installed in an
	# emulated root of ARCH, DKMS building the modules there; the boot
	# below then runs the check tier on those modules, with the
	# packaged tool and udev rule.
	if [ "${what[$name]}" = packages ]; then
		REPO=$repo SEQRING_TESTS=$repo/tests bash "$here/packages.sh" "$a" "$s" "$h" "$v" \
			"$dir/pkg" </dev/null >"$dir/packages.log" 2>&1
		tier_merge "$name" "$dir/packages.log" $?
		if [ ! -s "$dir/pkg/ko/seqring.ko" ] || [ ! -s "$dir/pkg/seqringctl" ]; then
			row "$name" "packages: ${tier_summary:-failed}; not booted"
			continue
		fi
		say "$name: packages: $tier_summary"
		pkg_summary=$tier_summary
		boot_ko=$dir/pkg/ko boot_ctl=$dir/pkg/seqringctl boot_rules=$dir/pkg/60-seqring.rules
	fi

	touch -c "$img" # used: tests/kernels/prune-cache.sh keeps it

	# 4. boot, with busybox, kmod and udevadm of ARCH, and the programs
	# of tests/check/binaries.txt (jq; systemd's journald, journalctl)
	# and trees.txt (python3's library, pytest).
	guest=$(mktemp -d "${TMPDIR:-/var/tmp}/seqring-guest.XXXXXX") && rmdir "$guest"
	if ! ROOT_ARCH=$a tests/roots/mkroot.sh bookworm "$guest" busybox-static kmod udev \
		jq systemd python3 python3-pytest >"$dir/guest.log" 2>&1; then
		tests/roots/rmroot.sh "$guest"
		fail "$name" "an unpacked bookworm root of $a" "$dir/guest.log"
		continue
	fi
	early=$(sed "s|^|$img/early/|" "$img/early/order")
	vm=(GUEST_ROOT="$guest" SEQRING_PROGS_DIR="$dir/progs" SEQRING_KO_DIR="$boot_ko"
		SEQRINGCTL="$boot_ctl" SEQRING_RULES="$boot_rules" SEQRING_EARLY_MODULES="$early"
		VM_ARCH=aarch64 KERNEL="$img/vmlinuz-$k")
	t1=$(date +%s)
	if [ "$tier" = bench ]; then
		# make bench's way, in this kernel's VM (tsc=reliable is
		# x86's: arm64 reads its generic timer in the vDSO).
		env "${vm[@]}" BENCH_APPEND= QUICK="${QUICK:-0}" \
			tests/bench/run-bench.sh >"$dir/bench.log" 2>&1
		mkdir -p "$dir/bench"
		cp build/bench/results.txt build/bench/results.csv build/bench/results.json \
			build/bench/run.log build/bench/tap.log "$dir/bench/" 2>/dev/null
		cp build/vm/bench-console.log "$dir/console.log" 2>/dev/null
		log=$dir/bench/run.log
	else
		# crash: virtio_blk is among the early modules (or built in),
		# not to be looked for in the host's /lib/modules.
		[ "$tier" != crash ] || vm+=(VM_STATE_MODULES=)
		env "${vm[@]}" VM_TIMEOUT="${ARCH_VM_TIMEOUT:-3600}" \
			VM_SCRIPT_TIMEOUT="${ARCH_SCRIPT_TIMEOUT:-600}" \
			tests/vm/run.sh "$tier" >"$dir/$tier.log" 2>&1
		cp "build/vm/$tier-console.log" "$dir/console.log" 2>/dev/null
		log=$dir/$tier.log
	fi
	secs=$(($(date +%s) - t1))
	tests/roots/rmroot.sh "$guest"
	tier_merge "$name" "$log"
	summary=$tier_summary
	say "$name: ${summary:-no summary} (VM: ${secs}s)"
	if [ "$tier" = bench ]; then
		sed 's/^/# /' "$dir/bench/results.txt" 2>/dev/null
		row "$name" "bench$([ "${QUICK:-0}" = 1 ] && echo " QUICK=1"): ${summary:-failed before its summary} (VM ${secs} s; $dir/bench/results.txt)"
	elif [ "$tier" = crash ]; then
		row "$name" "crash tier: ${summary:-failed before its summary} (VM ${secs} s)"
	elif [ "${what[$name]}" = packages ]; then
		row "$name" "packages: $pkg_summary; check tier on the DKMS-built modules: ${summary:-failed before its summary} (VM ${secs} s)"
	else
		row "$name" "${summary:-failed before its summary} (VM ${secs} s)"
	fi
done

{
	echo "| kernel | Debian suite | architecture | \`uname -r\` | package version | run | result |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s' "$rows"
} >"$out/results.md"
tier_end check-arch "$out/results.md"
