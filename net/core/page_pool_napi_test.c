// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases of NAPI-local recycling (page_pool_params.napi): a page
 * freed from an skb in the pool's NAPI poll goes straight back to the
 * alloc cache; freed anywhere else, it takes the return ring. Each case
 * tells the two apart by the cache's fill: a page that comes back while
 * the cache count stays put is in the ring (the pool still owns it).
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/busy_poll.h>
#include <net/page_pool.h>
#include <uapi/linux/bpf.h>

#include "page_pool_test.h"

#define PPN_BURST	64	/* skbs another CPU frees during one poll */
#define PPN_BULK	4	/* pages of one bulk return */

struct ppn_ctx {
	struct kunit *test;
	struct net_device *dev;
	struct pp_test_napi tn;
	struct page_pool *pool;
	struct sk_buff *skb;
	struct page *page;
	void *bulk[PPN_BULK];
	/* Pages the alloc cache gained across the step's free. */
	int cached;
	/* The other CPU's part, in ppn_other_cpu_frees(). */
	struct work_struct remote;
	bool remote_queued;
	bool polling;
	struct completion remote_done;
	struct sk_buff *burst[PPN_BURST];
	int remote_cached;
};

static void ppn_remote_free(struct work_struct *work);

/* A pool of order-0 pages, linked to the case's NAPI when @linked. */
static struct ppn_ctx *ppn_ctx_create(struct kunit *test, bool linked)
{
	struct page_pool_params p = {
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
	};
	struct ppn_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->dev = kunit_kzalloc(test, sizeof(*ctx->dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->dev);
	ctx->test = test;
	init_completion(&ctx->remote_done);
	INIT_WORK(&ctx->remote, ppn_remote_free);
	init_dummy_netdev(ctx->dev);
	pp_test_napi_add(&ctx->tn, ctx->dev);
	napi_enable(&ctx->tn.napi);
	if (linked)
		p.napi = &ctx->tn.napi;
	ctx->pool = page_pool_create(&p);
	if (IS_ERR(ctx->pool)) {
		napi_disable(&ctx->tn.napi);
		netif_napi_del(&ctx->tn.napi);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->pool);
	}
	test->priv = ctx;
	pp_test_pin_cpu();
	return ctx;
}

static void ppn_exit(struct kunit *test)
{
	struct ppn_ctx *ctx = test->priv;

	if (!ctx)
		return;
	if (ctx->remote_queued)
		flush_work(&ctx->remote);
	napi_disable(&ctx->tn.napi);
	netif_napi_del(&ctx->tn.napi);
	page_pool_destroy(ctx->pool);
	pp_test_unpin_cpu();
}

/* An skb built on a fresh page of the pool, as a driver's RX does. */
static void ppn_build_skb(struct ppn_ctx *ctx)
{
	struct kunit *test = ctx->test;

	ctx->page = pp_test_alloc(ctx->pool);
	KUNIT_ASSERT_NOT_NULL(test, ctx->page);
	ctx->skb = build_skb(page_address(ctx->page), PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, ctx->skb);
	skb_reserve(ctx->skb, NET_SKB_PAD);
	skb_put(ctx->skb, 60);
	skb_mark_for_recycle(ctx->skb);
}

/* Free the case's skb and note whether its page went to the cache. */
static void ppn_free_skb(void *arg)
{
	struct ppn_ctx *ctx = arg;
	u32 before = ctx->pool->alloc.count;

	kfree_skb(ctx->skb);
	ctx->skb = NULL;
	ctx->cached = ctx->pool->alloc.count - before;
}

static void ppn_nothing(void *arg)
{
}

/* Schedule the NAPI on this CPU and wait for its poll to run @step. */
static void ppn_run_in_poll(struct ppn_ctx *ctx, void (*step)(void *arg))
{
	KUNIT_ASSERT_TRUE(ctx->test, pp_test_napi_run(&ctx->tn, step, ctx));
}

/* The page came back to the pool: into the cache (@cached), where the
 * next allocation finds it first, or else into the ring.
 */
static void ppn_expect_back(struct ppn_ctx *ctx, int cached)
{
	struct kunit *test = ctx->test;

	KUNIT_EXPECT_EQ(test, ctx->cached, cached);
	KUNIT_EXPECT_TRUE(test, pp_test_owns(ctx->pool, ctx->page));
	if (!cached)
		return;
	ctx->page = pp_test_alloc_same(test, ctx->pool, ctx->page);
	page_pool_put_full_page(ctx->pool, ctx->page, false);
}

static void ppn_skb_freed_in_poll_is_cached(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	ppn_build_skb(ctx);
	ppn_run_in_poll(ctx, ppn_free_skb);
	ppn_expect_back(ctx, 1);
}

/* XDP frames returned in bulk in the poll, as a devmap flush does. */
static void ppn_put_bulk(void *arg)
{
	struct ppn_ctx *ctx = arg;
	u32 before = ctx->pool->alloc.count;

	page_pool_put_page_bulk(ctx->pool, ctx->bulk, PPN_BULK);
	ctx->cached = ctx->pool->alloc.count - before;
}

static void ppn_bulk_in_poll_is_cached(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);
	struct page *pages[PPN_BULK];
	int i, top;

	for (i = 0; i < PPN_BULK; i++) {
		pages[i] = pp_test_alloc(ctx->pool);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		ctx->bulk[i] = page_address(pages[i]) + XDP_PACKET_HEADROOM;
	}
	ppn_run_in_poll(ctx, ppn_put_bulk);
	KUNIT_EXPECT_EQ(test, ctx->cached, PPN_BULK);
	/* On top of the cache, in the order given. */
	top = ctx->pool->alloc.count - PPN_BULK;
	for (i = 0; i < PPN_BULK; i++)
		KUNIT_EXPECT_PTR_EQ(test, ctx->pool->alloc.cache[top + i],
				    pages[i]);
}

static void ppn_unlinked_pool_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, false);

	ppn_build_skb(ctx);
	ppn_run_in_poll(ctx, ppn_free_skb);
	ppn_expect_back(ctx, 0);
}

/* The rule itself, with the NAPI marked as on this CPU's poll list
 * (the case is pinned): a free there is direct with BH off, and takes
 * the ring with BH on, where the poll may preempt it.
 */
static void ppn_listed_here_needs_bh_off(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	WRITE_ONCE(ctx->tn.napi.list_owner, raw_smp_processor_id());
	ppn_build_skb(ctx);
	ppn_free_skb(ctx);
	KUNIT_EXPECT_EQ(test, ctx->cached, 0);

	ppn_build_skb(ctx);
	local_bh_disable();
	ppn_free_skb(ctx);
	local_bh_enable();
	WRITE_ONCE(ctx->tn.napi.list_owner, -1);
	ppn_expect_back(ctx, 1);
}

/* After a poll on this CPU: in process context with BH on and off, and
 * in a softirq that is not the NAPI's.
 */
static void ppn_same_cpu_outside_poll_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	ppn_run_in_poll(ctx, ppn_nothing);

	ppn_build_skb(ctx);
	ppn_free_skb(ctx);
	ppn_expect_back(ctx, 0);

	ppn_build_skb(ctx);
	local_bh_disable();
	ppn_free_skb(ctx);
	local_bh_enable();
	ppn_expect_back(ctx, 0);

	ppn_build_skb(ctx);
	pp_test_in_softirq(ppn_free_skb, ctx);
	ppn_expect_back(ctx, 0);
}

/* netpoll runs the poll with IRQs off, where the owner may have been
 * interrupted halfway through its own use of the cache.
 */
static void ppn_put_with_irqs_off(void *arg)
{
	struct ppn_ctx *ctx = arg;
	u32 before = ctx->pool->alloc.count;
	unsigned long flags;

	local_irq_save(flags);
	page_pool_put_full_page(ctx->pool, ctx->page, false);
	local_irq_restore(flags);
	ctx->cached = ctx->pool->alloc.count - before;
}

static void ppn_irqs_off_in_poll_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	ctx->page = pp_test_alloc(ctx->pool);
	KUNIT_ASSERT_NOT_NULL(test, ctx->page);
	ppn_run_in_poll(ctx, ppn_put_with_irqs_off);
	ppn_expect_back(ctx, 0);
}

static bool ppn_polled(void *arg, unsigned long start)
{
	struct ppn_ctx *ctx = arg;

	return completion_done(&ctx->tn.done) ||
	       time_after(jiffies, start + 5 * HZ);
}

/* A busy poll owns the NAPI without putting it on a poll list. */
static void ppn_busy_poll_takes_ring(struct kunit *test)
{
#ifdef CONFIG_NET_RX_BUSY_POLL
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	KUNIT_ASSERT_GE(test, ctx->tn.napi.napi_id, MIN_NAPI_ID);
	ppn_build_skb(ctx);
	pp_test_napi_arm(&ctx->tn, ppn_free_skb, ctx);
	napi_busy_loop(ctx->tn.napi.napi_id, ppn_polled, ctx, false, 8);
	KUNIT_ASSERT_TRUE(test, completion_done(&ctx->tn.done));
	ppn_expect_back(ctx, 0);
#else
	kunit_skip(test, "no busy polling in this kernel");
#endif
}

/* A threaded NAPI polls from its kthread, never from a poll list. */
static void ppn_threaded_napi_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	KUNIT_ASSERT_EQ(test, dev_set_threaded(ctx->dev, true), 0);
	ppn_build_skb(ctx);
	ppn_run_in_poll(ctx, ppn_free_skb);
	ppn_expect_back(ctx, 0);
}

static void ppn_create_rejects_unlisted_napi(struct kunit *test)
{
	struct napi_struct *napi = kunit_kzalloc(test, sizeof(*napi),
						 GFP_KERNEL);
	struct page_pool_params p = {
		.nid = NUMA_NO_NODE,
		.napi = napi,
	};

	KUNIT_ASSERT_NOT_NULL(test, napi);
	KUNIT_EXPECT_EQ(test, PTR_ERR(page_pool_create(&p)), -EINVAL);
}

static void ppn_disabled_napi_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	ppn_run_in_poll(ctx, ppn_nothing);
	napi_disable(&ctx->tn.napi);
	ppn_build_skb(ctx);
	pp_test_in_softirq(ppn_free_skb, ctx);
	napi_enable(&ctx->tn.napi);
	ppn_expect_back(ctx, 0);
}

static void ppn_disable_direct_recycling_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);

	page_pool_disable_direct_recycling(ctx->pool);
	KUNIT_EXPECT_NULL(test, ctx->pool->p.napi);
	ppn_build_skb(ctx);
	ppn_run_in_poll(ctx, ppn_free_skb);
	ppn_expect_back(ctx, 0);
}

static void ppn_free_skb_only(void *arg)
{
	struct ppn_ctx *ctx = arg;

	kfree_skb(ctx->skb);
	ctx->skb = NULL;
}

/* The NAPI polls on after its pool is destroyed (a driver that gave it
 * another pool): the last page must leave the pool, which then goes.
 */
static void ppn_destroyed_pool_is_not_cached(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);
	struct pp_test_release r;

	ppn_build_skb(ctx);
	pp_test_watch_release(ctx->pool, &r);
	pp_test_destroy(ctx->pool);
	ppn_run_in_poll(ctx, ppn_free_skb_only);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	/* ppn_exit() must not destroy it again. */
	napi_disable(&ctx->tn.napi);
	netif_napi_del(&ctx->tn.napi);
	pp_test_unpin_cpu();
	test->priv = NULL;
}

/* Another CPU frees skbs in softirq context while this one polls. */
static void ppn_remote_free(struct work_struct *work)
{
	struct ppn_ctx *ctx = container_of(work, struct ppn_ctx, remote);
	unsigned long end = jiffies + 5 * HZ;
	int i;

	/* Free while the poll runs, not before it. */
	while (!smp_load_acquire(&ctx->polling) && time_before(jiffies, end))
		cpu_relax();
	for (i = 0; i < PPN_BURST; i++) {
		local_bh_disable();
		kfree_skb(ctx->burst[i]);
		local_bh_enable();
	}
	complete(&ctx->remote_done);
}

/* In the poll: keep the alloc cache busy until the other CPU is done. */
static void ppn_poll_during_remote_frees(void *arg)
{
	struct ppn_ctx *ctx = arg;
	unsigned long end = jiffies + 5 * HZ;
	struct page *page;

	/* Pairs with the acquire in ppn_remote_free(). */
	smp_store_release(&ctx->polling, true);
	while (!completion_done(&ctx->remote_done) &&
	       time_before(jiffies, end)) {
		page = page_pool_alloc_pages(ctx->pool, GFP_ATOMIC);
		if (page)
			page_pool_recycle_direct(ctx->pool, page);
		cpu_relax();
	}
}

static u64 ppn_ring_stores(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_STATS
	return pp_test_stats(pool).recycle_stats.ring;
#else
	return 0;
#endif
}

static int ppn_other_cpu(void)
{
	int cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());

	return cpu < nr_cpu_ids ? cpu : -1;
}

static void ppn_other_cpu_takes_ring(struct kunit *test)
{
	struct ppn_ctx *ctx = ppn_ctx_create(test, true);
	int i, cpu = ppn_other_cpu();
	u64 ring_before;

	if (cpu < 0)
		kunit_skip(test, "needs two CPUs");
	if (!IS_ENABLED(CONFIG_PAGE_POOL_STATS))
		kunit_skip(test, "needs CONFIG_PAGE_POOL_STATS");
	for (i = 0; i < PPN_BURST; i++) {
		ppn_build_skb(ctx);
		ctx->burst[i] = ctx->skb;
	}
	ctx->skb = NULL;
	ring_before = ppn_ring_stores(ctx->pool);
	ctx->remote_queued = true;
	queue_work_on(cpu, system_highpri_wq, &ctx->remote);
	ppn_run_in_poll(ctx, ppn_poll_during_remote_frees);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ctx->remote_done,
							    5 * HZ));
	KUNIT_EXPECT_EQ(test, ppn_ring_stores(ctx->pool) - ring_before,
			(u64)PPN_BURST);
}

static struct kunit_case ppn_cases[] = {
	KUNIT_CASE(ppn_skb_freed_in_poll_is_cached),
	KUNIT_CASE(ppn_bulk_in_poll_is_cached),
	KUNIT_CASE(ppn_unlinked_pool_takes_ring),
	KUNIT_CASE(ppn_listed_here_needs_bh_off),
	KUNIT_CASE(ppn_same_cpu_outside_poll_takes_ring),
	KUNIT_CASE(ppn_irqs_off_in_poll_takes_ring),
	KUNIT_CASE(ppn_busy_poll_takes_ring),
	KUNIT_CASE(ppn_threaded_napi_takes_ring),
	KUNIT_CASE(ppn_disabled_napi_takes_ring),
	KUNIT_CASE(ppn_disable_direct_recycling_takes_ring),
	KUNIT_CASE(ppn_destroyed_pool_is_not_cached),
	KUNIT_CASE(ppn_other_cpu_takes_ring),
	KUNIT_CASE(ppn_create_rejects_unlisted_napi),
	{}
};

static struct kunit_suite ppn_suite = {
	.name = "page_pool_napi",
	.exit = ppn_exit,
	.test_cases = ppn_cases,
};

kunit_test_suite(ppn_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit cases of page_pool's NAPI-local recycling");
