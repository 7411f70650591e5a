// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/size.h: parsing and printing sizes. */
#include <errno.h>
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
