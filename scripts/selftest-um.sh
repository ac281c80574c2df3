#!/bin/bash
# selftest-um.sh VARIANT LOG: build the page_pool_xdp selftest through
# the kselftest Makefile of the VARIANT tree, pack it into a busybox
# initramfs and boot the UML kernel on it (KUnit off); the console, with
# the selftest's TAP, goes to LOG.
set -euo pipefail

variant=${1:?usage: selftest-um.sh base|ours LOG}
log=${2:?usage: selftest-um.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
st=$top/build/src-$variant/tools/testing/selftests/net/page_pool
bin=$top/build/selftests
initrd=$top/build/um-$variant/selftest-initramfs.cpio.gz

# Prepares the tree, so $st holds our files.
out=$("$top/scripts/build-kernel.sh" um "$variant")
mkdir -p "$bin"
# Static: the initramfs has busybox and no C library.
make -s -C "$st" OUTPUT="$bin" LDFLAGS=-static >&2
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/selftest-init.sh" \
	"$bin/page_pool_xdp"
mkdir -p "$(dirname "$log")"
echo "selftest-um: booting $variant"
"$top/scripts/boot-um.sh" "$out/linux" "$initrd" 300 -- --quick > "$log" 2>&1 || {
	echo "selftest-um: the kernel exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
