#!/bin/bash
# build-kernel.sh ARCH VARIANT: configure (when the fragments changed) and
# build the test kernel for ARCH (um or x86_64) on the VARIANT tree, in
# build/ARCH-VARIANT, unless nothing changed since the last build.
# Prints the build folder's path last. ARCH um-bench
# is the UML benchmark kernel (ARCH=um, no lockdep) in build/um-bench-VARIANT,
# um-bench-trace the same with the leak trace built in (left off);
# x86_64-kcsan the QEMU kernel with KCSAN in place of KASAN.
set -euo pipefail

usage="usage: build-kernel.sh um|um-bench|um-bench-trace|x86_64|x86_64-kcsan base|ours"
arch=${1:?$usage}
variant=${2:?$usage}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ccache-env.sh"
src=$top/build/src-$variant
out=$top/build/$arch-$variant
jobs=${JOBS:-$(nproc)}

# The pool variant's fragment only tells the KUnit suite which pool it
# tests; the benchmark kernel builds no suite, so that the two bench
# kernels differ in the pool's source alone.
pool_frag=configs/pool-$variant.config
case $arch in
um) frags="configs/um.config" base_config=defconfig_none karch=um ;;
um-bench) frags="configs/um.config configs/um-bench.config"
	pool_frag= base_config=defconfig_none karch=um ;;
um-bench-trace) frags="configs/um.config configs/um-bench.config
	configs/um-bench-trace.config" pool_frag= base_config=defconfig_none
	karch=um ;;
x86_64) frags="configs/x86_64.config configs/debug.config" base_config=tinyconfig
	karch=x86_64 ;;
x86_64-kcsan) frags="configs/x86_64.config configs/kcsan.config"
	base_config=tinyconfig karch=x86_64 ;;
*) echo "build-kernel: unknown arch '$arch'" >&2; exit 2 ;;
esac
frags="$frags $pool_frag ${EXTRA_CONFIGS:-}"

"$top/scripts/prepare-tree.sh" "$variant" >&2

kmake() {
	make -s -C "$src" O="$out" ARCH="$karch" NM="$KBUILD_NM" "$@"
}

mkdir -p "$out"
want=$(cd "$top" && cat $frags)
if [ ! -f "$out/.config" ] || [ "$want" != "$(cat "$out/.fragments" 2>/dev/null)" ]; then
	echo "build-kernel: configuring $out" >&2
	if [ "$base_config" = tinyconfig ]; then
		kmake tinyconfig >&2
	else
		: > "$out/.config"
	fi
	(cd "$top" && cat $frags) >> "$out/.config"
	kmake olddefconfig >&2
	# Every option we asked for must have survived olddefconfig. A later
	# fragment overrides an earlier one: check only an option's last value.
	bad=0
	while read -r line; do
		case $line in
		CONFIG_*=n) opt=${line%=n}
			grep -q "^$opt=" "$out/.config" && { echo "build-kernel: $opt still set" >&2; bad=1; } ;;
		CONFIG_*) grep -qx "$line" "$out/.config" || { echo "build-kernel: $line did not stick" >&2; bad=1; } ;;
		esac
	done <<< "$(echo "$want" | tac | awk -F= '/^CONFIG_/ && !seen[$1]++' | tac)"
	[ $bad -eq 0 ] || exit 1
	echo "$want" > "$out/.fragments"
fi

# make walks the whole tree even when nothing changed: 15 to 35 s a
# stage. Skip it when the last build finished with this config and this
# compiler, and no file of the tree is newer than that build's start.
# Remove $out/.build-started to force make.
built=$out/.build-started
state="$(sha1sum < "$out/.config") $(gcc --version | head -n1) ${KCFLAGS:-}"
if [ -f "$built" ] && [ -e "$out/vmlinux" ] &&
	[ "$state" = "$(cat "$built")" ] &&
	[ -z "$(find "$src" -type f -newer "$built" -print -quit)" ]; then
	echo "build-kernel: $out is up to date" >&2
	echo "$out"
	exit 0
fi
# A first build is minutes of silence: say what it costs, then once a
# minute how far it got, against the object count of the last build of
# this folder (or of a first build of this kernel: minutes and objects
# measured on a 2-core machine with an empty ccache).
count_objects() {
	find "$out" -name '*.o' -newer "$built.new" 2>/dev/null | wc -l
}
name=${out##*/}
case $arch in
um) first_min=8 first_objs=860 ;;
um-bench|um-bench-trace) first_min=8 first_objs=834 ;;
x86_64) first_min=15 first_objs=1430 ;;
x86_64-kcsan) first_min=14 first_objs=1265 ;;
esac
# .build-started.new is left behind by a build that did not finish.
interrupted=
[ -e "$built.new" ] && interrupted=1
echo "$state" > "$built.new"
if [ -e "$out/vmlinux" ]; then
	progress="objects recompiled"
	echo "build-kernel: rebuilding $name (what changed since its last build)" >&2
elif [ -n "$interrupted" ]; then
	progress="more objects compiled"
	echo "build-kernel: finishing the interrupted build of $name" >&2
else
	progress="of about $(cat "$out/.objects" 2>/dev/null || echo "$first_objs") objects compiled"
	echo "build-kernel: building $name from scratch: about $first_min min on 2 cores, less when ccache has its objects" >&2
fi
# The ticker also stops when this script is gone: a SIGTERM ends bash
# without running its EXIT trap.
(
	m=0
	while sleep 60 >/dev/null 2>&1 && kill -0 $$ 2>/dev/null; do
		m=$((m + 1))
		echo "build-kernel: $name: $(count_objects) $progress after $m min" >&2
	done
) >/dev/null &
ticker=$!
trap 'kill $ticker 2>/dev/null || true' EXIT
trap 'kill $ticker 2>/dev/null; exit 130' INT TERM HUP
# Binutils 2.39 warns on links of 6.1 about RWX LOAD segments and about
# an executable stack implied by objects without .note.GNU-stack (UML's
# and x86's boot stubs). Known and harmless: counted, not shown.
kmake -j"$jobs" 2>&1 | awk -v name="$name" '
	/ld: warning: .*has a LOAD segment with RWX permissions/ ||
	/ld: warning: .*missing \.note\.GNU-stack section implies executable stack/ { hid++; next }
	/ld: NOTE: This behaviour is deprecated and will be removed/ { next }
	{ print; fflush() }
	END { if (hid) printf "build-kernel: %s: %d linker warnings about RWX segments and executable stacks not shown (known and harmless, see README)\n", name, hid }' >&2
kill $ticker 2>/dev/null || true
trap - EXIT INT TERM HUP
find "$out" -name '*.o' | wc -l > "$out/.objects"
mv "$built.new" "$built"
echo "$out"
