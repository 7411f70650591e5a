// SPDX-License-Identifier: GPL-2.0-or-later
/* A result file's digest by what its JSON says, not by its bytes (r0/resultfiles.h r0_result_digest). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "r0/resultfiles.h"

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * FNV_PRIME;
	return h;
}

/* a final mix, so that members summed in any order still spread over the 64 bits */
static uint64_t spread(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

/*
 * O's content: a number by its value (1, 1.0 and 1e0 are one number), a
 * string by its bytes, an object's members in any order (a tool that
 * rewrites a document may sort its keys), an array in its order.
 */
static uint64_t value_digest(json_object *o)
{
	uint64_t h = FNV_OFFSET;
	unsigned char tag = o ? (unsigned char)json_object_get_type(o) : 0;
	double d;

	if (o && json_object_is_type(o, json_type_int))
		tag = json_type_double;
	h = fnv(h, &tag, 1);
	switch (o ? json_object_get_type(o) : json_type_null) {
	case json_type_boolean:
		tag = json_object_get_boolean(o) ? 1 : 0;
		h = fnv(h, &tag, 1);
		break;
	case json_type_int:
	case json_type_double:
		d = json_object_get_double(o);
		if (d == 0)
			d = 0;   /* -0 is 0 */
		h = fnv(h, &d, sizeof(d));
		break;
	case json_type_string: {
		size_t n = (size_t)json_object_get_string_len(o);

		h = fnv(h, &n, sizeof(n));
		h = fnv(h, json_object_get_string(o), n);
		break;
	}
	case json_type_array: {
		size_t n = json_object_array_length(o);

		h = fnv(h, &n, sizeof(n));
		for (size_t i = 0; i < n; i++) {
			uint64_t v = value_digest(json_object_array_get_idx(o, i));

			h = fnv(h, &v, sizeof(v));
		}
		break;
	}
	case json_type_object: {
		uint64_t sum = 0, n = 0;

		json_object_object_foreach(o, k, v) {
			uint64_t m = fnv(FNV_OFFSET, k, strlen(k) + 1), vd = value_digest(v);

			sum += spread(fnv(m, &vd, sizeof(vd)));
			n++;
		}
		h = fnv(h, &n, sizeof(n));
		h = fnv(h, &sum, sizeof(sum));
		break;
	}
	case json_type_null:
		break;
	}
	return spread(h);
}

/* PATH's bytes into *BUF (malloc'd, NUL-terminated), *LEN of them. 0 or -errno. */
static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n = 0, got;
	char *b = malloc(cap + 1), *nb;
	int err = 0;

	if (!f || !b) {
		err = f ? -ENOMEM : -errno;
		goto out;
	}
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (ferror(f))
		err = -EIO;
out:
	if (f)
		fclose(f);
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int r0_result_digest(const char *path, uint64_t *digest)
{
	static const char bom[] = "\xef\xbb\xbf";
	json_tokener *tok = json_tokener_new();
	uint64_t h = FNV_OFFSET;
	size_t len = 0, at = 0;
	char *buf = NULL;
	int err = tok ? slurp(path, &buf, &len) : -ENOMEM;

	if (!err && len >= 3 && !memcmp(buf, bom, 3))
		at = 3;
	/* each JSON value in turn (a document, or JSON lines); what does not parse, by its bytes */
	while (!err && at < len) {
		json_object *o;
		uint64_t v;

		at += strspn(buf + at, " \t\r\n");
		if (at >= len)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, buf + at, (int)(len - at < INT32_MAX ? len - at : INT32_MAX));
		if (!o || !json_tokener_get_parse_end(tok)) {
			json_object_put(o);
			h = fnv(h, buf + at, len - at);
			break;
		}
		v = value_digest(o);
		h = fnv(h, &v, sizeof(v));
		at += json_tokener_get_parse_end(tok);
		json_object_put(o);
	}
	free(buf);
	if (tok)
		json_tokener_free(tok);
	if (!err)
		*digest = h;
	return err;
}
