// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's result file: records to and from JSON lines (r0/sweep.h); its end lines are written in sweepanalysis.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "jsonl.h"
#include "r0/size.h"
#include "r0/sweep.h"
#include "r0/jsonfields.h"
#include "grow.h"

static const char *const stopped_names[] = { "decided", "last-look", "budget" };

const char *r0_sweep_stopped_name(enum r0_sweep_stopped s)
{
	return (unsigned)s < 3 ? stopped_names[s] : "?";
}

static int rw_parse(const char *s, enum r0_access *access)
{
	static const char *const names[] = { "read", "write", "rw", "randread", "randwrite", "randrw" };

	if (!strcmp(s, "fs") || !strcmp(s, "replay")) {
		*access = s[0] == 'f' ? R0_ACCESS_FS : R0_ACCESS_REPLAY;
		return 0;
	}
	for (unsigned i = 0; i < 6; i++)
		if (!strcmp(s, names[i])) {
			*access = i < 3 ? R0_ACCESS_SEQ : R0_ACCESS_RAND;
			return 0;
		}
	return -EINVAL;
}

/* Seconds asked for, as given ("0.3", not json-c's 0.29999999999999999); null when not recorded (< 0). */
static void add_secs(json_object *o, const char *k, double v)
{
	char buf[32];

	if (v < 0) {
		json_object_object_add(o, k, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%.9g", v);
	json_object_object_add(o, k, json_object_new_double_s(v, buf));
}

/* V, or null when it is not known (KNOWN false) */
static void add_int_or_null(json_object *o, const char *k, int64_t v, bool known)
{
	json_object_object_add(o, k, known ? json_object_new_int64(v) : NULL);
}

static void add_dbl_or_null(json_object *o, const char *k, double v, bool known)
{
	json_object_object_add(o, k, known ? json_object_new_double(v) : NULL);
}

char *r0_sweep_rec_to_json(const struct r0_run *r)
{
	json_object *o = r0_json_doc_new(R0_SWEEP_SCHEMA), *lat;
	char *line = NULL;

	if (!o)
		return NULL;
	r0_json_set_str(o, "type", "cell");
	r0_json_set_str(o, "layer", r0_layer_name(r->layer));
	r0_json_set_int(o, "chunk_bytes", r->chunk_bytes);
	r0_json_set_int(o, "members", r->n_members);
	r0_json_set_str(o, "workload", r->label);
	r0_json_set_str(o, "rw", r0_rw_name(r->access, r->read_pct));
	r0_json_set_int(o, "read_pct", r->read_pct);
	r0_json_set_int(o, "block_bytes", r->block_bytes);
	r0_json_set_int(o, "align_bytes", r->align_bytes);
	r0_json_set_int(o, "queue_depth", r->queue_depth);
	r0_json_set_int(o, "jobs", r->jobs ? r->jobs : 1);
	r0_json_set_int(o, "repeat", r->repeat);
	/* unknown is null, never 0 or -1: a prediction has no window, ios, errors or CPU of its
	 * own, and a latency of 0 ns was not measured (an everyday cell's, a prediction's tail) */
	add_dbl_or_null(o, "runtime_s", r->runtime_s, !r->predicted);
	add_int_or_null(o, "ios", (int64_t)r->ios, !r->predicted);
	r0_json_set_dbl(o, "iops", r->iops);
	r0_json_set_dbl(o, "bytes_per_s", r->bytes_per_s);
	add_int_or_null(o, "errors", (int64_t)r->errors, !r->predicted);
	lat = json_object_new_object();
	add_dbl_or_null(lat, "mean", r->lat_mean_ns, r->lat_mean_ns > 0);
	add_int_or_null(lat, "p50", (int64_t)r->lat_p50_ns, r->lat_p50_ns);
	add_int_or_null(lat, "p90", (int64_t)r->lat_p90_ns, r->lat_p90_ns);
	add_int_or_null(lat, "p99", (int64_t)r->lat_p99_ns, r->lat_p99_ns);
	add_int_or_null(lat, "p99.9", (int64_t)r->lat_p999_ns, r->lat_p999_ns);
	add_int_or_null(lat, "p99.99", (int64_t)r->lat_p9999_ns, r->lat_p9999_ns);
	add_int_or_null(lat, "max", (int64_t)r->lat_max_ns, r->lat_max_ns);
	json_object_object_add(o, "lat_ns", lat);
	add_dbl_or_null(o, "cpu_s_per_io", r->cpu_s_per_io, !r->predicted);
	if (r->busy > 0)
		r0_json_set_dbl(o, "busy", r->busy);
	r0_json_set_str(o, "state", r->state);
	r0_json_set_str(o, "devices", r->devices);
	r0_json_set_str(o, "describe", r->describe);
	add_int_or_null(o, "region_bytes", (int64_t)r->region_bytes, r->region_bytes);
	add_secs(o, "test_runtime_s", r->test_runtime_s);
	add_secs(o, "ramp_s", r->ramp_s);
	add_secs(o, "min_runtime_s", r->min_runtime_s);
	json_object_object_add(o, "precondition", r->precondition[0] ? json_object_new_string(r->precondition) : NULL);
	add_int_or_null(o, "order_pos", r->order_pos, r->order_pos);
	if (r->pass)
		r0_json_set_int(o, "pass", r->pass);
	if (r->looks)
		r0_json_set_int(o, "looks", r->looks);
	if (r->copy)
		r0_json_set_int(o, "copy", r->copy);
	r0_json_set_str(o, "tool", r->tool);
	r0_json_set_int(o, "time", r->time_unix);
	if (r->predicted)
		json_object_object_add(o, "predicted", json_object_new_boolean(true));
	/* written only when a rule could end it early, as a fixed-length cell always was */
	if (r->ended != R0_END_FIXED && r0_end_name(r->ended))
		r0_json_set_str(o, "ended", r0_end_name(r->ended));
	line = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	if (!line)
		errno = ENOMEM;
	return line;
}

static bool get(json_object *o, const char *k, json_type t, json_object **v)
{
	if (!json_object_object_get_ex(o, k, v))
		return false;
	if (t == json_type_double)   /* a whole number may come back as an int */
		return json_object_is_type(*v, json_type_double) || json_object_is_type(*v, json_type_int);
	return json_object_is_type(*v, t);
}

/* Whether K is present as null: not known (r0kit writes null for it, older files 0 or -1) */
static bool is_null(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && !v;
}

static bool get_u64(json_object *o, const char *k, uint64_t *out)
{
	json_object *v;

	if (!get(o, k, json_type_int, &v) || json_object_get_int64(v) < 0)
		return false;
	*out = (uint64_t)json_object_get_int64(v);
	return true;
}

static bool get_u32(json_object *o, const char *k, uint32_t *out)
{
	uint64_t v;

	if (!get_u64(o, k, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool get_uns(json_object *o, const char *k, unsigned *out)
{
	uint32_t v;

	if (!get_u32(o, k, &v))
		return false;
	*out = v;
	return true;
}

static bool get_dbl(json_object *o, const char *k, double *out)
{
	json_object *v;

	if (!get(o, k, json_type_double, &v))
		return false;
	*out = json_object_get_double(v);
	return true;
}

static bool get_str(json_object *o, const char *k, char *buf, size_t len)
{
	json_object *v;

	if (!get(o, k, json_type_string, &v))
		return false;
	snprintf(buf, len, "%s", json_object_get_string(v));
	return true;
}

/* The same, a null read as UNKNOWN */
static bool get_u64_n(json_object *o, const char *k, uint64_t *out, uint64_t unknown)
{
	if (is_null(o, k)) {
		*out = unknown;
		return true;
	}
	return get_u64(o, k, out);
}

static bool get_dbl_n(json_object *o, const char *k, double *out, double unknown)
{
	if (is_null(o, k)) {
		*out = unknown;
		return true;
	}
	return get_dbl(o, k, out);
}

static bool get_uns_n(json_object *o, const char *k, unsigned *out)
{
	if (is_null(o, k)) {
		*out = 0;
		return true;
	}
	return get_uns(o, k, out);
}

/* Two figures of one run equal as far as their JSON text keeps them. */
static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

int r0_sweep_rec_parse(const char *line, struct r0_run *out)
{
	struct r0_run r = { 0 };
	json_object *o = json_tokener_parse(line), *lat, *pred = NULL;
	char s[32];
	int err = -EINVAL;

	if (!o || !json_object_is_type(o, json_type_object))
		goto out;
	/* files before r0kit_schema name it "schema" */
	if ((!get_str(o, "r0kit_schema", s, sizeof(s)) && !get_str(o, "schema", s, sizeof(s))) ||
	    strcmp(s, R0_SWEEP_SCHEMA))
		goto out;
	if (!get_str(o, "type", s, sizeof(s)))
		goto out;
	if (strcmp(s, "cell")) {
		err = -ENOMSG;
		goto out;
	}
	if (!get_str(o, "layer", s, sizeof(s)) || r0_layer_parse(s, &r.layer))
		goto out;
	if (!get_str(o, "rw", s, sizeof(s)) || rw_parse(s, &r.access))
		goto out;
	if (!get_u32(o, "chunk_bytes", &r.chunk_bytes) || !get_uns(o, "members", &r.n_members) ||
	    !get_str(o, "workload", r.label, sizeof(r.label)) ||
	    !get_uns(o, "read_pct", &r.read_pct) || r.read_pct > 100 ||
	    !get_u32(o, "block_bytes", &r.block_bytes) || !get_u32(o, "align_bytes", &r.align_bytes) ||
	    !get_uns(o, "queue_depth", &r.queue_depth) || !get_uns(o, "jobs", &r.jobs) ||
	    !get_uns(o, "repeat", &r.repeat) || !get_dbl_n(o, "runtime_s", &r.runtime_s, 0) ||
	    !get_u64_n(o, "ios", &r.ios, 0) || !get_dbl(o, "iops", &r.iops) ||
	    !get_dbl(o, "bytes_per_s", &r.bytes_per_s) || !get_u64_n(o, "errors", &r.errors, 0) ||
	    !get_dbl_n(o, "cpu_s_per_io", &r.cpu_s_per_io, 0) ||
	    !get_str(o, "state", r.state, sizeof(r.state)) ||
	    !get_str(o, "devices", r.devices, sizeof(r.devices)) ||
	    !get_str(o, "tool", r.tool, sizeof(r.tool)) ||
	    !get(o, "lat_ns", json_type_object, &lat))
		goto out;
	if (r.n_members < 1 || r.block_bytes == 0 || r.queue_depth == 0 || r.repeat == 0 ||
	    (r.layer == R0_LAYER_RAW) != (r.chunk_bytes == 0))
		goto out;
	/* a rate no run can measure (negative, infinite) is a damaged line, never a figure */
	if (!(isfinite(r.bytes_per_s) && r.bytes_per_s >= 0) || !(isfinite(r.iops) && r.iops >= 0) ||
	    !(isfinite(r.runtime_s) && r.runtime_s >= 0) || !(isfinite(r.cpu_s_per_io) && r.cpu_s_per_io >= 0))
		goto out;
	/* a block test's bytes/s is its IOPS times its block, as every writer makes it: a line whose
	 * two rates contradict each other was edited or damaged, and is no figure */
	if ((r.access == R0_ACCESS_SEQ || r.access == R0_ACCESS_RAND) && !near(r.bytes_per_s, r.iops * r.block_bytes))
		goto out;
	/* in memory a latency not known is 0, as older files wrote it */
	if (!get_dbl_n(lat, "mean", &r.lat_mean_ns, 0) || !get_u64_n(lat, "p50", &r.lat_p50_ns, 0) ||
	    !get_u64_n(lat, "p90", &r.lat_p90_ns, 0) || !get_u64_n(lat, "p99", &r.lat_p99_ns, 0) ||
	    !get_u64_n(lat, "p99.9", &r.lat_p999_ns, 0) || !get_u64_n(lat, "p99.99", &r.lat_p9999_ns, 0) ||
	    !get_u64_n(lat, "max", &r.lat_max_ns, 0))
		goto out;
	{
		json_object *v;
		if (get(o, "time", json_type_int, &v))
			r.time_unix = json_object_get_int64(v);
	}
	/* absent in older files and predictions (0: not known); present, a share from 0 to 1 (a
	 * clock's tick over 1 taken as 1) */
	r.busy = 0;
	if (json_object_object_get_ex(o, "busy", NULL) && !is_null(o, "busy") &&
	    (!get_dbl(o, "busy", &r.busy) || !(r.busy >= 0 && r.busy <= 1.01)))
		goto out;
	r.busy = fmin(r.busy, 1);
	/* later keys: absent in older files, wrong when present is invalid */
	r.test_runtime_s = r.ramp_s = r.min_runtime_s = -1;
	if ((json_object_object_get_ex(o, "describe", NULL) &&
	     !get_str(o, "describe", r.describe, sizeof(r.describe))) ||
	    (json_object_object_get_ex(o, "region_bytes", NULL) && !get_u64_n(o, "region_bytes", &r.region_bytes, 0)) ||
	    (json_object_object_get_ex(o, "test_runtime_s", NULL) &&
	     !get_dbl_n(o, "test_runtime_s", &r.test_runtime_s, -1)) ||
	    (json_object_object_get_ex(o, "ramp_s", NULL) && !get_dbl_n(o, "ramp_s", &r.ramp_s, -1)) ||
	    (json_object_object_get_ex(o, "min_runtime_s", NULL) &&
	     !get_dbl_n(o, "min_runtime_s", &r.min_runtime_s, -1)) ||
	    (json_object_object_get_ex(o, "precondition", NULL) && !is_null(o, "precondition") &&
	     !get_str(o, "precondition", r.precondition, sizeof(r.precondition))) ||
	    (json_object_object_get_ex(o, "order_pos", NULL) && !get_uns_n(o, "order_pos", &r.order_pos)) ||
	    (json_object_object_get_ex(o, "looks", NULL) && !get_uns(o, "looks", &r.looks)) ||
	    (json_object_object_get_ex(o, "pass", NULL) && !get_uns(o, "pass", &r.pass)) ||
	    (json_object_object_get_ex(o, "copy", NULL) && !get_uns(o, "copy", &r.copy)) ||
	    (json_object_object_get_ex(o, "predicted", NULL) && !get(o, "predicted", json_type_boolean, &pred)))
		goto out;
	r.predicted = pred && json_object_get_boolean(pred);
	if (json_object_object_get_ex(o, "ended", NULL)) {
		int e = get_str(o, "ended", s, sizeof(s)) ? r0_end_parse(s) : -EINVAL;

		if (e < 0)
			goto out;
		r.ended = (enum r0_end)e;
	}
	*out = r;
	err = 0;
out:
	json_object_put(o);
	return err;
}

int r0_sweep_rec_append(FILE *f, const struct r0_run *r)
{
	char *line = r0_sweep_rec_to_json(r);
	int err;

	if (!line)
		return -ENOMEM;
	err = r0_jsonl_append_line(f, line);
	free(line);
	return err;
}

int r0_sweep_append_json(FILE *f, const char *type, const char *json_body)
{
	json_object *o = json_tokener_parse(json_body), *out;
	int err;

	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	out = r0_json_doc_new(R0_SWEEP_SCHEMA);
	if (!out) {
		json_object_put(o);
		return -ENOMEM;
	}
	r0_json_set_str(out, "type", type);
	json_object_object_foreach(o, k, v)
		json_object_object_add(out, k, json_object_get(v));
	err = r0_jsonl_append_line(f, json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
	json_object_put(o);
	return err;
}

static int take_sweep_line(const char *line, unsigned lineno, void *set)
{
	struct r0_run r;
	int err = r0_sweep_rec_parse(line, &r);

	if (err == -ENOMSG)
		return err;
	if (err)
		return -EINVAL;
	r.line = lineno;
	return r0_run_set_add(set, &r);
}

int r0_sweep_load_file(const char *path, struct r0_run_set *set, struct r0_sweep_damage *dmg)
{
	struct r0_jsonl_damage d;
	int err = r0_jsonl_scan(path, take_sweep_line, set, &d);

	dmg->bad = d.bad;
	dmg->first_bad = d.first_bad;
	dmg->cut_tail = d.cut_tail;
	if (!err && !d.good && d.bad)
		err = -EINVAL;
	return err;
}

int r0_sweep_load(const char *path, struct r0_run_set *set, unsigned *bad_lines)
{
	struct r0_sweep_damage d;
	int err = r0_sweep_load_file(path, set, &d);

	if (bad_lines)
		*bad_lines = d.bad;
	return err;
}

bool r0_sweep_damage_inside(const struct r0_sweep_damage *d)
{
	return d->bad > (d->cut_tail ? 1u : 0u);
}

struct plan_note {
	char *buf;
	size_t len;
};

/* The plan of an analysis line, in words; the file's last one wins. */
static int take_plan_line(const char *line, void *ctx)
{
	struct plan_note *n = ctx;
	json_object *o = json_tokener_parse(line), *p;
	char type[32], stopped[16] = "", open[1024] = "", dropped[1024] = "";
	uint64_t cells = 0;
	size_t off;

	if (!o)
		return -ENOMSG;
	if (!get_str(o, "type", type, sizeof(type)) || strcmp(type, "analysis") ||
	    !get(o, "plan", json_type_object, &p)) {
		json_object_put(o);
		return -ENOMSG;
	}
	get_str(p, "stopped", stopped, sizeof(stopped));
	get_str(p, "open", open, sizeof(open));
	get_str(p, "dropped", dropped, sizeof(dropped));
	get_u64(p, "cells", &cells);
	off = (size_t)snprintf(n->buf, n->len, "adaptive: %llu cells, repeated where a comparison was undecided; %s",
			       (unsigned long long)cells,
			       !strcmp(stopped, r0_sweep_stopped_name(R0_SWEEP_STOPPED_BUDGET)) ?
			       "the budget ended it" :
			       !strcmp(stopped, r0_sweep_stopped_name(R0_SWEEP_STOPPED_LAST_LOOK)) ?
			       "the last look ended it" : "every comparison decided");
	if (open[0] && off < n->len)
		off += (size_t)snprintf(n->buf + off, n->len - off, "; still open: %s", open);
	if (dropped[0] && off < n->len)
		snprintf(n->buf + off, n->len - off, "; not measured: %s", dropped);
	json_object_put(o);
	return 0;
}

int r0_sweep_plan_note(const char *path, char *buf, size_t len)
{
	struct plan_note n = { buf, len };
	unsigned good = 0, bad = 0;
	int err;

	if (len)
		buf[0] = 0;
	err = r0_jsonl_each(path, take_plan_line, &n, &good, &bad);
	if (err)
		return err;
	return buf[0] ? 0 : -ENOENT;
}

struct stored_scan {
	struct r0_sweep_stored *out;
	bool found;
};

/* The picked choice of an analysis line's choices, into S. */
static void stored_pick(json_object *choices, struct r0_sweep_stored *s)
{
	for (size_t k = 0; k < json_object_array_length(choices); k++) {
		json_object *c = json_object_array_get_idx(choices, k), *v;
		char layer[8];

		if (!get(c, "picked", json_type_boolean, &v) || !json_object_get_boolean(v) ||
		    !get_str(c, "layer", layer, sizeof(layer)) || r0_layer_parse(layer, &s->layer) ||
		    !get_u32(c, "chunk_bytes", &s->chunk_bytes) || !get_dbl(c, "score", &s->score))
			continue;
		if (!get_dbl(c, "score_min", &s->score_min) || !get_dbl(c, "score_max", &s->score_max))
			s->score_min = s->score_max = NAN;
		s->has_pick = true;
		return;
	}
}

/* Each line: an analysis line replaces what an earlier one said; a cell after it is counted. */
static int take_stored_line(const char *line, void *ctx)
{
	struct stored_scan *sc = ctx;
	struct r0_sweep_stored *s = sc->out;
	json_object *o = json_tokener_parse(line), *ch;
	char type[32] = "";

	if (!o)
		return -EINVAL;
	if (!get_str(o, "type", type, sizeof(type)) || strcmp(type, "analysis")) {
		s->cells_after += sc->found && !strcmp(type, "cell");
		json_object_put(o);
		return -ENOMSG;
	}
	memset(s, 0, sizeof(*s));
	get_str(o, "tool", s->tool, sizeof(s->tool));
	get_str(o, "mix", s->mix, sizeof(s->mix));
	get_str(o, "verdict", s->verdict, sizeof(s->verdict));
	get_str(o, "answer", s->answer, sizeof(s->answer));
	get_str(o, "lead", s->lead, sizeof(s->lead));
	if (get(o, "choices", json_type_array, &ch))
		stored_pick(ch, s);
	sc->found = true;
	json_object_put(o);
	return 0;
}

int r0_sweep_stored_analysis(const char *path, struct r0_sweep_stored *out)
{
	struct stored_scan sc = { out, false };
	unsigned good = 0, bad = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = r0_jsonl_each(path, take_stored_line, &sc, &good, &bad);
	if (err)
		return err;
	return sc.found ? 0 : -ENOENT;
}
