#!/bin/sh
# /init of the ppsim selftest initramfs: mount the pseudo filesystems,
# bring up lo, run ppsim_rx, print "SELFTEST-EXIT <status>" and power off.
export PATH=/bin

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
ip link set lo up

ppsim_rx "$@"
echo "SELFTEST-EXIT $?"
poweroff -f
