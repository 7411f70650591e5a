/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: the operations every array back end (md.c, dm.c) offers array.c, and what they share. */
#ifndef R0_ARRAY_BACKEND_H
#define R0_ARRAY_BACKEND_H

#include <stddef.h>
#include "r0/array.h"
#include "lasterror.h"
#include "sysfs.h"

/*
 * One back end. array.c dispatches through a table of these, indexed by
 * enum r0_backend, so the back ends never call array.c. Each operation
 * tries once: -EBUSY is retried by array.c alone (r0_array_retry_busy).
 */
struct r0_array_ops {
	/* builds the array (spec checked by array.c) and describes it into *out */
	int (*create)(const struct r0_array_spec *spec, struct r0_array *out);
	int (*remove)(const struct r0_array *a);
	/* calls FN on the name of every device of the back end, until FN fails: 0 or its error */
	int (*names)(int (*fn)(const char *name, void *arg), void *arg);
	/* the array NAME (one PREFIX starts) into *a: 0, or -errno when it is none or gone */
	int (*describe)(const char *name, struct r0_array *a);
	const char *prefix;
};

/* md.c and dm.c: each back end's operations, which array.c's table lists */
int r0_md_create(const struct r0_array_spec *spec, struct r0_array *out);
int r0_md_remove(const struct r0_array *a);
int r0_md_names(int (*fn)(const char *name, void *arg), void *arg);
int r0_md_describe(const char *kname, struct r0_array *a);
int r0_dm_create(const struct r0_array_spec *spec, struct r0_array *out);
int r0_dm_remove(const struct r0_array *a);
int r0_dm_names(int (*fn)(const char *name, void *arg), void *arg);
int r0_dm_describe(const char *dmname, struct r0_array *a);


/* Appends *a to a malloc'ed list. */
int r0_array_list_add(struct r0_array **list, size_t *count, const struct r0_array *a);

/*
 * Calls OP(ARG) again while it returns -EBUSY, at most R0_ARRAY_BUSY_TRIES
 * times R0_ARRAY_BUSY_WAIT_MS apart (about 5 s in all): a new or just used
 * array can be open for a moment (udev and blkid probe a new device; an
 * io_uring ring releases its files in a deferred clean-up). The
 * one retry of r0kit's array code; returns OP's last result.
 */
#define R0_ARRAY_BUSY_TRIES 50
#define R0_ARRAY_BUSY_WAIT_MS 100
int r0_array_retry_busy(int (*op)(void *arg), void *arg);

#endif
