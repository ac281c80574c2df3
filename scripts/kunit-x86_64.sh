#!/bin/bash
# kunit-x86_64.sh VARIANT LOG: build the QEMU x86_64 kernel (SMP, two NUMA
# nodes, DMA-API debug, KASAN, lockdep, kmemleak) and run the page_pool
# KUnit suites and those of the drivers' RX paths (mlx4_en_rx) in it under
# TCG; then an init scans for leaks. The console goes to LOG. The kernel
# builds no other suites; FILTER narrows the run to one glob.
set -euo pipefail

variant=${1:?usage: kunit-x86_64.sh base|ours LOG}
log=${2:?usage: kunit-x86_64.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
initrd=$top/build/x86_64-$variant/kmemleak-initramfs.cpio.gz

out=$("$top/scripts/build-kernel.sh" x86_64 "$variant")
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/kmemleak-init.sh"
mkdir -p "$(dirname "$log")"
echo "kunit-x86_64: running the suites on $variant (QEMU TCG, -smp 2)"
timeout 600 qemu-system-x86_64 -accel tcg -smp 2 -m 2G \
	-object memory-backend-ram,id=m0,size=1G \
	-object memory-backend-ram,id=m1,size=1G \
	-numa node,nodeid=0,cpus=0,memdev=m0 \
	-numa node,nodeid=1,cpus=1,memdev=m1 \
	-nographic -no-reboot -kernel "$out/arch/x86/boot/bzImage" \
	-initrd "$initrd" -device pci-testdev \
	-append "console=ttyS0 panic=-1 swiotlb=force kunit.filter_glob=${FILTER:-*} kmemleak=on" \
	</dev/null > "$log" 2>&1 || {
	echo "kunit-x86_64: QEMU exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
