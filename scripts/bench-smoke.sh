#!/bin/bash
# bench-smoke.sh VARIANT LOG: smoke test of the benchmark. Builds the
# benchmark module (and page_pool_xdp) against the VARIANT test kernel,
# build/um-VARIANT, which must be built already (kunit-um.sh does it,
# and prepares the VARIANT tree whose kselftest Makefiles build both);
# boots it with the module in quick mode, page_pool_xdp --bench --quick
# and ppsim_bench --quick (its stack_drop tests skip: the test kernel has
# no tc), and lo_bench --quick. LOG gets the console, then TAP: one
# result per benchmark test (not ok if it is missing or its figure is not
# a positive finite number) and one for the module and init status.
# Writes only to build/bench/.
set -uo pipefail

variant=${1:?usage: bench-smoke.sh base|ours LOG}
log=${2:?usage: bench-smoke.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
s=$top/scripts
out=$top/build/um-$variant
dir=$top/build/bench
initrd=$dir/smoke-$variant.cpio.gz
mkdir -p "$(dirname "$log")" "$dir"
exec > "$log" 2>&1

bail() {
	echo "TAP version 13"
	echo "1..1"
	echo "# $*"
	echo "not ok 1 bench smoke"
	exit 1
}

[ -x "$out/linux" ] || bail "$out is not built"
ko=$("$s/bench-module.sh" "$out") || bail "cannot build the module"
mkdir -p "$dir/xdp"
make -s -C "$top/build/src-$variant/tools/testing/selftests/net/page_pool" \
	OUTPUT="$dir/xdp" LDFLAGS=-static ||
	bail "cannot build page_pool_xdp and lo_bench"
mkdir -p "$dir/rx-smoke"
make -s -C "$top/build/src-$variant/tools/testing/selftests/drivers/net/ppsim" \
	OUTPUT="$dir/rx-smoke" LDFLAGS=-static || bail "cannot build ppsim_bench"
"$s/make-initramfs.sh" "$initrd" "$s/bench-init.sh" "$ko" "$dir/xdp/page_pool_xdp" \
	"$dir/xdp/lo_bench" "$dir/rx-smoke/ppsim_bench" ||
	bail "cannot make the initramfs"
"$s/boot-um.sh" "$out/linux" "$initrd" 300 -- quick=1 xdp=quick rx=quick \
	lo=quick || echo "bench-smoke: the kernel exited with $?"
# Read the console back: boot-um.sh wrote it to this very LOG.
"$s/bench-table.py" tap --xdp --rx --lo "$log" > "$log.tap"
cat "$log.tap"
rm -f "$log.tap"
