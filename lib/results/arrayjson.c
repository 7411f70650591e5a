// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0build-list/1 document: the arrays r0kit built (r0/arrayjson.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "r0/buildid.h"
#include "r0/arrayjson.h"
#include "r0/jsonfields.h"
#include "r0/jsontext.h"


static json_object *j_array(const struct r0_array *a)
{
	json_object *o = json_object_new_object(), *m = json_object_new_array();

	if (!o || !m) {
		json_object_put(o);
		json_object_put(m);
		return NULL;
	}
	r0_json_set(o, "name", json_object_new_string(a->name));
	r0_json_set(o, "backend", json_object_new_string(r0_array_backend_name(a->backend)));
	r0_json_set(o, "path", json_object_new_string(a->path));
	r0_json_set(o, "kernel_name", json_object_new_string(a->kname));
	r0_json_set(o, "active", json_object_new_boolean(a->active));
	r0_json_set(o, "chunk_bytes", json_object_new_int64(a->chunk_bytes));
	r0_json_set(o, "size_bytes", json_object_new_int64((int64_t)(a->size_sectors * 512)));
	if (a->backend == R0_BACKEND_MD)
		r0_json_set(o, "md_layout", json_object_new_int(a->md_layout));
	for (unsigned k = 0; k < a->n_members; k++) {
		char mm[32];

		snprintf(mm, sizeof(mm), "%u:%u", major(a->members[k]), minor(a->members[k]));
		json_object_array_add(m, json_object_new_string(mm));
	}
	r0_json_set(o, "members", m);
	return o;
}

json_object *r0_array_list_to_json(const struct r0_array *arrays, size_t n)
{
	json_object *root = r0_json_doc_new(R0_ARRAY_LIST_SCHEMA), *arr = json_object_new_array();

	if (!root || !arr) {
		json_object_put(root);
		json_object_put(arr);
		return NULL;
	}
	r0_json_set(root, "version", json_object_new_string(r0_build_id()));
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, j_array(&arrays[i]));
	r0_json_set(root, "arrays", arr);
	return root;
}

int r0_array_list_json_text(const struct r0_array *arrays, size_t n, char **out)
{
	json_object *doc = r0_array_list_to_json(arrays, n);
	int err = doc ? r0_json_text(doc, out) : -ENOMEM;

	json_object_put(doc);
	return err;
}
