// SPDX-License-Identifier: GPL-2.0
/*
 * ringstress: race checks of the return ring, net/core/page_pool_ring.h
 * compiled unchanged, in kselftest TAP.
 *
 * First, deterministic checks of pp_ring_claim(), one with the cmpxchg()
 * stand-in calling back into the test to play the other CPUs, and one
 * of pp_ring_consume() with the smp_load_acquire() stand-in doing so. Then
 * stress runs: more producer threads than CPUs return items to one
 * consumer, some of them sleeping between claim and publish, which
 * leaves claimed cells unpublished while later ones are published: the
 * consumer steps over a single one and stops at several in a row. It
 * checks that
 * every item arrives exactly once and each producer's in the order it
 * stored them. Each item is written with plain stores after its cell is
 * claimed and read the same way once taken, so that under
 * ThreadSanitizer (the ringstress-tsan build) any missing ordering
 * between publish and consume shows as a data race. The consumer's
 * clearing of a cell is a plain store here (SHIM_PLAIN_WRITE_ONCE), so
 * that a missing ordering between it and the next producer's store into
 * the cell, through head and the producers' copy of it, shows too.
 * A stress run that takes nothing for WD_STALL_NS fails, with where
 * the consumer stopped (ring_watchdog.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/processor.h>
#include "kselftest.h"
#include "page_pool_ring.h"
#include "clock.h"
#include "ring_watchdog.h"

/* Called by the cmpxchg() stand-in, when set, just before it runs. */
void (*shim_cmpxchg_hook)(void *ptr);
/* Called by the smp_load_acquire() stand-in, when set, likewise. */
void (*shim_acquire_hook)(const void *ptr);

struct item {
	unsigned int producer;
	unsigned int seq;
};

struct stress {
	const char *name;
	unsigned int capacity;
	unsigned int producers;
	unsigned int max_batch;
	unsigned int per_producer;
};

/* A line each: @produced is stored while the others run. */
struct worker {
	pthread_t thread;
	struct pp_ring *ring;
	const struct stress *cfg;
	struct item *items;
	unsigned int id;
	/*
	 * Items published, for the watchdog; stored only when the
	 * producer waits or ends, which a stalled run's producers all do.
	 */
	unsigned long produced;
} __aligned(64);

/* What the watchdog's report reads of a stress run. */
struct watched {
	const struct stress *cfg;
	struct pp_ring *ring;
	struct worker *w;
	unsigned long consumed;	/* items taken: the progress watched */
};

static unsigned int xorshift(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Fill and publish n claimed cells, in order; a sleeper naps first. */
static void publish(struct worker *w, unsigned long first, unsigned int done,
		    unsigned int n, bool sleeper)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 };
	struct item *it;
	unsigned int i;

	for (i = 0; i < n; i++) {
		it = &w->items[done + i];
		it->producer = w->id;
		it->seq = done + i;
	}
	if (sleeper)
		nanosleep(&nap, NULL);
	for (i = 0; i < n; i++)
		pp_ring_publish(w->ring, first + i, &w->items[done + i]);
}

static void *producer(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = 2654435761u * (w->id + 1);
	unsigned int done = 0, spins = 0, want, n;
	bool sleeper = w->id % 2;
	unsigned long first;

	while (done < w->cfg->per_producer) {
		want = 1 + xorshift(&seed) % w->cfg->max_batch;
		if (want > w->cfg->per_producer - done)
			want = w->cfg->per_producer - done;
		n = pp_ring_claim(w->ring, want, &first);
		if (!n) {
			wd_count(&w->produced, done);
			shim_wait(&spins);
			continue;
		}
		/* Every eighth claim of a sleeper holds its cells a while. */
		publish(w, first, done, n, sleeper && !(xorshift(&seed) % 8));
		done += n;
	}
	wd_count(&w->produced, done);
	return NULL;
}

/* Take everything; returns the number of items out of place. */
static unsigned long consume_all(struct pp_ring *r, const struct stress *cfg,
				 unsigned int *next, unsigned long *consumed)
{
	unsigned long total = (unsigned long)cfg->producers * cfg->per_producer;
	unsigned long taken = 0, bad = 0;
	unsigned int seed = 12345, spins = 0, n, i;
	struct item *out[64], *it;

	while (taken < total) {
		n = pp_ring_consume(r, (void **)out, 1 + xorshift(&seed) % 64);
		if (!n) {
			shim_wait(&spins);
			continue;
		}
		for (i = 0; i < n; i++) {
			it = out[i];
			if (it->producer >= cfg->producers ||
			    it->seq != next[it->producer]) {
				if (bad++ < 5)
					ksft_print_msg("%s: item %u/%u after %u\n",
						       cfg->name, it->producer,
						       it->seq,
						       it->producer < cfg->producers ?
						       next[it->producer] : 0);
				continue;
			}
			next[it->producer]++;
		}
		taken += n;
		wd_count(consumed, taken);
	}
	return bad;
}

/* The watchdog's report: the run stalled, fail the plan here. */
static void stress_stalled(void *arg, u64 stalled_ns)
{
	struct watched *wt = arg;
	unsigned long produced = 0;
	struct wd_ring_state s;
	unsigned int i;
	char msg[320];

	for (i = 0; i < wt->cfg->producers; i++)
		produced += wd_read(&wt->w[i].produced);
	wd_pp_ring_snapshot(wt->ring, &s);
	wd_describe(msg, sizeof(msg), stalled_ns, &s,
		    (unsigned long)wt->cfg->producers * wt->cfg->per_producer,
		    produced, wd_read(&wt->consumed));
	ksft_print_msg("%s: %s\n", wt->cfg->name, msg);
	ksft_test_result_fail("%s\n", wt->cfg->name);
	ksft_exit_fail();
}

static bool run_stress(const struct stress *cfg)
{
	unsigned long total = (unsigned long)cfg->producers * cfg->per_producer;
	struct worker *w = aligned_alloc(64, cfg->producers * sizeof(*w));
	struct item *items = calloc(total, sizeof(*items));
	unsigned int *next = calloc(cfg->producers, sizeof(*next));
	struct pp_ring ring = { 0 };
	struct watched wt = { .cfg = cfg, .ring = &ring, .w = w };
	unsigned long bad;
	void *left;
	bool ok;
	unsigned int i;

	if (!w || !items || !next || pp_ring_init(&ring, cfg->capacity, 0))
		ksft_exit_fail_msg("%s: out of memory\n", cfg->name);
	memset(w, 0, cfg->producers * sizeof(*w));
	/* Armed through the joins: a producer may be what never ends. */
	if (wd_arm(&wt.consumed, stress_stalled, &wt))
		ksft_exit_fail_msg("%s: no watchdog thread\n", cfg->name);
	for (i = 0; i < cfg->producers; i++) {
		w[i].ring = &ring;
		w[i].cfg = cfg;
		w[i].items = items + (unsigned long)i * cfg->per_producer;
		w[i].id = i;
		if (pthread_create(&w[i].thread, NULL, producer, &w[i]))
			ksft_exit_fail_msg("%s: pthread_create\n", cfg->name);
	}
	bad = consume_all(&ring, cfg, next, &wt.consumed);
	for (i = 0; i < cfg->producers; i++)
		pthread_join(w[i].thread, NULL);
	wd_disarm();
	ok = !bad && pp_ring_stores(&ring) == total &&
	     !pp_ring_consume(&ring, &left, 1);
	for (i = 0; i < cfg->producers; i++)
		ok &= next[i] == cfg->per_producer;
	if (!ok)
		ksft_print_msg("%s: %lu out of place, %lu stored of %lu\n",
			       cfg->name, bad, pp_ring_stores(&ring), total);
	pp_ring_free(&ring);
	free(next);
	free(items);
	free(w);
	return ok;
}

/*
 * The claim-retry check: a producer asks for 5 cells of a ring of 8
 * holding 6, so its first attempt sizes a claim of 2. Before its
 * cmpxchg() lands, the consumer takes all 6 and another producer
 * claims 1: the cmpxchg() fails, and the retry sees 7 free cells, so
 * it must claim all 5 asked for, not the 2 the first attempt sized.
 */
static struct pp_ring *hook_ring;
static unsigned long hook_first;

static void take_all_and_claim_one(void *ptr)
{
	void *out[8];

	shim_cmpxchg_hook = NULL;
	pp_ring_consume(hook_ring, out, 8);
	pp_ring_claim(hook_ring, 1, &hook_first);
}

static bool claim_retry_sizes_from_want(void)
{
	struct pp_ring ring = { 0 };
	void *ptrs[6] = { &ring, &ring, &ring, &ring, &ring, &ring };
	unsigned long first = 0;
	unsigned int n;

	if (pp_ring_init(&ring, 8, 0) || pp_ring_produce(&ring, ptrs, 6) != 6)
		return false;
	hook_ring = &ring;
	shim_cmpxchg_hook = take_all_and_claim_one;
	n = pp_ring_claim(&ring, 5, &first);
	shim_cmpxchg_hook = NULL;
	if (n != 5 || hook_first != 6 || first != 7)
		ksft_print_msg("claim of 5 after a lost race: got %u at %lu\n",
			       n, first);
	pp_ring_free(&ring);
	return n == 5 && hook_first == 6 && first == 7;
}

/*
 * The step-over check: producer X has claimed cell 0 and not published
 * it; producer Y has published cell 1. The consumer finds cell 0 so and
 * steps over it to cell 1; just before its acquire load of cell 1, X
 * publishes cell 0, then claims and publishes cell 2. Going on to take
 * cell 2 ahead would hand out X's second item before its first: the
 * consumer must see the hole published and stop stepping.
 */
static struct item hook_items[3];	/* X's first, Y's, X's second */

static void publish_hole_and_next(const void *ptr)
{
	unsigned long first;

	if (ptr != &hook_ring->cells[1])
		return;
	shim_acquire_hook = NULL;
	pp_ring_publish(hook_ring, 0, &hook_items[0]);
	if (pp_ring_claim(hook_ring, 1, &first) == 1)
		pp_ring_publish(hook_ring, first, &hook_items[2]);
}

static bool step_over_stops_at_published_hole(void)
{
	struct pp_ring ring = { 0 };
	struct item *out[8];
	unsigned int n, got, i, x_first = 8, x_second = 8;
	unsigned long first;

	if (pp_ring_init(&ring, 8, 0) || pp_ring_claim(&ring, 2, &first) != 2)
		return false;
	pp_ring_publish(&ring, 1, &hook_items[1]);
	hook_ring = &ring;
	shim_acquire_hook = publish_hole_and_next;
	n = pp_ring_consume(&ring, (void **)out, 8);
	shim_acquire_hook = NULL;
	while ((got = pp_ring_consume(&ring, (void **)out + n, 8 - n)))
		n += got;
	for (i = 0; i < n; i++) {
		if (out[i] == &hook_items[0])
			x_first = i;
		if (out[i] == &hook_items[2])
			x_second = i;
	}
	if (n != 3 || x_first > x_second)
		ksft_print_msg("hole published mid-scan: %u taken, X's at %u and %u\n",
			       n, x_first, x_second);
	pp_ring_free(&ring);
	return n == 3 && x_first < x_second;
}

/* Room is counted against capacity, not the power-of-two cell count. */
static bool claim_bounded_by_capacity(void)
{
	struct pp_ring ring = { 0 };
	unsigned long first;
	bool ok;

	if (pp_ring_init(&ring, 6, 0))
		return false;
	ok = pp_ring_claim(&ring, 4, &first) == 4 && first == 0 &&
	     pp_ring_claim(&ring, 4, &first) == 2 && first == 4 &&
	     pp_ring_claim(&ring, 1, &first) == 0;
	pp_ring_free(&ring);
	return ok;
}

/*
 * Producers size claims from their copy of head and read head itself
 * only when the copy shows too little room. Fill a ring of 4 (room
 * enough by the copy: head is not read), take all 4, then claim 4: the
 * copy shows the ring full, so the claim must read head, find 4 free
 * cells and keep what it read in the copy.
 */
static bool claim_refreshes_copy_of_head(void)
{
	struct pp_ring ring = { 0 };
	void *ptrs[4] = { &ring, &ring, &ring, &ring }, *out[4];
	unsigned long first = 0;
	bool ok;

	if (pp_ring_init(&ring, 4, 0))
		return false;
	ok = pp_ring_produce(&ring, ptrs, 4) == 4 && ring.head_seen == 0 &&
	     pp_ring_consume(&ring, out, 4) == 4 &&
	     pp_ring_claim(&ring, 4, &first) == 4 && first == 4 &&
	     ring.head_seen == 4;
	pp_ring_free(&ring);
	return ok;
}

static const struct stress stress_runs[] = {
	{ "stress capacity 1, 3 producers, claims of 1", 1, 3, 1, 100000 },
	{ "stress capacity 100, 8 producers, claims of 1-16",
	  100, 8, 16, 200000 },
	{ "stress capacity 1024, 6 producers, claims of 1-64",
	  1024, 6, 64, 400000 },
};

int main(int argc, char **argv)
{
	unsigned int divide = 1, i;
	struct stress cfg;

	if (argc == 2 && !strcmp(argv[1], "--quick"))
		divide = 10;
	else if (argc != 1)
		ksft_exit_fail_msg("usage: ringstress [--quick]\n");
	/*
	 * The watchdog fails a stalled stress run within seconds; this is
	 * for a hang anywhere else, as in the single-threaded checks.
	 */
	alarm(600);
	ksft_print_header();
	ksft_set_plan(4 + ARRAY_SIZE(stress_runs));
	ksft_print_msg("%u CPUs online\n", online_cpus());
	ksft_test_result(claim_retry_sizes_from_want(),
			 "claim retry sizes from what was asked\n");
	ksft_test_result(claim_bounded_by_capacity(),
			 "claim bounded by capacity\n");
	ksft_test_result(claim_refreshes_copy_of_head(),
			 "claim reads head when its copy shows the ring full\n");
	ksft_test_result(step_over_stops_at_published_hole(),
			 "step over stops once the hole is published\n");
	for (i = 0; i < ARRAY_SIZE(stress_runs); i++) {
		cfg = stress_runs[i];
		cfg.per_producer /= divide;
		ksft_test_result(run_stress(&cfg), "%s\n", cfg.name);
	}
	ksft_finished();
}
