#!/bin/bash
# kunit-um.sh VARIANT LOG: build the UML kernel and run the page_pool
# KUnit suites in it; the console goes to LOG.
set -euo pipefail

variant=${1:?usage: kunit-um.sh base|ours LOG}
log=${2:?usage: kunit-um.sh base|ours LOG}
top=$(cd "$(dirname "$0")/.." && pwd)

out=$("$top/scripts/build-kernel.sh" um "$variant")
mkdir -p "$(dirname "$log")"
echo "kunit-um: running the suites on $variant"
# UML needs a writable TMPDIR for its memory file; stdin must not be a tty.
# A kernel that outlives its suites fails the log (summarize.py); the
# console may have stopped mid-line.
limit=300 rc=0
timeout -k 5 "$limit" "$out/linux" mem=512M console=tty kunit_shutdown=halt \
	kunit.filter_glob="${FILTER:-page_pool*}" </dev/null > "$log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		printf '\nkunit-um: timed out after %ss\n' "$limit" >> "$log"
	fi
	echo "kunit-um: the kernel exited with $rc (log: $log)" >&2
	tail -40 "$log" >&2
fi
