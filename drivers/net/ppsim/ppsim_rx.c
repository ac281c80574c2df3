// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim RX path: buffers for each RX mode, the device side that writes
 * frames into them, and NAPI, which hands them to the stack.
 *
 * The device only ever touches a buffer through the address it was given
 * in the descriptor: with DMA that is the DMA address, so under
 * swiotlb=force it writes the bounce buffer and the CPU sees the frame
 * only after a sync, as with real hardware.
 */
#include <linux/bpf.h>
#include <linux/bpf_trace.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/gfp.h>
#include <linux/ip.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#ifdef CONFIG_HAS_DMA
#include <linux/dma-direct.h>
#endif

#include "ppsim.h"
#include "ppsim_wire.h"

#define PPSIM_O3_ORDER	3
#define PPSIM_O3_BYTES	(PAGE_SIZE << PPSIM_O3_ORDER)
#define PPSIM_SHINFO	SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

const char * const ppsim_mode_names[PPSIM_MODE_NR] = {
	[PPSIM_MODE_ALLOC] = "alloc",
	[PPSIM_MODE_CACHE] = "cache",
	[PPSIM_MODE_POOL] = "pool",
	[PPSIM_MODE_FRAG] = "frag",
	[PPSIM_MODE_ORDER3] = "order3",
};

static struct device *ppsim_dma_dev(struct ppsim_priv *priv)
{
	return &priv->pdev->dev;
}

static bool ppsim_mode_has_pool(enum ppsim_mode mode)
{
	return mode == PPSIM_MODE_POOL || mode == PPSIM_MODE_FRAG;
}

/* ---- buffers, one set of helpers per mode ---- */

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

static int ppsim_alloc_page_buf(struct ppsim_rxq *q, struct ppsim_buf *b)
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

/* Adds @n to one RX counter of @q, in a write section of its own. The
 * poll is the counters' only writer; on 64-bit machines the section
 * costs nothing.
 */
static void ppsim_rx_count(struct ppsim_rxq *q, u64_stats_t *counter, u64 n)
{
	u64_stats_update_begin(&q->stats->syncp);
	u64_stats_add(counter, n);
	u64_stats_update_end(&q->stats->syncp);
}

/* The driver-local FIFO cache: a page is reused only when the stack has
 * let go of it (refcount back to the driver's one). The head decides for
 * everyone behind it, which is the head-of-line blocking this mode is
 * here to show.
 */
static int ppsim_cache_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_cache_ent *e;

	if (q->cache_head != q->cache_tail) {
		e = &q->cache[q->cache_head % PPSIM_CACHE_SIZE];
		if (page_ref_count(e->page) != 1) {
			ppsim_rx_count(q, &q->stats->cache_busy, 1);
		} else {
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
	}
	return ppsim_alloc_page_buf(q, b);
}

/* Keeps a reference on a page handed to the stack; false if full. */
static bool ppsim_cache_put(struct ppsim_rxq *q, struct page *page,
			    dma_addr_t dma)
{
	struct ppsim_cache_ent *e;

	if (q->cache_tail - q->cache_head == PPSIM_CACHE_SIZE)
		return false;
	e = &q->cache[q->cache_tail++ % PPSIM_CACHE_SIZE];
	e->page = page;
	e->dma = dma;
	get_page(page);
	return true;
}

static void ppsim_cache_drain(struct ppsim_rxq *q)
{
	struct ppsim_cache_ent *e;

	while (q->cache_head != q->cache_tail) {
		e = &q->cache[q->cache_head++ % PPSIM_CACHE_SIZE];
		ppsim_unmap(q->priv, e->dma, PAGE_SIZE);
		put_page(e->page);
	}
}

/* order3: one compound page mapped once and carved into frames. The
 * carver holds the allocation's reference until the last frame takes it
 * over; every other frame gets one of its own. Without the carver's, the
 * page would go back to the allocator once the frames carved so far are
 * freed, which one NAPI poll does to a whole small ring. The last frame
 * carved carries the unmap, which happens when the device has completed
 * it and so every frame before it.
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

static void page_pool_dma_sync_for_cpu(const struct page_pool *pool,
				       struct page *page, u32 offset, u32 len)
{
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr(page),
				      pool->p.offset + offset, len,
				      pool->p.dma_dir);
}
#endif

/* A whole page in pool mode, a buffer of one stride in frag mode: the
 * pool cuts the page and says what each buffer stands for.
 */
static int ppsim_pool_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_priv *priv = q->priv;
	unsigned int off, size;

	size = priv->mode == PPSIM_MODE_FRAG ? priv->stride : PAGE_SIZE;
	b->page = page_pool_dev_alloc(q->pp, &off, &size);
	if (!b->page)
		return -ENOMEM;
	b->dma = priv->use_dma ? page_pool_get_dma_addr(b->page) : 0;
	b->off = off + priv->headroom;
	b->truesize = size;
	return 0;
}

static int ppsim_buf_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	b->last = false;
	switch (q->priv->mode) {
	case PPSIM_MODE_ALLOC:
		return ppsim_alloc_page_buf(q, b);
	case PPSIM_MODE_CACHE:
		return ppsim_cache_get(q, b);
	case PPSIM_MODE_POOL:
	case PPSIM_MODE_FRAG:
		return ppsim_pool_get(q, b);
	case PPSIM_MODE_ORDER3:
		return ppsim_o3_get(q, b);
	default:
		return -EINVAL;
	}
}

/* Gives back a posted buffer that never reached the stack. */
static void ppsim_buf_put(struct ppsim_rxq *q, struct ppsim_buf *b,
			  bool in_napi)
{
	struct ppsim_priv *priv = q->priv;

	switch (priv->mode) {
	case PPSIM_MODE_POOL:
	case PPSIM_MODE_FRAG:
		page_pool_put_full_page(q->pp, b->page, in_napi);
		break;
	case PPSIM_MODE_ORDER3:
		if (b->last)
			ppsim_unmap(priv, b->dma, PPSIM_O3_BYTES);
		put_page(b->page);
		break;
	default:
		ppsim_unmap(priv, b->dma, PAGE_SIZE);
		put_page(b->page);
		break;
	}
	b->page = NULL;
}

/* ---- the device: where it writes, and its completions ---- */

static void *ppsim_dev_addr(struct ppsim_priv *priv, const struct ppsim_buf *b)
{
#ifdef CONFIG_HAS_DMA
	if (priv->use_dma)
		return phys_to_virt(dma_to_phys(ppsim_dma_dev(priv),
						b->dma + b->off));
#endif
	return page_address(b->page) + b->off;
}

/* The next posted buffer the device may write, or NULL. */
static struct ppsim_buf *ppsim_dev_next(struct ppsim_rxq *q)
{
	/* Pairs with ppsim_refill()'s release: the descriptor is complete. */
	if (q->fill == smp_load_acquire(&q->post))
		return NULL;
	return &q->ring[q->fill & q->mask];
}

/* Writes the completion for the buffer at fill and raises the "IRQ". */
static void ppsim_dev_complete(struct ppsim_rxq *q, u32 len)
{
	q->cq[q->fill & q->mask].len = len;
	q->fill++;
	/* The frame and its length before the index NAPI reads them by. */
	smp_store_release(&q->done, q->fill);
	napi_schedule(&q->napi);
}

/* ---- NAPI ---- */

static void ppsim_refill(struct ppsim_rxq *q)
{
	u32 post = q->post;
	int err = 0;

	while (post - q->cons < q->size) {
		err = ppsim_buf_get(q, &q->ring[post & q->mask]);
		if (err)
			break;
		post++;
	}
	if (err)
		ppsim_rx_count(q, &q->stats->alloc_fail, 1);
	/* The device may use a descriptor only once it is complete. */
	smp_store_release(&q->post, post);
}

static void ppsim_sync_for_cpu(struct ppsim_rxq *q, const struct ppsim_buf *b,
			       u32 len)
{
	struct ppsim_priv *priv = q->priv;

	if (!priv->use_dma)
		return;
	/* The pool's helper counts from where its device window starts. */
	if (ppsim_mode_has_pool(priv->mode))
		page_pool_dma_sync_for_cpu(q->pp, b->page,
					   b->off - q->pp->p.offset, len);
	else
		dma_sync_single_range_for_cpu(ppsim_dma_dev(priv), b->dma,
					      b->off, len, DMA_FROM_DEVICE);
}

/* The buffer leaves the ring for good (to an skb or an xdp_frame): what
 * each mode must do first. Afterwards freeing its data, by the skb or
 * xdp_return_frame(), is enough to give it back.
 */
static void ppsim_buf_handoff(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_priv *priv = q->priv;

	switch (priv->mode) {
	case PPSIM_MODE_ALLOC:
		ppsim_unmap(priv, b->dma, PAGE_SIZE);
		break;
	case PPSIM_MODE_CACHE:
		/* Not cached when full: then the skb takes the last ref. */
		if (!ppsim_cache_put(q, b->page, b->dma))
			ppsim_unmap(priv, b->dma, PAGE_SIZE);
		break;
	case PPSIM_MODE_ORDER3:
		if (b->last)
			ppsim_unmap(priv, b->dma, PPSIM_O3_BYTES);
		break;
	default:
		break;
	}
}

/* Frees a handed-off buffer whose frame went nowhere. */
static void ppsim_buf_free(struct ppsim_rxq *q, struct page *page)
{
	if (ppsim_mode_has_pool(q->priv->mode))
		page_pool_put_full_page(q->pp, page, true);
	else
		put_page(page);
}

/* Builds the skb around a handed-off buffer, @headroom and @len from
 * where XDP left the frame.
 */
static struct sk_buff *ppsim_build_skb(struct ppsim_rxq *q,
				       struct ppsim_buf *b, u32 headroom,
				       u32 len)
{
	struct ppsim_priv *priv = q->priv;
	void *start = page_address(b->page) + b->off - priv->headroom;
	struct sk_buff *skb;

	skb = build_skb(start, b->truesize);
	if (unlikely(!skb)) {
		ppsim_buf_free(q, b->page);
		return NULL;
	}
	if (ppsim_mode_has_pool(priv->mode))
		skb_mark_for_recycle(skb);
	skb_reserve(skb, headroom);
	skb_put(skb, len);
	return skb;
}

static void ppsim_tx_count(struct ppsim_rxq *q, u32 full, u32 done)
{
	struct ppsim_rxq_stats *st = q->stats;

	u64_stats_update_begin(&st->tx_syncp);
	u64_stats_add(&st->xdp_tx_full, full);
	u64_stats_add(&st->xdp_tx_done, done);
	u64_stats_update_end(&st->tx_syncp);
}

/* Puts a frame on the TX ring; false if the ring is full. Caller holds
 * tx_lock.
 */
static bool ppsim_tx_put(struct ppsim_rxq *q, struct xdp_frame *f, bool xmit)
{
	struct ppsim_tx_ent *e;

	if (q->tx_tail - q->tx_head == PPSIM_XDP_TX_RING)
		return false;
	e = &q->tx_ring[q->tx_tail++ % PPSIM_XDP_TX_RING];
	e->frame = f;
	e->xmit = xmit;
	return true;
}

/* Queues an XDP_TX frame for the TX ring: 0, -ENOSPC when the ring is
 * full (counted in xdp_tx_full), or -ENOMEM when the frame has no room
 * for its xdp_frame.
 */
static int ppsim_xdp_tx(struct ppsim_rxq *q, struct xdp_buff *xdp)
{
	struct xdp_frame *f;
	bool queued;

	f = xdp_convert_buff_to_frame(xdp);
	if (unlikely(!f))
		return -ENOMEM;
	spin_lock(&q->tx_lock);
	queued = ppsim_tx_put(q, f, false);
	if (!queued)
		ppsim_tx_count(q, 1, 0);
	spin_unlock(&q->tx_lock);
	return queued ? 0 : -ENOSPC;
}

/* The device copies a frame into the next posted buffer of @q, as its
 * wire's far end sends it back: 0, -ENOBUFS when no buffer is posted
 * yet, or -EINVAL when the frame is too long or the queue is stopping
 * (it is then dropped).
 */
static int ppsim_loopback(struct ppsim_rxq *q, struct xdp_frame *f)
{
	struct ppsim_buf *b;
	int err = -EINVAL;

	spin_lock(&q->dev_lock);
	if (!q->stopping && f->len <= PPSIM_FRAME_MAX) {
		b = ppsim_dev_next(q);
		err = -ENOBUFS;
		if (b) {
			memcpy(ppsim_dev_addr(q->priv, b), f->data, f->len);
			ppsim_dev_complete(q, f->len);
			err = 0;
		}
	}
	spin_unlock(&q->dev_lock);
	return err;
}

/* End of a NAPI poll with budget: unless TX is stalled, the device sends
 * what the TX ring holds and completes it at once. Our own XDP_TX pages
 * go back to the pool's cache, as only this queue's NAPI may do; frames
 * from other devices are looped back into this queue and returned to
 * their owner through the path any context may take. A frame that finds
 * no posted RX buffer stays on the ring, with those after it, for the
 * next poll: the caller refills and polls again.
 *
 * Return: true when frames were left on the ring.
 */
static bool ppsim_tx_complete(struct ppsim_rxq *q)
{
	struct ppsim_priv *priv = q->priv;
	u32 done = 0, sent = 0, lost = 0;
	struct ppsim_tx_ent *e;
	bool more = false;
	int err;

	spin_lock(&q->tx_lock);
	/* Read under the lock: see ppsim_xdp_xmit() and ppsim_tx_kick(). */
	if (!READ_ONCE(priv->tx_stall)) {
		for (; q->tx_head != q->tx_tail; q->tx_head++, done++) {
			e = &q->tx_ring[q->tx_head % PPSIM_XDP_TX_RING];
			if (!e->xmit) {
				xdp_return_frame_rx_napi(e->frame);
				continue;
			}
			err = ppsim_loopback(q, e->frame);
			if (err == -ENOBUFS) {
				more = true;
				break;
			}
			if (err)
				lost++;
			else
				sent++;
			xdp_return_frame(e->frame);
		}
		if (done)
			ppsim_tx_count(q, 0, done);
	}
	spin_unlock(&q->tx_lock);
	if (sent)
		atomic64_add(sent, &priv->xdp_xmit);
	if (lost)
		atomic64_add(lost, &priv->xdp_xmit_drop);
	return more;
}

/* Teardown: the queue's NAPI is stopped and nothing can send to it any
 * more. The frames still on the TX ring are not sent; they go back to
 * their owners: this queue's pool, the page allocator, or the pool of
 * another device, or of another queue of ours, that redirected them to
 * us. With its NAPI stopped this queue's own pool is ours and could take
 * its pages directly, but a foreign pool's cache belongs to its NAPI,
 * which may be running: those frames must take the path any context
 * may, and xdp_return_frame() does that for all of them. Runs before
 * the queue's pool is destroyed, so that the pool can be freed at once,
 * and counts the frames as done.
 */
static void ppsim_xdp_tx_release(struct ppsim_rxq *q)
{
	struct ppsim_tx_ent *e;
	u32 done = 0, lost = 0;

	spin_lock_bh(&q->tx_lock);
	for (; q->tx_head != q->tx_tail; q->tx_head++, done++) {
		e = &q->tx_ring[q->tx_head % PPSIM_XDP_TX_RING];
		if (e->xmit)
			lost++;
		xdp_return_frame(e->frame);
	}
	if (done)
		ppsim_tx_count(q, 0, done);
	spin_unlock_bh(&q->tx_lock);
	if (lost)
		atomic64_add(lost, &q->priv->xdp_xmit_drop);
}

/**
 * ppsim_tx_kick() - have every queue complete what its TX ring holds
 * @priv: the device
 *
 * Called when TX resumes (tx_stall cleared): each queue's NAPI is
 * scheduled, and its end of poll sends and completes the frames held.
 *
 * Context: process, RTNL held.
 */
void ppsim_tx_kick(struct ppsim_priv *priv)
{
	u32 i;

	ASSERT_RTNL();
	if (!priv->rxq)
		return;
	/* Run the NAPIs from the softirq at the bh enable. */
	local_bh_disable();
	for (i = 0; i < priv->num_rxq; i++)
		napi_schedule(&priv->rxq[i].napi);
	local_bh_enable();
}

/* Runs the XDP program on the frame. Returns true when the frame is to
 * go up the stack, with @headroom and @len as the program left them;
 * otherwise the frame has been dropped, sent or redirected.
 */
static bool ppsim_run_xdp(struct ppsim_rxq *q, struct bpf_prog *prog,
			  struct ppsim_buf *b, u32 *headroom, u32 *len)
{
	struct ppsim_priv *priv = q->priv;
	void *start = page_address(b->page) + b->off - priv->headroom;
	struct ppsim_rxq_stats *st = q->stats;
	struct xdp_buff xdp;
	u32 act;
	int err;

	xdp_init_buff(&xdp, b->truesize, &q->xdp_rxq);
	xdp_prepare_buff(&xdp, start, priv->headroom, *len, false);
	act = bpf_prog_run_xdp(prog, &xdp);

	switch (act) {
	case XDP_PASS:
		*headroom = xdp.data - xdp.data_hard_start;
		*len = xdp.data_end - xdp.data;
		ppsim_rx_count(q, &st->xdp_pass, 1);
		return true;
	case XDP_TX:
		ppsim_buf_handoff(q, b);
		err = ppsim_xdp_tx(q, &xdp);
		if (!err) {
			ppsim_rx_count(q, &st->xdp_tx, 1);
			return false;
		}
		ppsim_buf_free(q, b->page);
		/* A full TX ring is counted in xdp_tx_full, not an error. */
		if (err == -ENOSPC)
			return false;
		goto aborted;
	case XDP_REDIRECT:
		ppsim_buf_handoff(q, b);
		if (!xdp_do_redirect(priv->ndev, &xdp, prog)) {
			q->xdp_flush = true;
			ppsim_rx_count(q, &st->xdp_redirect, 1);
			return false;
		}
		ppsim_buf_free(q, b->page);
		goto aborted;
	case XDP_DROP:
		ppsim_buf_handoff(q, b);
		ppsim_buf_free(q, b->page);
		ppsim_rx_count(q, &st->xdp_drop, 1);
		return false;
	default:
		bpf_warn_invalid_xdp_action(priv->ndev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		ppsim_buf_handoff(q, b);
		ppsim_buf_free(q, b->page);
		break;
	}
aborted:
	trace_xdp_exception(priv->ndev, prog, act);
	ppsim_rx_count(q, &st->xdp_aborted, 1);
	return false;
}

static void ppsim_rx_one(struct ppsim_rxq *q, struct ppsim_buf *b, u32 len)
{
	struct net_device *ndev = q->priv->ndev;
	struct ppsim_rxq_stats *st = q->stats;
	u32 headroom = q->priv->headroom;
	struct sk_buff *skb = NULL;
	bool pass = true;

	ppsim_sync_for_cpu(q, b, len);
	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->packets);
	u64_stats_add(&st->bytes, len);
	u64_stats_update_end(&st->syncp);
	if (q->xdp_prog)
		pass = ppsim_run_xdp(q, q->xdp_prog, b, &headroom, &len);
	if (pass) {
		ppsim_buf_handoff(q, b);
		skb = ppsim_build_skb(q, b, headroom, len);
		if (!skb)
			ppsim_rx_count(q, &st->drops, 1);
	}
	b->page = NULL;
	if (!skb)
		return;

	skb->protocol = eth_type_trans(skb, ndev);
	skb_record_rx_queue(skb, q->index);
	napi_gro_receive(&q->napi, skb);
}

static void ppsim_wire_kick(struct ppsim_rxq *q)
{
	if (READ_ONCE(q->wire_left))
		queue_delayed_work(system_unbound_wq, &q->wire_work, 0);
}

static int ppsim_poll(struct napi_struct *napi, int budget)
{
	struct ppsim_rxq *q = container_of(napi, struct ppsim_rxq, napi);
	/* Pairs with the device's release: the frames before done are written. */
	u32 done = smp_load_acquire(&q->done);
	bool tx_more = false;
	int work = 0;

	while (work < budget && q->cons != done) {
		struct ppsim_buf *b = &q->ring[q->cons & q->mask];

		ppsim_rx_one(q, b, READ_ONCE(q->cq[q->cons & q->mask].len));
		q->cons++;
		work++;
	}
	/* Budget 0 (netpoll, maybe from hard IRQ): no XDP and no pool
	 * access, whose direct paths belong to a NAPI poll proper.
	 */
	if (budget) {
		tx_more = ppsim_tx_complete(q);
		if (q->xdp_flush) {
			xdp_do_flush();
			q->xdp_flush = false;
		}
		ppsim_refill(q);
	}
	ppsim_wire_kick(q);

	/* Nothing posted at all (allocation failed), or TX frames wait
	 * for RX buffers (the refill above posted them): keep polling.
	 */
	if (q->post == q->cons || tx_more)
		return budget;
	if (work < budget)
		napi_complete_done(napi, work);
	return work;
}

/* ---- the device ---- */

static void ppsim_wire_frame(struct ppsim_rxq *q, u8 *p, u32 len)
{
	struct ppsim_wire_hdr *h = (void *)(p + PPSIM_WIRE_L4_END);
	u32 seq = q->wire_seq++;
	u32 i, csum;

	memcpy(p, q->wire_tmpl, PPSIM_WIRE_L4_END);
	h->magic = htonl(PPSIM_WIRE_MAGIC);
	h->queue = htons(q->index);
	h->len = htons(len);
	h->seq = htonl(seq);
	for (i = 0; i < len - PPSIM_WIRE_PAYLOAD; i++)
		p[PPSIM_WIRE_PAYLOAD + i] = ppsim_wire_byte(seq, i);
	csum = ppsim_wire_csum(PPSIM_WIRE_CSUM_SEED, (const u8 *)h,
			       offsetof(struct ppsim_wire_hdr, csum));
	csum = ppsim_wire_csum(csum, p + PPSIM_WIRE_PAYLOAD,
			       len - PPSIM_WIRE_PAYLOAD);
	h->csum = htonl(csum);
}

/* Frames the wire may write now at @rate frames/s, at most a batch.
 * Late by more than a ring's worth (it waited that long for buffers),
 * it starts its pace again rather than burst.
 */
static u32 ppsim_wire_due(struct ppsim_rxq *q, u32 rate)
{
	u64 now = ktime_get_ns(), due;

	if (q->wire_rate != rate) {
		q->wire_rate = rate;
		q->wire_t0 = now;
		q->wire_sent = 0;
	}
	if (!rate)
		return PPSIM_WIRE_BATCH;
	due = mul_u64_u64_div_u64(now - q->wire_t0, rate, NSEC_PER_SEC);
	if (due > q->wire_sent + q->size) {
		q->wire_t0 = now;
		q->wire_sent = 0;
		return 0;
	}
	return min_t(u64, due - min(due, q->wire_sent), PPSIM_WIRE_BATCH);
}

/* Jiffies until the next frame is due; at least one. */
static unsigned long ppsim_wire_wait(struct ppsim_rxq *q)
{
	u64 now = ktime_get_ns(), next;

	next = q->wire_t0 + mul_u64_u64_div_u64(q->wire_sent + 1,
						NSEC_PER_SEC, q->wire_rate);
	return nsecs_to_jiffies(next > now ? next - now : 0) + 1;
}

/* The wire: writes up to a batch of frames into posted buffers, then
 * lets NAPI run. Stops when the ring has no posted buffer; NAPI kicks it
 * again once it has refilled. With a rate it comes back when the next
 * frame is due, so fast rates go in bursts of one jiffy's frames.
 */
static void ppsim_wire_work(struct work_struct *work)
{
	struct ppsim_rxq *q = container_of(to_delayed_work(work),
					   struct ppsim_rxq, wire_work);
	unsigned long wait = 0;
	struct ppsim_buf *b;
	u32 n, due;

	do {
		n = 0;
		spin_lock_bh(&q->dev_lock);
		due = ppsim_wire_due(q, READ_ONCE(q->priv->wire_rate));
		while (!q->stopping && q->wire_left && n < due) {
			b = ppsim_dev_next(q);
			if (!b)
				break;
			ppsim_wire_frame(q, ppsim_dev_addr(q->priv, b),
					 q->wire_len);
			ppsim_dev_complete(q, q->wire_len);
			WRITE_ONCE(q->wire_left, q->wire_left - 1);
			n++;
		}
		q->wire_sent += n;
		/* Held back by the pace, not by a lack of buffers. */
		if (q->wire_rate && q->wire_left && n == due &&
		    due < PPSIM_WIRE_BATCH)
			wait = ppsim_wire_wait(q);
		spin_unlock_bh(&q->dev_lock);
		cond_resched();
	} while (n == PPSIM_WIRE_BATCH);
	if (wait)
		queue_delayed_work(system_unbound_wq, &q->wire_work, wait);
}

static void ppsim_wire_template(struct ppsim_rxq *q, u32 len)
{
	struct ethhdr *eth = (void *)q->wire_tmpl;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *uh = (void *)(iph + 1);

	memset(q->wire_tmpl, 0, sizeof(q->wire_tmpl));
	ether_addr_copy(eth->h_dest, q->priv->ndev->dev_addr);
	eth_zero_addr(eth->h_source);
	eth->h_source[0] = 0x02;	/* locally administered */
	eth->h_source[5] = 0x01;
	eth->h_proto = htons(ETH_P_IP);
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->tot_len = htons(len - ETH_HLEN);
	iph->saddr = htonl(PPSIM_WIRE_SADDR);
	iph->daddr = htonl(PPSIM_WIRE_DADDR);
	iph->check = ip_fast_csum(iph, iph->ihl);
	uh->source = htons(PPSIM_WIRE_SPORT + q->index);
	uh->dest = htons(PPSIM_WIRE_DPORT);
	uh->len = htons(len - ETH_HLEN - sizeof(*iph));
	/* UDP over IPv4 may leave its checksum out: ours is in the payload. */
}

/**
 * ppsim_wire_start() - have the far end send frames to every RX queue
 * @priv: the device, up
 * @frames: frames for each queue, added to any not sent yet
 * @len: their length, Ethernet header included, no FCS
 *
 * Context: process, RTNL held.
 * Return: 0, -ENETDOWN when the device is down, -EINVAL for a length
 * outside PPSIM_FRAME_MIN..PPSIM_FRAME_MAX or a change of length while
 * frames of another length are still queued.
 */
int ppsim_wire_start(struct ppsim_priv *priv, u32 frames, u32 len)
{
	struct ppsim_rxq *q;
	int err = 0;
	u32 i;

	ASSERT_RTNL();
	if (!netif_running(priv->ndev) || !priv->rxq)
		return -ENETDOWN;
	if (len < PPSIM_FRAME_MIN || len > PPSIM_FRAME_MAX)
		return -EINVAL;
	for (i = 0; i < priv->num_rxq; i++) {
		q = &priv->rxq[i];
		spin_lock_bh(&q->dev_lock);
		if (q->wire_left && q->wire_len != len) {
			err = -EINVAL;
		} else {
			/* An idle wire starts its pace now: no credit. */
			if (!q->wire_left) {
				q->wire_t0 = ktime_get_ns();
				q->wire_sent = 0;
			}
			ppsim_wire_template(q, len);
			q->wire_len = len;
			WRITE_ONCE(q->wire_left, q->wire_left + frames);
		}
		spin_unlock_bh(&q->dev_lock);
		if (err)
			return err;
		ppsim_wire_kick(q);
	}
	return 0;
}

/**
 * ppsim_wire_left() - frames the wire has yet to write, all queues
 * @priv: the device
 *
 * Context: RTNL held.
 * Return: the number of frames; 0 when the device is down.
 */
u32 ppsim_wire_left(struct ppsim_priv *priv)
{
	u32 i, left = 0;

	ASSERT_RTNL();
	if (!priv->rxq)
		return 0;
	for (i = 0; i < priv->num_rxq; i++)
		left += READ_ONCE(priv->rxq[i].wire_left);
	return left;
}

/**
 * ppsim_xmit() - the TX side: loops every frame back to an RX queue
 * @skb: the frame
 * @ndev: the device
 *
 * The device copies the frame into the next posted buffer of the queue
 * the stack chose, as its far end would; without a posted buffer the
 * frame is dropped and counted.
 *
 * Return: NETDEV_TX_OK.
 */
netdev_tx_t ppsim_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	struct ppsim_rxq *q;
	struct ppsim_buf *b;
	bool sent = false;

	q = &priv->rxq[skb_get_queue_mapping(skb) % priv->num_rxq];
	if (skb->len >= ETH_HLEN && skb->len <= PPSIM_FRAME_MAX) {
		spin_lock(&q->dev_lock);
		b = q->stopping ? NULL : ppsim_dev_next(q);
		if (b && !skb_copy_bits(skb, 0, ppsim_dev_addr(priv, b),
					skb->len)) {
			ppsim_dev_complete(q, skb->len);
			sent = true;
		}
		spin_unlock(&q->dev_lock);
	}
	if (!sent)
		atomic64_inc(&priv->tx_dropped);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/**
 * ppsim_xdp_xmit() - frames redirected to this device by XDP
 * @ndev: the device
 * @n: how many
 * @frames: the frames
 * @flags: XDP_XMIT_FLUSH or 0; the device sends at once either way
 *
 * Like the skb TX side, the device loops them back into an RX queue (the
 * one of the sending CPU), as its wire's far end would send them back.
 * The frames are returned to their owner once copied. While tx_stall is
 * set they are held on that queue's XDP TX ring instead, as far as it
 * has room, and sent when TX resumes (or released when the queue stops).
 *
 * Context: the NAPI of the device whose program redirected the frames,
 * another device or this one (a redirect to the device itself, from any
 * of its queues to the sending CPU's); RCU read side.
 * Return: the number of frames sent or held, the rest are the caller's
 * to free; -ENETDOWN when the device is down, -EINVAL for unknown flags.
 */
int ppsim_xdp_xmit(struct net_device *ndev, int n, struct xdp_frame **frames,
		   u32 flags)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	struct ppsim_rxq *q;
	struct ppsim_buf *b;
	int i;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	/* Pairs with the release in ppsim_queues_start(): rxq is set. */
	if (!smp_load_acquire(&priv->xmit_ok))
		return -ENETDOWN;
	q = &priv->rxq[smp_processor_id() % priv->num_rxq];
	/* The stall is read under the ring's lock: once tx_stall is
	 * cleared, a NAPI poll that takes the lock after us completes
	 * what we put on the ring.
	 */
	spin_lock(&q->tx_lock);
	if (READ_ONCE(priv->tx_stall)) {
		for (i = 0; i < n; i++)
			if (!ppsim_tx_put(q, frames[i], true))
				break;
		if (i < n)
			ppsim_tx_count(q, n - i, 0);
		spin_unlock(&q->tx_lock);
		atomic64_add(n - i, &priv->xdp_xmit_drop);
		return i;
	}
	spin_unlock(&q->tx_lock);

	spin_lock(&q->dev_lock);
	for (i = 0; i < n && !q->stopping; i++) {
		b = ppsim_dev_next(q);
		if (!b || frames[i]->len > PPSIM_FRAME_MAX)
			break;
		memcpy(ppsim_dev_addr(priv, b), frames[i]->data,
		       frames[i]->len);
		ppsim_dev_complete(q, frames[i]->len);
		xdp_return_frame(frames[i]);
	}
	spin_unlock(&q->dev_lock);
	atomic64_add(i, &priv->xdp_xmit);
	atomic64_add(n - i, &priv->xdp_xmit_drop);
	return i;
}

/* ---- queues: bring-up and teardown ---- */

static int ppsim_pool_create(struct ppsim_rxq *q)
{
	struct ppsim_priv *priv = q->priv;
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = q->size,
		.nid = NUMA_NO_NODE,
		.dev = ppsim_dma_dev(priv),
		.dma_dir = DMA_FROM_DEVICE,
	};

#ifdef PAGE_POOL_HAS_NAPI
	/* skbs freed in our poll give their pages straight back. */
	pp.napi = &q->napi;
#endif
	if (priv->use_dma) {
		pp.flags |= PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		/* What the device may write: from the headroom on, a frame. */
		pp.offset = priv->headroom;
		pp.max_len = PPSIM_FRAME_MAX;
	}
	if (priv->mode == PPSIM_MODE_FRAG) {
#ifndef PAGE_POOL_HAS_ALLOC
		pp.flags |= PP_FLAG_PAGE_FRAG;	/* 6.1's pool needs it to cut */
#endif
		/* Fragments sit anywhere in the page: sync all of it. */
		pp.offset = 0;
		pp.max_len = priv->use_dma ? PAGE_SIZE : 0;
	}
	q->pp = page_pool_create(&pp);
	if (IS_ERR(q->pp)) {
		int err = PTR_ERR(q->pp);

		q->pp = NULL;
		return err;
	}
	return 0;
}

/* XDP needs the queue's memory model to give frames back to it. */
static int ppsim_xdp_rxq_reg(struct ppsim_rxq *q)
{
	int err;

	err = xdp_rxq_info_reg(&q->xdp_rxq, q->priv->ndev, q->index,
			       q->napi.napi_id);
	if (err)
		return err;
	/* Without a pool a frame holds one reference to its page, which
	 * xdp_return_frame() drops with put_page(): an order3 frame's too,
	 * as put_page() of a tail page drops the compound page's.
	 */
	if (q->pp)
		err = xdp_rxq_info_reg_mem_model(&q->xdp_rxq,
						 MEM_TYPE_PAGE_POOL, q->pp);
	else
		err = xdp_rxq_info_reg_mem_model(&q->xdp_rxq,
						 MEM_TYPE_PAGE_ORDER0, NULL);
	if (err) {
		xdp_rxq_info_unreg(&q->xdp_rxq);
		return err;
	}
	q->xdp_rxq_reg = true;
	return 0;
}

static void ppsim_rxq_free(struct ppsim_rxq *q)
{
	struct ppsim_priv *priv = q->priv;

	/* Frames held for TX may be pages of the pool destroyed below. */
	ppsim_xdp_tx_release(q);
	/* A page still being carved: its unmap and the carver's reference. */
	if (q->o3_page) {
		ppsim_unmap(priv, q->o3_dma, PPSIM_O3_BYTES);
		put_page(q->o3_page);
		q->o3_page = NULL;
	}
	for (; q->cons != q->post; q->cons++)
		ppsim_buf_put(q, &q->ring[q->cons & q->mask], false);
	ppsim_cache_drain(q);
	/* Unregistering a pool's memory model drops the model's hold on it. */
	if (q->xdp_rxq_reg)
		xdp_rxq_info_unreg(&q->xdp_rxq);
	q->xdp_rxq_reg = false;
#ifdef CONFIG_PAGE_POOL_STATS
	/* The pool's counters go with it: keep them, so that the device's
	 * add up across restarts. What the queue held (its posted buffers,
	 * its TX ring) is back by now; pages still out elsewhere return
	 * after and are not counted.
	 */
	if (q->pp)
		page_pool_get_stats(q->pp, &priv->pp_retired);
#endif
	if (q->pp)
		page_pool_destroy(q->pp);
	q->pp = NULL;
	kvfree(q->cache);
	kvfree(q->cq);
	kvfree(q->ring);
}

static int ppsim_rxq_init(struct ppsim_priv *priv, struct ppsim_rxq *q, u16 i)
{
	u32 entries = roundup_pow_of_two(priv->ring_size);
	int err;

	q->priv = priv;
	q->index = i;
	q->size = priv->ring_size;
	q->mask = entries - 1;
	q->stats = &priv->stats[i];
	q->xdp_prog = priv->xdp_prog;
	spin_lock_init(&q->dev_lock);
	spin_lock_init(&q->tx_lock);
	INIT_DELAYED_WORK(&q->wire_work, ppsim_wire_work);

	q->ring = kvcalloc(entries, sizeof(*q->ring), GFP_KERNEL);
	q->cq = kvcalloc(entries, sizeof(*q->cq), GFP_KERNEL);
	if (priv->mode == PPSIM_MODE_CACHE)
		q->cache = kvcalloc(PPSIM_CACHE_SIZE, sizeof(*q->cache),
				    GFP_KERNEL);
	if (!q->ring || !q->cq ||
	    (priv->mode == PPSIM_MODE_CACHE && !q->cache)) {
		err = -ENOMEM;
		goto err_free;
	}
	/* Before the pool, which looks at the NAPI once linked to it. */
	netif_napi_add(priv->ndev, &q->napi, ppsim_poll);
	if (ppsim_mode_has_pool(priv->mode)) {
		err = ppsim_pool_create(q);
		if (err)
			goto err_napi;
	}
	/* NAPI is not running yet: the pool's direct paths are ours. */
	local_bh_disable();
	ppsim_refill(q);
	local_bh_enable();
	if (q->post != q->size) {
		err = -ENOMEM;
		goto err_napi;
	}
	err = ppsim_xdp_rxq_reg(q);
	if (err)
		goto err_napi;
	return 0;

err_napi:
	netif_napi_del(&q->napi);
err_free:
	ppsim_rxq_free(q);
	return err;
}

static void ppsim_rxq_stop(struct ppsim_rxq *q)
{
	spin_lock_bh(&q->dev_lock);
	q->stopping = true;
	WRITE_ONCE(q->wire_left, 0);
	spin_unlock_bh(&q->dev_lock);
	cancel_delayed_work_sync(&q->wire_work);
	napi_disable(&q->napi);
	netif_napi_del(&q->napi);
	ppsim_rxq_free(q);
}

static void ppsim_layout(struct ppsim_priv *priv)
{
	/* XDP may grow the frame at its head: give it the room it expects. */
	priv->headroom = priv->xdp_prog ? XDP_PACKET_HEADROOM :
					  NET_SKB_PAD + NET_IP_ALIGN;
	priv->stride = SKB_DATA_ALIGN(priv->headroom + PPSIM_FRAME_MAX) +
		       PPSIM_SHINFO;
}

/**
 * ppsim_queues_start() - allocate, fill and start every RX queue
 * @priv: the device
 *
 * Context: process, RTNL held.
 * Return: 0, or -ENOMEM (or the pool's error) with nothing left behind.
 */
int ppsim_queues_start(struct ppsim_priv *priv)
{
	struct ppsim_rxq *rxq;
	int err;
	u32 i;

	ppsim_layout(priv);
	rxq = kcalloc(priv->num_rxq, sizeof(*rxq), GFP_KERNEL);
	if (!rxq)
		return -ENOMEM;
	for (i = 0; i < priv->num_rxq; i++) {
		err = ppsim_rxq_init(priv, &rxq[i], i);
		if (err)
			goto err_undo;
	}
	priv->rxq = rxq;
	for (i = 0; i < priv->num_rxq; i++)
		napi_enable(&rxq[i].napi);
	/* ndo_xdp_xmit may look at rxq from now on. */
	smp_store_release(&priv->xmit_ok, true);
	return 0;

err_undo:
	while (i--) {
		netif_napi_del(&rxq[i].napi);
		ppsim_rxq_free(&rxq[i]);
	}
	kfree(rxq);
	return err;
}

/**
 * ppsim_queues_stop() - stop the wire and NAPI, give back every buffer
 * @priv: the device
 *
 * Pages the stack still holds go back to their pool (or the page
 * allocator) when it lets go; a pool outlives its queue until then.
 *
 * Context: process, RTNL held.
 */
void ppsim_queues_stop(struct ppsim_priv *priv)
{
	u32 i;

	if (!priv->rxq)
		return;
	/* ndo_xdp_xmit runs in other devices' NAPI: let it finish first. */
	WRITE_ONCE(priv->xmit_ok, false);
	synchronize_net();
	for (i = 0; i < priv->num_rxq; i++)
		ppsim_rxq_stop(&priv->rxq[i]);
	kfree(priv->rxq);
	priv->rxq = NULL;
}

/**
 * ppsim_rxq_stats_read() - a consistent copy of one queue's counters
 * @s: the queue's counters
 * @out: where to copy them
 */
void ppsim_rxq_stats_read(const struct ppsim_rxq_stats *s,
			  struct ppsim_rxq_counts *out)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		out->packets = u64_stats_read(&s->packets);
		out->bytes = u64_stats_read(&s->bytes);
		out->drops = u64_stats_read(&s->drops);
		out->alloc_fail = u64_stats_read(&s->alloc_fail);
		out->xdp_pass = u64_stats_read(&s->xdp_pass);
		out->xdp_drop = u64_stats_read(&s->xdp_drop);
		out->xdp_tx = u64_stats_read(&s->xdp_tx);
		out->xdp_redirect = u64_stats_read(&s->xdp_redirect);
		out->xdp_aborted = u64_stats_read(&s->xdp_aborted);
		out->cache_reuse = u64_stats_read(&s->cache_reuse);
		out->cache_busy = u64_stats_read(&s->cache_busy);
	} while (u64_stats_fetch_retry(&s->syncp, start));
	do {
		start = u64_stats_fetch_begin(&s->tx_syncp);
		out->xdp_tx_full = u64_stats_read(&s->xdp_tx_full);
		out->xdp_tx_done = u64_stats_read(&s->xdp_tx_done);
	} while (u64_stats_fetch_retry(&s->tx_syncp, start));
}
