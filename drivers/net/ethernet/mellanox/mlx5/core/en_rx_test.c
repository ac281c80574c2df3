// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the mlx5e RX path on the page_pool. This file is
 * #included at the end of en_rx.c (CONFIG_MLX5_EN_RX_KUNIT_TEST), so the
 * cases call the driver's own static functions.
 *
 * There is no ConnectX here. Each case builds one RQ and its CQ in host
 * memory, filling in only the fields the RX path reads, on a test device
 * whose dma_map_ops record every call the pool and the driver make and
 * bounce, as swiotlb does: frames written as the NIC reach the CPU only
 * through the driver's syncs. Then it runs the driver's code as the
 * channel and NAPI do:
 * mlx5e_rq_set_handlers() and mlx5e_rq_create_page_pool() as
 * mlx5e_alloc_rq() calls them, mlx5e_post_rx_wqes() (pages from the pool
 * into the WQEs), frames written where the posted WQEs point, as the NIC
 * would, with their completions in the mlx5_cqe64 layout,
 * mlx5e_poll_rx_cq() in softirq (frames built into skbs or run through
 * XDP, then the refill), and at the end mlx5e_free_rx_descs() and the
 * pool's destruction, in mlx5e_free_rq()'s order.
 *
 * A legacy RQ's buffer sizes and strides come from the driver's own
 * mlx5e_build_rq_param() (en/params.c), on a device model with no
 * optional capability; the cases check them against values worked out
 * by hand. A striding RQ's WQEs are posted by the driver's
 * mlx5e_post_rx_mpwqes(): pages from the pool and a UMR WQE on the
 * channel's ICOSQ for each, which the device completes with a CQE that
 * mlx5e_poll_ico_cq() reads, so that the next refill hands the WQEs to
 * the RQ.
 *
 * What these cases cannot drive, and why:
 * - mlx5e_alloc_rq() and mlx5e_open_rq(): the WQ and CQ buffers come from
 *   mlx5_wq_cyc_create() and friends on a live device, the RQ and the
 *   UMR mkey are created by firmware commands. The cases set the same
 *   fields by hand, then let mlx5e_init_frags_partition() (made
 *   callable by the KUnit patch) decide which buffers share a page.
 * - The striding RQ's parameters (mlx5e_build_rq_param() for a striding
 *   RQ) need the striding capabilities of a real device; the cases use
 *   WQEs of 8 pages, smaller than any device's, set by hand.
 * - SHAMPO (hardware GRO) frames: their CQE layout is not modelled. Its
 *   header ring is, in en_rx_shampo_test.c, as far as the ICOSQ goes.
 * - mlx5e_napi_poll(): it polls every SQ of the channel and re-arms the
 *   CQs through the UAR doorbell page. The cases call its RX steps.
 * - XDP_REDIRECT needs a target device and a program calling a helper;
 *   the path back to the pool is the XDP memory model's, covered by the
 *   page_pool contract suite. XDP_TX runs on an XDP SQ built by hand
 *   (multi-buffer mode), whose doorbell, mlx5_write64(), is a plain
 *   store to host memory on x86 only; elsewhere that case skips, as do
 *   the striding cases, which ring the ICOSQ's.
 * - XDP programs are C functions set as the program's bpf_func, so no
 *   verifier is needed; the one that trims frames calls the
 *   bpf_xdp_adjust_tail() helper through the XDP helper table.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <net/gro.h>

#include "../../../../../../net/core/page_pool_test.h"

#define MLX5_RXT_WQ_SZ		64
#define MLX5_RXT_LOG_WQ_SZ	ilog2(MLX5_RXT_WQ_SZ)
#define MLX5_RXT_LOG_CQ_SZ	7
/* Frames per poll when they become skbs: under gro_normal_batch, so they
 * wait on the NAPI's list, where the case takes them.
 */
#define MLX5_RXT_SKB_BATCH	4
/* The striding RQ: 4 WQEs of 8 pages, strides of 2 KiB. */
#define MLX5_RXT_MPW_LOG_WQ_SZ	2
#define MLX5_RXT_MPW_PAGES	8
#define MLX5_RXT_MPW_LOG_STRIDE	11
#define MLX5_RXT_MPW_STRIDES	(MLX5_RXT_MPW_PAGES << (PAGE_SHIFT - \
				 MLX5_RXT_MPW_LOG_STRIDE))
/* The XDP SQ: 64 WQEBBs. */
#define MLX5_RXT_LOG_SQ_SZ	6
/* The ICOSQ: 128 WQEBBs. */
#define MLX5_RXT_LOG_ICOSQ_SZ	7
/* A striding WQE's UMR: 16 bytes of control segment, 48 of UMR control
 * segment and 64 of mkey context, then 8 MTTs of 8 bytes: 192 bytes, 3
 * WQEBBs of 64. Its MTTs take 64 bytes, 4 octwords, of the UMR mkey's
 * translation table, so WQE n's start at octword 4 * n.
 */
#define MLX5_RXT_MPW_UMR_WQEBBS	3
#define MLX5_RXT_MPW_UMR_OCTWORDS 4

/* How the XDP programs of the cases behave: a verdict, after trimming
 * @trim bytes off the tail with bpf_xdp_adjust_tail() if non-zero.
 */
struct mlx5_rxt_xdp {
	u32 act;
	int trim;
	int trim_err;
	int runs;
	unsigned int last_len;
	const struct bpf_func_proto *adjust_tail;
	/* With XDP_REDIRECT: bpf_redirect() to this interface. */
	int redirect_to;
	const struct bpf_func_proto *redirect;
};

static struct mlx5_rxt_xdp mlx5_rxt_xdp;

static unsigned int mlx5_rxt_xdp_run(const void *ctx,
				     const struct bpf_insn *insn)
{
	struct xdp_buff *xdp = (struct xdp_buff *)ctx;
	struct mlx5_rxt_xdp *x = &mlx5_rxt_xdp;
	u8 *p;

	x->runs++;
	if (x->trim)
		x->trim_err = x->adjust_tail->func((unsigned long)xdp,
						   (u64)(s64)-x->trim, 0, 0, 0);
	x->last_len = xdp_get_buff_len(xdp);
	/* XDP_TX rewrites the frame, so the device sends what the CPU
	 * wrote only if the driver syncs it for the device.
	 */
	if (x->act == XDP_TX)
		for (p = xdp->data; p < (u8 *)xdp->data_end; p++)
			*p = ~*p;
	if (x->redirect_to)
		return x->redirect->func(x->redirect_to, 0, 0, 0, 0);
	return x->act;
}

static struct bpf_prog *mlx5_rxt_xdp_prog(struct kunit *test, u32 act,
					  int trim)
{
	struct bpf_prog *prog = pp_test_xdp_prog(test, mlx5_rxt_xdp_run);

	prog->aux->xdp_has_frags = true;
	mlx5_rxt_xdp.act = act;
	mlx5_rxt_xdp.trim = trim;
	mlx5_rxt_xdp.adjust_tail =
		xdp_verifier_ops.get_func_proto(BPF_FUNC_xdp_adjust_tail, prog);
	mlx5_rxt_xdp.redirect =
		xdp_verifier_ops.get_func_proto(BPF_FUNC_redirect, prog);
	KUNIT_ASSERT_NOT_NULL(test, mlx5_rxt_xdp.adjust_tail);
	KUNIT_ASSERT_NOT_NULL(test, mlx5_rxt_xdp.redirect);
	return prog;
}

/* One channel's RQ, its CQ and, with XDP, its XDP SQ, as
 * mlx5e_open_channel() leaves them.
 */
struct mlx5_rxt {
	struct kunit *test;
	/* The RQ and the ICOSQ live in their channel, as the ICOSQ's
	 * completions find the RQ through it.
	 */
	struct mlx5e_channel *c;
	struct mlx5e_rq *rq;
	struct mlx5e_priv *priv;
	struct mlx5_core_dev *mdev;
	struct mlx5e_profile profile;
	struct mlx5e_params params;
	struct net_device *netdev;
	/* The channel's NAPI, the pool's since patch 0016. */
	struct pp_test_napi tn;
	struct hwtstamp_config tstamp;
	struct mlx5e_xdpsq *sq;
	__be32 wq_db;
	__be32 cq_db;
	__be32 sq_db;
	__be32 sq_cq_db;
	u64 *uar;
	/* The ICOSQ's doorbells, and completions written on its CQ. */
	__be32 ico_db;
	__be32 ico_cq_db;
	u64 *ico_uar;
	u32 ico_cqes;
	/* ICOSQ WQEs up to here were completed (in sq->pc's units). */
	u16 ico_done;
	/* Frames the NIC wrote so far: the next WQE counter it uses. */
	u16 wqe_seq;
	/* Completions written so far, on the RQ's and the SQ's CQ. */
	u32 cqes;
	u32 sq_cqes;
	struct sk_buff_head skbs;
	struct pp_test_release release;
};

/* Zeroed buffer of 2^log_sz entries of 2^log_stride bytes, as a
 * mlx5_frag_buf_ctrl sees it.
 */
static void *mlx5_rxt_fbc(struct kunit *test, struct mlx5_frag_buf_ctrl *fbc,
			  u8 log_stride, u8 log_sz)
{
	size_t size = (size_t)1 << (log_stride + log_sz);
	int i, n = DIV_ROUND_UP(size, PAGE_SIZE);
	struct mlx5_buf_list *frags;
	void *buf;

	buf = kunit_kzalloc(test, max_t(size_t, size, PAGE_SIZE), GFP_KERNEL);
	frags = kunit_kcalloc(test, n, sizeof(*frags), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, frags);
	for (i = 0; i < n; i++)
		frags[i].buf = buf + i * PAGE_SIZE;
	mlx5_init_fbc(frags, log_stride, log_sz, fbc);
	return buf;
}

/* A CQ owned by hardware, as mlx5e_alloc_cq_common() leaves it. */
static void mlx5_rxt_cq(struct kunit *test, struct mlx5_cqwq *wq, u8 log_sz,
			__be32 *db)
{
	u32 i;

	mlx5_rxt_fbc(test, &wq->fbc, 6, log_sz);
	for (i = 0; i < BIT(log_sz); i++)
		mlx5_cqwq_get_wqe(wq, i)->op_own = 0xf1;
	wq->db = db;
}

/* A ConnectX as the driver's parameter code and refill read it: no
 * optional capability, SQ WQEs of at most 1 KiB, a UAR page, and a PCI
 * function without a PCIe capability (so no relaxed ordering).
 */
static struct mlx5_core_dev *mlx5_rxt_mdev(struct kunit *test)
{
	struct mlx5_core_dev *mdev;
	struct mlx5_hca_cap *gen;

	mdev = kunit_kzalloc(test, sizeof(*mdev), GFP_KERNEL);
	gen = kunit_kzalloc(test, sizeof(*gen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mdev);
	KUNIT_ASSERT_NOT_NULL(test, gen);
	mdev->pdev = kunit_kzalloc(test, sizeof(*mdev->pdev), GFP_KERNEL);
	mdev->priv.uar = kunit_kzalloc(test, sizeof(*mdev->priv.uar),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mdev->pdev);
	KUNIT_ASSERT_NOT_NULL(test, mdev->priv.uar);
	MLX5_SET(cmd_hca_cap, gen->cur, max_wqe_sz_sq, 1024);
	mdev->caps.hca[MLX5_CAP_GENERAL] = gen;
	mdev->mlx5e_res.hw_objs.mkey = 0x66;
	return mdev;
}

/* The legacy RQ's WQ, of WQEs of 2^@log_stride bytes: the fields
 * mlx5e_alloc_rq() writes in each WQE.
 */
static void mlx5_rxt_legacy_wq(struct mlx5_rxt *t, u8 log_stride)
{
	struct mlx5e_rq *rq = t->rq;
	struct mlx5e_rq_frags_info *info = &rq->wqe.info;
	int n = MLX5_RXT_WQ_SZ << info->log_num_frags;
	int i, f;

	mlx5_rxt_fbc(t->test, &rq->wqe.wq.fbc, log_stride, MLX5_RXT_LOG_WQ_SZ);
	rq->wqe.wq.sz = MLX5_RXT_WQ_SZ;
	rq->wqe.wq.db = &t->wq_db;
	rq->wqe.frags = kunit_kcalloc(t->test, n, sizeof(*rq->wqe.frags),
				      GFP_KERNEL);
	rq->wqe.alloc_units = kunit_kcalloc(t->test, n,
					    sizeof(*rq->wqe.alloc_units),
					    GFP_KERNEL);
	rq->wqe.pp_refs = kunit_kcalloc(t->test, n, sizeof(*rq->wqe.pp_refs),
					GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(t->test, rq->wqe.frags);
	KUNIT_ASSERT_NOT_NULL(t->test, rq->wqe.alloc_units);
	KUNIT_ASSERT_NOT_NULL(t->test, rq->wqe.pp_refs);
	/* The driver's layout: which buffers share a page. */
	mlx5e_init_frags_partition(rq);
	for (i = 0; i < MLX5_RXT_WQ_SZ; i++) {
		struct mlx5e_rx_wqe_cyc *wqe = mlx5_wq_cyc_get_wqe(&rq->wqe.wq, i);

		for (f = 0; f < info->num_frags; f++) {
			wqe->data[f].byte_count =
				cpu_to_be32(info->arr[f].frag_size |
					    MLX5_HW_START_PADDING);
			wqe->data[f].lkey = rq->mkey_be;
		}
		if (info->num_frags < BIT(log_stride - 4)) {
			wqe->data[f].byte_count = 0;
			wqe->data[f].lkey = cpu_to_be32(MLX5_INVALID_LKEY);
			wqe->data[f].addr = 0;
		}
	}
}

/* The channel's ICOSQ, as mlx5e_open_icosq() leaves it, ringing a
 * doorbell in host memory.
 */
static void mlx5_rxt_icosq(struct mlx5_rxt *t)
{
	struct mlx5e_icosq *sq = &t->c->icosq;
	int n = BIT(MLX5_RXT_LOG_ICOSQ_SZ);

	mlx5_rxt_fbc(t->test, &sq->wq.fbc, ilog2(MLX5_SEND_WQE_BB),
		     MLX5_RXT_LOG_ICOSQ_SZ);
	sq->wq.sz = n;
	sq->wq.db = &t->ico_db;
	sq->db.wqe_info = kunit_kcalloc(t->test, n, sizeof(*sq->db.wqe_info),
					GFP_KERNEL);
	t->ico_uar = kunit_kzalloc(t->test, sizeof(*t->ico_uar), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(t->test, sq->db.wqe_info);
	KUNIT_ASSERT_NOT_NULL(t->test, t->ico_uar);
	sq->uar_map = (__force void __iomem *)t->ico_uar;
	sq->sqn = 0x456;
	mlx5_rxt_cq(t->test, &sq->cq.wq, MLX5_RXT_LOG_ICOSQ_SZ, &t->ico_cq_db);
	sq->cq.netdev = t->netdev;
	set_bit(MLX5E_SQ_STATE_ENABLED, &sq->state);
	t->rq->icosq = sq;
}

/* The striding RQ's linked list, as mlx5_wq_ll_create() leaves it, its
 * WQE info with no WQE posted, and what mlx5e_alloc_rq() sets up for
 * its UMRs.
 */
static void mlx5_rxt_striding_wq(struct mlx5_rxt *t)
{
	struct mlx5e_rq *rq = t->rq;
	struct mlx5_wq_ll *wq = &rq->mpwqe.wq;
	int i, n = BIT(MLX5_RXT_MPW_LOG_WQ_SZ);
	struct mlx5e_rx_wqe_ll *wqe;
	u8 log_stride;

	/* With XDP a stride takes a page (mlx5e_rx_get_linear_stride_sz()). */
	log_stride = rcu_access_pointer(rq->xdp_prog) ? PAGE_SHIFT :
							MLX5_RXT_MPW_LOG_STRIDE;
	rq->mpwqe.page_shift = PAGE_SHIFT;
	rq->mpwqe.pages_per_wqe = MLX5_RXT_MPW_PAGES;
	rq->mpwqe.log_stride_sz = log_stride;
	rq->mpwqe.num_strides = MLX5_RXT_MPW_PAGES << (PAGE_SHIFT - log_stride);
	rq->mpwqe.umr_mode = MLX5E_MPWRQ_UMR_MODE_ALIGNED;
	rq->mpwqe.umr_wqebbs = MLX5_RXT_MPW_UMR_WQEBBS;
	rq->mpwqe.mtts_per_wqe = MLX5_RXT_MPW_PAGES;
	rq->mpwqe.min_wqe_bulk = mlx5e_mpwqe_get_min_wqe_bulk(n);
	/* The UMR template: what the device needs besides the MTTs. */
	rq->mpwqe.umr_wqe.uctrl.flags = MLX5_UMR_TRANSLATION_OFFSET_EN |
					MLX5_UMR_INLINE;
	rq->mpwqe.umr_wqe.uctrl.xlt_octowords =
		cpu_to_be16(MLX5_RXT_MPW_UMR_OCTWORDS);
	rq->buff.frame0_sz = BIT(log_stride);
	mlx5_rxt_fbc(t->test, &wq->fbc,
		     order_base_2(sizeof(*wqe) + sizeof(wqe->data[0])),
		     MLX5_RXT_MPW_LOG_WQ_SZ);
	for (i = 0; i < n; i++) {
		wqe = mlx5_wq_ll_get_wqe(wq, i);
		wqe->next.next_wqe_index = cpu_to_be16((i + 1) & (n - 1));
		wqe->data[0].byte_count =
			cpu_to_be32(rq->mpwqe.num_strides << log_stride);
	}
	wqe = mlx5_wq_ll_get_wqe(wq, n - 1);
	wq->tail_next = &wqe->next.next_wqe_index;
	wq->db = &t->wq_db;
	rq->mpwqe.info = kunit_kzalloc(t->test,
				       array_size(n, struct_size(rq->mpwqe.info,
								 alloc_units,
								 MLX5_RXT_MPW_PAGES)),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(t->test, rq->mpwqe.info);
}

/* An XDP SQ in multi-buffer mode, as mlx5e_open_xdpsq() leaves it, on the
 * RQ's device, ringing a doorbell in host memory.
 */
static void mlx5_rxt_xdpsq(struct mlx5_rxt *t)
{
	struct mlx5e_xdpsq *sq = t->sq;
	int n = BIT(MLX5_RXT_LOG_SQ_SZ);

	mlx5_rxt_fbc(t->test, &sq->wq.fbc, ilog2(MLX5_SEND_WQE_BB),
		     MLX5_RXT_LOG_SQ_SZ);
	sq->wq.sz = n;
	sq->wq.db = &t->sq_db;
	sq->db.wqe_info = kunit_kcalloc(t->test, n, sizeof(*sq->db.wqe_info),
					GFP_KERNEL);
	sq->db.xdpi_fifo.xi = kunit_kcalloc(t->test, n * MLX5_SEND_WQEBB_NUM_DS,
					    sizeof(*sq->db.xdpi_fifo.xi),
					    GFP_KERNEL);
	sq->stats = kunit_kzalloc(t->test, sizeof(*sq->stats), GFP_KERNEL);
	t->uar = kunit_kzalloc(t->test, sizeof(*t->uar), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(t->test, sq->db.wqe_info);
	KUNIT_ASSERT_NOT_NULL(t->test, sq->db.xdpi_fifo.xi);
	KUNIT_ASSERT_NOT_NULL(t->test, sq->stats);
	KUNIT_ASSERT_NOT_NULL(t->test, t->uar);
	sq->db.xdpi_fifo.pc = &sq->xdpi_fifo_pc;
	sq->db.xdpi_fifo.cc = &sq->xdpi_fifo_cc;
	sq->db.xdpi_fifo.mask = n * MLX5_SEND_WQEBB_NUM_DS - 1;
	sq->uar_map = (__force void __iomem *)t->uar;
	sq->pdev = pp_test_dma.dev;
	sq->sqn = 0x123;
	sq->mkey_be = cpu_to_be32(0x77);
	sq->hw_mtu = t->rq->hw_mtu;
	sq->min_inline_mode = MLX5_INLINE_MODE_NONE;
	mlx5_rxt_cq(t->test, &sq->cq.wq, MLX5_RXT_LOG_SQ_SZ, &t->sq_cq_db);
	mlx5e_set_xmit_fp(sq, false);
	set_bit(MLX5E_SQ_STATE_XDP_MULTIBUF, &sq->state);
	set_bit(MLX5E_SQ_STATE_ENABLED, &sq->state);
}

/* Brings up an RQ for @mtu with @prog attached: legacy or striding. */
static struct mlx5_rxt *mlx5_rxt_start(struct kunit *test, int mtu,
				       struct bpf_prog *prog, bool striding)
{
	struct page_pool *pool;
	struct mlx5e_rq *rq;
	struct mlx5_rxt *t;
	u32 pool_size;

	if (striding && !IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the doorbell is a store to host memory on x86 only");
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	skb_queue_head_init(&t->skbs);
	t->c = kunit_kzalloc(test, sizeof(*t->c), GFP_KERNEL);
	t->priv = kunit_kzalloc(test, sizeof(*t->priv), GFP_KERNEL);
	t->sq = kunit_kzalloc(test, sizeof(*t->sq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->c);
	KUNIT_ASSERT_NOT_NULL(test, t->priv);
	KUNIT_ASSERT_NOT_NULL(test, t->sq);
	t->rq = &t->c->rq;
	rq = t->rq;
	rq->stats = kunit_kzalloc(test, sizeof(*rq->stats), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rq->stats);

	t->netdev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, t->netdev);
	t->netdev->mtu = mtu;
	/* No GRO, checksum or hash offload: frames go to the NAPI's list. */
	t->netdev->features = 0;
	pp_test_napi_add(&t->tn, t->netdev);

	t->mdev = mlx5_rxt_mdev(test);
	t->params.sw_mtu = mtu;
	t->params.hard_mtu = MLX5E_ETH_HARD_MTU;
	t->params.xdp_prog = prog;
	t->params.log_rq_mtu_frames = MLX5_RXT_LOG_WQ_SZ;
	t->params.rq_wq_type = striding ? MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ :
					  MLX5_WQ_TYPE_CYCLIC;
	t->profile.rx_handlers = &mlx5e_rx_handlers_nic;
	t->priv->profile = &t->profile;

	/* What mlx5e_init_rxq_rq() sets. */
	rq->wq_type = t->params.rq_wq_type;
	rq->pdev = pp_test_dma.dev;
	rq->netdev = t->netdev;
	rq->priv = t->priv;
	rq->tstamp = &t->tstamp;
	rq->mdev = t->mdev;
	rq->ix = 0;
	rq->hw_mtu = MLX5E_SW2HW_MTU(&t->params, mtu) - ETH_FCS_LEN;
	rq->xdpsq = t->sq;
	KUNIT_ASSERT_EQ(test, xdp_rxq_info_reg(&rq->xdp_rxq, t->netdev, 0, 0),
			0);

	/* What mlx5e_alloc_rq() sets. */
	RCU_INIT_POINTER(rq->xdp_prog, prog);
	rq->buff.map_dir = prog ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
	rq->buff.headroom = mlx5e_get_linear_rq_headroom(&t->params, NULL);
	rq->mkey_be = cpu_to_be32(0x55);
	if (striding) {
		mlx5_rxt_icosq(t);
		mlx5_rxt_striding_wq(t);
		pool_size = MLX5_RXT_MPW_PAGES << MLX5_RXT_MPW_LOG_WQ_SZ;
		rq->handle_rx_cqe = mlx5e_handle_rx_cqe_mpwrq;
		rq->mpwqe.skb_from_cqe_mpwrq = mlx5e_skb_from_cqe_mpwrq_linear;
		rq->post_wqes = mlx5e_post_rx_mpwqes;
		rq->dealloc_wqe = mlx5e_dealloc_rx_mpwqe;
	} else {
		struct mlx5e_rq_param *rqp;

		/* The driver's own buffer layout for the MTU. */
		rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, rqp);
		KUNIT_ASSERT_EQ(test, mlx5e_build_rq_param(t->mdev, &t->params,
							   NULL, 0, rqp), 0);
		rq->wqe.info = rqp->frags_info;
		rq->buff.frame0_sz = rq->wqe.info.arr[0].frag_stride;
		mlx5_rxt_legacy_wq(t, MLX5_GET(wq, MLX5_ADDR_OF(rqc, rqp->rqc, wq),
					       log_wq_stride));
		pool_size = MLX5_RXT_WQ_SZ;
		KUNIT_ASSERT_EQ(test, mlx5e_rq_set_handlers(rq, &t->params,
							    false), 0);
	}
	mlx5_rxt_cq(test, &rq->cq.wq, MLX5_RXT_LOG_CQ_SZ, &t->cq_db);
	rq->cq.napi = &t->tn.napi;
	rq->cq.netdev = t->netdev;

	KUNIT_ASSERT_EQ(test, mlx5e_rq_create_page_pool(rq, pool_size,
							NUMA_NO_NODE), 0);
	pool = rq->page_pool;
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(pool));
	KUNIT_ASSERT_EQ(test, xdp_rxq_info_reg_mem_model(&rq->xdp_rxq,
							 MEM_TYPE_PAGE_POOL,
							 pool), 0);
	pp_test_watch_driver_pool(pool, &t->release);

	/* Where the pool may sync for the device, written down by hand. A
	 * page holding one buffer, as with XDP at MTU 1500 on 4 KiB pages:
	 * from XDP's 256 bytes of headroom (NET_IP_ALIGN is 0 on x86) over
	 * the 1522 bytes the device may write there (1500 and the hard
	 * MTU's 14 of Ethernet header, 4 of VLAN tag and 4 of FCS). Any other
	 * page is shared by buffers or strides and synced whole.
	 */
	if (prog && mtu == 1500 && !striding) {
		pp_test_dma.sync_lo = 256;
		pp_test_dma.sync_hi = 256 + 1522;
	} else {
		pp_test_dma.sync_lo = 0;
		pp_test_dma.sync_hi = 4096;
	}
	if (prog)
		mlx5_rxt_xdpsq(t);
	set_bit(MLX5E_RQ_STATE_ENABLED, &rq->state);
	return t;
}

/* mlx5e_close_rq() and mlx5e_free_rq() for the RQ: descriptors first,
 * then the memory model and the pool. Skbs the case still holds stay
 * out.
 */
static void mlx5_rxt_stop(struct mlx5_rxt *t)
{
	struct mlx5e_rq *rq = t->rq;

	clear_bit(MLX5E_RQ_STATE_ENABLED, &rq->state);
	if (test_bit(MLX5E_SQ_STATE_ENABLED, &t->sq->state))
		mlx5e_free_xdpsq_descs(t->sq);
	mlx5e_free_rx_descs(rq);
	xdp_rxq_info_unreg(&rq->xdp_rxq);
	page_pool_destroy(rq->page_pool);
	/* The watcher's own reference. */
	page_pool_destroy(rq->page_pool);
	RCU_INIT_POINTER(rq->xdp_prog, NULL);
	netif_napi_del(&t->tn.napi);
	free_netdev(t->netdev);
}

static u8 mlx5_rxt_byte(u8 seed, unsigned int i)
{
	return (u8)(seed + i * 7);
}

static void mlx5_rxt_fill(dma_addr_t dma, unsigned int len, u8 seed,
			  unsigned int from)
{
	u8 *p = pp_test_dma_dev_ptr(dma, len);
	unsigned int i;

	for (i = 0; p && i < len; i++)
		p[i] = mlx5_rxt_byte(seed, from + i);
}

/* Hands the next CQE of @wq to software; @fill wrote the rest of it. */
static void mlx5_rxt_cqe_own(struct mlx5_cqwq *wq, struct mlx5_cqe64 *cqe,
			     u32 seq, u8 opcode)
{
	dma_wmb();
	cqe->op_own = opcode << 4 |
		      ((seq >> wq->fbc.log_sz) & MLX5_CQE_OWNER_MASK);
}

static struct mlx5_cqe64 *mlx5_rxt_next_cqe(struct mlx5_cqwq *wq, u32 seq)
{
	struct mlx5_cqe64 *cqe = mlx5_cqwq_get_wqe(wq, seq & wq->fbc.sz_m1);

	memset(cqe, 0, sizeof(*cqe));
	cqe->op_own = 0xf0 | (((seq >> wq->fbc.log_sz) & 1) ^ 1);
	return cqe;
}

/* The NIC's side of a legacy RQ: writes a frame of @len bytes through the
 * buffers of the next WQE, at the addresses the driver posted, then its
 * completion.
 */
static void mlx5_rxt_receive(struct mlx5_rxt *t, unsigned int len, u8 seed)
{
	struct mlx5e_rq *rq = t->rq;
	u16 ctr = t->wqe_seq++;
	struct mlx5e_rx_wqe_cyc *wqe =
		mlx5_wq_cyc_get_wqe(&rq->wqe.wq, mlx5_wq_cyc_ctr2ix(&rq->wqe.wq, ctr));
	struct mlx5_cqe64 *cqe;
	unsigned int done = 0;
	int i;

	for (i = 0; done < len && i < rq->wqe.info.num_frags; i++) {
		u32 room = be32_to_cpu(wqe->data[i].byte_count) &
			   ~MLX5_HW_START_PADDING;
		u32 n = min(len - done, room);

		mlx5_rxt_fill(be64_to_cpu(wqe->data[i].addr), n, seed, done);
		done += n;
	}
	cqe = mlx5_rxt_next_cqe(&rq->cq.wq, t->cqes);
	cqe->byte_cnt = cpu_to_be32(len);
	cqe->wqe_counter = cpu_to_be16(ctr);
	mlx5_rxt_cqe_own(&rq->cq.wq, cqe, t->cqes++, MLX5_CQE_RESP_SEND);
}

/* An error completion of the next legacy WQE, with @syndrome. */
static void mlx5_rxt_receive_err(struct mlx5_rxt *t, u8 syndrome)
{
	struct mlx5_cqe64 *cqe = mlx5_rxt_next_cqe(&t->rq->cq.wq, t->cqes);

	cqe->wqe_counter = cpu_to_be16(t->wqe_seq++);
	((struct mlx5_err_cqe *)cqe)->syndrome = syndrome;
	mlx5_rxt_cqe_own(&t->rq->cq.wq, cqe, t->cqes++, MLX5_CQE_RESP_ERR);
}

/* The NIC's side of a striding RQ: a frame of @len bytes at stride
 * @stride of WQE @wqe_id, consuming @strides strides; a filler CQE
 * (@len 0) consumes strides without a frame.
 */
static void mlx5_rxt_receive_mpwrq(struct mlx5_rxt *t, u16 wqe_id, u16 stride,
				   u16 strides, unsigned int len, u8 seed)
{
	struct mlx5e_rq *rq = t->rq;
	struct mlx5e_mpw_info *wi = mlx5e_get_mpw_info(rq, wqe_id);
	u32 off = stride << rq->mpwqe.log_stride_sz;
	struct mpwrq_cqe_bc *bc;
	struct mlx5_cqe64 *cqe;

	if (len)
		mlx5_rxt_fill(page_pool_get_dma_addr(wi->alloc_units[off >> PAGE_SHIFT].page) +
			      offset_in_page(off) + rq->buff.headroom, len, seed, 0);
	cqe = mlx5_rxt_next_cqe(&rq->cq.wq, t->cqes);
	cqe->wqe_id = cpu_to_be16(wqe_id);
	cqe->wqe_counter = cpu_to_be16(stride);
	bc = (struct mpwrq_cqe_bc *)&cqe->byte_cnt;
	bc->filler_consumed_strides = cpu_to_be16(strides | (len ? 0 : 0x8000));
	bc->byte_cnt = cpu_to_be16(len);
	mlx5_rxt_cqe_own(&rq->cq.wq, cqe, t->cqes++, MLX5_CQE_RESP_SEND);
}

struct mlx5_rxt_poll {
	struct mlx5_rxt *t;
	int budget;
	int polled;
	bool busy;
};

static void mlx5_rxt_poll_fn(void *arg)
{
	struct mlx5_rxt_poll *p = arg;
	struct mlx5e_rq *rq = p->t->rq;
	struct napi_struct *napi = &p->t->tn.napi;
	struct sk_buff *skb, *next;

	/* The RX steps of mlx5e_napi_poll(), under its RCU read lock: the
	 * RQ's completions, the ICOSQ's (UMRs done), then the refill.
	 */
	rcu_read_lock();
	p->polled = mlx5e_poll_rx_cq(&rq->cq, p->budget);
	if (rq->icosq)
		mlx5e_poll_ico_cq(&rq->icosq->cq);
	p->busy = INDIRECT_CALL_2(rq->post_wqes, mlx5e_post_rx_mpwqes,
				  mlx5e_post_rx_wqes, rq);
	rcu_read_unlock();
	/* Take what GRO queued for the stack, as gro_normal_list() would. */
	list_for_each_entry_safe(skb, next, &napi->rx_list, list) {
		skb_list_del_init(skb);
		__skb_queue_tail(&p->t->skbs, skb);
	}
	napi->rx_count = 0;
}

/* Runs the RQ's NAPI work in softirq: completions, then the refill. */
static int mlx5_rxt_poll(struct mlx5_rxt *t, int budget)
{
	struct mlx5_rxt_poll p = { .t = t, .budget = budget };

	pp_test_in_softirq(mlx5_rxt_poll_fn, &p);
	return p.polled;
}

/* The device completes the ICOSQ's WQEs up to the one starting at @ctr
 * (in sq->pc's units), in one CQE; the next poll reads it.
 */
static void mlx5_rxt_ico_complete(struct mlx5_rxt *t, u16 ctr)
{
	struct mlx5_cqwq *wq = &t->c->icosq.cq.wq;
	u32 seq = t->ico_cqes++;
	struct mlx5_cqe64 *cqe = mlx5_rxt_next_cqe(wq, seq);

	cqe->wqe_counter = cpu_to_be16(ctr);
	mlx5_rxt_cqe_own(wq, cqe, seq, MLX5_CQE_REQ);
}

/* The device completes every ICOSQ WQE posted so far: the UMRs that fill
 * a striding RQ's WQEs. Returns false if there was none.
 */
static bool mlx5_rxt_umr_done(struct mlx5_rxt *t)
{
	struct mlx5e_icosq *sq = &t->c->icosq;
	u16 ctr, last = 0;

	if (t->ico_done == sq->pc)
		return false;
	for (ctr = t->ico_done; ctr != sq->pc;
	     ctr += sq->db.wqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, ctr)].num_wqebbs)
		last = ctr;
	mlx5_rxt_ico_complete(t, last);
	t->ico_done = sq->pc;
	return true;
}

/* Posts the RQ's WQEs, as mlx5e_open_rq() and the first polls do. A
 * striding RQ's refill posts UMRs; once the device has completed them,
 * the next poll hands their WQEs to the RQ.
 */
static void mlx5_rxt_post(struct mlx5_rxt *t)
{
	mlx5_rxt_poll(t, 1);
	if (t->rq->wq_type != MLX5_WQ_TYPE_CYCLIC && mlx5_rxt_umr_done(t))
		mlx5_rxt_poll(t, 1);
}

/* Checks that @skb holds the frame of @len bytes written with @seed. */
static void mlx5_rxt_expect_frame(struct kunit *test, struct sk_buff *skb,
				  unsigned int len, u8 seed)
{
	unsigned int i, bad = 0;
	u8 *buf;

	/* eth_type_trans() pulled the Ethernet header. */
	KUNIT_EXPECT_EQ(test, skb->len + ETH_HLEN, len);
	KUNIT_EXPECT_PTR_EQ(test, skb_mac_header(skb) + ETH_HLEN, skb->data);
	if (skb->len + ETH_HLEN != len)
		return;
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, skb_mac_header(skb), ETH_HLEN);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, buf + ETH_HLEN,
					    len - ETH_HLEN), 0);
	for (i = 0; i < len; i++)
		if (buf[i] != mlx5_rxt_byte(seed, i))
			bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "frame of %u bytes", len);
	kunit_kfree(test, buf);
}

static struct mlx5e_wqe_frag_info *mlx5_rxt_frag(struct mlx5_rxt *t, u16 ix)
{
	return get_frag(t->rq, ix & (MLX5_RXT_WQ_SZ - 1));
}

static struct page_pool_stats mlx5_rxt_stats(struct mlx5_rxt *t)
{
	return pp_test_stats(t->rq->page_pool);
}

static void mlx5_rxt_free_skbs(void *arg)
{
	struct mlx5_rxt *t = arg;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&t->skbs)))
		kfree_skb(skb);
}

/* Every posted WQE of a legacy RQ: each buffer at its page's DMA address,
 * past the headroom for the first, on a page of the pool that no other
 * page slot holds.
 */
static void mlx5_rxt_expect_posted(struct kunit *test, struct mlx5_rxt *t)
{
	struct mlx5e_rq *rq = t->rq;
	struct mlx5_wq_cyc *wq = &rq->wqe.wq;
	u16 tail = wq->wqe_ctr - wq->cur_sz;
	int bad_addr = 0, foreign = 0, shared = 0;
	u16 i, j;
	int f;

	for (i = 0; i < wq->cur_sz; i++) {
		u16 ix = mlx5_wq_cyc_ctr2ix(wq, tail + i);
		struct mlx5e_rx_wqe_cyc *wqe = mlx5_wq_cyc_get_wqe(wq, ix);
		struct mlx5e_wqe_frag_info *frag = get_frag(rq, ix);

		for (f = 0; f < rq->wqe.info.num_frags; f++, frag++) {
			struct page *page = frag->au->page;
			u64 want = page_pool_get_dma_addr(page) + frag->offset +
				   (f ? 0 : rq->buff.headroom);

			if (be64_to_cpu(wqe->data[f].addr) != want)
				bad_addr++;
			if (!pp_test_owns(rq->page_pool, page))
				foreign++;
		}
	}
	/* Page slots of the posted WQEs, each with a page of its own. */
	for (i = 0; i < wq->cur_sz; i++) {
		struct mlx5e_wqe_frag_info *a =
			get_frag(rq, mlx5_wq_cyc_ctr2ix(wq, tail + i));

		for (j = i + 1; j < wq->cur_sz; j++) {
			struct mlx5e_wqe_frag_info *b =
				get_frag(rq, mlx5_wq_cyc_ctr2ix(wq, tail + j));
			int fa, fb;

			for (fa = 0; fa < rq->wqe.info.num_frags; fa++)
				for (fb = 0; fb < rq->wqe.info.num_frags; fb++)
					if (a[fa].au != b[fb].au &&
					    a[fa].au->page == b[fb].au->page)
						shared++;
		}
	}
	KUNIT_EXPECT_EQ(test, bad_addr, 0);
	KUNIT_EXPECT_EQ(test, foreign, 0);
	KUNIT_EXPECT_EQ(test, shared, 0);
}

/* Page slots (pages) the posted WQEs of a legacy RQ hold. */
static int mlx5_rxt_posted_pages(struct mlx5_rxt *t)
{
	struct mlx5e_rq *rq = t->rq;
	struct mlx5_wq_cyc *wq = &rq->wqe.wq;
	u16 tail = wq->wqe_ctr - wq->cur_sz;
	union mlx5e_alloc_unit *last = NULL;
	int i, f, n = 0;

	/* Slots are in WQE order, so a page shared by neighbours repeats
	 * only next to itself.
	 */
	for (i = 0; i < wq->cur_sz; i++) {
		struct mlx5e_wqe_frag_info *frag =
			get_frag(rq, mlx5_wq_cyc_ctr2ix(wq, tail + i));

		for (f = 0; f < rq->wqe.info.num_frags; f++, frag++) {
			if (frag->au != last)
				n++;
			last = frag->au;
		}
	}
	return n;
}

/* Posting needed @pages pages: each mapped once, with at most a bulk
 * refill's worth of spare pages mapped into the pool's cache.
 */
static void mlx5_rxt_expect_maps(struct kunit *test, int pages)
{
	KUNIT_EXPECT_GE(test, atomic_read(&pp_test_dma.maps), pages);
	KUNIT_EXPECT_LT(test, atomic_read(&pp_test_dma.maps),
			pages + PP_ALLOC_CACHE_REFILL);
	KUNIT_EXPECT_EQ(test, pp_test_dma.mapped_twice, 0);
}

/* Waits for the pool to be freed and to have unmapped every page it
 * mapped, each once.
 */
static void mlx5_rxt_expect_released(struct kunit *test, struct mlx5_rxt *t)
{
	KUNIT_EXPECT_TRUE_MSG(test, pp_test_released(&t->release),
			      "the pool was not freed");
	pp_test_dma_expect_unmapped(test);
}

/* The driver's buffers for a legacy RQ WQE, against what the case
 * worked out by hand: @size and @stride of each of @n buffers,
 * @index_mask (WQEs that start in a page shared with the WQE before
 * must wait for it) and @bulk (the refill's smallest batch).
 */
static void mlx5_rxt_expect_frags(struct kunit *test,
				  const struct mlx5e_rq_frags_info *info,
				  int n, const int *size, const int *stride,
				  u8 index_mask, u8 bulk)
{
	int f;

	KUNIT_ASSERT_EQ(test, info->num_frags, n);
	KUNIT_EXPECT_EQ(test, info->log_num_frags, (u8)order_base_2(n));
	for (f = 0; f < n; f++) {
		KUNIT_EXPECT_EQ_MSG(test, info->arr[f].frag_size, size[f],
				    "buffer %d", f);
		KUNIT_EXPECT_EQ_MSG(test, info->arr[f].frag_stride, stride[f],
				    "buffer %d", f);
	}
	KUNIT_EXPECT_EQ(test, info->wqe_index_mask, index_mask);
	KUNIT_EXPECT_EQ(test, info->wqe_bulk, bulk);
}

/* a. A legacy RQ at MTU 1500 holds two buffers a page. Posting maps each
 * page once, through the pool; frames become skbs built on the posted
 * buffers, marked for recycling, synced for the CPU over the frame; and
 * their pages go back to the pool as recycled, not released.
 */
static void mlx5e_rx_legacy_linear_builds_skbs_on_pool_pages(struct kunit *test)
{
	static const unsigned int lens[MLX5_RXT_SKB_BATCH] = {
		60, 700, 1400, 1514
	};
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, false);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool *pool = rq->page_pool;
	struct page_pool_stats before, after;
	struct sk_buff *skb;
	int i, maps;

	/* Worked out by hand, on x86_64 (NET_SKB_PAD 64, NET_IP_ALIGN 0,
	 * a struct skb_shared_info of 320 bytes): the device writes up to
	 * 1500 + 22 = 1522 bytes; with 64 of headroom, rounded up to 1600,
	 * and the shared info, a linear skb needs 1920 bytes, so buffers
	 * are 2048 apart, two to a page; a WQE starting a page has a
	 * neighbour (index mask 1); the refill posts 8 WQEs or none.
	 */
	mlx5_rxt_expect_frags(test, &rq->wqe.info, 1, (const int[]){ 1522 },
			      (const int[]){ 2048 }, 1, 8);
	KUNIT_EXPECT_EQ(test, rq->buff.frame0_sz, 2048U);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rq->wqe.skb_from_cqe,
			    (void *)mlx5e_skb_from_cqe_linear);
	KUNIT_EXPECT_EQ(test, rq->buff.headroom, (u16)(NET_IP_ALIGN + NET_SKB_PAD));
	/* The pool maps and syncs whole pages, in the RQ's direction. */
	KUNIT_EXPECT_EQ(test, pool->p.flags, (unsigned int)(PP_FLAG_DMA_MAP |
			PP_FLAG_DMA_SYNC_DEV | PP_FLAG_PAGE_FRAG));
	KUNIT_EXPECT_EQ(test, pool->p.dma_dir, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, pool->p.offset, 0U);
	KUNIT_EXPECT_EQ(test, pool->p.max_len, (unsigned int)PAGE_SIZE);

	mlx5_rxt_post(t);
	KUNIT_EXPECT_EQ(test, rq->wqe.wq.cur_sz, (u16)MLX5_RXT_WQ_SZ);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->wq_db), (u32)MLX5_RXT_WQ_SZ);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_posted_pages(t), MLX5_RXT_WQ_SZ / 2);
	mlx5_rxt_expect_maps(test, MLX5_RXT_WQ_SZ / 2);
	maps = atomic_read(&pp_test_dma.maps);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	mlx5_rxt_expect_posted(test, t);
	for (i = 0; i < MLX5_RXT_WQ_SZ; i += 2)
		KUNIT_EXPECT_PTR_EQ(test, mlx5_rxt_frag(t, i)->au,
				    mlx5_rxt_frag(t, i + 1)->au);

	pp_test_dma_forget_syncs();
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive(t, lens[i], i);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), MLX5_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX5_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, rq->stats->packets, (u64)MLX5_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, rq->cq.wq.cc, (u32)MLX5_RXT_SKB_BATCH);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->cq_db), (u32)MLX5_RXT_SKB_BATCH);
	/* Four buffers short of a refill's bulk: nothing mapped anew. */
	KUNIT_EXPECT_EQ(test, rq->wqe.wq.cur_sz,
			(u16)(MLX5_RXT_WQ_SZ - MLX5_RXT_SKB_BATCH));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);

	i = 0;
	skb_queue_walk(&t->skbs, skb) {
		struct mlx5e_wqe_frag_info *frag = mlx5_rxt_frag(t, i);
		struct page *page = frag->au->page;
		dma_addr_t dma = page_pool_get_dma_addr(page) + frag->offset +
				 rq->buff.headroom;

		KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head,
				    page_address(page) + frag->offset);
		KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
				rq->buff.headroom);
		KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(skb));
		KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
		KUNIT_EXPECT_EQ(test, skb_get_rx_queue(skb), 0);
		KUNIT_EXPECT_PTR_EQ(test, skb->dev, t->netdev);
		KUNIT_EXPECT_TRUE_MSG(test,
				      pp_test_dma_synced(&pp_test_dma.cpu_log,
							 dma, lens[i]),
				      "frame %d not synced for the CPU", i);
		mlx5_rxt_expect_frame(test, skb, lens[i], i);
		i++;
	}
	KUNIT_EXPECT_GE(test, pp_test_dma.cpu_log.n, MLX5_RXT_SKB_BATCH);

	/* The skbs hold the two pages: the driver's share went back with
	 * the WQEs, the pages go back with the last skb of each.
	 */
	before = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, before.recycle_stats.cached +
			before.recycle_stats.ring, 0ULL);
	mlx5_rxt_free_skbs(t);
	after = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring, 2ULL);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring_full, 0ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* b. Lap after lap of the ring, with the stack freeing each batch: once
 * the pool has what it needs, no page is mapped again, none is released,
 * each page comes back once per use, and every sync for the device stays
 * in the page.
 */
static void mlx5e_rx_legacy_steady_state_maps_nothing_new(struct kunit *test)
{
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, false);
	int lap, i, j, maps_after_first = 0;
	struct page_pool_stats s;

	mlx5_rxt_post(t);
	for (lap = 0; lap < 6; lap++) {
		for (i = 0; i < MLX5_RXT_WQ_SZ; i += MLX5_RXT_SKB_BATCH) {
			u8 seed = t->wqe_seq;

			for (j = 0; j < MLX5_RXT_SKB_BATCH; j++)
				mlx5_rxt_receive(t, 64 + 350 * j, seed + j);
			KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64),
					MLX5_RXT_SKB_BATCH);
			KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs),
					MLX5_RXT_SKB_BATCH);
			for (j = 0; j < MLX5_RXT_SKB_BATCH; j++) {
				struct sk_buff *skb = __skb_dequeue(&t->skbs);

				mlx5_rxt_expect_frame(test, skb, 64 + 350 * j,
						      seed + j);
				kfree_skb(skb);
			}
			/* The refill keeps the ring at most a bulk short. */
			KUNIT_EXPECT_GT(test, t->rq->wqe.wq.cur_sz,
					(u16)(MLX5_RXT_WQ_SZ - 8));
		}
		if (!lap)
			maps_after_first = atomic_read(&pp_test_dma.maps);
	}
	mlx5_rxt_expect_posted(test, t);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps_after_first);
	KUNIT_EXPECT_EQ(test, pp_test_dma.mapped_twice, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	s = mlx5_rxt_stats(t);
	/* Two frames a page. */
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			6ULL * MLX5_RXT_WQ_SZ / 2);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, t->rq->stats->packets, 6ULL * MLX5_RXT_WQ_SZ);
	KUNIT_EXPECT_EQ(test, t->rq->stats->buff_alloc_err, 0ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

struct mlx5_rxt_drain {
	struct page_pool *pool;
	struct page *pages[512];
	int n;
};

static void mlx5_rxt_drain_fn(void *arg)
{
	struct mlx5_rxt_drain *d = arg;
	struct page *page;

	while (d->n < ARRAY_SIZE(d->pages) &&
	       (page = page_pool_dev_alloc_pages(d->pool)))
		d->pages[d->n++] = page;
}

static void mlx5_rxt_undrain_fn(void *arg)
{
	struct mlx5_rxt_drain *d = arg;

	while (d->n)
		page_pool_put_defragged_page(d->pool, d->pages[--d->n], -1,
					     true);
}

/* Empties the pool, so that its next pages need new maps: every map
 * fails while the case takes all the pool has.
 */
static void mlx5_rxt_drain(struct mlx5_rxt *t, struct mlx5_rxt_drain *d)
{
	d->pool = t->rq->page_pool;
	d->n = 0;
	pp_test_dma.maps_left = 0;
	pp_test_in_softirq(mlx5_rxt_drain_fn, d);
}

/* c. At MTU 5000 a WQE has three 2 KiB buffers, and two WQEs share the
 * page in the middle. A jumbo frame becomes an skb built on the first
 * buffer with the others as page fragments. Refills whose page maps fail
 * part way post whole pages only and keep no page twice; the teardown
 * after leaks nothing.
 */
static void mlx5e_rx_legacy_nonlinear_refill_faults_leak_nothing(struct kunit *test)
{
	static const unsigned int lens[MLX5_RXT_SKB_BATCH] = {
		5000, 200, 3000, 4100
	};
	static const int budgets[] = { 0, 2, 0, 4 };
	struct mlx5_rxt *t = mlx5_rxt_start(test, 5000, NULL, false);
	struct mlx5e_rq *rq = t->rq;
	struct mlx5e_rq_frags_info *info = &rq->wqe.info;
	struct mlx5_rxt_drain *drain;
	struct mlx5e_wqe_frag_info *frag;
	dma_addr_t dma;
	struct page_pool_stats s;
	struct sk_buff *skb;
	unsigned int done;
	int i, f;

	/* By hand: 5022 bytes do not fit a linear skb in a page. The first
	 * buffer gets 2048 less 64 of headroom and 320 of shared info, 1664
	 * bytes; the second a whole 2048; the third the last 1310, in 2048
	 * too. Three buffers, so every other WQE ends in a page the next
	 * one starts (index mask 1).
	 */
	mlx5_rxt_expect_frags(test, info, 3,
			      (const int[]){ 1664, 2048, 1310 },
			      (const int[]){ 2048, 2048, 2048 }, 1, 8);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rq->wqe.skb_from_cqe,
			    (void *)mlx5e_skb_from_cqe_nonlinear);
	drain = kunit_kzalloc(test, sizeof(*drain), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, drain);

	mlx5_rxt_post(t);
	/* Three buffers a WQE, two a page. */
	KUNIT_EXPECT_EQ(test, rq->wqe.wq.cur_sz, (u16)MLX5_RXT_WQ_SZ);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_posted_pages(t), MLX5_RXT_WQ_SZ * 3 / 2);
	mlx5_rxt_expect_maps(test, MLX5_RXT_WQ_SZ * 3 / 2);
	mlx5_rxt_expect_posted(test, t);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_rxt_frag(t, 0)[2].au,
			    mlx5_rxt_frag(t, 1)[0].au);

	pp_test_dma_forget_syncs();
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive(t, lens[i], 10 + i);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), MLX5_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX5_RXT_SKB_BATCH);
	i = 0;
	skb_queue_walk(&t->skbs, skb) {
		frag = mlx5_rxt_frag(t, i);
		KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head,
				    page_address(frag->au->page) + frag->offset);
		KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
		KUNIT_EXPECT_EQ(test, skb_headlen(skb) + ETH_HLEN,
				min_t(unsigned int, lens[i], info->arr[0].frag_size));
		mlx5_rxt_expect_frame(test, skb, lens[i], 10 + i);
		/* Each buffer the frame used, on its page, synced for the
		 * CPU over what it holds.
		 */
		done = min_t(unsigned int, lens[i], info->arr[0].frag_size);
		dma = page_pool_get_dma_addr(frag->au->page) + frag->offset;
		KUNIT_EXPECT_TRUE(test, pp_test_dma_synced(&pp_test_dma.cpu_log,
							   dma + rq->buff.headroom,
							   done));
		for (f = 1; done < lens[i]; f++) {
			skb_frag_t *sf = &skb_shinfo(skb)->frags[f - 1];
			unsigned int n = min_t(unsigned int, lens[i] - done,
					       info->arr[f].frag_size);

			KUNIT_ASSERT_LT(test, f - 1, (int)skb_shinfo(skb)->nr_frags);
			KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(sf),
					    frag[f].au->page);
			KUNIT_EXPECT_EQ(test, skb_frag_off(sf), frag[f].offset);
			KUNIT_EXPECT_EQ(test, skb_frag_size(sf), n);
			dma = page_pool_get_dma_addr(frag[f].au->page) +
			      frag[f].offset;
			KUNIT_EXPECT_TRUE(test,
					  pp_test_dma_synced(&pp_test_dma.cpu_log,
							     dma, n));
			done += n;
		}
		KUNIT_EXPECT_EQ(test, (int)skb_shinfo(skb)->nr_frags, f - 1);
		i++;
	}

	/* Four more frames, their skbs held: the refill of eight WQEs needs
	 * twelve pages. The pool is emptied before each try, and its maps
	 * fail from the start, then after 2 (the second WQE fails), 0, and
	 * 4 (the third fails).
	 */
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive(t, 100, 20 + i);
	for (i = 0; i < ARRAY_SIZE(budgets); i++) {
		int err_before = rq->stats->buff_alloc_err;

		mlx5_rxt_drain(t, drain);
		pp_test_dma.maps_left = budgets[i];
		mlx5_rxt_poll(t, 64);
		pp_test_dma.maps_left = -1;
		pp_test_in_softirq(mlx5_rxt_undrain_fn, drain);
		KUNIT_EXPECT_EQ(test, rq->stats->buff_alloc_err,
				(u64)err_before + 1);
		/* WQEs go in pairs that cover whole pages: the first pair
		 * after the four maps, none before.
		 */
		KUNIT_EXPECT_EQ(test, rq->wqe.wq.wqe_ctr & info->wqe_index_mask,
				0);
		mlx5_rxt_expect_posted(test, t);
	}
	KUNIT_EXPECT_GT(test, atomic_read(&pp_test_dma.map_errors), 0);
	KUNIT_EXPECT_EQ(test, rq->wqe.wq.cur_sz, (u16)(MLX5_RXT_WQ_SZ - 6));

	/* Maps work again: the refill after two more frames fills the
	 * ring.
	 */
	mlx5_rxt_receive(t, 100, 30);
	mlx5_rxt_receive(t, 100, 31);
	mlx5_rxt_poll(t, 64);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 2U * MLX5_RXT_SKB_BATCH + 2);
	KUNIT_EXPECT_EQ(test, rq->wqe.wq.cur_sz, (u16)MLX5_RXT_WQ_SZ);
	mlx5_rxt_expect_posted(test, t);

	mlx5_rxt_free_skbs(t);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* d. XDP_DROP on a legacy RQ: a page a buffer, mapped both ways, synced
 * for the device from XDP's headroom over the buffer; each dropped
 * frame's page goes straight back to the pool's cache when its WQE is
 * freed in NAPI, and the refill takes it from there.
 */
static void mlx5e_rx_xdp_drop_recycles_direct(struct kunit *test)
{
	struct bpf_prog *prog = mlx5_rxt_xdp_prog(test, XDP_DROP, 0);
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, prog, false);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool *pool = rq->page_pool;
	struct pp_test_dma_sync sync;
	struct page_pool_stats s;
	int i, j, maps, n = 3 * MLX5_RXT_WQ_SZ;

	/* By hand: with XDP a buffer has a page of its own, 1522 bytes of it
	 * for the device after XDP's 256 of headroom; the pool syncs just
	 * that for the device, every time.
	 */
	mlx5_rxt_expect_frags(test, &rq->wqe.info, 1, (const int[]){ 1522 },
			      (const int[]){ 4096 }, 0, 8);
	KUNIT_EXPECT_EQ(test, rq->buff.headroom, (u16)256);
	KUNIT_EXPECT_EQ(test, pool->p.dma_dir, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, pool->p.offset, 256U);
	KUNIT_EXPECT_EQ(test, pool->p.max_len, 1522U);
	pp_test_dma.sync_exact = true;

	mlx5_rxt_post(t);
	mlx5_rxt_expect_maps(test, MLX5_RXT_WQ_SZ);
	maps = atomic_read(&pp_test_dma.maps);
	for (i = 0; i < n; i += 16) {
		for (j = 0; j < 16; j++)
			mlx5_rxt_receive(t, 60 + 90 * j, j);
		KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 16);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_xdp.runs, n);
	KUNIT_EXPECT_EQ(test, rq->stats->xdp_drop, (u64)n);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, (u64)n);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	KUNIT_EXPECT_GE(test, pp_test_dma.dev_log.n, n);
	sync = pp_test_dma_last(&pp_test_dma.dev_log);
	KUNIT_EXPECT_EQ(test, offset_in_page(sync.addr), 256UL);
	KUNIT_EXPECT_EQ(test, sync.size, (size_t)1522);
	mlx5_rxt_expect_posted(test, t);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* d. XDP_PASS: the skb is built on the page with XDP's headroom in front,
 * and goes back to the pool when freed.
 */
static void mlx5e_rx_xdp_pass_builds_skb(struct kunit *test)
{
	struct bpf_prog *prog = mlx5_rxt_xdp_prog(test, XDP_PASS, 0);
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, prog, false);
	struct page_pool_stats s;
	struct sk_buff *skb;
	struct page *page;

	mlx5_rxt_post(t);
	page = mlx5_rxt_frag(t, 0)->au->page;
	mlx5_rxt_receive(t, 1400, 9);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(page));
	KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
			t->rq->buff.headroom);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
	mlx5_rxt_expect_frame(test, skb, 1400, 9);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			0ULL);
	mlx5_rxt_free_skbs(t);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* XDP_REDIRECT to another interface: the frame takes the page, which
 * stays mapped (the pool's mapping, no longer the driver's to undo), and
 * goes back to the pool when the far side returns the frame.
 */
static void mlx5e_rx_xdp_redirect_frame_holds_page(struct kunit *test)
{
	struct pp_test_fwd *f;
	struct page_pool_stats s;
	struct net_device *fwd;
	struct bpf_prog *prog;
	struct page *pages[4];
	struct mlx5_rxt *t;
	int i;

	fwd = pp_test_fwd_start(test);
	f = netdev_priv(fwd);
	prog = mlx5_rxt_xdp_prog(test, XDP_REDIRECT, 0);
	mlx5_rxt_xdp.redirect_to = fwd->ifindex;
	t = mlx5_rxt_start(test, 1500, prog, false);
	mlx5_rxt_post(t);
	for (i = 0; i < 4; i++) {
		pages[i] = mlx5_rxt_frag(t, i)->au->page;
		mlx5_rxt_receive(t, 100 + 400 * i, i);
	}
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 4);
	KUNIT_EXPECT_EQ(test, t->rq->stats->xdp_redirect, 4ULL);
	KUNIT_EXPECT_EQ(test, t->rq->stats->xdp_drop, 0ULL);
	KUNIT_ASSERT_EQ(test, f->n, 4);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 0);
	for (i = 0; i < 4; i++) {
		struct xdp_frame *xdpf = f->frames[i];

		KUNIT_EXPECT_PTR_EQ(test, virt_to_page(xdpf->data), pages[i]);
		KUNIT_EXPECT_EQ(test, xdpf->len, 100U + 400 * i);
		KUNIT_EXPECT_EQ(test, ((u8 *)xdpf->data)[xdpf->len - 1],
				mlx5_rxt_byte(i, xdpf->len - 1));
		KUNIT_EXPECT_NE(test, page_pool_get_dma_addr(pages[i]), 0);
	}
	/* Two frames go back as frames, to the pool; two become skbs, as
	 * cpumap or veth make of them, and leave the pool unmapped.
	 */
	pp_test_fwd_finish(test, fwd, 2);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 2ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 2);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	pp_test_fwd_stop(fwd);
	mlx5_rxt_expect_released(test, t);
}

struct mlx5_rxt_sq_poll {
	struct mlx5e_xdpsq *sq;
};

static void mlx5_rxt_sq_poll_fn(void *arg)
{
	struct mlx5_rxt_sq_poll *p = arg;

	mlx5e_poll_xdpsq_cq(&p->sq->cq);
}

/* Data segment @d of the XDP SQ of @t sends @len bytes at @dma, synced
 * for the device, as the device would send them: bytes @from on of the
 * frame of @seed, inverted where the XDP program rewrote them
 * (@rewritten).
 */
static void mlx5_rxt_expect_seg(struct kunit *test, struct mlx5_rxt *t,
				const struct mlx5_wqe_data_seg *d,
				dma_addr_t dma, unsigned int len, u8 seed,
				unsigned int from, bool rewritten)
{
	unsigned int j, bad = 0;
	u8 *sent;

	KUNIT_EXPECT_EQ(test, be64_to_cpu(d->addr), (u64)dma);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(d->byte_count), len);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(d->lkey), be32_to_cpu(t->sq->mkey_be));
	KUNIT_EXPECT_TRUE_MSG(test, pp_test_dma_synced(&pp_test_dma.dev_log,
						       dma, len),
			      "frame %u, bytes %u to %u: not synced for the device",
			      seed, from, from + len);
	sent = pp_test_dma_dev_ptr(dma, len);
	for (j = 0; sent && j < len; j++) {
		u8 b = mlx5_rxt_byte(seed, from + j);

		bad += sent[j] != (rewritten ? (u8)~b : b);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "frame %u, bytes %u to %u, as sent",
			    seed, from, from + len);
}

static struct mlx5e_tx_wqe *mlx5_rxt_sq_wqe(struct mlx5_rxt *t, u16 pi)
{
	return mlx5_wq_cyc_get_wqe(&t->sq->wq, pi);
}

/* The device completes the XDP SQ's WQEs up to the one at @pi, and the
 * completion is polled in NAPI.
 */
static void mlx5_rxt_sq_complete(struct mlx5_rxt *t, u16 pi)
{
	struct mlx5e_xdpsq *sq = t->sq;
	struct mlx5_rxt_sq_poll sp = { .sq = sq };
	struct mlx5_cqe64 *cqe = mlx5_rxt_next_cqe(&sq->cq.wq, t->sq_cqes);

	cqe->wqe_counter = cpu_to_be16(pi);
	mlx5_rxt_cqe_own(&sq->cq.wq, cqe, t->sq_cqes++, MLX5_CQE_REQ);
	pp_test_in_softirq(mlx5_rxt_sq_poll_fn, &sp);
}

/* d. XDP_TX: the frame goes out on the XDP SQ from the RX page itself, at
 * the DMA address the pool keeps, synced for the device over the frame
 * the program rewrote;
 * the WQE's free keeps the page for the SQ. A completion polled in NAPI
 * puts the page straight back in the pool's cache; the SQ's teardown
 * gives back the pages it still holds.
 */
static void mlx5e_rx_xdp_tx_returns_pages_to_pool(struct kunit *test)
{
	static const unsigned int lens[4] = { 60, 700, 1400, 1514 };
	struct page_pool_stats s;
	struct mlx5e_xdpsq *sq;
	struct page *pages[4];
	struct bpf_prog *prog;
	struct mlx5_rxt *t;
	int i, maps;

	if (!IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the doorbell is a store to host memory on x86 only");
	prog = mlx5_rxt_xdp_prog(test, XDP_TX, 0);
	t = mlx5_rxt_start(test, 1500, prog, false);
	sq = t->sq;
	mlx5_rxt_post(t);
	maps = atomic_read(&pp_test_dma.maps);
	pp_test_dma_forget_syncs();
	for (i = 0; i < 4; i++) {
		pages[i] = mlx5_rxt_frag(t, i)->au->page;
		mlx5_rxt_receive(t, lens[i], i);
	}
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 4);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, t->rq->stats->xdp_drop, 0ULL);
	KUNIT_EXPECT_EQ(test, sq->stats->xmit, 4ULL);
	KUNIT_EXPECT_EQ(test, sq->pc, 4);
	/* The poll rang the doorbell for what it queued. */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->sq_db), 4U);
	KUNIT_EXPECT_NE(test, *t->uar, 0ULL);
	/* The device sends each frame as the program rewrote it. */
	for (i = 0; i < 4; i++)
		mlx5_rxt_expect_seg(test, t, mlx5_rxt_sq_wqe(t, i)->data,
				    page_pool_get_dma_addr(pages[i]) +
				    t->rq->buff.headroom, lens[i], i, 0, true);
	/* The WQEs were freed, but the SQ holds their pages. */
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			0ULL);

	/* One completion for the first two frames, polled in NAPI. */
	mlx5_rxt_sq_complete(t, 1);
	KUNIT_EXPECT_EQ(test, sq->cc, 2);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 2ULL);

	/* The SQ goes down with two frames in flight. */
	mlx5e_free_xdpsq_descs(sq);
	clear_bit(MLX5E_SQ_STATE_ENABLED, &sq->state);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			4ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* d. Multi-buffer XDP at MTU 9000: three pages a WQE. Before the program
 * runs the frame holds each of its pages; XDP_DROP gives them back, and
 * every page of the WQE goes back to the pool's cache once.
 */
static void mlx5e_rx_xdp_multibuf_drop_gives_back_every_page(struct kunit *test)
{
	static const unsigned int lens[4] = { 9000, 5000, 3000, 100 };
	struct bpf_prog *prog = mlx5_rxt_xdp_prog(test, XDP_DROP, 0);
	struct mlx5_rxt *t = mlx5_rxt_start(test, 9000, prog, false);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool_stats s;
	int i, j, maps, n = 2 * MLX5_RXT_WQ_SZ;

	/* By hand: 9022 bytes, with XDP, in buffers of a page each: the
	 * first after 256 of headroom and before 320 of shared info, 3520
	 * bytes; then 4096; then the last 1406. The pages are synced whole.
	 */
	mlx5_rxt_expect_frags(test, &rq->wqe.info, 3,
			      (const int[]){ 3520, 4096, 1406 },
			      (const int[]){ 4096, 4096, 4096 }, 0, 8);
	KUNIT_EXPECT_EQ(test, rq->page_pool->p.offset, 0U);
	KUNIT_EXPECT_EQ(test, rq->page_pool->p.max_len, 4096U);
	mlx5_rxt_post(t);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_posted_pages(t), 3 * MLX5_RXT_WQ_SZ);
	mlx5_rxt_expect_maps(test, 3 * MLX5_RXT_WQ_SZ);
	maps = atomic_read(&pp_test_dma.maps);
	for (i = 0; i < n; i += 16) {
		for (j = 0; j < 16; j++)
			mlx5_rxt_receive(t, lens[j % 4], j);
		KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 16);
	}
	KUNIT_EXPECT_EQ(test, rq->stats->xdp_drop, (u64)n);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_xdp.last_len, lens[3]);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 3ULL * n);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);
	mlx5_rxt_expect_posted(test, t);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* d. Multi-buffer XDP_TX at MTU 9000: one send WQE carries the frame's
 * head and each fragment from its pool page, each synced for the device
 * over what it sends; the SQ holds every page of the frame until the
 * completion, in NAPI, gives them to the pool's cache, and its teardown
 * gives back those of frames still in flight.
 */
static void mlx5e_rx_xdp_multibuf_tx_sends_every_page(struct kunit *test)
{
	/* By hand, for buffers of 3520, 4096 and 1406 bytes, a page each
	 * (see the drop case): what each frame fills, its data segments,
	 * and where its WQE starts (two segments of control and one of data
	 * each, four to a WQEBB).
	 */
	static const struct {
		unsigned int len;
		int n;
		unsigned int size[3];
		u16 pi;
	} c[4] = {
		{ 9000, 3, { 3520, 4096, 1384 }, 0 },
		{ 5000, 2, { 3520, 1480 }, 2 },
		{ 9000, 3, { 3520, 4096, 1384 }, 3 },
		{ 3000, 1, { 3000 }, 5 },
	};
	struct page_pool_stats s;
	struct page *pages[4][3];
	struct mlx5e_xdpsq *sq;
	struct bpf_prog *prog;
	struct mlx5_rxt *t;
	int i, f;

	if (!IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the doorbell is a store to host memory on x86 only");
	prog = mlx5_rxt_xdp_prog(test, XDP_TX, 0);
	t = mlx5_rxt_start(test, 9000, prog, false);
	sq = t->sq;
	mlx5_rxt_post(t);
	pp_test_dma_forget_syncs();
	for (i = 0; i < 4; i++) {
		for (f = 0; f < c[i].n; f++)
			pages[i][f] = mlx5_rxt_frag(t, i)[f].au->page;
		mlx5_rxt_receive(t, c[i].len, i);
	}
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 4);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, t->rq->stats->xdp_drop, 0ULL);
	KUNIT_EXPECT_EQ(test, sq->stats->xmit, 4ULL);
	KUNIT_EXPECT_EQ(test, sq->stats->err, 0ULL);
	KUNIT_EXPECT_EQ(test, sq->pc, 6);
	for (i = 0; i < 4; i++) {
		struct mlx5e_tx_wqe *wqe = mlx5_rxt_sq_wqe(t, c[i].pi);
		unsigned int from = 0;

		KUNIT_EXPECT_EQ(test, be32_to_cpu(wqe->ctrl.qpn_ds) & 0xff,
				2U + c[i].n);
		KUNIT_EXPECT_EQ(test, sq->db.wqe_info[c[i].pi].num_pkts, c[i].n);
		/* The program rewrote the head; the rest is as the device
		 * wrote it, through both syncs.
		 */
		for (f = 0; f < c[i].n; f++) {
			const struct mlx5_wqe_data_seg *d = &wqe->data[f];

			mlx5_rxt_expect_seg(test, t, d,
					    page_pool_get_dma_addr(pages[i][f]) +
					    (f ? 0 : t->rq->buff.headroom),
					    c[i].size[f], i, from, !f);
			from += c[i].size[f];
		}
	}
	/* The SQ holds the frames' pages; the three pages no frame
	 * reached went back with their WQEs.
	 */
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			3ULL);

	/* One completion for the first two frames: their five pages. */
	mlx5_rxt_sq_complete(t, c[1].pi);
	KUNIT_EXPECT_EQ(test, sq->cc, c[2].pi);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 3ULL + 5);

	/* The SQ goes down with the other four pages in flight. */
	mlx5e_free_xdpsq_descs(sq);
	clear_bit(MLX5E_SQ_STATE_ENABLED, &sq->state);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached + s.recycle_stats.ring,
			3ULL + 9);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* d. A program trims the tail of 9000-byte frames by 2000 bytes, which
 * frees their last fragment through the XDP memory model, then drops
 * them or passes them. Each page goes back to the pool once: the trimmed
 * one through __xdp_return() and the WQE's free, the others with the
 * drop or the skb.
 */
static void mlx5e_rx_xdp_multibuf_trim_then_drop_or_pass(struct kunit *test)
{
	struct bpf_prog *prog = mlx5_rxt_xdp_prog(test, XDP_DROP, 2000);
	struct mlx5_rxt *t = mlx5_rxt_start(test, 9000, prog, false);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool_stats s;
	struct sk_buff *skb;
	struct page *pages[3];
	int i, f;

	mlx5_rxt_post(t);
	for (i = 0; i < 8; i++)
		mlx5_rxt_receive(t, 9000, i);
	KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 8);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_xdp.trim_err, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_xdp.last_len, 7000U);
	KUNIT_EXPECT_EQ(test, rq->stats->xdp_drop, 8ULL);
	s = mlx5_rxt_stats(t);
	/* The trimmed page came back by __xdp_return() outside the cache's
	 * reach; its last user went with the WQE, in NAPI.
	 */
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 3ULL * 8);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	/* Now passed: the skb keeps the head and one fragment. */
	mlx5_rxt_xdp.act = XDP_PASS;
	for (f = 0; f < 3; f++)
		pages[f] = mlx5_rxt_frag(t, t->wqe_seq)[f].au->page;
	mlx5_rxt_receive(t, 9000, 42);
	KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head, page_address(pages[0]));
	KUNIT_ASSERT_EQ(test, (int)skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(&skb_shinfo(skb)->frags[0]),
			    pages[1]);
	/* Charged for two 4 KiB buffers (with XDP, one per page), not the
	 * trimmed third.
	 */
	KUNIT_EXPECT_EQ(test, skb->truesize,
			SKB_DATA_ALIGN(sizeof(struct sk_buff)) + 2 * 4096);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
	mlx5_rxt_expect_frame(test, skb, 7000, 42);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 3ULL * 8 + 1);

	/* Passed whole: charged for all three pages. */
	mlx5_rxt_xdp.trim = 0;
	mlx5_rxt_receive(t, 9000, 43);
	KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 2U);
	skb = skb_peek_tail(&t->skbs);
	KUNIT_EXPECT_EQ(test, (int)skb_shinfo(skb)->nr_frags, 2);
	KUNIT_EXPECT_EQ(test, skb->truesize,
			SKB_DATA_ALIGN(sizeof(struct sk_buff)) + 3 * 4096);
	mlx5_rxt_expect_frame(test, skb, 9000, 43);

	mlx5_rxt_free_skbs(t);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 5ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* A striding WQE's UMR, at @ctr on the ICOSQ, gives the device WQE @ix's
 * pages: one MTT each, the page's DMA address with write access, at the
 * WQE's place in the UMR mkey's table.
 */
static void mlx5_rxt_expect_umr(struct kunit *test, struct mlx5_rxt *t,
				u16 ctr, u16 ix)
{
	struct mlx5e_icosq *sq = &t->c->icosq;
	u16 pi = mlx5_wq_cyc_ctr2ix(&sq->wq, ctr);
	struct mlx5e_umr_wqe *umr = mlx5_wq_cyc_get_wqe(&sq->wq, pi);
	struct mlx5e_mpw_info *wi = mlx5e_get_mpw_info(t->rq, ix);
	int i, bad = 0;

	KUNIT_EXPECT_EQ(test, sq->db.wqe_info[pi].wqe_type,
			(u8)MLX5E_ICOSQ_WQE_UMR_RX);
	KUNIT_EXPECT_EQ(test, sq->db.wqe_info[pi].num_wqebbs,
			(u8)MLX5_RXT_MPW_UMR_WQEBBS);
	KUNIT_EXPECT_PTR_EQ(test, sq->db.wqe_info[pi].umr.rq, t->rq);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(umr->ctrl.opmod_idx_opcode),
			(u32)ctr << 8 | MLX5_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(umr->uctrl.xlt_offset),
			ix * MLX5_RXT_MPW_UMR_OCTWORDS);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(umr->uctrl.xlt_octowords),
			MLX5_RXT_MPW_UMR_OCTWORDS);
	for (i = 0; i < MLX5_RXT_MPW_PAGES; i++) {
		struct page *page = wi->alloc_units[i].page;

		if (!pp_test_owns(t->rq->page_pool, page) ||
		    be64_to_cpu(umr->inline_mtts[i].ptag) !=
		    (page_pool_get_dma_addr(page) | MLX5_EN_WR))
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "WQE %u's MTTs", ix);
}

/* How many of @a's pages are among the @nb pages of @b. */
static int mlx5_rxt_mpw_common(struct mlx5e_mpw_info *a, struct page **b,
			       int nb)
{
	int i, j, n = 0;

	for (i = 0; i < MLX5_RXT_MPW_PAGES; i++)
		for (j = 0; j < nb; j++)
			if (a->alloc_units[i].page == b[j])
				n++;
	return n;
}

/* e. A striding RQ with linear skbs. The first refill takes pages for
 * the three WQEs a linked list of four can post, and posts a UMR for
 * each; the RQ gets them when the device has completed the UMRs. Frames
 * at their strides become skbs built on the WQE's pages; when the
 * strides of the WQE are used up, the pages no skb holds go straight
 * back to the pool's cache, and the refill in the same poll takes them
 * for the next WQE; the others come back when their skbs are freed.
 */
static void mlx5e_rx_striding_linear_skbs_and_recycle(struct kunit *test)
{
	static const unsigned int lens[MLX5_RXT_SKB_BATCH] = {
		60, 1514, 1000, 1500
	};
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, true);
	struct mlx5e_rq *rq = t->rq;
	struct mlx5e_icosq *sq = rq->icosq;
	struct page *pages[MLX5_RXT_MPW_PAGES];
	struct mlx5e_mpw_info *wi;
	struct page_pool_stats s;
	struct sk_buff *skb;
	dma_addr_t dma;
	int i;

	KUNIT_EXPECT_EQ(test, rq->page_pool->p.offset, 0U);
	KUNIT_EXPECT_EQ(test, rq->page_pool->p.max_len, 4096U);
	mlx5_rxt_poll(t, 1);
	mlx5_rxt_expect_maps(test, 3 * MLX5_RXT_MPW_PAGES);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 3);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->wq_db), 0U);
	/* Three UMRs of three WQEBBs, the doorbell rung once after them. */
	KUNIT_EXPECT_EQ(test, sq->pc, 9);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->ico_db), 9U);
	KUNIT_EXPECT_NE(test, *t->ico_uar, 0ULL);
	for (i = 0; i < 3; i++)
		mlx5_rxt_expect_umr(test, t, 3 * i, i);
	KUNIT_EXPECT_TRUE(test, mlx5_rxt_umr_done(t));
	mlx5_rxt_poll(t, 1);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 0);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->wq_db), 3U);
	KUNIT_EXPECT_EQ(test, sq->cc, 9);
	wi = mlx5e_get_mpw_info(rq, 0);
	for (i = 0; i < MLX5_RXT_MPW_PAGES; i++)
		pages[i] = wi->alloc_units[i].page;

	/* Strides 0 to 3: the first two pages. */
	pp_test_dma_forget_syncs();
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive_mpwrq(t, 0, i, 1, lens[i], i);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), MLX5_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX5_RXT_SKB_BATCH);
	i = 0;
	skb_queue_walk(&t->skbs, skb) {
		u32 off = i << MLX5_RXT_MPW_LOG_STRIDE;
		struct page *page = wi->alloc_units[off >> PAGE_SHIFT].page;

		KUNIT_EXPECT_PTR_EQ(test, (void *)skb->head,
				    page_address(page) + offset_in_page(off));
		KUNIT_EXPECT_EQ(test, skb_mac_header(skb) - skb->head,
				rq->buff.headroom);
		KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
		dma = page_pool_get_dma_addr(page) + offset_in_page(off);
		KUNIT_EXPECT_TRUE(test, pp_test_dma_synced(&pp_test_dma.cpu_log,
							   dma + rq->buff.headroom,
							   lens[i]));
		mlx5_rxt_expect_frame(test, skb, lens[i], i);
		i++;
	}
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 0);

	/* A filler completion uses up the WQE's other strides: its six
	 * pages no skb holds go to the cache, and the refill takes them for
	 * WQE 3, with two more.
	 */
	mlx5_rxt_receive_mpwrq(t, 0, MLX5_RXT_SKB_BATCH,
			       MLX5_RXT_MPW_STRIDES - MLX5_RXT_SKB_BATCH, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_EXPECT_EQ(test, rq->stats->mpwqe_filler_cqes, 1ULL);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 2);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached,
			(u64)MLX5_RXT_MPW_PAGES - 2);
	mlx5_rxt_expect_umr(test, t, 9, 3);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_mpw_common(mlx5e_get_mpw_info(rq, 3),
						  pages + 2, 6), 6);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_mpw_common(mlx5e_get_mpw_info(rq, 3),
						  pages, 2), 0);
	mlx5_rxt_free_skbs(t);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 2ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	/* The device completes the UMR: the RQ has three WQEs again. */
	KUNIT_EXPECT_TRUE(test, mlx5_rxt_umr_done(t));
	mlx5_rxt_poll(t, 1);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->wq_db), 4U);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* A striding RQ lap after lap of its four WQEs: each WQE takes a frame at
 * its first stride, which the stack frees after the WQE is used up. Each
 * WQE is filled anew every lap, and a page it hands on this time must
 * count from nought: each page comes back to the pool once per use,
 * once the ring is full no page is mapped again, and the pool is freed
 * at the end.
 */
static void mlx5e_rx_striding_laps_give_back_every_page(struct kunit *test)
{
	const int laps = 4, wqes = BIT(MLX5_RXT_MPW_LOG_WQ_SZ);
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, true);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool_stats s;
	int n, maps = 0;

	mlx5_rxt_post(t);
	for (n = 0; n < laps * wqes; n++) {
		u16 id = n % wqes;
		struct sk_buff *skb;

		mlx5_rxt_receive_mpwrq(t, id, 0, 1, 1000, n);
		mlx5_rxt_receive_mpwrq(t, id, 1, MLX5_RXT_MPW_STRIDES - 1, 0, 0);
		KUNIT_ASSERT_EQ(test, mlx5_rxt_poll(t, 64), 2);
		KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
		skb = __skb_dequeue(&t->skbs);
		KUNIT_EXPECT_PTR_EQ(test, virt_to_page(skb->head),
				    mlx5e_get_mpw_info(rq, id)->alloc_units[0].page);
		mlx5_rxt_expect_frame(test, skb, 1000, n);
		kfree_skb(skb);
		KUNIT_ASSERT_TRUE(test, mlx5_rxt_umr_done(t));
		mlx5_rxt_poll(t, 1);
		KUNIT_ASSERT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
		if (n == wqes - 1)
			maps = atomic_read(&pp_test_dma.maps);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);
	KUNIT_EXPECT_EQ(test, rq->stats->buff_alloc_err, 0ULL);
	/* Seven pages a WQE straight back to the cache, the skb's through
	 * the ring.
	 */
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 7ULL * laps * wqes);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL * laps * wqes);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* A striding refill whose page maps run out part way through a WQE: the
 * five pages the WQE took go back to the pool, no UMR is posted and no
 * doorbell rung, and the error is counted. The next refill, with maps
 * working again, posts the ring in full.
 */
static void mlx5e_rx_striding_refill_fault_gives_pages_back(struct kunit *test)
{
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, true);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool_stats s;

	pp_test_dma.maps_left = 5;
	mlx5_rxt_poll(t, 1);
	pp_test_dma.maps_left = -1;
	KUNIT_EXPECT_EQ(test, rq->stats->buff_alloc_err, 1ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), 5);
	KUNIT_EXPECT_GT(test, atomic_read(&pp_test_dma.map_errors), 0);
	KUNIT_EXPECT_EQ(test, rq->icosq->pc, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->ico_db), 0U);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 0);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.actual_wq_head, 0);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 5ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_post(t);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
	KUNIT_EXPECT_EQ(test, rq->icosq->pc, 9);
	mlx5_rxt_expect_umr(test, t, 0, 0);
	mlx5_rxt_expect_maps(test, 3 * MLX5_RXT_MPW_PAGES);
	KUNIT_EXPECT_EQ(test, rq->stats->buff_alloc_err, 1ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* f. A striding RQ with non-linear skbs, as for jumbo frames: the header
 * is copied and the rest of the frame becomes a fragment of the WQE's
 * page, which the skb holds. When the WQE's strides are used up, that
 * page stays out of the pool until the skb is freed: the device, given
 * the pool's pages again, must not write under the skb.
 */
static void mlx5e_rx_striding_nonlinear_skb_holds_its_page(struct kunit *test)
{
	const unsigned int len = 3000, headlen = MLX5E_RX_MAX_HEAD;
	struct mlx5_rxt *t = mlx5_rxt_start(test, 9000, NULL, true);
	struct mlx5e_rq *rq = t->rq;
	struct page_pool_stats s;
	struct mlx5e_mpw_info *wi;
	struct sk_buff *skb;
	struct page *page;
	skb_frag_t *frag;
	int i;

	/* What mlx5e_rq_set_handlers() and mlx5e_get_rq_headroom() pick
	 * when frames do not fit a stride.
	 */
	rq->mpwqe.skb_from_cqe_mpwrq = mlx5e_skb_from_cqe_mpwrq_nonlinear;
	rq->buff.headroom = 0;
	mlx5_rxt_post(t);
	wi = mlx5e_get_mpw_info(rq, 0);
	page = wi->alloc_units[0].page;

	/* Two strides of the first page. */
	mlx5_rxt_receive_mpwrq(t, 0, 0, 2, len, 7);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_TRUE(test, skb->pp_recycle);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	frag = &skb_shinfo(skb)->frags[0];
	KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(frag), page);
	KUNIT_EXPECT_EQ(test, skb_frag_off(frag), headlen);
	KUNIT_EXPECT_EQ(test, skb_frag_size(frag), len - headlen);
	mlx5_rxt_expect_frame(test, skb, len, 7);

	/* A filler completion uses up the rest: the WQE's other pages go
	 * back to the cache, the skb's does not, and the refill in the same
	 * poll fills WQE 3.
	 */
	mlx5_rxt_receive_mpwrq(t, 0, 2, MLX5_RXT_MPW_STRIDES - 2, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached,
			(u64)MLX5_RXT_MPW_PAGES - 1);
	KUNIT_EXPECT_TRUE(test, mlx5_rxt_umr_done(t));
	mlx5_rxt_poll(t, 1);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);

	/* The new WQE, and the device writing all of its pages. */
	wi = mlx5e_get_mpw_info(rq, 3);
	for (i = 0; i < MLX5_RXT_MPW_PAGES; i++) {
		KUNIT_EXPECT_PTR_NE(test, wi->alloc_units[i].page, page);
		mlx5_rxt_fill(page_pool_get_dma_addr(wi->alloc_units[i].page),
			      PAGE_SIZE, 9, 0);
	}
	mlx5_rxt_expect_frame(test, skb, len, 7);

	mlx5_rxt_free_skbs(t);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);
	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* Error completions (length errors, which need no recovery) are counted
 * and make no skb; nothing of theirs is synced for the CPU, and their
 * buffers go back: the page of WQEs 0 and 1 to the pool's cache with
 * the second.
 */
static void mlx5e_rx_error_cqes_give_buffers_back(struct kunit *test)
{
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, false);
	struct page_pool_stats s;
	int cpu_syncs;

	mlx5_rxt_post(t);
	cpu_syncs = pp_test_dma.cpu_log.n;
	/* The first buffer of the page: the page stays out. */
	mlx5_rxt_receive_err(t, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 0ULL);
	mlx5_rxt_receive_err(t, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_EXPECT_EQ(test, t->rq->stats->wqe_err, 2ULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_FALSE(test, test_bit(MLX5E_RQ_STATE_RECOVERING,
					  &t->rq->state));
	KUNIT_EXPECT_EQ(test, pp_test_dma.cpu_log.n, cpu_syncs);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}

/* A striding RQ with XDP, a stride to a page. A redirected frame takes
 * its page whole: the driver gives back its own users at once, as cpumap
 * and veth take the page out of the pool when they make an skb of the
 * frame, and leaves the page out of the WQE's release. Here the WQE
 * is used up while the frame still holds its page.
 */
static void mlx5e_rx_striding_xdp_redirect_hands_page_over(struct kunit *test)
{
	struct pp_test_fwd *f;
	struct mlx5e_mpw_info *wi;
	struct page_pool_stats s;
	struct net_device *fwd;
	struct bpf_prog *prog;
	struct mlx5_rxt *t;
	struct page *page;

	fwd = pp_test_fwd_start(test);
	f = netdev_priv(fwd);
	prog = mlx5_rxt_xdp_prog(test, XDP_REDIRECT, 0);
	mlx5_rxt_xdp.redirect_to = fwd->ifindex;
	t = mlx5_rxt_start(test, 1500, prog, true);
	KUNIT_ASSERT_EQ(test, t->rq->mpwqe.num_strides, MLX5_RXT_MPW_PAGES);
	mlx5_rxt_poll(t, 1);
	KUNIT_ASSERT_TRUE(test, mlx5_rxt_umr_done(t));
	mlx5_rxt_poll(t, 1);
	wi = mlx5e_get_mpw_info(t->rq, 0);
	page = wi->alloc_units[0].page;

	mlx5_rxt_receive_mpwrq(t, 0, 0, 1, 100, 7);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_EXPECT_EQ(test, t->rq->stats->xdp_redirect, 1ULL);
	KUNIT_ASSERT_EQ(test, f->n, 1);
	/* The frame holds the page's only user. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&page->pp_frag_count), 1L);
	KUNIT_EXPECT_TRUE(test, test_bit(0, wi->xdp_xmit_bitmap));

	/* A filler uses up the WQE: its seven other pages go to the cache,
	 * and the frame's page is left as the frame holds it.
	 */
	mlx5_rxt_receive_mpwrq(t, 0, 1, MLX5_RXT_MPW_PAGES - 1, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached,
			(u64)MLX5_RXT_MPW_PAGES - 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&page->pp_frag_count), 1L);
	KUNIT_EXPECT_EQ(test, page_ref_count(page), 1);

	/* Now cpumap or veth makes an skb of it: the page leaves the pool. */
	pp_test_fwd_finish(test, fwd, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	pp_test_fwd_stop(fwd);
	mlx5_rxt_expect_released(test, t);
}

/* XDP_TX on a striding RQ, a stride to a page: the frame goes out from
 * its page past the headroom, and the driver hands the page to the SQ
 * whole, out of the WQE's release. The WQE's other pages go to the cache
 * when its strides are used up, the frames' pages with the completion.
 */
static void mlx5e_rx_striding_xdp_tx_hands_page_to_sq(struct kunit *test)
{
	static const unsigned int lens[2] = { 600, 1400 };
	struct page_pool_stats s;
	struct mlx5e_mpw_info *wi;
	struct mlx5e_xdpsq *sq;
	struct bpf_prog *prog;
	struct page *pages[2];
	struct mlx5_rxt *t;
	int i;

	if (!IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the doorbell is a store to host memory on x86 only");
	prog = mlx5_rxt_xdp_prog(test, XDP_TX, 0);
	t = mlx5_rxt_start(test, 1500, prog, true);
	sq = t->sq;
	KUNIT_ASSERT_EQ(test, t->rq->mpwqe.num_strides, MLX5_RXT_MPW_PAGES);
	mlx5_rxt_post(t);
	wi = mlx5e_get_mpw_info(t->rq, 0);
	pp_test_dma_forget_syncs();
	for (i = 0; i < 2; i++) {
		pages[i] = wi->alloc_units[i].page;
		mlx5_rxt_receive_mpwrq(t, 0, i, 1, lens[i], i);
	}
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 2);
	KUNIT_EXPECT_EQ(test, sq->stats->xmit, 2ULL);
	KUNIT_EXPECT_EQ(test, sq->pc, 2);
	for (i = 0; i < 2; i++) {
		mlx5_rxt_expect_seg(test, t, mlx5_rxt_sq_wqe(t, i)->data,
				    page_pool_get_dma_addr(pages[i]) +
				    t->rq->buff.headroom, lens[i], i, 0, true);
		/* The SQ holds the page's only user. */
		KUNIT_EXPECT_EQ(test, atomic_long_read(&pages[i]->pp_frag_count),
				1L);
		KUNIT_EXPECT_TRUE(test, test_bit(i, wi->xdp_xmit_bitmap));
	}

	/* A filler uses up the WQE: its six other pages go to the cache. */
	mlx5_rxt_receive_mpwrq(t, 0, 2, MLX5_RXT_MPW_PAGES - 2, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached,
			(u64)MLX5_RXT_MPW_PAGES - 2);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, atomic_long_read(&pages[i]->pp_frag_count),
				1L);

	/* The completion of both, in NAPI: their pages to the cache. */
	mlx5_rxt_sq_complete(t, 1);
	s = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, (u64)MLX5_RXT_MPW_PAGES);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	bpf_prog_free(prog);
	mlx5_rxt_expect_released(test, t);
}

/* The RQ goes down while a refill's UMR is posted and not completed, and
 * an skb holds a page of a live WQE: the WQE the UMR was filling gives
 * its pages back with the others, and the pool goes once the skb does.
 */
static void mlx5e_rx_striding_teardown_with_umr_in_flight(struct kunit *test)
{
	struct mlx5_rxt *t = mlx5_rxt_start(test, 1500, NULL, true);
	struct mlx5e_rq *rq = t->rq;
	struct sk_buff *skb;

	mlx5_rxt_post(t);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.wq.cur_sz, 3);
	/* A filler uses up WQE 0; the refill posts a UMR for WQE 3. */
	mlx5_rxt_receive_mpwrq(t, 0, 0, MLX5_RXT_MPW_STRIDES, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 1);
	KUNIT_EXPECT_EQ(test, rq->icosq->pc, 4 * MLX5_RXT_MPW_UMR_WQEBBS);
	mlx5_rxt_receive_mpwrq(t, 1, 0, 1, 300, 5);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	mlx5_rxt_expect_maps(test, 4 * MLX5_RXT_MPW_PAGES);

	mlx5_rxt_stop(t);
	KUNIT_EXPECT_EQ(test, rq->mpwqe.umr_in_progress, 0);
	KUNIT_EXPECT_FALSE(test, completion_done(&t->release.released));
	skb = __skb_dequeue(&t->skbs);
	mlx5_rxt_expect_frame(test, skb, 300, 5);
	kfree_skb(skb);
	mlx5_rxt_expect_released(test, t);
}

/* g. The RQ goes down while the stack still holds skbs of jumbo frames:
 * the pool stays until the last of them is freed, then unmaps every page
 * once; kmemleak and DMA-API debug check the rest after the suites.
 */
static void mlx5e_rx_teardown_with_skbs_held_leaks_nothing(struct kunit *test)
{
	struct mlx5_rxt *t = mlx5_rxt_start(test, 5000, NULL, false);
	int i;

	mlx5_rxt_post(t);
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive(t, 2000 + 1000 * i, i);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), MLX5_RXT_SKB_BATCH);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX5_RXT_SKB_BATCH);

	mlx5_rxt_stop(t);
	/* The skbs hold pages 0 to 5 of the ring: the pool waits for them. */
	KUNIT_EXPECT_FALSE(test, completion_done(&t->release.released));
	KUNIT_EXPECT_LE(test, pp_test_dma_mapped(), 6);
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++) {
		struct sk_buff *skb = __skb_dequeue(&t->skbs);

		mlx5_rxt_expect_frame(test, skb, 2000 + 1000 * i, i);
		kfree_skb(skb);
	}
	mlx5_rxt_expect_released(test, t);
}

#ifdef PAGE_POOL_HAS_NAPI
/* h. The pool is linked to the channel's NAPI: skbs that the stack frees
 * in that NAPI's poll, on its CPU, give their pages straight back to the
 * alloc cache. Freed anywhere else, in softirq too, they take the ring.
 */
static void mlx5_rxt_free_first_two_skbs(void *arg)
{
	struct mlx5_rxt *t = arg;

	kfree_skb(__skb_dequeue(&t->skbs));
	kfree_skb(__skb_dequeue(&t->skbs));
}

static void mlx5e_rx_skbs_freed_in_napi_poll_recycle_to_cache(struct kunit *test)
{
	static const unsigned int lens[MLX5_RXT_SKB_BATCH] = {
		60, 1514, 1000, 1500
	};
	struct page_pool_stats before, mid, after;
	struct mlx5_rxt *t;
	int i;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		kunit_skip(test, "softirqs are preemptible: no NAPI-local returns");
	t = mlx5_rxt_start(test, 1500, NULL, true);
	KUNIT_EXPECT_PTR_EQ(test, t->rq->page_pool->p.napi, &t->tn.napi);
	mlx5_rxt_post(t);
	for (i = 0; i < MLX5_RXT_SKB_BATCH; i++)
		mlx5_rxt_receive_mpwrq(t, 0, i, 1, lens[i], i);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), MLX5_RXT_SKB_BATCH);
	mlx5_rxt_receive_mpwrq(t, 0, MLX5_RXT_SKB_BATCH,
			       MLX5_RXT_MPW_STRIDES - MLX5_RXT_SKB_BATCH, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), MLX5_RXT_SKB_BATCH);

	/* 2 KiB strides: skbs 0 and 1 hold the WQE's first page, 2 and 3
	 * its second, and nothing else holds either.
	 */
	before = mlx5_rxt_stats(t);
	pp_test_in_softirq(mlx5_rxt_free_first_two_skbs, t);
	mid = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, mid.recycle_stats.cached,
			before.recycle_stats.cached);
	KUNIT_EXPECT_EQ(test, mid.recycle_stats.ring,
			before.recycle_stats.ring + 1);

	napi_enable(&t->tn.napi);
	KUNIT_EXPECT_TRUE(test, pp_test_napi_run(&t->tn, mlx5_rxt_free_skbs, t));
	napi_disable(&t->tn.napi);
	after = mlx5_rxt_stats(t);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&t->skbs), 0U);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.cached,
			mid.recycle_stats.cached + 1);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.ring, mid.recycle_stats.ring);
	KUNIT_EXPECT_EQ(test, after.recycle_stats.released_refcnt, 0ULL);

	mlx5_rxt_stop(t);
	mlx5_rxt_expect_released(test, t);
}
#else
static void mlx5e_rx_skbs_freed_in_napi_poll_recycle_to_cache(struct kunit *test)
{
	kunit_skip(test, "the pool under test has no NAPI link");
}
#endif

static int mlx5_rxt_init(struct kunit *test)
{
	pp_test_dma_reset();
	memset(&mlx5_rxt_xdp, 0, sizeof(mlx5_rxt_xdp));
	pp_test_pin_cpu();
	return 0;
}

static void mlx5_rxt_exit(struct kunit *test)
{
	pp_test_unpin_cpu();
}

static int mlx5_rxt_suite_init(struct kunit_suite *suite)
{
	if (PAGE_SIZE != 4096)
		return -EOPNOTSUPP;
	return pp_test_dma_register_recording("mlx5e_rx_test");
}

static void mlx5_rxt_suite_exit(struct kunit_suite *suite)
{
	pp_test_dma_unregister();
}

static struct kunit_case mlx5_rxt_cases[] = {
	KUNIT_CASE(mlx5e_rx_legacy_linear_builds_skbs_on_pool_pages),
	KUNIT_CASE(mlx5e_rx_legacy_steady_state_maps_nothing_new),
	KUNIT_CASE(mlx5e_rx_legacy_nonlinear_refill_faults_leak_nothing),
	KUNIT_CASE(mlx5e_rx_xdp_drop_recycles_direct),
	KUNIT_CASE(mlx5e_rx_xdp_pass_builds_skb),
	KUNIT_CASE(mlx5e_rx_xdp_tx_returns_pages_to_pool),
	KUNIT_CASE(mlx5e_rx_xdp_redirect_frame_holds_page),
	KUNIT_CASE(mlx5e_rx_xdp_multibuf_drop_gives_back_every_page),
	KUNIT_CASE(mlx5e_rx_xdp_multibuf_trim_then_drop_or_pass),
	KUNIT_CASE(mlx5e_rx_xdp_multibuf_tx_sends_every_page),
	KUNIT_CASE(mlx5e_rx_striding_linear_skbs_and_recycle),
	KUNIT_CASE(mlx5e_rx_striding_nonlinear_skb_holds_its_page),
	KUNIT_CASE(mlx5e_rx_striding_laps_give_back_every_page),
	KUNIT_CASE(mlx5e_rx_striding_refill_fault_gives_pages_back),
	KUNIT_CASE(mlx5e_rx_skbs_freed_in_napi_poll_recycle_to_cache),
	KUNIT_CASE(mlx5e_rx_error_cqes_give_buffers_back),
	KUNIT_CASE(mlx5e_rx_striding_xdp_redirect_hands_page_over),
	KUNIT_CASE(mlx5e_rx_striding_xdp_tx_hands_page_to_sq),
	KUNIT_CASE(mlx5e_rx_striding_teardown_with_umr_in_flight),
	KUNIT_CASE(mlx5e_rx_teardown_with_skbs_held_leaks_nothing),
	{}
};

static struct kunit_suite mlx5_rxt_suite = {
	.name = "mlx5e_rx",
	.init = mlx5_rxt_init,
	.exit = mlx5_rxt_exit,
	.suite_init = mlx5_rxt_suite_init,
	.suite_exit = mlx5_rxt_suite_exit,
	.test_cases = mlx5_rxt_cases,
};

kunit_test_suite(mlx5_rxt_suite);

#include "en_rx_shampo_test.c"
