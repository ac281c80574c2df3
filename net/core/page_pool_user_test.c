// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases of the pools' netlink view (net/core/page_pool_user.c):
 * ids, which pools are shown and under which device, the detach of a
 * pool destroyed with pages out, and the "netdev" family's replies and
 * notifications as a userspace client gets them. Each case talks to the
 * family through a kernel netlink socket in init_net, so the request
 * goes through genetlink, its policies and the namespace filter.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/delay.h>
#include <linux/genetlink.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <net/busy_poll.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/page_pool.h>
#include <net/sock.h>
#include <uapi/linux/netdev.h>

#include "page_pool_test.h"

#define PPU_POOLS	3
#define PPU_BUF_SIZE	(32 * 1024)
/* How long a reply or notification may take; a bound, not a check. */
#define PPU_RECV_TIMEOUT	(5 * HZ)
/* Room for the attributes of both commands; bits of an unsigned long. */
#define PPU_NATTRS	(NETDEV_A_PAGE_POOL_STATS_MAX + 1)

struct ppu_ctx {
	struct kunit *test;
	struct socket *sock;
	void *buf;
	u32 seq;
	u16 family;
	u32 group;
	struct net_device *dev;
	bool registered;
	struct napi_struct napi;
	bool napi_added;
	struct page_pool *pool[PPU_POOLS];
	struct page *page[PPU_POOLS];
	bool destroyed[PPU_POOLS];
};

/* One message of the family, its attributes as plain numbers. */
struct ppu_msg {
	u8 cmd;
	unsigned long present;	/* bit n: attribute n was there */
	u64 val[PPU_NATTRS];
};

/* A netlink "uint" of 4 or 8 bytes; anything else is a test failure. */
static u64 ppu_uint(struct kunit *test, const struct nlattr *nla)
{
	if (nla_len(nla) == sizeof(u32))
		return nla_get_u32(nla);
	KUNIT_EXPECT_EQ(test, nla_len(nla), (int)sizeof(u64));
	return nla_get_u64(nla);
}

/* Adds the attributes in @head to @m; a nest of type @skip is left out. */
static void ppu_parse_attrs(struct kunit *test, const struct nlattr *head,
			    int len, int skip, struct ppu_msg *m)
{
	const struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem) {
		int type = nla_type(nla);

		if (type >= PPU_NATTRS || type == skip)
			continue;
		m->present |= BIT(type);
		m->val[type] = ppu_uint(test, nla);
	}
}

static void ppu_parse(struct kunit *test, const struct nlmsghdr *nlh,
		      struct ppu_msg *m)
{
	const struct genlmsghdr *gh = nlmsg_data(nlh);
	int skip = 0;

	memset(m, 0, sizeof(*m));
	m->cmd = gh->cmd;
	/* Its info nest shares the number of NETDEV_A_PAGE_POOL_ID. */
	if (m->cmd == NETDEV_CMD_PAGE_POOL_STATS_GET)
		skip = NETDEV_A_PAGE_POOL_STATS_INFO;
	ppu_parse_attrs(test, genlmsg_data(gh), genlmsg_len(gh), skip, m);
}

static bool ppu_has(const struct ppu_msg *m, int type)
{
	return m->present & BIT(type);
}

/* Sends a generic netlink request of @cmd to @type; @attrs fills it. */
static void ppu_send(struct ppu_ctx *ctx, u16 type, u16 flags, u8 cmd,
		     void (*attrs)(struct sk_buff *skb, u64 arg), u64 arg)
{
	struct kunit *test = ctx->test;
	struct msghdr msg = {};
	struct genlmsghdr *gh;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	struct kvec iov;
	int err, len;

	skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	nlh = nlmsg_put(skb, 0, ++ctx->seq, type, GENL_HDRLEN,
			NLM_F_REQUEST | flags);
	gh = nlmsg_data(nlh);
	memset(gh, 0, GENL_HDRLEN);
	gh->cmd = cmd;
	gh->version = 1;
	if (attrs)
		attrs(skb, arg);
	nlmsg_end(skb, nlh);
	len = skb->len;
	iov.iov_base = skb->data;
	iov.iov_len = len;
	err = kernel_sendmsg(ctx->sock, &msg, &iov, 1, len);
	kfree_skb(skb);
	KUNIT_ASSERT_EQ(test, err, len);
}

/* The next datagram into ctx->buf; its length, or -EAGAIN on timeout. */
static int ppu_recv(struct ppu_ctx *ctx)
{
	struct kvec iov = { .iov_base = ctx->buf, .iov_len = PPU_BUF_SIZE };
	struct msghdr msg = {};

	return kernel_recvmsg(ctx->sock, &msg, &iov, 1, PPU_BUF_SIZE, 0);
}

/* Receives the answer to a do request: 0 and @m, or the errno. */
static int ppu_reply(struct ppu_ctx *ctx, struct ppu_msg *m)
{
	struct kunit *test = ctx->test;
	struct nlmsghdr *nlh = ctx->buf;
	int len = ppu_recv(ctx);

	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_TRUE(test, nlmsg_ok(nlh, len));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, ctx->seq);
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = nlmsg_data(nlh);

		return e->error;
	}
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, ctx->family);
	ppu_parse(test, nlh, m);
	return 0;
}

static void ppu_put_id(struct sk_buff *skb, u64 id)
{
	nla_put_u32(skb, NETDEV_A_PAGE_POOL_ID, id);
}

/* page-pool-get of @id: 0 and the reply in @m, or the errno. */
static int ppu_get(struct ppu_ctx *ctx, u32 id, struct ppu_msg *m)
{
	ppu_send(ctx, ctx->family, 0, NETDEV_CMD_PAGE_POOL_GET, ppu_put_id, id);
	return ppu_reply(ctx, m);
}

static void ppu_put_family_name(struct sk_buff *skb, u64 unused)
{
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY_NAME);
}

/* Finds the family and its "page-pool" group as a client does. */
static void ppu_resolve(struct ppu_ctx *ctx)
{
	struct kunit *test = ctx->test;
	struct nlmsghdr *nlh = ctx->buf;
	struct genlmsghdr *gh;
	struct nlattr *id, *groups, *grp;
	int len, rem;

	ppu_send(ctx, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY,
		 ppu_put_family_name, 0);
	len = ppu_recv(ctx);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, GENL_ID_CTRL);
	gh = nlmsg_data(nlh);
	id = nla_find(genlmsg_data(gh), genlmsg_len(gh), CTRL_ATTR_FAMILY_ID);
	KUNIT_ASSERT_NOT_NULL(test, id);
	ctx->family = nla_get_u16(id);
	groups = nla_find(genlmsg_data(gh), genlmsg_len(gh),
			  CTRL_ATTR_MCAST_GROUPS);
	KUNIT_ASSERT_NOT_NULL(test, groups);
	nla_for_each_nested(grp, groups, rem) {
		struct nlattr *name = nla_find_nested(grp,
						      CTRL_ATTR_MCAST_GRP_NAME);
		struct nlattr *gid = nla_find_nested(grp,
						     CTRL_ATTR_MCAST_GRP_ID);

		if (name && gid && !nla_strcmp(name, NETDEV_MCGRP_PAGE_POOL))
			ctx->group = nla_get_u32(gid);
	}
}

/* Joins the "page-pool" group, as `ynl --subscribe page-pool` does. */
static void ppu_subscribe(struct ppu_ctx *ctx)
{
	struct socket *sock = ctx->sock;
	int err;

	KUNIT_ASSERT_NE(ctx->test, ctx->group, 0);
	err = sock->ops->setsockopt(sock, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				    KERNEL_SOCKPTR(&ctx->group),
				    sizeof(ctx->group));
	KUNIT_ASSERT_EQ(ctx->test, err, 0);
}

/* The next notification about pool @id, others skipped: 0, or -EAGAIN. */
static int ppu_next_ntf(struct ppu_ctx *ctx, u32 id, struct ppu_msg *m)
{
	struct nlmsghdr *nlh;
	int len, rem;

	for (;;) {
		len = ppu_recv(ctx);
		if (len < 0)
			return len;
		nlmsg_for_each_msg(nlh, (struct nlmsghdr *)ctx->buf, len, rem) {
			if (nlh->nlmsg_type != ctx->family)
				continue;
			ppu_parse(ctx->test, nlh, m);
			if (m->val[NETDEV_A_PAGE_POOL_ID] == id)
				return 0;
		}
	}
}

static netdev_tx_t ppu_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/* The case's NAPI is never scheduled: it only lends its id. */
static int ppu_poll(struct napi_struct *napi, int budget)
{
	napi_complete_done(napi, 0);
	return 0;
}

static const struct net_device_ops ppu_netdev_ops = {
	.ndo_start_xmit = ppu_xmit,
};

static void ppu_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &ppu_netdev_ops;
}

/* A registered Ethernet device in init_net, left down. */
static void ppu_add_netdev(struct ppu_ctx *ctx)
{
	struct kunit *test = ctx->test;

	ctx->dev = alloc_netdev(0, "ppu%d", NET_NAME_ENUM, ppu_setup);
	KUNIT_ASSERT_NOT_NULL(test, ctx->dev);
	eth_hw_addr_random(ctx->dev);
	KUNIT_ASSERT_EQ(test, register_netdev(ctx->dev), 0);
	ctx->registered = true;
}

static void ppu_unregister(struct ppu_ctx *ctx)
{
	ctx->registered = false;
	unregister_netdev(ctx->dev);
}

/* Pool @i of ctx, shown under @dev (NULL: none) and fed by @napi. */
static struct page_pool *ppu_create(struct ppu_ctx *ctx, int i,
				    struct net_device *dev,
				    struct napi_struct *napi)
{
	struct page_pool_params p = {
		.pool_size = 16,
		.nid = NUMA_NO_NODE,
		.netdev = dev,
		.napi = napi,
	};
	struct page_pool *pool = page_pool_create(&p);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(ctx->test, pool);
	ctx->pool[i] = pool;
	ctx->destroyed[i] = false;
	return pool;
}

/* Takes a page of pool @i and keeps it out until the case ends. */
static void ppu_take_page(struct ppu_ctx *ctx, int i)
{
	ctx->page[i] = pp_test_alloc(ctx->pool[i]);
	KUNIT_ASSERT_NOT_NULL(ctx->test, ctx->page[i]);
}

static void ppu_return_page(struct ppu_ctx *ctx, int i)
{
	page_pool_put_full_page(ctx->pool[i], ctx->page[i], false);
	ctx->page[i] = NULL;
}

static void ppu_destroy(struct ppu_ctx *ctx, int i)
{
	ctx->destroyed[i] = true;
	page_pool_destroy(ctx->pool[i]);
}

static int ppu_init(struct kunit *test)
{
	struct ppu_ctx *ctx;
	int err;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->test = test;
	ctx->buf = kunit_kmalloc(test, PPU_BUF_SIZE, GFP_KERNEL);
	if (!ctx->buf)
		return -ENOMEM;
	err = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW,
			       NETLINK_GENERIC, &ctx->sock);
	if (err)
		return err;
	ctx->sock->sk->sk_rcvtimeo = PPU_RECV_TIMEOUT;
	test->priv = ctx;
	ppu_resolve(ctx);
	return 0;
}

/* Undoes what the case got to, in the order a driver would. */
static void ppu_exit(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = 0; i < PPU_POOLS; i++) {
		if (ctx->page[i])
			ppu_return_page(ctx, i);
		if (ctx->pool[i] && !ctx->destroyed[i])
			ppu_destroy(ctx, i);
	}
	if (ctx->napi_added)
		netif_napi_del(&ctx->napi);
	if (ctx->registered)
		ppu_unregister(ctx);
	if (ctx->dev)
		free_netdev(ctx->dev);
	sock_release(ctx->sock);
}

/* What userspace tools built for upstream's family compile in. */
static void ppu_uapi_numbers_are_upstreams(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, NETDEV_FAMILY_NAME, "netdev");
	KUNIT_EXPECT_STREQ(test, NETDEV_MCGRP_PAGE_POOL, "page-pool");
	KUNIT_EXPECT_EQ(test, NETDEV_CMD_PAGE_POOL_GET, 5);
	KUNIT_EXPECT_EQ(test, NETDEV_CMD_PAGE_POOL_ADD_NTF, 6);
	KUNIT_EXPECT_EQ(test, NETDEV_CMD_PAGE_POOL_DEL_NTF, 7);
	KUNIT_EXPECT_EQ(test, NETDEV_CMD_PAGE_POOL_CHANGE_NTF, 8);
	KUNIT_EXPECT_EQ(test, NETDEV_CMD_PAGE_POOL_STATS_GET, 9);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_ID, 1);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_IFINDEX, 2);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_NAPI_ID, 3);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_INFLIGHT, 4);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_INFLIGHT_MEM, 5);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_DETACH_TIME, 6);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_STATS_INFO, 1);
	KUNIT_EXPECT_EQ(test, NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST, 8);
	KUNIT_EXPECT_EQ(test,
			NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT, 18);
}

static void ppu_family_has_page_pool_group(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;

	KUNIT_EXPECT_GE(test, ctx->family, GENL_START_ALLOC);
	KUNIT_EXPECT_NE(test, ctx->group, 0);
}

static void ppu_ids_are_distinct(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *a = ppu_create(ctx, 0, NULL, NULL);
	struct page_pool *b = ppu_create(ctx, 1, NULL, NULL);

	KUNIT_EXPECT_NE(test, a->user.id, 0);
	KUNIT_EXPECT_NE(test, b->user.id, 0);
	KUNIT_EXPECT_NE(test, a->user.id, b->user.id);
}

/* Cyclic ids: a client that holds an id must not reach the next pool. */
static void ppu_id_not_reused_at_once(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	u32 old = ppu_create(ctx, 0, NULL, NULL)->user.id;

	ppu_destroy(ctx, 0);
	ctx->pool[0] = NULL;
	KUNIT_EXPECT_NE(test, ppu_create(ctx, 1, NULL, NULL)->user.id, old);
}

static void ppu_get_shows_pool_of_netdev(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool;
	struct ppu_msg m;

	ppu_add_netdev(ctx);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	ppu_take_page(ctx, 0);
	KUNIT_EXPECT_PTR_EQ(test, pool->user.netdev, ctx->dev);

	KUNIT_ASSERT_EQ(test, ppu_get(ctx, pool->user.id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_GET);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_ID], pool->user.id);
	KUNIT_EXPECT_TRUE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_IFINDEX));
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_IFINDEX],
			ctx->dev->ifindex);
	/* Pages the pool keeps in its cache count too. */
	KUNIT_EXPECT_GE(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 1);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT_MEM],
			m.val[NETDEV_A_PAGE_POOL_INFLIGHT] * PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_NAPI_ID));
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_DETACH_TIME));
}

static void ppu_get_reports_napi_id(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool;
	struct ppu_msg m;

	ppu_add_netdev(ctx);
	netif_napi_add(ctx->dev, &ctx->napi, ppu_poll);
	ctx->napi_added = true;
	KUNIT_ASSERT_GE(test, ctx->napi.napi_id, MIN_NAPI_ID);
	pool = ppu_create(ctx, 0, ctx->dev, &ctx->napi);

	KUNIT_ASSERT_EQ(test, ppu_get(ctx, pool->user.id, &m), 0);
	KUNIT_EXPECT_TRUE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_NAPI_ID));
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_NAPI_ID],
			ctx->napi.napi_id);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 0);
}

static void ppu_pool_without_netdev_is_hidden(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool = ppu_create(ctx, 0, NULL, NULL);
	struct ppu_msg m;

	KUNIT_EXPECT_NULL(test, pool->user.netdev);
	KUNIT_EXPECT_EQ(test, ppu_get(ctx, pool->user.id, &m), -ENOENT);
}

/* An unregistered device may be freed unseen by the notifier. */
static void ppu_pool_of_unregistered_netdev_is_hidden(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool;
	struct ppu_msg m;

	ctx->dev = alloc_netdev(0, "ppu%d", NET_NAME_ENUM, ppu_setup);
	KUNIT_ASSERT_NOT_NULL(test, ctx->dev);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	KUNIT_EXPECT_NULL(test, pool->user.netdev);
	KUNIT_EXPECT_EQ(test, ppu_get(ctx, pool->user.id, &m), -ENOENT);
}

static void ppu_get_rejects_bad_ids(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct ppu_msg m;

	KUNIT_EXPECT_EQ(test, ppu_get(ctx, 0, &m), -ERANGE);
	ppu_send(ctx, ctx->family, 0, NETDEV_CMD_PAGE_POOL_GET, NULL, 0);
	KUNIT_EXPECT_EQ(test, ppu_reply(ctx, &m), -EINVAL);
}

/* Dumps page-pool-get: which of ctx's pools it lists, as a bit mask. */
static unsigned long ppu_dump(struct ppu_ctx *ctx)
{
	struct kunit *test = ctx->test;
	unsigned long seen = 0;
	struct nlmsghdr *nlh;
	struct ppu_msg m;
	int i, len, rem;

	ppu_send(ctx, ctx->family, NLM_F_DUMP, NETDEV_CMD_PAGE_POOL_GET,
		 NULL, 0);
	for (;;) {
		len = ppu_recv(ctx);
		KUNIT_ASSERT_GT(test, len, 0);
		nlmsg_for_each_msg(nlh, (struct nlmsghdr *)ctx->buf, len, rem) {
			if (nlh->nlmsg_type == NLMSG_DONE)
				return seen;
			KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, ctx->family);
			ppu_parse(test, nlh, &m);
			for (i = 0; i < PPU_POOLS; i++) {
				if (ctx->pool[i] &&
				    ctx->pool[i]->user.id ==
				    m.val[NETDEV_A_PAGE_POOL_ID]) {
					KUNIT_EXPECT_FALSE(test, seen & BIT(i));
					KUNIT_EXPECT_EQ(test,
							m.val[NETDEV_A_PAGE_POOL_IFINDEX],
							ctx->dev->ifindex);
					seen |= BIT(i);
				}
			}
		}
	}
}

static void ppu_dump_lists_pools_of_netdevs(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;

	ppu_add_netdev(ctx);
	ppu_create(ctx, 0, ctx->dev, NULL);
	ppu_create(ctx, 1, NULL, NULL);
	ppu_create(ctx, 2, ctx->dev, NULL);
	KUNIT_EXPECT_EQ(test, ppu_dump(ctx), BIT(0) | BIT(2));
}

/* The pool waits for its pages under loopback, shown without ifindex. */
static void ppu_unregister_moves_pool_to_loopback(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool;
	struct ppu_msg m;

	ppu_add_netdev(ctx);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	ppu_take_page(ctx, 0);
	ppu_unregister(ctx);
	KUNIT_EXPECT_PTR_EQ(test, pool->user.netdev, init_net.loopback_dev);

	KUNIT_ASSERT_EQ(test, ppu_get(ctx, pool->user.id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_ID], pool->user.id);
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_IFINDEX));
	KUNIT_EXPECT_GE(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 1);
}

/* Only the pools of the device that goes move: a hidden one stays so. */
static void ppu_unregister_leaves_other_pools(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *mine, *other;

	ppu_add_netdev(ctx);
	mine = ppu_create(ctx, 0, ctx->dev, NULL);
	other = ppu_create(ctx, 1, NULL, NULL);
	ppu_unregister(ctx);
	KUNIT_EXPECT_PTR_EQ(test, mine->user.netdev, init_net.loopback_dev);
	KUNIT_EXPECT_NULL(test, other->user.netdev);
}

static void ppu_destroy_with_page_out_detaches(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool *pool;
	u64 before, after;
	struct ppu_msg m;

	ppu_add_netdev(ctx);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	ppu_take_page(ctx, 0);
	KUNIT_EXPECT_FALSE(test, pool->user.detached);
	/* Past the first second of boot, a time left unset (0) shows. */
	while (ktime_get_boottime_seconds() < 1)
		msleep(100);
	before = ktime_get_boottime_seconds();
	ppu_destroy(ctx, 0);
	after = ktime_get_boottime_seconds();
	/* The page out keeps the pool, so its fields stay readable. */
	KUNIT_EXPECT_TRUE(test, pool->user.detached);
	KUNIT_EXPECT_GE(test, pool->user.detach_time, before);
	KUNIT_EXPECT_LE(test, pool->user.detach_time, after);

	KUNIT_ASSERT_EQ(test, ppu_get(ctx, pool->user.id, &m), 0);
	KUNIT_EXPECT_TRUE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_DETACH_TIME));
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_DETACH_TIME],
			pool->user.detach_time);
	/* Destroy emptied the cache: only the page the case holds is out. */
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 1);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT_MEM],
			PAGE_SIZE);
}

/* The life of a pool as a listener sees it: add, change, del. */
static void ppu_notifications_follow_pool(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct ppu_msg m;
	u32 id;

	ppu_add_netdev(ctx);
	ppu_subscribe(ctx);
	id = ppu_create(ctx, 0, ctx->dev, NULL)->user.id;
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_ADD_NTF);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_IFINDEX],
			ctx->dev->ifindex);

	ppu_take_page(ctx, 0);
	ppu_destroy(ctx, 0);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_CHANGE_NTF);
	KUNIT_EXPECT_TRUE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_DETACH_TIME));
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 1);

	/* The last page back frees the pool, from a work item. */
	ppu_return_page(ctx, 0);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_DEL_NTF);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_INFLIGHT], 0);
}

/* With no page out, destroy frees the pool: no detach to announce. */
static void ppu_destroy_without_pages_goes_straight_to_del(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct ppu_msg m;
	u32 id;

	ppu_add_netdev(ctx);
	ppu_subscribe(ctx);
	id = ppu_create(ctx, 0, ctx->dev, NULL)->user.id;
	ppu_destroy(ctx, 0);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_ADD_NTF);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_DEL_NTF);
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_DETACH_TIME));
}

/* A listener hears of the move, and of the pool's end under loopback. */
static void ppu_unregister_notifies_change(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct ppu_msg m;
	u32 id;

	ppu_add_netdev(ctx);
	id = ppu_create(ctx, 0, ctx->dev, NULL)->user.id;
	ppu_subscribe(ctx);
	ppu_unregister(ctx);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_CHANGE_NTF);
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_IFINDEX));
	KUNIT_EXPECT_FALSE(test, ppu_has(&m, NETDEV_A_PAGE_POOL_DETACH_TIME));
	ppu_destroy(ctx, 0);
	KUNIT_ASSERT_EQ(test, ppu_next_ntf(ctx, id, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_DEL_NTF);
}

#ifdef CONFIG_PAGE_POOL_STATS
static void ppu_put_stats_info(struct sk_buff *skb, u64 id)
{
	struct nlattr *nest = nla_nest_start(skb,
					     NETDEV_A_PAGE_POOL_STATS_INFO);

	nla_put_u32(skb, NETDEV_A_PAGE_POOL_ID, id);
	nla_nest_end(skb, nest);
}

static void ppu_stats_get_names_pool(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool_stats s;
	struct page_pool *pool;
	struct nlattr *info;
	struct ppu_msg m;
	struct genlmsghdr *gh;

	ppu_add_netdev(ctx);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	ppu_take_page(ctx, 0);
	s = pp_test_stats(pool);

	ppu_send(ctx, ctx->family, 0, NETDEV_CMD_PAGE_POOL_STATS_GET,
		 ppu_put_stats_info, pool->user.id);
	KUNIT_ASSERT_EQ(test, ppu_reply(ctx, &m), 0);
	KUNIT_EXPECT_EQ(test, m.cmd, NETDEV_CMD_PAGE_POOL_STATS_GET);
	/* A fresh pool's first page takes the slow path. */
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow, 1);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW],
			s.alloc_stats.slow);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST],
			s.alloc_stats.fast);

	gh = nlmsg_data((struct nlmsghdr *)ctx->buf);
	info = nla_find(genlmsg_data(gh), genlmsg_len(gh),
			NETDEV_A_PAGE_POOL_STATS_INFO);
	KUNIT_ASSERT_NOT_NULL(test, info);
	memset(&m, 0, sizeof(m));
	ppu_parse_attrs(test, nla_data(info), nla_len(info), 0, &m);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_ID], pool->user.id);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_IFINDEX],
			ctx->dev->ifindex);
}

/* Each counter under its own attribute: the pool's counters are made
 * to differ where two attributes could be swapped (fast and slow, ring
 * and cached), then every attribute is compared with its field.
 */
static void ppu_stats_get_maps_every_counter(struct kunit *test)
{
	struct ppu_ctx *ctx = test->priv;
	struct page_pool_stats s;
	struct page_pool *pool;
	struct page *pages[3];
	struct ppu_msg m;
	int i;

	ppu_add_netdev(ctx);
	pool = ppu_create(ctx, 0, ctx->dev, NULL);
	for (i = 0; i < 3; i++)
		pages[i] = pp_test_alloc(pool);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	page_pool_put_full_page(pool, pages[0], false);
	page_pool_put_full_page(pool, pages[1], false);
	/* BH off: the caller may be the pool's owner, a direct return. */
	local_bh_disable();
	page_pool_put_full_page(pool, pages[2], true);
	local_bh_enable();
	s = pp_test_stats(pool);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.slow, 1);
	KUNIT_EXPECT_EQ(test, s.alloc_stats.fast, 2);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.ring, 2);
	KUNIT_EXPECT_EQ(test, s.recycle_stats.cached, 1);

	ppu_send(ctx, ctx->family, 0, NETDEV_CMD_PAGE_POOL_STATS_GET,
		 ppu_put_stats_info, pool->user.id);
	KUNIT_ASSERT_EQ(test, ppu_reply(ctx, &m), 0);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST],
			s.alloc_stats.fast);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW],
			s.alloc_stats.slow);
	KUNIT_EXPECT_EQ(test,
			m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW_HIGH_ORDER],
			s.alloc_stats.slow_high_order);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_EMPTY],
			s.alloc_stats.empty);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_REFILL],
			s.alloc_stats.refill);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_ALLOC_WAIVE],
			s.alloc_stats.waive);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED],
			s.recycle_stats.cached);
	KUNIT_EXPECT_EQ(test,
			m.val[NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHE_FULL],
			s.recycle_stats.cache_full);
	KUNIT_EXPECT_EQ(test, m.val[NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING],
			s.recycle_stats.ring);
	KUNIT_EXPECT_EQ(test,
			m.val[NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL],
			s.recycle_stats.ring_full);
	KUNIT_EXPECT_EQ(test,
			m.val[NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT],
			s.recycle_stats.released_refcnt);
}
#endif

static struct kunit_case ppu_cases[] = {
	KUNIT_CASE(ppu_uapi_numbers_are_upstreams),
	KUNIT_CASE(ppu_family_has_page_pool_group),
	KUNIT_CASE(ppu_ids_are_distinct),
	KUNIT_CASE(ppu_id_not_reused_at_once),
	KUNIT_CASE(ppu_get_shows_pool_of_netdev),
	KUNIT_CASE(ppu_get_reports_napi_id),
	KUNIT_CASE(ppu_pool_without_netdev_is_hidden),
	KUNIT_CASE(ppu_pool_of_unregistered_netdev_is_hidden),
	KUNIT_CASE(ppu_get_rejects_bad_ids),
	KUNIT_CASE(ppu_dump_lists_pools_of_netdevs),
	KUNIT_CASE(ppu_unregister_moves_pool_to_loopback),
	KUNIT_CASE(ppu_unregister_leaves_other_pools),
	KUNIT_CASE(ppu_destroy_with_page_out_detaches),
	KUNIT_CASE(ppu_notifications_follow_pool),
	KUNIT_CASE(ppu_destroy_without_pages_goes_straight_to_del),
	KUNIT_CASE(ppu_unregister_notifies_change),
#ifdef CONFIG_PAGE_POOL_STATS
	KUNIT_CASE(ppu_stats_get_names_pool),
	KUNIT_CASE(ppu_stats_get_maps_every_counter),
#endif
	{}
};

static struct kunit_suite ppu_suite = {
	.name = "page_pool_user",
	.init = ppu_init,
	.exit = ppu_exit,
	.test_cases = ppu_cases,
};

kunit_test_suite(ppu_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit cases of the page pools' netlink view");
