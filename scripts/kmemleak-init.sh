#!/bin/sh
# /init for the QEMU test kernel: the KUnit suites ran before it; look
# for leaks they left, then power off.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs debugfs /sys/kernel/debug
if [ -w /sys/kernel/debug/kmemleak ]; then
	# Objects younger than 5 s are never reported: wait, then scan twice.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
	echo "kmemleak-init: scan done"
else
	echo "kmemleak-init: no kmemleak"
fi
# DMA-API debug prints only its first error: report the count too.
if [ -r /sys/kernel/debug/dma-api/error_count ]; then
	echo "dma-api-debug: error_count $(cat /sys/kernel/debug/dma-api/error_count)"
fi
poweroff -f
