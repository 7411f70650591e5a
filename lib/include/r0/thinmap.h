/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a dm-thin volume's blocks lie in its pool's data device. The pool
 * allocates a data block when a thin block is first written, anywhere in
 * the data device; over an array (RAID0, or an LV over several PVs) that
 * decides which drive a discard of the thin block reaches. The mapping is
 * read the way backup tools read it: a metadata snapshot of the live pool
 * (the pool's reserve_metadata_snap message) dumped by thin_dump
 * (thin-provisioning-tools, which LVM thin pools need anyway).
 */
#ifndef R0_THINMAP_H
#define R0_THINMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Thin blocks [thin_block, thin_block + n_blocks) lie at data blocks from data_block. */
struct r0_thin_extent {
	uint64_t thin_block, data_block, n_blocks;
};

#define R0_THIN_MAX_EXTENTS 1024

struct r0_thin_map {
	unsigned n;                              /* extents, by thin_block */
	struct r0_thin_extent e[R0_THIN_MAX_EXTENTS];
};

/*
 * The mappings of thin device DEV_ID in thin_dump's XML (LEN bytes at
 * XML): its <range_mapping> and <single_mapping> elements, in the order
 * given, neighbours merged. 0; -ENOENT when the dump has no such device;
 * -EINVAL for XML that is not thin_dump's; -E2BIG past R0_THIN_MAX_EXTENTS.
 */
int r0_thin_map_parse(const char *xml, size_t len, unsigned dev_id, struct r0_thin_map *map);

/*
 * The live mapping of thin device DEV_ID of the pool POOL (a dm thin-pool
 * device) whose metadata device is META: reserves a metadata snapshot,
 * runs `thin_dump --metadata-snap --dev-id DEV_ID` on META, releases the
 * snapshot. 0 or -errno with the reason in WHY.
 */
int r0_thin_map_read(dev_t pool, dev_t meta, unsigned dev_id, struct r0_thin_map *map, char *why,
		     size_t why_len);

#endif
