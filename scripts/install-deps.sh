#!/bin/bash
# Install what the harness needs from Debian's archive, only what is missing.
# gcc (build-essential) brings libtsan2, the ThreadSanitizer runtime that
# scripts/ring-test.sh needs: libgcc-12-dev depends on it.
set -euo pipefail

PKGS="linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev
cpio kmod python3 rsync dwarves sparse coccinelle qemu-system-x86
busybox-static gnuplot-nox quilt strace procps ccache"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
