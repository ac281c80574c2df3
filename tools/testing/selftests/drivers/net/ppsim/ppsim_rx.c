// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim_rx - end-to-end tests of the ppsim simulated NIC's RX path.
 *
 * Each test creates a ppsim device with two RX queues in one RX buffer
 * mode, gives it 192.0.2.1/24 and brings it up, has the device's wire
 * generator send frames to a UDP socket on port 9000, and checks what
 * arrives: every frame once, in order per queue, with its payload intact,
 * and the driver's counters agreeing. Frames a device receives for
 * another host are checked the same way through a packet socket.
 *
 * Needs root, and a kernel with CONFIG_PPSIM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/ethtool.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/ip.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <linux/udp.h>
#include <linux/veth.h>
#include <net/if_arp.h>

#include "../../../kselftest_harness.h"
#include "../../../net/lib/rtnl.h"
#include "../../../../../../drivers/net/ppsim/ppsim_wire.h"

#define BUS		"/sys/bus/ppsim"
#define DEV_ID		7
#define NUM_RXQ		2
#define RCVBUF		(64 << 20)
/* Entries of a queue's XDP TX ring (PPSIM_XDP_TX_RING). */
#define TX_RING		128
/* A new device's RX ring size (PPSIM_RING_DEF), and the smallest. */
#define RING_DEF	1024
#define RING_MIN	64

#define DEBUGFS		"/sys/kernel/debug"
#define FAIL_PAGE_ALLOC	DEBUGFS "/fail_page_alloc/"

static const char * const modes[] = {
	"alloc", "cache", "pool", "frag", "order3",
};

/*
 * Ends the test as skipped from any depth, as a failed ASSERT ends it:
 * 6.1's harness goes on to the test when its setup only skipped.
 */
#define SKIP_TEST(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

/* Whether the kernel has bpf(2), which comes with this sysctl. */
static bool have_bpf(void)
{
	return !access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK);
}

/* Whether the kernel has packet sockets. */
static bool have_packet(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno != EAFNOSUPPORT;
	close(fd);
	return true;
}

/* The kernel options a test needs beyond CONFIG_PPSIM: skip without. */
#define NEED_BPF() do {							\
	if (!have_bpf())						\
		SKIP_TEST("kernel without bpf(2) (CONFIG_BPF_SYSCALL)");	\
} while (0)

#define NEED_PACKET() do {						\
	if (!have_packet())						\
		SKIP_TEST("kernel without packet sockets (CONFIG_PACKET)");	\
} while (0)

/* Writes @val to the sysfs file @path; returns 0 or -errno. */
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

static int dev_attr_read(int id, const char *attr, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/%s", id, attr);
	return sysfs_read(path, buf, size);
}

static int dev_create(int id, int num_rxq)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d %d", id, num_rxq);
	return sysfs_write(BUS "/new_device", buf);
}

static int dev_destroy(int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", id);
	return sysfs_write(BUS "/del_device", buf);
}

/* Destroys device @id if a failed test left it behind. */
static void dev_cleanup(int id)
{
	char path[64];

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d", id);
	if (!access(path, F_OK))
		dev_destroy(id);
}

/* A device the stack sends nothing on: without IPv6 (router
 * solicitations, MLD), the only frames it receives are the wire's, so
 * its counters can be compared exactly.
 */
static void if_quiet(const char *ifname)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 ifname);
	sysfs_write(path, "1");	/* absent without IPv6: nothing to do */
}

/* The netdev's name, from the bus device's net/ directory; quietened. */
static int dev_ifname(int id, char *name)
{
	char path[128];
	struct dirent *de;
	DIR *d;
	int err = -ENOENT;

	snprintf(path, sizeof(path), BUS "/devices/ppsim%d/net", id);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IFNAMSIZ)
			continue;
		strcpy(name, de->d_name);
		if_quiet(name);
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

static int if_set_up(const char *ifname, int up)
{
	struct ifreq ifr = {};
	int err;

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

/* Reads @ifname's MAC address into @mac; 0 or -errno. */
static int if_get_mac(const char *ifname, struct sockaddr *mac)
{
	struct ifreq ifr = {};
	int err;

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	err = if_ioctl(SIOCGIFHWADDR, &ifr);
	if (!err)
		*mac = ifr.ifr_hwaddr;
	return err;
}

static int ethtool(const char *ifname, void *cmd)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	ifr.ifr_data = cmd;
	return if_ioctl(SIOCETHTOOL, &ifr);
}

/*
 * The counter @name from ethtool -S, or -1 if there is none. The set is
 * read whole each time: its length follows the queue count.
 */
static long long ethtool_stat(const char *ifname, const char *name)
{
	struct ethtool_sset_info *info;
	struct ethtool_gstrings *strs;
	struct ethtool_stats *stats;
	long long val = -1;
	unsigned int n, i;

	info = calloc(1, sizeof(*info) + sizeof(__u32));
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ULL << ETH_SS_STATS;
	if (ethtool(ifname, info) || !info->sset_mask) {
		free(info);
		return -1;
	}
	n = info->data[0];
	free(info);

	strs = calloc(1, sizeof(*strs) + n * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + n * sizeof(__u64));
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = ETH_SS_STATS;
	strs->len = n;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	if (!ethtool(ifname, strs) && !ethtool(ifname, stats))
		for (i = 0; i < n; i++)
			if (!strncmp((char *)strs->data + i * ETH_GSTRING_LEN,
				     name, ETH_GSTRING_LEN))
				val = stats->data[i];
	free(strs);
	free(stats);
	return val;
}

/* The sum of rx<q>_<what> over the first @nq queues. */
static long long rxq_sum(const char *ifname, const char *what, int nq)
{
	long long v, sum = 0;
	char name[ETH_GSTRING_LEN];
	int q;

	for (q = 0; q < nq; q++) {
		snprintf(name, sizeof(name), "rx%d_%s", q, what);
		v = ethtool_stat(ifname, name);
		if (v < 0)
			return -1;
		sum += v;
	}
	return sum;
}

/* Binds @fd to @addr with a large receive buffer and a 5 s timeout;
 * returns @fd, or -1 with it closed.
 */
static int sink_bind(int fd, const void *addr, socklen_t len)
{
	struct timeval tv = { .tv_sec = 5 };
	int sz = RCVBUF;

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, addr, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int udp_sink(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PPSIM_WIRE_DPORT),
	};

	return sink_bind(socket(AF_INET, SOCK_DGRAM, 0), &sin, sizeof(sin));
}

struct rx_result {
	unsigned int frames;	/* datagrams read */
	unsigned int bad;	/* wrong length, header or checksum */
	unsigned int order;	/* not the sequence number expected */
	bool gaps_ok;		/* frames were dropped: only going back counts */
	__u32 next_seq[16];	/* per queue, the next one expected */
};

/* Checks one datagram (the wire frame past its UDP header). */
static void check_frame(struct rx_result *r, const __u8 *p, ssize_t n,
			unsigned int frame_len)
{
	const struct ppsim_wire_hdr *h = (const void *)p;
	unsigned int payload = frame_len - PPSIM_WIRE_PAYLOAD;
	unsigned int q, i;
	__u32 csum, seq;

	r->frames++;
	if (n != (ssize_t)(sizeof(*h) + payload) ||
	    ntohl(h->magic) != PPSIM_WIRE_MAGIC ||
	    ntohs(h->len) != frame_len || ntohs(h->queue) >= 16) {
		r->bad++;
		return;
	}
	q = ntohs(h->queue);
	seq = ntohl(h->seq);
	csum = ppsim_wire_csum(PPSIM_WIRE_CSUM_SEED, p,
			       offsetof(struct ppsim_wire_hdr, csum));
	csum = ppsim_wire_csum(csum, p + sizeof(*h), payload);
	for (i = 0; i < payload; i++)
		if (p[sizeof(*h) + i] != ppsim_wire_byte(seq, i))
			break;
	if (csum != ntohl(h->csum) || i != payload)
		r->bad++;
	if (r->gaps_ok ? seq < r->next_seq[q] : seq != r->next_seq[q])
		r->order++;
	r->next_seq[q] = seq + 1;
}

/* Reads until @want datagrams came or none came for 5 s. */
static void receive(int fd, struct rx_result *r, unsigned int want,
		    unsigned int frame_len)
{
	static __u8 buf[2048];
	ssize_t n;

	while (r->frames < want) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			break;
		check_frame(r, buf, n, frame_len);
	}
}

/*
 * A packet socket on @ifname for IPv4 frames: it sees those the stack
 * then drops as addressed to another host, where no UDP socket can.
 */
static int packet_sink(const char *ifname)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = if_nametoindex(ifname),
	};

	return sink_bind(socket(AF_PACKET, SOCK_RAW, 0), &sll, sizeof(sll));
}

/* Whether @p starts with the headers the wire writes to @dest (a MAC
 * address): a stale frame of another device's in a page fails this.
 */
static bool wire_headers_ok(const __u8 *p, const __u8 *dest)
{
	static const __u8 src[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	const struct ethhdr *eth = (const void *)p;
	const struct iphdr *iph = (const void *)(eth + 1);
	const struct udphdr *uh = (const void *)(iph + 1);

	return !memcmp(eth->h_dest, dest, ETH_ALEN) &&
	       !memcmp(eth->h_source, src, ETH_ALEN) &&
	       eth->h_proto == htons(ETH_P_IP) &&
	       iph->protocol == IPPROTO_UDP &&
	       iph->saddr == htonl(PPSIM_WIRE_SADDR) &&
	       iph->daddr == htonl(PPSIM_WIRE_DADDR) &&
	       uh->dest == htons(PPSIM_WIRE_DPORT);
}

/*
 * As receive(), from a packet_sink(), for frames the wire sent to @dest,
 * a host other than the one whose device received them; any other frame
 * counts as bad.
 */
static void receive_other(int fd, struct rx_result *r, unsigned int want,
			  unsigned int frame_len, const struct sockaddr *dest)
{
	static __u8 buf[2048];
	struct sockaddr_ll from;
	socklen_t alen;
	ssize_t n;

	while (r->frames < want) {
		alen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &alen);
		if (n < 0)
			break;
		if (from.sll_pkttype != PACKET_OTHERHOST ||
		    n < PPSIM_WIRE_L4_END ||
		    !wire_headers_ok(buf, (const __u8 *)dest->sa_data)) {
			r->frames++;
			r->bad++;
			continue;
		}
		check_frame(r, buf + PPSIM_WIRE_L4_END, n - PPSIM_WIRE_L4_END,
			    frame_len);
	}
}

static int wire_send(int id, unsigned int frames, unsigned int len)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u %u", frames, len);
	return dev_attr_write(id, "wire", buf);
}

/* The fail_page_alloc knobs the fault test sets, and their old values. */
static const char * const fault_knobs[] = {
	"probability", "interval", "times", "verbose", "min-order",
	"ignore-gfp-wait",
};

#define FAULTS_MISSING \
	"no fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"

static char fault_saved[ARRAY_SIZE(fault_knobs)][32];
static bool fault_armed, fault_mounted;

static int fault_knob(const char *knob, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FAIL_PAGE_ALLOC "%s", knob);
	return sysfs_write(path, val);
}

/*
 * Saves fail_page_alloc's knobs and sets it up, still off, to fail
 * atomic allocations of any order quietly and without limit: from NAPI
 * every allocation is atomic, and userspace, which sleeps, is spared.
 */
static int faults_start(void)
{
	char path[128];
	unsigned int i;

	if (access(FAIL_PAGE_ALLOC, F_OK) &&
	    !mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
		fault_mounted = true;
	for (i = 0; i < ARRAY_SIZE(fault_knobs); i++) {
		snprintf(path, sizeof(path), FAIL_PAGE_ALLOC "%s",
			 fault_knobs[i]);
		if (sysfs_read(path, fault_saved[i], sizeof(fault_saved[i])))
			return -1;
	}
	fault_armed = true;
	return fault_knob("probability", "0") || fault_knob("interval", "1") ||
	       fault_knob("times", "-1") || fault_knob("verbose", "0") ||
	       fault_knob("min-order", "0") ||
	       fault_knob("ignore-gfp-wait", "Y");
}

static void faults_stop(void)
{
	unsigned int i;

	if (fault_armed) {
		fault_knob("probability", "0");
		for (i = 0; i < ARRAY_SIZE(fault_knobs); i++)
			fault_knob(fault_knobs[i], fault_saved[i]);
		fault_armed = false;
	}
	/* The init unmounts /sys after the test. */
	if (fault_mounted && !umount(DEBUGFS))
		fault_mounted = false;
}

FIXTURE(ppsim) {
	char ifname[IFNAMSIZ];
	int sock;
	int sink;	/* a packet_sink() on a peer, or -1 */
};

FIXTURE_VARIANT(ppsim) {
	const char *mode;
};

FIXTURE_VARIANT_ADD(ppsim, alloc) { .mode = "alloc" };
FIXTURE_VARIANT_ADD(ppsim, cache) { .mode = "cache" };
FIXTURE_VARIANT_ADD(ppsim, pool) { .mode = "pool" };
FIXTURE_VARIANT_ADD(ppsim, frag) { .mode = "frag" };
FIXTURE_VARIANT_ADD(ppsim, order3) { .mode = "order3" };

/* A device in @mode, up, with a UDP socket bound for its frames. */
static void device_setup(struct __test_metadata *_metadata,
			 struct _test_data_ppsim *self, const char *want)
{
	char mode[16];

	self->sock = -1;
	self->sink = -1;
	if (access(BUS "/new_device", W_OK))
		SKIP_TEST("no ppsim bus (CONFIG_PPSIM) or not root");
	ASSERT_EQ(0, dev_create(DEV_ID, NUM_RXQ));
	ASSERT_EQ(0, dev_ifname(DEV_ID, self->ifname));
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode", want));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "rx_mode", mode, sizeof(mode)));
	ASSERT_STREQ(want, mode);
	ASSERT_EQ(0, if_set_addr(self->ifname));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	self->sock = udp_sink();
	ASSERT_LE(0, self->sock);
}

FIXTURE_SETUP(ppsim)
{
	device_setup(_metadata, self, variant->mode);
}

FIXTURE_TEARDOWN(ppsim)
{
	if (self->sock >= 0)
		close(self->sock);
	if (self->sink >= 0)
		close(self->sink);
	dev_destroy(DEV_ID);
	/* The peer of xdp_redirect and tx_ring_full, after a failure. */
	dev_cleanup(DEV_ID + 1);
}

/* Sends @per_queue frames of @len to every queue and checks them. */
static void deliver(struct __test_metadata *_metadata,
		    struct _test_data_ppsim *self, unsigned int per_queue,
		    unsigned int len)
{
	unsigned int want = per_queue * NUM_RXQ;
	long long pkts, bytes, drops;
	struct rx_result r = {};
	char left[16];
	int q;

	/* The counters live as long as the device: compare differences. */
	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	bytes = rxq_sum(self->ifname, "bytes", NUM_RXQ);
	drops = rxq_sum(self->ifname, "drops", NUM_RXQ);
	ASSERT_LE(0, pkts);

	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, len));
	receive(self->sock, &r, want, len);
	EXPECT_EQ(want, r.frames);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(0, r.order);
	for (q = 0; q < NUM_RXQ; q++)
		EXPECT_EQ(per_queue, r.next_seq[q]);
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "wire", left, sizeof(left)));
	EXPECT_STREQ("0", left);
	EXPECT_EQ(pkts + want, rxq_sum(self->ifname, "packets", NUM_RXQ));
	EXPECT_EQ(bytes + (long long)want * len,
		  rxq_sum(self->ifname, "bytes", NUM_RXQ));
	EXPECT_EQ(drops, rxq_sum(self->ifname, "drops", NUM_RXQ));
}

/* Drops whatever the socket holds; returns how many datagrams. */
static unsigned int drain(int fd)
{
	static __u8 buf[2048];
	unsigned int n = 0;

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

/* Waits until the wire has written everything and NAPI took it in. */
static int wire_idle(int id, const char *ifname, long long want)
{
	char left[16];
	int i;

	for (i = 0; i < 500; i++) {
		if (dev_attr_read(id, "wire", left, sizeof(left)))
			return -1;
		if (!strcmp(left, "0") &&
		    rxq_sum(ifname, "packets", NUM_RXQ) >= want)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* Small frames: more than a ring's worth, so buffers are reused. */
TEST_F(ppsim, deliver_64)
{
	deliver(_metadata, self, 3000, 64);
}

/* Full-size frames: frag and order3 pack them tightest. */
TEST_F(ppsim, deliver_1514)
{
	deliver(_metadata, self, 1500, 1514);
}

/* The pool's own counters show up in ethtool -S in the pool modes. */
TEST_F(ppsim, pool_stats)
{
	long long fast, slow;
	int has_pool = !strcmp(variant->mode, "pool") ||
		       !strcmp(variant->mode, "frag");

	deliver(_metadata, self, 2000, 64);
	fast = ethtool_stat(self->ifname, "rx_pp_alloc_fast");
	slow = ethtool_stat(self->ifname, "rx_pp_alloc_slow");
	if (fast < 0)
		SKIP(return, "kernel without CONFIG_PAGE_POOL_STATS");
	if (has_pool) {
		/* 2000 frames on 1024-entry rings: pages came back. */
		EXPECT_LT(0, fast);
	} else {
		EXPECT_EQ(0, fast + slow);
	}
}

/*
 * The cache's counters: with every page held by the socket, the head of
 * the cache blocks each refill (cache_busy); once the socket lets go,
 * refills take pages from the cache (cache_reuse). Other modes count
 * neither.
 */
TEST_F(ppsim, cache_stats)
{
	long long pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	long long reuse = rxq_sum(self->ifname, "cache_reuse", NUM_RXQ);
	long long busy = rxq_sum(self->ifname, "cache_busy", NUM_RXQ);
	int cache = !strcmp(variant->mode, "cache");

	ASSERT_EQ(0, reuse);
	ASSERT_EQ(0, busy);
	/* More frames than the cache has entries, none read yet. */
	ASSERT_EQ(0, wire_send(DEV_ID, 600, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 600 * NUM_RXQ));
	EXPECT_EQ(0, rxq_sum(self->ifname, "cache_reuse", NUM_RXQ));
	/* Each buffer the frames used was refilled past a held head. */
	EXPECT_EQ(cache ? 600 * NUM_RXQ : 0,
		  rxq_sum(self->ifname, "cache_busy", NUM_RXQ));
	EXPECT_EQ(600 * NUM_RXQ, drain(self->sock));

	ASSERT_EQ(0, wire_send(DEV_ID, 100, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 700 * NUM_RXQ));
	EXPECT_EQ(100 * NUM_RXQ, drain(self->sock));
	EXPECT_EQ(cache ? 100 * NUM_RXQ : 0,
		  rxq_sum(self->ifname, "cache_reuse", NUM_RXQ));
	EXPECT_EQ(cache ? 600 * NUM_RXQ : 0,
		  rxq_sum(self->ifname, "cache_busy", NUM_RXQ));
}

/* The mode is switched only with the device down. */
TEST_F(ppsim, mode_switch_needs_down)
{
	char mode[16];
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(modes); i++) {
		EXPECT_EQ(-EBUSY, dev_attr_write(DEV_ID, "rx_mode", modes[i]));
		ASSERT_EQ(0, dev_attr_read(DEV_ID, "rx_mode", mode,
					   sizeof(mode)));
		EXPECT_STREQ(variant->mode, mode);
	}
	/* Down, switch, up: frames flow in the new mode, counters go on. */
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode", "frag"));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	deliver(_metadata, self, 500, 64);
}

/* Bad values are refused and change nothing. */
TEST_F(ppsim, bad_input)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	char mode[16];

	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "rx_mode", "pool2"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "rx_mode", "\n"));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "rx_mode", mode, sizeof(mode)));
	EXPECT_STREQ(variant->mode, mode);
	ASSERT_EQ(0, if_set_up(self->ifname, 1));

	EXPECT_EQ(-EINVAL, wire_send(DEV_ID, 10, 59));
	EXPECT_EQ(-EINVAL, wire_send(DEV_ID, 10, 1515));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire", "10"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire", "10 64 x"));
	EXPECT_EQ(-EEXIST, dev_create(DEV_ID, 1));
	EXPECT_EQ(-EINVAL, dev_create(DEV_ID + 1, 0));
	EXPECT_EQ(-EINVAL, dev_create(DEV_ID + 1, 17));
	EXPECT_EQ(-EINVAL, sysfs_write(BUS "/new_device", "x"));
	EXPECT_EQ(-ENOENT, dev_destroy(DEV_ID + 1));
	EXPECT_EQ(-EINVAL, sysfs_write(BUS "/del_device", "7 8"));

	ring.cmd = ETHTOOL_GRINGPARAM;
	ASSERT_EQ(0, ethtool(self->ifname, &ring));
	EXPECT_EQ(1024, ring.rx_pending);
	ring.cmd = ETHTOOL_SRINGPARAM;
	ring.rx_pending = 63;
	EXPECT_EQ(-EINVAL, ethtool(self->ifname, &ring));
	ring.rx_pending = 16385;
	EXPECT_EQ(-EINVAL, ethtool(self->ifname, &ring));
	ring.rx_pending = 512;
	ring.tx_pending = 1;
	EXPECT_EQ(-EINVAL, ethtool(self->ifname, &ring));
	ring.cmd = ETHTOOL_GRINGPARAM;
	ASSERT_EQ(0, ethtool(self->ifname, &ring));
	EXPECT_EQ(1024, ring.rx_pending);

	ASSERT_EQ(0, ethtool(self->ifname, &ch));
	EXPECT_EQ(NUM_RXQ, ch.rx_count);
	ch.cmd = ETHTOOL_SCHANNELS;
	ch.rx_count = 17;
	EXPECT_EQ(-EINVAL, ethtool(self->ifname, &ch));
	ch.rx_count = 0;
	EXPECT_EQ(-EINVAL, ethtool(self->ifname, &ch));
	ch.cmd = ETHTOOL_GCHANNELS;
	ASSERT_EQ(0, ethtool(self->ifname, &ch));
	EXPECT_EQ(NUM_RXQ, ch.rx_count);

	/* And the device still works. */
	deliver(_metadata, self, 300, 64);
}

/* An XDP program that returns @act, or redirects to @ifindex. */
static int xdp_prog_load(int act, int ifindex)
{
	struct bpf_insn ret[] = {
		BPF_MOV64_IMM(BPF_REG_0, act),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn redirect[] = {
		BPF_MOV64_IMM(BPF_REG_1, ifindex),
		BPF_MOV64_IMM(BPF_REG_2, 0),
		BPF_EMIT_CALL(BPF_FUNC_redirect),
		BPF_EXIT_INSN(),
	};
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (unsigned long)(ifindex ? redirect : ret);
	attr.insn_cnt = ifindex ? ARRAY_SIZE(redirect) : ARRAY_SIZE(ret);
	attr.license = (unsigned long)"GPL";
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* Attaches @prog_fd (-1: detaches) in native mode; 0 or -errno. */
static int xdp_attach(const char *ifname, int prog_fd)
{
	return rtnl_xdp_attach(if_nametoindex(ifname), prog_fd);
}

/* Loads and attaches a program; returns its fd (kept to the end). */
static int xdp_set(const char *ifname, int act, int ifindex)
{
	int fd = xdp_prog_load(act, ifindex);

	if (fd < 0)
		return -errno;
	if (xdp_attach(ifname, fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads @want frames that must all be intact; order is not checked. */
static void receive_intact(struct __test_metadata *_metadata, int fd,
			   unsigned int want, unsigned int len)
{
	struct rx_result r = {};

	receive(fd, &r, want, len);
	EXPECT_EQ(want, r.frames);
	EXPECT_EQ(0, r.bad);
}

/*
 * The device goes away while the socket still holds every frame it
 * received: the frames must stay intact after the device, its queues
 * and its pools are gone, and the kernel must not complain when the
 * socket lets them go (the log is checked for reports).
 */
TEST_F(ppsim, destroy_while_held)
{
	long long base = rxq_sum(self->ifname, "packets", NUM_RXQ);

	ASSERT_EQ(0, wire_send(DEV_ID, 1500, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, base + 1500 * NUM_RXQ));
	ASSERT_EQ(0, dev_destroy(DEV_ID));
	/* Reuse of a page still held would show in the payload. */
	ASSERT_EQ(0, dev_create(DEV_ID, NUM_RXQ));
	ASSERT_EQ(0, dev_ifname(DEV_ID, self->ifname));
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode", variant->mode));
	ASSERT_EQ(0, if_set_addr(self->ifname));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	ASSERT_EQ(0, wire_send(DEV_ID, 1500, 64));
	receive_intact(_metadata, self->sock, 2 * 1500 * NUM_RXQ, 64);
	close(self->sock);
	self->sock = -1;
}

/* The same with the device set down and up, frames held meanwhile. */
TEST_F(ppsim, down_while_held)
{
	long long base = rxq_sum(self->ifname, "packets", NUM_RXQ);

	ASSERT_EQ(0, wire_send(DEV_ID, 1500, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, base + 1500 * NUM_RXQ));
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	receive_intact(_metadata, self->sock, 1500 * NUM_RXQ, 64);
	deliver(_metadata, self, 500, 64);
}

static int set_ring(const char *ifname, unsigned int size)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };
	int err = ethtool(ifname, &ring);

	if (err)
		return err;
	ring.cmd = ETHTOOL_SRINGPARAM;
	ring.rx_pending = size;
	return ethtool(ifname, &ring);
}

static int set_rxqs(const char *ifname, unsigned int n)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int err = ethtool(ifname, &ch);

	if (err)
		return err;
	ch.cmd = ETHTOOL_SCHANNELS;
	ch.rx_count = n;
	return ethtool(ifname, &ch);
}

/*
 * Ring resize, queue count change and mode switch, each while the wire
 * is writing, repeatedly: every frame that gets through is intact, and
 * afterwards the device delivers as before. A change drops what the
 * rings held, so only the content, not the count, is checked meanwhile.
 */
TEST_F(ppsim, reconfigure_under_traffic)
{
	static const unsigned int rings[] = { 64, 1024 };
	struct rx_result r = {};
	char buf[2048];
	unsigned int i;
	ssize_t n;

	for (i = 0; i < 4 * ARRAY_SIZE(rings); i++) {
		ASSERT_EQ(0, wire_send(DEV_ID, 20000, 64));
		switch (i % 4) {
		case 0:
			ASSERT_EQ(0, set_ring(self->ifname,
					      rings[i / 4 % ARRAY_SIZE(rings)]));
			break;
		case 1:
			ASSERT_EQ(0, set_rxqs(self->ifname, 1));
			break;
		case 2:
			ASSERT_EQ(0, set_rxqs(self->ifname, NUM_RXQ));
			break;
		case 3:
			ASSERT_EQ(0, if_set_up(self->ifname, 0));
			ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode",
						    modes[i / 4 % ARRAY_SIZE(modes)]));
			ASSERT_EQ(0, if_set_up(self->ifname, 1));
			break;
		}
		/* Sequence numbers restart with the queues: content only. */
		while ((n = recv(self->sock, buf, sizeof(buf),
				 MSG_DONTWAIT)) >= 0) {
			check_frame(&r, (__u8 *)buf, n, 64);
			memset(r.next_seq, 0, sizeof(r.next_seq));
		}
	}
	EXPECT_EQ(0, r.bad);
	/* Stop the wire, forget what is queued, and check a clean run. */
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	drain(self->sock);
	deliver(_metadata, self, 1000, 64);
}

/* Reads nothing within a short wait: all frames stayed in XDP. */
static unsigned int socket_empty(int fd)
{
	usleep(100000);
	return drain(fd);
}

/*
 * Reads the @want frames of @len the wire sent to @mac from the peer's
 * packet sink, expects them intact and in order, and no more, then
 * closes the sink.
 */
static void receive_other_all(struct __test_metadata *_metadata,
			      struct _test_data_ppsim *self,
			      struct rx_result *r, unsigned int want,
			      unsigned int len, const struct sockaddr *mac)
{
	receive_other(self->sink, r, want, len, mac);
	EXPECT_EQ(want, r->frames);
	EXPECT_EQ(0, r->bad);
	EXPECT_EQ(0, r->order);
	EXPECT_EQ(0, socket_empty(self->sink));
	close(self->sink);
	self->sink = -1;
}

/*
 * Waits up to 5 s until the counters @names (NULL-terminated; "rx*_X"
 * stands for rx<q>_X summed over the queues) add up to @want; returns
 * their last sum.
 */
static long long wait_sum(const char *ifname, const char * const *names,
			  long long want)
{
	const char * const *n;
	long long v = -1;
	int i;

	for (i = 0; i < 500; i++) {
		v = 0;
		for (n = names; *n; n++)
			v += strncmp(*n, "rx*_", 4) ?
			     ethtool_stat(ifname, *n) :
			     rxq_sum(ifname, *n + 4, NUM_RXQ);
		if (v >= want)
			break;
		usleep(10000);
	}
	return v;
}

/* Waits until counter @name reaches @want; returns its last value. */
static long long wait_stat(const char *ifname, const char *name,
			   long long want)
{
	const char * const names[] = { name, NULL };

	return wait_sum(ifname, names, want);
}

/* Waits until the frames a device was sent, taken or dropped, are
 * @want; returns their number.
 */
static long long wait_xmit(const char *ifname, long long want)
{
	static const char * const names[] = {
		"xdp_xmit", "xdp_xmit_drop", NULL
	};

	return wait_sum(ifname, names, want);
}

static long long stat_delta(const char *ifname, const char *what,
			    long long base)
{
	return rxq_sum(ifname, what, NUM_RXQ) - base;
}

/* XDP_PASS: the frames reach the socket as without a program. */
TEST_F(ppsim, xdp_pass)
{
	long long pass;
	int fd;

	NEED_BPF();
	pass = rxq_sum(self->ifname, "xdp_pass", NUM_RXQ);
	fd = xdp_set(self->ifname, XDP_PASS, 0);
	ASSERT_LE(0, fd);
	deliver(_metadata, self, 1500, 64);
	EXPECT_EQ(1500 * NUM_RXQ, stat_delta(self->ifname, "xdp_pass", pass));
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	close(fd);
	deliver(_metadata, self, 500, 64);
}

/*
 * XDP_DROP and XDP_TX: nothing reaches the stack, every frame is counted
 * under its action, and the buffers come back (more frames than the
 * rings hold go through, and a run without XDP works afterwards).
 */
static void xdp_consume(struct __test_metadata *_metadata,
			struct _test_data_ppsim *self, int act,
			const char *counter)
{
	long long base = rxq_sum(self->ifname, counter, NUM_RXQ);
	long long pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	int fd = xdp_set(self->ifname, act, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, wire_send(DEV_ID, 3000, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 3000 * NUM_RXQ));
	EXPECT_EQ(3000 * NUM_RXQ, stat_delta(self->ifname, counter, base));
	EXPECT_EQ(0, socket_empty(self->sock));
	EXPECT_EQ(0, rxq_sum(self->ifname, "xdp_aborted", NUM_RXQ));
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	close(fd);
	deliver(_metadata, self, 500, 64);
}

TEST_F(ppsim, xdp_drop)
{
	NEED_BPF();
	xdp_consume(_metadata, self, XDP_DROP, "xdp_drop");
}

TEST_F(ppsim, xdp_tx)
{
	NEED_BPF();
	xdp_consume(_metadata, self, XDP_TX, "xdp_tx");
}

/* The kernel's taint flags; -1 if they cannot be read. */
static long long kernel_taint(void)
{
	char buf[32];

	if (sysfs_read("/proc/sys/kernel/tainted", buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

/* Taint bit 5, set by the page allocator when it meets a bad page. */
#define TAINT_BAD_PAGE	0x20LL

/*
 * XDP_DROP on the smallest ring: the wire writes a batch of 64 frames
 * (PPSIM_WIRE_BATCH), one NAPI poll of 64 takes them all, and only then
 * does the driver refill. Every posted buffer comes back before the
 * refill, those of a page the driver is still carving frames from among
 * them, and that page must outlive them: freed, it would come back from
 * the page allocator with their references on it (a bad page).
 */
TEST_F(ppsim, xdp_drop_small_ring)
{
	long long taint = kernel_taint();

	NEED_BPF();
	ASSERT_LE(0, taint);
	ASSERT_EQ(0, set_ring(self->ifname, RING_MIN));
	xdp_consume(_metadata, self, XDP_DROP, "xdp_drop");
	EXPECT_EQ(0, kernel_taint() & TAINT_BAD_PAGE & ~taint);
}

/*
 * XDP_REDIRECT to a second ppsim: it receives every frame, intact (a
 * packet sink on it reads them, addressed to us); then with the target
 * down the frames are dropped and their pages come back; then the
 * target goes away while the source still redirects to it.
 */
TEST_F(ppsim, xdp_redirect)
{
	long long pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	long long redir = rxq_sum(self->ifname, "xdp_redirect", NUM_RXQ);
	/* Ring-full drops on the peer leave gaps in the order. */
	struct rx_result r = { .gaps_ok = true };
	struct sockaddr mac;
	char peer[IFNAMSIZ];
	long long sent;
	int fd;

	NEED_BPF();
	NEED_PACKET();
	ASSERT_EQ(0, if_get_mac(self->ifname, &mac));
	ASSERT_EQ(0, dev_create(DEV_ID + 1, 1));
	ASSERT_EQ(0, dev_ifname(DEV_ID + 1, peer));
	ASSERT_EQ(0, if_set_up(peer, 1));
	self->sink = packet_sink(peer);
	ASSERT_LE(0, self->sink);
	fd = xdp_set(self->ifname, 0, if_nametoindex(peer));
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, wire_send(DEV_ID, 1000, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 1000 * NUM_RXQ));
	EXPECT_EQ(1000 * NUM_RXQ,
		  stat_delta(self->ifname, "xdp_redirect", redir));
	/* The peer's NAPI may run after ours has finished. Two queues
	 * feed its one: when its ring is full it drops, and counts it.
	 */
	EXPECT_EQ(1000 * NUM_RXQ, wait_xmit(peer, 1000 * NUM_RXQ));
	sent = ethtool_stat(peer, "xdp_xmit");
	EXPECT_LT(0, sent);
	EXPECT_EQ(sent, wait_stat(peer, "rx0_packets", sent));
	receive_other_all(_metadata, self, &r, sent, 64, &mac);

	ASSERT_EQ(0, if_set_up(peer, 0));
	ASSERT_EQ(0, wire_send(DEV_ID, 1000, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 2000 * NUM_RXQ));
	EXPECT_EQ(sent, ethtool_stat(peer, "rx0_packets"));

	ASSERT_EQ(0, if_set_up(peer, 1));
	ASSERT_EQ(0, wire_send(DEV_ID, 100000, 64));
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	close(fd);
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	deliver(_metadata, self, 500, 64);
}

/* rx<q>_<what> of one queue. */
static long long qstat(const char *ifname, int q, const char *what)
{
	char name[ETH_GSTRING_LEN];

	snprintf(name, sizeof(name), "rx%d_%s", q, what);
	return ethtool_stat(ifname, name);
}

/* Waits until rx<q>_<what> reaches @want; returns its last value. */
static long long wait_qstat(const char *ifname, int q, const char *what,
			    long long want)
{
	char name[ETH_GSTRING_LEN];

	snprintf(name, sizeof(name), "rx%d_%s", q, what);
	return wait_stat(ifname, name, want);
}

struct tx_counts {
	long long tx, full, done;
};

static void tx_counts(const char *ifname, struct tx_counts *c)
{
	int q;

	for (q = 0; q < NUM_RXQ; q++) {
		c[q].tx = qstat(ifname, q, "xdp_tx");
		c[q].full = qstat(ifname, q, "xdp_tx_full");
		c[q].done = qstat(ifname, q, "xdp_tx_done");
	}
}

/*
 * Pages that came back to the device's pools through their return ring,
 * or that found it full and were freed: the way back for any page that
 * is not returned by its pool's own NAPI. The counters include the pools
 * the device destroyed since it was created.
 */
static long long pp_ring_returns(const char *ifname)
{
	return ethtool_stat(ifname, "rx_pp_recycle_ring") +
	       ethtool_stat(ifname, "rx_pp_recycle_ring_full");
}

/* Waits until rx_pp_recycle_cached stops moving; returns it. */
static long long pp_cached_settled(const char *ifname)
{
	long long v = ethtool_stat(ifname, "rx_pp_recycle_cached"), last;
	int i = 0;

	do {
		last = v;
		usleep(50000);
		v = ethtool_stat(ifname, "rx_pp_recycle_cached");
	} while (v != last && ++i < 100);
	return v;
}

/*
 * In pool mode (a page per frame), @queues queues were just torn down,
 * each holding @held frames on its TX ring: each gave its RING_DEF
 * posted buffers and its held frames back to its pool, none of them
 * through the cache of a NAPI that no longer runs. @before is
 * pp_ring_returns() from just before.
 */
static void pool_returned(struct __test_metadata *_metadata,
			  const char *ifname, const char *mode,
			  long long before, int queues, int held)
{
	if (strcmp(mode, "pool"))
		return;
	EXPECT_EQ((long long)queues * (RING_DEF + held),
		  pp_ring_returns(ifname) - before);
}

/* Gives @ifname the MAC address @mac; 0 or -errno. */
static int if_set_mac(const char *ifname, const struct sockaddr *mac)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	ifr.ifr_hwaddr = *mac;
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	return if_ioctl(SIOCSIFHWADDR, &ifr);
}

/*
 * XDP_TX with TX stalled and the TX rings empty: of @per_queue frames to
 * every queue, its ring holds the first TX_RING; the rest are dropped
 * and counted in xdp_tx_full, not as errors; none completes, and none
 * reaches the stack. Leaves the counters from before in @c.
 */
static void tx_fill(struct __test_metadata *_metadata,
		    struct _test_data_ppsim *self, unsigned int per_queue,
		    struct tx_counts *c)
{
	long long pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	long long aborted = rxq_sum(self->ifname, "xdp_aborted", NUM_RXQ);
	struct tx_counts now[NUM_RXQ];
	int q;

	tx_counts(self->ifname, c);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + (long long)per_queue * NUM_RXQ));
	tx_counts(self->ifname, now);
	for (q = 0; q < NUM_RXQ; q++) {
		EXPECT_EQ(TX_RING, now[q].tx - c[q].tx);
		EXPECT_EQ(per_queue - TX_RING, now[q].full - c[q].full);
		EXPECT_EQ(0, now[q].done - c[q].done);
	}
	EXPECT_EQ(aborted, rxq_sum(self->ifname, "xdp_aborted", NUM_RXQ));
	EXPECT_EQ(0, socket_empty(self->sock));
}

/* Every queue's TX ring gave back the TX_RING frames it held. */
static void tx_released(struct __test_metadata *_metadata,
			const char *ifname, const struct tx_counts *c)
{
	int q;

	for (q = 0; q < NUM_RXQ; q++)
		EXPECT_EQ(c[q].done + TX_RING,
			  wait_qstat(ifname, q, "xdp_tx_done",
				     c[q].done + TX_RING));
}

/*
 * TX stalled (sysfs tx_stall): the XDP TX rings fill and then drop, and
 * every way a queue goes away while its ring holds frames gives them
 * back: a channel change, ifdown (with a mode switch), detaching the
 * program, clearing tx_stall (which sends them), and destroying the
 * device, also while another device holds frames from our pools. In pool
 * mode the pool counters, which outlive the pools, show that each queue
 * torn down returned its posted buffers and its held frames to its pool.
 * The pools are freed as their last pages come back: the log scan (a
 * pool's report of pages in flight) and in QEMU kmemleak and DMA-API
 * debug check that nothing leaked.
 */
TEST_F_TIMEOUT(ppsim, tx_ring_full, 120)
{
	const char *other = strcmp(variant->mode, "pool") ? "pool" : "frag";
	const unsigned int per_queue = 1000, redir_len = 128;
	bool has_pool = !strcmp(variant->mode, "pool") ||
			!strcmp(variant->mode, "frag");
	struct tx_counts c[NUM_RXQ], now[NUM_RXQ];
	long long pkts, drop, ring, cached;
	char peer[IFNAMSIZ], val[8];
	struct rx_result r = {}, held = {};
	struct sockaddr mac;
	int fd, q;

	NEED_BPF();
	NEED_PACKET();
	/* The pool modes' checks read the pool's counters. */
	if (has_pool && ethtool_stat(self->ifname, "rx_pp_alloc_fast") < 0)
		SKIP(return, "kernel without CONFIG_PAGE_POOL_STATS");
	/* Bad values are refused and change nothing. */
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "tx_stall", val, sizeof(val)));
	EXPECT_STREQ("0", val);
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "tx_stall", "2"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "tx_stall", "-1"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "tx_stall", "on"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "tx_stall", "1 1"));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "tx_stall", val, sizeof(val)));
	EXPECT_STREQ("0", val);

	fd = xdp_set(self->ifname, XDP_TX, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "tx_stall", "1"));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "tx_stall", val, sizeof(val)));
	EXPECT_STREQ("1", val);

	/* Channel change: both queues go, the counters stay; then the
	 * one left goes, holding nothing.
	 */
	tx_fill(_metadata, self, per_queue, c);
	ring = pp_ring_returns(self->ifname);
	ASSERT_EQ(0, set_rxqs(self->ifname, 1));
	EXPECT_EQ(c[0].done + TX_RING, qstat(self->ifname, 0, "xdp_tx_done"));
	pool_returned(_metadata, self->ifname, variant->mode, ring,
		      NUM_RXQ, TX_RING);
	ring = pp_ring_returns(self->ifname);
	ASSERT_EQ(0, set_rxqs(self->ifname, NUM_RXQ));
	tx_released(_metadata, self->ifname, c);
	pool_returned(_metadata, self->ifname, variant->mode, ring, 1, 0);

	/* ifdown, in our mode and after a mode switch. */
	tx_fill(_metadata, self, per_queue, c);
	ring = pp_ring_returns(self->ifname);
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	tx_released(_metadata, self->ifname, c);
	pool_returned(_metadata, self->ifname, variant->mode, ring,
		      NUM_RXQ, TX_RING);
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode", other));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));
	tx_fill(_metadata, self, per_queue, c);
	ASSERT_EQ(0, if_set_up(self->ifname, 0));
	tx_released(_metadata, self->ifname, c);
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "rx_mode", variant->mode));
	ASSERT_EQ(0, if_set_up(self->ifname, 1));

	/* Detaching the program restarts the queues. */
	tx_fill(_metadata, self, per_queue, c);
	ring = pp_ring_returns(self->ifname);
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	tx_released(_metadata, self->ifname, c);
	pool_returned(_metadata, self->ifname, variant->mode, ring,
		      NUM_RXQ, TX_RING);
	ASSERT_EQ(0, xdp_attach(self->ifname, fd));

	/* TX resumes: what was held is sent, and nothing is held after. */
	tx_fill(_metadata, self, per_queue, c);
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "tx_stall", "0"));
	tx_released(_metadata, self->ifname, c);
	tx_counts(self->ifname, c);
	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + (long long)per_queue * NUM_RXQ));
	for (q = 0; q < NUM_RXQ; q++)
		EXPECT_EQ(c[q].done + per_queue,
			  wait_qstat(self->ifname, q, "xdp_tx_done",
				     c[q].done + per_queue));
	tx_counts(self->ifname, now);
	for (q = 0; q < NUM_RXQ; q++) {
		EXPECT_EQ(per_queue, now[q].tx - c[q].tx);
		EXPECT_EQ(0, now[q].full - c[q].full);
	}

	/* Frames redirected to a stalled peer wait on its TX ring, which
	 * holds TX_RING of them and refuses the rest. Attaching the
	 * program restarts our queues: the wire numbers each queue's
	 * frames from 0 again, and the peer holds the first of each.
	 */
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	close(fd);
	ASSERT_EQ(0, dev_create(DEV_ID + 1, 1));
	ASSERT_EQ(0, dev_ifname(DEV_ID + 1, peer));
	ASSERT_EQ(0, if_set_up(peer, 1));
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 1, "tx_stall", "1"));
	fd = xdp_set(self->ifname, 0, if_nametoindex(peer));
	ASSERT_LE(0, fd);
	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, redir_len));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + (long long)per_queue * NUM_RXQ));
	drop = per_queue * NUM_RXQ - TX_RING;
	EXPECT_EQ(drop, wait_stat(peer, "xdp_xmit_drop", drop));
	EXPECT_EQ(drop, ethtool_stat(peer, "rx0_xdp_tx_full"));
	EXPECT_EQ(0, ethtool_stat(peer, "xdp_xmit"));
	EXPECT_EQ(0, ethtool_stat(peer, "rx0_xdp_tx_done"));
	EXPECT_EQ(0, ethtool_stat(peer, "rx0_packets"));

	/* The peer resumes while we are up and idle: it sends what it
	 * held (to a MAC address not its own, so its stack drops them)
	 * and returns our pages from its NAPI, which is not our pools'
	 * owner: through their return rings, never into the cache of our
	 * queues' NAPIs.
	 */
	cached = pp_cached_settled(self->ifname);
	ring = pp_ring_returns(self->ifname);
	ASSERT_EQ(0, if_get_mac(self->ifname, &mac));
	self->sink = packet_sink(peer);
	ASSERT_LE(0, self->sink);
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 1, "tx_stall", "0"));
	EXPECT_EQ(TX_RING, wait_stat(peer, "rx0_xdp_tx_done", TX_RING));
	EXPECT_EQ(TX_RING, wait_stat(peer, "xdp_xmit", TX_RING));
	EXPECT_EQ(TX_RING, wait_stat(peer, "rx0_packets", TX_RING));
	/* The ring held the first frames of each queue, in order. */
	receive_other_all(_metadata, self, &held, TX_RING, redir_len, &mac);
	if (has_pool)
		EXPECT_EQ(cached, ethtool_stat(self->ifname,
					       "rx_pp_recycle_cached"));
	if (!strcmp(variant->mode, "pool"))
		EXPECT_EQ(TX_RING, pp_ring_returns(self->ifname) - ring);

	/* Held again, the wire's numbers going on from per_queue. */
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 1, "tx_stall", "1"));
	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, redir_len));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + (long long)per_queue * NUM_RXQ));
	EXPECT_EQ(2 * drop, wait_stat(peer, "xdp_xmit_drop", 2 * drop));
	EXPECT_EQ(2 * drop, ethtool_stat(peer, "rx0_xdp_tx_full"));

	/* Stalled ourselves too: our device goes with frames held both
	 * in its own TX rings and in the peer's. Our XDP_TX frames are
	 * shorter than the held ones: a held page given back early and
	 * reused for one of them shows.
	 */
	ASSERT_EQ(0, xdp_attach(self->ifname, -1));
	close(fd);
	fd = xdp_set(self->ifname, XDP_TX, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dev_attr_write(DEV_ID, "tx_stall", "1"));
	tx_fill(_metadata, self, per_queue, c);
	ASSERT_EQ(0, dev_destroy(DEV_ID));
	close(fd);

	/* The peer takes our MAC and address: what it sends now loops
	 * back to our socket, which must get every held frame intact,
	 * each queue's in sequence from per_queue on.
	 */
	ASSERT_EQ(0, if_set_mac(peer, &mac));
	ASSERT_EQ(0, if_set_addr(peer));
	ASSERT_EQ(0, dev_attr_write(DEV_ID + 1, "tx_stall", "0"));
	EXPECT_EQ(2 * TX_RING, wait_stat(peer, "rx0_xdp_tx_done", 2 * TX_RING));
	EXPECT_EQ(2 * TX_RING, wait_stat(peer, "xdp_xmit", 2 * TX_RING));
	EXPECT_EQ(2 * TX_RING, wait_stat(peer, "rx0_packets", 2 * TX_RING));
	EXPECT_EQ(2 * drop, ethtool_stat(peer, "xdp_xmit_drop"));
	for (q = 0; q < NUM_RXQ; q++)
		r.next_seq[q] = per_queue;
	receive(self->sock, &r, TX_RING, redir_len);
	EXPECT_EQ(TX_RING, r.frames);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(0, r.order);
	EXPECT_EQ(0, socket_empty(self->sock));
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));
}

#define VETH_A	"ppsv0"
#define VETH_B	"ppsv1"

/* Deletes the link @ifname (and a veth's peer with it); 0 or -errno. */
static int link_del(const char *ifname)
{
	int ifindex = if_nametoindex(ifname);

	return ifindex ? rtnl_link_del(ifindex) : -ENODEV;
}

/* Gives @to the MAC address of @from. */
static int if_copy_mac(const char *to, const char *from)
{
	struct sockaddr mac;
	int err;

	err = if_get_mac(from, &mac);
	return err ? err : if_set_mac(to, &mac);
}

/*
 * Counts the datagrams the socket holds, waiting up to 5 s for @want,
 * without taking them: with a peek offset each MSG_PEEK returns the
 * next datagram. The offset is switched off again afterwards.
 */
static unsigned int socket_held(int fd, unsigned int want)
{
	static __u8 buf[2048];
	unsigned int n = 0;
	int off = 0, i = 0;

	if (setsockopt(fd, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off)))
		return 0;
	while (n < want && i < 500) {
		if (recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT) >= 0) {
			n++;
			continue;
		}
		usleep(10000);
		i++;
	}
	off = -1;
	setsockopt(fd, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off));
	return n;
}

/*
 * Pool lifetime with frames held outside ppsim (not ppsim's TX ring):
 * XDP_REDIRECT to a veth. First its peer is down: every frame comes
 * back to us at once (more than our rings hold go through). Then the
 * peer is up, with our MAC and address and a program (which gives it
 * the NAPI that takes XDP frames), and the socket reads nothing: our
 * device is destroyed while the frames are held on the veth's ring or
 * in the socket, then the veth is; every frame arrives, intact, and the
 * log scan and kmemleak find nothing once the socket lets them go.
 */
TEST_F(ppsim, xdp_redirect_veth_held)
{
	const unsigned int per_queue = 100;
	long long pkts, redir;
	int fd, pass_fd, err;

	NEED_BPF();
	link_del(VETH_A);	/* left by a failed run */
	err = rtnl_veth_create(VETH_A, VETH_B);
	if (err == -EOPNOTSUPP)
		SKIP(return, "kernel without veth (CONFIG_VETH)");
	ASSERT_EQ(0, err);
	if_quiet(VETH_A);
	if_quiet(VETH_B);
	ASSERT_EQ(0, if_set_up(VETH_A, 1));
	fd = xdp_set(self->ifname, 0, if_nametoindex(VETH_A));
	ASSERT_LE(0, fd);

	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	redir = rxq_sum(self->ifname, "xdp_redirect", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, 1500, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname, pkts + 1500 * NUM_RXQ));
	EXPECT_EQ(1500 * NUM_RXQ,
		  stat_delta(self->ifname, "xdp_redirect", redir));
	EXPECT_EQ(0, socket_empty(self->sock));

	ASSERT_EQ(0, if_copy_mac(VETH_B, self->ifname));
	ASSERT_EQ(0, if_set_addr(VETH_B));
	ASSERT_EQ(0, if_set_up(VETH_B, 1));
	pass_fd = xdp_set(VETH_B, XDP_PASS, 0);
	ASSERT_LE(0, pass_fd);

	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	redir = rxq_sum(self->ifname, "xdp_redirect", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + per_queue * NUM_RXQ));
	EXPECT_EQ(per_queue * NUM_RXQ,
		  stat_delta(self->ifname, "xdp_redirect", redir));
	ASSERT_EQ(0, dev_destroy(DEV_ID));
	close(fd);
	/* The veth's ring is emptied into the socket, our device gone. */
	EXPECT_EQ(per_queue * NUM_RXQ,
		  socket_held(self->sock, per_queue * NUM_RXQ));
	ASSERT_EQ(0, link_del(VETH_A));
	close(pass_fd);
	receive_intact(_metadata, self->sock, per_queue * NUM_RXQ, 64);
	EXPECT_EQ(0, socket_empty(self->sock));
	close(self->sock);
	self->sock = -1;
}

static int bpf_sys(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* A cpumap with one entry, empty; fd or -errno. */
static int cpumap_create(void)
{
	union bpf_attr attr = {};
	int fd;

	attr.map_type = BPF_MAP_TYPE_CPUMAP;
	attr.key_size = sizeof(__u32);
	attr.value_size = sizeof(__u32);
	attr.max_entries = 1;
	fd = bpf_sys(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : fd;
}

/* Sets the cpumap's entry 0 to CPU 0 with a queue of @qsize; 0 or -errno. */
static int cpumap_set(int map_fd, unsigned int qsize)
{
	union bpf_attr attr = {};
	__u32 key = 0;

	attr.map_fd = map_fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)&qsize;
	return bpf_sys(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
}

/* An XDP program that redirects every frame to entry 0 of @map_fd. */
static int xdp_prog_load_map(int map_fd)
{
	struct bpf_insn insns[] = {
		BPF_LD_MAP_FD(BPF_REG_1, map_fd),	/* two instructions */
		BPF_MOV64_IMM(BPF_REG_2, 0),
		BPF_MOV64_IMM(BPF_REG_3, 0),
		BPF_EMIT_CALL(BPF_FUNC_redirect_map),
		BPF_EXIT_INSN(),
	};
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (unsigned long)"GPL";
	return bpf_sys(BPF_PROG_LOAD, &attr);
}

/*
 * Pool lifetime with frames held outside ppsim (not ppsim's TX ring):
 * XDP_REDIRECT into a cpumap: CPU 0's kthread builds skbs from our
 * frames and passes them up the stack to the socket, which reads
 * nothing. Our device is destroyed while the socket holds them (not
 * before: 6.1's cpumap keeps no reference on the device its queued
 * frames came in on), then the map and the program go; every frame
 * arrives, intact, and nothing leaks once the socket lets them go.
 */
TEST_F(ppsim, xdp_redirect_cpumap_held)
{
	const unsigned int per_queue = 100;
	long long pkts, redir;
	int map_fd, fd;

	NEED_BPF();
	map_fd = cpumap_create();
	/* A kernel without cpumap refuses the map type; nothing else. */
	if (map_fd == -EINVAL || map_fd == -EOPNOTSUPP)
		SKIP(return, "no cpumap: %s", strerror(-map_fd));
	ASSERT_LE(0, map_fd);
	ASSERT_EQ(0, cpumap_set(map_fd, 256));
	fd = xdp_prog_load_map(map_fd);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, xdp_attach(self->ifname, fd));

	pkts = rxq_sum(self->ifname, "packets", NUM_RXQ);
	redir = rxq_sum(self->ifname, "xdp_redirect", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, self->ifname,
			       pkts + per_queue * NUM_RXQ));
	EXPECT_EQ(per_queue * NUM_RXQ,
		  stat_delta(self->ifname, "xdp_redirect", redir));
	ASSERT_EQ(per_queue * NUM_RXQ,
		  socket_held(self->sock, per_queue * NUM_RXQ));
	ASSERT_EQ(0, dev_destroy(DEV_ID));
	close(fd);
	close(map_fd);
	receive_intact(_metadata, self->sock, per_queue * NUM_RXQ, 64);
	EXPECT_EQ(0, socket_empty(self->sock));
	close(self->sock);
	self->sock = -1;
}

/* The wire's pace does not depend on the buffer mode: one device. */
FIXTURE(ppsim_wire) {
	struct _test_data_ppsim d;
};

FIXTURE_SETUP(ppsim_wire)
{
	device_setup(_metadata, &self->d, "pool");
}

FIXTURE_TEARDOWN(ppsim_wire)
{
	if (self->d.sock >= 0)
		close(self->d.sock);
	dev_destroy(DEV_ID);
}

/*
 * At one frame a second per queue, 1000 frames (a ring's worth, many
 * batches) take a quarter of an hour: when the first have arrived, all
 * but a few are still to come, where an unpaced wire would have written
 * them all into the posted buffers. Rate 0 sends the rest at once, and
 * every frame arrives intact and in order. Bad rates are refused and
 * leave the rate as it was.
 */
TEST_F(ppsim_wire, rate)
{
	const unsigned int per_queue = 1000;
	struct rx_result r = {};
	char val[16];
	int q;

	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire_rate", "-1"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire_rate", "4294967296"));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire_rate", "1 2"));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "wire_rate", val, sizeof(val)));
	EXPECT_STREQ("0", val);

	ASSERT_EQ(0, dev_attr_write(DEV_ID, "wire_rate", "1"));
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	receive(self->d.sock, &r, NUM_RXQ, 64);
	ASSERT_EQ(NUM_RXQ, r.frames);
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "wire", val, sizeof(val)));
	EXPECT_LE(NUM_RXQ * (per_queue - 10), atoi(val));
	EXPECT_EQ(-EINVAL, dev_attr_write(DEV_ID, "wire_rate", "x"));
	ASSERT_EQ(0, dev_attr_read(DEV_ID, "wire_rate", val, sizeof(val)));
	EXPECT_STREQ("1", val);

	ASSERT_EQ(0, dev_attr_write(DEV_ID, "wire_rate", "0"));
	receive(self->d.sock, &r, NUM_RXQ * per_queue, 64);
	EXPECT_EQ(NUM_RXQ * per_queue, r.frames);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(0, r.order);
	for (q = 0; q < NUM_RXQ; q++)
		EXPECT_EQ(per_queue, r.next_seq[q]);
}

/* Where the init of the module test kernel puts ppsim.ko. */
#define PPSIM_KO	"/lib/modules/ppsim.ko"

static int module_load(void)
{
	int fd = open(PPSIM_KO, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return err;
}

static int module_unload(void)
{
	return syscall(SYS_delete_module, "ppsim", O_NONBLOCK) ? -errno : 0;
}

/* ppsim built as a module: unloaded and loaded again. */
FIXTURE(ppsim_module) {
	struct _test_data_ppsim d;
	bool unloaded;	/* the test asked for the module to go */
};

FIXTURE_SETUP(ppsim_module)
{
	self->d.sock = -1;
}

FIXTURE_TEARDOWN(ppsim_module)
{
	if (self->d.sock >= 0)
		close(self->d.sock);
	/* The tests after us need the bus back, even after a failure; a
	 * kernel that never had it has nothing to load.
	 */
	if (self->unloaded && access(BUS, F_OK))
		EXPECT_EQ(0, module_load());
	dev_destroy(DEV_ID);
}

/*
 * rmmod while a socket holds frames the device received into pool
 * pages: the device and its pools go with the module, the frames stay
 * intact with the module's code and data gone, and the kernel (KASAN,
 * kmemleak, DMA-API debug, the log scan) finds nothing wrong when the
 * socket lets them go. The module then loads again and works.
 *
 * Not on the 6.1 pool (PPSIM_POOL=base): it holds a reference on the
 * pool's device until the last page is back, and the device's release
 * function is the module's, gone by then.
 */
TEST_F_TIMEOUT(ppsim_module, unload_while_held, 120)
{
	const unsigned int per_queue = 200, want = per_queue * NUM_RXQ;
	struct _test_data_ppsim *d = &self->d;
	const char *pool = getenv("PPSIM_POOL");
	long long pkts;

	if (access(BUS "/new_device", W_OK))
		SKIP(return, "no ppsim bus (CONFIG_PPSIM) or not root");
	if (access("/sys/module/ppsim/initstate", F_OK))
		SKIP(return, "ppsim is built in, not a module");
	if (pool && !strcmp(pool, "base"))
		SKIP(return, "the 6.1 pool keeps the module's device past rmmod");
	ASSERT_EQ(0, access(PPSIM_KO, R_OK));
	device_setup(_metadata, d, "pool");
	pkts = rxq_sum(d->ifname, "packets", NUM_RXQ);
	ASSERT_EQ(0, wire_send(DEV_ID, per_queue, 64));
	ASSERT_EQ(0, wire_idle(DEV_ID, d->ifname, pkts + want));
	ASSERT_EQ(want, socket_held(d->sock, want));

	self->unloaded = true;
	ASSERT_EQ(0, module_unload());
	EXPECT_NE(0, access(BUS, F_OK));
	receive_intact(_metadata, d->sock, want, 64);
	EXPECT_EQ(0, socket_empty(d->sock));
	close(d->sock);
	d->sock = -1;

	ASSERT_EQ(0, module_load());
	device_setup(_metadata, d, "frag");
	deliver(_metadata, d, 500, 64);
}

/*
 * The fault tests come last, in a fixture of their own: failing atomic
 * allocations kernel-wide also fails DMA-API debug's own, and it then
 * switches itself off for the rest of the boot. Every other test has
 * run under it by then, and the fixture checks it found nothing.
 */
FIXTURE(ppsim_faults) {
	struct _test_data_ppsim d;
};

FIXTURE_VARIANT(ppsim_faults) {
	const char *mode;
};

FIXTURE_VARIANT_ADD(ppsim_faults, alloc) { .mode = "alloc" };
FIXTURE_VARIANT_ADD(ppsim_faults, cache) { .mode = "cache" };
FIXTURE_VARIANT_ADD(ppsim_faults, pool) { .mode = "pool" };
FIXTURE_VARIANT_ADD(ppsim_faults, frag) { .mode = "frag" };
FIXTURE_VARIANT_ADD(ppsim_faults, order3) { .mode = "order3" };

FIXTURE_SETUP(ppsim_faults)
{
	char errors[32];

	device_setup(_metadata, &self->d, variant->mode);
	if (faults_start())
		SKIP(return, FAULTS_MISSING);
	if (!sysfs_read(DEBUGFS "/dma-api/error_count", errors,
			sizeof(errors)))
		ASSERT_STREQ("0", errors);
	/* summarize.py: DMA-API debug may switch itself off from here. */
	ksft_print_msg("ppsim_faults: allocation faults on\n");
}

FIXTURE_TEARDOWN(ppsim_faults)
{
	faults_stop();
	if (self->d.sock >= 0)
		close(self->d.sock);
	dev_destroy(DEV_ID);
}

/* Waits until failed refills and drops over all queues exceed @than. */
static long long wait_failures(const char *ifname, long long than)
{
	static const char * const names[] = {
		"rx*_alloc_fail", "rx*_drops", NULL
	};

	return wait_sum(ifname, names, than + 1);
}

/*
 * Atomic page allocations fail at 1%, 10% and then 100% (any order, the
 * whole kernel, as under memory pressure) while the wire writes and the
 * socket reads nothing, so the rings need fresh pages. What the driver
 * could not post it counts in alloc_fail; a frame the stack could not
 * get an skb for is counted in drops and is a gap in its queue's
 * sequence. At 100% at least one of the two must count (the pool modes
 * get their pages back from the dropped frames, so only drops may), and
 * the wire may stall with nothing posted until the faults stop. Every
 * frame not dropped reaches the socket once and intact; afterwards the
 * device delivers as before, and the log scan finds nothing leaked.
 */
TEST_F_TIMEOUT(ppsim_faults, while_receiving, 180)
{
	static const char * const rates[] = { "1", "10", "100" };
	const unsigned int sent = 3000 * NUM_RXQ;
	struct _test_data_ppsim *d = &self->d;
	long long pkts, drops, fails;
	struct rx_result r = {};
	unsigned int i, seen;

	/* A SKIP in the setup does not keep the harness from running us. */
	if (!fault_armed)
		SKIP(return, FAULTS_MISSING);
	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		pkts = rxq_sum(d->ifname, "packets", NUM_RXQ);
		drops = rxq_sum(d->ifname, "drops", NUM_RXQ);
		fails = rxq_sum(d->ifname, "alloc_fail", NUM_RXQ);
		ASSERT_LE(0, fails);

		ASSERT_EQ(0, fault_knob("probability", rates[i]));
		ASSERT_EQ(0, wire_send(DEV_ID, sent / NUM_RXQ, 64));
		if (!strcmp(rates[i], "100")) {
			EXPECT_LT(fails + drops,
				  wait_failures(d->ifname, fails + drops));
		} else {
			EXPECT_EQ(0, wire_idle(DEV_ID, d->ifname, pkts + sent));
		}
		ASSERT_EQ(0, fault_knob("probability", "0"));
		ASSERT_EQ(0, wire_idle(DEV_ID, d->ifname, pkts + sent));

		fails = stat_delta(d->ifname, "alloc_fail", fails);
		drops = stat_delta(d->ifname, "drops", drops);
		/* The sequence numbers run on from the last rate. */
		seen = r.frames;
		r.order = 0;
		receive(d->sock, &r, seen + sent - drops, 64);
		EXPECT_EQ(sent - drops, r.frames - seen);
		EXPECT_EQ(0, r.bad);
		EXPECT_GE(drops, r.order);
		EXPECT_EQ(0, socket_empty(d->sock));
		ksft_print_msg("%s: %s%% failing: %lld failed refills, %lld of %u frames dropped\n",
			       variant->mode, rates[i], fails, drops, sent);
	}
	faults_stop();
	/* A restart of the queues starts their sequences again. */
	ASSERT_EQ(0, if_set_up(d->ifname, 0));
	ASSERT_EQ(0, if_set_up(d->ifname, 1));
	deliver(_metadata, d, 1000, 64);
}

/*
 * PPSIM_MODES=pool,frag runs only the variants of those modes: the
 * KCSAN kernel's run, where the pool's concurrency is. The 6.1 harness
 * has no filter of its own, so the others leave its lists here.
 */
static int modes_select(const char *want)
{
	struct __fixture_variant_metadata **pp, *v;
	struct __fixture_metadata *f;
	char list[64];

	snprintf(list, sizeof(list), ",%s,", want);
	for (f = __fixture_list; f; f = f->next) {
		if (!f->variant)
			continue;
		for (pp = &f->variant; (v = *pp);) {
			char name[24];

			snprintf(name, sizeof(name), ",%s,", v->name);
			if (strstr(list, name))
				pp = &v->next;
			else
				*pp = v->next;
		}
		if (!f->variant) {
			ksft_print_msg("PPSIM_MODES=%s leaves %s no mode\n",
				       want, f->name);
			return -1;
		}
		/* The list head's prev is its tail, as the harness keeps it. */
		for (v = f->variant; v->next; v = v->next)
			v->next->prev = v;
		f->variant->prev = v;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *want = getenv("PPSIM_MODES");

	if (want && modes_select(want))
		return KSFT_FAIL;
	return test_harness_run(argc, argv);
}
