/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A spinlock with the kernel's orderings: lock is an acquire, unlock a
 * release. Waiters spin on a plain read of the lock word and retry the
 * exchange only when it looks free, as the kernel's qspinlock does for
 * its first waiter; with two CPUs there is never a longer queue of
 * running waiters for its MCS part to matter. Userspace cannot turn
 * preemption, BH or IRQs off, so the _bh, _irq and _irqsave forms are
 * the plain lock: see shim_wait() for what that changes.
 */
#ifndef _SHIM_LINUX_SPINLOCK_H
#define _SHIM_LINUX_SPINLOCK_H

#include <linux/processor.h>
/* As the kernel's spinlock.h does, bring the barriers in. */
#include <linux/atomic.h>

struct shim_spinlock {
	int locked;
};

#define spinlock_t struct shim_spinlock

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *lock)
{
	unsigned int spins = 0;

	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			shim_wait(&spins);
	}
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_bh(lock)	spin_lock(lock)
#define spin_unlock_bh(lock)	spin_unlock(lock)
#define spin_lock_irq(lock)	spin_lock(lock)
#define spin_unlock_irq(lock)	spin_unlock(lock)
#define spin_lock_irqsave(lock, flags)			\
	do {						\
		(flags) = 0;				\
		spin_lock(lock);			\
	} while (0)
#define spin_unlock_irqrestore(lock, flags)		\
	do {						\
		(void)(flags);				\
		spin_unlock(lock);			\
	} while (0)

#endif /* _SHIM_LINUX_SPINLOCK_H */
