// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim's driver side: the RX queues' NAPI, which posts buffers, hands
 * the frames the device wrote to XDP or the stack, and sends XDP's TX;
 * the queues' bring-up and teardown. How buffers are got and given back
 * is each RX mode's (ppsim_buf.c); what the device does, ppsim_hw.c's.
 */
#include <linux/bpf.h>
#include <linux/bpf_trace.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "ppsim.h"

#define PPSIM_SHINFO	SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

#ifndef PAGE_POOL_HAS_ALLOC
static void page_pool_dma_sync_for_cpu(const struct page_pool *pool,
				       struct page *page, u32 offset, u32 len)
{
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr(page),
				      pool->p.offset + offset, len,
				      pool->p.dma_dir);
}
#endif

/* ---- NAPI ---- */

static void ppsim_refill(struct ppsim_rxq *q)
{
	u32 post = q->post;
	int err = 0;

	while (post - q->cons < q->size) {
		err = q->ops->get(q, &q->ring[post & q->mask]);
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
	if (q->pp)
		page_pool_dma_sync_for_cpu(q->pp, b->page,
					   b->off - q->pp->p.offset, len);
	else
		dma_sync_single_range_for_cpu(ppsim_dma_dev(priv), b->dma,
					      b->off, len, DMA_FROM_DEVICE);
}

/* The buffer leaves the ring for good, to an skb or an xdp_frame:
 * afterwards freeing its data is enough to give it back.
 */
static void ppsim_buf_handoff(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	if (q->ops->handoff)
		q->ops->handoff(q, b);
}

/* Frees a handed-off buffer whose frame went nowhere. */
static void ppsim_buf_free(struct ppsim_rxq *q, struct page *page)
{
	if (q->pp)
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
	if (q->pp)
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
			err = ppsim_hw_receive(q, e->frame->data,
					       e->frame->len);
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
	/* Budget 0 means no XDP and no pool access, whose direct paths
	 * belong to a NAPI poll proper (netpoll's, which ppsim refuses).
	 */
	if (budget) {
		tx_more = ppsim_tx_complete(q);
		if (q->xdp_flush) {
			xdp_do_flush();
			q->xdp_flush = false;
		}
		ppsim_refill(q);
	}
	ppsim_hw_doorbell(q);

	/* Nothing posted at all (allocation failed), or TX frames wait
	 * for RX buffers (the refill above posted them): keep polling.
	 */
	if (q->post == q->cons || tx_more)
		return budget;
	if (work < budget)
		napi_complete_done(napi, work);
	return work;
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

	q = &priv->rxq[skb_get_queue_mapping(skb) % priv->num_rxq];
	if (ppsim_hw_receive_skb(q, skb))
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

	for (i = 0; i < n; i++) {
		if (ppsim_hw_receive(q, frames[i]->data, frames[i]->len))
			break;
		xdp_return_frame(frames[i]);
	}
	atomic64_add(i, &priv->xdp_xmit);
	atomic64_add(n - i, &priv->xdp_xmit_drop);
	return i;
}

/* ---- queues: bring-up and teardown ---- */

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
	/* Frames held for TX may be pages of the pool freed below. */
	ppsim_xdp_tx_release(q);
	for (; q->cons != q->post; q->cons++)
		q->ops->put(q, &q->ring[q->cons & q->mask]);
	/* Unregistering a pool's memory model drops the model's hold on it. */
	if (q->xdp_rxq_reg)
		xdp_rxq_info_unreg(&q->xdp_rxq);
	q->xdp_rxq_reg = false;
	if (q->ops->free)
		q->ops->free(q);
	kvfree(q->cq);
	kvfree(q->ring);
}

static int ppsim_rxq_init(struct ppsim_priv *priv, struct ppsim_rxq *q, u16 i)
{
	u32 entries = roundup_pow_of_two(priv->ring_size);
	int err;

	q->priv = priv;
	q->ops = &ppsim_mode_ops[priv->mode];
	q->index = i;
	q->size = priv->ring_size;
	q->mask = entries - 1;
	q->stats = &priv->stats[i];
	q->xdp_prog = priv->xdp_prog;
	spin_lock_init(&q->tx_lock);
	ppsim_hw_rxq_init(q);

	q->ring = kvcalloc(entries, sizeof(*q->ring), GFP_KERNEL);
	q->cq = kvcalloc(entries, sizeof(*q->cq), GFP_KERNEL);
	if (!q->ring || !q->cq) {
		err = -ENOMEM;
		goto err_free;
	}
	/* Before the pool, which looks at the NAPI once linked to it. */
	netif_napi_add(priv->ndev, &q->napi, ppsim_poll);
	if (q->ops->init) {
		err = q->ops->init(q);
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
	ppsim_hw_rxq_stop(q);
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
 * ppsim_hold_page() - take a page from RX queue 0's pool and keep it
 * @priv: the device
 * @page: where the page goes
 *
 * The page stays in flight until ppsim_release_page(), so that the pool
 * outlives the queue, and the device too, as one whose pages the stack
 * still holds does.
 *
 * Context: process, RTNL held.
 * Return: 0, -ENETDOWN when the queues are stopped, -EOPNOTSUPP in a
 * mode without a pool, -ENOMEM when the pool has no page.
 */
int ppsim_hold_page(struct ppsim_priv *priv, struct page **page)
{
	struct ppsim_rxq *q = priv->rxq;

	ASSERT_RTNL();
	if (!q)
		return -ENETDOWN;
	if (!q->pp)
		return -EOPNOTSUPP;
	/* The pool's cache is NAPI's: take it from NAPI for the while. */
	napi_disable(&q->napi);
	local_bh_disable();
	*page = ppsim_pool_take(q);
	local_bh_enable();
	napi_enable(&q->napi);
	/* A doorbell rung meanwhile found NAPI off: poll once for it. */
	local_bh_disable();
	napi_schedule(&q->napi);
	local_bh_enable();
	return *page ? 0 : -ENOMEM;
}

/**
 * ppsim_release_page() - give back a page ppsim_hold_page() took
 * @page: the page
 *
 * Its pool may have been destroyed since, and its device removed: the
 * page goes back to the pool it came from, which it keeps alive.
 *
 * Context: process.
 */
void ppsim_release_page(struct page *page)
{
	page_pool_put_full_page(page->pp, page, false);
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
