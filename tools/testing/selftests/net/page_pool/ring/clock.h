/* SPDX-License-Identifier: GPL-2.0 */
/* Time stamps and CPU placement for the ring programs. */
#ifndef _RING_CLOCK_H
#define _RING_CLOCK_H

#include <linux/types.h>

/* Time stamp counter ticks, as the kernel benchmarks' get_cycles(). */
static inline u64 tsc(void)
{
	return __builtin_ia32_rdtsc();
}

u64 now_ns(void);
/* Time stamp counter ticks per nanosecond, measured once. */
double tsc_per_ns(void);
/* Run the calling thread on @cpu modulo the CPUs it may use. */
int pin_to_cpu(unsigned int cpu);
unsigned int online_cpus(void);

#endif /* _RING_CLOCK_H */
