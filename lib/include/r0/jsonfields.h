// SPDX-License-Identifier: GPL-2.0-or-later
/* A record's members written as JSON by a table of fields: one writer in place of runs of json_object_object_add. */
#ifndef R0_JSONFIELDS_H
#define R0_JSONFIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* What a member is, and how it is written. */
enum r0_json_kind {
	R0_JSON_U64,          /* uint64_t, an unsigned number (json_object_new_uint64) */
	R0_JSON_U64_SIGNED,   /* uint64_t written as a signed number, as schemas that predate uint64 */
	R0_JSON_I64,          /* int64_t */
	R0_JSON_U32,          /* uint32_t */
	R0_JSON_BOOL,         /* bool */
	R0_JSON_TEXT,         /* a char array: a string, "" included */
	R0_JSON_TEXT_OR_NULL, /* a char array: a string, null when empty */
};

/* One member of a record: its JSON name, kind and offsetof(). */
struct r0_json_field {
	const char *name;
	enum r0_json_kind kind;
	size_t offset;
};

/* A field of member M of struct type T, named NAME in the JSON. */
#define R0_JSON_FIELD(T, M, NAME, KIND) { (NAME), (KIND), offsetof(T, M) }

#define R0_JSON_N(fields) (sizeof(fields) / sizeof((fields)[0]))

/* Adds to O the N FIELDS of the record at REC, in their order. */
void r0_json_add_fields(json_object *o, const void *rec, const struct r0_json_field *fields, size_t n);

/* Sets O's member KEY to V, which O then owns (NULL: JSON null); the one way lib writes a member. */
void r0_json_set(json_object *o, const char *key, json_object *v);

/* r0_json_set of a string (NULL: JSON null), an integer, a double, a boolean. */
void r0_json_set_str(json_object *o, const char *key, const char *v);
void r0_json_set_int(json_object *o, const char *key, int64_t v);
void r0_json_set_dbl(json_object *o, const char *key, double v);
void r0_json_set_bool(json_object *o, const char *key, bool v);

/* Starts document or record O with its schema key, "r0kit_schema": SCHEMA ("r0bench/1"), the
 * key every r0kit file is told apart by (r0/filehead.h). */
void r0_json_schema(json_object *o, const char *schema);

/* A new document or record started with its schema key (r0_json_schema); NULL with errno ENOMEM. */
json_object *r0_json_doc_new(const char *schema);

#endif
