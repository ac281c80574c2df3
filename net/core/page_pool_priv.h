/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What page_pool.c calls in page_pool_user.c, which shows the pools over
 * netlink, and in page_pool_leak.c, which traces where their pages go;
 * nothing without them.
 */
#ifndef _NET_CORE_PAGE_POOL_PRIV_H
#define _NET_CORE_PAGE_POOL_PRIV_H

#include <net/page_pool/helpers.h>

struct seq_file;

/* pp_magic overlays lru.next, whose low bits hold the pfmemalloc mark. */
#define PP_MAGIC_ALLOC_BITS	0x3UL

#ifdef CONFIG_PAGE_POOL_NETLINK
int page_pool_list(struct page_pool *pool);
void page_pool_detached(struct page_pool *pool);
void page_pool_unlist(struct page_pool *pool);
int page_pool_listed_ifindex(const struct page_pool *pool);
u64 page_pool_listed_inflight(const struct page_pool *pool);
int page_pool_show_listed(struct seq_file *seq,
			  void (*show)(struct seq_file *seq,
				       struct page_pool *pool));
#else
static inline int page_pool_list(struct page_pool *pool)
{
	return 0;
}

static inline void page_pool_detached(struct page_pool *pool)
{
}

static inline void page_pool_unlist(struct page_pool *pool)
{
}
#endif

#ifdef CONFIG_PAGE_POOL_LEAK_TRACE
void page_pool_note_out(struct page_pool *pool, struct page *page);
void page_pool_note_back(struct page_pool *pool, struct page *page);
void page_pool_leak_init(struct page_pool *pool);
void page_pool_leak_fini(struct page_pool *pool);
void page_pool_warn_top_holder(struct page_pool *pool);

/* Each page handed out, from the driver's allocation on. */
static __always_inline void pp_leak_note_out(struct page_pool *pool,
					     struct page *page)
{
	if (static_branch_unlikely(&page_pool_leak_trace) && page)
		page_pool_note_out(pool, page);
}

/* A fragment's page leaves with its first fragment: a later one must
 * not overwrite the receive path that gave an earlier one away. The
 * key first, so that the off state reads nothing.
 */
static __always_inline void pp_leak_note_frag_out(struct page_pool *pool,
						  struct page *page,
						  unsigned int offset)
{
	if (static_branch_unlikely(&page_pool_leak_trace) && page && !offset)
		page_pool_note_out(pool, page);
}

/* Each page back in the pool, or leaving it for good. */
static __always_inline void pp_leak_note_back(struct page_pool *pool,
					      struct page *page)
{
	if (static_branch_unlikely(&page_pool_leak_trace))
		page_pool_note_back(pool, page);
}

/* A bulk return's pages, in a pass of their own: the loop that sorts
 * them then has no call to keep its registers across.
 */
static __always_inline void pp_leak_note_back_bulk(struct page_pool *pool,
						   void **pages, int count)
{
	int i;

	if (static_branch_unlikely(&page_pool_leak_trace)) {
		for (i = 0; i < count; i++)
			page_pool_note_back(pool, pages[i]);
	}
}
#else
static inline void pp_leak_note_out(struct page_pool *pool, struct page *page)
{
}

static inline void pp_leak_note_back(struct page_pool *pool, struct page *page)
{
}

static inline void pp_leak_note_back_bulk(struct page_pool *pool, void **pages,
					  int count)
{
}

static inline void pp_leak_note_frag_out(struct page_pool *pool,
					 struct page *page, unsigned int offset)
{
}

static inline void page_pool_leak_init(struct page_pool *pool)
{
}

static inline void page_pool_leak_fini(struct page_pool *pool)
{
}

static inline void page_pool_warn_top_holder(struct page_pool *pool)
{
}
#endif

#endif /* _NET_CORE_PAGE_POOL_PRIV_H */
