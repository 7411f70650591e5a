// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0scenario/1 record written and read on one table of its keys (see r0/scenariojson.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "jsonl.h"
#include "strbuf.h"
#include "r0/scenariojson.h"

enum kind {
	K_SCHEMA,   /* the schema's name: written always, read as the one it must be */
	K_TEXT,     /* a char array, not empty when written */
	K_UNS,      /* unsigned */
	K_BOOL,
	K_U64,      /* uint64_t; with NULLABLE, R0_SCENARIO_NULL is null */
	K_NUM,      /* double written with FMT; with NULLABLE, NAN is null */
	K_WHOLE,    /* double written as a whole number, the fraction cut off */
};

struct field {
	const char *name;
	enum kind kind;
	size_t offset, size;
	const char *fmt;
	double min, max;            /* what the schema allows of a number */
	bool nullable;
	bool needed;                /* a line without it is not read */
};

#define M(m) offsetof(struct r0_scenario_cycle, m), sizeof(((struct r0_scenario_cycle *)0)->m)
#define TEXT(m, need) { #m, K_TEXT, M(m), NULL, 0, 0, false, need }
#define UNS(m, lo, hi, need) { #m, K_UNS, M(m), NULL, lo, hi, false, need }
#define U64(m, null) { #m, K_U64, M(m), NULL, 0, 0, null, false }
#define NUM(m, fmt, hi, null, need) { #m, K_NUM, M(m), fmt, 0, hi, null, need }

/* the record's keys in the order the recipe's printf wrote them, and the formats it used */
static const struct field fields[] = {
	{ "r0kit_schema", K_SCHEMA, 0, 0, NULL, 0, 0, false, true },
	TEXT(scenario, false),
	TEXT(array, true),
	UNS(members, 1, UINT_MAX, false),
	UNS(ssd_mib, 1, UINT_MAX, false),
	{ "trim", K_BOOL, M(trim), NULL, 0, 0, false, true },
	UNS(cycle, 0, UINT_MAX, true),
	UNS(fill_pct, 0, 100, false),
	U64(fill_bytes, false),
	NUM(mapped_after_delete_pct, "%.1f", 100, true, false),
	U64(fstrim_bytes, true),
	NUM(mapped_before_bench_pct, "%.1f", 100, false, false),
	NUM(bench_s, "%.9g", INFINITY, false, false),
	{ "randwrite_iops", K_WHOLE, M(randwrite_iops), NULL, 0, INFINITY, false, true },
	NUM(randwrite_mb_s, "%.2f", INFINITY, false, false),
	NUM(seqwrite_mb_s, "%.2f", INFINITY, false, true),
	NUM(waf_randwrite, "%.3f", INFINITY, true, false),
	NUM(waf_seqwrite, "%.3f", INFINITY, true, false),
	NUM(waf_cycle, "%.3f", INFINITY, true, false),
	NUM(waf_total, "%.3f", INFINITY, true, false),
	U64(gc_runs, false),
	U64(host_write_pages, false),
	U64(flash_program_pages, false),
};

#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

/* ---- counters and benchmarks ---- */

/* flash programs / host page writes from A to B; NAN without a host write */
static double waf(const struct r0_scenario_counts *a, const struct r0_scenario_counts *b)
{
	uint64_t host = b->host_write_pages - a->host_write_pages;

	return host ? (double)(b->flash_program_pages - a->flash_program_pages) / (double)host : NAN;
}

int r0_scenario_cycle_set_counts(struct r0_scenario_cycle *c, const struct r0_scenario_counts at[R0_SCENARIO_MOMENTS])
{
	static const struct r0_scenario_counts zero;
	const struct r0_scenario_counts *end = &at[R0_SCENARIO_AT_SEQWRITE];

	for (int i = 1; i < R0_SCENARIO_MOMENTS; i++)
		if (at[i].host_write_pages < at[i - 1].host_write_pages ||
		    at[i].flash_program_pages < at[i - 1].flash_program_pages || at[i].gc_runs < at[i - 1].gc_runs)
			return -ERANGE;
	c->waf_randwrite = waf(&at[R0_SCENARIO_AT_BENCH], &at[R0_SCENARIO_AT_RANDWRITE]);
	c->waf_seqwrite = waf(&at[R0_SCENARIO_AT_RANDWRITE], end);
	c->waf_cycle = waf(&at[R0_SCENARIO_AT_START], end);
	c->waf_total = waf(&zero, end);
	c->gc_runs = end->gc_runs - at[R0_SCENARIO_AT_START].gc_runs;
	c->host_write_pages = end->host_write_pages;
	c->flash_program_pages = end->flash_program_pages;
	return 0;
}

/* D's one test, when it is a 100 % write test of ACCESS with the figures NEED_IOPS asks; else NULL and WHY */
static const struct r0_bench_result *write_test(const struct r0_bench_doc *d, const char *what,
						enum r0_access access, bool need_iops, char *why, size_t len)
{
	const struct r0_bench_result *t = d->n_tests == 1 ? &d->tests[0] : NULL;

	if (!t)
		snprintf(why, len, "the %s benchmark's document holds %zu tests, not one", what, d->n_tests);
	else if (t->trim || t->access != access || t->read_pct)
		snprintf(why, len, "the %s benchmark's test is not a %s write (%s, %u %% reads)", what,
			 access == R0_ACCESS_SEQ ? "sequential" : "random",
			 t->trim ? "a discard" : t->access == R0_ACCESS_SEQ ? "sequential" : "random", t->read_pct);
	else if (isnan(t->mb_per_s_median) || (need_iops && isnan(t->iops_median)))
		snprintf(why, len, "the %s benchmark's test has no median %s (no pass counted)", what,
			 isnan(t->mb_per_s_median) ? "MB/s" : "IOPS");
	else if (isnan(t->runtime_s) || t->runtime_s <= 0)
		snprintf(why, len, "the %s benchmark's test has no runtime (not a timed run)", what);
	else
		return t;
	return NULL;
}

int r0_scenario_cycle_set_bench(struct r0_scenario_cycle *c, const struct r0_bench_doc *rand,
				const struct r0_bench_doc *seq, char *why, size_t why_len)
{
	char buf[160];
	const struct r0_bench_result *r, *s;

	if (!why) {
		why = buf;
		why_len = sizeof(buf);
	}
	r = write_test(rand, "random write", R0_ACCESS_RAND, true, why, why_len);
	s = r ? write_test(seq, "sequential write", R0_ACCESS_SEQ, false, why, why_len) : NULL;
	if (!s)
		return -EINVAL;
	/* the record has one bench_s for both */
	if (r->runtime_s != s->runtime_s) {
		snprintf(why, why_len, "the random write ran %g s and the sequential write %g s: "
			 "the record has one time for both", r->runtime_s, s->runtime_s);
		return -EINVAL;
	}
	c->bench_s = r->runtime_s;
	c->randwrite_iops = r->iops_median;
	c->randwrite_mb_s = r->mb_per_s_median;
	c->seqwrite_mb_s = s->mb_per_s_median;
	return 0;
}

/* ---- writing ---- */

/* F's member at P as a JSON value into *OUT (NULL: null). 0 or -EINVAL (it breaks the schema). */
static int value(const struct field *f, const char *p, json_object **out)
{
	char buf[64];
	uint64_t u;
	unsigned n;
	double d;
	bool b;

	*out = NULL;
	switch (f->kind) {
	case K_SCHEMA:
		*out = json_object_new_string(R0_SCENARIO_SCHEMA);
		break;
	case K_TEXT:
		if (!*p || !memchr(p, 0, f->size))
			return -EINVAL;
		*out = json_object_new_string(p);
		break;
	case K_UNS:
		memcpy(&n, p, sizeof(n));
		if (n < f->min || n > f->max)
			return -EINVAL;
		*out = json_object_new_int64(n);
		break;
	case K_BOOL:
		memcpy(&b, p, sizeof(b));
		*out = json_object_new_boolean(b);
		break;
	case K_U64:
		memcpy(&u, p, sizeof(u));
		if (f->nullable && u == R0_SCENARIO_NULL)
			return 0;
		*out = json_object_new_uint64(u);
		break;
	case K_NUM:
	case K_WHOLE:
		memcpy(&d, p, sizeof(d));
		if (isnan(d) && f->nullable)
			return 0;
		if (!isfinite(d) || d < f->min || d > f->max)
			return -EINVAL;
		/* as written, not json-c's %.17g: 1.085, not 1.0849999999999999 */
		if (f->kind == K_WHOLE)
			snprintf(buf, sizeof(buf), "%.0f", trunc(d));
		else
			snprintf(buf, sizeof(buf), f->fmt, d);
		*out = json_object_new_double_s(d, buf);
		break;
	}
	return *out ? 0 : -ENOMEM;
}

char *r0_scenario_cycle_to_json(const struct r0_scenario_cycle *c)
{
	json_object *o = json_object_new_object(), *v;
	char *line = NULL;
	int err = 0;

	if (!o) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < N_FIELDS && !err; i++)
		if (!(err = value(&fields[i], (const char *)c + fields[i].offset, &v)) &&
		    json_object_object_add(o, fields[i].name, v)) {
			json_object_put(v);
			err = -ENOMEM;
		}
	if (!err && !(line = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
									JSON_C_TO_STRING_NOSLASHESCAPE))))
		err = -ENOMEM;
	json_object_put(o);
	if (err)
		errno = -err;
	return line;
}

int r0_scenario_cycle_append(FILE *f, const struct r0_scenario_cycle *c)
{
	char *line = r0_scenario_cycle_to_json(c);
	int err;

	if (!line)
		return -errno;
	err = r0_jsonl_append_line(f, line);
	free(line);
	return err;
}

/* ---- reading ---- */

/* K's value in O when it is of type T (an integer is a number too), else NULL */
static json_object *key(json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		return NULL;
	if (t == json_type_double)
		return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ? v : NULL;
	return json_object_is_type(v, t) ? v : NULL;
}

/* F from O into its member at P: true when it was there and read */
/* A number given outside what the schema allows (F's min and max; never infinite): a damaged line, not a figure. */
static bool impossible(json_object *o, const struct field *f)
{
	json_object *v;
	double d;

	if (f->kind == K_UNS && (v = key(o, f->name, json_type_int)))
		d = (double)json_object_get_int64(v);
	else if ((f->kind == K_NUM || f->kind == K_WHOLE) && (v = key(o, f->name, json_type_double)))
		d = json_object_get_double(v);
	else
		return false;
	return !isfinite(d) || d < f->min || d > f->max;
}

static bool read_field(json_object *o, const struct field *f, char *p)
{
	json_object *v;
	int64_t i;
	unsigned n;
	double d;
	bool b;

	switch (f->kind) {
	case K_SCHEMA:
		v = key(o, f->name, json_type_string);
		return v && !strcmp(json_object_get_string(v), R0_SCENARIO_SCHEMA);
	case K_TEXT:
		if (!(v = key(o, f->name, json_type_string)))
			return false;
		snprintf(p, f->size, "%s", json_object_get_string(v));
		return true;
	case K_UNS:
		if (!(v = key(o, f->name, json_type_int)) || (i = json_object_get_int64(v)) < 0 || i > UINT_MAX)
			return false;
		n = (unsigned)i;
		memcpy(p, &n, sizeof(n));
		return true;
	case K_BOOL:
		if (!(v = key(o, f->name, json_type_boolean)))
			return false;
		b = json_object_get_boolean(v);
		memcpy(p, &b, sizeof(b));
		return true;
	case K_U64: {
		uint64_t u = f->nullable ? R0_SCENARIO_NULL : 0;
		bool ok = (v = key(o, f->name, json_type_int)) && (i = json_object_get_int64(v)) >= 0;

		if (ok)
			u = (uint64_t)i;
		memcpy(p, &u, sizeof(u));
		return ok;
	}
	case K_NUM:
	case K_WHOLE:
		v = key(o, f->name, json_type_double);
		d = v ? json_object_get_double(v) : NAN;
		memcpy(p, &d, sizeof(d));
		return v;
	}
	return false;
}

int r0_scenario_cycle_parse(const char *line, struct r0_scenario_cycle *c)
{
	json_object *o = json_tokener_parse(line);
	int err = 0;

	memset(c, 0, sizeof(*c));
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	/* every field read (to its null or 0 when it is missing), the needed ones must be there */
	for (size_t i = 0; i < N_FIELDS; i++)
		if ((!read_field(o, &fields[i], (char *)c + fields[i].offset) && fields[i].needed) ||
		    impossible(o, &fields[i]))
			err = -EINVAL;
	json_object_put(o);
	return err;
}

static int take_line(const char *line, unsigned lineno, void *scenario)
{
	struct r0_scenario *s = scenario;
	struct r0_scenario_cycle r, *nr;

	(void)lineno;
	if (r0_scenario_cycle_parse(line, &r))
		return -EINVAL;
	nr = realloc(s->row, (s->n + 1) * sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	s->row = nr;
	s->row[s->n++] = r;
	if (r.cycle > s->max_cycle)
		s->max_cycle = r.cycle;
	return 0;
}

int r0_scenario_load(const char *path, struct r0_scenario *s, struct r0_sweep_damage *dmg)
{
	struct r0_jsonl_damage d;
	int err = r0_jsonl_scan(path, take_line, s, &d);

	if (dmg)
		*dmg = (struct r0_sweep_damage){ .bad = d.bad, .first_bad = d.first_bad, .cut_tail = d.cut_tail };
	if (!err && !d.good)
		err = -EINVAL;
	return err;
}

bool r0_scenario_study_diff(const struct r0_scenario_cycle *a, const struct r0_scenario_cycle *b, char *why,
			    size_t len)
{
	if (strcmp(a->scenario, b->scenario))
		snprintf(why, len, "scenario (%s vs %s)", a->scenario, b->scenario);
	else if (a->members != b->members)
		snprintf(why, len, "members (%u vs %u)", a->members, b->members);
	else if (a->ssd_mib != b->ssd_mib)
		snprintf(why, len, "ssd_mib (%u vs %u)", a->ssd_mib, b->ssd_mib);
	else if (a->fill_pct != b->fill_pct)
		snprintf(why, len, "fill_pct (%u vs %u)", a->fill_pct, b->fill_pct);
	else if (a->bench_s != b->bench_s && !(isnan(a->bench_s) && isnan(b->bench_s)))
		snprintf(why, len, "bench_s (%g vs %g)", a->bench_s, b->bench_s);
	else
		return false;
	return true;
}

const struct r0_scenario_cycle *r0_scenario_find(const struct r0_scenario *s, bool trim, unsigned cycle)
{
	const struct r0_scenario_cycle *hit = NULL;

	for (size_t i = 0; i < s->n; i++)
		if (s->row[i].trim == trim && s->row[i].cycle == cycle)
			hit = &s->row[i];
	return hit;
}

size_t r0_scenario_repeated(const struct r0_scenario *s, char *buf, size_t len)
{
	size_t n = 0, unsaid = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct r0_scenario_cycle *r = &s->row[i];
		size_t times = 0, at = 0;
		char one[64];

		/* each repeated cycle once: at its first row */
		for (size_t j = 0; j < s->n; j++)
			if (s->row[j].trim == r->trim && s->row[j].cycle == r->cycle && !times++)
				at = j;
		if (times < 2 || at != i)
			continue;
		snprintf(one, sizeof(one), "cycle %u %s TRIM (%zu lines)", r->cycle, r->trim ? "with" : "without", times);
		if (!unsaid && len && strlen(buf) + strlen(one) + 24 < len)
			r0_strbuf_cat(buf, len, "%s%s", n ? ", " : "", one);
		else
			unsaid++;
		n++;
	}
	/* a buffer too small for one name still says how many */
	if (unsaid && len && !buf[0])
		snprintf(buf, len, "%zu cycles", n);
	else if (unsaid && len)
		r0_strbuf_cat(buf, len, " and %zu more", unsaid);
	return n;
}

void r0_scenario_free(struct r0_scenario *s)
{
	free(s->row);
	memset(s, 0, sizeof(*s));
}
