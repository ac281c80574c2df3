#!/bin/bash
# ppsim-um.sh VARIANT LOG: build the ppsim_rx, ppsim_netlink and
# ppsim_pp_hold selftests through the kselftest Makefile of the VARIANT
# tree, pack them into a busybox initramfs and boot the UML kernel (the
# one selftest-um.sh uses) on it; the console, with the selftests' TAP,
# goes to LOG.
set -euo pipefail

variant=${1:?usage: ppsim-um.sh base|ours LOG}
log=${2:?usage: ppsim-um.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/build/selftests/ppsim-$variant
initrd=$top/build/um-$variant/ppsim-initramfs.cpio.gz

out=$("$top/scripts/build-kernel.sh" um "$variant")
mkdir -p "$bin"
make -s -C "$top/build/src-$variant/tools/testing/selftests/drivers/net/ppsim" \
	OUTPUT="$bin" LDFLAGS=-static >&2
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/ppsim-init.sh" \
	"$bin/ppsim_rx" "$bin/ppsim_netlink" "$bin/ppsim_pp_hold"
mkdir -p "$(dirname "$log")"
echo "ppsim-um: booting $variant"
"$top/scripts/boot-um.sh" "$out/linux" "$initrd" 600 > "$log" 2>&1 || {
	echo "ppsim-um: the kernel exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
