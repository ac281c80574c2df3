/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The holders of a traced pool's pages (net/core/page_pool_leak.c), for
 * its debugfs listing, its warning and its KUnit suite.
 */
#ifndef _NET_CORE_PAGE_POOL_LEAK_H
#define _NET_CORE_PAGE_POOL_LEAK_H

#include <linux/stackdepot.h>

struct page_pool;

/* Distinct stacks a listing shows per pool; the rest are only counted. */
#define PAGE_POOL_HOLDER_GROUPS	8

/**
 * struct page_pool_holder - the pages out that one stack took last
 * @stack: the call stack, in the stack depot
 * @pages: how many pages it holds
 * @age: in jiffies, how long the one out the longest has been out
 */
struct page_pool_holder {
	depot_stack_handle_t stack;
	unsigned int pages;
	unsigned long age;
};

/**
 * struct page_pool_holders - a traced pool's pages out, by holder
 * @group: the holders, the one with the oldest page first
 * @groups: how many of @group are used
 * @traced: pages out with a record
 * @others: those of them whose stack found no room in @group
 */
struct page_pool_holders {
	struct page_pool_holder group[PAGE_POOL_HOLDER_GROUPS];
	unsigned int groups;
	unsigned int traced;
	unsigned int others;
};

int page_pool_leak_trace_start(void);
unsigned int page_pool_get_holders(struct page_pool *pool,
				   struct page_pool_holders *h);
const struct page_pool_holder *
page_pool_top_holder(const struct page_pool_holders *h);
int page_pool_format_top_holder(struct page_pool *pool, char *buf,
				size_t size);

#endif /* _NET_CORE_PAGE_POOL_LEAK_H */
