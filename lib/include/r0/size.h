/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One parser and two printers for every size and offset r0kit takes or shows. */
#ifndef R0_SIZE_H
#define R0_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses a decimal integer with an optional binary suffix: none or B
 * (bytes), K/k/KiB, M/m/MiB, G/g/GiB, T/t/TiB (powers of 1024).
 * Rejects empty input, signs, spaces, fractions, trailing garbage
 * (-EINVAL) and values past 2^64-1 (-ERANGE).
 */
int r0_parse_size(const char *s, uint64_t *bytes);

/* The shortest exact form: 512, 4K, 1536K, 1M, 3G. 0 or -ENOSPC. */
int r0_format_size(uint64_t bytes, char *buf, size_t len);

/* A rounded human form: "512 B", "4.0 KiB", "1.5 GiB". 0 or -ENOSPC. */
int r0_format_size_human(uint64_t bytes, char *buf, size_t len);

#endif
