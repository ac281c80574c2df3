// SPDX-License-Identifier: GPL-2.0
/*
 * ringbench: P producer threads return pointers to one consumer thread
 * through our return ring (pp_ring, net/core/page_pool_ring.h) and
 * through 6.1's (ptr_ring under its producer lock), each used as its
 * page_pool uses it, so that the many-CPU return case is measured on
 * real cores rather than in a uniprocessor UML kernel.
 *
 * The consumer runs on CPU 0, producer i on CPU i + 1, wrapping around
 * the online CPUs; with more threads than CPUs they share. A producer
 * that finds the ring full, a consumer that finds nothing to take and a
 * lock waiter spin briefly, then yield (linux/processor.h says why).
 * A producer stores what did not fit in its next call: page_pool would
 * free those pages, a benchmark has to move them all.
 *
 * For every combination of producer count, ring size and producer batch
 * (1: single returns; 16: xdp_return_frame_bulk(); 64: a NAPI budget),
 * each round runs both rings, in alternating order, and prints CSV rows
 * as the kernel benchmarks do: variant (base = ptr_ring, ours =
 * pp_ring), test, round, cycles_per_op, ns_per_op. Test native_pP_bB_sS
 * is one pointer from the producer's call to the consumer's hands, the
 * wall time of the run over its pointers; native_pP_bB_sS_prod is the
 * producers' own cost, their time inside produce calls per pointer.
 * Counters and per-run details go to stderr, then the medians and the
 * ratios of the two rings. A run whose consumer takes nothing for
 * WD_STALL_NS ends the program with status 1 and, on stderr, where
 * the consumer stopped (ring_watchdog.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/processor.h>
#include <linux/compiler.h>
#include "clock.h"
#include "ring_ops.h"

#define MAX_PRODUCERS	64
#define MAX_LIST	8
#define MAX_BATCH	256
#define MAX_ROUNDS	100
/* What the owner takes per refill in both pools: PP_ALLOC_CACHE_REFILL. */
#define CONSUMER_BATCH	64

struct list {
	unsigned int n;
	unsigned int v[MAX_LIST];
};

struct options {
	struct list producers, sizes, batches;
	unsigned int rounds;
	unsigned long count;
};

/* One thread's figures, each on its own cache line. */
struct side {
	pthread_t thread;
	struct run *run;
	unsigned int id;
	unsigned long quota;
	u64 busy;		/* TSC ticks in produce or consume calls */
	u64 full;		/* producer: calls that could not store all */
	u64 empty;		/* consumer: calls that took nothing... */
	u64 stopped;	/* ...of those, at a claimed cell (sampled) */
	/*
	 * For the watchdog: the consumer's pointers taken, stored on each
	 * take; a producer's stored, only when it waits or ends, which in
	 * a stalled run it does.
	 */
	unsigned long done;
} __aligned(64);

struct run {
	const struct ring_ops *ops;
	void *ring;
	unsigned int producers, size, batch;
	unsigned long total;
	unsigned int ready;
	int go;
	u64 end_tsc, end_ns;
	struct side consumer;
	struct side producer[MAX_PRODUCERS];
};

struct figures {
	double e2e_cycles, e2e_ns, prod_cycles, prod_ns, cons_ns;
	u64 full, empty, stopped;
};

static double ticks_per_ns;

static void wait_for_start(struct run *run)
{
	unsigned int spins = 0;

	__atomic_fetch_add(&run->ready, 1, __ATOMIC_RELAXED);
	while (!__atomic_load_n(&run->go, __ATOMIC_ACQUIRE))
		shim_wait(&spins);
}

static void *producer(void *arg)
{
	struct side *me = arg;
	struct run *run = me->run;
	void *ptrs[MAX_BATCH];
	unsigned long left = me->quota;
	unsigned int spins = 0, n, got, i;
	u64 start, waited = 0, t;

	/* Any non-NULL pointer will do: the consumer does not follow it. */
	for (i = 0; i < run->batch; i++)
		ptrs[i] = me;
	pin_to_cpu(me->id + 1);
	wait_for_start(run);
	start = tsc();
	while (left) {
		n = left < run->batch ? left : run->batch;
		got = run->ops->produce(run->ring, ptrs, n);
		left -= got;
		if (got == n) {
			spins = 0;
			continue;
		}
		me->full++;
		wd_count(&me->done, me->quota - left);
		t = tsc();
		shim_wait(&spins);
		waited += tsc() - t;
	}
	me->busy = tsc() - start - waited;
	wd_count(&me->done, me->quota);
	return NULL;
}

static void *consumer(void *arg)
{
	struct side *me = arg;
	struct run *run = me->run;
	void *out[CONSUMER_BATCH];
	unsigned long taken = 0;
	unsigned int spins = 0, n;
	bool claimed;
	u64 t;

	pin_to_cpu(0);
	wait_for_start(run);
	while (taken < run->total) {
		t = tsc();
		n = run->ops->consume(run->ring, out, CONSUMER_BATCH, &claimed);
		if (n) {
			me->busy += tsc() - t;
			taken += n;
			wd_count(&me->done, taken);
			spins = 0;
			continue;
		}
		me->empty++;
		me->stopped += claimed ? run->ops->claimed_every : 0;
		shim_wait(&spins);
	}
	run->end_tsc = tsc();
	run->end_ns = now_ns();
	return NULL;
}

static int start_threads(struct run *run, unsigned int producers)
{
	unsigned int i;

	run->consumer.run = run;
	if (pthread_create(&run->consumer.thread, NULL, consumer,
			   &run->consumer))
		return -1;
	for (i = 0; i < producers; i++) {
		run->producer[i].run = run;
		run->producer[i].id = i;
		run->producer[i].quota = run->total / producers +
					 (i < run->total % producers);
		if (pthread_create(&run->producer[i].thread, NULL, producer,
				   &run->producer[i]))
			return -1;
	}
	return 0;
}

/* The watchdog's report: the run stalled, end the program. */
static void run_stalled(void *arg, u64 stalled_ns)
{
	struct run *run = arg;
	unsigned long produced = 0;
	struct wd_ring_state s;
	unsigned int i;
	char msg[320];

	for (i = 0; i < run->producers; i++)
		produced += wd_read(&run->producer[i].done);
	run->ops->snapshot(run->ring, &s);
	wd_describe(msg, sizeof(msg), stalled_ns, &s, run->total, produced,
		    wd_read(&run->consumer.done));
	fprintf(stderr, "ringbench: %s native_p%u_b%u_s%u: %s\n",
		run->ops->name, run->producers, run->batch, run->size, msg);
	exit(1);
}

static int run_once(const struct ring_ops *ops, unsigned int producers,
		    unsigned int size, unsigned int batch, unsigned long count,
		    struct figures *f)
{
	struct run *run = aligned_alloc(64, sizeof(*run));
	u64 start_tsc, start_ns, prod = 0;
	unsigned int spins = 0, i;

	if (!run)
		return -1;
	memset(run, 0, sizeof(*run));
	run->ops = ops;
	run->producers = producers;
	run->size = size;
	run->batch = batch;
	run->total = count;
	run->ring = ops->create(size);
	/* Armed from the start: any wait below may be the one that hangs. */
	if (!run->ring ||
	    wd_arm(&run->consumer.done, run_stalled, run) ||
	    start_threads(run, producers)) {
		fprintf(stderr, "ringbench: cannot set up %s\n", ops->name);
		exit(1);
	}
	while (__atomic_load_n(&run->ready, __ATOMIC_RELAXED) < producers + 1)
		shim_wait(&spins);
	start_tsc = tsc();
	start_ns = now_ns();
	__atomic_store_n(&run->go, 1, __ATOMIC_RELEASE);
	pthread_join(run->consumer.thread, NULL);
	memset(f, 0, sizeof(*f));
	for (i = 0; i < producers; i++) {
		pthread_join(run->producer[i].thread, NULL);
		prod += run->producer[i].busy;
		f->full += run->producer[i].full;
	}
	wd_disarm();
	f->e2e_cycles = (double)(run->end_tsc - start_tsc) / count;
	f->e2e_ns = (double)(run->end_ns - start_ns) / count;
	f->prod_cycles = (double)prod / count;
	f->prod_ns = f->prod_cycles / ticks_per_ns;
	f->cons_ns = run->consumer.busy / ticks_per_ns / count;
	f->empty = run->consumer.empty;
	f->stopped = run->consumer.stopped;
	ops->destroy(run->ring);
	free(run);
	return 0;
}

static const struct ring_ops *const rings[] = { &ptr_ring_ops, &pp_ring_ops };

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: ringbench [--producers N[,N...]] [--sizes S[,S...]]\n"
		"                 [--batches B[,B...]] [--rounds R] [--count C]\n"
		"defaults: --producers 1,2,4 --sizes 256,1024 --batches 1,16,64\n"
		"          --rounds 5 --count 1000000 (pointers per run)\n");
	exit(2);
}

static void parse_list(const char *arg, struct list *l, unsigned int max)
{
	char *end;

	l->n = 0;
	do {
		unsigned long v = strtoul(arg, &end, 10);

		if (end == arg || !v || v > max || l->n == MAX_LIST)
			bad_usage();
		l->v[l->n++] = v;
		arg = end + 1;
	} while (*end == ',');
	if (*end)
		bad_usage();
}

static void parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "producers", required_argument, NULL, 'p' },
		{ "sizes", required_argument, NULL, 's' },
		{ "batches", required_argument, NULL, 'b' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "count", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct list one;
	int c;

	parse_list("1,2,4", &o->producers, MAX_PRODUCERS);
	parse_list("256,1024", &o->sizes, 1 << 20);
	parse_list("1,16,64", &o->batches, MAX_BATCH);
	o->rounds = 5;
	o->count = 1000000;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			parse_list(optarg, &o->producers, MAX_PRODUCERS);
			break;
		case 's':
			parse_list(optarg, &o->sizes, 1 << 20);
			break;
		case 'b':
			parse_list(optarg, &o->batches, MAX_BATCH);
			break;
		case 'r':
			parse_list(optarg, &one, MAX_ROUNDS);
			o->rounds = one.v[0];
			break;
		case 'c':
			parse_list(optarg, &one, ~0U);
			o->count = one.v[0];
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc)
		bad_usage();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Results of one combination: [ring][round]. */
struct combo {
	unsigned int producers, size, batch;
	struct figures fig[2][MAX_ROUNDS];
};

static void run_round(struct combo *k, unsigned int round, unsigned long count)
{
	unsigned int i, v;
	struct figures *f;
	char test[64];

	snprintf(test, sizeof(test), "native_p%u_b%u_s%u", k->producers,
		 k->batch, k->size);
	for (i = 0; i < 2; i++) {
		/* base then ours in odd rounds, ours then base in even ones */
		v = round % 2 ? i : 1 - i;
		f = &k->fig[v][round - 1];
		run_once(rings[v], k->producers, k->size, k->batch, count, f);
		printf("%s,%s,%u,%.1f,%.2f\n", rings[v]->variant, test, round,
		       f->e2e_cycles, f->e2e_ns);
		printf("%s,%s_prod,%u,%.1f,%.2f\n", rings[v]->variant, test,
		       round, f->prod_cycles, f->prod_ns);
		fflush(stdout);
		fprintf(stderr,
			"# %s round %u %-8s %7.2f ns/ptr, producers %7.2f, consumer %6.2f; full %llu, empty %llu (at claimed ~%llu)\n",
			test, round, rings[v]->name, f->e2e_ns, f->prod_ns,
			f->cons_ns, (unsigned long long)f->full,
			(unsigned long long)f->empty,
			(unsigned long long)f->stopped);
	}
}

static void summarize(struct combo *k, unsigned int rounds)
{
	double e2e[2], prod[2], cons[2], v[MAX_ROUNDS];
	unsigned int r, i;

	for (i = 0; i < 2; i++) {
		for (r = 0; r < rounds; r++)
			v[r] = k->fig[i][r].e2e_ns;
		e2e[i] = median(v, rounds);
		for (r = 0; r < rounds; r++)
			v[r] = k->fig[i][r].prod_ns;
		prod[i] = median(v, rounds);
		for (r = 0; r < rounds; r++)
			v[r] = k->fig[i][r].cons_ns;
		cons[i] = median(v, rounds);
	}
	fprintf(stderr,
		"# P=%-2u size=%-4u batch=%-2u  end-to-end %7.2f %7.2f %5.2f  producers %7.2f %7.2f %5.2f  consumer %6.2f %6.2f\n",
		k->producers, k->size, k->batch, e2e[0], e2e[1],
		e2e[1] / e2e[0], prod[0], prod[1], prod[1] / prod[0],
		cons[0], cons[1]);
}

int main(int argc, char **argv)
{
	unsigned int p, s, b, r, n = 0;
	struct options o;
	struct combo *k;

	parse(argc, argv, &o);
	k = calloc(o.producers.n * o.sizes.n * o.batches.n, sizeof(*k));
	if (!k)
		return 1;
	for (p = 0; p < o.producers.n; p++)
		for (s = 0; s < o.sizes.n; s++)
			for (b = 0; b < o.batches.n; b++) {
				k[n].producers = o.producers.v[p];
				k[n].size = o.sizes.v[s];
				k[n++].batch = o.batches.v[b];
			}
	ticks_per_ns = tsc_per_ns();
	fprintf(stderr, "# ringbench: %u CPUs, TSC %.3f GHz, %lu pointers a run\n",
		online_cpus(), ticks_per_ns, o.count);
	fprintf(stderr, "# consumer on CPU 0, producer i on CPU (i + 1) %% %u\n",
		online_cpus());
	printf("variant,test,round,cycles_per_op,ns_per_op\n");
	for (r = 1; r <= o.rounds; r++)
		for (p = 0; p < n; p++)
			run_round(&k[p], r, o.count);
	fprintf(stderr, "# medians over %u rounds, ns per pointer: %s\n",
		o.rounds, "ptr_ring, pp_ring, pp_ring/ptr_ring");
	for (p = 0; p < n; p++)
		summarize(&k[p], o.rounds);
	free(k);
	return 0;
}
