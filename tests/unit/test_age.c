// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/age.h: argument parsers, the plans of each state, the state record. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/age.h"
#include "r0/size.h"
#include "r0/steady.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(age, parse_duration)
{
	static const struct { const char *s; uint64_t ns; } ok[] = {
		{ "90", 90000000000ULL }, { "30s", 30000000000ULL }, { "500ms", 500000000ULL },
		{ "10m", 600000000000ULL }, { "1h", 3600000000000ULL }, { "1.5h", 5400000000000ULL },
		{ "2d", 172800000000000ULL }, { "0.25", 250000000ULL }, { "0", 0 },
	};
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1x", "1hh", "h", "inf", "nan", "0x10", "1e9d", "1e3", "1,5", ".", "1.2.3",
	};
	uint64_t ns;

	for (size_t i = 0; i < N(ok); i++) {
		ns = 12345;
		cr_expect_eq(r0_parse_duration(ok[i].s, &ns), 0, "'%s'", ok[i].s);
		cr_expect_eq(ns, ok[i].ns, "'%s' gave %llu", ok[i].s, (unsigned long long)ns);
	}
	for (size_t i = 0; i < N(bad); i++) {
		ns = 12345;
		cr_expect_eq(r0_parse_duration(bad[i], &ns), -EINVAL, "'%s' accepted", bad[i]);
		cr_expect_eq(ns, 12345u, "'%s' changed the result", bad[i]);
	}
}

Test(age, parse_pct_and_state)
{
	static const char *const bad[] = { "", "0", "101", "-5", "+5", "5.5", "50%%", "x", "50 ", "1000000000000" };
	unsigned pct = 7;
	enum r0_age_state s;

	cr_expect_eq(r0_age_parse_pct("1", &pct), 0);
	cr_expect_eq(pct, 1u);
	cr_expect_eq(r0_age_parse_pct("100", &pct), 0);
	cr_expect_eq(pct, 100u);
	cr_expect_eq(r0_age_parse_pct("90%", &pct), 0);
	cr_expect_eq(pct, 90u);
	for (size_t i = 0; i < N(bad); i++) {
		pct = 7;
		cr_expect_eq(r0_age_parse_pct(bad[i], &pct), -EINVAL, "'%s' accepted", bad[i]);
		cr_expect_eq(pct, 7u);
	}
	for (int i = R0_AGE_EMPTY; i <= R0_AGE_STEADY; i++) {
		cr_expect_eq(r0_age_parse_state(r0_age_state_name((enum r0_age_state)i), &s), 0);
		cr_expect_eq((int)s, i);
	}
	cr_expect_eq(r0_age_parse_state("full", &s), -EINVAL);
	cr_expect_eq(r0_age_parse_state(NULL, &s), -EINVAL);
}

/* every byte of [0, span) once, in order, by the sequential steps of PLAN */
static uint64_t covered(const struct r0_age_plan *plan, enum r0_age_step_kind kind)
{
	uint64_t next = 0;

	for (size_t i = 0; i < plan->n_steps; i++) {
		const struct r0_workload *w = &plan->steps[i].w;

		if (plan->steps[i].kind != kind)
			continue;
		cr_assert_eq(w->access, R0_ACCESS_SEQ);
		cr_assert_eq(w->offset_bytes, next, "step %zu starts at %llu, not %llu", i,
			     (unsigned long long)w->offset_bytes, (unsigned long long)next);
		cr_assert_eq(w->span_bytes % w->block_bytes, 0u, "step %zu: part of a block", i);
		cr_assert_eq(w->size_bytes, 0u, "step %zu: one pass", i);
		cr_assert_eq(w->runtime_ns, 0u);
		next += w->span_bytes;
	}
	return next;
}

Test(age, plan_fill_exact)
{
	static const struct { uint64_t dev; unsigned pct; uint64_t span; size_t steps; } cases[] = {
		{ 64 << 20, 50, 32 << 20, 1 },
		{ 64 << 20, 90, (uint64_t)(64 << 20) * 90 / 100 / 4096 * 4096, 2 },
		{ 64 << 20, 33, (uint64_t)(64 << 20) * 33 / 100 / 4096 * 4096, 2 },
		{ 64 << 20, 100, 64 << 20, 1 },
		{ 12288, 100, 12288, 1 },           /* smaller than one 128K block */
		{ 1000ull << 30, 90, 900ull << 30, 1 },
	};
	struct r0_age_params p;
	struct r0_age_plan plan;
	char why[128];

	for (size_t i = 0; i < N(cases); i++) {
		r0_age_params_init(R0_AGE_FILL, &p);
		p.fill_pct = cases[i].pct;
		cr_assert_eq(r0_age_plan(&p, cases[i].dev, 4096, &plan, why, sizeof(why)), 0, "%s", why);
		cr_expect_eq(plan.n_steps, cases[i].steps, "case %zu: %zu steps", i, plan.n_steps);
		cr_expect_eq(plan.span_bytes, cases[i].span, "case %zu", i);
		cr_expect_eq(plan.planned_bytes, cases[i].span, "case %zu", i);
		cr_expect_eq(covered(&plan, R0_AGE_STEP_FILL), cases[i].span, "case %zu", i);
		cr_expect_eq(plan.steps[0].w.read_pct, 0u, "writes");
		cr_expect_not(plan.steps[0].w.trim);
		if (cases[i].span >= R0_AGE_FILL_BLOCK_BYTES)
			cr_expect_eq(plan.steps[0].w.block_bytes, R0_AGE_FILL_BLOCK_BYTES);
	}
	r0_age_params_init(R0_AGE_FILL, &p);
	p.fill_pct = 1;
	cr_expect_eq(r0_age_plan(&p, 64 << 10, 4096, &plan, why, sizeof(why)), -EINVAL,
		     "1 %% of 64K is less than a 4K block");
	p.fill_pct = 0;
	cr_expect_eq(r0_age_plan(&p, 64 << 20, 4096, &plan, why, sizeof(why)), -EINVAL);
	p.fill_pct = 50;
	cr_expect_eq(r0_age_plan(&p, (64 << 20) + 512, 4096, &plan, why, sizeof(why)), -EINVAL,
		     "a size that is not whole logical blocks");
}

Test(age, plan_empty_discards_everything)
{
	struct r0_age_params p;
	struct r0_age_plan plan;
	uint64_t dev = (1ull << 30) + (12 << 20) + 4096;

	r0_age_params_init(R0_AGE_EMPTY, &p);
	cr_assert_eq(r0_age_plan(&p, dev, 4096, &plan, NULL, 0), 0);
	cr_expect_eq(covered(&plan, R0_AGE_STEP_DISCARD), dev);
	cr_expect_eq(plan.planned_bytes, dev);
	for (size_t i = 0; i < plan.n_steps; i++) {
		cr_expect(plan.steps[i].w.trim);
		cr_expect_eq(plan.steps[i].kind, R0_AGE_STEP_DISCARD);
		cr_expect_leq(plan.steps[i].w.block_bytes, R0_AGE_DISCARD_BLOCK_BYTES);
	}
}

Test(age, plan_used)
{
	struct r0_age_params p;
	struct r0_age_plan plan;
	const struct r0_workload *w;

	r0_age_params_init(R0_AGE_USED, &p);
	p.duration_ns = 3600000000000ULL;
	cr_assert_eq(r0_age_plan(&p, 64 << 20, 512, &plan, NULL, 0), 0);
	cr_assert_eq(plan.steps[plan.n_steps - 1].kind, R0_AGE_STEP_RANDOM);
	cr_expect_eq(covered(&plan, R0_AGE_STEP_FILL), plan.span_bytes);
	cr_expect_eq(plan.span_bytes, (uint64_t)(64 << 20) * 90 / 100 / 512 * 512);
	w = &plan.steps[plan.n_steps - 1].w;
	cr_expect_eq(w->access, R0_ACCESS_RAND);
	cr_expect_eq(w->read_pct, 0u);
	cr_expect_eq(w->block_bytes, 4096u);
	cr_expect_eq(w->queue_depth, 32u);
	cr_expect_eq(w->offset_bytes, 0u);
	cr_expect_eq(w->span_bytes, plan.span_bytes, "random writes over the filled span only");
	cr_expect_eq(w->runtime_ns, 3600000000000ULL);
	p.duration_ns = 0;
	cr_expect_eq(r0_age_plan(&p, 64 << 20, 512, &plan, NULL, 0), -EINVAL);
	p.duration_ns = 1;
	p.block_bytes = 6144;
	cr_expect_eq(r0_age_plan(&p, 64 << 20, 4096, &plan, NULL, 0), -EINVAL, "6K on 4K sectors");
	p.block_bytes = 4096;
	p.queue_depth = 0;
	cr_expect_eq(r0_age_plan(&p, 64 << 20, 4096, &plan, NULL, 0), -EINVAL);
}

Test(age, plan_steady)
{
	struct r0_age_params p;
	struct r0_age_plan plan;
	uint64_t dev = (256 << 20) + 8192;   /* not whole 128K blocks */
	const struct r0_workload *pre, *round;

	r0_age_params_init(R0_AGE_STEADY, &p);
	cr_expect_eq(p.round_ns, 60000000000ULL);
	cr_expect_eq(p.max_rounds, 25u);
	cr_assert_eq(r0_age_plan(&p, dev, 4096, &plan, NULL, 0), 0);
	cr_assert_eq(plan.n_steps, 2u);
	pre = &plan.steps[0].w;
	round = &plan.steps[1].w;
	cr_expect_eq(plan.steps[0].kind, R0_AGE_STEP_PRECONDITION);
	cr_expect_eq(pre->access, R0_ACCESS_SEQ);
	cr_expect_eq(pre->block_bytes, R0_AGE_FILL_BLOCK_BYTES);
	cr_expect_eq(pre->span_bytes, 256 << 20);
	cr_expect_eq(pre->size_bytes, 2 * (256ull << 20), "twice the capacity");
	cr_expect_eq(plan.planned_bytes, 2 * (256ull << 20));
	cr_expect_eq(plan.steps[1].kind, R0_AGE_STEP_ROUND);
	cr_expect_eq(round->access, R0_ACCESS_RAND);
	cr_expect_eq(round->read_pct, 0u);
	cr_expect_eq(round->span_bytes, 0u, "rounds over the whole device");
	cr_expect_eq(round->runtime_ns, p.round_ns);
	p.max_rounds = 4;
	cr_expect_eq(r0_age_plan(&p, dev, 4096, &plan, NULL, 0), -EINVAL, "fewer rounds than a window");
	p.max_rounds = 5;
	p.round_ns = 0;
	cr_expect_eq(r0_age_plan(&p, dev, 4096, &plan, NULL, 0), -EINVAL);
}

static void sample(struct r0_state_record *r)
{
	memset(r, 0, sizeof(*r));
	r0_age_params_init(R0_AGE_STEADY, &r->params);
	r->state = R0_AGE_STEADY;
	r->complete = true;
	snprintf(r->device_path, sizeof(r->device_path), "/dev/nullb0");
	r->devt = makedev(250, 3);
	r->device_bytes = 64 << 20;
	r->params.round_ns = 500000000;
	r->params.max_rounds = 9;
	r->params.seed = 42;
	r->started = 946684799;     /* the last second of 1999 */
	r->finished = 946684922;
	r->seconds = 123.25;
	r->bytes_written = 987654321;
	r->rounds = 7;
	r->steady_round = 7;
	for (unsigned i = 0; i < r->rounds; i++)
		r->round_iops[i] = 1000.5 + i;
	snprintf(r->version, sizeof(r->version), "0.1.0");
}

Test(age, record_round_trip)
{
	static struct r0_state_record a, b;
	json_object *o;

	sample(&a);
	o = r0_state_record_json(&a);
	cr_assert_not_null(o);
	cr_assert_eq(r0_state_record_parse(o, &b), 0);
	cr_expect_eq(b.state, a.state);
	cr_expect_eq(b.complete, a.complete);
	cr_expect_str_eq(b.device_path, a.device_path);
	cr_expect_eq(b.devt, a.devt);
	cr_expect_eq(b.device_bytes, a.device_bytes);
	cr_expect_eq(b.params.round_ns, a.params.round_ns);
	cr_expect_eq(b.params.max_rounds, a.params.max_rounds);
	cr_expect_eq(b.params.block_bytes, a.params.block_bytes);
	cr_expect_eq(b.params.queue_depth, a.params.queue_depth);
	cr_expect_eq(b.params.seed, a.params.seed);
	cr_expect_eq(b.started, a.started);
	cr_expect_eq(b.finished, a.finished);
	cr_expect_float_eq(b.seconds, a.seconds, 1e-9);
	cr_expect_eq(b.bytes_written, a.bytes_written);
	cr_expect_eq(b.rounds, a.rounds);
	cr_expect_eq(b.steady_round, a.steady_round);
	for (unsigned i = 0; i < a.rounds; i++)
		cr_expect_float_eq(b.round_iops[i], a.round_iops[i], 1e-9);
	cr_expect_str_eq(b.version, a.version);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "started")),
			 "1999-12-31T23:59:59Z");
	json_object_put(o);

	/* fill: the steady part and the parameters that do not apply are null */
	memset(&a, 0, sizeof(a));
	r0_age_params_init(R0_AGE_FILL, &a.params);
	a.state = R0_AGE_FILL;
	a.params.fill_pct = 50;
	a.devt = makedev(8, 0);
	o = r0_state_record_json(&a);
	cr_assert_not_null(o);
	cr_expect_null(json_object_object_get(o, "steady"));
	cr_expect_null(json_object_object_get(json_object_object_get(o, "parameters"), "round_s"));
	cr_assert_eq(r0_state_record_parse(o, &b), 0);
	cr_expect_eq(b.params.fill_pct, 50u);
	cr_expect_eq(b.rounds, 0u);
	json_object_put(o);
}

Test(age, record_parse_refuses)
{
	static struct r0_state_record a, b;
	static const char *const bad[] = {
		"[]", "{}",
		"{\"r0kit_schema\": \"r0bench/1\"}",
	};
	json_object *o;

	for (size_t i = 0; i < N(bad); i++) {
		o = json_tokener_parse(bad[i]);
		cr_expect_eq(r0_state_record_parse(o, &b), -EINVAL, "%s", bad[i]);
		json_object_put(o);
	}
	sample(&a);
	/* each required member removed in turn */
	static const char *const keys[] = {
		"state", "complete", "device", "parameters", "started", "finished", "seconds",
		"bytes_written", "bytes_discarded", "steady", "version",
	};
	for (size_t i = 0; i < N(keys); i++) {
		o = r0_state_record_json(&a);
		json_object_object_del(o, keys[i]);
		cr_expect_eq(r0_state_record_parse(o, &b), -EINVAL, "without %s", keys[i]);
		json_object_put(o);
	}
	o = r0_state_record_json(&a);
	json_object_object_add(o, "state", json_object_new_string("full"));
	cr_expect_eq(r0_state_record_parse(o, &b), -EINVAL, "unknown state");
	json_object_put(o);
	o = r0_state_record_json(&a);
	json_object_object_add(json_object_object_get(o, "steady"), "rounds", json_object_new_int(8));
	cr_expect_eq(r0_state_record_parse(o, &b), -EINVAL, "rounds and round_iops disagree");
	json_object_put(o);
}

Test(age, save_and_load)
{
	static struct r0_state_record a, b;
	char dir[] = "/tmp/r0-age-test.XXXXXX", sub[128], path[256];
	json_object *o, *back = NULL;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/run/r0kit/state", dir);
	sample(&a);
	cr_expect_eq(r0_state_load_dir(sub, a.devt, &back), -ENOENT, "nothing saved yet");
	o = r0_state_record_json(&a);
	cr_assert_eq(r0_state_save_dir(sub, a.devt, o), 0, "creates the directories");
	snprintf(path, sizeof(path), "%s/250:3.json", sub);
	cr_expect_eq(access(path, R_OK), 0, "one file per device, named MAJ:MIN.json");
	cr_assert_eq(r0_state_load_dir(sub, a.devt, &back), 0);
	cr_assert_eq(r0_state_record_parse(back, &b), 0);
	cr_expect_eq(b.bytes_written, a.bytes_written);
	json_object_put(back);
	/* a second run replaces the record */
	a.bytes_written = 5;
	json_object_put(o);
	o = r0_state_record_json(&a);
	cr_assert_eq(r0_state_save_dir(sub, a.devt, o), 0);
	cr_assert_eq(r0_state_load_dir(sub, a.devt, &back), 0);
	cr_assert_eq(r0_state_record_parse(back, &b), 0);
	cr_expect_eq(b.bytes_written, 5u);
	json_object_put(back);
	memset(&b, 0, sizeof(b));
	cr_assert_eq(r0_state_read_dir(sub, a.devt, &b), 0, "the record's members without its JSON");
	cr_expect_eq(b.bytes_written, 5u);
	cr_expect_eq(b.state, a.state);
	/* another device has none; a record filed under the wrong number is refused */
	cr_expect_eq(r0_state_load_dir(sub, makedev(250, 4), &back), -ENOENT);
	cr_assert_eq(r0_state_save_dir(sub, makedev(250, 4), o), 0);
	cr_expect_eq(r0_state_load_dir(sub, makedev(250, 4), &back), -EINVAL);
	cr_expect_eq(r0_state_read_dir(sub, makedev(250, 4), &b), -EINVAL);
	cr_expect_eq(r0_state_read_dir(sub, makedev(250, 6), &b), -ENOENT);
	/* not JSON */
	snprintf(path, sizeof(path), "%s/250:5.json", sub);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("{ not json", f);
	fclose(f);
	cr_expect_eq(r0_state_load_dir(sub, makedev(250, 5), &back), -EINVAL);
	/* another tool wrote the device: its record is gone, the others stay; none is no error */
	cr_expect_eq(r0_state_forget_dir(sub, a.devt), 0);
	cr_expect_eq(r0_state_load_dir(sub, a.devt, &back), -ENOENT);
	cr_expect_eq(r0_state_forget_dir(sub, a.devt), 0);
	cr_expect_eq(access(path, F_OK), 0, "another device's file kept");
	json_object_put(o);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	cr_expect_eq(system(path), 0);
}
