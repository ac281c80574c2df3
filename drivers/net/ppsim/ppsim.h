/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppsim: a simulated NIC whose RX path is built the way a real NIC
 * driver's is, so that page_pool can be exercised and measured end to end
 * without hardware.
 */
#ifndef _PPSIM_H
#define _PPSIM_H

#include <linux/device.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <net/page_pool.h>
#include <net/xdp.h>

#include "ppsim_wire.h"

#define PPSIM_MAX_RXQ		16
#define PPSIM_RING_DEF		1024
#define PPSIM_RING_MIN		64
#define PPSIM_RING_MAX		16384
#define PPSIM_CACHE_SIZE	256
/* Largest frame the wire writes and the buffers are sized for. */
#define PPSIM_FRAME_MAX		(ETH_HLEN + ETH_DATA_LEN)
#define PPSIM_FRAME_MIN		ETH_ZLEN
/* Frames the generator writes before it lets NAPI run. */
#define PPSIM_WIRE_BATCH	64
/* Entries in a queue's XDP TX ring: XDP_TX frames and frames other
 * devices redirect to us wait there for their completion.
 */
#define PPSIM_XDP_TX_RING	128

enum ppsim_mode {
	PPSIM_MODE_ALLOC,
	PPSIM_MODE_CACHE,
	PPSIM_MODE_POOL,
	PPSIM_MODE_FRAG,
	PPSIM_MODE_ORDER3,
	PPSIM_MODE_NR,
};

/**
 * struct ppsim_buf - one posted RX buffer, as the descriptor ring holds it
 * @page: the page (for order3, the head of the compound page)
 * @dma: DMA address of @page's mapping (0 without DMA)
 * @off: where the frame starts, from the start of @page
 * @truesize: the memory the buffer stands for, for the skb's accounting
 * @last: order3 only: the last frame carved from @page, which unmaps it
 */
struct ppsim_buf {
	struct page *page;
	dma_addr_t dma;
	u32 off;
	u32 truesize;
	bool last;
};

/* A completion queue entry: what the device wrote into a buffer. */
struct ppsim_cqe {
	u32 len;
};

struct ppsim_cache_ent {
	struct page *page;
	dma_addr_t dma;
};

/* Written by the queue's NAPI, read by ethtool and ndo_get_stats64. */
struct ppsim_rxq_stats {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t drops;
	u64_stats_t alloc_fail;
	u64_stats_t xdp_pass;
	u64_stats_t xdp_drop;
	u64_stats_t xdp_tx;
	u64_stats_t xdp_redirect;
	u64_stats_t xdp_aborted;
	/* cache mode: buffers from the cache; heads still held by the stack */
	u64_stats_t cache_reuse;
	u64_stats_t cache_busy;
	struct u64_stats_sync syncp;
	/* Written under the TX ring's lock, by any context. */
	u64_stats_t xdp_tx_full;
	u64_stats_t xdp_tx_done;
	struct u64_stats_sync tx_syncp;
};

/* A consistent copy of one queue's counters. */
struct ppsim_rxq_counts {
	u64 packets;
	u64 bytes;
	u64 drops;
	u64 alloc_fail;
	u64 xdp_pass;
	u64 xdp_drop;
	u64 xdp_tx;
	u64 xdp_redirect;
	u64 xdp_aborted;
	u64 xdp_tx_full;
	u64 xdp_tx_done;
	u64 cache_reuse;
	u64 cache_busy;
};

struct ppsim_priv;
struct ppsim_rxq;

/**
 * struct ppsim_mode_ops - how one RX mode gets and gives back its buffers
 * @init: makes what the mode keeps per queue (a pool, a cache); NULL
 *	for none. Runs before the first @get.
 * @get: fills a descriptor with a new buffer: 0 or -ENOMEM. From NAPI,
 *	or with BHs off before NAPI runs.
 * @handoff: what must happen before the buffer leaves the ring for an
 *	skb or an xdp_frame, whose freeing then gives it back; NULL for
 *	nothing
 * @put: gives back a posted buffer that never reached the stack, when
 *	the queue stops (NAPI is off)
 * @free: releases what the mode holds besides posted buffers (its pool,
 *	its cache, the page being carved), once every posted buffer is
 *	back and the XDP memory model is unregistered; also when @init
 *	failed or never ran (the queue is zeroed). NULL for nothing.
 */
struct ppsim_mode_ops {
	int (*init)(struct ppsim_rxq *q);
	int (*get)(struct ppsim_rxq *q, struct ppsim_buf *b);
	void (*handoff)(struct ppsim_rxq *q, struct ppsim_buf *b);
	void (*put)(struct ppsim_rxq *q, struct ppsim_buf *b);
	void (*free)(struct ppsim_rxq *q);
};

/**
 * struct ppsim_tx_ent - a frame on a queue's XDP TX ring
 * @frame: the frame
 * @xmit: redirected to us by another device (ndo_xdp_xmit): its pages are
 *	not ours to recycle straight into a pool's cache; otherwise an
 *	XDP_TX frame of this queue
 */
struct ppsim_tx_ent {
	struct xdp_frame *frame;
	bool xmit;
};

/**
 * struct ppsim_hw_rxq - the device's side of an RX queue
 * @lock: serialises the device's writers (the wire, TX looped back) and
 *	the queue's stop
 * @fill: the next posted buffer the device writes
 * @stopping: the queue is going: the device writes nothing more
 * @wire_left: frames the wire has yet to write
 * @wire_seq: the sequence number of its next frame
 * @wire_len: the length of its frames
 * @wire_rate: the rate @wire_t0 and @wire_sent keep the pace of
 * @wire_t0: when the pace started, in ns
 * @wire_sent: frames written since @wire_t0
 * @wire_tmpl: the headers of its frames: Ethernet, IPv4, UDP
 * @wire_work: the wire, which runs as a work item
 */
struct ppsim_hw_rxq {
	spinlock_t lock;	/* see above */
	u32 fill;
	bool stopping;
	u32 wire_left;
	u32 wire_seq;
	u32 wire_len;
	u32 wire_rate;
	u64 wire_t0;
	u64 wire_sent;
	u8 wire_tmpl[PPSIM_WIRE_L4_END];
	struct delayed_work wire_work;
};

/* One RX queue: the driver's descriptor ring, completion queue and NAPI,
 * and the device's side of them in @hw. The rings (@ring, @cq) and their
 * indices @post and @done are the memory the driver and the device
 * share; the device reads @post and writes @done.
 *
 * The ring indices run free and are masked on use. The driver posts
 * buffers at @post; the device fills them in order from hw.fill and
 * publishes each completion by moving @done; NAPI consumes from @cons.
 * So cons <= done <= hw.fill <= post, and post - cons <= @size.
 */
struct ppsim_rxq {
	struct napi_struct napi;
	struct ppsim_priv *priv;
	const struct ppsim_mode_ops *ops;
	struct page_pool *pp;
	struct ppsim_buf *ring;
	struct ppsim_cqe *cq;
	u32 mask;
	u32 size;
	u32 post;
	u32 cons;
	u32 done;
	u16 index;
	struct ppsim_rxq_stats *stats;	/* kept in priv: they outlive us */
	struct bpf_prog *xdp_prog;	/* fixed while the queue runs */
	struct xdp_rxq_info xdp_rxq;
	bool xdp_rxq_reg;
	bool xdp_flush;			/* a redirect is pending this poll */

	/* The XDP TX ring: frames wait on it until the end of the NAPI
	 * poll, or while the device's TX is stalled, until it resumes or
	 * the queue stops. The indices run free; @tx_lock serialises
	 * NAPI, ndo_xdp_xmit on any CPU, and the queue's teardown.
	 */
	spinlock_t tx_lock;
	u32 tx_head;			/* the next frame to complete */
	u32 tx_tail;			/* the next free entry */
	struct ppsim_tx_ent tx_ring[PPSIM_XDP_TX_RING];

	union {
		struct {	/* cache: pages the driver still holds a ref on */
			struct ppsim_cache_ent *cache;
			u32 cache_head;
			u32 cache_tail;
		};
		struct {	/* order3: the compound page being carved */
			struct page *o3_page;
			dma_addr_t o3_dma;
			u32 o3_off;
		};
	};

	struct ppsim_hw_rxq hw;
};

/**
 * struct ppsim_dev - one simulated device on the ppsim bus
 * @dev: the bus device; parent of the netdev, and the DMA device
 * @id: the number given to new_device
 * @ndev: its network device
 * @list: on the list of devices
 */
struct ppsim_dev {
	struct device dev;
	u32 id;
	struct net_device *ndev;
	struct list_head list;
};

/**
 * struct ppsim_held - a page pp_hold took from a pool
 * @list: on the bus's list once its device is gone
 * @page: the page, in flight in its pool
 */
struct ppsim_held {
	struct list_head list;
	struct page *page;
};

struct ppsim_priv {
	struct net_device *ndev;
	struct ppsim_dev *pdev;
	enum ppsim_mode mode;
	u32 num_rxq;
	u32 ring_size;
	u32 headroom;
	u32 stride;		/* frag/order3: bytes a frame takes */
	bool use_dma;
	struct ppsim_rxq *rxq;
	struct bpf_prog *xdp_prog;
	bool xmit_ok;		/* ndo_xdp_xmit may use rxq */
	bool tx_stall;		/* TX holds its frames: sysfs tx_stall */
	u32 wire_rate;		/* frames/s per queue, 0: no limit */
	struct ppsim_held *held;	/* sysfs pp_hold's page; RTNL */
	struct ppsim_rxq_stats stats[PPSIM_MAX_RXQ];
	atomic64_t tx_dropped;
	atomic64_t xdp_xmit;
	atomic64_t xdp_xmit_drop;
#ifdef CONFIG_PAGE_POOL_STATS
	/* The counters of the pools destroyed so far; RTNL. */
	struct page_pool_stats pp_retired;
#endif
};

extern const char * const ppsim_mode_names[PPSIM_MODE_NR];
extern const struct ppsim_mode_ops ppsim_mode_ops[PPSIM_MODE_NR];
extern const struct ethtool_ops ppsim_ethtool_ops;

static inline struct device *ppsim_dma_dev(struct ppsim_priv *priv)
{
	return &priv->pdev->dev;
}

/* Adds @n to one RX counter of @q, in a write section of its own. The
 * poll is the counters' only writer; on 64-bit machines the section
 * costs nothing.
 */
static inline void ppsim_rx_count(struct ppsim_rxq *q, u64_stats_t *counter,
				  u64 n)
{
	u64_stats_update_begin(&q->stats->syncp);
	u64_stats_add(counter, n);
	u64_stats_update_end(&q->stats->syncp);
}

int ppsim_queues_start(struct ppsim_priv *priv);
void ppsim_queues_stop(struct ppsim_priv *priv);
void ppsim_rxq_stats_read(const struct ppsim_rxq_stats *s,
			  struct ppsim_rxq_counts *out);
netdev_tx_t ppsim_xmit(struct sk_buff *skb, struct net_device *ndev);
int ppsim_xdp_xmit(struct net_device *ndev, int n, struct xdp_frame **frames,
		   u32 flags);
void ppsim_tx_kick(struct ppsim_priv *priv);
int ppsim_hold_page(struct ppsim_priv *priv, struct page **page);
void ppsim_release_page(struct page *page);
struct page *ppsim_pool_take(struct ppsim_rxq *q);
int ppsim_reconfigure(struct ppsim_priv *priv, u32 num_rxq, u32 ring_size);

/* The device model (ppsim_hw.c): what the hardware would do. */
void ppsim_hw_rxq_init(struct ppsim_rxq *q);
void ppsim_hw_rxq_stop(struct ppsim_rxq *q);
void ppsim_hw_doorbell(struct ppsim_rxq *q);
int ppsim_hw_receive(struct ppsim_rxq *q, const void *data, u32 len);
int ppsim_hw_receive_skb(struct ppsim_rxq *q, const struct sk_buff *skb);
int ppsim_wire_start(struct ppsim_priv *priv, u32 frames, u32 len);
u32 ppsim_wire_left(struct ppsim_priv *priv);

#endif /* _PPSIM_H */
