/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_relax(), and the one policy every waiter in these programs uses:
 * spin a little, then give the CPU away.
 */
#ifndef _SHIM_LINUX_PROCESSOR_H
#define _SHIM_LINUX_PROCESSOR_H

#include <sched.h>

/*
 * Like the kernel's: a pause hint that is also a compiler barrier.
 * These programs are x86-64 only (pause here, rdtsc in clock.h).
 */
static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

#define SHIM_SPINS_BEFORE_YIELD	64

/*
 * One step of waiting for another thread (a lock holder, a producer
 * between claim and publish, the consumer making room). The kernel
 * never yields there: its lock holders and claimers run with
 * preemption (or BH) off, so the thread waited for is always running.
 * Threads here can be preempted while others wait for them, and with
 * more threads than CPUs a pure spinner would burn its whole time
 * slice; yielding after a short spin bounds that cost, and both rings
 * pay it under the same rule.
 */
static inline void shim_wait(unsigned int *spins)
{
	if (++*spins < SHIM_SPINS_BEFORE_YIELD) {
		cpu_relax();
		return;
	}
	*spins = 0;
	sched_yield();
}

#endif /* _SHIM_LINUX_PROCESSOR_H */
