#!/bin/bash
# kunit-x86_64.sh VARIANT LOG [KERNEL]: build the QEMU x86_64 kernel (SMP,
# two NUMA nodes, DMA-API debug, KASAN, lockdep, kmemleak) and run the
# page_pool KUnit suites and those of the drivers' RX paths (mlx4_en_rx and
# mlx5e_rx in this kernel, not in the KCSAN one) in it under TCG; then an
# init scans for leaks.
# The console goes to LOG. KERNEL x86_64-kcsan is the same machine with
# KCSAN in place of KASAN. The kernel builds no suites but those, so all
# run; FILTER narrows the run to one glob, ARGS adds kernel parameters (a
# suite's module parameters, say).
set -euo pipefail

usage="usage: kunit-x86_64.sh base|ours LOG [x86_64|x86_64-kcsan]"
variant=${1:?$usage}
log=${2:?$usage}
kernel=${3:-x86_64}
top=$(cd "$(dirname "$0")/.." && pwd)
# Not compressed: a KCSAN kernel under TCG takes 18 s to gunzip it.
initrd=$top/build/$kernel-$variant/kmemleak-initramfs.cpio

out=$("$top/scripts/build-kernel.sh" "$kernel" "$variant")
# KCSAN watches one access in 4000 by default: one in 100 finds more
# races in a short run.
[ "$kernel" = x86_64-kcsan ] && ARGS="kcsan.skip_watch=100 ${ARGS:-}"
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/kmemleak-init.sh"
mkdir -p "$(dirname "$log")"
echo "kunit-x86_64: running the suites on $variant in $kernel (QEMU TCG, -smp 2)"
timeout ${TIMEOUT:-600} qemu-system-x86_64 -accel tcg -smp 2,sockets=2,cores=1,threads=1 -m 2G \
	-object memory-backend-ram,id=m0,size=1G \
	-object memory-backend-ram,id=m1,size=1G \
	-numa node,nodeid=0,cpus=0,memdev=m0 \
	-numa node,nodeid=1,cpus=1,memdev=m1 \
	-nographic -no-reboot -kernel "$out/arch/x86/boot/bzImage" \
	-initrd "$initrd" -device pci-testdev \
	-append "console=ttyS0 panic=-1 swiotlb=force kunit.filter_glob=${FILTER:-*} kmemleak=on ${ARGS:-}" \
	</dev/null > "$log" 2>&1 || {
	echo "kunit-x86_64: QEMU exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
