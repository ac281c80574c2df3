#!/bin/bash
# ppsim-x86_64.sh VARIANT LOG: the ppsim_rx selftest in the QEMU x86_64
# kernel (SMP, DMA-API debug, KASAN, lockdep, kmemleak) under TCG with
# swiotlb=force (512 MiB of bounce buffers: sockets hold many pages), so
# every buffer is bounced and a missing DMA sync corrupts frames; then
# the leak scan and the DMA-API error count. The console goes to LOG.
set -euo pipefail

variant=${1:?usage: ppsim-x86_64.sh base|ours LOG}
log=${2:?usage: ppsim-x86_64.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/build/selftests/ppsim-$variant
initrd=$top/build/x86_64-$variant/ppsim-initramfs.cpio.gz

out=$("$top/scripts/build-kernel.sh" x86_64 "$variant")
mkdir -p "$bin"
make -s -C "$top/build/src-$variant/tools/testing/selftests/drivers/net/ppsim" \
	OUTPUT="$bin" LDFLAGS=-static >&2
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/ppsim-x86-init.sh" \
	"$bin/ppsim_rx" "$top/scripts/kmemleak-init.sh"
mkdir -p "$(dirname "$log")"
echo "ppsim-x86_64: booting $variant (QEMU TCG, -smp 2, swiotlb=force)"
timeout 900 qemu-system-x86_64 -accel tcg -smp 2 -m 2G \
	-nographic -no-reboot -kernel "$out/arch/x86/boot/bzImage" \
	-initrd "$initrd" \
	-append "console=ttyS0 panic=-1 swiotlb=262144,force kunit.enable=0 kmemleak=on" \
	</dev/null > "$log" 2>&1 || {
	echo "ppsim-x86_64: QEMU exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
