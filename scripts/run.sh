#!/bin/bash
# run.sh VARIANT: the main job. Build the UML kernel, run the KUnit
# suites and the selftests in it, and print a short summary. Then one boot
# of our pool's benchmark kernel (bench.sh --one ours) shows each
# benchmark against the page allocator.
set -uo pipefail

variant=${1:?usage: run.sh base|ours}
top=$(cd "$(dirname "$0")/.." && pwd)
logs=$top/build/logs/$variant
mkdir -p "$logs"

"$top/scripts/kunit-um.sh" "$variant" "$logs/kunit-um.log"
"$top/scripts/um-fpstate.sh" "$variant" "$logs/um-fpstate.log"
"$top/scripts/selftest-um.sh" "$variant" "$logs/selftest-um.log"
echo "== page_pool ($variant) in UML"
"$top/scripts/summarize.py" "$logs/kunit-um.log" "$logs/um-fpstate.log" \
	"$logs/selftest-um.log"
rc=$?
echo "== benchmark: our pool against the page allocator (one UML boot)"
"$top/scripts/bench.sh" --one ours || rc=$((rc ? rc : 1))
exit "$rc"
