// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/jsonfields.h: the one writer of records described by field tables. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "r0/jsonfields.h"

static json_object *field_value(const char *p, enum r0_json_kind kind)
{
	uint64_t u;
	int64_t i;
	uint32_t u32;
	bool b;

	switch (kind) {
	case R0_JSON_U64:
		memcpy(&u, p, sizeof(u));
		return json_object_new_uint64(u);
	case R0_JSON_U64_SIGNED:
		memcpy(&u, p, sizeof(u));
		return json_object_new_int64((int64_t)u);
	case R0_JSON_I64:
		memcpy(&i, p, sizeof(i));
		return json_object_new_int64(i);
	case R0_JSON_U32:
		memcpy(&u32, p, sizeof(u32));
		return json_object_new_int64(u32);
	case R0_JSON_BOOL:
		memcpy(&b, p, sizeof(b));
		return json_object_new_boolean(b);
	case R0_JSON_TEXT:
		return json_object_new_string(p);
	case R0_JSON_TEXT_OR_NULL:
		return *p ? json_object_new_string(p) : NULL;
	}
	return NULL;
}

void r0_json_add_fields(json_object *o, const void *rec, const struct r0_json_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_object_add(o, fields[i].name,
				       field_value((const char *)rec + fields[i].offset, fields[i].kind));
}

void r0_json_set(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

void r0_json_set_str(json_object *o, const char *key, const char *v)
{
	r0_json_set(o, key, v ? json_object_new_string(v) : NULL);
}

void r0_json_set_int(json_object *o, const char *key, int64_t v)
{
	r0_json_set(o, key, json_object_new_int64(v));
}

void r0_json_set_dbl(json_object *o, const char *key, double v)
{
	r0_json_set(o, key, json_object_new_double(v));
}

void r0_json_set_bool(json_object *o, const char *key, bool v)
{
	r0_json_set(o, key, json_object_new_boolean(v));
}

void r0_json_schema(json_object *o, const char *schema)
{
	r0_json_set(o, "r0kit_schema", json_object_new_string(schema));
}

json_object *r0_json_doc_new(const char *schema)
{
	json_object *o = json_object_new_object();

	if (!o) {
		errno = ENOMEM;
		return NULL;
	}
	r0_json_schema(o, schema);
	return o;
}
