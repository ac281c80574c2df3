/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_LOG2_H
#define _SHIM_LINUX_LOG2_H

/* The kernel's result for n >= 1: the smallest power of two >= n. */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	if (n <= 1)
		return 1;
	return 1UL << (8 * sizeof(n) - __builtin_clzl(n - 1));
}

#endif /* _SHIM_LINUX_LOG2_H */
