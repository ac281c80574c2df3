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
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/gfp.h>
#include <linux/ip.h>
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
	return 0;
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
		if (page_ref_count(e->page) == 1) {
			q->cache_head++;
			b->page = e->page;
			b->dma = e->dma;
			b->off = q->priv->headroom;
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
	page_ref_inc(page);
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

/* order3: one compound page mapped once and carved into frames. Each
 * frame holds a page reference (the first one the allocation's); the
 * last frame carved carries the unmap, which happens when the device has
 * completed it and so every frame before it.
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
	} else {
		page_ref_inc(q->o3_page);
	}
	b->page = q->o3_page;
	b->dma = q->o3_dma;
	b->off = q->o3_off + priv->headroom;
	q->o3_off += priv->stride;
	b->last = q->o3_off + priv->stride > PPSIM_O3_BYTES;
	if (b->last)
		q->o3_page = NULL;
	return 0;
}

static int ppsim_buf_get(struct ppsim_rxq *q, struct ppsim_buf *b)
{
	struct ppsim_priv *priv = q->priv;
	unsigned int off;

	b->last = false;
	switch (priv->mode) {
	case PPSIM_MODE_ALLOC:
		return ppsim_alloc_page_buf(q, b);
	case PPSIM_MODE_CACHE:
		return ppsim_cache_get(q, b);
	case PPSIM_MODE_POOL:
		b->page = page_pool_dev_alloc_pages(q->pp);
		off = 0;
		break;
	case PPSIM_MODE_FRAG:
		b->page = page_pool_dev_alloc_frag(q->pp, &off, priv->stride);
		break;
	case PPSIM_MODE_ORDER3:
		return ppsim_o3_get(q, b);
	default:
		return -EINVAL;
	}
	if (!b->page)
		return -ENOMEM;
	b->dma = priv->use_dma ? page_pool_get_dma_addr(b->page) : 0;
	b->off = off + priv->headroom;
	return 0;
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
	if (err) {
		u64_stats_update_begin(&q->stats->syncp);
		q->stats->alloc_fail++;
		u64_stats_update_end(&q->stats->syncp);
	}
	/* The device may use a descriptor only once it is complete. */
	smp_store_release(&q->post, post);
}

static void ppsim_sync_for_cpu(struct ppsim_priv *priv,
			       const struct ppsim_buf *b, u32 len)
{
	if (priv->use_dma)
		dma_sync_single_range_for_cpu(ppsim_dma_dev(priv), b->dma,
					      b->off, len, DMA_FROM_DEVICE);
}

/* Builds the skb around the buffer; the buffer is the skb's (or back with
 * its owner) afterwards, whatever happens.
 */
static struct sk_buff *ppsim_build_skb(struct ppsim_rxq *q,
				       struct ppsim_buf *b, u32 len)
{
	struct ppsim_priv *priv = q->priv;
	u32 start = b->off - priv->headroom;
	void *va = page_address(b->page);
	struct sk_buff *skb;
	u32 truesize;

	switch (priv->mode) {
	case PPSIM_MODE_ALLOC:
		ppsim_unmap(priv, b->dma, PAGE_SIZE);
		truesize = PAGE_SIZE;
		break;
	case PPSIM_MODE_CACHE:
		/* Not cached when full: then the skb takes the last ref. */
		if (!ppsim_cache_put(q, b->page, b->dma))
			ppsim_unmap(priv, b->dma, PAGE_SIZE);
		truesize = PAGE_SIZE;
		break;
	case PPSIM_MODE_ORDER3:
		if (b->last)
			ppsim_unmap(priv, b->dma, PPSIM_O3_BYTES);
		truesize = priv->stride;
		break;
	case PPSIM_MODE_FRAG:
		truesize = priv->stride;
		break;
	default:
		truesize = PAGE_SIZE;
		break;
	}

	skb = build_skb(va + start, truesize);
	if (unlikely(!skb)) {
		if (ppsim_mode_has_pool(priv->mode))
			page_pool_put_full_page(q->pp, b->page, true);
		else
			put_page(b->page);
		return NULL;
	}
	if (ppsim_mode_has_pool(priv->mode))
		skb_mark_for_recycle(skb);
	skb_reserve(skb, priv->headroom);
	skb_put(skb, len);
	return skb;
}

/* Checks a wire frame as the far end wrote it; other frames pass. */
static bool ppsim_frame_bad(struct ppsim_rxq *q, const u8 *va, u32 len)
{
	const struct ppsim_wire_hdr *h = (const void *)(va + PPSIM_WIRE_L4_END);
	u32 csum, seq;

	if (len < PPSIM_WIRE_PAYLOAD || h->magic != htonl(PPSIM_WIRE_MAGIC))
		return false;
	seq = ntohl(h->seq);
	csum = ppsim_wire_csum(PPSIM_WIRE_CSUM_SEED, (const u8 *)h,
			       offsetof(struct ppsim_wire_hdr, csum));
	csum = ppsim_wire_csum(csum, va + PPSIM_WIRE_PAYLOAD,
			       len - PPSIM_WIRE_PAYLOAD);
	if (ntohs(h->len) != len || ntohs(h->queue) != q->index ||
	    seq != q->rx_seq || ntohl(h->csum) != csum) {
		q->rx_seq = seq + 1;
		return true;
	}
	q->rx_seq = seq + 1;
	return false;
}

static void ppsim_rx_one(struct ppsim_rxq *q, struct ppsim_buf *b, u32 len)
{
	struct net_device *ndev = q->priv->ndev;
	struct sk_buff *skb;
	bool bad;

	ppsim_sync_for_cpu(q->priv, b, len);
	bad = ppsim_frame_bad(q, page_address(b->page) + b->off, len);
	skb = ppsim_build_skb(q, b, len);
	b->page = NULL;

	u64_stats_update_begin(&q->stats->syncp);
	if (skb) {
		q->stats->packets++;
		q->stats->bytes += len;
	} else {
		q->stats->drops++;
	}
	q->stats->bad += bad;
	u64_stats_update_end(&q->stats->syncp);
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
	int work = 0;

	while (work < budget && q->cons != done) {
		struct ppsim_buf *b = &q->ring[q->cons & q->mask];

		ppsim_rx_one(q, b, READ_ONCE(q->cq[q->cons & q->mask].len));
		q->cons++;
		work++;
	}
	ppsim_refill(q);
	ppsim_wire_kick(q);

	/* Nothing posted at all (allocation failed): keep polling. */
	if (q->post == q->cons)
		return budget;
	if (work < budget)
		napi_complete_done(napi, work);
	return work;
}

/* ---- the device ---- */

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

/* The wire: writes up to a batch of frames into posted buffers, then
 * lets NAPI run. Stops when the ring has no posted buffer; NAPI kicks it
 * again once it has refilled.
 */
static void ppsim_wire_work(struct work_struct *work)
{
	struct ppsim_rxq *q = container_of(to_delayed_work(work),
					   struct ppsim_rxq, wire_work);
	struct ppsim_buf *b;
	u32 n;

	do {
		n = 0;
		spin_lock_bh(&q->dev_lock);
		while (!q->stopping && q->wire_left && n < PPSIM_WIRE_BATCH) {
			b = ppsim_dev_next(q);
			if (!b)
				break;
			ppsim_wire_frame(q, ppsim_dev_addr(q->priv, b),
					 q->wire_len);
			ppsim_dev_complete(q, q->wire_len);
			q->wire_left--;
			n++;
		}
		spin_unlock_bh(&q->dev_lock);
		cond_resched();
	} while (n == PPSIM_WIRE_BATCH);
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
			ppsim_wire_template(q, len);
			q->wire_len = len;
			q->wire_left += frames;
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

	if (priv->use_dma) {
		pp.flags |= PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		/* What the device may write: from the headroom on, a frame. */
		pp.offset = priv->headroom;
		pp.max_len = PPSIM_FRAME_MAX;
	}
	if (priv->mode == PPSIM_MODE_FRAG) {
		pp.flags |= PP_FLAG_PAGE_FRAG;
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

static void ppsim_rxq_free(struct ppsim_rxq *q)
{
	struct ppsim_priv *priv = q->priv;

	/* A page still being carved has its unmap pending, not in a desc. */
	if (q->o3_page) {
		ppsim_unmap(priv, q->o3_dma, PPSIM_O3_BYTES);
		q->o3_page = NULL;
	}
	for (; q->cons != q->post; q->cons++)
		ppsim_buf_put(q, &q->ring[q->cons & q->mask], false);
	ppsim_cache_drain(q);
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
	spin_lock_init(&q->dev_lock);
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
	if (ppsim_mode_has_pool(priv->mode)) {
		err = ppsim_pool_create(q);
		if (err)
			goto err_free;
	}
	/* NAPI is not running yet: the pool's direct paths are ours. */
	local_bh_disable();
	ppsim_refill(q);
	local_bh_enable();
	if (q->post != q->size) {
		err = -ENOMEM;
		goto err_free;
	}
	netif_napi_add(priv->ndev, &q->napi, ppsim_poll);
	return 0;

err_free:
	ppsim_rxq_free(q);
	return err;
}

static void ppsim_rxq_stop(struct ppsim_rxq *q)
{
	spin_lock_bh(&q->dev_lock);
	q->stopping = true;
	q->wire_left = 0;
	spin_unlock_bh(&q->dev_lock);
	cancel_delayed_work_sync(&q->wire_work);
	napi_disable(&q->napi);
	netif_napi_del(&q->napi);
	ppsim_rxq_free(q);
}

static void ppsim_layout(struct ppsim_priv *priv)
{
	priv->headroom = NET_SKB_PAD + NET_IP_ALIGN;
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
void ppsim_rxq_stats_read(struct ppsim_rxq_stats *s,
			  struct ppsim_rxq_stats *out)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		out->packets = s->packets;
		out->bytes = s->bytes;
		out->drops = s->drops;
		out->alloc_fail = s->alloc_fail;
		out->bad = s->bad;
	} while (u64_stats_fetch_retry(&s->syncp, start));
}
