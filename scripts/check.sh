#!/bin/bash
# check.sh VARIANT LOG: static checks on our own kernel files, as TAP:
# checkpatch --strict and kernel-doc on every C file and header we wrote,
# then W=1 and sparse (C=2) on the objects the x86_64 kernel builds from
# them.
set -uo pipefail

variant=${1:?usage: check.sh base|ours LOG}
log=${2:?usage: check.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/src-$variant
out=$top/build/x86_64-$variant
mkdir -p "$(dirname "$log")"
exec > "$log" 2>&1

files=$(cd "$top" && git ls-files -co --exclude-standard -- net include drivers |
	grep -E '\.[ch]$')
objs=
for f in $files; do
	case $f in
	*.c) [ -e "$src/$f" ] && objs="$objs ${f%.c}.o" ;;
	esac
done
# The base variant does not build our pool: drop what it does not have.
[ "$variant" = base ] && objs=$(echo "$objs" | tr ' ' '\n' |
	grep -v '^net/core/page_pool\.o$' | tr '\n' ' ')

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

echo "TAP version 13"
set -- $files
nobjs=$(echo $objs | wc -w)
echo "1..$(($# * 2 + nobjs))"

for f in $files; do
	r=$("$src/scripts/checkpatch.pl" --strict --no-tree -f "$top/$f" 2>&1)
	# A here-string, not a pipe: under pipefail, grep -q quitting early
	# could fail the echo feeding it and so the test.
	if ! grep -q 'total: 0 errors, 0 warnings, 0 checks' <<<"$r"; then
		echo "$r" | sed 's/^/# /'
		result 1 "checkpatch $f"
		continue
	fi
	result 0 "checkpatch $f"
done
for f in $files; do
	r=$("$src/scripts/kernel-doc" -none "$top/$f" 2>&1)
	[ -z "$r" ] && { result 0 "kernel-doc $f"; continue; }
	echo "$r" | sed 's/^/# /'
	result 1 "kernel-doc $f"
done
for o in $objs; do
	f=${o%.o}.c
	r=$(make -s -C "$src" O="$out" W=1 C=2 "$o" 2>&1 | grep -F "$f" |
		grep -E 'warning|error')
	[ -z "$r" ] && { result 0 "W=1 and sparse $f"; continue; }
	echo "$r" | sed 's/^/# /'
	result 1 "W=1 and sparse $f"
done
