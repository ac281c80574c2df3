/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_pool_ring.h needs only struct pp_ring from <net/page_pool.h>:
 * take the real definition, not a copy, from the header it lives in.
 */
#ifndef _SHIM_NET_PAGE_POOL_H
#define _SHIM_NET_PAGE_POOL_H

#include <net/page_pool_ring_types.h>

#endif /* _SHIM_NET_PAGE_POOL_H */
