// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/resultfiles.h: the schema of a result file, r0trim's JSON
 * document and a scenario's JSON lines, on hand-made files. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/age.h"
#include "r0/resultfiles.h"

/* writes TEXT to a new temporary file; its path goes to PATH (freed by the caller's unlink) */
static void put(char *path, const char *text)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static const char trim_doc[] =
	"{\n  \"r0kit_schema\":\"r0trim/1\",\n  \"device\":\"/dev/md_r0-t\",\n"
	"  \"description\":\"md raid0, 2 members, chunk 64K\",\n  \"kernel\":\"6.12\",\n"
	"  \"size_bytes\":1048576,\n  \"chunk_bytes\":65536,\n"
	"  \"members\":[{\"name\":\"a\"},{\"name\":\"b\"}],\n"
	"  \"checks\":[{\"check\":\"geometry\",\"verdict\":\"PASS\"},{\"check\":\"delivery\",\"verdict\":\"FAIL\"},"
	"{\"check\":\"effect\",\"verdict\":\"NOT CONCLUSIVE\"}],\n"
	"  \"ranges\":[{\"name\":\"one chunk\",\"start_bytes\":65536,\"length_bytes\":65536,"
	"\"delivery\":{\"verdict\":\"FAIL\",\"members\":["
	"{\"member\":\"b\",\"expected_sectors\":128,\"observed_sectors\":0},"
	"{\"member\":\"a\",\"expected_sectors\":0,\"observed_sectors\":0}]}}],\n"
	"  \"verdict\":\"FAIL\",\n  \"discards_pass\":false\n}\n";

Test(results, kind_by_schema)
{
	static const struct { const char *text; int err; enum r0_result_kind kind; } t[] = {
		{ "{\"schema\":\"r0sweep/1\",\"type\":\"cell\"}\n", 0, R0_RESULT_SWEEP },
		{ trim_doc, 0, R0_RESULT_TRIM },
		{ "{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0}\n{\"r0kit_schema\":\"r0scenario/1\"}\n", 0,
		  R0_RESULT_SCENARIO },
		{ "{\"r0kit_schema\":\"r0age-state/1\"}\n", 0, R0_RESULT_AGE },
		{ "{\"r0kit_schema\":\"r0age-state/2\"}\n", -EINVAL, 0 },
		{ "{\"schema\":1}\n", -EINVAL, 0 },
		{ "not json\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char path[] = "/tmp/r0-test-kind-XXXXXX";
		enum r0_result_kind k = 99;

		put(path, t[i].text);
		cr_expect_eq(r0_result_kind(path, &k), t[i].err, "case %zu", i);
		if (!t[i].err)
			cr_expect_eq(k, t[i].kind, "case %zu", i);
		unlink(path);
	}
	cr_expect_eq(r0_result_kind("/nonexistent/r0", &(enum r0_result_kind){ 0 }), -ENOENT);
	/* a directory given as a result: said as such, not an I/O error */
	cr_expect_eq(r0_result_kind("/tmp", &(enum r0_result_kind){ 0 }), -EISDIR);
}

/* TRIM_DOC with FROM replaced by TO, loaded: its r0_trimres_load status */
static int trim_edited(const char *from, const char *to)
{
	char doc[sizeof(trim_doc) + 64], path[] = "/tmp/r0-test-trim-XXXXXX";
	const char *at = strstr(trim_doc, from);
	struct r0_trimres *t = calloc(1, sizeof(*t));
	int err;

	cr_assert(at && t, "%s", from);
	snprintf(doc, sizeof(doc), "%.*s%s%s", (int)(at - trim_doc), trim_doc, to, at + strlen(from));
	put(path, doc);
	err = r0_trimres_load(path, t);
	unlink(path);
	free(t);
	return err;
}

/* an edited or damaged verdict is refused, never reported: one r0trim does not write, or its evidence's opposite */
Test(results, trim_verdict_must_agree)
{
	cr_expect_eq(trim_edited("\"verdict\":\"FAIL\",\n", "\"verdict\":\"PSAS\",\n"), -EBADMSG, "a typo");
	cr_expect_eq(trim_edited("\"verdict\":\"FAIL\",\n  \"discards_pass\":false",
				 "\"verdict\":\"PASS\",\n  \"discards_pass\":true"), -EBADMSG, "PASS over a failed check");
	cr_expect_eq(trim_edited("\"discards_pass\":false", "\"discards_pass\":true"), -EBADMSG,
		     "FAIL that passes discards");
	cr_expect_eq(trim_edited("{\"check\":\"effect\",\"verdict\":\"NOT CONCLUSIVE\"}",
				 "{\"check\":\"effect\",\"verdict\":\"MAYBE\"}"), -EBADMSG, "a check's typo");
	cr_expect_eq(trim_edited("\"verdict\":\"FAIL\",\n", "\"verdict\":\"FAIL\",\n"), 0, "as written");
}

Test(results, trim_document)
{
	char path[] = "/tmp/r0-test-trim-XXXXXX";
	struct r0_trimres *t = calloc(1, sizeof(*t));

	cr_assert(t);
	put(path, trim_doc);
	cr_assert_eq(r0_trimres_load(path, t), 0);
	unlink(path);
	cr_expect_str_eq(t->device, "/dev/md_r0-t");
	cr_expect_str_eq(t->verdict, "FAIL");
	cr_expect(!t->pass);
	cr_expect_eq(t->chunk_bytes, 65536);
	cr_expect_eq(t->n_members, 2);
	cr_expect_eq(t->n_checks, 3);
	cr_expect_eq(t->n_pass, 1);
	cr_expect_eq(t->n_fail, 1);
	cr_assert_eq(t->n_ranges, 1);
	/* members matched by name, not by their order in the range */
	cr_expect_eq(t->range[0].expected[1], 128);
	cr_expect_eq(t->range[0].observed[1], 0);
	cr_expect_eq(t->range[0].expected[0], 0);
	cr_expect_str_eq(t->range[0].verdict, "FAIL");
	cr_expect_eq(t->layer, R0_LAYER_MD, "the array checked, by its description");
	/* a single device has no chunk: null, read as none */
	{
		char one[sizeof(trim_doc) + 8], path1[] = "/tmp/r0-test-trim-XXXXXX";
		char *at = strstr(strcpy(one, trim_doc), "65536,\n");

		cr_assert(at);
		memcpy(at, "null, \n", 7);
		put(path1, one);
		cr_expect_eq(r0_trimres_load(path1, t), 0);
		unlink(path1);
		cr_expect_eq(t->chunk_bytes, 0);
	}
	free(t);
}

/* Which array a check was of: the stripe itself as r0trim names it; anything over or under it is none. */
Test(results, trim_document_names_its_array)
{
	static const struct { const char *desc; enum r0_layer layer; } t[] = {
		{ "md raid0, 2 members, chunk 64K", R0_LAYER_MD },
		{ "dm striped, 3 members, chunk 512K", R0_LAYER_DM },
		{ "crypt over 3 bottom devices", R0_LAYER_RAW },
		{ "disk, checked as a single device", R0_LAYER_RAW },
		{ "md raid0 but written by hand", R0_LAYER_RAW },
	};
	struct r0_trimres *r = calloc(1, sizeof(*r));

	cr_assert(r);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char doc[sizeof(trim_doc) + 64], path[] = "/tmp/r0-test-trimarr-XXXXXX";
		const char *at = strstr(trim_doc, "md raid0, 2 members, chunk 64K");

		cr_assert(at);
		snprintf(doc, sizeof(doc), "%.*s%s%s", (int)(at - trim_doc), trim_doc, t[i].desc,
			 at + strlen("md raid0, 2 members, chunk 64K"));
		put(path, doc);
		cr_expect_eq(r0_trimres_load(path, r), 0, "case %zu", i);
		unlink(path);
		cr_expect_eq(r->layer, t[i].layer, "case %zu: %s", i, t[i].desc);
	}
	free(r);
}

Test(results, trim_document_refused)
{
	static const char *bad[] = {
		"{\"r0kit_schema\":\"r0scenario/1\"}\n",   /* another schema */
		"{\"r0kit_schema\":\"r0trim/1\",\"device\":\"/dev/x\"}\n",   /* keys missing */
	};
	struct r0_trimres *t = calloc(1, sizeof(*t));
	char *doc = strdup(trim_doc), *p;

	cr_assert(t && doc);
	for (size_t i = 0; i < 2; i++) {
		char path[] = "/tmp/r0-test-trimbad-XXXXXX";

		put(path, bad[i]);
		cr_expect_eq(r0_trimres_load(path, t), -EINVAL, "case %zu", i);
		unlink(path);
	}
	/* a range naming a member the document does not list */
	p = strstr(doc, "{\"member\":\"a\"");
	cr_assert(p);
	p[11] = 'z';
	{
		char path[] = "/tmp/r0-test-trimbad-XXXXXX";

		put(path, doc);
		cr_expect_eq(r0_trimres_load(path, t), -EINVAL);
		unlink(path);
	}
	free(doc);
	free(t);
}

/* r0trim -J --watch: a FAIL, the second device stopped (its fields as r0trim writes them) */
static const char watch_doc[] =
	"{\"r0kit_schema\":\"r0trim/1\",\"mode\":\"watch\",\"device\":\"/dev/md127\",\"kernel_name\":\"md127\","
	"\"description\":\"md raid0, 2 members, chunk 64K\",\"kernel\":\"6.12\",\"size_bytes\":1048576,"
	"\"chunk_bytes\":65536,\"members\":[{\"name\":\"a\"},{\"name\":\"b\"}],"
	"\"watch\":{\"record_file\":\"/var/lib/r0trim.jsonl\",\"watched\":\"/srv\",\"records\":3,\"intervals\":2,"
	"\"reboots\":0,\"since\":\"2025-01-30T06:00:00Z\",\"skipped_lines\":0,\"shares_from_geometry\":true,"
	"\"detail\":\"b stopped receiving discards after 2025-01-31 06:00 while the others got 1G\",\"devices\":["
	"{\"name\":\"a\",\"serial\":\"S1\",\"discarded_bytes\":2147483648,\"observed_share\":1,\"predicted_share\":0.5},"
	"{\"name\":\"b\",\"serial\":\"\",\"discarded_bytes\":0,\"observed_share\":0,\"predicted_share\":0.5,"
	"\"stopped_since\":\"2025-01-31T06:00:00Z\",\"others_since_bytes\":1073741824}]},"
	"\"checks\":[],\"ranges\":[],\"cycles\":[],\"verdict\":\"FAIL\",\"discards_pass\":false,\"reason\":\"b stopped\"}\n";

Test(results, trim_watch_document)
{
	char path[] = "/tmp/r0-test-watch-XXXXXX";
	struct r0_trimres *t = calloc(1, sizeof(*t));
	const struct r0_trimres_wdev *a, *b;

	cr_assert(t);
	put(path, watch_doc);
	cr_assert_eq(r0_trimres_load(path, t), 0);
	unlink(path);
	cr_expect(t->watch);
	cr_expect_str_eq(t->verdict, "FAIL");
	cr_expect(!t->pass);
	cr_expect_eq(t->n_ranges, 0);
	cr_expect_str_eq(t->w.record_file, "/var/lib/r0trim.jsonl");
	cr_expect_str_eq(t->w.since, "2025-01-30T06:00:00Z");
	cr_expect_eq(t->w.records, 3);
	cr_expect_eq(t->w.intervals, 2);
	cr_expect(strstr(t->w.detail, "b stopped receiving discards"));
	cr_assert_eq(t->w.n_devices, 2);
	a = &t->w.dev[0];
	b = &t->w.dev[1];
	cr_expect_str_eq(a->serial, "S1");
	cr_expect_eq(a->discarded_bytes, 2147483648u);
	cr_expect_eq(a->observed_share, 1, "an integer in JSON is a share too");
	cr_expect_eq(a->predicted_share, 0.5);
	cr_expect_str_eq(a->stopped_since, "");
	cr_expect_str_eq(b->name, "b");
	cr_expect_str_eq(b->stopped_since, "2025-01-31T06:00:00Z");
	cr_expect_eq(b->others_since_bytes, 1073741824u);
	/* another mode: no watch */
	put(strcpy(path, "/tmp/r0-test-watch-XXXXXX"), trim_doc);
	cr_assert_eq(r0_trimres_load(path, t), 0);
	unlink(path);
	cr_expect(!t->watch);
	free(t);
}

/* a watch document whose "watch" lacks what r0report shows is refused, as is one of too many devices */
Test(results, trim_watch_document_refused)
{
	static const struct { const char *from, *to; int err; } t[] = {
		{ "\"watch\":{", "\"watxh\":{", -EINVAL },                       /* no watch object */
		{ "\"since\":", "\"sincx\":", -EINVAL },
		{ "\"discarded_bytes\":0", "\"discarded_bytes\":-1", -EINVAL },
		{ "\"predicted_share\":0.5,\"stopped", "\"predicted_share\":null,\"stopped", -EINVAL },
		{ "\"others_since_bytes\"", "\"others_xince_bytes\"", -EINVAL },  /* stopped, but since when the others got what? */
	};
	struct r0_trimres *r = calloc(1, sizeof(*r));
	const size_t len = sizeof(watch_doc) + 64 * 1024;
	char *doc = malloc(len);

	cr_assert(r && doc);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char path[] = "/tmp/r0-test-watchbad-XXXXXX";
		const char *p = strstr(watch_doc, t[i].from);

		cr_assert(p, "case %zu", i);
		snprintf(doc, len, "%.*s%s%s", (int)(p - watch_doc), watch_doc, t[i].to,
			 p + strlen(t[i].from));
		put(path, doc);
		cr_expect_eq(r0_trimres_load(path, r), t[i].err, "case %zu", i);
		unlink(path);
	}
	/* R0_TRIMRES_MEMBERS + 1 devices */
	{
		char path[] = "/tmp/r0-test-watchbad-XXXXXX";
		const char *p = strstr(watch_doc, "\"devices\":[") + strlen("\"devices\":["), *q = strstr(p, "{\"name\":\"b\"");
		size_t n = (size_t)(p - watch_doc);

		memcpy(doc, watch_doc, n);
		for (unsigned k = 0; k < R0_TRIMRES_MEMBERS; k++)
			n += (size_t)sprintf(doc + n, "%.*s", (int)(q - p), p);
		strcpy(doc + n, q);
		put(path, doc);
		cr_expect_eq(r0_trimres_load(path, r), -ERANGE);
		unlink(path);
	}
	free(doc);
	free(r);
}

#define LINE(trim, cycle, iops, waf)                                                                   \
	"{\"r0kit_schema\":\"r0scenario/1\",\"scenario\":\"s\",\"array\":\"r0s" #trim "\",\"members\":2,"  \
	"\"ssd_mib\":64,\"trim\":" #trim ",\"cycle\":" #cycle ",\"fill_pct\":90,\"bench_s\":3,"          \
	"\"randwrite_iops\":" #iops ",\"randwrite_mb_s\":1.5,\"seqwrite_mb_s\":2,\"waf_randwrite\":" #waf "," \
	"\"waf_cycle\":null,\"mapped_before_bench_pct\":12.5}\n"

Test(results, scenario_lines)
{
	char path[] = "/tmp/r0-test-scen-XXXXXX";
	struct r0_scenario s = { 0 };
	const struct r0_scenario_cycle *r;
	struct r0_sweep_damage d = { 99, 99, false };

	put(path, LINE(true, 0, 9000, 1.0) LINE(false, 0, 9100, 1.0) "\n" "{\"r0kit_schema\":\"r0scenario/1\"}\n"
		  LINE(true, 1, 9800, 1.0) LINE(false, 1, 1600, 5.5) LINE(false, 1, 1500, 5.6)
		  "{\"r0kit_schema\":\"r0scenario/1\",\"trim\":true,\"cycle\":2");   /* cut short */
	cr_assert_eq(r0_scenario_load(path, &s, &d), 0);
	unlink(path);
	cr_expect_eq(d.bad, 2, "the key-less line and the cut one");
	cr_expect(d.first_bad == 4 && d.cut_tail && r0_sweep_damage_inside(&d), "first %u cut %d", d.first_bad,
		  d.cut_tail);
	cr_expect_eq(s.n, 5);
	cr_expect_eq(s.max_cycle, 1);
	r = r0_scenario_find(&s, false, 1);
	cr_assert(r);
	cr_expect_eq(r->randwrite_iops, 1500, "the last line for that array and cycle");
	cr_expect_eq(r->waf_randwrite, 5.6);
	cr_expect(isnan(r->waf_cycle), "null is NAN");
	cr_expect(isnan(r->mapped_after_delete_pct), "missing is NAN");
	cr_expect_eq(r->mapped_before_bench_pct, 12.5);
	cr_expect_eq(r->seqwrite_mb_s, 2);
	cr_expect_eq(r->ssd_mib, 64);
	r = r0_scenario_find(&s, true, 0);
	cr_assert(r);
	cr_expect(r->trim);
	cr_expect_str_eq(r->array, "r0strue");
	cr_expect_null(r0_scenario_find(&s, true, 2));
	r0_scenario_free(&s);
	cr_expect_eq(s.n, 0);
}

Test(results, scenario_nothing_readable)
{
	char path[] = "/tmp/r0-test-scen0-XXXXXX";
	struct r0_scenario s = { 0 };
	struct r0_sweep_damage d = { 0 };

	put(path, "{\"schema\":\"r0sweep/1\"}\nnot json\n");
	cr_expect_eq(r0_scenario_load(path, &s, &d), -EINVAL);
	cr_expect_eq(d.bad, 2);
	cr_expect_eq(s.n, 0);
	unlink(path);
	r0_scenario_free(&s);
}

Test(results, age_record_loads_and_refuses_others)
{
	char path[] = "/tmp/r0-unit-age-XXXXXX";
	struct r0_state_record r;
	int fd = mkstemp(path);
	static const char bad[] = "{\"r0kit_schema\":\"r0age-state/1\",\"state\":\"steady\"}\n";

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, bad, sizeof(bad) - 1), (ssize_t)(sizeof(bad) - 1));
	close(fd);
	cr_expect_eq(r0_ageres_load(path, &r), -EINVAL, "a record without its members is refused");
	unlink(path);
	cr_expect_eq(r0_ageres_load("/nonexistent/r0", &r), -ENOENT);
}

/* TEXT's r0_result_digest */
static uint64_t digest_of(const char *text)
{
	char path[] = "/tmp/r0-test-digest-XXXXXX";
	uint64_t d = 0;

	put(path, text);
	cr_assert_eq(r0_result_digest(path, &d), 0);
	unlink(path);
	return d;
}

/* a copy is the same results however it is written: re-serialised, CRLF, keys reordered, a BOM */
Test(results, digest_by_content)
{
	static const char lines[] = "{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":1.5}\n"
				    "{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":1,\"iops\":2}\n";
	uint64_t doc = digest_of(trim_doc), scen = digest_of(lines);

	cr_expect_eq(digest_of(trim_doc), doc);
	cr_expect_eq(digest_of("{\"r0kit_schema\": \"r0scenario/1\", \"iops\": 1.50, \"cycle\": 0}\r\n"
			       "{\"cycle\": 1.0, \"iops\": 2e0, \"r0kit_schema\": \"r0scenario/1\"}\r\n"), scen);
	cr_expect_eq(digest_of("\xef\xbb\xbf{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":1.5}"
			       "{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":1,\"iops\":2}"), scen);
	/* another figure, another value's type, the lines in another order, one line less: other results */
	cr_expect_neq(digest_of("{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":1.6}\n"
				"{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":1,\"iops\":2}\n"), scen);
	cr_expect_neq(digest_of("{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":\"1.5\"}\n"
				"{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":1,\"iops\":2}\n"), scen);
	cr_expect_neq(digest_of("{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":1,\"iops\":2}\n"
				"{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":1.5}\n"), scen);
	cr_expect_neq(digest_of("{\"r0kit_schema\":\"r0scenario/1\",\"cycle\":0,\"iops\":1.5}\n"), scen);
	cr_expect_neq(digest_of("{\"a\":{\"b\":1,\"c\":2}}"), digest_of("{\"a\":{\"b\":2,\"c\":1}}"));
	/* text that does not parse counts by its bytes */
	cr_expect_neq(digest_of("not json\n"), digest_of("not json \n"));
	cr_expect_eq(r0_result_digest("/nonexistent/r0", &(uint64_t){ 0 }), -ENOENT);
}
