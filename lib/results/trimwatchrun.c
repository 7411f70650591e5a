// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0trim --watch: one reading of the bottom devices' discard counters,
 * appended to a record file (r0/watchfile.h), and what the records show
 * (r0/trimwatch.h), in words and as the document. Reads only: nothing is
 * written to any device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "r0/probe.h"
#include "r0/trimjson.h"
#include "r0/trimrun.h"
#include "r0/trimshare.h"
#include "r0/trimwatchrun.h"
#include "r0/watchfile.h"

static int watch_check_log(const char *log, char *why, size_t why_len)
{
	char words[128];
	int err = r0_watch_file_check(log, words, sizeof(words));

	if (err == -EINVAL)
		snprintf(why, why_len, "not a record file of r0trim --watch (" R0_TRIM_WATCH_SCHEMA ") but %s: name a "
			 "new file, or one r0trim --watch wrote", words);
	else if (err == -EBADMSG)
		snprintf(why, why_len, "a damaged record file of r0trim --watch: its first line is no whole reading; "
			 "move it aside, or name a new file");
	else if (err)
		snprintf(why, why_len, "%s", strerror(-err));
	return err;
}

static int watch_resolve(const char *what, char *path, size_t len, char *why, size_t why_len)
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

int r0_trim_watch_open(const char *log, const char *what, struct r0_trim_device *t, char *path, size_t path_len,
		       char *why, size_t why_len)
{
	char reason[512];
	int err;

	/* a sweep's results, a disk image ...: refused before a reading is appended to it */
	if ((err = watch_check_log(log, reason, sizeof(reason)))) {
		snprintf(why, why_len, "%s: %s", log, reason);
		return err;
	}
	if ((err = watch_resolve(what, path, path_len, reason, sizeof(reason))) ||
	    (err = r0_trim_device_describe(path, t, reason, sizeof(reason))))
		snprintf(why, why_len, "%s: %s", what, reason);
	return err;
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

void r0_trim_watch_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
	else
		snprintf(buf, len, "%lld", (long long)t);
}

void r0_trim_watch_detail(const struct r0_trim_watch_reading *w, unsigned i, char *buf, size_t len)
{
	const struct r0_watch_judgement *j = &w->j;
	const struct r0_watch_rec *now = &w->now;
	const char *since = w->since;
	char b1[32], b2[32];
	uint64_t all = 0;

	switch (j->verdict) {
	case R0_WATCH_FIRST:
		snprintf(buf, len, "the first reading of these devices; run again after the next fstrim "
			 "(fstrim.timer: weekly) or a day of use");
		break;
	case R0_WATCH_IDLE:
		snprintf(buf, len, "no discard reached any bottom device since %s (no fstrim and no online discard "
			 "since then)", since);
		break;
	case R0_WATCH_PASS:
		for (unsigned k = 0; k < now->n; k++)
			all += j->total[k];
		if (all < R0_WATCH_MIN_TOTAL_SECTORS)
			snprintf(buf, len, "every bottom device received discards since %s (%s in all: too little to "
				 "judge their shares)", since, r0_trim_exact_size(all * 512, b1, sizeof(b1)));
		else
			snprintf(buf, len, "every bottom device received discards since %s, each within %.0f %% of its "
				 "share", since, R0_WATCH_DRIFT_BOUND * 100);
		break;
	case R0_WATCH_DRIFT:
		snprintf(buf, len, "every bottom device received discards since %s, but a share is more than %.0f %% "
			 "off the geometry's (free space unevenly spread, or a layer that drops some)", since,
			 R0_WATCH_DRIFT_BOUND * 100);
		break;
	case R0_WATCH_STOPPED:
		r0_trim_watch_time(j->stopped_since[i], b2, sizeof(b2));
		snprintf(buf, len, "%s stopped receiving discards after %s while the others got %s", now->name[i], b2,
			 r0_trim_exact_size(j->others_since[i] * 512, b1, sizeof(b1)));
		break;
	}
}

/* One reading of T's bottom devices: when, which boot, each device's name, serial and discarded sectors. */
static int take_reading(const struct r0_trim_device *t, struct r0_watch_rec *now)
{
	struct r0_trim_counters c;
	int err = r0_trim_read_counters(t, &c);

	if (err)
		return err;
	now->time = (int64_t)time(NULL);
	boot_id(now->boot_id, sizeof(now->boot_id));
	now->n = t->n_members;
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		struct r0_device d;

		snprintf(now->name[i], sizeof(now->name[i]), "%s", m->kname);
		if (!r0_probe_devt(m->devt, NULL, &d)) {
			snprintf(now->serial[i], sizeof(now->serial[i]), "%s", d.serial);
			r0_device_free(&d);
		}
		now->sectors[i] = c.leaf_sectors[i];
	}
	return 0;
}

int r0_trim_watch_take(const struct r0_trim_device *t, const char *log, const char *what,
		       struct r0_trim_watch_reading *w, bool *refused, char *why, size_t why_len)
{
	struct r0_watch_rec *recs = NULL, *p;
	size_t n = 0;
	int err;

	memset(w, 0, sizeof(*w));
	why[0] = '\0';
	*refused = true;
	if ((err = take_reading(t, &w->now))) {
		snprintf(why, why_len, "%s: the bottom devices' discard counters: %s", what,
			 err == -EOPNOTSUPP ? "this kernel counts no discards (before 4.18)" : strerror(-err));
		return err;
	}
	if ((err = r0_watch_file_load(log, &recs, &n, &w->skipped))) {
		snprintf(why, why_len, "%s: %s", log, strerror(-err));
		return err;
	}
	*refused = false;
	if ((err = r0_watch_file_append(log, &w->now, t->kname))) {
		snprintf(why, why_len, "%s: cannot append the record: %s", log, strerror(-err));
		goto out;
	}
	if (!(p = realloc(recs, (n + 1) * sizeof(*p)))) {
		err = -ENOMEM;
		goto out;
	}
	recs = p;
	recs[n++] = w->now;
	w->known = r0_trim_expected_shares(t, w->pred) == 0;   /* else equal shares assumed */
	if ((err = r0_watch_judge(recs, n, w->pred, &w->j))) {
		snprintf(why, why_len, "%s: %s", log, strerror(-err));
		goto out;
	}
	w->since_time = recs[w->j.first].time;
	r0_trim_watch_time(w->since_time, w->since, sizeof(w->since));
out:
	free(recs);
	return err;
}

int r0_trim_watch_write_json(const struct r0_trim_device *t, const char *path, const char *what, const char *log,
			     const struct r0_trim_watch_reading *w, FILE *f)
{
	char detail[R0_MAX_MEMBERS * 256] = "";
	size_t off = 0;
	struct utsname u;
	json_object *o;
	int err;

	/* the text's verdict lines, one for each device that stopped, joined */
	for (unsigned i = 0; i < w->now.n && off < sizeof(detail); i++) {
		char one[256];

		if (w->j.verdict == R0_WATCH_STOPPED && !w->j.stopped_since[i])
			continue;
		r0_trim_watch_detail(w, i, one, sizeof(one));
		off += (size_t)snprintf(detail + off, sizeof(detail) - off, "%s%s", off ? "; " : "", one);
		if (w->j.verdict != R0_WATCH_STOPPED)
			break;
	}
	uname(&u);
	{
		const struct r0_trim_watch_doc wd = {
			.record_file = log, .watched = what, .judgement = &w->j, .now = &w->now, .since = w->since_time,
			.predicted_share = w->pred, .shares_from_geometry = w->known, .skipped_lines = w->skipped,
			.detail = detail,
		};
		const struct r0_trim_doc doc = {
			.mode = R0_TRIM_MODE_WATCH, .device = path, .kernel = u.release, .described = t, .watch = &wd,
		};

		o = r0_trim_to_json(&doc);
	}
	err = o ? r0_trim_json_print(o, f) : -ENOMEM;
	json_object_put(o);
	return err;
}

void r0_trim_watch_write_text(const struct r0_trim_device *t, const char *what, const char *log,
			      const struct r0_trim_watch_reading *w, FILE *f)
{
	const struct r0_watch_judgement *j = &w->j;
	const struct r0_watch_rec *now = &w->now;
	char b1[32], b2[32], detail[256];

	fprintf(f, "r0trim: watch of %s (%s, %s): record %zu in %s%s\n", what, t->kname, t->desc, j->n_records, log,
		w->skipped ? " (lines that are no record skipped)" : "");
	if (j->n_records > 1)
		fprintf(f, "  since %s: %u interval%s%s\n", w->since, j->n_intervals, j->n_intervals == 1 ? "" : "s",
			j->boots ? ", counted from each boot after a reboot" : "");
	for (unsigned i = 0; i < now->n; i++) {
		fprintf(f, "  %s%s%s%s: %s discarded%s", now->name[i], now->serial[i][0] ? " (serial " : "", now->serial[i],
			now->serial[i][0] ? ")" : "", r0_trim_exact_size(j->total[i] * 512, b1, sizeof(b1)),
			j->n_records > 1 ? "" : " (first reading: nothing to compare)");
		if (j->n_records > 1)
			fprintf(f, ", %.1f %% of all (the geometry: %.1f %%%s)", j->share[i] * 100, w->pred[i] * 100,
				w->known ? "" : ", not known here: equal assumed");
		if (j->stopped_since[i]) {
			r0_trim_watch_time(j->stopped_since[i], b2, sizeof(b2));
			fprintf(f, ": none since %s while the others got %s", b2,
				r0_trim_exact_size(j->others_since[i] * 512, b1, sizeof(b1)));
		}
		fputc('\n', f);
	}
	/* a FAIL: one line for each device that stopped */
	for (unsigned i = 0; i < now->n; i++) {
		if (j->verdict == R0_WATCH_STOPPED && !j->stopped_since[i])
			continue;
		r0_trim_watch_detail(w, i, detail, sizeof(detail));
		fprintf(f, "verdict %s: %s\n", r0_watch_verdict_label(j->verdict), detail);
		if (j->verdict != R0_WATCH_STOPPED)
			break;
	}
}
