// SPDX-License-Identifier: GPL-2.0
/*
 * The progress watchdog: one thread for the whole program, asleep but
 * every WD_TICK_NS, that fails it once the watched count stood still
 * for WD_STALL_NS. The threads it watches make no call for it: the
 * consumer stores its count, which costs the hot loop one store to a
 * line it owns; the clock is read here, not there.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "page_pool_ring.h"
#include "clock.h"
#include "ring_watchdog.h"

/* Held while the watched run may not go away: arming, looking, reporting. */
static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static int wd_started = -1;
static const unsigned long *wd_progress;	/* NULL: nothing watched */
static wd_report_t wd_report;
static void *wd_arg;
static unsigned long wd_seen;	/* *wd_progress when last seen to move */
static u64 wd_since;		/* and when, CLOCK_MONOTONIC */

static void *wd_thread(void *unused)
{
	struct timespec tick = { .tv_nsec = WD_TICK_NS };
	unsigned long seen;
	u64 t;

	for (;;) {
		nanosleep(&tick, NULL);
		pthread_mutex_lock(&wd_lock);
		if (wd_progress) {
			seen = wd_read(wd_progress);
			t = now_ns();
			if (seen != wd_seen) {
				wd_seen = seen;
				wd_since = t;
			} else if (t - wd_since >= WD_STALL_NS) {
				wd_report(wd_arg, t - wd_since);
				/* A report is not meant to return. */
				exit(1);
			}
		}
		pthread_mutex_unlock(&wd_lock);
	}
	return NULL;
}

static void wd_start(void)
{
	pthread_attr_t attr;
	pthread_t thread;

	/* Detached, never joined: a run's end must not wait for a tick. */
	if (pthread_attr_init(&attr))
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	wd_started = pthread_create(&thread, &attr, wd_thread, NULL) ? -1 : 0;
	pthread_attr_destroy(&attr);
}

int wd_arm(const unsigned long *progress, wd_report_t report, void *arg)
{
	pthread_once(&wd_once, wd_start);
	if (wd_started)
		return -1;
	pthread_mutex_lock(&wd_lock);
	wd_progress = progress;
	wd_report = report;
	wd_arg = arg;
	wd_seen = wd_read(progress);
	wd_since = now_ns();
	pthread_mutex_unlock(&wd_lock);
	return 0;
}

void wd_disarm(void)
{
	pthread_mutex_lock(&wd_lock);
	wd_progress = NULL;
	pthread_mutex_unlock(&wd_lock);
}

/*
 * Reads the ring with no ordering against its threads: it runs only
 * once the consumer stopped, so this is a snapshot, exact only if the
 * producers stopped too (they have once the ring looks full to them).
 * Not instrumented, so that under ThreadSanitizer this look cannot
 * itself be reported as a race and end the program before the report.
 */
__shim_attribute(no_sanitize_thread)
void wd_pp_ring_snapshot(const struct pp_ring *r, struct wd_ring_state *s)
{
	unsigned long i, used;
	void *ptr;

	s->head = READ_ONCE(r->head);
	s->tail = READ_ONCE(r->tail);
	s->cell = READ_ONCE(r->cells[s->head & r->mask]);
	used = s->tail - s->head;
	if (s->cell == PP_RING_TAKEN)
		s->what = "PP_RING_TAKEN: taken ahead, yet at head";
	else if (s->cell)
		s->what = "a pointer: published, not taken";
	else if (used && used <= r->capacity)
		s->what = "NULL: claimed, not published";
	else if (!used)
		s->what = "NULL: nothing claimed, the ring is empty";
	else
		s->what = "NULL: tail is not within capacity past head";
	/* Taken-ahead cells were handed out already: not in the ring. */
	s->in_ring = 0;
	for (i = 0; i <= r->mask; i++) {
		ptr = READ_ONCE(r->cells[i]);
		s->in_ring += ptr && ptr != PP_RING_TAKEN;
	}
}

/*
 * produced: pointers the producers stored (claimed and published);
 * consumed: pointers the consumer was handed, a duplicate counting
 * twice; in ring: published cells not yet taken (counting stale ones
 * too, if the consumer failed to clear what it took). lost is what
 * is left: stored but neither taken nor still in a cell, as when two
 * producers store into one cell. It is signed: a pointer taken twice
 * or a stale cell makes it negative. consumed at total means that the
 * consumer is done and a producer is what never ends.
 */
int wd_describe(char *buf, size_t len, u64 stalled_ns,
		const struct wd_ring_state *s, unsigned long total,
		unsigned long produced, unsigned long consumed)
{
	long lost = produced - consumed - s->in_ring;

	return snprintf(buf, len,
			"no progress for %.1f s: consumer at head %lu (tail %lu), cell holds %s (%p); of %lu: produced %lu, consumed %lu, in ring %lu, lost %ld",
			stalled_ns / 1e9, s->head, s->tail, s->what, s->cell,
			total, produced, consumed, s->in_ring, lost);
}
