// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0json FILE PATH...: prints the JSON value at each dotted PATH of FILE
 * (object keys and array indices: tests.0.summary.iops.median), one a
 * line; strings bare, numbers as json-c prints them, null as "null".
 * Exit 1 if a path is missing. The guest has no jq: sandbox tests use this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* 1 and the value (NULL for a JSON null) in *OUT, or 0 if PATH is not there. */
static int walk(json_object *o, const char *path, json_object **out)
{
	char *copy = strdup(path), *save = NULL, *key;
	int found = 1;

	for (key = strtok_r(copy, ".", &save); key; key = strtok_r(NULL, ".", &save)) {
		if (!o) {
			found = 0;
		} else if (json_object_is_type(o, json_type_array)) {
			char *end;
			long i = strtol(key, &end, 10);

			if (*end || i < 0 || (size_t)i >= json_object_array_length(o))
				found = 0;
			else
				o = json_object_array_get_idx(o, (size_t)i);
		} else if (!json_object_is_type(o, json_type_object) ||
			   !json_object_object_get_ex(o, key, &o)) {
			found = 0;
		}
		if (!found)
			break;
	}
	free(copy);
	*out = o;
	return found;
}

int main(int argc, char **argv)
{
	json_object *root, *v;
	int status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: r0json FILE PATH...\n");
		return 2;
	}
	root = json_object_from_file(argv[1]);
	if (!root) {
		fprintf(stderr, "r0json: %s: not JSON\n", argv[1]);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (!walk(root, argv[i], &v)) {
			fprintf(stderr, "r0json: %s: no %s\n", argv[1], argv[i]);
			status = 1;
		} else if (!v) {
			puts("null");
		} else {
			puts(json_object_is_type(v, json_type_string) ? json_object_get_string(v)
								       : json_object_to_json_string(v));
		}
	}
	json_object_put(root);
	return status;
}
