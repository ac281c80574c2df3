/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct pp_ring on its own, so that net/core/page_pool_ring.h can be
 * built without the rest of the pool: the userspace ring tests in
 * tools/testing/selftests/net/page_pool/ring/ compile it unchanged.
 */
#ifndef _NET_PAGE_POOL_RING_TYPES_H
#define _NET_PAGE_POOL_RING_TYPES_H

#include <linux/cache.h>

/*
 * The return ring: any context stores, the pool's owner alone takes.
 * Producers claim cells by moving @tail with cmpxchg and publish a cell
 * by storing a non-NULL pointer into it; the owner takes published
 * cells in order from @head, clears them and then moves @head on, which
 * is what gives their room back to producers. When the cell at @head
 * is not published yet, the owner may take the published cells after
 * it (see @ahead). Producers size claims from @head_seen, a copy of
 * @head on their own cache line, and read @head only when that copy
 * shows too little room. See net/core/page_pool_ring.h.
 */
struct pp_ring {
	void **cells;		/* a power of two of them */
	unsigned long mask;
	unsigned long capacity;	/* pool_size: at most this many stored */
	/* Producers: the next index to claim; also the count of stores. */
	unsigned long tail ____cacheline_aligned_in_smp;
	/* Producers: a value @head had, never ahead of it. */
	unsigned long head_seen;
	/* Owner: the first index not yet taken; producers refresh from it. */
	unsigned long head ____cacheline_aligned_in_smp;
	/*
	 * Owner: where the next look past an unpublished cell at @head
	 * starts, as an offset from @head, at most capacity; the cells in
	 * between were taken ahead. 0 when none was.
	 */
	unsigned long ahead;
};

#endif /* _NET_PAGE_POOL_RING_TYPES_H */
