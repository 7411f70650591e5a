// SPDX-License-Identifier: GPL-2.0-or-later
/* The one way lib/ grows its lists: doubling, so appends cost O(1) on average. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int r0_grow(void *items, size_t *cap, size_t n, size_t item_bytes, size_t first)
{
	void *p;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : first;
	/* through memcpy: ITEMS points to a pointer of the caller's type, not a void * */
	memcpy(&p, items, sizeof(p));
	p = realloc(p, ncap * item_bytes);
	if (!p)
		return -ENOMEM;
	memcpy(items, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
