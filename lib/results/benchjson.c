// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0bench/1 document: every parameter, every pass, the target; written and read (r0/benchjson.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "r0/buildid.h"
#include "r0/benchjson.h"
#include "r0/enginepolicy.h"
#include "r0/jsonfields.h"
#include "r0/jsontext.h"
#include "r0/probe.h"
#include "r0/probejson.h"
#include "r0/stats.h"

const char *r0_bench_rw_name(const struct r0_workload *w)
{
	bool r = w->access == R0_ACCESS_RAND;

	if (w->trim)
		return r ? "randtrim" : "trim";
	if (w->read_pct == 100)
		return r ? "randread" : "read";
	if (w->read_pct == 0)
		return r ? "randwrite" : "write";
	return r ? "randrw" : "rw";
}

int r0_bench_rw_parse(const char *s, struct r0_workload *w)
{
	static const struct {
		const char *name;
		enum r0_access access;
		int read_pct;   /* -1: rwmix */
		bool trim;
	} kinds[] = {
		{ "read", R0_ACCESS_SEQ, 100, false }, { "write", R0_ACCESS_SEQ, 0, false },
		{ "randread", R0_ACCESS_RAND, 100, false }, { "randwrite", R0_ACCESS_RAND, 0, false },
		{ "rw", R0_ACCESS_SEQ, -1, false }, { "readwrite", R0_ACCESS_SEQ, -1, false },
		{ "randrw", R0_ACCESS_RAND, -1, false },
		{ "trim", R0_ACCESS_SEQ, 0, true }, { "randtrim", R0_ACCESS_RAND, 0, true },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(s, kinds[i].name))
			continue;
		w->access = kinds[i].access;
		w->read_pct = kinds[i].read_pct < 0 ? 50 : (unsigned)kinds[i].read_pct;
		w->trim = kinds[i].trim;
		return kinds[i].read_pct < 0 ? 1 : 0;
	}
	return -EINVAL;
}

struct r0_bench_spread r0_bench_spread(const struct r0_bench_test *t, double (*f)(const struct r0_result *))
{
	double v[64];
	unsigned n = t->npasses < 64 ? t->npasses : 64;
	struct r0_bench_spread s = { 0 };

	if (!n)
		return s;
	for (unsigned i = 0; i < n; i++)
		v[i] = f(&t->passes[i]);
	r0_sort_doubles(v, n);
	s.min = v[0];
	s.max = s.best = v[n - 1];
	s.median = r0_median_sorted(v, n);
	return s;
}

/* ---- writing ---- */

static double mibps(const struct r0_result *r)
{
	return r0_result_bytes_per_s(r) / 1048576.0;
}


/* Over the counted passes; null without one (not known, never 0) */
static json_object *j_spread(struct r0_bench_spread s, bool known)
{
	json_object *o = json_object_new_object();

	r0_json_set(o, "best", known ? json_object_new_double(s.best) : NULL);
	r0_json_set(o, "median", known ? json_object_new_double(s.median) : NULL);
	r0_json_set(o, "min", known ? json_object_new_double(s.min) : NULL);
	r0_json_set(o, "max", known ? json_object_new_double(s.max) : NULL);
	return o;
}

static json_object *j_latency(const struct r0_hist *h)
{
	static const struct { const char *k; double p; } pct[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99_9", 99.9 }, { "p99_99", 99.99 },
	};
	json_object *o = json_object_new_object();

	/* without a completion every figure but the count is null: not known */
	r0_json_set(o, "count", json_object_new_uint64(h->count));
	r0_json_set(o, "mean", h->count ? json_object_new_double(r0_hist_mean(h)) : NULL);
	r0_json_set(o, "min", h->count ? json_object_new_uint64(h->min) : NULL);
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		r0_json_set(o, pct[i].k, h->count ? json_object_new_uint64(r0_hist_percentile(h, pct[i].p)) : NULL);
	r0_json_set(o, "max", h->count ? json_object_new_uint64(h->max) : NULL);
	return o;
}

static json_object *j_error(const struct r0_result *r)
{
	json_object *o;

	if (!r->errors)
		return NULL;
	o = json_object_new_object();
	r0_json_set(o, "op", json_object_new_string(r0_op_name(r->first_error.op)));
	r0_json_set(o, "offset_bytes", json_object_new_uint64(r->first_error.offset_bytes));
	r0_json_set(o, "length_bytes", json_object_new_uint64(r->first_error.length_bytes));
	r0_json_set(o, "errno", json_object_new_int(r->first_error.err));
	r0_json_set(o, "message", json_object_new_string(strerror(r->first_error.err)));
	return o;
}

#define FIELD(m, kind) R0_JSON_FIELD(struct r0_verify_report, m, #m, kind)
/* the first bad sector: where, then (after its fault) what was expected and found */
static const struct r0_json_field where[] = { FIELD(offset_bytes, R0_JSON_U64) };
static const struct r0_json_field what[] = {
	FIELD(expected_sector, R0_JSON_U64), FIELD(found_sector, R0_JSON_U64),
	FIELD(expected_pass, R0_JSON_U32), FIELD(found_pass, R0_JSON_U32), FIELD(bad_byte, R0_JSON_U32),
};
#undef FIELD

static json_object *j_verify(const struct r0_result *r)
{
	json_object *o = json_object_new_object(), *b = NULL;
	const struct r0_verify_report *f = &r->first_bad;

	r0_json_set(o, "checked_bytes", json_object_new_uint64(r->verify_checked_bytes));
	r0_json_set(o, "bad_sectors", json_object_new_uint64(r->verify_bad_sectors));
	if (r->verify_bad_sectors) {
		b = json_object_new_object();
		r0_json_add_fields(b, f, where, R0_JSON_N(where));
		r0_json_set(b, "fault", json_object_new_string(r0_verify_fault_name(f->fault)));
		r0_json_add_fields(b, f, what, R0_JSON_N(what));
	}
	r0_json_set(o, "first_bad", b);
	return o;
}

/*
 * A pass that could end when steady: its samples and the last window's
 * figures, relative to the window's mean as the rule takes them (the
 * trend: the fitted line's change across the window); null before a
 * window was full.
 */
static json_object *j_steady(const struct r0_result *r, const struct r0_workload *w)
{
	json_object *o = json_object_new_object();
	const struct r0_steady_window *l = &r->steady_last;
	const struct r0_steady_rule rule = r0_workload_steady_rule(w);
	const double slice_s = (double)r->slice_ns / 1e9;
	const bool seen = l->mean > 0;

	r0_json_set(o, "samples", json_object_new_uint64(r->samples));
	r0_json_set(o, "slice_s", json_object_new_double(slice_s));
	r0_json_set(o, "bytes_per_s", seen ? json_object_new_double(l->mean / slice_s) : NULL);
	r0_json_set(o, "range_pct", seen ? json_object_new_double(100 * l->range / l->mean) : NULL);
	r0_json_set(o, "trend_pct", seen ? json_object_new_double(100 * fabs(l->slope) *
							  (double)(rule.window - 1) / l->mean) : NULL);
	return o;
}

static json_object *j_pass(const struct r0_result *r, const struct r0_workload *w)
{
	json_object *o = json_object_new_object(), *jc, *jw;

	r0_json_set(o, "elapsed_s", json_object_new_double(r->elapsed_s));
	r0_json_set(o, "ios", json_object_new_uint64(r0_result_ios(r)));
	r0_json_set(o, "bytes", json_object_new_uint64(r0_result_bytes(r)));
	r0_json_set(o, "read_ios", json_object_new_uint64(r->ios[R0_OP_READ]));
	r0_json_set(o, "write_ios", json_object_new_uint64(r->ios[R0_OP_WRITE]));
	r0_json_set(o, "trim_ios", json_object_new_uint64(r->ios[R0_OP_TRIM]));
	r0_json_set(o, "iops", json_object_new_double(r0_result_iops(r)));
	r0_json_set(o, "bytes_per_s", json_object_new_double(r0_result_bytes_per_s(r)));
	r0_json_set(o, "user_s", json_object_new_double(r->user_s));
	r0_json_set(o, "sys_s", json_object_new_double(r->sys_s));
	r0_json_set(o, "cpu_per_io_s", json_object_new_double(r0_result_cpu_per_io(r)));
	jc = json_object_new_array();
	jw = json_object_new_array();
	for (unsigned i = 0; i < r->jobs && i < R0_JOBS_MAX; i++) {
		json_object_array_add(jc, json_object_new_double(r->job_cpu_s[i]));
		json_object_array_add(jw, json_object_new_double(r->job_wall_s[i]));
	}
	r0_json_set(o, "job_cpu_s", jc);
	r0_json_set(o, "job_wall_s", jw);
	r0_json_set(o, "busy", json_object_new_double(r0_result_busy(r)));
	r0_json_set(o, "errors", json_object_new_uint64(r->errors));
	r0_json_set(o, "eagain_retries", json_object_new_uint64(r->eagain_retries));
	r0_json_set(o, "carried_ios", json_object_new_uint64(r->carried_ios));
	r0_json_set(o, "carry_stopped", json_object_new_boolean(r->carry_stopped));
	r0_json_set(o, "interrupted", json_object_new_boolean(r->interrupted));
	r0_json_set(o, "ended", json_object_new_string(r0_end_name(r->ended)));
	if (r->slice_ns)
		r0_json_set(o, "steady", j_steady(r, w));
	return o;
}

static json_object *j_workload(const struct r0_workload *w, const struct r0_io_file *t)
{
	json_object *o = json_object_new_object();

	r0_json_set(o, "rw", json_object_new_string(r0_bench_rw_name(w)));
	r0_json_set(o, "access", json_object_new_string(w->access == R0_ACCESS_SEQ ? "sequential" : "random"));
	r0_json_set(o, "read_pct", json_object_new_int(w->trim ? 0 : (int)w->read_pct));
	r0_json_set(o, "trim", json_object_new_boolean(w->trim));
	r0_json_set(o, "block_bytes", json_object_new_uint64(w->block_bytes));
	r0_json_set(o, "align_bytes", json_object_new_uint64(w->align_bytes ? w->align_bytes : w->block_bytes));
	r0_json_set(o, "queue_depth", json_object_new_uint64(w->queue_depth));
	r0_json_set(o, "jobs", json_object_new_uint64(w->jobs ? w->jobs : 1));
	r0_json_set(o, "shared_region", json_object_new_boolean(w->shared_region));
	r0_json_set(o, "offset_bytes", json_object_new_uint64(w->offset_bytes));
	r0_json_set(o, "span_bytes", json_object_new_uint64(w->span_bytes));
	r0_json_set(o, "runtime_s", json_object_new_double((double)w->runtime_ns / 1e9));
	r0_json_set(o, "ramp_s", json_object_new_double((double)w->ramp_ns / 1e9));
	if (w->min_runtime_ns) {
		const struct r0_steady_rule r = r0_workload_steady_rule(w);
		json_object *st = json_object_new_object();

		r0_json_set(o, "min_runtime_s", json_object_new_double((double)w->min_runtime_ns / 1e9));
		r0_json_set(st, "window", json_object_new_uint64(r.window));
		r0_json_set(st, "slice_s", json_object_new_double((double)r0_workload_slice_ns(w) / 1e9));
		r0_json_set(st, "range_pct", json_object_new_double(100 * r.range_frac));
		r0_json_set(st, "trend_pct", json_object_new_double(100 * r.slope_frac));
		r0_json_set(o, "steady", st);
	}
	r0_json_set(o, "size_bytes", json_object_new_uint64(w->size_bytes));
	r0_json_set(o, "cover", json_object_new_boolean(w->cover));
	r0_json_set(o, "seed", json_object_new_uint64(w->seed));
	r0_json_set(o, "verify", json_object_new_string(w->verify == R0_VERIFY_WRITE ? "write" :
						 w->verify == R0_VERIFY_READ ? "read" : "none"));
	r0_json_set(o, "verify_pass", json_object_new_uint64(w->verify_pass));
	r0_json_set(o, "continue_on_error", json_object_new_boolean(w->continue_on_error));
	r0_json_set(o, "reap_batch", json_object_new_uint64(w->reap_batch ? w->reap_batch : 1));
	r0_json_set(o, "hipri", json_object_new_boolean(w->hipri));
	r0_json_set(o, "sqpoll", json_object_new_boolean(w->sqpoll));
	r0_json_set(o, "async_submit", json_object_new_boolean(r0_engine_submits_async(t, w)));
	if (r0_engine_async(t, w) == R0_ASYNC_BLOCKING_ONLY)
		r0_json_set(o, "io_workers", json_object_new_int((int)r0_engine_io_workers(w)));
	r0_json_set(o, "sync", json_object_new_boolean(r0_engine_is_sync(w)));
	return o;
}

/* A block device's r0probe/1 record, as r0probe --json prints it; NULL for a file. */
static json_object *j_device(const struct r0_io_file *t)
{
	json_object *dev = NULL;
	struct r0_device d;

	if (t->is_block && !r0_probe_devt(t->devt, NULL, &d)) {
		struct r0_probe_record r = { .path = t->path, .dev = &d };

		dev = r0_probe_record_json(&r);
		r0_device_free(&d);
	}
	return dev;
}

static json_object *j_target(const struct r0_io_file *t)
{
	json_object *o = json_object_new_object();

	r0_json_set(o, "path", json_object_new_string(t->path));
	r0_json_set(o, "kind", json_object_new_string(t->is_block ? "block" : "file"));
	r0_json_set(o, "size_bytes", json_object_new_uint64(t->size_bytes));
	r0_json_set(o, "logical_block_bytes", json_object_new_uint64(t->logical_block_bytes));
	r0_json_set(o, "physical_block_bytes", json_object_new_uint64(t->physical_block_bytes));
	r0_json_set(o, "direct", json_object_new_boolean(t->direct));
	r0_json_set(o, "device", j_device(t));
	return o;
}

static json_object *j_test(const struct r0_bench_test *t, const struct r0_io_file *target)
{
	json_object *x = json_object_new_object(), *passes = json_object_new_array(), *s = json_object_new_object();
	uint64_t errors = 0;
	const struct r0_result *first_err = NULL;

	r0_json_set(x, "label", json_object_new_string(t->label));
	r0_json_set(x, "workload", j_workload(&t->w, target));
	for (unsigned p = 0; p < t->npasses; p++) {
		json_object_array_add(passes, j_pass(&t->passes[p], &t->w));
		if (t->passes[p].errors && !first_err)
			first_err = &t->passes[p];
		errors += t->passes[p].errors;
	}
	r0_json_set(x, "passes", passes);
	r0_json_set(s, "bytes_per_s", j_spread(r0_bench_spread(t, r0_result_bytes_per_s), t->npasses));
	r0_json_set(s, "mb_per_s", j_spread(r0_bench_spread(t, r0_result_mb_per_s), t->npasses));
	r0_json_set(s, "mib_per_s", j_spread(r0_bench_spread(t, mibps), t->npasses));
	r0_json_set(s, "iops", j_spread(r0_bench_spread(t, r0_result_iops), t->npasses));
	r0_json_set(s, "cpu_per_io_s", j_spread(r0_bench_spread(t, r0_result_cpu_per_io), t->npasses));
	r0_json_set(s, "busy", j_spread(r0_bench_spread(t, r0_result_busy), t->npasses));
	r0_json_set(x, "summary", s);
	r0_json_set(x, "latency_ns", j_latency(&t->lat));
	/* one kind at a time, as fio's read and write sections; null without one of that kind */
	r0_json_set(x, "read_latency_ns", t->lat_op[R0_OP_READ].count ? j_latency(&t->lat_op[R0_OP_READ]) : NULL);
	r0_json_set(x, "write_latency_ns", t->lat_op[R0_OP_WRITE].count ? j_latency(&t->lat_op[R0_OP_WRITE]) : NULL);
	r0_json_set(x, "errors", json_object_new_uint64(errors));
	r0_json_set(x, "first_error", first_err ? j_error(first_err) : NULL);
	if (t->verified)
		r0_json_set(x, "verify", j_verify(&t->verify));
	else if (t->w.verify == R0_VERIFY_READ && t->npasses)
		r0_json_set(x, "verify", j_verify(&t->passes[0]));
	else
		r0_json_set(x, "verify", NULL);
	return x;
}

json_object *r0_bench_to_json(const struct r0_bench_run *run)
{
	json_object *root = r0_json_doc_new(R0_BENCH_SCHEMA), *tests = json_object_new_array(), *m, *x;
	char when[64];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	r0_json_set(root, "tool", json_object_new_string(run->tool));
	r0_json_set(root, "version", json_object_new_string(r0_build_id()));
	r0_json_set(root, "finished", json_object_new_string(when));
	r0_json_set(root, "target", j_target(run->target));
	r0_json_set(root, "state", run->state ? json_object_get(r0_state_saved_json(run->state)) : NULL);
	m = json_object_new_object();
	r0_json_set(m, "preset", run->preset ? json_object_new_string(run->preset) : NULL);
	r0_json_set(m, "passes", json_object_new_uint64(run->passes));
	r0_json_set(m, "warmup_passes", json_object_new_uint64(run->warmup));
	r0_json_set(m, "region_bytes", run->region_bytes ? json_object_new_uint64(run->region_bytes) : NULL);
	r0_json_set(m, "engine", json_object_new_string("io_uring"));
	r0_json_set(root, "method", m);
	for (unsigned i = 0; i < run->n_tests; i++)
		if (run->tests[i].ran)
			json_object_array_add(tests, j_test(&run->tests[i], run->target));
	r0_json_set(root, "tests", tests);
	x = json_object_new_object();
	r0_json_set(x, "status", json_object_new_int(run->status));
	r0_json_set(x, "reason", run->reason ? json_object_new_string(run->reason) : NULL);
	r0_json_set(root, "exit", x);
	return root;
}

/* ---- reading ---- */

/* The number at the dotted PATH below O (an integer read as a double), or NAN. */
static double j_num(json_object *o, const char *path)
{
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, k, &o))
			return NAN;
	return json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int) ?
	       json_object_get_double(o) : NAN;
}

static const char *j_str(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* One test: its workload (which it must have) and its figures. */
static int read_test(json_object *t, struct r0_bench_result *r)
{
	json_object *w, *trim;
	const char *s;

	if (!json_object_object_get_ex(t, "workload", &w))
		return -EINVAL;
	r->trim = json_object_object_get_ex(w, "trim", &trim) && json_object_get_boolean(trim);
	snprintf(r->label, sizeof(r->label), "%s", (s = j_str(t, "label")) ? s : "");
	s = j_str(w, "access");
	r->access = s && !strcmp(s, "sequential") ? R0_ACCESS_SEQ : R0_ACCESS_RAND;
	r->read_pct = (unsigned)j_num(w, "read_pct");
	r->block_bytes = (uint32_t)j_num(w, "block_bytes");
	r->queue_depth = (unsigned)j_num(w, "queue_depth");
	r->jobs = (unsigned)j_num(w, "jobs");
	r->runtime_s = j_num(w, "runtime_s");
	r->ramp_s = j_num(w, "ramp_s");
	r->span_bytes = (uint64_t)j_num(w, "span_bytes");
	r->bps_median = j_num(t, "summary.bytes_per_s.median");
	r->bps_min = j_num(t, "summary.bytes_per_s.min");
	r->bps_max = j_num(t, "summary.bytes_per_s.max");
	r->iops_median = j_num(t, "summary.iops.median");
	r->mb_per_s_median = j_num(t, "summary.mb_per_s.median");
	r->lat_p50_ns = j_num(t, "latency_ns.p50");
	r->lat_min_ns = j_num(t, "latency_ns.min");
	r->read_lat_p50_ns = j_num(t, "read_latency_ns.p50");
	r->write_lat_p50_ns = j_num(t, "write_latency_ns.p50");
	if (!r->trim && (!r->block_bytes || !r->queue_depth || !r->jobs || r->read_pct > 100))
		return -EINVAL;
	return 0;
}

/* a number of the document at PATH, 0 when absent, null or not above 0 */
static uint64_t j_count(json_object *root, const char *path)
{
	double v = j_num(root, path);

	return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static void read_drive(json_object *root, json_object *target, struct r0_bench_drive *d)
{
	json_object *dev = NULL;
	const char *s;

	if (target)
		json_object_object_get_ex(target, "device", &dev);
	snprintf(d->path, sizeof(d->path), "%s", (s = j_str(target, "path")) ? s : "");
	snprintf(d->model, sizeof(d->model), "%s", (s = j_str(dev, "model")) ? s : "");
	snprintf(d->serial, sizeof(d->serial), "%s", (s = j_str(dev, "serial")) ? s : "");
	snprintf(d->wwn, sizeof(d->wwn), "%s", (s = j_str(dev, "wwn")) ? s : "");
	d->size_bytes = j_count(root, "target.size_bytes");
	d->logical_block = (uint32_t)j_count(root, "target.device.logical_block_size_bytes");
	d->physical_block = (uint32_t)j_count(root, "target.device.physical_block_size_bytes");
	d->max_hw_sectors_kib = (uint32_t)j_count(root, "target.device.max_hw_sectors_kib");
	d->discard_max_hw_bytes = j_count(root, "target.device.discard_max_hw_bytes");
}

int r0_bench_drive_diff(const struct r0_bench_drive *a, const struct r0_bench_drive *b, char *why, size_t len)
{
	const struct { const char *name, *x, *y; } strs[] = {
		{ "model", a->model, b->model }, { "serial", a->serial, b->serial }, { "wwn", a->wwn, b->wwn },
		{ "path", a->path, b->path },
	};
	const struct { const char *name; uint64_t x, y; } nums[] = {
		{ "size_bytes", a->size_bytes, b->size_bytes },
		{ "logical_block_size_bytes", a->logical_block, b->logical_block },
		{ "physical_block_size_bytes", a->physical_block, b->physical_block },
		{ "max_hw_sectors_kib", a->max_hw_sectors_kib, b->max_hw_sectors_kib },
		{ "discard_max_hw_bytes", a->discard_max_hw_bytes, b->discard_max_hw_bytes },
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i].x[0] && strs[i].y[0] && strcmp(strs[i].x, strs[i].y)) {
			snprintf(why, len, "%s (%s vs %s)", strs[i].name, strs[i].x, strs[i].y);
			return 1;
		}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (nums[i].x && nums[i].y && nums[i].x != nums[i].y) {
			snprintf(why, len, "%s (%llu vs %llu)", nums[i].name, (unsigned long long)nums[i].x,
				 (unsigned long long)nums[i].y);
			return 1;
		}
	return 0;
}

int r0_bench_load(const char *path, struct r0_bench_doc *out)
{
	json_object *root = json_object_from_file(path), *tests, *target = NULL, *state = NULL;
	const char *schema = root ? j_str(root, "r0kit_schema") : NULL, *s;
	int err = -ENOMSG;

	memset(out, 0, sizeof(*out));
	if (!schema || strcmp(schema, R0_BENCH_SCHEMA))
		goto out;
	err = -EINVAL;
	if (!json_object_object_get_ex(root, "tests", &tests) || !json_object_is_type(tests, json_type_array))
		goto out;
	json_object_object_get_ex(root, "target", &target);
	json_object_object_get_ex(root, "state", &state);
	snprintf(out->path, sizeof(out->path), "%s", (s = j_str(target, "path")) ? s : "");
	snprintf(out->state, sizeof(out->state), "%s", (s = j_str(state, "state")) ? s : "");
	read_drive(root, target, &out->drive);
	if (j_num(root, "target.device.nr_requests") > 0 && j_num(root, "target.device.max_sectors_kib") > 0) {
		out->has_queue = true;
		out->nr_requests = (unsigned)j_num(root, "target.device.nr_requests");
		out->max_sectors_kib = (uint32_t)j_num(root, "target.device.max_sectors_kib");
	}
	err = -ENOMEM;
	out->tests = calloc(json_object_array_length(tests) + 1, sizeof(*out->tests));
	if (!out->tests)
		goto out;
	err = 0;
	for (size_t i = 0; i < json_object_array_length(tests) && !err; i++) {
		err = read_test(json_object_array_get_idx(tests, i), &out->tests[i]);
		out->n_tests = i + 1;
	}
out:
	if (err)
		r0_bench_doc_free(out);
	json_object_put(root);
	return err;
}

void r0_bench_doc_free(struct r0_bench_doc *d)
{
	free(d->tests);
	memset(d, 0, sizeof(*d));
}

/* --- the "replay" object of r0bench --replay --json (tools/schema/r0bench-1.schema.json) --- */

static json_object *replay_p50_p99(uint64_t p50, uint64_t p99)
{
	json_object *o = json_object_new_object();

	r0_json_set(o, "p50", json_object_new_uint64(p50));
	r0_json_set(o, "p99", json_object_new_uint64(p99));
	return o;
}

json_object *r0_bench_replay_to_json(const char *trace, const struct r0_replay_trace *t, bool pace,
				     const struct r0_replay_result *r)
{
	json_object *j = json_object_new_object(), *tr = json_object_new_object();
	json_object *lat = json_object_new_object(), *lag = NULL;

	r0_json_set(tr, "path", json_object_new_string(trace));
	r0_json_set(tr, "device", json_object_new_string(t->h.name));
	r0_json_set(tr, "size_bytes", json_object_new_uint64(t->h.size_sectors * 512));
	r0_json_set(tr, "logical_block_bytes", json_object_new_uint64(t->h.logical_block_bytes));
	r0_json_set(tr, "requests", json_object_new_uint64(t->n));
	r0_json_set(tr, "discards", json_object_new_uint64(t->discards));
	r0_json_set(tr, "discard_bytes", json_object_new_uint64(t->discard_bytes));
	r0_json_set(tr, "retried", json_object_new_uint64(t->retried));
	r0_json_set(tr, "duration_s", json_object_new_double((double)t->duration_us / 1e6));
	r0_json_set(tr, "max_in_flight", t->max_in_flight ? json_object_new_uint64(t->max_in_flight) : NULL);
	r0_json_set(j, "trace", tr);
	r0_json_set(j, "pace", json_object_new_boolean(pace));
	r0_json_set(j, "queue_depth", json_object_new_uint64(r->queue_depth));
	r0_json_set(j, "mapped", json_object_new_boolean(r->mapped));
	r0_json_set(j, "wrapped_requests", json_object_new_uint64(r->wrapped));
	r0_json_set(j, "resized_requests", json_object_new_uint64(r->resized));
	r0_json_set(j, "requests", json_object_new_uint64(r->requests));
	r0_json_set(j, "reads", json_object_new_uint64(r->reads));
	r0_json_set(j, "writes", json_object_new_uint64(r->writes));
	r0_json_set(j, "flushes", json_object_new_uint64(r->flushes));
	r0_json_set(j, "discards", t->discards_kept ? json_object_new_uint64(r->discards) : NULL);
	r0_json_set(j, "discarded_bytes", t->discards_kept ? json_object_new_uint64(r->discarded_bytes) : NULL);
	r0_json_set(j, "read_bytes", json_object_new_uint64(r->read_bytes));
	r0_json_set(j, "written_bytes", json_object_new_uint64(r->written_bytes));
	r0_json_set(j, "elapsed_s", json_object_new_double((double)r->wall_ns / 1e9));
	r0_json_set(j, "mib_per_s", json_object_new_double(r->mib_s));
	r0_json_set(j, "iops", json_object_new_double(r->iops));
	r0_json_set(lat, "p50", json_object_new_uint64(r->lat_p50_ns));
	r0_json_set(lat, "p99", json_object_new_uint64(r->lat_p99_ns));
	r0_json_set(j, "latency_ns", lat);
	/* one kind at a time: null without a request of that kind */
	r0_json_set(j, "read_latency_ns", r->reads ? replay_p50_p99(r->read_lat_p50_ns, r->read_lat_p99_ns) : NULL);
	r0_json_set(j, "write_latency_ns", r->writes ? replay_p50_p99(r->write_lat_p50_ns, r->write_lat_p99_ns) : NULL);
	if (pace) {
		lag = json_object_new_object();
		r0_json_set(lag, "max", json_object_new_uint64(r->lag_max_ns));
		r0_json_set(lag, "mean", json_object_new_double(r->lag_mean_ns));
		r0_json_set(lag, "last", json_object_new_uint64(r->lag_end_ns));
	}
	r0_json_set(j, "lag_ns", lag);
	return j;
}

int r0_bench_json_text(const struct r0_bench_run *run, char **out)
{
	json_object *root = r0_bench_to_json(run);
	int err = root ? r0_json_text(root, out) : -ENOMEM;

	json_object_put(root);
	return err;
}

int r0_bench_replay_json_text(const struct r0_bench_run *run, const char *trace, const struct r0_replay_trace *t,
			      bool pace, const struct r0_replay_result *r, char **out)
{
	json_object *root = r0_bench_to_json(run), *replay = r0_bench_replay_to_json(trace, t, pace, r);
	int err = root && replay ? 0 : -ENOMEM;

	if (!err) {
		r0_json_set(root, "replay", replay);
		replay = NULL;
		err = r0_json_text(root, out);
	}
	json_object_put(replay);
	json_object_put(root);
	return err;
}
