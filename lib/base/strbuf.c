// SPDX-License-Identifier: GPL-2.0-or-later
/* Sentences built piece by piece into a fixed buffer (strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

void r0_strbuf_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
