// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0probe/1 document and its device record, which r0bench/1 embeds (r0/probejson.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "r0/buildid.h"
#include "r0/jsonfields.h"
#include "r0/jsontext.h"
#include "r0/probejson.h"

const char *r0_probe_type_name(const struct r0_device *d)
{
	return d->is_partition ? "part" : d->is_md ? "md" : d->is_dm ? "dm" : "disk";
}

/* All JSON leaves through these: -1 (unknown) and "" become null. */
static json_object *j_num(int64_t v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

static json_object *j_flag(int64_t v)
{
	return v < 0 ? NULL : json_object_new_boolean(v != 0);
}

static json_object *j_str(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static json_object *j_devt(dev_t d)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u:%u", major(d), minor(d));
	return json_object_new_string(buf);
}

static json_object *j_names(const struct r0_names *l)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < l->count; i++)
		json_object_array_add(a, json_object_new_string(l->name[i]));
	return a;
}


#define SIG(m, kind) R0_JSON_FIELD(struct r0_signature, m, #m, kind)
static const struct r0_json_field sig_fields[] = {
	SIG(type, R0_JSON_TEXT), SIG(usage, R0_JSON_TEXT_OR_NULL), SIG(uuid, R0_JSON_TEXT_OR_NULL),
	SIG(label, R0_JSON_TEXT_OR_NULL), SIG(offset_bytes, R0_JSON_U64),
	SIG(is_partition_table, R0_JSON_BOOL), SIG(bad_checksum, R0_JSON_BOOL),
};
#undef SIG

static json_object *j_stat(const struct r0_blockstat *s)
{
	json_object *o = json_object_new_object();
	static const char *const names[17] = {
		"reads", "reads_merged", "read_sectors", "read_ticks_ms",
		"writes", "writes_merged", "write_sectors", "write_ticks_ms",
		"in_flight", "io_ticks_ms", "time_in_queue_ms",
		"discards", "discards_merged", "discard_sectors", "discard_ticks_ms",
		"flushes", "flush_ticks_ms",
	};
	const uint64_t v[17] = {
		s->reads, s->reads_merged, s->read_sectors, s->read_ticks_ms,
		s->writes, s->writes_merged, s->write_sectors, s->write_ticks_ms,
		s->in_flight, s->io_ticks_ms, s->time_in_queue_ms,
		s->discards, s->discards_merged, s->discard_sectors, s->discard_ticks_ms,
		s->flushes, s->flush_ticks_ms,
	};

	r0_json_set(o, "nr_fields", json_object_new_int64(s->nr_fields));
	/* a counter this kernel does not have is null, not 0 */
	for (unsigned i = 0; i < 17; i++)
		r0_json_set(o, names[i], i < s->nr_fields ? json_object_new_uint64(v[i]) : NULL);
	return o;
}

json_object *r0_probe_record_json(const struct r0_probe_record *it)
{
	const struct r0_device *d = it->dev;
	json_object *o = json_object_new_object(), *a, *x;
	char why[512];
	size_t i;

	if (!o)
		return NULL;
	r0_json_set(o, "path", json_object_new_string(it->path));
	r0_json_set(o, "kname", json_object_new_string(d->kname));
	r0_json_set(o, "devt", j_devt(d->devt));
	r0_json_set(o, "major", json_object_new_int64(major(d->devt)));
	r0_json_set(o, "minor", json_object_new_int64(minor(d->devt)));
	r0_json_set(o, "type", json_object_new_string(r0_probe_type_name(d)));
	r0_json_set(o, "is_partition", json_object_new_boolean(d->is_partition));
	r0_json_set(o, "parent", j_str(d->parent));
	r0_json_set(o, "partition_number", d->is_partition ? json_object_new_int64(d->partition_number) : NULL);
	r0_json_set(o, "start_sectors", j_num(d->start_sectors));
	r0_json_set(o, "size_bytes", json_object_new_uint64(d->size_bytes));
	r0_json_set(o, "read_only", j_flag(d->read_only));
	r0_json_set(o, "removable", j_flag(d->removable));
	r0_json_set(o, "logical_block_size_bytes", j_num(d->logical_block_size_bytes));
	r0_json_set(o, "physical_block_size_bytes", j_num(d->physical_block_size_bytes));
	r0_json_set(o, "minimum_io_size_bytes", j_num(d->minimum_io_size_bytes));
	r0_json_set(o, "optimal_io_size_bytes", j_num(d->optimal_io_size_bytes));
	r0_json_set(o, "rotational", j_flag(d->rotational));
	r0_json_set(o, "nr_requests", j_num(d->nr_requests));
	r0_json_set(o, "max_sectors_kib", j_num(d->max_sectors_kib));
	r0_json_set(o, "max_hw_sectors_kib", j_num(d->max_hw_sectors_kib));
	r0_json_set(o, "discard_granularity_bytes", j_num(d->discard_granularity_bytes));
	r0_json_set(o, "discard_max_bytes", j_num(d->discard_max_bytes));
	r0_json_set(o, "discard_max_hw_bytes", j_num(d->discard_max_hw_bytes));
	r0_json_set(o, "discard_alignment_bytes", j_num(d->discard_alignment_bytes));
	r0_json_set(o, "write_zeroes_max_bytes", j_num(d->write_zeroes_max_bytes));
	r0_json_set(o, "model", j_str(d->model));
	r0_json_set(o, "serial", j_str(d->serial));
	x = NULL;
	if (d->is_md) {
		x = json_object_new_object();
		r0_json_set(x, "level", j_str(d->md_level));
		r0_json_set(x, "chunk_size_bytes", j_num(d->md_chunk_size_bytes));
		r0_json_set(x, "raid_disks", j_num(d->md_raid_disks));
		r0_json_set(x, "layout", j_num(d->md_layout));   /* -1: md reports none */
	}
	r0_json_set(o, "md", x);
	x = NULL;
	if (d->is_dm) {
		x = json_object_new_object();
		r0_json_set(x, "name", j_str(d->dm_name));
		r0_json_set(x, "uuid", j_str(d->dm_uuid));
	}
	r0_json_set(o, "dm", x);
	r0_json_set(o, "holders", j_names(&d->holders));
	r0_json_set(o, "slaves", j_names(&d->slaves));
	a = json_object_new_array();
	for (i = 0; i < d->nr_partitions; i++) {
		const struct r0_partition *p = &d->partitions[i];

		x = json_object_new_object();
		r0_json_set(x, "kname", json_object_new_string(p->kname));
		r0_json_set(x, "devt", j_devt(p->devt));
		r0_json_set(x, "number", json_object_new_int64(p->number));
		r0_json_set(x, "start_sectors", json_object_new_uint64(p->start_sectors));
		r0_json_set(x, "size_bytes", json_object_new_uint64(p->size_bytes));
		r0_json_set(x, "holders", j_names(&p->holders));
		json_object_array_add(a, x);
	}
	r0_json_set(o, "partitions", a);
	r0_json_set(o, "mounted", json_object_new_boolean(d->mounted));
	r0_json_set(o, "partition_mounted", json_object_new_boolean(d->partition_mounted));
	a = json_object_new_array();
	for (i = 0; i < d->nr_mounts; i++) {
		x = json_object_new_object();
		r0_json_set(x, "kname", json_object_new_string(d->mounts[i].kname));
		r0_json_set(x, "devt", j_devt(d->mounts[i].devt));
		r0_json_set(x, "mount_point", json_object_new_string(d->mounts[i].mount_point));
		r0_json_set(x, "fstype", json_object_new_string(d->mounts[i].fstype));
		json_object_array_add(a, x);
	}
	r0_json_set(o, "mounts", a);
	r0_json_set(o, "busy", json_object_new_boolean(r0_device_is_busy(d, why, sizeof(why))));
	r0_json_set(o, "busy_reason", j_str(why));
	a = NULL;
	if (it->sigs_probed) {
		a = json_object_new_array();
		for (i = 0; i < it->nr_sigs; i++) {
			const struct r0_signature *s = &it->sigs[i];

			x = json_object_new_object();
			r0_json_add_fields(x, s, sig_fields, R0_JSON_N(sig_fields));
			json_object_array_add(a, x);
		}
	}
	r0_json_set(o, "signatures", a);
	r0_json_set(o, "stat", it->stat ? j_stat(it->stat) : NULL);
	return o;
}

json_object *r0_probe_to_json(const struct r0_probe_record *recs, size_t n)
{
	json_object *root = r0_json_doc_new(R0_PROBE_SCHEMA), *a = json_object_new_array();

	if (!root || !a) {
		json_object_put(root);
		json_object_put(a);
		return NULL;
	}
	r0_json_set(root, "version", json_object_new_string(r0_build_id()));
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, r0_probe_record_json(&recs[i]));
	r0_json_set(root, "devices", a);
	return root;
}

int r0_probe_json_text(const struct r0_probe_record *recs, size_t n, char **out)
{
	json_object *doc = r0_probe_to_json(recs, n);
	int err = doc ? r0_json_text(doc, out) : -ENOMEM;

	json_object_put(doc);
	return err;
}
