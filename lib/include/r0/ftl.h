/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A flash translation layer model: the simulated SSD behind r0ssd. Pure
 * computation, no I/O: flash pages in erase blocks, page-mapped
 * translation, over-provisioning, one write frontier shared by host writes
 * and garbage collection, greedy (or FIFO) victim choice, TRIM, write
 * amplification counters, optional data keeping and a time model.
 *
 * What it models (and checks against, tests/unit/test_ftl.c): the
 * steady-state write amplification of uniform random page overwrites
 * under greedy GC with a finite number of pages a block (Desnoyers,
 * "Analytic modeling of SSD write performance", SYSTOR 2012): with 256
 * pages a block, 7 % spare -> about 7.1, 12.5 % -> 4.1, 25 % -> 2.2,
 * 50 % -> 1.25; FIFO at 7 % -> 7.3.
 *
 * Spare (over-provisioning) is a fraction of the blocks that hold data:
 * physical data pages P = L / (1 - spare) for L logical pages (rounded up
 * to whole blocks), as in Desnoyers' Sf = (T - U) / T. Beside those the
 * model keeps one erased block in reserve, as real FTLs do, so that GC
 * always has somewhere to copy a victim's valid pages: it holds no data
 * and is not part of the spare, so the figures compare with the analytic
 * model, which has no such block.
 *
 * Not thread-safe: one caller at a time.
 */
#ifndef R0_FTL_H
#define R0_FTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum r0_ftl_victim {
	R0_FTL_GREEDY,   /* the closed block with the fewest valid pages */
	R0_FTL_FIFO,     /* the block closed longest ago (a circular log) */
};

/*
 * The time model. Flash work is done by channels x dies parallel units;
 * every page read, page program, GC copy (a read and a program) and block
 * erase occupies the unit that is free first for its duration. A request's
 * own page operations start when the foreground GC it triggered has
 * finished (the host waits for a free block), and it completes when its
 * last operation does. Reads of unmapped (never written or trimmed) pages
 * and TRIM take no flash time. The channel bus transfer (tens of us a
 * page) is not modelled: it is small beside a program.
 *
 * Defaults (r0_ftl_config_default): the MLC flash of MQSim's
 * Flash_Parameter_Set (Tavakkol et al., FAST 2018): page read 75 us, page
 * program 750 us, block erase 3.8 ms; 2 channels x 2 dies. By that
 * arithmetic four units programming 4K pages write 4 / 750 us, about
 * 5,300 fresh 4K writes a second, one at a time 1 / 750 us, and at WAF
 * 5 (7 % spare) under a fifth of that, erases beside. A ublk device in
 * the sandbox under TCG without a time model is several times faster
 * (measured: the lab notebook, docs/notes/lab-notebook.md), so the model,
 * not the sandbox, sets the speed, and GC shows plainly.
 * Slower than a real 2009-2014 SATA MLC drive (dozens of dies, tens of
 * thousands of IOPS): scaled down on purpose.
 */
struct r0_ftl_timing {
	uint64_t read_ns;        /* page read (tR) */
	uint64_t program_ns;     /* page program (tPROG) */
	uint64_t erase_ns;       /* block erase (tBERS) */
	unsigned channels;       /* >= 1 */
	unsigned dies;           /* dies a channel, >= 1 */
};

struct r0_ftl_config {
	uint64_t logical_pages;      /* host-visible capacity, in pages; >= 1 */
	uint32_t page_bytes;         /* flash page = host block (4096); a power of two >= 512 */
	uint32_t pages_per_block;    /* erase block, in pages (256); >= 2 */
	double spare_fraction;       /* over-provisioning, of the data blocks: 0 < x <= 0.9 */
	enum r0_ftl_victim victim;
	bool keep_data;              /* keep written data (sparse); else reads return zeros */
	struct r0_ftl_timing timing;
};

/* Counters since r0_ftl_new, plus the current state. All page counts in flash pages. */
struct r0_ftl_stats {
	uint64_t host_write_pages;   /* pages the host wrote */
	uint64_t host_read_pages;    /* pages the host read */
	uint64_t host_trim_pages;    /* pages the host trimmed (mapped or not) */
	uint64_t flash_program_pages;/* every page program: host writes + GC copies */
	uint64_t gc_copy_pages;      /* valid pages GC copied */
	uint64_t erases;             /* blocks erased (each after GC took it) */
	uint64_t gc_runs;            /* victims reclaimed */
	uint64_t gc_stall_ns;        /* host time spent waiting for foreground GC (time model) */
	uint64_t mapped_pages;       /* logical pages that hold data now */
	uint64_t valid_pages;        /* physical pages holding the current copy of a logical page */
	uint64_t free_blocks;        /* erased blocks, the reserve included */
	uint64_t logical_pages, physical_blocks, pages_per_block;
	uint32_t page_bytes;
};

/* The defaults above: 4096-byte pages, 256 a block, 7 % spare, greedy, data kept. */
void r0_ftl_config_default(struct r0_ftl_config *c, uint64_t logical_pages);

/*
 * Data blocks for a configuration (physical blocks = this + 1 reserve):
 * ceil(L / (1 - spare) / pages_per_block), at least one more than the
 * logical pages need. 0 for an invalid configuration.
 */
uint64_t r0_ftl_data_blocks(const struct r0_ftl_config *c);

/*
 * The spare the model really has, a fraction: 1 - L / (data blocks x pages
 * a block). Whole blocks make it larger than spare_fraction: 32 MiB at 7 %
 * (8192 logical pages, 256 a block) is 35 data blocks, 8.57 %; with_reserve
 * counts the reserve block as well (36 blocks, 11.1 %). The analytic WAF
 * figures apply to the first. 0 for an invalid configuration.
 */
double r0_ftl_spare_effective(const struct r0_ftl_config *c, bool with_reserve);

/*
 * A new, empty (all pages unmapped, all blocks erased) model. NULL with
 * errno EINVAL (a configuration outside the ranges above, or a physical
 * page count that does not fit 32 bits) or ENOMEM.
 */
struct r0_ftl *r0_ftl_new(const struct r0_ftl_config *c);
void r0_ftl_free(struct r0_ftl *f);

/*
 * Host requests on whole pages [lpn, lpn + n_pages). now_ns is the
 * request's arrival on any monotonic clock (it must not go backwards);
 * with done_ns non-NULL the time model runs and *done_ns is when the
 * request completes (>= now_ns); with NULL it is skipped (faster, for
 * pure WAF studies). write: data is n_pages x page_bytes bytes, or NULL
 * (zeros are kept if keep_data). read: buf receives the data (zeros for
 * unmapped pages, and always zeros without keep_data), or NULL. trim
 * unmaps the pages: their flash copies become invalid, reads give zeros.
 * Return 0, -EINVAL (n_pages 0) or -ERANGE (beyond the device), -ENOMEM
 * (keep_data could not allocate; the model is unchanged for that page on).
 */
int r0_ftl_write(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages, const void *data,
		 uint64_t now_ns, uint64_t *done_ns);
int r0_ftl_read(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages, void *buf,
		uint64_t now_ns, uint64_t *done_ns);
int r0_ftl_trim(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages,
		uint64_t now_ns, uint64_t *done_ns);

void r0_ftl_get_stats(const struct r0_ftl *f, struct r0_ftl_stats *s);

/* flash_program_pages / host_write_pages of the difference after - before (0 without writes). */
double r0_ftl_waf(const struct r0_ftl_stats *before, const struct r0_ftl_stats *after);

/*
 * Checks every invariant of the model (O(size)): each mapped logical page
 * points to a valid physical page that points back, each valid physical
 * page to a logical page that maps to it, per-block valid counts match
 * the pages, the GC lists hold exactly the closed blocks in the right
 * buckets, free + open + closed blocks = all blocks, free blocks hold no
 * data, programs = erases x pages a block + pages written since the
 * current erase. 0, or -EUCLEAN with the first violation in why.
 */
int r0_ftl_check(const struct r0_ftl *f, char *why, size_t why_len);

#endif
