// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim_bench - RX packets per second of the ppsim simulated NIC, per RX
 * buffer mode and per sink of the received frames.
 *
 * A test is a mode (alloc, cache, pool, frag, order3) and a sink:
 *   xdp_drop    a native XDP program returns XDP_DROP in the driver
 *   stack_drop  a BPF program on the clsact ingress hook drops the skb,
 *               the first thing the stack does with it
 *   udp         a UDP socket on port 9000 reads every datagram
 *   udp_held    the same socket reading late, on a device with two RX
 *               queues: the reader waits until the driver has taken in
 *               HELD_CHUNK frames per queue, then reads them all, so the
 *               socket holds that many pages per queue at a time (a
 *               reader that drains every millisecond or two)
 *
 * Each run of a test creates a device with one RX queue, attaches the
 * sink, sends an untimed burst so that the buffers go round the ring
 * and come back (a recycling scheme is measured in its steady state),
 * then times FRAMES frames from the write to the wire attribute until
 * the driver counted them all (and, for udp, the socket read them all;
 * the frames go out in chunks the socket can hold, as a reader slower
 * than the wire would otherwise be timed dropping them).
 * The runs go round the tests REPS times, so a burst of noise on the
 * host does not land on a single test, and the median is printed:
 *
 *   bench rx_<mode>_<sink> pps=P ns_per_pkt=N runs=R lost=L [direct=D]
 *         [recycle=Y] [reuse=U]
 *
 * with N the nanoseconds per received packet; in the modes with a pool,
 * D the share of the pages returned during the timed bursts that went
 * straight to its alloc cache rather than through its ring, and Y the
 * share of them the pool kept (to its cache or ring) rather than freed;
 * in cache mode, U the share of buffers refilled from the driver's
 * cache rather than from the page allocator. The
 * wire is the far end of the link but runs on the same CPU (a kworker),
 * so its cost, the same in every mode, is part of every figure.
 *
 * Needs root, a kernel with CONFIG_PPSIM, and for stack_drop
 * CONFIG_NET_SCH_INGRESS and CONFIG_NET_CLS_BPF.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <linux/bpf.h>
#include <linux/ethtool.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "../../../../../../drivers/net/ppsim/ppsim_wire.h"
#include "../../../net/lib/rtnl.h"

#define BUS		"/sys/bus/ppsim"
#define DEV_ID		90
#define FRAME_LEN	64
#define RX_BATCH	64
#define RCVBUF		(64 << 20)
/*
 * udp: frames sent at a time. The wire and NAPI outrun the reader, so
 * the socket must hold a whole chunk (a datagram takes up to a page and
 * a bit) or it drops, and the sink would be timed dropping, not reading.
 */
#define UDP_CHUNK	4096
/*
 * udp_held: frames per queue the socket holds before it reads; more
 * than the cache's 256 entries, fewer than the 1024 buffers of a ring
 * (and of the pool's ring), so only the cache's head-of-line blocking
 * tells the two apart.
 */
#define HELD_CHUNK	512
#define HELD_RXQ	2
/* Longer than any run: a test that takes this long is broken. */
#define RUN_LIMIT_NS	(30 * 1000000000LL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char * const modes[] = {
	"alloc", "cache", "pool", "frag", "order3",
};

enum sink { XDP_DROP_SINK, STACK_DROP_SINK, UDP_SINK, UDP_HELD_SINK,
	    NR_SINKS };

static const char * const sinks[NR_SINKS] = {
	[XDP_DROP_SINK] = "xdp_drop",
	[STACK_DROP_SINK] = "stack_drop",
	[UDP_SINK] = "udp",
	[UDP_HELD_SINK] = "udp_held",
};

/* The counters a run reads, summed over the queues or the pools. */
enum ctr {
	PACKETS, CACHE_REUSE, PP_CACHED, PP_RING, PP_RING_FULL, PP_RELEASED,
	NR_CTRS
};

/* Per-queue counters are "rx<q>_<name>", the pools' as named. */
static const struct {
	const char *name;
	int per_queue;
} ctrs[NR_CTRS] = {
	[PACKETS] = { "packets", 1 },
	[CACHE_REUSE] = { "cache_reuse", 1 },
	[PP_CACHED] = { "rx_pp_recycle_cached", 0 },
	[PP_RING] = { "rx_pp_recycle_ring", 0 },
	[PP_RING_FULL] = { "rx_pp_recycle_ring_full", 0 },
	[PP_RELEASED] = { "rx_pp_recycle_released_ref", 0 },
};

struct test {
	const char *mode;
	enum sink sink;
	double *ns;		/* per packet, one per run */
	unsigned int runs;
	unsigned long long lost;
	/* The counters' moves over the timed bursts of all runs. */
	unsigned long long moved[NR_CTRS];
	const char *error;	/* the first failure, if any */
	const char *skip;	/* why the kernel cannot run it */
};

/* A device under test, with its sink. */
struct rig {
	char ifname[IFNAMSIZ];
	int ifindex;
	int ctl;		/* AF_INET socket for the ioctls */
	int prog;		/* the sink's BPF program, or -1 */
	int sock;		/* udp: the reader; stack_drop: a guard */
	struct ethtool_stats *stats;
	int nq;			/* RX queues */
	/* Where each counter is in the stats, per queue; -1: absent. */
	int idx[NR_CTRS][HELD_RXQ];
	int xdp_drop_idx;	/* rx0_xdp_drop */
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * SCHED_IDLE: this process then runs only when the wire and NAPI have
 * nothing to do, so it can poll for the end of a run without taking
 * time from them (a sleep would end a tick late, too coarse here).
 */
static void set_idle(int idle)
{
	struct sched_param sp = {};

	sched_setscheduler(0, idle ? SCHED_IDLE : SCHED_OTHER, &sp);
}

static int write_file(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int dev_write(const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/%s", DEV_ID, attr);
	return write_file(path, val);
}

static int find_ifname(char *name)
{
	struct dirent *de;
	int err = -ENOENT;
	char path[128];
	DIR *d;

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/net", DEV_ID);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.' && strlen(de->d_name) < IFNAMSIZ) {
			strcpy(name, de->d_name);
			err = 0;
			break;
		}
	}
	closedir(d);
	return err;
}

static int rig_ioctl(struct rig *r, unsigned long req, struct ifreq *ifr)
{
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", r->ifname);
	return ioctl(r->ctl, req, ifr) ? -errno : 0;
}

static int rig_up(struct rig *r)
{
	struct ifreq ifr = {};
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int err;

	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(PPSIM_WIRE_DADDR);
	err = rig_ioctl(r, SIOCSIFADDR, &ifr);
	if (err)
		return err;
	sin->sin_addr.s_addr = htonl(0xffffff00);
	err = rig_ioctl(r, SIOCSIFNETMASK, &ifr);
	if (err)
		return err;
	err = rig_ioctl(r, SIOCGIFFLAGS, &ifr);
	if (err)
		return err;
	ifr.ifr_flags |= IFF_UP;
	return rig_ioctl(r, SIOCSIFFLAGS, &ifr);
}

static int rig_ethtool(struct rig *r, void *cmd)
{
	struct ifreq ifr = { .ifr_data = cmd };

	return rig_ioctl(r, SIOCETHTOOL, &ifr);
}

/* Whether the stat named @s is counter @c (of queue @q, if per queue). */
static int ctr_is(const char *s, enum ctr c, int q)
{
	char name[ETH_GSTRING_LEN];

	if (!ctrs[c].per_queue)
		return !q && !strcmp(s, ctrs[c].name);
	snprintf(name, sizeof(name), "rx%d_%s", q, ctrs[c].name);
	return !strcmp(s, name);
}

/* Finds the counters read during a run, once, so a read is one ioctl. */
static int stats_init(struct rig *r)
{
	struct {
		struct ethtool_sset_info info;
		__u32 len;
	} ss = {
		.info.cmd = ETHTOOL_GSSET_INFO,
		.info.sset_mask = 1ULL << ETH_SS_STATS,
	};
	struct ethtool_gstrings *names;
	unsigned int n, i;
	const char *s;
	int err, c, q;

	err = rig_ethtool(r, &ss);
	if (err)
		return err;
	n = ss.len;
	names = calloc(1, sizeof(*names) + n * ETH_GSTRING_LEN);
	r->stats = calloc(1, sizeof(*r->stats) + n * sizeof(__u64));
	if (!names || !r->stats) {
		free(names);
		return -ENOMEM;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	r->stats->cmd = ETHTOOL_GSTATS;
	r->stats->n_stats = n;
	err = rig_ethtool(r, names);
	r->xdp_drop_idx = -1;
	memset(r->idx, -1, sizeof(r->idx));
	for (i = 0; !err && i < n; i++) {
		s = (const char *)names->data + i * ETH_GSTRING_LEN;
		if (!strcmp(s, "rx0_xdp_drop"))
			r->xdp_drop_idx = i;
		for (c = 0; c < NR_CTRS; c++)
			for (q = 0; q < r->nq; q++)
				if (ctr_is(s, c, q))
					r->idx[c][q] = i;
	}
	free(names);
	for (q = 0; q < r->nq; q++)
		if (r->idx[PACKETS][q] < 0)
			err = err ?: -ENOENT;
	if (!err && r->xdp_drop_idx < 0)
		err = -ENOENT;
	return err;
}

/* Counter @idx of the queue, or -1. */
static long long stat_read(struct rig *r, int idx)
{
	if (rig_ethtool(r, r->stats))
		return -1;
	return r->stats->data[idx];
}

/* Every counter, summed over the queues, from one read; 0 where absent. */
static int ctrs_read(struct rig *r, unsigned long long *v)
{
	int c, q;

	memset(v, 0, NR_CTRS * sizeof(*v));
	if (rig_ethtool(r, r->stats))
		return -EIO;
	for (c = 0; c < NR_CTRS; c++)
		for (q = 0; q < r->nq; q++)
			if (r->idx[c][q] >= 0)
				v[c] += r->stats->data[r->idx[c][q]];
	return 0;
}

/* Packets the driver took in, all queues; -1 if the read fails. */
static long long packets_read(struct rig *r)
{
	unsigned long long v[NR_CTRS];

	return ctrs_read(r, v) ? -1 : (long long)v[PACKETS];
}

static int prog_load(enum bpf_prog_type type, int ret)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, ret),
		BPF_EXIT_INSN(),
	};
	union bpf_attr attr = {
		.prog_type = type,
		.insns = (unsigned long)insns,
		.insn_cnt = ARRAY_SIZE(insns),
		.license = (unsigned long)"GPL",
	};
	int fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));

	return fd < 0 ? -errno : fd;
}

static int attach_xdp(struct rig *r)
{
	r->prog = prog_load(BPF_PROG_TYPE_XDP, XDP_DROP);
	if (r->prog < 0)
		return r->prog;
	return rtnl_xdp_attach(r->ifindex, r->prog);
}

/* clsact on the device, then a direct-action BPF filter on its ingress. */
static int attach_tc_drop(struct rig *r)
{
	__u32 flags = TCA_BPF_FLAG_ACT_DIRECT;
	struct rtnl_req req;
	struct nlattr *nest;
	struct tcmsg *tc;
	int err;

	tc = rtnl_req_init(&req, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
			   sizeof(*tc));
	tc->tcm_family = AF_UNSPEC;
	tc->tcm_ifindex = r->ifindex;
	tc->tcm_handle = TC_H_MAKE(TC_H_CLSACT, 0);
	tc->tcm_parent = TC_H_CLSACT;
	rtnl_put_str(&req, TCA_KIND, "clsact");
	err = rtnl_talk(&req);
	if (err)
		return err;

	r->prog = prog_load(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_SHOT);
	if (r->prog < 0)
		return r->prog;
	tc = rtnl_req_init(&req, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL,
			   sizeof(*tc));
	tc->tcm_family = AF_UNSPEC;
	tc->tcm_ifindex = r->ifindex;
	tc->tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS);
	/* Priority 1, every protocol. */
	tc->tcm_info = TC_H_MAKE(1 << 16, htons(ETH_P_ALL));
	rtnl_put_str(&req, TCA_KIND, "bpf");
	nest = rtnl_nest(&req, TCA_OPTIONS);
	rtnl_put(&req, TCA_BPF_FD, &r->prog, sizeof(r->prog));
	rtnl_put_str(&req, TCA_BPF_NAME, "drop");
	rtnl_put(&req, TCA_BPF_FLAGS, &flags, sizeof(flags));
	rtnl_nest_end(&req, nest);
	return rtnl_talk(&req);
}

static int udp_socket(int rcvbuf)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PPSIM_WIRE_DPORT),
	};
	/* Ends a read that waits for datagrams that were dropped. */
	struct timeval tv = { .tv_usec = 200000 };
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if ((rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				  sizeof(rcvbuf))) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static void rig_destroy(struct rig *r)
{
	char id[16];

	if (r->sock >= 0)
		close(r->sock);
	snprintf(id, sizeof(id), "%d", DEV_ID);
	write_file(BUS "/del_device", id);
	if (r->prog >= 0)
		close(r->prog);
	if (r->ctl >= 0)
		close(r->ctl);
	free(r->stats);
}

/* A device in @t's mode, up, with @t's sink: one RX queue, or HELD_RXQ
 * for udp_held.
 */
static const char *rig_create(struct rig *r, struct test *t)
{
	char id[32];
	int err;

	memset(r, 0, sizeof(*r));
	r->prog = -1;
	r->sock = -1;
	r->nq = t->sink == UDP_HELD_SINK ? HELD_RXQ : 1;
	r->ctl = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (r->ctl < 0)
		return "socket";
	snprintf(id, sizeof(id), "%d %d", DEV_ID, r->nq);
	if (write_file(BUS "/new_device", id))
		return "new_device";
	if (find_ifname(r->ifname))
		return "no netdev";
	r->ifindex = if_nametoindex(r->ifname);
	if (dev_write("rx_mode", t->mode))
		return "rx_mode";
	if (rig_up(r))
		return "setting the device up";
	if (stats_init(r))
		return "ethtool -S";
	switch (t->sink) {
	case XDP_DROP_SINK:
		if (attach_xdp(r))
			return "attaching XDP";
		break;
	case STACK_DROP_SINK:
		err = attach_tc_drop(r);
		/* No tc at all, or no clsact or cls_bpf in it. */
		if (err == -EOPNOTSUPP || err == -ENOENT)
			t->skip = "no-clsact-bpf";
		if (err)
			return "attaching the tc filter";
		/* A socket that must stay empty: proof that the filter drops. */
		r->sock = udp_socket(0);
		if (r->sock < 0)
			return "udp socket";
		break;
	case UDP_SINK:
	case UDP_HELD_SINK:
		r->sock = udp_socket(RCVBUF);
		if (r->sock < 0)
			return "udp socket";
		break;
	default:
		break;
	}
	return NULL;
}

static int wire_send(unsigned int frames)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u %u", frames, FRAME_LEN);
	return dev_write("wire", buf);
}

/* Polls, idle (set_idle()), until the driver counted @want packets. */
static int wait_packets(struct rig *r, long long want, long long t0)
{
	long long got;

	for (;;) {
		got = packets_read(r);
		if (got < 0)
			return -EIO;
		if (got >= want)
			return 0;
		if (now_ns() - t0 > RUN_LIMIT_NS)
			return -ETIMEDOUT;
		sched_yield();
	}
}

/*
 * Reads until @n datagrams came, or the socket stays empty once the
 * driver counted @want packets (the rest were dropped). Returns how
 * many were read, or -errno; *@last is when the last one was read.
 */
static long long read_datagrams(struct rig *r, long long n, long long want,
				long long t0, long long *last)
{
	static char bufs[RX_BATCH][128];
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	long long got = 0, pkts;
	int i, k;

	for (i = 0; i < RX_BATCH; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = sizeof(bufs[i]);
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (got < n) {
		k = recvmmsg(r->sock, msgs, RX_BATCH, MSG_WAITFORONE, NULL);
		if (k > 0) {
			got += k;
			*last = now_ns();
			continue;
		}
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		/* Nothing for a while: done if the driver has them all. */
		pkts = packets_read(r);
		if (pkts < 0)
			return -EIO;
		if (pkts >= want)
			break;
		if (now_ns() - t0 > RUN_LIMIT_NS)
			return -ETIMEDOUT;
	}
	return got;
}

/*
 * udp_held: HELD_CHUNK frames per queue at a time. The reader waits,
 * idle, until the driver has taken them all in, the socket holding
 * their pages meanwhile, and then reads them. @n counts all queues.
 */
static double burst_held(struct rig *r, struct test *t, unsigned int n,
			 unsigned long long *lost)
{
	unsigned int per_q = n / r->nq, sent, chunk;
	long long start, want, t0, t1, got = 0, k;
	int err = 0;

	start = packets_read(r);
	if (start < 0) {
		t->error = "ethtool -S";
		return 0;
	}
	t0 = now_ns();
	t1 = t0;
	for (sent = 0; !err && sent < per_q; sent += chunk) {
		chunk = per_q - sent < HELD_CHUNK ? per_q - sent : HELD_CHUNK;
		want = start + (long long)(sent + chunk) * r->nq;
		if (wire_send(chunk)) {
			t->error = "writing to wire";
			return 0;
		}
		set_idle(1);
		err = wait_packets(r, want, t0);
		set_idle(0);
		if (err)
			break;
		k = read_datagrams(r, (long long)chunk * r->nq, want, t0, &t1);
		err = k < 0 ? (int)k : 0;
		got += k > 0 ? k : 0;
	}
	if (err) {
		t->error = err == -ETIMEDOUT ? "timed out" : "reading";
		return 0;
	}
	if (got < (long long)per_q * r->nq)
		*lost += (long long)per_q * r->nq - got;
	if (!got) {
		t->error = "nothing received";
		return 0;
	}
	return (double)(t1 - t0) / got;
}

/*
 * Sends @n frames and waits until the sink has them. Returns the time
 * per received packet in ns, 0 on failure (@t->error says why); adds
 * the frames the sink lost to *@lost.
 */
static double burst(struct rig *r, struct test *t, unsigned int n,
		    unsigned long long *lost)
{
	long long start, t0, t1, got = n, k;
	unsigned int sent, chunk;
	int err;

	if (t->sink == UDP_HELD_SINK)
		return burst_held(r, t, n, lost);
	start = packets_read(r);
	if (start < 0) {
		t->error = "ethtool -S";
		return 0;
	}
	/* The udp reader is part of the work: it competes for the CPU. */
	if (t->sink != UDP_SINK)
		set_idle(1);
	t0 = now_ns();
	if (wire_send(t->sink == UDP_SINK && n > UDP_CHUNK ? UDP_CHUNK : n)) {
		set_idle(0);
		t->error = "writing to wire";
		return 0;
	}
	if (t->sink == UDP_SINK) {
		t1 = t0;
		got = 0;
		err = 0;
		for (sent = 0; !err && sent < n; sent += chunk) {
			chunk = n - sent < UDP_CHUNK ? n - sent : UDP_CHUNK;
			if (sent && wire_send(chunk)) {
				t->error = "writing to wire";
				return 0;
			}
			k = read_datagrams(r, chunk, start + sent + chunk, t0,
					   &t1);
			err = k < 0 ? (int)k : 0;
			got += k > 0 ? k : 0;
		}
	} else {
		err = wait_packets(r, start + n, t0);
		t1 = now_ns();
		set_idle(0);
	}
	if (err) {
		t->error = err == -ETIMEDOUT ? "timed out" : "reading";
		return 0;
	}
	if (got < n)
		*lost += n - got;
	if (!got) {
		t->error = "nothing received";
		return 0;
	}
	return (double)(t1 - t0) / got;
}

/* Checks that the sink took the frames, not some other part. */
static const char *check_sink(struct rig *r, const struct test *t,
			      long long sent)
{
	char c;

	switch (t->sink) {
	case XDP_DROP_SINK:
		if (stat_read(r, r->xdp_drop_idx) != sent)
			return "XDP did not drop every frame";
		break;
	case STACK_DROP_SINK:
		if (recv(r->sock, &c, 1, MSG_DONTWAIT) >= 0)
			return "a frame passed the tc filter";
		break;
	default:
		break;
	}
	return NULL;
}

/* One run: a fresh device, a warmup, @frames timed. */
static void run(struct test *t, unsigned int warm, unsigned int frames)
{
	unsigned long long lost = 0, before[NR_CTRS], after[NR_CTRS];
	struct rig r;
	const char *err;
	double ns = 0;
	int c;

	err = rig_create(&r, t);
	if (err) {
		t->error = err;
		goto out;
	}
	if (burst(&r, t, warm, &lost) > 0) {
		lost = 0;
		ctrs_read(&r, before);
		ns = burst(&r, t, frames, &lost);
		ctrs_read(&r, after);
	}
	if (ns > 0) {
		for (c = 0; c < NR_CTRS; c++)
			t->moved[c] += after[c] - before[c];
		err = check_sink(&r, t, (long long)warm + frames);
		if (err)
			t->error = err;
		else
			t->ns[t->runs++] = ns;
		t->lost += lost;
	}
out:
	rig_destroy(&r);
}

/* The shares the summary line reports, where their counters moved. */
static void rates_print(const struct test *t)
{
	const unsigned long long *m = t->moved;
	unsigned long long kept = m[PP_CACHED] + m[PP_RING];
	unsigned long long freed = m[PP_RING_FULL] + m[PP_RELEASED];

	if (kept)
		printf(" direct=%.3f", (double)m[PP_CACHED] / kept);
	if (kept + freed)
		printf(" recycle=%.3f", (double)kept / (kept + freed));
	if (!strcmp(t->mode, "cache") && m[PACKETS])
		printf(" reuse=%.3f", (double)m[CACHE_REUSE] / m[PACKETS]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--quick] [--frames N] [--reps N] [--mode M] [--sink S]\n"
		"  --frames N  timed frames per run (default 200000, quick 2000)\n"
		"  --reps N    runs of each test (default 5, quick 1)\n"
		"  --mode M, --sink S  only that mode or sink\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "frames", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "sink", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct test tests[ARRAY_SIZE(modes) * NR_SINKS];
	unsigned int frames = 200000, reps = 5, warm, nt = 0, i, m, s, k;
	const char *only_mode = NULL, *only_sink = NULL;
	int quick = 0, c, status = 0;
	double ns;

	while ((c = getopt_long(argc, argv, "qn:r:m:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quick = 1;
			break;
		case 'n':
			frames = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			only_mode = optarg;
			break;
		case 's':
			only_sink = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (quick) {
		frames = frames < 2000 ? frames : 2000;
		reps = 1;
	}
	if (!frames || !reps || optind != argc)
		print_usage(argv[0]);
	/* Twice the default ring: every buffer has been round once. */
	warm = 2048;
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		if (only_mode && strcmp(only_mode, modes[m]))
			continue;
		for (s = 0; s < NR_SINKS; s++) {
			if (only_sink && strcmp(only_sink, sinks[s]))
				continue;
			memset(&tests[nt], 0, sizeof(tests[nt]));
			tests[nt].mode = modes[m];
			tests[nt].sink = s;
			tests[nt].ns = calloc(reps, sizeof(double));
			if (!tests[nt].ns)
				return 1;
			nt++;
		}
	}
	if (!nt)
		print_usage(argv[0]);
	if (access(BUS "/new_device", W_OK)) {
		printf("bench rx skipped: no ppsim bus (CONFIG_PPSIM) or not root\n");
		return 1;
	}

	for (k = 0; k < reps; k++)
		for (i = 0; i < nt; i++)
			if (!tests[i].error)
				run(&tests[i], warm, frames);

	for (i = 0; i < nt; i++) {
		struct test *t = &tests[i];

		if (t->skip) {
			printf("bench rx_%s_%s skipped reason=%s\n", t->mode,
			       sinks[t->sink], t->skip);
			continue;
		}
		if (t->error) {
			printf("bench rx_%s_%s failed: %s\n", t->mode,
			       sinks[t->sink], t->error);
			status = 1;
			continue;
		}
		ns = median(t->ns, t->runs);
		printf("bench rx_%s_%s pps=%.0f ns_per_pkt=%.1f runs=%u lost=%llu",
		       t->mode, sinks[t->sink], 1e9 / ns, ns, t->runs, t->lost);
		rates_print(t);
		printf("\n");
		free(t->ns);
	}
	return status;
}
