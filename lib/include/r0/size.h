/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One parser and two printers for every size and offset r0kit takes or shows,
 * and the parser of times. */
#ifndef R0_SIZE_H
#define R0_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses a decimal integer with an optional binary suffix into *BYTES:
 * none, b or B (bytes); k, K or KiB; m, M or MiB; g, G or GiB; t, T or TiB
 * (powers of 1024). No sector suffix. Returns 0; -EINVAL for empty input,
 * signs, white space, fractions, other suffixes or trailing garbage;
 * -ERANGE past 2^64-1. *BYTES is left alone on error.
 */
int r0_parse_size(const char *s, uint64_t *bytes);

/*
 * The shortest exact form r0_parse_size reads back, for chunk sizes:
 * "512", "4K", "1536K", "1M", "3G", "5T", "0". Returns 0 or -ENOSPC when
 * LEN (including the NUL) is too short.
 */
int r0_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * A rounded human form with one decimal, for device and array sizes:
 * "512 B", "4.0 KiB", "1.5 GiB". Returns 0 or -ENOSPC.
 */
int r0_format_size_human(uint64_t bytes, char *buf, size_t len);

/*
 * A time: a decimal number of seconds, or with a unit us, ms, s, m, h or d
 * ("90", "1.5h", "30m", "500ms", "2d"), as fio takes them. Fractions
 * allowed; 0 allowed (the caller refuses it where it makes no sense).
 * 0 or -EINVAL (empty, sign, white space, hex, exponent, unknown unit,
 * above 10^7 s); *NS untouched on error.
 */
int r0_parse_duration(const char *s, uint64_t *ns);

/*
 * A decimal count 0..MAX: digits only (no sign, blank, suffix or base
 * prefix). 0 or -EINVAL; *OUT untouched on error.
 */
int r0_parse_uint(const char *s, unsigned long max, unsigned *out);

/*
 * A whole percentage MIN..MAX, "50" or "50%": r0_parse_uint's digits and
 * an optional '%' right after them (no blank). Every --fill and PCT
 * argument reads it. 0 or -EINVAL; *OUT untouched on error.
 */
int r0_parse_pct(const char *s, unsigned min, unsigned max, unsigned *out);

/*
 * A decimal number MIN..MAX: digits with at most one point ("5", "0.01",
 * "7."), no sign, blank, exponent, hex, inf or nan. 0 or -EINVAL; *OUT
 * untouched on error.
 */
int r0_parse_double(const char *s, double min, double max, double *out);

/*
 * A random seed: decimal, or hexadecimal with 0x ("42", "0x2a"), 0 to
 * 2^64-1. Unlike strtoull(s, NULL, 0), a leading 0 is not octal and a
 * sign or blank is refused. 0, -EINVAL or -ERANGE; *SEED untouched on error.
 */
int r0_parse_seed(const char *s, uint64_t *seed);

/*
 * A duration for tables, three significant figures where they fit:
 * "850 ns", "9999 ns", "12.3 us", "999.9 us", "1.2 ms", "12.3 ms", "1.5 s".
 * Nanoseconds under 10000 are whole; negative or not finite prints "-".
 * 0 or -ENOSPC.
 */
int r0_format_ns(double ns, char *buf, size_t len);

/* The greatest common divisor of A and B (A when B is 0). */
uint64_t r0_gcd_u64(uint64_t a, uint64_t b);

#endif
