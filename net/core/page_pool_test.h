/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the page_pool KUnit suites and the drivers' RX
 * suites: running a step in real softirq context, observing when a pool
 * is finally released, a DMA device that counts and records what is done
 * to it, and reporting the known defects of the base tree's pool as
 * expected failures.
 */
#ifndef _NET_CORE_PAGE_POOL_TEST_H
#define _NET_CORE_PAGE_POOL_TEST_H

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/page_pool.h>
#include <net/xdp.h>

/* How long a released pool may take to go away: the base pool retries
 * its deferred release once a second.
 */
#define PP_TEST_RELEASE_TIMEOUT	(5 * HZ)

/* The flags a pool needs to cut fragments: 6.1's pool wants
 * PP_FLAG_PAGE_FRAG, ours cuts them from any pool, as 6.7's does.
 */
#ifdef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
#define PP_TEST_FRAG_FLAGS	PP_FLAG_PAGE_FRAG
#else
#define PP_TEST_FRAG_FLAGS	0
#endif

/**
 * pp_test_xfail_base() - report a known defect of the base pool
 * @test: the running case
 * @ok: whether the pool behaved as the contract says
 * @what: the behaviour checked, for the log
 *
 * On the base pool (CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL) a broken
 * behaviour skips the case with an "XFAIL" reason, and a correct one
 * fails it, so a fix upstream is noticed. Elsewhere @ok must hold.
 *
 * Return: true if the case may go on checking the behaviour.
 */
static inline bool pp_test_xfail_base(struct kunit *test, bool ok,
				      const char *what)
{
	if (!IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL)) {
		KUNIT_EXPECT_TRUE_MSG(test, ok, "%s", what);
		return ok;
	}
	if (ok)
		KUNIT_FAIL(test, "XPASS on the base pool: %s", what);
	else
		kunit_mark_skipped(test, "XFAIL on the base pool: %s", what);
	return false;
}

/**
 * pp_test_remote_node() - a NUMA node other than the running CPU's
 *
 * Return: the next online node after this CPU's, wrapping around; this
 * CPU's own node when it is the only one online.
 */
static inline int pp_test_remote_node(void)
{
	int nid = next_online_node(numa_node_id());

	return nid < MAX_NUMNODES ? nid : first_online_node;
}

/**
 * pp_test_pin_cpu() - keep the running case on the CPU it is on
 *
 * A NAPI poll runs on one CPU, and a pool with NUMA_NO_NODE recycles
 * for the node of the CPU it runs on. A case that migrated between
 * nodes halfway would see its pages waived, so each case stays put.
 */
static inline void pp_test_pin_cpu(void)
{
	WARN_ON_ONCE(set_cpus_allowed_ptr(current,
					  cpumask_of(raw_smp_processor_id())));
}

/**
 * pp_test_unpin_cpu() - let the running case move again
 */
static inline void pp_test_unpin_cpu(void)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/**
 * pp_test_owns() - whether @pool holds @page as one of its own
 * @pool: the pool
 * @page: the page
 *
 * Return: true if the page carries the pool's signature and pointer.
 */
static inline bool pp_test_owns(struct page_pool *pool, struct page *page)
{
	return (page->pp_magic & ~0x3UL) == PP_SIGNATURE && page->pp == pool;
}

#ifdef CONFIG_PAGE_POOL_STATS
/**
 * pp_test_stats() - a pool's counters, summed afresh
 * @pool: the pool
 *
 * Return: what page_pool_get_stats() adds to a zeroed struct.
 */
static inline struct page_pool_stats pp_test_stats(struct page_pool *pool)
{
	struct page_pool_stats s = {};

	page_pool_get_stats(pool, &s);
	return s;
}
#endif

/* The debugfs knobs of a fault attribute (fail_page_alloc, failslab),
 * turned through the data behind their files, as a write to them would.
 */
struct pp_test_fault {
	const char *name;
	unsigned long *probability;
	unsigned long *interval;
	unsigned long *verbose;
	atomic_t *times;
	bool *ignore_gfp_wait;
	u32 *min_order;		/* fail_page_alloc's */
	/* What they were before the case. */
	unsigned long old_probability, old_interval, old_verbose;
	int old_times;
	bool old_ignore;
	u32 old_min_order;
};

static inline void *pp_test_fault_knob(struct dentry *dir, const char *name)
{
	struct dentry *d = debugfs_lookup(name, dir);
	void *data;

	if (IS_ERR_OR_NULL(d))
		return NULL;
	/* debugfs keeps the pointer a file was created with here. */
	data = d_inode(d)->i_private;
	dput(d);
	return data;
}

/**
 * pp_test_fault_find() - find the knobs of a fault attribute
 * @a: the attribute, its @name set
 *
 * Return: 0, or -ENOENT if the kernel lacks the attribute or one of the
 * knobs every attribute has; the others are left NULL where absent.
 */
static inline int pp_test_fault_find(struct pp_test_fault *a)
{
	struct dentry *dir = debugfs_lookup(a->name, NULL);

	if (IS_ERR_OR_NULL(dir))
		return -ENOENT;
	a->probability = pp_test_fault_knob(dir, "probability");
	a->interval = pp_test_fault_knob(dir, "interval");
	a->verbose = pp_test_fault_knob(dir, "verbose");
	a->times = pp_test_fault_knob(dir, "times");
	a->ignore_gfp_wait = pp_test_fault_knob(dir, "ignore-gfp-wait");
	a->min_order = pp_test_fault_knob(dir, "min-order");
	dput(dir);
	if (!a->probability || !a->interval || !a->verbose || !a->times ||
	    !a->ignore_gfp_wait)
		return -ENOENT;
	return 0;
}

/* Saves the knobs, then leaves the attribute quiet, unlimited and off. */
static inline void pp_test_fault_save(struct pp_test_fault *a)
{
	a->old_probability = READ_ONCE(*a->probability);
	a->old_interval = READ_ONCE(*a->interval);
	a->old_verbose = READ_ONCE(*a->verbose);
	a->old_times = atomic_read(a->times);
	a->old_ignore = READ_ONCE(*a->ignore_gfp_wait);
	if (a->min_order)
		a->old_min_order = READ_ONCE(*a->min_order);
	WRITE_ONCE(*a->probability, 0);
	WRITE_ONCE(*a->verbose, 0);
	atomic_set(a->times, -1);
}

static inline void pp_test_fault_restore(struct pp_test_fault *a)
{
	WRITE_ONCE(*a->probability, a->old_probability);
	WRITE_ONCE(*a->interval, a->old_interval);
	WRITE_ONCE(*a->verbose, a->old_verbose);
	atomic_set(a->times, a->old_times);
	WRITE_ONCE(*a->ignore_gfp_wait, a->old_ignore);
	if (a->min_order)
		WRITE_ONCE(*a->min_order, a->old_min_order);
}

/* A step to run in softirq context, as a NAPI poll would. */
struct pp_test_softirq {
	struct tasklet_struct tasklet;
	struct completion done;
	void (*fn)(void *arg);
	void *arg;
};

static inline void pp_test_softirq_fn(struct tasklet_struct *t)
{
	struct pp_test_softirq *s = from_tasklet(s, t, tasklet);

	s->fn(s->arg);
	complete(&s->done);
}

/**
 * pp_test_xdp_prog() - an XDP program that runs a C function of the case
 * @test: the case
 * @run: what the program does, called where the interpreter would run
 *	 it; it may call the helpers a BPF program calls, as found through
 *	 xdp_verifier_ops, with no verifier in the way
 *
 * Return: a one-instruction program whose bpf_func is @run; bpf_prog_free()
 * frees it.
 */
static inline struct bpf_prog *
pp_test_xdp_prog(struct kunit *test,
		 unsigned int (*run)(const void *ctx, const struct bpf_insn *insn))
{
	struct bpf_prog *prog = bpf_prog_alloc(bpf_prog_size(1), 0);

	KUNIT_ASSERT_NOT_NULL(test, prog);
	prog->len = 1;
	prog->insnsi[0] = BPF_EXIT_INSN();
	prog->type = BPF_PROG_TYPE_XDP;
	prog->bpf_func = run;
	return prog;
}

/* The far side of XDP_REDIRECT for the drivers' suites: an interface
 * that keeps the frames it is given to send, for the case to return or
 * turn into skbs as cpumap or veth would.
 */
struct pp_test_fwd {
	struct xdp_frame *frames[16];
	int n;
};

static inline int pp_test_fwd_xdp_xmit(struct net_device *dev, int n,
				       struct xdp_frame **frames, u32 flags)
{
	struct pp_test_fwd *f = netdev_priv(dev);
	int i;

	for (i = 0; i < n && f->n < ARRAY_SIZE(f->frames); i++)
		f->frames[f->n++] = frames[i];
	return i;
}

static inline netdev_tx_t pp_test_fwd_start_xmit(struct sk_buff *skb,
						 struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/**
 * pp_test_fwd_start() - register and open a pp_test_fwd interface
 * @test: the case
 *
 * Return: the interface; netdev_priv() is its struct pp_test_fwd, and
 * pp_test_fwd_stop() takes it down.
 */
static inline struct net_device *pp_test_fwd_start(struct kunit *test)
{
	static const struct net_device_ops ops = {
		.ndo_start_xmit = pp_test_fwd_start_xmit,
		.ndo_xdp_xmit = pp_test_fwd_xdp_xmit,
	};
	struct net_device *dev = alloc_etherdev(sizeof(struct pp_test_fwd));
	int err;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->netdev_ops = &ops;
	eth_hw_addr_random(dev);
	rtnl_lock();
	err = register_netdevice(dev);
	if (!err) {
		err = dev_open(dev, NULL);
		if (err)
			unregister_netdevice(dev);
	}
	rtnl_unlock();
	if (err)
		free_netdev(dev);
	KUNIT_ASSERT_EQ(test, err, 0);
	return dev;
}

/**
 * pp_test_fwd_finish() - end the frames a pp_test_fwd interface holds
 * @test: the case
 * @dev: the interface
 * @returned: how many of the first frames go back to their pool as
 *	      frames; the others become the skbs cpumap or veth would build
 *	      of them, which take their pages out of their pool (6.1's
 *	      xdp.c), unmapped, and are freed at once
 */
static inline void pp_test_fwd_finish(struct kunit *test,
				      struct net_device *dev, int returned)
{
	struct pp_test_fwd *f = netdev_priv(dev);
	struct sk_buff *skb;
	int i;

	for (i = 0; i < f->n; i++) {
		if (i < returned) {
			xdp_return_frame(f->frames[i]);
			continue;
		}
		skb = xdp_build_skb_from_frame(f->frames[i], dev);
		KUNIT_EXPECT_NOT_NULL(test, skb);
		if (!skb) {
			/* The frame is still ours to give back. */
			xdp_return_frame(f->frames[i]);
			continue;
		}
		KUNIT_EXPECT_FALSE(test, skb->pp_recycle);
		kfree_skb(skb);
	}
	f->n = 0;
}

static inline void pp_test_fwd_stop(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

/**
 * pp_test_in_softirq() - run @fn(@arg) in a tasklet and wait for it
 * @fn: the step; it must not sleep nor use KUNIT_ASSERT_*
 * @arg: its argument
 *
 * Direct recycling into the alloc cache is only allowed from the pool's
 * own softirq context, so the cases that exercise it run there.
 */
static inline void pp_test_in_softirq(void (*fn)(void *arg), void *arg)
{
	struct pp_test_softirq s = { .fn = fn, .arg = arg };

	init_completion(&s.done);
	tasklet_setup(&s.tasklet, pp_test_softirq_fn);
	tasklet_schedule(&s.tasklet);
	wait_for_completion(&s.done);
	tasklet_kill(&s.tasklet);
}

/* A NAPI whose next poll runs one step of a case: a pool linked to it
 * recycles directly only there, and only on the CPU running the poll.
 */
struct pp_test_napi {
	struct napi_struct napi;
	void (*step)(void *arg);
	void *arg;
	struct completion done;
};

static inline int pp_test_napi_poll(struct napi_struct *napi, int budget)
{
	struct pp_test_napi *tn = container_of(napi, typeof(*tn), napi);
	typeof(tn->step) step = xchg(&tn->step, NULL);

	if (step) {
		step(tn->arg);
		complete(&tn->done);
	}
	napi_complete_done(napi, 0);
	return 0;
}

/* Adds @tn to @dev, disabled, as netif_napi_add() leaves a NAPI. */
static inline void pp_test_napi_add(struct pp_test_napi *tn,
				    struct net_device *dev)
{
	init_completion(&tn->done);
	netif_napi_add(dev, &tn->napi, pp_test_napi_poll);
}

/* Makes @step(@arg) the next poll's work, for whoever runs that poll. */
static inline void pp_test_napi_arm(struct pp_test_napi *tn,
				    void (*step)(void *arg), void *arg)
{
	reinit_completion(&tn->done);
	tn->arg = arg;
	/* The poll's xchg() orders its read of @arg after this. */
	smp_store_release(&tn->step, step);
}

/**
 * pp_test_napi_run() - run @step(@arg) in a poll of @tn on this CPU
 * @tn: the NAPI, enabled
 * @step: the work; it must not sleep nor use KUNIT_ASSERT_*
 * @arg: its argument
 *
 * Schedules the NAPI here, as a driver's interrupt would, and waits for
 * the poll that runs @step.
 *
 * Return: false if no poll ran it within five seconds.
 */
static inline bool pp_test_napi_run(struct pp_test_napi *tn,
				    void (*step)(void *arg), void *arg)
{
	pp_test_napi_arm(tn, step, arg);
	local_bh_disable();
	napi_schedule(&tn->napi);
	local_bh_enable();
	return wait_for_completion_timeout(&tn->done, 5 * HZ);
}

/* An allocation, run in softirq context as the pool's NAPI would. */
struct pp_test_alloc_call {
	struct page_pool *pool;
	struct page *page;
};

static inline void pp_test_alloc_fn(void *arg)
{
	struct pp_test_alloc_call *c = arg;

	c->page = page_pool_dev_alloc_pages(c->pool);
}

/**
 * pp_test_alloc() - allocate a page from @pool in softirq context
 * @pool: the pool
 *
 * Return: the page, or NULL.
 */
static inline struct page *pp_test_alloc(struct page_pool *pool)
{
	struct pp_test_alloc_call c = { .pool = pool };

	pp_test_in_softirq(pp_test_alloc_fn, &c);
	return c.page;
}

/**
 * pp_test_alloc_same() - allocate, expecting a given page back
 * @test: the running case
 * @pool: the pool
 * @want: the page the pool should hand out next
 *
 * Return: the page that came, which the caller then owns, so that a
 * failed expectation never makes the case return @want twice.
 */
static inline struct page *pp_test_alloc_same(struct kunit *test,
					      struct page_pool *pool,
					      struct page *want)
{
	struct page *got = pp_test_alloc(pool);

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_PTR_EQ(test, got, want);
	return got;
}

/* Tells when a pool has really been freed, through the disconnect
 * callback that the XDP memory model installs. Cases run one at a time,
 * so one watcher per suite is enough.
 */
struct pp_test_release {
	struct completion released;
	struct xdp_mem_info mem;
};

static struct pp_test_release *pp_test_watched;

static inline void pp_test_disconnect(void *allocator)
{
	struct pp_test_release *r = READ_ONCE(pp_test_watched);

	/* NULL once a case stopped waiting: its watcher may be gone. */
	if (r)
		complete(&r->released);
}

/**
 * pp_test_watch_release() - get told when @pool is freed
 * @pool: the pool
 * @r: the watcher; it takes a user reference on @pool, which
 *     pp_test_destroy() drops
 */
static inline void pp_test_watch_release(struct page_pool *pool,
					 struct pp_test_release *r)
{
	init_completion(&r->released);
	r->mem.type = MEM_TYPE_PAGE_POOL;
	r->mem.id = 0;
	WRITE_ONCE(pp_test_watched, r);
	page_pool_use_xdp_mem(pool, pp_test_disconnect, &r->mem);
}

static void (*pp_test_mem_disconnect)(void *allocator);

/* The disconnect of a watched pool that an XDP memory model uses: the
 * memory model forgets the pool first, then the case is told.
 */
static inline void pp_test_mem_model_disconnect(void *allocator)
{
	void (*mem_disconnect)(void *allocator) =
		READ_ONCE(pp_test_mem_disconnect);

	if (mem_disconnect)
		mem_disconnect(allocator);
	pp_test_disconnect(allocator);
}

/**
 * pp_test_watch_driver_pool() - pp_test_watch_release() for a driver's pool
 * @pool: a pool an XDP memory model already uses, as a driver's RX
 *	  queue's does
 * @r: the watcher, which takes a user reference on @pool
 *
 * The pool keeps its memory model's id and disconnect, which runs
 * before @r is told.
 */
static inline void pp_test_watch_driver_pool(struct page_pool *pool,
					     struct pp_test_release *r)
{
	u32 mem_id = pool->xdp_mem_id;

	WRITE_ONCE(pp_test_mem_disconnect, pool->disconnect);
	pp_test_watch_release(pool, r);
	pool->disconnect = pp_test_mem_model_disconnect;
	pool->xdp_mem_id = mem_id;
}

/**
 * pp_test_free_work() - the work that frees a destroyed pool
 * @pool: the pool
 *
 * Return: the delayed work that retries until the pages in flight are
 * back, whichever pool is under test.
 */
static inline struct delayed_work *pp_test_free_work(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL
	return &pool->release_dw;
#else
	return &pool->free_dw;
#endif
}

/**
 * pp_test_destroy() - drop both user references of a watched pool
 * @pool: the pool
 */
static inline void pp_test_destroy(struct page_pool *pool)
{
	page_pool_destroy(pool);
	page_pool_destroy(pool);
}

/**
 * pp_test_released() - wait until a watched pool is freed
 * @r: the watcher
 *
 * Return: true if the pool was freed within PP_TEST_RELEASE_TIMEOUT; if
 * not, @r is no longer told, so that the case may free it.
 */
static inline bool pp_test_released(struct pp_test_release *r)
{
	if (wait_for_completion_timeout(&r->released, PP_TEST_RELEASE_TIMEOUT))
		return true;
	cmpxchg(&pp_test_watched, r, NULL);
	return false;
}

/* A device whose DMA "mapping" is the physical address and which only
 * counts and records, so pages of any order map and every DMA call the
 * pool makes is visible; its maps fail at a rate on command. Where the
 * kernel has no DMA, the device gets no DMA mask.
 *
 * Any of them checks each sync for the device against a window of the
 * page, once a case sets one. A recording device
 * (pp_test_dma_register_recording(), for the drivers' RX suites) also
 * keeps, under a lock, which pages are mapped and the last syncs each
 * way, and fails maps by count. The pool's own suites go without: a
 * lock taken on every DMA call would order what they run on several
 * CPUs at once.
 *
 * A recording device also bounces, as swiotlb does: each mapping gets
 * device memory of its own, which its DMA address designates, and bytes
 * cross between that and the CPU's page only at a map, a sync or an
 * unmap, over the range it names. The cases play the device through
 * pp_test_dma_dev_ptr(), so a missing or short sync for the CPU leaves
 * poison in the frame the CPU reads, not the device's bytes.
 */
#define PP_TEST_DMA_LIVE	1024	/* mappings a recording device tracks */
#define PP_TEST_DMA_LOG		256	/* syncs it keeps each way */
#define PP_TEST_DMA_POISON	0x6b	/* bytes of a buffer nobody synced */

struct pp_test_dma_sync {
	dma_addr_t addr;
	size_t size;
};

/* Syncs one way since they were last forgotten: how many, and the last
 * PP_TEST_DMA_LOG of them.
 */
struct pp_test_dma_log {
	int n;
	struct pp_test_dma_sync at[PP_TEST_DMA_LOG];
};

/* A recording device's mapping of @size bytes at @offset of @page. The
 * device's memory, @shadow, is pages of the same order, so the DMA
 * address keeps the offset in the page that sync windows check.
 */
struct pp_test_dma_map {
	struct page *page;	/* NULL: a free slot */
	struct page *shadow;
	unsigned long offset;
	size_t size;
	enum dma_data_direction dir;
};

struct pp_test_dma {
	struct device *dev;
	atomic_t maps;
	atomic_t unmaps;
	atomic_t map_errors;
	/* Syncs for the device, in any direction. */
	atomic_t syncs;
	/* Calls made once @gone is set: the device was unregistered. */
	atomic_t calls_after_gone;
	bool gone;
	unsigned int fail_pct;	/* maps refused, in percent */
	/* The last sync for the device. */
	dma_addr_t sync_addr;
	size_t sync_size;
	/* Syncs for the CPU, and the last one. */
	atomic_t cpu_syncs;
	dma_addr_t cpu_sync_addr;
	size_t cpu_sync_size;
	enum dma_data_direction cpu_sync_dir;
	/* Once @sync_hi is set: syncs for the device that reach out of
	 * [sync_lo, sync_hi) of their page or, with @sync_exact, do not
	 * cover exactly that. Counted without a lock.
	 */
	unsigned int sync_lo;
	unsigned int sync_hi;
	bool sync_exact;
	atomic_t syncs_off_range;
	/* Called on each unmap, before it is counted. */
	void (*unmap_hook)(dma_addr_t addr);

	/* A recording device's. */
	bool record;
	spinlock_t lock;	/* DMA calls come in any context */
	wait_queue_head_t unmapped;
	int maps_left;		/* maps that may still succeed; < 0: no limit */
	struct pp_test_dma_map live[PP_TEST_DMA_LIVE];
	int mapped_twice;
	int unmapped_unknown;
	int synced_unknown;	/* syncs of bytes no live mapping holds */
	int too_many;		/* maps refused as @live was full */
	/* For the device, of those for it to transmit (DMA_TO_DEVICE),
	 * and for the CPU.
	 */
	struct pp_test_dma_log dev_log;
	struct pp_test_dma_log tx_log;
	struct pp_test_dma_log cpu_log;
};

static struct pp_test_dma pp_test_dma;

static inline void pp_test_dma_note_call(void)
{
	if (READ_ONCE(pp_test_dma.gone))
		atomic_inc(&pp_test_dma.calls_after_gone);
}

static inline dma_addr_t pp_test_dma_addr(const struct pp_test_dma_map *m)
{
	return page_to_phys(m->shadow) + m->offset;
}

/* The live mapping holding [@addr, @addr + @size), or NULL; caller holds
 * the lock.
 */
static inline struct pp_test_dma_map *pp_test_dma_find(dma_addr_t addr,
						       size_t size)
{
	struct pp_test_dma_map *m;

	for (m = pp_test_dma.live; m < pp_test_dma.live + PP_TEST_DMA_LIVE; m++)
		if (m->page && addr - pp_test_dma_addr(m) < m->size &&
		    addr - pp_test_dma_addr(m) + size <= m->size)
			return m;
	return NULL;
}

/* The CPU's bytes that the device sees at @addr of @m. */
static inline void *pp_test_dma_cpu(const struct pp_test_dma_map *m,
				    dma_addr_t addr)
{
	return page_address(m->page) + m->offset + (addr - pp_test_dma_addr(m));
}

/* Copies @size bytes at @addr of @m to the device's memory or from it. */
static inline void pp_test_dma_bounce(const struct pp_test_dma_map *m,
				      dma_addr_t addr, size_t size,
				      bool to_device)
{
	void *cpu = pp_test_dma_cpu(m, addr), *dev = phys_to_virt(addr);

	if (to_device)
		memcpy(dev, cpu, size);
	else
		memcpy(cpu, dev, size);
}

/* A recording device's map: takes one out of its budget, gives it device
 * memory and notes it. Returns the DMA address, or DMA_MAPPING_ERROR.
 */
static inline dma_addr_t pp_test_dma_record_map(struct page *page,
						unsigned long offset,
						size_t size,
						enum dma_data_direction dir)
{
	struct pp_test_dma *d = &pp_test_dma;
	unsigned int order = get_order(offset + size);
	struct pp_test_dma_map *m, *slot = NULL;
	struct page *shadow;
	unsigned long flags;
	dma_addr_t addr;

	/* Atomic: pools map from NAPI. */
	shadow = alloc_pages(GFP_ATOMIC, order);
	if (!shadow)
		return DMA_MAPPING_ERROR;
	spin_lock_irqsave(&d->lock, flags);
	if (!d->maps_left)
		goto refuse;
	if (d->maps_left > 0)
		d->maps_left--;
	for (m = d->live; m < d->live + PP_TEST_DMA_LIVE; m++) {
		if (m->page == page)
			d->mapped_twice++;
		else if (!m->page && !slot)
			slot = m;
	}
	if (!slot) {
		d->too_many++;
		goto refuse;
	}
	*slot = (struct pp_test_dma_map){ page, shadow, offset, size, dir };
	addr = pp_test_dma_addr(slot);
	/* Only a buffer the device just fills is poisoned: in the others
	 * the CPU's bytes are what the device reads, and the CPU may too.
	 */
	if (dir == DMA_FROM_DEVICE) {
		memset(pp_test_dma_cpu(slot, addr), PP_TEST_DMA_POISON, size);
		memset(phys_to_virt(addr), PP_TEST_DMA_POISON, size);
	} else {
		pp_test_dma_bounce(slot, addr, size, true);
	}
	spin_unlock_irqrestore(&d->lock, flags);
	return addr;

refuse:
	spin_unlock_irqrestore(&d->lock, flags);
	__free_pages(shadow, order);
	return DMA_MAPPING_ERROR;
}

static inline void pp_test_dma_record_unmap(dma_addr_t addr,
					    unsigned long attrs)
{
	struct pp_test_dma *d = &pp_test_dma;
	struct pp_test_dma_map *m, gone = {};
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	m = pp_test_dma_find(addr, 0);
	if (m && addr == pp_test_dma_addr(m)) {
		/* What the device wrote reaches the CPU, unless told not to. */
		if (m->dir != DMA_TO_DEVICE && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			pp_test_dma_bounce(m, addr, m->size, false);
		gone = *m;
		m->page = NULL;
	} else {
		d->unmapped_unknown++;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (gone.shadow)
		__free_pages(gone.shadow, get_order(gone.offset + gone.size));
}

/* Caller holds the lock. */
static inline void pp_test_dma_log_sync(struct pp_test_dma_log *log,
					dma_addr_t addr, size_t size)
{
	log->at[log->n++ % PP_TEST_DMA_LOG] =
		(struct pp_test_dma_sync){ addr, size };
}

static inline bool pp_test_dma_in_window(dma_addr_t addr, size_t size)
{
	struct pp_test_dma *d = &pp_test_dma;
	size_t lo = offset_in_page(addr), hi = lo + size;

	if (d->sync_exact)
		return lo == d->sync_lo && hi == d->sync_hi;
	return lo >= d->sync_lo && hi <= d->sync_hi;
}

static inline dma_addr_t pp_test_dma_map(struct device *dev,
					 struct page *page,
					 unsigned long offset, size_t size,
					 enum dma_data_direction dir,
					 unsigned long attrs)
{
	dma_addr_t addr = DMA_MAPPING_ERROR;

	pp_test_dma_note_call();
	if (get_random_u32_below(100) >= READ_ONCE(pp_test_dma.fail_pct))
		addr = pp_test_dma.record ?
		       pp_test_dma_record_map(page, offset, size, dir) :
		       page_to_phys(page) + offset;
	if (addr == DMA_MAPPING_ERROR) {
		atomic_inc(&pp_test_dma.map_errors);
		return addr;
	}
	atomic_inc(&pp_test_dma.maps);
	return addr;
}

static inline void pp_test_dma_unmap(struct device *dev, dma_addr_t addr,
				     size_t size, enum dma_data_direction dir,
				     unsigned long attrs)
{
	pp_test_dma_note_call();
	if (pp_test_dma.unmap_hook)
		pp_test_dma.unmap_hook(addr);
	if (!pp_test_dma.record) {
		atomic_inc(&pp_test_dma.unmaps);
		return;
	}
	/* Counted after the record, which the waiter reads under the lock. */
	pp_test_dma_record_unmap(addr, attrs);
	atomic_inc(&pp_test_dma.unmaps);
	wake_up(&pp_test_dma.unmapped);
}

static inline void pp_test_dma_sync_for_device(struct device *dev,
					       dma_addr_t addr, size_t size,
					       enum dma_data_direction dir)
{
	struct pp_test_dma *d = &pp_test_dma;
	struct pp_test_dma_map *m;
	unsigned long flags;

	pp_test_dma_note_call();
	atomic_inc(&d->syncs);
	d->sync_addr = addr;
	d->sync_size = size;
	if (d->sync_hi && !pp_test_dma_in_window(addr, size))
		atomic_inc(&d->syncs_off_range);
	if (!d->record)
		return;
	spin_lock_irqsave(&d->lock, flags);
	pp_test_dma_log_sync(&d->dev_log, addr, size);
	if (dir == DMA_TO_DEVICE)
		pp_test_dma_log_sync(&d->tx_log, addr, size);
	m = pp_test_dma_find(addr, size);
	if (!m)
		d->synced_unknown++;
	else if (dir == DMA_FROM_DEVICE)
		/* The device's to fill again: a read before it syncs back
		 * sees poison, not the frame it held last.
		 */
		memset(pp_test_dma_cpu(m, addr), PP_TEST_DMA_POISON, size);
	else
		pp_test_dma_bounce(m, addr, size, true);
	spin_unlock_irqrestore(&d->lock, flags);
}

static inline void pp_test_dma_sync_for_cpu(struct device *dev,
					    dma_addr_t addr, size_t size,
					    enum dma_data_direction dir)
{
	struct pp_test_dma *d = &pp_test_dma;
	struct pp_test_dma_map *m;
	unsigned long flags;

	pp_test_dma_note_call();
	atomic_inc(&d->cpu_syncs);
	d->cpu_sync_addr = addr;
	d->cpu_sync_size = size;
	d->cpu_sync_dir = dir;
	if (!d->record)
		return;
	spin_lock_irqsave(&d->lock, flags);
	pp_test_dma_log_sync(&d->cpu_log, addr, size);
	m = pp_test_dma_find(addr, size);
	if (!m)
		d->synced_unknown++;
	else if (dir != DMA_TO_DEVICE)
		pp_test_dma_bounce(m, addr, size, false);
	spin_unlock_irqrestore(&d->lock, flags);
}

/**
 * pp_test_dma_dev_ptr() - the recording device's memory at a DMA address
 * @addr: the DMA address
 * @len: the bytes the device reads or writes from there
 *
 * What a case playing the device uses in place of the CPU's page: the
 * CPU sees those bytes only once the driver syncs them. From the case's
 * own thread only.
 *
 * Return: the memory, or NULL, failing the case, if no live mapping
 * holds all of [@addr, @addr + @len).
 */
static inline void *pp_test_dma_dev_ptr(dma_addr_t addr, size_t len)
{
	unsigned long flags;
	void *p = NULL;

	spin_lock_irqsave(&pp_test_dma.lock, flags);
	if (pp_test_dma_find(addr, len))
		p = phys_to_virt(addr);
	spin_unlock_irqrestore(&pp_test_dma.lock, flags);
	if (!p)
		kunit_fail_current_test("no mapping holds %zu bytes at %pad",
					len, &addr);
	return p;
}

static const struct dma_map_ops pp_test_dma_ops = {
	.map_page = pp_test_dma_map,
	.unmap_page = pp_test_dma_unmap,
	.sync_single_for_device = pp_test_dma_sync_for_device,
	.sync_single_for_cpu = pp_test_dma_sync_for_cpu,
};

/**
 * pp_test_dma_counting() - make @dev map through the counting device's ops
 * @dev: a device without a DMA mask yet
 *
 * Return: @dev, or NULL where the kernel has no DMA.
 */
static inline struct device *pp_test_dma_counting(struct device *dev)
{
	if (!IS_ENABLED(CONFIG_DMA_OPS))
		return NULL;
	dev->dma_mask = &dev->coherent_dma_mask;
	dev->coherent_dma_mask = DMA_BIT_MASK(64);
	set_dma_ops(dev, &pp_test_dma_ops);
	return dev;
}

/**
 * pp_test_dma_reset() - forget what the counting device has seen
 *
 * A recording device stays one, with no limit on its maps.
 */
static inline void pp_test_dma_reset(void)
{
	struct pp_test_dma *d = &pp_test_dma;
	struct device *dev = d->dev;
	bool record = d->record;

	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->record = record;
	d->maps_left = -1;
	spin_lock_init(&d->lock);
	init_waitqueue_head(&d->unmapped);
}

/**
 * pp_test_direct_dev() - a device that maps through the real DMA API
 * @test: the running case, skipped where no 64-bit DMA mask can be set
 * @name: the device's name
 *
 * No dma_map_ops: the DMA API's direct path (swiotlb under QEMU), with
 * DMA-API debug watching. The caller unregisters it.
 *
 * Return: the device.
 */
static inline struct device *pp_test_direct_dev(struct kunit *test,
						const char *name)
{
	struct device *dev = root_device_register(name);

	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	dev->dma_mask = &dev->coherent_dma_mask;
	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))) {
		root_device_unregister(dev);
		kunit_skip(test, "no DMA mask");
	}
	return dev;
}

/**
 * pp_test_dma_register() - create the suite's counting DMA device
 * @name: its name
 *
 * Return: 0, or the error of root_device_register().
 */
static inline int pp_test_dma_register(const char *name)
{
	struct device *dev = root_device_register(name);

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pp_test_dma.dev = dev;
	pp_test_dma_reset();
	pp_test_dma_counting(dev);
	return 0;
}

/**
 * pp_test_dma_register_recording() - create the suite's recording device
 * @name: its name
 *
 * Return: 0, or the error of root_device_register().
 */
static inline int pp_test_dma_register_recording(const char *name)
{
	pp_test_dma.record = true;
	return pp_test_dma_register(name);
}

/**
 * pp_test_dma_unregister() - remove the counting DMA device
 */
static inline void pp_test_dma_unregister(void)
{
	root_device_unregister(pp_test_dma.dev);
}

/**
 * pp_test_dma_mapped() - mappings the counting device holds now
 *
 * Return: maps minus unmaps.
 */
static inline int pp_test_dma_mapped(void)
{
	return atomic_read(&pp_test_dma.maps) -
	       atomic_read(&pp_test_dma.unmaps);
}

/**
 * pp_test_dma_expect_unmapped() - expect every map undone, each once
 * @test: the running case
 *
 * And, on a recording device, every sync inside a live mapping.
 * Waits on a recording device, which wakes the wait at each unmap: pages
 * the stack held come back after the pool's destruction, and the base
 * pool unmaps them only on its deferred retry.
 */
static inline void pp_test_dma_expect_unmapped(struct kunit *test)
{
	struct pp_test_dma *d = &pp_test_dma;
	int twice, unknown, too_many, synced_unknown;
	unsigned long flags;

	if (!wait_event_timeout(d->unmapped, !pp_test_dma_mapped(),
				PP_TEST_RELEASE_TIMEOUT))
		KUNIT_FAIL(test, "%d pages mapped, %d unmapped",
			   atomic_read(&d->maps), atomic_read(&d->unmaps));
	KUNIT_EXPECT_EQ(test, atomic_read(&d->unmaps), atomic_read(&d->maps));
	/* An unmap seen in the count has released its record's lock. */
	spin_lock_irqsave(&d->lock, flags);
	twice = d->mapped_twice;
	unknown = d->unmapped_unknown;
	too_many = d->too_many;
	synced_unknown = d->synced_unknown;
	spin_unlock_irqrestore(&d->lock, flags);
	KUNIT_EXPECT_EQ(test, twice, 0);
	KUNIT_EXPECT_EQ(test, unknown, 0);
	KUNIT_EXPECT_EQ(test, too_many, 0);
	KUNIT_EXPECT_EQ(test, synced_unknown, 0);
}

/**
 * pp_test_dma_forget_syncs() - empty a recording device's sync logs
 *
 * Cases that look for a sync in a log forget those made before, which
 * may cover the same range.
 */
static inline void pp_test_dma_forget_syncs(void)
{
	unsigned long flags;

	spin_lock_irqsave(&pp_test_dma.lock, flags);
	pp_test_dma.dev_log.n = 0;
	pp_test_dma.tx_log.n = 0;
	pp_test_dma.cpu_log.n = 0;
	spin_unlock_irqrestore(&pp_test_dma.lock, flags);
}

/**
 * pp_test_dma_last() - the newest sync of a log
 * @log: the log
 *
 * Return: the sync, or a zeroed one if the log holds none.
 */
static inline struct pp_test_dma_sync
pp_test_dma_last(const struct pp_test_dma_log *log)
{
	if (!log->n)
		return (struct pp_test_dma_sync){};
	return log->at[(log->n - 1) % PP_TEST_DMA_LOG];
}

/**
 * pp_test_dma_synced() - whether a logged sync covers a range
 * @log: the log
 * @addr: the range's DMA address
 * @size: its length
 *
 * Return: true if one of the syncs @log keeps covers all of the range.
 */
static inline bool pp_test_dma_synced(const struct pp_test_dma_log *log,
				      dma_addr_t addr, size_t size)
{
	int i;

	for (i = 0; i < min(log->n, PP_TEST_DMA_LOG); i++)
		if (log->at[i].addr <= addr &&
		    addr + size <= log->at[i].addr + log->at[i].size)
			return true;
	return false;
}

#endif /* _NET_CORE_PAGE_POOL_TEST_H */
