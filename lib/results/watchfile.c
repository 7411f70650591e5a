// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0trim-watch/1 record file written and read (r0/watchfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "r0/filehead.h"
#include "r0/jsonlappend.h"
#include "r0/watchfile.h"
#include "r0/jsonfields.h"

int r0_watch_file_check(const char *path, char *words, size_t len)
{
	struct r0_file_head h;
	int err = r0_file_head(path, &h);

	if (len)
		words[0] = '\0';
	if (err)
		return err;
	/* new, empty, or a record file r0trim --watch wrote: its first line one record */
	if (h.kind == R0_HEAD_MISSING || h.kind == R0_HEAD_EMPTY ||
	    (h.kind == R0_HEAD_JSON && h.line_object && !strcmp(h.schema, R0_TRIM_WATCH_SCHEMA)))
		return 0;
	/* its schema, but the first line no whole reading: damaged, not another kind */
	if (h.kind == R0_HEAD_JSON && !strcmp(h.schema, R0_TRIM_WATCH_SCHEMA))
		return -EBADMSG;
	r0_file_head_describe(&h, words, len);
	return -EINVAL;
}

/* One reading as its line's object: the keys in this order. */
static json_object *rec_json(const struct r0_watch_rec *r, const char *top)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array();

	if (!o || !devs) {
		json_object_put(o);
		json_object_put(devs);
		return NULL;
	}
	r0_json_schema(o, R0_TRIM_WATCH_SCHEMA);
	json_object_object_add(o, "time", json_object_new_int64(r->time));
	json_object_object_add(o, "boot_id", json_object_new_string(r->boot_id));
	json_object_object_add(o, "top", json_object_new_string(top));
	for (unsigned i = 0; i < r->n; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "name", json_object_new_string(r->name[i]));
		json_object_object_add(d, "serial", json_object_new_string(r->serial[i]));
		json_object_object_add(d, "discard_sectors", json_object_new_int64((int64_t)r->sectors[i]));
		json_object_array_add(devs, d);
	}
	json_object_object_add(o, "devices", devs);
	return o;
}

/* LINE as a reading into *R: 0, or -EINVAL (no JSON, another schema, no time, no devices). */
static int rec_parse(const char *line, struct r0_watch_rec *r)
{
	json_object *o = json_tokener_parse(line), *v, *devs;
	int err = -EINVAL;

	memset(r, 0, sizeof(*r));
	if (!o)
		return -EINVAL;
	/* records before r0kit_schema name it "schema" */
	if ((!json_object_object_get_ex(o, "r0kit_schema", &v) && !json_object_object_get_ex(o, "schema", &v)) ||
	    !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), R0_TRIM_WATCH_SCHEMA) ||
	    !json_object_object_get_ex(o, "time", &v))
		goto out;
	r->time = json_object_get_int64(v);
	if (json_object_object_get_ex(o, "boot_id", &v))
		snprintf(r->boot_id, sizeof(r->boot_id), "%s", json_object_get_string(v));
	if (!json_object_object_get_ex(o, "devices", &devs) || !json_object_is_type(devs, json_type_array) ||
	    !json_object_array_length(devs) || json_object_array_length(devs) > R0_MAX_MEMBERS)
		goto out;
	r->n = (unsigned)json_object_array_length(devs);
	for (unsigned i = 0; i < r->n; i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		if (!json_object_object_get_ex(d, "discard_sectors", &v))
			goto out;
		r->sectors[i] = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(d, "name", &v))
			snprintf(r->name[i], sizeof(r->name[i]), "%s", json_object_get_string(v));
		if (json_object_object_get_ex(d, "serial", &v))
			snprintf(r->serial[i], sizeof(r->serial[i]), "%s", json_object_get_string(v));
	}
	err = 0;
out:
	json_object_put(o);
	return err;
}

int r0_watch_file_load(const char *path, struct r0_watch_rec **recs, size_t *n, unsigned *skipped)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, lcap = 0;

	*recs = NULL;
	*n = 0;
	*skipped = 0;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &lcap, f) > 0 && *n < R0_WATCH_MAX_RECORDS) {
		if (*n == cap) {
			struct r0_watch_rec *p = realloc(*recs, (cap = cap ? 2 * cap : 16) * sizeof(*p));

			if (!p) {
				free(line);
				fclose(f);
				free(*recs);
				*recs = NULL;
				*n = 0;
				return -ENOMEM;
			}
			*recs = p;
		}
		if (rec_parse(line, &(*recs)[*n]))
			(*skipped)++;
		else
			(*n)++;
	}
	free(line);
	fclose(f);
	return 0;
}

int r0_watch_file_append(const char *path, const struct r0_watch_rec *r, const char *top)
{
	json_object *o = rec_json(r, top);
	const char *line;
	FILE *f;
	int err = 0;

	if (!o)
		return -ENOMEM;
	line = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!line) {
		json_object_put(o);
		return -ENOMEM;
	}
	/* a record cut by a crash is dropped, not glued to this one */
	if (!(err = r0_jsonl_open_append(path, &f, NULL))) {
		if (fprintf(f, "%s\n", line) < 0 || fflush(f) || fsync(fileno(f)))
			err = -errno;
		if (fclose(f) && !err)
			err = -errno;
	}
	json_object_put(o);
	return err;
}
