// SPDX-License-Identifier: GPL-2.0-or-later
/* One per-thread buffer behind r0_array_last_error and r0_ublk_last_error. */
#include <stdarg.h>
#include <stdio.h>

#include "lasterror.h"

static _Thread_local char last_error[512];

void r0_set_last_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

const char *r0_last_error(void)
{
	return last_error;
}

void r0_clear_last_error(void)
{
	last_error[0] = '\0';
}
