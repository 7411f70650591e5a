// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0trim --watch: one reading of the bottom devices' discard counters,
 * appended to a record file (r0/watchfile.h), and what the records show
 * (r0/trimwatch.h). Reads only: nothing is written to any device.
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

#include "cli.h"
#include "trim.h"

#include "r0/probe.h"
#include "r0/trimshare.h"
#include "r0/trimwatch.h"
#include "r0/watchfile.h"

int watch_check_log(const char *log, char *why, size_t why_len)
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

/*
 * The verdict as the exit status. The first reading only records the
 * baseline a later one is judged against: done, not a "no", so a timer's
 * first run succeeds. No discard since it cannot decide either way.
 */
static int watch_exit_status(enum r0_watch_verdict v)
{
	switch (v) {
	case R0_WATCH_FIRST:
	case R0_WATCH_PASS:
	case R0_WATCH_DRIFT:
		return R0_EXIT_OK;
	case R0_WATCH_STOPPED:
		return R0_EXIT_FAILURE;
	default:
		return R0_EXIT_NOT_CONCLUSIVE;
	}
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

/* What the verdict line says after "verdict X: "; of a FAIL, about stopped device I. */
static void verdict_detail(const struct r0_watch_judgement *j, const struct r0_watch_rec *now, unsigned i,
			   const char *since, char *buf, size_t len)
{
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
				 "judge their shares)", since, sz(all * 512, b1, sizeof(b1)));
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
		when(j->stopped_since[i], b2, sizeof(b2));
		snprintf(buf, len, "%s stopped receiving discards after %s while the others got %s", now->name[i], b2,
			 sz(j->others_since[i] * 512, b1, sizeof(b1)));
		break;
	}
}

static void print_text(const struct run *r, const struct r0_watch_judgement *j, const struct r0_watch_rec *now,
		       const double *pred, bool known, const char *log, const char *what, unsigned bad,
		       const char *since)
{
	char b1[32], b2[32], detail[256];

	printf(PROG ": watch of %s (%s, %s): record %zu in %s%s\n", what, r->t.kname, r->t.desc, j->n_records, log,
	       bad ? " (lines that are no record skipped)" : "");
	if (j->n_records > 1)
		printf("  since %s: %u interval%s%s\n", since, j->n_intervals, j->n_intervals == 1 ? "" : "s",
		       j->boots ? ", counted from each boot after a reboot" : "");
	for (unsigned i = 0; i < now->n; i++) {
		printf("  %s%s%s%s: %s discarded%s", now->name[i], now->serial[i][0] ? " (serial " : "", now->serial[i],
		       now->serial[i][0] ? ")" : "", sz(j->total[i] * 512, b1, sizeof(b1)),
		       j->n_records > 1 ? "" : " (first reading: nothing to compare)");
		if (j->n_records > 1)
			printf(", %.1f %% of all (the geometry: %.1f %%%s)", j->share[i] * 100, pred[i] * 100,
			       known ? "" : ", not known here: equal assumed");
		if (j->stopped_since[i]) {
			when(j->stopped_since[i], b2, sizeof(b2));
			printf(": none since %s while the others got %s", b2,
			       sz(j->others_since[i] * 512, b1, sizeof(b1)));
		}
		printf("\n");
	}
	/* a FAIL: one line for each device that stopped */
	for (unsigned i = 0; i < now->n; i++) {
		if (j->verdict == R0_WATCH_STOPPED && !j->stopped_since[i])
			continue;
		verdict_detail(j, now, i, since, detail, sizeof(detail));
		printf("verdict %s: %s\n", r0_watch_verdict_label(j->verdict), detail);
		if (j->verdict != R0_WATCH_STOPPED)
			break;
	}
}

/* -J: r0trim/1 with "mode":"watch": the stack as the other modes give it, and what the records show. */
static int print_json(const struct run *r, const struct r0_watch_judgement *j, const struct r0_watch_rec *now,
		      int64_t since_time, const double *pred, bool known, const char *log, const char *what,
		      unsigned bad, const char *since)
{
	char detail[R0_MAX_MEMBERS * 256] = "";
	size_t off = 0;
	struct utsname u;
	json_object *o;

	/* the text's verdict lines, one for each device that stopped, joined */
	for (unsigned i = 0; i < now->n && off < sizeof(detail); i++) {
		char one[256];

		if (j->verdict == R0_WATCH_STOPPED && !j->stopped_since[i])
			continue;
		verdict_detail(j, now, i, since, one, sizeof(one));
		off += (size_t)snprintf(detail + off, sizeof(detail) - off, "%s%s", off ? "; " : "", one);
		if (j->verdict != R0_WATCH_STOPPED)
			break;
	}
	uname(&u);
	{
		const struct r0_trim_watch_doc w = {
			.record_file = log, .watched = what, .judgement = j, .now = now, .since = since_time,
			.predicted_share = pred, .shares_from_geometry = known, .skipped_lines = bad,
			.detail = detail,
		};
		const struct r0_trim_doc doc = {
			.mode = R0_TRIM_MODE_WATCH, .device = r->path, .kernel = u.release, .target = &r->t,
			.watch = &w,
		};

		o = r0_trim_to_json(&doc);
	}
	if (!o) {
		fprintf(stderr, PROG ": %s: cannot make the JSON document: %s\n", what, strerror(ENOMEM));
		return -ENOMEM;
	}
	r0_cli_print_json(o);
	json_object_put(o);
	return 0;
}

int watch_mode(struct run *r, const char *log, const char *what)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_watch_rec now = { 0 }, *recs = NULL;
	struct r0_watch_judgement j;
	struct r0_trim_counters c;
	double pred[R0_MAX_MEMBERS];
	char since[32];
	size_t n = 0;
	unsigned bad = 0;
	bool known;
	int err;

	if ((err = r0_trim_read_counters(t, &c))) {
		fprintf(stderr, PROG ": %s: the bottom devices' discard counters: %s\n", what,
			err == -EOPNOTSUPP ? "this kernel counts no discards (before 4.18)" : strerror(-err));
		return R0_EXIT_REFUSED;
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
	if ((err = r0_watch_file_load(log, &recs, &n, &bad))) {
		fprintf(stderr, PROG ": %s: %s\n", log, strerror(-err));
		return R0_EXIT_REFUSED;
	}
	if ((err = r0_watch_file_append(log, &now, t->kname))) {
		fprintf(stderr, PROG ": %s: cannot append the record: %s\n", log, strerror(-err));
		free(recs);
		return R0_EXIT_FAILURE;
	}
	{
		struct r0_watch_rec *p = realloc(recs, (n + 1) * sizeof(*p));

		if (!p) {
			free(recs);
			return R0_EXIT_FAILURE;
		}
		recs = p;
		recs[n++] = now;
	}
	known = r0_trim_expected_shares(t, pred) == 0;   /* else equal shares assumed */
	if ((err = r0_watch_judge(recs, n, pred, &j))) {
		fprintf(stderr, PROG ": %s: %s\n", log, strerror(-err));
		free(recs);
		return R0_EXIT_FAILURE;
	}
	when(recs[j.first].time, since, sizeof(since));
	if (r->json)
		err = print_json(r, &j, &now, recs[j.first].time, pred, known, log, what, bad, since);
	else
		print_text(r, &j, &now, pred, known, log, what, bad, since);
	free(recs);
	return err ? R0_EXIT_FAILURE : watch_exit_status(j.verdict);
}
