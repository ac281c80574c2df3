#!/bin/sh
# bench-init.sh: /init of the benchmark initramfs (see bench.sh and
# bench-smoke.sh). Loads the page_pool benchmark module with the module
# parameters given after "--" on the kernel command line (e.g. quick=1),
# unloads it, then, unless "xdp=off" was among them, runs
# "page_pool_xdp --bench" ("xdp=quick" adds --quick), then, unless
# "rx=off", the ppsim RX benchmark "ppsim_bench" ("rx=quick" adds
# --quick; "rx=MODE:SINK" runs that test alone, 20 times, to profile
# it), then, unless "lo=off", TCP over loopback "lo_bench"
# ("lo=quick" adds --quick), and powers off. Prints "bench-init: ..."
# lines and "BENCH-EXIT <status>" last.
export PATH=/bin

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp

xdp=full
rx=full
lo=full
params=
for a in "$@"; do
	case $a in
	xdp=*) xdp=${a#xdp=} ;;
	rx=*) rx=${a#rx=} ;;
	lo=*) lo=${a#lo=} ;;
	*) params="$params $a" ;;
	esac
done

status=0
# step NAME CMD...: run CMD, report its exit code, remember a failure.
step() {
	name=$1
	shift
	"$@"
	rc=$?
	echo "bench-init: $name exit $rc"
	[ $rc -eq 0 ] || status=1
}

# shellcheck disable=SC2086 # one word per module parameter
step insmod insmod /lib/modules/bench_page_pool.ko $params
step rmmod rmmod bench_page_pool
case $xdp in
off) echo "bench-init: xdp=off: page_pool_xdp not run" ;;
quick) step page_pool_xdp page_pool_xdp --bench --quick ;;
*) step page_pool_xdp page_pool_xdp --bench ;;
esac
case $rx in
off) echo "bench-init: rx=off: ppsim_bench not run" ;;
quick) step ppsim_bench ppsim_bench --quick ;;
*:*) step ppsim_bench ppsim_bench --mode "${rx%%:*}" --sink "${rx#*:}" \
	--reps 20 ;;
*) step ppsim_bench ppsim_bench ;;
esac
case $lo in
off) echo "bench-init: lo=off: lo_bench not run" ;;
quick) step lo_bench lo_bench --quick ;;
*) step lo_bench lo_bench ;;
esac
echo "BENCH-EXIT $status"
poweroff -f
