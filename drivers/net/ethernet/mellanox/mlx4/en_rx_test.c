// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the mlx4_en RX path on the page_pool. This file is
 * #included at the end of en_rx.c (CONFIG_MLX4_EN_RX_KUNIT_TEST), so the
 * cases call the driver's own static functions.
 *
 * There is no ConnectX-3 here. Each case builds one RX ring and its
 * completion queue in host memory, filling in only the fields the RX
 * path reads, on a test device whose dma_map_ops record every call the
 * pool and the driver make and bounce, as swiotlb does, so that frames
 * written as the NIC reach the CPU only through the driver's syncs. Then
 * it runs the driver's code in the order the port and NAPI do:
 * mlx4_en_calc_rx_buf(), mlx4_en_activate_rx_rings() (pools created,
 * descriptors posted), frames written where the posted descriptors
 * point, as the NIC would, with their completions in the mlx4 CQE
 * layout, mlx4_en_process_rx_cq() in softirq context (frames built into
 * skbs or run through XDP, ring refilled), and at the end
 * mlx4_en_deactivate_rx_ring().
 *
 * What these cases cannot drive, and why:
 * - mlx4_en_create_rx_ring() and mlx4_en_destroy_rx_ring(): the ring's
 *   buffer and doorbell record come from mlx4_alloc_hwq_res(), which
 *   needs the MTT tables of a live device (firmware commands); the cases
 *   build the same ring fields by hand.
 * - mlx4_en_poll_rx_cq(): after the RX work it re-arms the CQ by writing
 *   the UAR doorbell page of the device.
 * - mlx4_en_process_tx_cq(): the XDP_TX case posts on a TX ring built
 *   by hand and runs the completion step it calls per descriptor,
 *   mlx4_en_recycle_tx_desc(), itself. The doorbell write,
 *   mlx4_en_xmit_doorbell(), runs against host memory, which only x86's
 *   iowrite32() turns into a plain store; elsewhere that case skips.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <net/gro.h>

#include "../../../../../net/core/page_pool_test.h"

/* A ring of 128. The base pool's slow path maps 64 pages at a time, so
 * up to 64 spare pages come back through the pool's return ring, which
 * has as many entries as the RX ring but frees consumed entries lazily,
 * in batches: with 64 entries it overflowed now and then.
 */
#define MLX4_RXT_RING_SIZE	128
/* Frames per poll when they become skbs: under gro_normal_batch, so they
 * wait on the NAPI's list, where the case takes them.
 */
#define MLX4_RXT_SKB_BATCH	4
/* TX building blocks per XDP_TX frame (en_tx.c's MLX4_EN_XDP_TX_NRTXBB). */
#define MLX4_RXT_XDP_TXBBS	1
/* The stride of a buffer up to 2 KiB: two to a 4 KiB page. */
#define MLX4_RXT_STRIDE		2048
/* A 1500-byte MTU's buffer: 1522 bytes (VLAN tags and all), after
 * NET_SKB_PAD and before the skb_shared_info, in MLX4_RXT_STRIDE.
 */
#define MLX4_RXT_EFF_1500	1522
/* The largest MTU whose frames fit four buffers of 2 KiB: 7808 bytes,
 * 1664 in the first.
 */
#define MLX4_RXT_MTU_SHARED	7786

/* The expected values are for x86_64: 4 KiB pages, 64-byte cache lines
 * (NET_SKB_PAD) and a 320-byte skb_shared_info.
 */
static void mlx4_rxt_assume_x86_64(struct kunit *test)
{
	unsigned long page_size = PAGE_SIZE;

	if (page_size != SZ_4K || NET_SKB_PAD != 64 ||
	    SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) != 320)
		kunit_skip(test, "the expected layouts are x86_64's");
}

/* One port with one RX ring, as mlx4_en_start_port() leaves it. */
struct mlx4_rxt {
	struct net_device *dev;
	struct mlx4_en_priv *priv;
	struct mlx4_en_rx_ring *ring;
	struct mlx4_en_cq *cq;
	struct mlx4_en_dev *mdev;
	struct mlx4_en_port_profile prof;
	void *wq_buf;
	__be32 rx_db;
	__be32 cq_db;
	/* Completions written so far: the next one's sequence number. */
	u32 completions;
	/* The skbs the driver handed to the stack. */
	struct sk_buff_head skbs;
	/* Told when the ring's pool is freed. */
	struct pp_test_release release;
};

/* Watches the ring's pool for its end; the watcher's reference is
 * dropped by mlx4_rxt_stop(), once the driver has destroyed the pool.
 */
static void mlx4_rxt_watch(struct mlx4_rxt *t)
{
	pp_test_watch_driver_pool(t->ring->pp, &t->release);
}

/* Waits for the ring's last pool to be freed, every page it mapped
 * unmapped once: no page was lost on the way.
 */
static void mlx4_rxt_expect_released(struct kunit *test, struct mlx4_rxt *t)
{
	KUNIT_EXPECT_TRUE_MSG(test, pp_test_released(&t->release),
			      "the pool was not freed");
	pp_test_dma_expect_unmapped(test);
}

/* The pool syncs a shared page for the device whole, and a page of one
 * buffer over the longest buffer, from the headroom on.
 */
static void mlx4_rxt_sync_window(struct mlx4_rxt *t)
{
	struct mlx4_en_priv *priv = t->priv;
	int i;

	if (!priv->tx_ring_num[TX_XDP] && t->dev->mtu <= MLX4_RXT_MTU_SHARED) {
		pp_test_dma.sync_lo = 0;
		pp_test_dma.sync_hi = PAGE_SIZE;
	} else {
		pp_test_dma.sync_lo = priv->rx_headroom;
		pp_test_dma.sync_hi = priv->rx_headroom;
		for (i = 0; i < priv->num_frags; i++)
			pp_test_dma.sync_hi = max_t(unsigned int,
						    pp_test_dma.sync_hi,
						    priv->rx_headroom +
						    priv->frag_info[i].frag_size);
	}
	pp_test_dma.sync_exact = true;
}

/* Brings up a ring for @mtu with @prog attached (and so an XDP TX ring
 * counted, as mlx4_xdp_set() does), through the driver's own buffer
 * layout and activation.
 */
static struct mlx4_rxt *mlx4_rxt_start(struct kunit *test, int mtu,
				       struct bpf_prog *prog)
{
	struct mlx4_en_rx_ring *ring;
	struct mlx4_en_priv *priv;
	struct mlx4_en_cq *cq;
	struct mlx4_rxt *t;
	int i;

	if (!prog)
		mlx4_rxt_assume_x86_64(test);
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	skb_queue_head_init(&t->skbs);
	t->dev = alloc_etherdev(sizeof(struct mlx4_en_priv));
	KUNIT_ASSERT_NOT_NULL(test, t->dev);
	t->mdev = kunit_kzalloc(test, sizeof(*t->mdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->mdev);

	priv = netdev_priv(t->dev);
	t->priv = priv;
	priv->dev = t->dev;
	priv->mdev = t->mdev;
	priv->ddev = pp_test_dma.dev;
	priv->prof = &t->prof;
	priv->cqe_size = sizeof(struct mlx4_cqe);
	priv->cqe_factor = 0;
	/* en_err() names the netdev rather than the absent PCI device. */
	priv->registered = 1;
	priv->rx_ring_num = 1;
	priv->tx_ring_num[TX_XDP] = prog ? 1 : 0;
	t->prof.rx_ring_size = MLX4_RXT_RING_SIZE;
	t->dev->mtu = mtu;
	/* No GRO: frames go to the NAPI's list as they are. */
	t->dev->features = 0;

	mlx4_en_calc_rx_buf(t->dev);

	/* What mlx4_en_create_rx_ring() sets, its hardware queue aside. */
	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	t->ring = ring;
	ring->size = MLX4_RXT_RING_SIZE;
	ring->size_mask = ring->size - 1;
	ring->numa_node = NUMA_NO_NODE;
	ring->rx_info = kvzalloc(ring->size *
				 roundup_pow_of_two(MLX4_EN_MAX_RX_FRAGS *
					sizeof(struct mlx4_en_rx_alloc)),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring->rx_info);
	t->wq_buf = kzalloc(ring->size * roundup_pow_of_two(DS_SIZE *
						MLX4_EN_MAX_RX_FRAGS) + TXBB_SIZE,
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->wq_buf);
	ring->buf = t->wq_buf;
	ring->wqres.db.db = &t->rx_db;
	KUNIT_ASSERT_EQ(test, xdp_rxq_info_reg(&ring->xdp_rxq, t->dev, 0, 0),
			0);
	RCU_INIT_POINTER(ring->xdp_prog, prog);

	/* What mlx4_en_activate_cq() and mlx4_en_start_port() set. */
	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	t->cq = cq;
	cq->size = MLX4_RXT_RING_SIZE;
	cq->type = RX;
	cq->ring = 0;
	cq->dev = t->dev;
	cq->buf = kcalloc(cq->size, priv->cqe_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cq->buf);
	for (i = 0; i < cq->size; i++)
		mlx4_en_get_cqe(cq->buf, i, priv->cqe_size)->owner_sr_opcode =
			MLX4_CQE_OWNER_MASK;
	cq->mcq.set_ci_db = &t->cq_db;
	netif_napi_add(t->dev, &cq->napi, mlx4_en_poll_rx_cq);

	priv->rx_ring[0] = ring;
	priv->rx_cq[0] = cq;

	mlx4_rxt_sync_window(t);
	KUNIT_ASSERT_EQ(test, mlx4_en_activate_rx_rings(priv), 0);
	priv->port_up = true;
	mlx4_rxt_watch(t);
	return t;
}

/* mlx4_en_stop_port() for the ring, and the watcher's reference on its
 * pool dropped: the pool goes once it has every page back.
 */
static void mlx4_rxt_deactivate(struct mlx4_rxt *t)
{
	struct page_pool *pool = t->ring->pp;

	t->priv->port_up = false;
	mlx4_en_deactivate_rx_ring(t->priv, t->ring);
	page_pool_destroy(pool);
}

/* mlx4_rxt_deactivate(), then what the ring's destruction frees. Skbs
 * the case still holds stay out.
 */
static void mlx4_rxt_stop(struct mlx4_rxt *t)
{
	mlx4_rxt_deactivate(t);
	xdp_rxq_info_unreg(&t->ring->xdp_rxq);
	RCU_INIT_POINTER(t->ring->xdp_prog, NULL);
	kvfree(t->ring->rx_info);
	kfree(t->wq_buf);
	kfree(t->ring);
	netif_napi_del(&t->cq->napi);
	kfree(t->cq->buf);
	kfree(t->cq);
	free_netdev(t->dev);
}

static u8 mlx4_rxt_byte(u8 seed, unsigned int i)
{
	return (u8)(seed + i * 7);
}

/* The NIC's side: writes @len bytes of @frame, or of the pattern of
 * @seed if it is NULL, through the next descriptor's buffers, at the DMA
 * addresses the driver posted. Returns the completion, zeroed but for
 * the byte count, for mlx4_rxt_complete().
 */
static struct mlx4_cqe *mlx4_rxt_write(struct mlx4_rxt *t, const u8 *frame,
				       unsigned int len, u8 seed)
{
	struct mlx4_en_rx_ring *ring = t->ring;
	u32 index = t->completions & ring->size_mask;
	struct mlx4_en_rx_desc *rx_desc = ring->buf +
					  (index << ring->log_stride);
	struct mlx4_cqe *cqe = mlx4_en_get_cqe(t->cq->buf, index,
					       t->priv->cqe_size);
	unsigned int done = 0, i, j;

	for (i = 0; done < len && i < t->priv->num_frags; i++) {
		unsigned int n = min(len - done,
				     be32_to_cpu(rx_desc->data[i].byte_count));
		u8 *p = pp_test_dma_dev_ptr(be64_to_cpu(rx_desc->data[i].addr),
					    n);

		if (!p)
			break;
		for (j = 0; j < n; j++)
			p[j] = frame ? frame[done + j] :
				       mlx4_rxt_byte(seed, done + j);
		done += n;
	}
	memset(cqe, 0, sizeof(*cqe));
	cqe->byte_cnt = cpu_to_be32(len);
	return cqe;
}

/* Hands the completion mlx4_rxt_write() returned to software. */
static void mlx4_rxt_complete(struct mlx4_rxt *t, struct mlx4_cqe *cqe,
			      u8 opcode)
{
	u32 seq = t->completions++;

	dma_wmb();
	cqe->owner_sr_opcode = opcode |
			       ((seq & t->cq->size) ? MLX4_CQE_OWNER_MASK : 0);
}

/* A frame of @len bytes of the pattern of @seed, and its completion. */
static void mlx4_rxt_receive(struct mlx4_rxt *t, unsigned int len, u8 seed,
			     u8 opcode, u8 badfcs)
{
	struct mlx4_cqe *cqe = mlx4_rxt_write(t, NULL, len, seed);

	cqe->badfcs_enc = badfcs;
	mlx4_rxt_complete(t, cqe, opcode);
}

struct mlx4_rxt_poll {
	struct mlx4_rxt *t;
	int budget;
	int polled;
};

static void mlx4_rxt_poll_fn(void *arg)
{
	struct mlx4_rxt_poll *p = arg;
	struct napi_struct *napi = &p->t->cq->napi;
	struct sk_buff *skb, *next;

	p->polled = mlx4_en_process_rx_cq(p->t->dev, p->t->cq, p->budget);
	/* Take what GRO queued for the stack, as gro_normal_list() would. */
	list_for_each_entry_safe(skb, next, &napi->rx_list, list) {
		skb_list_del_init(skb);
		__skb_queue_tail(&p->t->skbs, skb);
	}
	napi->rx_count = 0;
}

/* Runs the driver's completion handler in softirq, as NAPI does. */
static int mlx4_rxt_poll(struct mlx4_rxt *t, int budget)
{
	struct mlx4_rxt_poll p = { .t = t, .budget = budget };

	pp_test_in_softirq(mlx4_rxt_poll_fn, &p);
	return p.polled;
}

/* Checks that @skb holds the frame mlx4_rxt_receive() wrote. */
static void mlx4_rxt_expect_frame(struct kunit *test, struct sk_buff *skb,
				  unsigned int len, u8 seed)
{
	unsigned int i, bad = 0;
	u8 *buf;

	/* eth_type_trans() pulled the Ethernet header. */
	KUNIT_EXPECT_EQ(test, skb->len + ETH_HLEN, len);
	KUNIT_EXPECT_PTR_EQ(test, skb_mac_header(skb) + ETH_HLEN, skb->data);
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, skb_mac_header(skb), ETH_HLEN);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, buf + ETH_HLEN,
					    len - ETH_HLEN), 0);
	for (i = 0; i < len; i++)
		if (buf[i] != mlx4_rxt_byte(seed, i))
			bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "frame of %u bytes", len);
	kunit_kfree(test, buf);
}

static struct mlx4_en_rx_alloc *mlx4_rxt_frags(struct mlx4_rxt *t, u32 seq)
{
	return t->ring->rx_info +
	       ((seq & t->ring->size_mask) << t->priv->log_rx_info);
}

static struct page_pool_stats mlx4_rxt_stats(struct mlx4_rxt *t)
{
	return pp_test_stats(t->ring->pp);
}

static void mlx4_rxt_free_skbs(struct mlx4_rxt *t)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&t->skbs)))
		kfree_skb(skb);
}

static struct bpf_prog *mlx4_rxt_xdp_prog(struct kunit *test, u32 act)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, act),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	int err;

	prog = bpf_prog_alloc(bpf_prog_size(ARRAY_SIZE(insns)), 0);
	KUNIT_ASSERT_NOT_NULL(test, prog);
	prog->len = ARRAY_SIZE(insns);
	memcpy(prog->insnsi, insns, sizeof(insns));
	prog->type = BPF_PROG_TYPE_XDP;
	prog = bpf_prog_select_runtime(prog, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	return prog;
}

/* The buffer layouts mlx4_en_calc_rx_buf() picks, for 4 KiB pages and
 * for 64 KiB ones (ppc64le and arm64 hosts; computed with x86_64's cache
 * line and skb_shared_info): buffers of one stride share pages, 2 KiB
 * unless four of those cannot hold the frame, so that a 1500-byte frame
 * costs 2 KiB of truesize, 1920 bytes on 64 KiB pages; whole pages only
 * with XDP or when half a page is not enough.
 */
static void mlx4_rx_layout_shares_pages(struct kunit *test)
{
	static const struct {
		int mtu;
		unsigned int headroom;
		unsigned int page_size;
		bool whole_pages;
		int n;
		struct mlx4_en_frag_info info[MLX4_EN_MAX_RX_FRAGS];
	} c[] = {
		{ 1500, 64, SZ_4K, false, 1, { { 1522, 2048 } } },
		{ 4000, 64, SZ_4K, false, 3,
		  { { 1664, 2048 }, { 2048, 2048 }, { 310, 2048 } } },
		{ MLX4_RXT_MTU_SHARED, 64, SZ_4K, false, 4,
		  { { 1664, 2048 }, { 2048, 2048 }, { 2048, 2048 },
		    { 2048, 2048 } } },
		/* One byte more: 4 KiB buffers, which a page does not share. */
		{ MLX4_RXT_MTU_SHARED + 1, 64, SZ_4K, false, 3,
		  { { 3712, 4096 }, { 4032, 4096 }, { 65, 4096 } } },
		{ 9000, 64, SZ_4K, false, 3,
		  { { 3712, 4096 }, { 4032, 4096 }, { 1278, 4096 } } },
		/* XDP: a page of its own, XDP's headroom. */
		{ 1500, 256, SZ_4K, true, 1, { { 1522, 4096 } } },
		{ 1500, 64, SZ_64K, false, 1, { { 1522, 1920 } } },
		{ 4000, 64, SZ_64K, false, 3,
		  { { 1664, 2048 }, { 2048, 2048 }, { 310, 2048 } } },
		{ 9000, 64, SZ_64K, false, 3,
		  { { 3712, 4096 }, { 4096, 4096 }, { 1214, 4096 } } },
		{ 1500, 256, SZ_64K, true, 1, { { 1522, 65536 } } },
	};
	int i, j;

	mlx4_rxt_assume_x86_64(test);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct mlx4_en_frag_info info[MLX4_EN_MAX_RX_FRAGS] = {};
		int n = mlx4_en_layout_rx_bufs(info, MLX4_EN_EFF_MTU(c[i].mtu),
					       c[i].headroom, c[i].page_size,
					       c[i].whole_pages);

		KUNIT_EXPECT_EQ_MSG(test, n, c[i].n, "case %d", i);
		for (j = 0; j < c[i].n; j++) {
			KUNIT_EXPECT_EQ_MSG(test, info[j].frag_size,
					    c[i].info[j].frag_size,
					    "case %d buffer %d", i, j);
			KUNIT_EXPECT_EQ_MSG(test, info[j].frag_stride,
					    c[i].info[j].frag_stride,
					    "case %d buffer %d", i, j);
		}
	}
}

/* Activation posts two buffers a pool page, each page mapped once by the
 * pool and synced for the device whole, and writes each buffer's DMA
 * address, past the headroom, into its descriptor.
 */
static void mlx4_rx_activate_posts_pool_pages(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct mlx4_en_priv *priv = t->priv;
	struct mlx4_en_rx_ring *ring = t->ring;
	u32 i;

	KUNIT_EXPECT_EQ(test, priv->num_frags, 1);
	KUNIT_EXPECT_EQ(test, priv->rx_headroom, NET_SKB_PAD);
	KUNIT_EXPECT_EQ(test, priv->dma_dir, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, priv->frag_info[0].frag_size, MLX4_RXT_EFF_1500);
	KUNIT_EXPECT_EQ(test, priv->frag_info[0].frag_stride, MLX4_RXT_STRIDE);
	KUNIT_ASSERT_NOT_NULL(test, ring->pp);
	KUNIT_EXPECT_EQ(test, ring->actual_size, ring->size);
	/* Two buffers to a page: half as many pages as descriptors. */
	KUNIT_EXPECT_EQ(test, ring->rx_alloc_pages, MLX4_RXT_RING_SIZE / 2UL);
	KUNIT_EXPECT_EQ(test, ring->prod, ring->size);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->rx_db), ring->size);

	for (i = 0; i < ring->size; i++) {
		struct mlx4_en_rx_desc *rx_desc = ring->buf +
						  (i << ring->log_stride);
		struct mlx4_en_rx_alloc *frags = mlx4_rxt_frags(t, i);

		KUNIT_ASSERT_NOT_NULL(test, frags[0].page);
		KUNIT_EXPECT_TRUE(test, pp_test_owns(ring->pp, frags[0].page));
		/* Descriptors 2k and 2k + 1 share a page. */
		KUNIT_EXPECT_PTR_EQ(test, frags[0].page,
				    mlx4_rxt_frags(t, i & ~1U)[0].page);
		if (i & 1)
			KUNIT_EXPECT_PTR_NE(test, frags[0].page,
					    mlx4_rxt_frags(t, i + 1)[0].page);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(rx_desc->data[0].addr),
				(u64)page_pool_get_dma_addr(frags[0].page) +
				(i & 1) * MLX4_RXT_STRIDE + NET_SKB_PAD);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(rx_desc->data[0].byte_count),
				(u32)priv->frag_info[0].frag_size);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			MLX4_RXT_RING_SIZE / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs),
			MLX4_RXT_RING_SIZE / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A frame that fits one buffer becomes an skb built around the posted
 * buffer, the frame at the headroom, marked for recycling, with the
 * buffer's 2 KiB as its truesize; a page goes back to the pool when the
 * skbs of both its buffers are freed.
 */
static void mlx4_rx_linear_frame_builds_skb_on_pool_page(struct kunit *test)
{
	static const unsigned int lens[MLX4_RXT_SKB_BATCH] = {
		60, 1514, 1000, MLX4_EN_EFF_MTU(1500)
	};
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct page *pages[MLX4_RXT_SKB_BATCH];
	struct page_pool_stats before, after;
	struct pp_test_dma_sync sync;
	struct sk_buff *skb;
	int i;

	for (i = 0; i < MLX4_RXT_SKB_BATCH; i++) {
		pages[i] = mlx4_rxt_frags(t, i)[0].page;
		mlx4_rxt_receive(t, lens[i], i, 0, 0);
	}
	KUNIT_EXPECT_PTR_EQ(test, pages[1], pages[0]);
	KUNIT_EXPECT_PTR_EQ(test, pages[3], pages[2]);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), MLX4_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX4_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, t->ring->packets, (unsigned long)MLX4_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, t->cq->mcq.cons_index, (u32)MLX4_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->cq_db), (u32)MLX4_RXT_SKB_BATCH);

	/* The last frame's buffer was synced for the CPU over the frame. */
	sync = pp_test_dma_last(&pp_test_dma.cpu_log);
	KUNIT_EXPECT_EQ(test, pp_test_dma.cpu_log.n, MLX4_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, sync.addr, page_pool_get_dma_addr(pages[3]) +
			MLX4_RXT_STRIDE + NET_SKB_PAD);
	KUNIT_EXPECT_EQ(test, sync.size, (size_t)lens[3]);

	i = 0;
	skb_queue_walk(&t->skbs, skb) {
		KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head,
				    page_address(pages[i]) +
				    (i & 1) * MLX4_RXT_STRIDE);
		KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
				NET_SKB_PAD);
		KUNIT_EXPECT_EQ(test, skb->truesize, MLX4_RXT_STRIDE +
				SKB_DATA_ALIGN(sizeof(struct sk_buff)));
		KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(skb));
		KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
		KUNIT_EXPECT_EQ(test, skb_get_rx_queue(skb), 0);
		KUNIT_EXPECT_PTR_EQ(test, skb->dev, t->dev);
		mlx4_rxt_expect_frame(test, skb, lens[i], i);
		/* The page left the ring with the skb. */
		KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, i)[0].page);
		i++;
	}

	/* The first skb's page waits for the second's. */
	before = mlx4_rxt_stats(t);
	kfree_skb(__skb_dequeue(&t->skbs));
	after = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring, before.recycle_stats.ring);
	mlx4_rxt_free_skbs(t);
	after = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring -
			before.recycle_stats.ring, (u64)MLX4_RXT_SKB_BATCH / 2);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring_full, 0ULL);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* What the CQE says besides the bytes: a C-VLAN or S-VLAN tag the
 * device took off becomes the skb's tag, with its protocol, and the RSS
 * hash the skb's hash, each only while its feature is on.
 */
static void mlx4_rx_vlan_tag_and_hash_from_cqe(struct kunit *test)
{
	static const netdev_features_t features[] = {
		NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_HW_VLAN_STAG_RX |
		NETIF_F_RXHASH,
		NETIF_F_HW_VLAN_CTAG_RX,
		NETIF_F_HW_VLAN_STAG_RX,
		0,
	};
	static const struct {
		u32 vlan;
		u16 tci;
		u32 hash;
		u16 proto;
		netdev_features_t feature;
	} c[] = {
		{ MLX4_CQE_CVLAN_PRESENT_MASK, 0x2123, 0xabcd1234, ETH_P_8021Q,
		  NETIF_F_HW_VLAN_CTAG_RX },
		{ MLX4_CQE_SVLAN_PRESENT_MASK, 0x0456, 0x11, ETH_P_8021AD,
		  NETIF_F_HW_VLAN_STAG_RX },
		{ 0, 0x0789, 0x22, 0, 0 },
	};
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct mlx4_cqe *cqe;
	struct sk_buff *skb;
	int pass, i;

	for (pass = 0; pass < ARRAY_SIZE(features); pass++) {
		netdev_features_t on = features[pass];

		t->dev->features = on;
		for (i = 0; i < ARRAY_SIZE(c); i++) {
			cqe = mlx4_rxt_write(t, NULL, 200, i);
			cqe->vlan_my_qpn = cpu_to_be32(c[i].vlan);
			cqe->sl_vid = cpu_to_be16(c[i].tci);
			cqe->immed_rss_invalid = cpu_to_be32(c[i].hash);
			mlx4_rxt_complete(t, cqe, 0);
		}
		KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), (int)ARRAY_SIZE(c));
		KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), ARRAY_SIZE(c));
		for (i = 0; i < ARRAY_SIZE(c); i++) {
			bool tagged = on & c[i].feature;

			skb = __skb_dequeue(&t->skbs);
			KUNIT_EXPECT_EQ_MSG(test, !!skb_vlan_tag_present(skb),
					    tagged, "pass %d frame %d", pass, i);
			if (tagged) {
				KUNIT_EXPECT_EQ(test, skb_vlan_tag_get(skb),
						c[i].tci);
				KUNIT_EXPECT_EQ(test,
						be16_to_cpu(skb->vlan_proto),
						c[i].proto);
			}
			KUNIT_EXPECT_EQ(test, skb->hash,
					on & NETIF_F_RXHASH ? c[i].hash : 0);
			KUNIT_EXPECT_FALSE(test, skb->l4_hash);
			mlx4_rxt_expect_frame(test, skb, 200, i);
			kfree_skb(skb);
		}
	}

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* Lap after lap of the ring, with the stack freeing each batch: once the
 * pool has what it needs, no page is mapped again, none is released,
 * every page comes back once both its buffers have, and every sync for
 * the device covers the page.
 */
static void mlx4_rx_steady_state_maps_nothing_new(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct page_pool_stats s;
	int lap, i, maps_after_first = 0;

	for (lap = 0; lap < 4; lap++) {
		for (i = 0; i < MLX4_RXT_RING_SIZE; i += MLX4_RXT_SKB_BATCH) {
			u32 seq = t->completions;
			int j;

			for (j = 0; j < MLX4_RXT_SKB_BATCH; j++)
				mlx4_rxt_receive(t, 64 + 300 * j, seq + j, 0, 0);
			KUNIT_ASSERT_EQ(test, mlx4_rxt_poll(t, 64),
					MLX4_RXT_SKB_BATCH);
			KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs),
					MLX4_RXT_SKB_BATCH);
			for (j = 0; j < MLX4_RXT_SKB_BATCH; j++) {
				struct sk_buff *skb = __skb_dequeue(&t->skbs);

				mlx4_rxt_expect_frame(test, skb, 64 + 300 * j,
						      seq + j);
				kfree_skb(skb);
			}
			/* The refill keeps the ring at most 7 buffers short. */
			KUNIT_EXPECT_GE(test, t->ring->prod - t->ring->cons,
					(u32)MLX4_RXT_RING_SIZE - 7);
		}
		if (!lap)
			maps_after_first = atomic_read(&pp_test_dma.maps);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps_after_first);
	KUNIT_EXPECT_EQ(test, pp_test_dma.mapped_twice, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring,
			4ULL * MLX4_RXT_RING_SIZE / 2);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, t->ring->packets, 4UL * MLX4_RXT_RING_SIZE);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A jumbo frame spans three buffers: the skb is built on the first
 * page, the other two hang on it as fragments at their headroom; a
 * short frame on the same ring takes only the first buffer, and the
 * descriptor keeps its other pages as they were.
 */
static void mlx4_rx_jumbo_frame_gets_pool_page_frags(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 9000, NULL);
	struct mlx4_en_priv *priv = t->priv;
	unsigned int room0 = SKB_WITH_OVERHEAD(PAGE_SIZE - NET_SKB_PAD);
	unsigned int room = PAGE_SIZE - NET_SKB_PAD;
	struct mlx4_en_rx_alloc *frags;
	struct page *jumbo[3], *keep1, *keep2;
	struct page_pool_stats s;
	struct sk_buff *skb;
	unsigned int len = 9000;
	int i;

	KUNIT_ASSERT_EQ(test, priv->num_frags, 3);
	KUNIT_EXPECT_EQ(test, (unsigned int)priv->frag_info[0].frag_size,
			room0);
	KUNIT_EXPECT_EQ(test, (unsigned int)priv->frag_info[1].frag_size,
			room);
	KUNIT_EXPECT_EQ(test, (int)priv->frag_info[2].frag_size,
			MLX4_EN_EFF_MTU(9000) - (int)(room0 + room));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			3 * MLX4_RXT_RING_SIZE);

	frags = mlx4_rxt_frags(t, 0);
	for (i = 0; i < 3; i++)
		jumbo[i] = frags[i].page;
	keep1 = mlx4_rxt_frags(t, 1)[1].page;
	keep2 = mlx4_rxt_frags(t, 1)[2].page;

	mlx4_rxt_receive(t, len, 3, 0, 0);
	mlx4_rxt_receive(t, 200, 4, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 2);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 2U);

	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(jumbo[0]));
	KUNIT_EXPECT_EQ(test, skb_headlen(skb) + ETH_HLEN, room0);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 2);
	for (i = 0; i < 2; i++) {
		skb_frag_t *f = &skb_shinfo(skb)->frags[i];

		KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(f), jumbo[i + 1]);
		KUNIT_EXPECT_EQ(test, skb_frag_off(f), (unsigned int)NET_SKB_PAD);
	}
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[0]), room);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[1]),
			len - room0 - room);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
	mlx4_rxt_expect_frame(test, skb, len, 3);
	/* The last fragment was synced for the CPU over what it holds. */
	skb = skb_peek_tail(&t->skbs);
	mlx4_rxt_expect_frame(test, skb, 200, 4);
	KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(skb));
	frags = mlx4_rxt_frags(t, 1);
	KUNIT_EXPECT_NULL(test, frags[0].page);
	KUNIT_EXPECT_PTR_EQ(test, frags[1].page, keep1);
	KUNIT_EXPECT_PTR_EQ(test, frags[2].page, keep2);

	mlx4_rxt_free_skbs(t);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 4ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* At MTU 4000 a frame spans three buffers of one 2 KiB stride, 1664 +
 * 2048 + 310 bytes, which the pool packs two to a page: the skb is built
 * on the first, and the second, in the same page, and the third, at the
 * start of the next, hang on it as fragments. Each buffer counts 2 KiB
 * of truesize, and a page goes back to the pool when both its buffers
 * have: the next descriptor's first buffer holds the second page.
 */
static void mlx4_rx_multi_buffer_frame_shares_pages(struct kunit *test)
{
	static const unsigned int size[3] = { 1664, 2048, 310 };
	const unsigned int offset[3] = { NET_SKB_PAD, 2048, 0 };
	struct mlx4_rxt *t = mlx4_rxt_start(test, 4000, NULL);
	struct mlx4_en_rx_alloc *frags = mlx4_rxt_frags(t, 0);
	struct page *pages[3];
	struct page_pool_stats s;
	struct sk_buff *skb;
	unsigned int len = 4000;
	int i;

	KUNIT_ASSERT_EQ(test, t->priv->num_frags, 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, t->priv->frag_info[i].frag_size, size[i]);
		KUNIT_EXPECT_EQ(test, t->priv->frag_info[i].frag_stride,
				MLX4_RXT_STRIDE);
		KUNIT_EXPECT_EQ(test, frags[i].page_offset, offset[i]);
		pages[i] = frags[i].page;
	}
	KUNIT_EXPECT_PTR_EQ(test, pages[1], pages[0]);
	KUNIT_EXPECT_PTR_NE(test, pages[2], pages[0]);
	KUNIT_EXPECT_PTR_EQ(test, mlx4_rxt_frags(t, 1)[0].page, pages[2]);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_frags(t, 1)[0].page_offset,
			2048U + NET_SKB_PAD);
	/* Three buffers a descriptor, two a page. */
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			3 * MLX4_RXT_RING_SIZE / 2);

	mlx4_rxt_receive(t, len, 5, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(pages[0]));
	KUNIT_EXPECT_EQ(test, skb_headlen(skb) + ETH_HLEN, size[0]);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 2);
	for (i = 0; i < 2; i++) {
		skb_frag_t *f = &skb_shinfo(skb)->frags[i];

		KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(f), pages[i + 1]);
		KUNIT_EXPECT_EQ(test, skb_frag_off(f), offset[i + 1]);
	}
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[1]),
			len - size[0] - size[1]);
	KUNIT_EXPECT_EQ(test, skb->truesize, 3 * MLX4_RXT_STRIDE +
			SKB_DATA_ALIGN(sizeof(struct sk_buff)));
	mlx4_rxt_expect_frame(test, skb, len, 5);

	mlx4_rxt_free_skbs(t);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* Frames the hardware flags as bad never reach an skb, and the CPU never
 * reads their buffers: each stays posted where it was, no page goes back
 * to the pool, and nothing is synced or taken from the pool again.
 */
static void mlx4_rx_bad_frames_stay_posted(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct mlx4_en_rx_alloc before[8];
	struct page_pool_stats s;
	int i;

	for (i = 0; i < 8; i++)
		before[i] = mlx4_rxt_frags(t, i)[0];
	for (i = 0; i < 8; i++)
		mlx4_rxt_receive(t, 100, i,
				 i & 1 ? MLX4_CQE_OPCODE_ERROR : 0,
				 i & 1 ? 0 : MLX4_CQE_BAD_FCS);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 8);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	for (i = 0; i < 8; i++) {
		struct mlx4_en_rx_alloc *frag = &mlx4_rxt_frags(t, i)[0];

		KUNIT_EXPECT_PTR_EQ(test, frag->page, before[i].page);
		KUNIT_EXPECT_EQ(test, frag->page_offset, before[i].page_offset);
	}
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	/* The eight descriptors were posted again as they were. */
	KUNIT_EXPECT_EQ(test, t->ring->prod - t->ring->cons,
			(u32)MLX4_RXT_RING_SIZE);
	KUNIT_EXPECT_EQ(test, t->ring->rx_alloc_pages,
			MLX4_RXT_RING_SIZE / 2UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			MLX4_RXT_RING_SIZE / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs),
			MLX4_RXT_RING_SIZE / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.cpu_syncs), 0);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A short frame in a descriptor of three whole-page buffers, dropped
 * after the CPU read its first buffer (here by the loopback selftest):
 * only that buffer goes back to the pool, to be synced for the device
 * and posted again; the two the frame never reached stay posted.
 */
static void mlx4_rx_drop_gives_back_only_the_read_buffer(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 9000, NULL);
	struct mlx4_en_rx_alloc *frags;
	struct page_pool_stats s;
	struct page *unread[2];

	KUNIT_ASSERT_EQ(test, t->priv->num_frags, 3);
	KUNIT_EXPECT_EQ(test, t->ring->rx_alloc_pages,
			3UL * MLX4_RXT_RING_SIZE);
	frags = mlx4_rxt_frags(t, 0);
	unread[0] = frags[1].page;
	unread[1] = frags[2].page;

	t->priv->validate_loopback = 1;
	mlx4_rxt_receive(t, 100, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	t->priv->validate_loopback = 0;
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);

	/* One buffer missing is under the refill's batch: the slot stays
	 * empty for now.
	 */
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 1ULL);
	frags = mlx4_rxt_frags(t, 0);
	KUNIT_EXPECT_NULL(test, frags[0].page);
	KUNIT_EXPECT_PTR_EQ(test, frags[1].page, unread[0]);
	KUNIT_EXPECT_PTR_EQ(test, frags[2].page, unread[1]);
	/* The CPU read the first buffer only. */
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.cpu_syncs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			3 * MLX4_RXT_RING_SIZE);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A completion that counts more bytes than the buffers posted hold (a
 * length from the wire, a device fault, a runt shorter than the FCS the
 * driver takes off) or fewer than an Ethernet header is dropped and
 * counted, its buffer left posted, and the ring goes on; a frame
 * that fills the buffer exactly is not, with or without an FCS to take
 * off.
 */
static void mlx4_rx_byte_count_over_buffers_is_dropped(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct page_pool_stats s;

	/* The device writes the 1522 bytes posted and reports 1526. */
	mlx4_rxt_receive(t, MLX4_RXT_EFF_1500 + ETH_FCS_LEN, 1, 0, 0);
	mlx4_rxt_receive(t, MLX4_RXT_EFF_1500, 2, 0, 0);
	mlx4_rxt_receive(t, ETH_HLEN - 1, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 3);
	KUNIT_EXPECT_EQ(test, t->ring->dropped, 2UL);
	KUNIT_EXPECT_EQ(test, t->ring->packets, 1UL);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	mlx4_rxt_expect_frame(test, skb_peek(&t->skbs), MLX4_RXT_EFF_1500, 2);

	/* With the FCS kept, two bytes wrap below zero once the driver
	 * takes four off; a full frame and its FCS still fit.
	 */
	t->ring->fcs_del = ETH_FCS_LEN;
	mlx4_rxt_receive(t, 2, 4, 0, 0);
	mlx4_rxt_receive(t, MLX4_RXT_EFF_1500 + ETH_FCS_LEN, 5, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 2);
	KUNIT_EXPECT_EQ(test, t->ring->dropped, 3UL);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 2U);
	mlx4_rxt_expect_frame(test, skb_peek_tail(&t->skbs),
			      MLX4_RXT_EFF_1500, 5);

	/* The drops, before the CPU read anything, left their buffers
	 * posted; the skbs took those of 1 and 4, which the refill, under
	 * its batch, has not replaced. No page is back: the skbs' pages
	 * still have the buffers of 0 and 5 posted.
	 */
	KUNIT_EXPECT_NOT_NULL(test, mlx4_rxt_frags(t, 0)[0].page);
	KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, 1)[0].page);
	KUNIT_EXPECT_NOT_NULL(test, mlx4_rxt_frags(t, 2)[0].page);
	KUNIT_EXPECT_NOT_NULL(test, mlx4_rxt_frags(t, 3)[0].page);
	KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, 4)[0].page);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 0ULL);
	mlx4_rxt_free_skbs(t);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 0ULL);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* The ring's pool follows the node its NAPI runs on: a poll on this CPU
 * (the case is pinned) brings a pool set to another node back to this
 * CPU's, and the refill posts pages of this node.
 */
static void mlx4_rx_pool_follows_napi_node(struct kunit *test)
{
	int here = numa_mem_id();
	int away = pp_test_remote_node();
	struct mlx4_rxt *t;
	int i;

	if (away == here)
		kunit_skip(test, "one NUMA node");
	t = mlx4_rxt_start(test, 1500, NULL);
	page_pool_update_nid(t->ring->pp, away);
	KUNIT_ASSERT_EQ(test, t->ring->pp->p.nid, away);

	/* Eight buffers gone: the second poll refills them, from pages the
	 * pool has to allocate.
	 */
	for (i = 0; i < 2 * MLX4_RXT_SKB_BATCH; i++) {
		mlx4_rxt_receive(t, 100, i, 0, 0);
		if (i % MLX4_RXT_SKB_BATCH == MLX4_RXT_SKB_BATCH - 1)
			KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64),
					MLX4_RXT_SKB_BATCH);
	}
	KUNIT_EXPECT_EQ(test, t->ring->pp->p.nid, here);
	KUNIT_ASSERT_NOT_NULL(test, mlx4_rxt_frags(t, 0)[0].page);
	KUNIT_EXPECT_EQ(test, page_to_nid(mlx4_rxt_frags(t, 0)[0].page), here);

	mlx4_rxt_free_skbs(t);
	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* XDP_DROP: the program sees the frame in a page mapped both ways with
 * XDP's headroom; the page goes back to the pool's cache from NAPI,
 * synced for the device, and the refill takes it from there, so laps
 * of the ring map nothing new.
 */
static void mlx4_rx_xdp_drop_recycles_direct(struct kunit *test)
{
	struct bpf_prog *prog = mlx4_rxt_xdp_prog(test, XDP_DROP);
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, prog);
	struct pp_test_dma_sync sync;
	struct page_pool_stats s;
	int i, n = 3 * MLX4_RXT_RING_SIZE;

	KUNIT_EXPECT_EQ(test, t->priv->rx_headroom, XDP_PACKET_HEADROOM);
	KUNIT_EXPECT_EQ(test, t->priv->dma_dir, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_dir(t->ring->pp),
			DMA_BIDIRECTIONAL);
	for (i = 0; i < n; i += 16) {
		int j;

		for (j = 0; j < 16; j++)
			mlx4_rxt_receive(t, 60 + j, j, 0, 0);
		KUNIT_ASSERT_EQ(test, mlx4_rxt_poll(t, 64), 16);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_drop, (unsigned long)n);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, (u64)n);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), MLX4_RXT_RING_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs),
			MLX4_RXT_RING_SIZE + n);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	/* The CPU sync covered the frame at XDP's headroom. */
	sync = pp_test_dma_last(&pp_test_dma.cpu_log);
	KUNIT_EXPECT_EQ(test, offset_in_page(sync.addr),
			(unsigned long)XDP_PACKET_HEADROOM);
	KUNIT_EXPECT_EQ(test, sync.size, (size_t)75);

	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

/* A program of the case's own, run where the interpreter would run one:
 * it pops @head bytes off the frame's front and grows its end by @tail
 * through the helpers a BPF program calls, writes the bytes the tail
 * gains as the frame's own, and passes the frame.
 */
struct mlx4_rxt_adjust {
	const struct bpf_func_proto *head_fn;
	const struct bpf_func_proto *tail_fn;
	int head;
	int tail;
	u8 seed;
	u64 err;
};

static struct mlx4_rxt_adjust mlx4_rxt_adjust;

static unsigned int mlx4_rxt_adjust_run(const void *ctx,
					const struct bpf_insn *insn)
{
	struct xdp_buff *xdp = (struct xdp_buff *)ctx;
	struct mlx4_rxt_adjust *a = &mlx4_rxt_adjust;
	unsigned int len, i;
	u8 *data;

	a->err = a->head_fn->func((unsigned long)xdp, a->head, 0, 0, 0);
	len = xdp->data_end - xdp->data;
	a->err |= a->tail_fn->func((unsigned long)xdp, a->tail, 0, 0, 0);
	data = xdp->data;
	for (i = len; i < len + a->tail; i++)
		data[i] = mlx4_rxt_byte(a->seed, a->head + i);
	return XDP_PASS;
}

static struct bpf_prog *mlx4_rxt_adjust_prog(struct kunit *test, int head,
					     int tail, u8 seed)
{
	struct bpf_prog *prog = pp_test_xdp_prog(test, mlx4_rxt_adjust_run);
	struct mlx4_rxt_adjust *a = &mlx4_rxt_adjust;

	a->head_fn = xdp_verifier_ops.get_func_proto(BPF_FUNC_xdp_adjust_head,
						     prog);
	a->tail_fn = xdp_verifier_ops.get_func_proto(BPF_FUNC_xdp_adjust_tail,
						     prog);
	KUNIT_ASSERT_NOT_NULL(test, a->head_fn);
	KUNIT_ASSERT_NOT_NULL(test, a->tail_fn);
	a->head = head;
	a->tail = tail;
	a->seed = seed;
	a->err = 0;
	return prog;
}

/* bpf_xdp_adjust_head() and bpf_xdp_adjust_tail(): a program pops 14
 * bytes off a 1000-byte frame and grows it by 100 into the tailroom. The
 * skb starts where the frame now does, on the pool page, and holds all
 * 1086 bytes, the 100 the program wrote included.
 */
static void mlx4_rx_xdp_adjust_head_and_tail(struct kunit *test)
{
	struct bpf_prog *prog = mlx4_rxt_adjust_prog(test, 14, 100, 3);
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, prog);
	struct page *page = mlx4_rxt_frags(t, 0)[0].page;
	struct sk_buff *skb;

	mlx4_rxt_receive(t, 1000, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_adjust.err, 0ULL);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(page));
	KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
			XDP_PACKET_HEADROOM + 14);
	/* Byte i of what is left was byte i + 14 of the frame. */
	mlx4_rxt_expect_frame(test, skb, 1000 - 14 + 100, 3 + 14 * 7);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);

	mlx4_rxt_free_skbs(t);
	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

/* XDP_PASS: the skb is built on the page with XDP's headroom in front. */
static void mlx4_rx_xdp_pass_builds_skb(struct kunit *test)
{
	struct bpf_prog *prog = mlx4_rxt_xdp_prog(test, XDP_PASS);
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, prog);
	struct page *page = mlx4_rxt_frags(t, 0)[0].page;
	struct page_pool_stats s;
	struct sk_buff *skb;

	mlx4_rxt_receive(t, 1400, 9, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(page));
	KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
			XDP_PACKET_HEADROOM);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
	mlx4_rxt_expect_frame(test, skb, 1400, 9);
	mlx4_rxt_free_skbs(t);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

struct mlx4_rxt_tx_done {
	struct mlx4_rxt *t;
	struct mlx4_en_tx_ring *tx;
	int index;
};

static void mlx4_rxt_tx_done_fn(void *arg)
{
	struct mlx4_rxt_tx_done *c = arg;

	mlx4_en_recycle_tx_desc(c->t->priv, c->tx, c->index, 0, NAPI_POLL_WEIGHT);
}

/* An XDP TX ring of 16 TXBBs recycling into the RX ring, with its CQ:
 * what mlx4_en_create_tx_ring() and mlx4_en_activate_tx_ring() set.
 */
struct mlx4_rxt_tx {
	struct mlx4_en_tx_ring *tx, *rings[1];
	struct mlx4_en_cq *cq, *cqs[1];
	u32 doorbell;
};

static struct mlx4_rxt_tx *mlx4_rxt_tx_start(struct kunit *test,
					     struct mlx4_rxt *t)
{
	struct mlx4_en_tx_ring *tx;
	struct mlx4_rxt_tx *x;

	if (!IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the doorbell is an iowrite32() to host memory");
	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	tx = kunit_kzalloc(test, sizeof(*tx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tx);
	x->tx = tx;
	tx->size = 16;
	tx->size_mask = tx->size - 1;
	tx->full_size = tx->size / 2;
	tx->buf = kunit_kzalloc(test, tx->size * TXBB_SIZE, GFP_KERNEL);
	tx->tx_info = kunit_kcalloc(test, tx->size, sizeof(*tx->tx_info),
				    GFP_KERNEL);
	x->cq = kunit_kzalloc(test, sizeof(*x->cq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tx->buf);
	KUNIT_ASSERT_NOT_NULL(test, tx->tx_info);
	KUNIT_ASSERT_NOT_NULL(test, x->cq);
	tx->doorbell_address = (__force void __iomem *)&x->doorbell;
	tx->doorbell_qpn = cpu_to_be32(0x1234);
	tx->recycle_ring = t->ring;
	tx->free_tx_desc = mlx4_en_recycle_tx_desc;
	mlx4_en_init_tx_xdp_ring_descs(t->priv, tx);
	x->rings[0] = tx;
	x->cqs[0] = x->cq;
	t->priv->tx_ring[TX_XDP] = x->rings;
	t->priv->tx_cq[TX_XDP] = x->cqs;
	return x;
}

static void mlx4_rxt_tx_stop(struct mlx4_rxt *t)
{
	t->priv->tx_ring[TX_XDP] = NULL;
	t->priv->tx_cq[TX_XDP] = NULL;
}

/* XDP_TX: the frame goes out on the XDP TX ring from the RX page itself,
 * at the DMA address the pool keeps, synced for the device over the
 * frame. Its completion, polled in the RX ring's NAPI, puts the page
 * back in the pool's cache; the TX ring's teardown gives back the pages
 * it still holds through the pool's ring.
 */
static void mlx4_rx_xdp_tx_returns_pages_to_pool(struct kunit *test)
{
	static const unsigned int lens[4] = { 60, 700, 1400, 1514 };
	struct page_pool_stats before, after;
	struct pp_test_dma_sync sync;
	struct mlx4_en_tx_ring *tx;
	struct mlx4_rxt_tx_done c;
	struct mlx4_en_cq *tx_cq;
	struct page *pages[4];
	struct bpf_prog *prog;
	struct mlx4_rxt_tx *x;
	struct mlx4_rxt *t;
	int i, j, bad;
	u8 *sent;

	prog = mlx4_rxt_xdp_prog(test, XDP_TX);
	t = mlx4_rxt_start(test, 1500, prog);
	x = mlx4_rxt_tx_start(test, t);
	tx = x->tx;
	tx_cq = x->cq;

	for (i = 0; i < 4; i++) {
		pages[i] = mlx4_rxt_frags(t, i)[0].page;
		mlx4_rxt_receive(t, lens[i], i, 0, 0);
	}
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 4);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_tx, 4UL);
	KUNIT_EXPECT_EQ(test, tx->prod, 4U * MLX4_RXT_XDP_TXBBS);
	KUNIT_EXPECT_TRUE(test, tx_cq->xdp_busy);
	KUNIT_EXPECT_EQ(test, x->doorbell, (__force u32)cpu_to_be32(0x1234));
	for (i = 0; i < 4; i++) {
		struct mlx4_en_tx_desc *tx_desc = tx->buf +
			((i * MLX4_RXT_XDP_TXBBS) << LOG_TXBB_SIZE);
		dma_addr_t dma = page_pool_get_dma_addr(pages[i]);
		struct mlx4_en_tx_info *tx_info =
			&tx->tx_info[i * MLX4_RXT_XDP_TXBBS];

		KUNIT_EXPECT_PTR_EQ(test, tx_info->page, pages[i]);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(tx_desc->data.addr),
				(u64)dma + XDP_PACKET_HEADROOM);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(tx_desc->data.byte_count),
				lens[i]);
		KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, i)[0].page);
		/* What the device sends went through the CPU and both syncs. */
		sent = pp_test_dma_dev_ptr(be64_to_cpu(tx_desc->data.addr),
					   lens[i]);
		for (j = 0, bad = 0; sent && j < lens[i]; j++)
			bad += sent[j] != mlx4_rxt_byte(i, j);
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "frame %d as sent", i);
	}
	sync = pp_test_dma_last(&pp_test_dma.tx_log);
	KUNIT_EXPECT_EQ(test, pp_test_dma.tx_log.n, 4);
	KUNIT_EXPECT_EQ(test, sync.addr,
			page_pool_get_dma_addr(pages[3]) + XDP_PACKET_HEADROOM);
	KUNIT_EXPECT_EQ(test, sync.size, (size_t)lens[3]);

	/* Two completions in NAPI: straight into the pool's cache. */
	before = mlx4_rxt_stats(t);
	c.t = t;
	c.tx = tx;
	for (c.index = 0; c.index < 2 * MLX4_RXT_XDP_TXBBS;
	     c.index += MLX4_RXT_XDP_TXBBS)
		pp_test_in_softirq(mlx4_rxt_tx_done_fn, &c);
	tx->cons = 2 * MLX4_RXT_XDP_TXBBS;
	after = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.cached -
			before.recycle_stats.cached, 2ULL);

	/* The TX ring goes down with two frames still posted. */
	before = after;
	KUNIT_EXPECT_EQ(test, mlx4_en_free_tx_buf(t->dev, tx), 2);
	after = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring -
			before.recycle_stats.ring, 2ULL);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), MLX4_RXT_RING_SIZE);

	mlx4_rxt_tx_stop(t);
	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

/* XDP_TX with the TX ring full (more than half its 16 TXBBs posted, no
 * completion yet): the frames past it are dropped and counted, and their
 * pages go straight back to the pool's cache, to be posted again.
 */
static void mlx4_rx_xdp_tx_ring_full_drops_to_cache(struct kunit *test)
{
	struct bpf_prog *prog = mlx4_rxt_xdp_prog(test, XDP_TX);
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, prog);
	struct mlx4_rxt_tx *x = mlx4_rxt_tx_start(test, t);
	struct page_pool_stats s;
	int i;

	for (i = 0; i < 12; i++)
		mlx4_rxt_receive(t, 100, i, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 12);
	/* Sent while at most 8 were posted: frames 0 to 8. */
	KUNIT_EXPECT_EQ(test, t->ring->xdp_tx, 9UL);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_tx_full, 3UL);
	KUNIT_EXPECT_EQ(test, x->tx->prod, 9U * MLX4_RXT_XDP_TXBBS);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 3ULL);
	/* The refill of twelve took the three back, and nine new pages,
	 * of the one batch the pool's slow path maps.
	 */
	KUNIT_EXPECT_EQ(test, t->ring->prod - t->ring->cons,
			(u32)MLX4_RXT_RING_SIZE);
	KUNIT_EXPECT_EQ(test, t->ring->rx_alloc_pages,
			MLX4_RXT_RING_SIZE + 12UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps),
			MLX4_RXT_RING_SIZE + PP_ALLOC_CACHE_REFILL);

	KUNIT_EXPECT_EQ(test, mlx4_en_free_tx_buf(t->dev, x->tx), 9);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 9ULL);
	mlx4_rxt_tx_stop(t);
	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

/* A program that bpf_redirect()s every frame to an interface, through
 * the helper a BPF program calls.
 */
static const struct bpf_func_proto *mlx4_rxt_redirect_fn;
static int mlx4_rxt_redirect_to;

static unsigned int mlx4_rxt_redirect_run(const void *ctx,
					  const struct bpf_insn *insn)
{
	return mlx4_rxt_redirect_fn->func(mlx4_rxt_redirect_to, 0, 0, 0, 0);
}

static struct bpf_prog *mlx4_rxt_redirect_prog(struct kunit *test,
					       int ifindex)
{
	struct bpf_prog *prog = pp_test_xdp_prog(test, mlx4_rxt_redirect_run);

	mlx4_rxt_redirect_fn =
		xdp_verifier_ops.get_func_proto(BPF_FUNC_redirect, prog);
	KUNIT_ASSERT_NOT_NULL(test, mlx4_rxt_redirect_fn);
	mlx4_rxt_redirect_to = ifindex;
	return prog;
}

/* XDP_REDIRECT to another interface: the frame takes its page off the
 * ring, still mapped (the pool's mapping, where 6.1 left the driver's
 * behind), for the next refill to replace. A frame the far side gives
 * back returns its page to the pool; one that cpumap or veth turns into
 * an skb takes its page out of the pool (6.1's xdp.c), unmapped, to be
 * freed with the skb.
 */
static void mlx4_rx_xdp_redirect_frame_holds_page(struct kunit *test)
{
	struct net_device *fwd = pp_test_fwd_start(test);
	struct pp_test_fwd *f = netdev_priv(fwd);
	struct bpf_prog *prog = mlx4_rxt_redirect_prog(test, fwd->ifindex);
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, prog);
	struct page_pool_stats s;
	struct page *pages[4];
	int i, j, bad;

	for (i = 0; i < 4; i++) {
		pages[i] = mlx4_rxt_frags(t, i)[0].page;
		mlx4_rxt_receive(t, 100 + 400 * i, i, 0, 0);
	}
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 4);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_redirect, 4UL);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_redirect_fail, 0UL);
	KUNIT_EXPECT_EQ(test, t->ring->xdp_drop, 0UL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, f->n, 4);
	for (i = 0; i < f->n; i++) {
		struct xdp_frame *xdpf = f->frames[i];
		u8 *data = xdpf->data;

		KUNIT_EXPECT_PTR_EQ(test, virt_to_page(data), pages[i]);
		KUNIT_EXPECT_EQ(test, offset_in_page(data),
				(unsigned long)XDP_PACKET_HEADROOM);
		KUNIT_EXPECT_EQ(test, xdpf->len, 100U + 400 * i);
		for (j = 0, bad = 0; j < xdpf->len; j++)
			bad += data[j] != mlx4_rxt_byte(i, j);
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "frame %d", i);
		KUNIT_EXPECT_NE(test, page_pool_get_dma_addr(pages[i]), 0);
		KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, i)[0].page);
	}
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 0);

	/* Two frames go back as frames, to the pool; two become skbs, as
	 * cpumap or veth make of them, and leave the pool unmapped.
	 */
	pp_test_fwd_finish(test, fwd, 2);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 2ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 2);

	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	pp_test_fwd_stop(fwd);
	mlx4_rxt_expect_released(test, t);
}

/* The pool has no page to give (every map fails) while the stack holds
 * the eight frames received: the refill posts nothing and loses
 * nothing, and the next poll, with maps working again, fills the ring.
 */
static void mlx4_rx_refill_failure_waits_for_pages(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	u32 prod = t->ring->prod;
	int i, j;

	WRITE_ONCE(pp_test_dma.fail_pct, 100);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < MLX4_RXT_SKB_BATCH; j++)
			mlx4_rxt_receive(t, 100, j, 0, 0);
		KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), MLX4_RXT_SKB_BATCH);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 8U);
	KUNIT_EXPECT_EQ(test, t->ring->prod, prod);
	KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, 0)[0].page);
	KUNIT_EXPECT_GT(test, atomic_read(&pp_test_dma.map_errors), 0);
	KUNIT_EXPECT_EQ(test, t->ring->rx_alloc_pages,
			MLX4_RXT_RING_SIZE / 2UL);

	WRITE_ONCE(pp_test_dma.fail_pct, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 0);
	KUNIT_EXPECT_EQ(test, t->ring->prod - t->ring->cons,
			(u32)MLX4_RXT_RING_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, mlx4_rxt_frags(t, 0)[0].page);
	/* Eight buffers, two to a page. */
	KUNIT_EXPECT_EQ(test, t->ring->rx_alloc_pages,
			MLX4_RXT_RING_SIZE / 2UL + 4);

	mlx4_rxt_free_skbs(t);
	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* More than the NAPI skb cache holds (64 in 6.1's skbuff.c). */
#define MLX4_RXT_SKB_CACHE	65

/* A poll while no skb head can be had: the step turns failslab on for
 * two atomic slab allocations, uses up the NAPI's cache of skb heads
 * (whose refill takes the first), then polls (the driver's skb takes
 * the second). Its own skbs are built on kmalloc()ed heads.
 */
struct mlx4_rxt_nomem {
	struct mlx4_rxt_poll poll;
	struct pp_test_fault *failslab;
	void *heads[MLX4_RXT_SKB_CACHE];
	struct sk_buff *skbs[MLX4_RXT_SKB_CACHE];
	int taken;
};

static void mlx4_rxt_nomem_fn(void *arg)
{
	struct mlx4_rxt_nomem *n = arg;
	struct pp_test_fault *a = n->failslab;

	atomic_set(a->times, 2);
	WRITE_ONCE(*a->interval, 1);
	WRITE_ONCE(*a->probability, 100);
	for (n->taken = 0; n->taken < MLX4_RXT_SKB_CACHE; n->taken++) {
		n->skbs[n->taken] = napi_build_skb(n->heads[n->taken], 0);
		if (!n->skbs[n->taken])
			break;
	}
	mlx4_rxt_poll_fn(&n->poll);
	WRITE_ONCE(*a->probability, 0);
}

static struct pp_test_fault mlx4_rxt_failslab = { .name = "failslab" };

static void mlx4_rxt_need_failslab(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_FAILSLAB) ||
	    pp_test_fault_find(&mlx4_rxt_failslab))
		kunit_skip(test, "needs failslab and its debugfs knobs");
}

static int mlx4_rxt_poll_nomem(struct kunit *test, struct mlx4_rxt *t)
{
	unsigned int size = SKB_DATA_ALIGN(64) +
			    SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct mlx4_rxt_nomem *n;
	int i, polled = 0;

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	for (i = 0; n && i < MLX4_RXT_SKB_CACHE; i++) {
		n->heads[i] = kmalloc(size, GFP_KERNEL);
		if (!n->heads[i])
			break;
	}
	if (n && i == MLX4_RXT_SKB_CACHE) {
		n->poll.t = t;
		n->poll.budget = 64;
		n->failslab = &mlx4_rxt_failslab;
		pp_test_fault_save(n->failslab);
		pp_test_in_softirq(mlx4_rxt_nomem_fn, n);
		pp_test_fault_restore(n->failslab);
		KUNIT_EXPECT_LT(test, n->taken, MLX4_RXT_SKB_CACHE);
		for (i = 0; i < n->taken; i++) {
			/* The skb frees the head with itself. */
			kfree_skb(n->skbs[i]);
			n->heads[i] = NULL;
		}
		polled = n->poll.polled;
	} else {
		KUNIT_FAIL(test, "no memory for the step");
	}
	for (i = 0; n && i < MLX4_RXT_SKB_CACHE; i++)
		kfree(n->heads[i]);
	kfree(n);
	return polled;
}

/* No skb to build a frame on: the frame is dropped and counted, the
 * buffer the CPU read goes back to the pool, and the ring goes on.
 */
static void mlx4_rx_build_skb_failure_drops_the_frame(struct kunit *test)
{
	struct page_pool_stats s;
	struct mlx4_rxt *t;
	struct page *page;

	mlx4_rxt_need_failslab(test);
	t = mlx4_rxt_start(test, 1500, NULL);
	page = mlx4_rxt_frags(t, 1)[0].page;

	/* The second buffer of the first page: it is the last one out. */
	mlx4_rxt_receive(t, 100, 1, 0, 0);
	mlx4_rxt_receive(t, 200, 2, 0, 0);
	KUNIT_ASSERT_EQ(test, mlx4_rxt_poll(t, 1), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll_nomem(test, t), 1);
	KUNIT_EXPECT_EQ(test, t->ring->dropped, 1UL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 1U);
	KUNIT_EXPECT_NULL(test, mlx4_rxt_frags(t, 1)[0].page);
	/* The page comes back once the first frame's skb goes too. */
	mlx4_rxt_free_skbs(t);
	s = mlx4_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring + s.recycle_stats.cached,
			1ULL);
	KUNIT_EXPECT_EQ(test, page_ref_count(page), 1);

	/* The next frame becomes an skb as before. */
	mlx4_rxt_receive(t, 300, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	mlx4_rxt_expect_frame(test, skb_peek(&t->skbs), 300, 3);
	mlx4_rxt_free_skbs(t);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A port stop once the stack holds no page of the ring: the pool goes. */
static void mlx4_rxt_port_down(struct kunit *test, struct mlx4_rxt *t)
{
	mlx4_rxt_deactivate(t);
	KUNIT_ASSERT_TRUE_MSG(test, pp_test_released(&t->release),
			      "the pool was not freed");
}

/* mlx4_en_start_port() for the ring: a new pool, watched as the first. */
static void mlx4_rxt_port_up(struct kunit *test, struct mlx4_rxt *t)
{
	KUNIT_ASSERT_EQ(test, mlx4_en_activate_rx_rings(t->priv), 0);
	t->priv->port_up = true;
	KUNIT_ASSERT_NOT_NULL(test, t->ring->pp);
	mlx4_rxt_watch(t);
}

/* A port restart replaces the ring's pool, and ethtool's pool counters
 * go on from where they were: nothing allocated or recycled before the
 * restart is lost with the old pool.
 */
static void mlx4_rx_pool_counters_survive_restart(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct page_pool_stats before = {}, down = {}, after = {};
	int i;

	for (i = 0; i < MLX4_RXT_SKB_BATCH; i++)
		mlx4_rxt_receive(t, 100, i, 0, 0);
	KUNIT_ASSERT_EQ(test, mlx4_rxt_poll(t, 64), MLX4_RXT_SKB_BATCH);
	mlx4_rxt_free_skbs(t);
	mlx4_en_rx_ring_get_pp_stats(t->ring, &before);
	/* Both buffers of pages 0 and 1 came back with the skbs. */
	KUNIT_EXPECT_EQ(test, before.recycle_stats.ring, 2ULL);

	mlx4_rxt_port_down(test, t);
	KUNIT_EXPECT_NULL(test, t->ring->pp);
	mlx4_en_rx_ring_get_pp_stats(t->ring, &down);
	KUNIT_EXPECT_EQ(test, down.alloc_stats.fast, before.alloc_stats.fast);
	KUNIT_EXPECT_EQ(test, down.alloc_stats.slow, before.alloc_stats.slow);
	/* The teardown gave back the 62 pages still posted, all but the one
	 * the pool was still cutting buffers from to its ring; the pool
	 * drops that one when it goes.
	 */
	KUNIT_EXPECT_EQ(test, down.recycle_stats.ring,
			before.recycle_stats.ring + MLX4_RXT_RING_SIZE / 2 - 3);

	mlx4_rxt_port_up(test, t);
	mlx4_en_rx_ring_get_pp_stats(t->ring, &after);
	KUNIT_EXPECT_GE(test, after.alloc_stats.slow, down.alloc_stats.slow + 1);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring,
			down.recycle_stats.ring);

	/* A second restart adds the second pool's counters to the first's. */
	memset(&down, 0, sizeof(down));
	mlx4_rxt_port_down(test, t);
	mlx4_en_rx_ring_get_pp_stats(t->ring, &down);
	KUNIT_EXPECT_EQ(test, down.alloc_stats.slow, after.alloc_stats.slow);
	KUNIT_EXPECT_EQ(test, down.alloc_stats.fast, after.alloc_stats.fast);
	mlx4_rxt_port_up(test, t);

	mlx4_rxt_stop(t);
	mlx4_rxt_expect_released(test, t);
}

/* A port restart for a new MTU, then one for an XDP program, as
 * mlx4_en_change_mtu() and mlx4_xdp_set() do them: each time the old pool
 * goes once its pages are back, and a new one maps and syncs pages for
 * the new buffers, which the next frame is built on.
 */
static void mlx4_rx_restart_lays_out_a_new_pool(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 1500, NULL);
	struct bpf_prog *prog = mlx4_rxt_xdp_prog(test, XDP_PASS);
	struct sk_buff *skb;

	mlx4_rxt_receive(t, 1000, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	mlx4_rxt_free_skbs(t);

	/* MTU 9000: three buffers of a page each. */
	mlx4_rxt_port_down(test, t);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	t->dev->mtu = 9000;
	mlx4_en_calc_rx_buf(t->dev);
	mlx4_rxt_sync_window(t);
	mlx4_rxt_port_up(test, t);
	KUNIT_EXPECT_EQ(test, t->priv->num_frags, 3);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 3 * MLX4_RXT_RING_SIZE);
	mlx4_rxt_receive(t, 9000, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 2);
	mlx4_rxt_expect_frame(test, skb, 9000, 2);
	mlx4_rxt_free_skbs(t);

	/* XDP at MTU 1500: a page a buffer, mapped both ways, XDP's
	 * headroom in front of the frame.
	 */
	mlx4_rxt_port_down(test, t);
	t->dev->mtu = 1500;
	t->priv->tx_ring_num[TX_XDP] = 1;
	RCU_INIT_POINTER(t->ring->xdp_prog, prog);
	mlx4_en_calc_rx_buf(t->dev);
	mlx4_rxt_sync_window(t);
	mlx4_rxt_port_up(test, t);
	KUNIT_EXPECT_EQ(test, t->priv->num_frags, 1);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_dir(t->ring->pp),
			DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), MLX4_RXT_RING_SIZE);
	mlx4_rxt_receive(t, 1400, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
			XDP_PACKET_HEADROOM);
	mlx4_rxt_expect_frame(test, skb, 1400, 3);
	mlx4_rxt_free_skbs(t);
	/* Each pool synced for the device within its own layout's window. */
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);

	mlx4_rxt_stop(t);
	bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

/* A port stop while skbs hold pages of the ring: the pool unmaps every
 * page still out as it is destroyed, while the device is there, and
 * stays until the skbs give the last of them back.
 */
static void mlx4_rx_teardown_with_skbs_held_leaks_nothing(struct kunit *test)
{
	struct mlx4_rxt *t = mlx4_rxt_start(test, 9000, NULL);
	int i;

	for (i = 0; i < MLX4_RXT_SKB_BATCH; i++)
		mlx4_rxt_receive(t, 3000 + 1500 * i, i, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), MLX4_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX4_RXT_SKB_BATCH);
	/* The skbs hold seven pages: one for 3000 bytes, two each for 4500,
	 * 6000 and 7500.
	 */
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 3 * MLX4_RXT_RING_SIZE);

	mlx4_rxt_stop(t);
	KUNIT_EXPECT_FALSE(test, completion_done(&t->release.released));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	for (i = 0; i < MLX4_RXT_SKB_BATCH; i++) {
		struct sk_buff *skb = __skb_dequeue(&t->skbs);

		mlx4_rxt_expect_frame(test, skb, 3000 + 1500 * i, i);
		kfree_skb(skb);
		if (i < MLX4_RXT_SKB_BATCH - 1)
			KUNIT_EXPECT_FALSE(test,
					   completion_done(&t->release.released));
	}
	mlx4_rxt_expect_released(test, t);
}

static int mlx4_rxt_init(struct kunit *test)
{
	pp_test_dma_reset();
	pp_test_pin_cpu();
	return 0;
}

static void mlx4_rxt_exit(struct kunit *test)
{
	pp_test_unpin_cpu();
}

static int mlx4_rxt_suite_init(struct kunit_suite *suite)
{
	return pp_test_dma_register_recording("mlx4_en_rx_test");
}

static void mlx4_rxt_suite_exit(struct kunit_suite *suite)
{
	pp_test_dma_unregister();
}

static struct kunit_case mlx4_rxt_cases[] = {
	KUNIT_CASE(mlx4_rx_layout_shares_pages),
	KUNIT_CASE(mlx4_rx_activate_posts_pool_pages),
	KUNIT_CASE(mlx4_rx_linear_frame_builds_skb_on_pool_page),
	KUNIT_CASE(mlx4_rx_vlan_tag_and_hash_from_cqe),
	KUNIT_CASE(mlx4_rx_steady_state_maps_nothing_new),
	KUNIT_CASE(mlx4_rx_jumbo_frame_gets_pool_page_frags),
	KUNIT_CASE(mlx4_rx_multi_buffer_frame_shares_pages),
	KUNIT_CASE(mlx4_rx_bad_frames_stay_posted),
	KUNIT_CASE(mlx4_rx_drop_gives_back_only_the_read_buffer),
	KUNIT_CASE(mlx4_rx_byte_count_over_buffers_is_dropped),
	KUNIT_CASE(mlx4_rx_pool_follows_napi_node),
	KUNIT_CASE(mlx4_rx_xdp_drop_recycles_direct),
	KUNIT_CASE(mlx4_rx_xdp_pass_builds_skb),
	KUNIT_CASE(mlx4_rx_xdp_adjust_head_and_tail),
	KUNIT_CASE(mlx4_rx_xdp_tx_returns_pages_to_pool),
	KUNIT_CASE(mlx4_rx_xdp_tx_ring_full_drops_to_cache),
	KUNIT_CASE(mlx4_rx_xdp_redirect_frame_holds_page),
	KUNIT_CASE(mlx4_rx_refill_failure_waits_for_pages),
	KUNIT_CASE(mlx4_rx_build_skb_failure_drops_the_frame),
	KUNIT_CASE(mlx4_rx_pool_counters_survive_restart),
	KUNIT_CASE(mlx4_rx_restart_lays_out_a_new_pool),
	KUNIT_CASE(mlx4_rx_teardown_with_skbs_held_leaks_nothing),
	{}
};

static struct kunit_suite mlx4_rxt_suite = {
	.name = "mlx4_en_rx",
	.init = mlx4_rxt_init,
	.exit = mlx4_rxt_exit,
	.suite_init = mlx4_rxt_suite_init,
	.suite_exit = mlx4_rxt_suite_exit,
	.test_cases = mlx4_rxt_cases,
};

kunit_test_suite(mlx4_rxt_suite);

#include "en_rx_csum_test.c"
