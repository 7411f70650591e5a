// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/size.h: parsing and printing sizes, counts, decimals, seeds, durations. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <criterion/criterion.h>

#include "r0/size.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct { const char *in; uint64_t bytes; } good[] = {
	{ "0", 0 }, { "512", 512 }, { "4096", 4096 }, { "4096B", 4096 }, { "4096b", 4096 },
	{ "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4096 }, { "64K", 65536 }, { "0004k", 4096 },
	{ "512k", 524288 }, { "1M", 1048576 }, { "1m", 1048576 }, { "1MiB", 1048576 },
	{ "3G", 3ULL << 30 }, { "3g", 3ULL << 30 }, { "2GiB", 2ULL << 30 },
	{ "2t", 2ULL << 40 }, { "2TiB", 2ULL << 40 }, { "16777215T", 16777215ULL << 40 },
	{ "18446744073709551615", UINT64_MAX },
};

static const struct { const char *in; int err; } bad[] = {
	{ "", -EINVAL }, { "k", -EINVAL }, { "-4k", -EINVAL }, { "+4k", -EINVAL },
	{ " 4k", -EINVAL }, { "4k ", -EINVAL }, { "4kk", -EINVAL }, { "4 k", -EINVAL },
	{ "1.5M", -EINVAL }, { "0x10", -EINVAL }, { "4KB", -EINVAL }, { "4kib", -EINVAL },
	{ "8s", -EINVAL }, { "4P", -EINVAL }, { "4\n", -EINVAL }, { "\t4", -EINVAL },
	{ "18446744073709551616", -ERANGE }, { "99999999999999999999", -ERANGE },
	{ "16777216T", -ERANGE }, { "17179869184G", -ERANGE },
};

Test(size, parses_good_sizes)
{
	for (size_t i = 0; i < N(good); i++) {
		uint64_t v = 1234;

		cr_expect_eq(r0_parse_size(good[i].in, &v), 0, "'%s' rejected", good[i].in);
		cr_expect_eq(v, good[i].bytes, "'%s' gave %llu", good[i].in, (unsigned long long)v);
	}
}

Test(size, rejects_bad_sizes)
{
	for (size_t i = 0; i < N(bad); i++) {
		uint64_t v = 1234;

		cr_expect_eq(r0_parse_size(bad[i].in, &v), bad[i].err, "'%s'", bad[i].in);
		cr_expect_eq(v, 1234, "'%s' changed the output", bad[i].in);
	}
	cr_expect_eq(r0_parse_size(NULL, &(uint64_t){ 0 }), -EINVAL);
}

Test(size, formats_shortest_exact_and_round_trips)
{
	static const struct { uint64_t v; const char *s; } t[] = {
		{ 0, "0" }, { 512, "512" }, { 4096, "4K" }, { 65536, "64K" }, { 1536 * 1024, "1536K" },
		{ 1 << 20, "1M" }, { 3ULL << 30, "3G" }, { 5ULL << 40, "5T" }, { 4097, "4097" },
		{ 1ULL << 50, "1024T" }, { UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];

	for (size_t i = 0; i < N(t); i++) {
		uint64_t back;

		cr_assert_eq(r0_format_size(t[i].v, buf, sizeof(buf)), 0);
		cr_expect_str_eq(buf, t[i].s);
		cr_expect_eq(r0_parse_size(buf, &back), 0);
		cr_expect_eq(back, t[i].v);
	}
	cr_expect_eq(r0_format_size(1 << 20, buf, 2), -ENOSPC);
	cr_expect_eq(r0_format_size(1 << 20, buf, 3), 0);
}

Test(size, formats_human)
{
	static const struct { uint64_t v; const char *s; } t[] = {
		{ 0, "0 B" }, { 100, "100 B" }, { 1023, "1023 B" }, { 4096, "4.0 KiB" },
		{ 3ULL << 29, "1.5 GiB" }, { (1ULL << 20) - 1, "1.0 MiB" }, { 5ULL << 40, "5.0 TiB" },
		{ UINT64_MAX, "16.0 EiB" },
	};
	char buf[32];

	for (size_t i = 0; i < N(t); i++) {
		cr_assert_eq(r0_format_size_human(t[i].v, buf, sizeof(buf)), 0);
		cr_expect_str_eq(buf, t[i].s);
	}
	cr_expect_eq(r0_format_size_human(3ULL << 29, buf, 4), -ENOSPC);
}

Test(size, parses_counts)
{
	static const struct { const char *in; unsigned long max; int err; unsigned v; } t[] = {
		{ "0", 10, 0, 0 }, { "7", 10, 0, 7 }, { "10", 10, 0, 10 }, { "007", 10, 0, 7 },
		{ "4294967295", UINT32_MAX, 0, UINT32_MAX },
		{ "11", 10, -EINVAL, 0 }, { "", 10, -EINVAL, 0 }, { "-1", 10, -EINVAL, 0 },
		{ "+1", 10, -EINVAL, 0 }, { " 1", 10, -EINVAL, 0 }, { "1 ", 10, -EINVAL, 0 },
		{ "1k", 10000, -EINVAL, 0 }, { "0x1", 10, -EINVAL, 0 }, { "1.0", 10, -EINVAL, 0 },
		{ "4294967296", ULONG_MAX, -EINVAL, 0 }, { "99999999999999999999", ULONG_MAX, -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		unsigned v = 12345;
		int err = r0_parse_uint(t[i].in, t[i].max, &v);

		cr_expect_eq(err, t[i].err, "'%s': %d, want %d", t[i].in, err, t[i].err);
		cr_expect_eq(v, t[i].err ? 12345 : t[i].v, "'%s': %u", t[i].in, v);
	}
}

/* one percentage for every --fill: "30" or "30%", nothing else */
Test(size, parses_percentages)
{
	static const struct { const char *in; unsigned min, max; int err; unsigned v; } t[] = {
		{ "30", 1, 90, 0, 30 }, { "30%", 1, 90, 0, 30 }, { "0", 0, 100, 0, 0 }, { "100%", 0, 100, 0, 100 },
		{ "090", 1, 90, 0, 90 },
		{ "0", 1, 90, -EINVAL, 0 }, { "91", 1, 90, -EINVAL, 0 }, { "", 0, 9, -EINVAL, 0 }, { "%", 0, 9, -EINVAL, 0 },
		{ "30 %", 1, 90, -EINVAL, 0 }, { " 30", 1, 90, -EINVAL, 0 }, { "+30", 1, 90, -EINVAL, 0 },
		{ "30%%", 1, 90, -EINVAL, 0 }, { "30.5", 1, 90, -EINVAL, 0 }, { "0x1e", 1, 90, -EINVAL, 0 },
		{ "3e1", 1, 90, -EINVAL, 0 }, { "99999999999999999999%", 0, 100, -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		unsigned v = 12345;
		int err = r0_parse_pct(t[i].in, t[i].min, t[i].max, &v);

		cr_expect_eq(err, t[i].err, "'%s': %d, want %d", t[i].in, err, t[i].err);
		cr_expect_eq(v, t[i].err ? 12345 : t[i].v, "'%s': %u", t[i].in, v);
	}
}

Test(size, parses_decimals)
{
	static const struct { const char *in; double min, max; int err; double v; } t[] = {
		{ "5", 0, 90, 0, 5 }, { "0.01", 0.01, 90, 0, 0.01 }, { "7.", 0, 90, 0, 7 },
		{ ".5", 0, 90, 0, 0.5 }, { "90", 0, 90, 0, 90 },
		{ "90.1", 0, 90, -EINVAL, 0 }, { "0.001", 0.01, 90, -EINVAL, 0 }, { "", 0, 1, -EINVAL, 0 },
		{ ".", 0, 1, -EINVAL, 0 }, { "1..2", 0, 9, -EINVAL, 0 }, { "1.2.3", 0, 9, -EINVAL, 0 },
		{ "-1", -5, 5, -EINVAL, 0 }, { "+1", 0, 5, -EINVAL, 0 }, { "1e2", 0, 1e9, -EINVAL, 0 },
		{ "inf", 0, 1e9, -EINVAL, 0 }, { "nan", 0, 1e9, -EINVAL, 0 }, { "0x10", 0, 1e9, -EINVAL, 0 },
		{ " 1", 0, 5, -EINVAL, 0 }, { "1 ", 0, 5, -EINVAL, 0 }, { "1%", 0, 5, -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		double v = -42;
		int err = r0_parse_double(t[i].in, t[i].min, t[i].max, &v);

		cr_expect_eq(err, t[i].err, "'%s': %d, want %d", t[i].in, err, t[i].err);
		cr_expect_eq(v, t[i].err ? -42 : t[i].v, "'%s': %g", t[i].in, v);
	}
}

Test(size, parses_seeds)
{
	static const struct { const char *in; int err; uint64_t v; } t[] = {
		{ "0", 0, 0 }, { "42", 0, 42 }, { "010", 0, 10 }, { "0x2a", 0, 42 }, { "0X2A", 0, 42 },
		{ "0xffffffffffffffff", 0, UINT64_MAX }, { "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -ERANGE, 0 }, { "0x10000000000000000", -ERANGE, 0 },
		{ "", -EINVAL, 0 }, { "0x", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 }, { "1 ", -EINVAL, 0 }, { "12a", -EINVAL, 0 }, { "0x1g", -EINVAL, 0 },
		{ "1.5", -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		uint64_t v = 7;
		int err = r0_parse_seed(t[i].in, &v);

		cr_expect_eq(err, t[i].err, "'%s': %d, want %d", t[i].in, err, t[i].err);
		cr_expect_eq(v, t[i].err ? 7 : t[i].v, "'%s': %llu", t[i].in, (unsigned long long)v);
	}
}

Test(size, formats_durations)
{
	static const struct { double ns; const char *out; } t[] = {
		{ 0, "0 ns" }, { 850, "850 ns" }, { 9999, "9999 ns" }, { 9999.6, "10.0 us" },
		{ 12345, "12.3 us" }, { 999949, "999.9 us" }, { 999950, "1.0 ms" },
		{ 1234567, "1.2 ms" }, { 12.34e6, "12.3 ms" }, { 1.5e9, "1.5 s" }, { 90e9, "90.0 s" },
		{ -1, "-" }, { NAN, "-" }, { INFINITY, "-" },
	};
	char buf[16], tiny[4];

	for (size_t i = 0; i < N(t); i++) {
		cr_expect_eq(r0_format_ns(t[i].ns, buf, sizeof(buf)), 0);
		cr_expect_str_eq(buf, t[i].out, "%g ns: '%s', want '%s'", t[i].ns, buf, t[i].out);
	}
	cr_expect_eq(r0_format_ns(12345, tiny, sizeof(tiny)), -ENOSPC);
}
