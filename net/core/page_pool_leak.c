// SPDX-License-Identifier: GPL-2.0
/* page_pool: who holds the pages of a pool, to find a leak's culprit. */

/**
 * DOC: Leak tracing
 *
 * A pool destroyed with pages still out waits for them, and says every
 * minute how many are missing. With CONFIG_PAGE_POOL_LEAK_TRACE it can
 * also say who took them. Tracing starts when 1 is written to
 * /sys/kernel/debug/page_pool/leak_trace; every pool created from then
 * on records, for each page out, the call stack that last took it and
 * when: the driver's allocation, then the skb_mark_for_recycle() of the
 * receive path that handed the page to the stack. A page's record goes
 * when the page comes back.
 *
 * /sys/kernel/debug/page_pool/holders lists each traced pool with pages
 * out (its id, its device's ifindex as page-pool-get reports it, 0 once
 * it has none, and since when it is detached) and the stacks holding
 * them, oldest first; the
 * warning of a destroyed pool names the stack that holds the most.
 *
 * Tracing cannot be stopped: pages out at that moment would leave
 * records that no return erases. Until it starts, the pool pays a
 * static branch per page; without the option, nothing.
 */

#define pr_fmt(fmt) "page_pool: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/sort.h>
#include <linux/stackdepot.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>
#include <net/page_pool/helpers.h>

#include "page_pool_priv.h"
#include "page_pool_leak.h"

/* A record packs the stack's handle above the time, in jiffies modulo
 * 2^31 (24 days at HZ=1000), into an xarray value (63 bits).
 */
#define PP_LEAK_TIME_BITS	31
#define PP_LEAK_TIME_MASK	((1UL << PP_LEAK_TIME_BITS) - 1)
/* Frames kept per stack: enough to reach the driver's NAPI poll. */
#define PP_LEAK_DEPTH		16

DEFINE_STATIC_KEY_FALSE(page_pool_leak_trace);
EXPORT_SYMBOL(page_pool_leak_trace);

static void *pp_leak_record(depot_stack_handle_t stack)
{
	return xa_mk_value((unsigned long)stack << PP_LEAK_TIME_BITS |
			   (jiffies & PP_LEAK_TIME_MASK));
}

static depot_stack_handle_t pp_leak_record_stack(void *entry)
{
	return xa_to_value(entry) >> PP_LEAK_TIME_BITS;
}

static unsigned long pp_leak_record_age(void *entry)
{
	return (jiffies - xa_to_value(entry)) & PP_LEAK_TIME_MASK;
}

/* The caller's stack, without this function. */
static noinline depot_stack_handle_t pp_leak_save_stack(void)
{
	unsigned long entries[PP_LEAK_DEPTH];
	unsigned int n;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	return stack_depot_save(entries, n, GFP_ATOMIC | __GFP_NOWARN);
}

/* Returners may run in hard IRQ: the lock is IRQ-safe. A page left
 * without a record (no memory) shows in the listing as one of the
 * pool's pages in flight that are not traced.
 */
static void pp_leak_store(struct page_pool *pool, struct page *page,
			  depot_stack_handle_t stack)
{
	unsigned long flags;

	xa_lock_irqsave(&pool->holders, flags);
	__xa_store(&pool->holders, page_to_pfn(page), pp_leak_record(stack),
		   GFP_ATOMIC | __GFP_NOWARN);
	xa_unlock_irqrestore(&pool->holders, flags);
}

/**
 * page_pool_note_out() - record who takes a page out of a traced pool
 * @pool: the pool
 * @page: the page just handed out
 */
void page_pool_note_out(struct page_pool *pool, struct page *page)
{
	if (pool->traced)
		pp_leak_store(pool, page, pp_leak_save_stack());
}

/**
 * page_pool_note_back() - forget a page of a traced pool
 * @pool: the pool
 * @page: the page, back in the pool or leaving it for good
 */
void page_pool_note_back(struct page_pool *pool, struct page *page)
{
	unsigned long flags;

	if (!pool->traced)
		return;
	xa_lock_irqsave(&pool->holders, flags);
	__xa_erase(&pool->holders, page_to_pfn(page));
	xa_unlock_irqrestore(&pool->holders, flags);
}

/* The page of a pool that holds @page (any page of a compound one). */
static void pp_leak_note_page(struct page *page, depot_stack_handle_t stack)
{
	struct page *head = compound_head(page);
	struct page_pool *pool;

	if ((head->pp_magic & ~PP_MAGIC_ALLOC_BITS) != PP_SIGNATURE)
		return;
	/* A page the skb shares may leave its pool meanwhile. */
	pool = READ_ONCE(head->pp);
	if (pool && pool->traced)
		pp_leak_store(pool, head, stack);
}

/**
 * __page_pool_note_skb() - record the stack handing an skb's pages over
 * @skb: an skb marked for recycling
 *
 * Called through page_pool_note_skb() once tracing is on: the head's
 * page and each fragment's page that belong to a traced pool get the
 * caller's stack as their last holder. The skb holds a reference on
 * each, so a pool page stays in its pool meanwhile, unless the skb
 * shares it with someone who takes it out (page_pool_release_page()).
 */
void __page_pool_note_skb(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	depot_stack_handle_t stack;
	unsigned int i;

	if (!skb->head_frag && !shinfo->nr_frags)
		return;
	stack = pp_leak_save_stack();
	if (skb->head_frag)
		pp_leak_note_page(virt_to_page(skb->head), stack);
	for (i = 0; i < shinfo->nr_frags; i++)
		pp_leak_note_page(skb_frag_page(&shinfo->frags[i]), stack);
}
EXPORT_SYMBOL(__page_pool_note_skb);

/**
 * page_pool_leak_init() - let a new pool trace its pages if tracing is on
 * @pool: the pool, before anyone can see it
 */
void page_pool_leak_init(struct page_pool *pool)
{
	if (!static_branch_unlikely(&page_pool_leak_trace))
		return;
	xa_init_flags(&pool->holders, XA_FLAGS_LOCK_IRQ);
	pool->traced = true;
}

/**
 * page_pool_leak_fini() - drop a freed pool's records
 * @pool: the pool, whose pages are all back
 */
void page_pool_leak_fini(struct page_pool *pool)
{
	if (pool->traced)
		xa_destroy(&pool->holders);
}

/* Folds @entry into the group of its stack, or a new one while there is
 * room. Returns false when it fits in none.
 */
static bool pp_holders_add(struct page_pool_holders *h, void *entry)
{
	depot_stack_handle_t stack = pp_leak_record_stack(entry);
	unsigned long age = pp_leak_record_age(entry);
	struct page_pool_holder *g;

	for (g = h->group; g < h->group + h->groups; g++)
		if (g->stack == stack)
			break;
	if (g == h->group + h->groups) {
		if (h->groups == ARRAY_SIZE(h->group))
			return false;
		h->groups++;
		g->stack = stack;
		g->pages = 0;
		g->age = 0;
	}
	g->pages++;
	g->age = max(g->age, age);
	return true;
}

static int pp_holder_older(const void *a, const void *b)
{
	const struct page_pool_holder *ga = a, *gb = b;

	if (ga->age != gb->age)
		return ga->age > gb->age ? -1 : 1;
	return 0;
}

/**
 * page_pool_get_holders() - group a traced pool's pages out by holder
 * @pool: the pool
 * @h: filled with up to PAGE_POOL_HOLDER_GROUPS groups, the page out
 *	the longest first, and the count of pages in no group
 *
 * Pages may come and go meanwhile: each is counted as it was when seen.
 * Return: the number of pages out with a record.
 */
unsigned int page_pool_get_holders(struct page_pool *pool,
				   struct page_pool_holders *h)
{
	unsigned long pfn;
	void *entry;

	memset(h, 0, sizeof(*h));
	if (!pool->traced)
		return 0;
	xa_for_each(&pool->holders, pfn, entry) {
		h->traced++;
		if (!pp_holders_add(h, entry))
			h->others++;
	}
	sort(h->group, h->groups, sizeof(h->group[0]), pp_holder_older, NULL);
	return h->traced;
}
EXPORT_SYMBOL_IF_KUNIT(page_pool_get_holders);

/**
 * page_pool_top_holder() - the group of a pool's holders with most pages
 * @h: groups from page_pool_get_holders(), which has some
 *
 * Return: the group; of equals, the one with the page out the longest.
 */
const struct page_pool_holder *
page_pool_top_holder(const struct page_pool_holders *h)
{
	const struct page_pool_holder *top = &h->group[0];
	unsigned int i;

	for (i = 1; i < h->groups; i++)
		if (h->group[i].pages > top->pages)
			top = &h->group[i];
	return top;
}
EXPORT_SYMBOL_IF_KUNIT(page_pool_top_holder);

/**
 * page_pool_format_top_holder() - describe the stack holding most pages
 * @pool: a traced pool
 * @buf: where to write: the count, the age of the oldest page, and the
 *	stack, a frame a line
 * @size: room in @buf
 *
 * Return: the length written (as snprintf()), 0 if no page out has a
 * record.
 */
int page_pool_format_top_holder(struct page_pool *pool, char *buf,
				size_t size)
{
	const struct page_pool_holder *top;
	struct page_pool_holders *h;
	int len;

	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h || !page_pool_get_holders(pool, h)) {
		kfree(h);
		return 0;
	}
	top = page_pool_top_holder(h);
	len = scnprintf(buf, size,
			"%u of its pages out were last taken here, the oldest %lu s ago:\n",
			top->pages, top->age / HZ);
	len += stack_depot_snprint(top->stack, buf + len, size - len, 2);
	kfree(h);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(page_pool_format_top_holder);

/**
 * page_pool_warn_top_holder() - name the stack holding most of a pool's pages
 * @pool: a destroyed pool with pages in flight
 *
 * Follows the "pages still in flight" warning of the pool's free work.
 */
void page_pool_warn_top_holder(struct page_pool *pool)
{
	char *buf;

	if (!pool->traced)
		return;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (buf && page_pool_format_top_holder(pool, buf, PAGE_SIZE))
		pr_warn("pool %p (id %u): %s", pool, pool->user.id, buf);
	kfree(buf);
}

static void pp_leak_show_stack(struct seq_file *seq,
			       depot_stack_handle_t stack)
{
	unsigned long *frames;
	unsigned int i, n;

	n = stack_depot_fetch(stack, &frames);
	for (i = 0; i < n; i++)
		seq_printf(seq, "    %pS\n", (void *)frames[i]);
}

/* Under pp_nl_lock, which keeps @pool's user fields still. */
static void pp_leak_show_pool(struct seq_file *seq, struct page_pool *pool)
{
	struct page_pool_holders *h = seq->private;
	const struct page_pool_holder *g;

	if (!page_pool_get_holders(pool, h))
		return;
	seq_printf(seq, "pool %u ifindex %d", pool->user.id,
		   page_pool_listed_ifindex(pool));
	if (pool->user.detached)
		seq_printf(seq, " detached %llu s ago",
			   ktime_get_boottime_seconds() -
			   pool->user.detach_time);
	seq_printf(seq, ": %u pages out traced of %llu in flight\n", h->traced,
		   page_pool_listed_inflight(pool));
	for (g = h->group; g < h->group + h->groups; g++) {
		seq_printf(seq, "  %u pages, the oldest out %lu s, last taken at:\n",
			   g->pages, g->age / HZ);
		pp_leak_show_stack(seq, g->stack);
	}
	if (h->others)
		seq_printf(seq, "  %u pages of other stacks\n", h->others);
}

static int pp_leak_holders_show(struct seq_file *seq, void *unused)
{
	return page_pool_show_listed(seq, pp_leak_show_pool);
}

static int pp_leak_holders_open(struct inode *inode, struct file *file)
{
	struct page_pool_holders *h;
	int err;

	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	err = single_open(file, pp_leak_holders_show, h);
	if (err)
		kfree(h);
	return err;
}

static int pp_leak_holders_release(struct inode *inode, struct file *file)
{
	struct seq_file *seq = file->private_data;

	kfree(seq->private);
	return single_release(inode, file);
}

static const struct file_operations pp_leak_holders_fops = {
	.owner		= THIS_MODULE,
	.open		= pp_leak_holders_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= pp_leak_holders_release,
};

/**
 * page_pool_leak_trace_start() - trace the pages of pools created from now
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM if the stack depot could not be set up, or
 * -EOPNOTSUPP on UML without frame pointers, whose stacks would be empty.
 */
int page_pool_leak_trace_start(void)
{
	/* UML's stack traces keep only frames found by frame pointers. */
	if (IS_ENABLED(CONFIG_UML) && !IS_ENABLED(CONFIG_FRAME_POINTER)) {
		pr_warn("leak_trace: UML records stacks only with CONFIG_FRAME_POINTER\n");
		return -EOPNOTSUPP;
	}
	if (stack_depot_init())
		return -ENOMEM;
	static_branch_enable(&page_pool_leak_trace);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(page_pool_leak_trace_start);

static int pp_leak_trace_get(void *data, u64 *val)
{
	*val = static_branch_unlikely(&page_pool_leak_trace);
	return 0;
}

static int pp_leak_trace_set(void *data, u64 val)
{
	if (val > 1)
		return -EINVAL;
	if (val)
		return page_pool_leak_trace_start();
	if (static_branch_unlikely(&page_pool_leak_trace)) {
		pr_warn("leak_trace: tracing cannot be stopped once started\n");
		return -EBUSY;
	}
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(pp_leak_trace_fops, pp_leak_trace_get,
			 pp_leak_trace_set, "%llu\n");

static int __init page_pool_leak_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("page_pool", NULL);

	debugfs_create_file_unsafe("leak_trace", 0600, dir, NULL,
				   &pp_leak_trace_fops);
	debugfs_create_file("holders", 0400, dir, NULL, &pp_leak_holders_fops);
	return 0;
}
late_initcall(page_pool_leak_debugfs_init);
