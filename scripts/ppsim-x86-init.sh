#!/bin/sh
# /init of the ppsim initramfs for the QEMU x86_64 kernel: run
# ppsim_netlink and ppsim_pp_hold, then ppsim_rx
# (with DMA: the kernel boots with swiotlb=force, so a missing sync
# shows as a bad frame), then scan for leaks and count DMA-API debug
# errors, as after the KUnit suites.
export PATH=/bin

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
ip link set lo up
# Without the module every case would skip: no TAP at all fails the run.
if [ -f /lib/modules/ppsim.ko ] && ! insmod /lib/modules/ppsim.ko; then
	echo "ppsim-x86-init: cannot load ppsim.ko"
	poweroff -f
fi

ppsim_netlink
status=$?
ppsim_pp_hold
hold=$?
[ "$status" -eq 0 ] && status=$hold
ppsim_rx
rx=$?
[ "$status" -eq 0 ] && status=$rx
echo "SELFTEST-EXIT $status"
# A fault test killed by its timeout never ran its teardown: the leak
# scan must not run with allocations still failing.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -w /sys/kernel/debug/fail_page_alloc/probability ] &&
	echo 0 > /sys/kernel/debug/fail_page_alloc/probability
umount /sys/kernel/debug 2>/dev/null
# Pages held by sockets went back when the test closed them.
umount /proc /sys
exec /bin/kmemleak-init.sh
