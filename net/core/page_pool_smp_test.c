// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for page_pool returns from another CPU: the RX side
 * allocates in softirq on one CPU while a thread on another CPU frees
 * the pages back, as when skbs are consumed by a socket reader elsewhere.
 * Every page handed out must come back, and the pool must then go away.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <net/page_pool.h>

#include "page_pool_test.h"

#define PP_SMP_PAGES	100000
#define PP_SMP_SLOTS	1024	/* handoff queue, a power of two */
#define PP_SMP_BATCH	64	/* one NAPI budget per softirq run */

/* Single-producer, single-consumer handoff from the allocating CPU to
 * the returning one: the producer publishes a slot with a release store
 * of @head, the consumer frees it with a release store of @tail.
 */
struct pp_smp {
	struct page_pool *pool;
	struct page *slots[PP_SMP_SLOTS];
	unsigned int head;
	unsigned int tail;
	unsigned int allocated;
	unsigned int returned;
	unsigned int alloc_failed;
};

/* Softirq: allocate up to a budget of pages into free handoff slots. */
static void pp_smp_alloc_batch(void *arg)
{
	struct pp_smp *s = arg;
	int budget = PP_SMP_BATCH;
	unsigned int head, tail;
	struct page *page;

	head = s->head;
	/* Pairs with the returner's release: its slots are free to reuse. */
	tail = smp_load_acquire(&s->tail);

	while (budget-- && head - tail < PP_SMP_SLOTS &&
	       s->allocated < PP_SMP_PAGES) {
		page = page_pool_dev_alloc_pages(s->pool);
		if (!page) {
			s->alloc_failed++;
			break;
		}
		s->slots[head % PP_SMP_SLOTS] = page;
		head++;
		s->allocated++;
	}
	/* Publish the slots filled above to the returner. */
	smp_store_release(&s->head, head);
}

/* The other CPU: return every page it is handed, from process context. */
static int pp_smp_returner(void *arg)
{
	struct pp_smp *s = arg;
	unsigned int tail = s->tail, head;

	while (!kthread_should_stop()) {
		/* Pairs with the allocator's release: the slots are filled. */
		head = smp_load_acquire(&s->head);
		if (head == tail) {
			cond_resched();
			continue;
		}
		while (tail != head) {
			page_pool_put_full_page(s->pool,
						s->slots[tail % PP_SMP_SLOTS],
						false);
			tail++;
			s->returned++;
		}
		/* Hand the emptied slots back to the allocator. */
		smp_store_release(&s->tail, tail);
	}
	return 0;
}

/* Keep the case on its CPU (tasklets run where they are scheduled)
 * and start @fn(@arg) on another one.
 *
 * Return: the thread, or an error pointer.
 */
static struct task_struct *pp_smp_start_returner(int (*fn)(void *arg),
						 void *arg, const char *name)
{
	unsigned int here = raw_smp_processor_id();
	struct task_struct *returner;

	set_cpus_allowed_ptr(current, cpumask_of(here));
	returner = kthread_create(fn, arg, "%s", name);
	if (IS_ERR(returner))
		return returner;
	kthread_bind(returner, cpumask_any_but(cpu_online_mask, here));
	wake_up_process(returner);
	return returner;
}

/* How long a wait on the other CPU may see no progress before the
 * case fails: a lost page or a stuck thread must not hang the suite.
 */
#define PP_SMP_STALL	(5 * HZ)

/* Wait until the other CPU has moved @count to @target.
 *
 * Return: true if it did; false, with the case failed, once it made no
 * progress for PP_SMP_STALL.
 */
static bool pp_smp_wait(struct kunit *test, const unsigned int *count,
			unsigned int target, const char *what)
{
	unsigned long stall = jiffies + PP_SMP_STALL;
	unsigned int last = READ_ONCE(*count), now;

	/* Pairs with the other CPU's release of @count. */
	while ((now = smp_load_acquire(count)) != target) {
		if (now != last) {
			last = now;
			stall = jiffies + PP_SMP_STALL;
		} else if (time_after(jiffies, stall)) {
			KUNIT_FAIL(test, "%s: stuck at %u of %u for %u s", what,
				   now, target, PP_SMP_STALL / HZ);
			return false;
		}
		cond_resched();
	}
	return true;
}

static void pp_smp_cross_cpu_returns(struct kunit *test)
{
	struct page_pool_params p = {
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
	};
	struct pp_test_release r;
	struct task_struct *returner;
	struct pp_smp *s;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->pool));
	pp_test_watch_release(s->pool, &r);

	/* Allocate on this CPU, return on another. */
	returner = pp_smp_start_returner(pp_smp_returner, s, "pp_smp_return");
	KUNIT_ASSERT_FALSE(test, IS_ERR(returner));

	while (s->allocated < PP_SMP_PAGES && s->alloc_failed < 1000) {
		pp_test_in_softirq(pp_smp_alloc_batch, s);
		cond_resched();
	}
	/* Wait until the returner has taken every page handed over. */
	pp_smp_wait(test, &s->tail, s->head, "pages returned");
	kthread_stop(returner);
	set_cpus_allowed_ptr(current, cpu_possible_mask);

	KUNIT_EXPECT_EQ(test, s->allocated, (unsigned int)PP_SMP_PAGES);
	KUNIT_EXPECT_EQ(test, s->returned, s->allocated);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats st = {};

		page_pool_get_stats(s->pool, &st);
		/* Every return went through the ring, or was freed when full. */
		KUNIT_EXPECT_EQ(test, st.recycle_stats.ring +
				st.recycle_stats.ring_full, (u64)s->returned);
		KUNIT_EXPECT_EQ(test, st.recycle_stats.cached, 0ULL);
	}
#endif
	/* Pages in equal pages out: the pool can go at once. */
	pp_test_destroy(s->pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

/* ---- the last fragment of a page, freed on two CPUs at once ---- */

#define PP_SMP_RACE_PAGES	20000

/* The two returners walk the same batch of pages, each page split in
 * two fragments, in the same order and at the same time: for every
 * page, each drops one fragment, so both race to drop the last one.
 */
struct pp_smp_race {
	struct page_pool *pool;
	struct page *pages[PP_SMP_BATCH];
	unsigned int nr;
	unsigned int round;	/* batches published by the allocator */
	unsigned int done;	/* batches the other CPU finished */
	unsigned int alloc_failed;
};

/* Softirq: a batch of whole pages, each made of two fragments. */
static void pp_smp_race_alloc(void *arg)
{
	struct pp_smp_race *s = arg;
	struct page *page;

	for (s->nr = 0; s->nr < PP_SMP_BATCH; s->nr++) {
		page = page_pool_dev_alloc_pages(s->pool);
		if (!page) {
			s->alloc_failed++;
			break;
		}
		page_pool_fragment_page(page, 2);
		s->pages[s->nr] = page;
	}
}

static void pp_smp_race_put_batch(struct pp_smp_race *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		page_pool_put_full_page(s->pool, s->pages[i], false);
}

/* The other CPU: drop one fragment of each page of every batch. */
static int pp_smp_race_returner(void *arg)
{
	struct pp_smp_race *s = arg;
	unsigned int seen = 0;

	while (!kthread_should_stop()) {
		/* Pairs with the allocator's release: the batch is there. */
		if (smp_load_acquire(&s->round) == seen) {
			cond_resched();
			continue;
		}
		seen++;
		pp_smp_race_put_batch(s);
		/* Hand the batch's array back to the allocator. */
		smp_store_release(&s->done, seen);
	}
	return 0;
}

static void pp_smp_last_fragment_on_two_cpus(struct kunit *test)
{
	struct page_pool_params p = {
		.flags = PP_FLAG_PAGE_FRAG,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
	};
	struct pp_test_release r;
	struct task_struct *returner;
	struct pp_smp_race *s;
	unsigned int pages = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->pool));
	pp_test_watch_release(s->pool, &r);

	returner = pp_smp_start_returner(pp_smp_race_returner, s,
					 "pp_smp_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(returner));

	while (pages < PP_SMP_RACE_PAGES && s->alloc_failed < 1000) {
		pp_test_in_softirq(pp_smp_race_alloc, s);
		if (!s->nr)
			continue;
		pages += s->nr;
		/* Go: both CPUs drop their fragments of the batch now. */
		smp_store_release(&s->round, s->round + 1);
		pp_smp_race_put_batch(s);
		if (!pp_smp_wait(test, &s->done, s->round, "batches dropped"))
			break;
	}
	kthread_stop(returner);
	set_cpus_allowed_ptr(current, cpu_possible_mask);

	KUNIT_EXPECT_GE(test, pages, (unsigned int)PP_SMP_RACE_PAGES);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats st = {};

		page_pool_get_stats(s->pool, &st);
		/* Each page came back exactly once, whoever dropped last. */
		KUNIT_EXPECT_EQ(test, st.recycle_stats.ring +
				st.recycle_stats.ring_full +
				st.recycle_stats.released_refcnt, (u64)pages);
	}
#endif
	/* Nothing leaked: the pool goes at once. A page given back twice
	 * would be counted released twice, which the pool reports.
	 */
	pp_test_destroy(s->pool);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

/* ---- two CPUs returning into the ring at once ---- */

#define PP_SMP_PAIR_ROUNDS	3000
#define PP_SMP_PAIR_HALF	32	/* pages each CPU returns per round */
/* Written into a page while the case holds it. */
#define PP_SMP_OUT_MARK		0x6f75742dUL

struct pp_smp_pair {
	struct page_pool *pool;
	struct page *pages[2 * PP_SMP_PAIR_HALF];
	unsigned int nr;
	unsigned int round;	/* batches published by the allocator */
	unsigned int done;	/* batches the other CPU gave back */
	unsigned int alloc_failed;
	unsigned int twice;	/* pages handed out while still out */
};

/* Softirq: a batch of pages, each checked and marked as out. */
static void pp_smp_pair_alloc(void *arg)
{
	struct pp_smp_pair *s = arg;
	unsigned long *mark;
	struct page *page;

	for (s->nr = 0; s->nr < ARRAY_SIZE(s->pages); s->nr++) {
		page = page_pool_dev_alloc_pages(s->pool);
		if (!page) {
			s->alloc_failed++;
			break;
		}
		mark = page_address(page);
		if (*mark == PP_SMP_OUT_MARK)
			s->twice++;
		*mark = PP_SMP_OUT_MARK;
		s->pages[s->nr] = page;
	}
}

/* Give back the pages [@from, @to) of the batch through the ring. */
static void pp_smp_pair_put(struct pp_smp_pair *s, unsigned int from,
			    unsigned int to)
{
	unsigned int i;

	for (i = from; i < min(to, s->nr); i++) {
		*(unsigned long *)page_address(s->pages[i]) = 0;
		page_pool_put_full_page(s->pool, s->pages[i], false);
	}
}

static int pp_smp_pair_returner(void *arg)
{
	struct pp_smp_pair *s = arg;
	unsigned int seen = 0;

	while (!kthread_should_stop()) {
		/* Pairs with the allocator's release: the batch is there. */
		if (smp_load_acquire(&s->round) == seen) {
			cond_resched();
			continue;
		}
		seen++;
		pp_smp_pair_put(s, PP_SMP_PAIR_HALF, 2 * PP_SMP_PAIR_HALF);
		/* Hand the batch's array back to the allocator. */
		smp_store_release(&s->done, seen);
	}
	return 0;
}

/* Both CPUs return their half of each batch at the same time, so that
 * their claims on the ring race: no page may be lost in the ring (the
 * pool would not go at destroy) nor come out of it twice.
 */
static void pp_smp_two_cpus_fill_ring_at_once(struct kunit *test)
{
	struct page_pool_params p = {
		.pool_size = 4 * PP_SMP_PAIR_HALF,
		.nid = NUMA_NO_NODE,
	};
	struct pp_test_release r;
	struct task_struct *returner;
	struct pp_smp_pair *s;
	u64 returned = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->pool));
	pp_test_watch_release(s->pool, &r);

	returner = pp_smp_start_returner(pp_smp_pair_returner, s,
					 "pp_smp_pair");
	KUNIT_ASSERT_FALSE(test, IS_ERR(returner));

	while (s->round < PP_SMP_PAIR_ROUNDS && s->alloc_failed < 1000) {
		pp_test_in_softirq(pp_smp_pair_alloc, s);
		if (!s->nr)
			continue;
		returned += s->nr;
		/* Go: each CPU gives back its half now. */
		smp_store_release(&s->round, s->round + 1);
		pp_smp_pair_put(s, 0, PP_SMP_PAIR_HALF);
		if (!pp_smp_wait(test, &s->done, s->round, "batches returned"))
			break;
	}
	kthread_stop(returner);
	set_cpus_allowed_ptr(current, cpu_possible_mask);

	KUNIT_EXPECT_EQ(test, s->round, (unsigned int)PP_SMP_PAIR_ROUNDS);
	KUNIT_EXPECT_EQ(test, s->twice, 0U);
#ifdef CONFIG_PAGE_POOL_STATS
	{
		struct page_pool_stats st = {};

		page_pool_get_stats(s->pool, &st);
		/* Every return claimed a cell of its own, or found none. */
		KUNIT_EXPECT_EQ(test, st.recycle_stats.ring +
				st.recycle_stats.ring_full, returned);
	}
#endif
	pp_test_destroy(s->pool);
	KUNIT_EXPECT_TRUE_MSG(test, pp_test_released(&r),
			      "a page never came back out of the ring");
}

static struct kunit_case pp_smp_cases[] = {
	KUNIT_CASE(pp_smp_cross_cpu_returns),
	KUNIT_CASE(pp_smp_last_fragment_on_two_cpus),
	KUNIT_CASE(pp_smp_two_cpus_fill_ring_at_once),
	{}
};

static struct kunit_suite pp_smp_suite = {
	.name = "page_pool_smp",
	.test_cases = pp_smp_cases,
};

kunit_test_suite(pp_smp_suite);

MODULE_DESCRIPTION("KUnit cases for page_pool returns from other CPUs");
MODULE_LICENSE("GPL");
