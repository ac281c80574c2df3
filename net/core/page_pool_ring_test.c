// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the page_pool return ring (net/core/page_pool_ring.h):
 * exact capacity, order, the consumer stepping over a claimed cell that
 * is not published yet, and many producers at once, from threads on every
 * CPU and from hard IRQ, against one consumer. The ring carries tokens
 * here, not pages: each token names its producer and its sequence
 * number, so the consumer can tell a lost, doubled or reordered one.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "page_pool_ring.h"
#include "page_pool_test.h"

/* Tokens are odd, so never NULL, and not pointers anyone follows. */
static void *pp_ring_token(unsigned int producer, unsigned int seq)
{
	return (void *)(((unsigned long)producer << 24 | seq) << 1 | 1);
}

static unsigned int pp_ring_token_producer(void *token)
{
	return ((unsigned long)token >> 1) >> 24;
}

static unsigned int pp_ring_token_seq(void *token)
{
	return ((unsigned long)token >> 1) & (BIT(24) - 1);
}

static int pp_ring_res_init(struct kunit_resource *res, void *capacity)
{
	struct pp_ring *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	if (pp_ring_init(r, *(unsigned int *)capacity, NUMA_NO_NODE)) {
		kfree(r);
		return -ENOMEM;
	}
	res->data = r;
	return 0;
}

static void pp_ring_res_free(struct kunit_resource *res)
{
	struct pp_ring *r = res->data;

	pp_ring_free(r);
	kfree(r);
}

/* A ring that goes away with the case, however the case ends. */
static struct pp_ring *pp_ring_test_ring(struct kunit *test,
					 unsigned int capacity)
{
	struct pp_ring *r = kunit_alloc_resource(test, pp_ring_res_init,
						 pp_ring_res_free, GFP_KERNEL,
						 &capacity);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

/* Store one token; the test's own producer, so the claim must succeed. */
static void pp_ring_put_token(struct kunit *test, struct pp_ring *r,
			      unsigned int seq)
{
	unsigned long index;

	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &index), 1U);
	pp_ring_publish(r, index, pp_ring_token(0, seq));
}

static void pp_ring_holds_exactly_its_capacity(struct kunit *test)
{
	struct pp_ring *r = pp_ring_test_ring(test, 3);
	unsigned long index;
	void *out[4];

	/* Three cells are wanted: the array has four, one must stay out. */
	KUNIT_EXPECT_EQ(test, pp_ring_claim(r, 5, &index), 3U);
	KUNIT_EXPECT_EQ(test, index, 0UL);
	KUNIT_EXPECT_EQ(test, pp_ring_claim(r, 1, &index), 0U);
	pp_ring_publish(r, 0, pp_ring_token(0, 0));
	pp_ring_publish(r, 1, pp_ring_token(0, 1));
	pp_ring_publish(r, 2, pp_ring_token(0, 2));
	KUNIT_EXPECT_EQ(test, pp_ring_stores(r), 3UL);

	/* Room comes back with what the consumer takes, not before. */
	KUNIT_EXPECT_EQ(test, pp_ring_consume(r, out, 1), 1U);
	KUNIT_EXPECT_EQ(test, pp_ring_claim(r, 2, &index), 1U);
	KUNIT_EXPECT_EQ(test, index, 3UL);
	pp_ring_publish(r, index, pp_ring_token(0, 3));
	KUNIT_EXPECT_EQ(test, pp_ring_consume(r, out, 4), 3U);
}

static void pp_ring_keeps_order_across_wraps(struct kunit *test)
{
	struct pp_ring *r = pp_ring_test_ring(test, 4);
	unsigned int seq = 0, want = 0, round, i, n;
	void *out[8];

	/* Start just short of the indices wrapping around, too. */
	r->head = ULONG_MAX - 4;
	r->tail = r->head;
	r->head_seen = r->head;
	/* Three at a time through four cells: every lap starts elsewhere. */
	for (round = 0; round < 10; round++) {
		for (i = 0; i < 3; i++)
			pp_ring_put_token(test, r, seq++);
		n = pp_ring_consume(r, out, ARRAY_SIZE(out));
		KUNIT_ASSERT_EQ(test, n, 3U);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, pp_ring_token_seq(out[i]), want++);
	}
	KUNIT_EXPECT_EQ(test, pp_ring_consume(r, out, ARRAY_SIZE(out)), 0U);
}

static void pp_ring_steps_over_unpublished_cell(struct kunit *test)
{
	struct pp_ring *r = pp_ring_test_ring(test, 8);
	unsigned long first;
	void *out[8];

	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 2, &first), 2U);
	/* The second producer's cell is ready, the first's is not. */
	pp_ring_publish(r, first + 1, pp_ring_token(0, 1));
	KUNIT_ASSERT_EQ(test, pp_ring_consume(r, out, 8), 1U);
	KUNIT_EXPECT_EQ(test, pp_ring_token_seq(out[0]), 1U);
	KUNIT_EXPECT_EQ(test, pp_ring_consume(r, out, 8), 0U);
	pp_ring_publish(r, first, pp_ring_token(0, 0));
	KUNIT_ASSERT_EQ(test, pp_ring_consume(r, out, 8), 1U);
	KUNIT_EXPECT_EQ(test, pp_ring_token_seq(out[0]), 0U);
	KUNIT_EXPECT_EQ(test, pp_ring_consume(r, out, 8), 0U);
}

/* Take exactly @n tokens, which must be @seqs in this order. */
static void pp_ring_expect_seqs(struct kunit *test, struct pp_ring *r,
				unsigned int max, const unsigned int *seqs,
				unsigned int n)
{
	void *out[8];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pp_ring_consume(r, out, max), n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, pp_ring_token_seq(out[i]), seqs[i]);
}

/* Cells taken ahead of a hole are handed out once and give their room
 * back, clear, once the hole is published; the next look starts where
 * the last one stopped, at a second hole, stepped over in its turn.
 * Each token's number is the index of its cell.
 */
static void pp_ring_takes_ahead_once(struct kunit *test)
{
	static const unsigned int t1[] = { 1 }, t2[] = { 2 }, t34[] = { 3, 4 };
	static const unsigned int t0[] = { 0 }, t578[] = { 5, 7, 8 };
	struct pp_ring *r = pp_ring_test_ring(test, 8);
	unsigned long first;

	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &first), 1U);
	pp_ring_put_token(test, r, 1);
	pp_ring_put_token(test, r, 2);
	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &first), 1U);
	pp_ring_put_token(test, r, 4);
	pp_ring_expect_seqs(test, r, 1, t1, 1);
	pp_ring_expect_seqs(test, r, 8, t2, 1);
	pp_ring_expect_seqs(test, r, 8, NULL, 0);
	pp_ring_publish(r, 3, pp_ring_token(0, 3));
	pp_ring_expect_seqs(test, r, 8, t34, 2);
	pp_ring_publish(r, 0, pp_ring_token(0, 0));
	pp_ring_expect_seqs(test, r, 8, t0, 1);
	pp_ring_expect_seqs(test, r, 8, NULL, 0);

	/* All eight cells are free, and none still reads as taken. */
	pp_ring_put_token(test, r, 5);
	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &first), 1U);
	pp_ring_put_token(test, r, 7);
	pp_ring_put_token(test, r, 8);
	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 4, &first), 4U);
	KUNIT_EXPECT_EQ(test, first, 9UL);
	pp_ring_expect_seqs(test, r, 8, t578, 3);
}

/* Taken ahead up to the last cell of a ring of three, not a power of
 * two: the ring is then full until the hole is published.
 */
static void pp_ring_takes_ahead_to_capacity(struct kunit *test)
{
	static const unsigned int t12[] = { 1, 2 }, t0[] = { 0 };
	struct pp_ring *r = pp_ring_test_ring(test, 3);
	unsigned long first;

	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &first), 1U);
	pp_ring_put_token(test, r, 1);
	pp_ring_put_token(test, r, 2);
	pp_ring_expect_seqs(test, r, 8, t12, 2);
	KUNIT_EXPECT_EQ(test, pp_ring_claim(r, 1, &first), 0U);
	pp_ring_expect_seqs(test, r, 8, NULL, 0);
	pp_ring_publish(r, 0, pp_ring_token(0, 0));
	pp_ring_expect_seqs(test, r, 8, t0, 1);
	KUNIT_EXPECT_EQ(test, pp_ring_claim(r, 3, &first), 3U);
	KUNIT_EXPECT_EQ(test, first, 3UL);
}

/* A hole just short of the indices wrapping around; once it is taken,
 * alone, a call that only passes cells taken ahead still gives their
 * room back.
 */
static void pp_ring_takes_ahead_across_wrap(struct kunit *test)
{
	static const unsigned int t12[] = { 1, 2 }, t0[] = { 0 };
	struct pp_ring *r = pp_ring_test_ring(test, 4);
	unsigned long hole, first;

	r->head = ULONG_MAX - 1;
	r->tail = r->head;
	r->head_seen = r->head;
	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 1, &hole), 1U);
	pp_ring_put_token(test, r, 1);
	pp_ring_put_token(test, r, 2);
	pp_ring_expect_seqs(test, r, 8, t12, 2);
	pp_ring_publish(r, hole, pp_ring_token(0, 0));
	pp_ring_expect_seqs(test, r, 1, t0, 1);
	pp_ring_expect_seqs(test, r, 8, NULL, 0);
	KUNIT_ASSERT_EQ(test, pp_ring_claim(r, 4, &first), 4U);
	KUNIT_EXPECT_EQ(test, first, 1UL);
}

#define PP_RING_THREAD_TOKENS	20000	/* per thread */
#define PP_RING_TIMER_TOKENS	2000	/* per timer */
#define PP_RING_BURST_MAX	16	/* tokens per claim, at most */
#define PP_RING_STRESS_CPUS	4	/* a thread and a timer on each */
#define PP_RING_TIMER_NS	(20 * NSEC_PER_USEC)
#define PP_RING_STRESS_STALL	(5 * HZ)	/* with nothing consumed */

/* Up to PP_RING_STRESS_CPUS CPUs each run a thread and a hard IRQ timer
 * that both produce into one ring, in claims of several cells, so claims
 * collide across CPUs and a timer lands between its own CPU's thread's
 * claim and publish. A small ring runs full, so claims come out partial;
 * one the consumer keeps from filling lets the threads claim back to
 * back, which is where two claims of one cell would show.
 */
static const unsigned int pp_ring_stress_capacities[] = { 64, 16384 };

static void pp_ring_stress_desc(const unsigned int *capacity, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u cells", *capacity);
}

KUNIT_ARRAY_PARAM(pp_ring_stress, pp_ring_stress_capacities,
		  pp_ring_stress_desc);

struct pp_ring_producer {
	struct pp_ring *ring;
	struct hrtimer timer;
	struct task_struct *thread;
	struct pp_ring_producer *timer_partner;	/* armed by the thread */
	unsigned int id;
	unsigned int tokens;	/* how many to store */
	unsigned int next;	/* the next sequence number to store */
	bool in_hardirq;	/* a timer producer found itself there */
};

struct pp_ring_stress {
	struct pp_ring *ring;
	struct pp_ring_producer producers[2 * PP_RING_STRESS_CPUS];
	unsigned int received[2 * PP_RING_STRESS_CPUS];
	unsigned int next_due[2 * PP_RING_STRESS_CPUS];
	unsigned int out_of_turn;
	unsigned int nr;
	unsigned int tokens;	/* of all producers */
};

static bool pp_ring_stress_done(const struct pp_ring_producer *p)
{
	return p->next == p->tokens;
}

/* Store up to @want of the producer's next tokens in one claim, as a
 * bulk return does; the ring may take fewer.
 *
 * Return: how many were stored.
 */
static unsigned int pp_ring_stress_store(struct pp_ring_producer *p,
					 unsigned int want)
{
	void *tokens[PP_RING_BURST_MAX];
	unsigned int i, stored;

	want = min3(want, p->tokens - p->next, (unsigned int)PP_RING_BURST_MAX);
	for (i = 0; i < want; i++)
		tokens[i] = pp_ring_token(p->id, p->next + i);
	stored = pp_ring_produce(p->ring, tokens, want);
	/* Pairs with pp_ring_stress_all_done(): the tokens are out. */
	smp_store_release(&p->next, p->next + stored);
	return stored;
}

static enum hrtimer_restart pp_ring_stress_timer(struct hrtimer *t)
{
	struct pp_ring_producer *p = container_of(t, struct pp_ring_producer,
						  timer);

	if (in_hardirq())
		p->in_hardirq = true;
	/* Without high resolution timers this fires once a tick only. */
	pp_ring_stress_store(p, PP_RING_BURST_MAX);
	if (pp_ring_stress_done(p))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(PP_RING_TIMER_NS));
	return HRTIMER_RESTART;
}

static int pp_ring_stress_thread(void *arg)
{
	struct pp_ring_producer *p = arg;
	unsigned int want, stored;

	/* Pinned: the timer fires on this thread's CPU. */
	hrtimer_start(&p->timer_partner->timer, ns_to_ktime(PP_RING_TIMER_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!pp_ring_stress_done(p) && !kthread_should_stop()) {
		/* As the pool does from process context: preemption off
		 * around the claim and publish of one token, BH off around
		 * those of several. One to four tokens per claim.
		 */
		want = 1 + p->next % 4;
		if (want == 1)
			preempt_disable();
		else
			local_bh_disable();
		stored = pp_ring_stress_store(p, want);
		if (want == 1)
			preempt_enable();
		else
			local_bh_enable();
		/* A full ring waits for the consumer, which may be here. */
		if (!stored)
			usleep_range(10, 20);
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static struct pp_ring_producer *pp_ring_stress_add(struct pp_ring_stress *s,
						   unsigned int tokens)
{
	struct pp_ring_producer *p = &s->producers[s->nr];

	p->ring = s->ring;
	p->id = s->nr++;
	p->tokens = tokens;
	s->tokens += tokens;
	return p;
}

/* One thread and one timer per CPU, up to PP_RING_STRESS_CPUS. */
static void pp_ring_stress_start(struct kunit *test, struct pp_ring_stress *s)
{
	struct pp_ring_producer *thread, *timer;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (s->nr == ARRAY_SIZE(s->producers))
			break;
		timer = pp_ring_stress_add(s, PP_RING_TIMER_TOKENS);
		hrtimer_init(&timer->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		timer->timer.function = pp_ring_stress_timer;

		thread = pp_ring_stress_add(s, PP_RING_THREAD_TOKENS);
		thread->timer_partner = timer;
		thread->thread = kthread_create(pp_ring_stress_thread, thread,
						"pp_ring_stress/%u", cpu);
		if (IS_ERR(thread->thread)) {
			/* Run with the producers started so far. */
			KUNIT_FAIL(test, "no thread for CPU %u", cpu);
			thread->thread = NULL;
			s->nr -= 2;
			s->tokens -= PP_RING_TIMER_TOKENS + PP_RING_THREAD_TOKENS;
			break;
		}
		kthread_bind(thread->thread, cpu);
		wake_up_process(thread->thread);
	}
}

static void pp_ring_stress_stop(struct pp_ring_stress *s)
{
	struct pp_ring_producer *p;

	/* Threads first: a thread arms its timer, which must stay off. */
	for (p = s->producers; p < s->producers + s->nr; p++)
		if (p->thread)
			kthread_stop(p->thread);
	for (p = s->producers; p < s->producers + s->nr; p++)
		if (!p->thread)
			hrtimer_cancel(&p->timer);
}

static bool pp_ring_stress_all_done(struct pp_ring_stress *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		/* Pairs with pp_ring_stress_store(): its tokens are out. */
		if (smp_load_acquire(&s->producers[i].next) !=
		    s->producers[i].tokens)
			return false;
	}
	return true;
}

/* Check a token against the one its producer stored before it. */
static void pp_ring_stress_check(struct kunit *test, struct pp_ring_stress *s,
				 void *token)
{
	unsigned int id = pp_ring_token_producer(token);
	unsigned int seq = pp_ring_token_seq(token);

	if (id >= s->nr) {
		KUNIT_FAIL(test, "token %#lx from no producer",
			   (unsigned long)token);
		return;
	}
	/* Report the first one out of turn, then follow the new order. */
	if (seq != s->next_due[id] && !s->out_of_turn++)
		KUNIT_FAIL(test, "producer %u: token %u came when %u was due",
			   id, seq, s->next_due[id]);
	s->next_due[id] = seq + 1;
	s->received[id]++;
}

/* The consumer took nothing for PP_RING_STRESS_STALL: say where it is
 * stuck and what is missing. Tokens claimed and not taken are in the
 * ring, published or not; any others were lost.
 */
static void pp_ring_stress_stalled(struct kunit *test,
				   struct pp_ring_stress *s, unsigned int got)
{
	unsigned long head = READ_ONCE(s->ring->head);
	/* Signed: a broken claim may leave tail behind head. Cells taken
	 * ahead are counted in @got already.
	 */
	long in_ring = pp_ring_stores(s->ring) - head - s->ring->ahead;
	unsigned int produced = 0, i;

	for (i = 0; i < s->nr; i++)
		/* Pairs with pp_ring_stress_store(), as in _all_done(). */
		produced += smp_load_acquire(&s->producers[i].next);
	KUNIT_FAIL(test,
		   "no progress for %u s at index %lu (cell %s): %u produced, %u consumed, %ld in the ring, %ld lost",
		   PP_RING_STRESS_STALL / HZ, head,
		   READ_ONCE(s->ring->cells[head & s->ring->mask]) ?
		   "published" : "unpublished", produced, got, in_ring,
		   (long)produced - got - in_ring);
}

/* Consume until every producer is done and the ring is empty, or until
 * nothing came for PP_RING_STRESS_STALL.
 */
static unsigned int pp_ring_stress_consume(struct kunit *test,
					   struct pp_ring_stress *s)
{
	unsigned long stall = jiffies + PP_RING_STRESS_STALL;
	unsigned int got = 0, n, i;
	bool last_look = false;
	void *out[16];

	for (;;) {
		n = pp_ring_consume(s->ring, out, ARRAY_SIZE(out));
		for (i = 0; i < n; i++)
			pp_ring_stress_check(test, s, out[i]);
		got += n;
		/* A consumer that takes what it took before never stalls. */
		if (got > s->tokens) {
			KUNIT_FAIL(test, "%u tokens taken of %u produced", got,
				   s->tokens);
			break;
		}
		if (n) {
			stall = jiffies + PP_RING_STRESS_STALL;
			cond_resched();
			continue;
		}
		if (last_look)
			break;
		if (time_after(jiffies, stall)) {
			pp_ring_stress_stalled(test, s, got);
			break;
		}
		/* Look once more after the last store was made. */
		last_look = pp_ring_stress_all_done(s);
		if (!last_look)
			usleep_range(10, 20);
	}
	return got;
}

static void pp_ring_many_producers_lose_nothing(struct kunit *test)
{
	struct pp_ring_stress *s;
	unsigned int got, i;
	void *left;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->ring = pp_ring_test_ring(test,
				    *(const unsigned int *)test->param_value);

	pp_ring_stress_start(test, s);
	got = pp_ring_stress_consume(test, s);
	pp_ring_stress_stop(s);

	KUNIT_EXPECT_EQ(test, got, s->tokens);
	KUNIT_EXPECT_EQ(test, s->out_of_turn, 0U);
	for (i = 0; i < s->nr; i++) {
		KUNIT_EXPECT_EQ(test, s->received[i], s->producers[i].tokens);
		if (!s->producers[i].thread)
			KUNIT_EXPECT_TRUE(test, s->producers[i].in_hardirq);
	}
	/* Nothing left over, and every claim was a store. */
	KUNIT_EXPECT_EQ(test, pp_ring_consume(s->ring, &left, 1), 0U);
	KUNIT_EXPECT_EQ(test, pp_ring_stores(s->ring), (unsigned long)s->tokens);
}

/* A returner that saw the ring open may store its page after destroy
 * has drained the ring: the page keeps the pool alive, and the release
 * work drains the ring again and frees both.
 */
static void pp_ring_store_after_destroy_frees_pool(struct kunit *test)
{
	struct page_pool_params p = {
		.pool_size = 16,
		.nid = NUMA_NO_NODE,
	};
	struct pp_test_release r;
	struct page_pool *pool;
	unsigned long index;
	struct page *page;

	pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(pool));
	pp_test_watch_release(pool, &r);
	page = pp_test_alloc(pool);
	KUNIT_ASSERT_NOT_NULL(test, page);

	KUNIT_ASSERT_EQ(test, pp_ring_claim(&pool->ring, 1, &index), 1U);
	pp_test_destroy(pool);
	/* The page is in flight: the pool must still be there. */
	KUNIT_EXPECT_FALSE(test, completion_done(&r.released));
	pp_ring_publish(&pool->ring, index, page);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
}

/* A returner on another CPU, parked inside its RCU read-side section
 * until it is let go or, with a page to store, until destroy has
 * drained the ring past the cell it claimed (and set dma_closed).
 */
struct pp_ring_reader {
	struct task_struct *task;
	struct completion inside;
	struct page_pool *pool;
	struct page *page;
	bool let_go;
	bool waited_out;
};

static bool pp_ring_reader_may_go(struct pp_ring_reader *rd)
{
	/* The claimed page keeps the pool alive until it is published. */
	return READ_ONCE(rd->let_go) ||
	       (rd->page && READ_ONCE(rd->pool->dma_closed));
}

static int pp_ring_reader_fn(void *arg)
{
	unsigned long deadline = jiffies + PP_TEST_RELEASE_TIMEOUT;
	struct pp_ring_reader *rd = arg;
	unsigned long index = 0;
	bool claimed = false;

	rcu_read_lock();
	if (rd->page)
		claimed = pp_ring_claim(&rd->pool->ring, 1, &index);
	complete(&rd->inside);
	while (!pp_ring_reader_may_go(rd) && time_before(jiffies, deadline))
		cpu_relax();
	rd->waited_out = !pp_ring_reader_may_go(rd);
	if (claimed)
		pp_ring_publish(&rd->pool->ring, index, rd->page);
	rcu_read_unlock();

	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Start @rd on a CPU other than the case's, which stays where it is. */
static void pp_ring_reader_start(struct kunit *test, struct pp_ring_reader *rd)
{
	unsigned int cpu;

	pp_test_pin_cpu();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	init_completion(&rd->inside);
	rd->task = kthread_create(pp_ring_reader_fn, rd, "pp_ring_reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(rd->task));
	kthread_bind(rd->task, cpu);
	wake_up_process(rd->task);
	wait_for_completion(&rd->inside);
}

static void pp_ring_reader_stop(struct pp_ring_reader *rd)
{
	WRITE_ONCE(rd->let_go, true);
	kthread_stop(rd->task);
	pp_test_unpin_cpu();
}

/* A device that maps for real: swiotlb under QEMU, DMA-API debug on. */
static struct device *pp_ring_dma_dev(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_HAS_DMA) || num_online_cpus() < 2)
		kunit_skip(test, "needs DMA and two CPUs");
	return pp_test_direct_dev(test, "pp_ring_dma");
}

static struct page_pool *pp_ring_dma_pool(struct kunit *test,
					  struct device *dev)
{
	struct page_pool_params p = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 16,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool = page_pool_create(&p);

	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(pool));
	return IS_ERR(pool) ? NULL : pool;
}

/* With every page back there is no returner to wait for: destroy of a
 * DMA-mapping pool returns while another CPU sits in an RCU read-side
 * section, instead of sleeping until it leaves.
 */
static void pp_ring_destroy_with_all_back_does_not_wait(struct kunit *test)
{
	struct device *dev = pp_ring_dma_dev(test);
	struct pp_ring_reader rd = {};
	struct page_pool *pool;
	struct page *page;

	pool = pp_ring_dma_pool(test, dev);
	if (pool) {
		page = pp_test_alloc(pool);
		if (page)
			page_pool_put_full_page(pool, page, false);
		pp_ring_reader_start(test, &rd);
		page_pool_destroy(pool);
		pp_ring_reader_stop(&rd);
		KUNIT_EXPECT_FALSE_MSG(test, rd.waited_out,
				       "destroy waited for an RCU grace period");
	}
	root_device_unregister(dev);
}

/* The common race at destroy: a returner saw the ring open, claimed a
 * cell and publishes its page after destroy drained the ring. Destroy
 * waits for it anyway before unmapping, so it drains the ring again
 * and frees the pool itself, instead of leaving the page to the
 * deferred free work.
 */
static void pp_ring_destroy_drains_stores_of_its_grace_period(struct kunit *test)
{
	struct device *dev = pp_ring_dma_dev(test);
	struct pp_ring_reader rd = {};
	struct pp_test_release r;
	struct page_pool *pool;
	bool freed_by_destroy;

	pool = pp_ring_dma_pool(test, dev);
	if (!pool)
		goto out;
	pp_test_watch_release(pool, &r);
	rd.pool = pool;
	rd.page = pp_test_alloc(pool);
	if (!rd.page) {
		KUNIT_FAIL(test, "no page");
		pp_test_destroy(pool);
		goto out;
	}
	pp_ring_reader_start(test, &rd);
	pp_test_destroy(pool);
	freed_by_destroy = completion_done(&r.released);
	pp_ring_reader_stop(&rd);
	KUNIT_EXPECT_FALSE(test, rd.waited_out);
	KUNIT_EXPECT_TRUE(test, freed_by_destroy);
	KUNIT_EXPECT_TRUE(test, pp_test_released(&r));
out:
	root_device_unregister(dev);
}

static struct kunit_case pp_ring_cases[] = {
	KUNIT_CASE(pp_ring_holds_exactly_its_capacity),
	KUNIT_CASE(pp_ring_keeps_order_across_wraps),
	KUNIT_CASE(pp_ring_steps_over_unpublished_cell),
	KUNIT_CASE(pp_ring_takes_ahead_once),
	KUNIT_CASE(pp_ring_takes_ahead_to_capacity),
	KUNIT_CASE(pp_ring_takes_ahead_across_wrap),
	KUNIT_CASE_PARAM(pp_ring_many_producers_lose_nothing,
			 pp_ring_stress_gen_params),
	KUNIT_CASE(pp_ring_store_after_destroy_frees_pool),
	KUNIT_CASE(pp_ring_destroy_with_all_back_does_not_wait),
	KUNIT_CASE(pp_ring_destroy_drains_stores_of_its_grace_period),
	{}
};

static struct kunit_suite pp_ring_suite = {
	.name = "page_pool_ring",
	.test_cases = pp_ring_cases,
};

kunit_test_suite(pp_ring_suite);

MODULE_DESCRIPTION("KUnit cases for the page_pool return ring");
MODULE_LICENSE("GPL");
