// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's output: the checks' results, once as text or JSON, and the header. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "cli.h"

#include "r0/geometry.h"
#include "r0/jsonfields.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimcheck.h"


#include "trim.h"

/* One check's result, kept for print_results (and the first failure or doubt, for the verdict). */
void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	r->overall = r0_check_result_worse(r->overall, v == R0_CHECK_FAIL ? v : R0_CHECK_PASS);
	if (v == R0_CHECK_FAIL && !r->first_fail[0])
		snprintf(r->first_fail, sizeof(r->first_fail), "%s: %s", check, detail);
	if (v == R0_CHECK_NOT_CONCLUSIVE && !r->first_nc[0])
		snprintf(r->first_nc, sizeof(r->first_nc), "%s: %s", check, detail);
	struct result *x = realloc(r->res, (r->n_res + 1) * sizeof(*x));

	if (!x)
		return;   /* out of memory: the line is lost, its verdict above is not */
	r->res = x;
	x = &r->res[r->n_res];
	snprintf(x->check, sizeof(x->check), "%s", check);
	x->verdict = v;
	x->detail = strdup(detail);
	if (x->detail)
		r->n_res++;
	/* the results print once at the end; a long --cycles run says where it is */
	if (r->progress)
		fprintf(stderr, "\r\033[K" PROG ": %zu checks done, last: %s %s", r->n_res, check,
			r0_check_result_name(v));
}

/* The results once: "check  VERDICT  detail" lines, or the JSON checks array. */
void print_results(struct run *r)
{
	json_object *a = r->json ? json_object_new_array() : NULL;

	if (r->progress)
		fputs("\r\033[K", stderr);

	for (size_t i = 0; i < r->n_res; i++) {
		const struct result *x = &r->res[i];

		if (a) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "check", json_object_new_string(x->check));
			json_object_object_add(o, "verdict", json_object_new_string(r0_check_result_name(x->verdict)));
			json_object_object_add(o, "detail", json_object_new_string(x->detail));
			json_object_array_add(a, o);
		} else {
			printf("%-10s %-14s %s\n", x->check, r0_check_result_name(x->verdict), x->detail);
		}
		free(x->detail);
	}
	free(r->res);
	r->res = NULL;
	r->n_res = 0;
	if (a)
		json_object_object_add(r->root, "checks", a);
}

/* A size exactly, as r0_parse_size reads it back: "64K", "1536K", "4G"; else bytes. */
const char *sz(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024 == 0 || bytes < 1024)
		r0_format_size(bytes, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

json_object *limits_json(const struct r0_discard_limits *l)
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

/* "r0m1" or "dm-3 (flakey) > r0m1" */
void chain_name(const struct r0_trim_member *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned d = 0; d <= m->depth && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s%s", d ? " > " : "", m->chain_kname[d],
					m->chain_type[d][0] ? " (" : "", m->chain_type[d],
					m->chain_type[d][0] ? ")" : "");
}

void print_header(struct run *r, const char *release)
{
	const struct r0_trim_target *t = &r->t;
	char b1[32], b2[32];

	if (r->json) {
		json_object *ms = json_object_new_array();

		json_object_object_add(r->root, "device", json_object_new_string(r->path));
		json_object_object_add(r->root, "kernel_name", json_object_new_string(t->kname));
		json_object_object_add(r->root, "description", json_object_new_string(t->desc));
		json_object_object_add(r->root, "kernel", json_object_new_string(release));
		json_object_object_add(r->root, "size_bytes", json_object_new_int64((int64_t)(t->size_sectors * 512)));
		/* a device that is no stripe has no chunk: null, never 0 */
		json_object_object_add(r->root, "chunk_bytes", t->geo.chunk_sectors ?
				       json_object_new_int64(t->geo.chunk_sectors * 512) : NULL);
		json_object_object_add(r->root, "zones", json_object_new_int((int)t->geo.n_zones));
		if (t->kind == R0_TRIM_MD)
			json_object_object_add(r->root, "md_layout", json_object_new_int(t->md_layout));
		json_object_object_add(r->root, "limits", limits_json(&t->lim));
		for (unsigned i = 0; i < t->n_members; i++) {
			const struct r0_trim_member *m = &t->members[i];
			json_object *o = json_object_new_object(), *ch = json_object_new_array();

			json_object_object_add(o, "name", json_object_new_string(m->kname));
			for (unsigned d = 0; d <= m->depth; d++) {
				json_object *c = json_object_new_object();

				json_object_object_add(c, "name", json_object_new_string(m->chain_kname[d]));
				if (m->chain_type[d][0])
					json_object_object_add(c, "dm_target", json_object_new_string(m->chain_type[d]));
				json_object_array_add(ch, c);
			}
			json_object_object_add(o, "stack", ch);
			json_object_object_add(o, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
			json_object_object_add(o, "reads_after_discard", json_object_new_string(r0_discard_reads_name(m->reads)));
			json_object_object_add(o, "reads_after_discard_source", json_object_new_string(m->reads_why));
			json_object_object_add(o, "used_sectors", json_object_new_int64((int64_t)t->geo.used_sectors[i]));
			json_object_object_add(o, "data_offset_sectors", json_object_new_int64((int64_t)t->geo.data_offset_sectors[i]));
			json_object_object_add(o, "limits", limits_json(&m->lim));
			json_object_array_add(ms, o);
		}
		json_object_object_add(r->root, "members", ms);
		ms = json_object_new_array();
		for (unsigned i = 0; i < t->stack.n_nodes; i++) {
			const struct r0_trim_node *nd = &t->stack.node[i];
			json_object *o = json_object_new_object();
			char line[512];

			if (nd->layer == R0_LAYER_DEVICE)
				continue;
			r0_trim_stack_layer_line(&t->stack, i, line, sizeof(line));
			json_object_object_add(o, "name", json_object_new_string(nd->kname));
			json_object_object_add(o, "layer", json_object_new_string(nd->label));
			json_object_object_add(o, "description", json_object_new_string(line));
			json_object_object_add(o, "drops_discards", json_object_new_boolean(nd->drops));
			json_object_array_add(ms, o);
		}
		json_object_object_add(r->root, "layers", ms);
		return;
	}
	r0_format_size_human(t->size_sectors * 512, b1, sizeof(b1));
	printf(PROG ": %s (%s): %s, %s, Linux %s\n", r->path, t->kname, t->desc, b1, release);
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		char line[512];

		if (t->stack.node[i].layer == R0_LAYER_DEVICE)
			continue;
		r0_trim_stack_layer_line(&t->stack, i, line, sizeof(line));
		printf("  layer %s: %s\n", t->stack.node[i].kname, line);
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		char ch[256];

		chain_name(m, ch, sizeof(ch));
		printf("  bottom %u: %s: discard granularity %s, max %s; after discard reads %s (%s)\n", i, ch,
		       sz(m->leaf_lim.granularity_bytes, b1, sizeof(b1)), sz(m->leaf_lim.max_bytes, b2, sizeof(b2)),
		       r0_discard_reads_name(m->reads), m->reads_why);
	}
}

/* Each bottom device's level as JSON. */
json_object *levels_json(const struct run *r)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < r->t.n_members; i++) {
		json_object *o = json_object_new_object();
		char why[256];
		enum r0_trim_level l = r0_trim_evidence_level(&r->ev, &r->t, i, why, sizeof(why));

		json_object_object_add(o, "member", json_object_new_string(r->t.members[i].kname));
		json_object_object_add(o, "level", json_object_new_string(r0_trim_level_name(l)));
		json_object_object_add(o, "detail", json_object_new_string(why));
		json_object_array_add(a, o);
	}
	return a;
}

int trim_exit_status(enum r0_check_result overall)
{
	switch (overall) {
	case R0_CHECK_PASS:
		return R0_EXIT_OK;
	case R0_CHECK_FAIL:
		return R0_EXIT_FAILURE;
	default:
		return R0_EXIT_NOT_CONCLUSIVE;
	}
}
