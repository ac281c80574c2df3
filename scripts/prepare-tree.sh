#!/bin/bash
# prepare-tree.sh VARIANT: bring build/src-VARIANT up to date.
#
# The tree is the pristine 6.1 source (hard-linked, so a variant costs no
# disk), plus patches/series, plus our own files at their kernel paths.
# The pristine source is $KSRC if set (your own 6.1.y tree, never
# written), else Debian's linux-source-6.1, unpacked into build/.
# VARIANT "base" keeps the base tree's page_pool implementation; "ours"
# overlays ours. Only files whose content changed are rewritten, so kbuild
# rebuilds only what an edit touches. A file is always replaced, never
# written in place, so the pristine tree behind the hard links stays intact.
set -euo pipefail

variant=${1:?usage: prepare-tree.sh base|ours}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
. "$top/scripts/pristine.sh"
src=$build/src-$variant
manifest=$src/.page_pool_overlay

# Our implementation of the pool and the tests of its internals: left
# out of the base variant.
pool_files="net/core/page_pool.c include/net/page_pool.h
include/net/page_pool/types.h include/net/page_pool/helpers.h
include/trace/events/page_pool.h net/core/page_pool_ring.h
net/core/page_pool_ring_test.c net/core/page_pool_priv.h
net/core/page_pool_user.c net/core/page_pool_user_test.c
net/core/page_pool_leak.c net/core/page_pool_leak.h
net/core/page_pool_leak_test.c"
# Patches that build files of $pool_files: left out of the base variant
# too (the netlink interface and the leak trace read our struct page_pool).
pool_patches="0027-page_pool-add-kconfig-and-makefile-hooks-for-netlink.patch
0030-page_pool-add-kconfig-makefile-and-skb-hook-for-leak-tracing.patch"
# Where our own files live, at their kernel paths.
overlay_dirs="net include drivers Documentation tools lib"

# listed WORD LIST...: whether WORD is one of the words of LIST.
listed() {
	local w=$1 p
	shift
	for p in $*; do
		[ "$p" = "$w" ] && return 0
	done
	return 1
}

case $variant in
base|ours) ;;
*) echo "prepare-tree: unknown variant '$variant'" >&2; exit 2 ;;
esac

mkdir -p "$build"
# One at a time: make test runs the series check beside a kernel build,
# and both prepare the tree.
exec 8>"$build/prepare-tree.lock"
flock 8
check_pristine
if [ -z "${KSRC:-}" ] && [ ! -f "$pristine/Makefile" ]; then
	echo "prepare-tree: unpacking the base tree"
	tar -C "$build" -xf /usr/src/linux-source-6.1.tar.xz
fi
# Trees and kernels made from another base tree than this one: their
# objects may be newer than the new tree's files, so drop them.
stamp=$build/.pristine
id=$(pristine_id)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$id" ]; then
	echo "prepare-tree: the base tree is now $id, was $(cat "$stamp"): dropping what was built from the old one"
	for d in "$build"/*/; do
		d=${d%/}
		case ${d##*/} in
		src-*|selftests) rm -rf "$d" ;;
		*) [ -f "$d/.config" ] && rm -rf "$d" ;;
		esac
	done
fi
echo "$id" > "$stamp"
if [ ! -f "$src/Makefile" ]; then
	echo "prepare-tree: creating $src from $pristine"
	copy_pristine "$src" || exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# 1. Patched files: pristine copies, then the series applied in order.
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	[ "$variant" = base ] && listed "$p" $pool_patches && continue
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$top/patches/$p"); do
		[ -e "$stage/$f" ] && continue
		mkdir -p "$stage/$(dirname "$f")"
		[ -e "$pristine/$f" ] && cp "$pristine/$f" "$stage/$f"
	done
	# No fuzz: on another 6.1.y a hunk must not land in the wrong place.
	patch -s -F0 -p1 -d "$stage" --no-backup-if-mismatch < "$top/patches/$p" || {
		echo "prepare-tree: patches/$p does not apply to $pristine" >&2
		exit 1
	}
done < "$top/patches/series"

# 2. Our own files (tracked or new, not ignored), at their kernel paths.
(cd "$top" && git ls-files -co --exclude-standard -- $overlay_dirs) |
while read -r f; do
	[ -f "$top/$f" ] || continue
	if [ "$variant" = base ] && listed "$f" $pool_files; then
		continue
	fi
	mkdir -p "$stage/$(dirname "$f")"
	cp "$top/$f" "$stage/$f"
done

# 3. Install what differs; put back what an earlier run changed but this
# one no longer does.
(cd "$stage" && find . -type f | sed 's|^\./||' | sort) > "$stage.list"
changed=0
while read -r f; do
	cmp -s "$stage/$f" "$src/$f" && continue
	mkdir -p "$src/$(dirname "$f")"
	rm -f "$src/$f"
	cp "$stage/$f" "$src/$f"
	changed=$((changed + 1))
done < "$stage.list"
if [ -f "$manifest" ]; then
	comm -23 "$manifest" "$stage.list" | while read -r f; do
		rm -f "$src/$f"
		# A copy, not a link: the new mtime makes kbuild rebuild.
		[ -e "$pristine/$f" ] && cp "$pristine/$f" "$src/$f"
		echo "prepare-tree: restored $f"
	done
fi
# Rewritten only when it changed: build-kernel.sh takes a newer file in
# the tree as a reason to run make.
if cmp -s "$stage.list" "$manifest"; then
	rm -f "$stage.list"
else
	mv "$stage.list" "$manifest"
fi
echo "prepare-tree: $src ready ($changed file(s) updated)"
