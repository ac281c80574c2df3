#!/bin/bash
# um-hang-report.sh PID: what a UML kernel that has not finished in time
# is doing, for boot-um.sh to print before it kills it. PID is UML's
# main process. Prints the host's view first: each UML process's state,
# CPU time and pending signals, and the signals the main one takes in
# two seconds (a storm of them in UML's IRQ handling has hung a kernel
# without a word). The kernel's own view comes from its hung task and
# soft lockup detectors. Not from SysRq t through the management
# console: 6.1 UML with lockdep panics dumping stacks from that IRQ.
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
