// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0trim/1 document written from a run's records (r0/trimjson.h); r0_trimres_load reads it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "r0/buildid.h"
#include "r0/jsonfields.h"
#include "r0/jsontext.h"
#include "r0/trimjson.h"


/* the schema predates uint64: every count is written signed */
static json_object *j_limits(const struct r0_discard_limits *l)
{
	static const struct r0_json_field fields[] = {
		R0_JSON_FIELD(struct r0_discard_limits, granularity_bytes, "discard_granularity_bytes", R0_JSON_U64_SIGNED),
		R0_JSON_FIELD(struct r0_discard_limits, max_bytes, "discard_max_bytes", R0_JSON_U64_SIGNED),
		R0_JSON_FIELD(struct r0_discard_limits, max_hw_bytes, "discard_max_hw_bytes", R0_JSON_U64_SIGNED),
		R0_JSON_FIELD(struct r0_discard_limits, alignment_bytes, "discard_alignment_bytes", R0_JSON_U64_SIGNED),
		R0_JSON_FIELD(struct r0_discard_limits, write_zeroes_max_bytes, "write_zeroes_max_bytes", R0_JSON_U64_SIGNED),
		R0_JSON_FIELD(struct r0_discard_limits, logical_block_bytes, "logical_block_bytes", R0_JSON_U32),
	};
	json_object *o = json_object_new_object();

	r0_json_add_fields(o, l, fields, R0_JSON_N(fields));
	return o;
}

static json_object *j_effect(const struct r0_trim_effect *e)
{
#define F(m, name) R0_JSON_FIELD(struct r0_trim_effect, m, name, R0_JSON_U64_SIGNED)
	static const struct r0_json_field fields[] = {
		F(discarded_ok, "discarded_ok_sectors"),
		F(discarded_bad, "discarded_bad_sectors"),
		F(unchecked, "unchecked_sectors"),
		F(intact_ok, "intact_ok_sectors"),
		F(intact_bad, "intact_bad_sectors"),
		F(member_discarded_ok, "member_discarded_ok_sectors"),
		F(member_discarded_bad, "member_discarded_bad_sectors"),
		F(member_intact_ok, "member_intact_ok_sectors"),
		F(member_intact_bad, "member_intact_bad_sectors"),
		R0_JSON_FIELD(struct r0_trim_effect, first_bad_sector, "first_bad_array_sector", R0_JSON_I64),
	};
#undef F
	json_object *o = json_object_new_object();

	r0_json_set(o, "verdict", json_object_new_string(r0_check_result_name(e->verdict)));
	r0_json_add_fields(o, e, fields, R0_JSON_N(fields));
	return o;
}

/* What each bottom device counted of one discard; none when nothing was counted. */
static json_object *j_counts(const struct r0_trim_device *t, const struct r0_trim_counts *c)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; c->counted && i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		const struct r0_trim_member_result *x = &c->member[i];
		json_object *o = json_object_new_object();

		r0_json_set(o, "member", json_object_new_string(m->kname));
		r0_json_set(o, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
		r0_json_set(o, "expected_sectors", json_object_new_int64((int64_t)x->expected_sectors));
		r0_json_set(o, "observed_sectors", json_object_new_int64((int64_t)x->observed_sectors));
		/* only where the member is not itself the bottom device */
		if (m->depth)
			r0_json_set(o, "observed_member_sectors", json_object_new_int64((int64_t)x->observed_member_sectors));
		r0_json_set(o, "conclusive", json_object_new_boolean(x->conclusive));
		r0_json_set(o, "verdict", json_object_new_string(r0_check_result_name(x->verdict)));
		json_object_array_add(a, o);
	}
	return a;
}

/* The device and the stack below it: the same in every mode. */
static void add_device(json_object *root, const char *device, const char *kernel, const struct r0_trim_device *t)
{
	json_object *ms = json_object_new_array(), *ls = json_object_new_array();

	r0_json_set(root, "device", json_object_new_string(device));
	r0_json_set(root, "kernel_name", json_object_new_string(t->kname));
	r0_json_set(root, "description", json_object_new_string(t->desc));
	r0_json_set(root, "kernel", json_object_new_string(kernel));
	r0_json_set(root, "size_bytes", json_object_new_int64((int64_t)(t->size_sectors * 512)));
	/* a device that is no stripe has no chunk: null, never 0 */
	r0_json_set(root, "chunk_bytes", t->geo.chunk_sectors ? json_object_new_int64(t->geo.chunk_sectors * 512) : NULL);
	r0_json_set(root, "zones", json_object_new_int((int)t->geo.n_zones));
	if (t->kind == R0_TRIM_MD)
		r0_json_set(root, "md_layout", json_object_new_int(t->md_layout));
	r0_json_set(root, "limits", j_limits(&t->lim));
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		json_object *o = json_object_new_object(), *ch = json_object_new_array();

		r0_json_set(o, "name", json_object_new_string(m->kname));
		for (unsigned d = 0; d <= m->depth; d++) {
			json_object *c = json_object_new_object();

			r0_json_set(c, "name", json_object_new_string(m->chain_kname[d]));
			if (m->chain_type[d][0])
				r0_json_set(c, "dm_target", json_object_new_string(m->chain_type[d]));
			json_object_array_add(ch, c);
		}
		r0_json_set(o, "stack", ch);
		r0_json_set(o, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
		r0_json_set(o, "reads_after_discard", json_object_new_string(r0_discard_reads_name(m->reads)));
		r0_json_set(o, "reads_after_discard_source", json_object_new_string(m->reads_why));
		r0_json_set(o, "used_sectors", json_object_new_int64((int64_t)t->geo.used_sectors[i]));
		r0_json_set(o, "data_offset_sectors", json_object_new_int64((int64_t)t->geo.data_offset_sectors[i]));
		r0_json_set(o, "limits", j_limits(&m->lim));
		json_object_array_add(ms, o);
	}
	r0_json_set(root, "members", ms);
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		const struct r0_trim_node *nd = &t->stack.node[i];
		json_object *o;
		char line[512];

		if (nd->kind == R0_NODE_DEVICE)
			continue;   /* the bottom devices are the members */
		o = json_object_new_object();
		r0_trim_stack_layer_line(&t->stack, i, line, sizeof(line));
		r0_json_set(o, "name", json_object_new_string(nd->kname));
		r0_json_set(o, "layer", json_object_new_string(nd->label));
		r0_json_set(o, "description", json_object_new_string(line));
		r0_json_set(o, "drops_discards", json_object_new_boolean(nd->drops));
		json_object_array_add(ls, o);
	}
	r0_json_set(root, "layers", ls);
}

/* Seconds since the epoch in UTC, as r0age's records give times: "2025-01-31T06:00:00Z". */
static json_object *j_iso_time(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[40];

	if (!gmtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, sizeof(buf), "%lld", (long long)t);
	return json_object_new_string(buf);
}

/* A share (0 to 1) with 6 significant digits, not json-c's 17. */
static json_object *j_share(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

static json_object *j_watch(const struct r0_trim_watch_doc *w)
{
	const struct r0_watch_judgement *j = w->judgement;
	const struct r0_watch_rec *now = w->now;
	json_object *o = json_object_new_object(), *devs = json_object_new_array();

	r0_json_set(o, "record_file", json_object_new_string(w->record_file));
	r0_json_set(o, "watched", json_object_new_string(w->watched));
	r0_json_set(o, "records", json_object_new_int64((int64_t)j->n_records));
	r0_json_set(o, "intervals", json_object_new_int64(j->n_intervals));
	r0_json_set(o, "reboots", json_object_new_int64(j->boots));
	r0_json_set(o, "since", j_iso_time(w->since));
	r0_json_set(o, "skipped_lines", json_object_new_int64(w->skipped_lines));
	r0_json_set(o, "shares_from_geometry", json_object_new_boolean(w->shares_from_geometry));
	r0_json_set(o, "detail", json_object_new_string(w->detail));
	for (unsigned i = 0; i < now->n; i++) {
		json_object *d = json_object_new_object();

		r0_json_set(d, "name", json_object_new_string(now->name[i]));
		r0_json_set(d, "serial", json_object_new_string(now->serial[i]));
		r0_json_set(d, "discarded_bytes", json_object_new_int64((int64_t)(j->total[i] * 512)));
		r0_json_set(d, "observed_share", j_share(j->share[i]));
		r0_json_set(d, "predicted_share", j_share(w->predicted_share[i]));
		if (j->stopped_since[i]) {
			r0_json_set(d, "stopped_since", j_iso_time(j->stopped_since[i]));
			r0_json_set(d, "others_since_bytes", json_object_new_int64((int64_t)(j->others_since[i] * 512)));
		}
		json_object_array_add(devs, d);
	}
	r0_json_set(o, "devices", devs);
	return o;
}

static json_object *j_checks(const struct r0_trim_doc *doc)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < doc->n_checks; i++) {
		const struct r0_trim_check_line *x = &doc->checks[i];
		json_object *o = json_object_new_object();

		r0_json_set(o, "check", json_object_new_string(x->check));
		r0_json_set(o, "verdict", json_object_new_string(r0_check_result_name(x->verdict)));
		r0_json_set(o, "detail", json_object_new_string(x->detail));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *j_ranges(const struct r0_trim_doc *doc)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < doc->n_ranges; i++) {
		const struct r0_trim_range_doc *rg = &doc->ranges[i];
		json_object *o = json_object_new_object(), *d = json_object_new_object();

		r0_json_set(o, "name", json_object_new_string(rg->name));
		r0_json_set(o, "start_bytes", json_object_new_int64((int64_t)rg->start_bytes));
		r0_json_set(o, "length_bytes", json_object_new_int64((int64_t)rg->length_bytes));
		r0_json_set(o, "smaller_than_granularity", json_object_new_boolean(rg->smaller_than_granularity));
		r0_json_set(d, "verdict", json_object_new_string(r0_check_result_name(rg->delivery)));
		r0_json_set(d, "repeats", json_object_new_int((int)rg->repeats));
		r0_json_set(d, "members", j_counts(doc->described, &rg->counts));
		r0_json_set(o, "delivery", d);
		if (rg->has_effect)
			r0_json_set(o, "effect", j_effect(&rg->effect));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *j_cycles(const struct r0_trim_doc *doc)
{
	const struct r0_trim_device *t = doc->described;
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < doc->n_cycles; i++) {
		const struct r0_trim_cycle_doc *c = &doc->cycles[i];
		json_object *o = json_object_new_object();

		r0_json_set(o, "cycle", json_object_new_int((int)c->cycle));
		r0_json_set(o, "verdict", json_object_new_string(r0_check_result_name(c->verdict)));
		r0_json_set(o, "start_bytes", json_object_new_int64((int64_t)c->start_bytes));
		r0_json_set(o, "length_bytes", json_object_new_int64((int64_t)c->length_bytes));
		r0_json_set(o, "members", j_counts(t, &c->counts));
		r0_json_set(o, "effect", j_effect(&c->effect));
		json_object_array_add(a, o);
	}
	for (size_t i = 0; i < doc->n_fs_cycles; i++) {
		const struct r0_trim_fs_cycle_doc *c = &doc->fs_cycles[i];
		json_object *o = json_object_new_object(), *ms = json_object_new_array();

		for (unsigned k = 0; k < t->n_members; k++) {
			const struct r0_trim_member *m = &t->members[k];
			json_object *x = json_object_new_object();

			r0_json_set(x, "member", json_object_new_string(m->kname));
			r0_json_set(x, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
			r0_json_set(x, "deleted_file_sectors", json_object_new_int64((int64_t)c->deleted_sectors[k]));
			r0_json_set(x, "observed_sectors", json_object_new_int64((int64_t)c->observed_sectors[k]));
			json_object_array_add(ms, x);
		}
		r0_json_set(o, "cycle", json_object_new_int((int)c->cycle));
		r0_json_set(o, "fs", json_object_new_string(c->fs));
		r0_json_set(o, "discard", json_object_new_string(c->mount_discard ? "mount" : "fstrim"));
		r0_json_set(o, "verdict", json_object_new_string(r0_check_result_name(c->verdict)));
		r0_json_set(o, "files", json_object_new_int((int)c->files));
		if (!c->mount_discard)
			r0_json_set(o, "fstrim_bytes", json_object_new_int64((int64_t)c->fstrim_bytes));
		r0_json_set(o, "members", ms);
		json_object_array_add(a, o);
	}
	return a;
}

/* Each bottom device's level: what was shown of it. */
static json_object *j_evidence(const struct r0_trim_evidence *ev, const struct r0_trim_device *t)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < t->n_members; i++) {
		json_object *o = json_object_new_object();
		char why[256];
		enum r0_trim_level l = r0_trim_evidence_level(ev, t, i, why, sizeof(why));

		r0_json_set(o, "member", json_object_new_string(t->members[i].kname));
		r0_json_set(o, "level", json_object_new_string(r0_trim_level_name(l)));
		r0_json_set(o, "detail", json_object_new_string(why));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *r0_trim_to_json(const struct r0_trim_doc *doc)
{
	json_object *root = json_object_new_object();
	const char *verdict, *reason;
	bool pass;

	if (!root)
		return NULL;
	r0_json_schema(root, R0_TRIM_SCHEMA);
	r0_json_set(root, "version", json_object_new_string(r0_build_id()));
	if (doc->mode == R0_TRIM_MODE_LIVE) {
		r0_json_set(root, "mode", json_object_new_string("live"));
		r0_json_set(root, "directory", json_object_new_string(doc->directory));
		r0_json_set(root, "file_system", json_object_new_string(doc->file_system));
	} else if (doc->mode == R0_TRIM_MODE_WATCH) {
		r0_json_set(root, "mode", json_object_new_string("watch"));
	}
	/* --watch writes no pattern */
	if (doc->mode != R0_TRIM_MODE_WATCH) {
		char seed[24];

		snprintf(seed, sizeof(seed), "%016llx", (unsigned long long)doc->pattern_seed);
		r0_json_set(root, "pattern_seed", json_object_new_string(seed));
	}
	add_device(root, doc->device, doc->kernel, doc->described);
	if (doc->mode == R0_TRIM_MODE_WATCH)
		r0_json_set(root, "watch", j_watch(doc->watch));
	/* --watch has no range, cycle or check of the other modes: its records are the evidence */
	r0_json_set(root, "checks", j_checks(doc));
	r0_json_set(root, "ranges", j_ranges(doc));
	r0_json_set(root, "cycles", j_cycles(doc));
	if (doc->evidence)
		r0_json_set(root, "evidence", j_evidence(doc->evidence, doc->described));
	if (doc->mode == R0_TRIM_MODE_WATCH) {
		verdict = r0_watch_verdict_label(doc->watch->judgement->verdict);
		pass = r0_watch_passes(doc->watch->judgement->verdict);
		reason = doc->watch->detail;
	} else {
		verdict = r0_check_result_name(doc->verdict);
		pass = doc->verdict == R0_CHECK_OK;
		reason = doc->reason;
	}
	r0_json_set(root, "verdict", json_object_new_string(verdict));
	r0_json_set(root, "discards_pass", json_object_new_boolean(pass));
	if (!pass)
		r0_json_set(root, "reason", json_object_new_string(reason ? reason : ""));
	return root;
}

int r0_trim_json_print(json_object *o, FILE *f)
{
	char *text;
	int err = r0_json_text(o, &text);

	if (err)
		return err;
	fputs(text, f);
	free(text);
	return 0;
}

int r0_trim_run_write_json(const struct r0_trim_run *r, FILE *f)
{
	const struct r0_trim_doc doc = {
		.mode = r->live_dir ? R0_TRIM_MODE_LIVE : R0_TRIM_MODE_DEVICE,
		.directory = r->live_dir, .file_system = r->live_fs, .pattern_seed = r->seed,
		.device = r->path, .kernel = r->kernel, .described = &r->t,
		.checks = r->result.lines, .n_checks = r->result.n_lines, .ranges = r->ranges, .n_ranges = r->n_ranges,
		.cycles = r->cycles, .n_cycles = r->n_cycles,
		.fs_cycles = r->fs_cycles, .n_fs_cycles = r->n_fs_cycles,
		.evidence = r->result.judged ? &r->result.ev : NULL, .verdict = r->result.overall,
		.reason = r->result.first_fail,
	};
	json_object *o = r0_trim_to_json(&doc);
	int err = o ? r0_trim_json_print(o, f) : -ENOMEM;

	json_object_put(o);
	return err;
}
