#!/bin/bash
# um-fpstate.sh VARIANT LOG: boot the UML test kernel on an initramfs
# whose init runs um-fpstate (scripts/um-fpstate.c): each task's FP state
# has the size of the host's XSAVE area, and a process's vector
# registers survive a fork and switches to another process or thread.
# The console, with the TAP, goes to LOG.
set -euo pipefail

variant=${1:?usage: um-fpstate.sh base|ours LOG}
log=${2:?usage: um-fpstate.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/build/um-fpstate

out=$("$top/scripts/build-kernel.sh" um "$variant")
mkdir -p "$bin" "$(dirname "$log")"
gcc -static -O2 -Wall -Wextra -pthread -o "$bin/um-fpstate" \
	"$top/scripts/um-fpstate.c"
"$top/scripts/make-initramfs.sh" "$bin/initramfs.cpio.gz" \
	"$top/scripts/um-fpstate-init.sh" "$bin/um-fpstate"
echo "um-fpstate: booting $variant"
"$top/scripts/boot-um.sh" "$out/linux" "$bin/initramfs.cpio.gz" 120 > "$log" 2>&1 || {
	echo "um-fpstate: the kernel exited with $? (log: $log)" >&2
	tail -20 "$log" >&2
}
