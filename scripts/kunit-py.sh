#!/bin/bash
# kunit-py.sh [--reuse] VARIANT LOG: the suites of net/core/.kunitconfig
# run the way a KUnit user runs them, through the tree's own
#   tools/testing/kunit/kunit.py run --kunitconfig=net/core
# on UML, in build/kunit-py-VARIANT. kunit.py keeps that folder's config
# while its kunitconfig stays the same, so a later run rebuilds only what
# an edit touches.
# --reuse (make test) builds no kernel of its own: kunit.py config checks
# that the kunitconfig gives its options on UML, and kunit.py exec runs
# the suites in the UML kernel kunit-um.sh built (build/um-VARIANT),
# which has them all and more.
# LOG gets the kernel's console (the KTAP that summarize.py counts) and,
# when kunit.py fails, a line saying so, which summarize.py counts as a
# failure, with the tail of kunit.py's output.
set -euo pipefail

usage="usage: kunit-py.sh [--reuse] base|ours LOG"
reuse=
[ "${1:-}" != --reuse ] || { reuse=1; shift; }
variant=${1:?$usage}
log=${2:?$usage}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ccache-env.sh"
src=$top/build/src-$variant
out=$top/build/kunit-py-$variant

"$top/scripts/prepare-tree.sh" "$variant" >&2
mkdir -p "$out" "$(dirname "$log")"

# What our harness adds to the kunitconfig, and why:
# - the pool variant's fragment, which tells the suites which pool they
#   test (the base tree has no sources for our pool's internal suites);
# - UML's virtio PCI off, as configs/um.config has it: kunit.py turns it
#   on, and every boot with it prints a WARNING that summarize.py would
#   count.
add=()
while read -r line; do
	case $line in CONFIG_*) add+=("--kconfig_add=$line") ;; esac
done < "$top/configs/pool-$variant.config"
add+=(--kconfig_add=CONFIG_VIRTIO_UML=n --kconfig_add=CONFIG_UML_PCI_OVER_VIRTIO=n)

# kunit.py runs make itself: the same compiler (through ccache) and the
# same KCFLAGS as build-kernel.sh come from ccache-env.sh, and the nm
# that loads one plugin.
kunit=(./tools/testing/kunit/kunit.py)
common=(--kunitconfig=net/core --make_options=NM="$KBUILD_NM" "${add[@]}")
if [ -z "$reuse" ]; then
	cmd=("${kunit[@]}" run "${common[@]}" --build_dir="$out"
		--jobs="${JOBS:-$(nproc)}" --timeout=300)
	test_log=$out/test.log
else
	um=$("$top/scripts/build-kernel.sh" um "$variant")
	cmd=("${kunit[@]}" exec --kunitconfig=net/core --build_dir="$um"
		--timeout=300)
	test_log=$um/test.log
fi
[ -z "${FILTER:-}" ] || cmd+=("$FILTER")

# Python must not leave kunit.py's bytecode in the tree: build-kernel.sh
# takes any file there newer than a kernel's last build as a reason to
# run make again for it.
export PYTHONDONTWRITEBYTECODE=1

# test.log is the console of kunit.py's last boot: one left from an
# earlier run must not be counted for this one.
rm -f "$test_log"
echo "kunit-py: running kunit.py on $variant"
rc=0
if [ -n "$reuse" ]; then
	# Without a .config, kunit.py config runs olddefconfig and checks
	# that every option of the kunitconfig is set; with one it may
	# only compare the kunitconfig with its last.
	rm -f "$out/.config"
	(cd "$src" && "${kunit[@]}" config "${common[@]}" --build_dir="$out") \
		> "$out/kunit.py.out" 2>&1 </dev/null || rc=$?
	# And the kernel it then runs must have them all.
	if [ $rc -eq 0 ]; then
		while read -r opt; do
			case $opt in
			CONFIG_*=*)
				what="lacks $opt"
				grep -qxF "$opt" "$um/.config" ;;
			'# CONFIG_'*' is not set')
				opt=${opt#\# }
				opt=${opt%% *}
				what="sets $opt, which it turns off"
				! grep -q "^$opt=" "$um/.config" ;;
			*) continue ;;
			esac || {
				echo "kunit-py: build/um-$variant $what, against the kunitconfig"
				rc=1
			} >> "$out/kunit.py.out"
		done < "$out/last_used_kunitconfig"
	fi
	[ $rc -ne 0 ] || (cd "$src" && "${cmd[@]}") >> "$out/kunit.py.out" \
		2>&1 </dev/null || rc=$?
else
	(cd "$src" && "${cmd[@]}") > "$out/kunit.py.out" 2>&1 </dev/null ||
		rc=$?
fi
{
	echo "kunit-py: in build/src-$variant: ${cmd[*]}"
	[ ! -f "$test_log" ] || cat "$test_log"
	if [ $rc -ne 0 ]; then
		echo
		echo "kunit-py: kunit.py exited with $rc; its last lines:"
		tail -n 30 "$out/kunit.py.out" | sed 's/^/    /'
	fi
} > "$log"
# kunit.py's own count of the run, beside summarize.py's.
grep -E 'Testing complete|Elapsed time' "$out/kunit.py.out" || true
if [ $rc -ne 0 ]; then
	echo "kunit-py: kunit.py exited with $rc (log: $log)" >&2
	tail -n 30 "$out/kunit.py.out" >&2
fi
