/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: room for one more item in a malloc'ed array that doubles as it fills. */
#ifndef R0_LIB_GROW_H
#define R0_LIB_GROW_H

#include <stddef.h>

/*
 * ITEMS is the address of the array's pointer (any object pointer type),
 * *CAP its capacity in items of ITEM_BYTES, N the items it holds. When it
 * is full, doubles it (FIRST items to begin with). 0, or -ENOMEM with the
 * array and *CAP untouched.
 */
int r0_grow(void *items, size_t *cap, size_t n, size_t item_bytes, size_t first);

#endif
