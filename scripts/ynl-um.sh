#!/bin/bash
# ynl-um.sh VARIANT LOG: upstream's YNL client lists our pools. Extracts
# 6.12's tools/net/ynl and Documentation/netlink (spec and schemas) from
# Debian's linux-source-6.12 into build/ynl-6.12 once, unmodified, then
# boots the UML kernel ppsim-um uses on a busybox initramfs whose /init
# (ynl-um-init.sh) runs ynl-um-check.py through the host's root: cli.py
# with the host's python3, yaml and jsonschema. TAP goes to LOG. The base
# pool has no netlink interface: its LOG says the case is skipped.
set -euo pipefail

variant=${1:?usage: ynl-um.sh base|ours LOG}
log=${2:?usage: ynl-um.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
ynl=$top/build/ynl-6.12
initrd=$top/build/um-$variant/ynl-initramfs.cpio.gz
mkdir -p "$(dirname "$log")"

if [ "$variant" = base ]; then
	printf 'TAP version 13\n1..1\nok 1 - ynl_um # SKIP %s\n' \
		'the base pool has no netlink interface' > "$log"
	exit 0
fi

# extract_ynl: the 6.12 files cli.py reads, once per version of the
# package (a stamp records which); under a lock, as two runs of the stage
# (make ynl-um beside make test) may start together.
extract_ynl() {
	local stamp tmp
	stamp=$(stat -c '%s %Y' "$tarball")
	[ "$(cat "$ynl/.stamp" 2>/dev/null)" = "$stamp" ] && return
	echo "ynl-um: extracting tools/net/ynl from $tarball"
	tmp=$ynl.tmp
	rm -rf "$tmp" "$ynl"
	mkdir -p "$tmp"
	tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
		linux-source-6.12/tools/net/ynl \
		linux-source-6.12/Documentation/netlink
	echo "$stamp" > "$tmp/.stamp"
	mv "$tmp" "$ynl"
}
[ -f "$tarball" ] || { echo "ynl-um: no $tarball" >&2; exit 1; }
mkdir -p "$top/build"
exec 9> "$top/build/ynl-6.12.lock"
flock 9
extract_ynl
exec 9>&-

# The kernel command line takes no spaces: init gets the paths there.
case $top in *[[:space:]]*)
	echo "ynl-um: the checkout's path '$top' has a space" >&2
	exit 1
esac
out=$("$top/scripts/build-kernel.sh" um "$variant")
"$top/scripts/make-initramfs.sh" "$initrd" "$top/scripts/ynl-um-init.sh"
echo "ynl-um: booting $variant"
"$top/scripts/boot-um.sh" "$out/linux" "$initrd" 300 -- "$top" "$ynl" \
	> "$log" 2>&1 || {
	echo "ynl-um: the kernel exited with $? (log: $log)" >&2
	tail -40 "$log" >&2
}
