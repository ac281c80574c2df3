#!/bin/bash
# make-initramfs.sh OUT.cpio[.gz] INIT_SCRIPT [FILE...]: build a newc
# initramfs (gzip'd if OUT ends in .gz) with a static busybox (and a link
# for each of its applets) in /bin, INIT_SCRIPT as /init, the FILEs in
# /bin (*.ko in /lib/modules) and empty /dev /proc /sys /tmp. No root
# needed: /dev/console, which the kernel opens for init's stdio, is a
# hand-made cpio entry appended to the archive. BUSYBOX overrides the
# busybox binary (default /bin/busybox).
set -euo pipefail

usage="usage: make-initramfs.sh OUT.cpio[.gz] INIT_SCRIPT [FILE...]"
out=${1:?$usage}
init=${2:?$usage}
shift 2
busybox=${BUSYBOX:-/bin/busybox}

[ -f "$init" ] || { echo "make-initramfs: no init script '$init'" >&2; exit 1; }
if grep -q INTERP <<<"$(LC_ALL=C readelf -l "$busybox")"; then
	echo "make-initramfs: $busybox is not static" >&2
	exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,lib/modules}

cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
install -m 755 "$init" "$stage/init"
for f in "$@"; do
	case $f in
	*.ko) install -m 644 "$f" "$stage/lib/modules/" ;;
	*) install -m 755 "$f" "$stage/bin/" ;;
	esac
done

# newc_entry NAME MODE RDEVMAJOR RDEVMINOR: a data-less newc cpio entry.
newc_entry() {
	local namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
	printf '%s\0' "$1"
	# the 110 byte header plus the name is padded to 4 bytes
	head -c $(((4 - (110 + namesize) % 4) % 4)) /dev/zero
}

tmp=$out.tmp
{
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible)
	newc_entry dev/console $((8#020600)) 5 1	# char 5:1, 0600
	newc_entry TRAILER!!! 0 0 0
} | case $out in
	*.gz) gzip -9n ;;
	*) cat ;;
	esac > "$tmp"
mv "$tmp" "$out"
