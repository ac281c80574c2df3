#!/bin/bash
# clone-build.sh ARCH FROM TO: seed build/ARCH-TO from a built
# build/ARCH-FROM, so the TO variant rebuilds only what differs.
#
# The two variant trees are hard links of one pristine tree: their files
# share mtimes except those our overlay changed. Those are made newer
# than anything built so far, and the source paths in the dependency
# files are rewritten, so kbuild's own checks rebuild exactly the
# objects whose sources or config differ.
set -euo pipefail

arch=${1:?usage: clone-build.sh ARCH FROM TO}
from=${2:?usage: clone-build.sh ARCH FROM TO}
to=${3:?usage: clone-build.sh ARCH FROM TO}
top=$(cd "$(dirname "$0")/.." && pwd)
src_from=$top/build/src-$from
src_to=$top/build/src-$to
out_from=$top/build/$arch-$from
out_to=$top/build/$arch-$to

[ -f "$out_from/.config" ] || { echo "clone-build: $out_from is not built" >&2; exit 1; }
[ -e "$out_to" ] && { echo "clone-build: $out_to exists" >&2; exit 1; }
"$top/scripts/prepare-tree.sh" "$to" >&2
# Objects built from FROM's copy of a file must not look newer than TO's
# own copy: give every file the two trees do not share a fresh mtime.
sort -u "$src_from/.page_pool_overlay" "$src_to/.page_pool_overlay" |
while read -r f; do
	cmp -s "$src_from/$f" "$src_to/$f" && continue
	[ -e "$src_to/$f" ] || continue
	cp "$src_to/$f" "$src_to/$f.new" && mv -f "$src_to/$f.new" "$src_to/$f"
done
cp -a "$out_from" "$out_to.tmp"
grep -rlF --null "$src_from" "$out_to.tmp" --include='*.cmd' --include='Makefile' \
	--include='*.d' | xargs -0 -r sed -i "s|$src_from|$src_to|g"
# Through ccache gcc sees the sources as ../src-VARIANT/ (ccache-env.sh),
# so that is how its dependency lists name them; the command lines keep
# the prefix maps for both variants and stay as they are.
grep -rlF --null "../src-$from/" "$out_to.tmp" --include='*.cmd' --include='*.d' |
	xargs -0 -r sed -i "/^cmd_/!s|\.\./src-$from/|../src-$to/|g"
ln -sfn "$src_to" "$out_to.tmp/source"
mv "$out_to.tmp" "$out_to"
echo "clone-build: $out_to seeded from $out_from" >&2
