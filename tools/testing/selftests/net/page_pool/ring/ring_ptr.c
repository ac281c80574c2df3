// SPDX-License-Identifier: GPL-2.0
/*
 * The base tree's include/linux/ptr_ring.h, compiled unchanged, used as
 * 6.1's net/core/page_pool.c uses it: a returner takes the producer
 * lock (page_pool_producer_lock(): spin_lock, or spin_lock_bh outside
 * softirq) around __ptr_ring_produce() of one page, or of each page of
 * a bulk return in turn; the owner (NAPI, the only consumer) checks
 * __ptr_ring_empty() and then takes pages one by one with
 * __ptr_ring_consume(), without the consumer lock, up to its refill
 * batch (page_pool_refill_alloc_cache()).
 */
#include <stdlib.h>
/*
 * ptr_ring.h includes its kernel headers only under __KERNEL__: here
 * that selects the stand-ins in shim/. Nothing else in this file
 * depends on it.
 */
#define __KERNEL__
#include "ptr_ring.h"
#include "ring_ops.h"

static void *ptr_create(unsigned int size)
{
	struct ptr_ring *r = aligned_alloc(SMP_CACHE_BYTES, sizeof(*r));

	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	if (ptr_ring_init(r, size, GFP_KERNEL)) {
		free(r);
		return NULL;
	}
	return r;
}

static void ptr_destroy(void *ring)
{
	ptr_ring_cleanup(ring, NULL);
	free(ring);
}

static unsigned int ptr_produce(void *ring, void **ptrs, unsigned int n)
{
	struct ptr_ring *r = ring;
	unsigned int i;

	spin_lock_bh(&r->producer_lock);
	for (i = 0; i < n; i++)
		if (__ptr_ring_produce(r, ptrs[i]))
			break;
	spin_unlock_bh(&r->producer_lock);
	return i;
}

static unsigned int ptr_consume(void *ring, void **out, unsigned int max,
				bool *claimed)
{
	struct ptr_ring *r = ring;
	unsigned int n = 0;
	void *ptr;

	*claimed = false;
	if (__ptr_ring_empty(r))
		return 0;
	while (n < max) {
		ptr = __ptr_ring_consume(r);
		if (!ptr)
			break;
		out[n++] = ptr;
	}
	return n;
}

/*
 * As wd_pp_ring_snapshot(): a look without the locks, once the
 * consumer stopped. Cells from consumer_tail up to consumer_head were
 * taken and are left for the consumer to clear in a batch: not in the
 * ring any more.
 */
static void ptr_snapshot(void *ring, struct wd_ring_state *s)
{
	struct ptr_ring *r = ring;
	int head = READ_ONCE(r->consumer_head);
	int clear = READ_ONCE(r->consumer_tail);
	bool taken;
	int i;

	s->head = head;
	s->tail = READ_ONCE(r->producer);
	s->cell = READ_ONCE(r->queue[head]);
	s->what = s->cell ? "a pointer: produced, not taken" :
			    "NULL: nothing produced there yet";
	s->in_ring = 0;
	for (i = 0; i < r->size; i++) {
		taken = clear <= head ? i >= clear && i < head :
					i >= clear || i < head;
		s->in_ring += READ_ONCE(r->queue[i]) && !taken;
	}
}

const struct ring_ops ptr_ring_ops = {
	.name = "ptr_ring",
	.variant = "base",
	.create = ptr_create,
	.destroy = ptr_destroy,
	.produce = ptr_produce,
	.consume = ptr_consume,
	.snapshot = ptr_snapshot,
};
