// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0trace/1 coding its writer (tracewrite.c) and reader (trace.c) share: tags, CRC, zigzag. */
#ifndef R0_TRACECODEC_H
#define R0_TRACECODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zlib.h>

#include "r0/trace.h"

#define TAG_END 0xffu
#define OPS 4
#define KINDS 3

/* CRC-32 (IEEE 802.3, reflected: zlib's), in pieces of at most 1 GiB for its unsigned length */
static inline uint32_t crc32_add(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n) {
		uInt k = n > (1u << 30) ? 1u << 30 : (uInt)n;

		crc = (uint32_t)crc32(crc, p, k);
		p += k;
		n -= k;
	}
	return crc;
}

/* Only reads, writes and discards have a place on the device; only a queued one has a length. */
static inline bool has_range(enum r0_trace_kind kind, enum r0_trace_op op)
{
	return kind == R0_TRACE_QUEUE && op != R0_TRACE_FLUSH;
}

static inline bool has_sector(enum r0_trace_op op)
{
	return op != R0_TRACE_FLUSH;
}

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
