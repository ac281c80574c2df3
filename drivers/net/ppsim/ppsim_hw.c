// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim's device model: what the NIC does on its side of an RX queue.
 * It takes the posted descriptors in order, writes each frame where the
 * descriptor says, completes it and raises the "interrupt" (schedules
 * the queue's NAPI). Frames come from the wire generator, or from TX,
 * which loops what the driver sends back into an RX queue, as the far
 * end of a cable would.
 *
 * The device only reaches a buffer through the address it was given:
 * with DMA that is the DMA address, so under swiotlb=force it writes
 * the bounce buffer and the CPU sees the frame only after a sync, as
 * with real hardware.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip.h>
#ifdef CONFIG_HAS_DMA
#include <linux/dma-direct.h>
#endif

#include "ppsim.h"

static void *ppsim_hw_addr(struct ppsim_priv *priv, const struct ppsim_buf *b)
{
#ifdef CONFIG_HAS_DMA
	if (priv->use_dma)
		return phys_to_virt(dma_to_phys(ppsim_dma_dev(priv),
						b->dma + b->off));
#endif
	return page_address(b->page) + b->off;
}

/* The next posted buffer the device may write, or NULL. */
static struct ppsim_buf *ppsim_hw_next(struct ppsim_rxq *q)
{
	/* Pairs with ppsim_refill()'s release: the descriptor is complete. */
	if (q->hw.fill == smp_load_acquire(&q->post))
		return NULL;
	return &q->ring[q->hw.fill & q->mask];
}

/* Writes the completion for the buffer at fill and raises the "IRQ". */
static void ppsim_hw_complete(struct ppsim_rxq *q, u32 len)
{
	q->cq[q->hw.fill & q->mask].len = len;
	q->hw.fill++;
	/* The frame and its length before the index NAPI reads them by. */
	smp_store_release(&q->done, q->hw.fill);
	napi_schedule(&q->napi);
}

/* The buffer a frame of @len sent back to @q goes to; NULL when the
 * queue is stopping, the frame not an Ethernet frame we take, or no
 * buffer posted: *@err says which (-EINVAL, -ENOBUFS).
 */
static struct ppsim_buf *ppsim_hw_take(struct ppsim_rxq *q, u32 len, int *err)
{
	struct ppsim_buf *b;

	lockdep_assert_held(&q->hw.lock);
	*err = -EINVAL;
	if (q->hw.stopping || len < ETH_HLEN || len > PPSIM_FRAME_MAX)
		return NULL;
	b = ppsim_hw_next(q);
	if (!b)
		*err = -ENOBUFS;
	return b;
}

/**
 * ppsim_hw_receive() - the far end sends a frame back into an RX queue
 * @q: the queue
 * @data: the frame
 * @len: its length
 *
 * Context: BHs off: NAPI, or a driver's transmit.
 * Return: 0; -ENOBUFS when no buffer is posted yet; -EINVAL when the
 * frame is shorter than an Ethernet header or longer than
 * PPSIM_FRAME_MAX, or the queue is stopping (it is then dropped).
 */
int ppsim_hw_receive(struct ppsim_rxq *q, const void *data, u32 len)
{
	struct ppsim_buf *b;
	int err;

	spin_lock(&q->hw.lock);
	b = ppsim_hw_take(q, len, &err);
	if (b) {
		memcpy(ppsim_hw_addr(q->priv, b), data, len);
		ppsim_hw_complete(q, len);
		err = 0;
	}
	spin_unlock(&q->hw.lock);
	return err;
}

/**
 * ppsim_hw_receive_skb() - ppsim_hw_receive() for a frame in an skb
 * @q: the queue
 * @skb: the frame, from its Ethernet header
 *
 * Context: BHs off: a driver's transmit.
 * Return: as ppsim_hw_receive(), or -EFAULT when the skb cannot be
 * copied.
 */
int ppsim_hw_receive_skb(struct ppsim_rxq *q, const struct sk_buff *skb)
{
	struct ppsim_buf *b;
	int err;

	spin_lock(&q->hw.lock);
	b = ppsim_hw_take(q, skb->len, &err);
	if (b) {
		err = skb_copy_bits(skb, 0, ppsim_hw_addr(q->priv, b),
				    skb->len);
		if (!err)
			ppsim_hw_complete(q, skb->len);
	}
	spin_unlock(&q->hw.lock);
	return err;
}

/* ---- the wire: the far end's frame generator ---- */

static void ppsim_wire_frame(struct ppsim_rxq *q, u8 *p, u32 len)
{
	struct ppsim_wire_hdr *h = (void *)(p + PPSIM_WIRE_L4_END);
	u32 seq = q->hw.wire_seq++;
	u32 i, csum;

	memcpy(p, q->hw.wire_tmpl, PPSIM_WIRE_L4_END);
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
	struct ppsim_hw_rxq *hw = &q->hw;
	u64 now = ktime_get_ns(), due;

	if (hw->wire_rate != rate) {
		hw->wire_rate = rate;
		hw->wire_t0 = now;
		hw->wire_sent = 0;
	}
	if (!rate)
		return PPSIM_WIRE_BATCH;
	due = mul_u64_u64_div_u64(now - hw->wire_t0, rate, NSEC_PER_SEC);
	if (due > hw->wire_sent + q->size) {
		hw->wire_t0 = now;
		hw->wire_sent = 0;
		return 0;
	}
	return min_t(u64, due - min(due, hw->wire_sent), PPSIM_WIRE_BATCH);
}

/* Jiffies until the next frame is due; at least one. */
static unsigned long ppsim_wire_wait(struct ppsim_hw_rxq *hw)
{
	u64 now = ktime_get_ns(), next;

	next = hw->wire_t0 + mul_u64_u64_div_u64(hw->wire_sent + 1,
						 NSEC_PER_SEC, hw->wire_rate);
	return nsecs_to_jiffies(next > now ? next - now : 0) + 1;
}

/* Writes up to a batch of frames into posted buffers, then lets NAPI
 * run. Stops when the ring has no posted buffer; the driver's doorbell
 * starts it again once it has refilled. With a rate it comes back when
 * the next frame is due, so fast rates go in bursts of one jiffy's
 * frames.
 */
static void ppsim_wire_work(struct work_struct *work)
{
	struct ppsim_rxq *q = container_of(to_delayed_work(work),
					   struct ppsim_rxq, hw.wire_work);
	struct ppsim_hw_rxq *hw = &q->hw;
	unsigned long wait = 0;
	struct ppsim_buf *b;
	u32 n, due;

	do {
		n = 0;
		spin_lock_bh(&hw->lock);
		due = ppsim_wire_due(q, READ_ONCE(q->priv->wire_rate));
		while (!hw->stopping && hw->wire_left && n < due) {
			b = ppsim_hw_next(q);
			if (!b)
				break;
			ppsim_wire_frame(q, ppsim_hw_addr(q->priv, b),
					 hw->wire_len);
			ppsim_hw_complete(q, hw->wire_len);
			WRITE_ONCE(hw->wire_left, hw->wire_left - 1);
			n++;
		}
		hw->wire_sent += n;
		/* Held back by the pace, not by a lack of buffers. */
		if (hw->wire_rate && hw->wire_left && n == due &&
		    due < PPSIM_WIRE_BATCH)
			wait = ppsim_wire_wait(hw);
		spin_unlock_bh(&hw->lock);
		cond_resched();
	} while (n == PPSIM_WIRE_BATCH);
	if (wait)
		queue_delayed_work(system_unbound_wq, &hw->wire_work, wait);
}

/**
 * ppsim_hw_doorbell() - the driver has posted buffers
 * @q: the queue
 *
 * A wire waiting for buffers goes on writing.
 *
 * Context: any.
 */
void ppsim_hw_doorbell(struct ppsim_rxq *q)
{
	if (READ_ONCE(q->hw.wire_left))
		queue_delayed_work(system_unbound_wq, &q->hw.wire_work, 0);
}

static void ppsim_wire_template(struct ppsim_rxq *q, u32 len)
{
	struct ethhdr *eth = (void *)q->hw.wire_tmpl;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *uh = (void *)(iph + 1);

	memset(q->hw.wire_tmpl, 0, sizeof(q->hw.wire_tmpl));
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
	struct ppsim_hw_rxq *hw;
	int err = 0;
	u32 i;

	ASSERT_RTNL();
	if (!netif_running(priv->ndev) || !priv->rxq)
		return -ENETDOWN;
	if (len < PPSIM_FRAME_MIN || len > PPSIM_FRAME_MAX)
		return -EINVAL;
	for (i = 0; i < priv->num_rxq; i++) {
		hw = &priv->rxq[i].hw;
		spin_lock_bh(&hw->lock);
		if (hw->wire_left && hw->wire_len != len) {
			err = -EINVAL;
		} else {
			/* An idle wire starts its pace now: no credit. */
			if (!hw->wire_left) {
				hw->wire_t0 = ktime_get_ns();
				hw->wire_sent = 0;
			}
			ppsim_wire_template(&priv->rxq[i], len);
			hw->wire_len = len;
			WRITE_ONCE(hw->wire_left, hw->wire_left + frames);
		}
		spin_unlock_bh(&hw->lock);
		if (err)
			return err;
		ppsim_hw_doorbell(&priv->rxq[i]);
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
		left += READ_ONCE(priv->rxq[i].hw.wire_left);
	return left;
}

/**
 * ppsim_hw_rxq_init() - set up the device's side of a new RX queue
 * @q: the queue, zeroed
 *
 * The device writes nothing until the wire is started or a frame is
 * sent back, and then only into buffers the driver has posted.
 *
 * Context: process.
 */
void ppsim_hw_rxq_init(struct ppsim_rxq *q)
{
	spin_lock_init(&q->hw.lock);
	INIT_DELAYED_WORK(&q->hw.wire_work, ppsim_wire_work);
}

/**
 * ppsim_hw_rxq_stop() - the device stops writing into an RX queue
 * @q: the queue
 *
 * The wire forgets what it had yet to send; once this returns the
 * device neither writes a buffer nor schedules NAPI.
 *
 * Context: process.
 */
void ppsim_hw_rxq_stop(struct ppsim_rxq *q)
{
	spin_lock_bh(&q->hw.lock);
	q->hw.stopping = true;
	WRITE_ONCE(q->hw.wire_left, 0);
	spin_unlock_bh(&q->hw.lock);
	cancel_delayed_work_sync(&q->hw.wire_work);
}
