/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache line size and alignment: 64 bytes, as on every x86-64 CPU, so
 * that the rings' hot fields land on separate lines as in the kernel.
 */
#ifndef _SHIM_LINUX_CACHE_H
#define _SHIM_LINUX_CACHE_H

#include <linux/compiler.h>

#define SMP_CACHE_BYTES	64
#define ____cacheline_aligned_in_smp	__aligned(SMP_CACHE_BYTES)

#endif /* _SHIM_LINUX_CACHE_H */
