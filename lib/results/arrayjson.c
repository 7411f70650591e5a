// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0build-list/1 document: the arrays r0kit built (r0/arrayjson.h). */
#include <stdio.h>
#include <sys/sysmacros.h>

#include "r0/buildid.h"
#include "r0/arrayjson.h"

#define ADD(o, k, v) json_object_object_add((o), (k), (v))

static json_object *j_array(const struct r0_array *a)
{
	json_object *o = json_object_new_object(), *m = json_object_new_array();

	if (!o || !m) {
		json_object_put(o);
		json_object_put(m);
		return NULL;
	}
	ADD(o, "name", json_object_new_string(a->name));
	ADD(o, "backend", json_object_new_string(r0_array_backend_name(a->backend)));
	ADD(o, "path", json_object_new_string(a->path));
	ADD(o, "kernel_name", json_object_new_string(a->kname));
	ADD(o, "active", json_object_new_boolean(a->active));
	ADD(o, "chunk_bytes", json_object_new_int64(a->chunk_bytes));
	ADD(o, "size_bytes", json_object_new_int64((int64_t)(a->size_sectors * 512)));
	if (a->backend == R0_BACKEND_MD)
		ADD(o, "md_layout", json_object_new_int(a->md_layout));
	for (unsigned k = 0; k < a->n_members; k++) {
		char mm[32];

		snprintf(mm, sizeof(mm), "%u:%u", major(a->members[k]), minor(a->members[k]));
		json_object_array_add(m, json_object_new_string(mm));
	}
	ADD(o, "members", m);
	return o;
}

json_object *r0_array_list_to_json(const struct r0_array *arrays, size_t n)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();

	if (!root || !arr) {
		json_object_put(root);
		json_object_put(arr);
		return NULL;
	}
	ADD(root, "r0kit_schema", json_object_new_string(R0_ARRAY_LIST_SCHEMA));
	ADD(root, "version", json_object_new_string(r0_build_id()));
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, j_array(&arrays[i]));
	ADD(root, "arrays", arr);
	return root;
}
