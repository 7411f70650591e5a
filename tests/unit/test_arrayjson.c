// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/arrayjson.h: the r0build-list/1 document of a list of arrays, key for key. */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <criterion/criterion.h>

#include "r0/buildid.h"
#include "r0/arrayjson.h"

static const char *plain(json_object *o)
{
	json_object *v;

	/* the build's commit varies (r0_build_id, checked apart): the version it starts with is compared */
	if (json_object_object_get_ex(o, "version", &v))
		json_object_object_add(o, "version", json_object_new_string(R0_VERSION));
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

Test(arrayjson, an_md_and_a_half_built_dm_array_key_for_key)
{
	struct r0_array l[2];
	json_object *o;

	memset(l, 0, sizeof(l));
	l[0].backend = R0_BACKEND_MD;
	snprintf(l[0].name, sizeof(l[0].name), "sweep.1234");
	snprintf(l[0].kname, sizeof(l[0].kname), "md_r0-sweep.1234");
	snprintf(l[0].path, sizeof(l[0].path), "/dev/md_r0-sweep.1234");
	l[0].chunk_bytes = 65536;
	l[0].n_members = 2;
	l[0].members[0] = makedev(8, 16);
	l[0].members[1] = makedev(259, 1);
	l[0].size_sectors = 8ULL << 30;   /* 4 TiB: past 32 bits */
	l[0].md_layout = 2;
	l[0].open_count = -1;
	l[0].active = true;
	/* a dm array left half-built: no members, no layout key */
	l[1].backend = R0_BACKEND_DM;
	snprintf(l[1].name, sizeof(l[1].name), "x");
	snprintf(l[1].kname, sizeof(l[1].kname), "dm-3");
	snprintf(l[1].path, sizeof(l[1].path), "/dev/mapper/r0-x");
	l[1].md_layout = 7;

	o = r0_array_list_to_json(l, 2);
	cr_assert_not_null(o);
	cr_expect_str_eq(plain(o),
		"{\"r0kit_schema\":\"r0build-list/1\",\"version\":\"" R0_VERSION "\",\"arrays\":["
		"{\"name\":\"sweep.1234\",\"backend\":\"md\",\"path\":\"/dev/md_r0-sweep.1234\","
		"\"kernel_name\":\"md_r0-sweep.1234\",\"active\":true,\"chunk_bytes\":65536,"
		"\"size_bytes\":4398046511104,\"md_layout\":2,\"members\":[\"8:16\",\"259:1\"]},"
		"{\"name\":\"x\",\"backend\":\"dm\",\"path\":\"/dev/mapper/r0-x\",\"kernel_name\":\"dm-3\","
		"\"active\":false,\"chunk_bytes\":0,\"size_bytes\":0,\"members\":[]}]}");
	json_object_put(o);
}

Test(arrayjson, no_array_is_an_empty_list_under_the_schema)
{
	json_object *o = r0_array_list_to_json(NULL, 0), *a;

	cr_expect_str_eq(R0_ARRAY_LIST_SCHEMA, "r0build-list/1");
	cr_assert_not_null(o);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "r0kit_schema")), R0_ARRAY_LIST_SCHEMA);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "version")), r0_build_id());
	cr_expect(json_object_object_get_ex(o, "arrays", &a) && json_object_is_type(a, json_type_array));
	cr_expect_eq(json_object_array_length(a), 0);
	json_object_put(o);
}

Test(arrayjson, the_back_ends_words)
{
	cr_expect_str_eq(r0_array_backend_name(R0_BACKEND_MD), "md");
	cr_expect_str_eq(r0_array_backend_name(R0_BACKEND_DM), "dm");
}
