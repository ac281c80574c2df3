// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit contract suite for the page_pool API, as the 6.1 callers use it:
 * creation checks, the alloc cache and the return ring, fragments, skb
 * and XDP recycling, NUMA, teardown with pages in flight, and stats.
 *
 * Each case owns one pool, created through pp_ctx_create(). The exit
 * handler destroys it and checks that it is really freed, so every case
 * also proves that it got all its pages back to the pool.
 */
#include <kunit/test.h>
#include <linux/bpf.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/hrtimer.h>
#include <linux/kmsg_dump.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/page_pool.h>
#include <net/xdp.h>

#include "page_pool_test.h"

#define PP_TEST_NR	8

struct pp_ctx {
	struct page_pool *pool;
	struct pp_test_release release;
	bool watched;
	struct page *pages[PP_TEST_NR];
};

static struct device *pp_test_dev;

static struct page_pool_params pp_params(unsigned int order)
{
	return (struct page_pool_params) {
		.order = order,
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE,
	};
}

/* Create a pool that an XDP memory model will own: xdp.c installs its
 * own disconnect callback, so this one is not watched.
 */
static struct page_pool *pp_ctx_create_unwatched(struct kunit *test,
						 const struct page_pool_params *p)
{
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = page_pool_create(p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(pool),
			       "page_pool_create: %ld", PTR_ERR(pool));
	ctx->pool = pool;
	return pool;
}

/* Create the case's pool and watch for its release. */
static struct page_pool *pp_ctx_create(struct kunit *test,
				       const struct page_pool_params *p)
{
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create_unwatched(test, p);

	pp_test_watch_release(pool, &ctx->release);
	ctx->watched = true;
	return pool;
}

/* Destroy the case's pool now; true if it was freed. */
static bool pp_ctx_destroy(struct pp_ctx *ctx)
{
	struct page_pool *pool = ctx->pool;

	ctx->pool = NULL;
	if (!ctx->watched) {
		page_pool_destroy(pool);
		return true;
	}
	pp_test_destroy(pool);
	return pp_test_released(&ctx->release);
}

/* Destroy the case's watched pool; true if it was freed before
 * page_pool_destroy() returned, as it must be with no page out.
 */
static bool pp_ctx_destroy_now(struct pp_ctx *ctx)
{
	struct page_pool *pool = ctx->pool;

	ctx->pool = NULL;
	pp_test_destroy(pool);
	if (completion_done(&ctx->release.released))
		return true;
	/* Wait anyway, so that the pool is gone when the case ends. */
	pp_test_released(&ctx->release);
	return false;
}

/* One pool operation, run in softirq context by pp_test_in_softirq(). */
struct pp_call {
	struct page_pool *pool;
	struct page *page;
	unsigned int offset;
	unsigned int size;
	void *va;
};

static void pp_call_alloc_frag(void *arg)
{
	struct pp_call *c = arg;

	c->page = page_pool_dev_alloc_frag(c->pool, &c->offset, c->size);
}

static void pp_call_recycle(void *arg)
{
	struct pp_call *c = arg;

	page_pool_put_full_page(c->pool, c->page, true);
}

static void pp_call_xdp_return_napi(void *arg)
{
	struct xdp_frame *frame = arg;

	xdp_return_frame_rx_napi(frame);
}

static struct page *pp_alloc_frag(struct page_pool *pool, unsigned int size,
				  unsigned int *offset)
{
	struct pp_call c = { .pool = pool, .size = size };

	pp_test_in_softirq(pp_call_alloc_frag, &c);
	*offset = c.offset;
	return c.page;
}

/* Recycle from the pool's own (softirq) context: into the alloc cache. */
static void pp_recycle(struct page_pool *pool, struct page *page)
{
	struct pp_call c = { .pool = pool, .page = page };

	pp_test_in_softirq(pp_call_recycle, &c);
}

/* Return from process context: through the return ring. */
static void pp_return(struct page_pool *pool, struct page *page)
{
	page_pool_put_full_page(pool, page, false);
}

static void pp_need_stats(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_PAGE_POOL_STATS))
		kunit_skip(test, "needs CONFIG_PAGE_POOL_STATS");
}

/* ---- page_pool_create() ---- */

struct pp_bad_param {
	const char *desc;
	struct page_pool_params p;
	bool needs_dev;
	int err;
};

static const struct pp_bad_param pp_bad_params[] = {
	{ .desc = "unknown flag", .err = -EINVAL, .p = { .flags = BIT(7) } },
	{ .desc = "DMA_SYNC_DEV without DMA_MAP", .err = -EINVAL,
	  .needs_dev = true,
	  .p = { .flags = PP_FLAG_DMA_SYNC_DEV, .max_len = PAGE_SIZE } },
	{ .desc = "dma_dir DMA_TO_DEVICE", .err = -EINVAL, .needs_dev = true,
	  .p = { .flags = PP_FLAG_DMA_MAP, .dma_dir = DMA_TO_DEVICE } },
	{ .desc = "dma_dir DMA_NONE", .err = -EINVAL, .needs_dev = true,
	  .p = { .flags = PP_FLAG_DMA_MAP, .dma_dir = DMA_NONE } },
	{ .desc = "zero max_len with DMA_SYNC_DEV", .err = -EINVAL,
	  .needs_dev = true,
	  .p = { .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV } },
};

/* Bad parameters that the base pool accepts. They are separate cases
 * because KUnit does not print a parameter's skip reason, and a known
 * defect has to show up as an expected failure.
 */
static const struct pp_bad_param pp_order_too_big = {
	.desc = "order above MAX_ORDER - 1", .err = -EINVAL,
	.p = { .order = MAX_ORDER },
};

static const struct pp_bad_param pp_dma_map_without_dev = {
	.desc = "DMA_MAP without a device", .err = -EINVAL,
	.p = { .flags = PP_FLAG_DMA_MAP },
};

/* The DMA API would refuse every map for such a device, each with a
 * warning: the pool refuses the device at create instead.
 */
static const struct pp_bad_param pp_dev_without_dma_mask = {
	.desc = "DMA_MAP for a device without a DMA mask", .err = -EINVAL,
	.p = { .flags = PP_FLAG_DMA_MAP, .dma_dir = DMA_FROM_DEVICE },
};

static const struct pp_bad_param pp_sync_beyond_page = {
	.desc = "offset + max_len beyond the page", .err = -EINVAL,
	.needs_dev = true,
	.p = { .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	       .offset = 256, .max_len = PAGE_SIZE },
};

/* Create with @b's parameters for @dev; true if refused with the right
 * error.
 */
static bool pp_create_refuses_for(const struct pp_bad_param *b,
				  struct device *dev)
{
	struct page_pool_params p = b->p;
	struct page_pool *pool;

	p.dev = dev;
	p.nid = NUMA_NO_NODE;
	pool = page_pool_create(&p);
	if (IS_ERR(pool))
		return PTR_ERR(pool) == b->err;
	if (pool)
		page_pool_destroy(pool);
	return false;
}

static bool pp_create_refuses(const struct pp_bad_param *b)
{
	return pp_create_refuses_for(b, b->needs_dev ? pp_test_dev : NULL);
}

static void pp_bad_param_desc(const struct pp_bad_param *b, char *desc)
{
	strscpy(desc, b->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pp_bad_params, pp_bad_params, pp_bad_param_desc);

static void pp_create_rejects_bad_params(struct kunit *test)
{
	const struct pp_bad_param *b = test->param_value;

	KUNIT_EXPECT_TRUE_MSG(test, pp_create_refuses(b), "%s", b->desc);
}

static void pp_create_rejects_order_too_big(struct kunit *test)
{
	pp_test_xfail_base(test, pp_create_refuses(&pp_order_too_big),
			   pp_order_too_big.desc);
}

static void pp_create_rejects_dma_map_without_dev(struct kunit *test)
{
	pp_test_xfail_base(test, pp_create_refuses(&pp_dma_map_without_dev),
			   pp_dma_map_without_dev.desc);
}

static void pp_create_rejects_dev_without_dma_mask(struct kunit *test)
{
	struct device *dev = root_device_register("page_pool_test_nomask");
	bool refused;

	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	refused = pp_create_refuses_for(&pp_dev_without_dma_mask, dev);
	root_device_unregister(dev);
	pp_test_xfail_base(test, refused, pp_dev_without_dma_mask.desc);
}

static void pp_create_rejects_sync_beyond_page(struct kunit *test)
{
	struct page_pool_params p = pp_sync_beyond_page.p;
	struct page_pool *pool;

	pp_test_xfail_base(test, pp_create_refuses(&pp_sync_beyond_page),
			   pp_sync_beyond_page.desc);
	/* Up to the page's end is fine. */
	p.dev = pp_test_dev;
	p.nid = NUMA_NO_NODE;
	p.max_len = PAGE_SIZE - p.offset;
	pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(pool));
	page_pool_destroy(pool);
}

/* Allocate @n pages as a driver filling its RX ring at open, then
 * give them all back through the return ring, as the stack would.
 */
static void pp_cycle_through_ring(struct kunit *test, struct page_pool *pool,
				  int n)
{
	struct page **pages;
	int got, i;

	pages = kvcalloc(n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (got = 0; got < n; got++) {
		pages[got] = page_pool_alloc_pages(pool, GFP_KERNEL);
		if (!pages[got])
			break;
	}
	for (i = 0; i < got; i++)
		pp_return(pool, pages[i]);
	kvfree(pages);
	KUNIT_ASSERT_EQ(test, got, n);
}

/* The largest return ring a pool gets. */
#define PP_TEST_RING_MAX	16384

/* mlx5's striding RQ asks for more than 32768 pages: the pool is made,
 * with the largest ring there is, and that ring really holds that many.
 */
static void pp_create_clamps_large_pool_size(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool;

	pp_need_stats(test);
	p.pool_size = 65536;
	pool = pp_ctx_create(test, &p);
	KUNIT_EXPECT_EQ(test, pool->p.pool_size, 65536U);
	pp_cycle_through_ring(test, pool, PP_TEST_RING_MAX + 1);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring,
				(u64)PP_TEST_RING_MAX);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 1ULL);
	}
#endif
}

/* Drivers read their parameters back from pool->p. */
static void pp_create_keeps_params(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool;

	p.flags = PP_FLAG_PAGE_FRAG;
	p.offset = 64;
	p.max_len = 1024;
	p.dma_dir = DMA_BIDIRECTIONAL;
	pool = pp_ctx_create(test, &p);

	KUNIT_EXPECT_EQ(test, pool->p.flags, (unsigned int)PP_FLAG_PAGE_FRAG);
	KUNIT_EXPECT_EQ(test, pool->p.order, 1U);
	KUNIT_EXPECT_EQ(test, pool->p.offset, 64U);
	KUNIT_EXPECT_EQ(test, pool->p.max_len, 1024U);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_dir(pool), DMA_BIDIRECTIONAL);
}

/* ---- allocation and recycling ---- */

static void pp_alloc_empty_pool_refills_in_bulk(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a, *b;

	pp_need_stats(test);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	KUNIT_EXPECT_EQ(test, page_ref_count(a), 1);
	b = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, a, b);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		/* One trip to the page allocator filled the cache. */
		KUNIT_EXPECT_EQ(test, s.alloc_stats.slow, 1ULL);
		KUNIT_EXPECT_EQ(test, s.alloc_stats.fast, 1ULL);
	}
#endif
	pp_recycle(pool, a);
	pp_recycle(pool, b);
}

static void pp_recycle_direct_is_reused(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_recycle(pool, a);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	/* The cache is a stack: the page just recycled comes first. */
	a = pp_test_alloc_same(test, pool, a);
	pp_recycle(pool, a);
}

/* Order-1 pools refill one page at a time, so the alloc cache stays
 * empty and the next allocation has to look at the ring.
 */
static void pp_ring_return_is_reused(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_return(pool, a);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	a = pp_test_alloc_same(test, pool, a);
	pp_return(pool, a);
}

static void pp_full_ring_frees_page(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool;
	int i;

	pp_need_stats(test);
	p.pool_size = 2;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < 3; i++) {
		ctx->pages[i] = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
	}
	for (i = 0; i < 3; i++)
		pp_return(pool, ctx->pages[i]);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 2ULL);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 1ULL);
	}
#endif
	/* The two that fit come back; the third went to the allocator. */
	ctx->pages[3] = pp_test_alloc(pool);
	ctx->pages[4] = pp_test_alloc(pool);
	KUNIT_EXPECT_TRUE(test, (ctx->pages[3] == ctx->pages[0] &&
				 ctx->pages[4] == ctx->pages[1]) ||
				(ctx->pages[3] == ctx->pages[1] &&
				 ctx->pages[4] == ctx->pages[0]));
	pp_recycle(pool, ctx->pages[3]);
	pp_recycle(pool, ctx->pages[4]);
}

/* A hard IRQ gives a page back, as a TX completion interrupt freeing an
 * XDP frame may.
 */
struct pp_irq_return {
	struct hrtimer timer;
	struct completion done;
	struct page_pool *pool;
	struct page *page;
	bool allow_direct;
	bool in_hardirq;
	bool fired;
};

static enum hrtimer_restart pp_irq_return_fn(struct hrtimer *t)
{
	struct pp_irq_return *r = container_of(t, struct pp_irq_return, timer);

	r->in_hardirq = in_hardirq();
	page_pool_put_full_page(r->pool, r->page, r->allow_direct);
	WRITE_ONCE(r->fired, true);
	complete(&r->done);
	return HRTIMER_NORESTART;
}

static void pp_irq_return_start(struct pp_irq_return *r)
{
	init_completion(&r->done);
	hrtimer_init_on_stack(&r->timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_HARD);
	r->timer.function = pp_irq_return_fn;
	hrtimer_start(&r->timer, ns_to_ktime(NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
}

/* Wait for the timer; false if it never fired (the page is still ours). */
static bool pp_irq_return_finish(struct kunit *test, struct pp_irq_return *r)
{
	bool never_fired;

	wait_for_completion_timeout(&r->done, 5 * HZ);
	/* Either the timer never ran, or this waits out its callback, which
	 * may still be returning from complete().
	 */
	never_fired = hrtimer_cancel(&r->timer);
	destroy_hrtimer_on_stack(&r->timer);
	if (never_fired)
		KUNIT_FAIL(test, "the hard IRQ timer did not fire");
	else
		KUNIT_EXPECT_TRUE(test, r->in_hardirq);
	return !never_fired;
}

static void pp_hardirq_return_is_reused(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct pp_irq_return r = {};
	struct page_pool *pool;
	struct page *a;

	/* Its producer lock is BH-safe only: hard IRQ would warn. */
	if (IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL))
		kunit_skip(test, "XFAIL on the base pool: no return from hard IRQ");
	pool = pp_ctx_create(test, &p);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);

	r.pool = pool;
	r.page = a;
	pp_irq_return_start(&r);
	if (!pp_irq_return_finish(test, &r)) {
		pp_return(pool, a);
		return;
	}

	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	a = pp_test_alloc_same(test, pool, a);
	pp_return(pool, a);
}

/* A hard IRQ that interrupts the owner's BH-disabled section sees BH
 * disabled too, but it is not the owner: touching the alloc cache there
 * would race with the section it interrupted. Its direct return must
 * take the ring.
 */
static void pp_hardirq_direct_return_takes_ring(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct pp_irq_return r = { .allow_direct = true };
	unsigned long deadline;
	struct page_pool *pool;
	bool fired;

	pp_need_stats(test);
	pool = pp_ctx_create(test, &p);
	r.pool = pool;
	r.page = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, r.page);

	deadline = jiffies + 5 * HZ;
	local_bh_disable();
	pp_irq_return_start(&r);
	while (!(fired = READ_ONCE(r.fired)) && time_before(jiffies, deadline))
		cpu_relax();
	local_bh_enable();
	if (!pp_irq_return_finish(test, &r)) {
		pp_return(pool, r.page);
		return;
	}
	KUNIT_EXPECT_TRUE_MSG(test, fired, "the timer fired after BH was on");
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		pp_test_xfail_base(test, s.recycle_stats.cached == 0 &&
				   s.recycle_stats.ring == 1,
				   "a direct return from hard IRQ took the ring");
	}
#endif
	r.page = pp_test_alloc_same(test, pool, r.page);
	pp_return(pool, r.page);
}

/* The pool's count of pages released because they were held, and the
 * owner's share of it (ours alone keeps that apart).
 */
static void pp_expect_released(struct kunit *test, struct page_pool *pool,
			       u64 total, u64 by_owner)
{
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.released_refcnt,
			total);
#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
	KUNIT_EXPECT_EQ(test, pool->owner_recycle_stats.released_refcnt,
			by_owner);
#endif
#endif
}

static void pp_referenced_page_is_not_recycled(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool), *b, *c;
	void *data;

	KUNIT_ASSERT_NOT_NULL(test, a);
	get_page(a);
	pp_recycle(pool, a);
	/* The pool let go of it: it is an ordinary page, ours alone. */
	KUNIT_EXPECT_FALSE(test, pp_test_owns(pool, a));
	KUNIT_EXPECT_EQ(test, page_ref_count(a), 1);
	b = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, b, a);
	/* The owner counted it in its own stats. */
	pp_expect_released(test, pool, 1, 1);
	/* Any other context counts in the per-CPU stats. */
	get_page(b);
	pp_return(pool, b);
	KUNIT_EXPECT_FALSE(test, pp_test_owns(pool, b));
	pp_expect_released(test, pool, 2, 1);
	/* So does a bulk return. */
	c = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, c);
	get_page(c);
	data = page_address(c);
	page_pool_put_page_bulk(pool, &data, 1);
	KUNIT_EXPECT_FALSE(test, pp_test_owns(pool, c));
	pp_expect_released(test, pool, 3, 1);
	put_page(c);
	put_page(b);
	put_page(a);
}

/* A released page no longer counts as in flight: destroy is immediate. */
static void pp_release_page_unaccounts(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	page_pool_release_page(pool, a);
	KUNIT_EXPECT_FALSE(test, pp_test_owns(pool, a));
	KUNIT_EXPECT_TRUE(test, pp_ctx_destroy(ctx));
	KUNIT_EXPECT_EQ(test, page_ref_count(a), 1);
	put_page(a);
}

/* ---- fragments ---- */

/* Where fragments may start: build_skb() puts struct skb_shared_info at
 * a fragment's end, and the device writes whole DMA cache lines.
 */
static unsigned int pp_frag_align_wanted(void)
{
	return max_t(unsigned int, dma_get_cache_alignment(),
		     __alignof__(struct skb_shared_info));
}

static void pp_frag_shares_page_at_offsets(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool;
	unsigned int off, i;
	struct page *next;

	p.flags = PP_TEST_FRAG_FLAGS;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < 4; i++) {
		ctx->pages[i] = pp_alloc_frag(pool, PAGE_SIZE / 4, &off);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
		KUNIT_EXPECT_PTR_EQ(test, ctx->pages[i], ctx->pages[0]);
		KUNIT_EXPECT_EQ(test, off, i * (unsigned int)PAGE_SIZE / 4);
	}
	/* The page is full: the next fragment starts a new one. */
	next = pp_alloc_frag(pool, PAGE_SIZE / 4, &off);
	KUNIT_ASSERT_NOT_NULL(test, next);
	KUNIT_EXPECT_PTR_NE(test, next, ctx->pages[0]);
	KUNIT_EXPECT_EQ(test, off, 0U);
	for (i = 0; i < 4; i++)
		pp_recycle(pool, ctx->pages[i]);
	pp_recycle(pool, next);
}

/* Where build_skb() puts struct skb_shared_info: its atomics must be
 * aligned whatever the frame sizes the driver asks for.
 */
static void pp_frag_offsets_fit_build_skb(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 1500, 777, 63, 1025, 8 };
	unsigned int align = pp_frag_align_wanted();
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	unsigned int off, end = 0, i;
	struct page_pool *pool;

	p.flags = PP_TEST_FRAG_FLAGS;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ctx->pages[i] = pp_alloc_frag(pool, sizes[i], &off);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
		KUNIT_EXPECT_PTR_EQ(test, ctx->pages[i], ctx->pages[0]);
		KUNIT_EXPECT_EQ_MSG(test, off % align, 0U, "size %u at %u",
				    sizes[i], off);
		/* Fragments never overlap: each starts past the last one. */
		KUNIT_EXPECT_GE(test, off, end);
		end = off + sizes[i];
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		pp_recycle(pool, ctx->pages[i]);
}

static void pp_frag_page_returns_after_last_fragment(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool;
	struct page *page = NULL, *next;
	unsigned int off, i;

	pp_need_stats(test);
	p.flags = PP_TEST_FRAG_FLAGS;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < 4; i++)
		page = pp_alloc_frag(pool, PAGE_SIZE / 4, &off);
	KUNIT_ASSERT_NOT_NULL(test, page);
	next = pp_alloc_frag(pool, PAGE_SIZE / 4, &off);
	KUNIT_ASSERT_NOT_NULL(test, next);
	for (i = 0; i < 3; i++)
		pp_recycle(pool, page);
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.cached, 0ULL);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, page));
	pp_recycle(pool, page);
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.cached, 1ULL);
#endif
	/* Whole-page allocations are served from the cache first. */
	page = pp_test_alloc_same(test, pool, page);
	pp_recycle(pool, page);
	pp_recycle(pool, next);
}

#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
/* ---- page_pool_alloc() and its wrappers, of 6.7 ---- */

static void pp_call_alloc(void *arg)
{
	struct pp_call *c = arg;

	c->page = page_pool_dev_alloc(c->pool, &c->offset, &c->size);
}

/* page_pool_dev_alloc() of @size in softirq; @c gets the results. */
static struct page *pp_alloc_sized(struct page_pool *pool, unsigned int size,
				   struct pp_call *c)
{
	/* Offsets the pool must overwrite. */
	*c = (struct pp_call){ .pool = pool, .size = size, .offset = 1 };
	pp_test_in_softirq(pp_call_alloc, c);
	return c->page;
}

static void pp_expect_buffer(struct kunit *test, const struct pp_call *c,
			     struct page *page, unsigned int offset,
			     unsigned int truesize)
{
	KUNIT_EXPECT_PTR_EQ(test, c->page, page);
	KUNIT_EXPECT_EQ(test, c->offset, offset);
	KUNIT_EXPECT_EQ(test, c->size, truesize);
}

/* Up to half a page is a fragment, more is a whole page; either way a
 * page of any pool, with one user when it is whole.
 */
static void pp_alloc_picks_page_or_fragment_by_size(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct pp_call half, other, more;

	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, PAGE_SIZE / 2, &half));
	pp_expect_buffer(test, &half, half.page, 0, PAGE_SIZE / 2);
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, PAGE_SIZE / 2, &other));
	pp_expect_buffer(test, &other, half.page, PAGE_SIZE / 2, PAGE_SIZE / 2);

	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, PAGE_SIZE / 2 + 1,
						   &more));
	KUNIT_EXPECT_PTR_NE(test, more.page, half.page);
	pp_expect_buffer(test, &more, more.page, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&more.page->pp_frag_count), 1L);

	pp_recycle(pool, half.page);
	pp_recycle(pool, other.page);
	pp_recycle(pool, more.page);
}

/* A fragment after which no other of its size fits takes the rest of
 * the page: truesizes add up to the page, as skb accounting needs.
 */
static void pp_alloc_last_fragment_takes_rest_of_page(struct kunit *test)
{
	const unsigned int size = PAGE_SIZE / 8 * 3;
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct pp_call a, b, c;

	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, size, &a));
	pp_expect_buffer(test, &a, a.page, 0, size);
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, size, &b));
	pp_expect_buffer(test, &b, a.page, size, PAGE_SIZE - size);
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, size, &c));
	KUNIT_EXPECT_PTR_NE(test, c.page, a.page);
	pp_expect_buffer(test, &c, c.page, 0, size);

	pp_recycle(pool, a.page);
	pp_recycle(pool, b.page);
	pp_recycle(pool, c.page);
}

static void pp_call_alloc_va(void *arg)
{
	struct pp_call *c = arg;

	c->va = page_pool_dev_alloc_va(c->pool, &c->size);
}

static void pp_call_free_va(void *arg)
{
	struct pp_call *c = arg;

	page_pool_free_va(c->pool, c->va, true);
}

/* page_pool_dev_alloc_va() of @size in softirq, into @c. */
static void *pp_alloc_va(struct page_pool *pool, unsigned int size,
			 struct pp_call *c)
{
	*c = (struct pp_call){ .pool = pool, .size = size };
	pp_test_in_softirq(pp_call_alloc_va, c);
	return c->va;
}

/* page_pool_free_va() in softirq, by any address in the buffer. */
static void pp_free_va(struct page_pool *pool, void *va)
{
	struct pp_call c = { .pool = pool, .va = va };

	pp_test_in_softirq(pp_call_free_va, &c);
}

/* Buffers by address: two quarters and a half of one page, which comes
 * back to the cache when the last of them is freed.
 */
static void pp_alloc_va_and_free_va(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct pp_call a, b, c, d;
	struct page *page;
	void *start;

	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_va(pool, PAGE_SIZE / 4, &a));
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_va(pool, PAGE_SIZE / 4, &b));
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_va(pool, PAGE_SIZE / 2, &c));
	page = virt_to_page(a.va);
	start = page_address(page);
	KUNIT_EXPECT_PTR_EQ(test, a.va, start);
	KUNIT_EXPECT_PTR_EQ(test, b.va, start + PAGE_SIZE / 4);
	KUNIT_EXPECT_PTR_EQ(test, c.va, start + PAGE_SIZE / 2);
	KUNIT_EXPECT_EQ(test, b.size, (unsigned int)PAGE_SIZE / 4);
	KUNIT_EXPECT_EQ(test, c.size, (unsigned int)PAGE_SIZE / 2);

	pp_free_va(pool, a.va + 100);
	pp_free_va(pool, b.va);
	/* The pool moves on to a new page: only @c still holds this one. */
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_va(pool, PAGE_SIZE / 4, &d));
	KUNIT_EXPECT_PTR_NE(test, virt_to_page(d.va), page);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&page->pp_frag_count), 1L);
	pp_free_va(pool, start + PAGE_SIZE - 1);
	page = pp_test_alloc_same(test, pool, page);
	pp_recycle(pool, page);
	pp_free_va(pool, d.va);
}

/* Truesize is what the pool cuts: the size rounded up as fragments are.
 * In an order-1 pool a page is half of the pool's page, so a fragment.
 */
static void pp_alloc_truesize_follows_alignment_and_order(struct kunit *test)
{
	unsigned int align = pp_frag_align_wanted();
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct pp_call a, b, c;

	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, 100, &a));
	pp_expect_buffer(test, &a, a.page, 0, ALIGN(100, align));
	/* No room for another page after it: it takes the rest. */
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, PAGE_SIZE, &b));
	pp_expect_buffer(test, &b, a.page, ALIGN(100, align),
			 2 * PAGE_SIZE - ALIGN(100, align));
	KUNIT_ASSERT_NOT_NULL(test, pp_alloc_sized(pool, PAGE_SIZE + 1, &c));
	KUNIT_EXPECT_PTR_NE(test, c.page, a.page);
	pp_expect_buffer(test, &c, c.page, 0, 2 * PAGE_SIZE);

	pp_recycle(pool, a.page);
	pp_recycle(pool, b.page);
	pp_recycle(pool, c.page);
}

/* A fragment's holder adds users while the pool still cuts its page:
 * the pool's own share of the count leaves room for them.
 */
static void pp_fragment_holder_adds_users(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *page, *other, *next;
	unsigned int off;

	page = pp_alloc_frag(pool, PAGE_SIZE / 2, &off);
	KUNIT_ASSERT_NOT_NULL(test, page);
	page_pool_ref_page(page);
	page_pool_ref_page(page);
	KUNIT_EXPECT_GT(test, page_pool_unref_page(page, 1), 0L);
	KUNIT_EXPECT_GT(test, page_pool_unref_page(page, 1), 0L);
	pp_recycle(pool, page);

	other = pp_alloc_frag(pool, PAGE_SIZE / 2, &off);
	KUNIT_ASSERT_PTR_EQ(test, other, page);
	next = pp_alloc_frag(pool, PAGE_SIZE / 2, &off);
	KUNIT_ASSERT_NOT_NULL(test, next);
	KUNIT_EXPECT_PTR_NE(test, next, page);
	pp_recycle(pool, other);
	page = pp_test_alloc_same(test, pool, page);
	pp_recycle(pool, page);
	pp_recycle(pool, next);
}

/* A page's users, counted by hand: the count is back at one whoever
 * drops the last ones, and a page with a user left stays out.
 */
static void pp_unref_page_leaves_one_user(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *page = pp_test_alloc(pool);
	atomic_long_t *users;

	KUNIT_ASSERT_NOT_NULL(test, page);
	users = &page->pp_frag_count;
	page_pool_fragment_page(page, 3);
	KUNIT_EXPECT_EQ(test, page_pool_unref_page(page, 2), 1L);
	KUNIT_EXPECT_EQ(test, page_pool_unref_page(page, 1), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(users), 1L);

	page_pool_fragment_page(page, 3);
	page_pool_ref_page(page);
	KUNIT_EXPECT_EQ(test, page_pool_unref_page(page, 4), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(users), 1L);

	page_pool_ref_page(page);
	pp_recycle(pool, page);
	KUNIT_EXPECT_EQ(test, atomic_long_read(users), 1L);
	pp_recycle(pool, page);
	page = pp_test_alloc_same(test, pool, page);
	page_pool_put_unrefed_page(pool, page, -1, false);
}
#endif

/* ---- skb recycling ---- */

static void pp_skb_head_returns_to_pool(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, a);
	skb = build_skb(page_address(a), PAGE_SIZE << 1);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	skb_put(skb, 60);
	skb_mark_for_recycle(skb);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	a = pp_test_alloc_same(test, pool, a);
	pp_return(pool, a);
}

static void pp_skb_frag_returns_to_pool(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, a);
	skb = alloc_skb(128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_add_rx_frag(skb, 0, a, 0, 1000, PAGE_SIZE << 1);
	skb_mark_for_recycle(skb);
	kfree_skb(skb);
	a = pp_test_alloc_same(test, pool, a);
	pp_return(pool, a);
}

/* ---- XDP memory model ---- */

struct pp_xdp {
	struct net_device *dev;
	struct xdp_rxq_info rxq;
};

static void pp_xdp_setup(struct kunit *test, struct pp_xdp *x,
			 struct page_pool *pool)
{
	x->dev = alloc_netdev(0, "pptest%d", NET_NAME_UNKNOWN, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, x->dev);
	memset(&x->rxq, 0, sizeof(x->rxq));
	KUNIT_ASSERT_EQ(test, xdp_rxq_info_reg(&x->rxq, x->dev, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, xdp_rxq_info_reg_mem_model(&x->rxq,
							 MEM_TYPE_PAGE_POOL,
							 pool), 0);
}

static void pp_xdp_teardown(struct pp_xdp *x)
{
	xdp_rxq_info_unreg(&x->rxq);
	free_netdev(x->dev);
}

static struct xdp_frame *pp_xdp_frame(struct pp_xdp *x, struct page *page)
{
	struct xdp_buff xdp;

	xdp_init_buff(&xdp, PAGE_SIZE << 1, &x->rxq);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, 60,
			 false);
	return xdp_convert_buff_to_frame(&xdp);
}

static void pp_xdp_return_frame(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create_unwatched(test, &p);
	struct page *a = pp_test_alloc(pool);
	struct xdp_frame *frame;
	struct pp_xdp x;

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_xdp_setup(test, &x, pool);
	frame = pp_xdp_frame(&x, a);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	xdp_return_frame(frame);
	a = pp_test_alloc_same(test, pool, a);
	pp_return(pool, a);
	pp_xdp_teardown(&x);
}

static void pp_xdp_return_frame_rx_napi(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create_unwatched(test, &p);
	struct page *a = pp_test_alloc(pool);
	struct xdp_frame *frame;
	struct pp_xdp x;

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_xdp_setup(test, &x, pool);
	frame = pp_xdp_frame(&x, a);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	pp_test_in_softirq(pp_call_xdp_return_napi, frame);
	/* Returned from NAPI context, it went straight to the cache. */
	a = pp_test_alloc_same(test, pool, a);
	pp_recycle(pool, a);
	pp_xdp_teardown(&x);
}

static void pp_xdp_return_frame_bulk(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create_unwatched(test, &p);
	struct xdp_frame_bulk bq;
	struct page *got;
	struct pp_xdp x;
	int i, j, seen;

	pp_xdp_setup(test, &x, pool);
	for (i = 0; i < 4; i++) {
		ctx->pages[i] = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
	}
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();
	for (i = 0; i < 4; i++)
		xdp_return_frame_bulk(pp_xdp_frame(&x, ctx->pages[i]), &bq);
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.ring, 4ULL);
#endif
	/* All four come back, in whatever order. */
	for (i = 0, seen = 0; i < 4; i++) {
		got = pp_test_alloc(pool);
		for (j = 0; j < 4; j++)
			if (got == ctx->pages[j])
				seen |= BIT(j);
		ctx->pages[4 + i] = got;
	}
	for (i = 0; i < 4; i++)
		pp_return(pool, ctx->pages[4 + i]);
	KUNIT_EXPECT_EQ(test, seen, 0xf);
	pp_xdp_teardown(&x);
}

/* ---- bulk returns ---- */

/* Up to PP_BULK_PAGES pages, cut in PP_BULK_CUTS fragments each. */
#define PP_BULK_PAGES	6
#define PP_BULK_CUTS	2

struct pp_bulk {
	struct page *page[PP_BULK_PAGES + 1];
	void *va[PP_BULK_PAGES][PP_BULK_CUTS];
};

/* Cut @pages pages of the pool in fragments, then one
 * fragment more, so that the pool has moved on from the last of them
 * (page[@pages], which the caller gives back with pp_recycle()).
 */
static void pp_bulk_cut(struct kunit *test, struct page_pool *pool,
			struct pp_bulk *b, int pages)
{
	const unsigned int size = PAGE_SIZE / PP_BULK_CUTS;
	unsigned int off;
	int i, j;

	for (i = 0; i < pages; i++) {
		for (j = 0; j < PP_BULK_CUTS; j++) {
			b->page[i] = pp_alloc_frag(pool, size, &off);
			KUNIT_ASSERT_NOT_NULL(test, b->page[i]);
			b->va[i][j] = page_address(b->page[i]) + off;
		}
		KUNIT_ASSERT_EQ(test, off, PAGE_SIZE - size);
	}
	b->page[pages] = pp_alloc_frag(pool, size, &off);
	KUNIT_ASSERT_NOT_NULL(test, b->page[pages]);
	KUNIT_ASSERT_EQ(test, off, 0U);
}

/* Allocate whole pages of a fragment pool until @want comes,
 * at most @max of them; the caller gives back those left in @out.
 *
 * Return: how many pages were allocated before @want came, -1 if it
 * did not, or -2 if an allocation failed.
 */
static int pp_bulk_alloc_until(struct page_pool *pool, struct page *want,
			       struct page **out, int max)
{
	int i;

	for (i = 0; i < max; i++) {
		out[i] = pp_test_alloc(pool);
		if (!out[i])
			return -2;
		/* One user, as 6.1 leaves drivers to say of a whole page. */
		page_pool_fragment_page(out[i], 1);
		if (out[i] == want)
			return i;
	}
	return -1;
}

static void pp_bulk_return_all(struct page_pool *pool, struct page **pages,
			       int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pages[i])
			pp_return(pool, pages[i]);
}

/* A bulk that holds fragments of a page whose last fragment is still
 * out: the page stays out of the pool, and is reused only once the last
 * fragment, in a later bulk, brings it back.
 */
static void pp_bulk_keeps_page_until_last_fragment(struct kunit *test)
{
	const int max = 3 * PP_ALLOC_CACHE_REFILL;
	struct page_pool_params p = pp_params(0);
	struct page **held, **more;
	struct page_pool *pool;
	struct pp_bulk b = {};
	void *data[1];
	int got;

	held = kunit_kcalloc(test, max + 1, sizeof(*held), GFP_KERNEL);
	more = kunit_kcalloc(test, max + 1, sizeof(*more), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, held);
	KUNIT_ASSERT_NOT_NULL(test, more);
	p.flags = PP_TEST_FRAG_FLAGS;
	pool = pp_ctx_create(test, &p);
	pp_bulk_cut(test, pool, &b, 1);

	data[0] = b.va[0][0];
	page_pool_put_page_bulk(pool, data, 1);
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.ring, 0ULL);
#endif
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, b.page[0]));
	/* Past the cache and a refill: the page is not handed out. */
	got = pp_bulk_alloc_until(pool, b.page[0], held, max);
	if (got != -1) {
		KUNIT_FAIL(test, got < 0 ? "an allocation failed" :
			   "the page was handed out with a fragment still out");
		/* Never give it back twice: leave it out, and the pool. */
		if (got >= 0)
			held[got] = NULL;
		pp_bulk_return_all(pool, held, max);
		return;
	}

	data[0] = b.va[0][1];
	page_pool_put_page_bulk(pool, data, 1);
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.ring, 1ULL);
#endif
	/* Now it comes back, once the cache is used up. */
	KUNIT_EXPECT_GE(test, pp_bulk_alloc_until(pool, b.page[0], more, max),
			0);
	pp_bulk_return_all(pool, held, max);
	pp_bulk_return_all(pool, more, max);
	pp_recycle(pool, b.page[1]);
}

/* Pages the pool has taken in and not let go: in its cache and ring,
 * or out.
 */
static s32 pp_test_inflight(struct page_pool *pool)
{
	return READ_ONCE(pool->pages_state_hold_cnt) -
	       atomic_read(&pool->pages_state_release_cnt);
}

/* A bulk larger than the ring's free room: what fits is stored, and
 * every other page goes back to the page allocator, counted as
 * released, so that destroy finds no page out and frees the pool.
 */
static void pp_bulk_past_full_ring_frees_the_rest(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool;
	void *data[PP_TEST_NR];
	s32 inflight;
	int i;

	p.pool_size = 4;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < PP_TEST_NR; i++) {
		ctx->pages[i] = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
		data[i] = page_address(ctx->pages[i]) + 100;
	}
	inflight = pp_test_inflight(pool);
	page_pool_put_page_bulk(pool, data, PP_TEST_NR);
	KUNIT_EXPECT_EQ(test, pp_test_inflight(pool), inflight - (PP_TEST_NR - 4));
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 4ULL);
		/* Ours counts pages; 6.1 counts one per bulk that found
		 * the ring full.
		 */
		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full,
				IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL) ?
				1ULL : (u64)PP_TEST_NR - 4);
	}
#endif
	/* Nothing is out, so destroy frees the pool before it returns. */
	KUNIT_EXPECT_TRUE(test, pp_ctx_destroy_now(ctx));
}

/* xdp_return_frame_bulk(), as cpumap and devmap use it, with all of the
 * above at once: frames on fragments of pages whose other fragment is
 * still out, more last fragments than the ring has room for.
 */
static void pp_xdp_return_frame_bulk_mix(struct kunit *test)
{
	const unsigned int size = PAGE_SIZE / PP_BULK_CUTS;
	struct page_pool_params p = pp_params(0);
	struct xdp_frame_bulk bq;
	struct page_pool *pool;
	struct pp_bulk b = {};
	struct xdp_buff xdp;
	struct pp_xdp x;
	s32 inflight;
	int i, j;

	p.flags = PP_TEST_FRAG_FLAGS;
	p.pool_size = 4;
	pool = pp_ctx_create_unwatched(test, &p);
	pp_xdp_setup(test, &x, pool);
	pp_bulk_cut(test, pool, &b, PP_BULK_PAGES);
	inflight = pp_test_inflight(pool);

	/* Every fragment but the last one of the last page, in turn. */
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();
	for (j = 0; j < PP_BULK_CUTS; j++) {
		for (i = 0; i < PP_BULK_PAGES; i++) {
			if (i == PP_BULK_PAGES - 1 && j == PP_BULK_CUTS - 1)
				continue;
			xdp_init_buff(&xdp, size, &x.rxq);
			xdp_prepare_buff(&xdp, b.va[i][j], XDP_PACKET_HEADROOM,
					 60, false);
			xdp_return_frame_bulk(xdp_convert_buff_to_frame(&xdp),
					      &bq);
		}
	}
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();

#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).recycle_stats.ring, 4ULL);
#endif
	/* One whole page did not fit, and left the pool. */
	KUNIT_EXPECT_EQ(test, pp_test_inflight(pool), inflight - 1);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, b.page[i]));
	/* The page with a fragment still out stays the pool's. */
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, b.page[PP_BULK_PAGES - 1]));
	pp_return(pool, b.page[PP_BULK_PAGES - 1]);
	pp_recycle(pool, b.page[PP_BULK_PAGES]);
	pp_xdp_teardown(&x);
}

/* ---- NUMA ---- */

/* The pool moves away from the node of the CPU it runs on (the case is
 * pinned): what the refill keeps must follow the pool, not the CPU.
 */
static void pp_update_nid_moves_refills(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool;
	struct page *a, *b;
	int to;

	if (num_online_nodes() < 2)
		kunit_skip(test, "needs two online NUMA nodes");
	p.nid = numa_node_id();
	to = pp_test_remote_node();
	pool = pp_ctx_create(test, &p);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, page_to_nid(a), p.nid);

	page_pool_update_nid(pool, to);
	KUNIT_EXPECT_EQ(test, pool->p.nid, to);
	pp_return(pool, a);
	/* The old node's page is waived, the refill is on the new node. */
	b = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, b, a);
	KUNIT_EXPECT_EQ(test, page_to_nid(b), to);
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_EXPECT_EQ(test, pp_test_stats(pool).alloc_stats.waive, 1ULL);
#endif
	pp_return(pool, b);
}

/* A node change leaves the ring full of the old node's pages: one
 * allocation must not free them all in one NAPI poll.
 */
static void pp_refill_waives_a_batch_at_most(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool;
	struct page *a;
	int to;

	if (num_online_nodes() < 2)
		kunit_skip(test, "needs two online NUMA nodes");
	pp_need_stats(test);
	p.nid = numa_node_id();
	to = pp_test_remote_node();
	p.pool_size = 256;
	pool = pp_ctx_create(test, &p);
	pp_cycle_through_ring(test, pool, 200);

	page_pool_update_nid(pool, to);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, page_to_nid(a), to);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		u64 waived = pp_test_stats(pool).alloc_stats.waive;

		KUNIT_EXPECT_GE(test, waived, 1ULL);
		KUNIT_EXPECT_LE(test, waived, 64ULL);
	}
#endif
	pp_return(pool, a);
}

/* Pages that fill a node, so that the page allocator must serve that
 * node's requests from another one, as under memory pressure there.
 */
struct pp_node_hog {
	struct list_head pages;
	int nid;
};

static void pp_node_hog_init(struct pp_node_hog *hog, int nid)
{
	INIT_LIST_HEAD(&hog->pages);
	hog->nid = nid;
}

static void pp_node_hog_add(struct pp_node_hog *hog, struct page *page,
			    int order)
{
	set_page_private(page, order);
	list_add(&page->lru, &hog->pages);
}

/* Take what the node has left to atomic allocations, reserves included
 * (so no __GFP_NOMEMALLOC, which would leave them to the pool); other
 * CPUs may free more at any time.
 */
static void pp_node_hog_fill(struct pp_node_hog *hog)
{
	const gfp_t gfp = GFP_ATOMIC | __GFP_THISNODE | __GFP_NOWARN;
	int nid = hog->nid;
	struct page *page;
	int order;

	for (order = MAX_ORDER - 1; order >= 0; order--) {
		while ((page = alloc_pages_node(nid, gfp, order)))
			pp_node_hog_add(hog, page, order);
	}
}

static void pp_node_hog_free(struct pp_node_hog *hog)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &hog->pages, lru) {
		list_del(&page->lru);
		__free_pages(page, page_private(page));
	}
}

/* The node the pool is fixed to runs out: the page the pool gets from
 * another node is still recycled by a direct return, or every XDP_DROP
 * would go to the page allocator just when memory is short.
 */
static void pp_direct_return_keeps_fallback_page(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page *a = NULL;
	struct pp_node_hog hog;
	struct page_pool *pool;
	int tries;

	if (num_online_nodes() < 2)
		kunit_skip(test, "needs two online NUMA nodes");
	p.nid = pp_test_remote_node();
	pool = pp_ctx_create(test, &p);

	/* Order-1 pages come one at a time; one the node got back between
	 * the fill and the allocation goes to the hog, and we fill again.
	 */
	pp_node_hog_init(&hog, p.nid);
	for (tries = 0; tries < 16; tries++) {
		pp_node_hog_fill(&hog);
		a = pp_test_alloc(pool);
		if (!a || page_to_nid(a) != p.nid)
			break;
		page_pool_release_page(pool, a);
		pp_node_hog_add(&hog, a, p.order);
	}
	pp_node_hog_free(&hog);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NE_MSG(test, page_to_nid(a), p.nid,
			    "node %d could not be filled", p.nid);
	pp_recycle(pool, a);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	a = pp_test_alloc_same(test, pool, a);
	pp_recycle(pool, a);
}

/* What the log says from @seq on, if it mentions an allocation failure. */
static bool pp_log_has_alloc_failure(u64 seq)
{
	struct kmsg_dump_iter iter;
	static char line[256];
	bool found = false;
	size_t len;

	kmsg_dump_rewind(&iter);
	iter.cur_seq = max(iter.cur_seq, seq);
	while (kmsg_dump_get_line(&iter, false, line, sizeof(line) - 1, &len)) {
		line[len] = '\0';
		if (strstr(line, "page allocation failure"))
			found = true;
	}
	return found;
}

/* The sequence number the next log line will get. */
static u64 pp_log_end(void)
{
	struct kmsg_dump_iter iter;

	kmsg_dump_rewind(&iter);
	return iter.next_seq;
}

/* Drivers pass a bare GFP_ATOMIC; running short of pages in an RX ring
 * is expected under memory pressure and must not fill the log.
 */
static void pp_atomic_alloc_failure_is_quiet(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page *a = NULL;
	struct pp_node_hog hog;
	struct page_pool *pool;
	int tries;
	u64 seq;

	if (num_online_nodes() < 2)
		kunit_skip(test, "needs two online NUMA nodes");
	p.nid = pp_test_remote_node();
	pool = pp_ctx_create(test, &p);

	seq = pp_log_end();
	pp_node_hog_init(&hog, p.nid);
	/* A page the node got back between the fill and the allocation
	 * serves it: the hog takes it, and we fill again.
	 */
	for (tries = 0; tries < 16; tries++) {
		pp_node_hog_fill(&hog);
		a = page_pool_alloc_pages(pool, GFP_ATOMIC | __GFP_THISNODE);
		if (!a)
			break;
		page_pool_release_page(pool, a);
		pp_node_hog_add(&hog, a, p.order);
	}
	pp_node_hog_free(&hog);
	if (a)
		kunit_skip(test, "node %d could not be filled", p.nid);
	KUNIT_EXPECT_FALSE(test, pp_log_has_alloc_failure(seq));
}

/* A pool asked for a node without memory allocates from the nearest
 * node that has some, as NUMA_NO_NODE does, and recycles those pages:
 * none of them is on the node it was asked for.
 */
static void pp_memoryless_nid_recycles_fallback_pages(struct kunit *test)
{
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool;
	struct page *a;
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		if (!node_state(nid, N_MEMORY))
			break;
	if (nid == MAX_NUMNODES)
		kunit_skip(test, "every node has memory");
	if (IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL))
		kunit_skip(test,
			   "XFAIL on the base pool: allocates on the node without memory");
	p.nid = nid;
	pool = pp_ctx_create(test, &p);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, page_to_nid(a), numa_mem_id());
	pp_return(pool, a);
	/* Through the ring: the refill keeps it. */
	a = pp_test_alloc_same(test, pool, a);
	pp_recycle(pool, a);
	a = pp_test_alloc_same(test, pool, a);
	pp_recycle(pool, a);
}

static void pp_nid_changed_updates_pool(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool;
	struct page *a;

	p.nid = first_online_node;
	pool = pp_ctx_create(test, &p);
	page_pool_nid_changed(pool, NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, pool->p.nid, NUMA_NO_NODE);
	page_pool_nid_changed(pool, first_online_node);
	KUNIT_EXPECT_EQ(test, pool->p.nid, first_online_node);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, page_to_nid(a), first_online_node);
	pp_recycle(pool, a);
}

/* ---- teardown ---- */

static void pp_destroy_waits_for_in_flight_page(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	ctx->pool = NULL;
	pp_test_destroy(pool);
	/* Destroy returned, but the pool lives on while a page is out. */
	KUNIT_EXPECT_FALSE(test, completion_done(&ctx->release.released));
	KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, a));
	pp_return(pool, a);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&ctx->release));
}

static void pp_destroy_while_skb_holds_page(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page *a = pp_test_alloc(pool);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, a);
	skb = build_skb(page_address(a), PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_mark_for_recycle(skb);
	ctx->pool = NULL;
	pp_test_destroy(pool);
	KUNIT_EXPECT_FALSE(test, completion_done(&ctx->release.released));
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&ctx->release));
}

/* ---- stats ---- */

static void pp_stats_count_every_operation(struct kunit *test)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_params p = pp_params(0);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page_pool_stats s;
	struct page *a, *b, *c, *d;

	a = pp_test_alloc(pool);		/* empty + slow (bulk refill) */
	b = pp_test_alloc(pool);		/* fast */
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	pp_recycle(pool, b);		/* cached */
	pp_recycle(pool, a);		/* cached */
	c = pp_test_alloc(pool);		/* fast */
	KUNIT_ASSERT_NOT_NULL(test, c);
	pp_return(pool, c);		/* ring */
	d = pp_test_alloc(pool);		/* fast */
	KUNIT_ASSERT_NOT_NULL(test, d);
	get_page(d);
	pp_recycle(pool, d);		/* released_refcnt */
	put_page(d);

	s = pp_test_stats(pool);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.fast, 3ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow, 1ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow_high_order, 0ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.empty, 1ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.refill, 0ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.waive, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 2ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cache_full, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 1ULL);

	/* page_pool_get_stats() adds to what the caller passes in. */
	page_pool_get_stats(pool, &s);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.fast, 6ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 4ULL);
#else
	kunit_skip(test, "needs CONFIG_PAGE_POOL_STATS");
#endif
}

static void pp_stats_high_order_and_refill(struct kunit *test)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_params p = pp_params(1);
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct page_pool_stats s;
	struct page *a;

	a = pp_test_alloc(pool);		/* empty + slow_high_order */
	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_return(pool, a);		/* ring */
	a = pp_test_alloc(pool);		/* refill from the ring */
	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_recycle(pool, a);		/* cached */

	s = pp_test_stats(pool);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow_high_order, 1ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow, 0ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.empty, 1ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.refill, 1ULL);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.fast, 0ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 1ULL);
#else
	kunit_skip(test, "needs CONFIG_PAGE_POOL_STATS");
#endif
}

static const char * const pp_ethtool_names[] = {
	"rx_pp_alloc_fast", "rx_pp_alloc_slow", "rx_pp_alloc_slow_ho",
	"rx_pp_alloc_empty", "rx_pp_alloc_refill", "rx_pp_alloc_waive",
	"rx_pp_recycle_cached", "rx_pp_recycle_cache_full",
	"rx_pp_recycle_ring", "rx_pp_recycle_ring_full",
	"rx_pp_recycle_released_ref",
};

static void pp_stats_ethtool_helpers(struct kunit *test)
{
#ifdef CONFIG_PAGE_POOL_STATS
	int n = ARRAY_SIZE(pp_ethtool_names), i;
	struct page_pool_stats s = {};
	u8 *strings, *send;
	u64 *data, *dend;

	KUNIT_ASSERT_EQ(test, page_pool_ethtool_stats_get_count(), n);
	strings = kunit_kzalloc(test, n * ETH_GSTRING_LEN, GFP_KERNEL);
	data = kunit_kcalloc(test, n, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, strings);
	KUNIT_ASSERT_NOT_NULL(test, data);

	send = page_pool_ethtool_stats_get_strings(strings);
	KUNIT_EXPECT_PTR_EQ(test, send, strings + n * ETH_GSTRING_LEN);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_STREQ(test, (char *)strings + i * ETH_GSTRING_LEN,
				   pp_ethtool_names[i]);

	for (i = 0; i < n; i++)
		((u64 *)&s)[i] = 100 + i;
	dend = page_pool_ethtool_stats_get(data, &s);
	KUNIT_EXPECT_PTR_EQ(test, dend, data + n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, data[i], (u64)(100 + i));
#else
	kunit_skip(test, "needs CONFIG_PAGE_POOL_STATS");
#endif
}

/* ---- pages the pool must not keep, and the pool's last page ---- */

/* Mark a page of the pool as one the page allocator took from the
 * pfmemalloc reserves, the way it does: set_page_pfmemalloc() sets the
 * low bits of the word that pp_magic shares, then the pool adds its
 * signature on top.
 *
 * Return: pp_magic before, for pp_unmark_pfmemalloc().
 */
static unsigned long pp_mark_pfmemalloc(struct page *page)
{
	unsigned long magic = page->pp_magic;

	set_page_pfmemalloc(page);
	page->pp_magic |= magic;
	return magic;
}

static void pp_unmark_pfmemalloc(struct page *page, unsigned long magic)
{
	page->pp_magic = magic;
}

/* A page from the reserves goes back to the page allocator whichever
 * way it is returned, so that the reserves are refilled: the pool must
 * not keep it in the alloc cache nor in the ring. The pool frees it
 * with the mark still set, as it does a page that really came from the
 * reserves; if it kept one, the case takes it back and clears the mark
 * before giving it back.
 */
static void pp_pfmemalloc_page_is_not_recycled(struct kunit *test)
{
	struct page_pool_params p = pp_params(0);
	struct pp_ctx *ctx = test->priv;
	unsigned long magic[2];
	struct page_pool *pool;
	struct page *got;
	int i;

	pp_need_stats(test);
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < 2; i++) {
		ctx->pages[i] = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
		magic[i] = pp_mark_pfmemalloc(ctx->pages[i]);
		KUNIT_ASSERT_TRUE(test, page_is_pfmemalloc(ctx->pages[i]));
		KUNIT_ASSERT_TRUE(test, pp_test_owns(pool, ctx->pages[i]));
	}
	pp_recycle(pool, ctx->pages[0]);	/* not into the cache */
	pp_return(pool, ctx->pages[1]);		/* not into the ring */
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 0ULL);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 0ULL);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt, 2ULL);
	}
#endif
	/* The cache is a stack: a page kept there would come first. */
	got = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_PTR_NE(test, got, ctx->pages[0]);
	for (i = 0; i < 2; i++)
		if (got == ctx->pages[i])
			pp_unmark_pfmemalloc(got, magic[i]);
	pp_recycle(pool, got);
}

/* Recycling into a full alloc cache: the page takes the ring instead,
 * counted as cache_full, and comes back from there.
 */
static void pp_recycle_into_full_cache_takes_ring(struct kunit *test)
{
	/* Three bulk refills, to empty the cache: see the precondition. */
	const int n = 3 * PP_ALLOC_CACHE_REFILL;
	struct page_pool_params p = pp_params(0);
	const int extra = PP_ALLOC_CACHE_SIZE;
	struct page **pages, *want;
	struct page_pool *pool;
	int i;

	pp_need_stats(test);
	pages = kunit_kcalloc(test, n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	p.pool_size = 256;
	pool = pp_ctx_create(test, &p);
	for (i = 0; i < n; i++) {
		pages[i] = pp_test_alloc(pool);
		if (!pages[i]) {
			KUNIT_FAIL(test, "allocation %d failed", i);
			goto out;
		}
	}
	if (pool->alloc.count) {
		KUNIT_FAIL(test, "precondition: %u pages left in the cache",
			   pool->alloc.count);
		goto out;
	}

	for (i = 0; i < PP_ALLOC_CACHE_SIZE; i++)
		pp_recycle(pool, pages[i]);
	/* The cache is full: this one must not be written past its end. */
	pp_recycle(pool, pages[extra]);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats s = pp_test_stats(pool);

		KUNIT_EXPECT_EQ(test, s.recycle_stats.cached,
				(u64)PP_ALLOC_CACHE_SIZE);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.cache_full, 1ULL);
		KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
	}
#endif
	/* The cache hands back what it holds, then the refill finds the
	 * extra page in the ring. Until then, the pool has them all.
	 */
	want = pages[extra];
	for (i = 0; i <= extra; i++)
		pages[i] = NULL;
	for (i = 0; i < PP_ALLOC_CACHE_SIZE; i++) {
		pages[i] = pp_test_alloc(pool);
		if (!pages[i]) {
			KUNIT_FAIL(test, "allocation from the cache failed");
			goto out;
		}
	}
	pages[extra] = pp_test_alloc_same(test, pool, want);
out:
	for (i = 0; i < n; i++)
		if (pages[i])
			pp_return(pool, pages[i]);
}

/* The ways the last page of a destroyed pool comes back. */
enum pp_last_return {
	PP_LAST_REUSABLE,	/* a page the pool could reuse */
	PP_LAST_HELD,		/* a page someone else still holds */
	PP_LAST_HELD_BULK,	/* the same, through page_pool_put_page_bulk() */
};

static const enum pp_last_return pp_last_returns[] = {
	PP_LAST_REUSABLE, PP_LAST_HELD, PP_LAST_HELD_BULK,
};

static void pp_last_return_desc(const enum pp_last_return *how, char *desc)
{
	static const char * const names[] = {
		[PP_LAST_REUSABLE] = "reusable",
		[PP_LAST_HELD] = "held",
		[PP_LAST_HELD_BULK] = "held, bulk",
	};

	strscpy(desc, names[*how], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pp_last_return, pp_last_returns, pp_last_return_desc);

/* After destroy, each page that comes back is freed, and the one that
 * brings the last page back kicks the deferred free work: the pool (and
 * so the driver's XDP memory model) goes at once, not at the next retry.
 */
static void pp_last_return_after_destroy_frees_pool(struct kunit *test)
{
	const enum pp_last_return *how = test->param_value;
	struct page_pool_params p = pp_params(1);
	struct pp_ctx *ctx = test->priv;
	struct page_pool *pool = pp_ctx_create(test, &p);
	struct delayed_work *free_work;
	struct page *last;
	bool kicked;
	void *data;
	int i;

	for (i = 0; i < 2; i++) {
		ctx->pages[i] = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, ctx->pages[i]);
	}
	last = ctx->pages[1];
	ctx->pool = NULL;
	free_work = pp_test_free_work(pool);
	pp_test_destroy(pool);
	pp_return(pool, ctx->pages[0]);
	/* One page is still out: the work runs now, whatever that return
	 * queued, and finds it. Its retry goes out of the way, so that only
	 * a kick can queue it again.
	 */
	flush_delayed_work(free_work);
	mod_delayed_work(system_wq, free_work, 3600 * HZ);
	KUNIT_EXPECT_FALSE(test, completion_done(&ctx->release.released));
	if (*how != PP_LAST_REUSABLE)
		get_page(last);
	/* The case is pinned: with preemption off, the work the last
	 * return queues on this CPU has not run, and the pool is there.
	 */
	preempt_disable();
	if (*how == PP_LAST_HELD_BULK) {
		data = page_address(last);
		page_pool_put_page_bulk(pool, &data, 1);
	} else {
		pp_return(pool, last);
	}
	kicked = !timer_pending(&free_work->timer);
	preempt_enable();
	/* Not kicked: the work waits an hour, so the pool is still there. */
	if (!kicked)
		mod_delayed_work(system_wq, free_work, 0);

	KUNIT_EXPECT_TRUE(test, pp_test_released(&ctx->release));
	if (*how != PP_LAST_REUSABLE) {
		/* The pool let go of it: an ordinary page, ours alone. */
		KUNIT_EXPECT_EQ(test, page_ref_count(last), 1);
		put_page(last);
	}
	pp_test_xfail_base(test, kicked,
			   "the last page back frees the destroyed pool at once");
}

/* ---- the suite ---- */

static int pp_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct pp_ctx), GFP_KERNEL);
	if (!test->priv)
		return -ENOMEM;
	pp_test_pin_cpu();
	return 0;
}

static void pp_test_exit(struct kunit *test)
{
	struct pp_ctx *ctx = test->priv;

	if (ctx->pool)
		KUNIT_EXPECT_TRUE_MSG(test, pp_ctx_destroy(ctx),
				      "pool not freed: a page is still out");
	pp_test_unpin_cpu();
}

static int pp_suite_init(struct kunit_suite *suite)
{
	pp_test_dev = root_device_register("page_pool_test");
	if (IS_ERR(pp_test_dev))
		return PTR_ERR(pp_test_dev);
	/* A device the pool would map for, so that a case with a bad
	 * parameter is refused for that parameter and not for the device.
	 */
	pp_test_dev->dma_mask = &pp_test_dev->coherent_dma_mask;
	pp_test_dev->coherent_dma_mask = DMA_BIT_MASK(32);
	return 0;
}

static void pp_suite_exit(struct kunit_suite *suite)
{
	root_device_unregister(pp_test_dev);
}

static struct kunit_case pp_cases[] = {
	KUNIT_CASE_PARAM(pp_create_rejects_bad_params,
			 pp_bad_params_gen_params),
	KUNIT_CASE(pp_create_clamps_large_pool_size),
	KUNIT_CASE(pp_create_rejects_order_too_big),
	KUNIT_CASE(pp_create_rejects_dma_map_without_dev),
	KUNIT_CASE(pp_create_rejects_dev_without_dma_mask),
	KUNIT_CASE(pp_create_rejects_sync_beyond_page),
	KUNIT_CASE(pp_create_keeps_params),
	KUNIT_CASE(pp_alloc_empty_pool_refills_in_bulk),
	KUNIT_CASE(pp_recycle_direct_is_reused),
	KUNIT_CASE(pp_ring_return_is_reused),
	KUNIT_CASE(pp_full_ring_frees_page),
	KUNIT_CASE(pp_hardirq_return_is_reused),
	KUNIT_CASE(pp_hardirq_direct_return_takes_ring),
	KUNIT_CASE(pp_referenced_page_is_not_recycled),
	KUNIT_CASE(pp_release_page_unaccounts),
	KUNIT_CASE(pp_frag_shares_page_at_offsets),
	KUNIT_CASE(pp_frag_offsets_fit_build_skb),
	KUNIT_CASE(pp_frag_page_returns_after_last_fragment),
#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
	KUNIT_CASE(pp_alloc_picks_page_or_fragment_by_size),
	KUNIT_CASE(pp_alloc_last_fragment_takes_rest_of_page),
	KUNIT_CASE(pp_alloc_va_and_free_va),
	KUNIT_CASE(pp_alloc_truesize_follows_alignment_and_order),
	KUNIT_CASE(pp_fragment_holder_adds_users),
	KUNIT_CASE(pp_unref_page_leaves_one_user),
#endif
	KUNIT_CASE(pp_skb_head_returns_to_pool),
	KUNIT_CASE(pp_skb_frag_returns_to_pool),
	KUNIT_CASE(pp_xdp_return_frame),
	KUNIT_CASE(pp_xdp_return_frame_rx_napi),
	KUNIT_CASE(pp_xdp_return_frame_bulk),
	KUNIT_CASE(pp_bulk_keeps_page_until_last_fragment),
	KUNIT_CASE(pp_bulk_past_full_ring_frees_the_rest),
	KUNIT_CASE(pp_xdp_return_frame_bulk_mix),
	KUNIT_CASE(pp_update_nid_moves_refills),
	KUNIT_CASE(pp_refill_waives_a_batch_at_most),
	KUNIT_CASE(pp_direct_return_keeps_fallback_page),
	KUNIT_CASE(pp_atomic_alloc_failure_is_quiet),
	KUNIT_CASE(pp_memoryless_nid_recycles_fallback_pages),
	KUNIT_CASE(pp_nid_changed_updates_pool),
	KUNIT_CASE(pp_destroy_waits_for_in_flight_page),
	KUNIT_CASE(pp_destroy_while_skb_holds_page),
	KUNIT_CASE(pp_stats_count_every_operation),
	KUNIT_CASE(pp_stats_high_order_and_refill),
	KUNIT_CASE(pp_stats_ethtool_helpers),
	KUNIT_CASE(pp_pfmemalloc_page_is_not_recycled),
	KUNIT_CASE(pp_recycle_into_full_cache_takes_ring),
	KUNIT_CASE_PARAM(pp_last_return_after_destroy_frees_pool,
			 pp_last_return_gen_params),
	{}
};

static struct kunit_suite pp_suite = {
	.name = "page_pool",
	.init = pp_test_init,
	.exit = pp_test_exit,
	.suite_init = pp_suite_init,
	.suite_exit = pp_suite_exit,
	.test_cases = pp_cases,
};

kunit_test_suite(pp_suite);

MODULE_DESCRIPTION("KUnit contract suite for the page_pool API");
MODULE_LICENSE("GPL");
