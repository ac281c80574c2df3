/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtnl.h - the rtnetlink requests the page_pool and ppsim selftests make,
 * without libmnl or libnl: build a request, send it, wait for its ack.
 *
 *	struct rtnl_req req;
 *	struct ifinfomsg *ifi = rtnl_req_init(&req, RTM_NEWLINK, 0,
 *					      sizeof(*ifi));
 *	...rtnl_put(&req, IFLA_..., &val, sizeof(val))...
 *	err = rtnl_talk(&req);		(0 or -errno)
 *
 * Each request opens a socket of its own, so a test holds none between
 * requests. A refusal's extended ack message, if the kernel gives one, is
 * printed as a TAP comment on stderr.
 */
#ifndef SELFTESTS_NET_LIB_RTNL_H
#define SELFTESTS_NET_LIB_RTNL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* A request: the netlink header, the family header, then attributes. */
struct rtnl_req {
	union {
		struct nlmsghdr nh;
		char buf[1024];
	};
};

/*
 * Starts a request of @type with @flags (NLM_F_REQUEST and NLM_F_ACK are
 * added) and a zeroed family header of @hdr_len bytes, which it returns.
 */
static inline void *rtnl_req_init(struct rtnl_req *req, __u16 type,
				  __u16 flags, size_t hdr_len)
{
	static __u32 seq;

	memset(req, 0, sizeof(*req));
	req->nh.nlmsg_type = type;
	req->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	req->nh.nlmsg_seq = ++seq;
	req->nh.nlmsg_len = NLMSG_LENGTH(hdr_len);
	return NLMSG_DATA(&req->nh);
}

/* Appends an attribute; returns it, so that a nest can be closed. */
static inline struct nlattr *rtnl_put(struct rtnl_req *req, __u16 type,
				      const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(req->nh.nlmsg_len);
	struct nlattr *a = (struct nlattr *)(req->buf + off);

	/* A test's requests are fixed: one too big is a bug in the test. */
	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(req->buf)) {
		fprintf(stderr, "# rtnl: request of type %u overflows\n",
			req->nh.nlmsg_type);
		abort();
	}
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	req->nh.nlmsg_len = off + NLA_ALIGN(a->nla_len);
	return a;
}

static inline void rtnl_put_str(struct rtnl_req *req, __u16 type,
				const char *s)
{
	rtnl_put(req, type, s, strlen(s) + 1);
}

/* Opens a nest: the attributes put until rtnl_nest_end() go in it. */
static inline struct nlattr *rtnl_nest(struct rtnl_req *req, __u16 type)
{
	return rtnl_put(req, type, NULL, 0);
}

static inline void rtnl_nest_end(struct rtnl_req *req, struct nlattr *nest)
{
	nest->nla_len = req->buf + req->nh.nlmsg_len - (char *)nest;
}

/* Prints the message of an error's extended ack, if it has one. */
static inline void rtnl_print_extack(const struct nlmsghdr *nh)
{
	const struct nlmsgerr *err = NLMSG_DATA(nh);
	size_t off = NLMSG_LENGTH(sizeof(*err));
	const struct nlattr *a;

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* Without NLM_F_CAPPED the request's attributes come first. */
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	while (off + NLA_HDRLEN <= nh->nlmsg_len) {
		a = (const struct nlattr *)((const char *)nh + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > nh->nlmsg_len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			fprintf(stderr, "# netlink: %.*s\n",
				(int)(a->nla_len - NLA_HDRLEN),
				(const char *)a + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Sends @req and waits for its ack: 0, or the kernel's -errno. */
static inline int rtnl_talk(struct rtnl_req *req)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[8192];
	struct nlmsghdr *nh;
	int fd, one = 1;
	ssize_t len;
	int err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	/* Best effort: they only make refusals say more. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (sendto(fd, req->buf, req->nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, len);
		     nh = NLMSG_NEXT(nh, len)) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_seq != req->nh.nlmsg_seq ||
			    nh->nlmsg_type != NLMSG_ERROR)
				continue;
			if (e->error)
				rtnl_print_extack(nh);
			err = e->error;
			goto out;
		}
	}
out:
	close(fd);
	return err;
}

/* Starts a link request of @type on @ifindex (0: none). */
static inline struct ifinfomsg *rtnl_link_req(struct rtnl_req *req,
					      __u16 type, __u16 flags,
					      int ifindex)
{
	struct ifinfomsg *ifi = rtnl_req_init(req, type, flags, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return ifi;
}

/* Deletes link @ifindex (a veth's peer goes with it); 0 or -errno. */
static inline int rtnl_link_del(int ifindex)
{
	struct rtnl_req req;

	rtnl_link_req(&req, RTM_DELLINK, 0, ifindex);
	return rtnl_talk(&req);
}

/* Sets link @ifindex up; 0 or -errno. */
static inline int rtnl_link_up(int ifindex)
{
	struct rtnl_req req;
	struct ifinfomsg *ifi;

	ifi = rtnl_link_req(&req, RTM_NEWLINK, 0, ifindex);
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return rtnl_talk(&req);
}

/*
 * Attaches @prog_fd as the native (driver mode) XDP program of @ifindex;
 * -1 detaches the one there. 0 or -errno.
 */
static inline int rtnl_xdp_attach(int ifindex, int prog_fd)
{
	__u32 flags = XDP_FLAGS_DRV_MODE;
	struct rtnl_req req;
	struct nlattr *xdp;

	rtnl_link_req(&req, RTM_SETLINK, 0, ifindex);
	xdp = rtnl_nest(&req, IFLA_XDP | NLA_F_NESTED);
	rtnl_put(&req, IFLA_XDP_FD, &prog_fd, sizeof(prog_fd));
	rtnl_put(&req, IFLA_XDP_FLAGS, &flags, sizeof(flags));
	rtnl_nest_end(&req, xdp);
	return rtnl_talk(&req);
}

/*
 * Creates the veth pair @a, @b; 0 or -errno (-EOPNOTSUPP: the kernel
 * has no veth).
 */
static inline int rtnl_veth_create(const char *a, const char *b)
{
	struct nlattr *info, *data, *peer;
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	struct rtnl_req req;

	rtnl_link_req(&req, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	rtnl_put_str(&req, IFLA_IFNAME, a);
	info = rtnl_nest(&req, IFLA_LINKINFO);
	rtnl_put_str(&req, IFLA_INFO_KIND, "veth");
	data = rtnl_nest(&req, IFLA_INFO_DATA);
	/* VETH_INFO_PEER holds the peer's ifinfomsg, then its attributes. */
	peer = rtnl_put(&req, VETH_INFO_PEER, &peer_ifi, sizeof(peer_ifi));
	rtnl_put_str(&req, IFLA_IFNAME, b);
	rtnl_nest_end(&req, peer);
	rtnl_nest_end(&req, data);
	rtnl_nest_end(&req, info);
	return rtnl_talk(&req);
}

#endif /* SELFTESTS_NET_LIB_RTNL_H */
