// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the SHAMPO header ring of the mlx5e RX path, #included
 * at the end of en_rx_test.c, whose RQ they build on.
 *
 * A SHAMPO RQ posts packet headers into a ring of 512-byte entries on
 * pool pages, eight to a 4 KiB page, which UMR WQEs on the channel's
 * ICOSQ map for the device. A UMR of a device whose WQEs are at most
 * 1 KiB carries 52 entries, so UMRs start and end inside pages. The cases
 * run the driver's refill (mlx5e_alloc_rx_hd_mpwqe()), its ICOSQ
 * completion handling (mlx5e_poll_ico_cq(), on CQEs written here), the
 * release of headers as frames complete (mlx5e_free_rx_shampo_hd_entry()),
 * ICOSQ recovery (mlx5e_free_rx_in_progress_descs()) and teardown
 * (mlx5e_free_rx_descs()), and count the pages given back to the pool.
 */

#define MLX5_RXT_HD_PER_WQ	128
#define MLX5_RXT_HD_PER_WQE	64
#define MLX5_RXT_HD_SIZE	512

struct mlx5_rxt_hd {
	struct mlx5_rxt *t;
	struct mlx5e_icosq *sq;
	struct mlx5e_shampo_hd *shampo;
	/* Where each UMR posted so far starts, in sq->pc's units. */
	u16 umr_ctr[8];
	int umrs;
	int err;
	u16 from;
	u16 count;
};

/* A striding RQ with SHAMPO on, its header ring empty, and its ICOSQ, as
 * mlx5e_open_channel() leaves them, on a device with 1 KiB WQEs.
 */
static struct mlx5_rxt_hd *mlx5_rxt_hd_start(struct kunit *test)
{
	struct mlx5_rxt_hd *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct mlx5e_rq *rq;

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->t = mlx5_rxt_start(test, 1500, NULL, true);
	rq = h->t->rq;
	h->shampo = kunit_kzalloc(test, sizeof(*h->shampo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h->shampo);
	KUNIT_ASSERT_EQ(test, MLX5E_MAX_KLM_PER_WQE(rq->mdev), 52);
	KUNIT_ASSERT_EQ(test, MLX5E_SHAMPO_WQ_HEADER_PER_PAGE, 8);

	h->shampo->hd_per_wq = MLX5_RXT_HD_PER_WQ;
	h->shampo->hd_per_wqe = MLX5_RXT_HD_PER_WQE;
	h->shampo->key = cpu_to_be32(0x99);
	h->shampo->info = kunit_kcalloc(test, MLX5_RXT_HD_PER_WQ,
					sizeof(*h->shampo->info), GFP_KERNEL);
	h->shampo->bitmap = kunit_kcalloc(test,
					  BITS_TO_LONGS(MLX5_RXT_HD_PER_WQ),
					  sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h->shampo->info);
	KUNIT_ASSERT_NOT_NULL(test, h->shampo->bitmap);
	rq->mpwqe.shampo = h->shampo;
	set_bit(MLX5E_RQ_STATE_SHAMPO, &rq->state);

	/* The ICOSQ mlx5_rxt_start() built for the striding RQ. */
	h->sq = rq->icosq;
	return h;
}

static struct mlx5e_icosq_wqe_info *mlx5_rxt_hd_wi(struct mlx5_rxt_hd *h,
						   u16 ctr)
{
	return &h->sq->db.wqe_info[mlx5_wq_cyc_ctr2ix(&h->sq->wq, ctr)];
}

static void mlx5_rxt_hd_refill_fn(void *arg)
{
	struct mlx5_rxt_hd *h = arg;
	u16 ctr = h->sq->pc;

	h->err = mlx5e_alloc_rx_hd_mpwqe(h->t->rq);
	for (; ctr != h->sq->pc; ctr += mlx5_rxt_hd_wi(h, ctr)->num_wqebbs)
		if (mlx5_rxt_hd_wi(h, ctr)->wqe_type ==
		    MLX5E_ICOSQ_WQE_SHAMPO_HD_UMR &&
		    h->umrs < ARRAY_SIZE(h->umr_ctr))
			h->umr_ctr[h->umrs++] = ctr;
}

/* One refill of the header ring, as a striding WQE's refill does it. */
static void mlx5_rxt_hd_refill(struct kunit *test, struct mlx5_rxt_hd *h)
{
	pp_test_in_softirq(mlx5_rxt_hd_refill_fn, h);
	KUNIT_ASSERT_EQ(test, h->err, 0);
}

static u16 mlx5_rxt_hd_umr_len(struct mlx5_rxt_hd *h, int umr)
{
	return mlx5_rxt_hd_wi(h, h->umr_ctr[umr])->shampo.len;
}

static void mlx5_rxt_hd_poll_fn(void *arg)
{
	struct mlx5_rxt_hd *h = arg;

	mlx5e_poll_ico_cq(&h->sq->cq);
}

/* The device completes the ICOSQ's WQEs up to UMR @umr, in one CQE.
 * Only a refill's last WQE asks for a completion, so a CQE that stops
 * before it stands for the error CQE of the next one, which
 * mlx5e_poll_ico_cq() handles the same way up to that WQE.
 */
static void mlx5_rxt_hd_complete(struct mlx5_rxt_hd *h, int umr)
{
	mlx5_rxt_ico_complete(h->t, h->umr_ctr[umr]);
	pp_test_in_softirq(mlx5_rxt_hd_poll_fn, h);
}

static void mlx5_rxt_hd_consume_fn(void *arg)
{
	struct mlx5_rxt_hd *h = arg;
	u16 i;

	for (i = 0; i < h->count; i++)
		mlx5e_free_rx_shampo_hd_entry(h->t->rq, (h->from + i) %
					      MLX5_RXT_HD_PER_WQ);
}

/* Frames completed on headers [@from, @from + @count), in NAPI. */
static void mlx5_rxt_hd_consume(struct mlx5_rxt_hd *h, u16 from, u16 count)
{
	h->from = from;
	h->count = count;
	pp_test_in_softirq(mlx5_rxt_hd_consume_fn, h);
}

/* Pages the driver gave back to the pool outside NAPI, into its ring. */
static u64 mlx5_rxt_hd_ring_returns(struct mlx5_rxt_hd *h)
{
	return mlx5_rxt_stats(h->t).recycle_stats.ring;
}

/* The RQ's teardown gives @pages pages back to the pool's ring, then
 * the pool goes once none is left out.
 */
static void mlx5_rxt_hd_expect_teardown(struct kunit *test,
					struct mlx5_rxt_hd *h, u64 pages)
{
	u64 ring = mlx5_rxt_hd_ring_returns(h);

	mlx5e_free_rx_descs(h->t->rq);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_ring_returns(h) - ring, pages);
	mlx5_rxt_stop(h->t);
	mlx5_rxt_expect_released(test, h->t);
}

/* i. Teardown while the second of two UMRs is in flight. The first UMR
 * posts headers 0-51, so page 6 (headers 48-55) is half completed and
 * half in flight: each of the 8 pages goes back once.
 */
static void mlx5e_rx_shampo_teardown_mid_page_releases_each_page_once(struct kunit *test)
{
	struct mlx5_rxt_hd *h = mlx5_rxt_hd_start(test);

	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 64);
	KUNIT_ASSERT_EQ(test, h->umrs, 2);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_umr_len(h, 0), 52);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_umr_len(h, 1), 12);
	mlx5_rxt_hd_complete(h, 0);
	KUNIT_EXPECT_EQ(test, h->shampo->ci, 52);
	KUNIT_EXPECT_EQ(test, find_first_zero_bit(h->shampo->bitmap,
						  MLX5_RXT_HD_PER_WQ), 52UL);

	mlx5_rxt_hd_expect_teardown(test, h, 8);
}

/* j. ICOSQ recovery with the same UMR in flight: page 7 goes back, page 6
 * stays, and the refill continues page 6 at header 52, giving the device
 * its address. Teardown then gives back the 15 pages posted.
 */
static void mlx5e_rx_shampo_recovery_refills_onto_the_page_it_kept(struct kunit *test)
{
	struct mlx5_rxt_hd *h = mlx5_rxt_hd_start(test);
	struct mlx5e_dma_info *info = h->shampo->info;
	struct mlx5e_umr_wqe *umr;
	struct page *page6;
	dma_addr_t dma6;
	u64 ring;
	int i;

	mlx5_rxt_hd_refill(test, h);
	mlx5_rxt_hd_complete(h, 0);
	page6 = info[48].page;
	dma6 = page_pool_get_dma_addr(page6);

	ring = mlx5_rxt_hd_ring_returns(h);
	mlx5e_free_rx_in_progress_descs(h->t->rq);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_ring_returns(h) - ring, 1ULL);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 52);

	/* The free window runs from 52 to 0 round the ring: 64 headers,
	 * ending inside a page whose other slots are free.
	 */
	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 116);
	KUNIT_ASSERT_EQ(test, h->umrs, 4);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_umr_len(h, 2), 52);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_umr_len(h, 3), 12);
	for (i = 52; i < 56; i++) {
		KUNIT_EXPECT_PTR_EQ(test, info[i].page, page6);
		KUNIT_EXPECT_EQ(test, info[i].addr,
				dma6 + i % 8 * MLX5_RXT_HD_SIZE);
	}
	umr = mlx5_wq_cyc_get_wqe(&h->sq->wq,
				  mlx5_wq_cyc_ctr2ix(&h->sq->wq, h->umr_ctr[2]));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(umr->uctrl.xlt_offset), 52);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(umr->inline_klms[0].va),
			(u64)dma6 + 4 * MLX5_RXT_HD_SIZE +
			h->t->rq->buff.headroom);

	/* Pages 0-5 by their posted last headers, 7-14 in flight, and 6,
	 * which the ring stopped in.
	 */
	mlx5_rxt_hd_expect_teardown(test, h, 15);
}

/* k. A refill whose free window ends inside a page stops before that
 * page: its headers 20-23 are still posted, and posting its first header
 * again would give the page's slots, and its count of users, to a
 * second page.
 */
static void mlx5e_rx_shampo_refill_stops_before_a_page_still_posted(struct kunit *test)
{
	struct mlx5_rxt_hd *h = mlx5_rxt_hd_start(test);
	struct page *page2;

	mlx5_rxt_hd_refill(test, h);
	mlx5_rxt_hd_complete(h, 1);
	KUNIT_EXPECT_EQ(test, h->shampo->ci, 64);
	page2 = h->shampo->info[16].page;
	mlx5_rxt_hd_consume(h, 0, 20);
	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 0);
	KUNIT_ASSERT_EQ(test, h->umrs, 4);
	mlx5_rxt_hd_complete(h, 3);
	KUNIT_EXPECT_EQ(test, h->shampo->ci, 0);

	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 16);
	KUNIT_ASSERT_EQ(test, h->umrs, 5);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_hd_umr_len(h, 4), 16);
	KUNIT_EXPECT_PTR_EQ(test, h->shampo->info[16].page, page2);
	KUNIT_EXPECT_PTR_EQ(test, h->shampo->info[20].page, page2);

	/* Pages 0 and 1 in flight, 2-7 and 8-15 by their last headers. */
	mlx5_rxt_hd_expect_teardown(test, h, 16);
}

/* l. Fewer headers a refill than a page holds, as on 64 KiB pages (128
 * headers a page): refills post parts of a page and continue it, and
 * teardown gives back the page the ring stopped in.
 */
static void mlx5e_rx_shampo_refills_share_a_page(struct kunit *test)
{
	struct mlx5_rxt_hd *h = mlx5_rxt_hd_start(test);
	struct mlx5e_dma_info *info = h->shampo->info;

	h->shampo->hd_per_wqe = 4;
	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 4);
	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 8);
	KUNIT_EXPECT_PTR_EQ(test, info[4].page, info[0].page);
	KUNIT_EXPECT_EQ(test, info[4].addr,
			page_pool_get_dma_addr(info[0].page) +
			4 * MLX5_RXT_HD_SIZE);
	mlx5_rxt_hd_refill(test, h);
	KUNIT_EXPECT_EQ(test, h->shampo->pi, 12);
	KUNIT_EXPECT_PTR_NE(test, info[8].page, info[0].page);
	KUNIT_ASSERT_EQ(test, h->umrs, 3);
	mlx5_rxt_hd_complete(h, 2);
	KUNIT_EXPECT_EQ(test, h->shampo->ci, 12);

	/* Page 0 goes back as its last header's frame completes. */
	mlx5_rxt_hd_consume(h, 0, 8);
	mlx5_rxt_hd_expect_teardown(test, h, 1);
}

static struct kunit_case mlx5_rxt_hd_cases[] = {
	KUNIT_CASE(mlx5e_rx_shampo_teardown_mid_page_releases_each_page_once),
	KUNIT_CASE(mlx5e_rx_shampo_recovery_refills_onto_the_page_it_kept),
	KUNIT_CASE(mlx5e_rx_shampo_refill_stops_before_a_page_still_posted),
	KUNIT_CASE(mlx5e_rx_shampo_refills_share_a_page),
	{}
};

static struct kunit_suite mlx5_rxt_hd_suite = {
	.name = "mlx5e_rx_shampo",
	.init = mlx5_rxt_init,
	.exit = mlx5_rxt_exit,
	.suite_init = mlx5_rxt_suite_init,
	.suite_exit = mlx5_rxt_suite_exit,
	.test_cases = mlx5_rxt_hd_cases,
};

kunit_test_suite(mlx5_rxt_hd_suite);
