// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"

u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double tsc_per_ns(void)
{
	struct timespec nap = { .tv_nsec = 100 * 1000 * 1000 };
	u64 c0, t0;

	c0 = tsc();
	t0 = now_ns();
	nanosleep(&nap, NULL);
	return (double)(tsc() - c0) / (double)(now_ns() - t0);
}

unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

int pin_to_cpu(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % online_cpus(), &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
