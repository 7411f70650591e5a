// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/array.h: names, lookup and dispatch to the md and dm back ends. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_backend.h"

/* indexed by enum r0_backend */
static const struct r0_array_ops backends[] = {
	[R0_BACKEND_MD] = { r0_md_create, r0_md_remove, r0_md_names, r0_md_describe, R0_MD_PREFIX },
	[R0_BACKEND_DM] = { r0_dm_create, r0_dm_remove, r0_dm_names, r0_dm_describe, R0_DM_PREFIX },
};

int r0_array_check_name(const char *name)
{
	size_t i, len = name ? strlen(name) : 0;

	if (len == 0 || len > R0_ARRAY_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '+'))
			return -EINVAL;
	}
	return 0;
}

const char *r0_array_backend_name(enum r0_backend b)
{
	return b == R0_BACKEND_MD ? "md" : "dm";
}

struct create_call {
	const struct r0_array_spec *spec;
	struct r0_array *out;
};

static int create_once(void *arg)
{
	struct create_call *c = arg;

	return backends[c->spec->backend].create(c->spec, c->out);
}

int r0_array_spec_members(struct r0_array_spec *spec, const struct r0_member_check *chk, unsigned n,
			  struct r0_geometry *geo)
{
	uint64_t sizes[R0_MAX_MEMBERS];
	int err;

	if (!n || n > R0_MAX_MEMBERS)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		spec->members[i] = chk[i].devt;
		sizes[i] = chk[i].size_sectors;
	}
	spec->n_members = n;
	err = r0_geometry_init(geo, spec->backend, spec->chunk_bytes, n, sizes, NULL, spec->md_layout);
	if (err)
		return err;
	spec->dm_length_sectors = geo->array_sectors;
	return 0;
}

int r0_array_create(const struct r0_array_spec *spec, struct r0_array *out)
{
	struct create_call call = { spec, out };
	struct r0_array existing;

	r0_set_last_error("%s", "");
	if (r0_array_check_name(spec->name) || spec->n_members == 0 ||
	    spec->n_members > R0_MAX_MEMBERS || spec->chunk_bytes == 0 ||
	    (unsigned)spec->backend >= sizeof(backends) / sizeof(backends[0]) ||
	    (spec->backend == R0_BACKEND_DM && spec->dm_length_sectors == 0))
		return -EINVAL;
	if (r0_array_find(spec->name, &existing) == 0) {
		r0_set_last_error("an array named %s exists (%s)", spec->name, existing.path);
		return -EEXIST;
	}
	/* a member still held for a moment by what used it last: a failed create unwinds fully */
	return r0_array_retry_busy(create_once, &call);
}

static int remove_once(void *arg)
{
	const struct r0_array *a = arg;

	return backends[a->backend].remove(a);
}

int r0_array_remove(const struct r0_array *a)
{
	r0_set_last_error("%s", "");
	if ((unsigned)a->backend >= sizeof(backends) / sizeof(backends[0]))
		return -EINVAL;
	return r0_array_retry_busy(remove_once, (void *)a);
}

struct list_call {
	const struct r0_array_ops *ops;
	struct r0_array **list;
	size_t *count;
};

/* A device that is r0kit's (its name has the back end's prefix) and still there joins the list. */
static int list_one(const char *name, void *arg)
{
	struct list_call *l = arg;
	struct r0_array a;

	if (strncmp(name, l->ops->prefix, strlen(l->ops->prefix)) != 0 ||
	    l->ops->describe(name, &a) != 0)
		return 0;
	return r0_array_list_add(l->list, l->count, &a);
}

int r0_array_list(struct r0_array **out, size_t *count)
{
	int err = 0;

	*out = NULL;
	*count = 0;
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]) && !err; b++) {
		struct list_call l = { &backends[b], out, count };

		err = backends[b].names(list_one, &l);
	}
	if (err) {
		free(*out);
		*out = NULL;
		*count = 0;
	}
	return err;
}

int r0_array_find(const char *what, struct r0_array *out)
{
	struct r0_array *list;
	struct stat st;
	size_t i, n;
	bool by_dev = false;
	int err;

	/* a path (or a symlink to one) is matched by device number */
	if (strchr(what, '/')) {
		if (stat(what, &st))
			return -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		by_dev = true;
	}
	err = r0_array_list(&list, &n);
	if (err)
		return err;
	err = -ENOENT;
	for (i = 0; i < n; i++) {
		const struct r0_array *a = &list[i];
		bool match = by_dev ? a->devt == st.st_rdev :
			strcmp(a->name, what) == 0 || strcmp(a->kname, what) == 0 ||
			(a->backend == R0_BACKEND_DM && strncmp(what, R0_DM_PREFIX, strlen(R0_DM_PREFIX)) == 0 &&
			 strcmp(a->name, what + strlen(R0_DM_PREFIX)) == 0);
		if (match) {
			*out = *a;
			err = 0;
			break;
		}
	}
	free(list);
	return err;
}
