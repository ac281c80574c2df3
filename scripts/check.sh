#!/bin/bash
# check.sh VARIANT LOG: static checks on our own kernel files, as TAP:
# checkpatch --strict, kernel-doc and coccicheck (MODE=report) on every C
# file and header we wrote, then W=1 and sparse (C=2) on the objects the
# x86_64 kernel builds from them; summarize_test.py, which checks that
# the log scan fails a run on every defect our pool reports;
# bench_table_test.py, which checks the benchmark table's interval; that
# every mutant of scripts/mutants.txt still applies; and check-docs.sh,
# which builds page_pool.rst and the ppsim ABI file with this tree's
# kernel-doc and fails on any warning.
set -uo pipefail

variant=${1:?usage: check.sh base|ours LOG}
log=${2:?usage: check.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ccache-env.sh"
src=$top/build/src-$variant
out=$top/build/x86_64-$variant
mkdir -p "$(dirname "$log")"
exec > "$log" 2>&1

# The tree as the checkout has it now (in make test, a no-op by then).
"$top/scripts/prepare-tree.sh" "$variant" >/dev/null

files=$(cd "$top" && git ls-files -co --exclude-standard -- net include drivers |
	grep -E '\.[ch]$')
# Each C file is checked in the object that builds it, as OBJECT:FILE: its
# own, or for a test #included at the end of the file it tests (the
# drivers' RX suites, whose own parts include further files), that
# file's, followed up the chain.
host_of() {
	local f=$1 up
	while up=$(grep -l "^#include \"${f##*/}\"" "$src/${f%/*}"/*.c \
			2>/dev/null | head -n1) && [ -n "$up" ]; do
		f=${up#"$src"/}
	done
	echo "$f"
}
objs=
for f in $files; do
	case $f in
	*.c) [ -e "$src/$f" ] || continue
		host=$(host_of "$f")
		objs="$objs ${host%.c}.o:$f" ;;
	esac
done
hdrs=$(tr ' ' '\n' <<<"$files" | grep '\.h$')
# The base variant does not build our pool, nor has our headers: drop
# what it does not have.
[ "$variant" = base ] && hdrs=
[ "$variant" = base ] && objs=$(echo "$objs" | tr ' ' '\n' |
	grep -v '^net/core/page_pool\.o:' | tr '\n' ' ')

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

# coccicheck runs spatch with the OCaml scripting of these semantic
# patches only through an OCaml compiler, which we do not install:
# badzero's report (a pointer compared with 0) is sparse's "plain integer
# as NULL pointer" warning, and check_bq27xxx_data is for one driver.
cocci_needs_ocaml='api/check_bq27xxx_data.cocci null/badzero.cocci'
coccis=
for c in $(cd "$src/scripts/coccinelle" && find . -name '*.cocci' | sort); do
	c=${c#./}
	case " $cocci_needs_ocaml " in
	*" $c "*) ;;
	*) coccis="$coccis $c" ;;
	esac
done

# The log scan against the messages our pool prints: one result a case,
# and one more that the test ran to its end.
scan=$("$top/scripts/summarize_test.py" "$top/net/core/page_pool.c" 2>&1)
scan_rc=$?
nscan=$(grep -cE '^(PASS|FAIL) ' <<<"$scan")
btab=$("$top/scripts/bench_table_test.py" 2>&1)
btab_rc=$?
nbtab=$(grep -cE '^(PASS|FAIL) ' <<<"$btab")
# Every mutant still applies, once, to what it names.
muts=$("$top/scripts/mutants.sh" --dry-run 2>&1)
muts_rc=$?
# The documentation as the kernel's build reads it: the checkout's rst,
# ABI file and sources, this tree's kernel-doc.
docs=$("$top/scripts/check-docs.sh" --kernel-doc "$src/scripts/kernel-doc" "$top" 2>&1)
docs_rc=$?

echo "TAP version 13"
set -- $files
nobjs=$(echo $objs | wc -w)
nhdrs=$(echo $hdrs | wc -w)
nskip=$(echo $cocci_needs_ocaml | wc -w)
echo "1..$(($# * 3 + 1 + nskip + nobjs + nhdrs + nscan + 1 + nbtab + 1 + 1 + 1))"

# cases NAME OUTPUT: a result for each PASS or FAIL line of a script test.
cases() {
	while read -r line; do
		case $line in
		PASS\ *) result 0 "$1: ${line#PASS }" ;;
		FAIL\ *) result 1 "$1: ${line#FAIL }" ;;
		*) echo "# $line" ;;
		esac
	done <<<"$2"
}
cases summarize "$scan"
result "$scan_rc" "summarize_test.py completes"
cases bench-table "$btab"
result "$btab_rc" "bench_table_test.py completes"
[ "$muts_rc" = 0 ] || sed 's/^/# /' <<<"$muts" | tail -5
result "$muts_rc" "mutants.sh --dry-run: every mutant applies once"
[ "$docs_rc" = 0 ] || sed 's/^/# /' <<<"$docs"
result "$docs_rc" "check-docs.sh: page_pool.rst and sysfs-bus-ppsim build without a warning"

for f in $files; do
	# From the top, so the file's path says net/ and checkpatch applies
	# netdev's rules (block comments) as it does to the series' patches.
	r=$(cd "$top" && "$src/scripts/checkpatch.pl" --strict --no-tree -f "$f" 2>&1)
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
# coccicheck over a copy of exactly our files, as an external module
# directory: spatch then sees nothing of the kernel tree but them. The
# directory must be an absolute path, or coccicheck silently checks
# nothing. --include-headers makes every semantic patch look at our
# headers too, not only those whose options ask for it.
cocci_dir=$top/build/coccicheck-$variant
rm -rf "$cocci_dir"
for f in $files; do
	mkdir -p "$cocci_dir/$(dirname "$f")"
	cp "$top/$f" "$cocci_dir/$f"
done
cocci_out=$(for c in $coccis; do
	srctree=$src KBUILD_EXTMOD=$cocci_dir MODE=report J=1 \
		SPFLAGS=--include-headers COCCI=$src/scripts/coccinelle/$c \
		"$src/scripts/coccicheck" 2>&1 ||
		echo "coccicheck: $c exited with $?"
done)
r=$(grep -E '^coccicheck: |coccicheck failed' <<<"$cocci_out")
if [ -z "$r" ]; then
	result 0 "coccicheck runs every semantic patch"
else
	echo "$r" | sed 's/^/# /'
	result 1 "coccicheck runs every semantic patch"
fi
for c in $cocci_needs_ocaml; do
	n=$((n + 1))
	echo "ok $n coccicheck $c # SKIP needs an OCaml compiler"
done
for f in $files; do
	r=$(grep -F "$cocci_dir/$f:" <<<"$cocci_out")
	[ -z "$r" ] && { result 0 "coccicheck $f"; continue; }
	echo "${r//$cocci_dir\//}" | sed 's/^/# /'
	result 1 "coccicheck $f"
done
# One make for every object (each make of its own reads the whole tree's
# makefiles: about 4 s apiece). gcc warns only when it compiles: an
# object left by the last check, which build-kernel.sh need not rebuild,
# would pass unseen.
for of in $objs; do
	rm -f "$out/${of%%:*}"
done
msgs=$(make -s -k -C "$src" O="$out" NM="$KBUILD_NM" W=1 C=2 \
	$(for of in $objs; do echo "${of%%:*}"; done) 2>&1)
for of in $objs; do
	o=${of%%:*}
	f=${of#*:}
	r=$(grep -F "$f" <<<"$msgs" | grep -E 'warning|error')
	[ -f "$out/$o" ] || r="${r:+$r
}$o was not built"
	[ -z "$r" ] && { result 0 "W=1 and sparse $f"; continue; }
	echo "$r" | sed 's/^/# /'
	result 1 "W=1 and sparse $f"
done
# A header's warnings name the header, whichever object included it.
for h in $hdrs; do
	r=$(grep -F "$h:" <<<"$msgs" | grep -E 'warning|error' | sort -u)
	[ -z "$r" ] && { result 0 "W=1 and sparse $h"; continue; }
	echo "$r" | sed 's/^/# /'
	result 1 "W=1 and sparse $h"
done
