// SPDX-License-Identifier: GPL-2.0
/*
 * Our return ring, net/core/page_pool_ring.h compiled unchanged, used
 * as net/core/page_pool.c uses it: a returner stores its pages with
 * one pp_ring_produce() (softirqs off around it in the kernel, which
 * userspace has no equivalent of), the owner refills its cache with
 * pp_ring_consume().
 */
#include <stdlib.h>
#include "page_pool_ring.h"
#include "ring_ops.h"

static void *pp_create(unsigned int size)
{
	struct pp_ring *r = aligned_alloc(SMP_CACHE_BYTES, sizeof(*r));

	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	if (pp_ring_init(r, size, 0)) {
		free(r);
		return NULL;
	}
	return r;
}

static void pp_destroy(void *ring)
{
	pp_ring_free(ring);
	free(ring);
}

static unsigned int pp_produce(void *ring, void **ptrs, unsigned int n)
{
	return pp_ring_produce(ring, ptrs, n);
}

static unsigned int pp_consume(void *ring, void **out, unsigned int max,
			       bool *claimed)
{
	struct pp_ring *r = ring;
	unsigned int n = pp_ring_consume(r, out, max);

	/*
	 * Cells claimed but none taken: the one at head is not published.
	 * Only on an empty poll, as reading tail costs the producers its
	 * cache line, which the pool's owner never reads.
	 */
	*claimed = !n && pp_ring_stores(r) != r->head;
	return n;
}

const struct ring_ops pp_ring_ops = {
	.name = "pp_ring",
	.variant = "ours",
	.create = pp_create,
	.destroy = pp_destroy,
	.produce = pp_produce,
	.consume = pp_consume,
};
