#!/bin/bash
# test.sh VARIANT: every stage CI checks, each to its own log, then one
# summary over all of them. A stage that cannot run still leaves its log
# (or none), and the summary counts that as a failure.
set -uo pipefail

variant=${1:?usage: test.sh base|ours}
top=$(cd "$(dirname "$0")/.." && pwd)
logs=$top/build/logs/$variant
mkdir -p "$logs"
rm -f "$logs"/*.log

stage() {
	local name=$1 start=$SECONDS
	shift
	echo "== $name"
	"$@" || echo "test: stage $name exited with $?"
	echo "== $name took $((SECONDS - start)) s"
}

# A QEMU run leaves about a third of two cores idle (vmstat): one compile
# at a time (a compile-only stage, or the build of the next kernel, in
# a folder of its own) runs beside it at nice 19, so that it takes what
# QEMU leaves; never two compiles at once. It runs in a session of its
# own, which an interrupted run stops (it would ignore SIGINT).
# Jobs given together, as alongside NAME CMD... ';;' NAME CMD..., run
# one after the other in that session. With autogroup scheduling (most
# distributions' kernels) nice acts only within a session: the session's
# own autogroup must be niced too, or it gets as much CPU as QEMU's and
# slows it (ppsim-x86_64 took 928 s instead of 422 s).
alongside_pgids=
alongside() {
	setsid bash -c 'job=()
		echo 19 2>/dev/null > /proc/self/autogroup
		run() {
			local name=$1 start=$SECONDS
			shift
			echo "== $name (alongside)"
			nice -n 19 "$@" || echo "test: stage $name exited with $?"
			echo "== $name took $((SECONDS - start)) s (alongside)"
		}
		for a in "$@" ";;"; do
			if [ "$a" = ";;" ]; then
				run "${job[@]}"
				job=()
			else
				job+=("$a")
			fi
		done' alongside "$@" &
	alongside_pgids="$alongside_pgids -$!"
}
trap '[ -z "$alongside_pgids" ] || kill -TERM -- $alongside_pgids 2>/dev/null
	exit 130' INT TERM

stage kunit-um "$top/scripts/kunit-um.sh" "$variant" "$logs/kunit-um.log"
# kunit.py on the same kernel: a kernel of its own cost 4 to 9 minutes.
stage kunit-py "$top/scripts/kunit-py.sh" --reuse "$variant" "$logs/kunit-py.log"
# The series' git am, byte compare and checkpatch need no kernel, and
# one core: the UML stages leave the other idle.
[ "$variant" = ours ] && alongside series "$top/scripts/series.sh" \
	check-applied "$logs/series.log"
stage um-fpstate "$top/scripts/um-fpstate.sh" "$variant" "$logs/um-fpstate.log"
stage bench-smoke "$top/scripts/bench-smoke.sh" "$variant" "$logs/bench-smoke.log"
stage selftest-um "$top/scripts/selftest-um.sh" "$variant" "$logs/selftest-um.log"
stage ppsim-um "$top/scripts/ppsim-um.sh" "$variant" "$logs/ppsim-um.log"
# Upstream's cli.py in the same kernel: a boot of a few seconds.
stage ynl-um "$top/scripts/ynl-um.sh" "$variant" "$logs/ynl-um.log"
# build ARCH: build-kernel.sh without the folder's name on stdout.
build='"$0" "$1" "$2" >/dev/null'
stage build-x86_64 bash -c "$build" "$top/scripts/build-kernel.sh" x86_64 "$variant"
wait
# The KCSAN kernel builds while the KASAN kernel's suites run (4 to 5 of
# their 10 minutes), then each patch of the series on the KASAN kernel's
# config.
series_built=()
[ "$variant" = ours ] && series_built=(';;' series-built
	"$top/scripts/series.sh" check-built "$logs/series-built.log")
alongside build-x86_64-kcsan bash -c "$build" "$top/scripts/build-kernel.sh" \
	x86_64-kcsan "$variant" "${series_built[@]}"
stage kunit-x86_64 "$top/scripts/kunit-x86_64.sh" "$variant" "$logs/kunit-x86_64.log"
stage ppsim-x86_64 "$top/scripts/ppsim-x86_64.sh" "$variant" "$logs/ppsim-x86_64.log"
wait
alongside users "$top/scripts/compile-users.sh" "$variant" "$logs/users.log"
stage kunit-kcsan "$top/scripts/kunit-x86_64.sh" "$variant" "$logs/kunit-kcsan.log" \
	x86_64-kcsan
wait
# check builds objects in the x86_64 kernel's folder, which ppsim-kcsan
# does not touch.
alongside check "$top/scripts/check.sh" "$variant" "$logs/check.log"
stage ppsim-kcsan "$top/scripts/ppsim-x86_64.sh" "$variant" "$logs/ppsim-kcsan.log" \
	x86_64-kcsan
wait
stage ring "$top/scripts/ring-test.sh" "$variant" "$logs/ring.log"

echo "== summary ($variant pool, $SECONDS s)"
exec "$top/scripts/summarize.py" "$logs/kunit-um.log" "$logs/kunit-py.log" \
	"$logs/um-fpstate.log" "$logs/bench-smoke.log" \
	"$logs/selftest-um.log" "$logs/ppsim-um.log" "$logs/ynl-um.log" \
	"$logs/kunit-x86_64.log" "$logs/ppsim-x86_64.log" \
	"$logs/kunit-kcsan.log" "$logs/ppsim-kcsan.log" "$logs/check.log" \
	"$logs/users.log" \
	"$logs/ring.log" $([ "$variant" = ours ] &&
		echo "$logs/series.log $logs/series-built.log")
