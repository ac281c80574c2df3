#!/bin/bash
# bench.sh [ROUNDS]: benchmark our page_pool against the base tree's.
# Builds the UML benchmark kernel (build-kernel.sh um-bench: no lockdep)
# of both variants, the benchmark module for each and page_pool_xdp, and
# one initramfs per variant (scripts/bench-init.sh: full module run, then
# page_pool_xdp --bench, then ppsim_bench: RX through the simulated NIC
# per buffer mode and sink, then lo_bench: TCP over loopback). Boots base,
# ours and trace (ours with the leak trace built in and never started:
# build-kernel.sh um-bench-trace) in turn, ROUNDS (default 5) times
# each, then runs ringbench (ring-bench.sh) for as many rounds on the
# host, and writes build/bench/results.csv (all three), the table of
# ours against base (results.txt, also printed), build/bench/results.png,
# and the table of trace against ours (results-trace.txt, printed too).
#
# bench.sh --one VARIANT: one boot of VARIANT's benchmark kernel (base,
# ours or trace); prints each test's figures and its ratio to page_o0
# (the page allocator).
#
# Builds run under nice -n 19, the boots do not. BENCH_TIMEOUT (s, default
# 300) bounds one boot; BENCH_PARAMS (e.g. "loops=100000000") go to the
# module, and "xdp=off|quick", "rx=off|quick" or "lo=off|quick" among
# them to bench-init.sh.
set -euo pipefail

usage="usage: bench.sh [ROUNDS] | bench.sh --one base|ours|trace"
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/bench
xdp=$dir/xdp/page_pool_xdp
rx=$dir/rx/ppsim_bench
lo=$dir/xdp/lo_bench
timeout_s=${BENCH_TIMEOUT:-300}
s=$top/scripts

say() {
	echo "bench: $*"
}

# kernel_dir VARIANT: the build folder of VARIANT's benchmark kernel.
kernel_dir() {
	case $1 in
	trace) echo "$top/build/um-bench-trace-ours" ;;
	*) echo "$top/build/um-bench-$1" ;;
	esac
}

# prepare VARIANT: build its kernel (base or ours seeded from the other's
# when only that one exists), module and initramfs.
prepare() {
	local v=$1 other=base out ko
	[ "$v" = base ] && other=ours
	if [ "$v" = trace ]; then
		out=$(nice -n 19 "$s/build-kernel.sh" um-bench-trace ours)
	else
		if [ ! -e "$top/build/um-bench-$v" ] &&
			[ -x "$top/build/um-bench-$other/linux" ]; then
			nice -n 19 "$s/clone-build.sh" um-bench "$other" "$v"
		fi
		out=$(nice -n 19 "$s/build-kernel.sh" um-bench "$v")
	fi
	ko=$(nice -n 19 "$s/bench-module.sh" "$out")
	"$s/make-initramfs.sh" "$dir/initramfs-$v.cpio.gz" "$s/bench-init.sh" \
		"$ko" "$xdp" "$lo" "$rx"
}

build_all() {
	local start=$SECONDS v
	mkdir -p "$dir"
	# page_pool_xdp and ppsim_bench are the same programs for both
	# kernels: from ours' tree, where the kselftest Makefiles they need
	# are.
	"$s/prepare-tree.sh" ours >&2
	mkdir -p "$dir/xdp"
	nice -n 19 make -s -C \
		"$top/build/src-ours/tools/testing/selftests/net/page_pool" \
		OUTPUT="$dir/xdp" LDFLAGS=-static >&2
	mkdir -p "$dir/rx"
	nice -n 19 make -s -C \
		"$top/build/src-ours/tools/testing/selftests/drivers/net/ppsim" \
		OUTPUT="$dir/rx" LDFLAGS=-static >&2
	for v in "$@"; do
		prepare "$v"
	done
	say "built $* in $((SECONDS - start)) s"
}

# boot VARIANT LOG: one benchmark boot; the console goes to LOG. UML is
# uniprocessor: pinned to one host CPU, its timings stop jumping between
# two modes about 1.5x apart, as they do when the host moves it around.
boot() {
	local rc=0
	# shellcheck disable=SC2086 # one word per parameter
	taskset -c "$pin_cpu" "$s/boot-um.sh" "$(kernel_dir "$1")/linux" \
		"$dir/initramfs-$1.cpio.gz" "$timeout_s" -- ${BENCH_PARAMS:-} \
		> "$2" 2>&1 || rc=$?
	[ $rc -eq 0 ] || say "boot of $1 exited with $rc (log: $2)"
	return $rc
}

header=variant,test,round,cycles_per_op,ns_per_op
pin_cpu=$(($(nproc) - 1))

if [ "${1:-}" = --one ]; then
	v=${2:?$usage}
	case $v in base|ours|trace) ;; *) echo "$usage" >&2; exit 2 ;; esac
	build_all "$v"
	start=$SECONDS
	ok=0
	boot "$v" "$dir/one-$v.log" || ok=1
	{ echo "$header"; "$s/bench-table.py" csv "$v" 1 "$dir/one-$v.log" ||
		ok=1; } > "$dir/one-$v.csv"
	"$s/bench-table.py" table "$dir/one-$v.csv" "$dir/one-$v.log"
	say "one boot of $v took $((SECONDS - start)) s (log: $dir/one-$v.log)"
	exit $ok
fi

rounds=${1:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
build_all base ours trace

start=$SECONDS
rm -rf "$dir/logs"
mkdir -p "$dir/logs"
csv=$dir/results.csv
echo "$header" > "$csv.tmp"
ok=0
for r in $(seq "$rounds"); do
	# A B C, then C B A: a drift of the machine over the run (another
	# load, the host's clock) does not always land on the same variant.
	order="base ours trace"
	[ $((r % 2)) -eq 0 ] && order="trace ours base"
	for v in $order; do
		t=$SECONDS
		log=$dir/logs/$v-$r.log
		boot "$v" "$log" || ok=1
		"$s/bench-table.py" csv "$v" "$r" "$log" >> "$csv.tmp" || ok=1
		say "round $r/$rounds $v: $((SECONDS - t)) s"
	done
done
say "$rounds rounds took $((SECONDS - start)) s"
# The return rings on the host's own cores: native_* rows, base being
# ptr_ring as 6.1's pool uses it (scripts/ring-bench.sh).
"$s/ring-bench.sh" "$rounds" "$csv.tmp" || ok=1
mv "$csv.tmp" "$csv"

# Without two variants there is no chart: none of an earlier run either.
rm -f "$dir"/results.dat "$dir"/results.gp "$dir"/results.png
grep -v '^trace,' "$csv" > "$dir/results-pool.csv"
"$s/bench-table.py" table "$dir/results-pool.csv" --plot "$dir/results" \
	"$dir"/logs/base-*.log "$dir"/logs/ours-*.log | tee "$dir/results.txt"
# The leak trace's off state against no trace at all, from the same boots.
grep -v '^base,' "$csv" > "$dir/results-trace.csv"
echo "bench: the leak trace built in and off (trace) against without it (ours)"
"$s/bench-table.py" table "$dir/results-trace.csv" |
	tee "$dir/results-trace.txt"
term=png
[[ $(gnuplot -e 'set terminal' 2>&1) == *pngcairo* ]] && term=pngcairo
gnuplot -e "set terminal $term noenhanced size 1200,1200" \
	-e "set output '$dir/results.png'" "$dir/results.gp" || ok=1
[ -f "$dir/results.png" ] || say "no chart: it needs both variants"
say "wrote $csv, $dir/results.txt, $dir/results.png"
[ $ok -eq 0 ] || say "some boots were incomplete: see the messages above"
exit $ok
