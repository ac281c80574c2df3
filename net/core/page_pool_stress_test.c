// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit stress case for the page_pool: for page_pool_stress_test.seconds
 * (2 by default; make stress sets more) an owner drives pools from
 * softirq with a random mix of operations while a returner thread on
 * every CPU gives pages back from thread, softirq and hard IRQ context,
 * and pools are destroyed with pages out and replaced. Every page handed
 * out carries a mark while it is out, so a page handed out twice is
 * caught; at the end every pool must be freed and no mapping left. The
 * seed is printed; page_pool_stress_test.seed= replays the owner's
 * sequence of operations.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <net/page_pool.h>
#include <net/xdp.h>

#include "page_pool_test.h"

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the owner's operations (0: a fresh one)");

static uint seconds = 2;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to run");

#define PP_STRESS_HELD		128	/* pages the owner keeps out */
#define PP_STRESS_QUEUE		256	/* handoff to a returner, power of 2 */
#define PP_STRESS_BUDGET	64	/* operations per softirq run */
#define PP_STRESS_MARK		0x70705f7374726573ULL

enum pp_stress_op {
	PP_OP_ALLOC,
	PP_OP_ALLOC_FRAG,
	PP_OP_ALLOC_FAILED,
	PP_OP_RECYCLE_DIRECT,
	PP_OP_HANDOFF,
	PP_OP_RELEASE,
	PP_OP_EXTRA_REF,
	PP_OP_UPDATE_NID,
	PP_OP_DESTROY,
	PP_OP_RETURN_THREAD,
	PP_OP_RETURN_SOFTIRQ,
	PP_OP_RETURN_HARDIRQ,
	PP_OP_MAX
};

static const char * const pp_stress_op_names[PP_OP_MAX] = {
	"alloc", "alloc_frag", "alloc_failed", "recycle_direct", "handoff",
	"release", "extra_ref", "update_nid", "destroy_with_pages_out",
	"return_thread", "return_softirq", "return_hardirq",
};

/* A page out of its pool, and where in it the holder's bytes start. */
struct pp_stress_buf {
	struct page *page;
	unsigned int offset;
};

/* Single producer (the owner), single consumer (one returner). */
struct pp_stress_queue {
	struct pp_stress_buf bufs[PP_STRESS_QUEUE];
	unsigned int head;	/* owner: release-stores after filling */
	unsigned int tail;	/* returner: release-stores after taking */
};

struct pp_stress;

struct pp_stress_returner {
	struct pp_stress *s;
	struct task_struct *task;
	struct pp_stress_queue q;
	struct hrtimer timer;
	struct pp_stress_buf irq_buf;
	bool irq_busy;
	struct rnd_state rnd;
};

struct pp_stress {
	struct page_pool *pool;
	bool frag;
	struct rnd_state rnd;
	struct pp_stress_buf held[PP_STRESS_HELD];
	unsigned int nheld;
	struct pp_stress_returner *ret;
	unsigned int nret;
	atomic_long_t ops[PP_OP_MAX];
	atomic_long_t queue_full;
	bool backlog;
	atomic_t double_handouts;
	atomic_t pools_freed;
	unsigned int pools_created;
	struct xdp_mem_info mem;
	bool stop;
};

static struct pp_stress *pp_stress_running;

static u32 pp_stress_rand(struct rnd_state *rnd, u32 below)
{
	return prandom_u32_state(rnd) % below;
}

static u64 *pp_stress_mark_of(const struct pp_stress_buf *b)
{
	return page_address(b->page) + b->offset;
}

/* A page leaving the pool must not be out already. */
static void pp_stress_mark(struct pp_stress *s, struct pp_stress_buf *b)
{
	u64 *mark = pp_stress_mark_of(b);

	if (*mark == PP_STRESS_MARK)
		atomic_inc(&s->double_handouts);
	*mark = PP_STRESS_MARK;
}

static void pp_stress_unmark(struct pp_stress_buf *b)
{
	*pp_stress_mark_of(b) = 0;
}

static void pp_stress_count(struct pp_stress *s, enum pp_stress_op op)
{
	atomic_long_inc(&s->ops[op]);
}

/* Give a page back as a non-owner: only the page knows its pool. */
static void pp_stress_put(struct pp_stress_buf *b)
{
	pp_stress_unmark(b);
	page_pool_put_full_page(b->page->pp, b->page, false);
}

static void pp_stress_disconnect(void *allocator)
{
	atomic_inc(&pp_stress_running->pools_freed);
}

static int pp_stress_new_pool(struct pp_stress *s)
{
	bool map = IS_ENABLED(CONFIG_DMA_OPS) && pp_stress_rand(&s->rnd, 2);
	struct page_pool_params p = {
		.flags = map ? PP_FLAG_DMA_MAP : 0,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = pp_test_dma.dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool;

	s->frag = pp_stress_rand(&s->rnd, 2);
	if (s->frag)
		p.flags |= PP_FLAG_PAGE_FRAG;
	pool = page_pool_create(&p);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	s->mem.type = MEM_TYPE_PAGE_POOL;
	page_pool_use_xdp_mem(pool, pp_stress_disconnect, &s->mem);
	s->pool = pool;
	s->pools_created++;
	return 0;
}

/* Process context, the owner's softirq not running: as a driver would
 * at ifdown, with pages still held by the stack and by other CPUs.
 */
static void pp_stress_destroy_pool(struct pp_stress *s)
{
	page_pool_destroy(s->pool);
	page_pool_destroy(s->pool);
	s->pool = NULL;
}

static void pp_stress_alloc(struct pp_stress *s)
{
	struct pp_stress_buf *b = &s->held[s->nheld];
	unsigned int size;

	b->offset = 0;
	if (s->frag) {
		size = 64 + pp_stress_rand(&s->rnd, 2048);
		b->page = page_pool_dev_alloc_frag(s->pool, &b->offset, size);
	} else {
		b->page = page_pool_dev_alloc_pages(s->pool);
	}
	if (!b->page) {
		pp_stress_count(s, PP_OP_ALLOC_FAILED);
		return;
	}
	pp_stress_mark(s, b);
	s->nheld++;
	pp_stress_count(s, s->frag ? PP_OP_ALLOC_FRAG : PP_OP_ALLOC);
}

static bool pp_stress_handoff(struct pp_stress *s, struct pp_stress_buf *b)
{
	struct pp_stress_returner *r = &s->ret[pp_stress_rand(&s->rnd, s->nret)];
	unsigned int head = r->q.head;

	/* Pairs with the returner's release of @tail: the slot is free. */
	if (head - smp_load_acquire(&r->q.tail) >= PP_STRESS_QUEUE) {
		atomic_long_inc(&s->queue_full);
		s->backlog = true;
		return false;
	}
	r->q.bufs[head % PP_STRESS_QUEUE] = *b;
	/* Publish the slot to the returner. */
	smp_store_release(&r->q.head, head + 1);
	pp_stress_count(s, PP_OP_HANDOFF);
	return true;
}

/* One held page, picked at random, leaves the owner in one of the ways
 * a driver and the stack let pages go.
 */
static void pp_stress_let_go(struct pp_stress *s, u32 how)
{
	unsigned int i = pp_stress_rand(&s->rnd, s->nheld);
	struct pp_stress_buf b = s->held[i];
	struct page *page = b.page;
	bool own = page->pp == s->pool;

	s->held[i] = s->held[--s->nheld];
	if (how < 30 && own) {
		/* XDP_DROP in the owner's NAPI. */
		pp_stress_unmark(&b);
		page_pool_put_full_page(s->pool, page, true);
		pp_stress_count(s, PP_OP_RECYCLE_DIRECT);
	} else if (how < 45 && !s->frag && own) {
		/* An skb not marked for recycling. */
		pp_stress_unmark(&b);
		page_pool_release_page(s->pool, page);
		put_page(page);
		pp_stress_count(s, PP_OP_RELEASE);
	} else if (how < 55) {
		/* Someone else still holds the page when it comes back. */
		get_page(page);
		pp_stress_put(&b);
		put_page(page);
		pp_stress_count(s, PP_OP_EXTRA_REF);
	} else if (!pp_stress_handoff(s, &b)) {
		pp_stress_put(&b);
		pp_stress_count(s, PP_OP_RETURN_SOFTIRQ);
	}
}

/* Softirq: a NAPI poll's worth of random operations. */
static void pp_stress_napi(void *arg)
{
	struct pp_stress *s = arg;
	int budget = PP_STRESS_BUDGET;
	u32 roll;
	int nid;

	while (budget--) {
		roll = pp_stress_rand(&s->rnd, 100);
		if (roll < 3) {
			/* A node with memory, or none: the base pool would
			 * allocate from any node it is given.
			 */
			nid = (int)pp_stress_rand(&s->rnd, nr_node_ids + 1) - 1;
			if (nid >= 0 && !node_state(nid, N_MEMORY))
				nid = NUMA_NO_NODE;
			page_pool_update_nid(s->pool, nid);
			pp_stress_count(s, PP_OP_UPDATE_NID);
		} else if (s->nheld < PP_STRESS_HELD &&
			   (roll < 50 || !s->nheld)) {
			pp_stress_alloc(s);
		} else if (s->nheld) {
			pp_stress_let_go(s, pp_stress_rand(&s->rnd, 100));
		}
	}
}

static enum hrtimer_restart pp_stress_irq_fn(struct hrtimer *t)
{
	struct pp_stress_returner *r = container_of(t, typeof(*r), timer);

	pp_stress_put(&r->irq_buf);
	/* Pairs with the returner's acquire: the page is back. */
	smp_store_release(&r->irq_busy, false);
	return HRTIMER_NORESTART;
}

/* Give @b back from a hard IRQ on this CPU, and wait for it. */
static void pp_stress_put_hardirq(struct pp_stress_returner *r,
				  struct pp_stress_buf *b)
{
	r->irq_buf = *b;
	r->irq_busy = true;
	hrtimer_start(&r->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
	/* Pairs with the timer's release: it is done with the page. */
	while (smp_load_acquire(&r->irq_busy))
		cpu_relax();
}

static void pp_stress_return_one(struct pp_stress_returner *r,
				 struct pp_stress_buf *b)
{
	struct pp_stress *s = r->s;
	u32 how = pp_stress_rand(&r->rnd, 3);

	/* The base pool's ring takes no returns from hard IRQ. */
	if (how == 2 && IS_ENABLED(CONFIG_PAGE_POOL_KUNIT_TEST_BASE_POOL))
		how = 1;
	if (how == 0) {
		pp_stress_put(b);
		pp_stress_count(s, PP_OP_RETURN_THREAD);
	} else if (how == 1) {
		local_bh_disable();
		pp_stress_put(b);
		local_bh_enable();
		pp_stress_count(s, PP_OP_RETURN_SOFTIRQ);
	} else {
		pp_stress_put_hardirq(r, b);
		pp_stress_count(s, PP_OP_RETURN_HARDIRQ);
	}
}

/* Take everything queued so far; Return: how many. */
static unsigned int pp_stress_drain(struct pp_stress_returner *r)
{
	unsigned int tail = r->q.tail, head, n = 0;

	/* Pairs with the owner's release: the slots are filled. */
	head = smp_load_acquire(&r->q.head);
	while (tail != head) {
		pp_stress_return_one(r, &r->q.bufs[tail % PP_STRESS_QUEUE]);
		tail++;
		n++;
	}
	/* Hand the slots back to the owner. */
	smp_store_release(&r->q.tail, tail);
	return n;
}

static int pp_stress_returner_fn(void *arg)
{
	struct pp_stress_returner *r = arg;

	while (!kthread_should_stop()) {
		if (!pp_stress_drain(r))
			cond_resched();
	}
	pp_stress_drain(r);
	return 0;
}

static int pp_stress_start_returners(struct kunit *test, struct pp_stress *s,
				     u64 s0)
{
	unsigned int cpu, i = 0;

	s->nret = num_online_cpus();
	s->ret = kunit_kcalloc(test, s->nret, sizeof(*s->ret), GFP_KERNEL);
	if (!s->ret)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		struct pp_stress_returner *r = &s->ret[i];

		if (i == s->nret)
			break;
		r->s = s;
		prandom_seed_state(&r->rnd, s0 + cpu + 1);
		hrtimer_init(&r->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		r->timer.function = pp_stress_irq_fn;
		r->task = kthread_create(pp_stress_returner_fn, r,
					 "pp_stress/%u", cpu);
		if (IS_ERR(r->task))
			return PTR_ERR(r->task);
		kthread_bind(r->task, cpu);
		wake_up_process(r->task);
		i++;
	}
	s->nret = i;
	return 0;
}

static void pp_stress_stop_returners(struct pp_stress *s)
{
	unsigned int i;

	for (i = 0; i < s->nret; i++)
		if (!IS_ERR_OR_NULL(s->ret[i].task))
			kthread_stop(s->ret[i].task);
}

static void pp_stress_report(struct kunit *test, struct pp_stress *s)
{
	long total = 0, n;
	int op;

	for (op = 0; op < PP_OP_MAX; op++) {
		n = atomic_long_read(&s->ops[op]);
		total += n;
		kunit_info(test, "ops %s %ld\n", pp_stress_op_names[op], n);
	}
	kunit_info(test, "ops total %ld in %u pools\n", total,
		   s->pools_created);
	kunit_info(test, "handoffs refused, queue full: %ld\n",
		   atomic_long_read(&s->queue_full));
}

static void pp_stress_random_mix(struct kunit *test)
{
	u64 s0 = seed ?: get_random_u64();
	unsigned long end;
	struct pp_stress *s;
	int err;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	kunit_info(test, "seed %llu, %u s\n", s0, seconds);
	prandom_seed_state(&s->rnd, s0);
	pp_stress_running = s;

	pp_test_pin_cpu();
	err = pp_stress_new_pool(s);
	KUNIT_ASSERT_EQ(test, err, 0);
	err = pp_stress_start_returners(test, s, s0);
	end = jiffies + seconds * HZ;
	while (!err && time_before(jiffies, end)) {
		pp_test_in_softirq(pp_stress_napi, s);
		/* A full queue means its returner has not run: sleep, so that
		 * the returners (the one on this CPU too) get to drain, and
		 * most returns are not the owner's own.
		 */
		if (s->backlog) {
			s->backlog = false;
			usleep_range(20, 50);
		}
		if (!pp_stress_rand(&s->rnd, 200)) {
			pp_stress_destroy_pool(s);
			pp_stress_count(s, PP_OP_DESTROY);
			err = pp_stress_new_pool(s);
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, err, 0);

	while (s->nheld)
		pp_stress_put(&s->held[--s->nheld]);
	pp_stress_stop_returners(s);
	if (s->pool)
		pp_stress_destroy_pool(s);
	pp_test_unpin_cpu();

	/* The last page of each pool frees it, or its retry work does. */
	end = jiffies + PP_TEST_RELEASE_TIMEOUT;
	while (atomic_read(&s->pools_freed) != s->pools_created &&
	       time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&s->pools_freed),
			    s->pools_created, "pools still waiting for pages");
	KUNIT_EXPECT_EQ(test, atomic_read(&s->double_handouts), 0);
	KUNIT_EXPECT_EQ(test, pp_test_dma_mapped(), 0);
	pp_stress_report(test, s);
	kunit_info(test, "unaccounted: %d pools, %d mappings, %d double hand-outs\n",
		   s->pools_created - atomic_read(&s->pools_freed),
		   pp_test_dma_mapped(), atomic_read(&s->double_handouts));
}

static int pp_stress_suite_init(struct kunit_suite *suite)
{
	return pp_test_dma_register("page_pool_stress_dma");
}

static void pp_stress_suite_exit(struct kunit_suite *suite)
{
	pp_test_dma_unregister();
}

static struct kunit_case pp_stress_cases[] = {
	KUNIT_CASE(pp_stress_random_mix),
	{}
};

static struct kunit_suite pp_stress_suite = {
	.name = "page_pool_stress",
	.suite_init = pp_stress_suite_init,
	.suite_exit = pp_stress_suite_exit,
	.test_cases = pp_stress_cases,
};

kunit_test_suite(pp_stress_suite);

MODULE_DESCRIPTION("KUnit stress case for the page_pool");
MODULE_LICENSE("GPL");
