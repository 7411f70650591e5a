/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stack of block layers as a tree (what `lsblk -s` shows, top first) and
 * where a discard of the top device lands on each bottom device: each
 * layer's mapping composed down to the bottom. Pure: the tree is filled by
 * r0_trim_device_describe (r0/trimcheck.h) or by hand in the unit tests.
 */
#ifndef R0_TRIMSTACK_H
#define R0_TRIMSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/thinmap.h"

#define R0_TRIM_MAX_NODES 40
#define R0_TRIM_MAX_SEGMENTS 16

/* What a node of the stack is (R0_NODE_*; the array layers raw, md, dm are enum r0_layer). */
enum r0_trim_node_kind {
	R0_NODE_DEVICE,   /* a bottom device (NVMe, SCSI/SATA disk, null_blk...) */
	R0_NODE_LINEAR,   /* dm linear (segments), a partition (one segment) */
	R0_NODE_ONE,      /* one device at an offset: dm crypt, flakey, delay */
	R0_NODE_STRIPE,   /* md raid0, dm striped: geo over the children in order */
	R0_NODE_MIRROR,   /* md raid1: every leg gets the whole range */
	R0_NODE_RAID10,   /* md raid10, near layout: COPIES adjacent copies of each chunk */
	R0_NODE_THIN,     /* dm thin: whole blocks go to the pool's data device, where only its map says */
};

/* Top sectors [start, start + n) of a linear layer go to child CHILD from CHILD_START. */
struct r0_trim_segment {
	uint64_t start_sector, n_sectors;
	unsigned child;                    /* index into the node's child[] */
	uint64_t child_start_sector;
};

struct r0_trim_node {
	enum r0_trim_node_kind kind;
	char kname[R0_KNAME_LEN];          /* "dm-0", "md127", "nvme0n1" */
	char label[96];                    /* "dm-crypt r0-luks", "md raid0 md127", "nvme nvme0n1" */
	char type[16];                     /* "crypt", "raid0", "linear", "part", "nvme" ... */
	dev_t devt;
	uint64_t size_sectors;
	bool counts;                       /* its stat file counts discards (md's does not) */
	unsigned n_children;
	unsigned child[R0_MAX_MEMBERS];    /* node indices, in the layer's member order */
	uint64_t child_offset_sectors[R0_MAX_MEMBERS];  /* ONE, MIRROR, RAID10, THIN: data start */
	unsigned n_segments;               /* LINEAR */
	struct r0_trim_segment seg[R0_TRIM_MAX_SEGMENTS];
	struct r0_geometry geo;            /* STRIPE */
	uint32_t chunk_sectors;            /* RAID10 */
	unsigned copies;                   /* RAID10 near copies */
	uint64_t block_sectors;            /* THIN: discards of less than a whole block stop here */
	bool drops;                        /* discards stop at this layer: drop_why says why */
	char drop_why[96];                 /* "allow_discards is off" */
	bool transforms;                   /* what lies below is not what was written above (crypt, thin) */
	int leaf;                          /* DEVICE: its index among the bottom devices; else -1 */
};

struct r0_trim_stack {
	unsigned n_nodes;                  /* node[0] is the top */
	struct r0_trim_node node[R0_TRIM_MAX_NODES];
	unsigned n_leaves;                 /* bottom devices, in the order first reached */
	unsigned leaf_node[R0_MAX_MEMBERS];
	/*
	 * A dm-thin node whose pool's data device is an array: its blocks go
	 * where THIN_MAP says (placed; thin blocks not in it are unallocated
	 * and pass nothing down). -1: none; other thin nodes stay unplaced.
	 */
	int thin_node;
	struct r0_thin_map thin_map;
};

/* Empties S; then r0_trim_stack_add adds nodes (the first is the top). */
void r0_trim_stack_init(struct r0_trim_stack *s);

/*
 * Appends a node of KIND and returns its index, or -E2BIG when the stack
 * is full (or, for a DEVICE, there are R0_MAX_MEMBERS bottom devices).
 * Fields other than kind, leaf and the labels are the caller's to set.
 */
int r0_trim_stack_add(struct r0_trim_stack *s, enum r0_trim_node_kind kind, const char *kname,
		      const char *label);

/* One piece of a top range on one bottom device. */
struct r0_trim_leaf_extent {
	unsigned leaf;                     /* index among the bottom devices */
	uint64_t leaf_start_sector, n_sectors;
	uint64_t top_start_sector;         /* the top sector that maps to leaf_start_sector */
	bool placed;                       /* false below dm-thin: how much is known, not where */
	bool plain;                        /* the bottom device holds what was written at the top */
	int dropped_at;                    /* the node on the way that drops discards, -1 none */
};

/*
 * The bottom devices' pieces of a discard of top sectors [START, START + N),
 * sorted by bottom device and then by sector, contiguous pieces merged. A
 * mirror gives every leg the whole range; raid10 gives each chunk to its
 * COPIES devices; dm-thin passes only the whole blocks inside the range,
 * unplaced unless it is the stack's thin_node, whose map places them.
 * Pieces below a layer that drops discards are listed with dropped_at set
 * (what that layer would have passed on). PER_NODE_SECTORS (may be NULL,
 * n_nodes entries) gets the sectors that reach each node. *OUT is
 * malloc'ed (NULL when nothing lands). 0, -ERANGE past the top's end,
 * -EINVAL for a malformed stack, -ENOMEM.
 */
int r0_trim_stack_split(const struct r0_trim_stack *s, uint64_t start, uint64_t n,
			struct r0_trim_leaf_extent **out, size_t *count, uint64_t *per_node_sectors);

/*
 * Sectors of [START, START + N) each bottom device must receive when no
 * layer drops them, into PER_LEAF_SECTORS[0..n_leaves-1]. 0 or as above.
 */
int r0_trim_stack_totals(const struct r0_trim_stack *s, uint64_t start, uint64_t n,
			 uint64_t *per_leaf_sectors);

/*
 * On how many bottom devices every top sector lands: 1 without mirrors,
 * the legs of a raid1, the copies of a raid10 (multiplied when nested);
 * 0 where it is not the same for every sector (dm-thin passes whole
 * blocks only; layers whose children differ).
 */
unsigned r0_trim_stack_copies(const struct r0_trim_stack *s);

/* The path from the top to bottom device LEAF: node indices into PATH (top first); its length. */
unsigned r0_trim_stack_path(const struct r0_trim_stack *s, unsigned leaf, unsigned *path, unsigned max);

/* The first node (top first) on LEAF's path that drops discards, -1 none. */
int r0_trim_stack_drop_on_path(const struct r0_trim_stack *s, unsigned leaf);

/* The first node (top first) that drops discards anywhere, -1 none. */
int r0_trim_stack_first_drop(const struct r0_trim_stack *s);

/*
 * Node IDX in words, as r0trim prints it and r0trim/1 records it: its
 * label and children ("dm-crypt r0-luks over md127") and, where it drops
 * discards, why ("; allow_discards is off: discards stop here"). Cut
 * to LEN.
 */
void r0_trim_stack_layer_line(const struct r0_trim_stack *s, unsigned idx, char *buf, size_t len);

#endif
