// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0sweep's everyday cells: on each target a file system over the test
 * region, made fresh on every visit (a window keeps mkfs inside the
 * region), then each wanted scenario in it (r0/everyday.h), timed and
 * recorded as a cell: runtime_s the scenario's seconds, bytes_per_s its
 * bytes read and written over them (so a faster target has the higher
 * figure, as in every other cell), ios its read and write calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mountdir.h"
#include "runcmd.h"
#include "sweep.h"

#include "r0/array.h"
#include "r0/engine.h"
#include "r0/everyday.h"
#include "r0/preset.h"
#include "r0/probe.h"

static const char *const fs_types[] = { "ext4", "xfs" };

/* Whether WL is a scenario on FS the visit of T runs: its scenario into *S, the cell into *R. */
static bool fs_cell_wanted(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl,
			   const char *fs, enum r0_everyday *s, struct r0_run *r)
{
	char wfs[16];

	return sweep_is_everyday(sw, wl) && !r0_everyday_parse(sw->plan.wl[wl].label, wfs, sizeof(wfs), s) &&
	       !strcmp(wfs, fs) && sweep_cell_wanted(sw, t, wl, r);
}

/* The region a target's file system covers: as the block tests', whole MiB. */
static int fs_region(const struct sweep *sw, const char *path, dev_t *devt, uint64_t *bytes)
{
	struct r0_io_file tg;
	int err = r0_io_file_open(path, false, &tg);

	if (err)
		return err;
	*devt = tg.devt;
	*bytes = r0_test_region_bytes(sw->region_bytes, tg.size_bytes);
	r0_io_file_close(&tg);
	return 0;
}

struct fs_visit {
	char window[R0_ARRAY_NAME_MAX + 8], wpath[256], mnt[64];
	bool have_window, made, mounted;
};

static void fs_leave(struct fs_visit *v)
{
	r0_cli_leave_mount(v->mnt, &v->mounted);
	/* the scenarios' file system is r0sweep's, not the user's: no signature stays behind
	 * to make the members look in use (a --resume would need --force) */
	if (v->have_window && v->made) {
		unsigned n;
		int err = r0_wipe_signatures(v->wpath, 0, &n);

		if (err)
			fprintf(stderr, PROG ": %s: cannot wipe the scenarios' file system signature: %s\n", v->wpath,
				strerror(-err));
	}
	if (v->have_window && r0_dm_window_remove(v->window))
		fprintf(stderr, PROG ": remove %s: %s (dmsetup remove r0-%s)\n", v->wpath, r0_array_last_error(),
			v->window);
	v->have_window = false;
}

/* A window over the region of PATH, FS made on it and mounted. 0 or -errno (said why). */
static int fs_enter(struct sweep *sw, const char *path, const char *fs, uint64_t region_bytes, dev_t devt,
		    struct fs_visit *v)
{
	char why[512];
	int err;

	/* a name r0build accepts: a window left by a killed r0sweep goes with `r0build remove --all` */
	snprintf(v->window, sizeof(v->window), "%s.fs", sw->array_name);
	err = r0_dm_window_create(v->window, devt, region_bytes / 512, v->wpath, sizeof(v->wpath));
	if (err) {
		fprintf(stderr, PROG ": %s: a window over its first %llu MiB for %s: %s%s%s\n", path,
			(unsigned long long)(region_bytes >> 20), fs, strerror(-err),
			*r0_array_last_error() ? ": " : "", r0_array_last_error());
		return err;
	}
	v->have_window = true;
	{
		/* no discard by mkfs: every target starts as preconditioned, none freshly trimmed */
		char *mkfs_ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard", v->wpath, NULL };
		char *mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", "-K", v->wpath, NULL };

		/* mkfs may have written a signature before it failed or was stopped */
		v->made = true;
		sw->fs_made = true;
		err = r0_cli_run(strcmp(fs, "xfs") ? mkfs_ext4 : mkfs_xfs, why, sizeof(why));
	}
	if (err) {
		fprintf(stderr, PROG ": %s: mkfs %s: %s\n", path, fs, r0_cli_stop_requested() ? "interrupted" : why);
		return r0_cli_stop_requested() ? -EINTR : err;
	}
	snprintf(v->mnt, sizeof(v->mnt), "%sXXXXXX", R0_SCRATCH_MOUNT_PREFIX);
	if (!mkdtemp(v->mnt)) {
		err = -errno;
		v->mnt[0] = '\0';
		fprintf(stderr, PROG ": cannot make a mount point: %s\n", strerror(-err));
		return err;
	}
	if (mount(v->wpath, v->mnt, fs, 0, NULL)) {
		err = -errno;
		fprintf(stderr, PROG ": %s: mount %s: %s%s%s%s\n", path, fs, strerror(-err),
			err == -ENODEV ? " (the kernel has no " : "", err == -ENODEV ? fs : "",
			err == -ENODEV ? ": modprobe it)" : "");
		return err;
	}
	v->mounted = true;
	return 0;
}

static void set_result(struct r0_run *r, const struct r0_everyday_result *e)
{
	r->runtime_s = e->seconds;
	r->ios = e->pieces;
	r->iops = e->seconds > 0 ? (double)e->pieces / e->seconds : 0;
	r->bytes_per_s = e->seconds > 0 ? (double)(e->read_bytes + e->written_bytes) / e->seconds : 0;
	r->time_unix = (int64_t)time(NULL);
}

/* The wanted cells of FS on the mounted file system. 0, -EINTR or -errno (said why). */
static int fs_cells(struct sweep *sw, const struct r0_sweep_target *t, const char *path,
		    const char *fs, const struct fs_visit *v, uint64_t region_bytes)
{
	struct r0_everyday_opts o = { .scale_bytes = region_bytes, .seed = sw->pass, .drop_caches = true,
				      .stop = r0_cli_stop_flag() };
	int err = 0;

	for (size_t i = 0; i < sw->plan.n_wl && !err; i++) {
		struct r0_everyday_result e;
		struct r0_run r;
		enum r0_everyday s;
		char name[160], line[128];

		if (!fs_cell_wanted(sw, t, i, fs, &s, &r))
			continue;
		sweep_cell_name(t, &r, name, sizeof(name));
		sweep_progress(sw, name, NULL);
		err = r0_everyday_run(s, v->mnt, &o, &e);
		if (err == -EINTR || r0_cli_stop_requested())
			return -EINTR;
		if (err) {
			fprintf(stderr, "%s" PROG ": %s: %s: %s%s\n", sw->tty ? "\n" : "", path, sw->plan.wl[i].label,
				strerror(-err), err == -ENOSPC ? " (the file system over the region is full)" : "");
			return err;
		}
		set_result(&r, &e);
		snprintf(line, sizeof(line), "%.2f s, %.1f MB/s, %llu files", e.seconds, r.bytes_per_s / 1e6,
			 (unsigned long long)e.files);
		err = sweep_record_cell(sw, &r, name, line);
	}
	return err;
}

void sweep_wipe_members(struct sweep *sw, const struct r0_sweep_target *t)
{
	if (!sw->fs_made)
		return;
	sw->fs_made = false;
	/*
	 * The window's own signature is wiped when a visit ends, but a
	 * member's own first block can hold a journaled copy of the
	 * superblock (jbd2 logs block 0 where the journal crosses a member's
	 * first chunk), which probes as ext4: the members are read once more
	 * and what lies within the region goes.
	 */
	for (unsigned i = 0; i < t->n; i++) {
		unsigned n;
		int err = r0_wipe_signatures(sw->members[i], sw->region_bytes, &n);

		if (err)
			fprintf(stderr, PROG ": %s: cannot wipe the scenarios' file system signature: %s\n",
				sw->members[i], strerror(-err));
	}
}

int sweep_run_everyday(struct sweep *sw, const struct r0_sweep_target *t, const char *path)
{
	int err = 0;

	for (size_t f = 0; f < sizeof(fs_types) / sizeof(fs_types[0]) && !err; f++) {
		struct fs_visit v = { 0 };
		uint64_t region_bytes;
		bool any = false;
		dev_t devt;

		for (size_t i = 0; i < sw->plan.n_wl; i++) {
			struct r0_run r;
			enum r0_everyday s;

			any |= fs_cell_wanted(sw, t, i, fs_types[f], &s, &r);
		}
		if (!any)
			continue;
		if ((err = fs_region(sw, path, &devt, &region_bytes))) {
			fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(-err));
			break;
		}
		err = fs_enter(sw, path, fs_types[f], region_bytes, devt, &v);
		if (!err)
			err = fs_cells(sw, t, path, fs_types[f], &v, region_bytes);
		fs_leave(&v);
	}
	return err;
}
