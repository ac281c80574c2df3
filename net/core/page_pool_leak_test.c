// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the leak trace (page_pool_leak.c): each page out of a
 * traced pool is attributed to the stack that last took it, the driver's
 * allocation or the receive path that marked its skb for recycling, and
 * is forgotten when it comes back. The suite starts tracing for the rest
 * of the boot: it cannot be stopped.
 */
#include <kunit/test.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <net/page_pool.h>

#include "page_pool_leak.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct pp_leak_test {
	struct page_pool *pool;
	struct page_pool_holders holders;
};

/* Whether one frame of @h's group @g is in function @fn. */
static bool pp_leak_stack_has(const struct page_pool_holder *g,
			      const char *fn)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long *frames;
	unsigned int i, n;

	n = stack_depot_fetch(g->stack, &frames);
	for (i = 0; i < n; i++) {
		sprint_symbol_no_offset(sym, frames[i]);
		if (!strcmp(sym, fn))
			return true;
	}
	return false;
}

static int pp_leak_test_init(struct kunit *test)
{
	struct page_pool_params p = {
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
	};
	struct pp_leak_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, page_pool_leak_trace_start(), 0);
	t->pool = page_pool_create(&p);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->pool));
	test->priv = t;
	return 0;
}

static void pp_leak_test_exit(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;

	page_pool_destroy(t->pool);
}

/* The functions whose names the cases look for in the recorded stacks.
 * Each does something after its call, so that the call is not a tail
 * call: a jump leaves no frame of the caller (x86, without frame
 * pointers), and the stack would name the function above it instead.
 */
static noinline struct page *pp_leak_take_in_refill(struct page_pool *pool)
{
	struct page *page = page_pool_alloc_pages(pool, GFP_KERNEL);

	barrier();
	return page;
}

/* @n pages from one call site: a stack also says where in its caller
 * each frame was, so a loop the compiler unrolls would make several.
 */
static noinline void pp_leak_refill_n(struct page_pool *pool,
				      struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pages[i] = pp_leak_take_in_refill(pool);
}

/* Not GFP_KERNEL as above: the compiler would fold two identical
 * functions into one, and both names would then be the same frame.
 */
static noinline struct page *pp_leak_take_in_rescue(struct page_pool *pool)
{
	struct page *page = page_pool_alloc_pages(pool, GFP_ATOMIC);

	barrier();
	return page;
}

/* Pages go by stack, the one holding most is named, and all go back. */
static void pp_leak_groups_by_stack(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	const struct page_pool_holder *top;
	struct page *pages[4];
	unsigned int i;

	pp_leak_refill_n(t->pool, pages, 3);
	pages[3] = pp_leak_take_in_rescue(t->pool);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);

	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 4);
	KUNIT_EXPECT_EQ(test, t->holders.groups, 2);
	KUNIT_EXPECT_EQ(test, t->holders.others, 0);
	top = page_pool_top_holder(&t->holders);
	KUNIT_EXPECT_EQ(test, top->pages, 3);
	KUNIT_EXPECT_TRUE(test, pp_leak_stack_has(top, "pp_leak_take_in_refill"));
	KUNIT_EXPECT_FALSE(test, pp_leak_stack_has(top, "pp_leak_take_in_rescue"));

	page_pool_put_full_page(t->pool, pages[0], false);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 3);
	top = page_pool_top_holder(&t->holders);
	KUNIT_EXPECT_EQ(test, top->pages, 2);
	for (i = 1; i < 4; i++)
		page_pool_put_full_page(t->pool, pages[i], false);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
}

static noinline void pp_leak_hand_to_stack(struct sk_buff *skb)
{
	skb_mark_for_recycle(skb);
	barrier();
}

/* The receive path that marks an skb takes over its pages' records. */
static void pp_leak_skb_names_receive_path(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	const struct page_pool_holder *top;
	struct sk_buff *skb;
	struct page *page;

	page = pp_leak_take_in_refill(t->pool);
	KUNIT_ASSERT_NOT_NULL(test, page);
	skb = build_skb(page_address(page), PAGE_SIZE);
	if (!skb)
		page_pool_put_full_page(t->pool, page, false);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	pp_leak_hand_to_stack(skb);

	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 1);
	top = page_pool_top_holder(&t->holders);
	KUNIT_EXPECT_TRUE(test, pp_leak_stack_has(top, "pp_leak_hand_to_stack"));
	KUNIT_EXPECT_FALSE(test, pp_leak_stack_has(top, "pp_leak_take_in_refill"));

	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
}

/* The warning of a pool with pages out names the stack holding most. */
static void pp_leak_warning_names_top_holder(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	struct page *pages[3];
	unsigned int i;
	char *buf;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, page_pool_format_top_holder(t->pool, buf,
							  PAGE_SIZE), 0);
	pages[0] = pp_leak_take_in_rescue(t->pool);
	pp_leak_refill_n(t->pool, pages + 1, 2);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);

	KUNIT_EXPECT_LT(test, 0, page_pool_format_top_holder(t->pool, buf,
							     PAGE_SIZE));
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "2 of its pages out "),
			      "%s", buf);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "pp_leak_take_in_refill+"));
	KUNIT_EXPECT_NULL(test, strstr(buf, "pp_leak_take_in_rescue"));
	for (i = 0; i < 3; i++)
		page_pool_put_full_page(t->pool, pages[i], false);
}

/* A page cut in fragments is out until its last fragment is back. */
static void pp_leak_fragments_keep_the_page(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	unsigned int offset;
	struct page *a, *b;

	a = page_pool_alloc_frag(t->pool, &offset, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = page_pool_alloc_frag(t->pool, &offset, 256, GFP_KERNEL);
	KUNIT_ASSERT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 1);

	page_pool_put_page(t->pool, a, -1, false);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 1);
	/* Destroy drops the pool's own hold; the last fragment frees it. */
	page_pool_put_page(t->pool, b, -1, false);
	page_pool_destroy(t->pool);
	t->pool = NULL;
}

/* A later fragment of a page leaves the receive path its holder. */
static void pp_leak_fragment_keeps_receive_path(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	const struct page_pool_holder *top;
	unsigned int offset, offset2;
	struct sk_buff *skb;
	struct page *a, *b;

	a = page_pool_alloc_frag(t->pool, &offset, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	skb = build_skb(page_address(a) + offset, 1024);
	if (!skb)
		page_pool_put_page(t->pool, a, -1, false);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	pp_leak_hand_to_stack(skb);
	b = page_pool_alloc_frag(t->pool, &offset2, 1024, GFP_KERNEL);
	KUNIT_EXPECT_PTR_EQ(test, a, b);

	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 1);
	top = page_pool_top_holder(&t->holders);
	KUNIT_EXPECT_TRUE(test, pp_leak_stack_has(top, "pp_leak_hand_to_stack"));
	kfree_skb(skb);
	if (b)
		page_pool_put_page(t->pool, b, -1, false);
}

/* A page taken out of the pool for good is no longer its holder's. */
static void pp_leak_release_forgets(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	struct page *page;

	page = pp_leak_take_in_refill(t->pool);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 1);
	page_pool_release_page(t->pool, page);
	put_page(page);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
}

/* Pages of no pool in a marked skb are left alone, and freed as usual. */
static void pp_leak_skb_without_pool_pages(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	struct sk_buff *skb;
	struct page *page;

	skb = alloc_skb(128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	page = alloc_page(GFP_KERNEL);
	if (!page)
		kfree_skb(skb);
	KUNIT_ASSERT_NOT_NULL(test, page);
	skb_add_rx_frag(skb, 0, page, 0, 64, PAGE_SIZE);
	/* A fragment: the hook looks at its page, and finds no pool. */
	pp_leak_hand_to_stack(skb);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
	kfree_skb(skb);
}

/* Pages given back in bulk, as XDP frames are, are forgotten. */
static void pp_leak_bulk_return_forgets(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	struct page *pages[2];
	void *data[2];
	unsigned int i;

	pp_leak_refill_n(t->pool, pages, 2);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		data[i] = page_address(pages[i]);
	}
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 2);
	page_pool_put_page_bulk(t->pool, data, 2);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
}

/* A page taken @depth calls down: a stack of its own for each depth,
 * within the frames a record keeps.
 */
static noinline struct page *pp_leak_take_deep(struct page_pool *pool,
					       unsigned int depth)
{
	struct page *page;

	if (depth)
		page = pp_leak_take_deep(pool, depth - 1);
	else
		page = page_pool_alloc_pages(pool, GFP_KERNEL);
	barrier();
	return page;
}

/* Past the groups a listing has room for, pages are only counted. */
static void pp_leak_more_stacks_than_groups(struct kunit *test)
{
	struct page *pages[PAGE_POOL_HOLDER_GROUPS + 1];
	struct pp_leak_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = pp_leak_take_deep(t->pool, i);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders),
			PAGE_POOL_HOLDER_GROUPS + 1);
	KUNIT_EXPECT_EQ(test, t->holders.groups, PAGE_POOL_HOLDER_GROUPS);
	KUNIT_EXPECT_EQ(test, t->holders.others, 1);
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		page_pool_put_full_page(t->pool, pages[i], false);
	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 0);
}

/* Groups come the page out the longest first, whichever holds most. */
static void pp_leak_oldest_holder_first(struct kunit *test)
{
	struct pp_leak_test *t = test->priv;
	const struct page_pool_holder *g = t->holders.group;
	struct page *pages[3];
	unsigned int i;

	pages[0] = pp_leak_take_in_rescue(t->pool);
	/* Two ticks asleep: the later pages are a jiffy younger at least. */
	schedule_timeout_uninterruptible(2);
	pp_leak_refill_n(t->pool, pages + 1, 2);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);

	KUNIT_EXPECT_EQ(test, page_pool_get_holders(t->pool, &t->holders), 3);
	KUNIT_ASSERT_EQ(test, t->holders.groups, 2);
	KUNIT_EXPECT_EQ(test, g[0].pages, 1);
	KUNIT_EXPECT_TRUE(test, pp_leak_stack_has(&g[0], "pp_leak_take_in_rescue"));
	KUNIT_EXPECT_EQ(test, g[1].pages, 2);
	KUNIT_EXPECT_GT(test, g[0].age, g[1].age);
	KUNIT_EXPECT_PTR_EQ(test, page_pool_top_holder(&t->holders), &g[1]);
	for (i = 0; i < 3; i++)
		page_pool_put_full_page(t->pool, pages[i], false);
}

static struct kunit_case pp_leak_cases[] = {
	KUNIT_CASE(pp_leak_groups_by_stack),
	KUNIT_CASE(pp_leak_skb_names_receive_path),
	KUNIT_CASE(pp_leak_warning_names_top_holder),
	KUNIT_CASE(pp_leak_fragments_keep_the_page),
	KUNIT_CASE(pp_leak_fragment_keeps_receive_path),
	KUNIT_CASE(pp_leak_release_forgets),
	KUNIT_CASE(pp_leak_skb_without_pool_pages),
	KUNIT_CASE(pp_leak_bulk_return_forgets),
	KUNIT_CASE(pp_leak_more_stacks_than_groups),
	KUNIT_CASE(pp_leak_oldest_holder_first),
	{}
};

static struct kunit_suite pp_leak_suite = {
	.name = "page_pool_leak",
	.init = pp_leak_test_init,
	.exit = pp_leak_test_exit,
	.test_cases = pp_leak_cases,
};

kunit_test_suite(pp_leak_suite);

MODULE_DESCRIPTION("KUnit cases for page_pool's leak trace");
MODULE_LICENSE("GPL");
