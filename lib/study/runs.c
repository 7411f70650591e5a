// SPDX-License-Identifier: GPL-2.0-or-later
/* The study's own runs and sets of them (r0/runs.h): names, keys, the passes' order, one study or two. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/prng.h"
#include "r0/runs.h"
#include "r0/size.h"
#include "grow.h"

static const char *const layer_names[] = { "raw", "md", "dm" };

const char *r0_layer_name(enum r0_layer l)
{
	return (unsigned)l < 3 ? layer_names[l] : "?";
}

int r0_layer_parse(const char *s, enum r0_layer *out)
{
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(s, layer_names[i])) {
			*out = (enum r0_layer)i;
			return 0;
		}
	return -EINVAL;
}

const char *r0_rw_name(enum r0_access access, unsigned read_pct)
{
	bool rnd = access == R0_ACCESS_RAND;

	if (access == R0_ACCESS_FS)
		return "fs";
	if (access == R0_ACCESS_REPLAY)
		return "replay";
	if (read_pct >= 100)
		return rnd ? "randread" : "read";
	if (read_pct == 0)
		return rnd ? "randwrite" : "write";
	return rnd ? "randrw" : "rw";
}

void r0_workload_name(const char *label, unsigned read_pct, char *buf, size_t len)
{
	if (read_pct >= 100)
		snprintf(buf, len, "%s read", label);
	else if (read_pct == 0)
		snprintf(buf, len, "%s write", label);
	else
		snprintf(buf, len, "%s rw%u", label, read_pct);
}

void r0_run_workload(const struct r0_run *r, char *buf, size_t len)
{
	/* a scenario's or a replay's label says it all: "ext4 copy", "replay day" */
	if (r->access == R0_ACCESS_FS || r->access == R0_ACCESS_REPLAY)
		snprintf(buf, len, "%s", r->label);
	else
		r0_workload_name(r->label, r->read_pct, buf, len);
}

void r0_run_take_result(struct r0_run *r, const struct r0_result *res)
{
	r->runtime_s = res->elapsed_s;
	r->ios = r0_result_ios(res);
	r->errors = res->errors;
	r->iops = r0_result_iops(res);
	r->bytes_per_s = r0_result_bytes_per_s(res);
	r->cpu_s_per_io = r0_result_cpu_per_io(res);
	r->busy = r0_result_busy(res);
	r->ended = res->ended;
	r->lat_mean_ns = r0_hist_mean(&res->lat);
	r->lat_p50_ns = r0_hist_percentile(&res->lat, 50);
	r->lat_p90_ns = r0_hist_percentile(&res->lat, 90);
	r->lat_p99_ns = r0_hist_percentile(&res->lat, 99);
	r->lat_p999_ns = r0_hist_percentile(&res->lat, 99.9);
	r->lat_p9999_ns = r0_hist_percentile(&res->lat, 99.99);
	r->lat_max_ns = res->lat.count ? res->lat.max : 0;
}

int r0_run_key(const struct r0_run *r, char *buf, size_t len)
{
	/* a calibration's copy is a target of its own; a study's keys are as they were */
	int n = snprintf(buf, len, "%s/%" PRIu32 "/%u/%s/%d/%u/%" PRIu32 "/%" PRIu32 "/%u/%u/%u%s%.0u",
			 r0_layer_name(r->layer), r->chunk_bytes, r->n_members, r->label,
			 (int)r->access, r->read_pct, r->block_bytes, r->align_bytes, r->queue_depth,
			 r->jobs ? r->jobs : 1, r->repeat, r->copy ? "/copy" : "", r->copy);

	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

void r0_pass_order(unsigned repeat, size_t n, size_t *order)
{
	struct r0_prng r;

	r0_prng_seed(&r, 0x7230737765657000ULL ^ repeat);   /* "r0sweep" and the repeat */
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {   /* Fisher-Yates */
		size_t j = (size_t)r0_prng_below(&r, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void size_or_unknown(uint64_t bytes, char *buf, size_t len)
{
	if (!bytes || r0_format_size_human(bytes, buf, len))
		snprintf(buf, len, "not recorded");
}

static void secs_or_unknown(double s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "not recorded");
	else
		snprintf(buf, len, "%g s", s);
}

static const char *or_unknown(const char *s)
{
	return *s ? s : "not recorded";
}

int r0_run_study_diff(const struct r0_run *a, const struct r0_run *b, char *why,
			    size_t len)
{
	char x[64], y[64];

	if (a->predicted != b->predicted) {   /* a prediction is never a repeat of a measurement */
		snprintf(why, len, "predicted (%s vs %s)", a->predicted ? "yes" : "no",
			 b->predicted ? "yes" : "no");
	} else if (a->region_bytes != b->region_bytes) {
		size_or_unknown(a->region_bytes, x, sizeof(x));
		size_or_unknown(b->region_bytes, y, sizeof(y));
		snprintf(why, len, "region (%s vs %s)", x, y);
	} else if (a->test_runtime_s != b->test_runtime_s) {
		secs_or_unknown(a->test_runtime_s, x, sizeof(x));
		secs_or_unknown(b->test_runtime_s, y, sizeof(y));
		snprintf(why, len, "runtime (%s vs %s)", x, y);
	} else if (a->ramp_s != b->ramp_s) {
		secs_or_unknown(a->ramp_s, x, sizeof(x));
		secs_or_unknown(b->ramp_s, y, sizeof(y));
		snprintf(why, len, "ramp (%s vs %s)", x, y);
	} else if (a->min_runtime_s != b->min_runtime_s) {   /* a steady end changes what a repeat measures */
		secs_or_unknown(a->min_runtime_s, x, sizeof(x));
		secs_or_unknown(b->min_runtime_s, y, sizeof(y));
		snprintf(why, len, "min-runtime (%s vs %s)", x, y);
	} else if (strcmp(a->state, b->state)) {
		snprintf(why, len, "state (%s vs %s)", a->state, b->state);
	} else if (strcmp(a->precondition, b->precondition)) {
		snprintf(why, len, "preconditioning (%s vs %s)", or_unknown(a->precondition),
			 or_unknown(b->precondition));
	} else if (strcmp(a->devices, b->devices)) {
		snprintf(why, len, "devices (%s vs %s)", a->devices, b->devices);
	} else {
		return 0;
	}
	return 1;
}

int r0_run_set_add(struct r0_run_set *set, const struct r0_run *r)
{
	if (r0_grow(&set->recs, &set->cap, set->n, sizeof(*set->recs), 64))
		return -ENOMEM;
	set->recs[set->n++] = *r;
	return 0;
}

bool r0_run_set_has(const struct r0_run_set *set, const struct r0_run *r)
{
	char a[256], b[256];

	if (r0_run_key(r, a, sizeof(a)))
		return false;
	for (size_t i = 0; i < set->n; i++)
		if (!r0_run_key(&set->recs[i], b, sizeof(b)) && !strcmp(a, b))
			return true;
	return false;
}

void r0_run_set_free(struct r0_run_set *set)
{
	free(set->recs);
	set->recs = NULL;
	set->n = set->cap = 0;
}

bool r0_run_same(const struct r0_run *a, const struct r0_run *b)
{
	/* the measured figures first: they tell two runs apart soonest */
	return a->bytes_per_s == b->bytes_per_s && a->iops == b->iops && a->ios == b->ios &&
	       a->time_unix == b->time_unix && a->runtime_s == b->runtime_s && a->errors == b->errors &&
	       a->lat_mean_ns == b->lat_mean_ns && a->lat_p50_ns == b->lat_p50_ns &&
	       a->lat_p90_ns == b->lat_p90_ns && a->lat_p99_ns == b->lat_p99_ns &&
	       a->lat_p999_ns == b->lat_p999_ns && a->lat_p9999_ns == b->lat_p9999_ns &&
	       a->lat_max_ns == b->lat_max_ns && a->cpu_s_per_io == b->cpu_s_per_io &&
	       a->repeat == b->repeat && a->layer == b->layer &&
	       a->chunk_bytes == b->chunk_bytes && a->n_members == b->n_members && !strcmp(a->label, b->label) &&
	       a->access == b->access && a->read_pct == b->read_pct && a->block_bytes == b->block_bytes &&
	       a->align_bytes == b->align_bytes && a->queue_depth == b->queue_depth &&
	       (a->jobs ? a->jobs : 1) == (b->jobs ? b->jobs : 1) && a->predicted == b->predicted &&
	       !strcmp(a->state, b->state) && !strcmp(a->devices, b->devices);
}

struct rec_at {
	const struct r0_run *r;
	size_t i;
};

static int cmp_dbl(double a, double b)
{
	return (a > b) - (a < b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* An order in which the records r0_run_same finds alike are neighbours; then by index. */
static int cmp_rec_at(const void *pa, const void *pb)
{
	const struct rec_at *x = pa, *y = pb;
	const struct r0_run *a = x->r, *b = y->r;
	int c;

	if ((c = cmp_dbl(a->bytes_per_s, b->bytes_per_s)) || (c = cmp_dbl(a->iops, b->iops)) ||
	    (c = cmp_u64(a->ios, b->ios)) || (c = cmp_u64((uint64_t)a->time_unix, (uint64_t)b->time_unix)) ||
	    (c = cmp_u64(a->repeat, b->repeat)) ||
	    (c = cmp_u64(a->n_members, b->n_members)) || (c = cmp_u64(a->chunk_bytes, b->chunk_bytes)) ||
	    (c = strcmp(a->label, b->label)))
		return c;
	return cmp_u64(x->i, y->i);
}

size_t r0_run_set_dups(const struct r0_run_set *set, size_t from, size_t *first, size_t *of)
{
	struct rec_at *v = malloc((set->n ? set->n : 1) * sizeof(*v));
	size_t n = 0, best = SIZE_MAX, best_of = 0;

	if (!v) {   /* no memory for the sort: the plain way */
		for (size_t i = from; i < set->n; i++)
			for (size_t j = 0; j < i; j++)
				if (r0_run_same(&set->recs[i], &set->recs[j])) {
					if (!n++)
						best = i, best_of = j;
					break;
				}
	} else {
		for (size_t i = 0; i < set->n; i++)
			v[i] = (struct rec_at){ &set->recs[i], i };
		qsort(v, set->n, sizeof(*v), cmp_rec_at);
		/* a record repeats one before it in the file order: the same run among its neighbours with a
		 * lower index (those sort first within the figures that are alike) */
		for (size_t k = 0; k < set->n; k++) {
			if (v[k].i < from)
				continue;
			for (size_t m = k; m-- > 0;) {
				if (v[m].r->bytes_per_s != v[k].r->bytes_per_s || v[m].r->iops != v[k].r->iops)
					break;
				if (v[m].i < v[k].i && r0_run_same(v[k].r, v[m].r)) {
					n++;
					if (v[k].i < best) {
						best = v[k].i;
						best_of = v[m].i;
					}
					break;
				}
			}
		}
		free(v);
	}
	if (n && first)
		*first = best;
	if (n && of)
		*of = best_of;
	return n;
}

void r0_run_set_pool_passes(struct r0_run_set *set, size_t from)
{
	unsigned last = 0;

	for (size_t i = 0; i < from && i < set->n; i++)
		if (set->recs[i].pass > last)
			last = set->recs[i].pass;
	for (size_t i = from; last && i < set->n; i++)
		if (set->recs[i].pass)
			set->recs[i].pass += last;
}
