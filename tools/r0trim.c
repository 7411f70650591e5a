// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim: prove whether discards pass through an array to its members, once and over repeated use. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimcheck.h"

#define PROG "r0trim"
#define JSON_SCHEMA "r0trim/1"
#define FULL_SCAN_MAX_SECTORS (2ull << 21)   /* 1 GiB: beyond it, check two stripes either side */

enum { OPT_CYCLES = CHAR_MAX + 1, OPT_FILL, OPT_FS, OPT_FS_DISCARD, OPT_REPEATS, OPT_FULL_SCAN, OPT_REQUIRE };

extern char **environ;

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [options] DEVICE\n"
	      "\n"
	      "Checks whether discards (TRIM) pass through DEVICE, any stack of dm\n"
	      "linear, striped, crypt, flakey, delay and thin, md raid0, raid1 and\n"
	      "raid10 (near) and partitions, or a single device, to the devices at\n"
	      "the bottom: the discard limits, discards over a set of ranges against\n"
	      "each bottom device's discard counter and what every layer's mapping\n"
	      "sends it, whether discarded blocks read back as each device promises\n"
	      "(null_blk, SCSI LBPRZ, libata, NVMe DLFEAT), the md zone layout, and\n"
	      "repeated use. One line a check: PASS, FAIL, NOT CHECKABLE or NOT\n"
	      "CONCLUSIVE; the verdict names what was shown per bottom device:\n"
	      "delivered or deallocated. DEVICE's data is destroyed.\n"
	      "\n"
	      "Options:\n"
	      "      --cycles N       after the range checks, N cycles of fill, discard,\n"
	      "                       verify; with --fs, N file system cycles (default 3)\n"
	      "      --fill PCT       share of the device (or file system) filled in a\n"
	      "                       cycle, 1-90 (default 50)\n"
	      "      --fs ext4|xfs    file system mode instead of the range checks: mkfs,\n"
	      "                       fill with files, delete them, discard, per cycle\n"
	      "      --fs-discard fstrim|mount\n"
	      "                       discard with FITRIM (fstrim, default) or by mounting\n"
	      "                       with -o discard\n"
	      "      --repeats N      discard each range N times (default 1)\n"
	      "      --full-scan      check every sector outside each range also on devices\n"
	      "                       over 1 GiB (default there: two stripes either side)\n"
	      "      --require deallocated\n"
	      "                       fail unless every bottom device read back as it\n"
	      "                       promises (default: delivered is enough)\n"
	      "  -f, --force          use DEVICE although it holds a signature\n"
	      "  -J, --json           JSON (schema " JSON_SCHEMA ") instead of the report\n"
	      "  -h, --help           this text\n"
	      "  -V, --version        version\n"
	      "\n"
	      "DEVICE must not be mounted, held by another device (a member of a live\n"
	      "array is refused) or open elsewhere. Exit status: 0 discards pass, 1 they\n"
	      "do not (or it could not be shown), 2 usage, or a layer r0trim cannot\n"
	      "model.\n",
	      f);
}

/* ------------------------------------------------------------ output */

/* One check's result; all of them are printed once, at the end, as text or JSON. */
struct result {
	char check[12];
	enum r0_verdict verdict;
	char *detail;
};

struct run {
	struct r0_trim_target t;
	struct result *res;
	size_t n_res;
	const char *path;
	bool json;
	json_object *root, *ranges, *cycles;
	enum r0_verdict overall;
	unsigned delivery_pass, delivery_nc;   /* conclusive passes; not conclusive ranges */
	struct r0_trim_evidence ev;            /* per bottom device */
	char first_fail[1100];
	int fd;
	int member_fd[R0_MAX_MEMBERS];
	uint64_t seed;                         /* of this run's fill pattern: old data never matches it */
	char mnt[64];                          /* fs mode: the temporary mount point */
	bool mounted;
	bool progress;                         /* stderr is a terminal: one line of progress */
};

/* One check's result, kept for print_results (and the first failure, for the verdict). */
static void check_line(struct run *r, const char *check, enum r0_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void check_line(struct run *r, const char *check, enum r0_verdict v, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	r->overall = r0_verdict_worse(r->overall, v == R0_VERDICT_FAIL ? v : R0_VERDICT_PASS);
	if (v == R0_VERDICT_FAIL && !r->first_fail[0])
		snprintf(r->first_fail, sizeof(r->first_fail), "%s: %s", check, detail);
	struct result *x = realloc(r->res, (r->n_res + 1) * sizeof(*x));

	if (!x)
		return;   /* out of memory: the line is lost, its verdict above is not */
	r->res = x;
	x = &r->res[r->n_res];
	snprintf(x->check, sizeof(x->check), "%s", check);
	x->verdict = v;
	x->detail = strdup(detail);
	if (x->detail)
		r->n_res++;
	/* the results print once at the end; a long --cycles run says where it is */
	if (r->progress)
		fprintf(stderr, "\r\033[K" PROG ": %zu checks done, last: %s %s", r->n_res, check,
			r0_verdict_name(v));
}

/* The results once: "check  VERDICT  detail" lines, or the JSON checks array. */
static void print_results(struct run *r)
{
	json_object *a = r->json ? json_object_new_array() : NULL;

	if (r->progress)
		fputs("\r\033[K", stderr);

	for (size_t i = 0; i < r->n_res; i++) {
		const struct result *x = &r->res[i];

		if (a) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "check", json_object_new_string(x->check));
			json_object_object_add(o, "verdict", json_object_new_string(r0_verdict_name(x->verdict)));
			json_object_object_add(o, "detail", json_object_new_string(x->detail));
			json_object_array_add(a, o);
		} else {
			printf("%-10s %-14s %s\n", x->check, r0_verdict_name(x->verdict), x->detail);
		}
		free(x->detail);
	}
	free(r->res);
	r->res = NULL;
	r->n_res = 0;
	if (a)
		json_object_object_add(r->root, "checks", a);
}

/* A size exactly, as r0_parse_size reads it back: "64K", "1536K", "4G"; else bytes. */
static const char *sz(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024 == 0 || bytes < 1024)
		r0_format_size(bytes, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

static const char *reads_name(enum r0_discard_reads v)
{
	return v == R0_READS_ZEROES ? "zeroes" : v == R0_READS_ONES ? "0xff" : "unknown";
}

static json_object *limits_json(const struct r0_discard_limits *l)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "discard_granularity_bytes", json_object_new_int64((int64_t)l->granularity_bytes));
	json_object_object_add(o, "discard_max_bytes", json_object_new_int64((int64_t)l->max_bytes));
	json_object_object_add(o, "discard_max_hw_bytes", json_object_new_int64((int64_t)l->max_hw_bytes));
	json_object_object_add(o, "discard_alignment_bytes", json_object_new_int64((int64_t)l->alignment_bytes));
	json_object_object_add(o, "write_zeroes_max_bytes", json_object_new_int64((int64_t)l->write_zeroes_max_bytes));
	json_object_object_add(o, "logical_block_bytes", json_object_new_int64(l->logical_block_bytes));
	return o;
}

/* "r0m1" or "dm-3 (flakey) > r0m1" */
static void chain_name(const struct r0_trim_member *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned d = 0; d <= m->depth && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s%s", d ? " > " : "", m->chain_kname[d],
					m->chain_type[d][0] ? " (" : "", m->chain_type[d],
					m->chain_type[d][0] ? ")" : "");
}

/* "dm-crypt r0-luks over md127" and, where it drops discards, why. */
static void layer_line(const struct r0_trim_stack *s, unsigned idx, char *buf, size_t len)
{
	const struct r0_trim_node *nd = &s->node[idx];
	size_t off = (size_t)snprintf(buf, len, "%s over", nd->label);

	for (unsigned c = 0; c < nd->n_children && off < len; c++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", c ? ", " : " ", s->node[nd->child[c]].kname);
	if (nd->drops && off < len)
		snprintf(buf + off, len - off, "; %s: discards stop here", nd->drop_why);
}

static void print_header(struct run *r, const char *release)
{
	const struct r0_trim_target *t = &r->t;
	char b1[32], b2[32];

	if (r->json) {
		json_object *ms = json_object_new_array();

		json_object_object_add(r->root, "device", json_object_new_string(r->path));
		json_object_object_add(r->root, "kernel_name", json_object_new_string(t->kname));
		json_object_object_add(r->root, "description", json_object_new_string(t->desc));
		json_object_object_add(r->root, "kernel", json_object_new_string(release));
		json_object_object_add(r->root, "size_bytes", json_object_new_int64((int64_t)(t->size_sectors * 512)));
		json_object_object_add(r->root, "chunk_bytes", json_object_new_int64(t->geo.chunk_sectors * 512));
		json_object_object_add(r->root, "zones", json_object_new_int((int)t->geo.n_zones));
		char seed[24];

		snprintf(seed, sizeof(seed), "%016llx", (unsigned long long)r->seed);
		json_object_object_add(r->root, "pattern_seed", json_object_new_string(seed));
		if (t->kind == R0_TRIM_MD)
			json_object_object_add(r->root, "md_layout", json_object_new_int(t->md_layout));
		json_object_object_add(r->root, "limits", limits_json(&t->lim));
		for (unsigned i = 0; i < t->n_members; i++) {
			const struct r0_trim_member *m = &t->members[i];
			json_object *o = json_object_new_object(), *ch = json_object_new_array();

			json_object_object_add(o, "name", json_object_new_string(m->kname));
			for (unsigned d = 0; d <= m->depth; d++) {
				json_object *c = json_object_new_object();

				json_object_object_add(c, "name", json_object_new_string(m->chain_kname[d]));
				if (m->chain_type[d][0])
					json_object_object_add(c, "dm_target", json_object_new_string(m->chain_type[d]));
				json_object_array_add(ch, c);
			}
			json_object_object_add(o, "stack", ch);
			json_object_object_add(o, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
			json_object_object_add(o, "reads_after_discard", json_object_new_string(reads_name(m->reads)));
			json_object_object_add(o, "reads_after_discard_source", json_object_new_string(m->reads_why));
			json_object_object_add(o, "used_sectors", json_object_new_int64((int64_t)t->geo.used_sectors[i]));
			json_object_object_add(o, "data_offset_sectors", json_object_new_int64((int64_t)t->geo.data_offset_sectors[i]));
			json_object_object_add(o, "limits", limits_json(&m->lim));
			json_object_array_add(ms, o);
		}
		json_object_object_add(r->root, "members", ms);
		ms = json_object_new_array();
		for (unsigned i = 0; i < t->stack.n_nodes; i++) {
			const struct r0_trim_node *nd = &t->stack.node[i];
			json_object *o = json_object_new_object();
			char line[512];

			if (nd->layer == R0_LAYER_DEVICE)
				continue;
			layer_line(&t->stack, i, line, sizeof(line));
			json_object_object_add(o, "name", json_object_new_string(nd->kname));
			json_object_object_add(o, "layer", json_object_new_string(nd->label));
			json_object_object_add(o, "description", json_object_new_string(line));
			json_object_object_add(o, "drops_discards", json_object_new_boolean(nd->drops));
			json_object_array_add(ms, o);
		}
		json_object_object_add(r->root, "layers", ms);
		return;
	}
	r0_format_size_human(t->size_sectors * 512, b1, sizeof(b1));
	printf(PROG ": %s (%s): %s, %s, Linux %s\n", r->path, t->kname, t->desc, b1, release);
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		char line[512];

		if (t->stack.node[i].layer == R0_LAYER_DEVICE)
			continue;
		layer_line(&t->stack, i, line, sizeof(line));
		printf("  layer %s: %s\n", t->stack.node[i].kname, line);
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		char ch[256];

		chain_name(m, ch, sizeof(ch));
		printf("  bottom %u: %s: discard granularity %s, max %s; after discard reads %s (%s)\n", i, ch,
		       sz(m->leaf_lim.granularity_bytes, b1, sizeof(b1)), sz(m->leaf_lim.max_bytes, b2, sizeof(b2)),
		       reads_name(m->reads), m->reads_why);
	}
}

/* ------------------------------------------------------------ checks */

static void check_limits(struct run *r, struct r0_limits_check *lc)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_discard_limits ml[R0_MAX_MEMBERS];
	const char *names[R0_MAX_MEMBERS];
	char b[6][32];
	bool splits = t->kind != R0_TRIM_SINGLE;
	uint64_t mwz = UINT64_MAX;

	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];

		/* the member's own queue, unless the stack below it takes less */
		ml[i] = m->lim;
		if (m->depth && m->leaf_lim.max_bytes == 0)
			ml[i] = m->leaf_lim;
		if (m->leaf_lim.granularity_bytes > ml[i].granularity_bytes)
			ml[i].granularity_bytes = m->leaf_lim.granularity_bytes;
		names[i] = m->leaf_lim.max_bytes == 0 && m->depth ? m->chain_kname[m->depth] : m->kname;
		if (ml[i].write_zeroes_max_bytes < mwz)
			mwz = ml[i].write_zeroes_max_bytes;
	}
	if (t->kind == R0_TRIM_SINGLE && t->members[0].depth == 0) {
		/* the device is its own member: nothing is stacked, only support to check */
		splits = true;
	}
	r0_trim_check_limits(&t->lim, ml, names, t->n_members, splits, lc);
	{
		int d = r0_trim_stack_first_drop(&t->stack);

		if (d >= 0) {
			check_line(r, "limits", R0_VERDICT_FAIL, "%s (%s): %s: discards stop there",
				   t->stack.node[d].label, t->stack.node[d].kname, t->stack.node[d].drop_why);
			return;
		}
	}
	if (lc->support == R0_VERDICT_FAIL && t->kind == R0_TRIM_SINGLE && t->members[0].depth == 0) {
		check_line(r, "limits", R0_VERDICT_FAIL, "%s takes no discards (discard_max_bytes 0)", t->kname);
		return;
	}
	if (lc->support == R0_VERDICT_FAIL) {
		check_line(r, "limits", R0_VERDICT_FAIL, "%s (array discard_max_bytes %llu)", lc->why,
			   (unsigned long long)t->lim.max_bytes);
		return;
	}
	check_line(r, "limits", lc->overall,
		   "granularity %s (members up to %s), max %s (members from %s%s), alignment %llu, "
		   "write-zeroes max %s (members from %s)%s%s",
		   sz(t->lim.granularity_bytes, b[0], 32), sz(lc->expected_granularity_bytes, b[1], 32),
		   sz(t->lim.max_bytes, b[2], 32), sz(lc->min_member_max_bytes, b[3], 32),
		   t->kind == R0_TRIM_SINGLE ? "" : t->lim.max_bytes > lc->min_member_max_bytes ?
			   ": the layer splits discards per member" : "",
		   (unsigned long long)t->lim.alignment_bytes, sz(t->lim.write_zeroes_max_bytes, b[4], 32),
		   sz(mwz == UINT64_MAX ? 0 : mwz, b[5], 32), lc->why[0] ? "; " : "", lc->why);
}

static void check_geometry(struct run *r)
{
	const struct r0_trim_target *t = &r->t;
	char why[256];
	struct utsname u;

	check_line(r, "geometry", t->geometry_matches ? R0_VERDICT_PASS : R0_VERDICT_FAIL,
		   "model %llu sectors, kernel %llu%s", (unsigned long long)t->geo.array_sectors,
		   (unsigned long long)t->size_sectors,
		   t->geometry_matches ? "" : ": the stripe model does not fit this array");
	uname(&u);
	const struct r0_geometry *mg = r0_trim_target_md_geometry(t);

	check_line(r, "layout", r0_trim_audit_layout(mg ? mg : &t->geo, u.release, why, sizeof(why)), "%s", why);
}

/* Counters twice, 0.2 s apart: other I/O on the members would disturb the comparison. */
static int check_quiet(struct run *r)
{
	struct r0_trim_counters a, b;
	struct timespec ts = { 0, 200000000L };
	uint64_t dw = 0, dd = 0;
	int err = r0_trim_read_counters(&r->t, &a);

	if (!err) {
		nanosleep(&ts, NULL);
		err = r0_trim_read_counters(&r->t, &b);
	}
	if (err) {
		check_line(r, "quiet", R0_VERDICT_FAIL, "cannot read the members' discard counters: %s",
			   err == -EOPNOTSUPP ? "this kernel's stat files have no discard fields" : strerror(-err));
		return err;
	}
	for (unsigned i = 0; i < r->t.n_members; i++) {
		dw += b.leaf_writes[i] - a.leaf_writes[i];
		dd += b.leaf_sectors[i] - a.leaf_sectors[i];
	}
	if (dw || dd)
		check_line(r, "quiet", R0_VERDICT_NOT_CONCLUSIVE,
			   "the members are busy (%llu writes, %llu discarded sectors in 0.2 s): a counter "
			   "that moves by more than the geometry says fails", (unsigned long long)dw,
			   (unsigned long long)dd);
	else
		check_line(r, "quiet", R0_VERDICT_PASS, "no writes or discards on the members in 0.2 s");
	return 0;
}

/*
 * One discard of [start, start + n) with the counters read around it;
 * judges every member. Returns the verdict; DETAIL gets the numbers.
 */
static enum r0_verdict deliver(struct run *r, uint64_t start, uint64_t n, uint64_t eff_gran,
			       json_object *jm, char *detail, size_t len, int *ioerr)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_trim_counters before, after;
	struct r0_trim_member_result res[R0_MAX_MEMBERS];
	enum r0_verdict v;
	size_t off = 0;
	char why[256] = "";
	int err;

	*ioerr = 0;
	if ((err = r0_trim_read_counters(t, &before))) {
		snprintf(detail, len, "cannot read the discard counters: %s", strerror(-err));
		return R0_VERDICT_FAIL;
	}
	err = r0_trim_discard(r->fd, start, n);
	if (err) {
		*ioerr = err;
		snprintf(detail, len, "BLKDISCARD failed: %s", strerror(-err));
		return R0_VERDICT_FAIL;
	}
	if ((err = r0_trim_read_counters(t, &after)) ||
	    (err = r0_trim_judge_range(t, start, n, eff_gran, &before, &after, res, &v))) {
		snprintf(detail, len, "cannot count or predict: %s", strerror(-err));
		return R0_VERDICT_FAIL;
	}
	r0_trim_evidence_delivery(&r->ev, t->n_members, res);
	off += (size_t)snprintf(detail + off, len - off, "sectors expected/observed");
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		const struct r0_trim_member_result *x = &res[i];
		const char *at = m->chain_kname[m->depth];
		unsigned long long e = x->expected_sectors, o = x->observed_sectors, mo = x->observed_member_sectors;

		if (off < len)
			off += (size_t)snprintf(detail + off, len - off, " %s %llu/%llu", at, e, o);
		if (x->verdict == R0_VERDICT_FAIL && !why[0]) {
			if (o > e)
				snprintf(why, sizeof(why), "%s received %llu sectors, %llu expected: misrouted, or other I/O on it",
					 at, o, e);
			else if (r0_trim_stack_drop_on_path(&t->stack, i) >= 0) {
				const struct r0_trim_node *dn = &t->stack.node[r0_trim_stack_drop_on_path(&t->stack, i)];

				snprintf(why, sizeof(why), "%s received %llu of %llu sectors: %s (%s) drops them: %s",
					 at, o, e, dn->label, dn->kname, dn->drop_why);
			} else if (m->depth && mo >= e)
				snprintf(why, sizeof(why), "%s received %llu of %llu sectors although %s above it counted %llu: the %s layer dropped them",
					 at, o, e, m->chain_kname[0], mo, m->chain_type[0]);
			else
				snprintf(why, sizeof(why), "%s received %llu of %llu sectors: %s", at, o, e,
					 o ? "cut short" : m->leaf_lim.max_bytes == 0 ? "dropped (it takes no discards)" : "dropped");
		}
		if (jm) {
			json_object *jo = json_object_new_object();

			json_object_object_add(jo, "member", json_object_new_string(m->kname));
			json_object_object_add(jo, "counted_at", json_object_new_string(at));
			json_object_object_add(jo, "expected_sectors", json_object_new_int64((int64_t)e));
			json_object_object_add(jo, "observed_sectors", json_object_new_int64((int64_t)o));
			if (m->depth)
				json_object_object_add(jo, "observed_member_sectors", json_object_new_int64((int64_t)mo));
			json_object_object_add(jo, "conclusive", json_object_new_boolean(x->conclusive));
			json_object_object_add(jo, "verdict", json_object_new_string(r0_verdict_name(x->verdict)));
			json_object_array_add(jm, jo);
		}
	}
	if (why[0] && off < len)
		snprintf(detail + off, len - off, ": %s", why);
	return v;
}

static void effect_detail(const struct r0_trim_effect *e, const struct r0_trim_target *t, char *buf,
			  size_t len)
{
	size_t off = (size_t)snprintf(buf, len,
				      "discarded %llu/%llu sectors read as promised through the array, %llu/%llu on the members; "
				      "outside %llu/%llu intact through the array, %llu/%llu beside on the members",
				      (unsigned long long)e->discarded_ok,
				      (unsigned long long)(e->discarded_ok + e->discarded_bad),
				      (unsigned long long)e->member_discarded_ok,
				      (unsigned long long)(e->member_discarded_ok + e->member_discarded_bad),
				      (unsigned long long)e->intact_ok,
				      (unsigned long long)(e->intact_ok + e->intact_bad),
				      (unsigned long long)e->member_intact_ok,
				      (unsigned long long)(e->member_intact_ok + e->member_intact_bad));

	if (e->unchecked && off < len)
		off += (size_t)snprintf(buf + off, len - off, "; %llu unchecked (no promise, or part of a granule)",
					(unsigned long long)e->unchecked);
	for (unsigned i = 0; i < t->n_members && off < len; i++)
		if (e->leaf_discarded_bad[i])
			off += (size_t)snprintf(buf + off, len - off, "; %s: the drive completed the discard but "
						"still returns the old data", t->members[i].kname);
	if (e->first_bad_sector >= 0 && off < len)
		snprintf(buf + off, len - off, "; first wrong: array sector %lld on %s (%s the range)",
			 (long long)e->first_bad_sector,
			 e->first_bad_member >= 0 ? t->members[e->first_bad_member].kname : "several devices",
			 e->first_bad_inside ? "inside" : "outside");
	else if (e->first_bad_member_direct >= 0 && off < len)
		snprintf(buf + off, len - off, "; wrong on %s itself", t->members[e->first_bad_member_direct].kname);
	if (e->verdict == R0_VERDICT_NOT_CHECKABLE && strlen(buf) < len)
		snprintf(buf + strlen(buf), len - strlen(buf), "; no member promises what a discarded block reads");
}

static json_object *effect_json(const struct r0_trim_effect *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "verdict", json_object_new_string(r0_verdict_name(e->verdict)));
	json_object_object_add(o, "discarded_ok_sectors", json_object_new_int64((int64_t)e->discarded_ok));
	json_object_object_add(o, "discarded_bad_sectors", json_object_new_int64((int64_t)e->discarded_bad));
	json_object_object_add(o, "unchecked_sectors", json_object_new_int64((int64_t)e->unchecked));
	json_object_object_add(o, "intact_ok_sectors", json_object_new_int64((int64_t)e->intact_ok));
	json_object_object_add(o, "intact_bad_sectors", json_object_new_int64((int64_t)e->intact_bad));
	json_object_object_add(o, "member_discarded_ok_sectors", json_object_new_int64((int64_t)e->member_discarded_ok));
	json_object_object_add(o, "member_discarded_bad_sectors", json_object_new_int64((int64_t)e->member_discarded_bad));
	json_object_object_add(o, "member_intact_ok_sectors", json_object_new_int64((int64_t)e->member_intact_ok));
	json_object_object_add(o, "member_intact_bad_sectors", json_object_new_int64((int64_t)e->member_intact_bad));
	json_object_object_add(o, "first_bad_array_sector", json_object_new_int64(e->first_bad_sector));
	return o;
}

static bool fill_failed(struct run *r, int err, const char *what)
{
	if (!err)
		return false;
	if (err == -EINTR)
		check_line(r, what, R0_VERDICT_FAIL, "interrupted by a signal");
	else
		check_line(r, what, R0_VERDICT_FAIL, "cannot write the pattern: %s", strerror(-err));
	return true;
}

/* The range set: delivery and effect for each. 0, or 1 to stop. */
static int check_ranges(struct run *r, const struct r0_limits_check *lc, unsigned repeats, bool full_scan)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_trim_range rg[R0_TRIM_MAX_RANGES];
	bool no_effect = false, every = full_scan || t->geo.array_sectors <= FULL_SCAN_MAX_SECTORS;
	uint64_t stripes2 = 2 * (uint64_t)t->geo.chunk_sectors * t->n_members, window[R0_TRIM_MAX_RANGES];
	char unread[256] = "";   /* the ranges whose far outside the next whole read checks */
	int n = r0_trim_ranges(&t->geo, t->unit_bytes, t->lim.logical_block_bytes ? t->lim.logical_block_bytes : 512,
			       lc->effective_granularity_bytes, rg, R0_TRIM_MAX_RANGES);

	if (n < 0) {
		check_line(r, "ranges", R0_VERDICT_FAIL, "cannot build the range set: %s", strerror(-n));
		return 1;
	}
	for (int i = 0; i < n; i++)
		window[i] = stripes2;
	if (every)
		r0_trim_plan_windows(rg, (size_t)n, t->geo.array_sectors, stripes2, window);
	if (fill_failed(r, r0_trim_fill(r->fd, r->seed, 0, t->geo.array_sectors, r0_cli_stop_requested), "fill"))
		return 1;
	{
		/* what is read back later means something only if the pattern is there now */
		struct r0_trim_effect e;
		int err = r0_trim_verify(t, r->fd, NULL, r->seed, 0, 0, 0, &e);

		if (err) {
			check_line(r, "fill", R0_VERDICT_FAIL, "cannot read the pattern back: %s", strerror(-err));
			return 1;
		}
		if (e.intact_bad) {
			check_line(r, "fill", R0_VERDICT_FAIL,
				   "%llu of %llu sectors written through the array read back wrong, the first at "
				   "array sector %lld on %s: writes there do not stick, read-backs are not checked",
				   (unsigned long long)e.intact_bad, (unsigned long long)t->geo.array_sectors,
				   (long long)e.first_bad_sector,
				   e.first_bad_member >= 0 ? t->members[e.first_bad_member].kname : "several devices");
			no_effect = true;
		} else {
			check_line(r, "fill", R0_VERDICT_PASS, "%llu sectors written through the array and read back",
				   (unsigned long long)e.intact_ok);
		}
	}
	for (int i = 0; i < n; i++) {
		char detail[1024], what[160], b1[32], b2[32];
		json_object *jr = NULL, *jm = NULL;
		enum r0_verdict v = R0_VERDICT_PASS;
		bool sub = rg[i].n_sectors * 512 < lc->effective_granularity_bytes;
		int ioerr = 0;

		if (r0_cli_stop_requested()) {
			check_line(r, "delivery", R0_VERDICT_FAIL, "interrupted by a signal");
			return 1;
		}
		if (rg[i].skip_reason) {
			check_line(r, "delivery", R0_VERDICT_NOT_CHECKABLE, "%s: %s", rg[i].name, rg[i].skip_reason);
			continue;
		}
		snprintf(what, sizeof(what), "%.47s, %.31s at %.31s", rg[i].name, sz(rg[i].n_sectors * 512, b1, 32),
			 sz(rg[i].start_sector * 512, b2, 32));
		if (r->json) {
			jr = json_object_new_object();
			json_object_object_add(jr, "name", json_object_new_string(rg[i].name));
			json_object_object_add(jr, "start_bytes", json_object_new_int64((int64_t)(rg[i].start_sector * 512)));
			json_object_object_add(jr, "length_bytes", json_object_new_int64((int64_t)(rg[i].n_sectors * 512)));
			json_object_object_add(jr, "smaller_than_granularity", json_object_new_boolean(sub));
			jm = json_object_new_array();
		}
		for (unsigned k = 0; k < repeats && !ioerr; k++) {
			char d[1024];
			enum r0_verdict rv = deliver(r, rg[i].start_sector, rg[i].n_sectors,
						     lc->effective_granularity_bytes, k == 0 ? jm : NULL,
						     d, sizeof(d), &ioerr);

			if (k == 0 || (rv == R0_VERDICT_FAIL && v != R0_VERDICT_FAIL))
				snprintf(detail, sizeof(detail), "%.1000s%s", d,
					 k ? " (on a repeat)" : "");
			v = r0_verdict_worse(v, rv);
		}
		if (v == R0_VERDICT_PASS)
			r->delivery_pass++;
		if (v == R0_VERDICT_NOT_CONCLUSIVE)
			r->delivery_nc++;
		check_line(r, "delivery", v, "%s: %s%s", what, detail,
			   sub ? "; smaller than the granularity, proves nothing" : "");
		if (jr) {
			json_object *jd = json_object_new_object();

			json_object_object_add(jd, "verdict", json_object_new_string(r0_verdict_name(v)));
			json_object_object_add(jd, "repeats", json_object_new_int((int)repeats));
			json_object_object_add(jd, "members", jm);
			json_object_object_add(jr, "delivery", jd);
		}
		if (ioerr) {
			if (jr)
				json_object_array_add(r->ranges, jr);
			return 1;   /* the array refuses discards: nothing more to see */
		}
		if (no_effect) {
			check_line(r, "effect", R0_VERDICT_NOT_CHECKABLE, "%s: the pattern did not stick", rg[i].name);
		} else {
			struct r0_trim_effect e;
			int err = r0_trim_verify(t, r->fd, r->member_fd, r->seed, rg[i].start_sector,
						 rg[i].n_sectors, window[i], &e);

			if (err) {
				check_line(r, "effect", R0_VERDICT_FAIL, "%s: cannot read back: %s", rg[i].name, strerror(-err));
			} else {
				r0_trim_evidence_effect(&r->ev, t->n_members, &e);
				if (sub && e.verdict == R0_VERDICT_NOT_CHECKABLE)
					e.verdict = R0_VERDICT_NOT_CONCLUSIVE;
				effect_detail(&e, t, detail, sizeof(detail));
				check_line(r, "effect", e.verdict, "%s: %s%s%s%s", rg[i].name, detail,
					   every && window[i] ? "; beyond two stripes either side: at the next whole read" : "",
					   every && !window[i] && unread[0] ? "; this whole read is also the one after " : "",
					   every && !window[i] ? unread : "");
				if (every && window[i]) {
					size_t u = strlen(unread);

					snprintf(unread + u, sizeof(unread) - u, "%s%.47s", u ? ", " : "", rg[i].name);
				} else
					unread[0] = '\0';
				if (jr)
					json_object_object_add(jr, "effect", effect_json(&e));
			}
		}
		if (jr)
			json_object_array_add(r->ranges, jr);
		/* put the pattern back, so the next range's neighbours hold it */
		if (i + 1 < n && fill_failed(r, r0_trim_fill(r->fd, r->seed, rg[i].start_sector,
							     rg[i].n_sectors, r0_cli_stop_requested), "fill"))
			return 1;
	}
	return 0;
}

/* --cycles on the raw device: fill a share, discard it, verify, N times. */
static int raw_cycles(struct run *r, unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_target *t = &r->t;
	uint64_t A = t->geo.array_sectors, lb = t->lim.logical_block_bytes / 512 ? t->lim.logical_block_bytes / 512 : 1;
	uint64_t share = A * fill_pct / 100 / lb * lb;

	for (unsigned c = 0; c < cycles; c++) {
		uint64_t start = cycles > 1 ? (A - share) * c / (cycles - 1) / lb * lb : 0;
		char d[1024], e_d[1024], b1[32], b2[32];
		struct r0_trim_effect e;
		enum r0_verdict v;
		int ioerr = 0, err;
		json_object *jm = r->json ? json_object_new_array() : NULL;

		if (fill_failed(r, r0_trim_fill(r->fd, r->seed + c + 1, start, share, r0_cli_stop_requested), "cycle"))
			return 1;
		v = deliver(r, start, share, 0, jm, d, sizeof(d), &ioerr);
		err = ioerr ? ioerr : r0_trim_verify(t, r->fd, r->member_fd, r->seed + c + 1, start, share,
						     R0_TRIM_NO_OUTSIDE, &e);
		if (err) {
			json_object_put(jm);
			check_line(r, "cycle", R0_VERDICT_FAIL, "%u/%u: %s", c + 1, cycles,
				   ioerr ? d : strerror(-err));
			return 1;
		}
		r0_trim_evidence_effect(&r->ev, t->n_members, &e);
		effect_detail(&e, t, e_d, sizeof(e_d));
		v = r0_verdict_worse(v, e.verdict == R0_VERDICT_FAIL ? R0_VERDICT_FAIL : R0_VERDICT_PASS);
		check_line(r, "cycle", v, "%u/%u: %s at %s filled, discarded: %s; read back: %s", c + 1, cycles,
			   sz(share * 512, b1, 32), sz(start * 512, b2, 32), d, r0_verdict_name(e.verdict));
		if (r->json) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "cycle", json_object_new_int((int)c + 1));
			json_object_object_add(o, "verdict", json_object_new_string(r0_verdict_name(v)));
			json_object_object_add(o, "start_bytes", json_object_new_int64((int64_t)(start * 512)));
			json_object_object_add(o, "length_bytes", json_object_new_int64((int64_t)(share * 512)));
			json_object_object_add(o, "members", jm);
			json_object_object_add(o, "effect", effect_json(&e));
			json_object_array_add(r->cycles, o);
		}
		if (v == R0_VERDICT_PASS)
			r->delivery_pass++;
	}
	return 0;
}

/* ------------------------------------------------------------ file system mode */

/* Runs ARGV with no signals blocked and its output on stderr; 0 or the reason. */
static int run_cmd(char *const argv[], char *why, size_t len)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	sigset_t none;
	pid_t pid;
	int st, err;

	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	err = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (err) {
		snprintf(why, len, "%s: %s", argv[0], strerror(err));
		return -err;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	snprintf(why, len, "%s exited with %d", argv[0], WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return -EIO;
}

static void fs_unmount(struct run *r)
{
	if (r->mounted) {
		sync();
		for (int i = 0; i < 50 && umount(r->mnt) && errno == EBUSY; i++)
			usleep(100000);
		r->mounted = false;
	}
	if (r->mnt[0]) {
		rmdir(r->mnt);
		r->mnt[0] = '\0';
	}
}

static int fs_mode(struct run *r, const char *fstype, bool mount_discard, unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_target *t = &r->t;
	bool ext4 = strcmp(fstype, "ext4") == 0;
	char why[512], keep[96], b1[32], b2[32];
	int err;

	close(r->fd);   /* mkfs and mount need the device to themselves */
	r->fd = -1;
	{
		/* without their own discard: only the cycles' discards are counted */
		char *mkfs_ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard", (char *)r->path, NULL };
		char *mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", "-K", (char *)r->path, NULL };

		err = run_cmd(ext4 ? mkfs_ext4 : mkfs_xfs, why, sizeof(why));
	}
	if (err) {
		check_line(r, "fs", R0_VERDICT_FAIL, "mkfs %s on %s failed: %s", fstype, r->path, why);
		return 1;
	}
	snprintf(r->mnt, sizeof(r->mnt), "/tmp/r0trim.XXXXXX");
	if (!mkdtemp(r->mnt)) {
		r->mnt[0] = '\0';
		check_line(r, "fs", R0_VERDICT_FAIL, "cannot make a mount point: %s", strerror(errno));
		return 1;
	}
	if (mount(r->path, r->mnt, fstype, 0, mount_discard ? "discard" : "")) {
		check_line(r, "fs", R0_VERDICT_FAIL, "mount %s %s: %s", fstype, r->path, strerror(errno));
		return 1;
	}
	r->mounted = true;
	snprintf(keep, sizeof(keep), "%s/keep", r->mnt);
	if ((err = r0_trim_keep_file(keep, r->seed, true))) {
		check_line(r, "fs", R0_VERDICT_FAIL, "cannot write %s: %s", keep, strerror(-err));
		return 1;
	}
	for (unsigned c = 0; c < cycles; c++) {
		struct r0_trim_counters before, after;
		uint64_t share[R0_MAX_MEMBERS] = { 0 }, trimmed = R0_TRIM_NO_FITRIM, bytes = 0, obs = 0, held = 0;
		unsigned count = 0;
		enum r0_verdict v;
		char d[1024], prefix[32];
		size_t off = 0;

		/* the files' extents tell what each member holds of them; deleting must discard that */
		snprintf(prefix, sizeof(prefix), "c%u-f", c);
		if ((err = r0_trim_fill_goal(r->mnt, fill_pct, &bytes)) ||
		    (err = r0_trim_write_files(r->mnt, prefix, bytes, r->seed + 1000u * (c + 1), &count,
					       r0_cli_stop_requested)) ||
		    (err = r0_trim_files_share(&t->stack, r->mnt, prefix, count, share)) ||
		    (err = r0_trim_read_counters(t, &before)) ||
		    (err = r0_trim_remove_files(r->mnt, prefix, count)) ||
		    (err = mount_discard ? r0_trim_wait_discards(t, r->mnt, share, &before) :
					   r0_trim_fitrim(r->mnt, &trimmed)) ||
		    (err = r0_trim_read_counters(t, &after))) {
			check_line(r, "fs-cycle", R0_VERDICT_FAIL, "%u/%u: %s", c + 1, cycles,
				   err == -EINTR ? "interrupted by a signal" : strerror(-err));
			return 1;
		}
		v = r0_trim_judge_fs(t, share, &before, &after, trimmed, ext4, why, sizeof(why));
		err = r0_trim_keep_file(keep, r->seed, false);
		if (err && v != R0_VERDICT_FAIL) {
			v = R0_VERDICT_FAIL;
			snprintf(why, sizeof(why), "the file kept beside them %s",
				 err == -EILSEQ ? "changed" : "cannot be read");
		}
		for (unsigned i = 0; i < t->n_members; i++) {
			obs += after.leaf_sectors[i] - before.leaf_sectors[i];
			held += share[i];
		}
		off += (size_t)snprintf(d + off, sizeof(d) - off, "%u files, %s deleted; sectors of them/discarded",
					count, sz(held * 512, b1, 32));
		for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
			off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu/%llu",
						t->members[i].chain_kname[t->members[i].depth],
						(unsigned long long)share[i],
						(unsigned long long)(after.leaf_sectors[i] - before.leaf_sectors[i]));
		if (!mount_discard && off < sizeof(d))
			snprintf(d + off, sizeof(d) - off, "; fstrim %s %s, members %s", ext4 ? "trimmed" : "scanned",
				 sz(trimmed, b1, 32), sz(obs * 512, b2, 32));
		check_line(r, "fs-cycle", v, "%u/%u (%s, %s): %s%s%s; kept file %s", c + 1, cycles, fstype,
			   mount_discard ? "mount -o discard" : "fstrim", d, why[0] ? ": " : "", why,
			   err ? "damaged" : "intact");
		if (r->json) {
			json_object *o = json_object_new_object(), *jm = json_object_new_array();

			for (unsigned i = 0; i < t->n_members; i++) {
				const struct r0_trim_member *m = &t->members[i];
				json_object *x = json_object_new_object();

				json_object_object_add(x, "member", json_object_new_string(m->kname));
				json_object_object_add(x, "counted_at", json_object_new_string(m->chain_kname[m->depth]));
				json_object_object_add(x, "deleted_file_sectors", json_object_new_int64((int64_t)share[i]));
				json_object_object_add(x, "observed_sectors",
						       json_object_new_int64((int64_t)(after.leaf_sectors[i] - before.leaf_sectors[i])));
				json_object_array_add(jm, x);
			}
			json_object_object_add(o, "cycle", json_object_new_int((int)c + 1));
			json_object_object_add(o, "fs", json_object_new_string(fstype));
			json_object_object_add(o, "discard", json_object_new_string(mount_discard ? "mount" : "fstrim"));
			json_object_object_add(o, "verdict", json_object_new_string(r0_verdict_name(v)));
			json_object_object_add(o, "files", json_object_new_int((int)count));
			if (!mount_discard)
				json_object_object_add(o, "fstrim_bytes", json_object_new_int64((int64_t)trimmed));
			json_object_object_add(o, "members", jm);
			json_object_array_add(r->cycles, o);
		}
		if (v == R0_VERDICT_PASS)
			r->delivery_pass++;
	}
	return 0;
}

/* ------------------------------------------------------------ main */

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi || s[0] == '-')
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

/* Each bottom device's level as JSON. */
static json_object *levels_json(const struct run *r)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < r->t.n_members; i++) {
		json_object *o = json_object_new_object();
		char why[256];
		enum r0_trim_level l = r0_trim_evidence_level(&r->ev, &r->t, i, why, sizeof(why));

		json_object_object_add(o, "member", json_object_new_string(r->t.members[i].kname));
		json_object_object_add(o, "level", json_object_new_string(r0_trim_level_name(l)));
		json_object_object_add(o, "detail", json_object_new_string(why));
		json_object_array_add(a, o);
	}
	return a;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, OPT_CYCLES },
		{ "fill", required_argument, NULL, OPT_FILL },
		{ "fs", required_argument, NULL, OPT_FS },
		{ "fs-discard", required_argument, NULL, OPT_FS_DISCARD },
		{ "repeats", required_argument, NULL, OPT_REPEATS },
		{ "full-scan", no_argument, NULL, OPT_FULL_SCAN },
		{ "require", required_argument, NULL, OPT_REQUIRE },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct run r = { .fd = -1, .progress = isatty(STDERR_FILENO) };
	struct r0_member_check chk;
	struct r0_limits_check lc;
	const char *fstype = NULL;
	unsigned cycles = 0, fill = 50, repeats = 1;
	bool force = false, mount_discard = false, cycles_set = false, full_scan = false;
	enum r0_trim_level require = R0_LEVEL_DELIVERED;
	char why[512], levels[600] = "";
	json_object *jev = NULL;
	struct utsname u;
	int c, err, rc;

	r0_cli_block_stop_signals();
	while ((c = getopt_long(argc, argv, "fJhV", opts, NULL)) != -1) {
		switch (c) {
		case OPT_CYCLES:
			if (parse_uint(optarg, 0, 10000, &cycles))
				return r0_cli_usage_error(PROG, "--cycles '%s': a number from 0 to 10000", optarg);
			cycles_set = true;
			break;
		case OPT_FILL:
			if (parse_uint(optarg, 1, 90, &fill))
				return r0_cli_usage_error(PROG, "--fill '%s': a percentage from 1 to 90", optarg);
			break;
		case OPT_FS:
			if (strcmp(optarg, "ext4") && strcmp(optarg, "xfs"))
				return r0_cli_usage_error(PROG, "--fs '%s': use ext4 or xfs", optarg);
			fstype = optarg;
			break;
		case OPT_FS_DISCARD:
			if (strcmp(optarg, "fstrim") == 0)
				mount_discard = false;
			else if (strcmp(optarg, "mount") == 0)
				mount_discard = true;
			else
				return r0_cli_usage_error(PROG, "--fs-discard '%s': use fstrim or mount", optarg);
			break;
		case OPT_REPEATS:
			if (parse_uint(optarg, 1, 100, &repeats))
				return r0_cli_usage_error(PROG, "--repeats '%s': a number from 1 to 100", optarg);
			break;
		case OPT_FULL_SCAN: full_scan = true; break;
		case OPT_REQUIRE:
			if (strcmp(optarg, "deallocated") && strcmp(optarg, "delivered"))
				return r0_cli_usage_error(PROG, "--require '%s': use delivered or deallocated", optarg);
			require = strcmp(optarg, "deallocated") ? R0_LEVEL_DELIVERED : R0_LEVEL_DEALLOCATED;
			break;
		case 'f': force = true; break;
		case 'J': r.json = true; break;
		case 'h': usage(stdout); return r0_cli_close_stdout(PROG);
		case 'V': printf(PROG " from r0kit %s\n", R0_VERSION); return r0_cli_close_stdout(PROG);
		default: return r0_cli_usage_error(PROG, "bad option");
		}
	}
	if (argc - optind != 1)
		return r0_cli_usage_error(PROG, "name one device (an array or a single device)");
	if (mount_discard && !fstype)
		return r0_cli_usage_error(PROG, "--fs-discard needs --fs");
	if (fstype && require == R0_LEVEL_DEALLOCATED)
		return r0_cli_usage_error(PROG, "--require deallocated is for the range checks, not --fs");
	if (fstype && (repeats != 1 || full_scan))
		return r0_cli_usage_error(PROG, "--repeats and --full-scan are for the range checks, not --fs");
	if (fstype && !cycles_set)
		cycles = 3;
	r.path = argv[optind];

	/* every check before anything is written */
	/* a layer it cannot model is no "no": exit 2, before anything reads the device */
	err = r0_trim_target_describe(r.path, &r.t, why, sizeof(why));
	if (err == -EOPNOTSUPP) {
		fprintf(stderr, PROG ": %s: %s\n", r.path, why);
		return 2;
	}
	if (r0_member_check(r.path, force, 0, &chk, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s: %s\n", r.path, why);
		return 1;
	}
	if (!err)
		err = r0_stack_check(&r.t, why, sizeof(why));
	else
		r0_trim_target_describe(r.path, &r.t, why, sizeof(why));   /* its reason again */
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", r.path, why);
		return 1;
	}
	r.fd = open(r.path, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
	if (r.fd < 0) {
		fprintf(stderr, PROG ": %s: cannot open exclusively: %s\n", r.path, strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < r.t.n_members; i++)
		r.member_fd[i] = -1;
	for (unsigned i = 0; i < r.t.n_members && !fstype; i++) {
		char node[PATH_MAX];

		/* read-only and shared: the array holds them; /dev nodes may be missing, so by number */
		snprintf(node, sizeof(node), "/dev/block/%u:%u", major(r.t.members[i].devt), minor(r.t.members[i].devt));
		r.member_fd[i] = open(node, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (r.member_fd[i] < 0) {
			snprintf(node, sizeof(node), "/dev/%s", r.t.members[i].kname);
			r.member_fd[i] = open(node, O_RDONLY | O_DIRECT | O_CLOEXEC);
		}
	}

	{
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		r.seed = ((uint64_t)now.tv_sec << 20) ^ (uint64_t)now.tv_nsec ^ ((uint64_t)getpid() << 40);
	}
	uname(&u);
	if (r.json) {
		r.root = json_object_new_object();
		r.ranges = json_object_new_array();
		r.cycles = json_object_new_array();
		json_object_object_add(r.root, "r0kit_schema", json_object_new_string(JSON_SCHEMA));
		json_object_object_add(r.root, "version", json_object_new_string(R0_VERSION));
	}
	print_header(&r, u.release);
	check_geometry(&r);
	check_limits(&r, &lc);
	if (r.t.geometry_matches && check_quiet(&r) == 0) {
		if (fstype)
			fs_mode(&r, fstype, mount_discard, cycles, fill);
		else if (check_ranges(&r, &lc, repeats, full_scan) == 0 && cycles)
			raw_cycles(&r, cycles, fill);
	}
	fs_unmount(&r);

	/* every bottom device: at least delivered (the file system mode judges its own cycles) */
	if (!fstype && r.t.geometry_matches) {
		char fail[sizeof(r.first_fail)];

		jev = r.json ? levels_json(&r) : NULL;
		/* a broken read-back promise is the finding to name, whatever failed first */
		if (!r0_trim_evidence_summary(&r.ev, &r.t, require, levels, sizeof(levels), fail, sizeof(fail)) &&
		    (r.overall != R0_VERDICT_FAIL || strstr(fail, "still returns the old data"))) {
			r.overall = R0_VERDICT_FAIL;
			snprintf(r.first_fail, sizeof(r.first_fail), "%s", fail);
		}
	}
	/* the verdict: no failure, and at least one conclusive pass */
	if (r.overall != R0_VERDICT_FAIL && r.delivery_pass == 0) {
		r.overall = R0_VERDICT_NOT_CONCLUSIVE;
		snprintf(r.first_fail, sizeof(r.first_fail), "no check could show a discard arriving");
	}
	rc = r.overall == R0_VERDICT_PASS ? 0 : 1;
	print_results(&r);
	if (r.json) {
		json_object_object_add(r.root, "ranges", r.ranges);
		json_object_object_add(r.root, "cycles", r.cycles);
		if (jev)
			json_object_object_add(r.root, "evidence", jev);
		json_object_object_add(r.root, "verdict", json_object_new_string(r0_verdict_name(r.overall)));
		json_object_object_add(r.root, "discards_pass", json_object_new_boolean(rc == 0));
		if (rc)
			json_object_object_add(r.root, "reason", json_object_new_string(r.first_fail));
		r0_cli_print_json(r.root);
		json_object_put(r.root);
	} else if (rc == 0 && r.t.kind == R0_TRIM_SINGLE && r.t.members[0].depth == 0) {
		printf("%-10s %-14s discards reach %s (%u conclusive checks, %u not conclusive)%s%s\n",
		       "verdict", "PASS", r.path, r.delivery_pass, r.delivery_nc, levels[0] ? ": " : "", levels);
	} else if (rc == 0) {
		printf("%-10s %-14s discards pass through %s to %s %u bottom device%s (%u conclusive checks, %u not conclusive)%s%s\n",
		       "verdict", "PASS", r.path, r.t.n_members == 1 ? "its" : "all", r.t.n_members,
		       r.t.n_members == 1 ? "" : "s", r.delivery_pass, r.delivery_nc, levels[0] ? ": " : "", levels);
	} else {
		printf("%-10s %-14s no: %s%s%s\n", "verdict", r0_verdict_name(r.overall == R0_VERDICT_FAIL ?
		       R0_VERDICT_FAIL : R0_VERDICT_NOT_CONCLUSIVE), r.first_fail, levels[0] ? "; shown: " : "", levels);
	}
	if (r.fd >= 0)
		close(r.fd);
	for (unsigned i = 0; i < r.t.n_members; i++)
		if (r.member_fd[i] >= 0)
			close(r.member_fd[i]);
	if (r0_cli_stop_requested())
		fprintf(stderr, PROG ": %s: interrupted by a signal\n", r.path);
	if (r0_cli_close_stdout(PROG))
		return 1;
	return rc;
}
