#!/bin/bash
# compile-users.sh VARIANT LOG: compile every 6.1 source file that uses
# the page_pool API against the VARIANT tree's headers, on x86_64 with
# configs/users.config, as TAP into LOG. A file that does not build with
# the base tree's headers either (its driver needs what x86_64 cannot
# enable) is skipped with that reason. With ours, it also builds the 6.1
# fixes at the front of patches/series on the base tree alone.
set -uo pipefail

variant=${1:?usage: compile-users.sh base|ours LOG}
log=${2:?usage: compile-users.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/pristine.sh"
. "$top/scripts/ccache-env.sh"
out=$top/build/users-$variant
jobs=${JOBS:-$(nproc)}
mkdir -p "$(dirname "$log")" "$out"
exec > "$log" 2>&1

"$top/scripts/prepare-tree.sh" "$variant"
frags="configs/x86_64.config configs/users.config"

# Every user of the API, as the variant tree has it (so with the drivers
# our patches convert), but our own pool and tests; a driver's test
# suite is built inside the file it tests.
users=$(cd "$top/build/src-$variant" &&
	grep -rlE 'page_pool_|page_pool\.h' --include='*.c' net drivers/net |
	grep -v -e '^net/core/page_pool' -e '_test\.c$' | sort)

# configure VARIANT OUT: an x86_64 tree with every driver that can be on.
configure() {
	local want
	want=$(cd "$top" && cat $frags)
	[ "$want" = "$(cat "$2/.fragments" 2>/dev/null)" ] && return
	mkdir -p "$2"
	make -s -C "$top/build/src-$1" O="$2" ARCH=x86_64 tinyconfig
	(cd "$top" && cat $frags) >> "$2/.config"
	make -s -C "$top/build/src-$1" O="$2" ARCH=x86_64 olddefconfig
	echo "$want" > "$2/.fragments"
}

# compile VARIANT OUT FILE...: build the FILEs' objects in that tree, in
# one make (each make of its own reads the whole tree's makefiles: about
# 4 s apiece), going on past failures. Prints the build's messages.
compile() {
	local v=$1 o=$2 f
	shift 2
	for f; do rm -f "$o/${f%.c}.o"; done
	make -s -k -C "$top/build/src-$v" O="$o" ARCH=x86_64 NM="$KBUILD_NM" \
		-j"$jobs" $(for f; do echo "${f%.c}.o"; done) 2>&1
}

# built OUT FILE: whether the last compile() made FILE's object.
built() {
	[ -f "$1/${2%.c}.o" ]
}

# series: the patches of patches/series, in order.
series() {
	grep -v -e '^$' -e '^#' "$top/patches/series"
}

# patched FILE: the .c files a patch changes.
patched() {
	sed -n 's|^+++ b/\([^[:space:]]*\.c\)\([[:space:]].*\)\{0,1\}$|\1|p' "$1"
}

# The 6.1 fixes at the front of the series (its first patches, those
# with a Fixes: tag) must build on the base tree alone, one at a time,
# as a stable tree takes them. Checked with the ours variant.
fixes=
if [ "$variant" = ours ]; then
	fixes=$(series | while read -r p; do
		grep -q '^Fixes:' "$top/patches/$p" || break
		echo "$p"
	done)
fi

# A 32-bit kernel with 64-bit DMA addresses (x86 PAE), ours only: the
# options that must survive olddefconfig, then the objects to build:
# the pool, the core files that use it, and every C file the series
# changes that this kernel builds.
pae_keep="CONFIG_ARCH_DMA_ADDR_T_64BIT CONFIG_MLX4_EN CONFIG_MLX5_CORE_EN"
pae_objs=
if [ "$variant" = ours ]; then
	pae_objs=$( (echo net/core/page_pool.c net/core/xdp.c \
			net/core/skbuff.c | tr ' ' '\n'
		for p in $(series); do patched "$top/patches/$p"; done) |
		grep -e '^net/' -e '^drivers/net/ethernet/mellanox/' |
		grep -v '_test\.c$' | sort -u)
fi

echo "TAP version 13"
echo "1..$(($(echo "$users" | wc -l) + $(echo -n "$fixes" | grep -c .) +
	$(echo -n "$pae_objs" | grep -c .) + ${pae_objs:+1}+0))"
configure "$variant" "$out"
compile "$variant" "$out" $users >/dev/null
failed=
for f in $users; do
	built "$out" "$f" || failed="$failed $f"
done
# Some drivers need what x86_64 cannot enable: they fail with the base
# tree's own headers too, and say nothing about ours.
base_failed=
if [ -n "$failed" ] && [ "$variant" != base ]; then
	"$top/scripts/prepare-tree.sh" base >/dev/null
	configure base "$top/build/users-base" >/dev/null 2>&1
	compile base "$top/build/users-base" $failed >/dev/null
	for f in $failed; do
		built "$top/build/users-base" "$f" || base_failed="$base_failed $f"
	done
fi
n=0
for f in $users; do
	n=$((n + 1))
	case " $failed " in
	*" $f "*) ;;
	*) echo "ok $n $f"; continue ;;
	esac
	case " $base_failed " in
	*" $f "*) echo "ok $n $f # SKIP does not build on x86_64 with the base headers either"
		continue ;;
	esac
	# Its own messages: the parallel make's mix other files' in, and a
	# header's error names only the header. Failures are rare.
	compile "$variant" "$out" "$f" | grep -E 'error|warning' | head -5 |
		sed 's/^/# /'
	echo "not ok $n $f"
done

# The PAE kernel, from tinyconfig and configs/i386-pae.config, through
# olddefconfig on every run: a Kconfig change may drop a driver.
if [ -n "$pae_objs" ]; then
	pae=$top/build/users-pae
	kmake() {
		make -s -C "$top/build/src-ours" O="$pae" ARCH=i386 "$@"
	}
	want=$(cat "$top/configs/i386-pae.config")
	if [ "$want" != "$(cat "$pae/.fragments" 2>/dev/null)" ]; then
		rm -f "$pae/.fragments"
		mkdir -p "$pae"
		kmake tinyconfig >/dev/null 2>&1 &&
			echo "$want" >> "$pae/.config" &&
			echo "$want" > "$pae/.fragments"
	fi
	kmake olddefconfig >/dev/null 2>&1
	n=$((n + 1))
	lost=
	for o in $pae_keep; do
		grep -q "^$o=y" "$pae/.config" 2>/dev/null || lost="$lost $o"
	done
	if [ -z "$lost" ]; then
		echo "ok $n i386 PAE: olddefconfig keeps$(printf ' %s' $pae_keep)"
	else
		echo "not ok $n i386 PAE: olddefconfig drops$lost"
	fi
	for f in $pae_objs; do rm -f "$pae/${f%.c}.o"; done
	msgs=$(kmake -k -j"$jobs" $(for f in $pae_objs; do echo "${f%.c}.o"; done) 2>&1)
	for f in $pae_objs; do
		n=$((n + 1))
		bad=$(grep -E "${f//./\\.}:[0-9]+:[0-9]+: (error|warning)" <<<"$msgs" | head -3)
		if ! built "$pae" "$f"; then
			# Not in this kernel (another driver's file the series touches).
			grep -q "No rule to make target '${f%.c}.o'" <<<"$msgs" &&
				{ echo "ok $n i386 PAE: $f # SKIP not in this config"; continue; }
			bad=${bad:-not built}
		fi
		[ -z "$bad" ] && { echo "ok $n i386 PAE: $f"; continue; }
		sed 's/^/# /' <<<"$bad"
		echo "not ok $n i386 PAE: $f"
	done
fi

# The base tree, hard-linked, with each fix applied in turn to copies of
# the files it changes; the objects of those files built after each.
[ -n "$fixes" ] || exit 0
src=$top/build/src-fixes
copy_pristine "$src" || exit 1
configure fixes "$top/build/users-fixes" >/dev/null 2>&1
declare -A copied
for p in $fixes; do
	n=$((n + 1))
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$top/patches/$p"); do
		[ -n "${copied[$f]:-}" ] && continue
		cp --remove-destination "$pristine/$f" "$src/$f"
		copied[$f]=1
	done
	if ! patch -s -p1 -d "$src" --no-backup-if-mismatch < "$top/patches/$p"; then
		echo "not ok $n fixes: $p does not apply to 6.1 after the fixes before it"
		continue
	fi
	objs=$(patched "$top/patches/$p")
	compile fixes "$top/build/users-fixes" $objs | grep -E 'error|warning' |
		head -5 | sed 's/^/# /'
	ok=ok
	for f in $objs; do
		built "$top/build/users-fixes" "$f" || ok="not ok"
	done
	echo "$ok $n fixes: $p builds on 6.1 alone"
done
