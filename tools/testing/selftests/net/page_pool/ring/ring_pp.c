// SPDX-License-Identifier: GPL-2.0
/*
 * Our return ring, net/core/page_pool_ring.h compiled unchanged, used
 * as net/core/page_pool.c uses it: a returner stores its pages with
 * one pp_ring_produce() (preemption or softirqs off around it in the
 * kernel, which userspace has no equivalent of), the owner refills its
 * cache with pp_ring_consume().
 */
#include <stdlib.h>
#include "page_pool_ring.h"
#include "ring_ops.h"

/*
 * The pool's owner never reads tail. Reading it on every empty poll, to
 * tell a claimed cell from an empty ring, would pull the producers'
 * line to the consumer about once per pointer when the consumer keeps
 * up, a cost the kernel does not pay: check one empty poll in
 * PP_CLAIMED_EVERY and count each hit for that many.
 */
#define PP_CLAIMED_EVERY	64

struct pp_bench_ring {
	struct pp_ring ring;
	/* The consumer's alone, on a line after the ring's last one. */
	unsigned int empty_polls;
};

static void *pp_create(unsigned int size)
{
	struct pp_bench_ring *b = aligned_alloc(SMP_CACHE_BYTES, sizeof(*b));

	if (!b)
		return NULL;
	memset(b, 0, sizeof(*b));
	if (pp_ring_init(&b->ring, size, 0)) {
		free(b);
		return NULL;
	}
	return b;
}

static void pp_destroy(void *ring)
{
	struct pp_bench_ring *b = ring;

	pp_ring_free(&b->ring);
	free(b);
}

static unsigned int pp_produce(void *ring, void **ptrs, unsigned int n)
{
	struct pp_bench_ring *b = ring;

	return pp_ring_produce(&b->ring, ptrs, n);
}

static unsigned int pp_consume(void *ring, void **out, unsigned int max,
			       bool *claimed)
{
	struct pp_bench_ring *b = ring;
	struct pp_ring *r = &b->ring;
	unsigned int n = pp_ring_consume(r, out, max);

	/* Cells claimed but none taken: some at head are not published. */
	*claimed = !n && !(++b->empty_polls % PP_CLAIMED_EVERY) &&
		   pp_ring_stores(r) != r->head;
	return n;
}

static void pp_snapshot(void *ring, struct wd_ring_state *s)
{
	struct pp_bench_ring *b = ring;

	wd_pp_ring_snapshot(&b->ring, s);
}

const struct ring_ops pp_ring_ops = {
	.name = "pp_ring",
	.variant = "ours",
	.create = pp_create,
	.destroy = pp_destroy,
	.produce = pp_produce,
	.consume = pp_consume,
	.claimed_every = PP_CLAIMED_EVERY,
	.snapshot = pp_snapshot,
};
