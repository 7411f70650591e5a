// SPDX-License-Identifier: GPL-2.0-or-later
/* The named workload mixes and the parser of mixes written out (r0/mix.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "r0/everyday.h"
#include "r0/mix.h"
#include "r0/size.h"

void r0_workload_class(const struct r0_run *r, char *buf, size_t len)
{
	const char *dir = r->read_pct >= 100 ? "read" : "write";
	unsigned inflight = r->queue_depth * (r->jobs ? r->jobs : 1);

	enum r0_everyday s;
	char fs[16];

	if (r->access == R0_ACCESS_REPLAY)
		snprintf(buf, len, "replay");
	else if (r->access == R0_ACCESS_FS)
		snprintf(buf, len, "%s", r0_everyday_parse(r->label, fs, sizeof(fs), &s) ? "fs" : r0_everyday_class(s));
	else if (r->read_pct > 0 && r->read_pct < 100)
		snprintf(buf, len, "mixed");
	else if (r->access == R0_ACCESS_SEQ)
		snprintf(buf, len, "seq-%s", dir);
	else if (r->block_bytes > 64 * 1024)
		snprintf(buf, len, "rand-large-%s", dir);
	else
		snprintf(buf, len, "rand-small-%s-%s", inflight <= 2 ? "q1" : "qd", dir);
}

struct mix_def {
	const char *name, *spec;
	bool per_request;           /* r0_mix.per_request */
};

/* What each named mix stands for; shares, normalised later. */
static const struct mix_def mixes[] = {
	/* a desktop: mostly small reads and writes one at a time, some copying */
	{ "desktop", "rand-small-q1-read=35,rand-small-q1-write=20,seq-read=15,seq-write=5,"
		     "rand-large-read=10,rand-large-write=5,rand-small-qd-read=5,rand-small-qd-write=5", false },
	/* a database: small random I/O with many in flight, a little logging */
	{ "database", "rand-small-qd-read=35,rand-small-qd-write=25,rand-small-q1-read=15,"
		      "rand-small-q1-write=15,seq-read=5,seq-write=5", false },
	/* large files: streaming reads and writes, large random */
	{ "sequential", "seq-read=45,seq-write=30,rand-large-read=15,rand-large-write=10", false },
	/* the user's own recorded I/O (r0sweep --replay) alone */
	{ "replay", "replay=1", false },
	/* everyday work through a file system (r0sweep -p everyday): one of each scenario, so each
	 * weighs the time it takes */
	{ "everyday", "copy=1,small-files=1,app-start=1,app-start-busy=1,unpack=1", true },
};

const char *r0_mix_default(const enum r0_access *access, size_t n)
{
	size_t fs = 0, replay = 0;

	for (size_t i = 0; i < n; i++) {
		fs += access[i] == R0_ACCESS_FS;
		replay += access[i] == R0_ACCESS_REPLAY;
	}
	return n && fs == n ? "everyday" : n && replay == n ? "replay" : "desktop";
}

static int parse_spec(const char *name, const char *s, struct r0_mix *m)
{
	char *copy = strdup(s), *save = NULL, *tok;
	double sum = 0;
	bool neg = false;
	int err = -EINVAL;

	if (!copy)
		return -ENOMEM;
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '=');
		bool negative;
		double w;

		if (!eq || eq == tok || m->n == R0_MIX_MAX || (size_t)(eq - tok) >= sizeof(m->e[0].key))
			goto out;
		/* r0_parse_double's number, as every number r0kit takes; "-1" is a weight below 0 */
		negative = eq[1] == '-';
		if (r0_parse_double(eq + 1 + negative, 0, INFINITY, &w))
			goto out;
		if (negative)
			w = -w;
		if (w > R0_MIX_WEIGHT_MAX) {
			err = -EOVERFLOW;
			goto out;
		}
		*eq = '\0';
		while (*tok == ' ')
			tok++;
		snprintf(m->e[m->n].key, sizeof(m->e[0].key), "%s", tok);
		m->e[m->n].weight = w;
		m->n++;
		/* a key given twice is a typo or two shares for one thing: neither is taken */
		for (size_t i = 0; i + 1 < m->n; i++)
			if (!strcasecmp(m->e[i].key, m->e[m->n - 1].key)) {
				err = -EEXIST;
				goto out;
			}
		sum += w;
		neg |= w < 0;
	}
	/* well formed, but no share to weigh by */
	if (m->n)
		err = neg || !(sum > 0) ? -ERANGE : 0;
out:
	free(copy);
	return err;
}

int r0_mix_parse(const char *s, struct r0_mix *out)
{
	for (size_t i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++)
		if (!strcmp(s, mixes[i].name)) {
			int err = parse_spec(mixes[i].name, mixes[i].spec, out);

			out->per_request = mixes[i].per_request;
			return err;
		}
	return parse_spec("custom", s, out);
}

/* r0_workload_class's names: the block classes, "mixed", the everyday scenarios', "replay" */
static const char *const classes[] = {
	"seq-read", "seq-write", "rand-large-read", "rand-large-write", "rand-small-q1-read",
	"rand-small-q1-write", "rand-small-qd-read", "rand-small-qd-write", "mixed", "copy", "small-files",
	"app-start", "app-start-busy", "unpack", "replay",
};

const char *r0_mix_classes(void)
{
	return "seq-read, seq-write, rand-large-read, rand-large-write, rand-small-q1-read, rand-small-q1-write, "
	       "rand-small-qd-read, rand-small-qd-write, mixed, copy, small-files, app-start, app-start-busy, "
	       "unpack, replay";
}

bool r0_mix_is_class(const char *key)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcasecmp(key, classes[i]))
			return true;
	return false;
}

/* whether a workload of RECS is named KEY (AS_CLASS false) or of class KEY */
static bool study_has(const struct r0_run *recs, size_t n, const char *key, bool as_class)
{
	char buf[48];

	for (size_t i = 0; i < n; i++) {
		if (as_class)
			r0_workload_class(&recs[i], buf, sizeof(buf));
		else
			r0_run_workload(&recs[i], buf, sizeof(buf));
		if (!strcasecmp(buf, key))
			return true;
	}
	return false;
}

/* whether MIX has a key naming workload NAME (as the weights are matched) */
static bool mix_names(const struct r0_mix *mix, const char *name)
{
	for (size_t e = 0; e < mix->n; e++)
		if (!strcasecmp(mix->e[e].key, name))
			return true;
	return false;
}

/*
 * Whether class CLS has workloads in RECS and MIX names each of them: the
 * class's share is then for the workloads no entry names, and there is none.
 */
static bool class_all_named(const struct r0_mix *mix, const struct r0_run *recs, size_t n, const char *cls)
{
	char buf[48];
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		r0_workload_class(&recs[i], buf, sizeof(buf));
		if (strcasecmp(buf, cls))
			continue;
		any = true;
		r0_run_workload(&recs[i], buf, sizeof(buf));
		if (!mix_names(mix, buf))
			return false;
	}
	return any;
}

int r0_mix_check(const struct r0_mix *mix, const struct r0_run *recs, size_t n, size_t *bad)
{
	for (size_t e = 0; e < mix->n; e++)
		if (!r0_mix_is_class(mix->e[e].key) && !study_has(recs, n, mix->e[e].key, false)) {
			if (bad)
				*bad = e;
			return -ENOENT;
		}
	for (size_t e = 0; e < mix->n; e++)
		if (mix->e[e].weight > 0 && r0_mix_is_class(mix->e[e].key) &&
		    !study_has(recs, n, mix->e[e].key, false) && class_all_named(mix, recs, n, mix->e[e].key)) {
			if (bad)
				*bad = e;
			return -ENOTUNIQ;
		}
	return 0;
}

size_t r0_mix_unmeasured(const struct r0_mix *mix, const struct r0_run *recs, size_t n, char *buf,
			 size_t len, double *share)
{
	double sum = 0, out = 0;
	size_t count = 0, off = 0;
	bool predicted = n > 0;   /* every record r0predict's: a prediction never reads as measured */

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		predicted &= recs[i].predicted;
	for (size_t e = 0; e < mix->n; e++)
		sum += mix->e[e].weight > 0 ? mix->e[e].weight : 0;
	for (size_t e = 0; e < mix->n; e++) {
		const char *key = mix->e[e].key;

		/* a workload's own name, a share of 0, or a class the study measured: nothing lost */
		if (!(mix->e[e].weight > 0) || !r0_mix_is_class(key) || study_has(recs, n, key, true) ||
		    study_has(recs, n, key, false))
			continue;
		count++;
		out += mix->e[e].weight;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s: %.3g %% of the mix, no workload of that "
						"class %s", off ? "; " : "", key, mix->e[e].weight / sum * 100,
						predicted ? "predicted" : "measured");
	}
	if (share)
		*share = sum > 0 ? out / sum : 0;
	return count;
}

double r0_mix_time_speedup(const double *w, const double *s, size_t n)
{
	double sw = 0, t = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(w[i] > 0))
			continue;
		if (!(s[i] > 0))
			return NAN;
		sw += w[i];
		t += w[i] / s[i];
	}
	return sw > 0 ? sw / t : NAN;
}
