// SPDX-License-Identifier: GPL-2.0-or-later
/* A sweep as CSV (RFC 4180): the field writer and the four tables (r0/csv.h). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "r0/calibrate.h"
#include "r0/csv.h"

static int io_err(void)
{
	return -(errno ? errno : EIO);
}

int r0_csv_field(FILE *f, const char *s, bool first)
{
	errno = 0;
	if (!first && fputc(',', f) == EOF)
		return io_err();
	if (!s || !*s)
		return 0;
	if (!strpbrk(s, ",\"\r\n"))
		return fputs(s, f) == EOF ? io_err() : 0;
	if (fputc('"', f) == EOF)
		return io_err();
	for (; *s; s++)
		if ((*s == '"' && fputc('"', f) == EOF) || fputc(*s, f) == EOF)
			return io_err();
	return fputc('"', f) == EOF ? io_err() : 0;
}

int r0_csv_num(FILE *f, const char *fmt, double v, bool known)
{
	char buf[64];

	if (known)
		snprintf(buf, sizeof(buf), fmt, v);
	return r0_csv_field(f, known ? buf : NULL, false);
}

int r0_csv_eol(FILE *f)
{
	errno = 0;
	return fputs(R0_CSV_EOL, f) == EOF ? io_err() : 0;
}

static int header(FILE *f, const char *const *names)
{
	int err = 0;

	for (size_t i = 0; names[i] && !err; i++)
		err = r0_csv_field(f, names[i], i == 0);
	return err ? err : r0_csv_eol(f);
}

/* the fields after the first, in order; the first error sticks */
#define STR(s) (err = err ? err : r0_csv_field(f, (s), false))
#define NUM(fmt, v, known) (err = err ? err : r0_csv_num(f, (fmt), (double)(v), (known)))
#define INT(v) NUM("%.0f", (v), true)
#define G "%.15g"
#define US(ns) NUM("%.3f", (double)(ns) / 1e3, (ns) > 0)   /* a latency of 0 was not measured */

static const char *const cell_names[] = {
	"layer", "chunk_bytes", "members", "workload", "rw", "read_pct", "block_bytes", "align_bytes",
	"queue_depth", "jobs", "repeat", "pass", "pass_recorded", "use", "runtime_s", "ios", "errors",
	"iops", "bytes_per_s", "mean_us", "p50_us", "p90_us", "p99_us", "p99_9_us", "p99_99_us", "max_us",
	"cpu_s_per_io", "busy_pct", "ended", "predicted", "state", "time_unix_s", "copy", NULL,
};

/* cells.csv's use: what the analysis did with the run */
static const char *use_name(enum r0_run_use u)
{
	switch (u) {
	case R0_RUN_FAR:
		return "far-run";
	case R0_RUN_VISIT_FAR:
		return "far-visit";
	case R0_RUN_UNMEASURED:
		return "unmeasured";
	case R0_RUN_USED:
		break;
	}
	return "used";
}

int r0_csv_cells(FILE *f, const struct r0_run_set *set, const struct r0_analysis *a)
{
	int err = a->n_run == set->n ? header(f, cell_names) : -EINVAL;

	for (size_t i = 0; i < set->n && !err; i++) {
		const struct r0_run *r = &set->recs[i];
		const bool meas = !r->predicted;
		char name[48];

		r0_run_workload(r, name, sizeof(name));
		err = r0_csv_field(f, r0_layer_name(r->layer), true);
		INT(r->chunk_bytes);
		INT(r->n_members);
		STR(name);
		STR(r0_rw_name(r->access, r->read_pct));
		INT(r->read_pct);
		INT(r->block_bytes);
		INT(r->align_bytes);
		INT(r->queue_depth);
		INT(r->jobs ? r->jobs : 1);
		INT(r->repeat);
		/* where no pass is recorded, the repeat is the pass, as the analysis takes it */
		NUM("%.0f", a->passes ? r->pass : r->repeat, !a->passes || r->pass > 0);
		STR(a->passes && r->pass > 0 ? "true" : "false");
		STR(use_name(a->run_use[i]));
		NUM(G, r->runtime_s, meas);
		NUM("%.0f", r->ios, meas);
		NUM("%.0f", r->errors, meas);
		NUM(G, r->iops, true);
		NUM(G, r->bytes_per_s, true);
		US(r->lat_mean_ns);
		US(r->lat_p50_ns);
		US(r->lat_p90_ns);
		US(r->lat_p99_ns);
		US(r->lat_p999_ns);
		US(r->lat_p9999_ns);
		US(r->lat_max_ns);
		NUM(G, r->cpu_s_per_io, meas);
		NUM(G, r->busy * 100, r->busy > 0);
		STR(r0_end_name(r->ended));
		STR(r->predicted ? "true" : "false");
		STR(r->state);
		NUM("%.0f", r->time_unix, r->time_unix > 0);
		NUM("%.0f", r->copy, r->copy > 0);
		if (!err)
			err = r0_csv_eol(f);
	}
	return err;
}

static const char *const cmp_names[] = {
	"workload", "rw", "read_pct", "block_bytes", "queue_depth", "jobs", "weight_pct", "layer", "chunk_bytes",
	"members", "baseline", "repeats_used", "repeats_far", "repeats_unmeasured", "bytes_per_s",
	"bytes_per_s_min", "bytes_per_s_max", "iops", "mean_us", "p50_us", "p99_us", "p99_9_us", "cpu_s_per_io",
	"speedup_x", "speedup_x_lo", "speedup_x_hi", "efficiency_x", "answer", "tie_best", "errors", "predicted", NULL,
};

int r0_csv_comparisons(FILE *f, const struct r0_analysis *a)
{
	int err = header(f, cmp_names);

	for (size_t i = 0; i < a->n_cell && !err; i++) {
		const struct r0_cell *c = &a->cell[i];
		const struct r0_wl *w = &a->wl[c->wl];
		const struct r0_run *p = &w->proto;
		const bool base = r0_analysis_is_baseline(a, c);
		/* the single drive answers nothing against itself */
		const bool has = c->bps.n > 0, sp = c->speedup.n > 0 && !base;
		/* one repeat, or a prediction: the point alone, no interval (lo = hi would claim one) */
		const bool iv = sp && !c->vs_base.indicative;

		err = r0_csv_field(f, w->name, true);
		STR(r0_rw_name(p->access, p->read_pct));
		INT(p->read_pct);
		INT(p->block_bytes);
		INT(p->queue_depth);
		INT(p->jobs ? p->jobs : 1);
		NUM(G, w->weight * 100, true);
		STR(r0_layer_name(c->layer));
		INT(c->chunk_bytes);
		INT(c->n_members);
		STR(base ? "true" : "false");
		INT(c->bps.n);
		INT(c->n_far);
		INT(c->n_excluded);
		NUM(G, c->bps.med, has);
		NUM(G, c->bps.min, has);
		NUM(G, c->bps.max, has);
		NUM(G, c->iops.med, c->iops.n > 0);
		NUM("%.3f", c->lat_mean.med / 1e3, c->lat_mean.n > 0 && c->lat_mean.med > 0);
		NUM("%.3f", c->lat_p50.med / 1e3, c->lat_p50.n > 0 && c->lat_p50.med > 0);
		NUM("%.3f", c->lat_p99.med / 1e3, c->lat_p99.n > 0 && c->lat_p99.med > 0);
		NUM("%.3f", c->lat_p999.med / 1e3, c->lat_p999.n > 0 && c->lat_p999.med > 0);
		NUM(G, c->cpu_per_io.med, c->cpu_per_io.n > 0 && c->cpu_per_io.med > 0);
		NUM(G, c->speedup.med, sp);
		NUM(G, c->speedup.min, iv);
		NUM(G, c->speedup.max, iv);
		NUM(G, c->efficiency, sp);
		STR(sp && c->answer != R0_ANSWER_NONE ? r0_answer_name(c->answer) : NULL);
		STR(c->layer == R0_LAYER_RAW || base ? NULL : c->tie_best ? "true" : "false");
		INT(c->errors);
		STR(a->predicted ? "true" : "false");   /* r0predict's figures: a prediction, not a measurement */
		if (!err)
			err = r0_csv_eol(f);
	}
	return err;
}

static const char *const choice_names[] = {
	"layer", "chunk_bytes", "members", "mix_speedup_x", "mix_speedup_x_lo", "mix_speedup_x_hi", "tie_best",
	"picked", "complete", "loss", "predicted", NULL,
};

int r0_csv_choices(FILE *f, const struct r0_analysis *a)
{
	int err = header(f, choice_names);

	for (size_t i = 0; i < a->n_choice && !err; i++) {
		const struct r0_choice *c = &a->choice[i];
		/* the noise unknown (one repeat, a prediction): no interval */
		const bool iv = !c->vs_base.indicative;

		err = r0_csv_field(f, r0_layer_name(c->layer), true);
		INT(c->chunk_bytes);
		INT(a->max_members);
		NUM(G, c->score, true);
		NUM(G, c->score_min, iv);
		NUM(G, c->score_max, iv);
		STR(c->tie_best ? "true" : "false");
		/* picked: the array the verdict builds; at fewer drives it is the row below */
		STR(a->has_choice && i == a->pick && a->build_members >= a->max_members ? "true" : "false");
		STR(c->incomplete ? "false" : "true");
		STR(c->loss);
		STR(a->predicted ? "true" : "false");
		if (!err)
			err = r0_csv_eol(f);
	}
	/* fewer drives built than the largest count: the pick there, with the headline's figure; the
	 * ranking (tie_best, loss) was made at the largest count only */
	if (!err && a->has_choice && a->build_members && a->build_members < a->max_members) {
		const struct r0_choice *c = &a->choice[a->pick];
		const struct r0_cmp *b = &a->build_vs_base;

		err = r0_csv_field(f, r0_layer_name(c->layer), true);
		INT(c->chunk_bytes);
		INT(a->build_members);
		NUM(G, b->ratio, b->ratio > 0);
		NUM(G, b->lo, b->ratio > 0 && !b->indicative);
		NUM(G, b->hi, b->ratio > 0 && !b->indicative);
		STR(NULL);
		STR("true");
		STR("true");
		STR(NULL);
		STR(a->predicted ? "true" : "false");
		if (!err)
			err = r0_csv_eol(f);
	}
	return err;
}

static const char *const noise_names[] = {
	"target", "visits", "visit_sd_pct", "run_noise_pct", "visit_rho", "kurtosis", "max_drift_pct", "within",
	"sentence", NULL,
};

int r0_csv_noise(FILE *f, const struct r0_noise_diag *d)
{
	int err = header(f, noise_names);

	/* the study's figures first, then each target's; six digits, so that a figure rounded
	 * from the file is the report's (19.75 of 19.7497 would round to 19.8 against 19.7) */
	if (!err)
		err = r0_csv_field(f, "all", true);
	NUM("%.0f", d->n_visits, true);
	NUM("%.6g", d->visit_sd * 100, d->measured);
	NUM("%.6g", d->run_noise_max * 100, d->measured);
	NUM("%.6g", d->visit_rho, d->measured);
	NUM("%.6g", d->kurtosis, d->measured);
	NUM("%.6g", d->max_drift * 100, true);
	STR(!d->measured ? NULL : d->within ? "true" : "false");
	STR(d->sentence);
	if (!err)
		err = r0_csv_eol(f);
	for (size_t i = 0; i < d->n_target && !err; i++) {
		const struct r0_noise_target *t = &d->target[i];

		err = r0_csv_field(f, t->name, true);
		NUM("%.0f", t->visits, true);
		NUM("%.6g", t->visit_sd * 100, t->visits >= 2);
		NUM("%.6g", t->run_noise * 100, t->run_noise > 0);
		STR(NULL);
		STR(NULL);
		STR(NULL);
		STR(NULL);
		STR(NULL);
		if (!err)
			err = r0_csv_eol(f);
	}
	return err;
}
