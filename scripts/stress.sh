#!/bin/bash
# stress.sh VARIANT DURATION LOGDIR: the long stress run. The page_pool
# KUnit stress case (a random mix of pool operations from every context,
# pools destroyed with pages out), each boot after the cross-CPU cases of
# page_pool_smp, for DURATION seconds in the QEMU kernel under
# KASAN, lockdep, kmemleak and DMA-API debug, then for DURATION in the
# KCSAN kernel; then the return ring's many-producer stress, outside the
# kernel, for DURATION. SEED=N replays the KUnit case's operations. Each
# part logs to LOGDIR; summarize.py and reliability-table.py read them.
set -uo pipefail

usage="usage: stress.sh base|ours DURATION LOGDIR"
variant=${1:?$usage}
secs=${2:?$usage}
logs=${3:?$usage}
[[ $secs =~ ^[1-9][0-9]*$ ]] ||
	{ echo "stress: DURATION must be whole seconds, from 1" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/pristine.sh"
. "$top/scripts/tap.sh"
mkdir -p "$logs"

# KUnit gives a case at most 300 s: boot as often as it takes, each
# boot a case of at most $chunk s with a seed of its own.
chunk=240
for kernel in x86_64 x86_64-kcsan; do
	left=$secs
	i=0
	while [ "$left" -gt 0 ]; do
		i=$((i + 1))
		s=$((left < chunk ? left : chunk))
		left=$((left - s))
		args="page_pool_stress_test.seconds=$s"
		[ -n "${SEED:-}" ] && args="$args page_pool_stress_test.seed=$SEED"
		echo "stress: $s s in $kernel, boot $i"
		FILTER='page_pool_s[mt]*' ARGS="$args" TIMEOUT=$((s + 600)) \
			"$top/scripts/kunit-x86_64.sh" "$variant" \
			"$logs/stress-$kernel-$i.log" "$kernel"
	done
done

# The ring outside the kernel: ringstress over and over until the time
# is up, each run one TAP subtest.
echo "stress: $secs s of ringstress"
make -s -C "$top/tools/testing/selftests/net/page_pool/ring" KSRC="$pristine" \
	OUTPUT="$top/build/ring" || exit 1
# The plan goes first (summarize.py reads a plan as the start of a
# block), so the runs are written aside until their number is known.
runs=$logs/stress-ring.runs
n=0
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ] || [ $n -eq 0 ]; do
	n=$((n + 1))
	tap_subtest "$n" "ringstress run $n" "$top/build/ring/ringstress"
done > "$runs" 2>&1
{
	echo "TAP version 13"
	echo "1..$n"
	cat "$runs"
} > "$logs/stress-ring.log"
rm -f "$runs"
