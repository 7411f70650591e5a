// SPDX-License-Identifier: GPL-2.0-or-later
/* Which r0bench/1 tests are one measurement, and documents with none in common (r0/benchcommon.h). */
#include <stdio.h>
#include <string.h>

#include "r0/benchcommon.h"
#include "r0/size.h"
#include "r0/sweep.h"
#include "strbuf.h"

bool r0_bench_same_test(const struct r0_bench_result *a, const struct r0_bench_result *b)
{
	return !a->trim && !b->trim && a->access == b->access && a->read_pct == b->read_pct &&
	       a->block_bytes == b->block_bytes && a->queue_depth == b->queue_depth && a->jobs == b->jobs;
}

void r0_bench_test_name(const struct r0_bench_result *r, char *buf, size_t len)
{
	char bs[16];

	if (r->trim) {
		snprintf(buf, len, "%s trim", r->label);
		return;
	}
	if (r0_format_size(r->block_bytes, bs, sizeof(bs)))
		snprintf(bs, sizeof(bs), "%u", r->block_bytes);
	/* r0bench's own label for a test without one is its --rw: it names the direction already */
	if (!strcmp(r->label, r0_rw_name(r->access, r->read_pct)) && (r->read_pct >= 100 || !r->read_pct))
		snprintf(buf, len, "%s", r->label);
	else
		r0_workload_name(r->label, r->read_pct, buf, len);
	r0_strbuf_cat(buf, len, " (%s %s QD%u T%u)", r->access == R0_ACCESS_SEQ ? "seq" : "random", bs, r->queue_depth,
		      r->jobs ? r->jobs : 1);
}

/* Whether document D ran a test the same as R. */
static bool ran(const struct r0_bench_doc *d, const struct r0_bench_result *r)
{
	for (size_t k = 0; k < d->n_tests; k++)
		if (r0_bench_same_test(&d->tests[k], r))
			return true;
	return false;
}

size_t r0_bench_common_tests(const struct r0_bench_doc *d, size_t n)
{
	size_t common = 0;

	for (size_t k = 0; n && k < d[0].n_tests; k++) {
		bool all = !d[0].tests[k].trim;

		for (size_t i = 1; all && i < n; i++)
			all = ran(&d[i], &d[0].tests[k]);
		common += all;
	}
	return common;
}

int r0_bench_none_common(const struct r0_bench_doc *d, const char *const *names, size_t n, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (n < 2 || r0_bench_common_tests(d, n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t said = 0;

		r0_strbuf_cat(why, len, "%s%s:", i ? "; " : "", names[i]);
		for (size_t k = 0; k < d[i].n_tests; k++) {
			char t[160];

			if (d[i].tests[k].trim)
				continue;
			if (said++ >= 8)
				continue;
			r0_bench_test_name(&d[i].tests[k], t, sizeof(t));
			r0_strbuf_cat(why, len, "%s %s", said > 1 ? "," : "", t);
		}
		if (!said)
			r0_strbuf_cat(why, len, " no test but discards");
		else if (said > 8)
			r0_strbuf_cat(why, len, " and %zu more", said - 8);
	}
	return 1;
}
