/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two return rings behind one interface, each used the way its
 * page_pool uses it, so that ringbench runs the same loop on both.
 */
#ifndef _RING_OPS_H
#define _RING_OPS_H

#include <stdbool.h>
#include "ring_watchdog.h"

struct ring_ops {
	const char *name;	/* pp_ring or ptr_ring */
	const char *variant;	/* in the CSV: ours or base, as make bench */
	void *(*create)(unsigned int size);
	void (*destroy)(void *ring);
	/* Store up to @n pointers; returns how many, from the first. */
	unsigned int (*produce)(void *ring, void **ptrs, unsigned int n);
	/*
	 * Take up to @max pointers, in order per producer. When it takes
	 * none, sets *@claimed if it stopped at a cell claimed but not yet
	 * published, checking one such call in @claimed_every (0: never).
	 */
	unsigned int (*consume)(void *ring, void **out, unsigned int max,
				bool *claimed);
	unsigned int claimed_every;
	/* For the watchdog's report, once the consumer stopped. */
	void (*snapshot)(void *ring, struct wd_ring_state *s);
};

extern const struct ring_ops pp_ring_ops;
extern const struct ring_ops ptr_ring_ops;

#endif /* _RING_OPS_H */
