/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Discard verification: does an array (md raid0, dm striped) or a single
 * device pass discards on to the devices below it, where the stripe
 * geometry says, and do the discarded blocks read back as promised.
 * The pure parts (limits stacking, range set, verdicts, granularity rule,
 * layout audit) are separate from the parts that read sysfs and do I/O.
 */
#ifndef R0_TRIMCHECK_H
#define R0_TRIMCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/trimstack.h"

/* The result of one TRIM check, in increasing order of weight (see r0_check_result_worse); a study's verdict is lib/study/verdict.c's. */
enum r0_check_result {
	R0_CHECK_OK = 0,          /* shown to hold (said "PASS"; a study's pass is another thing) */
	R0_CHECK_NOT_CHECKABLE,   /* nothing to check against (no promise, not possible here) */
	R0_CHECK_NOT_CONCLUSIVE,  /* checked, but the result proves nothing (granularity) */
	R0_CHECK_FAIL,
};

/* "PASS", "FAIL", "NOT CHECKABLE", "NOT CONCLUSIVE". */
const char *r0_check_result_name(enum r0_check_result v);

/* The weightier of A and B: FAIL > NOT CONCLUSIVE > NOT CHECKABLE > PASS. */
enum r0_check_result r0_check_result_worse(enum r0_check_result a, enum r0_check_result b);

/* ------------------------------------------------------------------ limits */

/* A queue's discard limits, from sysfs queue/ (Documentation/ABI/stable/sysfs-block). */
struct r0_discard_limits {
	uint64_t granularity_bytes;       /* discard_granularity; 0 with no discard */
	uint64_t max_bytes;               /* discard_max_bytes; 0: takes no discards */
	uint64_t max_hw_bytes;            /* discard_max_hw_bytes */
	uint64_t alignment_bytes;         /* the disk's discard_alignment */
	uint64_t write_zeroes_max_bytes;  /* write_zeroes_max_bytes */
	uint32_t logical_block_bytes;
};

/* Fills L from a probed device (r0/probe.h); numbers it lacks become 0. */
void r0_discard_limits_from_device(const struct r0_device *dev, struct r0_discard_limits *l);

/*
 * What stacking the members' limits should give the array, and whether it
 * does. SPLITS: the layer cuts discards per member itself (md raid0,
 * dm striped and linear), so the array may advertise a larger
 * discard_max_bytes than its members take (md shows 4 GiB over members
 * capped at 1 MiB); without it (a single device checked on its own), the
 * array is its only member.
 *   support:      the array takes discards, and so does every member. An
 *                 array that takes them while a member does not loses that
 *                 member's share (md raid0 in Linux 6.12 does exactly this:
 *                 it advertises discard and skips the member silently).
 *   granularity:  at least the largest member granularity (blk_stack_limits
 *                 takes the maximum).
 *   max:          not 0; and, without SPLITS, not above any member's.
 *   alignment:    0 when every member's is 0; otherwise not modelled.
 *   write_zeroes: 0 when any member has 0 (stacking takes the minimum).
 */
struct r0_limits_check {
	enum r0_check_result support, granularity, max, alignment, write_zeroes, overall;
	uint64_t expected_granularity_bytes;  /* largest member granularity */
	uint64_t effective_granularity_bytes; /* largest of the array's and the members' */
	uint64_t min_member_max_bytes;        /* smallest non-zero member discard_max_bytes (0: none) */
	int no_discard_member;                /* first member taking no discards, -1 if none */
	char why[256];                        /* the first failure in words, "" if none */
};

void r0_trim_check_limits(const struct r0_discard_limits *array,
			  const struct r0_discard_limits *members, const char *const *member_names,
			  unsigned n, bool splits, struct r0_limits_check *out);

/* ------------------------------------------------------------------ ranges */

#define R0_TRIM_MAX_RANGES 24

struct r0_trim_range {
	char name[48];              /* "one chunk", "across zones 0|1", "whole device" ... */
	uint64_t start_sector, n_sectors;
	const char *skip_reason;    /* not built here (n_sectors 0): why, e.g. a 4K chunk has no part */
};

/*
 * The range set for an array of geometry G, logical block LBS_BYTES and
 * effective discard granularity GRAN_BYTES, in this order: one chunk, part
 * of a chunk, across chunk boundaries (touching every member), across each
 * md zone boundary, a large range (about half the device, not aligned to a
 * chunk), one smaller than the granularity (where the granularity exceeds a
 * logical block), and the whole device last. UNIT_BYTES is what "a chunk"
 * means (the array's chunk; for a single device any size, e.g. 64K). Every
 * range is a multiple of the logical block and lies inside the array.
 * Returns the number of ranges written to OUT (at most MAX), or -EINVAL.
 */
int r0_trim_ranges(const struct r0_geometry *g, uint32_t unit_bytes, uint32_t lbs_bytes,
		   uint64_t gran_bytes, struct r0_trim_range *out, size_t max);

/*
 * Cycle C (from 0) of CYCLES fill-discard cycles on an array of
 * ARRAY_SECTORS with logical block LBS_BYTES (0: 512): FILL_PCT of the
 * array in whole logical blocks, N_SECTORS at *START_SECTOR; the first
 * cycle at the start, the last at the end (rounded down to a block), the
 * others evenly between, so that the cycles together cover the array.
 */
void r0_trim_cycle_range(uint64_t array_sectors, uint32_t lbs_bytes, unsigned cycles, unsigned fill_pct,
			 unsigned c, uint64_t *start_sector, uint64_t *n_sectors);

/* ------------------------------------------------------------------ verdicts */

/*
 * Whether [START, START + N) (sectors) holds at least one whole granule of
 * GRAN_SECTORS, aligned to ALIGN_SECTORS: a discard of less proves nothing,
 * since the device may ignore it.
 */
bool r0_trim_holds_granule(uint64_t start, uint64_t n, uint64_t gran_sectors,
			   uint64_t align_sectors);

/*
 * The granule-aligned part of [START, START + N) in *A, *B (sectors; *A >= *B
 * when none): what a device must read back as discarded afterwards.
 */
void r0_trim_interior(uint64_t start, uint64_t n, uint64_t gran_sectors, uint64_t align_sectors,
		      uint64_t *a, uint64_t *b);

/*
 * One member's discard counter against the geometry:
 *   observed > expected: FAIL (misrouted, or other activity on it);
 *   observed == expected: PASS, or NOT CONCLUSIVE if not CONCLUSIVE;
 *   observed < expected: FAIL (dropped or cut short), or NOT CONCLUSIVE
 *   if not CONCLUSIVE (the member may ignore a sub-granule discard).
 * A member with nothing expected is always conclusive.
 */
enum r0_check_result r0_trim_judge_member(uint64_t expected_sectors, uint64_t observed_sectors,
				     bool conclusive);

/*
 * The md raid0 layout audit. raid0_handle_discard before Linux 6.3 (commit
 * e836007089ba, "md/raid0: add discard support for the 'original' layout")
 * mapped discards as if every multi-zone array had the ALT layout, so on an
 * ORIG-layout array with two or more members in a later zone it discarded
 * the wrong members' blocks and corrupted data. FAIL for that combination
 * on an older kernel; PASS otherwise; NOT CHECKABLE if RELEASE (uname -r)
 * cannot be read. WHY says which case it is.
 */
enum r0_check_result r0_trim_audit_layout(const struct r0_geometry *g, const char *release,
				     char *why, size_t len);

/* Parses "6.12.117+deb12-cloud-amd64" into 6, 12; 0 or -EINVAL. */
int r0_kernel_version(const char *release, unsigned *major, unsigned *minor);

/* ------------------------------------------------------------------ device */

/* What a member is known to return when a discarded block is read. */
enum r0_discard_reads {
	R0_READS_UNKNOWN = 0,   /* no promise: not checkable */
	R0_READS_ZEROES,        /* null_blk memory-backed; SCSI LBPRZ xx1b; NVMe DLFEAT 1 */
	R0_READS_ONES,          /* NVMe DLFEAT 2; SCSI LBPRZ=2 as scsi_debug implements it */
};

/* "zeroes", "0xff", "unknown": what a discarded block reads, in r0trim's words. */
const char *r0_discard_reads_name(enum r0_discard_reads v);

#define R0_TRIM_MAX_DEPTH 8

/* A bottom device of the stack (a leaf of r0_trim_stack), whose counters decide. */
struct r0_trim_member {
	dev_t devt;
	char kname[R0_KNAME_LEN];
	/*
	 * Its path from below the top: chain[0] is the top's child on the way
	 * (the device itself when the top holds it directly, or is it),
	 * chain[depth] the device; chain_type the layer ("flakey", "raid0").
	 */
	unsigned depth;
	dev_t chain[R0_TRIM_MAX_DEPTH + 1];
	char chain_kname[R0_TRIM_MAX_DEPTH + 1][R0_KNAME_LEN];
	char chain_type[R0_TRIM_MAX_DEPTH + 1][32];  /* "flakey", "linear", "" at the bottom */
	struct r0_discard_limits lim;       /* chain[0]'s queue */
	struct r0_discard_limits leaf_lim;  /* the bottom device's queue */
	enum r0_discard_reads reads;        /* the bottom device's promise */
	char reads_why[80];                 /* "null_blk memory-backed", "NVMe DLFEAT=1", "no promise" */
};

enum r0_trim_kind { R0_TRIM_SINGLE, R0_TRIM_MD, R0_TRIM_DM };

struct r0_trim_device {
	char path[256];
	char kname[R0_KNAME_LEN];
	dev_t devt;
	enum r0_trim_kind kind;
	char desc[96];                 /* "md raid0, 3 members, chunk 64K", "dm striped, ...", "disk" ...: its
	                                * stripe prefix is how a reader of r0trim/1 tells the array (r0_trimres) */
	uint64_t size_sectors;         /* the kernel's */
	uint32_t unit_bytes;           /* "a chunk" for the range set */
	int md_layout;                 /* md/layout as read (-1: none) */
	/*
	 * What the range set is built on: the top's own geometry when it is
	 * md raid0 or dm striped, else one member of the top's size.
	 */
	struct r0_geometry geo;
	bool geometry_matches;         /* geo.array_sectors == size_sectors (or within, not striped) */
	struct r0_discard_limits lim;
	unsigned n_members;            /* the bottom devices */
	struct r0_trim_member members[R0_MAX_MEMBERS];
	struct r0_trim_stack stack;    /* every layer, top first; leaf i is members[i] */
	/* stack.thin_node's pool, its metadata device and the thin volume's id */
	dev_t thin_pool, thin_meta;
	unsigned thin_dev_id;
	/* any thin volume's pool metadata device (it may share a PV with the data), or "" */
	char thin_meta_kname[R0_KNAME_LEN];
};

/*
 * Describes PATH and every layer below it from the kernel alone, so any
 * stack works, not only r0kit's:
 *   md raid0, raid1, raid10 (near): md/level, md/chunk_size, md/layout
 *     (raid0.default_layout when it is not set), md/rdN/block (members
 *     in role order), md/rdN/offset and md/rdN/size;
 *   dm: the live table through libdevmapper: linear (any number of
 *     segments), striped, crypt (allow_discards or not), flakey, delay
 *     (one device), thin (the pool's block size, no_discard_passdown,
 *     ignore_discard; its data device one device through one-to-one
 *     layers);
 *   a partition: its disk from sysfs start;
 *   anything else: a bottom device, with what it promises a read after
 *   discard returns.
 * Returns 0, or -errno with a reason in WHY: -EOPNOTSUPP for a layer it
 * cannot model (md raid5, dm cache, raid10 far...), which is not "no".
 */
int r0_trim_device_describe(const char *path, struct r0_trim_device *t, char *why, size_t len);

/*
 * A thin volume over an array (stack.thin_node): reads where the pool put
 * its blocks now, so discards of them are placed. Call after every write
 * through it: a block discarded and written again may move. 0, or -errno
 * with the reason in WHY; 0 at once for any other stack.
 */
int r0_trim_device_map_thin(struct r0_trim_device *t, char *why, size_t len);

/* The first md raid0 geometry in the stack (for the layout audit), NULL if none. */
const struct r0_geometry *r0_trim_device_md_geometry(const struct r0_trim_device *t);

/*
 * r0_trim_check_limits for T into LC: each bottom device's limits are its
 * member's queue (chain[0]), or its bottom device's where that takes no
 * discards below a layer, with the larger of the two granularities; a
 * layer over members splits discards itself, and so does a single device
 * that is its own member (only its support is checked), not a single
 * device over layers. The smallest member write_zeroes_max_bytes (0 with
 * no member) into *MIN_WRITE_ZEROES_BYTES.
 */
void r0_trim_device_check_limits(const struct r0_trim_device *t, struct r0_limits_check *lc,
				 uint64_t *min_write_zeroes_bytes);

/* ------------------------------------------------------------------ I/O */

/* Discard sectors counted so far at every member and at the bottom of each chain. */
struct r0_trim_counters {
	uint64_t node_sectors[R0_TRIM_MAX_NODES];   /* every layer's own count (md's stays 0) */
	uint64_t member_sectors[R0_MAX_MEMBERS];
	uint64_t leaf_sectors[R0_MAX_MEMBERS];
	uint64_t leaf_writes[R0_MAX_MEMBERS];   /* write requests, for the quiet check */
};

/* Reads them (/sys/dev/block/M:m/stat, fields 12-15); 0, -EOPNOTSUPP (no discard fields), -errno. */
int r0_trim_read_counters(const struct r0_trim_device *t, struct r0_trim_counters *c);

/* One member's part of one discard. */
struct r0_trim_member_result {
	uint64_t expected_sectors;        /* what the geometry sends it */
	uint64_t observed_sectors;        /* what the device at the bottom of its stack counted */
	uint64_t observed_member_sectors; /* what the member itself counted */
	bool conclusive;                  /* its share holds a whole granule (or nothing is sent) */
	enum r0_check_result verdict;          /* r0_trim_judge_member */
};

/*
 * Judges one discard of [START, START + N) on T from the counters read
 * BEFORE and AFTER it: each member's expected sectors (the geometry's
 * split), observed ones, whether its share is conclusive (holds a whole
 * granule of the larger of the member's and its bottom device's
 * granularity), and the verdict, into RES[0..n_members-1]. The range's
 * verdict, the worst of them, goes to *V; a range shorter than
 * EFFECTIVE_GRAN_BYTES is NOT CONCLUSIVE unless something failed.
 * 0, or -ERANGE/-ENOMEM from the split.
 */
int r0_trim_judge_range(const struct r0_trim_device *t, uint64_t start, uint64_t n,
			uint64_t effective_gran_bytes, const struct r0_trim_counters *before,
			const struct r0_trim_counters *after, struct r0_trim_member_result *res,
			enum r0_check_result *v);

/* BLKDISCARD of [START, START + N) sectors on FD; 0 or -errno. */
int r0_trim_discard(int fd, uint64_t start_sector, uint64_t n_sectors);

/*
 * The fill pattern: every 8-byte word of array sector S, word i, holds
 * ((S << 6) | i) ^ SEED x golden ratio. Never all zeroes or all ones, and
 * different at every position and for every seed.
 */
void r0_trim_pattern(uint64_t seed, uint64_t sector, unsigned n_sectors, void *buf);

/* Whether BUF (8-byte aligned) holds the pattern of sectors [SECTOR, SECTOR + N_SECTORS). */
bool r0_trim_pattern_matches(uint64_t seed, uint64_t sector, unsigned n_sectors, const void *buf);

/* Writes the pattern over [START, START + N) of FD (O_DIRECT, 1 MiB at a time). 0 or -errno. */
int r0_trim_fill(int fd, uint64_t seed, uint64_t start, uint64_t n, bool (*stop)(void));

/* What a read-back after a discard found. */
struct r0_trim_effect {
	/* through the array */
	uint64_t discarded_ok, discarded_bad;  /* sectors that must read as the member promises */
	uint64_t unchecked;                    /* in the range, but no promise or a partial granule */
	uint64_t intact_ok, intact_bad;        /* sectors outside the range: must hold the pattern */
	int64_t first_bad_sector;              /* array sector of the first bad one, -1 none */
	int first_bad_member;                  /* the member it maps to, -1 none */
	bool first_bad_inside;                 /* it was inside the range */
	/* on the members themselves */
	uint64_t member_discarded_ok, member_discarded_bad;
	uint64_t member_intact_ok, member_intact_bad;
	int first_bad_member_direct;           /* first member whose own read was wrong, -1 */
	/* per bottom device: discarded blocks read on it as it promises, or not */
	uint64_t leaf_discarded_ok[R0_MAX_MEMBERS], leaf_discarded_bad[R0_MAX_MEMBERS];
	enum r0_check_result verdict;
};

/* WINDOW of r0_trim_verify: do not look outside the range. */
#define R0_TRIM_NO_OUTSIDE UINT64_MAX

/*
 * How far outside each of the N ranges RG (in order, on an array of
 * ARRAY_SECTORS) r0_trim_verify must read when every sector outside every
 * range is to be checked: WINDOW[i] is W (e.g. two stripes) where the next
 * range that writes (skip_reason unset) lies inside every window read
 * since the last whole read, and 0 (the whole array) otherwise. The
 * sectors beyond a window are then read by the next whole read, before
 * any discard or refill reaches them: a discard that changed one is still
 * found, only not before the ranges after it (issue 18: the 3-member NVMe
 * check read the whole array after every range).
 */
void r0_trim_plan_windows(const struct r0_trim_range *rg, size_t n, uint64_t array_sectors,
			  uint64_t w, uint64_t *window);

/*
 * Up to this size every sector outside every range is checked; beyond it,
 * two stripes either side. 2^22 sectors: 2 GiB (r0trim's docs say 1 GiB).
 */
#define R0_TRIM_FULL_SCAN_MAX_SECTORS (2ull << 21)

/*
 * How far outside each of the N ranges RG r0_trim_verify reads on an
 * array of geometry G over N_MEMBERS bottom devices, into WINDOW[0..n-1]:
 * two stripes (2 x chunk x N_MEMBERS) either side; where every sector is
 * to be checked (*EVERY: FULL_SCAN, or an array of at most
 * R0_TRIM_FULL_SCAN_MAX_SECTORS), r0_trim_plan_windows's plan on them.
 */
void r0_trim_readback_plan(const struct r0_geometry *g, unsigned n_members, const struct r0_trim_range *rg,
			   size_t n, bool full_scan, uint64_t *window, bool *every);

/*
 * After [START, START + N) of the array was discarded, reads back through
 * ARRAY_FD: inside the range, every granule-aligned block of a member
 * that promises a read-back value must read it; outside the range, the
 * whole array (WINDOW 0) or WINDOW sectors either side (none with
 * R0_TRIM_NO_OUTSIDE) must still hold the pattern of SEED. Then reads the same on each member
 * (MEMBER_FDS, opened read-only; -1 to skip): the discarded granules and
 * the member blocks next to them. N 0 checks only that the array holds
 * the pattern (after a fill). 0 or -errno (an I/O error).
 */
int r0_trim_verify(const struct r0_trim_device *t, int array_fd, const int *member_fds,
		   uint64_t seed, uint64_t start, uint64_t n, uint64_t window,
		   struct r0_trim_effect *e);

/*
 * Adds to PER_MEMBER_SECTORS the sectors each bottom device of stack S
 * holds of the file FD on a file system that lies directly on S's top
 * (FIEMAP, Documentation/filesystems/fiemap.rst; physical offsets are top
 * offsets): what deleting it and trimming must discard at least. Counts
 * only extents that are written and not shared. 0, -EOPNOTSUPP (no
 * FIEMAP), -ERANGE (an extent past the top), other -errno.
 */
int r0_trim_file_share(const struct r0_trim_stack *s, int fd, uint64_t *per_member_sectors);

/*
 * The same file's pieces on each bottom device (r0_trim_stack_split of
 * every written extent, in file order) into a malloc'ed *OUT: where a
 * discard of its blocks must land. 0 or as above.
 */
int r0_trim_file_extents(const struct r0_trim_stack *s, int fd, struct r0_trim_leaf_extent **out,
			 size_t *count);

/*
 * Reads the N pieces X back from each bottom device of T itself (read-only,
 * O_DIRECT, beside whatever holds it): sectors in whole granules of a
 * device that promises what a discarded block reads (null_blk, SCSI
 * LBPRZ, NVMe DLFEAT) go to OK[leaf] when they read so and to BAD[leaf]
 * when not; the rest (no promise, a partial granule, unplaced below
 * dm-thin, dropped on the way) to UNCHECKED[leaf]. 0 or -errno.
 */
int r0_trim_leaf_readback(const struct r0_trim_device *t, const struct r0_trim_leaf_extent *x, size_t n,
			  uint64_t *ok, uint64_t *bad, uint64_t *unchecked);

/* What a bottom device said of its own blocks (GET LBA STATUS), in sectors. */
struct r0_trim_lba_answer {
	bool answered;              /* false: not SCSI, or it answers no GET LBA STATUS */
	uint64_t mapped;            /* the drive still maps them */
	uint64_t deallocated;       /* deallocated or anchored: no data kept */
};

/*
 * Asks each bottom device of T that speaks SCSI for the provisioning status
 * (GET LBA STATUS, read-only; lib/scsilba.h) of the whole granules of the
 * N pieces X on it, into A[leaf]. A device that answers no GET LBA STATUS
 * is left unanswered, not an error. 0 or -errno.
 */
int r0_trim_leaf_lba_status(const struct r0_trim_device *t, const struct r0_trim_leaf_extent *x, size_t n,
			    struct r0_trim_lba_answer *a);

/* ------------------------------------------------------------------ evidence */

/* What was shown for one bottom device, weakest first. */
enum r0_trim_level {
	R0_LEVEL_NONE = 0,      /* nothing conclusive, or it failed */
	R0_LEVEL_DELIVERED,     /* its counter got the predicted sectors */
	R0_LEVEL_DEALLOCATED,   /* and the discarded blocks read back as it promises */
};

/* Per bottom device, over every range and cycle of a run. */
struct r0_trim_evidence {
	unsigned delivered[R0_MAX_MEMBERS];   /* conclusive deliveries of a non-zero share */
	unsigned short_[R0_MAX_MEMBERS];      /* deliveries that failed */
	uint64_t dealloc_ok_sectors[R0_MAX_MEMBERS], dealloc_bad_sectors[R0_MAX_MEMBERS];
	/* GET LBA STATUS of discarded granules: what the drive says it freed or kept */
	uint64_t lbas_dealloc_sectors[R0_MAX_MEMBERS], lbas_mapped_sectors[R0_MAX_MEMBERS];
};

/* Adds one discard's member results (r0_trim_judge_range) for T's N bottom devices. */
void r0_trim_evidence_delivery(struct r0_trim_evidence *ev, unsigned n,
			       const struct r0_trim_member_result *res);

/* Adds one read-back (r0_trim_verify). */
void r0_trim_evidence_effect(struct r0_trim_evidence *ev, unsigned n, const struct r0_trim_effect *e);

/* Adds what N bottom devices answered to GET LBA STATUS (r0_trim_leaf_lba_status). */
void r0_trim_evidence_lba_status(struct r0_trim_evidence *ev, unsigned n, const struct r0_trim_lba_answer *a);

/*
 * Bottom device I's level, and WHY in words ("deallocated: NVMe DLFEAT=1",
 * "delivered; read-back not checkable: no promise", "the drive completed
 * the discard but still returns the old data").
 */
enum r0_trim_level r0_trim_evidence_level(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
					  unsigned i, char *why, size_t len);

/* "deallocated", "delivered", "not shown". */
const char *r0_trim_level_name(enum r0_trim_level l);

/*
 * Every bottom device's level into LIST ("nvme0n1 deallocated, sda
 * delivered"). Returns true when each reached REQUIRE; else false, with
 * the reason in FAIL: a device that broke its read-back promise first
 * (the most specific finding), else the first device short of REQUIRE.
 */
bool r0_trim_evidence_summary(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
			      enum r0_trim_level require, char *list, size_t len, char *fail, size_t flen);

/*
 * As r0_trim_evidence_summary, with what the run shows: PASS (each
 * reached REQUIRE); FAIL when a device short of REQUIRE failed something
 * (a delivery fell short, a read-back broke its promise, delivered where
 * deallocated was required); NOT CONCLUSIVE when each device short of it
 * only had no conclusive check (its counters could not be read clearly,
 * e.g. other discards at the same time): no "no" where nothing was shown.
 * FAIL's reason as the summary's; NOT CONCLUSIVE's the first such device.
 */
enum r0_check_result r0_trim_evidence_verdict(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
					 enum r0_trim_level require, char *list, size_t len, char *fail, size_t flen);

/* ------------------------------------------------------------------ file system mode */

/*
 * Writes DIR/PREFIX0, DIR/PREFIX1 ... of 4 MiB each (the last smaller),
 * file k holding the pattern of SEED + k, up to BYTES in all or until the
 * file system is full, each fsync'ed; how many in *COUNT. STOP (may be
 * NULL) is polled between files. 0, -EINTR when it said stop, -errno.
 */
int r0_trim_write_files(const char *dir, const char *prefix, uint64_t bytes, uint64_t seed,
			unsigned *count, bool (*stop)(void));

/* r0_trim_file_share of each of those COUNT files. 0 or -errno. */
int r0_trim_files_share(const struct r0_trim_stack *s, const char *dir, const char *prefix,
			unsigned count, uint64_t *per_member_sectors);

/* Deletes them. 0 or -errno. */
int r0_trim_remove_files(const char *dir, const char *prefix, unsigned count);

/*
 * PATH, 1 MiB with the pattern of SEED: written when CREATE, else read
 * back (O_DIRECT) and compared. 0, -EILSEQ if it changed, other -errno.
 */
int r0_trim_keep_file(const char *path, uint64_t seed, bool create);

/*
 * syncfs and FITRIM of the whole file system at MOUNT_POINT (once more
 * after a pause when it trimmed nothing: ext4 may not have its freed
 * blocks back yet); what they report in *BYTES.
 */
int r0_trim_fitrim(const char *mount_point, uint64_t *bytes);

/*
 * With -o discard: syncs the file system at MNT until every bottom device
 * of T has counted SHARE[i] discarded sectors more than in BEFORE, 10 s
 * at most (then the caller's judgement sees the shortfall). 0 or -errno.
 */
int r0_trim_wait_discards(const struct r0_trim_device *t, const char *mnt, const uint64_t *share,
			  const struct r0_trim_counters *before);

/* Bytes to write at MNT so that PCT of the file system is used (at most what is free). 0 or -errno. */
int r0_trim_fill_goal(const char *mnt, unsigned pct, uint64_t *bytes);

/* FITRIM_BYTES of r0_trim_judge_fs when the discards came from the mount option. */
#define R0_TRIM_NO_FITRIM UINT64_MAX

/*
 * One file system cycle: each member's bottom device must have received
 * (AFTER - BEFORE) at least SHARE[i], what the deleted files held there.
 * With FITRIM_BYTES, the members together must have received exactly that
 * times r0_trim_stack_copies (FITRIM_EXACT: ext4 reports the bytes it
 * discarded) or no more (xfs reports the length it scanned; below dm-thin
 * only whole blocks pass, so never exact). FAIL with WHY naming the member or the
 * sums; NOT CONCLUSIVE if the files held nothing; else PASS.
 */
enum r0_check_result r0_trim_judge_fs(const struct r0_trim_device *t, const uint64_t *share,
				 const struct r0_trim_counters *before,
				 const struct r0_trim_counters *after, uint64_t fitrim_bytes,
				 bool fitrim_exact, char *why, size_t len);

/*
 * The devices under the top of T, each layer down to
 * every bottom device: the r0_device_is_busy rules, except that each may be
 * held by the device right above it (a thin pool's data device by its
 * pool). Returns 0, or -EBUSY (or the probe's -errno) with the device and
 * the reason in WHY ("member nvme1n1 is also held by md126").
 */
int r0_stack_check(const struct r0_trim_device *t, char *why, size_t why_len);

#endif
