// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim and r0age result files for r0report, and which schema a file holds (see r0/resultfiles.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "r0/age.h"
#include "r0/benchjson.h"
#include "r0/resultfiles.h"
#include "r0/scenariojson.h"
#include "r0/sweep.h"
#include "r0/trimcheck.h"
#include "r0/trimjson.h"
#include "r0/trimwatch.h"

static json_object *key(json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v))
		return NULL;
	if (t == json_type_double)
		return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ? v : NULL;
	return json_object_is_type(v, t) ? v : NULL;
}

static bool str(json_object *o, const char *k, char *buf, size_t len)
{
	json_object *v = key(o, k, json_type_string);

	if (!v)
		return false;
	snprintf(buf, len, "%s", json_object_get_string(v));
	return true;
}

static bool u64(json_object *o, const char *k, uint64_t *out)
{
	json_object *v = key(o, k, json_type_int);

	if (!v || json_object_get_int64(v) < 0)
		return false;
	*out = (uint64_t)json_object_get_int64(v);
	return true;
}

/* K is there and null: a value not known or not there (a single device's chunk); read as 0. */
static bool is_null(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && !v;
}

static bool uns(json_object *o, const char *k, unsigned *out)
{
	uint64_t v;

	if (!u64(o, k, &v) || v > 0xffffffffu)
		return false;
	*out = (unsigned)v;
	return true;
}

/* a number, or NAN for null or missing */
static double num(json_object *o, const char *k)
{
	json_object *v = key(o, k, json_type_double);

	return v ? json_object_get_double(v) : NAN;
}

static int schema_of(json_object *o, enum r0_result_kind *out)
{
	char s[32];

	/* r0kit_schema; r0sweep files written before it name it "schema" */
	if (!str(o, "r0kit_schema", s, sizeof(s)) && !str(o, "schema", s, sizeof(s)))
		return -EINVAL;
	if (!strcmp(s, R0_SWEEP_SCHEMA))
		*out = R0_RESULT_SWEEP;
	else if (!strcmp(s, R0_TRIM_SCHEMA))
		*out = R0_RESULT_TRIM;
	else if (!strcmp(s, R0_SCENARIO_SCHEMA))
		*out = R0_RESULT_SCENARIO;
	else if (!strcmp(s, R0_STATE_SCHEMA))
		*out = R0_RESULT_AGE;
	else if (!strcmp(s, R0_BENCH_SCHEMA))
		*out = R0_RESULT_BENCH;
	else
		return -EINVAL;
	return 0;
}

int r0_result_kind(const char *path, enum r0_result_kind *out)
{
	FILE *f = fopen(path, "re");
	json_tokener *tok;
	json_object *o = NULL;
	struct stat st = { 0 };
	char buf[4096];
	size_t n;
	int err = -EINVAL;

	if (!f)
		return -errno;
	/* a directory opens for reading and fails at its first read: -EISDIR, not -EIO */
	if (fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		fclose(f);
		return err;
	}
	tok = json_tokener_new();
	if (!tok) {
		fclose(f);
		return -ENOMEM;
	}
	/* the first JSON value, however many lines it spans */
	while (!o && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		o = json_tokener_parse_ex(tok, buf, (int)n);
		if (!o && json_tokener_get_error(tok) != json_tokener_continue)
			break;
	}
	if (o) {
		err = schema_of(o, out);
		json_object_put(o);
	} else if (ferror(f)) {
		err = -EIO;
	}
	json_tokener_free(tok);
	fclose(f);
	return err;
}

static int trim_range(json_object *r, const struct r0_trimres *t, struct r0_trimres_range *out)
{
	json_object *d = key(r, "delivery", json_type_object), *ms = key(d, "members", json_type_array);

	if (!str(r, "name", out->name, sizeof(out->name)) || !u64(r, "start_bytes", &out->start_bytes) ||
	    !u64(r, "length_bytes", &out->length_bytes) || !d || !ms ||
	    !str(d, "verdict", out->verdict, sizeof(out->verdict)))
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(ms); i++) {
		json_object *m = json_object_array_get_idx(ms, i);
		char name[64];
		unsigned k;

		if (!str(m, "member", name, sizeof(name)))
			return -EINVAL;
		for (k = 0; k < t->n_members && strcmp(t->member[k], name); k++)
			;
		if (k == t->n_members || !u64(m, "expected_sectors", &out->expected[k]) ||
		    !u64(m, "observed_sectors", &out->observed[k]))
			return -EINVAL;
	}
	return 0;
}

/* r0trim --watch's "watch" object */
static int trim_watch(json_object *w, struct r0_trimres_watch *out)
{
	json_object *ds = key(w, "devices", json_type_array);

	if (!ds || !str(w, "record_file", out->record_file, sizeof(out->record_file)) ||
	    !str(w, "since", out->since, sizeof(out->since)) || !str(w, "detail", out->detail, sizeof(out->detail)) ||
	    !uns(w, "records", &out->records) || !uns(w, "intervals", &out->intervals))
		return -EINVAL;
	if (json_object_array_length(ds) > R0_TRIMRES_MEMBERS)
		return -ERANGE;
	for (size_t i = 0; i < json_object_array_length(ds); i++) {
		json_object *d = json_object_array_get_idx(ds, i);
		struct r0_trimres_wdev *v = &out->dev[out->n_devices];

		v->observed_share = num(d, "observed_share");
		v->predicted_share = num(d, "predicted_share");
		if (!str(d, "name", v->name, sizeof(v->name)) || !u64(d, "discarded_bytes", &v->discarded_bytes) ||
		    isnan(v->observed_share) || isnan(v->predicted_share))
			return -EINVAL;
		str(d, "serial", v->serial, sizeof(v->serial));
		if (str(d, "stopped_since", v->stopped_since, sizeof(v->stopped_since)) &&
		    !u64(d, "others_since_bytes", &v->others_since_bytes))
			return -EINVAL;
		out->n_devices++;
	}
	return 0;
}

/* Whether V is a verdict r0trim writes for a check (r0_check_result_name). */
static bool check_name(const char *v)
{
	static const enum r0_check_result all[] = { R0_CHECK_OK, R0_CHECK_NOT_CHECKABLE, R0_CHECK_NOT_CONCLUSIVE,
						    R0_CHECK_FAIL };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(v, r0_check_result_name(all[i])))
			return true;
	return false;
}

/*
 * Whether T's verdict is one r0trim writes and agrees with discards_pass
 * and its checks, as r0trim wrote them together: an edited or damaged
 * document is refused, never reported with a verdict its evidence does
 * not give.
 */
static bool verdict_agrees(const struct r0_trimres *t)
{
	static const enum r0_watch_verdict watch[] = { R0_WATCH_FIRST, R0_WATCH_IDLE, R0_WATCH_PASS, R0_WATCH_DRIFT,
						       R0_WATCH_STOPPED };

	if (t->watch) {
		for (size_t i = 0; i < sizeof(watch) / sizeof(watch[0]); i++)
			if (!strcmp(t->verdict, r0_watch_verdict_label(watch[i])))
				return t->pass == r0_watch_passes(watch[i]);
		return false;
	}
	if (!check_name(t->verdict) || t->pass != !strcmp(t->verdict, "PASS"))
		return false;
	/* a check that failed is never outweighed (the evidence may fail a document whose checks pass) */
	return !(t->pass && t->n_fail);
}

int r0_trimres_load(const char *path, struct r0_trimres *t)
{
	json_object *o = json_object_from_file(path), *ms, *rs, *cs, *v;
	enum r0_result_kind kind;
	int err = -EINVAL;

	memset(t, 0, sizeof(*t));
	if (!o)
		return -EINVAL;
	if (schema_of(o, &kind) || kind != R0_RESULT_TRIM)
		goto out;
	ms = key(o, "members", json_type_array);
	rs = key(o, "ranges", json_type_array);
	cs = key(o, "checks", json_type_array);
	v = key(o, "discards_pass", json_type_boolean);
	if (!ms || !rs || !cs || !v || !str(o, "device", t->device, sizeof(t->device)) ||
	    !str(o, "verdict", t->verdict, sizeof(t->verdict)) || !u64(o, "size_bytes", &t->size_bytes) ||
	    !(u64(o, "chunk_bytes", &t->chunk_bytes) || is_null(o, "chunk_bytes")))
		goto out;
	t->pass = json_object_get_boolean(v);
	v = key(o, "mode", json_type_string);
	if (v && !strcmp(json_object_get_string(v), "watch")) {
		if ((err = trim_watch(key(o, "watch", json_type_object), &t->w)))
			goto out;
		t->watch = true;
		err = -EINVAL;
	}
	str(o, "description", t->description, sizeof(t->description));
	/* r0trim names a stripe it checks as itself so (r0_trim_device_describe), anything else by its layers */
	t->layer = !strncmp(t->description, "md raid0, ", 10) ? R0_LAYER_MD :
		   !strncmp(t->description, "dm striped, ", 12) ? R0_LAYER_DM : R0_LAYER_RAW;
	str(o, "kernel", t->kernel, sizeof(t->kernel));
	if (json_object_array_length(ms) > R0_TRIMRES_MEMBERS) {
		err = -ERANGE;
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(ms); i++)
		if (!str(json_object_array_get_idx(ms, i), "name", t->member[t->n_members++], sizeof(t->member[0])))
			goto out;
	for (size_t i = 0; i < json_object_array_length(cs); i++) {
		char vd[24];

		if (!str(json_object_array_get_idx(cs, i), "verdict", vd, sizeof(vd)))
			goto out;
		if (!check_name(vd))
			goto bad;
		t->n_checks++;
		t->n_pass += !strcmp(vd, "PASS");
		t->n_fail += !strcmp(vd, "FAIL");
	}
	if (!verdict_agrees(t)) {
		err = -EBADMSG;
		goto out;
	}
	/* r0trim writes at most R0_TRIM_MAX_RANGES: more is not its document, and none is dropped unsaid */
	if (json_object_array_length(rs) > R0_TRIMRES_RANGES) {
		err = -ERANGE;
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(rs); i++) {
		err = trim_range(json_object_array_get_idx(rs, i), t, &t->range[t->n_ranges]);
		if (err)
			goto out;
		t->n_ranges++;
	}
	err = 0;
out:
	json_object_put(o);
	return err;
bad:
	err = -EBADMSG;
	goto out;
}

int r0_ageres_load(const char *path, struct r0_state_record *out)
{
	json_object *o = json_object_from_file(path);
	int err;

	if (!o)
		return access(path, R_OK) ? -errno : -EINVAL;
	err = r0_state_record_parse(o, out);
	json_object_put(o);
	return err;
}
