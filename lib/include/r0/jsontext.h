/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON document as text: the one form every r0kit tool prints (pretty,
 * slashes unescaped), so a tool prints the string a writer hands it and
 * never formats JSON itself.
 */
#ifndef R0_JSONTEXT_H
#define R0_JSONTEXT_H

#include <json-c/json.h>

/* O as printed, ending in a newline, into *OUT (free()): 0, or -ENOMEM (*OUT NULL). */
int r0_json_text(json_object *o, char **out);

/*
 * O written to PATH whole or not at all (a temporary file beside it,
 * renamed over it), in the printed form without the final newline:
 * 0 or a negative errno; -EISDIR or -EINVAL when PATH is there and is a
 * directory or not a regular file (a device, a pipe: never replaced).
 */
int r0_json_file_replace(const char *path, json_object *o);

#endif
