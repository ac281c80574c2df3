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

/* 6.1's one header is now these two. Drivers written for later
 * kernels include <net/page_pool/helpers.h>; those written for 6.1
 * keep including this one.
 */
#include <net/page_pool/types.h>
#include <net/page_pool/helpers.h>

#endif /* _NET_PAGE_POOL_H */
