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
 * debug checks for leaked mappings at unbind.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/skbuff.h>
#include <net/page_pool.h>

#include "page_pool_test.h"

/* What the counting device has seen. */
struct pp_dma_record {
	atomic_t maps;
	atomic_t unmaps;
	atomic_t syncs;
	atomic_t calls_after_gone;
	bool gone;
	dma_addr_t sync_addr;
	size_t sync_size;
};

static struct pp_dma_record pp_dma;
static struct device *pp_dma_dev;

static void pp_dma_note_call(void)
{
	if (READ_ONCE(pp_dma.gone))
		atomic_inc(&pp_dma.calls_after_gone);
}

static dma_addr_t pp_dma_map_page(struct device *dev, struct page *page,
				  unsigned long offset, size_t size,
				  enum dma_data_direction dir,
				  unsigned long attrs)
{
	pp_dma_note_call();
	atomic_inc(&pp_dma.maps);
	return page_to_phys(page) + offset;
}

static void pp_dma_unmap_page(struct device *dev, dma_addr_t addr,
			      size_t size, enum dma_data_direction dir,
			      unsigned long attrs)
{
	pp_dma_note_call();
	atomic_inc(&pp_dma.unmaps);
}

static void pp_dma_sync_for_device(struct device *dev, dma_addr_t addr,
				   size_t size, enum dma_data_direction dir)
{
	pp_dma_note_call();
	atomic_inc(&pp_dma.syncs);
	pp_dma.sync_addr = addr;
	pp_dma.sync_size = size;
}

static void pp_dma_sync_for_cpu(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	pp_dma_note_call();
}

static const struct dma_map_ops pp_dma_counting_ops = {
	.map_page = pp_dma_map_page,
	.unmap_page = pp_dma_unmap_page,
	.sync_single_for_device = pp_dma_sync_for_device,
	.sync_single_for_cpu = pp_dma_sync_for_cpu,
};

static int pp_dma_live(void)
{
	return atomic_read(&pp_dma.maps) - atomic_read(&pp_dma.unmaps);
}

static struct device *pp_dma_counting_dev(struct kunit *test,
					  const char *name)
{
	struct device *dev = root_device_register(name);

	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	dev->dma_mask = &dev->coherent_dma_mask;
	KUNIT_ASSERT_EQ(test, dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)),
			0);
	set_dma_ops(dev, &pp_dma_counting_ops);
	return dev;
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

static struct page_pool *pp_dma_pool(struct kunit *test, struct device *dev,
				     unsigned int flags,
				     struct pp_test_release *r)
{
	struct page_pool_params p = {
		.flags = PP_FLAG_DMA_MAP | flags,
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.offset = 64,
		.max_len = 1024,
	};
	struct page_pool *pool = page_pool_create(&p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(pool),
			       "page_pool_create: %ld", PTR_ERR(pool));
	pp_test_watch_release(pool, r);
	return pool;
}

static void pp_dma_maps_once_and_keeps_address(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_dma_dev, 0, &r);
	struct page *a = pp_test_alloc(pool);
	dma_addr_t addr;
	int maps;

	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);
	KUNIT_EXPECT_EQ(test, addr, page_to_phys(a));
	maps = atomic_read(&pp_dma.maps);
	KUNIT_EXPECT_GE(test, maps, 1);

	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a), addr);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.maps), maps);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.unmaps), 0);

	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	/* Every page the pool mapped was unmapped when it left. */
	KUNIT_EXPECT_EQ(test, pp_dma_live(), 0);
}

static void pp_dma_sync_covers_max_len_from_offset(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool;
	struct page *a;
	dma_addr_t addr;

	pool = pp_dma_pool(test, pp_dma_dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);
	/* A fresh page is synced over the whole max_len. */
	KUNIT_EXPECT_EQ(test, pp_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_size, (size_t)1024);

	/* -1 means the CPU may have written anywhere in max_len. */
	pp_dma.sync_size = 0;
	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_size, (size_t)1024);

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

	pool = pp_dma_pool(test, pp_dma_dev, PP_FLAG_DMA_SYNC_DEV, &r);
	a = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, a);
	addr = page_pool_get_dma_addr(a);

	pp_dma_put(pool, a, 100);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_addr, addr + 64);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_size, (size_t)100);

	/* More than max_len is clamped: the device only writes max_len. */
	pp_dma_put(pool, a, 4000);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, pp_dma.sync_size, (size_t)1024);

	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

static void pp_dma_no_sync_without_sync_flag(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_dma_dev, 0, &r);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_dma_put(pool, a, -1);
	a = pp_test_alloc_same(test, pool, a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.syncs), 0);
	pp_dma_put(pool, a, -1);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

static void pp_dma_release_page_unmaps(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_dma_dev, 0, &r);
	struct page *a = pp_test_alloc(pool);
	int unmaps = atomic_read(&pp_dma.unmaps);

	KUNIT_ASSERT_NOT_NULL(test, a);
	page_pool_release_page(pool, a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.unmaps), unmaps + 1);
	KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a), (dma_addr_t)0);
	put_page(a);
	pp_test_destroy(pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, pp_dma_live(), 0);
}

/* The base pool keeps in-flight pages mapped after destroy and unmaps
 * them when they come back, by which time the driver may have unbound
 * and its device (or IOMMU domain) may be gone.
 */
static void pp_dma_destroy_unmaps_in_flight_pages(struct kunit *test)
{
	struct pp_test_release r;
	struct page_pool *pool = pp_dma_pool(test, pp_dma_dev, 0, &r);
	struct page *a = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, a);
	pp_test_destroy(pool);
	if (pp_test_xfail_base(test, pp_dma_live() == 0,
			       "destroy unmaps the pages still in flight")) {
		WRITE_ONCE(pp_dma.gone, true);
		KUNIT_EXPECT_EQ(test, page_pool_get_dma_addr(a),
				(dma_addr_t)0);
	}
	page_pool_put_full_page(pool, a, false);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.calls_after_gone), 0);
	KUNIT_EXPECT_EQ(test, pp_dma_live(), 0);
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
	if (!pp_test_xfail_base(test, pp_dma_live() == 0,
				"no mapping survives destroy")) {
		kfree_skb(skb);
		KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
		root_device_unregister(dev);
		return;
	}
	WRITE_ONCE(pp_dma.gone, true);
	root_device_unregister(dev);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
	KUNIT_EXPECT_EQ(test, atomic_read(&pp_dma.calls_after_gone), 0);
}

/* ---- the real DMA path, checked by DMA-API debug ---- */

/* QEMU's "pci-testdev" gives a real PCI device to bind to. DMA-API debug
 * watches the PCI bus: when a driver unbinds with mappings left, it
 * reports them.
 */
#define PP_DMA_TESTDEV_VENDOR	0x1b36
#define PP_DMA_TESTDEV_DEVICE	0x0005

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

static int pp_dma_test_init(struct kunit *test)
{
	memset(&pp_dma, 0, sizeof(pp_dma));
	pp_test_pin_cpu();
	return 0;
}

static void pp_dma_test_exit(struct kunit *test)
{
	pp_test_unpin_cpu();
}

static int pp_dma_suite_init(struct kunit_suite *suite)
{
	pp_dma_dev = root_device_register("page_pool_dma_test");
	if (IS_ERR(pp_dma_dev))
		return PTR_ERR(pp_dma_dev);
	pp_dma_dev->dma_mask = &pp_dma_dev->coherent_dma_mask;
	if (dma_set_mask_and_coherent(pp_dma_dev, DMA_BIT_MASK(64))) {
		root_device_unregister(pp_dma_dev);
		return -EIO;
	}
	set_dma_ops(pp_dma_dev, &pp_dma_counting_ops);
	return 0;
}

static void pp_dma_suite_exit(struct kunit_suite *suite)
{
	root_device_unregister(pp_dma_dev);
}

static struct kunit_case pp_dma_cases[] = {
	KUNIT_CASE(pp_dma_maps_once_and_keeps_address),
	KUNIT_CASE(pp_dma_sync_covers_max_len_from_offset),
	KUNIT_CASE(pp_dma_sync_only_dirty_length),
	KUNIT_CASE(pp_dma_no_sync_without_sync_flag),
	KUNIT_CASE(pp_dma_release_page_unmaps),
	KUNIT_CASE(pp_dma_destroy_unmaps_in_flight_pages),
	KUNIT_CASE(pp_dma_free_skb_after_device_is_gone),
	KUNIT_CASE(pp_dma_real_device_leaks_nothing),
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
