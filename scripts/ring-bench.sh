#!/bin/bash
# ring-bench.sh ROUNDS CSV: our return ring against 6.1's ptr_ring on the
# host's own cores (ringbench), ROUNDS rounds of every combination of
# RING_PRODUCERS (default 1,2,4), ring size and batch, in one run so that
# the ratios compare like with like. Appends the CSV rows (no header) to
# CSV, writes ringbench's own report to ring.log beside it.
#
# Timings are only worth having on an otherwise idle machine: waits (up
# to RING_BENCH_WAIT s, default 600) while a compiler or a test kernel
# runs.
set -euo pipefail

rounds=${1:?usage: ring-bench.sh ROUNDS CSV}
csv=${2:?usage: ring-bench.sh ROUNDS CSV}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/pristine.sh"
out=$top/build/ring
report=$(dirname "$csv")/ring.log

busy() {
	pgrep -x cc1 >/dev/null || pgrep -x linux >/dev/null ||
		pgrep -f '^qemu-system' >/dev/null
}

nice -n 19 make -s -C "$top/tools/testing/selftests/net/page_pool/ring" \
	KSRC="$pristine" \
	OUTPUT="$out" "$out/ringbench" >&2
waited=0
while busy; do
	if [ "$waited" -ge "${RING_BENCH_WAIT:-600}" ]; then
		echo "ring-bench: the machine is still busy; timing anyway" >&2
		break
	fi
	[ "$waited" = 0 ] && echo "ring-bench: waiting for builds and test kernels to finish" >&2
	sleep 10
	waited=$((waited + 10))
done
"$out/ringbench" --producers "${RING_PRODUCERS:-1,2,4}" --rounds "$rounds" \
	2> "$report" | tail -n +2 >> "$csv"
grep -A100 '^# medians' "$report" >&2
