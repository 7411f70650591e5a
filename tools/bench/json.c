// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench --json: the run's r0bench/1 document (r0/benchjson.h) with the target's device record, printed. */
#include "bench.h"
#include "cli.h"
#include "r0/probe.h"
#include "r0/probejson.h"

/* A block device's r0probe/1 record, as r0probe -J prints it; NULL for a file. */
static json_object *device_of(const struct r0_target *t)
{
	json_object *dev = NULL;
	struct r0_device d;

	if (t->is_block && !r0_probe_devt(t->devt, NULL, &d)) {
		struct r0_probe_record r = { .path = t->path, .dev = &d };

		dev = r0_probe_record_json(&r);
		r0_device_free(&d);
	}
	return dev;
}

void bench_print_json(const struct run *run, int status, const char *reason)
{
	const struct r0_bench_run br = {
		.tool = PROG, .target = &run->target, .device = device_of(&run->target), .state = run->state,
		.preset = run->preset, .passes = run->passes, .warmup = run->warmup,
		.region_bytes = run->region_bytes, .tests = run->tests, .n_tests = run->ntests,
		.status = status, .reason = reason,
	};
	json_object *root = r0_bench_to_json(&br);

	r0_cli_print_json(root);
	json_object_put(root);
}

void bench_print_replay_json(const struct r0_target *t, json_object *replay, int status, const char *reason)
{
	const struct r0_bench_run br = {
		.tool = PROG, .target = t, .device = device_of(t), .passes = 1,
		.status = status, .reason = reason,
	};
	json_object *root = r0_bench_to_json(&br);

	if (root)
		json_object_object_add(root, "replay", replay);
	else
		json_object_put(replay);
	r0_cli_print_json(root);
	json_object_put(root);
}
