// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dm-stripe back end. Every libdevmapper call of r0kit is in this file: it
 * turns libdm's 1/0 results into -errno and captures libdm's log, which
 * would otherwise go to stderr, for r0_array_last_error().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <libdevmapper.h>

#include "array_backend.h"
#include "dmtable.h"

static void dm_log(int level, const char *file, int line, int dm_errno_or_class,
		   const char *f, ...)
{
	char msg[512];
	va_list ap;

	(void)file; (void)line; (void)dm_errno_or_class;
	if (level > 3)   /* libdm's _LOG_ERR; the rest is chatter */
		return;
	va_start(ap, f);
	vsnprintf(msg, sizeof(msg), f, ap);
	va_end(ap);
	r0_set_last_error("%s", msg);
}

/* udev synchronisation only where udev runs; otherwise libdm makes the nodes. */
static bool udev_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}

static void dm_setup(void)
{
	dm_log_with_errno_init(dm_log);
	dm_udev_set_sync_support(udev_running());
}

static int task_errno(struct dm_task *dmt)
{
	int e = dm_task_get_errno(dmt);

	return e > 0 ? -e : -EIO;
}

/* Runs a task, waiting for udev when it manages the nodes. */
static int run_task(struct dm_task *dmt, bool cookie)
{
	uint32_t c = 0;
	int ok, err = 0;

	if (cookie && dm_udev_get_sync_support() && !dm_task_set_cookie(dmt, &c, 0))
		return -EIO;
	ok = dm_task_run(dmt);
	if (!ok)
		err = task_errno(dmt);
	if (c)
		dm_udev_wait(c);
	else if (cookie)
		dm_task_update_nodes();
	return err;
}

static int dm_remove_name(const char *dmname)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_REMOVE);
	int err;

	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, dmname)) {
		dm_task_destroy(dmt);
		return -EINVAL;
	}
	/* no dm_task_retry_remove: a transient opener is retried by array.c alone */
	err = run_task(dmt, true);
	dm_task_destroy(dmt);
	return err;
}


int r0_dm_create(const struct r0_array_spec *spec, struct r0_array *out)
{
	char dmname[64], uuid[64], params[32 + R0_MAX_MEMBERS * 32];
	struct dm_task *dmt;
	size_t off;
	unsigned i;
	int err;

	if (access("/sys/module/dm_mod", F_OK) != 0) {
		r0_set_last_error("this kernel has no device-mapper (load dm_mod)");
		return -ENODEV;
	}
	dm_setup();
	snprintf(dmname, sizeof(dmname), R0_DM_PREFIX "%s", spec->name);
	snprintf(uuid, sizeof(uuid), R0_DM_UUID_PREFIX "%s", spec->name);
	/* striped <#stripes> <chunk sectors> <dev> <offset>... (dm-stripe.c) */
	off = (size_t)snprintf(params, sizeof(params), "%u %u", spec->n_members,
			       spec->chunk_bytes / 512);
	for (i = 0; i < spec->n_members; i++)
		off += (size_t)snprintf(params + off, sizeof(params) - off, " %u:%u 0",
					major(spec->members[i]), minor(spec->members[i]));

	dmt = dm_task_create(DM_DEVICE_CREATE);
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, dmname) || !dm_task_set_uuid(dmt, uuid) ||
	    !dm_task_add_target(dmt, 0, spec->dm_length_sectors, "striped", params)) {
		dm_task_destroy(dmt);
		return -EINVAL;
	}
	err = run_task(dmt, true);
	dm_task_destroy(dmt);
	if (err) {
		/* libdm removes a device whose table load failed; make sure, and
		 * keep the message of the failure, not of this clean-up */
		char why[512];

		snprintf(why, sizeof(why), "%s", r0_array_last_error());
		if (err != -EEXIST)
			dm_remove_name(dmname);
		r0_set_last_error("%s", why);
		return err;
	}
	err = r0_dm_describe(dmname, out);
	if (err || !out->active) {
		r0_set_last_error("dm %s: not found after create", dmname);
		dm_remove_name(dmname);
		return err ? err : -ENOENT;
	}
	return 0;
}

int r0_dm_remove(const struct r0_array *a)
{
	struct r0_array now;
	char dmname[64];

	dm_setup();
	snprintf(dmname, sizeof(dmname), R0_DM_PREFIX "%s", a->name);
	/* read again on every try: udev's probe after a write holds it open for a moment */
	if (r0_dm_describe(dmname, &now) == 0 && now.open_count > 0) {
		r0_set_last_error("%s is open (%d openers)", a->path, now.open_count);
		return -EBUSY;
	}
	return dm_remove_name(dmname);
}

/* Reads info and the striped table of one dm device into *a. */
int r0_dm_describe(const char *dmname, struct r0_array *a)
{
	struct dm_task *dmt;
	struct dm_info info;
	const char *uuid;
	uint64_t start, length;
	char *type = NULL, *params = NULL;
	int err = 0, n, pos;
	unsigned chunk_sectors, i;

	memset(a, 0, sizeof(*a));
	dmt = dm_task_create(DM_DEVICE_TABLE);
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, dmname)) {
		err = -EINVAL;
		goto out;
	}
	err = run_task(dmt, false);
	if (err)
		goto out;
	if (!dm_task_get_info(dmt, &info) || !info.exists) {
		err = -ENOENT;
		goto out;
	}
	uuid = dm_task_get_uuid(dmt);
	if (!uuid || strncmp(uuid, R0_DM_UUID_PREFIX, strlen(R0_DM_UUID_PREFIX)) != 0) {
		err = -ENOENT;   /* an r0- name without our uuid is not ours */
		goto out;
	}
	a->backend = R0_BACKEND_DM;
	snprintf(a->name, sizeof(a->name), "%s", dmname + strlen(R0_DM_PREFIX));
	snprintf(a->kname, sizeof(a->kname), "dm-%u", (unsigned)info.minor);
	snprintf(a->path, sizeof(a->path), "/dev/mapper/%s", dmname);
	a->devt = makedev((unsigned)info.major, (unsigned)info.minor);
	a->open_count = info.open_count;
	a->md_layout = 0;

	dm_get_next_target(dmt, NULL, &start, &length, &type, &params);
	if (!type || strcmp(type, "striped") != 0 || !params) {
		a->active = false;   /* no table loaded: left half-built */
		goto out;
	}
	a->active = true;
	a->size_sectors = length;
	if (sscanf(params, "%u %u%n", &a->n_members, &chunk_sectors, &pos) != 2 ||
	    a->n_members == 0 || a->n_members > R0_MAX_MEMBERS) {
		err = -EINVAL;
		goto out;
	}
	a->chunk_bytes = chunk_sectors * 512;
	for (i = 0; i < a->n_members; i++) {
		unsigned maj, min;
		unsigned long long offset;

		params += pos;
		if (sscanf(params, " %u:%u %llu%n", &maj, &min, &offset, &n) != 3) {
			err = -EINVAL;
			goto out;
		}
		pos = n;
		a->members[i] = makedev(maj, min);
	}
out:
	dm_task_destroy(dmt);
	return err;
}

int r0_dm_names(int (*fn)(const char *name, void *arg), void *arg)
{
	struct dm_task *dmt;
	struct dm_names *names;
	unsigned next = 0;
	int err;

	/* no device-mapper in this kernel: then there are no dm arrays */
	if (access("/sys/module/dm_mod", F_OK) != 0)
		return 0;
	dm_setup();
	dmt = dm_task_create(DM_DEVICE_LIST);
	if (!dmt)
		return -ENOMEM;
	err = run_task(dmt, false);
	if (err) {
		dm_task_destroy(dmt);
		return err;
	}
	names = dm_task_get_names(dmt);
	if (names && names->dev) {
		do {
			names = (struct dm_names *)((char *)names + next);
			err = fn(names->name, arg);
			next = names->next;
		} while (next && !err);
	}
	dm_task_destroy(dmt);
	return err;
}

int r0_dm_table(dev_t devt, struct r0_dm_target *t, unsigned max, unsigned *count)
{
	struct dm_task *dmt;
	struct dm_info info;
	void *next = NULL;
	int err;

	*count = 0;
	if (access("/sys/module/dm_mod", F_OK) != 0)
		return -ENODEV;
	dm_setup();
	dmt = dm_task_create(DM_DEVICE_TABLE);
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_major(dmt, (int)major(devt)) || !dm_task_set_minor(dmt, (int)minor(devt))) {
		err = -EINVAL;
		goto out;
	}
	err = run_task(dmt, false);
	if (err)
		goto out;
	if (!dm_task_get_info(dmt, &info) || !info.exists || !info.live_table) {
		err = -ENOENT;
		goto out;
	}
	do {
		uint64_t start, length;
		char *type = NULL, *params = NULL;

		next = dm_get_next_target(dmt, next, &start, &length, &type, &params);
		if (!type)
			break;
		if (*count < max) {
			struct r0_dm_target *x = &t[*count];

			x->start_sector = start;
			x->length_sectors = length;
			snprintf(x->type, sizeof(x->type), "%s", type);
			snprintf(x->params, sizeof(x->params), "%s", params ? params : "");
		}
		(*count)++;
	} while (next);
out:
	dm_task_destroy(dmt);
	return err;
}

int r0_dm_message(dev_t devt, const char *message)
{
	struct dm_task *dmt;
	int err;

	if (access("/sys/module/dm_mod", F_OK) != 0)
		return -ENODEV;
	dm_setup();
	dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_major(dmt, (int)major(devt)) || !dm_task_set_minor(dmt, (int)minor(devt)) ||
	    !dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, message))
		err = -EINVAL;
	else
		err = run_task(dmt, false);
	dm_task_destroy(dmt);
	return err;
}

/* --- windows (r0/array.h) --------------------------------------------- */

int r0_dm_window_create(const char *name, dev_t devt, uint64_t sectors, char *path, size_t len)
{
	char dmname[64], uuid[64], params[64];
	struct dm_task *dmt;
	int err;

	if (access("/sys/module/dm_mod", F_OK) != 0) {
		r0_set_last_error("this kernel has no device-mapper (load dm_mod)");
		return -ENODEV;
	}
	dm_setup();
	snprintf(dmname, sizeof(dmname), R0_DM_PREFIX "%s", name);
	snprintf(uuid, sizeof(uuid), R0_DM_UUID_PREFIX "%s", name);
	snprintf(params, sizeof(params), "%u:%u 0", major(devt), minor(devt));
	dmt = dm_task_create(DM_DEVICE_CREATE);
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, dmname) || !dm_task_set_uuid(dmt, uuid) ||
	    !dm_task_add_target(dmt, 0, sectors, "linear", params)) {
		dm_task_destroy(dmt);
		return -EINVAL;
	}
	err = run_task(dmt, true);
	dm_task_destroy(dmt);
	if (err && err != -EEXIST)
		dm_remove_name(dmname);
	if (!err)
		snprintf(path, len, "%s/%s", dm_dir(), dmname);
	return err;
}

static int window_remove_once(void *dmname)
{
	return dm_remove_name(dmname);
}

int r0_dm_window_remove(const char *name)
{
	char dmname[64];

	dm_setup();
	snprintf(dmname, sizeof(dmname), R0_DM_PREFIX "%s", name);
	return r0_array_retry_busy(window_remove_once, dmname);
}
