// SPDX-License-Identifier: GPL-2.0
/*
 * page_pool_xdp - drive the page_pool behind BPF_PROG_TEST_RUN's live-frame
 * XDP mode (BPF_F_TEST_XDP_LIVE_FRAMES).
 *
 * Every live-frame run creates a page_pool (pool_size = batch_size), takes
 * one page per frame from it, runs the XDP program on the page and then
 * drops the page back into the pool (XDP_DROP), builds an skb on it and
 * hands it to the stack (XDP_PASS, the skb recycle path) or redirects it
 * to a device (XDP_TX turns into a redirect back to the ingress device,
 * XDP_REDIRECT goes where bpf_redirect() said). The pool is destroyed at
 * the end of the run; pages still out then keep it alive in the deferred
 * release worker, which complains in the kernel log.
 *
 * No libbpf: programs are hand-assembled and loaded with bpf(2), the veth
 * pair is made with raw rtnetlink.
 *
 * Usage: page_pool_xdp [--quick] [--repeat N] [--batch N] [--settle S]
 *                      [--bench]
 * Output is kselftest TAP, or "bench <name> pps=<N> ns_per_pkt=<X>" lines
 * in --bench (scripts/bench-table.py reads those: keep their format).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "../../kselftest.h"

#define VETH_A		"ppxdp0"	/* ingress / transmitting end */
#define VETH_B		"ppxdp1"	/* peer: frames are counted here */
#define PKT_LEN		64
#define MAX_BATCH	256		/* test_run's batch_size limit */
#define ETH_P_LOCAL_EXP	0x88b5		/* IEEE 802 local experimental */

#define REPEAT_TEST	100000
#define REPEAT_QUICK	10000
#define REPEAT_B_DROP	1000000
#define REPEAT_B_OTHER	200000

/* Hand-rolled BPF instruction builders. */
#define INSN_MOV_IMM(dst, val)						\
	((struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,	\
			    .dst_reg = (dst), .imm = (val) })
#define INSN_CALL(fn)							\
	((struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = (fn) })
#define INSN_EXIT()							\
	((struct bpf_insn){ .code = BPF_JMP | BPF_EXIT })

enum result { RES_OK, RES_FAIL, RES_SKIP };

struct opts {
	unsigned int repeat;	/* 0: per-mode default */
	unsigned int batch;	/* 0: kernel default (NAPI_POLL_WEIGHT) */
	unsigned int settle;	/* seconds before the kernel log check */
	bool quick;
	bool bench;
};

struct env {
	struct opts o;
	int nl;			/* rtnetlink socket, -1 if none */
	int kmsg;		/* /dev/kmsg positioned at our start, or -1 */
	int if_a, if_b;		/* veth ifindexes, 0 when there is no pair */
	char veth_err[128];	/* why there is no pair */
	unsigned char pkt[PKT_LEN];
};

/* One TAP result; @why says what a skip missed. */
static void report(enum result res, const char *name, const char *why)
{
	switch (res) {
	case RES_OK:
		ksft_test_result_pass("%s\n", name);
		break;
	case RES_SKIP:
		ksft_test_result_skip("%s: %s\n", name, why);
		break;
	default:
		ksft_test_result_fail("%s\n", name);
	}
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static uint64_t ptr64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static int prog_load(const struct bpf_insn *insns, unsigned int cnt)
{
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = ptr64(insns);
	attr.insn_cnt = cnt;
	attr.license = ptr64("GPL");
	attr.log_buf = ptr64(log);
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = '\0';
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		int err = errno;

		ksft_print_msg("BPF_PROG_LOAD: %s\n", strerror(err));
		if (log[0])
			ksft_print_msg("verifier: %s\n", log);
		errno = err;
	}
	return fd;
}

/* A program that only returns @action. */
static int prog_load_ret(int action)
{
	struct bpf_insn insns[] = {
		INSN_MOV_IMM(BPF_REG_0, action),
		INSN_EXIT(),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

/* A program that returns bpf_redirect(@ifindex, 0). */
static int prog_load_redirect(int ifindex)
{
	struct bpf_insn insns[] = {
		INSN_MOV_IMM(BPF_REG_1, ifindex),
		INSN_MOV_IMM(BPF_REG_2, 0),
		INSN_CALL(BPF_FUNC_redirect),
		INSN_EXIT(),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * One live-frame run of @repeat frames. @ifindex != 0 makes that device
 * the ingress (via ctx_in); without ctx_in test_run uses the loopback
 * device. Live mode forbids data_out/ctx_out and, with ctx_in, takes the
 * frame length from ctx.data_end, so that must cover the whole packet.
 * Returns 0 or -errno; *@ns is the wall time of the syscall, which is
 * printed, unless @ns is NULL.
 */
static int run_live(struct env *e, int prog_fd, int ifindex,
		    unsigned int repeat, uint64_t *ns)
{
	struct xdp_md md;
	union bpf_attr attr;
	uint64_t t0;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = ptr64(e->pkt);
	attr.test.data_size_in = sizeof(e->pkt);
	attr.test.repeat = repeat;
	attr.test.flags = BPF_F_TEST_XDP_LIVE_FRAMES;
	attr.test.batch_size = e->o.batch;
	if (ifindex) {
		memset(&md, 0, sizeof(md));
		md.data_end = sizeof(e->pkt);
		md.ingress_ifindex = ifindex;
		attr.test.ctx_in = ptr64(&md);
		attr.test.ctx_size_in = sizeof(md);
	}
	t0 = now_ns();
	ret = sys_bpf(BPF_PROG_TEST_RUN, &attr);
	if (ns)
		*ns = now_ns() - t0;
	if (ret) {
		ret = -errno;
		ksft_print_msg("BPF_PROG_TEST_RUN: %s\n", strerror(-ret));
		return ret;
	}
	if (ns)
		ksft_print_msg("%u frames in %.3f s (kernel: %u ns/frame)\n",
			       repeat, *ns / 1e9, attr.test.duration);
	return 0;
}

/* ---- rtnetlink ---------------------------------------------------- */

struct nl_msg {
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	};
};

static struct ifinfomsg *nl_init(struct nl_msg *m, int type, int flags)
{
	static unsigned int seq;
	struct ifinfomsg *ifi;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->nlh.nlmsg_seq = ++seq;
	m->nlh.nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	ifi = NLMSG_DATA(&m->nlh);
	ifi->ifi_family = AF_UNSPEC;
	return ifi;
}

static struct rtattr *nl_put(struct nl_msg *m, unsigned short type,
			     const void *data, size_t len)
{
	unsigned int off = NLMSG_ALIGN(m->nlh.nlmsg_len);
	struct rtattr *rta = (struct rtattr *)(m->buf + off);

	if (off + RTA_SPACE(len) > sizeof(m->buf)) {
		fprintf(stderr, "netlink message overflow\n");
		abort();
	}
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	m->nlh.nlmsg_len = off + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void nl_put_str(struct nl_msg *m, unsigned short type, const char *s)
{
	nl_put(m, type, s, strlen(s) + 1);
}

static void nl_end(struct nl_msg *m, struct rtattr *nest)
{
	nest->rta_len = m->buf + m->nlh.nlmsg_len - (char *)nest;
}

/* Print the extended ack message, if the kernel attached one. */
static void nl_print_extack(struct nlmsghdr *nlh)
{
	struct nlmsgerr *err = NLMSG_DATA(nlh);
	unsigned int off = NLMSG_LENGTH(sizeof(*err));
	struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		a = (struct nlattr *)((char *)nlh + off);
		if (a->nla_len < NLA_HDRLEN ||
		    off + a->nla_len > nlh->nlmsg_len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			ksft_print_msg("netlink: %.*s\n",
				       (int)(a->nla_len - NLA_HDRLEN),
				       (char *)a + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Send @m and wait for its ack. Returns 0 or -errno. */
static int nl_talk(int fd, struct nl_msg *m)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[8192];
	struct nlmsghdr *nlh;
	ssize_t len;

	if (sendto(fd, m->buf, m->nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			struct nlmsgerr *err = NLMSG_DATA(nlh);

			if (nlh->nlmsg_seq != m->nlh.nlmsg_seq ||
			    nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			if (err->error)
				nl_print_extack(nlh);
			return err->error;
		}
	}
}

static int nl_open(void)
{
	int one = 1;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	/* Both are best effort: they only improve error messages. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static int link_del(int nl, int ifindex)
{
	struct nl_msg m;

	nl_init(&m, RTM_DELLINK, 0)->ifi_index = ifindex;
	return nl_talk(nl, &m);
}

static int link_set_up(int nl, int ifindex)
{
	struct ifinfomsg *ifi;
	struct nl_msg m;

	ifi = nl_init(&m, RTM_NEWLINK, 0);
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return nl_talk(nl, &m);
}

/* Attach @prog_fd as the native (driver mode) XDP program of @ifindex. */
static int link_set_xdp(int nl, int ifindex, int prog_fd)
{
	__u32 flags = XDP_FLAGS_DRV_MODE;
	struct rtattr *xdp;
	struct nl_msg m;

	nl_init(&m, RTM_SETLINK, 0)->ifi_index = ifindex;
	xdp = nl_put(&m, IFLA_XDP | NLA_F_NESTED, NULL, 0);
	nl_put(&m, IFLA_XDP_FD, &prog_fd, sizeof(prog_fd));
	nl_put(&m, IFLA_XDP_FLAGS, &flags, sizeof(flags));
	nl_end(&m, xdp);
	return nl_talk(nl, &m);
}

static int veth_create(int nl, const char *a, const char *b)
{
	struct rtattr *info, *data, *peer;
	struct ifinfomsg peer_ifi;
	struct nl_msg m;

	nl_init(&m, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nl_put_str(&m, IFLA_IFNAME, a);
	info = nl_put(&m, IFLA_LINKINFO, NULL, 0);
	nl_put_str(&m, IFLA_INFO_KIND, "veth");
	data = nl_put(&m, IFLA_INFO_DATA, NULL, 0);
	/* VETH_INFO_PEER carries an ifinfomsg, then the peer's attributes */
	memset(&peer_ifi, 0, sizeof(peer_ifi));
	peer_ifi.ifi_family = AF_UNSPEC;
	peer = nl_put(&m, VETH_INFO_PEER, &peer_ifi, sizeof(peer_ifi));
	nl_put_str(&m, IFLA_IFNAME, b);
	nl_end(&m, peer);
	nl_end(&m, data);
	nl_end(&m, info);
	return nl_talk(nl, &m);
}

/*
 * Make VETH_A <-> VETH_B, both up, with an XDP_DROP program on VETH_B.
 * veth's ndo_xdp_xmit only accepts frames when the receiving end has its
 * NAPI enabled, which (without GRO) takes a native XDP program there; the
 * program drops every frame, which hands the page straight back to the
 * pool it came from.
 */
static void veth_setup(struct env *e)
{
	const char *step;
	int ret, prog;
	int idx;

	if (e->nl < 0) {
		snprintf(e->veth_err, sizeof(e->veth_err),
			 "no rtnetlink socket: %s", strerror(errno));
		return;
	}
	/* a pair left over by an interrupted run */
	idx = if_nametoindex(VETH_A);
	if (idx)
		link_del(e->nl, idx);

	step = "create veth";
	ret = veth_create(e->nl, VETH_A, VETH_B);
	if (ret)
		goto err;
	e->if_a = if_nametoindex(VETH_A);
	e->if_b = if_nametoindex(VETH_B);
	step = "look up veth";
	ret = -ENODEV;
	if (!e->if_a || !e->if_b)
		goto err;
	step = "load peer prog";
	prog = prog_load_ret(XDP_DROP);
	ret = -errno;
	if (prog < 0)
		goto err;
	step = "attach peer XDP";
	ret = link_set_xdp(e->nl, e->if_b, prog);
	/* the link holds its own reference to the program */
	close(prog);
	if (ret)
		goto err;
	step = "set " VETH_B " up";
	ret = link_set_up(e->nl, e->if_b);
	if (ret)
		goto err;
	step = "set " VETH_A " up";
	ret = link_set_up(e->nl, e->if_a);
	if (ret)
		goto err;
	ksft_print_msg("veth %s (%d) <-> %s (%d), XDP_DROP on %s\n",
		       VETH_A, e->if_a, VETH_B, e->if_b, VETH_B);
	return;
err:
	snprintf(e->veth_err, sizeof(e->veth_err), "%s: %s", step,
		 strerror(-ret));
	ksft_print_msg("%s\n", e->veth_err);
	if (e->if_a)
		link_del(e->nl, e->if_a);
	e->if_a = 0;
	e->if_b = 0;
}

static int veth_teardown(struct env *e)
{
	int ret = 0;

	if (e->if_a) {
		/* deleting one end deletes the pair */
		ret = link_del(e->nl, e->if_a);
		if (ret)
			ksft_print_msg("delete %s: %s\n", VETH_A, strerror(-ret));
		e->if_a = 0;
		e->if_b = 0;
	}
	return ret;
}

/* ---- counters ----------------------------------------------------- */

static int read_stat(const char *dev, const char *name, uint64_t *val)
{
	char path[128];
	unsigned long long v;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", dev,
		 name);
	f = fopen(path, "r");
	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return -1;
	}
	n = fscanf(f, "%llu", &v);
	fclose(f);
	if (n != 1)
		return -1;
	*val = v;
	return 0;
}

/* The counters that account for the frames sent into a veth pair. */
struct veth_counts {
	uint64_t rx;		/* B rx_packets: frames B's NAPI consumed */
	uint64_t lost;		/* A tx_dropped: ndo_xdp_xmit/ring refusals */
};

static int veth_counts(struct veth_counts *c)
{
	if (read_stat(VETH_B, "rx_packets", &c->rx) ||
	    read_stat(VETH_A, "tx_dropped", &c->lost))
		return -1;
	return 0;
}

/*
 * Wait (up to about a second) until @want frames are accounted for:
 * normally they are by the time the run returns, as the veth NAPI poll
 * runs from the softirq at the end of each batch, but it may have been
 * deferred to ksoftirqd.
 */
static int veth_wait(const struct veth_counts *before, uint64_t want,
		     struct veth_counts *delta)
{
	struct veth_counts now;
	int i;

	for (i = 0; i < 100; i++) {
		if (veth_counts(&now))
			return -1;
		delta->rx = now.rx - before->rx;
		delta->lost = now.lost - before->lost;
		if (delta->rx + delta->lost >= want)
			break;
		usleep(10000);
	}
	return 0;
}

/* ---- the tests ---------------------------------------------------- */

static enum result test_drop(struct env *e, unsigned int repeat)
{
	int prog, ret;
	uint64_t ns;

	prog = prog_load_ret(XDP_DROP);
	if (prog < 0)
		return RES_FAIL;
	ret = run_live(e, prog, 0, repeat, &ns);
	close(prog);
	return ret ? RES_FAIL : RES_OK;
}

/*
 * XDP_PASS on the loopback device: every frame becomes an skb on a pool
 * page (marked for recycling) and goes through netif_receive_skb_list().
 * The frame's EtherType has no handler, so the stack frees each skb right
 * there, synchronously, counting it in lo's rx_dropped (or rx_nohandler);
 * freeing the skb returns the page to the pool. Nothing else feeds lo in
 * the test VM, so the count is exact.
 */
static enum result test_pass(struct env *e, unsigned int repeat)
{
	uint64_t d0, n0, d1, n1, ns, got;
	int prog, ret;

	if (read_stat("lo", "rx_dropped", &d0) ||
	    read_stat("lo", "rx_nohandler", &n0))
		return RES_FAIL;
	prog = prog_load_ret(XDP_PASS);
	if (prog < 0)
		return RES_FAIL;
	ret = run_live(e, prog, 0, repeat, &ns);
	close(prog);
	if (ret)
		return RES_FAIL;
	if (read_stat("lo", "rx_dropped", &d1) ||
	    read_stat("lo", "rx_nohandler", &n1))
		return RES_FAIL;
	got = (d1 - d0) + (n1 - n0);
	ksft_print_msg("lo dropped %llu of %u skbs built from the frames\n",
		       (unsigned long long)got, repeat);
	return got == repeat ? RES_OK : RES_FAIL;
}

/*
 * Send @repeat frames from ingress @ifindex with @prog_fd, which makes
 * them leave through VETH_A, and check they reach VETH_B.
 *
 * Only the sum is deterministic: each batch (64 frames by default) is
 * flushed into B's 256-entry ring and B's NAPI normally drains it in the
 * softirq run at the batch's local_bh_enable(), so all frames arrive.
 * But if NET_RX has been punted to ksoftirqd (it had been woken), the test
 * task may queue several batches before the poll runs and the ring can
 * overflow; veth then counts the refused frames in A's tx_dropped. So the
 * test checks that rx + dropped == repeat (no frame unaccounted for, so
 * none stranded outside the pool) and rx > 0, and reports any drops.
 */
static enum result veth_send(struct env *e, int prog_fd, int ifindex,
			     unsigned int repeat)
{
	struct veth_counts before, delta;
	uint64_t ns;

	if (veth_counts(&before))
		return RES_FAIL;
	if (run_live(e, prog_fd, ifindex, repeat, &ns))
		return RES_FAIL;
	if (veth_wait(&before, repeat, &delta))
		return RES_FAIL;
	ksft_print_msg("%s received %llu, refused %llu, of %u frames%s\n",
		       VETH_B, (unsigned long long)delta.rx,
		       (unsigned long long)delta.lost, repeat,
		       delta.rx == repeat ? " (all)" : "");
	if (delta.rx + delta.lost != repeat || !delta.rx)
		return RES_FAIL;
	return RES_OK;
}

static enum result test_tx(struct env *e, unsigned int repeat)
{
	enum result res;
	int prog;

	if (!e->if_a)
		return RES_SKIP;
	prog = prog_load_ret(XDP_TX);
	if (prog < 0)
		return RES_FAIL;
	/*
	 * test_run turns XDP_TX into a redirect to the ingress device, so
	 * the frames go out of VETH_A, which therefore must be up.
	 */
	res = veth_send(e, prog, e->if_a, repeat);
	close(prog);
	return res;
}

static enum result test_redirect(struct env *e, unsigned int repeat)
{
	enum result res;
	int prog;

	if (!e->if_a)
		return RES_SKIP;
	prog = prog_load_redirect(e->if_a);
	if (prog < 0)
		return RES_FAIL;
	/* ingress is lo (no ctx_in): the redirect crosses devices */
	res = veth_send(e, prog, 0, repeat);
	close(prog);
	return res;
}

static void kmsg_open(struct env *e)
{
	e->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (e->kmsg >= 0)
		lseek(e->kmsg, 0, SEEK_END);
}

static bool kmsg_bad(const char *msg)
{
	static const char * const pat[] = {
		"page_pool", "stalled pool shutdown", "inflight",
		"WARNING:", "BUG:", "Oops", "Call Trace",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pat); i++)
		if (strstr(msg, pat[i]))
			return true;
	return false;
}

/*
 * The pools are private to test_run, so "pages in flight" shows only
 * indirectly: the frame counts above account for every frame, and a pool
 * destroyed with pages out is kept by page_pool_release_retry(), which
 * retries every second and logs "stalled pool shutdown" after 60 s
 * (inflight < 0 WARNs at once). So after a settle, read what the kernel
 * logged since we started. Use --settle 65 to catch a stalled pool.
 */
static enum result test_kmsg(struct env *e)
{
	char rec[2048];
	int bad = 0;
	ssize_t n;
	char *msg;

	if (e->kmsg < 0)
		return RES_SKIP;
	sleep(e->o.settle);
	for (;;) {
		n = read(e->kmsg, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EPIPE || errno == EINTR)
				continue;	/* overwritten record */
			break;			/* EAGAIN: end of the log */
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (kmsg_bad(msg)) {
			bad++;
			ksft_print_msg("kmsg: %s", msg);
			if (msg[0] && msg[strlen(msg) - 1] != '\n')
				printf("\n");
		}
	}
	ksft_print_msg("%d suspicious kernel log lines after %u s settle\n",
		       bad, e->o.settle);
	return bad ? RES_FAIL : RES_OK;
}

static void make_packet(unsigned char *p)
{
	static const unsigned char dst[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const unsigned char src[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	int i;

	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	p[12] = ETH_P_LOCAL_EXP >> 8;
	p[13] = ETH_P_LOCAL_EXP & 0xff;
	for (i = 14; i < PKT_LEN; i++)
		p[i] = i;
}

/* ---- bench -------------------------------------------------------- */

static int bench_one(struct env *e, const char *name, int action,
		     unsigned int repeat)
{
	int prog, ret, ifindex = 0;
	uint64_t ns;

	if (action == XDP_TX) {
		if (!e->if_a) {
			ksft_print_msg("bench %s: no veth (%s)\n", name,
				       e->veth_err);
			return -1;
		}
		ifindex = e->if_a;
	}
	prog = prog_load_ret(action);
	if (prog < 0)
		return -1;
	/* warm up: the first runs of a mode pay for lockdep, slab growth */
	ret = run_live(e, prog, ifindex, repeat / 10 + 1, NULL);
	if (!ret)
		ret = run_live(e, prog, ifindex, repeat, &ns);
	close(prog);
	if (ret)
		return -1;
	printf("bench %s pps=%.0f ns_per_pkt=%.1f\n", name,
	       repeat * 1e9 / (ns ? ns : 1), (double)ns / repeat);
	return 0;
}

static int bench(struct env *e)
{
	unsigned int r_drop = e->o.repeat ? e->o.repeat : REPEAT_B_DROP;
	unsigned int r_other = e->o.repeat ? e->o.repeat : REPEAT_B_OTHER;
	int err = 0;

	if (e->o.quick && !e->o.repeat) {
		r_drop /= 10;
		r_other /= 10;
	}
	err |= bench_one(e, "xdp_drop", XDP_DROP, r_drop);
	err |= bench_one(e, "xdp_pass", XDP_PASS, r_other);
	err |= bench_one(e, "xdp_tx", XDP_TX, r_other);
	return err ? 1 : 0;
}

/* ---- main --------------------------------------------------------- */

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--quick] [--repeat N] [--batch N] [--settle S] [--bench]\n"
		"  --quick     %u frames per test (default %u), 1 s settle\n"
		"  --repeat N  frames per run (tests and bench)\n"
		"  --batch N   test_run batch_size (1..256, default 64)\n"
		"  --settle S  seconds to wait before the kernel log check\n"
		"  --bench     print bench lines for DROP, PASS and TX\n",
		prog, REPEAT_QUICK, REPEAT_TEST);
	exit(2);
}

static unsigned int parse_uint(const char *s, const char *prog)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > 0xffffffffUL)
		print_usage(prog);
	return v;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "repeat", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "settle", required_argument, NULL, 's' },
		{ "bench", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool settle_set = false;
	int c;

	while ((c = getopt_long(argc, argv, "qn:b:s:Bh", lo, NULL)) != -1) {
		switch (c) {
		case 'q':
			o->quick = true;
			break;
		case 'n':
			o->repeat = parse_uint(optarg, argv[0]);
			if (!o->repeat)
				print_usage(argv[0]);
			break;
		case 'b':
			o->batch = parse_uint(optarg, argv[0]);
			if (o->batch > MAX_BATCH)
				print_usage(argv[0]);
			break;
		case 's':
			o->settle = parse_uint(optarg, argv[0]);
			settle_set = true;
			break;
		case 'B':
			o->bench = true;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc)
		print_usage(argv[0]);
	if (!settle_set)
		o->settle = o->quick ? 1 : 2;
}

static const struct {
	const char *name;
	enum result (*fn)(struct env *e, unsigned int repeat);
} tests[] = {
	{ "xdp_drop", test_drop },
	{ "xdp_pass", test_pass },
	{ "xdp_tx", test_tx },
	{ "xdp_redirect", test_redirect },
};

/*
 * Last, once the runs are over: deleting the pair also purges anything
 * left in its rings, so every page should be back by the kernel log check.
 */
static enum result test_no_pages_in_flight(struct env *e)
{
	enum result res;

	res = veth_teardown(e) ? RES_FAIL : RES_OK;
	if (test_kmsg(e) == RES_FAIL)
		res = RES_FAIL;
	else if (e->kmsg < 0 && res == RES_OK)
		res = RES_SKIP;
	return res;
}

/*
 * Report every case as skipped, so that a kernel without BPF shows the
 * same cases as one that runs them.
 */
static void skip_all(const char *why)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tests); i++)
		report(RES_SKIP, tests[i].name, why);
	report(RES_SKIP, "no_pages_in_flight", why);
}

static void run_tests(struct env *e, unsigned int repeat)
{
	unsigned int i;

	ksft_print_msg("%u frames per run, batch %u, %d B frames\n", repeat,
		       e->o.batch ? e->o.batch : 64, PKT_LEN);
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		ksft_print_msg("%s\n", tests[i].name);
		report(tests[i].fn(e, repeat), tests[i].name, e->veth_err);
	}
	report(test_no_pages_in_flight(e), "no_pages_in_flight",
	       "/dev/kmsg not readable");
}

/* --bench prints no TAP: its exit status is all bench-init.sh checks. */
static int run_bench(struct env *e)
{
	int ret;

	ret = bench(e);
	if (veth_teardown(e))
		ret = 1;
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int repeat;
	struct env e;
	char why[96];
	int probe;

	memset(&e, 0, sizeof(e));
	parse_opts(argc, argv, &e.o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	make_packet(e.pkt);
	repeat = e.o.repeat ? e.o.repeat :
		 e.o.quick ? REPEAT_QUICK : REPEAT_TEST;

	if (!e.o.bench) {
		ksft_print_header();
		ksft_set_plan(ARRAY_SIZE(tests) + 1);
	}
	kmsg_open(&e);

	/* Without BPF there is nothing to test: skip everything. */
	probe = prog_load_ret(XDP_PASS);
	if (probe < 0) {
		snprintf(why, sizeof(why), "cannot load XDP programs: %s",
			 strerror(errno));
		if (e.o.bench) {
			ksft_print_msg("%s\n", why);
			return 1;
		}
		skip_all(why);
		ksft_finished();
	}
	close(probe);

	e.nl = nl_open();
	veth_setup(&e);
	if (e.o.bench)
		return run_bench(&e);
	run_tests(&e, repeat);
	ksft_finished();
}
