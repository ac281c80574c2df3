/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recycling page allocator for network RX rings.
 *
 * A page_pool belongs to one RX queue. The driver allocates receive
 * buffers from it and the stack gives the pages back to it when the
 * packet is done with, so that pages (and their DMA mappings) cycle
 * between the NIC and the stack without going through the page
 * allocator each time. See net/core/page_pool.c for the concurrency
 * rules.
 */
#ifndef _NET_PAGE_POOL_H
#define _NET_PAGE_POOL_H

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
/* The pool may split pages into fragments: page_pool_alloc_frag(). */
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
};

/* For drivers also built against 6.1's pool, which has no @napi. */
#define PAGE_POOL_HAS_NAPI	1

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
 *	per page (6.1 counts a bulk return that does not fit once)
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
};

/*
 * On 32-bit machines with 64-bit DMA addresses, the upper half of the
 * address is kept where pp_frag_count would be, so such pools cannot
 * split pages.
 */
#define PAGE_POOL_DMA_USE_PP_FRAG_COUNT	\
		(sizeof(dma_addr_t) > sizeof(unsigned long))

/**
 * page_pool_get_dma_addr() - DMA address of a page mapped by its pool
 * @page: a page handed out by a pool created with PP_FLAG_DMA_MAP; for
 *	a page of any other pool the value read is meaningless
 *
 * The mapping is made when the page enters the pool and kept while it
 * is recycled.
 *
 * Return: the address the device uses for the start of the page, or 0
 * once the page has left the pool (page_pool_release_page()) or, for a
 * page still in flight, once page_pool_destroy() has returned.
 */
static inline dma_addr_t page_pool_get_dma_addr(struct page *page)
{
	dma_addr_t addr = page->dma_addr;

	if (PAGE_POOL_DMA_USE_PP_FRAG_COUNT)
		addr |= (dma_addr_t)page->dma_addr_upper << 16 << 16;
	return addr;
}

/**
 * page_pool_set_dma_addr() - record the DMA address of a page
 * @page: the page
 * @addr: its DMA address, or 0 for none
 */
static inline void page_pool_set_dma_addr(struct page *page, dma_addr_t addr)
{
	page->dma_addr = addr;
	if (PAGE_POOL_DMA_USE_PP_FRAG_COUNT)
		page->dma_addr_upper = upper_32_bits(addr);
}

/**
 * page_pool_get_dma_dir() - DMA direction the pool maps its pages with
 * @pool: the pool
 *
 * Return: @pool->p.dma_dir.
 */
static inline enum dma_data_direction
page_pool_get_dma_dir(struct page_pool *pool)
{
	return pool->p.dma_dir;
}

/**
 * page_pool_fragment_page() - set how many fragment users a page has
 * @page: a page of a PP_FLAG_PAGE_FRAG pool
 * @nr: number of page_pool_defrag_page() drops it takes to free it
 */
static inline void page_pool_fragment_page(struct page *page, long nr)
{
	atomic_long_set(&page->pp_frag_count, nr);
}

/**
 * page_pool_defrag_page() - drop fragment users of a page
 * @page: a page of a PP_FLAG_PAGE_FRAG pool
 * @nr: number of users to drop
 *
 * Return: the number of users left; 0 means the caller dropped the last
 * ones and now owns the whole page.
 */
static inline long page_pool_defrag_page(struct page *page, long nr)
{
	long left;

	/*
	 * Dropping every remaining user needs no atomic write: nobody else
	 * can look at the count, and it is set afresh before reuse.
	 */
	if (atomic_long_read(&page->pp_frag_count) == nr)
		return 0;

	left = atomic_long_sub_return(nr, &page->pp_frag_count);
	WARN_ON(left < 0);
	return left;
}

/**
 * page_pool_is_last_frag() - drop one fragment user of a page
 * @pool: the pool of @page
 * @page: the page
 *
 * Return: true if the caller held the last user (always, for a pool
 * without PP_FLAG_PAGE_FRAG), so the page may go back to the pool.
 */
static inline bool page_pool_is_last_frag(struct page_pool *pool,
					  struct page *page)
{
	if (!(pool->p.flags & PP_FLAG_PAGE_FRAG))
		return true;
	return page_pool_defrag_page(page, 1) == 0;
}

struct xdp_mem_info;

#ifdef CONFIG_PAGE_POOL
struct page_pool *page_pool_create(const struct page_pool_params *params);
void page_pool_destroy(struct page_pool *pool);
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);
struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
				  unsigned int size, gfp_t gfp);
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
 * page_pool_dev_alloc_pages() - allocate a page from NAPI context
 * @pool: the pool
 *
 * Return: a page, or NULL.
 */
static inline struct page *page_pool_dev_alloc_pages(struct page_pool *pool)
{
	return page_pool_alloc_pages(pool, GFP_ATOMIC | __GFP_NOWARN);
}

/**
 * page_pool_dev_alloc_frag() - allocate a fragment from NAPI context
 * @pool: a pool with PP_FLAG_PAGE_FRAG
 * @offset: where the fragment starts in the returned page
 * @size: fragment size in bytes
 *
 * Return: the page holding the fragment, or NULL.
 */
static inline struct page *page_pool_dev_alloc_frag(struct page_pool *pool,
						    unsigned int *offset,
						    unsigned int size)
{
	return page_pool_alloc_frag(pool, offset, size,
				    GFP_ATOMIC | __GFP_NOWARN);
}

/**
 * page_pool_put_page() - give a page (or one fragment of it) back
 * @pool: the pool the page came from
 * @page: the page
 * @dma_sync_size: bytes the device may have written, from the pool's
 *	offset; the pool syncs only that much for the device. -1 means
 *	the pool's max_len.
 * @allow_direct: the caller's claim that it runs in the pool's own NAPI
 *	context, so that the page may go straight into the alloc cache.
 *	The pool ignores it unless BH is disabled, and in hard IRQ or NMI;
 *	never pass it once the pool's NAPI has stopped for
 *	page_pool_destroy().
 *
 * The caller gives up its reference to the page, whether it is
 * recycled or freed.
 */
static inline void page_pool_put_page(struct page_pool *pool,
				      struct page *page,
				      unsigned int dma_sync_size,
				      bool allow_direct)
{
	/* Only a pool that exists can own pages; keep the linker happy. */
	if (!IS_ENABLED(CONFIG_PAGE_POOL))
		return;
	if (!page_pool_is_last_frag(pool, page))
		return;
	page_pool_put_defragged_page(pool, page, dma_sync_size, allow_direct);
}

/**
 * page_pool_put_full_page() - give a page back, syncing max_len
 * @pool: the pool the page came from
 * @page: the page
 * @allow_direct: as for page_pool_put_page()
 */
static inline void page_pool_put_full_page(struct page_pool *pool,
					   struct page *page, bool allow_direct)
{
	page_pool_put_page(pool, page, -1, allow_direct);
}

/**
 * page_pool_recycle_direct() - give a page back from the pool's NAPI context
 * @pool: the pool the page came from
 * @page: the page
 */
static inline void page_pool_recycle_direct(struct page_pool *pool,
					    struct page *page)
{
	page_pool_put_full_page(pool, page, true);
}

/**
 * is_page_pool_compiled_in() - whether the kernel has the page_pool
 *
 * Return: IS_ENABLED(CONFIG_PAGE_POOL).
 */
static inline bool is_page_pool_compiled_in(void)
{
	return IS_ENABLED(CONFIG_PAGE_POOL);
}

/**
 * page_pool_put() - drop one user of the pool
 * @pool: the pool
 *
 * Return: true if that was the last user, who must then tear it down.
 */
static inline bool page_pool_put(struct page_pool *pool)
{
	return refcount_dec_and_test(&pool->user_cnt);
}

/**
 * page_pool_nid_changed() - follow the NUMA node of the RX queue
 * @pool: the pool
 * @new_nid: the node the queue's interrupts now run on
 *
 * Call from the pool's NAPI context.
 */
static inline void page_pool_nid_changed(struct page_pool *pool, int new_nid)
{
	if (unlikely(pool->p.nid != new_nid))
		page_pool_update_nid(pool, new_nid);
}

#ifdef CONFIG_PAGE_POOL_STATS
bool page_pool_get_stats(struct page_pool *pool,
			 struct page_pool_stats *stats);
int page_pool_ethtool_stats_get_count(void);
u8 *page_pool_ethtool_stats_get_strings(u8 *data);
u64 *page_pool_ethtool_stats_get(u64 *data, void *stats);
#else
static inline bool page_pool_get_stats(struct page_pool *pool,
				       struct page_pool_stats *stats)
{
	return false;
}

static inline int page_pool_ethtool_stats_get_count(void)
{
	return 0;
}

static inline u8 *page_pool_ethtool_stats_get_strings(u8 *data)
{
	return data;
}

static inline u64 *page_pool_ethtool_stats_get(u64 *data, void *stats)
{
	return data;
}
#endif

#endif /* _NET_PAGE_POOL_H */
