// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run's figures from its struct r0_result (r0/engine.h): totals, rates,
 * CPU per request and the busiest job's share, and the measured window's
 * accounting the engine counts with. (lib/results/resultfiles.c reads result files.)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "r0/engine.h"

const char *r0_op_name(enum r0_op op)
{
	return op == R0_OP_READ ? "read" : op == R0_OP_WRITE ? "write" : "trim";
}

static const char *const end_names[] = {
	[R0_END_FIXED] = "fixed", [R0_END_STEADY] = "steady", [R0_END_MAX] = "max", [R0_END_CUT] = "cut",
};

const char *r0_end_name(enum r0_end e)
{
	return (unsigned)e < sizeof(end_names) / sizeof(end_names[0]) ? end_names[e] : NULL;
}

int r0_end_parse(const char *name)
{
	for (unsigned i = 0; name && i < sizeof(end_names) / sizeof(end_names[0]); i++)
		if (!strcmp(name, end_names[i]))
			return (int)i;
	return -EINVAL;
}

struct r0_steady_rule r0_workload_steady_rule(const struct r0_workload *w)
{
	return w->steady.window ? w->steady : R0_STEADY_RUN;
}

uint64_t r0_workload_slice_ns(const struct r0_workload *w)
{
	struct r0_steady_rule r = r0_workload_steady_rule(w);

	if (!w->min_runtime_ns || !w->runtime_ns)
		return 0;
	return r0_steady_slice_ns(w->steady_slice_ns, w->min_runtime_ns, &r);
}

void r0_result_reset(struct r0_result *r)
{
	memset(r, 0, sizeof(*r));
	r0_hist_reset(&r->lat);
	r0_hist_reset(&r->lat_op[R0_OP_READ]);
	r0_hist_reset(&r->lat_op[R0_OP_WRITE]);
}

uint64_t r0_result_ios(const struct r0_result *r)
{
	return r->ios[R0_OP_READ] + r->ios[R0_OP_WRITE] + r->ios[R0_OP_TRIM];
}

uint64_t r0_result_bytes(const struct r0_result *r)
{
	return r->bytes[R0_OP_READ] + r->bytes[R0_OP_WRITE] + r->bytes[R0_OP_TRIM];
}

double r0_result_iops(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r0_result_ios(r) / r->elapsed_s : 0.0;
}

double r0_result_bytes_per_s(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r0_result_bytes(r) / r->elapsed_s : 0.0;
}

double r0_result_mb_per_s(const struct r0_result *r)
{
	return r0_result_bytes_per_s(r) / 1e6;
}

double r0_result_cpu_per_io(const struct r0_result *r)
{
	uint64_t n = r0_result_ios(r);

	return n ? (r->user_s + r->sys_s) / (double)n : 0.0;
}

double r0_result_busy(const struct r0_result *r)
{
	double most = 0;

	for (unsigned i = 0; i < r->jobs && i < R0_JOBS_MAX; i++)
		if (r->job_wall_s[i] > 0 && r->job_cpu_s[i] / r->job_wall_s[i] > most)
			most = r->job_cpu_s[i] / r->job_wall_s[i];
	return most;
}

bool r0_window_count(struct r0_result *r, const struct r0_window *win, enum r0_op op,
		     uint32_t len, uint64_t submit_ns, uint64_t done_ns)
{
	uint64_t ns;

	if (done_ns < win->start_ns || done_ns > win->end_ns)
		return false;
	r->ios[op]++;
	r->bytes[op] += len;
	ns = done_ns > submit_ns ? done_ns - submit_ns : 0;
	r0_hist_add(&r->lat, ns);
	if (op == R0_OP_READ || op == R0_OP_WRITE)
		r0_hist_add(&r->lat_op[op], ns);
	return true;
}
