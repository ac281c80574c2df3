/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_pool's inline helpers: allocating in NAPI context, giving pages
 * back, DMA addresses and syncs, fragment counts and statistics. This is
 * what a driver includes. See Documentation/networking/page_pool.rst.
 */
#ifndef _NET_PAGE_POOL_HELPERS_H
#define _NET_PAGE_POOL_HELPERS_H

#include <linux/dma-mapping.h>
#include <linux/jump_label.h>
#include <net/page_pool/types.h>

/*
 * Where dma_addr_t is wider than unsigned long (32-bit kernels with
 * 64-bit DMA), page->dma_addr keeps a mapped page's address in pages: a
 * pool maps from offset 0, so the low PAGE_SHIFT bits are zero, and
 * pp_frag_count keeps a word of its own.
 */
#define PAGE_POOL_32BIT_ARCH_WITH_64BIT_DMA	\
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
static inline dma_addr_t page_pool_get_dma_addr(const struct page *page)
{
	dma_addr_t addr = page->dma_addr;

	if (PAGE_POOL_32BIT_ARCH_WITH_64BIT_DMA)
		addr <<= PAGE_SHIFT;
	return addr;
}

/**
 * page_pool_set_dma_addr() - record the DMA address of a page
 * @page: the page
 * @addr: its DMA address, or 0 for none
 *
 * Return: true if @addr cannot be kept, as upstream's helper of this
 * name: where it is kept in pages (PAGE_POOL_32BIT_ARCH_WITH_64BIT_DMA),
 * an address that is not page aligned or not below
 * 2^(BITS_PER_LONG + PAGE_SHIFT); false otherwise.
 */
static inline bool page_pool_set_dma_addr(struct page *page, dma_addr_t addr)
{
	if (PAGE_POOL_32BIT_ARCH_WITH_64BIT_DMA) {
		page->dma_addr = addr >> PAGE_SHIFT;
		return ((dma_addr_t)page->dma_addr << PAGE_SHIFT) != addr;
	}
	page->dma_addr = addr;
	return false;
}

/**
 * page_pool_get_dma_dir() - DMA direction the pool maps its pages with
 * @pool: the pool
 *
 * Return: @pool->p.dma_dir.
 */
static inline enum dma_data_direction
page_pool_get_dma_dir(const struct page_pool *pool)
{
	return pool->p.dma_dir;
}

/**
 * page_pool_fragment_page() - set how many users a page has
 * @page: a page of a pool
 * @nr: number of users, each of which drops one with page_pool_put_page()
 *	(or several at once with page_pool_unref_page())
 *
 * Only while the caller is the page's only user.
 */
static inline void page_pool_fragment_page(struct page *page, long nr)
{
	atomic_long_set(&page->pp_frag_count, nr);
}

/**
 * page_pool_ref_page() - add a user to a page the caller holds a user of
 * @page: a page of a pool
 */
static inline void page_pool_ref_page(struct page *page)
{
	atomic_long_inc(&page->pp_frag_count);
}

/**
 * page_pool_unref_page() - drop users of a page
 * @page: a page of a pool
 * @nr: number of users to drop, at most the caller's
 *
 * Return: the number of users left. 0 means the caller dropped the last
 * ones and owns the page, whose count is back at one for its next use:
 * give it back with page_pool_put_unrefed_page().
 */
static inline long page_pool_unref_page(struct page *page, long nr)
{
	long left;

	/* Dropping all that are left needs no atomic write: nobody else
	 * holds the page. A drop of one leaves the count at one already.
	 */
	if (atomic_long_read(&page->pp_frag_count) == nr) {
		if (nr != 1)
			atomic_long_set(&page->pp_frag_count, 1);
		return 0;
	}
	left = atomic_long_sub_return(nr, &page->pp_frag_count);
	WARN_ON(left < 0);
	if (unlikely(!left))
		atomic_long_set(&page->pp_frag_count, 1);
	return left;
}

/**
 * page_pool_defrag_page() - older name of page_pool_unref_page()
 * @page: a page of a pool
 * @nr: number of users to drop
 *
 * Return: the number of users left.
 */
static inline long page_pool_defrag_page(struct page *page, long nr)
{
	return page_pool_unref_page(page, nr);
}

/**
 * page_pool_is_last_frag() - drop one user of a page
 * @pool: the pool of @page
 * @page: the page
 *
 * Return: true if the caller held the last user, so the page may go
 * back to the pool.
 */
static inline bool page_pool_is_last_frag(struct page_pool *pool,
					  struct page *page)
{
	return page_pool_unref_page(page, 1) == 0;
}

/**
 * page_pool_put_unrefed_page() - give back a page whose users are gone
 * @pool: the pool the page came from
 * @page: the page, after page_pool_unref_page() returned 0
 * @dma_sync_size: as for page_pool_put_page()
 * @allow_direct: as for page_pool_put_page()
 *
 * page_pool_put_defragged_page() under the name that pairs with
 * page_pool_unref_page().
 */
static inline void page_pool_put_unrefed_page(struct page_pool *pool,
					      struct page *page,
					      unsigned int dma_sync_size,
					      bool allow_direct)
{
	page_pool_put_defragged_page(pool, page, dma_sync_size, allow_direct);
}

/**
 * page_pool_dma_sync_for_cpu() - let the CPU read what the device wrote
 * @pool: the pool @page came from, created with PP_FLAG_DMA_MAP
 * @page: the page, as handed out (for a fragment, the fragment's page)
 * @offset: where the data starts, from the pool's &page_pool_params.offset
 *	(for a fragment, the fragment's offset in the page plus its headroom)
 * @dma_sync_size: how many bytes the device wrote from there
 *
 * The driver's sync before it reads what the device wrote. It syncs on
 * every call (the pool does not know what was synced before), or does
 * nothing where no page the pool has mapped needed syncs
 * (dma_need_sync()). With
 * PP_FLAG_DMA_SYNC_DEV the pool syncs its pages for the device; the
 * other direction is always the driver's.
 *
 * Context: any.
 */
static inline void page_pool_dma_sync_for_cpu(const struct page_pool *pool,
					      const struct page *page,
					      u32 offset, u32 dma_sync_size)
{
	if (!READ_ONCE(pool->dma_need_sync))
		return;
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr(page),
				      pool->p.offset + offset, dma_sync_size,
				      page_pool_get_dma_dir(pool));
}

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
 * @pool: the pool
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
 * page_pool_dev_alloc() - page_pool_alloc() from NAPI context
 * @pool: the pool
 * @offset: set to where the buffer starts in the returned page
 * @size: bytes wanted; set to the buffer's truesize
 *
 * Return: the page holding the buffer, or NULL.
 */
static inline struct page *page_pool_dev_alloc(struct page_pool *pool,
					       unsigned int *offset,
					       unsigned int *size)
{
	return page_pool_alloc(pool, offset, size, GFP_ATOMIC | __GFP_NOWARN);
}

/**
 * page_pool_alloc_va() - page_pool_alloc(), returning the buffer's address
 * @pool: the pool
 * @size: bytes wanted; set to the buffer's truesize
 * @gfp: allocation flags; __GFP_HIGHMEM is ignored, the buffer needs an
 *	address (so the pool's other allocations must not ask for it either:
 *	they recycle into the same cache)
 *
 * Give the buffer back with page_pool_free_va().
 *
 * Return: the buffer's kernel address, or NULL.
 */
static inline void *page_pool_alloc_va(struct page_pool *pool,
				       unsigned int *size, gfp_t gfp)
{
	unsigned int offset;
	struct page *page;

	page = page_pool_alloc(pool, &offset, size, gfp & ~__GFP_HIGHMEM);
	return page ? page_address(page) + offset : NULL;
}

/**
 * page_pool_dev_alloc_va() - page_pool_alloc_va() from NAPI context
 * @pool: the pool
 * @size: bytes wanted; set to the buffer's truesize
 *
 * Return: the buffer's kernel address, or NULL.
 */
static inline void *page_pool_dev_alloc_va(struct page_pool *pool,
					   unsigned int *size)
{
	return page_pool_alloc_va(pool, size, GFP_ATOMIC | __GFP_NOWARN);
}

/**
 * page_pool_put_page() - give a page (or one fragment of it) back
 * @pool: the pool the page came from
 * @page: the page
 * @dma_sync_size: with PP_FLAG_DMA_SYNC_DEV, how much to sync for the
 *	device from the pool's offset before reuse: the bytes the CPU may
 *	have read or written since the device wrote the buffer, normally
 *	the received frame, or the frame as XDP left it if longer; at most
 *	max_len is synced, and -1 means max_len. Once the pool has cut
 *	fragments it syncs max_len whatever this says.
 * @allow_direct: the caller's claim that it runs in the pool's own NAPI
 *	context, so that the page may go straight into the alloc cache.
 *	The pool ignores it unless BH is disabled, and in hard IRQ or NMI;
 *	never pass it once the last page_pool_destroy() may have started.
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
 * page_pool_free_va() - give back a buffer from page_pool_alloc_va()
 * @pool: the pool it came from
 * @va: any address inside the buffer
 * @allow_direct: as for page_pool_put_page()
 *
 * With PP_FLAG_DMA_SYNC_DEV the page is synced over max_len from the
 * pool's offset before the device gets it again.
 */
static inline void page_pool_free_va(struct page_pool *pool, void *va,
				     bool allow_direct)
{
	page_pool_put_page(pool, virt_to_head_page(va), -1, allow_direct);
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

struct sk_buff;

#ifdef CONFIG_PAGE_POOL_LEAK_TRACE
DECLARE_STATIC_KEY_FALSE(page_pool_leak_trace);
void __page_pool_note_skb(const struct sk_buff *skb);

/**
 * page_pool_note_skb() - record the receive path handing pages to the stack
 * @skb: an skb just marked for recycling
 *
 * skb_mark_for_recycle() calls it: with leak tracing on, each pool page
 * of @skb is recorded as last taken by the caller's stack.
 */
static inline void page_pool_note_skb(const struct sk_buff *skb)
{
	if (static_branch_unlikely(&page_pool_leak_trace))
		__page_pool_note_skb(skb);
}
#else
static inline void page_pool_note_skb(const struct sk_buff *skb)
{
}
#endif

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

#endif /* _NET_PAGE_POOL_HELPERS_H */
