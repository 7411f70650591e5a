/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The r0probe/1 document (r0probe -J): a record a block device, every field
 * of it, unknowns null. r0bench/1 embeds the same record for its target.
 */
#ifndef R0_PROBEJSON_H
#define R0_PROBEJSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "r0/probe.h"

#define R0_PROBE_SCHEMA "r0probe/1"

/* One device as the record shows it. */
struct r0_probe_record {
	const char *path;                  /* as the user named it */
	const struct r0_device *dev;
	bool sigs_probed;                  /* false: "signatures" is null */
	const struct r0_signature *sigs;
	size_t nr_sigs;
	const struct r0_blockstat *stat;   /* NULL: "stat" is null */
};

/* The record's "type": "part", "md", "dm" or "disk". */
const char *r0_probe_type_name(const struct r0_device *d);

/* One device's record; NULL on a json-c allocation failure. */
json_object *r0_probe_record_json(const struct r0_probe_record *r);

/* The r0probe/1 document of the N records RECS, in their order; NULL on a json-c allocation failure. */
json_object *r0_probe_to_json(const struct r0_probe_record *recs, size_t n);

/* That document as r0probe --json prints it, into *OUT (free()): 0 or -ENOMEM. */
int r0_probe_json_text(const struct r0_probe_record *recs, size_t n, char **out);

#endif
