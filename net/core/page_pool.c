// SPDX-License-Identifier: GPL-2.0
/* page_pool: recycling page allocator for network RX rings. */

/**
 * DOC: Concurrency rules
 *
 * **Owner context.** The alloc cache (pool->alloc), the alloc stats and
 * the direct-return stats (owner_recycle_stats), the fragment state
 * (frag_*), alloc_nid and pages_state_hold_cnt belong to the single
 * context that allocates from the pool: the RX queue's NAPI poll, or
 * the driver while that NAPI is stopped. Nothing locks them.
 *
 * **Direct returns.** A return with allow_direct is the caller's claim
 * to run in the owner context. The pool cannot check it, and ignores it
 * (the page takes the return ring) only where it cannot hold: with BH
 * enabled, and in a hard IRQ or NMI, which may have interrupted the
 * owner's BH-off section (in_softirq() is true there too, so it alone
 * would not do).
 * The direct path does not look for destroy: the owner never runs
 * concurrently with, nor after, the last page_pool_destroy(), so no page
 * may be returned with allow_direct from then on.
 *
 * **NAPI-local returns.** A pool linked to its NAPI (p.napi) also takes
 * a return without allow_direct as direct where only that NAPI's
 * context can run: BH off, IRQs on, on the CPU whose poll list holds
 * the NAPI (napi->list_owner: only that CPU can read its own number
 * there, as it writes -1 before the NAPI may move). Softirqs of one CPU
 * do not nest and BH off keeps them out, so such a return cannot run
 * concurrently with the poll. netpoll may call the poll with budget 0
 * from anywhere: a driver must not touch its pool then. Destroy and
 * page_pool_disable_direct_recycling() (never called concurrently)
 * unlink the NAPI, then wait for an RCU grace period, which covers
 * BH-off sections: after it no return is direct, and none still reads
 * the NAPI.
 *
 * **Return ring.** Any context may produce into pool->ring, hard IRQ
 * included: it takes no lock (see page_pool_ring.h). The owner is its
 * only consumer (destroy, then the deferred free work, count as the
 * owner: they run once it has stopped). In a DMA-mapping pool a producer
 * syncs its pages for the device and publishes them inside an RCU
 * read-side section in which it saw ring_closed clear. The stats' ring
 * count is the ring's tail (it wraps at 2^32 on 32-bit machines);
 * ring_full is counted per CPU. An unpublished cell the owner cannot
 * step over makes the ring look empty, and is counted so.
 *
 * **Leaving the pool.** A page may leave from any context. With
 * PP_FLAG_DMA_MAP it is erased from pool->dma_mapped under the xarray's
 * lock (IRQs off), and only the caller whose erase returned the page
 * unmaps it: outside the lock if it saw dma_closed clear in the RCU
 * read-side section it runs in, else before unlocking.
 *
 * **Destroy against late returns.** The last page_pool_destroy() runs
 * in process context once the owner has stopped, and takes the pool
 * through these states; each flag is set once and never cleared:
 *
 * ====================  ===========  ======================================
 * state                 flag set     who reads the flag, and what for
 * ====================  ===========  ======================================
 * live                  none
 * ring closed           ring_closed  returners: free the page, do not store
 * DMA closed            dma_closed   (PP_FLAG_DMA_MAP only) the returner
 *                                    that unmaps a page: do it under the
 *                                    xarray lock
 * destroyed             destroyed    returners counting a page released:
 *                                    do it under teardown_lock; the one
 *                                    with the last page kicks the
 *                                    deferred free work
 * freed                 none         (no one: the last page is back)
 * ====================  ===========  ======================================
 *
 * The steps, which the code names:
 *
 * - *Close the ring*: set ring_closed; free the pages of the cache, the
 *   ring and the fragment being cut. A page stored after this by a
 *   returner that saw ring_closed clear keeps the pool alive until
 *   *close DMA* or the deferred free work drains it.
 * - *Close DMA* (PP_FLAG_DMA_MAP only): set dma_closed; with pages still
 *   out, wait for an RCU grace period and drain the ring again:
 *   returners that saw either flag clear have finished their syncs,
 *   stores and unmaps, and later ones see both set, so they store and
 *   sync nothing and unmap only under the xarray lock. With no page out
 *   there is nobody to wait for: every page counted as released was
 *   unmapped before it was counted.
 * - *Unmap the rest* (PP_FLAG_DMA_MAP only): erase and unmap every page
 *   still in pool->dma_mapped under the xarray lock, which a returner
 *   takes before it may free its page: no page goes back to the page
 *   allocator still mapped. Once a look under the lock finds the xarray
 *   empty, no returner is in the middle of an unmap: destroy drops the
 *   device reference, and the pool makes no DMA call after it returns.
 * - *Mark destroyed*: set destroyed under teardown_lock (direct returns
 *   do not look: see above). The deferred free work drains the ring,
 *   then frees the pool after checking the counts under the same lock.
 *
 * A page in flight keeps its pool alive: the pool is freed only once
 * every page that entered it has left. So a returner never touches the
 * pool once it has handed its page over: after publishing the last page
 * it stored in the ring, or after counting the page released (other
 * than under teardown_lock).
 */

#define pr_fmt(fmt) "page_pool: " fmt

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <net/page_pool.h>
#include <net/xdp.h>

#include <trace/events/page_pool.h>

#include "page_pool_priv.h"
#include "page_pool_ring.h"

#define PP_DEFAULT_RING_SIZE	1024
/* Bigger pool_size is clamped, not refused: mlx5 asks for more than
 * 32768, and refusing would keep its interface down.
 */
#define PP_MAX_RING_SIZE	16384U

/* Mappings stay for the page's life in the pool; syncs are explicit. */
#define PP_DMA_ATTRS		(DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING)

/* Users held on a page while fragments are cut from it, so that returns
 * cannot drop the count to zero; half the range, as holders may add users.
 */
#define PP_FRAG_BIAS		(LONG_MAX / 2)

#define PP_RETRY_INTERVAL	HZ
#define PP_DEFER_WARN_INTERVAL	(60 * HZ)

#ifdef CONFIG_PAGE_POOL_STATS
/* Plain adds for the owner's counters; per-CPU ones for any context,
 * hard IRQ included (this_cpu_add is IRQ-safe).
 */
#define pp_stat_add(counter, n)		((counter) += (n))
#define pp_stat_percpu_add(counter, n)	this_cpu_add(counter, n)
#else
/* The counters do not exist: the arguments must go unseen. */
#define pp_stat_add(counter, n)		do { } while (0)
#define pp_stat_percpu_add(counter, n)	do { } while (0)
#endif

static unsigned int pp_span(const struct page_pool *pool)
{
	return PAGE_SIZE << pool->p.order;
}

static int pp_usable_node(int nid)
{
	if (nid < 0 || nid >= MAX_NUMNODES || !node_state(nid, N_MEMORY))
		return NUMA_NO_NODE;
	return nid;
}

/* Owner context: the node the pool allocates from and the refill keeps. */
static int pp_home_node(const struct page_pool *pool)
{
	int nid = pool->alloc_nid;

	return nid == NUMA_NO_NODE ? numa_mem_id() : nid;
}

static bool pp_page_recyclable(struct page *page)
{
	return page_ref_count(page) == 1 && !page_is_pfmemalloc(page);
}

static void pp_sync_for_device(struct page_pool *pool, struct page *page,
			       unsigned int len)
{
	if (!(pool->p.flags & PP_FLAG_DMA_SYNC_DEV) ||
	    !READ_ONCE(pool->dma_need_sync))
		return;

	len = min(len, pool->p.max_len);
	dma_sync_single_range_for_device(pool->p.dev,
					 page_pool_get_dma_addr(page),
					 pool->p.offset, len, pool->p.dma_dir);
}

/* How much of a returned page to sync. Once pages are split, the holder
 * of the last fragment cannot know what the others dirtied.
 */
static unsigned int pp_recycle_sync_len(const struct page_pool *pool,
					unsigned int dma_sync_size)
{
	if (!(pool->p.flags & PP_FLAG_DMA_SYNC_DEV))
		return dma_sync_size;
	return READ_ONCE(pool->frags_cut) ? -1 : dma_sync_size;
}

/* Recorded so that destroy can find the page if it is still in flight. */
static bool pp_dma_map(struct page_pool *pool, struct page *page)
{
	struct device *dev = pool->p.dev;
	unsigned long flags;
	dma_addr_t addr;
	void *old;

	addr = dma_map_page_attrs(dev, page, 0, pp_span(pool),
				  pool->p.dma_dir, PP_DMA_ATTRS);
	if (dma_mapping_error(dev, addr))
		return false;
	/* Fails only on 32-bit with a 64-bit dma_addr_t, where an address
	 * that is not page aligned cannot be kept in struct page.
	 */
	if (page_pool_set_dma_addr(page, addr)) {
		dev_warn_once(dev, "page_pool: DMA address %pad does not fit in struct page\n",
			      &addr);
		goto unmap;
	}

	xa_lock_irqsave(&pool->dma_mapped, flags);
	old = __xa_store(&pool->dma_mapped, page_to_pfn(page), page,
			 GFP_ATOMIC | __GFP_NOWARN);
	xa_unlock_irqrestore(&pool->dma_mapped, flags);
	if (xa_is_err(old))
		goto unmap;

	/* Set before this page's first sync and before anyone holds it, so
	 * its holders see it; pages mapped before it need no syncs.
	 */
	if (!pool->dma_need_sync && dma_need_sync(dev, addr))
		WRITE_ONCE(pool->dma_need_sync, true);
	pp_sync_for_device(pool, page, pool->p.max_len);
	return true;

unmap:
	page_pool_set_dma_addr(page, 0);
	dma_unmap_page_attrs(dev, addr, pp_span(pool), pool->p.dma_dir,
			     PP_DMA_ATTRS);
	return false;
}

static void pp_dma_unmap(struct page_pool *pool, struct page *page)
{
	dma_unmap_page_attrs(pool->p.dev, page_pool_get_dma_addr(page),
			     pp_span(pool), pool->p.dma_dir, PP_DMA_ATTRS);
	page_pool_set_dma_addr(page, 0);
}

/* Rule "Leaving the pool": unmap under the lock once destroy may be about
 * to drop the device, so that its last look under the lock waits for us.
 */
static noinline void pp_dma_forget(struct page_pool *pool, struct page *page)
{
	unsigned long flags;
	bool mine, late;

	rcu_read_lock();
	late = READ_ONCE(pool->dma_closed);
	xa_lock_irqsave(&pool->dma_mapped, flags);
	mine = __xa_erase(&pool->dma_mapped, page_to_pfn(page)) == page;
	if (unlikely(mine && late)) {
		pp_dma_unmap(pool, page);
		mine = false;
	}
	xa_unlock_irqrestore(&pool->dma_mapped, flags);
	if (mine)
		pp_dma_unmap(pool, page);
	rcu_read_unlock();
}

/* Pages unmapped per hold of the xarray lock (IRQs off) at destroy. */
#define PP_TEARDOWN_BATCH	16

/* Destroy's step "unmap the rest", after the grace period of "close DMA". */
static void pp_dma_teardown(struct page_pool *pool)
{
	struct xarray *xa = &pool->dma_mapped;
	unsigned long pfn = 0;
	struct page *page;
	int n;

	do {
		n = 0;
		xa_lock_irq(xa);
		while (n < PP_TEARDOWN_BATCH &&
		       (page = xa_find(xa, &pfn, ULONG_MAX, XA_PRESENT))) {
			__xa_erase(xa, pfn);
			pp_dma_unmap(pool, page);
			n++;
		}
		xa_unlock_irq(xa);
		cond_resched();
	} while (n);
	put_device(pool->p.dev);
}

static bool pp_admit_page(struct page_pool *pool, struct page *page)
{
	u32 hold;

	if ((pool->p.flags & PP_FLAG_DMA_MAP) && !pp_dma_map(pool, page))
		return false;

	page->pp_magic |= PP_SIGNATURE;
	page->pp = pool;
	/* One user, the one it is handed to; kept at one while it is ours. */
	page_pool_fragment_page(page, 1);
	if (pool->p.init_callback)
		pool->p.init_callback(page, pool->p.init_arg);

	hold = pool->pages_state_hold_cnt + 1;
	WRITE_ONCE(pool->pages_state_hold_cnt, hold);
	trace_page_pool_state_hold(pool, page, hold);
	return true;
}

/* Step "mark destroyed": the last page's returner kicks the free work
 * rather than wait for its retry. The pool may go once the lock drops.
 */
static noinline void pp_count_late_release(struct page_pool *pool,
					   struct page *page)
{
	unsigned long flags;
	u32 released;

	spin_lock_irqsave(&pool->teardown_lock, flags);
	released = atomic_inc_return(&pool->pages_state_release_cnt);
	if (released == pool->pages_state_hold_cnt)
		mod_delayed_work(system_wq, &pool->free_dw, 0);
	spin_unlock_irqrestore(&pool->teardown_lock, flags);
	trace_page_pool_state_release(pool, page, released);
}

/* The pool may be freed once the count is in. A direct return does not
 * check destroyed (rule "Direct returns"); a false claim only delays the
 * pool's free to the next retry.
 */
static __always_inline void pp_count_release(struct page_pool *pool,
					     struct page *page, bool direct)
{
	u32 released;

	if (unlikely(!direct && READ_ONCE(pool->destroyed))) {
		pp_count_late_release(pool, page);
		return;
	}
	released = atomic_inc_return(&pool->pages_state_release_cnt);
	trace_page_pool_state_release(pool, page, released);
}

/* The caller keeps its page reference. Inline: the put path runs it. */
static __always_inline void pp_release_page(struct page_pool *pool,
					    struct page *page, bool direct)
{
	pp_leak_note_back(pool, page);
	if (pool->p.flags & PP_FLAG_DMA_MAP)
		pp_dma_forget(pool, page);
	page->pp_magic &= PP_MAGIC_ALLOC_BITS;
	page->pp = NULL;
	pp_count_release(pool, page, direct);
}

static void pp_free_page(struct page_pool *pool, struct page *page)
{
	pp_release_page(pool, page, false);
	put_page(page);
}

/* A page someone else holds, or from the pfmemalloc reserves. Counted
 * before the release: the pool may be gone after it.
 */
static __always_inline void pp_free_unrecyclable(struct page_pool *pool,
						 struct page *page,
						 bool direct)
{
	if (direct)
		pp_stat_add(pool->owner_recycle_stats.released_refcnt, 1);
	else
		pp_stat_percpu_add(pool->recycle_stats->released_refcnt, 1);
	pp_release_page(pool, page, direct);
	put_page(page);
}

static struct page *pp_cache_pop(struct page_pool *pool)
{
	return pool->alloc.cache[--pool->alloc.count];
}

/* Owner context: keep the pages of slots [@from, @to) on the pool's node,
 * packed from @from, and free the others. Returns the slot after them.
 */
static u32 pp_keep_local_pages(struct page_pool *pool, u32 from, u32 to)
{
	struct page **cache = pool->alloc.cache;
	int nid = pp_home_node(pool);
	u32 i;

	for (i = from; i < to; i++) {
		if (likely(page_to_nid(cache[i]) == nid))
			cache[from++] = cache[i];
		else
			pp_free_page(pool, cache[i]);
	}
	return from;
}

/* Owner context, cache empty: move a batch from the ring to the cache,
 * taking more for pages from another node but freeing at most a batch of
 * those: after a node change the ring may hold pool_size of them, each a
 * lock, an unmap and a put in a NAPI poll. No take overshoots a limit.
 */
static u32 pp_refill_from_ring(struct page_pool *pool)
{
	void **slots = (void **)pool->alloc.cache;
	u32 count = 0, waived = 0, want, got, kept;

	do {
		want = PP_ALLOC_CACHE_REFILL - max(count, waived);
		got = pp_ring_consume(&pool->ring, slots + count, want);
		kept = pp_keep_local_pages(pool, count, count + got);
		waived += count + got - kept;
		count = kept;
	} while (got == want && max(count, waived) < PP_ALLOC_CACHE_REFILL);
	if (unlikely(waived))
		pp_stat_add(pool->alloc_stats.waive, waived);
	else if (!count)
		pp_stat_add(pool->alloc_stats.empty, 1);
	pool->alloc.count = count;
	return count;
}

static struct page *pp_alloc_high_order(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;

	page = alloc_pages_node(pp_home_node(pool), gfp | __GFP_COMP,
				pool->p.order);
	if (!page)
		return NULL;
	if (!pp_admit_page(pool, page)) {
		put_page(page);
		return NULL;
	}
	pp_stat_add(pool->alloc_stats.slow_high_order, 1);
	return page;
}

static struct page *pp_alloc_bulk(struct page_pool *pool, gfp_t gfp)
{
	struct page **slots = pool->alloc.cache;
	unsigned long got, i;
	u32 kept = 0;

	/* The bulk allocator fills only the slots that are NULL. */
	memset(slots, 0, PP_ALLOC_CACHE_REFILL * sizeof(*slots));
	got = alloc_pages_bulk_array_node(gfp, pp_home_node(pool),
					  PP_ALLOC_CACHE_REFILL, slots);
	for (i = 0; i < got; i++) {
		if (pp_admit_page(pool, slots[i]))
			slots[kept++] = slots[i];
		else
			put_page(slots[i]);
	}

	pool->alloc.count = kept;
	if (!kept)
		return NULL;
	pp_stat_add(pool->alloc_stats.slow, 1);
	return pp_cache_pop(pool);
}

/* Owner context: the cache, then the return ring, then new pages. */
static struct page *pp_get_page(struct page_pool *pool, gfp_t gfp)
{
	if (likely(pool->alloc.count)) {
		pp_stat_add(pool->alloc_stats.fast, 1);
		return pp_cache_pop(pool);
	}
	if (pp_refill_from_ring(pool)) {
		pp_stat_add(pool->alloc_stats.refill, 1);
		return pp_cache_pop(pool);
	}
	/* RX rings run short under pressure: no splats for bare GFP_ATOMIC. */
	if ((gfp & GFP_ATOMIC) == GFP_ATOMIC)
		gfp |= __GFP_NOWARN;
	if (pool->p.order)
		return pp_alloc_high_order(pool, gfp);
	return pp_alloc_bulk(pool, gfp);
}

/**
 * page_pool_alloc_pages() - allocate a page from the pool
 * @pool: the pool
 * @gfp: allocation flags, used when the pool needs new pages
 *
 * Call from the pool's owner context. With PP_FLAG_DMA_MAP the page comes
 * mapped, and with PP_FLAG_DMA_SYNC_DEV synced for the device. The page
 * has one user.
 *
 * Return: a page of the pool's order, or NULL.
 */
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp)
{
	struct page *page = pp_get_page(pool, gfp);

	pp_leak_note_out(pool, page);
	return page;
}
EXPORT_SYMBOL(page_pool_alloc_pages);

/* Fragments start where a build_skb() on the previous one would end:
 * the atomics of its skb_shared_info must neither straddle a cache line
 * (split locks) nor be misaligned.
 */
static unsigned int pp_frag_align(void)
{
	return max_t(unsigned int, dma_get_cache_alignment(),
		     __alignof__(struct skb_shared_info));
}

static void pp_frag_start(struct page_pool *pool, struct page *page,
			  unsigned int size)
{
	page_pool_fragment_page(page, PP_FRAG_BIAS);
	pool->frag_page = page;
	pool->frag_users = 1;
	pool->frag_offset = size;
	if (unlikely(!pool->frags_cut))
		WRITE_ONCE(pool->frags_cut, true);
}

/* Drop the bias not handed out. Returns the page if every fragment is
 * back, NULL if the last fragment's holder will give it back.
 */
static struct page *pp_frag_detach(struct page_pool *pool)
{
	struct page *page = pool->frag_page;

	pool->frag_page = NULL;
	if (page_pool_defrag_page(page, PP_FRAG_BIAS - pool->frag_users))
		return NULL;
	return page;
}

/* Detach the fragment page; reuse it if it is ours again, or let it go. */
static struct page *pp_frag_retire(struct page_pool *pool)
{
	struct page *page = pp_frag_detach(pool);

	if (!page)
		return NULL;
	if (pp_page_recyclable(page)) {
		pp_sync_for_device(pool, page, -1);
		return page;
	}
	page_pool_put_defragged_page(pool, page, -1, false);
	return NULL;
}

static __always_inline struct page *
pp_alloc_frag(struct page_pool *pool, unsigned int *offset, unsigned int size,
	      gfp_t gfp)
{
	unsigned int span = pp_span(pool);
	struct page *page = pool->frag_page;

	if (WARN_ON_ONCE(!size || size > span))
		return NULL;

	size = ALIGN(size, pp_frag_align());
	if (page && pool->frag_offset + size <= span) {
		*offset = pool->frag_offset;
		pool->frag_offset += size;
		pool->frag_users++;
		pp_stat_add(pool->alloc_stats.fast, 1);
		return page;
	}

	if (page)
		page = pp_frag_retire(pool);
	if (page)
		pp_stat_add(pool->alloc_stats.fast, 1);
	else
		page = pp_get_page(pool, gfp);
	if (!page)
		return NULL;

	pp_frag_start(pool, page, size);
	*offset = 0;
	return page;
}

/**
 * page_pool_alloc_frag() - allocate part of a page
 * @pool: the pool
 * @offset: set to where the fragment starts in the returned page
 * @size: fragment size in bytes, 1 to the pool's page size; it is
 *	rounded up to the DMA cache alignment, and to the alignment of
 *	struct skb_shared_info so that build_skb() may use the fragment
 * @gfp: allocation flags, used when the pool needs new pages
 *
 * Call from the pool's owner context. Each fragment is given back with
 * page_pool_put_page() (or the skb and XDP return paths); the page
 * returns to the pool when its last fragment does. From then on the
 * pool syncs every page it gets back up to max_len for the device.
 *
 * Return: the page holding the fragment, or NULL.
 */
struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
				  unsigned int size, gfp_t gfp)
{
	struct page *page = pp_alloc_frag(pool, offset, size, gfp);

	pp_leak_note_frag_out(pool, page, *offset);
	return page;
}
EXPORT_SYMBOL(page_pool_alloc_frag);

/**
 * page_pool_alloc() - allocate a buffer: a fragment, or a whole page
 * @pool: the pool
 * @offset: set to where the buffer starts in the returned page
 * @size: bytes wanted; set to the buffer's truesize, the memory to
 *	account for it
 * @gfp: allocation flags, used when the pool needs new pages
 *
 * Call from the pool's owner context. More than half of the pool's page
 * takes a whole page; a smaller size is cut as by page_pool_alloc_frag(),
 * and the last fragment that fits in a page takes the rest of it, so that
 * with requests of one size the truesizes of a page's buffers add up to
 * it. A size of 0 or beyond the page is refused.
 *
 * Return: the page holding the buffer, or NULL.
 */
struct page *page_pool_alloc(struct page_pool *pool, unsigned int *offset,
			     unsigned int *size, gfp_t gfp)
{
	unsigned int span = pp_span(pool), cut;
	struct page *page;

	if (WARN_ON_ONCE(*size > span))
		return NULL;
	if (*size > span / 2) {
		*offset = 0;
		*size = span;
		page = pp_get_page(pool, gfp);
		pp_leak_note_out(pool, page);
		return page;
	}
	page = pp_alloc_frag(pool, offset, *size, gfp);
	if (!page)
		return NULL;
	pp_leak_note_frag_out(pool, page, *offset);
	cut = pool->frag_offset - *offset;
	if (pool->frag_offset + cut > span)
		pool->frag_offset = span;
	*size = pool->frag_offset - *offset;
	return page;
}
EXPORT_SYMBOL(page_pool_alloc);

/* Rule "Direct returns": BH off, not in hard IRQ or NMI (their preempt
 * count bits lie above the softirq bits).
 */
static bool pp_may_be_owner(void)
{
	unsigned long irq = preempt_count() &
			    (SOFTIRQ_MASK | HARDIRQ_MASK | NMI_MASK);

	return irq && irq <= SOFTIRQ_MASK;
}

/* Rule "NAPI-local returns". IRQs off means netpoll, or a section that
 * may have interrupted the owner; softirqs are preemptible on PREEMPT_RT.
 */
static bool pp_napi_local(const struct page_pool *pool)
{
	const struct napi_struct *napi = READ_ONCE(pool->p.napi);

	if (IS_ENABLED(CONFIG_PREEMPT_RT) || !napi || !pp_may_be_owner())
		return false;
	return !irqs_disabled() &&
	       READ_ONCE(napi->list_owner) == smp_processor_id();
}

/* Owner context: keep a returned page in the alloc cache, if it has room. */
static bool pp_cache_put(struct page_pool *pool, struct page *page,
			 unsigned int sync_len)
{
	if (unlikely(pool->alloc.count == PP_ALLOC_CACHE_SIZE))
		return false;

	pp_sync_for_device(pool, page, sync_len);
	pool->alloc.cache[pool->alloc.count++] = page;
	return true;
}

/* The caller saw the ring open. Preemption stays off between claim and
 * publish, and BH too for a bulk store where softirqs may start: the
 * owner's poll steps over one unpublished cell, not several
 * (DOC: Return ring in page_pool_ring.h). PREEMPT_RT starts no softirq on IRQ exit, and
 * there BH off would not keep preemption off.
 */
static __always_inline int pp_ring_store(struct page_pool *pool,
					 void **pages, int n)
{
	int stored;

	if (n > 1 && !IS_ENABLED(CONFIG_PREEMPT_RT) && !in_interrupt() &&
	    !irqs_disabled()) {
		local_bh_disable();
		stored = pp_ring_produce(&pool->ring, pages, n);
		local_bh_enable();
	} else {
		preempt_disable();
		stored = pp_ring_produce(&pool->ring, pages, n);
		preempt_enable();
	}
	/* The pages not stored still keep the pool alive. */
	if (unlikely(stored < n))
		pp_stat_percpu_add(pool->recycle_stats->ring_full, n - stored);
	return stored;
}

/* Sync @pages for the device and store what fits in the ring, if open; in
 * a DMA-mapping pool inside the RCU read-side section that destroy's step
 * "close DMA" waits for. Only a full ring is counted.
 *
 * Return: how many were stored, from the first; the caller frees the rest.
 */
static __always_inline int pp_ring_put(struct page_pool *pool, void **pages,
				       int n, unsigned int sync_len)
{
	int i, stored = 0;

	if (!(pool->p.flags & PP_FLAG_DMA_MAP)) {
		if (unlikely(READ_ONCE(pool->ring_closed)))
			return 0;
		return pp_ring_store(pool, pages, n);
	}

	rcu_read_lock();
	if (likely(!READ_ONCE(pool->ring_closed))) {
		if (pool->p.flags & PP_FLAG_DMA_SYNC_DEV)
			for (i = 0; i < n; i++)
				pp_sync_for_device(pool, pages[i], sync_len);
		stored = pp_ring_store(pool, pages, n);
	}
	rcu_read_unlock();
	return stored;
}

/* Where the pool's NAPI would run; returns how many it took, from the first. */
static int pp_cache_put_bulk(struct page_pool *pool, void **pages, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!pp_cache_put(pool, pages[i], -1))
			break;
	pp_stat_add(pool->owner_recycle_stats.cached, i);
	pp_stat_add(pool->owner_recycle_stats.cache_full, n - i);
	return i;
}

/* noinline, unlike the ring put it wraps: the direct path stays small. */
static noinline void pp_put_one_in_ring(struct page_pool *pool,
					struct page *page,
					unsigned int sync_len)
{
	void *entry = page;

	if (!pp_ring_put(pool, &entry, 1, sync_len))
		pp_free_page(pool, page);
}

/**
 * page_pool_put_defragged_page() - give back a page with no fragment users
 * @pool: the pool the page came from
 * @page: the page; the caller gives up its reference
 * @dma_sync_size: with PP_FLAG_DMA_SYNC_DEV, how much to sync for the
 *	device from the pool's offset before reuse: the bytes the CPU may
 *	have read or written since the device wrote the buffer, normally
 *	the received frame, or the frame as XDP left it if longer; at most
 *	max_len is synced, and -1 means max_len. Once the pool has cut
 *	fragments it syncs max_len whatever this says.
 * @allow_direct: the caller's claim that it runs in the pool's owner
 *	context, so that the page may go straight into the alloc cache
 *	(rule "Direct returns" of DOC: Concurrency rules). Never pass it
 *	once the last page_pool_destroy() may have started.
 *
 * Any other page goes to the return ring, from any context, hard IRQ
 * included; where the pool's NAPI would run, it is direct all the same
 * (see &page_pool_params.napi). A page that someone else still holds or
 * that came from the pfmemalloc reserves is freed instead, as is any
 * page that finds the ring full or the pool being destroyed. A direct
 * return keeps a page whatever its node (dropping it would send each
 * XDP_DROP to the page allocator under memory pressure); the refill
 * from the return ring waives pages from another node.
 */
void page_pool_put_defragged_page(struct page_pool *pool, struct page *page,
				  unsigned int dma_sync_size, bool allow_direct)
{
	bool direct = allow_direct ? pp_may_be_owner() : pp_napi_local(pool);

	pp_leak_note_back(pool, page);
	if (unlikely(!pp_page_recyclable(page))) {
		pp_free_unrecyclable(pool, page, direct);
		return;
	}

	dma_sync_size = pp_recycle_sync_len(pool, dma_sync_size);
	/* The owner never runs once destroy may: no ring_closed check. */
	if (direct) {
		if (pp_cache_put(pool, page, dma_sync_size)) {
			pp_stat_add(pool->owner_recycle_stats.cached, 1);
			return;
		}
		pp_stat_add(pool->owner_recycle_stats.cache_full, 1);
	}
	pp_put_one_in_ring(pool, page, dma_sync_size);
}
EXPORT_SYMBOL(page_pool_put_defragged_page);

/**
 * page_pool_put_page_bulk() - give back pages by their data addresses
 * @pool: the pool all the pages came from
 * @data: addresses inside the pages (as XDP frames hold them); the
 *	array is reused as scratch space
 * @count: number of entries in @data
 *
 * Like page_pool_put_full_page() without allow_direct on each page,
 * but all the pages claim their cells in the return ring at once (or,
 * where the pool's NAPI would run, go to the alloc cache first).
 */
void page_pool_put_page_bulk(struct page_pool *pool, void **data, int count)
{
	int i, kept = 0, cached, stored;

	for (i = 0; i < count; i++) {
		struct page *page = virt_to_head_page(data[i]);

		if (!page_pool_is_last_frag(pool, page))
			continue;
		/* Rare here: the out-of-line put frees (or stores) it. */
		if (unlikely(!pp_page_recyclable(page))) {
			page_pool_put_defragged_page(pool, page, -1, false);
			continue;
		}
		data[kept++] = page;
	}
	/* The pool may be gone once its pages are: touch it only for more. */
	if (!kept)
		return;
	pp_leak_note_back_bulk(pool, data, kept);

	cached = pp_napi_local(pool) ? pp_cache_put_bulk(pool, data, kept) : 0;
	if (cached == kept)
		return;
	stored = cached + pp_ring_put(pool, data + cached, kept - cached, -1);
	for (i = stored; i < kept; i++)
		pp_free_page(pool, data[i]);
}
EXPORT_SYMBOL(page_pool_put_page_bulk);

/**
 * page_pool_release_page() - take a page out of its pool for good
 * @pool: the pool the page came from
 * @page: the page
 *
 * The pool unmaps the page (unless destroy already did) and forgets it;
 * the caller keeps its reference and frees the page with put_page().
 */
void page_pool_release_page(struct page_pool *pool, struct page *page)
{
	pp_release_page(pool, page, false);
}
EXPORT_SYMBOL(page_pool_release_page);

/**
 * page_pool_return_skb_page() - give back a page an skb held
 * @page: the page, or any page of it if it is compound
 *
 * Called when an skb marked for recycling drops a page reference.
 *
 * Return: true if the page belonged to a pool, which took it (and the
 * reference) back; false if the caller must free it the usual way.
 */
bool page_pool_return_skb_page(struct page *page)
{
	struct page *head = compound_head(page);

	if (unlikely((head->pp_magic & ~PP_MAGIC_ALLOC_BITS) != PP_SIGNATURE))
		return false;

	page_pool_put_full_page(head->pp, head, false);
	return true;
}
EXPORT_SYMBOL(page_pool_return_skb_page);

/**
 * page_pool_update_nid() - move the pool to another NUMA node
 * @pool: the pool
 * @new_nid: the node to allocate from and recycle for from now on, or
 *	NUMA_NO_NODE for the node of the CPU that allocates. A node
 *	without memory is taken as NUMA_NO_NODE.
 *
 * Call from the pool's owner context. Pages in the alloc cache that are
 * not on the node the pool now allocates from are freed.
 */
void page_pool_update_nid(struct page_pool *pool, int new_nid)
{
	trace_page_pool_update_nid(pool, new_nid);
	WRITE_ONCE(pool->p.nid, new_nid);
	pool->alloc_nid = pp_usable_node(new_nid);
	pool->alloc.count = pp_keep_local_pages(pool, 0, pool->alloc.count);
}
EXPORT_SYMBOL(page_pool_update_nid);

#ifdef CONFIG_PAGE_POOL_STATS
static int pp_stats_alloc(struct page_pool *pool)
{
	pool->recycle_stats = alloc_percpu(struct page_pool_recycle_stats);
	return pool->recycle_stats ? 0 : -ENOMEM;
}

static void pp_stats_free(struct page_pool *pool)
{
	free_percpu(pool->recycle_stats);
}

/**
 * page_pool_get_stats() - add up a pool's counters
 * @pool: the pool
 * @stats: where to add them; the counters are added to what is there,
 *	so one struct can collect several pools
 *
 * Return: false if @pool or @stats is NULL, else true.
 */
bool page_pool_get_stats(struct page_pool *pool,
			 struct page_pool_stats *stats)
{
	struct page_pool_recycle_stats owner, *r;
	struct page_pool_alloc_stats a;
	int cpu;

	if (!pool || !stats)
		return false;

	/* The owner's plain adds: a value a little behind, maybe torn on
	 * 32-bit, as in 6.1; marking them would cost the owner's fast path.
	 */
	a = data_race(pool->alloc_stats);
	/* The owner's recycle counters: the same. */
	owner = data_race(pool->owner_recycle_stats);

	stats->alloc_stats.fast += a.fast;
	stats->alloc_stats.slow += a.slow;
	stats->alloc_stats.slow_high_order += a.slow_high_order;
	stats->alloc_stats.empty += a.empty;
	stats->alloc_stats.refill += a.refill;
	stats->alloc_stats.waive += a.waive;
	stats->recycle_stats.cached += owner.cached;
	stats->recycle_stats.cache_full += owner.cache_full;
	stats->recycle_stats.released_refcnt += owner.released_refcnt;
	stats->recycle_stats.ring += pp_ring_stores(&pool->ring);

	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(pool->recycle_stats, cpu);
		stats->recycle_stats.ring_full += READ_ONCE(r->ring_full);
		stats->recycle_stats.released_refcnt +=
			READ_ONCE(r->released_refcnt);
	}
	return true;
}
EXPORT_SYMBOL(page_pool_get_stats);

/* In the order page_pool_ethtool_stats_get() writes the values. */
static const char pp_ethtool_names[][ETH_GSTRING_LEN] = {
	"rx_pp_alloc_fast",
	"rx_pp_alloc_slow",
	"rx_pp_alloc_slow_ho",
	"rx_pp_alloc_empty",
	"rx_pp_alloc_refill",
	"rx_pp_alloc_waive",
	"rx_pp_recycle_cached",
	"rx_pp_recycle_cache_full",
	"rx_pp_recycle_ring",
	"rx_pp_recycle_ring_full",
	"rx_pp_recycle_released_ref",
};

/**
 * page_pool_ethtool_stats_get_count() - number of page_pool ethtool stats
 *
 * Return: how many strings and values the two helpers below write.
 */
int page_pool_ethtool_stats_get_count(void)
{
	return ARRAY_SIZE(pp_ethtool_names);
}
EXPORT_SYMBOL(page_pool_ethtool_stats_get_count);

/**
 * page_pool_ethtool_stats_get_strings() - write the ethtool stat names
 * @data: where to write them, ETH_GSTRING_LEN bytes each
 *
 * Return: the byte after the last name written.
 */
u8 *page_pool_ethtool_stats_get_strings(u8 *data)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pp_ethtool_names); i++) {
		memcpy(data, pp_ethtool_names[i], ETH_GSTRING_LEN);
		data += ETH_GSTRING_LEN;
	}
	return data;
}
EXPORT_SYMBOL(page_pool_ethtool_stats_get_strings);

/**
 * page_pool_ethtool_stats_get() - write the ethtool stat values
 * @data: where to write them
 * @stats: a struct page_pool_stats, filled by page_pool_get_stats()
 *
 * Return: the slot after the last value written.
 */
u64 *page_pool_ethtool_stats_get(u64 *data, void *stats)
{
	const struct page_pool_stats *s = stats;

	*data++ = s->alloc_stats.fast;
	*data++ = s->alloc_stats.slow;
	*data++ = s->alloc_stats.slow_high_order;
	*data++ = s->alloc_stats.empty;
	*data++ = s->alloc_stats.refill;
	*data++ = s->alloc_stats.waive;
	*data++ = s->recycle_stats.cached;
	*data++ = s->recycle_stats.cache_full;
	*data++ = s->recycle_stats.ring;
	*data++ = s->recycle_stats.ring_full;
	*data++ = s->recycle_stats.released_refcnt;
	return data;
}
EXPORT_SYMBOL(page_pool_ethtool_stats_get);
#else
static int pp_stats_alloc(struct page_pool *pool)
{
	return 0;
}

static void pp_stats_free(struct page_pool *pool)
{
}
#endif /* CONFIG_PAGE_POOL_STATS */

static void pp_free(struct page_pool *pool)
{
	page_pool_unlist(pool);
	page_pool_leak_fini(pool);
	if (pool->disconnect)
		pool->disconnect(pool);
	pp_stats_free(pool);
	pp_ring_free(&pool->ring);
	kfree(pool);
}

#define PP_DRAIN_BATCH	16

/* Destroy, then the deferred free work: the consumers once the owner stopped. */
static void pp_empty_ring(struct page_pool *pool)
{
	void *pages[PP_DRAIN_BATCH];
	unsigned int i, n;

	while ((n = pp_ring_consume(&pool->ring, pages, PP_DRAIN_BATCH)))
		for (i = 0; i < n; i++)
			pp_free_page(pool, pages[i]);
}

static s32 pp_inflight(u32 hold, u32 release)
{
	return hold - release;
}

/* Under teardown_lock; each look is recorded (destroy_cnt, tracepoint). */
static s32 pp_record_inflight(struct page_pool *pool)
{
	u32 hold = READ_ONCE(pool->pages_state_hold_cnt);
	u32 release = atomic_read(&pool->pages_state_release_cnt);
	s32 inflight = pp_inflight(hold, release);

	pool->destroy_cnt++;
	trace_page_pool_release(pool, inflight, hold, release);
	WARN(inflight < 0, "page_pool %p: %d more pages released than held\n",
	     pool, -inflight);
	return inflight;
}

/* Deferred release: free the pool once its last page is back. */
static void pp_free_retry(struct work_struct *work)
{
	struct delayed_work *dwork = to_delayed_work(work);
	struct page_pool *pool;
	unsigned long flags;
	s32 inflight;

	pool = container_of(dwork, struct page_pool, free_dw);
	/* Pages stored by returners that raced with destroy's drain. */
	pp_empty_ring(pool);

	spin_lock_irqsave(&pool->teardown_lock, flags);
	inflight = pp_record_inflight(pool);
	/* The returner of the last page may have queued us once more. */
	if (inflight <= 0)
		cancel_delayed_work(dwork);
	spin_unlock_irqrestore(&pool->teardown_lock, flags);

	if (inflight <= 0) {
		pp_free(pool);
		return;
	}

	/* Only this work may free the pool now, and it never runs concurrently
	 * with itself: a returner's kick only queues the next run.
	 */
	if (time_after_eq(jiffies, pool->defer_warn)) {
		pr_warn("pool %p: %d pages still in flight %u s after destroy\n",
			pool, inflight,
			jiffies_to_msecs(jiffies - pool->defer_start) / 1000);
		page_pool_warn_top_holder(pool);
		pool->defer_warn = jiffies + PP_DEFER_WARN_INTERVAL;
	}
	schedule_delayed_work(dwork, PP_RETRY_INTERVAL);
}

/* Destroy's step "mark destroyed": free now, or once the pages are back. */
static void pp_destroy_or_defer(struct page_pool *pool)
{
	unsigned long flags;
	s32 inflight;

	spin_lock_irqsave(&pool->teardown_lock, flags);
	WRITE_ONCE(pool->destroyed, true);
	inflight = pp_record_inflight(pool);
	if (inflight > 0) {
		pool->defer_start = jiffies;
		pool->defer_warn = jiffies + PP_DEFER_WARN_INTERVAL;
		schedule_delayed_work(&pool->free_dw, PP_RETRY_INTERVAL);
	}
	spin_unlock_irqrestore(&pool->teardown_lock, flags);

	if (inflight <= 0)
		pp_free(pool);
}

/* With fragments still out, the last one's holder frees the page. */
static void pp_drop_frag_page(struct page_pool *pool)
{
	struct page *page = pp_frag_detach(pool);

	if (page)
		pp_free_page(pool, page);
}

static void pp_empty_cache(struct page_pool *pool)
{
	while (pool->alloc.count)
		pp_free_page(pool, pp_cache_pop(pool));
}

/* Destroy only: as the owner, it alone moves the hold count. */
static bool pp_all_pages_back(struct page_pool *pool)
{
	/* Pairs with the full barrier of the count in pp_count_release()
	 * and pp_count_late_release(): the unmap of each page counted
	 * comes before.
	 */
	return atomic_read_acquire(&pool->pages_state_release_cnt) ==
	       pool->pages_state_hold_cnt;
}

/* Destroy's steps "close DMA" and "unmap the rest". */
static void pp_close_dma(struct page_pool *pool)
{
	if (!(pool->p.flags & PP_FLAG_DMA_MAP))
		return;

	WRITE_ONCE(pool->dma_closed, true);
	if (!pp_all_pages_back(pool)) {
		/* Wait for the syncs, stores and unmaps of returners that did
		 * not see ring_closed or dma_closed: expedited under RTNL.
		 */
		synchronize_net();
		pp_empty_ring(pool);
	}
	pp_dma_teardown(pool);
}

/* Rule "NAPI-local returns": once this is back, no return is direct. */
static void pp_unlink_napi(struct page_pool *pool)
{
	if (!pool->p.napi)
		return;
	WRITE_ONCE(pool->p.napi, NULL);
	synchronize_net();
}

/**
 * page_pool_disable_direct_recycling() - stop NAPI-local returns
 * @pool: the pool
 *
 * For a driver that detaches a live pool from its NAPI: once it returns,
 * no page goes to the alloc cache without allow_direct, and the NAPI may
 * be freed. page_pool_destroy() does it too; do not call the two
 * concurrently.
 *
 * Context: process context; it may sleep (it waits for an RCU grace
 * period). The NAPI need not be disabled first.
 */
void page_pool_disable_direct_recycling(struct page_pool *pool)
{
	might_sleep();
	pp_unlink_napi(pool);
}
EXPORT_SYMBOL(page_pool_disable_direct_recycling);

/**
 * page_pool_destroy() - drop a user of the pool, and tear it down if last
 * @pool: the pool, or NULL
 *
 * The pool's creator and each XDP memory model using it (see
 * page_pool_use_xdp_mem()) call this once; the last call must come after
 * the pool's NAPI has stopped allocating. It frees the pages the pool
 * holds, unmaps every page still in flight and drops the device
 * reference, without waiting for those pages: they are freed with no
 * DMA call when they come back, and the pool (calling its disconnect
 * callback) with the last. After it returns the pool never touches the
 * device again, and page_pool_get_dma_addr() of a page in flight is 0.
 * Before the last call the device must have stopped writing to every
 * page of the pool, those in flight included: their mappings go away.
 *
 * Context: process context. The last call may sleep: with a NAPI
 * still linked (&page_pool_params.napi), or with PP_FLAG_DMA_MAP and
 * pages still out, it waits for an RCU grace period, and freeing the
 * pool may call an XDP memory model's disconnect callback, which takes
 * a mutex. It also takes the mutex of the pools' netlink listing, to
 * tell listeners that the pool is detached if pages are still out, and
 * that it is gone once it is freed.
 */
void page_pool_destroy(struct page_pool *pool)
{
	if (!pool)
		return;
	might_sleep();
	if (!page_pool_put(pool))
		return;

	pp_unlink_napi(pool);
	/* Close the ring: returners that see this free their page. */
	WRITE_ONCE(pool->ring_closed, true);
	if (pool->frag_page)
		pp_drop_frag_page(pool);
	pp_empty_cache(pool);
	pp_empty_ring(pool);
	pp_close_dma(pool);
	/* As upstream, announce the detach only of a pool that outlives
	 * destroy, and before the step "mark destroyed" lets the deferred
	 * free work run. The owner allocates no more, so the count only
	 * falls: a pool seen here with no page out is freed below at once.
	 * One whose last page comes back in between is announced detached,
	 * then freed.
	 */
	if (pp_inflight(READ_ONCE(pool->pages_state_hold_cnt),
			atomic_read(&pool->pages_state_release_cnt)) > 0)
		page_pool_detached(pool);
	pp_destroy_or_defer(pool);
}
EXPORT_SYMBOL(page_pool_destroy);

/**
 * page_pool_use_xdp_mem() - let an XDP memory model use the pool
 * @pool: the pool
 * @disconnect: called with the pool when it is finally freed
 * @mem: the memory model, whose id the pool records
 *
 * The memory model becomes a user of the pool and must call
 * page_pool_destroy() when it unregisters.
 */
void page_pool_use_xdp_mem(struct page_pool *pool, void (*disconnect)(void *),
			   struct xdp_mem_info *mem)
{
	refcount_inc(&pool->user_cnt);
	pool->disconnect = disconnect;
	pool->xdp_mem_id = mem->id;
}
EXPORT_SYMBOL(page_pool_use_xdp_mem);

/* Return 0 or the errno, and say which parameter is wrong. */
static int pp_check_params(const struct page_pool_params *p)
{
	bool map = p->flags & PP_FLAG_DMA_MAP;

	if (p->flags & ~PP_FLAG_ALL) {
		pr_warn("flags: unknown bits %#lx\n",
			(unsigned long)p->flags & ~PP_FLAG_ALL);
		return -EINVAL;
	}
	if (p->order >= MAX_ORDER) {
		pr_warn("order: %u is above MAX_ORDER - 1\n", p->order);
		return -EINVAL;
	}
	if ((p->flags & PP_FLAG_DMA_SYNC_DEV) && !map) {
		pr_warn("flags: PP_FLAG_DMA_SYNC_DEV needs PP_FLAG_DMA_MAP\n");
		return -EINVAL;
	}
	if (map && !p->dev) {
		pr_warn("dev: PP_FLAG_DMA_MAP needs a device\n");
		return -EINVAL;
	}
	if (map && p->dma_dir != DMA_FROM_DEVICE &&
	    p->dma_dir != DMA_BIDIRECTIONAL) {
		pr_warn("dma_dir: %d is neither DMA_FROM_DEVICE nor DMA_BIDIRECTIONAL\n",
			p->dma_dir);
		return -EINVAL;
	}
	if ((p->flags & PP_FLAG_DMA_SYNC_DEV) && !p->max_len) {
		pr_warn("max_len: PP_FLAG_DMA_SYNC_DEV needs a length\n");
		return -EINVAL;
	}
	if ((p->flags & PP_FLAG_DMA_SYNC_DEV) &&
	    (u64)p->offset + p->max_len > (PAGE_SIZE << p->order)) {
		pr_warn("offset, max_len: %u + %u is beyond the page\n",
			p->offset, p->max_len);
		return -EINVAL;
	}
	/* Until then its list_owner is not -1: it may be 0, a CPU. */
	if (p->napi && !test_bit(NAPI_STATE_LISTED, &p->napi->state)) {
		pr_warn("napi: not added with netif_napi_add() yet\n");
		return -EINVAL;
	}
	/* The DMA API would refuse every map, with a warning each time. */
	if (map && !p->dev->dma_mask) {
		pr_warn("dev: %s has no DMA mask for PP_FLAG_DMA_MAP\n",
			dev_name(p->dev));
		return -EINVAL;
	}
	return 0;
}

static int pp_init(struct page_pool *pool,
		   const struct page_pool_params *params)
{
	unsigned int ring_size = params->pool_size ?: PP_DEFAULT_RING_SIZE;

	ring_size = min(ring_size, PP_MAX_RING_SIZE);

	pool->p = *params;
	pool->alloc_nid = pp_usable_node(params->nid);
	pool->frags_cut = params->flags & PP_FLAG_PAGE_FRAG;
	if (pp_ring_init(&pool->ring, ring_size, pool->alloc_nid))
		return -ENOMEM;
	if (pp_stats_alloc(pool)) {
		pp_ring_free(&pool->ring);
		return -ENOMEM;
	}

	xa_init_flags(&pool->dma_mapped, XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&pool->teardown_lock);
	INIT_DELAYED_WORK(&pool->free_dw, pp_free_retry);
	refcount_set(&pool->user_cnt, 1);

	/* Held until destroy has unmapped every page; see pp_dma_teardown(). */
	if (pool->p.flags & PP_FLAG_DMA_MAP)
		get_device(pool->p.dev);
	return 0;
}

/* Undo pp_init() for a pool no one has seen. */
static void pp_uninit(struct page_pool *pool)
{
	if (pool->p.flags & PP_FLAG_DMA_MAP)
		put_device(pool->p.dev);
	pp_stats_free(pool);
	pp_ring_free(&pool->ring);
}

/**
 * page_pool_create() - create a page pool
 * @params: what to build; see struct page_pool_params
 *
 * The pool gets an id, and one with &page_pool_params.netdev is shown
 * through the "netdev" netlink family (see net/core/page_pool_user.c).
 *
 * Context: process context, may sleep.
 * Return: the pool, ERR_PTR(-EINVAL) for bad parameters (logged),
 * ERR_PTR(-ENOMEM), or ERR_PTR(-EBUSY) when every pool id is taken.
 */
struct page_pool *page_pool_create(const struct page_pool_params *params)
{
	struct page_pool *pool;
	int err;

	err = pp_check_params(params);
	if (err)
		return ERR_PTR(err);

	pool = kzalloc_node(sizeof(*pool), GFP_KERNEL,
			    pp_usable_node(params->nid));
	if (!pool)
		return ERR_PTR(-ENOMEM);

	err = pp_init(pool, params);
	if (err)
		goto free;
	page_pool_leak_init(pool);
	err = page_pool_list(pool);
	if (err)
		goto uninit;
	return pool;

uninit:
	pp_uninit(pool);
free:
	kfree(pool);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(page_pool_create);
