// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim_pp_hold - a page pool that outlives its device, seen through
 * the "netdev" generic netlink family: upstream's page_pool_check
 * (tools/testing/selftests/net/nl_netdev.py) on ppsim, in C.
 *
 * ppsim's pp_hold takes a page of RX queue 0's pool and keeps it: the
 * pool must then survive an ifdown, detached, and the device's removal,
 * under loopback, with the page in flight, and go once it is released,
 * each step told in order in the "page-pool" group.
 *
 * Needs root, and a kernel with CONFIG_PPSIM; on a kernel without the
 * family (6.1's own pool), only checks that pp_hold is refused.
 */
#include "ppsim_nl.h"

/* A new device's RX descriptors a queue, each a page in pool mode; the
 * pool counts the pages in its cache in flight too.
 */
#define RING		1024

static int pools_detached(const struct pools *ps)
{
	int i, n = 0;

	for (i = 0; i < ps->n; i++)
		n += ps->p[i].has_detach_time;
	return n;
}

static int bus_read_u(const char *attr, unsigned int *val)
{
	char path[128], buf[32];
	int err;

	snprintf(path, sizeof(path), BUS "/%s", attr);
	err = sysfs_read(path, buf, sizeof(buf));
	if (!err)
		*val = strtoul(buf, NULL, 10);
	return err;
}

static int pp_hold_read(int id)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/pp_hold", id);
	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* The device under test, and our sockets. */
struct hold_dev {
	struct nl nl;
	int ntf;		/* in the page-pool group */
	char ifname[IFNAMSIZ];
	unsigned int ifindex;
};

FIXTURE(pp_hold) {
	struct hold_dev d;
};

FIXTURE_SETUP(pp_hold)
{
	int err;

	self->d.nl.fd = -1;
	self->d.ntf = -1;
	if (access(BUS "/new_device", W_OK))
		SKIP_TEST("no ppsim bus (CONFIG_PPSIM) or not root");
	err = nl_open(&self->d.nl);
	if (err == -ENOENT)
		SKIP_TEST("kernel without the netdev netlink family");
	ASSERT_EQ(0, err);
	self->d.ntf = ntf_open(&self->d.nl);
	ASSERT_LE(0, self->d.ntf);
	/* Created down: no pool yet, so nothing to tell. */
	ASSERT_EQ(0, dev_create(DEV_ID + 2));
	ASSERT_EQ(0, dev_ifname(DEV_ID + 2, self->d.ifname));
	self->d.ifindex = if_nametoindex(self->d.ifname);
	ASSERT_NE(0, self->d.ifindex);
}

FIXTURE_TEARDOWN(pp_hold)
{
	unsigned int held;

	dev_cleanup(DEV_ID + 2);
	if (!bus_read_u("held_pages", &held) && held)
		sysfs_write(BUS "/held_pages", "0");
	if (self->d.ntf >= 0)
		close(self->d.ntf);
	if (self->d.nl.fd >= 0)
		close(self->d.nl.fd);
}

/* Up: a pool per queue is added, attached, its ring's pages in flight. */
static void hold_up(struct __test_metadata *_metadata, struct hold_dev *d,
		    struct pools *added)
{
	struct pools ps;
	int i;

	ASSERT_EQ(0, if_set(d->ifname, true));
	ntf_expect(_metadata, &d->nl, d->ntf, NUM_RXQ, added);
	ASSERT_EQ(NUM_RXQ, ntf_of(added, NETDEV_CMD_PAGE_POOL_ADD_NTF, &ps));
	for (i = 0; i < NUM_RXQ; i++) {
		EXPECT_EQ(d->ifindex, added->p[i].ifindex);
		EXPECT_FALSE(added->p[i].has_detach_time);
	}
	EXPECT_NE(added->p[0].id, added->p[1].id);
}

/*
 * Upstream's page_pool_check on ppsim: pools come and go with the
 * device's up and down; a page held across a down keeps its pool,
 * detached, until the page comes back; held across the device's
 * removal, the pool moves to loopback and goes only when released.
 */
TEST_F(pp_hold, pool_outlives_device)
{
	struct hold_dev *d = &self->d;
	long page = sysconf(_SC_PAGESIZE);
	struct pools added, ntf, ps, tmp;
	const struct pool *p;
	unsigned int held;
	__u64 held_id;
	int i;

	/* Down: no pool, and nothing to hold a page of. */
	EXPECT_EQ(0, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	EXPECT_EQ(-ENETDOWN, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	EXPECT_EQ(0, pp_hold_read(DEV_ID + 2));

	/* Up: every posted buffer is a page in flight. */
	hold_up(_metadata, d, &added);
	ASSERT_EQ(NUM_RXQ, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	for (i = 0; i < NUM_RXQ; i++) {
		EXPECT_NE(NULL, pool_find(&added, ps.p[i].id));
		EXPECT_LE(RING, ps.p[i].inflight);
		EXPECT_FALSE(ps.p[i].has_detach_time);
	}

	/* Down with nothing held: each pool is freed at once. */
	ASSERT_EQ(0, if_set(d->ifname, false));
	ntf_expect(_metadata, &d->nl, d->ntf, NUM_RXQ, &ntf);
	EXPECT_EQ(NUM_RXQ, ntf_of(&ntf, NETDEV_CMD_PAGE_POOL_DEL_NTF, &tmp));
	for (i = 0; i < NUM_RXQ; i++)
		EXPECT_NE(NULL, pool_find(&ntf, added.p[i].id));
	EXPECT_EQ(0, pools_now(_metadata, &d->nl, d->ifindex, &ps));

	/* Up, and hold a page: one more in flight, and nothing to tell. */
	hold_up(_metadata, d, &added);
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	EXPECT_EQ(1, pp_hold_read(DEV_ID + 2));
	/* A second hold keeps the one page. */
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	ASSERT_EQ(NUM_RXQ, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	/* Out of the pool's cache, or of a refill that leaves the rest in
	 * it: one more than the rings either way.
	 */
	EXPECT_LE(2 * RING + 1, ps.p[0].inflight + ps.p[1].inflight);
	EXPECT_FALSE(ntf_pending(d->ntf));

	/* Down: the pool with the page is detached, the other freed. */
	ASSERT_EQ(0, if_set(d->ifname, false));
	ntf_expect(_metadata, &d->nl, d->ntf, NUM_RXQ, &ntf);
	ASSERT_EQ(1, ntf_of(&ntf, NETDEV_CMD_PAGE_POOL_CHANGE_NTF, &tmp));
	held_id = tmp.p[0].id;
	EXPECT_NE(NULL, pool_find(&added, held_id));
	EXPECT_EQ(d->ifindex, tmp.p[0].ifindex);
	EXPECT_TRUE(tmp.p[0].has_detach_time);
	EXPECT_EQ(1, tmp.p[0].inflight);
	ASSERT_EQ(1, ntf_of(&ntf, NETDEV_CMD_PAGE_POOL_DEL_NTF, &tmp));
	EXPECT_NE(held_id, tmp.p[0].id);
	ASSERT_EQ(1, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	EXPECT_EQ(held_id, ps.p[0].id);
	EXPECT_TRUE(ps.p[0].has_detach_time);
	EXPECT_EQ(1, ps.p[0].inflight);
	EXPECT_EQ(page, ps.p[0].inflight_mem);

	/* Up again: two new pools beside the detached one. */
	hold_up(_metadata, d, &added);
	EXPECT_EQ(NULL, pool_find(&added, held_id));
	ASSERT_EQ(NUM_RXQ + 1,
		  pools_now(_metadata, &d->nl, d->ifindex, &ps));
	EXPECT_EQ(1, pools_detached(&ps));
	p = pool_find(&ps, held_id);
	ASSERT_NE(NULL, p);
	EXPECT_TRUE(p->has_detach_time);

	/* Released: the old pool goes, the new ones stay. */
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 2, "pp_hold", "0"));
	EXPECT_EQ(0, pp_hold_read(DEV_ID + 2));
	ntf_expect(_metadata, &d->nl, d->ntf, 1, &ntf);
	EXPECT_EQ(NETDEV_CMD_PAGE_POOL_DEL_NTF, ntf.p[0].cmd);
	EXPECT_EQ(held_id, ntf.p[0].id);
	EXPECT_EQ(0, ntf.p[0].inflight);
	ASSERT_EQ(NUM_RXQ, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	EXPECT_EQ(0, pools_detached(&ps));
	EXPECT_EQ(NULL, pool_find(&ps, held_id));

	/* Hold a page, then remove the device. */
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	ASSERT_EQ(0, dev_destroy(DEV_ID + 2));
	/* Detached on the device, the other freed, moved to loopback. */
	ntf_expect(_metadata, &d->nl, d->ntf, 3, &ntf);
	ASSERT_EQ(2, ntf_of(&ntf, NETDEV_CMD_PAGE_POOL_CHANGE_NTF, &tmp));
	held_id = tmp.p[0].id;
	EXPECT_EQ(held_id, tmp.p[1].id);
	EXPECT_NE(NULL, pool_find(&added, held_id));
	EXPECT_TRUE(tmp.p[0].has_ifindex);
	EXPECT_EQ(d->ifindex, tmp.p[0].ifindex);
	EXPECT_FALSE(tmp.p[1].has_ifindex);
	EXPECT_TRUE(tmp.p[1].has_detach_time);
	EXPECT_EQ(1, tmp.p[1].inflight);
	ASSERT_EQ(1, ntf_of(&ntf, NETDEV_CMD_PAGE_POOL_DEL_NTF, &tmp));
	EXPECT_NE(held_id, tmp.p[0].id);
	ASSERT_EQ(0, bus_read_u("held_pages", &held));
	EXPECT_EQ(1, held);
	/* The dump shows it under loopback, with its page. */
	ASSERT_EQ(0, pool_dump(&d->nl, NETDEV_CMD_PAGE_POOL_GET, &ps));
	p = pool_find(&ps, held_id);
	ASSERT_NE(NULL, p);
	EXPECT_FALSE(p->has_ifindex);
	EXPECT_TRUE(p->has_detach_time);
	EXPECT_EQ(1, p->inflight);
	EXPECT_EQ(0, pools_of(&ps, d->ifindex, &tmp));

	/* Released from the bus: gone, and told so last. */
	ASSERT_EQ(0, sysfs_write(BUS "/held_pages", "0"));
	ntf_expect(_metadata, &d->nl, d->ntf, 1, &ntf);
	EXPECT_EQ(NETDEV_CMD_PAGE_POOL_DEL_NTF, ntf.p[0].cmd);
	EXPECT_EQ(held_id, ntf.p[0].id);
	EXPECT_FALSE(ntf.p[0].has_ifindex);
	EXPECT_EQ(0, ntf.p[0].inflight);
	ASSERT_EQ(0, bus_read_u("held_pages", &held));
	EXPECT_EQ(0, held);
	ASSERT_EQ(0, pool_dump(&d->nl, NETDEV_CMD_PAGE_POOL_GET, &ps));
	EXPECT_EQ(NULL, pool_find(&ps, held_id));
	EXPECT_FALSE(ntf_pending(d->ntf));
}

/* pp_hold and held_pages refuse what they cannot do, changing nothing. */
TEST_F(pp_hold, refusals)
{
	struct hold_dev *d = &self->d;
	struct pools ps;
	unsigned int held;

	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID + 2, "pp_hold", "2"));
	EXPECT_EQ(-EINVAL, sysfs_write(BUS "/held_pages", "1"));
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 2, "rx_mode", "alloc"));
	ASSERT_EQ(0, if_set(d->ifname, true));
	/* A mode without a pool has no page to hold. */
	EXPECT_EQ(-EOPNOTSUPP, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	EXPECT_EQ(0, pp_hold_read(DEV_ID + 2));
	/* Releasing what is not held is nothing. */
	EXPECT_EQ(0, dev_attr_write(DEV_ID + 2, "pp_hold", "0"));
	EXPECT_EQ(0, pools_now(_metadata, &d->nl, d->ifindex, &ps));
	ASSERT_EQ(0, bus_read_u("held_pages", &held));
	EXPECT_EQ(0, held);
	EXPECT_FALSE(ntf_pending(d->ntf));
}

/* 6.1's pool cannot outlive its device: pp_hold refuses to hold a page. */
TEST(refused_by_6_1_pool)
{
	char ifname[IFNAMSIZ] = "";
	struct nl nl;
	int err;

	if (access(BUS "/new_device", W_OK))
		SKIP(return, "no ppsim bus (CONFIG_PPSIM) or not root");
	err = nl_open(&nl);
	if (!err) {
		close(nl.fd);
		SKIP(return, "our page pool, which pp_hold's other cases cover");
	}
	ASSERT_EQ(-ENOENT, err);
	ASSERT_EQ(0, dev_create(DEV_ID + 2));
	EXPECT_EQ(0, dev_attr_write(DEV_ID + 2, "rx_mode", "pool"));
	EXPECT_EQ(0, dev_ifname(DEV_ID + 2, ifname));
	EXPECT_EQ(0, if_set(ifname, true));
	EXPECT_EQ(-EOPNOTSUPP, dev_attr_write(DEV_ID + 2, "pp_hold", "1"));
	EXPECT_EQ(0, pp_hold_read(DEV_ID + 2));
	/* Were it held, the page must go back while its pool is there. */
	dev_attr_write(DEV_ID + 2, "pp_hold", "0");
	dev_cleanup(DEV_ID + 2);
}

TEST_HARNESS_MAIN
