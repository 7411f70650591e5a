/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: the md and dm back ends behind r0/array.h, and shared helpers. */
#ifndef R0_ARRAY_BACKEND_H
#define R0_ARRAY_BACKEND_H

#include <stddef.h>
#include "r0/array.h"
#include "sysfs.h"

int r0_md_create(const struct r0_array_spec *spec, struct r0_array *out);
int r0_md_remove(const struct r0_array *a);
int r0_md_list(struct r0_array **list, size_t *count);

int r0_dm_create(const struct r0_array_spec *spec, struct r0_array *out);
int r0_dm_remove(const struct r0_array *a);
int r0_dm_list(struct r0_array **list, size_t *count);

/* Records the message r0_array_last_error() returns (thread-local). */
void r0_array_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends *a to a malloc'ed list. */
int r0_array_list_add(struct r0_array **list, size_t *count, const struct r0_array *a);

#endif
