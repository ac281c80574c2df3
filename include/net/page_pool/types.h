/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_pool's types: the flags, the parameters, the statistics and the
 * pool itself, and the calls that are not inline. A driver includes
 * <net/page_pool/helpers.h>, which brings these in; code that only
 * keeps a pointer to a pool or its stats may include this alone.
 */
#ifndef _NET_PAGE_POOL_TYPES_H
#define _NET_PAGE_POOL_TYPES_H

#include <linux/dma-direction.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/page_pool_ring_types.h>

/* The pool maps each page for DMA when it enters and unmaps it on exit. */
#define PP_FLAG_DMA_MAP		BIT(0)
/*
 * The pool syncs a page for the device before handing it out again
 * (needs PP_FLAG_DMA_MAP). Syncing for the CPU stays the driver's job.
 */
#define PP_FLAG_DMA_SYNC_DEV	BIT(1)
/*
 * The pool splits pages into fragments. Any pool may now, so the flag
 * only asks for a full sync of returned pages from the first page on.
 */
#define PP_FLAG_PAGE_FRAG	BIT(2)
#define PP_FLAG_ALL		(PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV | \
				 PP_FLAG_PAGE_FRAG)

/*
 * The alloc cache holds two NAPI budgets of pages: one to refill an RX
 * ring after a poll, and room for pages that XDP_DROP recycles
 * straight back in the same poll.
 */
#define PP_ALLOC_CACHE_SIZE	128
#define PP_ALLOC_CACHE_REFILL	64

/**
 * struct pp_alloc_cache - lockless stack of ready pages
 * @count: number of pages in @cache
 * @cache: the pages, most recently added last
 *
 * Only the context that owns the pool (its NAPI poll, or the driver
 * with NAPI stopped) may touch it.
 */
struct pp_alloc_cache {
	u32 count;
	struct page *cache[PP_ALLOC_CACHE_SIZE];
};

struct napi_struct;
struct net_device;

/**
 * struct page_pool_params - what page_pool_create() builds
 * @flags: PP_FLAG_* bits; any other bit is refused.
 * @order: allocation order of each page, at most MAX_ORDER - 1.
 * @pool_size: capacity of the return ring, in pages; 0 picks 1024, and
 *	more than 16384 is clamped to 16384. Size it to the RX ring.
 * @nid: NUMA node to allocate from, and whose pages the refill from the
 *	return ring keeps, or NUMA_NO_NODE for the node of the CPU that
 *	allocates (also used when @nid has no memory).
 * @dev: device the pages are mapped for; required with PP_FLAG_DMA_MAP,
 *	and it must have a DMA mask then.
 * @dma_dir: mapping direction; DMA_FROM_DEVICE, or DMA_BIDIRECTIONAL
 *	when the device also transmits from the pages (XDP_TX).
 *	Required with PP_FLAG_DMA_MAP.
 * @max_len: bytes to sync for the device from @offset when a page is
 *	reused; required (non-zero) with PP_FLAG_DMA_SYNC_DEV.
 * @offset: where in the page the device starts writing; used with
 *	PP_FLAG_DMA_SYNC_DEV.
 * @init_callback: optional; called once for each page when it enters
 *	the pool (not when it is recycled).
 * @init_arg: argument passed to @init_callback.
 * @napi: optional; the NAPI whose poll is the pool's only consumer,
 *	added with netif_napi_add() before the pool is created. A page
 *	freed with BH off and IRQs on, on the CPU whose poll list holds
 *	it, then goes straight to the alloc cache, whatever the freeing
 *	path claims. Its memory must last until the last
 *	page_pool_destroy() (which an XDP memory model may make) or
 *	page_pool_disable_direct_recycling().
 * @netdev: optional; the network device whose RX queue the pool feeds.
 *	Only pools with a device, registered when the pool is created (as
 *	from ndo_open), are shown through the "netdev" generic netlink
 *	family, in the device's network namespace. When the
 *	device is unregistered before the pool is freed, the pool is
 *	shown under the namespace's loopback device, and no longer once
 *	that goes too; the pool never dereferences @netdev after that.
 */
struct page_pool_params {
	unsigned int	flags;
	unsigned int	order;
	unsigned int	pool_size;
	int		nid;
	struct device	*dev;
	enum dma_data_direction dma_dir;
	unsigned int	max_len;
	unsigned int	offset;
	void (*init_callback)(struct page *page, void *arg);
	void *init_arg;
	struct napi_struct *napi;
	struct net_device *netdev;
};

/*
 * For drivers also built against 6.1's pool, which has no @napi, and
 * none of page_pool_alloc(), its wrappers or page_pool_dma_sync_for_cpu().
 */
#define PAGE_POOL_HAS_NAPI	1
#define PAGE_POOL_HAS_ALLOC	1
/* Nor @netdev, the device under which netlink shows the pool. */
#define PAGE_POOL_HAS_NETDEV	1

/**
 * struct page_pool_alloc_stats - where allocations were served from
 * @fast: pages taken from the alloc cache
 * @slow: order-0 refills from the page allocator
 * @slow_high_order: pages of order > 0 from the page allocator
 * @empty: refills that found the return ring empty
 * @refill: refills served from the return ring
 * @waive: pages taken from the return ring and dropped for being on
 *	another node than the pool's, one count per page
 */
struct page_pool_alloc_stats {
	u64 fast;
	u64 slow;
	u64 slow_high_order;
	u64 empty;
	u64 refill;
	u64 waive;
};

/**
 * struct page_pool_recycle_stats - what happened to returned pages
 * @cached: direct returns kept in the alloc cache
 * @cache_full: direct returns that found the alloc cache full
 * @ring: returns stored in the return ring; the ring's own count of
 *	stores, so it wraps at 2^32 on 32-bit machines
 * @ring_full: returns freed because the return ring was full, one count
 *	per page, also for the pages of a bulk return that did not fit
 * @released_refcnt: returns freed because the page could not be reused
 *	(someone else still holds it, or it is from the pfmemalloc reserves)
 *
 * Returns freed because the pool is being destroyed are not counted.
 * Pages on the wrong node are counted as ring, then as waive.
 */
struct page_pool_recycle_stats {
	u64 cached;
	u64 cache_full;
	u64 ring;
	u64 ring_full;
	u64 released_refcnt;
};

/**
 * struct page_pool_stats - all counters of a pool, for page_pool_get_stats()
 * @alloc_stats: allocation side counters
 * @recycle_stats: return side counters, summed over the CPUs
 */
struct page_pool_stats {
	struct page_pool_alloc_stats alloc_stats;
	struct page_pool_recycle_stats recycle_stats;
};

/*
 * The pool. Drivers read @p and the counters; everything else belongs
 * to net/core/page_pool.c.
 */
struct page_pool {
	struct page_pool_params p;

	/*
	 * Set once destroy has closed the return ring; read by returners,
	 * never by the direct (owner) path.
	 */
	bool ring_closed;
	/*
	 * Set once the pool has cut a page in fragments (or from create,
	 * with PP_FLAG_PAGE_FRAG): returns then sync max_len. Written once
	 * by the owner, read by returners: kept off the owner's lines.
	 */
	bool frags_cut;
	/*
	 * Set once a page this pool mapped needs syncs (dma_need_sync():
	 * a bounce buffer, a non-coherent device, or dma_map_ops with sync
	 * callbacks, as an IOMMU's); until then syncs are skipped. Written
	 * once by the owner at map time, read by returners and by
	 * page_pool_dma_sync_for_cpu().
	 */
	bool dma_need_sync;

	/* Deferred free while pages are still in flight after destroy. */
	struct delayed_work free_dw;
	void (*disconnect)(void *pool);
	unsigned long defer_start;
	unsigned long defer_warn;
	/* Set under teardown_lock; read by returners, not by the direct path. */
	bool destroyed;
	/* Orders releases after destroy against freeing the pool. */
	spinlock_t teardown_lock;

	/* Pages that entered the pool; written by the owner context only. */
	u32 pages_state_hold_cnt;

	/*
	 * Node new pages come from, resolved from p.nid at create and
	 * update_nid time: NUMA_NO_NODE (the allocating CPU's node) when
	 * p.nid is NUMA_NO_NODE or has no memory. Owner context only.
	 */
	int alloc_nid;

	/* The page being split by page_pool_alloc_frag(). */
	unsigned int frag_offset;
	struct page *frag_page;
	long frag_users;

#ifdef CONFIG_PAGE_POOL_STATS
	/* Owner context only, like the alloc cache. */
	struct page_pool_alloc_stats alloc_stats;
	/*
	 * Direct returns (cached, cache_full, released_refcnt) counted by
	 * the owner; other contexts count in recycle_stats. Kept apart so
	 * that the direct paths need no per-CPU (IRQ-safe) update.
	 */
	struct page_pool_recycle_stats owner_recycle_stats;
#endif
	u32 xdp_mem_id;

	/* Owner context only: see the rules in net/core/page_pool.c. */
	struct pp_alloc_cache alloc ____cacheline_aligned_in_smp;

	/* Pages given back from other contexts, for the owner to reuse. */
	struct pp_ring ring;

#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_recycle_stats __percpu *recycle_stats;
#endif
	/* Pages that left the pool, from any context. */
	atomic_t pages_state_release_cnt;

	/* Users of the pool: its creator and each XDP memory model. */
	refcount_t user_cnt;

	/*
	 * How many times the destroyed pool was checked for pages in
	 * flight, the check at destroy time included; under teardown_lock.
	 */
	u64 destroy_cnt;

	/*
	 * Pages mapped for DMA, keyed by pfn, so that destroy can unmap the
	 * ones still in flight: whoever erases a page unmaps it.
	 */
	struct xarray dma_mapped;
	/* Set by destroy before its grace period; see net/core/page_pool.c. */
	bool dma_closed;

	/*
	 * What the "netdev" netlink family shows (net/core/page_pool_user.c),
	 * under its mutex; the data path never reads it, so it lies apart
	 * from the alloc cache and the ring. @user.netdev is the device
	 * the pool is shown under: p.netdev, then the loopback device of
	 * its namespace once p.netdev is unregistered, and NULL once that
	 * goes too or when the pool has no device (hidden). @user.id is the
	 * pool's id, 0 until it is listed, @user.napi_id that of p.napi
	 * when it was listed (0 for none), and @user.detach_time the boot
	 * time in seconds when destroy detached it, valid once
	 * @user.detached is set (only if destroy left pages in flight).
	 */
	struct {
		struct net_device *netdev;
		u64 detach_time;
		u32 id;
		unsigned int napi_id;
		bool detached;
	} user;

#ifdef CONFIG_PAGE_POOL_LEAK_TRACE
	/*
	 * Where each page out of the pool went and when, keyed by pfn
	 * (net/core/page_pool_leak.c); kept only by pools created while
	 * tracing was on, which @traced says.
	 */
	struct xarray holders;
	bool traced;
#endif
};

struct xdp_mem_info;

#ifdef CONFIG_PAGE_POOL
struct page_pool *page_pool_create(const struct page_pool_params *params);
void page_pool_destroy(struct page_pool *pool);
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);
struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
				  unsigned int size, gfp_t gfp);
struct page *page_pool_alloc(struct page_pool *pool, unsigned int *offset,
			     unsigned int *size, gfp_t gfp);
void page_pool_put_defragged_page(struct page_pool *pool, struct page *page,
				  unsigned int dma_sync_size,
				  bool allow_direct);
void page_pool_put_page_bulk(struct page_pool *pool, void **data,
			     int count);
void page_pool_release_page(struct page_pool *pool, struct page *page);
bool page_pool_return_skb_page(struct page *page);
void page_pool_use_xdp_mem(struct page_pool *pool, void (*disconnect)(void *),
			   struct xdp_mem_info *mem);
void page_pool_update_nid(struct page_pool *pool, int new_nid);
void page_pool_disable_direct_recycling(struct page_pool *pool);
#else
static inline struct page_pool *
page_pool_create(const struct page_pool_params *params)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void page_pool_destroy(struct page_pool *pool)
{
}

static inline struct page *page_pool_alloc_pages(struct page_pool *pool,
						 gfp_t gfp)
{
	return NULL;
}

static inline struct page *page_pool_alloc_frag(struct page_pool *pool,
						unsigned int *offset,
						unsigned int size, gfp_t gfp)
{
	return NULL;
}

static inline struct page *page_pool_alloc(struct page_pool *pool,
					   unsigned int *offset,
					   unsigned int *size, gfp_t gfp)
{
	return NULL;
}

static inline void page_pool_put_defragged_page(struct page_pool *pool,
						struct page *page,
						unsigned int dma_sync_size,
						bool allow_direct)
{
}

static inline void page_pool_put_page_bulk(struct page_pool *pool,
					   void **data, int count)
{
}

static inline void page_pool_release_page(struct page_pool *pool,
					  struct page *page)
{
}

static inline bool page_pool_return_skb_page(struct page *page)
{
	return false;
}

static inline void page_pool_use_xdp_mem(struct page_pool *pool,
					 void (*disconnect)(void *),
					 struct xdp_mem_info *mem)
{
}

static inline void page_pool_update_nid(struct page_pool *pool, int new_nid)
{
}

static inline void page_pool_disable_direct_recycling(struct page_pool *pool)
{
}
#endif

/**
 * is_page_pool_compiled_in() - whether the kernel has the page_pool
 *
 * Return: IS_ENABLED(CONFIG_PAGE_POOL).
 */
static inline bool is_page_pool_compiled_in(void)
{
	return IS_ENABLED(CONFIG_PAGE_POOL);
}

#endif /* _NET_PAGE_POOL_TYPES_H */
