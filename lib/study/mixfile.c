// SPDX-License-Identifier: GPL-2.0-or-later
/* The mix file (schema r0mix/1): a profile written as JSON, and read back as an r0_mix. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "r0/jsonfields.h"
#include "r0/jsontext.h"
#include "r0/mixfile.h"
#include "r0/profile.h"

static const char method[] =
	"kernel block counters (/sys/block/X/stat, Documentation/block/stat.rst) sampled every interval; "
	"size class inferred from per-interval averages; queue depth per interval = the mean of "
	"in_flight read 10 times an interval while busy, busy time = time in queue / that (Little's law), "
	"else time in queue / io_ticks and io_ticks; sequential vs random inferred from merges, from requests at "
	"the queue's size limit and from requests of 1 MiB or more, which counters cannot show directly; weights are shares of the busy time";

static const char trace_method[] =
	"a block trace (r0trace/1: the device's QUEUE events, the requests as issued before an array splits "
	"them, with their completions or issues): every request classed by itself; sequential = it starts "
	"where one of the last 16 requests of its direction ended; queue depth = requests in flight when it "
	"was queued, itself included; weights are shares of the busy time (time with a request in flight), "
	"or of the requests where the trace has no completions (weights_basis)";

/* Doubles with 6 significant digits, not json-c's 17. */
static json_object *num(double v)
{
	char s[32];

	snprintf(s, sizeof(s), "%.6g", v);
	return json_object_new_double_s(v, s);
}

static json_object *iso_time(int64_t epoch_s)
{
	char s[32];
	struct tm tm;
	time_t t = (time_t)epoch_s;

	if (!gmtime_r(&t, &tm) || !strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_object_new_string("");
	return json_object_new_string(s);
}

static json_object *uint_array(const unsigned *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

/* "/dev/a, /dev/b": -ENOSPC if they do not fit. */
static int join(const char *const *s, size_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", s[i]);

		if (k < 0 || (size_t)k >= len - at)
			return -ENOSPC;
		at += (size_t)k;
	}
	return 0;
}


/* [{"classes": [seq-write, rand-large-write, rand-small-q1-write, rand-small-qd-write], "busy_share": ...}] */
static json_object *cannot_tell(const struct r0_profile *p)
{
	json_object *a = json_object_new_array();

	for (int d = 0; a && d < 2; d++) {
		json_object *e, *c;

		if (!(p->busy_s > 0) || p->cut_busy_s[d] / p->busy_s < R0_PROFILE_CUT_NOTE_SHARE)
			continue;
		json_object_array_add(a, e = json_object_new_object());
		r0_json_set(e, "classes", c = json_object_new_array());
		for (int k = R0_PC_SEQ_READ + d; c && k < R0_PC_N; k += 2)
			json_object_array_add(c, json_object_new_string(r0_pclass_name(k)));
		r0_json_set(e, "weighed_as", json_object_new_string(r0_pclass_name(R0_PC_SEQ_READ + d)));
		r0_json_set(e, "busy_share", num(p->cut_busy_s[d] / p->busy_s));
		r0_json_set(e, "why", json_object_new_string(
			"a striped array's counters count the whole-chunk pieces it cuts requests into; a stream, "
			"large random requests and random requests of one chunk leave the same pieces (a trace: "
			"r0profile --trace tells them apart)"));
	}
	return a;
}

#define TOTAL(m) R0_JSON_FIELD(struct r0_profile, m, #m, R0_JSON_U64)
static const struct r0_json_field totals[] = {
	TOTAL(reads), TOTAL(writes), TOTAL(discards), TOTAL(reads_merged), TOTAL(writes_merged),
	TOTAL(read_bytes), TOTAL(write_bytes), TOTAL(discard_bytes),
};
#undef TOTAL

void r0_mix_file_description(const struct r0_profile *p, const struct r0_profile_meta *m, char *desc, size_t len)
{
	double weight[R0_PC_N];
	char devs[1024];

	if (join(m->dev_path, m->n_dev, devs, sizeof(devs)))
		snprintf(devs, sizeof(devs), "%zu devices", m->n_dev);
	for (int c = 0; c < R0_PC_N; c++)
		weight[c] = p->cls[c].weight;
	if (r0_mix_describe(devs, p->seconds, weight, p->confidence_level, desc, len))
		desc[0] = '\0';
	if (r0_profile_cut_share(p) >= R0_PROFILE_CUT_NOTE_SHARE) {
		size_t at = strlen(desc);

		snprintf(desc + at, len - at, "; %.0f %% of the busy time striped whole-chunk pieces: "
			 "sequential, large random or one-chunk random, which counters cannot tell apart",
			 r0_profile_cut_share(p) * 100);
	}
}

json_object *r0_mix_file_of_profile(const struct r0_profile *p, const struct r0_profile_meta *m)
{
	json_object *o = r0_json_doc_new(R0_MIX_SCHEMA), *d, *per, *w, *t, *rs, *qd, *cf, *bk;
	char desc[R0_MIX_DESCRIPTION_MAX];

	if (!o)
		goto nomem;
	r0_mix_file_description(p, m, desc, sizeof(desc));
	r0_json_set(o, "tool", json_object_new_string(m->tool));
	r0_json_set(o, "description", json_object_new_string(desc));

	r0_json_set(o, "devices", d = json_object_new_array());
	for (size_t i = 0; d && i < m->n_dev; i++) {
		json_object *e = json_object_new_object();

		json_object_array_add(d, e);
		r0_json_set(e, "path", json_object_new_string(m->dev_path[i]));
		r0_json_set(e, "kname", json_object_new_string(m->dev_kname[i]));
		r0_json_set(e, "max_request_bytes", m->dev_max_request_bytes[i] ?
			json_object_new_uint64(m->dev_max_request_bytes[i]) : NULL);   /* 0: not known */
	}

	r0_json_set(o, "period", per = json_object_new_object());
	/* a trace without a wall clock (a fio iolog, a blkparse dump) has no dates: null */
	r0_json_set(per, "start", m->start_epoch_s > 0 ? iso_time(m->start_epoch_s) : NULL);
	r0_json_set(per, "end", m->start_epoch_s > 0 ? iso_time(m->end_epoch_s) : NULL);
	r0_json_set(per, "seconds", num(p->seconds));
	r0_json_set(per, "interval_s", num(m->interval_s));
	r0_json_set(per, "intervals", json_object_new_uint64(p->intervals));
	r0_json_set(per, "active_intervals", json_object_new_uint64(p->active));
	r0_json_set(per, "skipped_intervals", json_object_new_uint64(p->resets));
	r0_json_set(per, "interrupted", json_object_new_boolean(m->interrupted));
	r0_json_set(o, "method", json_object_new_string(m->from_trace ? trace_method : method));
	if (r0_profile_cut_share(p) >= R0_PROFILE_CUT_NOTE_SHARE)
		r0_json_set(o, "cannot_tell", cannot_tell(p));

	/* a reader turns request shares into time shares by one drive's time per request */
	r0_json_set(o, "weights_basis", json_object_new_string(p->weights_by_requests ? "requests" : "busy_time"));
	r0_json_set(o, "weights", w = json_object_new_object());
	for (int c = 0; c < R0_PC_N; c++) {
		const struct r0_profile_class *k = &p->cls[c];
		json_object *e = json_object_new_object();

		r0_json_set(w, r0_pclass_name(c), e);
		r0_json_set(e, "weight", num(k->weight));
		r0_json_set(e, "busy_s", num(k->busy_s));
		r0_json_set(e, "bytes", json_object_new_uint64(k->bytes));
		r0_json_set(e, "ops", json_object_new_uint64(k->ops));
		r0_json_set(e, "intervals", json_object_new_uint64(k->intervals));
		r0_json_set(e, "avg_request_bytes", json_object_new_uint64(k->ops ? k->bytes / k->ops : 0));
		r0_json_set(e, "mean_in_flight", num(k->busy_s > 0 ? k->qd_busy_s / k->busy_s : 0));
	}

	r0_json_set(o, "totals", t = json_object_new_object());
	r0_json_add_fields(t, p, totals, R0_JSON_N(totals));
	r0_json_set(t, "read_share_bytes", num(p->read_share_bytes));
	r0_json_set(t, "read_share_ops", num(p->read_share_ops));
	r0_json_set(t, "discard_share_bytes", num(p->discard_share_bytes));
	r0_json_set(t, "avg_read_bytes", json_object_new_uint64((uint64_t)llround(p->avg_read_bytes)));
	r0_json_set(t, "avg_write_bytes", json_object_new_uint64((uint64_t)llround(p->avg_write_bytes)));
	r0_json_set(t, "busy_s", num(p->busy_s));
	r0_json_set(t, "busy_io_ticks_s", num(p->busy_ticks_s));

	r0_json_set(o, "request_sizes", rs = json_object_new_object());
	r0_json_set(rs, "basis", json_object_new_string(m->from_trace ? "requests by their size" :
						"intervals by their average request size (bytes / requests)"));
	r0_json_set(rs, "bucket_max_bytes", bk = json_object_new_array());
	for (unsigned i = 0; bk && i < R0_PROFILE_SIZE_BUCKETS; i++) {
		uint64_t b = r0_profile_bucket_bytes(i);

		json_object_array_add(bk, b == UINT64_MAX ? NULL : json_object_new_uint64(b));
	}
	r0_json_set(rs, "read_intervals", uint_array(p->size_hist[0], R0_PROFILE_SIZE_BUCKETS));
	r0_json_set(rs, "write_intervals", uint_array(p->size_hist[1], R0_PROFILE_SIZE_BUCKETS));

	r0_json_set(o, "queue_depth", qd = json_object_new_object());
	r0_json_set(qd, "busy_share_q1", num(p->q1_share));
	r0_json_set(qd, "mean_in_flight_busy", num(p->mean_qd));
	r0_json_set(qd, "in_flight_samples", uint_array(p->inflight_hist, 4));

	r0_json_set(o, "confidence", cf = json_object_new_object());
	r0_json_set(cf, "score", num(p->confidence));
	r0_json_set(cf, "level", json_object_new_string(p->confidence_level));
	r0_json_set(cf, "basis", json_object_new_string(
		"active intervals (full at 30) x the busy-time share of intervals whose average size, "
		"merges and queue depth are clear of the class borders"));
	return o;
nomem:
	json_object_put(o);
	errno = ENOMEM;
	return NULL;
}

int r0_mix_file_text(const struct r0_profile *p, const struct r0_profile_meta *m, char **out)
{
	json_object *o = r0_mix_file_of_profile(p, m);
	int err = o ? r0_json_text(o, out) : -ENOMEM;

	json_object_put(o);
	return err;
}

int r0_mix_file_write(const char *path, const struct r0_profile *p, const struct r0_profile_meta *m)
{
	json_object *o = r0_mix_file_of_profile(p, m);
	int err = o ? r0_json_file_replace(path, o) : -ENOMEM;

	json_object_put(o);
	return err;
}

static json_object *member(json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
		return NULL;
	if (t == json_type_double && json_object_is_type(v, json_type_int))
		return v;
	return json_object_is_type(v, t) ? v : NULL;
}

int r0_mix_load(const char *path, struct r0_mix *out, char *desc, size_t desc_len)
{
	json_object *o = NULL, *v, *w, *devs;
	double weight[R0_PC_N] = { 0 }, sum = 0, seconds;
	const char *paths[16];
	size_t n_paths = 0;
	char joined[1024];
	int err = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (access(path, R_OK))
		return -errno;
	o = json_object_from_file(path);
	if (!(v = member(o, "r0kit_schema", json_type_string)) || strcmp(json_object_get_string(v), R0_MIX_SCHEMA))
		goto out;
	if (!(w = member(o, "weights", json_type_object)))
		goto out;
	json_object_object_foreach(w, key, e) {
		int c = r0_pclass_from_name(key);
		json_object *x = member(e, "weight", json_type_double);
		double x_v = x ? json_object_get_double(x) : NAN;

		if (c < 0 || !isfinite(x_v) || x_v < 0)
			goto out;
		weight[c] = x_v;
		sum += x_v;
	}
	if (!(sum > 0))
		goto out;
	if (!(devs = member(o, "devices", json_type_array)) || !json_object_array_length(devs))
		goto out;
	for (size_t i = 0; i < json_object_array_length(devs) && n_paths < 16; i++) {
		json_object *p = member(json_object_array_get_idx(devs, i), "path", json_type_string);

		if (!p)
			goto out;
		paths[n_paths++] = json_object_get_string(p);
	}
	v = member(member(o, "period", json_type_object), "seconds", json_type_double);
	seconds = v ? json_object_get_double(v) : NAN;
	if (!isfinite(seconds) || seconds < 0)
		goto out;

	snprintf(out->name, sizeof(out->name), "measured");
	/* older files have no basis: r0profile's weights were busy time */
	v = member(o, "weights_basis", json_type_string);
	if (v && strcmp(json_object_get_string(v), "busy_time") && strcmp(json_object_get_string(v), "requests"))
		goto out;
	out->per_request = v && !strcmp(json_object_get_string(v), "requests");
	for (int c = 0; c < R0_PC_N; c++) {
		if (!(weight[c] > 0))
			continue;
		snprintf(out->e[out->n].key, sizeof(out->e[0].key), "%s", r0_pclass_name(c));
		out->e[out->n++].weight = weight[c] / sum;
	}
	if (desc) {
		v = member(member(o, "confidence", json_type_object), "level", json_type_string);
		if (join(paths, n_paths, joined, sizeof(joined)))
			snprintf(joined, sizeof(joined), "%zu devices", n_paths);
		for (int c = 0; c < R0_PC_N; c++)
			weight[c] /= sum;
		if ((err = r0_mix_describe(joined, seconds, weight, v ? json_object_get_string(v) : NULL,
					   desc, desc_len)))
			goto out;
	}
	err = 0;
out:
	if (err)
		memset(out, 0, sizeof(*out));
	json_object_put(o);
	return err;
}
