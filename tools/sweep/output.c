// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's output: the resume check, the analysis printed and recorded, the members described. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#include "r0/age.h"
#include "r0/advice.h"
#include "r0/analysis.h"
#include "r0/analysisline.h"
#include "r0/calibrate.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/probe.h"
#include "r0/size.h"
#include "r0/trimanswer.h"

int sweep_check_resume(const struct sweep *sw, const char *path)
{
	struct r0_run now;
	char why[2 * R0_DEVICES_TEXT_MAX + 64];   /* "devices (A vs B)" whole */

	memset(&now, 0, sizeof(now));
	sweep_study_rec(sw, &now);
	for (size_t i = 0; i < sw->done.n; i++)
		if (r0_run_study_diff(&sw->done.recs[i], &now, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: cannot resume: the file (first) and this run (second) differ "
				"in %s; use another file\n", path, why);
			return -EINVAL;
		}
	return 0;
}

/* --- the end: analysis ---------------------------------------------- */

/* Why an adaptive study ended. */
static enum r0_sweep_stopped stopped(const struct sweep *sw)
{
	if (sw->budget_hit)
		return R0_SWEEP_STOPPED_BUDGET;
	return sw->study.planner.at_max ? R0_SWEEP_STOPPED_LAST_LOOK : R0_SWEEP_STOPPED_DECIDED;
}

void sweep_print_plan_summary(const struct sweep *sw)
{
	const struct r0_planner *p = &sw->study.planner;
	char looks[64] = "";

	if (!sw->adaptive)
		return;
	for (size_t i = 0; i < p->n_looks; i++)
		snprintf(looks + strlen(looks), sizeof(looks) - strlen(looks), "%s%u",
			 !i ? "" : i + 1 == p->n_looks ? " and " : ", ", p->looks[i]);
	printf("Plan: repeats where a comparison was undecided, looking at %s repeats; %zu cells in %.0f min; ",
	       looks, sw->finished + sw->skipped, sweep_since(&sw->t0) / 60);
	if (sw->budget_hit) {
		char b[32];

		r0_plan_bound((double)sw->budget_ns / 1e9, b, sizeof(b));
		printf("the budget (%s) ended it with %s still open.\n", b,
		       p->open[0] ? p->open : "cells of the plan");
	}
	else if (p->at_max)
		printf("still open after %u repeats: %s.\n", p->looks[p->n_looks - 1], p->open);
	else
		printf("every comparison decided.\n");
	if (p->dropped[0])
		printf("Not measured: %s.\n", p->dropped);
	printf("\n");
}

/* The plan part of the analysis line: what an adaptive study did and left. */
static struct r0_sweep_plan_line plan_line(const struct sweep *sw)
{
	const struct r0_planner *p = &sw->study.planner;

	return (struct r0_sweep_plan_line){
		.adaptive = sw->adaptive, .looks = p->looks, .n_looks = p->n_looks,
		.budget_s = (double)sw->budget_ns / 1e9, .stopped = stopped(sw), .open = p->open,
		.dropped = p->dropped, .cells = sw->finished + sw->skipped,
	};
}

int sweep_finish(struct sweep *sw, const char *path, const struct r0_mix *mix, const struct r0_cmp_opts *cmp)
{
	struct r0_run_set set = { 0 };
	struct r0_analysis a;
	struct r0_sweep_plan_line plan;
	int err = r0_sweep_load(path, &set, NULL);

	if (!err) {
		struct r0_cmp_opts o = r0_planner_cmp(&sw->study.planner, cmp);

		struct r0_noise_diag nz;

		/* as r0report reads it: no claim where the runs' noise is beyond any validated */
		err = r0_noise_diag(&set, &nz);
		if (!err)
			err = r0_analyse_machine(&set, mix, &o, &nz, &a);
	}
	r0_run_set_free(&set);
	if (err) {
		fprintf(stderr, PROG ": %s: no analysis: %s\n", path, strerror(-err));
		return err;
	}
	{
		/* what r0report's terminal and the report's first screen say, then the detail */
		char first[sizeof(a.verdict) + 4096], trim[512];

		r0_trim_answer(&a, NULL, 0, trim, sizeof(trim));
		r0_first_screen_text(&a, trim, NULL, first, sizeof(first));
		printf("%s\n%s\n\n", first, a.detail);
	}
	sweep_print_replay(sw, &a);
	printf("Method: %s\n\n%s", a.method, a.reasoning);
	plan = plan_line(sw);
	err = r0_analysis_line_append(sw->out, &a, sw->adaptive ? &plan : NULL, r0_cli_tool_id(PROG),
				      (int64_t)time(NULL));
	r0_analysis_free(&a);
	if (err)
		fprintf(stderr, PROG ": cannot append the analysis: %s\n", strerror(-err));
	return err;
}

int sweep_finish_calibration(struct sweep *sw, const char *path, const struct r0_mix *mix,
			     const struct r0_cmp_opts *cmp)
{
	struct r0_run_set set = { 0 };
	struct r0_calibration *k = malloc(sizeof(*k));
	int err = k ? r0_sweep_load(path, &set, NULL) : -ENOMEM;

	if (!err) {
		struct r0_cmp_opts co = r0_planner_cmp(&sw->study.planner, cmp);

		err = r0_calibrate(&set, mix, &co, k);
	}
	r0_run_set_free(&set);
	if (err) {
		fprintf(stderr, PROG ": %s: no calibration: %s\n", path, strerror(-err));
		free(k);
		return err;
	}
	printf("%s\n", k->answer);
	err = r0_calibration_line_append(sw->out, k, r0_cli_tool_id(PROG), (int64_t)time(NULL));
	free(k);
	if (err)
		fprintf(stderr, PROG ": cannot append the calibration: %s\n", strerror(-err));
	return err;
}

/* Path as given, size, kernel name, model and serial (where the kernel has them) of every member. */
void sweep_describe_members(struct sweep *sw, const char *describe)
{
	size_t off = 0;

	if (describe)
		snprintf(sw->describe, sizeof(sw->describe), "%s", describe);
	for (unsigned i = 0; i < sw->n_members; i++) {
		struct r0_device d;
		char sz[32] = "?", what[200] = "", one[PATH_MAX + 256];
		size_t len;

		if (!r0_probe_device(sw->members[i], &d)) {
			r0_format_size_human(d.size_bytes, sz, sizeof(sz));
			/* the kernel's name beside the one given (a by-id link), then what the drive is */
			snprintf(what, sizeof(what), "%s%s%s%s%s%s, %lld-byte blocks", d.kname,
				 d.model[0] ? ", " : "", d.model, d.serial[0] ? ", serial " : "", d.serial,
				 d.rotational == 1 ? ", rotational" : "", (long long)d.logical_block_size_bytes);
			r0_device_free(&d);
		}
		len = (size_t)snprintf(one, sizeof(one), "%s%s (%s, %s)", i ? ", " : "", sw->members[i], sz, what);
		/* whole entries only: room kept for saying how many did not fit */
		if (off + len + 32 >= sizeof(sw->devices)) {
			snprintf(sw->devices + off, sizeof(sw->devices) - off, ", and %u more members",
				 sw->n_members - i);
			break;
		}
		memcpy(sw->devices + off, one, len + 1);
		off += len;
	}
}

/*
 * The members' state from their r0age records (r0/age.h): when every
 * member has a complete record of the same state, that state labels the
 * cells; otherwise the default (or --state) stands.
 */
void sweep_state_from_records(struct sweep *sw)
{
	enum r0_age_state first = 0;

	for (unsigned i = 0; i < sw->n_members; i++) {
		struct r0_state_record rec;
		int ok = !r0_state_read(sw->chk[i].devt, &rec) && rec.complete;

		if (!ok || (i && rec.state != first))
			return;
		first = rec.state;
	}
	if (sw->n_members)
		snprintf(sw->state, sizeof(sw->state), "%s", r0_age_state_name(first));
}

