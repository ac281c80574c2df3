#!/bin/sh
# /init of the ynl-um boot: create a ppsim device with three RX queues and
# bring it up, so that each queue has a pool; then mount the host's root
# (hostfs, read-only), chroot into it and run ynl-um-check.py there with
# the host's python3, which runs upstream's cli.py. Its arguments, after
# "--" on the kernel command line: TOP (this checkout) and YNL_DIR, both
# host paths. Prints "SELFTEST-EXIT <status>" and powers off.
export PATH=/bin
top=$1
ynl=$2

mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
ip link set lo up

# The ring size the sysfs ABI documents for a new device.
queues=3 ring=1024
echo "1 $queues" > /sys/bus/ppsim/new_device
dev=$(ls /sys/bus/ppsim/devices/ppsim1/net/)
# No IPv6 (where the kernel has it): ppsim loops its own transmissions
# back, and router solicitations would add pages to the counts checked.
echo 1 2>/dev/null > "/proc/sys/net/ipv6/conf/$dev/disable_ipv6"
ip link set "$dev" up

# cli.py opens only netlink sockets, but python wants /dev/null and
# /proc, and the check reads the device's /sys files.
mkdir -p /host
mount -t hostfs -o ro none /host
for d in proc sys dev; do
	mount --bind "/$d" "/host/$d"
done
chroot /host /usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 "$top/scripts/ynl-um-check.py" "$ynl" "$dev" "$queues" \
	"$ring"
status=$?
for d in proc sys dev; do
	umount "/host/$d"
done
umount /host
echo "SELFTEST-EXIT $status"
poweroff -f
