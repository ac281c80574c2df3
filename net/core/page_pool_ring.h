/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page_pool return ring (struct pp_ring): a bounded array of
 * pointers with many producers and a single consumer, and no lock.
 *
 * A producer claims cells by advancing @tail with cmpxchg, as long as
 * fewer than @capacity cells lie between the consumer's head and it,
 * then publishes each claimed cell with a release store of its
 * (non-NULL) pointer. Nothing on the producer side sleeps, spins on
 * another producer or needs BH or IRQs off, so any context may
 * produce, hard IRQ included.
 *
 * The consumer takes cells in index order from @head while they hold a
 * pointer, clears them, and then publishes the new @head with a release
 * store, once per call, so that room comes back as soon as it is taken.
 *
 * Producers do not read @head on every claim: with the consumer
 * writing it on every call, that would move its line to a producer and
 * back about once per call. A claim is sized from @head_seen instead,
 * a copy of @head on @tail's line, which the cmpxchg needs anyway. Only
 * when the copy shows less room than wanted does the producer read
 * @head (acquire) and, if it moved, put it into @head_seen with a
 * cmpxchg from the value it sized from.
 * So the consumer's store of @head stays on its own CPU until the ring
 * looks full, and deferring it would only hold room back.
 * The copy always holds a value @head had, and @head only grows, so a
 * claim sized from it never overfills: it may see less room than there
 * is, never more. Of two racing refreshes only the first replaces the
 * copy, so it never goes backwards: a producer stalled between its read
 * of @head and its refresh cannot put back a value so old that, with
 * 32-bit indices, @tail minus it would wrap to a small number.
 *
 * Why a producer only writes cells the consumer is done with: a claim
 * reaching index i saw some head h with i < h + capacity, and the
 * cell's previous occupant, i minus a power of two not below capacity,
 * is below h. The consumer cleared it before the release store that
 * wrote h (or an earlier one). If the producer read h from @head, its
 * acquire pairs with that store. If it read h from @head_seen, its
 * acquire pairs with the (fully ordered) cmpxchg that stored h, made
 * after that producer read h from @head with acquire. Either way the clearing
 * happens before the claim, by transitivity across the chain, and so
 * before the producer's store into the cell. Both copies are read
 * before @tail, so the room computed never wraps below zero either.
 *
 * A cell claimed but not yet published reads NULL: the consumer stops
 * there and sees the ring as empty until its producer is done, even if
 * later cells are ready. Producers keep that window short (no sleeping
 * or spinning in it), and the consumer never waits for it.
 */
#ifndef _NET_CORE_PAGE_POOL_RING_H
#define _NET_CORE_PAGE_POOL_RING_H

#include <linux/atomic.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/page_pool.h>

/**
 * pp_ring_init() - allocate an empty ring
 * @r: the ring, zeroed
 * @capacity: how many pointers it may hold, at least 1
 * @nid: NUMA node for the cells
 *
 * Return: 0, or -ENOMEM.
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

/**
 * pp_ring_free() - free the cells; the ring must have been drained
 * @r: the ring
 */
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

/**
 * pp_ring_claim() - reserve consecutive cells for a producer
 * @r: the ring
 * @want: how many cells are wanted, at least 1
 * @first: the index of the first cell claimed
 *
 * Sizes the claim from @head_seen, and reads @head only when that
 * shows less room than @want: see the comment at the top. Each attempt
 * sizes its claim from what it reads, so a retry after another
 * producer or the consumer moved may find more room than the one
 * before it.
 *
 * Return: how many cells were claimed, up to @want, or 0 if the ring
 * is full. Each must then be published with pp_ring_publish().
 */
static inline unsigned int pp_ring_claim(struct pp_ring *r, unsigned int want,
					 unsigned long *first)
{
	unsigned long seen, head, tail, room;

	do {
		/* Pairs with the release below: see the top comment. */
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

/**
 * pp_ring_publish() - hand a claimed cell's pointer to the consumer
 * @r: the ring
 * @index: the claimed cell
 * @ptr: the pointer, not NULL
 *
 * Once the last of its cells is published, the producer may not touch
 * whatever owns the ring any more: the consumer may free it.
 */
static inline void pp_ring_publish(struct pp_ring *r, unsigned long index,
				   void *ptr)
{
	/* Pairs with the acquire in pp_ring_consume(). */
	smp_store_release(&r->cells[index & r->mask], ptr);
}

/**
 * pp_ring_produce() - store what fits of an array of pointers
 * @r: the ring
 * @ptrs: the pointers, none NULL
 * @n: how many
 *
 * Claims the cells at once, then publishes them in order. The caller
 * keeps the window between the two short: see the comment at the top.
 *
 * Return: how many were stored, from the first.
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

/**
 * pp_ring_consume() - take published pointers, in order
 * @r: the ring; only its single consumer may call this
 * @out: where to store them
 * @max: room in @out
 *
 * Return: how many were taken, 0 if the cell at head is not published.
 */
static inline unsigned int pp_ring_consume(struct pp_ring *r, void **out,
					   unsigned int max)
{
	unsigned long head = r->head;
	unsigned int n = 0;
	void **cell;
	void *ptr;

	while (n < max) {
		cell = &r->cells[head & r->mask];
		/* Pairs with pp_ring_publish(): the pointed-to data is seen. */
		ptr = smp_load_acquire(cell);
		if (!ptr)
			break;
		WRITE_ONCE(*cell, NULL);
		out[n++] = ptr;
		head++;
	}
	if (!n)
		return 0;
	/* Give the room back only once the cells are clear. */
	smp_store_release(&r->head, head);
	return n;
}

/**
 * pp_ring_stores() - how many pointers the ring ever accepted
 * @r: the ring
 *
 * Return: the count of claimed cells; it wraps at ULONG_MAX.
 */
static inline unsigned long pp_ring_stores(const struct pp_ring *r)
{
	return READ_ONCE(r->tail);
}

#endif /* _NET_CORE_PAGE_POOL_RING_H */
