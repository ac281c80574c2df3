/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's SMP barriers and cmpxchg() as gcc __atomic builtins.
 * Each has the kernel's ordering or a stronger one, so code correct
 * under the kernel's memory model stays correct here; each is also
 * visible to ThreadSanitizer, except the fences (see smp_wmb()).
 */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>

/* Full barrier: a seq_cst fence orders everything before and after. */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

/*
 * smp_rmb() orders loads against later loads; an acquire fence orders
 * them against later loads and stores: stronger. On x86 it compiles to
 * a compiler barrier only, as the kernel's does.
 */
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)

/*
 * smp_wmb() orders stores against later stores; a release fence orders
 * loads and stores before it against later stores: stronger, and on
 * x86 a compiler barrier only, as the kernel's. TSan does not model
 * fences: only ptr_ring uses them, and it is not run under TSan.
 */
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)

#ifdef SHIM_ACQUIRE_HOOK
extern void (*shim_acquire_hook)(const void *ptr);
/*
 * An acquire load: the kernel's ordering, by definition. A test may set
 * shim_acquire_hook to act, as another CPU would, just before one
 * executes (built with SHIM_ACQUIRE_HOOK only).
 */
#define smp_load_acquire(p)					\
	({							\
		typeof(p) __shim_p = (p);			\
		if (shim_acquire_hook)				\
			shim_acquire_hook((const void *)__shim_p); \
		__atomic_load_n(__shim_p, __ATOMIC_ACQUIRE);	\
	})
#else
/* An acquire load: the kernel's ordering, by definition. */
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#endif
/* A release store: the kernel's ordering, by definition. */
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

/*
 * A test may set shim_cmpxchg_hook to act, as another CPU would, just
 * before a cmpxchg() executes (built with SHIM_CMPXCHG_HOOK only).
 */
#ifdef SHIM_CMPXCHG_HOOK
extern void (*shim_cmpxchg_hook)(void *ptr);
#define shim_cmpxchg_call(p)					\
	do {							\
		if (shim_cmpxchg_hook)				\
			shim_cmpxchg_hook((void *)(p));		\
	} while (0)
#else
#define shim_cmpxchg_call(p)	do { } while (0)
#endif

/*
 * The kernel's cmpxchg() is fully ordered: as if smp_mb() came before
 * and after it. On x86 a locked instruction is itself a full barrier
 * (Intel SDM vol. 3A, "Memory Ordering in P6 and More Recent Processor
 * Families"), so a seq_cst compare-exchange, which gcc emits as lock
 * cmpxchg, between compiler barriers is exactly the kernel's x86
 * cmpxchg(). (Elsewhere it would need seq_cst fences around it: these
 * programs are x86-64 only.) Returns the value found, as the kernel's.
 */
#define cmpxchg(p, o, n)						\
({									\
	__auto_type __shim_p = (p);					\
	__typeof__(*__shim_p) __shim_old = (o);				\
									\
	shim_cmpxchg_call(__shim_p);					\
	barrier();							\
	__atomic_compare_exchange_n(__shim_p, &__shim_old, (n), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	barrier();							\
	__shim_old;							\
})

#endif /* _SHIM_LINUX_ATOMIC_H */
