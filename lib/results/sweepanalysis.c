// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep/1's lines at the end, "analysis" and "calibration", written (r0/sweep.h); sweep.c reads them back. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "jsonl.h"
#include "r0/jsonfields.h"
#include "r0/sweep.h"

/* A line of TYPE, its schema and type first, as every r0sweep/1 line starts. */
static json_object *line_new(const char *type)
{
	json_object *o = r0_json_doc_new(R0_SWEEP_SCHEMA);

	if (o)
		r0_json_set_str(o, "type", type);
	return o;
}

/* O as one line appended to F; O is released. */
static int line_append(FILE *f, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	int err = s ? r0_jsonl_append_line(f, s) : -ENOMEM;

	json_object_put(o);
	return err;
}

static json_object *plan_json(const struct r0_sweep_plan_line *p)
{
	json_object *o = json_object_new_object(), *looks = json_object_new_array();

	for (size_t i = 0; i < p->n_looks; i++)
		json_object_array_add(looks, json_object_new_int64(p->looks[i]));
	r0_json_set_bool(o, "adaptive", p->adaptive);
	r0_json_set(o, "looks", looks);
	r0_json_set_dbl(o, "budget_s", p->budget_s);
	r0_json_set_str(o, "stopped", r0_sweep_stopped_name(p->stopped));
	r0_json_set_str(o, "open", p->open);
	r0_json_set_str(o, "dropped", p->dropped);
	r0_json_set_int(o, "cells", (int64_t)p->cells);
	return o;
}

static json_object *choice_json(const struct r0_sweep_choice_line *c)
{
	json_object *o = json_object_new_object();

	r0_json_set_str(o, "layer", r0_layer_name(c->layer));
	r0_json_set_int(o, "chunk_bytes", c->chunk_bytes);
	r0_json_set_dbl(o, "score", c->score);
	r0_json_set_dbl(o, "score_min", c->score_min);
	r0_json_set_dbl(o, "score_max", c->score_max);
	r0_json_set_bool(o, "tie_best", c->tie_best);
	r0_json_set_bool(o, "picked", c->picked);
	return o;
}

int r0_sweep_analysis_append(FILE *f, const struct r0_sweep_analysis_line *l)
{
	json_object *o = line_new("analysis"), *ch;

	if (!o)
		return -ENOMEM;
	r0_json_set_str(o, "mix", l->mix);
	r0_json_set_str(o, "verdict", l->verdict);
	r0_json_set_str(o, "lead", l->lead);
	r0_json_set_str(o, "reasoning", l->reasoning);
	r0_json_set_int(o, "members", l->members);
	r0_json_set_str(o, "answer", l->answer);
	r0_json_set_str(o, "method", l->method);
	r0_json_set_str(o, "chunks", l->chunks);
	r0_json_set_dbl(o, "threshold", l->threshold);
	r0_json_set_dbl(o, "confidence", l->confidence);
	r0_json_set_bool(o, "indicative", l->indicative);
	ch = json_object_new_array();
	for (size_t k = 0; k < l->n_choices; k++)
		json_object_array_add(ch, choice_json(&l->choices[k]));
	r0_json_set(o, "choices", ch);
	if (l->plan)
		r0_json_set(o, "plan", plan_json(l->plan));
	r0_json_set_str(o, "tool", l->tool);
	r0_json_set_int(o, "time", l->time_unix);
	return line_append(f, o);
}

int r0_sweep_calibration_append(FILE *f, const struct r0_sweep_calibration_line *l)
{
	json_object *o = line_new("calibration"), *ts;

	if (!o)
		return -ENOMEM;
	r0_json_set_int(o, "copies", l->copies);
	r0_json_set_int(o, "members", l->members);
	r0_json_set_int(o, "passes", l->passes);
	r0_json_set_str(o, "mix", l->mix);
	r0_json_set_int(o, "wl_compared", (int64_t)l->wl_compared);
	r0_json_set_int(o, "wl_false", (int64_t)l->wl_false);
	r0_json_set_int(o, "mix_compared", (int64_t)l->mix_compared);
	r0_json_set_int(o, "mix_false", (int64_t)l->mix_false);
	r0_json_set_dbl(o, "visit_sd", l->visit_sd);
	r0_json_set_dbl(o, "visit_rho", l->visit_rho);
	r0_json_set_dbl(o, "kurtosis", l->kurtosis);
	r0_json_set_dbl(o, "max_drift", l->max_drift);
	r0_json_set_dbl(o, "run_noise_max", l->run_noise_max);
	ts = json_object_new_array();
	for (size_t i = 0; i < l->n_targets; i++) {
		json_object *t = json_object_new_object();

		r0_json_set_str(t, "target", l->targets[i].name);
		r0_json_set_int(t, "visits", l->targets[i].visits);
		r0_json_set_dbl(t, "visit_sd", l->targets[i].visit_sd);
		r0_json_set_dbl(t, "run_noise", l->targets[i].run_noise);
		json_object_array_add(ts, t);
	}
	r0_json_set(o, "targets", ts);
	r0_json_set_bool(o, "within", l->within);
	r0_json_set_str(o, "sentence", l->sentence);
	r0_json_set_str(o, "answer", l->answer);
	r0_json_set_str(o, "tool", l->tool);
	r0_json_set_int(o, "time", l->time_unix);
	return line_append(f, o);
}
