// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit case for page_pool_create() on random parameters: each draw is
 * checked against the rules in the kernel-doc of struct page_pool_params.
 * A pool the rules allow must work for an alloc, return and destroy; a
 * refused one must fail with the documented error; neither may keep a
 * device reference, a mapping or memory. The seed is printed; set it
 * with page_pool_params_test.seed= to replay a failure.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <net/page_pool.h>

#include "page_pool_test.h"

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the random parameters (0: a fresh one)");

#define PP_PARAMS_DRAWS		400
/* 0 means "pick the default", and the clamp bounds the rest. */
#define PP_PARAMS_DEFAULT_RING	1024
#define PP_PARAMS_MAX_RING	16384

/* A device without a DMA mask, for the draws that name one. */
static struct device *pp_params_plain_dev;

/* One of the values listed, each as likely as the others. */
#define PP_PICK(rnd, type, ...) ({					\
	static const type __v[] = { __VA_ARGS__ };			\
	__v[prandom_u32_state(rnd) % ARRAY_SIZE(__v)];			\
})

/* Mostly values near the rules' edges, some far from them. */
static void pp_params_draw(struct rnd_state *rnd, struct page_pool_params *p)
{
	u32 dev = prandom_u32_state(rnd) % 3;

	memset(p, 0, sizeof(*p));
	p->flags = prandom_u32_state(rnd) & (PP_FLAG_ALL | (PP_FLAG_ALL + 1));
	if (!(prandom_u32_state(rnd) % 16))
		p->flags |= BIT(prandom_u32_state(rnd) % 32);
	p->order = PP_PICK(rnd, u32, 0, 0, 0, 1, 2, 3, MAX_ORDER - 1,
			   MAX_ORDER, MAX_ORDER + 1, U32_MAX);
	p->pool_size = PP_PICK(rnd, u32, 0, 1, 2, 63, 64, 256, 1024, 16384,
			       16385, 1 << 20, U32_MAX);
	p->nid = PP_PICK(rnd, int, NUMA_NO_NODE, NUMA_NO_NODE, 0, 1,
			 MAX_NUMNODES, -2);
	p->dev = dev == 0 ? NULL :
		 dev == 1 ? pp_params_plain_dev : pp_test_dma.dev;
	p->dma_dir = PP_PICK(rnd, int, DMA_BIDIRECTIONAL, DMA_TO_DEVICE,
			     DMA_FROM_DEVICE, DMA_FROM_DEVICE, DMA_NONE, 7);
	p->max_len = PP_PICK(rnd, u32, 0, 1, 1500, PAGE_SIZE - 256, PAGE_SIZE,
			     2 * PAGE_SIZE, U32_MAX);
	p->offset = PP_PICK(rnd, u32, 0, 0, 64, 256, PAGE_SIZE - 1, PAGE_SIZE,
			    U32_MAX);
}

/* What the kernel-doc of struct page_pool_params says create returns. */
static int pp_params_verdict(const struct page_pool_params *p)
{
	bool map = p->flags & PP_FLAG_DMA_MAP;
	bool sync = p->flags & PP_FLAG_DMA_SYNC_DEV;

	if ((p->flags & ~PP_FLAG_ALL) || p->order > MAX_ORDER - 1)
		return -EINVAL;
	if (sync && !map)
		return -EINVAL;
	if (map && (!p->dev || !p->dev->dma_mask))
		return -EINVAL;
	if (map && p->dma_dir != DMA_FROM_DEVICE &&
	    p->dma_dir != DMA_BIDIRECTIONAL)
		return -EINVAL;
	if (sync && (!p->max_len ||
		     (u64)p->offset + p->max_len > (PAGE_SIZE << p->order)))
		return -EINVAL;
	return 0;
}

static unsigned int pp_params_ring_size(const struct page_pool_params *p)
{
	return min(p->pool_size ?: PP_PARAMS_DEFAULT_RING, PP_PARAMS_MAX_RING);
}

/* An accepted pool: one page out and back, then destroy and release.
 * A driver fills its ring at open from process context, and may sleep
 * there: so may the test, which keeps high orders from failing.
 */
static void pp_params_cycle(struct kunit *test, struct page_pool *pool,
			    const struct page_pool_params *p)
{
	struct pp_test_release r;
	unsigned int offset;
	struct page *page;

	KUNIT_EXPECT_EQ(test, pool->ring.capacity, pp_params_ring_size(p));
	pp_test_watch_release(pool, &r);
	if (p->flags & PP_FLAG_PAGE_FRAG)
		page = page_pool_alloc_frag(pool, &offset, 256, GFP_KERNEL);
	else
		page = page_pool_alloc_pages(pool, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, page);
	if (page) {
		KUNIT_EXPECT_TRUE(test, pp_test_owns(pool, page));
		KUNIT_EXPECT_EQ(test, compound_order(page), p->order);
		if (p->flags & PP_FLAG_DMA_MAP)
			KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(page),
					page_to_phys(page));
		page_pool_put_full_page(pool, page, false);
	}
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

static void pp_params_random_create(struct kunit *test)
{
	unsigned int kref_plain, kref_dma, accepted = 0, i;
	struct page_pool_params p;
	struct rnd_state rnd;
	u64 s = seed ?: get_random_u64();

	kunit_info(test, "seed %llu\n", s);
	prandom_seed_state(&rnd, s);
	kref_plain = kref_read(&pp_params_plain_dev->kobj.kref);
	kref_dma = kref_read(&pp_test_dma.dev->kobj.kref);
	for (i = 0; i < PP_PARAMS_DRAWS; i++) {
		struct page_pool *pool;
		int want;

		pp_params_draw(&rnd, &p);
		want = pp_params_verdict(&p);
		pool = page_pool_create(&p);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(pool), want,
				    "draw %u: flags %#x order %u pool_size %u nid %d dev %s dma_dir %d max_len %u offset %u",
				    i, p.flags, p.order, p.pool_size, p.nid,
				    p.dev ? dev_name(p.dev) : "none", p.dma_dir,
				    p.max_len, p.offset);
		if (IS_ERR(pool))
			continue;
		accepted++;
		pp_params_cycle(test, pool, &p);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&pp_params_plain_dev->kobj.kref),
			kref_plain);
	KUNIT_EXPECT_EQ(test, kref_read(&pp_test_dma.dev->kobj.kref),
			kref_dma);
	/* The draws are meant to hit both sides of the rules. */
	KUNIT_EXPECT_GT(test, accepted, PP_PARAMS_DRAWS / 20);
	KUNIT_EXPECT_LT(test, accepted, PP_PARAMS_DRAWS - PP_PARAMS_DRAWS / 20);
	kunit_info(test, "%u of %u draws accepted\n", accepted, i);
}

static int pp_params_suite_init(struct kunit_suite *suite)
{
	int err = pp_test_dma_register("page_pool_params_dma");

	if (err)
		return err;
	pp_params_plain_dev = root_device_register("page_pool_params_plain");
	if (IS_ERR(pp_params_plain_dev)) {
		pp_test_dma_unregister();
		return PTR_ERR(pp_params_plain_dev);
	}
	return 0;
}

static void pp_params_suite_exit(struct kunit_suite *suite)
{
	root_device_unregister(pp_params_plain_dev);
	pp_test_dma_unregister();
}

static struct kunit_case pp_params_cases[] = {
	KUNIT_CASE(pp_params_random_create),
	{}
};

static struct kunit_suite pp_params_suite = {
	.name = "page_pool_params",
	.suite_init = pp_params_suite_init,
	.suite_exit = pp_params_suite_exit,
	.test_cases = pp_params_cases,
};

kunit_test_suite(pp_params_suite);

MODULE_DESCRIPTION("KUnit case for page_pool_create() on random parameters");
MODULE_LICENSE("GPL");
