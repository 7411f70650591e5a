/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build, find, list and remove the md raid0 and dm-stripe arrays r0kit owns. */
#ifndef R0_ARRAY_H
#define R0_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "r0/geometry.h"
#include "r0/safety.h"

/*
 * Every array r0kit builds carries its name in the kernel, so it is found
 * again after a crash or SIGKILL without any record on disk:
 *   dm: device name "r0-NAME", uuid "R0KIT-NAME"
 *   md: kernel name "md_r0-NAME" (/dev/md_r0-NAME), made with md_mod's
 *       new_array parameter; superblock-less, so members carry no metadata.
 * NAME is 1..R0_ARRAY_NAME_MAX characters of [A-Za-z0-9_.+] (md's 32-byte
 * disk name limit leaves room for 24 after "md_r0-").
 */
#define R0_ARRAY_NAME_MAX 24
#define R0_DM_PREFIX "r0-"
#define R0_DM_UUID_PREFIX "R0KIT-"
#define R0_MD_PREFIX "md_r0-"

struct r0_array_spec {
	enum r0_backend backend;
	const char *name;               /* NAME as above */
	uint32_t chunk_bytes;           /* checked with r0_parse_chunk's rules */
	unsigned n_members;             /* 1..R0_MAX_MEMBERS */
	dev_t members[R0_MAX_MEMBERS];  /* whole block devices, in array order */
	enum r0_md_layout md_layout;    /* md with unequal members; 0 = ALT */
	uint64_t dm_length_sectors;     /* dm table length: n x smallest, chunk-rounded */
};

struct r0_array {
	enum r0_backend backend;
	char name[R0_ARRAY_NAME_MAX + 1]; /* NAME, without prefix */
	char kname[64];                   /* md_r0-NAME or dm-N */
	char path[96];                    /* /dev/md_r0-NAME or /dev/mapper/r0-NAME */
	dev_t devt;
	uint32_t chunk_bytes;
	unsigned n_members;
	dev_t members[R0_MAX_MEMBERS];
	uint64_t size_sectors;
	int md_layout;                    /* md only: the kernel's md/layout */
	int open_count;                   /* dm: open count; md: -1 (unknown) */
	bool active;                      /* false: left half-built (e.g. after SIGKILL) */
};

/* 0 if NAME is valid, -EINVAL if not. */
int r0_array_check_name(const char *name);

/* "md" or "dm", as r0build names a back end. */
const char *r0_array_backend_name(enum r0_backend b);

/*
 * SPEC's members, in array order, from the N members' checks
 * (r0/safety.h), and its dm table length from their geometry (also in
 * *GEO) for SPEC's back end, chunk and md layout. -EINVAL (as
 * r0_geometry_init) when a member is too small for one chunk.
 */
int r0_array_spec_members(struct r0_array_spec *spec, const struct r0_member_check *chk, unsigned n,
			  struct r0_geometry *geo);

/*
 * Builds the array and fills *out. On any failure everything made so far
 * is removed again and -errno returned; r0_array_last_error() then says
 * what the kernel or libdevmapper reported. Members are not checked here:
 * that is the caller's job (r0/safety.h) before calling.
 * -EEXIST: an array of that name exists.
 */
int r0_array_create(const struct r0_array_spec *spec, struct r0_array *out);

/* Stops/removes an array r0kit built. -EBUSY if it is open or mounted. */
int r0_array_remove(const struct r0_array *a);

/* Where r0sweep mounts a scenario's file system: mkdtemp of this prefix and XXXXXX. */
#define R0_SCRATCH_MOUNT_PREFIX "/tmp/r0sweep."

/*
 * Unmounts A's device from every r0kit scratch mount point
 * (R0_SCRATCH_MOUNT_PREFIX..., what a killed r0sweep leaves) and removes
 * the emptied directory. The number unmounted (0: none), -EBUSY when A is
 * mounted anywhere else (not r0kit's to undo), or -errno.
 */
int r0_array_release_scratch(const struct r0_array *a);

/* The name r0sweep gives its array: this and its pid ("sweep.1234"; its window "sweep.1234.fs"). */
#define R0_SWEEP_ARRAY_PREFIX "sweep."

/*
 * Removes what a killed r0sweep left on MEMBERS (N_MEMBERS device
 * numbers): the arrays named R0_SWEEP_ARRAY_PREFIX and the pid of a
 * process that is gone, built on those members alone (or on such an
 * array: its window), with their scratch mounts. A living r0sweep's
 * arrays, anyone else's, and any standing on another device are left
 * alone. The names removed into NAMES (up to MAX), their count into
 * *REMOVED. 0; -EBUSY when one is mounted elsewhere or held; -errno.
 */
int r0_array_clear_killed_sweep(const dev_t *members, size_t n_members, char (*names)[R0_ARRAY_NAME_MAX + 1],
				size_t max, size_t *removed);

/*
 * Finds an r0kit array by NAME, by its path (/dev/md_r0-x, /dev/mapper/r0-x,
 * /dev/dm-3, a symlink to one) or by kernel name. -ENOENT if none.
 */
int r0_array_find(const char *what, struct r0_array *out);

/* All r0kit arrays, md first; *out is malloc'ed (free it). */
int r0_array_list(struct r0_array **out, size_t *count);

/* The last libdevmapper or kernel message of this thread ("" if none). */
const char *r0_array_last_error(void);

/*
 * A window on a device: dm-linear "r0-NAME" over the first SECTORS of
 * DEVT, so a program handed it (mkfs, which may clear the end of what it
 * is given) cannot write past them; the device's queue limits (a stripe's
 * io_opt) show through. Its node's path into PATH (LEN bytes). 0; -ENODEV
 * without device-mapper; -EEXIST; -errno (r0_array_last_error says why).
 */
int r0_dm_window_create(const char *name, dev_t devt, uint64_t sectors, char *path, size_t len);
/* Removes window NAME, retrying while a prober holds it. 0 or -errno. */
int r0_dm_window_remove(const char *name);

#endif
