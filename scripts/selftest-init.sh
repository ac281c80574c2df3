#!/bin/sh
# /init of the page_pool selftest initramfs (selftest-um.sh): mount the
# pseudo filesystems, run page_pool_xdp with the arguments given after
# "--" on the kernel command line, print "SELFTEST-EXIT <status>" and
# power off.
export PATH=/bin

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp

page_pool_xdp "$@"
echo "SELFTEST-EXIT $?"
poweroff -f
