// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the page_pool under injected faults: page allocations
 * (fail_page_alloc) and DMA maps (the counting test device) failing at a
 * rate while the pool is driven from softirq on one CPU and its pages
 * come back from another, and each allocation of page_pool_create()
 * failing in turn (fail_nth). A failed allocation returns NULL and keeps
 * nothing; once the faults stop the pool serves pages again; and every
 * page comes back, so the pool is freed and the device holds no mapping.
 *
 * The fault attributes are set through the data behind their debugfs
 * files (as a write to those files would), and put back after each case.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/fault-inject.h>
#include <linux/workqueue.h>
#include <net/page_pool.h>

#include "page_pool_test.h"

/* Half of each batch leaves the pool, so a refill from the page
 * allocator (one fault point a bulk) comes every other round: enough of
 * them for a fault at 1%.
 */
#define PP_FAULT_ROUNDS		512
#define PP_FAULT_BATCH		64	/* one NAPI budget */

static struct pp_test_fault pp_fault_page = { .name = "fail_page_alloc" };
static struct pp_test_fault pp_fault_slab = { .name = "failslab" };

/* The pool under test, its pages out, and what happened to them. */
struct pp_fault_run {
	struct page_pool *pool;
	struct page *pages[PP_FAULT_BATCH];
	unsigned int nr;
	unsigned int allocated;
	unsigned int failed;
	struct work_struct put_work;
};

/* Softirq, as the pool's NAPI poll: fill a batch, recycle a quarter
 * straight back, keep a quarter for the other CPU to return and let the
 * rest leave the pool, as skbs that were not marked for recycling.
 */
static void pp_fault_napi(void *arg)
{
	struct pp_fault_run *run = arg;
	struct page *page;
	unsigned int i;

	run->nr = 0;
	for (i = 0; i < PP_FAULT_BATCH; i++) {
		page = page_pool_dev_alloc_pages(run->pool);
		if (!page) {
			run->failed++;
			continue;
		}
		run->allocated++;
		if (i % 4 == 0) {
			page_pool_recycle_direct(run->pool, page);
		} else if (i % 4 == 1) {
			run->pages[run->nr++] = page;
		} else {
			page_pool_release_page(run->pool, page);
			put_page(page);
		}
	}
}

/* The other CPU, as a socket reader freeing skbs: through the ring. */
static void pp_fault_put_fn(struct work_struct *work)
{
	struct pp_fault_run *run = container_of(work, struct pp_fault_run,
						put_work);
	unsigned int i;

	for (i = 0; i < run->nr; i++)
		page_pool_put_full_page(run->pool, run->pages[i], false);
}

/* @rounds NAPI polls, each batch's kept pages returned from @other. */
static void pp_fault_drive(struct pp_fault_run *run, unsigned int rounds,
			   int other)
{
	while (rounds--) {
		pp_test_in_softirq(pp_fault_napi, run);
		queue_work_on(other, system_wq, &run->put_work);
		flush_work(&run->put_work);
	}
}

/* A mapping pool: both kinds of fault can hit it. */
static struct page_pool *pp_fault_pool(struct kunit *test,
				       struct pp_test_release *r)
{
	struct page_pool_params p = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = pp_test_dma.dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool = page_pool_create(&p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(pool),
			       "page_pool_create: %ld", PTR_ERR(pool));
	pp_test_watch_release(pool, r);
	return pool;
}

static const unsigned int pp_fault_rates[] = { 1, 10, 100 };

static void pp_fault_rate_desc(const unsigned int *rate, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u%% of them fail", *rate);
}

KUNIT_ARRAY_PARAM(pp_fault_rates, pp_fault_rates, pp_fault_rate_desc);

/* Drive a pool while a share of @fault fails, then with none failing:
 * faults happen and the pool gets over them, and every page comes back.
 * @injected counts the faults so far.
 */
static void pp_fault_run_case(struct kunit *test,
			      void (*fault)(unsigned int pct),
			      unsigned int (*injected)(void))
{
	unsigned int rate = *(const unsigned int *)test->param_value;
	struct pp_fault_run run = {};
	struct pp_test_release r;
	unsigned int faults;
	bool freed;
	int other;

	other = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second CPU");
	INIT_WORK(&run.put_work, pp_fault_put_fn);
	run.pool = pp_fault_pool(test, &r);

	fault(rate);
	pp_fault_drive(&run, PP_FAULT_ROUNDS, other);
	fault(0);
	faults = injected();
	KUNIT_EXPECT_GT(test, faults, 0U);
	/* At 100% no page ever enters the pool. */
	if (rate == 100) {
		KUNIT_EXPECT_EQ(test, run.allocated, 0U);
		KUNIT_EXPECT_GT(test, run.failed, 0U);
	}

	run.failed = 0;
	pp_fault_drive(&run, 4, other);
	KUNIT_EXPECT_EQ_MSG(test, run.failed, 0U,
			    "allocations still fail after the faults stopped");

	pp_test_destroy(run.pool);
	freed = pp_test_released(&r);
	KUNIT_EXPECT_TRUE_MSG(test, freed,
			      "a page was lost: the pool was never freed");
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	kunit_info(test, "faults injected %u, pages served %u, %u not\n",
		   faults, run.allocated, run.failed);
	kunit_info(test, "unaccounted: %d pools, %d mappings\n", !freed,
		   pp_test_dma_mapped());
}

/* fail_page_alloc counts down 'times' for each fault it injects. */
#define PP_FAULT_TIMES		1000000000

/* Every (100 / @pct)th atomic page allocation fails, in the whole
 * kernel (a softirq has no task to filter on): the NAPI refills are
 * most of them while the case runs.
 */
static void pp_fault_page_alloc(unsigned int pct)
{
	if (pct)
		atomic_set(pp_fault_page.times, PP_FAULT_TIMES);
	WRITE_ONCE(*pp_fault_page.interval, pct ? 100 / pct : 1);
	WRITE_ONCE(*pp_fault_page.probability, pct ? 100 : 0);
}

static unsigned int pp_fault_page_alloc_injected(void)
{
	return PP_FAULT_TIMES - atomic_read(pp_fault_page.times);
}

static void pp_fault_dma_map(unsigned int pct)
{
	WRITE_ONCE(pp_test_dma.fail_pct, pct);
}

static unsigned int pp_fault_dma_map_injected(void)
{
	return atomic_read(&pp_test_dma.map_errors);
}

static void pp_fault_page_alloc_at_rate(struct kunit *test)
{
	pp_fault_run_case(test, pp_fault_page_alloc,
			  pp_fault_page_alloc_injected);
}

static void pp_fault_dma_map_at_rate(struct kunit *test)
{
	pp_fault_run_case(test, pp_fault_dma_map,
			  pp_fault_dma_map_injected);
}

/* Create with the @nth fault point failing. Return: the pool or error,
 * and in *@reached whether create had that many fault points.
 */
static struct page_pool *pp_fault_create_nth(const struct page_pool_params *p,
					     unsigned int nth, bool *reached)
{
	struct page_pool *pool;

	current->fail_nth = nth;
	pool = page_pool_create(p);
	*reached = !current->fail_nth;
	current->fail_nth = 0;
	return pool;
}

static void pp_fault_create_error_paths(struct kunit *test)
{
	struct page_pool_params p = {
		.flags = PP_FLAG_DMA_MAP,
		/* Large enough for the ring to come from the page allocator. */
		.pool_size = 16384,
		.nid = NUMA_NO_NODE,
		.dev = pp_test_dma.dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	unsigned int kref = kref_read(&pp_test_dma.dev->kobj.kref);
	unsigned int nth, refused = 0;
	struct page_pool *pool;
	bool reached = true;

	/* Let GFP_KERNEL allocations of any order fail too. */
	WRITE_ONCE(*pp_fault_page.ignore_gfp_wait, false);
	WRITE_ONCE(*pp_fault_slab.ignore_gfp_wait, false);

	for (nth = 1; reached && nth < 1000; nth++) {
		pool = pp_fault_create_nth(&p, nth, &reached);
		if (IS_ERR(pool)) {
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(pool), -ENOMEM,
					    "fault point %u", nth);
			refused++;
		} else {
			/* A fault that create got around, or none at all. */
			page_pool_destroy(pool);
		}
		KUNIT_EXPECT_EQ_MSG(test,
				    kref_read(&pp_test_dma.dev->kobj.kref),
				    kref, "fault point %u", nth);
	}
	KUNIT_EXPECT_FALSE_MSG(test, reached, "more than %u fault points", nth);
	/* The pool's own allocation at least fails create; the ring's
	 * kvmalloc gets around a failed kmalloc through vmalloc.
	 */
	KUNIT_EXPECT_GE(test, refused, 1U);
	kunit_info(test, "faults injected %u, %u of them refused the pool\n",
		   nth - 2, refused);
}

static int pp_fault_test_init(struct kunit *test)
{
	pp_test_fault_save(&pp_fault_page);
	pp_test_fault_save(&pp_fault_slab);
	/* Order 0 too: the pool's pages are order 0. */
	WRITE_ONCE(*pp_fault_page.min_order, 0);
	pp_test_dma_reset();
	pp_test_pin_cpu();
	return 0;
}

static void pp_fault_test_exit(struct kunit *test)
{
	pp_test_unpin_cpu();
	WRITE_ONCE(pp_test_dma.fail_pct, 0);
	current->fail_nth = 0;
	pp_test_fault_restore(&pp_fault_slab);
	pp_test_fault_restore(&pp_fault_page);
}

static int pp_fault_suite_init(struct kunit_suite *suite)
{
	int err;

	err = pp_test_fault_find(&pp_fault_page);
	if (!err && !pp_fault_page.min_order)
		err = -ENOENT;
	if (!err)
		err = pp_test_fault_find(&pp_fault_slab);
	if (!err)
		err = pp_test_dma_register("page_pool_fault_dma");
	return err;
}

static void pp_fault_suite_exit(struct kunit_suite *suite)
{
	pp_test_dma_unregister();
}

static struct kunit_case pp_fault_cases[] = {
	KUNIT_CASE_PARAM(pp_fault_page_alloc_at_rate, pp_fault_rates_gen_params),
	KUNIT_CASE_PARAM(pp_fault_dma_map_at_rate, pp_fault_rates_gen_params),
	KUNIT_CASE(pp_fault_create_error_paths),
	{}
};

static struct kunit_suite pp_fault_suite = {
	.name = "page_pool_fault",
	.init = pp_fault_test_init,
	.exit = pp_fault_test_exit,
	.suite_init = pp_fault_suite_init,
	.suite_exit = pp_fault_suite_exit,
	.test_cases = pp_fault_cases,
};

kunit_test_suite(pp_fault_suite);

MODULE_DESCRIPTION("KUnit cases for the page_pool under injected faults");
MODULE_LICENSE("GPL");
