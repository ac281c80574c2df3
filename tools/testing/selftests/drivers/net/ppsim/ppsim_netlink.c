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
 * a socket after their device has gone too. Dumps too big for one
 * datagram go on where they stopped, even when pools go in between or
 * come and go in another process all along;
 * another network namespace neither lists nor hears of our pools. With
 * the leak trace (CONFIG_PAGE_POOL_LEAK_TRACE), the pages a socket holds
 * past their device are named by the receive path that queued them.
 *
 * Needs root, and a kernel with CONFIG_PPSIM and our page_pool; skips
 * on a kernel without the family (6.1's own pool).
 */
#include "ppsim_nl.h"

#include <sys/mount.h>

/* The frames per RX queue that the held pages carry. */
#define HELD_FRAMES	32

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

/*
 * Brings device @id up and has a UDP socket take HELD_FRAMES frames
 * from each of its queues, which keep their pool pages; fills @h with
 * the socket, the ifindex and the pools' ids. 0, or -1 (said why).
 */
static int hold_frames(struct __test_metadata *_metadata, struct nl *nl,
		       int id, struct held *h)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PPSIM_WIRE_DPORT),
	};
	int i, rcvbuf = 4 << 20;
	struct pools all, mine;
	char wire[32];

	h->ifindex = dev_up(id, true);
	h->sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (!h->ifindex || h->sock < 0)
		return -1;
	/* Room for every frame: each queue's pool must have pages held. */
	if (setsockopt(h->sock, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)) ||
	    bind(h->sock, (void *)&sin, sizeof(sin)))
		return -1;
	snprintf(wire, sizeof(wire), "%d 64", HELD_FRAMES);
	if (dev_attr_write(id, "wire", wire))
		return -1;
	/* Every queue's frames are up the stack and in the socket. */
	if (wait_held(h->sock, h->ifindex, (long long)HELD_FRAMES * NUM_RXQ)) {
		TH_LOG("rx_packets %lld of %d", if_rx_packets(h->ifindex),
		       HELD_FRAMES * NUM_RXQ);
		return -1;
	}
	if (pool_dump(nl, NETDEV_CMD_PAGE_POOL_GET, &all) ||
	    pools_of(&all, h->ifindex, &mine) != NUM_RXQ)
		return -1;
	for (i = 0; i < NUM_RXQ; i++)
		h->ids[i] = mine.p[i].id;
	return 0;
}

/* A device goes while a socket holds frames in its pools' pages. */
TEST_F(pp_nl, pools_outlive_their_device)
{
	struct held h = { .sock = -1 };
	int fd;

	fd = ntf_open(&self->nl);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hold_frames(_metadata, &self->nl, DEV_ID + 1, &h));
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));
	follow(_metadata, &self->nl, fd, h.ifindex, NUM_RXQ, true,
	       check_on_loopback, &h);
	if (h.sock >= 0)
		close(h.sock);
	close(fd);
}

/* ---- the leak trace (CONFIG_PAGE_POOL_LEAK_TRACE) ---- */

#define DEBUGFS		"/sys/kernel/debug"
#define LEAK_TRACE	DEBUGFS "/page_pool/leak_trace"
#define HOLDERS		DEBUGFS "/page_pool/holders"

/* Starts the trace: 0, or -errno (-ENOENT: a kernel without it). */
static int leak_trace_start(void)
{
	if (access(LEAK_TRACE, F_OK) &&
	    mount("debugfs", DEBUGFS, "debugfs", 0, NULL) && errno != EBUSY)
		return -errno;
	if (access(LEAK_TRACE, F_OK))
		return -ENOENT;
	return sysfs_write(LEAK_TRACE, "1");
}

/* Reads the holders file into @buf; its length, or -1. */
static ssize_t holders_read(char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(HOLDERS, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return n < 0 ? -1 : len;
}

/* Pool @id's part of the holders listing in @all, NUL-terminated in
 * @out; false if the listing has none.
 */
static bool holders_of(const char *all, __u64 id, char *out, size_t size)
{
	char head[40];
	const char *at, *end;

	snprintf(head, sizeof(head), "pool %llu ", (unsigned long long)id);
	at = all;
	while (at && strncmp(at, head, strlen(head))) {
		at = strchr(at, '\n');
		at = at ? at + 1 : NULL;
	}
	if (!at || !*at)
		return false;
	end = strstr(at, "\npool ");
	end = end ? end + 1 : at + strlen(at);
	if ((size_t)(end - at) >= size)
		return false;
	memcpy(out, at, end - at);
	out[end - at] = 0;
	return true;
}

/*
 * A socket holds pool pages after their device is gone: the listing
 * names it by the receive path that handed the frames to the stack
 * (ppsim's NAPI poll, through skb_mark_for_recycle()), not by the
 * refill that took the pages, and forgets the pools once it lets go.
 * Tracing stays on for the rest of the boot (it cannot stop): the cases
 * after this one run with it, pools they create traced.
 */
TEST_F(pp_nl, leak_trace_names_the_holder)
{
	static char all[1 << 16], part[1 << 14];
	struct held h = { .sock = -1 };
	int err, i, n;

	err = leak_trace_start();
	if (err == -ENOENT)
		SKIP_TEST("kernel without CONFIG_PAGE_POOL_LEAK_TRACE");
	ASSERT_EQ(0, err) TH_LOG("starting the trace: %s", strerror(-err));
	ASSERT_EQ(0, hold_frames(_metadata, &self->nl, DEV_ID + 1, &h));
	ASSERT_EQ(0, dev_destroy(DEV_ID + 1));

	ASSERT_LT(0, holders_read(all, sizeof(all)));
	for (i = 0; i < NUM_RXQ; i++) {
		ASSERT_TRUE(holders_of(all, h.ids[i], part, sizeof(part)))
			TH_LOG("pool %llu not listed:\n%s", h.ids[i], all);
		/* Gone from its device, waiting under loopback. */
		EXPECT_NE(NULL, strstr(part, " ifindex 0 detached "))
			TH_LOG("%s", part);
		EXPECT_NE(NULL, strstr(part, "__page_pool_note_skb+"))
			TH_LOG("%s", part);
		EXPECT_NE(NULL, strstr(part, "ppsim_poll+")) TH_LOG("%s", part);
		EXPECT_EQ(NULL, strstr(part, "page_pool_alloc")) TH_LOG("%s", part);
	}
	/* What a user reads, for the log. */
	if (holders_of(all, h.ids[0], part, sizeof(part)))
		TH_LOG("%s", part);

	close(h.sock);
	h.sock = -1;
	/* The last page back frees each pool, and its records with it. */
	for (n = 0; n < WAIT_S * 10; n++) {
		ASSERT_LE(0, holders_read(all, sizeof(all)));
		for (i = 0; i < NUM_RXQ; i++)
			if (holders_of(all, h.ids[i], part, sizeof(part)))
				break;
		if (i == NUM_RXQ)
			break;
		usleep(100000);
	}
	EXPECT_LT(n, WAIT_S * 10) TH_LOG("still listed:\n%s", all);
}

/* ---- refusals, in detail ---- */

/* @a and @b hold the same pools, on the same device, both attached or
 * both detached (their pages in flight move with the RX traffic).
 */
static bool pools_same(const struct pools *a, const struct pools *b)
{
	const struct pool *p;
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++) {
		p = pool_find(b, a->p[i].id);
		if (!p || p->ifindex != a->p[i].ifindex ||
		    p->has_detach_time != a->p[i].has_detach_time)
			return false;
	}
	return true;
}

/* Where an attribute of @m starts, from the start of the message. */
static long msg_offset(const struct msg *m, const struct nlattr *a)
{
	return (const char *)a - (const char *)m;
}

/*
 * Requests the family refuses, each with the error, its message, and
 * the offset of the attribute at fault where there is one; none of
 * them changes a pool or sends a notification.
 */
TEST_F(pp_nl, refusals_point_at_the_fault)
{
	__u32 id = self->mine.p[0].id, bad = 0xfffffff0;
	struct pools before, after;
	struct nlattr *a, *nest;
	__u16 id16 = id;
	struct msg m;
	int fd, err;

	fd = ntf_open(&self->nl);
	ASSERT_LE(0, fd);
	ASSERT_EQ(NUM_RXQ, pools_now(_metadata, &self->nl, self->ifindex,
				     &before));

	/* An id of the wrong size: the id attribute is at fault. */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	a = msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id16, sizeof(id16));
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &after));
	EXPECT_EQ(msg_offset(&m, a), self->nl.ext_offs);
	EXPECT_STRNE("", self->nl.ext_msg);

	/* An id no pool has, nested in a stats request: the id again. */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_STATS_GET, 0);
	nest = msg_put(&m, NETDEV_A_PAGE_POOL_STATS_INFO | NLA_F_NESTED,
		       NULL, 0);
	a = msg_put(&m, NETDEV_A_PAGE_POOL_ID, &bad, sizeof(bad));
	msg_nest_end(&m, nest);
	err = nl_request(&self->nl, &m, collect, &after);
	if (err != -EOPNOTSUPP) {	/* else no CONFIG_PAGE_POOL_STATS */
		EXPECT_EQ(-ENOENT, err);
		EXPECT_EQ(msg_offset(&m, a), self->nl.ext_offs);
	}

	/* An attribute type the command does not know. */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	a = msg_put(&m, NETDEV_A_PAGE_POOL_MAX + 1, &id, sizeof(id));
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &after));
	EXPECT_EQ(msg_offset(&m, a), self->nl.ext_offs);
	EXPECT_STRNE("", self->nl.ext_msg);

	/* Junk after the last attribute, too short to be one. */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	memset((char *)&m + m.nlh.nlmsg_len, 0x2, 4);
	m.nlh.nlmsg_len += 4;
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &after));
	EXPECT_STRNE("", self->nl.ext_msg);

	/* The family is strict of its header: reserved bytes must be 0,
	 * and flags the request cannot mean are refused.
	 */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	m.genl.reserved = 1;
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &after));
	EXPECT_STRNE("", self->nl.ext_msg);
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, NLM_F_REPLACE);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	EXPECT_EQ(-EINVAL, nl_request(&self->nl, &m, collect, &after));
	EXPECT_STRNE("", self->nl.ext_msg);
	/* ... and the same request, well formed, is answered. */
	msg_init(&m, self->nl.family, NETDEV_CMD_PAGE_POOL_GET, 0);
	msg_put(&m, NETDEV_A_PAGE_POOL_ID, &id, sizeof(id));
	EXPECT_EQ(0, nl_request(&self->nl, &m, collect, &after));
	EXPECT_EQ(1, after.n);

	ASSERT_EQ(NUM_RXQ, pools_now(_metadata, &self->nl, self->ifindex,
				     &after));
	EXPECT_TRUE(pools_same(&before, &after));
	EXPECT_FALSE(ntf_pending(fd));
	close(fd);
}

/* ---- dumps in parts ---- */

#define MANY_DEVS	5
#define MANY_RXQ	16
#define SMALL_RING	64

static int set_rx_ring(const char *ifname, __u32 n)
{
	struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };
	struct ifreq ifr = {};
	int err;

	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	ifr.ifr_data = (void *)&r;
	err = if_ioctl(SIOCETHTOOL, &ifr);
	if (err)
		return err;
	r.cmd = ETHTOOL_SRINGPARAM;
	r.rx_pending = n;
	return if_ioctl(SIOCETHTOOL, &ifr);
}

FIXTURE(pp_many) {
	unsigned int ifindex[MANY_DEVS];
	struct nl nl;
};

FIXTURE_SETUP(pp_many)
{
	char ifname[IFNAMSIZ];
	int i, err;

	self->nl.fd = -1;
	if (access(BUS "/new_device", W_OK))
		SKIP_TEST("no ppsim bus (CONFIG_PPSIM) or not root");
	/* Small datagrams: a dump of many pools takes several. */
	err = nl_open_len(&self->nl, 4096);
	if (err == -ENOENT)
		SKIP_TEST("kernel without the netdev netlink family");
	ASSERT_EQ(0, err);
	for (i = 0; i < MANY_DEVS; i++) {
		ASSERT_EQ(0, dev_create_n(DEV_ID + 3 + i, MANY_RXQ));
		ASSERT_EQ(0, dev_ifname(DEV_ID + 3 + i, ifname));
		/* Small rings: many pools, not much memory. */
		ASSERT_EQ(0, set_rx_ring(ifname, SMALL_RING));
		ASSERT_EQ(0, if_set(ifname, true));
		self->ifindex[i] = if_nametoindex(ifname);
	}
}

FIXTURE_TEARDOWN(pp_many)
{
	int i;

	for (i = 0; i < MANY_DEVS; i++)
		dev_cleanup(DEV_ID + 3 + i);
	if (self->nl.fd >= 0)
		close(self->nl.fd);
}

/* Each device's pools are in @ps once each, and @ps is in id order. */
static void check_listed(struct __test_metadata *_metadata,
			 const struct pools *ps, const unsigned int *ifindex,
			 int devs)
{
	struct pools mine;
	int i, j, k;

	for (i = 1; i < ps->n; i++)
		EXPECT_LT(ps->p[i - 1].id, ps->p[i].id);
	for (i = 0; i < devs; i++) {
		EXPECT_EQ(MANY_RXQ, pools_of(ps, ifindex[i], &mine));
		for (j = 0; j < mine.n; j++)
			for (k = j + 1; k < mine.n; k++)
				EXPECT_NE(mine.p[j].id, mine.p[k].id);
	}
}

/* A dump bigger than a datagram goes on where it stopped. */
TEST_F(pp_many, dump_in_parts)
{
	struct pools *ps = malloc(sizeof(*ps));
	__u8 cmd[] = { NETDEV_CMD_PAGE_POOL_GET,
		       NETDEV_CMD_PAGE_POOL_STATS_GET };
	int i, err;

	ASSERT_NE(NULL, ps);
	for (i = 0; i < 2; i++) {
		err = pool_dump(&self->nl, cmd[i], ps);
		if (err == -EOPNOTSUPP && i)
			break;	/* no CONFIG_PAGE_POOL_STATS */
		ASSERT_EQ(0, err);
		EXPECT_FALSE(self->nl.malformed);
		TH_LOG("command %u: %d pools in %d datagrams", cmd[i], ps->n,
		       self->nl.parts);
		/* The counters take more room: two parts or more. */
		if (i)
			ASSERT_LE(3, self->nl.parts);
		check_listed(_metadata, ps, self->ifindex, MANY_DEVS);
	}
	free(ps);
}

/* Devices another process creates, brings up and removes in turn. */
#define CHURN_ROUNDS	40

/* The child of dump_under_churn: 0 if every round went through. */
static int churn(int id)
{
	char ifname[IFNAMSIZ];
	int i;

	for (i = 0; i < CHURN_ROUNDS; i++) {
		if (dev_create_n(id, MANY_RXQ) || dev_ifname(id, ifname) ||
		    set_rx_ring(ifname, SMALL_RING) || if_set(ifname, true) ||
		    dev_destroy(id))
			return 1;
	}
	return 0;
}

/*
 * Pools come and go on another CPU (on SMP kernels) while dumps run:
 * every dump is well formed, in id order, and lists each pool of the
 * devices that stay exactly once; the kernel's checkers (KASAN, KCSAN,
 * lockdep) watch the listing's locking meanwhile.
 */
TEST_F(pp_many, dump_under_churn)
{
	struct pools *ps = malloc(sizeof(*ps));
	int churn_id = DEV_ID + 3 + MANY_DEVS;
	int status, dumps = 0, err;
	pid_t child;

	ASSERT_NE(NULL, ps);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(churn(churn_id));
	do {
		err = pool_dump(&self->nl, dumps % 2 ?
				NETDEV_CMD_PAGE_POOL_STATS_GET :
				NETDEV_CMD_PAGE_POOL_GET, ps);
		if (err == -EOPNOTSUPP && dumps % 2)
			err = 0;	/* no CONFIG_PAGE_POOL_STATS */
		else if (!err)
			check_listed(_metadata, ps, self->ifindex, MANY_DEVS);
		EXPECT_EQ(0, err);
		EXPECT_FALSE(self->nl.malformed);
		dumps++;
	} while (!err && waitpid(child, &status, WNOHANG) == 0);
	if (err)
		waitpid(child, &status, 0);
	TH_LOG("%d dumps beside %d devices created and removed", dumps,
	       CHURN_ROUNDS);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	dev_cleanup(churn_id);
	free(ps);
}

struct cut {
	int id;
	int err;
};

static void remove_dev(void *arg)
{
	struct cut *c = arg;

	c->err = dev_destroy(c->id);
}

/*
 * The first device goes between the dump's parts, after its pools were
 * listed: the dump goes on from the last pool it listed, not from a
 * count of them, so the others are each listed once all the same.
 */
TEST_F(pp_many, dump_goes_on_after_pools_go)
{
	struct pools *ps = malloc(sizeof(*ps));
	struct cut c = { .id = DEV_ID + 3 };
	struct pools first;
	int err;

	ASSERT_NE(NULL, ps);
	self->nl.after_first = remove_dev;
	self->nl.after_arg = &c;
	err = pool_dump(&self->nl, NETDEV_CMD_PAGE_POOL_STATS_GET, ps);
	if (err == -EOPNOTSUPP)
		SKIP(return, "kernel without CONFIG_PAGE_POOL_STATS");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, c.err);
	ASSERT_LE(3, self->nl.parts);
	/* Listed in the first part, built before the device went. */
	EXPECT_EQ(MANY_RXQ, pools_of(ps, self->ifindex[0], &first));
	check_listed(_metadata, ps, self->ifindex + 1, MANY_DEVS - 1);
	free(ps);
}

/* ---- network namespaces ---- */

/*
 * A listener in another network namespace hears nothing of pools that
 * come and go in ours. The child listens there; we tell it to look
 * once our own listener has had every notification, which netlink
 * delivers to all listeners as it sends them.
 */
TEST_F(pp_nl, other_netns_hears_none)
{
	int ready[2], go[2], status, fd;
	unsigned int ifindex;
	struct pools ntf;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct nl nl;
		int lfd;

		close(ready[0]);
		close(go[1]);
		if (unshare(CLONE_NEWNET))
			_exit(errno == EINVAL ? 2 : 1);
		if (nl_open(&nl))
			_exit(1);
		lfd = ntf_open(&nl);
		if (lfd < 0 || write(ready[1], &c, 1) != 1 ||
		    read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(ntf_pending(lfd) ? 3 : 0);
	}
	/* Ours closed: a child gone early reads as the end of the pipe. */
	close(ready[1]);
	close(go[0]);
	fd = ntf_open(&self->nl);
	ASSERT_LE(0, fd);
	if (read(ready[0], &c, 1) == 1) {
		ifindex = dev_up(DEV_ID + 1, false);
		EXPECT_NE(0, ifindex);
		EXPECT_EQ(0, dev_destroy(DEV_ID + 1));
		/* The adds, then the dels. */
		ntf_expect(_metadata, &self->nl, fd, 2 * NUM_RXQ, &ntf);
		EXPECT_EQ(1, write(go[1], &c, 1));
	}
	close(go[1]);
	close(ready[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2)
		SKIP(return, "kernel without network namespaces");
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
