/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppsim_nl.h - what the ppsim netlink selftests share: ppsim devices
 * through sysfs, and the "netdev" family's page pools on raw netlink
 * sockets (requests, replies, notifications), without a library.
 */
#ifndef PPSIM_NL_H
#define PPSIM_NL_H

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
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "../../../kselftest_harness.h"
#include "../../../../../../include/uapi/linux/netdev.h"
#include "../../../../../../drivers/net/ppsim/ppsim_wire.h"

#define BUS		"/sys/bus/ppsim"
/* Apart from ppsim_rx's devices (7 and 8). */
#define DEV_ID		20
#define NUM_RXQ		2
#define MAX_POOLS	128
/* How long a notification, a freed pool or a frame may take to show
 * up: a pool freed late waits for a retry of its deferred free, once a
 * second, and all of it is slow under QEMU's TCG with KASAN.
 */
#define WAIT_S		30

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
	/* Its bad attribute's offset in the request, or -1 for none. */
	long ext_offs;
	/* A reply or notification that broke the attribute encoding. */
	bool malformed;
	/* The receive buffer's size; 0 for the largest. */
	size_t rcvlen;
	/* The datagrams the last request's replies came in. */
	int parts;
	/* Called once after the first of them, if set. */
	void (*after_first)(void *arg);
	void *after_arg;
};

/* ---- sysfs and interfaces ---- */

static inline int sysfs_write(const char *path, const char *val)
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

static inline int sysfs_read(const char *path, char *buf, size_t size)
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

static inline int dev_attr_write(int id, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/%s", id, attr);
	return sysfs_write(path, val);
}

static inline int dev_create_n(int id, int rxq)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d %d", id, rxq);
	return sysfs_write(BUS "/new_device", buf);
}

static inline int dev_create(int id)
{
	return dev_create_n(id, NUM_RXQ);
}

static inline int dev_destroy(int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", id);
	return sysfs_write(BUS "/del_device", buf);
}

static inline void dev_cleanup(int id)
{
	char path[64];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d", id);
	if (!access(path, F_OK))
		dev_destroy(id);
}

/* The netdev's name, from the bus device's net/ directory. */
static inline int dev_ifname(int id, char *name)
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

static inline int if_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int err;

	if (fd < 0)
		return -errno;
	err = ioctl(fd, req, ifr) ? -errno : 0;
	close(fd);
	return err;
}

/*
 * No IPv6 on the device: what it would send as it comes up (neighbour
 * and router solicitations, listener reports) loops back into its RX
 * queues, beside the wire's frames. Nothing to do without IPv6.
 */
static inline int if_no_ipv6(const char *ifname)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 ifname);
	err = sysfs_write(path, "1");
	return err == -ENOENT ? 0 : err;
}

/* Up (with no IPv6) or down. */
static inline int if_set(const char *ifname, bool up)
{
	struct ifreq ifr = {};
	int err;

	if (up) {
		err = if_no_ipv6(ifname);
		if (err)
			return err;
	}
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	err = if_ioctl(SIOCGIFFLAGS, &ifr);
	if (err)
		return err;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return if_ioctl(SIOCSIFFLAGS, &ifr);
}

static inline int if_set_addr(const char *ifname)
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
static inline unsigned int dev_up(int id, bool addr)
{
	char ifname[IFNAMSIZ];

	if (dev_create(id) || dev_ifname(id, ifname) ||
	    dev_attr_write(id, "rx_mode", "pool") ||
	    (addr && if_set_addr(ifname)) || if_set(ifname, true))
		return 0;
	return if_nametoindex(ifname);
}

/* ---- netlink ---- */

#define NLA_DATA(a)	((void *)(a) + NLA_HDRLEN)

/* Whether an attribute starts at @a, within the @left bytes from it. */
static inline bool nla_ok(const struct nlattr *a, int left)
{
	return left >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= left;
}

static inline const struct nlattr *nla_next(const struct nlattr *a, int *left)
{
	*left -= NLA_ALIGN(a->nla_len);
	return (const void *)a + NLA_ALIGN(a->nla_len);
}

struct msg {
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	char attrs[512];
};

static inline void msg_init(struct msg *m, __u16 type, __u8 cmd, __u16 flags)
{
	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->genl.cmd = cmd;
	m->genl.version = 1;
}

static inline struct nlattr *msg_put(struct msg *m, __u16 type,
				     const void *data, size_t len)
{
	struct nlattr *a = (void *)m + NLMSG_ALIGN(m->nlh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(NLA_DATA(a), data, len);
	m->nlh.nlmsg_len = NLMSG_ALIGN(m->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static inline void msg_nest_end(struct msg *m, struct nlattr *nest)
{
	nest->nla_len = (char *)m + m->nlh.nlmsg_len - (char *)nest;
}

static inline int nl_socket(void)
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

/* A "uint": 4 bytes when it fits, else 8; else the reply is malformed. */
static inline __u64 nla_uint(struct nl *nl, const struct nlattr *a)
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

static inline __u32 nla_u32(struct nl *nl, const struct nlattr *a)
{
	__u32 v;

	if (a->nla_len != NLA_HDRLEN + sizeof(v)) {
		nl->malformed = true;
		return 0;
	}
	memcpy(&v, NLA_DATA(a), sizeof(v));
	return v;
}

/* The extended ack message of an error (or of a dump's end), if any. */
static inline void ext_ack_msg(struct nl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct nlattr *a;
	size_t off;
	int left;

	nl->ext_msg[0] = '\0';
	nl->ext_offs = -1;
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
		else if (a->nla_type == NLMSGERR_ATTR_OFFS)
			nl->ext_offs = nla_u32(nl, a);
}

/*
 * Sends @m and reads until its ack, a dump's end or an error; @cb gets
 * each other message. Returns 0, or the negative errno of the error.
 */
static inline int nl_request(struct nl *nl, struct msg *m,
			     void (*cb)(struct nl *nl,
					const struct nlmsghdr *nlh, void *arg),
			     void *arg)
{
	static char buf[65536];
	struct nlmsghdr *nlh;
	ssize_t n;

	m->nlh.nlmsg_seq = ++nl->seq;
	nl->ext_msg[0] = '\0';
	nl->ext_offs = -1;
	nl->parts = 0;
	if (send(nl->fd, m, m->nlh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		size_t len = nl->rcvlen ? nl->rcvlen : sizeof(buf);

		n = recv(nl->fd, buf, len, MSG_TRUNC);
		if (n < 0)
			return -errno;
		/* A part larger than the buffer lost its end. */
		if (n > len)
			return -EMSGSIZE;
		if (nl->parts++ == 0 && nl->after_first)
			nl->after_first(nl->after_arg);
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

/* The attributes of a pool: at the top of page-pool-get, nested in info. */
static inline void parse_pool_attr(struct nl *nl, const struct nlattr *a,
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

static inline void parse_pool(struct nl *nl, const struct nlmsghdr *nlh,
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

static inline void collect(struct nl *nl, const struct nlmsghdr *nlh, void *arg)
{
	struct pools *ps = arg;

	if (nlh->nlmsg_type != nl->family || ps->n == MAX_POOLS) {
		nl->malformed = true;
		return;
	}
	parse_pool(nl, nlh, &ps->p[ps->n++]);
}

/* Looks up a family's id and one of its multicast groups. */
static inline void family_cb(struct nl *nl, const struct nlmsghdr *nlh,
			     void *arg)
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

/*
 * Opens @nl on the netdev family, to receive into @rcvlen bytes (0: the
 * largest); -ENOENT when the kernel has none.
 */
static inline int nl_open_len(struct nl *nl, size_t rcvlen)
{
	struct msg m;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->rcvlen = rcvlen;
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

static inline int nl_open(struct nl *nl)
{
	return nl_open_len(nl, 0);
}

static inline int pool_dump(struct nl *nl, __u8 cmd, struct pools *ps)
{
	struct msg m;

	ps->n = 0;
	msg_init(&m, nl->family, cmd, NLM_F_DUMP);
	return nl_request(nl, &m, collect, ps);
}

/* page-pool-get of an id given in @len bytes (4 or 8 for a valid one). */
static inline int pool_get(struct nl *nl, __u64 id, size_t len, struct pool *p)
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

static inline int pool_stats_get(struct nl *nl, __u64 id, struct pool *p)
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
static inline int pools_of(const struct pools *ps, __u32 ifindex,
			   struct pools *out)
{
	int i;

	out->n = 0;
	for (i = 0; i < ps->n; i++)
		if (ps->p[i].has_ifindex && ps->p[i].ifindex == ifindex)
			out->p[out->n++] = ps->p[i];
	return out->n;
}

static inline const struct pool *pool_find(const struct pools *ps, __u64 id)
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
static inline int ntf_open(struct nl *nl)
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
static inline int ntf_read(struct nl *nl, int fd, struct pool *p)
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

/*
 * Ends the test as skipped from its setup: 6.1's harness goes on to the
 * test when the setup only returned after a SKIP.
 */
#define SKIP_TEST(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

/* Reads @n notifications into @out; fails the test on a missing one. */
static inline void ntf_expect(struct __test_metadata *_metadata, struct nl *nl,
			      int fd, int n, struct pools *out)
{
	out->n = 0;
	while (out->n < n) {
		ASSERT_EQ(0, ntf_read(nl, fd, &out->p[out->n])) {
			TH_LOG("%d of %d notifications came", out->n, n);
		}
		out->n++;
	}
	EXPECT_FALSE(nl->malformed);
}

/* Whether a notification waits on @fd, without waiting for one. */
static inline bool ntf_pending(int fd)
{
	char buf[64];

	return recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_PEEK) >= 0;
}

/* The notifications among @ps of command @cmd, into @out. */
static inline int ntf_of(const struct pools *ps, __u8 cmd, struct pools *out)
{
	int i;

	out->n = 0;
	for (i = 0; i < ps->n; i++)
		if (ps->p[i].cmd == cmd)
			out->p[out->n++] = ps->p[i];
	return out->n;
}

/* The device's pools in a fresh dump, into @out. */
static inline int pools_now(struct __test_metadata *_metadata, struct nl *nl,
			    unsigned int ifindex, struct pools *out)
{
	struct pools all;

	EXPECT_EQ(0, pool_dump(nl, NETDEV_CMD_PAGE_POOL_GET, &all));
	EXPECT_FALSE(nl->malformed);
	return pools_of(&all, ifindex, out);
}

#endif /* PPSIM_NL_H */
