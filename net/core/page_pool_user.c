// SPDX-License-Identifier: GPL-2.0
/* page_pool: the pools of network devices over generic netlink. */

/**
 * DOC: Page pools over netlink
 *
 * The "netdev" generic netlink family shows page pools to userspace:
 * page-pool-get and page-pool-stats-get, each for one pool by its id or
 * as a dump, and notifications in the "page-pool" multicast group when
 * a pool is created (add), destroyed by its driver with pages still in
 * flight or moved to the loopback device (change), and freed (del): a
 * pool destroyed with no page out goes from add straight to del.
 *
 * **Ids.** Every pool is listed at creation in pp_nl_pools under an id
 * from 1 to U32_MAX, handed out cyclically so that an id names one
 * pool for a long time; the id goes when the pool is freed. Dumps list
 * the pools in id order and go on after the last id they sent, so that
 * pools going between a dump's parts make it skip or repeat none of the
 * others (upstream walks each device's own list instead).
 *
 * **Visibility.** A pool is shown only while it has a device,
 * pool->user.netdev, and only to requesters in that device's network
 * namespace. It starts as page_pool_params.netdev if that device is
 * registered (else the pool is never shown).
 * When that device is unregistered (or leaves the namespace), the pool
 * moves to the namespace's loopback device, where it waits for its
 * pages, shown without an ifindex; when the loopback device goes too
 * (the namespace is dismantled), or is already going, the pool has no
 * device left and is hidden. Devices are found by a walk of pp_nl_pools, so struct
 * net_device keeps no list of its pools.
 *
 * **Locking.** pp_nl_lock, a mutex, covers pp_nl_pools and the user
 * fields of every pool in it; a listed pool is not freed before it is
 * unlisted under it, so whoever holds it may read any listed pool. It
 * nests inside RTNL: the netdevice notifier and drivers' destroy run
 * under RTNL, the netlink requests take no RTNL. The data path never
 * takes it.
 */

#define pr_fmt(fmt) "page_pool: " fmt

#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <net/busy_poll.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/page_pool/helpers.h>
#include <net/sock.h>
#include <uapi/linux/netdev.h>

#include "page_pool_priv.h"

enum pp_nl_groups {
	PP_NL_GROUP_PAGE_POOL,
};

static DEFINE_XARRAY_ALLOC1(pp_nl_pools);
static DEFINE_MUTEX(pp_nl_lock);
/* Under pp_nl_lock: the next id xa_alloc_cyclic() tries. */
static u32 pp_nl_next_id;
/* Under pp_nl_lock: set once the family is registered. */
static bool pp_nl_registered;

static struct genl_family pp_nl_family;

/* A netlink "uint": 4 bytes when the value fits, else 8. */
static int pp_nl_put_uint(struct sk_buff *skb, int type, u64 value)
{
	u32 value32 = value;

	if (value == value32)
		return nla_put_u32(skb, type, value32);
	return nla_put(skb, type, sizeof(value), &value);
}

/* Only for an attribute that pp_nl_check_uint() accepted. */
static u64 pp_nl_get_uint(const struct nlattr *nla)
{
	if (nla_len(nla) == sizeof(u32))
		return nla_get_u32(nla);
	return nla_get_u64(nla);
}

static int pp_nl_check_uint(const struct nlattr *nla,
			    struct netlink_ext_ack *extack)
{
	if (nla_len(nla) != sizeof(u32) && nla_len(nla) != sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "uint attribute must be 4 or 8 bytes long");
		return -EINVAL;
	}
	return 0;
}

/* Policy check of NETDEV_A_PAGE_POOL_ID: a uint from 1 to U32_MAX. */
static int pp_nl_check_id(const struct nlattr *nla,
			  struct netlink_ext_ack *extack)
{
	u64 id;
	int err;

	err = pp_nl_check_uint(nla, extack);
	if (err)
		return err;
	id = pp_nl_get_uint(nla);
	if (!id || id > U32_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "page pool id out of range (1 to 2^32 - 1)");
		return -ERANGE;
	}
	return 0;
}

/* Not const: 6.1's nla_policy points to it without. */
static struct netlink_range_validation pp_nl_ifindex_range = {
	.min = 1,
	.max = INT_MAX,
};

static const struct nla_policy pp_nl_get_policy[NETDEV_A_PAGE_POOL_ID + 1] = {
	[NETDEV_A_PAGE_POOL_ID] =
		NLA_POLICY_VALIDATE_FN(NLA_BINARY, pp_nl_check_id),
};

/* The nest of NETDEV_A_PAGE_POOL_STATS_INFO. */
static const struct nla_policy
pp_nl_info_policy[NETDEV_A_PAGE_POOL_IFINDEX + 1] = {
	[NETDEV_A_PAGE_POOL_ID] =
		NLA_POLICY_VALIDATE_FN(NLA_BINARY, pp_nl_check_id),
	[NETDEV_A_PAGE_POOL_IFINDEX] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &pp_nl_ifindex_range),
};

static const struct nla_policy
pp_nl_stats_policy[NETDEV_A_PAGE_POOL_STATS_INFO + 1] = {
	[NETDEV_A_PAGE_POOL_STATS_INFO] = NLA_POLICY_NESTED(pp_nl_info_policy),
};

/* Under pp_nl_lock. */
static bool pp_nl_visible(const struct page_pool *pool, const struct net *net)
{
	return pool->user.netdev && net_eq(dev_net(pool->user.netdev), net);
}

/* Under pp_nl_lock: whether the pool's device is gone and it waits
 * under the loopback device, which is reported without an ifindex.
 */
static bool pp_nl_on_loopback(const struct page_pool *pool)
{
	const struct net_device *netdev = pool->user.netdev;

	return netdev == dev_net(netdev)->loopback_dev;
}

/**
 * page_pool_listed_inflight() - a listed pool's pages out, as netlink says
 * @pool: a listed pool
 *
 * May lag or lead by a page that the owner or a returner moves meanwhile.
 * Return: what page-pool-get reports as inflight.
 */
u64 page_pool_listed_inflight(const struct page_pool *pool)
{
	u32 release = atomic_read(&pool->pages_state_release_cnt);
	s32 inflight = READ_ONCE(pool->pages_state_hold_cnt) - release;

	return max_t(s32, inflight, 0);
}

/* Under pp_nl_lock, for a visible pool: id and ifindex. */
static int pp_nl_put_ids(struct sk_buff *skb, const struct page_pool *pool)
{
	if (pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_ID, pool->user.id))
		return -EMSGSIZE;
	if (!pp_nl_on_loopback(pool) &&
	    nla_put_u32(skb, NETDEV_A_PAGE_POOL_IFINDEX,
			pool->user.netdev->ifindex))
		return -EMSGSIZE;
	return 0;
}

/* Under pp_nl_lock, for a visible pool: a message of @cmd about it. */
static int pp_nl_fill(struct sk_buff *skb, struct page_pool *pool,
		      u32 portid, u32 seq, int flags, u8 cmd)
{
	u64 inflight = page_pool_listed_inflight(pool);
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &pp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (pp_nl_put_ids(skb, pool) ||
	    (pool->user.napi_id >= MIN_NAPI_ID &&
	     pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_NAPI_ID,
			    pool->user.napi_id)) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_INFLIGHT, inflight) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_INFLIGHT_MEM,
			   inflight * (PAGE_SIZE << pool->p.order)) ||
	    (pool->user.detached &&
	     pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_DETACH_TIME,
			    pool->user.detach_time))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

#ifdef CONFIG_PAGE_POOL_STATS
/* Under pp_nl_lock, for a visible pool: its counters. */
static int pp_nl_stats_fill(struct sk_buff *skb, struct page_pool *pool,
			    u32 portid, u32 seq, int flags, u8 cmd)
{
	struct page_pool_stats s = {};
	struct nlattr *nest;
	void *hdr;

	page_pool_get_stats(pool, &s);
	hdr = genlmsg_put(skb, portid, seq, &pp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, NETDEV_A_PAGE_POOL_STATS_INFO);
	if (!nest || pp_nl_put_ids(skb, pool))
		goto cancel;
	nla_nest_end(skb, nest);
	if (pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST,
			   s.alloc_stats.fast) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW,
			   s.alloc_stats.slow) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW_HIGH_ORDER,
			   s.alloc_stats.slow_high_order) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_EMPTY,
			   s.alloc_stats.empty) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_REFILL,
			   s.alloc_stats.refill) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_ALLOC_WAIVE,
			   s.alloc_stats.waive) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED,
			   s.recycle_stats.cached) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHE_FULL,
			   s.recycle_stats.cache_full) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING,
			   s.recycle_stats.ring) ||
	    pp_nl_put_uint(skb, NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL,
			   s.recycle_stats.ring_full) ||
	    pp_nl_put_uint(skb,
			   NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT,
			   s.recycle_stats.released_refcnt))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}
#endif

/* Answers a do request for the pool of @id with @fill. */
static int pp_nl_get_one(struct genl_info *info, const struct nlattr *id,
			 int (*fill)(struct sk_buff *skb, struct page_pool *pool,
				     u32 portid, u32 seq, int flags, u8 cmd))
{
	struct page_pool *pool;
	struct sk_buff *rsp;
	int err;

	rsp = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rsp)
		return -ENOMEM;

	mutex_lock(&pp_nl_lock);
	pool = xa_load(&pp_nl_pools, pp_nl_get_uint(id));
	if (pool && pp_nl_visible(pool, genl_info_net(info))) {
		err = fill(rsp, pool, info->snd_portid, info->snd_seq, 0,
			   info->genlhdr->cmd);
	} else {
		NL_SET_ERR_MSG_ATTR(info->extack, id, "no page pool with this id");
		err = -ENOENT;
	}
	mutex_unlock(&pp_nl_lock);

	if (err) {
		nlmsg_free(rsp);
		return err;
	}
	return genlmsg_reply(rsp, info);
}

/* The dumps take no attributes, as in the family's later kernels. Checked
 * in the dump, not in its start callback: 6.1 gives that no extack.
 */
static int pp_nl_dump_check(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	unsigned int i;

	for (i = 1; info->attrs && i <= info->op.maxattr; i++) {
		if (info->attrs[i]) {
			NL_SET_ERR_MSG_ATTR(cb->extack, info->attrs[i],
					    "a dump takes no attributes");
			return -EINVAL;
		}
	}
	return 0;
}

/* Dumps the requester's pools with @fill, from the id in cb->args[0]. */
static int pp_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
		      int (*fill)(struct sk_buff *skb, struct page_pool *pool,
				  u32 portid, u32 seq, int flags, u8 cmd))
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct net *net = sock_net(skb->sk);
	struct page_pool *pool;
	unsigned long id;
	int err;

	err = pp_nl_dump_check(cb);
	if (err)
		return err;

	mutex_lock(&pp_nl_lock);
	xa_for_each_start(&pp_nl_pools, id, pool, cb->args[0]) {
		if (!pp_nl_visible(pool, net))
			continue;
		err = fill(skb, pool, NETLINK_CB(cb->skb).portid,
			   cb->nlh->nlmsg_seq, NLM_F_MULTI, info->op.cmd);
		if (err) {
			/* Full: this pool goes first in the next skb. */
			cb->args[0] = id;
			break;
		}
	}
	mutex_unlock(&pp_nl_lock);

	/* A pool that does not fit an empty skb never will. */
	if (err && skb->len)
		return skb->len;
	return err;
}

static int pp_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, NETDEV_A_PAGE_POOL_ID))
		return -EINVAL;
	return pp_nl_get_one(info, info->attrs[NETDEV_A_PAGE_POOL_ID],
			     pp_nl_fill);
}

static int pp_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return pp_nl_dump(skb, cb, pp_nl_fill);
}

#ifdef CONFIG_PAGE_POOL_STATS
static int pp_nl_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ARRAY_SIZE(pp_nl_info_policy)];
	struct nlattr *nest;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, NETDEV_A_PAGE_POOL_STATS_INFO))
		return -EINVAL;
	nest = info->attrs[NETDEV_A_PAGE_POOL_STATS_INFO];
	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest, pp_nl_info_policy,
			       info->extack);
	if (err)
		return err;
	if (tb[NETDEV_A_PAGE_POOL_IFINDEX]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[NETDEV_A_PAGE_POOL_IFINDEX],
				    "pools are looked up by id only");
		return -EINVAL;
	}
	if (!tb[NETDEV_A_PAGE_POOL_ID]) {
		NL_SET_ERR_ATTR_MISS(info->extack, nest, NETDEV_A_PAGE_POOL_ID);
		return -EINVAL;
	}
	return pp_nl_get_one(info, tb[NETDEV_A_PAGE_POOL_ID], pp_nl_stats_fill);
}

static int pp_nl_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return pp_nl_dump(skb, cb, pp_nl_stats_fill);
}
#else
static int pp_nl_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	GENL_SET_ERR_MSG(info, "kernel built without CONFIG_PAGE_POOL_STATS");
	return -EOPNOTSUPP;
}

static int pp_nl_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	NL_SET_ERR_MSG(cb->extack,
		       "kernel built without CONFIG_PAGE_POOL_STATS");
	return -EOPNOTSUPP;
}
#endif

static const struct genl_ops pp_nl_ops[] = {
	{
		.cmd		= NETDEV_CMD_PAGE_POOL_GET,
		.doit		= pp_nl_get_doit,
		.dumpit		= pp_nl_get_dumpit,
		.policy		= pp_nl_get_policy,
		.maxattr	= NETDEV_A_PAGE_POOL_ID,
	},
	{
		.cmd		= NETDEV_CMD_PAGE_POOL_STATS_GET,
		.doit		= pp_nl_stats_doit,
		.dumpit		= pp_nl_stats_dumpit,
		.policy		= pp_nl_stats_policy,
		.maxattr	= NETDEV_A_PAGE_POOL_STATS_INFO,
	},
};

static const struct genl_multicast_group pp_nl_mcgrps[] = {
	[PP_NL_GROUP_PAGE_POOL] = { .name = NETDEV_MCGRP_PAGE_POOL },
};

static struct genl_family pp_nl_family __ro_after_init = {
	.name		= NETDEV_FAMILY_NAME,
	.version	= NETDEV_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= pp_nl_ops,
	.n_ops		= ARRAY_SIZE(pp_nl_ops),
	/* No .resv_start_op: at 0 every command counts as new, so that
	 * genetlink rejects reserved header bits and legacy nlmsg_flags
	 * (genl_header_check()); the policies are strict either way.
	 */
	.mcgrps		= pp_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(pp_nl_mcgrps),
};

/* Under pp_nl_lock: tell the pool's namespace, if it is shown there and
 * anyone listens. A notification that cannot be built is dropped.
 */
static void pp_nl_notify(struct page_pool *pool, u8 cmd)
{
	struct sk_buff *ntf;
	struct net *net;

	lockdep_assert_held(&pp_nl_lock);
	if (!pp_nl_registered || !pool->user.netdev)
		return;
	net = dev_net(pool->user.netdev);
	if (!genl_has_listeners(&pp_nl_family, net, PP_NL_GROUP_PAGE_POOL))
		return;

	ntf = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!ntf)
		return;
	if (pp_nl_fill(ntf, pool, 0, 0, 0, cmd)) {
		nlmsg_free(ntf);
		return;
	}
	genlmsg_multicast_netns(&pp_nl_family, net, ntf, 0,
				PP_NL_GROUP_PAGE_POOL, GFP_KERNEL);
}

/**
 * page_pool_list() - give a new pool its id and announce it
 * @pool: the pool, initialised but not yet handed to its driver
 *
 * Shows the pool under page_pool_params.netdev, if it has one and it
 * is registered: a device that is not may be freed without the
 * notifier hearing of it, so its pools stay hidden.
 *
 * Context: process context; takes pp_nl_lock.
 * Return: 0, or -ENOMEM or -EBUSY (no id left), with the pool unlisted.
 */
int page_pool_list(struct page_pool *pool)
{
	int err;

	mutex_lock(&pp_nl_lock);
	err = xa_alloc_cyclic(&pp_nl_pools, &pool->user.id, pool,
			      XA_LIMIT(1, U32_MAX), &pp_nl_next_id,
			      GFP_KERNEL);
	if (err >= 0) {
		/* Read under the lock: pp_nl_netdev_event() runs after
		 * unregister marks the device, so it will find the pool.
		 */
		if (pool->p.netdev &&
		    READ_ONCE(pool->p.netdev->reg_state) == NETREG_REGISTERED)
			pool->user.netdev = pool->p.netdev;
		/* Kept when the NAPI goes, as the id of what fed the pool. */
		if (pool->p.napi)
			pool->user.napi_id = READ_ONCE(pool->p.napi->napi_id);
		pp_nl_notify(pool, NETDEV_CMD_PAGE_POOL_ADD_NTF);
		err = 0;
	} else {
		pool->user.id = 0;
	}
	mutex_unlock(&pp_nl_lock);
	return err;
}

/**
 * page_pool_detached() - record that the driver destroyed the pool
 * @pool: a listed pool, in its last page_pool_destroy(), with pages in
 *	flight
 *
 * Sets its detach time and announces the change; the pool stays listed
 * until page_pool_unlist(). Called before the pool is marked destroyed,
 * so that its deferred free cannot run meanwhile.
 *
 * Context: process context; takes pp_nl_lock.
 */
void page_pool_detached(struct page_pool *pool)
{
	mutex_lock(&pp_nl_lock);
	pool->user.detach_time = ktime_get_boottime_seconds();
	pool->user.detached = true;
	pp_nl_notify(pool, NETDEV_CMD_PAGE_POOL_CHANGE_NTF);
	mutex_unlock(&pp_nl_lock);
}

/**
 * page_pool_unlist() - announce that a pool is freed, and drop its id
 * @pool: a listed pool whose last page is back, about to be freed
 *
 * Context: process context; takes pp_nl_lock.
 */
void page_pool_unlist(struct page_pool *pool)
{
	mutex_lock(&pp_nl_lock);
	pp_nl_notify(pool, NETDEV_CMD_PAGE_POOL_DEL_NTF);
	xa_erase(&pp_nl_pools, pool->user.id);
	pool->user.netdev = NULL;
	mutex_unlock(&pp_nl_lock);
}

/**
 * page_pool_listed_ifindex() - the ifindex a listed pool is shown with
 * @pool: a listed pool, under pp_nl_lock (as page_pool_show_listed()
 *	calls its show function)
 *
 * Return: its device's ifindex, or 0 once the pool has none of its own
 * (waiting under loopback, or hidden), as page-pool-get reports it.
 */
int page_pool_listed_ifindex(const struct page_pool *pool)
{
	if (!pool->user.netdev || pp_nl_on_loopback(pool))
		return 0;
	return pool->user.netdev->ifindex;
}

/**
 * page_pool_show_listed() - show each listed pool in a seq_file
 * @seq: the file
 * @show: called for each pool, in id order, under pp_nl_lock: it may
 *	read the pool's user fields, and the pool is not freed meanwhile
 *
 * Context: process context; takes pp_nl_lock.
 * Return: 0.
 */
int page_pool_show_listed(struct seq_file *seq,
			  void (*show)(struct seq_file *seq,
				       struct page_pool *pool))
{
	struct page_pool *pool;
	unsigned long id;

	mutex_lock(&pp_nl_lock);
	xa_for_each(&pp_nl_pools, id, pool)
		show(seq, pool);
	mutex_unlock(&pp_nl_lock);
	return 0;
}

/* Under RTNL: the pools of a device that goes move to its namespace's
 * loopback device, if that stays; those of a loopback device that goes,
 * or of a device that goes after it, are hidden. When several namespaces
 * are dismantled together, a device of one may be unregistered after
 * its loopback device, which is then already past NETREG_REGISTERED.
 */
static int pp_nl_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct net_device *lo = dev_net(netdev)->loopback_dev;
	struct page_pool *pool;
	unsigned long id;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;

	if (!lo || netdev == lo ||
	    READ_ONCE(lo->reg_state) != NETREG_REGISTERED)
		lo = NULL;

	mutex_lock(&pp_nl_lock);
	xa_for_each(&pp_nl_pools, id, pool) {
		if (pool->user.netdev != netdev)
			continue;
		pool->user.netdev = lo;
		if (lo)
			pp_nl_notify(pool, NETDEV_CMD_PAGE_POOL_CHANGE_NTF);
	}
	mutex_unlock(&pp_nl_lock);
	return NOTIFY_OK;
}

static struct notifier_block pp_nl_netdev_nb = {
	.notifier_call = pp_nl_netdev_event,
};

/* A subsys_initcall(), to be ready before any built-in driver's
 * module_init() makes a device or a pool: net/ links after drivers/, so
 * a device_initcall() here would run after theirs. genetlink is set up
 * at core_initcall(), and net_dev_init(), a subsys_initcall() of dev.o
 * which links before this file, has set up init_net's devices.
 */
static int __init page_pool_user_init(void)
{
	int err;

	/* Needed whether or not the family registers: pools must not keep
	 * a device that has gone.
	 */
	err = register_netdevice_notifier(&pp_nl_netdev_nb);
	if (err) {
		pr_err("cannot register the netdevice notifier: %d\n",
		       err);
		return err;
	}
	err = genl_register_family(&pp_nl_family);
	if (err) {
		pr_err("cannot register the netdev netlink family: %d\n",
		       err);
		return err;
	}
	mutex_lock(&pp_nl_lock);
	pp_nl_registered = true;
	mutex_unlock(&pp_nl_lock);
	return 0;
}
subsys_initcall(page_pool_user_init);
