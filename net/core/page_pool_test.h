/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the page_pool KUnit suites: running a step in real
 * softirq context, observing when a pool is finally released, and
 * reporting the known defects of the base tree's pool as expected
 * failures.
 */
#ifndef _NET_CORE_PAGE_POOL_TEST_H
#define _NET_CORE_PAGE_POOL_TEST_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/interrupt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <net/page_pool.h>
#include <net/xdp.h>

/* How long a released pool may take to go away: the base pool retries
 * its deferred release once a second.
 */
#define PP_TEST_RELEASE_TIMEOUT	(5 * HZ)

/**
 * pp_test_xfail_base() - report a known defect of the base pool
 * @test: the running case
 * @ok: whether the pool behaved as the contract says
 * @what: the behaviour checked, for the log
 *
 * On the base pool (CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL) a broken
 * behaviour skips the case with an "XFAIL" reason, and a correct one
 * fails it, so a fix upstream is noticed. Elsewhere @ok must hold.
 *
 * Return: true if the case may go on checking the behaviour.
 */
static inline bool pp_test_xfail_base(struct kunit *test, bool ok,
				      const char *what)
{
	if (!IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL)) {
		KUNIT_EXPECT_TRUE_MSG(test, ok, "%s", what);
		return ok;
	}
	if (ok)
		KUNIT_FAIL(test, "XPASS on the base pool: %s", what);
	else
		kunit_mark_skipped(test, "XFAIL on the base pool: %s", what);
	return false;
}

/**
 * pp_test_pin_cpu() - keep the running case on the CPU it is on
 *
 * A NAPI poll runs on one CPU, and a pool with NUMA_NO_NODE recycles
 * for the node of the CPU it runs on. A case that migrated between
 * nodes halfway would see its pages waived, so each case stays put.
 */
static inline void pp_test_pin_cpu(void)
{
	set_cpus_allowed_ptr(current, cpumask_of(raw_smp_processor_id()));
}

/**
 * pp_test_unpin_cpu() - let the running case move again
 */
static inline void pp_test_unpin_cpu(void)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/**
 * pp_test_owns() - whether @pool holds @page as one of its own
 * @pool: the pool
 * @page: the page
 *
 * Return: true if the page carries the pool's signature and pointer.
 */
static inline bool pp_test_owns(struct page_pool *pool, struct page *page)
{
	return (page->pp_magic & ~0x3UL) == PP_SIGNATURE && page->pp == pool;
}

#ifdef CONFIG_PAGE_POOL_STATS
/**
 * pp_test_stats() - a pool's counters, summed afresh
 * @pool: the pool
 *
 * Return: what page_pool_get_stats() adds to a zeroed struct.
 */
static inline struct page_pool_stats pp_test_stats(struct page_pool *pool)
{
	struct page_pool_stats s = {};

	page_pool_get_stats(pool, &s);
	return s;
}
#endif

/* A step to run in softirq context, as a NAPI poll would. */
struct pp_test_softirq {
	struct tasklet_struct tasklet;
	struct completion done;
	void (*fn)(void *arg);
	void *arg;
};

static inline void pp_test_softirq_fn(struct tasklet_struct *t)
{
	struct pp_test_softirq *s = from_tasklet(s, t, tasklet);

	s->fn(s->arg);
	complete(&s->done);
}

/**
 * pp_test_in_softirq() - run @fn(@arg) in a tasklet and wait for it
 * @fn: the step; it must not sleep nor use KUNIT_ASSERT_*
 * @arg: its argument
 *
 * Direct recycling into the alloc cache is only allowed from the pool's
 * own softirq context, so the cases that exercise it run there.
 */
static inline void pp_test_in_softirq(void (*fn)(void *arg), void *arg)
{
	struct pp_test_softirq s = { .fn = fn, .arg = arg };

	init_completion(&s.done);
	tasklet_setup(&s.tasklet, pp_test_softirq_fn);
	tasklet_schedule(&s.tasklet);
	wait_for_completion(&s.done);
	tasklet_kill(&s.tasklet);
}

/* An allocation, run in softirq context as the pool's NAPI would. */
struct pp_test_alloc_call {
	struct page_pool *pool;
	struct page *page;
};

static inline void pp_test_alloc_fn(void *arg)
{
	struct pp_test_alloc_call *c = arg;

	c->page = page_pool_dev_alloc_pages(c->pool);
}

/**
 * pp_test_alloc() - allocate a page from @pool in softirq context
 * @pool: the pool
 *
 * Return: the page, or NULL.
 */
static inline struct page *pp_test_alloc(struct page_pool *pool)
{
	struct pp_test_alloc_call c = { .pool = pool };

	pp_test_in_softirq(pp_test_alloc_fn, &c);
	return c.page;
}

/**
 * pp_test_alloc_same() - allocate, expecting a given page back
 * @test: the running case
 * @pool: the pool
 * @want: the page the pool should hand out next
 *
 * Return: the page that came, which the caller then owns, so that a
 * failed expectation never makes the case return @want twice.
 */
static inline struct page *pp_test_alloc_same(struct kunit *test,
					      struct page_pool *pool,
					      struct page *want)
{
	struct page *got = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_PTR_EQ(test, got, want);
	return got;
}

/* Tells when a pool has really been freed, through the disconnect
 * callback that the XDP memory model installs. Cases run one at a time,
 * so one watcher per suite is enough.
 */
struct pp_test_release {
	struct completion released;
	struct xdp_mem_info mem;
};

static struct pp_test_release *pp_test_watched;

static inline void pp_test_disconnect(void *allocator)
{
	complete(&pp_test_watched->released);
}

/**
 * pp_test_watch_release() - get told when @pool is freed
 * @pool: the pool
 * @r: the watcher; it takes a user reference on @pool, which
 *     pp_test_destroy() drops
 */
static inline void pp_test_watch_release(struct page_pool *pool,
					 struct pp_test_release *r)
{
	init_completion(&r->released);
	r->mem.type = MEM_TYPE_PAGE_POOL;
	r->mem.id = 0;
	pp_test_watched = r;
	page_pool_use_xdp_mem(pool, pp_test_disconnect, &r->mem);
}

/**
 * pp_test_destroy() - drop both user references of a watched pool
 * @pool: the pool
 */
static inline void pp_test_destroy(struct page_pool *pool)
{
	page_pool_destroy(pool);
	page_pool_destroy(pool);
}

/**
 * pp_test_released() - wait until a watched pool is freed
 * @r: the watcher
 *
 * Return: true if the pool was freed within PP_TEST_RELEASE_TIMEOUT.
 */
static inline bool pp_test_released(struct pp_test_release *r)
{
	return wait_for_completion_timeout(&r->released,
					   PP_TEST_RELEASE_TIMEOUT);
}

/* A device whose DMA "mapping" is the physical address and which only
 * counts and records, so pages of any order map and every DMA call the
 * pool makes is visible; its maps fail at a rate on command. Where the
 * kernel has no DMA, the device gets no DMA mask.
 */
struct pp_test_dma {
	struct device *dev;
	atomic_t maps;
	atomic_t unmaps;
	atomic_t map_errors;
	atomic_t syncs;
	/* Calls made once @gone is set: the device was unregistered. */
	atomic_t calls_after_gone;
	bool gone;
	unsigned int fail_pct;	/* maps refused, in percent */
	/* The last sync for the device. */
	dma_addr_t sync_addr;
	size_t sync_size;
	/* Called on each unmap, before it is counted. */
	void (*unmap_hook)(dma_addr_t addr);
};

static struct pp_test_dma pp_test_dma;

static inline void pp_test_dma_note_call(void)
{
	if (READ_ONCE(pp_test_dma.gone))
		atomic_inc(&pp_test_dma.calls_after_gone);
}

static inline dma_addr_t pp_test_dma_map(struct device *dev,
					 struct page *page,
					 unsigned long offset, size_t size,
					 enum dma_data_direction dir,
					 unsigned long attrs)
{
	pp_test_dma_note_call();
	if (get_random_u32_below(100) < READ_ONCE(pp_test_dma.fail_pct)) {
		atomic_inc(&pp_test_dma.map_errors);
		return DMA_MAPPING_ERROR;
	}
	atomic_inc(&pp_test_dma.maps);
	return page_to_phys(page) + offset;
}

static inline void pp_test_dma_unmap(struct device *dev, dma_addr_t addr,
				     size_t size, enum dma_data_direction dir,
				     unsigned long attrs)
{
	pp_test_dma_note_call();
	if (pp_test_dma.unmap_hook)
		pp_test_dma.unmap_hook(addr);
	atomic_inc(&pp_test_dma.unmaps);
}

static inline void pp_test_dma_sync_for_device(struct device *dev,
					       dma_addr_t addr, size_t size,
					       enum dma_data_direction dir)
{
	pp_test_dma_note_call();
	atomic_inc(&pp_test_dma.syncs);
	pp_test_dma.sync_addr = addr;
	pp_test_dma.sync_size = size;
}

static inline void pp_test_dma_sync_for_cpu(struct device *dev,
					    dma_addr_t addr, size_t size,
					    enum dma_data_direction dir)
{
	pp_test_dma_note_call();
}

static const struct dma_map_ops pp_test_dma_ops = {
	.map_page = pp_test_dma_map,
	.unmap_page = pp_test_dma_unmap,
	.sync_single_for_device = pp_test_dma_sync_for_device,
	.sync_single_for_cpu = pp_test_dma_sync_for_cpu,
};

/**
 * pp_test_dma_counting() - make @dev map through the counting device's ops
 * @dev: a device without a DMA mask yet
 *
 * Return: @dev, or NULL where the kernel has no DMA.
 */
static inline struct device *pp_test_dma_counting(struct device *dev)
{
	if (!IS_ENABLED(CONFIG_DMA_OPS))
		return NULL;
	dev->dma_mask = &dev->coherent_dma_mask;
	dev->coherent_dma_mask = DMA_BIT_MASK(64);
	set_dma_ops(dev, &pp_test_dma_ops);
	return dev;
}

/**
 * pp_test_dma_reset() - forget what the counting device has seen
 */
static inline void pp_test_dma_reset(void)
{
	struct device *dev = pp_test_dma.dev;

	memset(&pp_test_dma, 0, sizeof(pp_test_dma));
	pp_test_dma.dev = dev;
}

/**
 * pp_test_dma_register() - create the suite's counting DMA device
 * @name: its name
 *
 * Return: 0, or the error of root_device_register().
 */
static inline int pp_test_dma_register(const char *name)
{
	struct device *dev = root_device_register(name);

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pp_test_dma.dev = dev;
	pp_test_dma_reset();
	pp_test_dma_counting(dev);
	return 0;
}

/**
 * pp_test_dma_unregister() - remove the counting DMA device
 */
static inline void pp_test_dma_unregister(void)
{
	root_device_unregister(pp_test_dma.dev);
}

/**
 * pp_test_dma_mapped() - mappings the counting device holds now
 *
 * Return: maps minus unmaps.
 */
static inline int pp_test_dma_mapped(void)
{
	return atomic_read(&pp_test_dma.maps) -
	       atomic_read(&pp_test_dma.unmaps);
}

#endif /* _NET_CORE_PAGE_POOL_TEST_H */
