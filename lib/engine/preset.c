// SPDX-License-Identifier: GPL-2.0-or-later
/* CrystalDiskMark's test sets: see r0/preset.h. */
#include <stdio.h>
#include <string.h>

#include "r0/preset.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define TEST(lbl, acc, rpct, bs, qd, nj) \
	{ .label = lbl, .w = { .access = acc, .read_pct = rpct, .block_bytes = bs, \
			       .queue_depth = qd, .jobs = nj } }
#define PAIR(lbl, acc, bs, qd, nj) TEST(lbl, acc, 100, bs, qd, nj), TEST(lbl, acc, 0, bs, qd, nj)

/* CrystalDiskMark 8 default profile */
static const struct r0_preset_test cdm8[] = {
	PAIR("SEQ1M Q8T1", R0_ACCESS_SEQ, 1 * MIB, 8, 1),
	PAIR("SEQ1M Q1T1", R0_ACCESS_SEQ, 1 * MIB, 1, 1),
	PAIR("RND4K Q32T1", R0_ACCESS_RAND, 4 * KIB, 32, 1),
	PAIR("RND4K Q1T1", R0_ACCESS_RAND, 4 * KIB, 1, 1),
};

/* CrystalDiskMark 3, as in the source reviews: Seq (1 MiB blocks, one at a
 * time), 512K random, 4K random at QD1 and at QD32 */
static const struct r0_preset_test cdm3[] = {
	PAIR("Seq", R0_ACCESS_SEQ, 1 * MIB, 1, 1),
	PAIR("512K", R0_ACCESS_RAND, 512 * KIB, 1, 1),
	PAIR("4K", R0_ACCESS_RAND, 4 * KIB, 1, 1),
	PAIR("4K QD32", R0_ACCESS_RAND, 4 * KIB, 32, 1),
};

/* CrystalDiskMark 8 NVMe SSD profile */
static const struct r0_preset_test cdm_nvme[] = {
	PAIR("SEQ1M Q8T1", R0_ACCESS_SEQ, 1 * MIB, 8, 1),
	PAIR("SEQ128K Q32T1", R0_ACCESS_SEQ, 128 * KIB, 32, 1),
	PAIR("RND4K Q32T16", R0_ACCESS_RAND, 4 * KIB, 32, 16),
	PAIR("RND4K Q1T1", R0_ACCESS_RAND, 4 * KIB, 1, 1),
};

/*
 * r0predict's grid: random reads and writes (a member's part is rarely
 * sequential on its own, and large random equals sequential on flash), each
 * block size at depths up to 1 MiB in flight. A pass counts only what
 * completes in it, so a deeper queue of large blocks is mostly filling: on
 * sata-real (8 MiB/s) 1M at QD32 is 4 s of work, and 1 s passes measured it
 * at 2.1 MB/s beside 7.3 at QD2. Deeper than measured, r0predict holds the
 * drive saturated, which it is by 1 MiB in flight on a SATA or NVMe drive.
 */
#define Q(lbl, bs, qd) PAIR("RND" lbl " Q" #qd, R0_ACCESS_RAND, bs, qd, 1)
static const struct r0_preset_test predict[] = {
	Q("4K", 4 * KIB, 1), Q("4K", 4 * KIB, 2), Q("4K", 4 * KIB, 4), Q("4K", 4 * KIB, 8),
	Q("4K", 4 * KIB, 32),
	Q("16K", 16 * KIB, 1), Q("16K", 16 * KIB, 2), Q("16K", 16 * KIB, 4), Q("16K", 16 * KIB, 8),
	Q("16K", 16 * KIB, 32),
	Q("64K", 64 * KIB, 1), Q("64K", 64 * KIB, 2), Q("64K", 64 * KIB, 4), Q("64K", 64 * KIB, 8),
	Q("128K", 128 * KIB, 1), Q("128K", 128 * KIB, 2), Q("128K", 128 * KIB, 4), Q("128K", 128 * KIB, 8),
	Q("256K", 256 * KIB, 1), Q("256K", 256 * KIB, 2), Q("256K", 256 * KIB, 4),
	Q("512K", 512 * KIB, 1), Q("512K", 512 * KIB, 2),
	Q("1M", 1 * MIB, 1),
	/*
	 * The first point and a deep one again, last: a drive that answers them
	 * differently now changed its state during the grid (garbage
	 * collection, a write cache filling), and r0predict refuses to predict
	 * from it (R0_PREDICT_MAX_DRIFT).
	 */
	PAIR("RND4K Q1 again", R0_ACCESS_RAND, 4 * KIB, 1, 1),
	PAIR("RND64K Q8 again", R0_ACCESS_RAND, 64 * KIB, 8, 1),
};

/*
 * Everyday work through a file system (r0/everyday.h): the label names the
 * file system and the scenario; read_pct and the block are the scenario's
 * (r0_everyday_read_pct, r0_everyday_piece_bytes; a unit test holds them
 * equal). Time, not a block pattern, is what they measure.
 */
#define FS(fs, name, rpct, piece) TEST(fs " " name, R0_ACCESS_FS, rpct, piece, 1, 1)
#define EVERYDAY(fs) \
	FS(fs, "copy", 50, 1 * MIB), FS(fs, "small files", 33, 1 * MIB), FS(fs, "app start", 100, 32 * KIB), \
	FS(fs, "start in copy", 100, 32 * KIB), FS(fs, "unpack", 50, 1 * MIB)
static const struct r0_preset_test everyday_ext4[] = { EVERYDAY("ext4") };
static const struct r0_preset_test everyday_xfs[] = { EVERYDAY("xfs") };

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct r0_preset presets[] = {
	{ "cdm", "CrystalDiskMark 8 default: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1",
	  N(cdm8), cdm8, 0, 0, 0 },
	{ "cdm3", "CrystalDiskMark 3 (the source reviews): Seq 1M Q1, 512K random Q1, 4K random Q1, 4K random Q32",
	  N(cdm3), cdm3, 0, 0, 0 },
	{ "cdm-nvme", "CrystalDiskMark 8 NVMe: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1",
	  N(cdm_nvme), cdm_nvme, 0, 0, 0 },
	{ "everyday", "everyday work on ext4: a large copy, small files, an application start alone and in a copy, unpacking",
	  N(everyday_ext4), everyday_ext4, 0, 0, 0 },
	{ "everyday-xfs", "the same on xfs (a test region of 300M or more)", N(everyday_xfs), everyday_xfs, 0, 0, 0 },
	{ "predict", "r0predict's grid: random 4K..1M at QD 1..32, at most 1 MiB in flight, 3 passes of 3 s",
	  N(predict), predict, R0_PREDICT_PASSES, 0, R0_PREDICT_PASS_NS },
};

uint64_t r0_test_region_bytes(uint64_t asked, uint64_t size)
{
	uint64_t r = asked < size ? asked : size;

	return r >= (1ULL << 20) ? r - r % (1ULL << 20) : r;
}

const struct r0_preset *r0_presets(size_t *count)
{
	*count = N(presets);
	return presets;
}

bool r0_preset_is_fs(const struct r0_preset *p)
{
	return p->n_tests && p->tests[0].w.access == R0_ACCESS_FS;
}

void r0_preset_names(bool block_only, char *buf, size_t len)
{
	size_t off = 0, total = 0, n = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < N(presets); i++)
		total += !block_only || !r0_preset_is_fs(&presets[i]);
	for (size_t i = 0; i < N(presets) && off < len; i++) {
		if (block_only && r0_preset_is_fs(&presets[i]))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", !n ? "" : n + 1 == total ? " or " : ", ",
					presets[i].name);
		n++;
	}
}

const struct r0_preset *r0_preset_find(const char *name)
{
	for (size_t i = 0; i < N(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}
