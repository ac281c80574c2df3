#!/bin/bash
# series.sh generate: write build/series, the project as a git series
# against the base tree (scripts/series.py), signed with your git identity.
# series.sh check LOG: generate it into build/series-check (never over
# what make series wrote), then check it as TAP into LOG: it
# applies with git am, gives build/src-ours byte for byte, passes
# checkpatch --strict patch by patch, and each patch builds its objects on
# top of its predecessors (in build/series-obj, configured as the x86_64
# test kernel, which must be built).
# series.sh check-applied LOG and check-built LOG: the two halves of
# check, so that make test can run the first before that kernel exists.
set -uo pipefail

usage="usage: series.sh generate | check LOG | check-applied LOG | check-built LOG"
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ccache-env.sh"
. "$top/scripts/pristine.sh"
export SERIES_PRISTINE=$pristine
SERIES_PRISTINE_ID=$(pristine_id)
export SERIES_PRISTINE_ID
# One run at a time: make series and make test share build/series-git.
mkdir -p "$top/build"
exec 9>"$top/build/series.lock"
flock 9
# The work repository's path in __FILE__, as the trees' in ccache-env.sh.
KCFLAGS="$KCFLAGS -fmacro-prefix-map=../series-git/="
export KCFLAGS

case ${1:-} in
generate)
	"$top/scripts/prepare-tree.sh" ours >/dev/null || exit 1
	exec "$top/scripts/series.py" generate "$top/build/series" ;;
check|check-applied)
	log=${2:?$usage}
	mkdir -p "$(dirname "$log")"
	exec > "$log" 2>&1
	# check-built builds branch applied: never one of an earlier run.
	[ ! -d "$top/build/series-git/.git" ] ||
		git -C "$top/build/series-git" branch -q -D applied 2>/dev/null
	"$top/scripts/prepare-tree.sh" ours >/dev/null || exit 1
	# make test signs with the runner's identity, or without one
	# configured, as the user running it.
	export SERIES_ANY_IDENTITY=1
	"$top/scripts/series.py" generate "$top/build/series-check" || {
		echo "not ok 1 series: make series writes the series"
		exit 1
	}
	exec "$top/scripts/series.py" "$1" "$top/build/series-check" ;;
check-built)
	log=${2:?$usage}
	mkdir -p "$(dirname "$log")"
	exec "$top/scripts/series.py" check-built "$top/build/series-check" \
		> "$log" 2>&1 ;;
*) echo "$usage" >&2; exit 2 ;;
esac
