/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one clock r0kit times with: CLOCK_MONOTONIC, in nanoseconds. */
#ifndef R0_CLOCK_H
#define R0_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t r0_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
