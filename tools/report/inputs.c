// SPDX-License-Identifier: GPL-2.0-or-later
/* The result files r0report is given, read by their schema; sweeps pooled only from one study (inputs.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

#include "r0/age.h"
#include "r0/benchcommon.h"
#include "r0/benchjson.h"
#include "r0/resultfiles.h"
#include "r0/scenariojson.h"

/* What is not pooled, in words: sweep cells of studies, or scenario cycles of runs. */
struct pool_words {
	const char *parts, *unit, *units, *each;   /* "cells", "study", "studies", "study" */
};

/* Says why PATH's records are not pooled with FIRST's (one file when the same): another WHY. */
static void say_not_pooled(const struct pool_words *w, const char *first, const char *path, const char *why)
{
	if (!strcmp(first, path))
		fprintf(stderr, PROG ": %s: %s of two %s in one file, another %s; not pooled (report each %s from its "
			"own file)\n", path, w->parts, w->units, why, w->each);
	else
		fprintf(stderr, PROG ": %s: another %s than %s, another %s; not pooled (report each file on its own)\n",
			path, w->unit, first, why);
}

/*
 * Sweep files are pooled only when every cell comes from the same study
 * (devices, state, preconditioning, region, runtime, ramp): a report over
 * two studies would tell neither. The records SET->recs[from..] just
 * read from PATH against the first one (of FIRST). true (and said why)
 * when they differ.
 */
static bool study_mixed(const struct r0_run_set *set, size_t from, const char *first, const char *path)
{
	static const struct pool_words w = { "cells", "study", "studies", "study" };
	char why[2 * R0_DEVICES_TEXT_MAX + 64];   /* "devices (A vs B)" whole */

	for (size_t i = from; i < set->n; i++)
		if (r0_run_study_diff(&set->recs[0], &set->recs[i], why, sizeof(why))) {
			say_not_pooled(&w, first, path, why);
			return true;
		}
	return false;
}

/* Scenario rows S->row[from..] of PATH against the first (of FIRST), as study_mixed: true (and said why) when another run's. */
static bool scenario_mixed(const struct r0_scenario *s, size_t from, const char *first, const char *path)
{
	static const struct pool_words w = { "cycles", "scenario run", "scenario runs", "run" };
	char why[192];

	for (size_t i = from; i < s->n; i++)
		if (r0_scenario_study_diff(&s->row[0], &s->row[i], why, sizeof(why))) {
			say_not_pooled(&w, first, path, why);
			return true;
		}
	return false;
}

bool has_bom(const char *path)
{
	unsigned char head[3] = { 0 };
	FILE *f = fopen(path, "rb");
	bool bom;

	if (!f)
		return false;
	bom = fread(head, 1, 3, f) == 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf;
	fclose(f);
	return bom;
}

#define NOT_READ "not a result file r0report reads (schema " R0_SWEEP_SCHEMA ", r0trim/1, " R0_SCENARIO_SCHEMA \
	", " R0_STATE_SCHEMA " or r0bench/1)"

int load_inputs(char **files, int n, struct inputs *in)
{
	const char *first_sweep = NULL, *first_scen = NULL;
	struct extra *x = &in->x;
	uint64_t *digest = calloc((size_t)n + 1, sizeof(*digest));
	int rc = -1;

	x->trim = calloc((size_t)n, sizeof(*x->trim));
	x->age = calloc((size_t)n, sizeof(*x->age));
	x->bench = calloc((size_t)n, sizeof(*x->bench));
	x->bench_file = calloc((size_t)n, sizeof(*x->bench_file));
	if (!x->trim || !x->age || !x->bench || !x->bench_file || !digest) {
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		goto out;
	}
	for (int i = 0; i < n; i++) {
		enum r0_result_kind kind = R0_RESULT_SWEEP;
		struct r0_sweep_damage dmg = { 0 };
		int err = r0_result_kind(files[i], &kind);

		/* another result given twice or copied (re-serialised too) would be reported twice: its
		 * figures, its verdict */
		if (!err && kind != R0_RESULT_SWEEP && !(err = r0_result_digest(files[i], &digest[i])))
			for (int j = 0; j < i; j++)
				if (digest[j] == digest[i]) {
					fprintf(stderr, PROG ": %s: the same results as %s (a file given twice, or a "
						"copy): refused, they would be counted twice\n", files[i], files[j]);
					goto out;
				}
		if (!err && kind == R0_RESULT_SWEEP) {
			size_t before = in->set.n;

			in->sweeps.set = &in->set;
			if (sweep_in_read(PROG, &in->sweeps, files[i], NOT_READ))
				goto out;
			in->have_sweep = true;
			if (study_mixed(&in->set, before, first_sweep ? first_sweep : files[i], files[i]))
				goto out;
			if (!first_sweep && in->set.n)
				first_sweep = files[i];
		} else if (!err && kind == R0_RESULT_TRIM) {
			err = r0_trimres_load(files[i], &x->trim[x->n_trim]);
			x->n_trim += !err;
		} else if (!err && kind == R0_RESULT_BENCH) {
			err = r0_bench_load(files[i], &x->bench[x->n_bench]);
			if (err == -ENOMSG)
				err = -EINVAL;
			x->bench_file[x->n_bench] = files[i];
			x->n_bench += !err;
		} else if (!err && kind == R0_RESULT_AGE) {
			err = r0_ageres_load(files[i], &x->age[x->n_age]);
			x->n_age += !err;
		} else if (!err) {
			size_t before = x->scen.n;

			err = r0_scenario_load(files[i], &x->scen, &dmg);
			if (!err && scenario_mixed(&x->scen, before, first_scen ? first_scen : files[i], files[i]))
				goto out;
			if (!err && !first_scen)
				first_scen = files[i];
		}
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", files[i],
				err == -EINVAL && has_bom(files[i]) ? BOM_SAID
				: err == -EINVAL ? NOT_READ
				: err == -EBADMSG && kind == R0_RESULT_TRIM
					? "an r0trim/1 document whose verdict is not one r0trim writes, or disagrees with "
					  "its checks or discards_pass (edited or damaged): refused"
				: err == -ERANGE && kind == R0_RESULT_TRIM
					? "an r0trim/1 document of more members or watched devices (16) or ranges (32) "
					  "than r0trim writes: refused"
					: strerror(-err));
			goto out;
		}
		/* a scenario damaged inside is part of a run of cycles: refused as a sweep is, skipped when asked */
		if (r0_sweep_damage_inside(&dmg) && !in->sweeps.skip_damaged) {
			fprintf(stderr, PROG ": %s: line %u damaged (%u unreadable line%s): what reads is part of the "
				"cycles; --skip-damaged to go on without %s\n", files[i], dmg.first_bad, dmg.bad,
				dmg.bad == 1 ? "" : "s", dmg.bad == 1 ? "it" : "them");
			goto out;
		}
		if (dmg.bad) {
			size_t at = strlen(x->scen_skipped);

			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped (line %u%s)\n", files[i], dmg.bad,
				dmg.bad == 1 ? "" : "s", dmg.first_bad,
				r0_sweep_damage_inside(&dmg) ? ", --skip-damaged" : ": the last, cut mid-write");
			snprintf(x->scen_skipped + at, sizeof(x->scen_skipped) - at, "%s%s: %u unreadable line%s "
				 "from line %u", at ? "; " : "", files[i], dmg.bad, dmg.bad == 1 ? "" : "s", dmg.first_bad);
		}
	}
	rc = 0;
out:
	free(digest);
	return rc;
}

void inputs_free(struct inputs *in)
{
	r0_run_set_free(&in->set);
	sweep_in_free(&in->sweeps);
	free(in->x.trim);
	free(in->x.age);
	for (size_t i = 0; i < in->x.n_bench; i++)
		r0_bench_doc_free(&in->x.bench[i]);
	free(in->x.bench);
	free(in->x.bench_file);
	r0_scenario_free(&in->x.scen);
}

int bench_apart(const struct extra *x)
{
	char why[4096];

	if (!r0_bench_none_common(x->bench, x->bench_file, x->n_bench, why, sizeof(why)))
		return 0;
	fprintf(stderr, PROG ": the r0bench files have no test in common (one test is one rw, block size, queue "
		"depth and jobs), so nothing compares them: %s\n", why);
	return -1;
}
