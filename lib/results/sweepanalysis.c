// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep/1's lines at the end, "analysis" and "calibration", written (r0/sweep.h); sweep.c reads them back. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "jsonl.h"
#include "r0/jsonfields.h"
#include "r0/sweep.h"

static void add_str(json_object *o, const char *k, const char *v)
{
	r0_json_set(o, k, json_object_new_string(v));
}

static void add_int(json_object *o, const char *k, int64_t v)
{
	r0_json_set(o, k, json_object_new_int64(v));
}

static void add_dbl(json_object *o, const char *k, double v)
{
	r0_json_set(o, k, json_object_new_double(v));
}

static void add_bool(json_object *o, const char *k, bool v)
{
	r0_json_set(o, k, json_object_new_boolean(v));
}

/* A line of TYPE, its schema and type first, as every r0sweep/1 line starts. */
static json_object *line_new(const char *type)
{
	json_object *o = json_object_new_object();

	if (o) {
		r0_json_schema(o, R0_SWEEP_SCHEMA);
		add_str(o, "type", type);
	}
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
	add_bool(o, "adaptive", p->adaptive);
	r0_json_set(o, "looks", looks);
	add_dbl(o, "budget_s", p->budget_s);
	add_str(o, "stopped", r0_sweep_stopped_name(p->stopped));
	add_str(o, "open", p->open);
	add_str(o, "dropped", p->dropped);
	add_int(o, "cells", (int64_t)p->cells);
	return o;
}

static json_object *choice_json(const struct r0_sweep_choice_line *c)
{
	json_object *o = json_object_new_object();

	add_str(o, "layer", r0_layer_name(c->layer));
	add_int(o, "chunk_bytes", c->chunk_bytes);
	add_dbl(o, "score", c->score);
	add_dbl(o, "score_min", c->score_min);
	add_dbl(o, "score_max", c->score_max);
	add_bool(o, "tie_best", c->tie_best);
	add_bool(o, "picked", c->picked);
	return o;
}

int r0_sweep_analysis_append(FILE *f, const struct r0_sweep_analysis_line *l)
{
	json_object *o = line_new("analysis"), *ch;

	if (!o)
		return -ENOMEM;
	add_str(o, "mix", l->mix);
	add_str(o, "verdict", l->verdict);
	add_str(o, "lead", l->lead);
	add_str(o, "reasoning", l->reasoning);
	add_int(o, "members", l->members);
	add_str(o, "answer", l->answer);
	add_str(o, "method", l->method);
	add_str(o, "chunks", l->chunks);
	add_dbl(o, "threshold", l->threshold);
	add_dbl(o, "confidence", l->confidence);
	add_bool(o, "indicative", l->indicative);
	ch = json_object_new_array();
	for (size_t k = 0; k < l->n_choices; k++)
		json_object_array_add(ch, choice_json(&l->choices[k]));
	r0_json_set(o, "choices", ch);
	if (l->plan)
		r0_json_set(o, "plan", plan_json(l->plan));
	add_str(o, "tool", l->tool);
	add_int(o, "time", l->time_unix);
	return line_append(f, o);
}

int r0_sweep_calibration_append(FILE *f, const struct r0_sweep_calibration_line *l)
{
	json_object *o = line_new("calibration"), *ts;

	if (!o)
		return -ENOMEM;
	add_int(o, "copies", l->copies);
	add_int(o, "members", l->members);
	add_int(o, "passes", l->passes);
	add_str(o, "mix", l->mix);
	add_int(o, "wl_compared", (int64_t)l->wl_compared);
	add_int(o, "wl_false", (int64_t)l->wl_false);
	add_int(o, "mix_compared", (int64_t)l->mix_compared);
	add_int(o, "mix_false", (int64_t)l->mix_false);
	add_dbl(o, "visit_sd", l->visit_sd);
	add_dbl(o, "visit_rho", l->visit_rho);
	add_dbl(o, "kurtosis", l->kurtosis);
	add_dbl(o, "max_drift", l->max_drift);
	add_dbl(o, "run_noise_max", l->run_noise_max);
	ts = json_object_new_array();
	for (size_t i = 0; i < l->n_targets; i++) {
		json_object *t = json_object_new_object();

		add_str(t, "target", l->targets[i].name);
		add_int(t, "visits", l->targets[i].visits);
		add_dbl(t, "visit_sd", l->targets[i].visit_sd);
		add_dbl(t, "run_noise", l->targets[i].run_noise);
		json_object_array_add(ts, t);
	}
	r0_json_set(o, "targets", ts);
	add_bool(o, "within", l->within);
	add_str(o, "sentence", l->sentence);
	add_str(o, "answer", l->answer);
	add_str(o, "tool", l->tool);
	add_int(o, "time", l->time_unix);
	return line_append(f, o);
}
