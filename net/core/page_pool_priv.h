/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What page_pool.c calls in page_pool_user.c, which shows the pools over
 * netlink; nothing without it.
 */
#ifndef _NET_CORE_PAGE_POOL_PRIV_H
#define _NET_CORE_PAGE_POOL_PRIV_H

struct page_pool;

#ifdef CONFIG_PAGE_POOL_NETLINK
int page_pool_list(struct page_pool *pool);
void page_pool_detached(struct page_pool *pool);
void page_pool_unlist(struct page_pool *pool);
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

#endif /* _NET_CORE_PAGE_POOL_PRIV_H */
