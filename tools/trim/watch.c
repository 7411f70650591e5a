// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0trim --watch: one reading of the bottom devices' discard counters,
 * appended to a record file, and what the records show (r0/trimwatch.h).
 * Reads only: nothing is written to any device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "trim.h"

#include "r0/probe.h"
#include "r0/trimwatch.h"

#define WATCH_SCHEMA "r0trim-watch/1"
#define WATCH_MAX_RECORDS 100000

int watch_resolve(const char *what, char *path, size_t len, char *why, size_t why_len)
{
	struct stat st;

	if (stat(what, &st)) {
		snprintf(why, why_len, "%s", strerror(errno));
		return -errno;
	}
	if (S_ISBLK(st.st_mode)) {
		snprintf(path, len, "%s", what);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, why_len, "neither a block device nor a directory of a mounted file system");
		return -EINVAL;
	}
	/* a file system without a block device below it (tmpfs, btrfs's anonymous ids) */
	if (!major(st.st_dev) || r0_devt_node(st.st_dev, path, len)) {
		snprintf(why, why_len, "its file system is on no block device r0trim can read counters of");
		return -EOPNOTSUPP;
	}
	return 0;
}

static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

static json_object *rec_json(const struct r0_watch_rec *r, const char *top)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array();

	json_object_object_add(o, "schema", json_object_new_string(WATCH_SCHEMA));
	json_object_object_add(o, "time", json_object_new_int64(r->time));
	json_object_object_add(o, "boot_id", json_object_new_string(r->boot_id));
	json_object_object_add(o, "top", json_object_new_string(top));
	for (unsigned i = 0; i < r->n; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "name", json_object_new_string(r->name[i]));
		json_object_object_add(d, "serial", json_object_new_string(r->serial[i]));
		json_object_object_add(d, "discard_sectors", json_object_new_int64((int64_t)r->sectors[i]));
		json_object_array_add(devs, d);
	}
	json_object_object_add(o, "devices", devs);
	return o;
}

static int rec_parse(const char *line, struct r0_watch_rec *r)
{
	json_object *o = json_tokener_parse(line), *v, *devs;
	int err = -EINVAL;

	memset(r, 0, sizeof(*r));
	if (!o)
		return -EINVAL;
	if (!json_object_object_get_ex(o, "schema", &v) || strcmp(json_object_get_string(v), WATCH_SCHEMA) ||
	    !json_object_object_get_ex(o, "time", &v))
		goto out;
	r->time = json_object_get_int64(v);
	if (json_object_object_get_ex(o, "boot_id", &v))
		snprintf(r->boot_id, sizeof(r->boot_id), "%s", json_object_get_string(v));
	if (!json_object_object_get_ex(o, "devices", &devs) || !json_object_is_type(devs, json_type_array) ||
	    !json_object_array_length(devs) || json_object_array_length(devs) > R0_MAX_MEMBERS)
		goto out;
	r->n = (unsigned)json_object_array_length(devs);
	for (unsigned i = 0; i < r->n; i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		if (!json_object_object_get_ex(d, "discard_sectors", &v))
			goto out;
		r->sectors[i] = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(d, "name", &v))
			snprintf(r->name[i], sizeof(r->name[i]), "%s", json_object_get_string(v));
		if (json_object_object_get_ex(d, "serial", &v))
			snprintf(r->serial[i], sizeof(r->serial[i]), "%s", json_object_get_string(v));
	}
	err = 0;
out:
	json_object_put(o);
	return err;
}

/* The record file's readings, oldest first; a line that is not one is skipped and counted. */
static int load_records(const char *log, struct r0_watch_rec **recs, size_t *n, unsigned *bad)
{
	FILE *f = fopen(log, "re");
	char *line = NULL;
	size_t cap = 0, lcap = 0;

	*recs = NULL;
	*n = 0;
	*bad = 0;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &lcap, f) > 0 && *n < WATCH_MAX_RECORDS) {
		if (*n == cap) {
			struct r0_watch_rec *p = realloc(*recs, (cap = cap ? 2 * cap : 16) * sizeof(*p));

			if (!p) {
				free(line);
				fclose(f);
				return -ENOMEM;
			}
			*recs = p;
		}
		if (rec_parse(line, &(*recs)[*n]))
			(*bad)++;
		else
			(*n)++;
	}
	free(line);
	fclose(f);
	return 0;
}

static int append_record(const char *log, const struct r0_watch_rec *r, const char *top)
{
	json_object *o = rec_json(r, top);
	FILE *f = fopen(log, "ae");
	int err = 0;

	if (!f)
		err = -errno;
	else {
		const char *line = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								     JSON_C_TO_STRING_NOSLASHESCAPE);

		if (fprintf(f, "%s\n", line) < 0 || fflush(f) || fsync(fileno(f)))
			err = -errno;
		if (fclose(f) && !err)
			err = -errno;
	}
	json_object_put(o);
	return err;
}

static void when(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
	else
		snprintf(buf, len, "%lld", (long long)t);
}

/* The geometry's share of each bottom device for discards over the whole top device. */
static bool predicted_shares(const struct r0_trim_target *t, double *share)
{
	uint64_t tot[R0_MAX_MEMBERS] = { 0 }, all = 0;

	if (!r0_trim_stack_totals(&t->stack, 0, t->size_sectors, tot))
		for (unsigned i = 0; i < t->n_members; i++)
			all += tot[i];
	for (unsigned i = 0; i < t->n_members; i++)
		share[i] = all ? (double)tot[i] / (double)all : 1.0 / t->n_members;
	return all > 0;
}

int watch_mode(struct run *r, const char *log, const char *what)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_watch_rec now = { 0 }, *recs = NULL;
	struct r0_watch_judgement j;
	struct r0_trim_counters c;
	double pred[R0_MAX_MEMBERS];
	char b1[32], b2[32], since[32];
	size_t n = 0;
	unsigned bad = 0;
	bool known;
	int err;

	if ((err = r0_trim_read_counters(t, &c))) {
		fprintf(stderr, PROG ": %s: the bottom devices' discard counters: %s\n", what,
			err == -EOPNOTSUPP ? "this kernel counts no discards (before 4.18)" : strerror(-err));
		return 2;
	}
	now.time = (int64_t)time(NULL);
	boot_id(now.boot_id, sizeof(now.boot_id));
	now.n = t->n_members;
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		struct r0_device d;

		snprintf(now.name[i], sizeof(now.name[i]), "%s", m->kname);
		if (!r0_probe_devt(m->devt, NULL, &d)) {
			snprintf(now.serial[i], sizeof(now.serial[i]), "%s", d.serial);
			r0_device_free(&d);
		}
		now.sectors[i] = c.leaf_sectors[i];
	}
	if ((err = load_records(log, &recs, &n, &bad))) {
		fprintf(stderr, PROG ": %s: %s\n", log, strerror(-err));
		return 2;
	}
	if ((err = append_record(log, &now, t->kname))) {
		fprintf(stderr, PROG ": %s: cannot append the record: %s\n", log, strerror(-err));
		free(recs);
		return 2;
	}
	{
		struct r0_watch_rec *p = realloc(recs, (n + 1) * sizeof(*p));

		if (!p) {
			free(recs);
			return 2;
		}
		recs = p;
		recs[n++] = now;
	}
	known = predicted_shares(t, pred);
	if ((err = r0_watch_judge(recs, n, pred, &j))) {
		fprintf(stderr, PROG ": %s: %s\n", log, strerror(-err));
		free(recs);
		return 2;
	}
	printf(PROG ": watch of %s (%s, %s): record %zu in %s%s\n", what, t->kname, t->desc, j.n_records, log,
	       bad ? " (lines that are no record skipped)" : "");
	when(recs[j.first].time, since, sizeof(since));
	if (j.n_records > 1)
		printf("  since %s: %u interval%s%s\n", since, j.n_intervals, j.n_intervals == 1 ? "" : "s",
		       j.boots ? ", counted from each boot after a reboot" : "");
	for (unsigned i = 0; i < now.n; i++) {
		printf("  %s%s%s%s: %s discarded%s", now.name[i], now.serial[i][0] ? " (serial " : "", now.serial[i],
		       now.serial[i][0] ? ")" : "", sz(j.total[i] * 512, b1, sizeof(b1)),
		       j.n_records > 1 ? "" : " (first reading: nothing to compare)");
		if (j.n_records > 1)
			printf(", %.1f %% of all (the geometry: %.1f %%%s)", j.share[i] * 100, pred[i] * 100,
			       known ? "" : ", not known here: equal assumed");
		if (j.stopped_since[i]) {
			when(j.stopped_since[i], b2, sizeof(b2));
			printf(": none since %s while the others got %s", b2,
			       sz(j.others_since[i] * 512, b1, sizeof(b1)));
		}
		printf("\n");
	}
	switch (j.verdict) {
	case R0_WATCH_FIRST:
		printf("verdict NOT CONCLUSIVE: the first reading of these devices; run again after the next "
		       "fstrim (fstrim.timer: weekly) or a day of use\n");
		break;
	case R0_WATCH_IDLE:
		printf("verdict NOT CONCLUSIVE: no discard reached any bottom device since %s (no fstrim and no "
		       "online discard since then)\n", since);
		break;
	case R0_WATCH_PASS: {
		uint64_t all = 0;

		for (unsigned i = 0; i < now.n; i++)
			all += j.total[i];
		if (all < R0_WATCH_MIN_TOTAL_SECTORS)
			printf("verdict PASS: every bottom device received discards since %s (%s in all: too little "
			       "to judge their shares)\n", since, sz(all * 512, b1, sizeof(b1)));
		else
			printf("verdict PASS: every bottom device received discards since %s, each within %.0f %% of "
			       "its share\n", since, R0_WATCH_DRIFT_BOUND * 100);
		break;
	}
	case R0_WATCH_DRIFT:
		printf("verdict PASS with DRIFT: every bottom device received discards since %s, but a share is "
		       "more than %.0f %% off the geometry's (free space unevenly spread, or a layer that drops "
		       "some)\n", since, R0_WATCH_DRIFT_BOUND * 100);
		break;
	case R0_WATCH_STOPPED:
		for (unsigned i = 0; i < now.n; i++)
			if (j.stopped_since[i]) {
				when(j.stopped_since[i], b2, sizeof(b2));
				printf("verdict FAIL: %s stopped receiving discards after %s while the others got %s\n",
				       now.name[i], b2, sz(j.others_since[i] * 512, b1, sizeof(b1)));
			}
		break;
	}
	free(recs);
	return j.verdict == R0_WATCH_PASS || j.verdict == R0_WATCH_DRIFT ? 0 : 1;
}
