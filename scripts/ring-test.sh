#!/bin/bash
# ring-test.sh VARIANT LOG: the return ring outside the kernel. Builds
# tools/testing/selftests/net/page_pool/ring into build/ring, then runs
# ringstress (plain -O2), ringstress-tsan (ThreadSanitizer) and a short
# ringbench, each as a TAP subtest of LOG. The ring is ours whatever
# VARIANT is: the same checks run for both.
set -uo pipefail

log=${2:?usage: ring-test.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/pristine.sh"
dir=$top/tools/testing/selftests/net/page_pool/ring
out=$top/build/ring
mkdir -p "$(dirname "$log")" "$out"
exec > "$log" 2>&1

. "$top/scripts/tap.sh"
n=0
subtest() {
	n=$((n + 1))
	tap_subtest "$n" "$@"
}

# ringbench --count 20000 in TAP: it runs, and every figure is a
# positive number in a well-formed row.
bench_smoke() {
	local csv
	echo "TAP version 13"
	echo "1..1"
	csv=$("$out/ringbench" --producers 2 --sizes 256 --batches 1,16 \
		--rounds 2 --count 20000 2>/dev/null) || {
		echo "not ok 1 ringbench runs"
		return 1
	}
	if awk -F, 'NR > 1 && (NF != 5 || !($4 > 0) || !($5 > 0)) { bad = 1 }
		END { exit bad || NR != 17 }' <<<"$csv"; then
		echo "ok 1 ringbench runs"
	else
		echo "$csv" | sed 's/^/# /'
		echo "not ok 1 ringbench runs"
		return 1
	fi
}

echo "TAP version 13"
echo "1..3"
if ! make -s -C "$dir" KSRC="$pristine" OUTPUT="$out" 2>&1 | sed 's/^/# /'; then
	for t in ringstress ringstress-tsan ringbench; do
		n=$((n + 1))
		echo "not ok $n $t # build failed"
	done
	exit 1
fi
subtest ringstress "$out/ringstress"
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	subtest ringstress-tsan "$out/ringstress-tsan"
subtest ringbench bench_smoke
