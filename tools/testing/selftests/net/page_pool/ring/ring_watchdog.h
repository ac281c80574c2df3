/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress watchdog for ringstress and ringbench: when the consumer
 * takes nothing for WD_STALL_NS, a report names where it stopped and
 * the program fails, instead of spinning until an alarm or forever.
 */
#ifndef _RING_WATCHDOG_H
#define _RING_WATCHDOG_H

#include <stddef.h>
#include <linux/types.h>

struct pp_ring;

/* No pointer taken for this long fails the run; a normal one stops for ms. */
#define WD_STALL_NS	(5ULL * 1000 * 1000 * 1000)
/* How often the watchdog looks: coarse, it is asleep in between. */
#define WD_TICK_NS	(250 * 1000 * 1000)

/* A look at a ring whose consumer stopped, from another thread. */
struct wd_ring_state {
	unsigned long head;	/* the consumer's next index: where it stopped */
	unsigned long tail;	/* the producers' next index */
	void *cell;		/* what the cell at @head holds */
	const char *what;	/* ...in words: unpublished, taken ahead, ... */
	/* Cells holding a pointer published and not yet taken. */
	unsigned long in_ring;
};

/*
 * Called from the watchdog thread once the run stalled; prints what it
 * knows and exits. @arg is what wd_arm() was given.
 */
typedef void (*wd_report_t)(void *arg, u64 stalled_ns);

/*
 * Watch *@progress, the consumer's count of pointers taken, until
 * wd_disarm(); the first call starts the watchdog thread. Returns 0,
 * or -1 if that thread could not be started.
 */
int wd_arm(const unsigned long *progress, wd_report_t report, void *arg);
/* Stop watching; once it returns, the report will not run for this run. */
void wd_disarm(void);

/* The consumer's count, or a producer's: one store, no ordering. */
static inline void wd_count(unsigned long *count, unsigned long v)
{
	__atomic_store_n(count, v, __ATOMIC_RELAXED);
}

static inline unsigned long wd_read(const unsigned long *count)
{
	return __atomic_load_n(count, __ATOMIC_RELAXED);
}

/* The state of a pp_ring, for a report. */
void wd_pp_ring_snapshot(const struct pp_ring *r, struct wd_ring_state *s);

/*
 * The report's text, without the program's name or the run's: where
 * the consumer stopped, and the counts (see ring_watchdog.c) against
 * @total, what the run moves.
 */
int wd_describe(char *buf, size_t len, u64 stalled_ns,
		const struct wd_ring_state *s, unsigned long total,
		unsigned long produced, unsigned long consumed);

#endif /* _RING_WATCHDOG_H */
