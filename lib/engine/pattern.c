// SPDX-License-Identifier: GPL-2.0-or-later
/* Write data and verify stamps: see r0/pattern.h. */
#include <string.h>

#include "r0/pattern.h"
#include "r0/prng.h"

struct verify_header {
	uint64_t magic;
	uint64_t sector;
	uint32_t pass;
	uint32_t seed_check;
};

#define PAYLOAD_WORDS ((R0_VERIFY_SECTOR - sizeof(struct verify_header)) / 8)

void r0_pattern_fill(void *buf, size_t len, uint64_t seed)
{
	struct r0_prng r;
	unsigned char *p = buf;
	uint64_t w;
	size_t i;

	r0_prng_seed(&r, seed);
	for (i = 0; i + 8 <= len; i += 8) {
		w = r0_prng_next(&r);
		memcpy(p + i, &w, 8);
	}
	w = r0_prng_next(&r);
	memcpy(p + i, &w, len - i);
}

void r0_pattern_stamp(void *buf, size_t len, uint64_t offset_bytes, uint64_t serial)
{
	unsigned char *p = buf;
	uint64_t v[2];

	for (size_t i = 0; i + sizeof(v) <= len; i += 4096) {
		v[0] = offset_bytes + i;
		v[1] = serial;
		memcpy(p + i, v, sizeof(v));
	}
}

static uint32_t seed_check(uint64_t seed)
{
	return (uint32_t)(r0_mix64(seed ^ 0x7233306b6974ULL) >> 32);
}

/* The payload word W of SECTOR: a hash, so any sector's payload is computed alone. */
static uint64_t payload_word(uint64_t base, unsigned w)
{
	return r0_mix64(base + w * 0x9e3779b97f4a7c15ULL);
}

static uint64_t payload_base(uint64_t sector, uint64_t seed, uint32_t pass)
{
	return r0_mix64(seed ^ r0_mix64(sector) ^ ((uint64_t)pass << 40));
}

void r0_verify_fill(void *buf, size_t len, uint64_t offset_bytes, uint64_t seed, uint32_t pass)
{
	unsigned char *p = buf;
	uint32_t check = seed_check(seed);

	for (size_t off = 0; off + R0_VERIFY_SECTOR <= len; off += R0_VERIFY_SECTOR) {
		struct verify_header h = {
			.magic = R0_VERIFY_MAGIC,
			.sector = (offset_bytes + off) / R0_VERIFY_SECTOR,
			.pass = pass,
			.seed_check = check,
		};
		uint64_t base = payload_base(h.sector, seed, pass), w;

		memcpy(p + off, &h, sizeof(h));
		for (unsigned i = 0; i < PAYLOAD_WORDS; i++) {
			w = payload_word(base, i);
			memcpy(p + off + sizeof(h) + 8 * i, &w, 8);
		}
	}
}

static enum r0_verify_fault classify(const unsigned char *s, uint64_t sector, uint64_t seed,
				     uint32_t pass, struct r0_verify_report *rep)
{
	struct verify_header h;
	uint64_t base, w;
	unsigned i, zeros = 0, ones = 0;

	for (i = 0; i < R0_VERIFY_SECTOR; i++) {
		zeros += s[i] == 0;
		ones += s[i] == 0xff;
	}
	if (zeros == R0_VERIFY_SECTOR)
		return R0_VERIFY_ZEROED;
	if (ones == R0_VERIFY_SECTOR)
		return R0_VERIFY_ONES;
	memcpy(&h, s, sizeof(h));
	rep->found_sector = h.sector;
	rep->found_pass = h.pass;
	if (h.magic != R0_VERIFY_MAGIC)
		return R0_VERIFY_FOREIGN;
	if (h.seed_check != seed_check(seed))
		return R0_VERIFY_OTHER_SEED;
	if (h.sector != sector)
		return R0_VERIFY_MISPLACED;
	if (h.pass != pass)
		return R0_VERIFY_STALE;
	base = payload_base(sector, seed, pass);
	for (i = 0; i < PAYLOAD_WORDS; i++) {
		w = payload_word(base, i);
		if (memcmp(s + sizeof(h) + 8 * i, &w, 8)) {
			const unsigned char *e = (const unsigned char *)&w;
			unsigned b = 0;

			while (b < 8 && s[sizeof(h) + 8 * i + b] == e[b])
				b++;
			rep->bad_byte = (uint32_t)(sizeof(h) + 8 * i + b);
			return R0_VERIFY_CORRUPT;
		}
	}
	return R0_VERIFY_OK;
}

size_t r0_verify_check(const void *buf, size_t len, uint64_t offset_bytes, uint64_t seed,
		       uint32_t pass, struct r0_verify_report *rep)
{
	const unsigned char *p = buf;
	struct r0_verify_report r;
	size_t bad = 0;

	memset(rep, 0, sizeof(*rep));
	for (size_t off = 0; off + R0_VERIFY_SECTOR <= len; off += R0_VERIFY_SECTOR) {
		uint64_t sector = (offset_bytes + off) / R0_VERIFY_SECTOR;
		enum r0_verify_fault f;

		memset(&r, 0, sizeof(r));
		f = classify(p + off, sector, seed, pass, &r);
		if (f == R0_VERIFY_OK)
			continue;
		if (!bad++) {
			*rep = r;
			rep->fault = f;
			rep->offset_bytes = offset_bytes + off;
			rep->expected_sector = sector;
			rep->expected_pass = pass;
		}
	}
	return bad;
}

const char *r0_verify_fault_name(enum r0_verify_fault f)
{
	static const char *const names[] = {
		[R0_VERIFY_OK] = "ok",
		[R0_VERIFY_ZEROED] = "zeroed",
		[R0_VERIFY_ONES] = "all 0xff",
		[R0_VERIFY_FOREIGN] = "not written by a verify pass",
		[R0_VERIFY_MISPLACED] = "misplaced",
		[R0_VERIFY_OTHER_SEED] = "written with another seed",
		[R0_VERIFY_STALE] = "stale",
		[R0_VERIFY_CORRUPT] = "corrupt",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "unknown";
}
