#!/bin/bash
# bench-module.sh BUILD_DIR: build the page_pool benchmark module
# (tools/testing/selftests/net/bench/page_pool) against the kernel build
# folder BUILD_DIR, an O= folder such as build/um-base. The sources are
# copied to build/bench/page_pool/NAME first, so the repo stays clean.
# ARCH is taken from BUILD_DIR's .config (um or x86_64) unless set.
# Prints the path of the module last.
set -euo pipefail

kbuild=${1:?usage: bench-module.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ccache-env.sh"
bench=$top/tools/testing/selftests/net/bench/page_pool

die() {
	echo "bench-module: $*" >&2
	exit 1
}

[ -d "$kbuild" ] || die "no build folder $kbuild"
kbuild=$(cd "$kbuild" && pwd)
[ -f "$kbuild/.config" ] || die "$kbuild is not configured"
[ -f "$kbuild/Module.symvers" ] || die "$kbuild is not built yet"
grep -qx 'CONFIG_MODULES=y' "$kbuild/.config" ||
	die "$kbuild has no module support"
src=$(readlink -f "$kbuild/source" 2>/dev/null || echo "$kbuild")

if [ -z "${ARCH:-}" ]; then
	if grep -qx 'CONFIG_UML=y' "$kbuild/.config"; then
		ARCH=um
	elif grep -qx 'CONFIG_X86_64=y' "$kbuild/.config"; then
		ARCH=x86_64
	else
		die "cannot tell the ARCH of $kbuild: set ARCH"
	fi
fi

out=$top/build/bench/page_pool/$(basename "$kbuild")
mkdir -p "$out"
# Copy only what changed, so kbuild rebuilds only when a source did.
for f in Kbuild bench_page_pool.c; do
	cmp -s "$bench/$f" "$out/$f" || cp "$bench/$f" "$out/$f"
done

if [ "$src" = "$kbuild" ]; then
	make -s -C "$kbuild" ARCH="$ARCH" NM="$KBUILD_NM" M="$out" modules >&2
else
	make -s -C "$src" O="$kbuild" ARCH="$ARCH" NM="$KBUILD_NM" M="$out" modules >&2
fi
echo "$out/bench_page_pool.ko"
