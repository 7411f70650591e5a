/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The r0build-list/1 document (r0build list --json): the arrays r0kit built, as r0/array.h lists them. */
#ifndef R0_ARRAYJSON_H
#define R0_ARRAYJSON_H

#include <stddef.h>

#include <json-c/json.h>

#include "r0/array.h"

#define R0_ARRAY_LIST_SCHEMA "r0build-list/1"

/*
 * The document of the N ARRAYS, in their order: each its name, back end,
 * path, kernel name, whether it is whole (active), chunk, size, md's
 * layout (md only) and members as "major:minor". NULL on a json-c
 * allocation failure.
 */
json_object *r0_array_list_to_json(const struct r0_array *arrays, size_t n);

/* That document as r0build list --json prints it, into *OUT (free()): 0 or -ENOMEM. */
int r0_array_list_json_text(const struct r0_array *arrays, size_t n, char **out);

#endif
