#!/bin/bash
# Install what the harness needs from Debian's archive, only what is missing.
# gcc (build-essential) brings libtsan2, the ThreadSanitizer runtime that
# scripts/ring-test.sh needs: libgcc-12-dev depends on it.
# linux-source-6.12 and the two python3 modules are for ynl-um.sh: it
# runs upstream's YNL client, cli.py, from that tree, with its schema
# check (jsonschema) on.
set -euo pipefail

PKGS="linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev
cpio kmod python3 rsync dwarves sparse coccinelle qemu-system-x86
busybox-static gnuplot-nox quilt strace procps python3-docutils
python3-ply python3-git linux-source-6.12 python3-yaml python3-jsonschema"
# Builds go through ccache when it is there (ccache-env.sh); without it
# they are only slower, so failing to install it fails nothing.
OPTIONAL="ccache"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# installed PKG: whether dpkg has PKG installed.
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

missing= optional=
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
for p in $OPTIONAL; do
	installed "$p" || optional="$optional $p"
done
[ -z "$missing$optional" ] && exit 0

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$optional" ]; then
	echo "install-deps: installing$optional"
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $optional >/dev/null ||
		echo "install-deps: could not install$optional: builds go without it"
fi
