// SPDX-License-Identifier: GPL-2.0-or-later
/* An analysis and a calibration as the lines r0sweep appends at the end of its file (r0/analysisline.h). */
#include <errno.h>
#include <stdlib.h>

#include "r0/analysisline.h"

int r0_analysis_line_append(FILE *f, const struct r0_analysis *a, const struct r0_sweep_plan_line *plan,
			    const char *tool, int64_t time_unix)
{
	struct r0_sweep_choice_line *ch = calloc(a->n_choice ? a->n_choice : 1, sizeof(*ch));
	struct r0_sweep_analysis_line l = {
		.mix = a->mix_name, .verdict = a->detail, .lead = a->lead, .reasoning = a->reasoning,
		.members = a->max_members, .answer = r0_answer_name(a->answer), .method = a->method,
		.chunks = a->chunks, .threshold = a->cmp.threshold, .confidence = a->cmp.confidence,
		.indicative = a->indicative, .choices = ch, .n_choices = a->n_choice, .plan = plan,
		.tool = tool, .time_unix = time_unix,
	};
	int err;

	if (!ch)
		return -ENOMEM;
	for (size_t k = 0; k < a->n_choice; k++) {
		const struct r0_choice *c = &a->choice[k];

		ch[k] = (struct r0_sweep_choice_line){
			.layer = c->layer, .chunk_bytes = c->chunk_bytes, .score = c->score,
			.score_min = c->score_min, .score_max = c->score_max, .tie_best = c->tie_best,
			.picked = k == a->pick,
		};
	}
	err = r0_sweep_analysis_append(f, &l);
	free(ch);
	return err;
}

int r0_calibration_line_append(FILE *f, const struct r0_calibration *k, const char *tool, int64_t time_unix)
{
	const struct r0_noise_diag *d = &k->noise;
	struct r0_sweep_calib_target_line t[R0_NOISE_MAX_TARGETS];
	struct r0_sweep_calibration_line l = {
		.copies = k->copies, .members = k->members, .passes = k->passes, .mix = k->mix_name,
		.wl_compared = k->wl_compared, .wl_false = k->wl_false, .mix_compared = k->mix_compared,
		.mix_false = k->mix_loses + k->mix_too_noisy, .visit_sd = d->visit_sd, .visit_rho = d->visit_rho,
		.kurtosis = d->kurtosis, .max_drift = d->max_drift, .run_noise_max = d->run_noise_max,
		.targets = t, .n_targets = d->n_target < R0_NOISE_MAX_TARGETS ? d->n_target : R0_NOISE_MAX_TARGETS,
		.within = d->within, .sentence = d->sentence, .answer = k->answer, .tool = tool,
		.time_unix = time_unix,
	};

	for (size_t i = 0; i < l.n_targets; i++)
		t[i] = (struct r0_sweep_calib_target_line){
			.name = d->target[i].name, .visits = d->target[i].visits,
			.visit_sd = d->target[i].visit_sd, .run_noise = d->target[i].run_noise,
		};
	return r0_sweep_calibration_append(f, &l);
}
