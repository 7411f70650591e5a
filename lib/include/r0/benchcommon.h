/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which tests of r0bench/1 documents (r0/benchjson.h) are one measurement,
 * so several drives or arrays are compared only where they ran the same:
 * the same pattern, direction, block size, queue depth and jobs. A label
 * ("RND4K Q32T1") alone says none of these. Pure: no I/O.
 */
#ifndef R0_BENCHCOMMON_H
#define R0_BENCHCOMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/benchjson.h"

/* Whether A and B measured the same (a discard test is the same as no other). */
bool r0_bench_same_test(const struct r0_bench_result *a, const struct r0_bench_result *b);

/* A test in words: its label and direction, then what it measured: "RND4K Q32T1 read (random 4K QD32 T1)". */
void r0_bench_test_name(const struct r0_bench_result *r, char *buf, size_t len);

/* How many tests of D[0] every one of D[0..n) ran (r0_bench_same_test); D[0]'s count for n 1. */
size_t r0_bench_common_tests(const struct r0_bench_doc *d, size_t n);

/*
 * When D[0..n) (n at least 2) have no test in common: 1, and WHY names
 * each document by NAMES[i] with its tests ("a.json: 4K QD1 read (random
 * 4K QD1 T1); b.json: 64K QD1 read (random 64K QD1 T1)", at most 8 a
 * document, then how many more). 0 when they have one.
 */
int r0_bench_none_common(const struct r0_bench_doc *d, const char *const *names, size_t n, char *why, size_t len);

#endif
