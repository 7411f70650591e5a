// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library's parsers that fill fixed arrays from a list: the last item
 * that fits is taken, one item too many is refused (never written past
 * the array). The tools' own list options (r0sweep --preset, --qd,
 * --chunks; r0probe -o) are checked the same way in the sandbox tests
 * 043-r0sweep-list-bounds and 012-r0probe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <json-c/json.h>

#include "r0/age.h"
#include "r0/mix.h"
#include "r0/resultfiles.h"

/* "k0=1,k1=1,...": n weights */
static char *mix_of(unsigned n)
{
	char *s = calloc(n, 16);

	cr_assert_not_null(s);
	for (unsigned i = 0; i < n; i++)
		sprintf(s + strlen(s), "%sk%u=1", i ? "," : "", i);
	return s;
}

Test(lists, mix_takes_r0_mix_max_weights)
{
	struct r0_mix m;
	char *full = mix_of(R0_MIX_MAX), *over = mix_of(R0_MIX_MAX + 1);

	cr_expect_eq(r0_mix_parse(full, &m), 0);
	cr_expect_eq(m.n, R0_MIX_MAX);
	cr_expect_eq(r0_mix_parse(over, &m), -EINVAL, "%u weights", R0_MIX_MAX + 1);
	free(full);
	free(over);
}

/* an r0trim/1 document with n members and N_RANGES ranges, each naming the first */
static void trim_doc(const char *path, unsigned n, unsigned n_ranges)
{
	json_object *o = json_object_new_object(), *ms = json_object_new_array();
	json_object *rs = json_object_new_array();
	char name[16];

	json_object_object_add(o, "r0kit_schema", json_object_new_string("r0trim/1"));
	json_object_object_add(o, "device", json_object_new_string("/dev/md_r0-t"));
	json_object_object_add(o, "verdict", json_object_new_string("PASS"));
	json_object_object_add(o, "size_bytes", json_object_new_int64(1 << 20));
	json_object_object_add(o, "chunk_bytes", json_object_new_int64(65536));
	json_object_object_add(o, "discards_pass", json_object_new_boolean(1));
	for (unsigned i = 0; i < n; i++) {
		json_object *m = json_object_new_object();

		snprintf(name, sizeof(name), "m%u", i);
		json_object_object_add(m, "name", json_object_new_string(name));
		json_object_array_add(ms, m);
	}
	json_object_object_add(o, "members", ms);
	json_object_object_add(o, "checks", json_object_new_array());
	for (unsigned i = 0; i < n_ranges; i++) {
		json_object *r = json_object_new_object(), *d = json_object_new_object();
		json_object *dm = json_object_new_array(), *m0 = json_object_new_object();

		json_object_object_add(m0, "member", json_object_new_string("m0"));
		json_object_object_add(m0, "expected_sectors", json_object_new_int64(128));
		json_object_object_add(m0, "observed_sectors", json_object_new_int64(128));
		json_object_array_add(dm, m0);
		json_object_object_add(d, "verdict", json_object_new_string("PASS"));
		json_object_object_add(d, "members", dm);
		json_object_object_add(r, "name", json_object_new_string("one chunk"));
		json_object_object_add(r, "start_bytes", json_object_new_int64(0));
		json_object_object_add(r, "length_bytes", json_object_new_int64(65536));
		json_object_object_add(r, "delivery", d);
		json_object_array_add(rs, r);
	}
	json_object_object_add(o, "ranges", rs);
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
}

Test(lists, trim_document_takes_r0_trimres_members)
{
	struct r0_trimres *t = calloc(1, sizeof(*t));
	char path[] = "/tmp/r0-lists-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	trim_doc(path, R0_TRIMRES_MEMBERS, 1);
	cr_expect_eq(r0_trimres_load(path, t), 0);
	cr_expect_eq(t->n_members, R0_TRIMRES_MEMBERS);
	trim_doc(path, R0_TRIMRES_MEMBERS + 1, 1);
	cr_expect_eq(r0_trimres_load(path, t), -ERANGE, "%u members", R0_TRIMRES_MEMBERS + 1);
	/* ranges as members: all of them read, or the document refused, never cut unsaid */
	trim_doc(path, 2, R0_TRIMRES_RANGES);
	cr_expect_eq(r0_trimres_load(path, t), 0);
	cr_expect_eq(t->n_ranges, R0_TRIMRES_RANGES);
	trim_doc(path, 2, R0_TRIMRES_RANGES + 1);
	cr_expect_eq(r0_trimres_load(path, t), -ERANGE, "%u ranges", R0_TRIMRES_RANGES + 1);
	unlink(path);
	free(t);
}

Test(lists, state_record_takes_r0_age_rounds_max)
{
	static struct r0_state_record a, b;
	json_object *o, *st;

	r0_age_params_init(R0_AGE_STEADY, &a.params);
	a.state = R0_AGE_STEADY;
	a.complete = true;
	snprintf(a.device_path, sizeof(a.device_path), "/dev/nullb0");
	snprintf(a.version, sizeof(a.version), "0.1.0");
	a.params.round_ns = 500000000;
	a.params.max_rounds = R0_AGE_ROUNDS_MAX;
	a.rounds = R0_AGE_ROUNDS_MAX;
	for (unsigned i = 0; i < a.rounds; i++)
		a.round_iops[i] = 1000 + i;
	o = r0_state_record_json(&a);
	cr_assert_not_null(o);
	cr_expect_eq(r0_state_record_parse(o, &b), 0);
	cr_expect_eq(b.rounds, R0_AGE_ROUNDS_MAX);
	/* one round more than the record can hold, rounds in agreement */
	st = json_object_object_get(o, "steady");
	json_object_array_add(json_object_object_get(st, "round_iops"), json_object_new_double(1));
	json_object_object_add(st, "rounds", json_object_new_int((int)R0_AGE_ROUNDS_MAX + 1));
	cr_expect_eq(r0_state_record_parse(o, &b), -EINVAL, "%u rounds", R0_AGE_ROUNDS_MAX + 1);
	json_object_put(o);
}
