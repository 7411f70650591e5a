/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-made r0sweep records for the unit tests of lib/results/sweep.c and of the
 * analysis (test_analysis.c, test_ranking.c, test_verdict.c): rows of
 * cells, each with the bytes/s of its repeats, written through the
 * library's own writer and loaded back.
 */
#ifndef R0_TEST_SWEEPROWS_H
#define R0_TEST_SWEEPROWS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "r0/sweep.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u
#define M (1024u * 1024u)

/* A hand-made cell: target, workload and the bytes/s of each repeat (0 ends). */
struct row {
	enum r0_layer layer;
	uint32_t chunk;
	unsigned n;
	const char *label;
	enum r0_access access;
	uint32_t bs;
	unsigned qd, read_pct;
	double mbps[4];
};

static inline void make_rec(const struct row *w, unsigned rep, struct r0_run *r)
{
	memset(r, 0, sizeof(*r));
	r->layer = w->layer;
	r->chunk_bytes = w->chunk;
	r->n_members = w->n;
	snprintf(r->label, sizeof(r->label), "%s", w->label);
	r->access = w->access;
	r->read_pct = w->read_pct;
	r->block_bytes = w->bs;
	r->queue_depth = w->qd;
	r->jobs = 1;
	r->repeat = rep + 1;
	r->runtime_s = 2;
	r->bytes_per_s = w->mbps[rep] * 1e6;
	r->iops = r->bytes_per_s / w->bs;
	r->ios = (uint64_t)(r->iops * 2);
	r->lat_mean_ns = 1e9 * w->qd / r->iops;
	r->lat_p50_ns = (uint64_t)r->lat_mean_ns;
	r->lat_p90_ns = r->lat_p99_ns = r->lat_p999_ns = r->lat_p9999_ns = r->lat_max_ns =
		2 * r->lat_p50_ns;
	r->cpu_s_per_io = 2e-6;
	snprintf(r->state, sizeof(r->state), "empty");
	snprintf(r->devices, sizeof(r->devices), "/dev/r0m0 (256.0 MiB), /dev/r0m1 (256.0 MiB)");
	snprintf(r->describe, sizeof(r->describe), "2 x null_blk");
	r->region_bytes = 16 * M;
	r->test_runtime_s = 0.5;
	r->ramp_s = 0.1;
	snprintf(r->precondition, sizeof(r->precondition), "seq-fill");
	r->order_pos = 3;
	snprintf(r->tool, sizeof(r->tool), "r0sweep test");
}

/* Writes ROWS as a result file (through the library's own writer) and loads it. */
static inline void load_rows(const struct row *rows, size_t n, struct r0_run_set *set)
{
	char path[] = "/tmp/r0-test-sweep-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	unsigned bad = 99;

	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 4 && rows[i].mbps[k] > 0; k++) {
			struct r0_run r;

			make_rec(&rows[i], k, &r);
			cr_assert_eq(r0_sweep_rec_append(f, &r), 0);
		}
	cr_assert_eq(r0_sweep_append_json(f, "analysis", "{\"verdict\":\"ignored by readers\"}"), 0);
	fclose(f);
	memset(set, 0, sizeof(*set));
	cr_assert_eq(r0_sweep_load(path, set, &bad), 0);
	cr_expect_eq(bad, 0);
	unlink(path);
}

static inline size_t wl_index(const struct r0_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->n_wl; i++)
		if (!strcmp(a->wl[i].name, name))
			return i;
	cr_assert_fail("no workload '%s'", name);
	return 0;
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/*
 * 64K best by a hair, 512K and 128K within 5 %, 4K 60 % behind on
 * sequential reads: the set is 64K, 128K and 512K, the rule picks 512K.
 */
static const struct row pickrows[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 101, 99, 100 } },
	{ R0_LAYER_MD, 4 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 110, 111, 109, 110 } },
	{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 280, 282, 278, 280 } },
	{ R0_LAYER_MD, 128 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 276, 278, 274, 276 } },
	{ R0_LAYER_MD, 512 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 272, 274, 270, 272 } },
};

#endif
