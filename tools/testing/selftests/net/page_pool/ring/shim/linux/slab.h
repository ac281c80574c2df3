/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allocators the rings call, over aligned_alloc(): cache-line
 * aligned like the kernel's kmalloc() of these sizes, so that both
 * rings' cell arrays start on a line boundary. No NUMA here.
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

/* The kernel's slab.h brings the error numbers in, through gfp.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cache.h>
#include <linux/types.h>

#define GFP_KERNEL	((gfp_t)0)
#define __GFP_ZERO	((gfp_t)1)
#define KMALLOC_MAX_SIZE	((size_t)1 << 30)

static inline void *kvmalloc(size_t size, gfp_t gfp)
{
	size_t lines = (size + SMP_CACHE_BYTES - 1) / SMP_CACHE_BYTES;
	void *p;

	if (!size || size > KMALLOC_MAX_SIZE)
		return NULL;
	p = aligned_alloc(SMP_CACHE_BYTES, lines * SMP_CACHE_BYTES);
	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}

static inline void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, gfp);
}

static inline void *kvzalloc_node(size_t size, gfp_t gfp, int node)
{
	(void)node;
	return kvmalloc(size, gfp | __GFP_ZERO);
}

#define kmalloc_array(n, size, gfp)	kvmalloc_array(n, size, gfp)

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#define kfree(p)	kvfree(p)

#endif /* _SHIM_LINUX_SLAB_H */
