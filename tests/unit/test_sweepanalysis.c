// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of r0sweep/1's analysis line as r0sweep appends it at the end
 * of a study: the stored studies analysed as r0sweep's end does, each line
 * compared byte for byte with tests/unit/golden/sweepanalysis.jsonl.
 * R0_GOLDEN_WRITE=1 in the environment writes the golden file instead (read
 * its diff before committing it: that is the record's new text).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include <json-c/json.h>

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/mix.h"
#include "r0/sweep.h"

#define GOLDEN "tests/unit/golden/sweepanalysis.jsonl"
#define TOOL "r0sweep 0.2.0+g0123456789ab"
#define TIME 1767225600   /* 2026-01-01 00:00 UTC */

/* What an adaptive study did, as r0sweep's struct sweep and planner held it. */
struct plan {
	unsigned looks[3];
	size_t n_looks;
	double budget_s;
	const char *stopped, *open, *dropped;
	size_t cells;
};

/* --- r0sweep's writer as it was in tools/sweep/output.c (plan_json, sweep_finish) --- */

static json_object *plan_json(const struct plan *p)
{
	json_object *o = json_object_new_object(), *looks = json_object_new_array();

	for (size_t i = 0; i < p->n_looks; i++)
		json_object_array_add(looks, json_object_new_int((int)p->looks[i]));
	json_object_object_add(o, "adaptive", json_object_new_boolean(true));
	json_object_object_add(o, "looks", looks);
	json_object_object_add(o, "budget_s", json_object_new_double(p->budget_s));
	json_object_object_add(o, "stopped", json_object_new_string(p->stopped));
	json_object_object_add(o, "open", json_object_new_string(p->open));
	json_object_object_add(o, "dropped", json_object_new_string(p->dropped));
	json_object_object_add(o, "cells", json_object_new_int64((int64_t)(p->cells)));
	return o;
}

static int append_analysis(FILE *f, const struct r0_analysis *ap, const struct plan *plan)
{
	const struct r0_analysis a = *ap;
	json_object *o, *ch;
	int err;

	o = json_object_new_object();
	json_object_object_add(o, "mix", json_object_new_string(a.mix_name));
	json_object_object_add(o, "verdict", json_object_new_string(a.verdict));
	json_object_object_add(o, "lead", json_object_new_string(a.lead));
	json_object_object_add(o, "reasoning", json_object_new_string(a.reasoning));
	json_object_object_add(o, "members", json_object_new_int((int)a.max_members));
	json_object_object_add(o, "answer", json_object_new_string(r0_answer_name(a.answer)));
	json_object_object_add(o, "method", json_object_new_string(a.method));
	json_object_object_add(o, "chunks", json_object_new_string(a.chunks));
	json_object_object_add(o, "threshold", json_object_new_double(a.cmp.threshold));
	json_object_object_add(o, "confidence", json_object_new_double(a.cmp.confidence));
	json_object_object_add(o, "indicative", json_object_new_boolean(a.indicative));
	ch = json_object_new_array();
	for (size_t k = 0; k < a.n_choice; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "layer", json_object_new_string(r0_layer_name(a.choice[k].layer)));
		json_object_object_add(c, "chunk_bytes", json_object_new_int64(a.choice[k].chunk_bytes));
		json_object_object_add(c, "score", json_object_new_double(a.choice[k].score));
		json_object_object_add(c, "score_min", json_object_new_double(a.choice[k].score_min));
		json_object_object_add(c, "score_max", json_object_new_double(a.choice[k].score_max));
		json_object_object_add(c, "tie_best", json_object_new_boolean(a.choice[k].tie_best));
		json_object_object_add(c, "picked", json_object_new_boolean(k == a.pick));
		json_object_array_add(ch, c);
	}
	json_object_object_add(o, "choices", ch);
	if (plan)
		json_object_object_add(o, "plan", plan_json(plan));
	json_object_object_add(o, "tool", json_object_new_string(TOOL));
	json_object_object_add(o, "time", json_object_new_int64((int64_t)TIME));
	err = r0_sweep_append_json(f, "analysis", json_object_to_json_string(o));
	json_object_put(o);
	return err;
}

/* --- the cases and the golden file --- */

static const struct plan budget = {
	{ 3, 5, 8 }, 3, 1800, "budget", "md 64K against md 128K under the mix",
	"dm 3 x 4K: its chunk was not in the recommended set / slower", 406,
};
static const struct plan last_look = { { 3, 5, 8 }, 3, 1800, "last-look", "md 3 x 512K against 2", "", 676 };
static const struct plan decided = { { 3, 5 }, 2, 0, "decided", "", "", 120 };

static const struct {
	const char *file, *mix;
	const struct plan *plan;   /* NULL: a fixed plan */
} cases[] = {
	{ "tests/report/data/sample.jsonl", "desktop", &budget },
	{ "tests/report/data/sample.jsonl", "sequential", &decided },
	{ "tests/report/data/demo/sweep.jsonl", "desktop", NULL },
	{ "tests/report/data/demo/sweep.jsonl", "database", &last_look },
	{ "tests/report/data/demo/sweep-shared.jsonl", "desktop", NULL },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Case I's analysis line, as r0sweep's end analyses and appends it, into F. */
static void line_of(size_t i, FILE *f)
{
	static struct r0_analysis a;
	struct r0_sweep_set set = { 0 };
	struct r0_noise_diag nz;
	struct r0_mix mix;
	unsigned bad = 0;

	cr_assert_eq(r0_sweep_load(cases[i].file, &set, &bad), 0, "%s", cases[i].file);
	cr_assert_eq(bad, 0);
	cr_assert_eq(r0_mix_parse(cases[i].mix, &mix), 0);
	cr_assert_eq(r0_noise_diag(&set, &nz), 0);
	cr_assert_eq(r0_analyse_machine(&set, &mix, NULL, &nz, &a), 0);
	r0_sweep_set_free(&set);
	cr_assert_eq(append_analysis(f, &a, cases[i].plan), 0);
	r0_analysis_free(&a);
}

static char *slurp(FILE *f, size_t *len)
{
	long n;
	char *s;

	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	cr_assert_not_null(s);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	*len = (size_t)n;
	return s;
}

Test(sweepanalysis, lines_of_stored_studies_are_the_golden_ones, .timeout = 120)
{
	FILE *f = tmpfile(), *g;
	char *got, *want;
	size_t n_got, n_want;

	cr_assert_not_null(f);
	for (size_t i = 0; i < N_CASES; i++)
		line_of(i, f);
	got = slurp(f, &n_got);
	fclose(f);
	if (getenv("R0_GOLDEN_WRITE")) {
		g = fopen(GOLDEN, "we");
		cr_assert_not_null(g, "%s: %s", GOLDEN, strerror(errno));
		cr_assert_eq(fwrite(got, 1, n_got, g), n_got);
		cr_assert_eq(fclose(g), 0);
	}
	g = fopen(GOLDEN, "re");
	cr_assert_not_null(g, "%s: %s (R0_GOLDEN_WRITE=1 writes it)", GOLDEN, strerror(errno));
	want = slurp(g, &n_want);
	fclose(g);
	/* line by line, so a difference names its case */
	for (size_t i = 0, at_got = 0, at_want = 0; i < N_CASES; i++) {
		char *eg = strchr(got + at_got, '\n'), *ew = strchr(want + at_want, '\n');

		cr_assert(eg && ew, "case %zu (%s, %s): a line missing", i, cases[i].file, cases[i].mix);
		*eg = *ew = 0;
		cr_expect_str_eq(got + at_got, want + at_want, "case %zu (%s, %s) differs from %s", i, cases[i].file,
				 cases[i].mix, GOLDEN);
		at_got = (size_t)(eg - got) + 1;
		at_want = (size_t)(ew - want) + 1;
	}
	cr_expect_eq(n_got, n_want, "%zu bytes, the golden file %zu", n_got, n_want);
	free(got);
	free(want);
}
