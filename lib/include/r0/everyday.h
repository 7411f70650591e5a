/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Everyday work through a file system: what users wait for, as the German
 * SSD review measured it (copying a large image within the drive, 20,000
 * mixed files, starting an application alone and 10 s into a large copy,
 * installing), on a directory of a mounted file system. Each scenario
 * sets up its files untimed, writes back and drops the page cache (the
 * review rebooted), times its work to the last byte on the device
 * (fsync/syncfs: a copy is done when its data is, not when cp returns),
 * and removes its files again, so one file system serves every scenario
 * of a visit. Sizes are fractions of a scale, the study's test region, so
 * a scenario keeps its shape from a 32 MiB sandbox region to CDM's 1 GiB.
 */
#ifndef R0_EVERYDAY_H
#define R0_EVERYDAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum r0_everyday {
	R0_EVERYDAY_COPY,           /* one large file copied within the file system */
	R0_EVERYDAY_SMALL_FILES,    /* many small files written, copied, read back */
	R0_EVERYDAY_APP_START,      /* a program's files read cold, in its order */
	R0_EVERYDAY_APP_START_BUSY, /* the same while a large copy runs */
	R0_EVERYDAY_UNPACK,         /* an archive read and its files written (an install) */
	R0_EVERYDAY_COUNT
};

/* "copy", "small files", "app start", "start in copy", "unpack"; NULL past the end. */
const char *r0_everyday_name(enum r0_everyday s);
/* The mix class of a scenario: "copy", "small-files", "app-start", "app-start-busy", "unpack". */
const char *r0_everyday_class(enum r0_everyday s);
/* Share of the scenario's bytes that are reads, 0..100 (a fixed figure per scenario). */
unsigned r0_everyday_read_pct(enum r0_everyday s);
/* The size of the scenario's pieces of I/O, bytes (1 MiB copies, 32 KiB page-ins). */
uint32_t r0_everyday_piece_bytes(enum r0_everyday s);
/* Free space the scenario needs on a scale of SCALE_BYTES, bytes (its files at their largest). */
uint64_t r0_everyday_space_bytes(enum r0_everyday s, uint64_t scale_bytes);

/*
 * A scenario's workload label in r0sweep: "<fs> <name>" ("ext4 copy",
 * "xfs start in copy"). r0_everyday_parse: the file system type into FS
 * (LEN bytes) and the scenario into *S; 0 or -EINVAL.
 */
int r0_everyday_parse(const char *label, char *fs, size_t len, enum r0_everyday *s);

/* File system types the scenarios are made on, and the smallest each mkfs accepts. */
bool r0_everyday_fs_known(const char *fs);
uint64_t r0_everyday_fs_min_bytes(const char *fs);

/* The smallest scale the scenarios keep their shape at: 32 MiB. */
#define R0_EVERYDAY_MIN_SCALE_BYTES (32ULL << 20)

struct r0_everyday_opts {
	uint64_t scale_bytes;       /* the test region; sizes are fractions of it */
	uint64_t seed;              /* file sizes, orders and contents */
	bool drop_caches;           /* write back and drop the page cache before timing (root) */
	volatile sig_atomic_t *stop;    /* set by a signal handler: -EINTR (NULL: none) */
};

struct r0_everyday_result {
	double seconds;             /* the timed work, to the last byte on the device */
	uint64_t read_bytes, written_bytes;     /* by the timed work */
	uint64_t files;             /* files it opened */
	uint64_t pieces;            /* read and write calls */
	/* start in copy: bytes the copy had written when the start began, and copy passes meanwhile */
	uint64_t busy_written_bytes;
	unsigned busy_passes;
};

/*
 * Runs scenario S in a new directory under DIR (a mounted file system) and
 * fills *R. 0; -EINVAL for a scale below R0_EVERYDAY_MIN_SCALE_BYTES or a
 * scenario past the end; -EINTR when O's stop was set; -errno of the file
 * system (-ENOSPC: it is too small for the scale). Its files are removed
 * in every case.
 */
int r0_everyday_run(enum r0_everyday s, const char *dir, const struct r0_everyday_opts *o,
		    struct r0_everyday_result *r);

#endif
