#!/bin/bash
# um-hang-report.sh PID: what a UML kernel that has not finished in time
# is doing, for boot-um.sh to print before it kills it. PID is UML's
# main process. Prints the host's view first: each UML process's state,
# CPU time and pending signals, and the signals the main one takes in
# two seconds (a storm of them in UML's IRQ handling has hung a kernel
# without a word). Then asks the kernel, through its management console,
# for the stack of every task (SysRq t), which it prints on its console
# if it still runs.
set -uo pipefail

pid=${1:?usage: um-hang-report.sh PID}
# Our lines start their own: the console may be mid-line.
say() { printf '\num-hang-report: %s\n' "$*"; }

for p in "$pid" $(pgrep -P "$pid"); do
	[ -r "/proc/$p/stat" ] || continue
	# Fields 3, 14 and 15: state, user and system time in clock ticks.
	read -r -a st < "/proc/$p/stat"
	say "pid $p state ${st[2]} utime ${st[13]} stime ${st[14]}" \
		"$(grep -E '^(SigPnd|ShdPnd|SigBlk)' "/proc/$p/status" | tr -s '\t\n' '  ')"
done
say "signals pid $pid took in 2 s:"
timeout 2 strace -qq -e trace=none -p "$pid" 2>&1 | awk '{ print $2 }' |
	sort | uniq -c | sort -rn | head -n 5 | sed 's/^/um-hang-report: /'

sock=
for d in "${HOME:-/root}"/.uml/*/; do
	[ "$(cat "$d/pid" 2>/dev/null)" = "$pid" ] && sock=$d/mconsole
done
[ -n "$sock" ] || { say "no management console for pid $pid"; exit 0; }
python3 - "$sock" <<'PY'
import socket
import struct
import sys

# struct mconsole_request: magic, version, length, then the command.
cmd = b'sysrq t'
req = struct.pack('=III', 0xcafebabe, 2, len(cmd)) + cmd.ljust(512, b'\0')
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind('')
s.settimeout(5)
try:
    s.sendto(req, sys.argv[1])
    # struct mconsole_reply: error, more, length, then the text.
    err, _, n = struct.unpack_from('=III', s.recv(4096 + 12))
    print('um-hang-report: SysRq t: %s' % ('failed' if err else 'done'))
except OSError as e:
    print('um-hang-report: no answer from the management console: %s' % e)
PY
