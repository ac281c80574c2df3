#!/bin/bash
# ppsim-x86_64.sh VARIANT LOG [KERNEL]: the ppsim_netlink, ppsim_pp_hold
# and ppsim_rx selftests in the QEMU x86_64 kernel (SMP, DMA-API debug,
# KASAN, lockdep, kmemleak) under TCG with swiotlb=force (512 MiB of
# bounce buffers: sockets hold many pages), so every buffer is bounced and a missing DMA
# sync corrupts frames; then the leak scan and the DMA-API error count.
# The console goes to LOG.
# That kernel has ppsim as a module, which the init loads. KERNEL
# x86_64-kcsan runs the pool's modes (pool, frag) with KCSAN alone in
# place of KASAN, lockdep, kmemleak and DMA-API debug.
set -euo pipefail

usage="usage: ppsim-x86_64.sh base|ours LOG [x86_64|x86_64-kcsan]"
variant=${1:?$usage}
log=${2:?$usage}
kernel=${3:-x86_64}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/build/selftests/ppsim-$variant
# Not compressed: a KCSAN kernel under TCG takes 18 s to gunzip it.
initrd=$top/build/$kernel-$variant/ppsim-initramfs.cpio

out=$("$top/scripts/build-kernel.sh" "$kernel" "$variant")
args=
# PPSIM_MODES from the caller picks the modes in either kernel.
modes=${PPSIM_MODES:-}
# As in kunit-x86_64.sh: watch one access in 100, not one in 4000. The
# pool's concurrency is in the modes that use it: KCSAN watches those.
if [ "$kernel" = x86_64-kcsan ]; then
	args="kcsan.skip_watch=100"
	modes=${modes:-pool,frag}
fi
[ -n "$modes" ] && args="$args PPSIM_MODES=$modes"
args="$args PPSIM_POOL=$variant"
# A kernel with ppsim as a module loads it from the initramfs.
ko=
grep -qx CONFIG_PPSIM=m "$out/.config" && ko=$out/drivers/net/ppsim/ppsim.ko
mkdir -p "$bin"
make -s -C "$top/build/src-$variant/tools/testing/selftests/drivers/net/ppsim" \
	OUTPUT="$bin" LDFLAGS=-static >&2
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/ppsim-x86-init.sh" \
	"$bin/ppsim_rx" "$bin/ppsim_netlink" "$bin/ppsim_pp_hold" "$top/scripts/kmemleak-init.sh" $ko
mkdir -p "$(dirname "$log")"
echo "ppsim-x86_64: booting $variant in $kernel (QEMU TCG, -smp 2, swiotlb=force)"
timeout 900 qemu-system-x86_64 -accel tcg -smp 2,sockets=2,cores=1,threads=1 -m 2G \
	-nographic -no-reboot -kernel "$out/arch/x86/boot/bzImage" \
	-initrd "$initrd" \
	-append "console=ttyS0 panic=-1 swiotlb=262144,force kunit.enable=0 kmemleak=on $args" \
	</dev/null > "$log" 2>&1 || {
	echo "ppsim-x86_64: QEMU exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
