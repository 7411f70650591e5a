// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0_json_add_fields writes each kind as the json-c call it replaced
 * (r0trim's limits and effect, r0bench's first bad sector, r0probe's
 * signatures, r0profile's totals): the same text, in the table's order.
 */
#include <stdbool.h>
#include <stdint.h>
#include <criterion/criterion.h>
#include <json-c/json.h>

#include "r0/jsonfields.h"

struct rec {
	uint64_t u;
	uint64_t big;
	int64_t i;
	uint32_t u32;
	bool b;
	char text[16];
	char empty[16];
};

#define F(m, name, kind) R0_JSON_FIELD(struct rec, m, name, kind)

static const char *text_of(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

Test(jsonfields, each_kind_as_the_call_it_replaced)
{
	static const struct r0_json_field fields[] = {
		F(u, "u", R0_JSON_U64), F(big, "big", R0_JSON_U64), F(big, "big_signed", R0_JSON_U64_SIGNED),
		F(i, "i", R0_JSON_I64), F(u32, "u32", R0_JSON_U32), F(b, "b", R0_JSON_BOOL),
		F(text, "text", R0_JSON_TEXT), F(empty, "empty", R0_JSON_TEXT),
		F(text, "text_or_null", R0_JSON_TEXT_OR_NULL), F(empty, "empty_or_null", R0_JSON_TEXT_OR_NULL),
	};
	struct rec r = { 4096, UINT64_MAX, -1, UINT32_MAX, true, "ext4", "" };
	json_object *got = json_object_new_object(), *want = json_object_new_object();

	r0_json_add_fields(got, &r, fields, R0_JSON_N(fields));
	json_object_object_add(want, "u", json_object_new_uint64(r.u));
	json_object_object_add(want, "big", json_object_new_uint64(r.big));
	json_object_object_add(want, "big_signed", json_object_new_int64((int64_t)r.big));
	json_object_object_add(want, "i", json_object_new_int64(r.i));
	json_object_object_add(want, "u32", json_object_new_uint64(r.u32));
	json_object_object_add(want, "b", json_object_new_boolean(r.b));
	json_object_object_add(want, "text", json_object_new_string(r.text));
	json_object_object_add(want, "empty", json_object_new_string(r.empty));
	json_object_object_add(want, "text_or_null", json_object_new_string(r.text));
	json_object_object_add(want, "empty_or_null", NULL);
	cr_assert_str_eq(text_of(got), text_of(want));
	cr_assert_str_eq(text_of(got), "{\"u\":4096,\"big\":18446744073709551615,\"big_signed\":-1,"
			 "\"i\":-1,\"u32\":4294967295,\"b\":true,\"text\":\"ext4\",\"empty\":\"\","
			 "\"text_or_null\":\"ext4\",\"empty_or_null\":null}");
	json_object_put(got);
	json_object_put(want);
}

Test(jsonfields, none_adds_nothing)
{
	struct rec r = { 0 };
	json_object *o = json_object_new_object();

	r0_json_add_fields(o, &r, NULL, 0);
	cr_assert_str_eq(text_of(o), "{}");
	json_object_put(o);
}
