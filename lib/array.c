// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/array.h: names, lookup and dispatch to the md and dm back ends. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_backend.h"

static _Thread_local char last_error[512];

void r0_array_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

const char *r0_array_last_error(void)
{
	return last_error;
}

int r0_array_list_add(struct r0_array **list, size_t *count, const struct r0_array *a)
{
	struct r0_array *l = realloc(*list, (*count + 1) * sizeof(**list));

	if (!l)
		return -ENOMEM;
	l[*count] = *a;
	*list = l;
	(*count)++;
	return 0;
}

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

int r0_array_create(const struct r0_array_spec *spec, struct r0_array *out)
{
	struct r0_array existing;

	last_error[0] = '\0';
	if (r0_array_check_name(spec->name) || spec->n_members == 0 ||
	    spec->n_members > R0_MAX_MEMBERS || spec->chunk_bytes == 0)
		return -EINVAL;
	if (r0_array_find(spec->name, &existing) == 0) {
		r0_array_set_error("an array named %s exists (%s)", spec->name, existing.path);
		return -EEXIST;
	}
	if (spec->backend == R0_BACKEND_MD)
		return r0_md_create(spec, out);
	if (spec->dm_length_sectors == 0)
		return -EINVAL;
	return r0_dm_create(spec, out);
}

int r0_array_remove(const struct r0_array *a)
{
	last_error[0] = '\0';
	return a->backend == R0_BACKEND_MD ? r0_md_remove(a) : r0_dm_remove(a);
}

int r0_array_list(struct r0_array **out, size_t *count)
{
	int err;

	*out = NULL;
	*count = 0;
	err = r0_md_list(out, count);
	if (!err)
		err = r0_dm_list(out, count);
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
