// SPDX-License-Identifier: GPL-2.0-or-later
/* Size parsing and printing with binary suffixes (K = 1024), as util-linux
 * strtosize; the parsers of times, counts, decimals and seeds; the duration printer. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/size.h"

static const struct { const char *suffix; unsigned shift; } suffixes[] = {
	{ "", 0 }, { "b", 0 }, { "B", 0 },
	{ "k", 10 }, { "K", 10 }, { "KiB", 10 },
	{ "m", 20 }, { "M", 20 }, { "MiB", 20 },
	{ "g", 30 }, { "G", 30 }, { "GiB", 30 },
	{ "t", 40 }, { "T", 40 }, { "TiB", 40 },
};

int r0_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v = 0;
	const char *p = s;

	/* by hand, not strtoull: that skips spaces and takes signs */
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcmp(p, suffixes[i].suffix) != 0)
			continue;
		if (v > (UINT64_MAX >> suffixes[i].shift))
			return -ERANGE;
		*bytes = v << suffixes[i].shift;
		return 0;
	}
	return -EINVAL;
}

static int done(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int r0_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	unsigned u = 0;

	while (bytes && bytes % 1024 == 0 && u < 4) {
		bytes /= 1024;
		u++;
	}
	if (!u)
		return done(snprintf(buf, len, "%llu", (unsigned long long)bytes), len);
	return done(snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u - 1]), len);
}

int r0_format_size_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes / 1024;
	unsigned u = 0;

	if (bytes < 1024)
		return done(snprintf(buf, len, "%llu B", (unsigned long long)bytes), len);
	/* 1023.95 would print as "1024.0": move up a unit first */
	while (v >= 1023.95 && u < 5) {
		v /= 1024;
		u++;
	}
	return done(snprintf(buf, len, "%.1f %s", v, units[u]), len);
}

int r0_parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double s; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	char *end;
	double v;

	if (!s || !*s || *s == '+' || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	/* decimal digits and a point only: no "inf", "nan", hex or exponent */
	if (errno || end == s || end != s + strspn(s, "0123456789.") || !(v >= 0))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].s;
		if (v > 1e7)
			return -EINVAL;
		*ns = (uint64_t)llround(v * 1e9);
		return 0;
	}
	return -EINVAL;
}

int r0_parse_uint(const char *s, unsigned long max, unsigned *out)
{
	uint64_t v;

	/* r0_parse_size with no suffix is the same digit-only grammar */
	if (!s || !*s || s[strspn(s, "0123456789")] || r0_parse_size(s, &v) || v > max || v > UINT_MAX)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int r0_parse_pct(const char *s, unsigned min, unsigned max, unsigned *out)
{
	char num[16];
	size_t n = s ? strspn(s, "0123456789") : 0;
	unsigned v;

	if (!n || n >= sizeof(num) || (s[n] && strcmp(s + n, "%")))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	if (r0_parse_uint(num, max, &v) || v < min)
		return -EINVAL;
	*out = v;
	return 0;
}

int r0_parse_double(const char *s, double min, double max, double *out)
{
	size_t digits = s ? strspn(s, "0123456789.") : 0;
	char *end;
	double v;

	if (!digits || s[digits] || strchr(s, '.') != strrchr(s, '.') || !strcmp(s, "."))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

int r0_parse_seed(const char *s, uint64_t *seed)
{
	const char *p = s;
	uint64_t v = 0;
	unsigned base = 10;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*seed = v;
	return 0;
}

int r0_format_ns(double ns, char *buf, size_t len)
{
	if (!(ns >= 0) || isinf(ns))
		return done(snprintf(buf, len, "-"), len);
	if (ns < 9999.5)
		return done(snprintf(buf, len, "%.0f ns", ns), len);
	if (ns < 999950)
		return done(snprintf(buf, len, "%.1f us", ns / 1e3), len);
	if (ns < 999950000)
		return done(snprintf(buf, len, "%.1f ms", ns / 1e6), len);
	return done(snprintf(buf, len, "%.1f s", ns / 1e9), len);
}

uint64_t r0_gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}
