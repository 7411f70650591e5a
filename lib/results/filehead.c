// SPDX-License-Identifier: GPL-2.0-or-later
/* What a file looks like from its type and first bytes (r0/filehead.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "r0/age.h"
#include "r0/benchjson.h"
#include "r0/filehead.h"
#include "r0/profile.h"
#include "r0/scenariojson.h"
#include "r0/sweep.h"
#include "r0/trace.h"
#include "r0/trimjson.h"
#include "r0/watchfile.h"

/* The JSON string at *P (no escapes: r0kit's schema names have none) into BUF; P moves past it. */
static bool plain_string(const char **p, const char *end, char *buf, size_t len)
{
	const char *s = *p, *q;

	if (s >= end || *s != '"')
		return false;
	for (q = s + 1; q < end && *q != '"' && *q != '\\'; q++)
		;
	if (q >= end || *q != '"' || (size_t)(q - s - 1) >= len)
		return false;
	memcpy(buf, s + 1, (size_t)(q - s - 1));
	buf[q - s - 1] = '\0';
	*p = q + 1;
	return true;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* HEAD's first key, if "schema" or "r0kit_schema", and its string value: a pretty document too */
static void first_key_schema(const char *head, size_t n, char *schema, size_t len)
{
	const char *p = skip_space(head, head + n), *end = head + n;
	char key[32];

	schema[0] = '\0';
	if (p >= end || *p != '{')
		return;
	p = skip_space(p + 1, end);
	if (!plain_string(&p, end, key, sizeof(key)) || (strcmp(key, "schema") && strcmp(key, "r0kit_schema")))
		return;
	p = skip_space(p, end);
	if (p >= end || *p != ':')
		return;
	p = skip_space(p + 1, end);
	if (!plain_string(&p, end, schema, len))
		schema[0] = '\0';
}

/* Whether the first line of HEAD is a whole JSON object. */
static bool first_line_object(const char *head, size_t n)
{
	const char *nl = memchr(head, '\n', n);
	json_tokener *tok;
	json_object *o;
	bool whole;

	if (!nl)
		return false;
	if (!(tok = json_tokener_new()))
		return false;
	o = json_tokener_parse_ex(tok, head, (int)(nl - head));
	whole = o && json_object_is_type(o, json_type_object) && tok->char_offset == (int)(nl - head);
	json_object_put(o);
	json_tokener_free(tok);
	return whole;
}

int r0_file_head(const char *path, struct r0_file_head *out)
{
	char *head = NULL;
	struct stat st;
	ssize_t n = 0;
	int fd = -1, err = 0;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st))
		return errno == ENOENT ? (out->kind = R0_HEAD_MISSING, 0) : -errno;
	if (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode) || !S_ISREG(st.st_mode)) {
		out->kind = S_ISDIR(st.st_mode) ? R0_HEAD_DIR :
			    S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode) ? R0_HEAD_DEVICE : R0_HEAD_SPECIAL;
		out->block_device = S_ISBLK(st.st_mode);
		return 0;
	}
	out->size_bytes = (uint64_t)st.st_size;
	if (!(head = malloc(R0_FILE_HEAD_BYTES)))
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	for (ssize_t got; n < R0_FILE_HEAD_BYTES; n += got) {
		got = read(fd, head + n, R0_FILE_HEAD_BYTES - (size_t)n);
		if (got < 0 && errno == EINTR) {
			got = 0;
			continue;
		}
		if (got < 0) {
			err = -errno;
			goto out;
		}
		if (!got)
			break;
	}
	if (!n) {
		out->kind = R0_HEAD_EMPTY;
	} else if ((size_t)n >= strlen(R0_TRACE_MAGIC) && !memcmp(head, R0_TRACE_MAGIC, strlen(R0_TRACE_MAGIC))) {
		out->kind = R0_HEAD_BINARY;
		snprintf(out->schema, sizeof(out->schema), "%.*s", (int)strlen(R0_TRACE_MAGIC) - 1, R0_TRACE_MAGIC);
	} else if (memchr(head, '\0', (size_t)n)) {
		out->kind = R0_HEAD_BINARY;
	} else {
		const char *p = skip_space(head, head + n);

		out->kind = p < head + n && (*p == '{' || *p == '[') ? R0_HEAD_JSON : R0_HEAD_TEXT;
		if (out->kind == R0_HEAD_JSON) {
			first_key_schema(head, (size_t)n, out->schema, sizeof(out->schema));
			out->line_object = first_line_object(head, (size_t)n);
		}
	}
out:
	if (fd >= 0)
		close(fd);
	free(head);
	return err;
}

/* r0kit's schemas, by what wrote them */
static const struct {
	const char *schema, *words;
} schemas[] = {
	{ R0_SWEEP_SCHEMA, "r0sweep results" },
	{ R0_BENCH_SCHEMA, "r0bench --json output" },
	{ R0_TRIM_SCHEMA, "an r0trim -J document" },
	{ R0_TRIM_WATCH_SCHEMA, "an r0trim --watch record file" },
	{ R0_SCENARIO_SCHEMA, "scenario results" },
	{ R0_STATE_SCHEMA, "an r0age state record" },
	{ R0_MIX_SCHEMA, "an r0profile mix file" },
	{ "r0probe/1", "r0probe -J output" },
	{ "r0build-list/1", "r0build list -J output" },
};

void r0_file_head_describe(const struct r0_file_head *h, char *buf, size_t len)
{
	switch (h->kind) {
	case R0_HEAD_MISSING:
		snprintf(buf, len, "no such file");
		return;
	case R0_HEAD_EMPTY:
		snprintf(buf, len, "empty");
		return;
	case R0_HEAD_DIR:
		snprintf(buf, len, "a directory");
		return;
	case R0_HEAD_DEVICE:
		snprintf(buf, len, "%s", h->block_device ? "a block device" : "a character device");
		return;
	case R0_HEAD_SPECIAL:
		snprintf(buf, len, "a FIFO or socket, not a regular file");
		return;
	case R0_HEAD_BINARY:
		if (h->schema[0])
			snprintf(buf, len, "an r0profile --trace recording (%s)", h->schema);
		else
			snprintf(buf, len, "binary data (a disk image?)");
		return;
	case R0_HEAD_TEXT:
		snprintf(buf, len, "text, not JSON");
		return;
	case R0_HEAD_JSON:
		break;
	}
	for (size_t i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++)
		if (!strcmp(h->schema, schemas[i].schema)) {
			snprintf(buf, len, "%s (%s)", schemas[i].words, h->schema);
			return;
		}
	if (h->schema[0])
		snprintf(buf, len, "JSON of schema %s", h->schema);
	else
		snprintf(buf, len, "JSON without an r0kit schema");
}
