#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-docs.sh [--kernel-doc FILE] [ROOT]: check our documentation as the
# kernel's Sphinx build would read it, with docutils instead of Sphinx.
#
# ROOT, by default this checkout, holds our files at their kernel paths
# (a prepared tree, build/src-ours, does too). scripts/check-docs.py
# parses ROOT's Documentation/networking/page_pool.rst, each kernel-doc
# directive expanded as Documentation/sphinx/kerneldoc.py does, by
# kernel-doc on ROOT's sources; then the rst that scripts/get_abi.pl
# makes of ROOT's Documentation/ABI/testing/sysfs-bus-ppsim. Any warning
# of docutils, kernel-doc or get_abi.pl fails the check, and names the
# file and line it is about.
#
# Not all of Sphinx is there: the directives of its C domain that
# kernel-doc writes (c:function, c:struct, ...) are stand-ins that parse
# their body but not the C declaration, so what Sphinx warns about a
# declaration it cannot parse is not caught.
#
# kernel-doc is FILE, else ROOT's scripts/kernel-doc, else that of
# build/src-ours; get_abi.pl is the one beside it. Exits 1 on a finding,
# 2 when a tool is missing.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kdoc=
case ${1:-} in
--kernel-doc) kdoc=${2:?--kernel-doc needs a file}; shift 2 ;;
-h|--help) sed -n '3,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
-*) echo "check-docs: unknown option $1" >&2; exit 2 ;;
esac
root=$(cd "${1:-$top}" && pwd)
if [ -z "$kdoc" ]; then
	for kdoc in "$root/scripts/kernel-doc" \
		    "$top/build/src-ours/scripts/kernel-doc" ""; do
		[ -f "$kdoc" ] && break
	done
	[ -n "$kdoc" ] || {
		echo "check-docs: no kernel-doc in $root/scripts or" \
		     "build/src-ours/scripts: prepare the tree" \
		     "(scripts/prepare-tree.sh ours, as make check does)" \
		     "or give --kernel-doc FILE" >&2
		exit 2
	}
fi
for f in "$kdoc" "$(dirname "$kdoc")/get_abi.pl"; do
	[ -f "$f" ] || { echo "check-docs: no $f" >&2; exit 2; }
done
# The tools run from ROOT: a path relative to the caller must not break.
kdoc=$(realpath "$kdoc")
get_abi=$(dirname "$kdoc")/get_abi.pl

for py in python3 /usr/bin/python3 ""; do
	[ -n "$py" ] && "$py" -c 'import docutils' 2>/dev/null && break
done
[ -n "$py" ] || {
	echo "check-docs: no python3 with docutils (Debian: python3-docutils)" >&2
	exit 2
}
exec "$py" "$top/scripts/check-docs.py" "$root" "$kdoc" "$get_abi"
