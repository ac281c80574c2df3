// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim RX buffers: one struct ppsim_mode_ops per RX mode, each the way a
 * driver of that kind gets, hands over and gives back its buffers.
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "ppsim.h"

#define PPSIM_O3_ORDER	3
#define PPSIM_O3_BYTES	(PAGE_SIZE << PPSIM_O3_ORDER)

const char * const ppsim_mode_names[PPSIM_MODE_NR] = {
	[PPSIM_MODE_ALLOC] = "alloc",
	[PPSIM_MODE_CACHE] = "cache",
	[PPSIM_MODE_POOL] = "pool",
	[PPSIM_MODE_FRAG] = "frag",
	[PPSIM_MODE_ORDER3] = "order3",
};

static int ppsim_map(struct ppsim_priv *priv, struct page *page, size_t size,
		     dma_addr_t *dma)
{
	if (!priv->use_dma) {
		*dma = 0;
		return 0;
	}
	*dma = dma_map_page(ppsim_dma_dev(priv), page, 0, size,
			    DMA_FROM_DEVICE);
	return dma_mapping_error(ppsim_dma_dev(priv), *dma) ? -ENOMEM : 0;
}

/* Every frame is synced for the CPU by the range the device wrote before
 * it is read, so unmapping never needs to copy: a bounce copy of a whole
 * page would overwrite the skb_shared_info of frames already delivered.
 */
static void ppsim_unmap(struct ppsim_priv *priv, dma_addr_t dma, size_t size)
{
	if (priv->use_dma)
		dma_unmap_page_attrs(ppsim_dma_dev(priv), dma, size,
				     DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
}

/* ---- alloc: a page from the allocator per frame, mapped per frame ---- */

static int ppsim_alloc_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct page *page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);

	if (!page)
		return -ENOMEM;
	if (ppsim_map(q->priv, page, PAGE_SIZE, &b->dma)) {
		put_page(page);
		return -ENOMEM;
	}
	b->page = page;
	b->off = q->priv->headroom;
	b->truesize = PAGE_SIZE;
	return 0;
}

static void ppsim_alloc_handoff(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	ppsim_unmap(q->priv, b->dma, PAGE_SIZE);
}

static void ppsim_alloc_put(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	ppsim_alloc_handoff(q, b);
	put_page(b->page);
}

/* ---- cache: the alloc mode's pages, kept in a driver-local FIFO ---- */

static int ppsim_cache_init(struct ppsim_rxq *q)
{
	q->cache = kvcalloc(PPSIM_CACHE_SIZE, sizeof(*q->cache), GFP_KERNEL);
	return q->cache ? 0 : -ENOMEM;
}

/* A page is reused only when the stack has let go of it (refcount back
 * to the driver's one). The head decides for everyone behind it, which
 * is the head-of-line blocking this mode is here to show.
 */
static int ppsim_cache_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_cache_ent *e;

	if (q->cache_head == q->cache_tail)
		return ppsim_alloc_get(q, b);
	e = &q->cache[q->cache_head % PPSIM_CACHE_SIZE];
	if (page_ref_count(e->page) != 1) {
		ppsim_rx_count(q, &q->stats->cache_busy, 1);
		return ppsim_alloc_get(q, b);
	}
	ppsim_rx_count(q, &q->stats->cache_reuse, 1);
	q->cache_head++;
	b->page = e->page;
	b->dma = e->dma;
	b->off = q->priv->headroom;
	b->truesize = PAGE_SIZE;
	if (q->priv->use_dma)
		dma_sync_single_range_for_device(ppsim_dma_dev(q->priv),
						 b->dma, b->off,
						 PPSIM_FRAME_MAX,
						 DMA_FROM_DEVICE);
	return 0;
}

/* The cache keeps a reference on a page handed to the stack; when it is
 * full the skb takes the last one and the page is unmapped.
 */
static void ppsim_cache_handoff(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_cache_ent *e;

	if (q->cache_tail - q->cache_head == PPSIM_CACHE_SIZE) {
		ppsim_unmap(q->priv, b->dma, PAGE_SIZE);
		return;
	}
	e = &q->cache[q->cache_tail++ % PPSIM_CACHE_SIZE];
	e->page = b->page;
	e->dma = b->dma;
	get_page(b->page);
}

static void ppsim_cache_free(struct ppsim_rxq *q)
{
	struct ppsim_cache_ent *e;

	if (!q->cache)
		return;
	while (q->cache_head != q->cache_tail) {
		e = &q->cache[q->cache_head++ % PPSIM_CACHE_SIZE];
		ppsim_unmap(q->priv, e->dma, PAGE_SIZE);
		put_page(e->page);
	}
	kvfree(q->cache);
	q->cache = NULL;
}

/* ---- pool and frag: page_pool pages, or fragments of them ---- */

#ifndef PAGE_POOL_HAS_ALLOC
/* The benchmarks also build ppsim on 6.1's pool, which lacks the 6.7
 * calls: the same buffers and truesizes from its older ones. Its pages
 * count fragment users only when told to, in a PP_FLAG_PAGE_FRAG pool.
 */
static struct page *page_pool_dev_alloc(struct page_pool *pool,
					unsigned int *offset,
					unsigned int *size)
{
	struct page *page;

	if (*size > PAGE_SIZE / 2) {
		*offset = 0;
		*size = PAGE_SIZE;
		page = page_pool_dev_alloc_pages(pool);
		if (page && (pool->p.flags & PP_FLAG_PAGE_FRAG))
			page_pool_fragment_page(page, 1);
		return page;
	}
	page = page_pool_dev_alloc_frag(pool, offset, *size);
	if (page && pool->frag_offset + *size > PAGE_SIZE) {
		*size = PAGE_SIZE - *offset;
		pool->frag_offset = PAGE_SIZE;
	}
	return page;
}
#endif

static int ppsim_pool_create(struct ppsim_rxq *q, bool frag)
{
	struct ppsim_priv *priv = q->priv;
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = q->size,
		.nid = NUMA_NO_NODE,
		.dev = ppsim_dma_dev(priv),
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool;

#ifdef PAGE_POOL_HAS_NAPI
	/* skbs freed in our poll give their pages straight back. */
	pp.napi = &q->napi;
#endif
#ifdef PAGE_POOL_HAS_NETDEV
	/* Shown under our netdev by the "netdev" netlink family. */
	pp.netdev = priv->ndev;
#endif
	if (priv->use_dma) {
		pp.flags |= PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		/* What the device may write: from the headroom on, a frame. */
		pp.offset = priv->headroom;
		pp.max_len = PPSIM_FRAME_MAX;
	}
	if (frag) {
#ifndef PAGE_POOL_HAS_ALLOC
		pp.flags |= PP_FLAG_PAGE_FRAG;	/* 6.1's pool needs it to cut */
#endif
		/* Fragments sit anywhere in the page: sync all of it. */
		pp.offset = 0;
		pp.max_len = priv->use_dma ? PAGE_SIZE : 0;
	}
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	q->pp = pool;
	return 0;
}

static int ppsim_pool_init(struct ppsim_rxq *q)
{
	return ppsim_pool_create(q, false);
}

static int ppsim_frag_init(struct ppsim_rxq *q)
{
	return ppsim_pool_create(q, true);
}

/* The pool cuts the page and says what each buffer stands for. */
static int ppsim_pool_get_size(struct ppsim_rxq *q, struct ppsim_buf *b,
			       unsigned int size)
{
	unsigned int off;

	b->page = page_pool_dev_alloc(q->pp, &off, &size);
	if (!b->page)
		return -ENOMEM;
	b->dma = q->priv->use_dma ? page_pool_get_dma_addr(b->page) : 0;
	b->off = off + q->priv->headroom;
	b->truesize = size;
	return 0;
}

static int ppsim_pool_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	return ppsim_pool_get_size(q, b, PAGE_SIZE);
}

static int ppsim_frag_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	return ppsim_pool_get_size(q, b, q->priv->stride);
}

static void ppsim_pool_put(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	page_pool_put_full_page(q->pp, b->page, false);
}

/**
 * ppsim_pool_take() - a whole page of the queue's pool, for pp_hold
 * @q: the queue, in pool or frag mode
 *
 * Context: the pool's direct paths are the caller's: NAPI off, BHs off.
 * Return: the page, or NULL when the pool has none to give.
 */
struct page *ppsim_pool_take(struct ppsim_rxq *q)
{
	unsigned int off, size = PAGE_SIZE;

	return page_pool_dev_alloc(q->pp, &off, &size);
}

/* After the queue's XDP memory model, which holds the pool too, is gone. */
static void ppsim_pool_free(struct ppsim_rxq *q)
{
	if (!q->pp)
		return;
#ifdef CONFIG_PAGE_POOL_STATS
	/* The pool's counters go with it: keep them, so that the device's
	 * add up across restarts. What the queue held (its posted buffers,
	 * its TX ring) is back by now; pages still out elsewhere return
	 * after and are not counted.
	 */
	page_pool_get_stats(q->pp, &q->priv->pp_retired);
#endif
	page_pool_destroy(q->pp);
	q->pp = NULL;
}

/* ---- order3: compound pages mapped once, carved into frames ---- */

/* The carver holds the allocation's reference until the last frame
 * takes it over; every other frame gets one of its own. Without the
 * carver's, the page would go back to the allocator once the frames
 * carved so far are freed, which one NAPI poll does to a whole small
 * ring. The last frame carved carries the unmap, which happens when the
 * device has completed it and so every frame before it.
 */
static int ppsim_o3_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_priv *priv = q->priv;
	struct page *page;

	if (!q->o3_page) {
		page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN | __GFP_COMP,
				   PPSIM_O3_ORDER);
		if (!page)
			return -ENOMEM;
		if (ppsim_map(priv, page, PPSIM_O3_BYTES, &q->o3_dma)) {
			put_page(page);
			return -ENOMEM;
		}
		q->o3_page = page;
		q->o3_off = 0;
	}
	b->page = q->o3_page;
	b->dma = q->o3_dma;
	b->off = q->o3_off + priv->headroom;
	b->truesize = priv->stride;
	q->o3_off += priv->stride;
	b->last = q->o3_off + priv->stride > PPSIM_O3_BYTES;
	if (b->last) {
		/* The last frame stands for what is left of the page too. */
		b->truesize += PPSIM_O3_BYTES - q->o3_off;
		q->o3_page = NULL;
	} else {
		get_page(b->page);
	}
	return 0;
}

static void ppsim_o3_handoff(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	if (b->last)
		ppsim_unmap(q->priv, b->dma, PPSIM_O3_BYTES);
}

static void ppsim_o3_put(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	ppsim_o3_handoff(q, b);
	put_page(b->page);
}

/* A page still being carved: its unmap and the carver's reference. */
static void ppsim_o3_free(struct ppsim_rxq *q)
{
	if (!q->o3_page)
		return;
	ppsim_unmap(q->priv, q->o3_dma, PPSIM_O3_BYTES);
	put_page(q->o3_page);
	q->o3_page = NULL;
}

const struct ppsim_mode_ops ppsim_mode_ops[PPSIM_MODE_NR] = {
	[PPSIM_MODE_ALLOC] = {
		.get = ppsim_alloc_get,
		.handoff = ppsim_alloc_handoff,
		.put = ppsim_alloc_put,
	},
	[PPSIM_MODE_CACHE] = {
		.init = ppsim_cache_init,
		.get = ppsim_cache_get,
		.handoff = ppsim_cache_handoff,
		.put = ppsim_alloc_put,
		.free = ppsim_cache_free,
	},
	[PPSIM_MODE_POOL] = {
		.init = ppsim_pool_init,
		.get = ppsim_pool_get,
		.put = ppsim_pool_put,
		.free = ppsim_pool_free,
	},
	[PPSIM_MODE_FRAG] = {
		.init = ppsim_frag_init,
		.get = ppsim_frag_get,
		.put = ppsim_pool_put,
		.free = ppsim_pool_free,
	},
	[PPSIM_MODE_ORDER3] = {
		.get = ppsim_o3_get,
		.handoff = ppsim_o3_handoff,
		.put = ppsim_o3_put,
		.free = ppsim_o3_free,
	},
};
