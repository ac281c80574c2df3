/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_OVERFLOW_H
#define _SHIM_LINUX_OVERFLOW_H

#include <stddef.h>
#include <stdint.h>

/* As in the kernel: a product that overflows saturates at SIZE_MAX. */
static inline size_t array_size(size_t a, size_t b)
{
	size_t bytes;

	if (__builtin_mul_overflow(a, b, &bytes))
		return SIZE_MAX;
	return bytes;
}

#endif /* _SHIM_LINUX_OVERFLOW_H */
