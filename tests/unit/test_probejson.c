// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/probejson.h: the r0probe/1 document and its device record, key for key, unknowns null. */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <criterion/criterion.h>

#include "r0/buildid.h"
#include "r0/probejson.h"

static const char *plain(json_object *o)
{
	json_object *v;

	/* the build's commit varies (r0_build_id, checked apart): the version it starts with is compared */
	if (json_object_object_get_ex(o, "version", &v))
		json_object_object_add(o, "version", json_object_new_string(R0_VERSION));
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* A whole disk of which sysfs told nothing it may leave out: every such number -1. */
static void unknown_disk(struct r0_device *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->kname, sizeof(d->kname), "vdb");
	d->devt = makedev(254, 16);
	d->start_sectors = -1;
	d->size_bytes = 1 << 30;
	d->read_only = d->removable = d->rotational = -1;
	d->logical_block_size_bytes = d->physical_block_size_bytes = -1;
	d->minimum_io_size_bytes = d->optimal_io_size_bytes = -1;
	d->nr_requests = d->max_sectors_kib = d->max_hw_sectors_kib = -1;
	d->discard_granularity_bytes = d->discard_max_bytes = d->discard_max_hw_bytes = -1;
	d->discard_alignment_bytes = d->write_zeroes_max_bytes = -1;
}

Test(probejson, a_record_of_unknowns_is_nulls_key_for_key)
{
	struct r0_device d;
	struct r0_probe_record r = { .path = "/dev/disk/by-id/virtio-x", .dev = &d };
	json_object *o;

	unknown_disk(&d);
	o = r0_probe_record_json(&r);
	cr_assert_not_null(o);
	cr_expect_str_eq(plain(o),
		"{\"path\":\"/dev/disk/by-id/virtio-x\",\"kname\":\"vdb\",\"devt\":\"254:16\",\"major\":254,"
		"\"minor\":16,\"type\":\"disk\",\"is_partition\":false,\"parent\":null,\"partition_number\":null,"
		"\"start_sectors\":null,\"size_bytes\":1073741824,\"read_only\":null,\"removable\":null,"
		"\"logical_block_size_bytes\":null,\"physical_block_size_bytes\":null,"
		"\"minimum_io_size_bytes\":null,\"optimal_io_size_bytes\":null,\"rotational\":null,"
		"\"nr_requests\":null,\"max_sectors_kib\":null,\"max_hw_sectors_kib\":null,"
		"\"discard_granularity_bytes\":null,\"discard_max_bytes\":null,\"discard_max_hw_bytes\":null,"
		"\"discard_alignment_bytes\":null,\"write_zeroes_max_bytes\":null,\"model\":null,\"serial\":null,"
		"\"md\":null,\"dm\":null,\"holders\":[],\"slaves\":[],\"partitions\":[],\"mounted\":false,"
		"\"partition_mounted\":false,\"mounts\":[],\"busy\":false,\"busy_reason\":null,"
		"\"signatures\":null,\"stat\":null}");
	json_object_put(o);
}

Test(probejson, a_disk_with_partitions_mounts_signatures_and_counters)
{
	char holders[1][R0_KNAME_LEN] = { "md127" };
	struct r0_partition parts[2] = {
		{ .kname = "sdb1", .devt = makedev(8, 17), .number = 1, .start_sectors = 2048, .size_bytes = 1 << 20 },
		{ .kname = "sdb2", .devt = makedev(8, 18), .number = 2, .start_sectors = 4096, .size_bytes = 1 << 21,
		  .holders = { 1, holders } },
	};
	struct r0_mount mounts[1] = { { .kname = "sdb1", .devt = makedev(8, 17), .mount_point = "/mnt/a b",
					.fstype = "ext4" } };
	struct r0_signature sigs[2] = {
		{ .type = "gpt", .usage = "partition table", .uuid = "1234", .offset_bytes = 512,
		  .is_partition_table = true },
		{ .type = "ext4", .usage = "", .offset_bytes = 1080, .bad_checksum = true },
	};
	struct r0_blockstat st = { .nr_fields = 15, .reads = 7, .writes = 3, .discards = 2, .flushes = 99 };
	struct r0_device d;
	struct r0_probe_record r = { .path = "/dev/sdb", .dev = &d, .sigs_probed = true, .sigs = sigs,
				     .nr_sigs = 2, .stat = &st };
	json_object *o, *x, *y;

	unknown_disk(&d);
	snprintf(d.kname, sizeof(d.kname), "sdb");
	d.devt = makedev(8, 16);
	d.rotational = 0;
	d.read_only = 0;
	d.nr_requests = 64;
	snprintf(d.model, sizeof(d.model), "QEMU HARDDISK");
	d.nr_partitions = 2;
	d.partitions = parts;
	d.partition_mounted = true;
	d.nr_mounts = 1;
	d.mounts = mounts;
	o = r0_probe_record_json(&r);
	cr_assert_not_null(o);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "type")), "disk");
	cr_expect_eq(json_object_get_boolean(json_object_object_get(o, "rotational")), 0);
	cr_expect(json_object_is_type(json_object_object_get(o, "rotational"), json_type_boolean));
	cr_expect_eq(json_object_get_int64(json_object_object_get(o, "nr_requests")), 64);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "model")), "QEMU HARDDISK");
	cr_expect_null(json_object_object_get(o, "serial"));
	cr_expect_str_eq(plain(json_object_object_get(o, "partitions")),
		"[{\"kname\":\"sdb1\",\"devt\":\"8:17\",\"number\":1,\"start_sectors\":2048,\"size_bytes\":1048576,"
		"\"holders\":[]},{\"kname\":\"sdb2\",\"devt\":\"8:18\",\"number\":2,\"start_sectors\":4096,"
		"\"size_bytes\":2097152,\"holders\":[\"md127\"]}]");
	cr_expect_str_eq(plain(json_object_object_get(o, "mounts")),
		"[{\"kname\":\"sdb1\",\"devt\":\"8:17\",\"mount_point\":\"/mnt/a b\",\"fstype\":\"ext4\"}]");
	cr_expect(json_object_get_boolean(json_object_object_get(o, "busy")));
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "busy_reason")),
			 "its partition sdb1 is mounted on /mnt/a b");
	cr_expect_str_eq(plain(json_object_object_get(o, "signatures")),
		"[{\"type\":\"gpt\",\"usage\":\"partition table\",\"uuid\":\"1234\",\"label\":null,\"offset_bytes\":512,"
		"\"is_partition_table\":true,\"bad_checksum\":false},{\"type\":\"ext4\",\"usage\":null,\"uuid\":null,"
		"\"label\":null,\"offset_bytes\":1080,\"is_partition_table\":false,\"bad_checksum\":true}]");
	/* 15 fields: the discards are there, the flushes this kernel does not count are null */
	x = json_object_object_get(o, "stat");
	cr_assert_not_null(x);
	cr_expect_eq(json_object_object_length(x), 18);
	cr_expect_eq(json_object_get_int64(json_object_object_get(x, "nr_fields")), 15);
	cr_expect_eq(json_object_get_int64(json_object_object_get(x, "reads")), 7);
	cr_expect_eq(json_object_get_int64(json_object_object_get(x, "discards")), 2);
	cr_expect(json_object_object_get_ex(x, "flushes", &y) && y == NULL);
	cr_expect(json_object_object_get_ex(x, "flush_ticks_ms", &y) && y == NULL);
	json_object_put(o);

	/* signatures asked for and none found: [], not null */
	r.nr_sigs = 0;
	o = r0_probe_record_json(&r);
	cr_expect_str_eq(plain(json_object_object_get(o, "signatures")), "[]");
	json_object_put(o);
}

Test(probejson, md_dm_and_a_partition)
{
	char slaves[2][R0_KNAME_LEN] = { "sdb", "sdc" };
	struct r0_device md, dm, part;
	json_object *o;

	unknown_disk(&md);
	snprintf(md.kname, sizeof(md.kname), "md_r0-x");
	md.is_md = true;
	snprintf(md.md_level, sizeof(md.md_level), "raid0");
	md.md_chunk_size_bytes = 65536;
	md.md_raid_disks = 2;
	md.md_layout = -1;
	md.slaves = (struct r0_names){ 2, slaves };
	cr_expect_str_eq(r0_probe_type_name(&md), "md");
	o = r0_probe_record_json(&(struct r0_probe_record){ .path = "/dev/md_r0-x", .dev = &md });
	cr_expect_str_eq(plain(json_object_object_get(o, "md")),
			 "{\"level\":\"raid0\",\"chunk_size_bytes\":65536,\"raid_disks\":2,\"layout\":null}");
	cr_expect_null(json_object_object_get(o, "dm"));
	cr_expect_str_eq(plain(json_object_object_get(o, "slaves")), "[\"sdb\",\"sdc\"]");
	json_object_put(o);

	unknown_disk(&dm);
	dm.is_dm = true;
	snprintf(dm.dm_name, sizeof(dm.dm_name), "r0-y");
	cr_expect_str_eq(r0_probe_type_name(&dm), "dm");
	o = r0_probe_record_json(&(struct r0_probe_record){ .path = "/dev/dm-0", .dev = &dm });
	cr_expect_str_eq(plain(json_object_object_get(o, "dm")), "{\"name\":\"r0-y\",\"uuid\":null}");
	cr_expect_null(json_object_object_get(o, "md"));
	json_object_put(o);

	unknown_disk(&part);
	part.is_partition = true;
	snprintf(part.parent, sizeof(part.parent), "vdb");
	part.partition_number = 3;
	part.start_sectors = 2048;
	cr_expect_str_eq(r0_probe_type_name(&part), "part");
	o = r0_probe_record_json(&(struct r0_probe_record){ .path = "/dev/vdb3", .dev = &part });
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "parent")), "vdb");
	cr_expect_eq(json_object_get_int64(json_object_object_get(o, "partition_number")), 3);
	cr_expect_eq(json_object_get_int64(json_object_object_get(o, "start_sectors")), 2048);
	json_object_put(o);
}

Test(probejson, the_document_names_its_schema_and_keeps_the_order)
{
	struct r0_device a, b;
	struct r0_probe_record r[2] = { { .path = "/dev/vdb", .dev = &a }, { .path = "/dev/vdc", .dev = &b } };
	json_object *o, *devs;

	cr_expect_str_eq(R0_PROBE_SCHEMA, "r0probe/1");
	unknown_disk(&a);
	unknown_disk(&b);
	snprintf(b.kname, sizeof(b.kname), "vdc");
	o = r0_probe_to_json(r, 2);
	cr_assert_not_null(o);
	cr_expect_eq(json_object_object_length(o), 3);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "r0kit_schema")), R0_PROBE_SCHEMA);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "version")), r0_build_id());
	devs = json_object_object_get(o, "devices");
	cr_assert_eq(json_object_array_length(devs), 2);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(json_object_array_get_idx(devs, 1), "kname")),
			 "vdc");
	json_object_put(o);

	o = r0_probe_to_json(NULL, 0);
	cr_expect_str_eq(plain(o), "{\"r0kit_schema\":\"r0probe/1\",\"version\":\"" R0_VERSION "\",\"devices\":[]}");
	json_object_put(o);
}
