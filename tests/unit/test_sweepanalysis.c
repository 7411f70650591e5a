// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/results/analysisline.c and lib/results/sweepanalysis.c:
 * r0sweep/1's lines at the end of a study as r0sweep appends them: a
 * study's analysis of the stored studies (tests/report/data/) as
 * r0sweep's end makes it, and a calibration's answer from copies made of
 * their md and dm targets, each line compared byte for byte with its golden
 * file in tests/unit/golden/. R0_GOLDEN_WRITE=1 in the environment writes
 * the golden files instead (read their diff before committing it: that is
 * the records' new text).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "r0/analysisline.h"
#include "r0/calibrate.h"
#include "r0/mix.h"
#include "r0/sweep.h"

#define GOLDEN "tests/unit/golden/sweepanalysis.jsonl"
#define GOLDEN_CALIB "tests/unit/golden/sweepcalibration.jsonl"
#define TOOL "r0sweep 0.2.0+g0123456789ab"
#define TIME 1767225600   /* 2026-01-01 00:00 UTC */

/* what an adaptive study did, as r0sweep's end tells it */
static const unsigned looks[] = { 3, 5, 8 };
static const struct r0_sweep_plan_line budget = {
	true, looks, 3, 1800, R0_SWEEP_STOPPED_BUDGET, "md 64K against md 128K under the mix",
	"dm 3 x 4K: its chunk was not in the recommended set / slower", 406,
};
static const struct r0_sweep_plan_line last_look = {
	true, looks, 3, 1800, R0_SWEEP_STOPPED_LAST_LOOK, "md 3 x 512K against 2", "", 676,
};
static const struct r0_sweep_plan_line decided = { true, looks, 2, 0, R0_SWEEP_STOPPED_DECIDED, "", "", 120 };

static const struct {
	const char *file, *mix;
	const struct r0_sweep_plan_line *plan;   /* NULL: a fixed plan */
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
	struct r0_run_set set = { 0 };
	struct r0_noise_diag nz;
	struct r0_mix mix;
	unsigned bad = 0;

	cr_assert_eq(r0_sweep_load(cases[i].file, &set, &bad), 0, "%s", cases[i].file);
	cr_assert_eq(bad, 0);
	cr_assert_eq(r0_mix_parse(cases[i].mix, &mix), 0);
	cr_assert_eq(r0_noise_diag(&set, &nz), 0);
	cr_assert_eq(r0_analyse_machine(&set, &mix, NULL, &nz, &a), 0);
	r0_run_set_free(&set);
	cr_assert_eq(r0_analysis_line_append(f, &a, cases[i].plan, TOOL, TIME), 0);
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

/* F's lines against the golden file's, line by line so a difference names its case (NAME(i)). */
static void same_as_golden(FILE *f, const char *golden, size_t n_lines, const char *(*name)(size_t i))
{
	char *got, *want;
	size_t n_got, n_want;
	FILE *g;

	got = slurp(f, &n_got);
	if (getenv("R0_GOLDEN_WRITE")) {
		g = fopen(golden, "we");
		cr_assert_not_null(g, "%s: %s", golden, strerror(errno));
		cr_assert_eq(fwrite(got, 1, n_got, g), n_got);
		cr_assert_eq(fclose(g), 0);
	}
	g = fopen(golden, "re");
	cr_assert_not_null(g, "%s: %s (R0_GOLDEN_WRITE=1 writes it)", golden, strerror(errno));
	want = slurp(g, &n_want);
	fclose(g);
	for (size_t i = 0, at_got = 0, at_want = 0; i < n_lines; i++) {
		char *eg = strchr(got + at_got, '\n'), *ew = strchr(want + at_want, '\n');

		cr_assert(eg && ew, "%s: a line missing", name(i));
		*eg = *ew = 0;
		cr_expect_str_eq(got + at_got, want + at_want, "%s differs from %s", name(i), golden);
		at_got = (size_t)(eg - got) + 1;
		at_want = (size_t)(ew - want) + 1;
	}
	cr_expect_eq(n_got, n_want, "%zu bytes, the golden file %zu", n_got, n_want);
	free(got);
	free(want);
}

static const char *case_name(size_t i)
{
	static char name[160];

	snprintf(name, sizeof(name), "analysis %zu (%s, %s)", i, cases[i].file, cases[i].mix);
	return name;
}

Test(sweepanalysis, lines_of_stored_studies_are_the_golden_ones, .timeout = 120)
{
	FILE *f = tmpfile();

	cr_assert_not_null(f);
	for (size_t i = 0; i < N_CASES; i++)
		line_of(i, f);
	same_as_golden(f, GOLDEN, N_CASES, case_name);
	fclose(f);
}

/*
 * A calibration of the stored studies' measurements: the raw member and
 * three targets of 2 members (md 64K, dm 64K, md 512K) as copies A, B and C
 * of md 2 x 64K. Different arrays, so the calibration finds differences;
 * the line holds whatever it found.
 */
static const char *const calib_files[] = { "tests/report/data/demo/sweep.jsonl", "tests/report/data/sample.jsonl" };
#define N_CALIB (sizeof(calib_files) / sizeof(calib_files[0]))

static const char *calib_name(size_t i)
{
	static char name[160];

	snprintf(name, sizeof(name), "calibration %zu (%s)", i, calib_files[i]);
	return name;
}

static void calibration_of(const char *file, FILE *f)
{
	static const struct { enum r0_layer layer; uint32_t chunk_bytes; } copy[] = {
		{ R0_LAYER_MD, 65536 }, { R0_LAYER_DM, 65536 }, { R0_LAYER_MD, 524288 },
	};
	struct r0_run_set all = { 0 }, set = { 0 };
	struct r0_calibration *k = calloc(1, sizeof(*k));
	struct r0_mix mix;
	unsigned bad = 0;

	cr_assert_not_null(k);
	cr_assert_eq(r0_sweep_load(file, &all, &bad), 0, "%s", file);
	for (size_t i = 0; i < all.n; i++) {
		struct r0_run r = all.recs[i];

		for (unsigned c = 0; c < 3; c++)
			if (r.n_members == 2 && r.layer == copy[c].layer && r.chunk_bytes == copy[c].chunk_bytes) {
				r.copy = c + 1;
				r.layer = R0_LAYER_MD;
				r.chunk_bytes = 65536;
			}
		if (r.copy || r.layer == R0_LAYER_RAW)
			cr_assert_eq(r0_run_set_add(&set, &r), 0);
	}
	r0_run_set_free(&all);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	cr_assert_eq(r0_calibrate(&set, &mix, NULL, k), 0);
	r0_run_set_free(&set);
	/* the answer holds the sentence whole, its end included (a short buffer once cut it) */
	cr_expect(strstr(k->answer, k->noise.sentence), "%s", k->answer);
	cr_assert_eq(r0_calibration_line_append(f, k, TOOL, TIME), 0);
	free(k);
}

Test(sweepanalysis, calibration_lines_are_the_golden_ones, .timeout = 120)
{
	FILE *f = tmpfile();

	cr_assert_not_null(f);
	for (size_t i = 0; i < N_CALIB; i++)
		calibration_of(calib_files[i], f);
	same_as_golden(f, GOLDEN_CALIB, N_CALIB, calib_name);
	fclose(f);
}
