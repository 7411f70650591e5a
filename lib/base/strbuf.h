/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sentences built piece by piece into a fixed buffer (private to lib/). */
#ifndef R0_LIB_STRBUF_H
#define R0_LIB_STRBUF_H

#include <stddef.h>

/* Appends the formatted text to the string in BUF (LEN bytes), cut at its end. */
void r0_strbuf_cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
