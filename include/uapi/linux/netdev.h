/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "netdev" generic netlink family: the page pools of network devices.
 *
 * Only the page pool part of the family is here. Its command and
 * attribute numbers are those of the family in later kernels, so that
 * their tools work unchanged; the device commands, numbered before the
 * page pool ones there, are named only to keep those numbers.
 *
 * Attributes of type "uint" are 4 bytes long when the value fits in 32
 * bits and 8 bytes long otherwise; requests may send either length.
 */
#ifndef _UAPI_LINUX_NETDEV_H
#define _UAPI_LINUX_NETDEV_H

#define NETDEV_FAMILY_NAME	"netdev"
#define NETDEV_FAMILY_VERSION	1

/*
 * Attributes of a page pool (page-pool-get, and its notifications):
 *
 * @NETDEV_A_PAGE_POOL_ID: uint, the pool's id, 1 to 2^32 - 1; unique
 *	while the pool exists, then reused only after every other id.
 * @NETDEV_A_PAGE_POOL_IFINDEX: u32, the device the pool belongs to;
 *	absent once that device has gone and the pool waits for its
 *	pages under the namespace's loopback device.
 * @NETDEV_A_PAGE_POOL_NAPI_ID: uint, the NAPI instance the pool was
 *	created for (page_pool_params.napi); absent for none.
 * @NETDEV_A_PAGE_POOL_INFLIGHT: uint, pages handed out by the pool and
 *	not yet given back.
 * @NETDEV_A_PAGE_POOL_INFLIGHT_MEM: uint, the bytes of those pages.
 * @NETDEV_A_PAGE_POOL_DETACH_TIME: uint, seconds since boot
 *	(CLOCK_BOOTTIME) when the driver destroyed the pool; absent while
 *	the driver still uses it. A destroyed pool allocates no more and
 *	goes away once its last page is back.
 */
enum {
	NETDEV_A_PAGE_POOL_ID = 1,
	NETDEV_A_PAGE_POOL_IFINDEX,
	NETDEV_A_PAGE_POOL_NAPI_ID,
	NETDEV_A_PAGE_POOL_INFLIGHT,
	NETDEV_A_PAGE_POOL_INFLIGHT_MEM,
	NETDEV_A_PAGE_POOL_DETACH_TIME,

	__NETDEV_A_PAGE_POOL_MAX,
	NETDEV_A_PAGE_POOL_MAX = (__NETDEV_A_PAGE_POOL_MAX - 1)
};

/*
 * Attributes of page-pool-stats-get. @NETDEV_A_PAGE_POOL_STATS_INFO
 * nests the pool's id and ifindex (as in a page pool's attributes);
 * a request names the pool by its id there. The counters, all uint,
 * are those of struct page_pool_stats, numbered from 8.
 */
enum {
	NETDEV_A_PAGE_POOL_STATS_INFO = 1,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST = 8,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW_HIGH_ORDER,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_EMPTY,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_REFILL,
	NETDEV_A_PAGE_POOL_STATS_ALLOC_WAIVE,
	NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED,
	NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHE_FULL,
	NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING,
	NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL,
	NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT,

	__NETDEV_A_PAGE_POOL_STATS_MAX,
	NETDEV_A_PAGE_POOL_STATS_MAX = (__NETDEV_A_PAGE_POOL_STATS_MAX - 1)
};

/*
 * Commands. The four device commands are not implemented here; the
 * kernel answers them with EOPNOTSUPP.
 *
 * @NETDEV_CMD_PAGE_POOL_GET: one pool by its id, or a dump of the pools
 *	of the requester's network namespace.
 * @NETDEV_CMD_PAGE_POOL_ADD_NTF: a pool was created.
 * @NETDEV_CMD_PAGE_POOL_DEL_NTF: a pool was freed, its last page back.
 * @NETDEV_CMD_PAGE_POOL_CHANGE_NTF: a pool was destroyed by its driver,
 *	or its device went away.
 * @NETDEV_CMD_PAGE_POOL_STATS_GET: one pool's counters by its id, or a
 *	dump of every pool's in the requester's network namespace.
 */
enum {
	NETDEV_CMD_DEV_GET = 1,
	NETDEV_CMD_DEV_ADD_NTF,
	NETDEV_CMD_DEV_DEL_NTF,
	NETDEV_CMD_DEV_CHANGE_NTF,
	NETDEV_CMD_PAGE_POOL_GET,
	NETDEV_CMD_PAGE_POOL_ADD_NTF,
	NETDEV_CMD_PAGE_POOL_DEL_NTF,
	NETDEV_CMD_PAGE_POOL_CHANGE_NTF,
	NETDEV_CMD_PAGE_POOL_STATS_GET,

	__NETDEV_CMD_MAX,
	NETDEV_CMD_MAX = (__NETDEV_CMD_MAX - 1)
};

/* The multicast group of the page pool notifications. */
#define NETDEV_MCGRP_PAGE_POOL	"page-pool"

#endif /* _UAPI_LINUX_NETDEV_H */
