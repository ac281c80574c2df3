#!/bin/bash
# boot-um.sh KERNEL INITRAMFS [TIMEOUT_S] [KERNEL_ARG...]: boot a UML kernel
# on INITRAMFS (mem=512M, KUnit off, no console input) and copy its console
# to stdout. Exits with the kernel's status; on a hang, prints what the
# kernel is doing (um-hang-report.sh) 30 s before the end of TIMEOUT_S
# (default 120) seconds, then kills the whole UML process group and
# exits 124.
# Arguments after a "--" among KERNEL_ARGs go to init.
set -euo pipefail

usage="usage: boot-um.sh KERNEL INITRAMFS [TIMEOUT_S] [KERNEL_ARG...]"
kernel=${1:?$usage}
initrd=${2:?$usage}
timeout_s=${3:-120}
shift $(($# < 3 ? $# : 3))

[ -x "$kernel" ] || { echo "boot-um: '$kernel' not executable" >&2; exit 1; }
[ -f "$initrd" ] || { echo "boot-um: no initramfs '$initrd'" >&2; exit 1; }

# UML puts a terminal it writes to into raw mode and only restores it on a
# clean exit: save and restore it ourselves.
if [ -t 1 ]; then
	{ saved_tty=$(stty -g <&3); } 3>&1
	trap 'stty "$saved_tty" <&1' EXIT
fi

# timeout runs UML in its own process group and signals that whole group,
# so UML's helper processes go too. root= and console= are given so that
# UML does not append its defaults after a "--" meant for init. The
# console reads a FIFO held open for writing too, so it never reads EOF:
# from /dev/null it would, and 6.1 UML then frees the console's IRQs
# from its SIGIO handler, which warns when the signal lands in a
# BH-disabled section and can hang the kernel while it prints that.
fifo_dir=$(mktemp -d)
mkfifo "$fifo_dir/in"
exec 3<>"$fifo_dir/in"
rm -rf "$fifo_dir"
rc=0
timeout -k 5 "$timeout_s" "$kernel" mem=512M initrd="$initrd" init=/init \
	root=98:0 console=tty0 con0=fd:0,fd:1 kunit.enable=0 "$@" \
	<&3 3<&- 2>&1 &
tpid=$!
# Half a minute before the timeout, say what the kernel is doing. The
# watcher takes its sleep down with it when the kernel is done first.
report=
if [ "$timeout_s" -gt 60 ]; then
	(
		sleep $((timeout_s - 30)) >/dev/null 2>&1 &
		trap 'kill $! 2>/dev/null; exit 0' TERM
		wait $!
		exec "$(dirname "$0")/um-hang-report.sh" "$(pgrep -P "$tpid")"
	) 3<&- &
	report=$!
fi
wait "$tpid" || rc=$?
if [ -n "$report" ]; then
	kill "$report" 2>/dev/null || true
	wait "$report" || true
fi
exec 3<&-
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	# On a line of its own: the console may have stopped mid-line.
	printf '\nboot-um: timed out after %ss\n' "$timeout_s" >&2
	exit 124
fi
exit $rc
