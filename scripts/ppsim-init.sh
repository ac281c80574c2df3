#!/bin/sh
# /init of the ppsim selftest initramfs: mount the pseudo filesystems,
# bring up lo, run ppsim_netlink, ppsim_pp_hold and ppsim_rx, print
# "SELFTEST-EXIT <status>" (the first that is not 0) and power off.
export PATH=/bin

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
ip link set lo up

ppsim_netlink
status=$?
ppsim_pp_hold
hold=$?
[ "$status" -eq 0 ] && status=$hold
ppsim_rx "$@"
rx=$?
[ "$status" -eq 0 ] && status=$rx
echo "SELFTEST-EXIT $status"
poweroff -f
