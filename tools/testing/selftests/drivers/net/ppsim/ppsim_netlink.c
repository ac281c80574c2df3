// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim_netlink - ppsim's page pools through the "netdev" generic
 * netlink family, on raw netlink sockets.
 *
 * A ppsim device in "pool" mode has a page pool per RX queue, created
 * with the device's netdev, so the family shows them: the tests find
 * them in a dump by their ifindex, get one by id, read their counters,
 * send requests the family must refuse (and check the error and its
 * extended ack message), and follow the notifications of the
 * "page-pool" group as devices come and go, with pages still held by
 * a socket after their device has gone too.
 *
 * Needs root, and a kernel with CONFIG_PPSIM and our page_pool; skips
 * on a kernel without the family (6.1's own pool).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "../../../kselftest_harness.h"
#include "../../../../../../include/uapi/linux/netdev.h"
#include "../../../../../../drivers/net/ppsim/ppsim_wire.h"

#define BUS		"/sys/bus/ppsim"
/* Apart from ppsim_rx's devices (7 and 8). */
#define DEV_ID		20
#define NUM_RXQ		2
#define MAX_POOLS	64
/* How long a notification, a freed pool or a frame may take to show
 * up: a pool freed late waits for a retry of its deferred free, once a
 * second, and all of it is slow under QEMU's TCG with KASAN.
 */
#define WAIT_S		30
/* The frames per RX queue that the held pages carry. */
#define HELD_FRAMES	32

/* What a page-pool-get reply, a notification or a stats reply held. */
struct pool {
	__u8 cmd;
	__u64 id;
	bool has_ifindex, has_napi_id, has_inflight, has_inflight_mem;
	bool has_detach_time;
	__u32 ifindex;
	__u64 napi_id, inflight, inflight_mem, detach_time;
	/* page-pool-stats-get: counters seen, and two of them. */
	int counters;
	__u64 alloc_slow;
	__u64 alloc_fast;
};

struct nl {
	int fd;
	__u16 family;
	__u32 group;
	__u32 seq;
	/* The last error's extended ack message, or "". */
	char ext_msg[256];
	/* A reply or notification that broke the attribute encoding. */
	bool malformed;
};

/* ---- sysfs and interfaces ---- */

static int sysfs_write(const char *path, const char *val)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int dev_attr_write(int id, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/%s", id, attr);
	return sysfs_write(path, val);
}

static int dev_create(int id)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d %d", id, NUM_RXQ);
	return sysfs_write(BUS "/new_device", buf);
}

static int dev_destroy(int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", id);
	return sysfs_write(BUS "/del_device", buf);
}

static void dev_cleanup(int id)
{
	char path[64];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d", id);
	if (!access(path, F_OK))
		dev_destroy(id);
}

/* The netdev's name, from the bus device's net/ directory. */
static int dev_ifname(int id, char *name)
{
	char path[128];
	struct dirent *de;
	int err = -ENOENT;
	DIR *d;

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/net", id);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IFNAMSIZ)
			continue;
		strcpy(name, de->d_name);
		err = 0;
		break;
	}
	closedir(d);
	return err;
}

static int if_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int err;

	if (fd < 0)
		return -errno;
	err = ioctl(fd, req, ifr) ? -errno : 0;
	close(fd);
	return err;
}

static int if_set_up(const char *ifname)
{
	struct ifreq ifr = {};
	int err;

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	err = if_ioctl(SIOCGIFFLAGS, &ifr);
	if (err)
		return err;
	ifr.ifr_flags |= IFF_UP;
	return if_ioctl(SIOCSIFFLAGS, &ifr);
}

static int if_set_addr(const char *ifname)
{
	struct sockaddr_in *sin;
	struct ifreq ifr = {};
	int err;

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(PPSIM_WIRE_DADDR);
	err = if_ioctl(SIOCSIFADDR, &ifr);
	if (err)
		return err;
	sin->sin_addr.s_addr = htonl(0xffffff00);
	return if_ioctl(SIOCSIFNETMASK, &ifr);
}

/* Device @id in pool mode, up; returns its ifindex, or 0. */
static unsigned int dev_up(int id, bool addr)
{
	char ifname[IFNAMSIZ];

	if (dev_create(id) || dev_ifname(id, ifname) ||
	    dev_attr_write(id, "rx_mode", "pool") ||
	    (addr && if_set_addr(ifname)) || if_set_up(ifname))
		return 0;
	return if_nametoindex(ifname);
}

/* ---- netlink ---- */

#define NLA_DATA(a)	((void *)(a) + NLA_HDRLEN)

/* Whether an attribute starts at @a, within the @left bytes from it. */
static bool nla_ok(const struct nlattr *a, int left)
{
	return left >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= left;
}

static const struct nlattr *nla_next(const struct nlattr *a, int *left)
{
	*left -= NLA_ALIGN(a->nla_len);
	return (const void *)a + NLA_ALIGN(a->nla_len);
}

struct msg {
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	char attrs[512];
};

static void msg_init(struct msg *m, __u16 type, __u8 cmd, __u16 flags)
{
	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->genl.cmd = cmd;
	m->genl.version = 1;
}

static struct nlattr *msg_put(struct msg *m, __u16 type, const void *data,
			      size_t len)
{
	struct nlattr *a = (void *)m + NLMSG_ALIGN(m->nlh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(NLA_DATA(a), data, len);
	m->nlh.nlmsg_len = NLMSG_ALIGN(m->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static void msg_nest_end(struct msg *m, struct nlattr *nest)
{
	nest->nla_len = (char *)m + m->nlh.nlmsg_len - (char *)nest;
}

static int nl_socket(void)
{
	struct timeval tv = { .tv_sec = WAIT_S };
	int one = 1;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The extended ack message of an error (or of a dump's end), if any. */
static void ext_ack_msg(struct nl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct nlattr *a;
	size_t off;
	int left;

	nl->ext_msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = sizeof(int);
	} else {
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
	}
	off = NLMSG_LENGTH(off);
	if (off > nlh->nlmsg_len)
		return;
	left = nlh->nlmsg_len - off;
	for (a = (const void *)nlh + NLMSG_ALIGN(off); nla_ok(a, left);
	     a = nla_next(a, &left))
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (char *)NLA_DATA(a));
}

/*
 * Sends @m and reads until its ack, a dump's end or an error; @cb gets
 * each other message. Returns 0, or the negative errno of the error.
 */
static int nl_request(struct nl *nl, struct msg *m,
		      void (*cb)(struct nl *nl, const struct nlmsghdr *nlh,
				 void *arg),
		      void *arg)
{
	static char buf[65536];
	struct nlmsghdr *nlh;
	ssize_t n;

	m->nlh.nlmsg_seq = ++nl->seq;
	nl->ext_msg[0] = '\0';
	if (send(nl->fd, m, m->nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (nlh = (void *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != nl->seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				ext_ack_msg(nl, nlh);
				return e->error;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int err;

				/* An ack may follow: left unread. */
				memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
				ext_ack_msg(nl, nlh);
				return err;
			}
			if (cb)
				cb(nl, nlh, arg);
		}
	}
}

/* A "uint": 4 bytes when it fits, else 8; else the reply is malformed. */
static __u64 nla_uint(struct nl *nl, const struct nlattr *a)
{
	__u32 v32;
	__u64 v;

	if (a->nla_len == NLA_HDRLEN + sizeof(v32)) {
		memcpy(&v32, NLA_DATA(a), sizeof(v32));
		return v32;
	}
	if (a->nla_len == NLA_HDRLEN + sizeof(v)) {
		memcpy(&v, NLA_DATA(a), sizeof(v));
		if (v <= UINT32_MAX)
			nl->malformed = true;
		return v;
	}
	nl->malformed = true;
	return 0;
}

static __u32 nla_u32(struct nl *nl, const struct nlattr *a)
{
	__u32 v;

	if (a->nla_len != NLA_HDRLEN + sizeof(v)) {
		nl->malformed = true;
		return 0;
	}
	memcpy(&v, NLA_DATA(a), sizeof(v));
	return v;
}

/* The attributes of a pool: at the top of page-pool-get, nested in info. */
static void parse_pool_attr(struct nl *nl, const struct nlattr *a,
			    struct pool *p)
{
	switch (a->nla_type & NLA_TYPE_MASK) {
	case NETDEV_A_PAGE_POOL_ID:
		p->id = nla_uint(nl, a);
		break;
	case NETDEV_A_PAGE_POOL_IFINDEX:
		p->has_ifindex = true;
		p->ifindex = nla_u32(nl, a);
		break;
	case NETDEV_A_PAGE_POOL_NAPI_ID:
		p->has_napi_id = true;
		p->napi_id = nla_uint(nl, a);
		break;
	case NETDEV_A_PAGE_POOL_INFLIGHT:
		p->has_inflight = true;
		p->inflight = nla_uint(nl, a);
		break;
	case NETDEV_A_PAGE_POOL_INFLIGHT_MEM:
		p->has_inflight_mem = true;
		p->inflight_mem = nla_uint(nl, a);
		break;
	case NETDEV_A_PAGE_POOL_DETACH_TIME:
		p->has_detach_time = true;
		p->detach_time = nla_uint(nl, a);
		break;
	default:
		nl->malformed = true;	/* upstream's tools refuse it */
	}
}

static void parse_pool(struct nl *nl, const struct nlmsghdr *nlh,
		       struct pool *p)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a, *b;
	int left, inner, type;

	memset(p, 0, sizeof(*p));
	p->cmd = g->cmd;
	left = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (a = (const void *)g + GENL_HDRLEN; nla_ok(a, left);
	     a = nla_next(a, &left)) {
		if (g->cmd != NETDEV_CMD_PAGE_POOL_STATS_GET) {
			parse_pool_attr(nl, a, p);
			continue;
		}
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NETDEV_A_PAGE_POOL_STATS_INFO:
			inner = a->nla_len - NLA_HDRLEN;
			for (b = NLA_DATA(a); nla_ok(b, inner);
			     b = nla_next(b, &inner))
				parse_pool_attr(nl, b, p);
			break;
		case NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST:
			p->alloc_fast = nla_uint(nl, a);
			p->counters++;
			break;
		case NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW:
			p->alloc_slow = nla_uint(nl, a);
			p->counters++;
			break;
		default:
			/* The other counters, after those two. */
			type = a->nla_type & NLA_TYPE_MASK;
			if (type < NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST ||
			    type > NETDEV_A_PAGE_POOL_STATS_MAX) {
				nl->malformed = true;
				break;
			}
			nla_uint(nl, a);
			p->counters++;
		}
	}
}

struct pools {
	int n;
	struct pool p[MAX_POOLS];
};

static void collect(struct nl *nl, const struct nlmsghdr *nlh, void *arg)
{
	struct pools *ps = arg;

	if (nlh->nlmsg_type != nl->family || ps->n == MAX_POOLS) {
		nl->malformed = true;
		return;
	}
	parse_pool(nl, nlh, &ps->p[ps->n++]);
}

/* Looks up a family's id and one of its multicast groups. */
static void family_cb(struct nl *nl, const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a, *grp, *b;
	int left, l2, l3;
	__u32 id = 0;

	left = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (a = (const void *)g + GENL_HDRLEN; nla_ok(a, left);
	     a = nla_next(a, &left)) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			memcpy(&nl->family, NLA_DATA(a), sizeof(nl->family));
		if ((a->nla_type & NLA_TYPE_MASK) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		l2 = a->nla_len - NLA_HDRLEN;
		for (grp = NLA_DATA(a); nla_ok(grp, l2);
		     grp = nla_next(grp, &l2)) {
			bool ours = false;

			l3 = grp->nla_len - NLA_HDRLEN;
			for (b = NLA_DATA(grp); nla_ok(b, l3);
			     b = nla_next(b, &l3)) {
				if (b->nla_type == CTRL_ATTR_MCAST_GRP_ID)
					memcpy(&id, NLA_DATA(b), sizeof(id));
				if (b->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
					ours = !strcmp(NLA_DATA(b), arg);
			}
			if (ours)
				nl->group = id;
		}
	}
}

/* Opens @nl on the netdev family; -ENOENT when the kernel has none. */
static int nl_open(struct nl *nl)
{
	struct msg m;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->fd = nl_socket();
	if (nl->fd < 0)
		return -errno;
	msg_init(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	msg_put(&m, CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY_NAME,
		sizeof(NETDEV_FAMILY_NAME));
	err = nl_request(nl, &m, family_cb, NETDEV_MCGRP_PAGE_POOL);
	if (!err && (!nl->family || !nl->group))
		err = -EPROTO;
	if (err) {
		close(nl->fd);
		nl->fd = -1;
	}
	return err;
}

static int pool_dump(struct nl *nl, __u8 cmd, struct pools *ps)
{
	struct msg m;

	ps->n = 0;
	msg_init(&m, nl->family, cmd, NLM_F_DUMP);
	return nl_request(nl, &m, collect, ps);
}

/* page-pool-get of an id given in @len bytes (4 or 8 for a valid one). */
static int pool_get(struct nl *nl, __u64 id, size_t len, struct pool *p)
{
	struct pools ps = {};
	__u32 id32 = id;
	struct msg m;
	int err;

	msg_init(&m, nl->family, NETDEV_CMD_PAGE_POOL_GET, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, len == 4 ? (void *)&id32 : &id, len);
	err = nl_request(nl, &m, collect, &ps);
	if (!err && ps.n != 1)
		return -EPROTO;
	if (!err)
		*p = ps.p[0];
	return err;
}

static int pool_stats_get(struct nl *nl, __u64 id, struct pool *p)
{
	struct pools ps = {};
	struct nlattr *nest;
	__u32 id32 = id;
	struct msg m;
	int err;

	msg_init(&m, nl->family, NETDEV_CMD_PAGE_POOL_STATS_GET, 0);
	nest = msg_put(&m, NETDEV_A_PAGE_POOL_STATS_INFO | NLA_F_NESTED,
		       NULL, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id32, sizeof(id32));
	msg_nest_end(&m, nest);
	err = nl_request(nl, &m, collect, &ps);
	if (!err && ps.n != 1)
		return -EPROTO;
	if (!err)
		*p = ps.p[0];
	return err;
}

/* The pools of @ifindex among @ps, into @out. */
static int pools_of(const struct pools *ps, __u32 ifindex, struct pools *out)
{
	int i;

	out->n = 0;
	for (i = 0; i < ps->n; i++)
		if (ps->p[i].has_ifindex && ps->p[i].ifindex == ifindex)
			out->p[out->n++] = ps->p[i];
	return out->n;
}

static const struct pool *pool_find(const struct pools *ps, __u64 id)
{
	int i;

	for (i = 0; i < ps->n; i++)
		if (ps->p[i].id == id)
			return &ps->p[i];
	return NULL;
}

/* A socket in the page-pool group, bound: the kernel's notifications
 * come from port 0, and skip a socket with that port, unbound.
 */
static int ntf_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = nl_socket();

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &nl->group,
		       sizeof(nl->group))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads one notification; 0, or -1 when none came within WAIT_S. */
static int ntf_read(struct nl *nl, int fd, struct pool *p)
{
	static char buf[8192];
	struct nlmsghdr *nlh = (void *)buf;
	ssize_t n;

	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0 || !NLMSG_OK(nlh, n) || nlh->nlmsg_type != nl->family)
		return -1;
	if (NLMSG_NEXT(nlh, n) && n)
		nl->malformed = true;	/* one notification per datagram */
	parse_pool(nl, (void *)buf, p);
	return 0;
}

/* ---- the tests ---- */

/*
 * Ends the test as skipped from its setup: 6.1's harness goes on to the
 * test when the setup only returned after a SKIP.
 */
#define SKIP_TEST(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

FIXTURE(pp_nl) {
	struct nl nl;
	unsigned int ifindex;
	struct pools mine;	/* the device's pools, from a dump */
};

FIXTURE_SETUP(pp_nl)
{
	struct pools all;
	int err;

	self->nl.fd = -1;
	if (access(BUS "/new_device", W_OK))
		SKIP_TEST("no ppsim bus (CONFIG_PPSIM) or not root");
	err = nl_open(&self->nl);
	if (err == -ENOENT)
		SKIP_TEST("kernel without the netdev netlink family");
	ASSERT_EQ(0, err);
	self->ifindex = dev_up(DEV_ID, false);
	ASSERT_NE(0, self->ifindex);
	ASSERT_EQ(0, pool_dump(&self->nl, NETDEV_CMD_PAGE_POOL_GET, &all));
	ASSERT_FALSE(self->nl.malformed);
	/* One pool per RX queue. */
	ASSERT_EQ(NUM_RXQ, pools_of(&all, self->ifindex, &self->mine));
}

FIXTURE_TEARDOWN(pp_nl)
{
	dev_cleanup(DEV_ID);
	dev_cleanup(DEV_ID + 1);
	if (self->nl.fd >= 0)
		close(self->nl.fd);
}

/* What the dump says of the device's pools: an id each, the NAPI of
 * its queue, the posted buffers in flight, not detached.
 */
TEST_F(pp_nl, dump_shows_device_pools)
{
	long page = sysconf(_SC_PAGESIZE);
	int i;

	ASSERT_NE(self->mine.p[0].id, self->mine.p[1].id);
	for (i = 0; i < NUM_RXQ; i++) {
		const struct pool *p = &self->mine.p[i];

		EXPECT_NE(0, p->id);
		EXPECT_TRUE(p->has_napi_id);
		EXPECT_NE(0, p->napi_id);
		ASSERT_TRUE(p->has_inflight);
		ASSERT_TRUE(p->has_inflight_mem);
		/* The RX ring's buffers, a page each in pool mode. */
		EXPECT_LT(0, p->inflight);
		EXPECT_EQ(p->inflight * page, p->inflight_mem);
		EXPECT_FALSE(p->has_detach_time);
	}
	EXPECT_NE(self->mine.p[0].napi_id, self->mine.p[1].napi_id);
}

/* A pool by its id, given in 4 bytes or in 8, as a "uint" may be. */
TEST_F(pp_nl, get_by_id)
{
	const struct pool *want = &self->mine.p[1];
	size_t len[] = { 4, 8 };
	struct pool p;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pool_get(&self->nl, want->id, len[i], &p));
		EXPECT_FALSE(self->nl.malformed);
		EXPECT_EQ(NETDEV_CMD_PAGE_POOL_GET, p.cmd);
		EXPECT_EQ(want->id, p.id);
		EXPECT_TRUE(p.has_ifindex);
		EXPECT_EQ(self->ifindex, p.ifindex);
		EXPECT_EQ(want->napi_id, p.napi_id);
		EXPECT_TRUE(p.has_inflight);
		EXPECT_FALSE(p.has_detach_time);
	}
}

/* An id no pool has: ENOENT, and a message saying so. */
TEST_F(pp_nl, get_unknown_id)
{
	struct pools all;
	struct pool p;
	__u64 id = 0;
	int i;

	ASSERT_EQ(0, pool_dump(&self->nl, NETDEV_CMD_PAGE_POOL_GET, &all));
	for (i = 0; i < all.n; i++)
		if (all.p[i].id > id)
			id = all.p[i].id;
	id += 1000;
	EXPECT_EQ(-ENOENT, pool_get(&self->nl, id, 4, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
	TH_LOG("id %llu: %s", (unsigned long long)id, self->nl.ext_msg);
}

/* Ids of a length a "uint" cannot have, or out of range, are refused. */
TEST_F(pp_nl, get_bad_id)
{
	struct pool p;

	EXPECT_EQ(-EINVAL, pool_get(&self->nl, self->mine.p[0].id, 2, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
	TH_LOG("2 bytes: %s", self->nl.ext_msg);
	EXPECT_EQ(-EINVAL, pool_get(&self->nl, self->mine.p[0].id, 5, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
	EXPECT_EQ(-ERANGE, pool_get(&self->nl, 0, 4, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
	EXPECT_EQ(-ERANGE, pool_get(&self->nl, 1ULL << 32, 8, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
}

/* A get without an id, and a dump with one, are refused. */
TEST_F(pp_nl, requests_without_their_attributes)
{
	__u32 id = self->mine.p[0].id;
	struct pools ps;
	struct msg m;

	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &ps));
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, NLM_F_DUMP);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &ps));
	EXPECT_STRNE("", self->nl.ext_msg);
	/* The device commands are upstream's, not implemented here. */
	msg_init(&m, self->nl.family, NETDEV_CMD_DEV_GET, 0);
	EXPECT_EQ(-EOPNOTSUPP, nl_request(&self->nl, &m, collect, &ps));
}

/* The counters of a pool, by id and in a dump. */
TEST_F(pp_nl, stats)
{
	struct pools all, mine;
	struct pool p;
	int i, err;

	err = pool_stats_get(&self->nl, self->mine.p[0].id, &p);
	if (err == -EOPNOTSUPP)
		SKIP(return, "kernel without CONFIG_PAGE_POOL_STATS");
	ASSERT_EQ(0, err);
	EXPECT_FALSE(self->nl.malformed);
	EXPECT_EQ(NETDEV_CMD_PAGE_POOL_STATS_GET, p.cmd);
	EXPECT_EQ(self->mine.p[0].id, p.id);
	EXPECT_TRUE(p.has_ifindex);
	EXPECT_EQ(self->ifindex, p.ifindex);
	EXPECT_EQ(11, p.counters);
	/* Filling the RX ring took pages from the page allocator. */
	EXPECT_LT(0, p.alloc_slow);

	ASSERT_EQ(0, pool_dump(&self->nl, NETDEV_CMD_PAGE_POOL_STATS_GET,
			       &all));
	EXPECT_FALSE(self->nl.malformed);
	ASSERT_EQ(NUM_RXQ, pools_of(&all, self->ifindex, &mine));
	for (i = 0; i < NUM_RXQ; i++) {
		EXPECT_NE(NULL, pool_find(&self->mine, mine.p[i].id));
		EXPECT_EQ(11, mine.p[i].counters);
	}
	EXPECT_EQ(-ENOENT, pool_stats_get(&self->nl, 0xfffffff0, &p));
	EXPECT_STRNE("", self->nl.ext_msg);
}

/* Another network namespace sees none of our pools. */
TEST_F(pp_nl, other_netns_sees_none)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct pools all;
		struct nl nl;

		if (unshare(CLONE_NEWNET))
			_exit(errno == EINVAL ? 2 : 1);
		if (nl_open(&nl) || pool_dump(&nl, NETDEV_CMD_PAGE_POOL_GET,
					      &all))
			_exit(1);
		_exit(all.n == 0 &&
		      pool_get(&nl, self->mine.p[0].id, 4, &all.p[0]) ==
		      -ENOENT ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2)
		SKIP(return, "kernel without network namespaces");
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Follows the notifications of @want pools until each is freed; checks
 * that each pool is added (on @ifindex), then freed. A pool destroyed
 * with no page in flight goes from add straight to del, as upstream's
 * (6.8 and later) does. With @held, pages are held past the destroy:
 * each pool must be detached (a change on @ifindex), then move to the
 * loopback device (a change without an ifindex), and be freed only once
 * the caller's @between() has let the pages go.
 */
static void follow(struct __test_metadata *_metadata, struct nl *nl, int fd,
		   unsigned int ifindex, int want, bool held,
		   void (*between)(struct __test_metadata *_metadata,
				   struct nl *nl, void *arg),
		   void *arg)
{
	struct {
		__u64 id;
		int added, detached, moved, freed;
	} seen[MAX_POOLS] = {};
	int i, n = 0, adds = 0, changes = 0, freed = 0, step = 0;
	bool called = false;
	struct pool p;

	while (freed < want) {
		if (!called && changes == (held ? 2 * want : 0)) {
			between(_metadata, nl, arg);
			called = true;
		}
		ASSERT_EQ(0, ntf_read(nl, fd, &p)) {
			TH_LOG("%d of %d pools freed, then no notification",
			       freed, want);
		}
		EXPECT_FALSE(nl->malformed);
		for (i = 0; i < n && seen[i].id != p.id; i++)
			;
		if (i == n) {
			ASSERT_GT(MAX_POOLS, n);
			seen[n++].id = p.id;
		}
		step++;
		switch (p.cmd) {
		case NETDEV_CMD_PAGE_POOL_ADD_NTF:
			EXPECT_EQ(0, seen[i].added);
			EXPECT_TRUE(p.has_ifindex);
			EXPECT_EQ(ifindex, p.ifindex);
			EXPECT_FALSE(p.has_detach_time);
			seen[i].added = step;
			adds++;
			break;
		case NETDEV_CMD_PAGE_POOL_CHANGE_NTF:
			/* None for a pool freed at its destroy. */
			EXPECT_TRUE(held);
			EXPECT_NE(0, seen[i].added);
			EXPECT_EQ(0, seen[i].freed);
			EXPECT_TRUE(p.has_detach_time);
			if (!seen[i].detached) {
				/* Detached by the driver, on its device. */
				EXPECT_TRUE(p.has_ifindex);
				EXPECT_EQ(ifindex, p.ifindex);
				seen[i].detached = step;
			} else {
				/* Its device gone: under loopback. */
				EXPECT_EQ(0, seen[i].moved);
				EXPECT_FALSE(p.has_ifindex);
				EXPECT_LT(0, p.inflight);
				seen[i].moved = step;
			}
			changes++;
			break;
		case NETDEV_CMD_PAGE_POOL_DEL_NTF:
			EXPECT_NE(0, seen[i].added);
			EXPECT_EQ(held, !!seen[i].detached);
			EXPECT_EQ(held, !!seen[i].moved);
			EXPECT_EQ(0, seen[i].freed);
			EXPECT_EQ(0, p.inflight);
			EXPECT_EQ(held, !p.has_ifindex);
			EXPECT_FALSE(!held && p.has_detach_time);
			seen[i].freed = step;
			freed++;
			break;
		default:
			ASSERT_TRUE(false) TH_LOG("command %u", p.cmd);
		}
	}
	EXPECT_EQ(want, adds);
	EXPECT_EQ(want, n);
}

static void nothing(struct __test_metadata *_metadata, struct nl *nl,
		    void *arg)
{
}

/* A device with no traffic comes and goes: add, then del, for the pool
 * of each of its queues. Its driver takes back every page before it
 * destroys the pools, so none is announced detached.
 */
TEST_F(pp_nl, notifications_in_order)
{
	unsigned int ifindex;
	int fd;

	fd = ntf_open(&self->nl);
	ASSERT_LE(0, fd);
	ifindex = dev_up(DEV_ID + 1, false);
	ASSERT_NE(0, ifindex);
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));
	follow(_metadata, &self->nl, fd, ifindex, NUM_RXQ, false, nothing,
	       NULL);
	close(fd);
}

struct held {
	int sock;
	unsigned int ifindex;
	__u64 ids[NUM_RXQ];
};

/* The pools wait under loopback: shown without an ifindex, detached,
 * with the held pages in flight; then the socket lets the pages go.
 */
static void check_on_loopback(struct __test_metadata *_metadata,
			      struct nl *nl, void *arg)
{
	struct held *h = arg;
	const struct pool *p;
	struct pools all;
	int i;

	ASSERT_EQ(0, pool_dump(nl, NETDEV_CMD_PAGE_POOL_GET, &all));
	for (i = 0; i < all.n; i++)
		EXPECT_FALSE(all.p[i].has_ifindex &&
			     all.p[i].ifindex == h->ifindex);
	for (i = 0; i < NUM_RXQ; i++) {
		p = pool_find(&all, h->ids[i]);
		ASSERT_NE(NULL, p);
		EXPECT_FALSE(p->has_ifindex);
		EXPECT_TRUE(p->has_detach_time);
		EXPECT_LT(0, p->inflight);
	}
	close(h->sock);
	h->sock = -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The rx_packets counter of the interface, or -1. */
static long long if_rx_packets(unsigned int ifindex)
{
	char name[IF_NAMESIZE], path[128], buf[32];

	if (!if_indextoname(ifindex, name))
		return -1;
	snprintf(path, sizeof(path),
		 "/sys/class/net/%s/statistics/rx_packets", name);
	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

/*
 * Waits until the interface has passed @frames frames up and the
 * memory queued on @sock has stopped growing a poll after that: the
 * driver counts a frame just before it hands it on. 0, or -1 if that
 * has not happened within WAIT_S.
 */
static int wait_held(int sock, unsigned int ifindex, long long frames)
{
	double end = now_s() + WAIT_S;
	__u32 mem[SK_MEMINFO_VARS];
	bool all_in = false;
	__u32 last = 0;
	socklen_t len;

	do {
		bool counted = if_rx_packets(ifindex) == frames;

		len = sizeof(mem);
		if (getsockopt(sock, SOL_SOCKET, SO_MEMINFO, mem, &len))
			return -1;
		if (all_in && mem[SK_MEMINFO_RMEM_ALLOC] &&
		    mem[SK_MEMINFO_RMEM_ALLOC] == last)
			return 0;
		all_in = counted;
		last = mem[SK_MEMINFO_RMEM_ALLOC];
		usleep(10000);
	} while (now_s() < end);
	return -1;
}

/* A device goes while a socket holds frames in its pools' pages. */
TEST_F(pp_nl, pools_outlive_their_device)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PPSIM_WIRE_DPORT),
	};
	struct held h = { .sock = -1 };
	int fd, i, rcvbuf = 4 << 20;
	struct pools all, mine;
	char wire[32];

	fd = ntf_open(&self->nl);
	ASSERT_LE(0, fd);
	h.ifindex = dev_up(DEV_ID + 1, true);
	ASSERT_NE(0, h.ifindex);
	h.sock = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, h.sock);
	/* Room for every frame: each queue's pool must have pages held. */
	ASSERT_EQ(0, setsockopt(h.sock, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, bind(h.sock, (void *)&sin, sizeof(sin)));
	snprintf(wire, sizeof(wire), "%d 64", HELD_FRAMES);
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 1, "wire", wire));
	/* Every queue's frames are up the stack and in the socket. */
	ASSERT_EQ(0, wait_held(h.sock, h.ifindex,
			       (long long)HELD_FRAMES * NUM_RXQ)) {
		TH_LOG("rx_packets %lld of %d", if_rx_packets(h.ifindex),
		       HELD_FRAMES * NUM_RXQ);
	}

	ASSERT_EQ(0, pool_dump(&self->nl, NETDEV_CMD_PAGE_POOL_GET, &all));
	ASSERT_EQ(NUM_RXQ, pools_of(&all, h.ifindex, &mine));
	for (i = 0; i < NUM_RXQ; i++)
		h.ids[i] = mine.p[i].id;
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));
	follow(_metadata, &self->nl, fd, h.ifindex, NUM_RXQ, true,
	       check_on_loopback, &h);
	if (h.sock >= 0)
		close(h.sock);
	close(fd);
}

TEST_HARNESS_MAIN
