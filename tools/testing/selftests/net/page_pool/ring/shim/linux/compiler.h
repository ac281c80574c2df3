/* SPDX-License-Identifier: GPL-2.0 */
/*
 * READ_ONCE() and WRITE_ONCE() as C11 atomics, so that both the
 * compiler and ThreadSanitizer see them as the single, untorn accesses
 * the kernel makes them, instead of as data races.
 */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Any gcc attribute; the kernel spells each out in compiler_attributes.h. */
#define __shim_attribute(a)	__attribute__((a))
#define __aligned(x)	__shim_attribute(__aligned__(x))

/* The kernel's barrier(): the compiler may not move memory accesses. */
static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/*
 * The kernel's READ_ONCE() orders nothing but the accesses that depend
 * on the value read (address dependencies: ptr_ring's consumer relies
 * on that for the data behind the pointer). C11 calls that consume;
 * gcc implements consume as acquire, which is stronger. On x86 both
 * are a plain load, as READ_ONCE() is in the kernel.
 */
#define READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_CONSUME)

/*
 * The kernel's WRITE_ONCE() orders nothing: relaxed is the same.
 *
 * ringstress builds with SHIM_PLAIN_WRITE_ONCE, to make it a plain
 * store instead. The ring's WRITE_ONCE()s are the consumer's, clearing
 * a cell it has taken or marking one taken ahead of @head; no other
 * thread may touch that cell until a producer's claim has seen the
 * room it gives back, through @head. As a plain store,
 * ThreadSanitizer reports the clearing as racing with
 * the next producer's store into the cell unless that chain of release
 * and acquire orders the two, which a relaxed one would not: the check
 * the atomic store, always race-free to TSan, could not make.
 */
#ifdef SHIM_PLAIN_WRITE_ONCE
#define WRITE_ONCE(x, val)	((x) = (val))
#else
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#endif

#endif /* _SHIM_LINUX_COMPILER_H */
