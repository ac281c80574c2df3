// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the page_pool's DMA contract: map once, keep the
 * mapping while the page cycles, sync for the device over the right
 * range, unmap when the page leaves, and never touch the device after
 * the pool is destroyed and the device is gone.
 *
 * Most cases run on a test device whose dma_map_ops only count and
 * record, so every DMA call the pool makes is visible. One case binds to
 * a real PCI device and uses the real (swiotlb) DMA path, so DMA-API
 * debug checks for leaked mappings at unbind. One counts, with kprobes,
 * the calls the pool makes for devices on the direct path, with swiotlb
 * bouncing and without.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/kprobes.h>
#include <linux/pci.h>
#include <linux/skbuff.h>
#include <linux/swiotlb.h>
#include <net/page_pool.h>

#include "page_pool_test.h"

static struct device *pp_dma_counting_dev(struct kunit *test,
					  const char *name)
{
	struct device *dev = root_device_register(name);

	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	return pp_test_dma_counting(dev);
}

struct pp_dma_call {
	struct page_pool *pool;
	struct page *page;
	int dirty;
};

static void pp_dma_call_put(void *arg)
{
	struct pp_dma_call *c = arg;

	page_pool_put_page(c->pool, c->page, c->dirty, true);
}

/* Recycle into the cache, telling the pool how much the CPU dirtied. */
static void pp_dma_put(struct page_pool *pool, struct page *page, int dirty)
{
	struct pp_dma_call c = { .pool = pool, .page = page, .dirty = dirty };

	pp_test_in_softirq(pp_dma_call_put, &c);
}

/* The cases' mapping pool: the device writes max_len 1024 from 64. */
static struct page_pool_params pp_dma_params(struct device *dev,
					     unsigned int flags,
					     unsigned int pool_size)
{
	return (struct page_pool_params) {
		.flags = PP_FLAG_DMA_MAP | flags,
		.pool_size = pool_size,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.offset = 64,
		.max_len = 1024,
	};
}

static struct page_pool *pp_dma_pool_of(struct kunit *test,
					const struct page_pool_params *p,
					struct pp_test_release *r)
{
	struct page_pool *pool = page_pool_create(p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(pool),
			       "page_pool_create: %ld", PTR_ERR(pool));
	pp_test_watch_release(pool, r);
	return pool;
}

static struct page_pool *pp_dma_pool_sized(struct kunit *test,
					   struct device *dev,
					   unsigned int flags,
					   unsigned int pool_size,
					   struct pp_test_release *r)
{
	struct page_pool_params p = pp_dma_params(dev, flags, pool_size);

	return pp_dma_pool_of(test, &p, r);
}

static struct page_pool *pp_dma_pool(struct kunit *test, struct device *dev,
				     unsigned int flags,
				     struct pp_test_release *r)
{
	return pp_dma_pool_sized(test, dev, flags, 64, r);
}

static void pp_dma_maps_once_and_keeps_address(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	struct page *a = pp_test_alloc(pool);
	dma_addr_t addr;
	int maps;

	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);
	KUNIT_EXPECT_EQ(test, addr, page_to_phys(a));
	maps = atomic_read(&pp_test_dma.maps);
	KUNIT_EXPECT_GE(test, maps, 1);

	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a), addr);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.maps), maps);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), 0);

	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	/* Every page the pool mapped was unmapped when it left. */
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

static void pp_dma_sync_covers_max_len_from_offset(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;
	dma_addr_t addr;

	pool = pp_dma_pool(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);
	/* A fresh page is synced over the whole max_len. */
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)1024);

	/* -1 means the CPU may have written anywhere in max_len. */
	pp_test_dma.sync_size = 0;
	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)1024);

	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

static void pp_dma_sync_only_dirty_length(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;
	dma_addr_t addr;

	pool = pp_dma_pool(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);

	pp_dma_put(pool, a, 100);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)100);

	/* More than max_len is clamped: the device only writes max_len. */
	pp_dma_put(pool, a, 4000);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)1024);

	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
/* The driver's sync before it reads (6.1's pool has no helper for it):
 * from the pool's offset, in the pool's direction, exactly the length
 * asked, and no sync for the device.
 */
static void pp_dma_sync_for_cpu_from_pool_offset(struct kunit *test)
{
	static const enum dma_data_direction dirs[] = {
		DMA_FROM_DEVICE, DMA_BIDIRECTIONAL
	};
	struct page_pool_params p = pp_dma_params(pp_test_dma.dev, 0, 64);
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;
	int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		p.dma_dir = dirs[i];
		pool = pp_dma_pool_of(test, &p, &r);
		a = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, a);
		atomic_set(&pp_test_dma.cpu_syncs, 0);
		atomic_set(&pp_test_dma.syncs, 0);

		page_pool_dma_sync_for_cpu(pool, a, 10, 300);
		KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.cpu_syncs), 1);
		KUNIT_EXPECT_EQ(test, pp_test_dma.cpu_sync_addr,
				page_to_phys(a) + 64 + 10);
		KUNIT_EXPECT_EQ(test, pp_test_dma.cpu_sync_size, (size_t)300);
		KUNIT_EXPECT_EQ(test, pp_test_dma.cpu_sync_dir, dirs[i]);
		KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), 0);

		pp_dma_put(pool, a, -1);
		pp_test_destroy(pool);
		KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	}
}
#endif

static void pp_dma_no_sync_without_sync_flag(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), 0);
	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

static void pp_dma_release_page_unmaps(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	struct page *a = pp_test_alloc(pool);
	int unmaps = atomic_read(&pp_test_dma.unmaps);

	KUNIT_ASSERT_NOT_NULL(test, a);
	page_pool_release_page(pool, a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), unmaps + 1);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a), (dma_addr_t)0);
	put_page(a);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* The base pool keeps in-flight pages mapped after destroy and unmaps
 * them when they come back, by which time the driver may have unbound
 * and its device (or IOMMU domain) may be gone.
 */
static void pp_dma_destroy_unmaps_in_flight_pages(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_test_destroy(pool);
	if (pp_test_xfail_base(test, pp_test_dma_mapped() == 0,
			       "destroy unmaps the pages still in flight")) {
		WRITE_ONCE(pp_test_dma.gone, true);
		KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a),
				(dma_addr_t)0);
	}
	page_pool_put_full_page(pool, a, false);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.calls_after_gone), 0);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* What a driver unbind does: destroy the pool, let the device go, and
 * only then do the skbs it handed to the stack get freed.
 */
static void pp_dma_free_skb_after_device_is_gone(struct kunit *test)
{
	struct device *dev = pp_dma_counting_dev(test, "page_pool_dma_gone");
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, dev, PP_FLAG_DMA_SYNC_DEV,
					     &r);
	struct page *a = pp_test_alloc(pool);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, a);
	skb = build_skb(page_address(a), PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_mark_for_recycle(skb);

	pp_test_destroy(pool);
	if (!pp_test_xfail_base(test, pp_test_dma_mapped() == 0,
				"no mapping survives destroy")) {
		kfree_skb(skb);
		KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
		root_device_unregister(dev);
		return;
	}
	WRITE_ONCE(pp_test_dma.gone, true);
	root_device_unregister(dev);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.calls_after_gone), 0);
}

/* ---- returns that must free the page, fragments at destroy ---- */

/* A page given back from hard IRQ context: an hrtimer in hard mode. */
struct pp_dma_irq_put {
	struct hrtimer timer;
	struct completion done;
	struct page_pool *pool;
	struct page *page;
	bool in_hardirq;
};

static enum hrtimer_restart pp_dma_irq_put_fn(struct hrtimer *t)
{
	struct pp_dma_irq_put *q = container_of(t, struct pp_dma_irq_put,
						timer);

	q->in_hardirq = in_hardirq();
	page_pool_put_full_page(q->pool, q->page, false);
	complete(&q->done);
	return HRTIMER_NORESTART;
}

/* Give @page back to @pool from hard IRQ context. If the timer never
 * fires, the case fails and @page is given back from here instead, so
 * that it is never lost nor returned twice.
 *
 * Return: true if the page was given back from hard IRQ context.
 */
static bool pp_dma_put_in_hardirq(struct kunit *test, struct page_pool *pool,
				  struct page *page)
{
	struct pp_dma_irq_put q = { .pool = pool, .page = page };
	bool never_fired;

	init_completion(&q.done);
	hrtimer_init_on_stack(&q.timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_HARD);
	q.timer.function = pp_dma_irq_put_fn;
	hrtimer_start(&q.timer, ns_to_ktime(NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	wait_for_completion_timeout(&q.done, 5 * HZ);
	/* Either the timer is still queued, or this waits out a callback
	 * that may still be on its way out of complete().
	 */
	never_fired = hrtimer_cancel(&q.timer);
	destroy_hrtimer_on_stack(&q.timer);
	if (never_fired) {
		KUNIT_FAIL(test, "the hard IRQ timer did not fire");
		page_pool_put_full_page(pool, page, false);
		return false;
	}
	KUNIT_EXPECT_TRUE(test, q.in_hardirq);
	return true;
}

/* The base pool's ring takes a BH-safe lock only: lockdep and
 * local_bh_enable() would report a store from hard IRQ context.
 */
static void pp_dma_skip_ring_from_hardirq_on_base(struct kunit *test)
{
	if (IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL))
		kunit_skip(test,
			   "XFAIL on the base pool: no ring store from hard IRQ");
}

/* A hard IRQ return that finds the ring full frees the page: unmapped,
 * back to the page allocator, counted as ring_full.
 */
static void pp_dma_hardirq_return_to_full_ring_frees(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a, *b;
	int unmaps;

	pp_dma_skip_ring_from_hardirq_on_base(test);
	pool = pp_dma_pool_sized(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV, 1,
				 &r);
	a = pp_test_alloc(pool);
	b = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	/* The ring holds one page: @a fills it. */
	page_pool_put_full_page(pool, a, false);
	unmaps = atomic_read(&pp_test_dma.unmaps);
	if (pp_dma_put_in_hardirq(test, pool, b)) {
		KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), unmaps + 1);
#ifdef CONFIG_PAGE_POOL_STATS
		{
			struct page_pool_stats s = pp_test_stats(pool);

			KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 1ULL);
			KUNIT_EXPECT_EQ(test, s.recycle_stats.ring_full, 1ULL);
			KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt,
					0ULL);
		}
#endif
	}
	/* Only @a can come back: the pool is freed at once. */
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* How long the returner of a destroyed pool's last page may take to
 * get the pool freed. The release work retries once a second: it is
 * the returner's kick that must free the pool, and a quarter of that
 * interval is a wide margin for a work item that is queued at once.
 */
#define PP_DMA_KICK_TIMEOUT	(HZ / 4)

/* A hard IRQ return after destroy finds the ring closed: the page is
 * freed, not stored, with no DMA call (destroy unmapped it), and as
 * the last page it gets the pool freed at once.
 */
static void pp_dma_hardirq_return_after_destroy_frees(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;

	pp_dma_skip_ring_from_hardirq_on_base(test);
	pool = pp_dma_pool(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_test_destroy(pool);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	KUNIT_EXPECT_FALSE(test, completion_done(&r.released));
	WRITE_ONCE(pp_test_dma.gone, true);

	pp_dma_put_in_hardirq(test, pool, a);
	if (!wait_for_completion_timeout(&r.released, PP_DMA_KICK_TIMEOUT)) {
		KUNIT_FAIL(test, "pool not freed within %u ms of its last page",
			   jiffies_to_msecs(PP_DMA_KICK_TIMEOUT));
		/* Its disconnect callback must not outlive the case. */
		KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.calls_after_gone), 0);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* A hard IRQ return of a page someone else still holds: the pool lets
 * go of it (unmapped, no longer the pool's, counted as released_refcnt)
 * and drops only its own reference.
 */
static void pp_dma_hardirq_return_of_held_page_frees(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	struct page *a = pp_test_alloc(pool);
	int unmaps;

	KUNIT_ASSERT_NOT_NULL(test, a);
	get_page(a);
	unmaps = atomic_read(&pp_test_dma.unmaps);
	if (pp_dma_put_in_hardirq(test, pool, a)) {
		KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps), unmaps + 1);
		KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a),
				(dma_addr_t)0);
		KUNIT_EXPECT_FALSE(test, pp_test_owns(pool, a));
		KUNIT_EXPECT_EQ(test, page_ref_count(a), 1);
#ifdef CONFIG_PAGE_POOL_STATS
		{
			struct page_pool_stats s = pp_test_stats(pool);

			KUNIT_EXPECT_EQ(test, s.recycle_stats.released_refcnt,
					1ULL);
			KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 0ULL);
		}
#endif
	}
	put_page(a);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

struct pp_dma_frag_call {
	struct page_pool *pool;
	struct page *page;
	unsigned int offset;
	unsigned int size;
};

static void pp_dma_call_alloc_frag(void *arg)
{
	struct pp_dma_frag_call *c = arg;

	c->page = page_pool_dev_alloc_frag(c->pool, &c->offset, c->size);
}

static struct page *pp_dma_alloc_frag_at(struct page_pool *pool,
					 unsigned int size, unsigned int *offset)
{
	struct pp_dma_frag_call c = { .pool = pool, .size = size };

	pp_test_in_softirq(pp_dma_call_alloc_frag, &c);
	*offset = c.offset;
	return c.page;
}

static struct page *pp_dma_alloc_frag(struct page_pool *pool,
				      unsigned int size)
{
	unsigned int offset;

	return pp_dma_alloc_frag_at(pool, size, &offset);
}

/* Destroy while fragments are out, of a page the pool has moved on
 * from and of the page it is still cutting: both are unmapped by
 * destroy, each is freed when its last fragment comes back, and the
 * pool goes with the last one.
 */
static void pp_dma_destroy_with_fragments_out(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *f[3];
	int i;

	pool = pp_dma_pool(test, pp_test_dma.dev, PP_TEST_FRAG_FLAGS, &r);
	for (i = 0; i < 3; i++) {
		f[i] = pp_dma_alloc_frag(pool, PAGE_SIZE / 2);
		KUNIT_ASSERT_NOT_NULL(test, f[i]);
	}
	/* Two halves of one page, then the start of the next one. */
	KUNIT_EXPECT_PTR_EQ(test, f[1], f[0]);
	KUNIT_EXPECT_PTR_NE(test, f[2], f[0]);

	pp_test_destroy(pool);
	if (pp_test_xfail_base(test, pp_test_dma_mapped() == 0,
			       "destroy unmaps pages whose fragments are out")) {
		WRITE_ONCE(pp_test_dma.gone, true);
		KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(f[0]),
				(dma_addr_t)0);
		KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(f[2]),
				(dma_addr_t)0);
	}
	/* The last fragment of the page being cut, then one of the other. */
	page_pool_put_full_page(pool, f[2], false);
	page_pool_put_full_page(pool, f[0], false);
	KUNIT_EXPECT_FALSE(test, completion_done(&r.released));
	page_pool_put_full_page(pool, f[1], false);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.calls_after_gone), 0);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* ---- the real DMA path, checked by DMA-API debug ---- */

/* QEMU's "pci-testdev" gives a real PCI device to bind to. DMA-API debug
 * watches the PCI bus: when a driver unbinds with mappings left, it
 * reports them.
 */
#define PP_DMA_TESTDEV_VENDOR	0x1b36
#define PP_DMA_TESTDEV_DEVICE	0x0005

/* A returner on another CPU, let go by destroy's unmap of its page. */
struct pp_dma_racer {
	struct task_struct *task;
	struct page_pool *pool;
	struct page *page;
	struct completion started;
	bool go;
	bool done;
	bool freed_while_mapped;
};

static struct pp_dma_racer *pp_dma_racer;

static int pp_dma_racer_fn(void *arg)
{
	unsigned long deadline = jiffies + PP_TEST_RELEASE_TIMEOUT;
	struct pp_dma_racer *rc = arg;

	complete(&rc->started);
	while (!READ_ONCE(rc->go) && time_before(jiffies, deadline))
		cpu_relax();
	page_pool_put_full_page(rc->pool, rc->page, false);
	WRITE_ONCE(rc->done, true);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Destroy is unmapping the racer's page: let the racer return it, give
 * it ample time to get the page all the way back to the page allocator,
 * then look whether it did.
 */
static void pp_dma_racer_unmap_hook(dma_addr_t addr)
{
	struct pp_dma_racer *rc = pp_dma_racer;
	struct page *page = pfn_to_page(PHYS_PFN(addr));
	int us;

	if (page != rc->page || READ_ONCE(rc->go))
		return;
	WRITE_ONCE(rc->go, true);
	for (us = 0; us < 100 * USEC_PER_MSEC && !READ_ONCE(rc->done); us++)
		udelay(1);
	if (!page_ref_count(page))
		rc->freed_while_mapped = true;
}

/* A page in flight at destroy may come back at any moment of the
 * teardown, here just while destroy unmaps it. It must not reach the
 * page allocator (where anyone may map it anew) while that mapping
 * still lives.
 */
static void pp_dma_page_not_freed_while_unmapped(struct kunit *test)
{
	struct pp_dma_racer rc = {};
	struct pp_test_release r;
	struct page_pool *pool;
	unsigned int cpu;

	if (IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL))
		kunit_skip(test,
			   "XFAIL on the base pool: destroy does not unmap pages in flight");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	pool = pp_dma_pool(test, pp_test_dma.dev, 0, &r);
	rc.pool = pool;
	rc.page = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, rc.page);

	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	init_completion(&rc.started);
	rc.task = kthread_create(pp_dma_racer_fn, &rc, "pp_dma_racer");
	if (IS_ERR(rc.task)) {
		KUNIT_FAIL(test, "no racer thread");
		page_pool_put_full_page(pool, rc.page, false);
		pp_test_destroy(pool);
		return;
	}
	kthread_bind(rc.task, cpu);
	wake_up_process(rc.task);
	wait_for_completion(&rc.started);

	pp_dma_racer = &rc;
	pp_test_dma.unmap_hook = pp_dma_racer_unmap_hook;
	pp_test_destroy(pool);
	pp_test_dma.unmap_hook = NULL;
	/* Lets the racer go if destroy never unmapped its page. */
	WRITE_ONCE(rc.go, true);
	kthread_stop(rc.task);

	KUNIT_EXPECT_TRUE(test, READ_ONCE(rc.done));
	KUNIT_EXPECT_FALSE(test, rc.freed_while_mapped);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

static struct pci_dev *pp_dma_pdev;

static int pp_dma_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	pp_dma_pdev = pdev;
	return dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
}

static void pp_dma_remove(struct pci_dev *pdev)
{
	pp_dma_pdev = NULL;
}

static const struct pci_device_id pp_dma_ids[] = {
	{ PCI_DEVICE(PP_DMA_TESTDEV_VENDOR, PP_DMA_TESTDEV_DEVICE) },
	{}
};

static struct pci_driver pp_dma_driver = {
	.name = "page_pool_dma_test",
	.id_table = pp_dma_ids,
	.probe = pp_dma_probe,
	.remove = pp_dma_remove,
};

static void pp_dma_real_device_leaks_nothing(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a, *b;
	dma_addr_t addr;

	KUNIT_ASSERT_EQ(test, pci_register_driver(&pp_dma_driver), 0);
	if (!pp_dma_pdev) {
		pci_unregister_driver(&pp_dma_driver);
		kunit_skip(test, "needs QEMU's pci-testdev");
	}

	pool = pp_dma_pool(test, &pp_dma_pdev->dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	b = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	addr = page_pool_get_dma_addr(a);
	KUNIT_EXPECT_NE(test, addr, (dma_addr_t)0);
	pp_dma_put(pool, b, -1);
	pp_dma_put(pool, a, 200);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a), addr);
	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	/* Unbinding makes DMA-API debug report any mapping left behind. */
	pci_unregister_driver(&pp_dma_driver);
}

/* ---- the range synced on every return path ---- */

enum pp_dma_path {
	PP_DMA_DIRECT,	/* page_pool_put_page() from the owner */
	PP_DMA_RING,	/* page_pool_put_page() from elsewhere */
	PP_DMA_BULK,	/* page_pool_put_page_bulk() */
	PP_DMA_SKB,	/* an skb fragment, freed */
};

struct pp_dma_range_case {
	enum pp_dma_path path;
	bool frag;
};

static const struct pp_dma_range_case pp_dma_range_cases[] = {
	{ PP_DMA_DIRECT, false }, { PP_DMA_RING, false },
	{ PP_DMA_BULK, false }, { PP_DMA_SKB, false },
	{ PP_DMA_DIRECT, true }, { PP_DMA_RING, true },
	{ PP_DMA_BULK, true }, { PP_DMA_SKB, true },
};

static void pp_dma_range_desc(const struct pp_dma_range_case *c, char *desc)
{
	static const char * const paths[] = {
		[PP_DMA_DIRECT] = "direct", [PP_DMA_RING] = "ring",
		[PP_DMA_BULK] = "bulk", [PP_DMA_SKB] = "skb",
	};

	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, %s", paths[c->path],
		 c->frag ? "fragments" : "whole pages");
}

KUNIT_ARRAY_PARAM(pp_dma_range, pp_dma_range_cases, pp_dma_range_desc);

/* The CPU wrote this much of the buffer, from the pool's offset. */
#define PP_DMA_DIRTY	100

/* From now on, each sync for the device must cover exactly @len bytes
 * from the pool's offset (64: see pp_dma_pool_sized()).
 */
static void pp_dma_expect_syncs_of(unsigned int len)
{
	pp_test_dma.sync_lo = 64;
	pp_test_dma.sync_hi = 64 + len;
	pp_test_dma.sync_exact = true;
}

/* Give back @va's share of its page the way @path does. */
static void pp_dma_return(struct kunit *test, struct page_pool *pool,
			  enum pp_dma_path path, void *va)
{
	struct page *page = virt_to_page(va);
	struct sk_buff *skb;

	switch (path) {
	case PP_DMA_DIRECT:
		pp_dma_put(pool, page, PP_DMA_DIRTY);
		break;
	case PP_DMA_RING:
		page_pool_put_page(pool, page, PP_DMA_DIRTY, false);
		break;
	case PP_DMA_BULK:
		page_pool_put_page_bulk(pool, &va, 1);
		break;
	case PP_DMA_SKB:
		skb = alloc_skb(128, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_add_rx_frag(skb, 0, page, offset_in_page(va), PP_DMA_DIRTY,
				PAGE_SIZE / 2);
		skb_mark_for_recycle(skb);
		kfree_skb(skb);
		break;
	}
}

/* When a page comes back for reuse, the device gets back all it may
 * write that the CPU may have dirtied: the length the returner gives
 * for a whole page; for a page cut in fragments, whose last holder
 * cannot know what the others wrote, all of max_len from the offset.
 * Nothing is synced while other fragments are still out.
 */
static void pp_dma_sync_range_on_return(struct kunit *test)
{
	const struct pp_dma_range_case *c = test->param_value;
	unsigned int dirty = PP_DMA_DIRTY, off[2] = {}, next_off;
	struct page *page, *next = NULL;
	struct pp_test_release r;
	struct page_pool *pool;
	int syncs;
	bool ok;

	pool = pp_dma_pool(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV |
			   (c->frag ? PP_TEST_FRAG_FLAGS : 0), &r);
	if (c->frag) {
		page = pp_dma_alloc_frag_at(pool, PAGE_SIZE / 2, &off[0]);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_ASSERT_PTR_EQ(test, page,
				    pp_dma_alloc_frag_at(pool, PAGE_SIZE / 2,
							 &off[1]));
		/* The pool moves on: the page's fragments are all out. */
		next = pp_dma_alloc_frag_at(pool, PAGE_SIZE / 2, &next_off);
		KUNIT_ASSERT_NOT_NULL(test, next);
		KUNIT_ASSERT_PTR_NE(test, next, page);
	} else {
		page = pp_test_alloc(pool);
		KUNIT_ASSERT_NOT_NULL(test, page);
	}
	if (c->frag || c->path == PP_DMA_BULK || c->path == PP_DMA_SKB)
		dirty = 1024;	/* max_len: see pp_dma_pool_sized() */
	pp_dma_expect_syncs_of(dirty);

	syncs = atomic_read(&pp_test_dma.syncs);
	if (c->frag) {
		/* The last holder's is the second half: the sync must still
		 * start at the offset and cover the first.
		 */
		pp_dma_return(test, pool, c->path, page_address(page) + off[0]);
		KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), syncs);
	}
	pp_dma_return(test, pool, c->path, page_address(page) + off[1]);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), syncs + 1);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_addr,
			page_pool_get_dma_addr(page) + 64);
	ok = !atomic_read(&pp_test_dma.syncs_off_range);
	/* 6.1 syncs what the last holder says it dirtied. */
	if (!ok)
		kunit_info(test, "synced %zu bytes from %#x, not %u from 0x40\n",
			   pp_test_dma.sync_size,
			   (unsigned int)offset_in_page(pp_test_dma.sync_addr),
			   dirty);
	if (c->frag && (c->path == PP_DMA_DIRECT || c->path == PP_DMA_RING))
		pp_test_xfail_base(test, ok,
				   "a fragment page's last holder syncs max_len");
	else
		KUNIT_EXPECT_TRUE(test, ok);
	pp_test_dma.sync_hi = 0;

	if (next)
		pp_dma_put(pool, next, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* All the fragments of the page the pool is cutting come back while it
 * is still cutting it: when the pool moves on it reuses the page in
 * place, and the device gets back max_len from the offset first, as
 * for a page that came back through a return path.
 */
static void pp_dma_frag_page_reused_in_place_is_synced(struct kunit *test)
{
	const unsigned int size = PAGE_SIZE / 2;
	unsigned int off, again = 1;
	struct page *page, *reused;
	struct pp_test_release r;
	struct page_pool *pool;
	int syncs;

	pool = pp_dma_pool(test, pp_test_dma.dev,
			   PP_FLAG_DMA_SYNC_DEV | PP_FLAG_PAGE_FRAG, &r);
	page = pp_dma_alloc_frag_at(pool, size, &off);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_PTR_EQ(test, pp_dma_alloc_frag_at(pool, size, &off), page);
	pp_dma_expect_syncs_of(1024);	/* the pool's max_len */
	syncs = atomic_read(&pp_test_dma.syncs);
	pp_dma_put(pool, page, PP_DMA_DIRTY);
	pp_dma_put(pool, page, PP_DMA_DIRTY);
	/* The pool's own share keeps the page out of its cache. */
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), syncs);

	reused = pp_dma_alloc_frag_at(pool, size, &again);
	KUNIT_ASSERT_NOT_NULL(test, reused);
	KUNIT_EXPECT_PTR_EQ(test, reused, page);
	KUNIT_EXPECT_EQ(test, again, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs), syncs + 1);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_addr,
			page_pool_get_dma_addr(page) + 64);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	pp_test_dma.sync_hi = 0;

	pp_dma_put(pool, reused, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* A whole page of a pool that splits pages is synced over max_len when
 * it comes back: the pool cannot tell it from a fragment page's last
 * holder. PP_FLAG_PAGE_FRAG says so from the start.
 */
static void pp_dma_frag_pool_syncs_whole_pages_in_full(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;

	pool = pp_dma_pool(test, pp_test_dma.dev,
			   PP_FLAG_DMA_SYNC_DEV | PP_FLAG_PAGE_FRAG, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_dma_put(pool, a, PP_DMA_DIRTY);
	a = pp_test_alloc_same(test, pool, a);
	pp_test_xfail_base(test, pp_test_dma.sync_size == 1024,	/* max_len */
			   "a PP_FLAG_PAGE_FRAG pool syncs max_len");
	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
/* Any pool splits pages (6.1's needs PP_FLAG_PAGE_FRAG): from its first
 * fragment on, whole pages coming back are synced over max_len too.
 */
static void pp_dma_pool_syncs_in_full_once_it_cuts(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a, *frag;

	pool = pp_dma_pool(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_dma_put(pool, a, PP_DMA_DIRTY);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)PP_DMA_DIRTY);

	frag = pp_dma_alloc_frag(pool, PAGE_SIZE / 4);
	KUNIT_ASSERT_NOT_NULL(test, frag);
	pp_dma_put(pool, a, PP_DMA_DIRTY);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_test_dma.sync_size, (size_t)1024);

	pp_dma_put(pool, a, -1);
	pp_dma_put(pool, frag, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}
#endif

/* A bulk with all at once: fragments of a page whose other fragment is
 * out, and more last fragments than the ring has room for. Each page
 * it stores is synced over max_len first; past the ring's room, pages
 * are unmapped and freed; the page still held stays mapped.
 */
#define PP_DMA_MIX_PAGES	6	/* cut in two fragments each */
#define PP_DMA_MIX_ROOM		4	/* the ring's */

static void pp_dma_bulk_mix(struct kunit *test)
{
	const int held = PP_DMA_MIX_PAGES - 1, whole = PP_DMA_MIX_PAGES - 1;
	const unsigned int size = PAGE_SIZE / 2;
	void *data[2 * PP_DMA_MIX_PAGES], *va[PP_DMA_MIX_PAGES][2];
	struct page *page[PP_DMA_MIX_PAGES], *next;
	int i, j, n = 0, syncs, unmaps;
	struct pp_test_release r;
	struct page_pool *pool;
	unsigned int off;

	pool = pp_dma_pool_sized(test, pp_test_dma.dev, PP_FLAG_DMA_SYNC_DEV |
				 PP_FLAG_PAGE_FRAG, PP_DMA_MIX_ROOM, &r);
	for (i = 0; i < PP_DMA_MIX_PAGES; i++) {
		for (j = 0; j < 2; j++) {
			page[i] = pp_dma_alloc_frag_at(pool, size, &off);
			KUNIT_ASSERT_NOT_NULL(test, page[i]);
			va[i][j] = page_address(page[i]) + off;
		}
	}
	next = pp_dma_alloc_frag_at(pool, size, &off);
	KUNIT_ASSERT_NOT_NULL(test, next);
	KUNIT_ASSERT_PTR_NE(test, next, page[held]);

	/* Both halves of every page but the last, which keeps one out,
	 * interleaved.
	 */
	for (j = 0; j < 2; j++)
		for (i = 0; i < PP_DMA_MIX_PAGES; i++)
			if (i != held || !j)
				data[n++] = va[i][j];
	pp_dma_expect_syncs_of(1024);	/* the pool's max_len */
	syncs = atomic_read(&pp_test_dma.syncs);
	unmaps = atomic_read(&pp_test_dma.unmaps);
	page_pool_put_page_bulk(pool, data, n);

	/* Those stored were synced; the one freed may have been too. */
	syncs = atomic_read(&pp_test_dma.syncs) - syncs;
	KUNIT_EXPECT_GE(test, syncs, PP_DMA_MIX_ROOM);
	KUNIT_EXPECT_LE(test, syncs, whole);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.syncs_off_range), 0);
	/* The one that did not fit left the pool, unmapped. */
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_test_dma.unmaps),
			unmaps + whole - PP_DMA_MIX_ROOM);
	KUNIT_EXPECT_NE(test, page_pool_get_dma_addr(page[held]),
			(dma_addr_t)0);
	pp_test_dma.sync_hi = 0;

	page_pool_put_full_page(pool, page[held], false);
	pp_dma_put(pool, next, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
}

/* regs_get_kernel_argument() exists on these only. */
#if IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_SWIOTLB) && \
	(IS_ENABLED(CONFIG_X86_64) || IS_ENABLED(CONFIG_ARM64) || \
	 IS_ENABLED(CONFIG_RISCV) || IS_ENABLED(CONFIG_S390)) && \
	!IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL)
/* Calls into the DMA API made for one device, counted by kprobes. The
 * probes are file-scope: the suite's exit removes them even when an
 * assertion ends the case early.
 */
enum { PP_PROBE_MAP, PP_PROBE_FOR_DEV, PP_PROBE_FOR_CPU, PP_NR_PROBES };

static const char * const pp_dma_probe_funcs[PP_NR_PROBES] = {
	[PP_PROBE_MAP] = "dma_map_page_attrs",
	[PP_PROBE_FOR_DEV] = "dma_sync_single_for_device",
	[PP_PROBE_FOR_CPU] = "dma_sync_single_for_cpu",
};

static struct kprobe pp_dma_kprobes[PP_NR_PROBES];
static atomic_t pp_dma_probe_calls[PP_NR_PROBES];
static struct device *pp_dma_probed_dev;
static bool pp_dma_probes_armed;

static int pp_dma_probe_hit(struct kprobe *kp, struct pt_regs *regs)
{
	if (regs_get_kernel_argument(regs, 0) ==
	    (unsigned long)READ_ONCE(pp_dma_probed_dev))
		atomic_inc(&pp_dma_probe_calls[kp - pp_dma_kprobes]);
	return 0;
}

static void pp_dma_probes_arm(struct kunit *test, struct device *dev)
{
	struct kprobe *list[PP_NR_PROBES];
	int i;

	WRITE_ONCE(pp_dma_probed_dev, dev);
	for (i = 0; i < PP_NR_PROBES; i++) {
		pp_dma_kprobes[i] = (struct kprobe) {
			.symbol_name = pp_dma_probe_funcs[i],
			.pre_handler = pp_dma_probe_hit,
		};
		atomic_set(&pp_dma_probe_calls[i], 0);
		list[i] = &pp_dma_kprobes[i];
	}
	/* All or none: a failure unregisters those already in. */
	KUNIT_ASSERT_EQ(test, register_kprobes(list, PP_NR_PROBES), 0);
	pp_dma_probes_armed = true;
}

static void pp_dma_probes_disarm(void)
{
	struct kprobe *list[PP_NR_PROBES];
	int i;

	if (!pp_dma_probes_armed)
		return;
	for (i = 0; i < PP_NR_PROBES; i++)
		list[i] = &pp_dma_kprobes[i];
	unregister_kprobes(list, PP_NR_PROBES);
	pp_dma_probes_armed = false;
}

/* A device on the DMA API's direct path, as the pool meets on most
 * machines; with @bounced, swiotlb bounces its buffers (this kernel
 * boots with swiotlb=force), else swiotlb does not serve it at all:
 * with no io_tlb_mem, dma-direct neither bounces nor asks for syncs, as
 * on a machine booted with swiotlb off (whose empty default one
 * matches no address).
 */
static struct device *pp_dma_direct_dev(struct kunit *test, bool bounced)
{
	struct device *dev;

	dev = pp_test_direct_dev(test, bounced ? "pp_dma_bounced" :
						 "pp_dma_direct");
	if (!bounced)
		dev->dma_io_tlb_mem = NULL;
	if (bounced && !is_swiotlb_force_bounce(dev)) {
		root_device_unregister(dev);
		kunit_skip(test, "needs swiotlb=force");
	}
	return dev;
}

#define PP_DMA_SYNC_CYCLES	64

/* What the DMA API was asked to do for one device. */
struct pp_dma_calls {
	int maps;
	int for_dev;
	int for_cpu;
};

/* The first allocation maps a refill's worth of pages; one of them is
 * then recycled PP_DMA_SYNC_CYCLES times through the cache, with the
 * driver's sync for the CPU before each return, and returned once more
 * before destroy.
 */
static void pp_dma_count_calls(struct kunit *test, bool bounced,
			       struct pp_dma_calls *c)
{
	struct device *dev = pp_dma_direct_dev(test, bounced);
	struct page_pool_params p = pp_dma_params(dev, PP_FLAG_DMA_SYNC_DEV, 16);
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *page;
	int i;

	pp_dma_probes_arm(test, dev);
	pool = pp_dma_pool_of(test, &p, &r);
	page = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, page);
	for (i = 0; i < PP_DMA_SYNC_CYCLES; i++) {
		page_pool_dma_sync_for_cpu(pool, page, 0, PP_DMA_DIRTY);
		pp_dma_put(pool, page, PP_DMA_DIRTY);
		page = pp_test_alloc_same(test, pool, page);
	}
	pp_dma_put(pool, page, PP_DMA_DIRTY);
	pp_test_destroy(pool);
	pp_dma_probes_disarm();
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	root_device_unregister(dev);
	for (i = 0; i < PP_NR_PROBES; i++)
		KUNIT_EXPECT_EQ(test, pp_dma_kprobes[i].nmissed, 0UL);
	c->maps = atomic_read(&pp_dma_probe_calls[PP_PROBE_MAP]);
	c->for_dev = atomic_read(&pp_dma_probe_calls[PP_PROBE_FOR_DEV]);
	c->for_cpu = atomic_read(&pp_dma_probe_calls[PP_PROBE_FOR_CPU]);
}

/* Syncs cost a call into the DMA API per page even where they do
 * nothing. Where the device needs them (here: swiotlb bounces) every
 * map and every recycle syncs for the device and every driver read for
 * the CPU; where no page has needed one, none is made.
 */
static void pp_dma_syncs_only_where_device_needs(struct kunit *test)
{
	struct pp_dma_calls on, off;

	pp_dma_count_calls(test, true, &on);
	pp_dma_count_calls(test, false, &off);
	kunit_info(test, "%d recycles: swiotlb on: %d maps, %d syncs for device, %d for CPU; off: %d, %d, %d\n",
		   PP_DMA_SYNC_CYCLES, on.maps, on.for_dev, on.for_cpu,
		   off.maps, off.for_dev, off.for_cpu);
	KUNIT_EXPECT_GE(test, on.maps, 1);
	KUNIT_EXPECT_EQ(test, off.maps, on.maps);
	/* Each map, each recycle, and the last return before destroy. */
	KUNIT_EXPECT_EQ(test, on.for_dev, on.maps + PP_DMA_SYNC_CYCLES + 1);
	KUNIT_EXPECT_EQ(test, on.for_cpu, PP_DMA_SYNC_CYCLES);
	KUNIT_EXPECT_EQ(test, off.for_dev, 0);
	KUNIT_EXPECT_EQ(test, off.for_cpu, 0);
}

#define PP_DMA_SYNC_COUNT_CASE KUNIT_CASE(pp_dma_syncs_only_where_device_needs),
#else
#define PP_DMA_SYNC_COUNT_CASE
static void pp_dma_probes_disarm(void)
{
}
#endif

static int pp_dma_test_init(struct kunit *test)
{
	pp_test_dma_reset();
	pp_test_pin_cpu();
	return 0;
}

static void pp_dma_test_exit(struct kunit *test)
{
	pp_dma_probes_disarm();
	pp_test_unpin_cpu();
}

static int pp_dma_suite_init(struct kunit_suite *suite)
{
	return pp_test_dma_register("page_pool_dma_test");
}

static void pp_dma_suite_exit(struct kunit_suite *suite)
{
	pp_test_dma_unregister();
}

static struct kunit_case pp_dma_cases[] = {
	KUNIT_CASE(pp_dma_maps_once_and_keeps_address),
	KUNIT_CASE(pp_dma_sync_covers_max_len_from_offset),
	KUNIT_CASE(pp_dma_sync_only_dirty_length),
#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
	KUNIT_CASE(pp_dma_sync_for_cpu_from_pool_offset),
#endif
	KUNIT_CASE(pp_dma_no_sync_without_sync_flag),
	KUNIT_CASE(pp_dma_release_page_unmaps),
	KUNIT_CASE(pp_dma_destroy_unmaps_in_flight_pages),
	KUNIT_CASE(pp_dma_free_skb_after_device_is_gone),
	KUNIT_CASE(pp_dma_hardirq_return_to_full_ring_frees),
	KUNIT_CASE(pp_dma_hardirq_return_after_destroy_frees),
	KUNIT_CASE(pp_dma_hardirq_return_of_held_page_frees),
	KUNIT_CASE(pp_dma_destroy_with_fragments_out),
	KUNIT_CASE_PARAM(pp_dma_sync_range_on_return, pp_dma_range_gen_params),
	KUNIT_CASE(pp_dma_frag_page_reused_in_place_is_synced),
	KUNIT_CASE(pp_dma_frag_pool_syncs_whole_pages_in_full),
#ifndef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
	KUNIT_CASE(pp_dma_pool_syncs_in_full_once_it_cuts),
#endif
	KUNIT_CASE(pp_dma_bulk_mix),
	KUNIT_CASE(pp_dma_page_not_freed_while_unmapped),
	KUNIT_CASE(pp_dma_real_device_leaks_nothing),
	PP_DMA_SYNC_COUNT_CASE
	{}
};

static struct kunit_suite pp_dma_suite = {
	.name = "page_pool_dma",
	.init = pp_dma_test_init,
	.exit = pp_dma_test_exit,
	.suite_init = pp_dma_suite_init,
	.suite_exit = pp_dma_suite_exit,
	.test_cases = pp_dma_cases,
};

kunit_test_suite(pp_dma_suite);

MODULE_DESCRIPTION("KUnit cases for the page_pool DMA contract");
MODULE_LICENSE("GPL");
