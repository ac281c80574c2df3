/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: Return ring
 *
 * The page_pool return ring (struct pp_ring): a bounded array of
 * pointers with many producers, a single consumer and no lock.
 *
 * A producer claims cells by advancing @tail with cmpxchg, as long as
 * fewer than @capacity cells lie between the consumer's head and it,
 * then publishes each claimed cell with a release store of its
 * (non-NULL) pointer. Nothing on the producer side sleeps, spins on
 * another producer or needs BH or IRQs off: any context may produce,
 * hard IRQ included.
 *
 * The consumer takes cells in index order from @head while they hold a
 * pointer, clears them, then publishes the new @head with a release
 * store, once per call, so that room comes back as soon as it is taken.
 *
 * A claim is sized from @head_seen, a copy of @head on @tail's line
 * (which the cmpxchg needs anyway), so that the line of @head, written
 * whenever the consumer takes something, stays on the consumer's CPU
 * until the ring looks full. Only when the copy shows less room than wanted does a
 * producer read @head (acquire) and, if it moved, cmpxchg it into
 * @head_seen from the value it sized from. As the copy always holds a
 * value @head had, and @head only grows, a claim sized from it may see
 * less room than there is, never more. Of two racing refreshes only the
 * first lands, so the copy never goes backwards: a stalled producer
 * cannot put back a value so old that, with 32-bit indices, @tail minus
 * it would wrap to a small number.
 *
 * A producer only writes cells the consumer is done with: a claim
 * reaching index i saw some head h with i < h + capacity, so the cell's
 * previous occupant (i minus a power of two not below capacity) is below
 * h, and the consumer cleared it before the release store that wrote h
 * (or an earlier one). An acquire of h from @head pairs with that store;
 * one from @head_seen pairs with the fully ordered cmpxchg that stored
 * h, made after an acquire of h from @head. By transitivity the clearing
 * happens before the claim, and so before the producer's store into the
 * cell. Both copies are read before @tail, so the room computed never
 * wraps below zero either.
 *
 * A cell claimed but not yet published reads NULL. When the cell at
 * @head is such a hole and the one after it is published, the consumer
 * steps over the hole: it takes the published cells that follow, up to
 * the next unpublished one, and marks them PP_RING_TAKEN. They keep
 * their room until @head passes them, and @ahead says where past @head
 * the next look starts. So a producer that an IRQ stopped in its window,
 * and whose CPU then runs the consumer's NAPI in softirq, holds up only
 * its own cell. A hole of several cells (one bulk claim) is not stepped
 * over: a bulk producer keeps softirqs off for its window instead. A
 * producer that publishes its cells in index order, as pp_ring_produce()
 * does, has its order kept: the consumer takes cells in index order,
 * stops at the first unpublished one and stops stepping over the hole
 * once it sees it published, and a producer's later claims follow its
 * publishes.
 *
 * Cells taken ahead count against the room until the hole is published,
 * and two unpublished cells in a row stop the consumer. With preemption
 * off in the producers' windows, neither lasts longer than a hard IRQ
 * and the softirqs it runs on a producer's CPU.
 */
#ifndef _NET_CORE_PAGE_POOL_RING_H
#define _NET_CORE_PAGE_POOL_RING_H

#include <linux/atomic.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/page_pool.h>

/* Left in a cell taken ahead of @head; no producer stores this value. */
#define PP_RING_TAKEN	((void *)-1L)

/* @r must be zeroed; it holds @capacity (>= 1) pointers, in cells on @nid.
 * Returns 0 or -ENOMEM.
 */
static inline int pp_ring_init(struct pp_ring *r, unsigned int capacity,
			       int nid)
{
	unsigned long size = roundup_pow_of_two(capacity);

	r->cells = kvzalloc_node(array_size(size, sizeof(*r->cells)),
				 GFP_KERNEL, nid);
	if (!r->cells)
		return -ENOMEM;
	r->mask = size - 1;
	r->capacity = capacity;
	return 0;
}

/* The ring must have been drained. */
static inline void pp_ring_free(struct pp_ring *r)
{
	kvfree(r->cells);
	r->cells = NULL;
}

/* Free cells between @head and @tail, none if @head is stale enough. */
static inline unsigned long pp_ring_room(const struct pp_ring *r,
					 unsigned long head, unsigned long tail)
{
	unsigned long used = tail - head;

	return used < r->capacity ? r->capacity - used : 0;
}

/* Claim up to @want (>= 1) consecutive cells from *@first on, each to be
 * published with pp_ring_publish(). Sized from @head_seen; @head is read
 * only when that shows too little room (DOC: Return ring). Returns how
 * many were claimed, 0 if the ring is full.
 */
static inline unsigned int pp_ring_claim(struct pp_ring *r, unsigned int want,
					 unsigned long *first)
{
	unsigned long seen, head, tail, room;

	do {
		/* Pairs with the cmpxchg of @head_seen below. */
		seen = smp_load_acquire(&r->head_seen);
		tail = READ_ONCE(r->tail);
		room = pp_ring_room(r, seen, tail);
		if (room < want) {
			/* Pairs with pp_ring_consume(): taken cells are clear. */
			head = smp_load_acquire(&r->head);
			/* Pairs with the acquire of the copy above. */
			if (head != seen)
				cmpxchg(&r->head_seen, seen, head);
			tail = READ_ONCE(r->tail);
			room = pp_ring_room(r, head, tail);
			if (!room)
				return 0;
		}
		room = min_t(unsigned long, want, room);
	} while (cmpxchg(&r->tail, tail, tail + room) != tail);

	*first = tail;
	return room;
}

/* @ptr is not NULL. A producer publishes its cells in index order
 * (DOC: Return ring); once its last is published it may not touch
 * whatever owns the ring any more: the consumer may free it.
 */
static inline void pp_ring_publish(struct pp_ring *r, unsigned long index,
				   void *ptr)
{
	/* Pairs with the acquire in pp_ring_take() and pp_ring_take_ahead(). */
	smp_store_release(&r->cells[index & r->mask], ptr);
}

/* Store what fits of @n pointers (none NULL or PP_RING_TAKEN): one claim,
 * then the publishes in order; the caller keeps the window between short
 * (DOC: Return ring). Returns how many were stored, from the first.
 */
static inline unsigned int pp_ring_produce(struct pp_ring *r, void **ptrs,
					   unsigned int n)
{
	unsigned long first;
	unsigned int i;

	n = pp_ring_claim(r, n, &first);
	for (i = 0; i < n; i++)
		pp_ring_publish(r, first + i, ptrs[i]);
	return n;
}

/* The pointer in cell @index, if published; the cell is then cleared. */
static inline void *pp_ring_take(struct pp_ring *r, unsigned long index)
{
	void **cell = &r->cells[index & r->mask];
	/* Pairs with pp_ring_publish(): the pointed-to data is seen. */
	void *ptr = smp_load_acquire(cell);

	if (ptr)
		WRITE_ONCE(*cell, NULL);
	return ptr;
}

/* The cell at @head is unpublished: take the published cells after it (or
 * after those already taken ahead) up to the next unpublished one, leaving
 * PP_RING_TAKEN in them. Only while the hole stays unpublished: once its
 * producer published it, the cells it published next must not come out
 * first. The capacity bound only keeps the scan from wrapping onto the hole.
 */
static inline unsigned int pp_ring_take_ahead(struct pp_ring *r,
					      unsigned long head, void **out,
					      unsigned int max)
{
	void **hole = &r->cells[head & r->mask], **cell;
	unsigned long i = head + (r->ahead ?: 1);
	unsigned int n = 0;
	void *ptr;

	while (n < max && i - head < r->capacity) {
		cell = &r->cells[i & r->mask];
		/* Pairs with pp_ring_publish(), as in pp_ring_take(); if this
		 * cell's producer published the hole first, the hole reads
		 * published below.
		 */
		ptr = smp_load_acquire(cell);
		if (!ptr || READ_ONCE(*hole))
			break;
		WRITE_ONCE(*cell, PP_RING_TAKEN);
		out[n++] = ptr;
		i++;
	}
	if (n)
		r->ahead = i - head;
	return n;
}

/* pp_ring_consume() when cells were taken ahead of @head: the in-order
 * pass clears them as it passes them, and gives nothing out for them.
 */
static inline unsigned int pp_ring_consume_past(struct pp_ring *r,
						void **out, unsigned int max)
{
	unsigned long head = r->head, start = head;
	unsigned int n = 0;
	void *ptr = NULL;

	while (n < max && (ptr = pp_ring_take(r, head))) {
		head++;
		if (ptr != PP_RING_TAKEN)
			out[n++] = ptr;
	}
	/* Still at the hole: go on from where the last look stopped. */
	if (head == start)
		return pp_ring_take_ahead(r, head, out, max);
	/* Room back once the cells are clear: see pp_ring_claim(). */
	smp_store_release(&r->head, head);
	r->ahead -= min_t(unsigned long, r->ahead, head - start);
	if (!ptr && n < max)
		n += pp_ring_take_ahead(r, head, out + n, max - n);
	return n;
}

/* The single consumer only: take up to @max published pointers into @out,
 * in index order from @head, stepping over an unpublished one there
 * (DOC: Return ring). Returns how many; a call may move @head past cells
 * taken ahead and still take none.
 */
static inline unsigned int pp_ring_consume(struct pp_ring *r, void **out,
					   unsigned int max)
{
	unsigned long head = r->head;
	unsigned int n = 0;
	void *ptr;

	if (unlikely(r->ahead))
		return pp_ring_consume_past(r, out, max);
	while (n < max && (ptr = pp_ring_take(r, head))) {
		out[n++] = ptr;
		head++;
	}
	if (n) {
		/* Room back once the cells are clear: see pp_ring_claim(). */
		smp_store_release(&r->head, head);
	}
	/* Stopped at an unpublished cell: is the one after it published? */
	if (n < max && READ_ONCE(r->cells[(head + 1) & r->mask]))
		n += pp_ring_take_ahead(r, head, out + n, max - n);
	return n;
}

/* How many pointers the ring ever accepted; it wraps at ULONG_MAX. */
static inline unsigned long pp_ring_stores(const struct pp_ring *r)
{
	return READ_ONCE(r->tail);
}

#endif /* _NET_CORE_PAGE_POOL_RING_H */
