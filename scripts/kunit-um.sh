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
# A kernel that outlives its suites fails the log (summarize.py).
rc=0
timeout 300 "$out/linux" mem=512M console=tty kunit_shutdown=halt \
	kunit.filter_glob="${FILTER:-page_pool*}" </dev/null > "$log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	[ $rc -ne 124 ] || echo "kunit-um: timed out after 300s" >> "$log"
	echo "kunit-um: the kernel exited with $rc (log: $log)" >&2
	tail -40 "$log" >&2
fi
