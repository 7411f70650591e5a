// SPDX-License-Identifier: GPL-2.0-or-later
/* Size parsing and printing with binary suffixes (K = 1024). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "r0/size.h"

static const struct { const char *suffix; unsigned shift; } suffixes[] = {
	{ "", 0 }, { "B", 0 },
	{ "K", 10 }, { "k", 10 }, { "KiB", 10 },
	{ "M", 20 }, { "m", 20 }, { "MiB", 20 },
	{ "G", 30 }, { "g", 30 }, { "GiB", 30 },
	{ "T", 40 }, { "t", 40 }, { "TiB", 40 },
};

int r0_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v = 0;
	const char *p = s;
	size_t i;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcmp(p, suffixes[i].suffix) != 0)
			continue;
		if (suffixes[i].shift && v > (UINT64_MAX >> suffixes[i].shift))
			return -ERANGE;
		*bytes = v << suffixes[i].shift;
		return 0;
	}
	return -EINVAL;
}

int r0_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	unsigned u = 0;
	int n;

	while (bytes && bytes % 1024 == 0 && u < 4) {
		bytes /= 1024;
		u++;
	}
	if (u)
		n = snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u - 1]);
	else
		n = snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int r0_format_size_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned u = 0;
	int n;

	if (bytes < 1024) {
		n = snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	} else {
		v /= 1024;
		while (v >= 1024 && u < 5) {
			v /= 1024;
			u++;
		}
		n = snprintf(buf, len, "%.1f %s", v, units[u]);
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
