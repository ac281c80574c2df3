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
 * No libbpf: programs are built with the macros of tools/include's
 * linux/filter.h and loaded with bpf(2), the veth pair is made with raw
 * rtnetlink (net/lib/rtnl.h).
 *
 * Usage: page_pool_xdp [--quick] [--repeat N] [--batch N] [--settle S]
 *                      [--bench]
 * Output is kselftest TAP (kselftest_harness.h), or "bench <name> pps=<N>
 * ns_per_pkt=<X>" lines in --bench (scripts/bench-table.py reads those:
 * keep their format).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
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
#include <linux/filter.h>

#include "../../kselftest_harness.h"
#include "../lib/rtnl.h"

#define VETH_A		"ppxdp0"	/* ingress / transmitting end */
#define VETH_B		"ppxdp1"	/* peer: frames are counted here */
#define PKT_LEN		64
#define MAX_BATCH	256		/* test_run's batch_size limit */
#define ETH_P_LOCAL_EXP	0x88b5		/* IEEE 802 local experimental */

#define REPEAT_TEST	100000
#define REPEAT_QUICK	10000
#define REPEAT_B_DROP	1000000
#define REPEAT_B_OTHER	200000

/*
 * Ends the test as skipped from any depth, as a failed ASSERT ends it:
 * 6.1's harness goes on to the test when its setup only skipped.
 */
#define SKIP_TEST(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

struct opts {
	unsigned int repeat;	/* 0: per-mode default */
	unsigned int batch;	/* 0: kernel default (NAPI_POLL_WEIGHT) */
	unsigned int settle;	/* seconds before the kernel log check */
	bool quick;
	bool bench;
};

/* Set by main() before the tests, which run in children of it. */
static struct opts opts;
static unsigned int repeat;	/* frames per run of a test */
static int kmsg_fd = -1;		/* /dev/kmsg positioned at our start */
static unsigned char pkt[PKT_LEN];

/* A veth pair VETH_A <-> VETH_B. */
struct veth_pair {
	int if_a, if_b;		/* ifindexes, 0 when there is no pair */
	char err[128];		/* why there is no pair */
};

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
		BPF_MOV64_IMM(BPF_REG_0, action),
		BPF_EXIT_INSN(),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

/* A program that returns bpf_redirect(@ifindex, 0). */
static int prog_load_redirect(int ifindex)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_1, ifindex),
		BPF_MOV64_IMM(BPF_REG_2, 0),
		BPF_EMIT_CALL(BPF_FUNC_redirect),
		BPF_EXIT_INSN(),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

/* Whether bpf(2) takes an XDP program; if not, why in @why. */
static bool xdp_loads(char *why, size_t len)
{
	int fd = prog_load_ret(XDP_PASS);

	if (fd < 0) {
		snprintf(why, len, "cannot load XDP programs: %s",
			 strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * One live-frame run of @n frames. @ifindex != 0 makes that device the
 * ingress (via ctx_in); without ctx_in test_run uses the loopback device.
 * Live mode forbids data_out/ctx_out and, with ctx_in, takes the frame
 * length from ctx.data_end, so that must cover the whole packet.
 * Returns 0 or -errno; *@ns is the wall time of the syscall, which is
 * printed, unless @ns is NULL.
 */
static int run_live(int prog_fd, int ifindex, unsigned int n, uint64_t *ns)
{
	struct xdp_md md;
	union bpf_attr attr;
	uint64_t t0;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = ptr64(pkt);
	attr.test.data_size_in = sizeof(pkt);
	attr.test.repeat = n;
	attr.test.flags = BPF_F_TEST_XDP_LIVE_FRAMES;
	attr.test.batch_size = opts.batch;
	if (ifindex) {
		memset(&md, 0, sizeof(md));
		md.data_end = sizeof(pkt);
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
		ksft_print_msg("%u frames of %d B, batch %u, in %.3f s (kernel: %u ns/frame)\n",
			       n, PKT_LEN, opts.batch ? opts.batch : 64,
			       *ns / 1e9, attr.test.duration);
	return 0;
}

/* ---- the veth pair ------------------------------------------------ */

/*
 * Make VETH_A <-> VETH_B, both up, with an XDP_DROP program on VETH_B.
 * veth's ndo_xdp_xmit only accepts frames when the receiving end has its
 * NAPI enabled, which (without GRO) takes a native XDP program there; the
 * program drops every frame, which hands the page straight back to the
 * pool it came from. Returns 0, or -1 with the reason in @v->err.
 */
static int veth_pair_setup(struct veth_pair *v)
{
	const char *step;
	int ret, prog;
	int idx;

	memset(v, 0, sizeof(*v));
	/* a pair left over by an interrupted run */
	idx = if_nametoindex(VETH_A);
	if (idx)
		rtnl_link_del(idx);

	step = "create veth";
	ret = rtnl_veth_create(VETH_A, VETH_B);
	if (ret)
		goto err;
	v->if_a = if_nametoindex(VETH_A);
	v->if_b = if_nametoindex(VETH_B);
	step = "look up veth";
	ret = -ENODEV;
	if (!v->if_a || !v->if_b)
		goto err;
	step = "load peer prog";
	prog = prog_load_ret(XDP_DROP);
	ret = -errno;
	if (prog < 0)
		goto err;
	step = "attach peer XDP";
	ret = rtnl_xdp_attach(v->if_b, prog);
	/* the link holds its own reference to the program */
	close(prog);
	if (ret)
		goto err;
	step = "set " VETH_B " up";
	ret = rtnl_link_up(v->if_b);
	if (ret)
		goto err;
	step = "set " VETH_A " up";
	ret = rtnl_link_up(v->if_a);
	if (ret)
		goto err;
	ksft_print_msg("veth %s (%d) <-> %s (%d), XDP_DROP on %s\n",
		       VETH_A, v->if_a, VETH_B, v->if_b, VETH_B);
	return 0;
err:
	snprintf(v->err, sizeof(v->err), "%s: %s%s", step, strerror(-ret),
		 ret == -EOPNOTSUPP && !v->if_a ? " (CONFIG_VETH)" : "");
	ksft_print_msg("%s\n", v->err);
	if (v->if_a)
		rtnl_link_del(v->if_a);
	v->if_a = 0;
	v->if_b = 0;
	return -1;
}

static int veth_pair_teardown(struct veth_pair *v)
{
	int ret = 0;

	if (v->if_a) {
		/* deleting one end deletes the pair */
		ret = rtnl_link_del(v->if_a);
		if (ret)
			ksft_print_msg("delete %s: %s\n", VETH_A, strerror(-ret));
		v->if_a = 0;
		v->if_b = 0;
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

/* The frames go in through lo: no device to set up. */
FIXTURE(lo) {
	int prog;
};

FIXTURE_SETUP(lo)
{
	char why[96];

	self->prog = -1;
	if (!xdp_loads(why, sizeof(why)))
		SKIP_TEST("%s", why);
}

FIXTURE_TEARDOWN(lo)
{
	if (self->prog >= 0)
		close(self->prog);
}

TEST_F_TIMEOUT(lo, xdp_drop, 120)
{
	uint64_t ns;

	self->prog = prog_load_ret(XDP_DROP);
	ASSERT_LE(0, self->prog);
	ASSERT_EQ(0, run_live(self->prog, 0, repeat, &ns));
}

/*
 * XDP_PASS on the loopback device: every frame becomes an skb on a pool
 * page (marked for recycling) and goes through netif_receive_skb_list().
 * The frame's EtherType has no handler, so the stack frees each skb right
 * there, synchronously, counting it in lo's rx_dropped (or rx_nohandler);
 * freeing the skb returns the page to the pool. Nothing else feeds lo in
 * the test VM, so the count is exact.
 */
TEST_F_TIMEOUT(lo, xdp_pass, 120)
{
	uint64_t d0, n0, d1, n1, ns, got;

	ASSERT_EQ(0, read_stat("lo", "rx_dropped", &d0));
	ASSERT_EQ(0, read_stat("lo", "rx_nohandler", &n0));
	self->prog = prog_load_ret(XDP_PASS);
	ASSERT_LE(0, self->prog);
	ASSERT_EQ(0, run_live(self->prog, 0, repeat, &ns));
	ASSERT_EQ(0, read_stat("lo", "rx_dropped", &d1));
	ASSERT_EQ(0, read_stat("lo", "rx_nohandler", &n1));
	got = (d1 - d0) + (n1 - n0);
	ksft_print_msg("lo dropped %llu of %u skbs built from the frames\n",
		       (unsigned long long)got, repeat);
	EXPECT_EQ(repeat, got);
}

/*
 * The frames leave through VETH_A and are counted on VETH_B. The pair is
 * the test's own, deleted at its end, which also purges anything left in
 * its rings: every page should be back by the kernel log check.
 */
FIXTURE(veth) {
	struct veth_pair v;
	int prog;
};

FIXTURE_SETUP(veth)
{
	char why[96];

	self->prog = -1;
	if (!xdp_loads(why, sizeof(why)))
		SKIP_TEST("%s", why);
	if (veth_pair_setup(&self->v))
		SKIP_TEST("%s", self->v.err);
}

FIXTURE_TEARDOWN(veth)
{
	if (self->prog >= 0)
		close(self->prog);
	EXPECT_EQ(0, veth_pair_teardown(&self->v));
}

/*
 * Send repeat frames from ingress @ifindex with @prog_fd, which makes
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
static void veth_send(struct __test_metadata *_metadata, int prog_fd,
		      int ifindex)
{
	struct veth_counts before, delta;
	uint64_t ns;

	ASSERT_EQ(0, veth_counts(&before));
	ASSERT_EQ(0, run_live(prog_fd, ifindex, repeat, &ns));
	ASSERT_EQ(0, veth_wait(&before, repeat, &delta));
	ksft_print_msg("%s received %llu, refused %llu, of %u frames%s\n",
		       VETH_B, (unsigned long long)delta.rx,
		       (unsigned long long)delta.lost, repeat,
		       delta.rx == repeat ? " (all)" : "");
	EXPECT_EQ(repeat, delta.rx + delta.lost);
	EXPECT_LT((uint64_t)0, delta.rx);
}

TEST_F_TIMEOUT(veth, xdp_tx, 120)
{
	self->prog = prog_load_ret(XDP_TX);
	ASSERT_LE(0, self->prog);
	/*
	 * test_run turns XDP_TX into a redirect to the ingress device, so
	 * the frames go out of VETH_A, which therefore must be up.
	 */
	veth_send(_metadata, self->prog, self->v.if_a);
}

TEST_F_TIMEOUT(veth, xdp_redirect, 120)
{
	self->prog = prog_load_redirect(self->v.if_a);
	ASSERT_LE(0, self->prog);
	/* ingress is lo (no ctx_in): the redirect crosses devices */
	veth_send(_metadata, self->prog, 0);
}

static void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
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
 * Last, once the runs are over and their veth pairs deleted. The pools
 * are private to test_run, so "pages in flight" shows only indirectly:
 * the frame counts above account for every frame, and a pool destroyed
 * with pages out is kept by page_pool_release_retry(), which retries
 * every second and logs "stalled pool shutdown" after 60 s (inflight < 0
 * WARNs at once). So after a settle, read what the kernel logged since
 * we started. Use --settle 65 to catch a stalled pool.
 */
FIXTURE(kmsg) {
};

FIXTURE_SETUP(kmsg)
{
	char why[96];

	if (!xdp_loads(why, sizeof(why)))
		SKIP_TEST("%s", why);
}

FIXTURE_TEARDOWN(kmsg)
{
}

/* Its timeout is the settle's and this: see main(). */
#define KMSG_TIMEOUT	30

TEST_F_TIMEOUT(kmsg, no_pages_in_flight, KMSG_TIMEOUT)
{
	char rec[2048];
	int bad = 0;
	ssize_t n;
	char *msg;

	if (kmsg_fd < 0)
		SKIP(return, "/dev/kmsg not readable");
	sleep(opts.settle);
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
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
		       bad, opts.settle);
	EXPECT_EQ(0, bad);
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

static int bench_one(struct veth_pair *v, const char *name, int action,
		     unsigned int n)
{
	int prog, ret, ifindex = 0;
	uint64_t ns;

	if (action == XDP_TX) {
		if (!v->if_a) {
			ksft_print_msg("bench %s: no veth (%s)\n", name, v->err);
			return -1;
		}
		ifindex = v->if_a;
	}
	prog = prog_load_ret(action);
	if (prog < 0)
		return -1;
	/* warm up: the first runs of a mode pay for lockdep, slab growth */
	ret = run_live(prog, ifindex, n / 10 + 1, NULL);
	if (!ret)
		ret = run_live(prog, ifindex, n, &ns);
	close(prog);
	if (ret)
		return -1;
	printf("bench %s pps=%.0f ns_per_pkt=%.1f\n", name,
	       n * 1e9 / (ns ? ns : 1), (double)ns / n);
	return 0;
}

/* --bench prints no TAP: its exit status is all bench-init.sh checks. */
static int bench(void)
{
	unsigned int r_drop = opts.repeat ? opts.repeat : REPEAT_B_DROP;
	unsigned int r_other = opts.repeat ? opts.repeat : REPEAT_B_OTHER;
	struct veth_pair v;
	char why[96];
	int err = 0;

	if (!xdp_loads(why, sizeof(why))) {
		ksft_print_msg("%s\n", why);
		return 1;
	}
	veth_pair_setup(&v);
	if (opts.quick && !opts.repeat) {
		r_drop /= 10;
		r_other /= 10;
	}
	err |= bench_one(&v, "xdp_drop", XDP_DROP, r_drop);
	err |= bench_one(&v, "xdp_pass", XDP_PASS, r_other);
	err |= bench_one(&v, "xdp_tx", XDP_TX, r_other);
	if (veth_pair_teardown(&v))
		err = 1;
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

/* The log check's timeout grows with the settle it sleeps first. */
static void kmsg_timeout(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			if (!strcmp(t->name, "no_pages_in_flight"))
				t->timeout = KMSG_TIMEOUT + opts.settle;
}

int main(int argc, char **argv)
{
	parse_opts(argc, argv, &opts);
	setvbuf(stdout, NULL, _IOLBF, 0);
	make_packet(pkt);
	repeat = opts.repeat ? opts.repeat :
		 opts.quick ? REPEAT_QUICK : REPEAT_TEST;
	/* Before the first test: the check reads all they made the kernel log. */
	kmsg_open();
	if (opts.bench)
		return bench();
	kmsg_timeout();
	return test_harness_run(argc, argv);
}
