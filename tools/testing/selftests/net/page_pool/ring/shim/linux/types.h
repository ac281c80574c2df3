/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/types.h>: just the types the two ring
 * headers name. The rest of this directory does the same for the other
 * kernel headers they include; nothing here is used by the kernel.
 */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sparse annotation only: it has no meaning to gcc. */
#define __bitwise

typedef unsigned int __bitwise gfp_t;
typedef uint64_t u64;

#endif /* _SHIM_LINUX_TYPES_H */
