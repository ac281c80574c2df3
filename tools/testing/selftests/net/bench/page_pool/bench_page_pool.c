// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of the page_pool API against the page allocator.
 *
 * Loading the module runs the tests and prints one line per test:
 *
 *   page_pool_bench: test=NAME loops=OPS cycles_per_op=C.CC ns_per_op=N.NN
 *
 * between "page_pool_bench: start ..." and "page_pool_bench: done status=E"
 * (E is 0 or the first negative errno). A test that cannot run prints
 * "test=NAME skipped reason=WHY", one that fails "test=NAME failed err=E".
 * Nothing is subtracted: the "loop" test prints the cost of the empty loop.
 * Cycles come from rdtsc on x86 (UML included), get_cycles() elsewhere;
 * nanoseconds from ktime_get_ns(). The init function returns 0 once the
 * tests ran, so the module stays loaded until rmmod.
 *
 * One op is:
 *   loop               an empty loop iteration.
 *   page_o0, page_o3   alloc_pages() + __free_pages() of order 0 / 3,
 *                      GFP_KERNEL, in process context.
 *   page_o3_split1536  one order-3 alloc_pages() + __free_pages() divided
 *                      by the 1536-byte frames that fit in it (21 with 4K
 *                      pages): the cost per frame of a driver that splits
 *                      order-3 pages itself; loops counts frames.
 *   fast               page_pool_dev_alloc_pages() +
 *                      page_pool_recycle_direct() in a tasklet (softirq):
 *                      the page goes back to the pool's alloc cache.
 *   ring               page_pool_dev_alloc_pages() in process context with
 *                      BH disabled, NAPI-like, in bursts of 64 pages (a
 *                      NAPI budget); each page is then returned with
 *                      page_pool_put_full_page(pool, page, false) from
 *                      process context with BH enabled. Pages go back
 *                      through the pool's ring and come back when the
 *                      alloc side refills its cache from the ring.
 *   slow               as fast, but the page is referenced (get_page())
 *                      while it is returned and put_page() after, so the
 *                      pool releases it and every page comes from the page
 *                      allocator (in bulks, as the pool refills).
 *   frag2048           page_pool_dev_alloc_frag() of 2048 bytes from an
 *                      order-0 PP_FLAG_PAGE_FRAG pool (2 frags a page) +
 *                      page_pool_recycle_direct(), in a tasklet.
 *   frag1536           the same with 1536 bytes from an order-3 pool: 21
 *                      frags per page with 4K pages, as page_o3_split1536.
 *   bulk16             16 page_pool_dev_alloc_pages() + one
 *                      page_pool_put_page_bulk() of the 16 pages, in a
 *                      tasklet; op is one page (alloc + its share of the
 *                      bulk return through the ring).
 *   fast_dma, ring_dma, slow_dma
 *                      fast, ring, slow on a PP_FLAG_DMA_MAP |
 *                      PP_FLAG_DMA_SYNC_DEV pool for a dummy platform
 *                      device; skipped without CONFIG_HAS_DMA (UML).
 *
 * With "stats" set, a pool test also prints "test=NAME stats KEY=VALUE..."
 * with its pool's page_pool_get_stats(), to check the path the pages took.
 *
 * The cheap tests run "loops" ops, the expensive ones loops / divisor (see
 * bench_tests[]); "quick" runs 1000 ops each. Ops are timed in sections
 * of at most 2^20 ops, to bound the time spent in one softirq and to
 * reschedule between sections; only the sections are timed.
 */

#define BENCH_NAME "page_pool_bench"
#define pr_fmt(fmt) BENCH_NAME ": " fmt

#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <net/page_pool.h>

static unsigned int loops = 10000000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "ops per cheap test; expensive tests run loops/divisor");

static bool quick;
module_param(quick, bool, 0444);
MODULE_PARM_DESC(quick, "smoke test: 1000 ops per test");

static bool stats;
module_param(stats, bool, 0444);
MODULE_PARM_DESC(stats, "print the pool's stats after a pool test (CONFIG_PAGE_POOL_STATS)");

static char *tests;
module_param(tests, charp, 0444);
MODULE_PARM_DESC(tests, "comma-separated names of the tests to run (default all)");

#define BENCH_QUICK_OPS		1000
#define BENCH_SECTION_OPS	BIT(20)
#define BENCH_POOL_SIZE		1024
#define BENCH_NAPI_BUDGET	64
#define BENCH_BULK		16
#define BENCH_SPLIT_ORDER	3
#define BENCH_SPLIT_FRAME	1536
#define BENCH_SPLIT_FRAMES \
	((PAGE_SIZE << BENCH_SPLIT_ORDER) / BENCH_SPLIT_FRAME)
#define BENCH_DMA_FLAGS		(PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV)

#if defined(CONFIG_X86) || defined(CONFIG_UML_X86)
#define BENCH_CYCLES_SOURCE	"rdtsc"
#else
#define BENCH_CYCLES_SOURCE	"get_cycles"
#endif

struct bench_run;

/**
 * struct bench_test - one test of the benchmark
 * @name: name printed and matched by the "tests" parameter
 * @body: runs @iters iterations, returns 0 or a negative errno
 * @divisor: the test runs loops / @divisor ops
 * @ops_per_iter: ops one iteration of @body does
 * @softirq: @body runs in a tasklet rather than in process context
 * @pool: the test needs a page_pool, made with @pp_flags and @order
 * @pp_flags: PP_FLAG_* of the pool
 * @order: order of the pool's pages, or of the pages of a page test
 * @frag_size: size of the fragments of a frag test
 */
struct bench_test {
	const char *name;
	int (*body)(struct bench_run *run, unsigned long iters);
	unsigned int divisor;
	unsigned int ops_per_iter;
	bool softirq;
	bool pool;
	unsigned int pp_flags;
	unsigned int order;
	unsigned int frag_size;
};

/**
 * struct bench_run - state of the test being run
 * @test: the test
 * @pool: its pool, or NULL
 * @tasklet: runs a section of a softirq test
 * @done: completed by @tasklet at the end of a section
 * @iters: iterations of the section @tasklet runs
 * @cycles: cycles spent in the sections so far
 * @ns: nanoseconds spent in the sections so far
 * @err: first error of @test->body, or 0
 */
struct bench_run {
	const struct bench_test *test;
	struct page_pool *pool;
	struct tasklet_struct tasklet;
	struct completion done;
	unsigned long iters;
	u64 cycles;
	u64 ns;
	int err;
};

/* Device the DMA tests map pages for; NULL without the DMA API. */
static struct platform_device *bench_dma_pdev;

/**
 * bench_cycles() - read the cycle counter
 *
 * Return: the TSC on x86 (get_cycles() is 0 on UML), get_cycles() elsewhere.
 */
static __always_inline u64 bench_cycles(void)
{
#if defined(CONFIG_X86) || defined(CONFIG_UML_X86)
	u32 lo, hi;

	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((u64)hi << 32) | lo;
#else
	return get_cycles();
#endif
}

static int bench_loop(struct bench_run *run, unsigned long iters)
{
	unsigned long i;

	for (i = 0; i < iters; i++)
		barrier();
	return 0;
}

static int bench_page_alloc(struct bench_run *run, unsigned long iters)
{
	unsigned int order = run->test->order;
	struct page *page;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return -ENOMEM;
		__free_pages(page, order);
	}
	return 0;
}

static int bench_fast(struct bench_run *run, unsigned long iters)
{
	struct page_pool *pool = run->pool;
	struct page *page;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page)
			return -ENOMEM;
		page_pool_recycle_direct(pool, page);
	}
	return 0;
}

/**
 * bench_ring_burst() - allocate pages as a NAPI poll would
 * @pool: the pool
 * @pages: where to store the pages
 * @count: how many pages to allocate
 *
 * Allocates with BH disabled, the context the pool's alloc side expects.
 *
 * Return: the number of pages allocated, @count unless memory ran out.
 */
static unsigned int bench_ring_burst(struct page_pool *pool,
				     struct page **pages, unsigned int count)
{
	unsigned int n;

	local_bh_disable();
	for (n = 0; n < count; n++) {
		pages[n] = page_pool_dev_alloc_pages(pool);
		if (!pages[n])
			break;
	}
	local_bh_enable();
	return n;
}

static int bench_ring(struct bench_run *run, unsigned long iters)
{
	struct page *pages[BENCH_NAPI_BUDGET];
	struct page_pool *pool = run->pool;
	unsigned int n, j;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		n = bench_ring_burst(pool, pages, BENCH_NAPI_BUDGET);
		for (j = 0; j < n; j++)
			page_pool_put_full_page(pool, pages[j], false);
		if (n < BENCH_NAPI_BUDGET)
			return -ENOMEM;
	}
	return 0;
}

static int bench_slow(struct bench_run *run, unsigned long iters)
{
	struct page_pool *pool = run->pool;
	struct page *page;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page)
			return -ENOMEM;
		get_page(page);
		page_pool_recycle_direct(pool, page);
		put_page(page);
	}
	return 0;
}

static int bench_frag(struct bench_run *run, unsigned long iters)
{
	unsigned int size = run->test->frag_size;
	struct page_pool *pool = run->pool;
	unsigned int offset;
	struct page *page;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		page = page_pool_dev_alloc_frag(pool, &offset, size);
		if (!page)
			return -ENOMEM;
		page_pool_recycle_direct(pool, page);
	}
	return 0;
}

static int bench_bulk(struct bench_run *run, unsigned long iters)
{
	struct page_pool *pool = run->pool;
	void *data[BENCH_BULK];
	struct page *page;
	unsigned long i;
	int n;

	for (i = 0; i < iters; i++) {
		for (n = 0; n < BENCH_BULK; n++) {
			page = page_pool_dev_alloc_pages(pool);
			if (!page)
				break;
			data[n] = page_address(page);
		}
		page_pool_put_page_bulk(pool, data, n);
		if (n < BENCH_BULK)
			return -ENOMEM;
	}
	return 0;
}

#define BENCH_POOL_TEST(_name, _body, _div, _per, _softirq, _flags, _order) \
	{								\
		.name = _name, .body = _body, .divisor = _div,		\
		.ops_per_iter = _per, .softirq = _softirq, .pool = true,\
		.pp_flags = _flags, .order = _order,			\
	}

static const struct bench_test bench_tests[] = {
	{ .name = "loop", .body = bench_loop, .divisor = 1,
	  .ops_per_iter = 1 },
	{ .name = "page_o0", .body = bench_page_alloc, .divisor = 10,
	  .ops_per_iter = 1 },
	{ .name = "page_o3", .body = bench_page_alloc, .divisor = 20,
	  .ops_per_iter = 1, .order = 3 },
	{ .name = "page_o3_split1536", .body = bench_page_alloc, .divisor = 1,
	  .ops_per_iter = BENCH_SPLIT_FRAMES, .order = BENCH_SPLIT_ORDER },
	BENCH_POOL_TEST("fast", bench_fast, 1, 1, true, 0, 0),
	BENCH_POOL_TEST("ring", bench_ring, 4, BENCH_NAPI_BUDGET, false, 0, 0),
	BENCH_POOL_TEST("slow", bench_slow, 10, 1, true, 0, 0),
	{ .name = "frag2048", .body = bench_frag, .divisor = 1,
	  .ops_per_iter = 1, .softirq = true, .pool = true,
	  .pp_flags = PP_FLAG_PAGE_FRAG, .order = 0, .frag_size = 2048 },
	{ .name = "frag1536", .body = bench_frag, .divisor = 1,
	  .ops_per_iter = 1, .softirq = true, .pool = true,
	  .pp_flags = PP_FLAG_PAGE_FRAG, .order = BENCH_SPLIT_ORDER,
	  .frag_size = BENCH_SPLIT_FRAME },
	BENCH_POOL_TEST("bulk16", bench_bulk, 4, BENCH_BULK, true, 0, 0),
	BENCH_POOL_TEST("fast_dma", bench_fast, 1, 1, true,
			BENCH_DMA_FLAGS, 0),
	BENCH_POOL_TEST("ring_dma", bench_ring, 4, BENCH_NAPI_BUDGET, false,
			BENCH_DMA_FLAGS, 0),
	BENCH_POOL_TEST("slow_dma", bench_slow, 10, 1, true,
			BENCH_DMA_FLAGS, 0),
};

/**
 * bench_find() - look a test up by name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 *
 * Return: the test, or NULL if there is none of that name.
 */
static const struct bench_test *bench_find(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++)
		if (strlen(bench_tests[i].name) == len &&
		    !strncmp(bench_tests[i].name, name, len))
			return &bench_tests[i];
	return NULL;
}

/**
 * bench_selected() - tell whether the "tests" parameter selects a test
 * @test: the test
 *
 * Return: true if "tests" is unset or empty, or lists @test.
 */
static bool bench_selected(const struct bench_test *test)
{
	const char *tok, *end;
	bool any = false;

	for (tok = tests; tok && *tok; tok = *end ? end + 1 : end) {
		end = strchrnul(tok, ',');
		if (end == tok)
			continue;
		any = true;
		if (bench_find(tok, end - tok) == test)
			return true;
	}
	return !any;
}

/**
 * bench_check_tests() - check that "tests" names only known tests
 *
 * Return: 0, or -EINVAL after naming the first unknown test.
 */
static int bench_check_tests(void)
{
	const char *tok, *end;

	for (tok = tests; tok && *tok; tok = *end ? end + 1 : end) {
		end = strchrnul(tok, ',');
		if (end != tok && !bench_find(tok, end - tok)) {
			pr_err("unknown test '%.*s'\n", (int)(end - tok), tok);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * bench_section() - run and time a section of a test in this context
 * @run: the test run; its cycles, ns and err are updated
 * @iters: iterations to run
 */
static void bench_section(struct bench_run *run, unsigned long iters)
{
	u64 ns0, ns1, c0, c1;
	int err;

	ns0 = ktime_get_ns();
	c0 = bench_cycles();
	err = run->test->body(run, iters);
	c1 = bench_cycles();
	ns1 = ktime_get_ns();

	run->cycles += c1 - c0;
	run->ns += ns1 - ns0;
	if (err && !run->err)
		run->err = err;
}

static void bench_tasklet(struct tasklet_struct *t)
{
	struct bench_run *run = from_tasklet(run, t, tasklet);

	bench_section(run, run->iters);
	complete(&run->done);
}

/**
 * bench_section_ctx() - run a section of a test in the test's context
 * @run: the test run
 * @iters: iterations to run
 *
 * A softirq test's section runs in @run's tasklet; this waits for it.
 */
static void bench_section_ctx(struct bench_run *run, unsigned long iters)
{
	if (!run->test->softirq) {
		bench_section(run, iters);
		return;
	}
	run->iters = iters;
	reinit_completion(&run->done);
	tasklet_schedule(&run->tasklet);
	wait_for_completion(&run->done);
}

/**
 * bench_iters() - number of iterations of a test
 * @test: the test
 *
 * Return: the iterations that do loops / divisor ops (1000 if quick),
 * at least one.
 */
static unsigned long bench_iters(const struct bench_test *test)
{
	unsigned long ops = quick ? BENCH_QUICK_OPS : loops / test->divisor;

	return max(ops / test->ops_per_iter, 1UL);
}

/**
 * bench_print() - print the result line of a test
 * @test: the test
 * @ops: ops it did
 * @cycles: cycles they took
 * @ns: nanoseconds they took
 */
static void bench_print(const struct bench_test *test, u64 ops, u64 cycles,
			u64 ns)
{
	u64 c = div64_u64(cycles * 100 + ops / 2, ops);
	u64 n = div64_u64(ns * 100 + ops / 2, ops);
	u32 c_frac, n_frac;

	c = div_u64_rem(c, 100, &c_frac);
	n = div_u64_rem(n, 100, &n_frac);
	pr_info("test=%s loops=%llu cycles_per_op=%llu.%02u ns_per_op=%llu.%02u\n",
		test->name, ops, c, c_frac, n, n_frac);
}

/**
 * bench_pool_create() - make the pool of a test
 * @test: the test
 *
 * Return: the pool, or an ERR_PTR().
 */
static struct page_pool *bench_pool_create(const struct bench_test *test)
{
	struct page_pool_params pp = {
		.flags = test->pp_flags,
		.order = test->order,
		.pool_size = BENCH_POOL_SIZE,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE << test->order,
	};

	if (test->pp_flags & PP_FLAG_DMA_MAP)
		pp.dev = &bench_dma_pdev->dev;
	return page_pool_create(&pp);
}

/**
 * bench_print_stats() - print the stats of a test's pool, if asked to
 * @run: the test run, with its pool
 *
 * Shows which paths the pages took: e.g. "ring" must recycle into the
 * ring and refill from it, "slow" must release every page.
 */
static void bench_print_stats(struct bench_run *run)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_alloc_stats *a;
	struct page_pool_recycle_stats *r;
	struct page_pool_stats st = {};

	if (!stats || !page_pool_get_stats(run->pool, &st))
		return;
	a = &st.alloc_stats;
	r = &st.recycle_stats;
	pr_info("test=%s stats alloc_fast=%llu alloc_slow=%llu alloc_slow_high_order=%llu alloc_empty=%llu alloc_refill=%llu alloc_waive=%llu recycle_cached=%llu recycle_cache_full=%llu recycle_ring=%llu recycle_ring_full=%llu recycle_released_refcnt=%llu\n",
		run->test->name, a->fast, a->slow, a->slow_high_order,
		a->empty, a->refill, a->waive, r->cached, r->cache_full,
		r->ring, r->ring_full, r->released_refcnt);
#endif
}

/**
 * bench_timed() - run a test in sections and sum their time
 * @run: the test run, with its test and pool set
 * @iters: iterations to run
 */
static void bench_timed(struct bench_run *run, unsigned long iters)
{
	unsigned long per = run->test->ops_per_iter;
	unsigned long section = max(BENCH_SECTION_OPS / per, 1UL);
	unsigned long done, n;

	init_completion(&run->done);
	tasklet_setup(&run->tasklet, bench_tasklet);
	for (done = 0; done < iters && !run->err; done += n) {
		n = min(section, iters - done);
		bench_section_ctx(run, n);
		cond_resched();
	}
	/* The tasklet may still be finishing after complete(). */
	tasklet_kill(&run->tasklet);
}

/**
 * bench_skip_reason() - tell why a test cannot run here
 * @test: the test
 *
 * Return: the reason, or NULL if the test can run.
 */
static const char *bench_skip_reason(const struct bench_test *test)
{
	if (!(test->pp_flags & PP_FLAG_DMA_MAP))
		return NULL;
	if (!IS_ENABLED(CONFIG_HAS_DMA))
		return "no-dma";
	if (!bench_dma_pdev)
		return "no-device";
	return NULL;
}

/**
 * bench_one() - run one test and print its result
 * @test: the test
 *
 * Every page the test allocates is returned and its pool destroyed.
 *
 * Return: 0, or a negative errno if the test failed.
 */
static int bench_one(const struct bench_test *test)
{
	unsigned long iters = bench_iters(test);
	struct bench_run run = { .test = test };
	const char *reason = bench_skip_reason(test);

	if (reason) {
		pr_info("test=%s skipped reason=%s\n", test->name, reason);
		return 0;
	}
	if (test->pool) {
		run.pool = bench_pool_create(test);
		if (IS_ERR(run.pool)) {
			pr_err("test=%s failed err=%ld\n", test->name,
			       PTR_ERR(run.pool));
			return PTR_ERR(run.pool);
		}
	}
	bench_timed(&run, iters);
	if (run.err)
		pr_err("test=%s failed err=%d\n", test->name, run.err);
	else
		bench_print(test, (u64)iters * test->ops_per_iter, run.cycles,
			    run.ns);
	if (run.pool) {
		bench_print_stats(&run);
		page_pool_destroy(run.pool);
	}
	return run.err;
}

/**
 * bench_dma_setup() - make the device the DMA tests map pages for
 *
 * Does nothing without the DMA API or when no DMA test is selected. A
 * failure only makes the DMA tests skip.
 */
static void bench_dma_setup(void)
{
	struct platform_device *pdev;
	unsigned int i;
	bool want = false;
	int err;

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++)
		if (bench_tests[i].pp_flags & PP_FLAG_DMA_MAP &&
		    bench_selected(&bench_tests[i]))
			want = true;
	if (!IS_ENABLED(CONFIG_HAS_DMA) || !want)
		return;

	pdev = platform_device_register_simple(BENCH_NAME,
					       PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(pdev)) {
		pr_warn("no DMA device: %ld\n", PTR_ERR(pdev));
		return;
	}
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		pr_warn("no DMA mask: %d\n", err);
		platform_device_unregister(pdev);
		return;
	}
	bench_dma_pdev = pdev;
}

static void bench_dma_teardown(void)
{
	if (bench_dma_pdev)
		platform_device_unregister(bench_dma_pdev);
	bench_dma_pdev = NULL;
}

static int __init bench_page_pool_init(void)
{
	unsigned int i;
	int err, status = 0;

	err = bench_check_tests();
	if (err)
		return err;

	pr_info("start loops=%u quick=%d tests=%s cycles=%s page_size=%lu split_frames=%lu\n",
		quick ? BENCH_QUICK_OPS : loops, quick,
		tests && *tests ? tests : "all", BENCH_CYCLES_SOURCE,
		PAGE_SIZE, BENCH_SPLIT_FRAMES);
	bench_dma_setup();
	for (i = 0; i < ARRAY_SIZE(bench_tests); i++) {
		if (!bench_selected(&bench_tests[i]))
			continue;
		err = bench_one(&bench_tests[i]);
		if (err && !status)
			status = err;
	}
	bench_dma_teardown();
	pr_info("done status=%d\n", status);
	return 0;
}

static void __exit bench_page_pool_exit(void)
{
}

module_init(bench_page_pool_init);
module_exit(bench_page_pool_exit);
MODULE_DESCRIPTION("page_pool micro-benchmark");
MODULE_LICENSE("GPL");
