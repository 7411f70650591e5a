// SPDX-License-Identifier: GPL-2.0-or-later
/* What array.c and the md and dm back ends share: the last error, list building, the busy retry. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array_backend.h"
#include "lasterror.h"

const char *r0_array_last_error(void)
{
	return r0_last_error();
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

int r0_array_retry_busy(int (*op)(void *arg), void *arg)
{
	struct timespec ts = { 0, R0_ARRAY_BUSY_WAIT_MS * 1000000L };
	int err = op(arg);

	for (int i = 1; i < R0_ARRAY_BUSY_TRIES && err == -EBUSY; i++) {
		nanosleep(&ts, NULL);
		err = op(arg);
	}
	return err;
}
