/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The library's last error message, per thread (private to lib/). */
#ifndef R0_LIB_LASTERROR_H
#define R0_LIB_LASTERROR_H

/*
 * Calls that return a bare -errno (the kernel's EINVAL of an ioctl, say)
 * leave here what they were doing; the public r0_*_last_error() read it.
 */
void r0_set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void r0_clear_last_error(void);
const char *r0_last_error(void);

#endif
