// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimjson.h: the r0trim/1 document of each mode, key for key, and read back by r0_trimres_load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/buildid.h"
#include "r0/resultfiles.h"
#include "r0/trimjson.h"

static const struct r0_discard_limits lim = {
	.granularity_bytes = 4096, .max_bytes = 1 << 20, .max_hw_bytes = 1 << 21,
	.write_zeroes_max_bytes = 0, .logical_block_bytes = 512,
};

/* md127, raid0 of sda and of dm-3, a flakey device over sdb: one member direct, one a chain */
static struct r0_trim_device *md_target(void)
{
	struct r0_trim_device *t = calloc(1, sizeof(*t));
	struct r0_trim_stack *s = &t->stack;
	int top, fl, a, b;

	cr_assert(t);
	snprintf(t->kname, sizeof(t->kname), "md127");
	snprintf(t->desc, sizeof(t->desc), "md raid0, 2 members, chunk 64K");
	t->kind = R0_TRIM_MD;
	t->md_layout = 2;
	t->size_sectors = 8192;
	t->geo.chunk_sectors = 128;
	t->geo.n_zones = 1;
	t->lim = lim;
	t->n_members = 2;
	for (unsigned i = 0; i < 2; i++) {
		t->geo.used_sectors[i] = 4096;
		t->geo.data_offset_sectors[i] = 2048;
		t->members[i].lim = lim;
	}
	snprintf(t->members[0].kname, sizeof(t->members[0].kname), "sda");
	snprintf(t->members[0].chain_kname[0], sizeof(t->members[0].chain_kname[0]), "sda");
	t->members[0].reads = R0_READS_ZEROES;
	snprintf(t->members[0].reads_why, sizeof(t->members[0].reads_why), "SCSI LBPRZ=1");
	snprintf(t->members[1].kname, sizeof(t->members[1].kname), "dm-3");
	t->members[1].depth = 1;
	snprintf(t->members[1].chain_kname[0], sizeof(t->members[1].chain_kname[0]), "dm-3");
	snprintf(t->members[1].chain_type[0], sizeof(t->members[1].chain_type[0]), "flakey");
	snprintf(t->members[1].chain_kname[1], sizeof(t->members[1].chain_kname[1]), "sdb");
	snprintf(t->members[1].reads_why, sizeof(t->members[1].reads_why), "no promise");
	r0_trim_stack_init(s);
	top = r0_trim_stack_add(s, R0_NODE_STRIPE, "md127", "md raid0 md127");
	a = r0_trim_stack_add(s, R0_NODE_DEVICE, "sda", "disk sda");
	fl = r0_trim_stack_add(s, R0_NODE_ONE, "dm-3", "dm-flakey r0-fl");
	b = r0_trim_stack_add(s, R0_NODE_DEVICE, "sdb", "disk sdb");
	cr_assert(top == 0 && a > 0 && fl > 0 && b > 0);
	s->node[top].child[s->node[top].n_children++] = (unsigned)a;
	s->node[top].child[s->node[top].n_children++] = (unsigned)fl;
	s->node[fl].child[s->node[fl].n_children++] = (unsigned)b;
	return t;
}

static char *plain(json_object *o)
{
	json_object *v;
	char *s;

	/* the build's commit varies (r0_build_id): the version it starts with is compared */
	if (json_object_object_get_ex(o, "version", &v)) {
		cr_expect_str_eq(json_object_get_string(v), r0_build_id());
		json_object_object_add(o, "version", json_object_new_string(R0_VERSION));
	}
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));

	cr_assert(s);
	json_object_put(o);
	return s;
}

/* DOC written as r0trim prints it, into a temporary file; its path (free it). */
static char *written(const struct r0_trim_doc *doc)
{
	char *path = strdup("/tmp/r0-unit-trimjson-XXXXXX");
	json_object *o = r0_trim_to_json(doc);
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert(o && f);
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	fclose(f);
	json_object_put(o);
	return path;
}

#define HEAD(device)                                                                                       \
	"\"device\":\"" device "\",\"kernel_name\":\"md127\",\"description\":\"md raid0, 2 members, chunk 64K\","  \
	"\"kernel\":\"6.12.0\",\"size_bytes\":4194304,\"chunk_bytes\":65536,\"zones\":1,\"md_layout\":2,"          \
	"\"limits\":" LIMITS ",\"members\":["                                                                      \
	"{\"name\":\"sda\",\"stack\":[{\"name\":\"sda\"}],\"counted_at\":\"sda\",\"reads_after_discard\":\"zeroes\"," \
	"\"reads_after_discard_source\":\"SCSI LBPRZ=1\",\"used_sectors\":4096,\"data_offset_sectors\":2048,"       \
	"\"limits\":" LIMITS "},"                                                                                  \
	"{\"name\":\"dm-3\",\"stack\":[{\"name\":\"dm-3\",\"dm_target\":\"flakey\"},{\"name\":\"sdb\"}],"          \
	"\"counted_at\":\"sdb\",\"reads_after_discard\":\"unknown\",\"reads_after_discard_source\":\"no promise\"," \
	"\"used_sectors\":4096,\"data_offset_sectors\":2048,\"limits\":" LIMITS "}],"                              \
	"\"layers\":[{\"name\":\"md127\",\"layer\":\"md raid0 md127\",\"description\":\"md raid0 md127 over sda, dm-3\"," \
	"\"drops_discards\":false},{\"name\":\"dm-3\",\"layer\":\"dm-flakey r0-fl\","                              \
	"\"description\":\"dm-flakey r0-fl over sdb\",\"drops_discards\":false}],"
#define LIMITS                                                                                             \
	"{\"discard_granularity_bytes\":4096,\"discard_max_bytes\":1048576,\"discard_max_hw_bytes\":2097152,"    \
	"\"discard_alignment_bytes\":0,\"write_zeroes_max_bytes\":0,\"logical_block_bytes\":512}"
#define EFFECT                                                                                             \
	"{\"verdict\":\"PASS\",\"discarded_ok_sectors\":128,\"discarded_bad_sectors\":0,\"unchecked_sectors\":128," \
	"\"intact_ok_sectors\":512,\"intact_bad_sectors\":0,\"member_discarded_ok_sectors\":128,"                  \
	"\"member_discarded_bad_sectors\":0,\"member_intact_ok_sectors\":256,\"member_intact_bad_sectors\":0,"     \
	"\"first_bad_array_sector\":-1}"
#define COUNTS(e0, o0, e1, o1, m1)                                                                         \
	"[{\"member\":\"sda\",\"counted_at\":\"sda\",\"expected_sectors\":" #e0 ",\"observed_sectors\":" #o0     \
	",\"conclusive\":true,\"verdict\":\"PASS\"},{\"member\":\"dm-3\",\"counted_at\":\"sdb\","                 \
	"\"expected_sectors\":" #e1 ",\"observed_sectors\":" #o1 ",\"observed_member_sectors\":" #m1               \
	",\"conclusive\":true,\"verdict\":\"PASS\"}]"

static const struct r0_trim_effect effect = {
	.discarded_ok = 128, .unchecked = 128, .intact_ok = 512, .member_discarded_ok = 128,
	.member_intact_ok = 256, .first_bad_sector = -1, .first_bad_member = -1, .first_bad_member_direct = -1,
	.leaf_discarded_ok = { 128 }, .verdict = R0_CHECK_OK,
};

static struct r0_trim_counts counts(uint64_t e0, uint64_t e1)
{
	struct r0_trim_counts c = { .counted = true };

	c.member[0] = (struct r0_trim_member_result){ e0, e0, e0, true, R0_CHECK_OK };
	c.member[1] = (struct r0_trim_member_result){ e1, e1, e1, true, R0_CHECK_OK };
	return c;
}

Test(trimjson, ranges_and_raw_cycles)
{
	struct r0_trim_device *t = md_target();
	struct r0_trim_check_line checks[] = {
		{ "geometry", R0_CHECK_OK, "model 8192 sectors, kernel 8192" },
		{ "delivery", R0_CHECK_OK, "one chunk, 64K at 64K: sectors expected/observed sda 128/128 sdb 0/0" },
	};
	struct r0_trim_range_doc rg[2] = {
		{ .name = "one chunk", .start_bytes = 65536, .length_bytes = 65536, .delivery = R0_CHECK_OK,
		  .repeats = 2, .counts = counts(128, 0), .has_effect = true, .effect = effect },
		/* the discard failed: no counts, no read-back */
		{ .name = "whole device", .start_bytes = 0, .length_bytes = 4194304, .smaller_than_granularity = true,
		  .delivery = R0_CHECK_FAIL, .repeats = 1 },
	};
	struct r0_trim_cycle_doc cy = {
		.cycle = 1, .verdict = R0_CHECK_OK, .start_bytes = 0, .length_bytes = 2097152,
		.counts = counts(2048, 2048), .effect = effect,
	};
	struct r0_trim_evidence ev = { .delivered = { 3, 3 }, .dealloc_ok_sectors = { 256 } };
	struct r0_trim_doc doc = {
		.mode = R0_TRIM_MODE_DEVICE, .pattern_seed = 0x1234abcdULL, .device = "/dev/md127",
		.kernel = "6.12.0", .described = t, .checks = checks, .n_checks = 2, .ranges = rg, .n_ranges = 2,
		.cycles = &cy, .n_cycles = 1, .evidence = &ev, .verdict = R0_CHECK_OK, .reason = "ignored",
	};
	char *s = plain(r0_trim_to_json(&doc));

	cr_expect_str_eq(s,
		"{\"r0kit_schema\":\"r0trim/1\",\"version\":\"" R0_VERSION "\",\"pattern_seed\":\"000000001234abcd\","
		HEAD("/dev/md127")
		"\"checks\":[{\"check\":\"geometry\",\"verdict\":\"PASS\",\"detail\":\"model 8192 sectors, kernel 8192\"},"
		"{\"check\":\"delivery\",\"verdict\":\"PASS\",\"detail\":\"one chunk, 64K at 64K: sectors expected/observed "
		"sda 128/128 sdb 0/0\"}],"
		"\"ranges\":[{\"name\":\"one chunk\",\"start_bytes\":65536,\"length_bytes\":65536,"
		"\"smaller_than_granularity\":false,\"delivery\":{\"verdict\":\"PASS\",\"repeats\":2,\"members\":"
		COUNTS(128, 128, 0, 0, 0) "},\"effect\":" EFFECT "},"
		"{\"name\":\"whole device\",\"start_bytes\":0,\"length_bytes\":4194304,\"smaller_than_granularity\":true,"
		"\"delivery\":{\"verdict\":\"FAIL\",\"repeats\":1,\"members\":[]}}],"
		"\"cycles\":[{\"cycle\":1,\"verdict\":\"PASS\",\"start_bytes\":0,\"length_bytes\":2097152,\"members\":"
		COUNTS(2048, 2048, 2048, 2048, 2048) ",\"effect\":" EFFECT "}],"
		"\"evidence\":[{\"member\":\"sda\",\"level\":\"deallocated\",\"detail\":\"deallocated (SCSI LBPRZ=1)\"},"
		"{\"member\":\"dm-3\",\"level\":\"delivered\",\"detail\":\"delivered; read-back not checkable: no promise\"}],"
		"\"verdict\":\"PASS\",\"discards_pass\":true}");
	free(s);
	free(t);
}

Test(trimjson, file_system_cycles_and_a_no)
{
	struct r0_trim_device *t = md_target();
	struct r0_trim_fs_cycle_doc fc[2] = {
		{ .cycle = 1, .fs = "ext4", .verdict = R0_CHECK_OK, .files = 12, .fstrim_bytes = 8388608,
		  .deleted_sectors = { 8192, 8192 }, .observed_sectors = { 8192, 8200 } },
		{ .cycle = 2, .fs = "ext4", .mount_discard = true, .verdict = R0_CHECK_FAIL, .files = 12,
		  .fstrim_bytes = 99, .deleted_sectors = { 8192, 8192 }, .observed_sectors = { 8192, 0 } },
	};
	struct r0_trim_doc doc = {
		.mode = R0_TRIM_MODE_DEVICE, .pattern_seed = UINT64_MAX, .device = "/dev/md127", .kernel = "6.12.0",
		.described = t, .fs_cycles = fc, .n_fs_cycles = 2, .verdict = R0_CHECK_FAIL,
		.reason = "fs-cycle: 2/2 (ext4, mount -o discard): sdb got nothing",
	};
	char *s = plain(r0_trim_to_json(&doc));

	/* no evidence (the file system judges its own cycles); a no names its reason */
	cr_expect_str_eq(s,
		"{\"r0kit_schema\":\"r0trim/1\",\"version\":\"" R0_VERSION "\",\"pattern_seed\":\"ffffffffffffffff\","
		HEAD("/dev/md127")
		"\"checks\":[],\"ranges\":[],\"cycles\":["
		"{\"cycle\":1,\"fs\":\"ext4\",\"discard\":\"fstrim\",\"verdict\":\"PASS\",\"files\":12,\"fstrim_bytes\":8388608,"
		"\"members\":[{\"member\":\"sda\",\"counted_at\":\"sda\",\"deleted_file_sectors\":8192,\"observed_sectors\":8192},"
		"{\"member\":\"dm-3\",\"counted_at\":\"sdb\",\"deleted_file_sectors\":8192,\"observed_sectors\":8200}]},"
		"{\"cycle\":2,\"fs\":\"ext4\",\"discard\":\"mount\",\"verdict\":\"FAIL\",\"files\":12,"
		"\"members\":[{\"member\":\"sda\",\"counted_at\":\"sda\",\"deleted_file_sectors\":8192,\"observed_sectors\":8192},"
		"{\"member\":\"dm-3\",\"counted_at\":\"sdb\",\"deleted_file_sectors\":8192,\"observed_sectors\":0}]}],"
		"\"verdict\":\"FAIL\",\"discards_pass\":false,"
		"\"reason\":\"fs-cycle: 2/2 (ext4, mount -o discard): sdb got nothing\"}");
	free(s);
	free(t);
}

Test(trimjson, a_single_device_live)
{
	struct r0_trim_device *t = calloc(1, sizeof(*t));
	struct r0_trim_doc doc = {
		.mode = R0_TRIM_MODE_LIVE, .directory = "/srv/data", .file_system = "xfs", .pattern_seed = 1,
		.device = "/dev/nvme0n1", .kernel = "6.1.0", .described = t, .verdict = R0_CHECK_NOT_CONCLUSIVE,
		.reason = "quiet: the members are busy",
	};
	char *s;

	cr_assert(t);
	snprintf(t->kname, sizeof(t->kname), "nvme0n1");
	snprintf(t->desc, sizeof(t->desc), "disk");
	t->kind = R0_TRIM_SINGLE;
	t->md_layout = -1;
	t->size_sectors = 2048;
	t->lim = lim;
	/* no stripe: chunk null, no md_layout; a stack of one device lists no layer */
	r0_trim_stack_init(&t->stack);
	r0_trim_stack_add(&t->stack, R0_NODE_DEVICE, "nvme0n1", "nvme nvme0n1");
	s = plain(r0_trim_to_json(&doc));
	cr_expect_str_eq(s,
		"{\"r0kit_schema\":\"r0trim/1\",\"version\":\"" R0_VERSION "\",\"mode\":\"live\",\"directory\":\"/srv/data\","
		"\"file_system\":\"xfs\",\"pattern_seed\":\"0000000000000001\",\"device\":\"/dev/nvme0n1\","
		"\"kernel_name\":\"nvme0n1\",\"description\":\"disk\",\"kernel\":\"6.1.0\",\"size_bytes\":1048576,"
		"\"chunk_bytes\":null,\"zones\":0,\"limits\":" LIMITS ",\"members\":[],\"layers\":[],"
		"\"checks\":[],\"ranges\":[],\"cycles\":[],\"verdict\":\"NOT CONCLUSIVE\",\"discards_pass\":false,"
		"\"reason\":\"quiet: the members are busy\"}");
	free(s);
	free(t);
}

/* --watch: two devices, the second stopped */
static void watch_doc(struct r0_trim_device *t, struct r0_watch_judgement *j, struct r0_watch_rec *now,
		      struct r0_trim_watch_doc *w, struct r0_trim_doc *doc)
{
	static const double pred[2] = { 0.5, 0.5 };

	*j = (struct r0_watch_judgement){
		.verdict = R0_WATCH_STOPPED, .first = 0, .n_records = 3, .n_intervals = 2, .boots = 1,
		.total = { 4096, 0 }, .share = { 1, 0 }, .stopped_since = { 0, 1738303200 },
		.others_since = { 0, 4096 },
	};
	*now = (struct r0_watch_rec){ .time = 1738400000, .n = 2 };
	snprintf(now->name[0], sizeof(now->name[0]), "sda");
	snprintf(now->serial[0], sizeof(now->serial[0]), "S1");
	snprintf(now->name[1], sizeof(now->name[1]), "sdb");
	*w = (struct r0_trim_watch_doc){
		.record_file = "/var/lib/r0trim/md127.jsonl", .watched = "/srv", .judgement = j, .now = now,
		.since = 1738303200 - 86400, .predicted_share = pred, .shares_from_geometry = true,
		.skipped_lines = 1, .detail = "sdb stopped receiving discards after 2025-01-31 06:00 while the others got 2M",
	};
	*doc = (struct r0_trim_doc){
		.mode = R0_TRIM_MODE_WATCH, .pattern_seed = 42, .device = "/dev/md127", .kernel = "6.12.0",
		.described = t, .watch = w, .verdict = R0_CHECK_OK,
	};
}

Test(trimjson, watch)
{
	struct r0_trim_device *t = md_target();
	struct r0_watch_judgement j;
	struct r0_watch_rec now;
	struct r0_trim_watch_doc w;
	struct r0_trim_doc doc;
	char *s;

	watch_doc(t, &j, &now, &w, &doc);
	s = plain(r0_trim_to_json(&doc));
	/* no pattern; the verdict, pass and reason are the watch's, not DOC's */
	cr_expect_str_eq(s,
		"{\"r0kit_schema\":\"r0trim/1\",\"version\":\"" R0_VERSION "\",\"mode\":\"watch\","
		HEAD("/dev/md127")
		"\"watch\":{\"record_file\":\"/var/lib/r0trim/md127.jsonl\",\"watched\":\"/srv\",\"records\":3,"
		"\"intervals\":2,\"reboots\":1,\"since\":\"2025-01-30T06:00:00Z\",\"skipped_lines\":1,"
		"\"shares_from_geometry\":true,\"detail\":\"sdb stopped receiving discards after 2025-01-31 06:00 while "
		"the others got 2M\",\"devices\":["
		"{\"name\":\"sda\",\"serial\":\"S1\",\"discarded_bytes\":2097152,\"observed_share\":1,\"predicted_share\":0.5},"
		"{\"name\":\"sdb\",\"serial\":\"\",\"discarded_bytes\":0,\"observed_share\":0,\"predicted_share\":0.5,"
		"\"stopped_since\":\"2025-01-31T06:00:00Z\",\"others_since_bytes\":2097152}]},"
		"\"checks\":[],\"ranges\":[],\"cycles\":[],\"verdict\":\"FAIL\",\"discards_pass\":false,"
		"\"reason\":\"sdb stopped receiving discards after 2025-01-31 06:00 while the others got 2M\"}");
	free(s);
	/* a share of six significant digits, not json-c's seventeen */
	j.verdict = R0_WATCH_PASS;
	j.share[0] = 2.0 / 3;
	j.stopped_since[1] = 0;
	s = plain(r0_trim_to_json(&doc));
	cr_expect(strstr(s, "\"observed_share\":0.666667,"), "%s", s);
	cr_expect(strstr(s, "\"verdict\":\"PASS\",\"discards_pass\":true}"), "%s", s);
	cr_expect(!strstr(s, "stopped_since"));
	free(s);
	free(t);
}

/* What the writer writes, the reader takes: the same schema constant, the same keys. */
Test(trimjson, read_back)
{
	struct r0_trim_device *t = md_target();
	struct r0_trim_check_line checks[] = {
		{ "limits", R0_CHECK_OK, "ok" }, { "delivery", R0_CHECK_FAIL, "no" }, { "effect", R0_CHECK_OK, "ok" },
	};
	struct r0_trim_range_doc rg = {
		.name = "one chunk", .start_bytes = 65536, .length_bytes = 65536, .delivery = R0_CHECK_FAIL,
		.repeats = 1, .counts = counts(128, 64), .has_effect = true, .effect = effect,
	};
	struct r0_trim_doc doc = {
		.mode = R0_TRIM_MODE_DEVICE, .device = "/dev/md127", .kernel = "6.12.0", .described = t,
		.checks = checks, .n_checks = 3, .ranges = &rg, .n_ranges = 1, .verdict = R0_CHECK_FAIL,
		.reason = "delivery: no",
	};
	struct r0_trimres *r = calloc(1, sizeof(*r));
	enum r0_result_kind kind;
	struct r0_watch_judgement j;
	struct r0_watch_rec now;
	struct r0_trim_watch_doc w;
	char *path = written(&doc);

	cr_assert(r);
	cr_expect_eq(r0_result_kind(path, &kind), 0);
	cr_expect_eq(kind, R0_RESULT_TRIM);
	cr_assert_eq(r0_trimres_load(path, r), 0);
	cr_expect_str_eq(r->device, "/dev/md127");
	cr_expect_str_eq(r->description, "md raid0, 2 members, chunk 64K");
	cr_expect_str_eq(r->kernel, "6.12.0");
	cr_expect_str_eq(r->verdict, "FAIL");
	cr_expect(!r->pass && !r->watch);
	cr_expect(r->size_bytes == 4194304 && r->chunk_bytes == 65536);
	cr_expect_eq(r->n_members, 2);
	cr_expect_str_eq(r->member[1], "dm-3");
	cr_expect_eq(r->n_ranges, 1);
	cr_expect_str_eq(r->range[0].name, "one chunk");
	cr_expect_str_eq(r->range[0].verdict, "FAIL");
	cr_expect(r->range[0].start_bytes == 65536 && r->range[0].length_bytes == 65536);
	cr_expect(r->range[0].expected[0] == 128 && r->range[0].observed[1] == 64);
	cr_expect(r->n_checks == 3 && r->n_pass == 2 && r->n_fail == 1);
	unlink(path);
	free(path);

	watch_doc(t, &j, &now, &w, &doc);
	path = written(&doc);
	cr_assert_eq(r0_trimres_load(path, r), 0);
	cr_expect(r->watch && !r->pass);
	cr_expect_str_eq(r->verdict, "FAIL");
	cr_expect_str_eq(r->w.record_file, "/var/lib/r0trim/md127.jsonl");
	cr_expect_str_eq(r->w.since, "2025-01-30T06:00:00Z");
	cr_expect(r->w.records == 3 && r->w.intervals == 2 && r->w.n_devices == 2);
	cr_expect_str_eq(r->w.dev[1].stopped_since, "2025-01-31T06:00:00Z");
	cr_expect_eq(r->w.dev[1].others_since_bytes, 2097152);
	cr_expect(r->w.dev[0].observed_share == 1 && r->w.dev[1].predicted_share == 0.5);
	unlink(path);
	free(path);
	free(r);
	free(t);
}
