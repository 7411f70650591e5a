// SPDX-License-Identifier: GPL-2.0-or-later
/* A bank of real noise by visit, read from tests/data/noise/ (noisebank.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "noisebank.h"

long r0_bank_wl(const struct r0_bank *b, const char *name)
{
	for (size_t i = 0; i < b->n_wl; i++)
		if (!strcmp(b->wl_name[i], name))
			return (long)i;
	return -1;
}

void r0_bank_free(struct r0_bank *b)
{
	for (size_t t = 0; b->target && t < b->n_target; t++) {
		for (size_t v = 0; b->target[t].visit && v < b->target[t].n_visit; v++)
			free(b->target[t].visit[v].run);
		free(b->target[t].visit);
	}
	free(b->target);
	free(b->wl_name);
	free(b->wl_cls);
	memset(b, 0, sizeof(*b));
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
		       json_object_get_string(v) : NULL;
}

static int load_visit(struct r0_bank *b, json_object *jv, struct r0_bank_visit *v)
{
	size_t n = json_object_is_type(jv, json_type_array) ? json_object_array_length(jv) : 0;

	if (!n)
		return -EINVAL;
	v->run = calloc(n, sizeof(*v->run));
	if (!v->run)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(jv, i), *jn, *jz;
		long w;

		if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2)
			return -EINVAL;
		jn = json_object_array_get_idx(p, 0);
		jz = json_object_array_get_idx(p, 1);
		if (!json_object_is_type(jn, json_type_string) ||
		    !(json_object_is_type(jz, json_type_double) || json_object_is_type(jz, json_type_int)))
			return -EINVAL;
		w = r0_bank_wl(b, json_object_get_string(jn));
		if (w < 0)
			return -EINVAL;
		v->run[v->n++] = (struct r0_bank_run){ .wl = (size_t)w, .z = json_object_get_double(jz) };
	}
	return 0;
}

/* Target X's sd and rms of its runs' residuals. 0 or -ENOMEM (a target left without them would draw no noise). */
static int target_spread(const struct r0_bank *b, struct r0_bank_target *x)
{
	bool *seen = calloc(b->n_wl ? b->n_wl : 1, sizeof(*seen));
	double ss = 0;
	size_t runs = 0, cells = 0;

	if (!seen)
		return -ENOMEM;
	for (size_t v = 0; v < x->n_visit; v++)
		for (size_t i = 0; i < x->visit[v].n; i++) {
			const struct r0_bank_run *r = &x->visit[v].run[i];

			ss += r->z * r->z;
			runs++;
			cells += !seen[r->wl];
			seen[r->wl] = true;
		}
	free(seen);
	x->rms = runs ? sqrt(ss / runs) : 0;
	x->sd = runs > cells ? sqrt(ss / (runs - cells)) : 0;
	return 0;
}

static int load(struct r0_bank *b, json_object *root)
{
	json_object *wls, *tgs, *st, *sd;
	const char *schema = str_of(root, "schema");

	if (!schema || strcmp(schema, "r0noise-bank/1") || !json_object_object_get_ex(root, "workloads", &wls) ||
	    !json_object_object_get_ex(root, "targets", &tgs) || !json_object_is_type(wls, json_type_array) ||
	    !json_object_is_type(tgs, json_type_array))
		return -EINVAL;
	if (json_object_object_get_ex(root, "stats", &st) && json_object_object_get_ex(st, "run_sd", &sd))
		b->run_sd = json_object_get_double(sd);
	b->n_wl = json_object_array_length(wls);
	b->wl_name = calloc(b->n_wl ? b->n_wl : 1, sizeof(*b->wl_name));
	b->wl_cls = calloc(b->n_wl ? b->n_wl : 1, sizeof(*b->wl_cls));
	if (!b->wl_name || !b->wl_cls)
		return -ENOMEM;
	for (size_t i = 0; i < b->n_wl; i++) {
		json_object *w = json_object_array_get_idx(wls, i);
		const char *name = str_of(w, "name"), *cls = str_of(w, "class");

		if (!name || !cls)
			return -EINVAL;
		snprintf(b->wl_name[i], sizeof(b->wl_name[i]), "%s", name);
		snprintf(b->wl_cls[i], sizeof(b->wl_cls[i]), "%s", cls);
	}
	b->n_target = json_object_array_length(tgs);
	b->target = calloc(b->n_target ? b->n_target : 1, sizeof(*b->target));
	if (!b->target)
		return -ENOMEM;
	for (size_t t = 0; t < b->n_target; t++) {
		json_object *jt = json_object_array_get_idx(tgs, t), *jc, *jm, *jvs;
		struct r0_bank_target *x = &b->target[t];
		const char *layer = str_of(jt, "layer");
		int err;

		if (!layer || r0_layer_parse(layer, &x->layer) || !json_object_object_get_ex(jt, "chunk_bytes", &jc) ||
		    !json_object_object_get_ex(jt, "members", &jm) || !json_object_object_get_ex(jt, "visits", &jvs) ||
		    !json_object_is_type(jvs, json_type_array) || !json_object_array_length(jvs))
			return -EINVAL;
		x->chunk_bytes = (uint32_t)json_object_get_int64(jc);
		x->n_members = (unsigned)json_object_get_int(jm);
		x->visit = calloc(json_object_array_length(jvs), sizeof(*x->visit));
		if (!x->visit)
			return -ENOMEM;
		for (size_t v = 0; v < json_object_array_length(jvs); v++) {
			err = load_visit(b, json_object_array_get_idx(jvs, v), &x->visit[v]);
			x->n_visit++;
			if (err)
				return err;
		}
		b->n_visits += x->n_visit;
		if ((err = target_spread(b, x)))
			return err;
	}
	return b->n_target ? 0 : -EINVAL;
}

int r0_bank_load(const char *path, struct r0_bank *b)
{
	json_object *root;
	int err;

	memset(b, 0, sizeof(*b));
	root = json_object_from_file(path);
	if (!root)
		return errno == ENOENT ? -ENOENT : -EINVAL;
	err = load(b, root);
	json_object_put(root);
	if (err)
		r0_bank_free(b);
	return err;
}

#define BANK_CACHE 16

const struct r0_bank *r0_bank_get(const char *name)
{
	static struct {
		char name[32];
		struct r0_bank b;
	} cache[BANK_CACHE];
	static size_t n;
	const char *dir = getenv("R0_SIM_BANK_DIR");
	char path[4096];
	int err;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(cache[i].name, name))
			return &cache[i].b;
	if (n == BANK_CACHE) {
		errno = ENOSPC;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s.json", dir && *dir ? dir : "tests/data/noise", name);
	err = r0_bank_load(path, &cache[n].b);
	if (err) {
		errno = -err;
		return NULL;
	}
	snprintf(cache[n].name, sizeof(cache[n].name), "%s", name);
	return &cache[n++].b;
}
