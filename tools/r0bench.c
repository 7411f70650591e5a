// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench: measure a block device or file with the io_uring engine. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "device_json.h"

#include "r0/age.h"
#include "r0/engine.h"
#include "r0/preset.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"

#define PROG "r0bench"
#define JSON_SCHEMA "r0bench/1"
#define MAX_TESTS 80   /* the predict preset has 70 */

enum {
	OPT_RW = CHAR_MAX + 1, OPT_SHARED, OPT_OFFSET, OPT_SPAN, OPT_RAMP, OPT_MIX, OPT_ALIGN,
	OPT_COVER, OPT_SEED, OPT_VERIFY, OPT_PASS, OPT_CONTINUE, OPT_PASSES, OPT_WARMUP,
	OPT_REGION, OPT_JSON, OPT_REAP, OPT_READ_ONLY,
};

static void usage(FILE *f)
{
	size_t n;
	const struct r0_preset *p = r0_presets(&n);

	fputs("Usage:\n"
	      "  " PROG " [options] TARGET\n"
	      "  " PROG " --preset NAME [options] TARGET\n"
	      "\n"
	      "Runs I/O on TARGET (a block device or a regular file) with io_uring and\n"
	      "O_DIRECT and reports throughput, IOPS, latency percentiles and CPU time.\n"
	      "\n"
	      "Workload:\n"
	      "      --rw KIND          read, write, randread, randwrite, rw, randrw, trim,\n"
	      "                         randtrim (default randread)\n"
	      "  -b, --bs SIZE          block size (default 4K)\n"
	      "  -q, --qd N             queue depth per job (default 1)\n"
	      "  -j, --jobs N           threads, each with its own ring (default 1)\n"
	      "      --shared           jobs share the region (default: a slice each, on\n"
	      "                         the block size, device blocks and --align; the\n"
	      "                         last takes the rest)\n"
	      "      --offset SIZE      region start (default 0)\n"
	      "      --span SIZE        region length (default: to the end)\n"
	      "      --rwmix-read PCT   rw/randrw: share of reads (default 50)\n"
	      "      --align SIZE       random offsets are the slice start plus multiples\n"
	      "                         of SIZE (default bs)\n"
	      "      --cover            random: every block exactly once per pass\n"
	      "      --seed N           offsets and data (default 1)\n"
	      "  -t, --runtime TIME     time-based: measure for TIME (default 5 s; 500ms, 2m)\n"
	      "      --ramp TIME        run TIME first without counting (default 0)\n"
	      "  -s, --size SIZE        size-based: SIZE bytes per job instead of a time\n"
	      "      --reap-batch N     wait for N completions at once (default 1: each\n"
	      "                         timed as it arrives; more costs latency accuracy,\n"
	      "                         saves wake-ups on CPU-bound devices)\n"
	      "      --passes N         repeat the test N times (default 1)\n"
	      "      --warmup N         passes run first and not counted (default 0)\n"
	      "\n"
	      "Presets (CrystalDiskMark's method: a 1 GiB region, 1 warm-up and 5 passes\n"
	      "of 5 s, unless the preset says otherwise; each test read, then write):\n",
	      f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  -p %-9s %s\n", p[i].name, p[i].description);
	fputs("      --region SIZE      preset region (default 1G, at most the target)\n"
	      "      --read-only        a preset's read tests only (nothing is written)\n"
	      "\n"
	      "Checks:\n"
	      "      --verify           write: stamp every 512-byte sector with its number,\n"
	      "                         the pass and the seed, then read it all back and\n"
	      "                         check; read: check what an earlier pass wrote\n"
	      "      --pass N           the pass number stamped or expected (default 1)\n"
	      "      --continue-on-error  count I/O errors and go on (default: stop)\n"
	      "\n"
	      "Output and safety:\n"
	      "      --json             JSON (schema " JSON_SCHEMA ", see r0bench(1))\n"
	      "  -f, --force            write to a device that holds a signature\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          version\n"
	      "\n"
	      "Writes and trims to a block device are refused when it is mounted, has a\n"
	      "mounted partition or is held by md/dm, and, without --force, when it holds\n"
	      "a signature. Exit status: 0 ok, 1 failure (I/O error, verify fault), 2 usage.\n",
	      f);
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = sig;
}

struct test {
	const char *label;
	struct r0_workload w;
	unsigned npasses;
	struct r0_result *passes;    /* counted passes */
	struct r0_hist lat;          /* merged over the counted passes */
	struct r0_result verify;     /* --verify write: the read-back check */
	bool verified, ran;
	int err;                     /* engine refusal / interruption */
};

struct run {
	struct r0_target target;
	const char *preset;
	bool json, tty;
	unsigned passes, warmup;
	uint64_t region_bytes;
	struct test tests[MAX_TESTS];
	unsigned ntests;
	json_object *state;          /* the target's r0age state record, NULL: none */
};

/* --- options ---------------------------------------------------------- */

static int parse_rw(const char *s, struct r0_workload *w)
{
	static const struct {
		const char *name;
		enum r0_access access;
		int read_pct;   /* -1: rwmix */
		bool trim;
	} kinds[] = {
		{ "read", R0_ACCESS_SEQ, 100, false }, { "write", R0_ACCESS_SEQ, 0, false },
		{ "randread", R0_ACCESS_RAND, 100, false }, { "randwrite", R0_ACCESS_RAND, 0, false },
		{ "rw", R0_ACCESS_SEQ, -1, false }, { "readwrite", R0_ACCESS_SEQ, -1, false },
		{ "randrw", R0_ACCESS_RAND, -1, false },
		{ "trim", R0_ACCESS_SEQ, 0, true }, { "randtrim", R0_ACCESS_RAND, 0, true },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(s, kinds[i].name))
			continue;
		w->access = kinds[i].access;
		w->read_pct = kinds[i].read_pct < 0 ? 50 : (unsigned)kinds[i].read_pct;
		w->trim = kinds[i].trim;
		return kinds[i].read_pct < 0 ? 1 : 0;
	}
	return -EINVAL;
}

static const char *rw_name(const struct r0_workload *w)
{
	bool r = w->access == R0_ACCESS_RAND;

	if (w->trim)
		return r ? "randtrim" : "trim";
	if (w->read_pct == 100)
		return r ? "randread" : "read";
	if (w->read_pct == 0)
		return r ? "randwrite" : "write";
	return r ? "randrw" : "rw";
}

static bool writes(const struct r0_workload *w)
{
	return w->trim || w->read_pct < 100;
}

/* --- output ---------------------------------------------------------- */

static void progress(const struct r0_progress *p, void *arg)
{
	const char *label = arg;
	static uint64_t last_bytes, last_ios;
	static double last_s;
	double dt = p->elapsed_s - last_s;

	/* a new pass, or the end of the ramp: the counters start again */
	if (p->elapsed_s < last_s || p->bytes < last_bytes || p->ios < last_ios || dt <= 0)
		last_bytes = last_ios = 0, last_s = 0, dt = p->elapsed_s;
	fprintf(stdout, "\r\033[K%s: %5.1f s%s %8.1f MB/s %9.0f IOPS", label, p->elapsed_s,
		p->ramping ? " (ramp)" : "", dt > 0 ? (double)(p->bytes - last_bytes) / 1e6 / dt : 0,
		dt > 0 ? (double)(p->ios - last_ios) / dt : 0);
	last_bytes = p->bytes;
	last_ios = p->ios;
	last_s = p->elapsed_s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct spread {
	double best, median, min, max;
};

static struct spread spread_of(const struct test *t, double (*f)(const struct r0_result *))
{
	double v[64];
	unsigned n = t->npasses < 64 ? t->npasses : 64;
	struct spread s = { 0 };

	if (!n)
		return s;
	for (unsigned i = 0; i < n; i++)
		v[i] = f(&t->passes[i]);
	qsort(v, n, sizeof(v[0]), cmp_double);
	s.min = v[0];
	s.max = s.best = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

static double mbps(const struct r0_result *r)
{
	return r0_result_bytes_per_s(r) / 1e6;
}

static double mibps(const struct r0_result *r)
{
	return r0_result_bytes_per_s(r) / 1048576.0;
}

static double cpu_per_io(const struct r0_result *r)
{
	return r0_result_cpu_per_io(r);
}

static void fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 10000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 10000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
}

static void print_error(const struct run *run, const struct r0_result *r)
{
	fprintf(stderr, PROG ": %s: %s error at offset %llu (%u bytes): %s%s\n", run->target.path,
		r0_op_name(r->first_error.op), (unsigned long long)r->first_error.offset_bytes,
		r->first_error.length_bytes, strerror(r->first_error.err),
		r->errors > 1 ? " (and more)" : "");
}

static void print_verify_fault(const struct run *run, const struct r0_result *r)
{
	const struct r0_verify_report *b = &r->first_bad;

	fprintf(stderr, PROG ": %s: verify failed: %llu bad sectors; first at offset %llu "
		"(sector %llu): %s", run->target.path, (unsigned long long)r->verify_bad_sectors,
		(unsigned long long)b->offset_bytes, (unsigned long long)b->expected_sector,
		r0_verify_fault_name(b->fault));
	if (b->fault == R0_VERIFY_MISPLACED)
		fprintf(stderr, ": holds the data of sector %llu", (unsigned long long)b->found_sector);
	else if (b->fault == R0_VERIFY_STALE)
		fprintf(stderr, ": pass %u found, pass %u expected", b->found_pass, b->expected_pass);
	else if (b->fault == R0_VERIFY_CORRUPT)
		fprintf(stderr, ": first wrong byte at %u", b->bad_byte);
	fputc('\n', stderr);
}

static void print_table(const struct run *run)
{
	char sz[32], p50[16], p99[16], p999[16], mx[16], mean[16];

	r0_format_size_human(run->target.size_bytes, sz, sizeof(sz));
	printf("%s: %s, %u-byte blocks%s", run->target.path, sz, run->target.logical_block_bytes,
	       run->target.direct ? "" : ", buffered (no O_DIRECT on this file system)");
	if (run->preset)
		printf(", preset %s", run->preset);
	printf(", %u pass%s%s\n", run->passes, run->passes == 1 ? "" : "es",
	       run->warmup ? " after warm-up" : "");
	printf("%-14s %-9s %5s %3s %3s %9s %9s %19s %9s %8s %8s %8s %8s %8s %7s %4s\n", "TEST", "RW",
	       "BS", "QD", "JOB", "MB/s-BEST", "MB/s-MED", "MB/s-MIN..MAX", "IOPS-MED", "LAT-MEAN",
	       "P50", "P99", "P99.9", "MAX", "CPU/IO", "BUSY");
	for (unsigned i = 0; i < run->ntests; i++) {
		const struct test *t = &run->tests[i];
		struct spread m = spread_of(t, mbps), io = spread_of(t, r0_result_iops),
			      c = spread_of(t, cpu_per_io), b = spread_of(t, r0_result_busy);
		char bs[16], range[40];

		if (!t->ran)
			continue;
		r0_format_size(t->w.block_bytes, bs, sizeof(bs));
		fmt_ns((uint64_t)r0_hist_mean(&t->lat), mean, sizeof(mean));
		fmt_ns(r0_hist_percentile(&t->lat, 50), p50, sizeof(p50));
		fmt_ns(r0_hist_percentile(&t->lat, 99), p99, sizeof(p99));
		fmt_ns(r0_hist_percentile(&t->lat, 99.9), p999, sizeof(p999));
		fmt_ns(t->lat.count ? t->lat.max : 0, mx, sizeof(mx));
		snprintf(range, sizeof(range), "%.1f..%.1f", m.min, m.max);
		printf("%-14s %-9s %5s %3u %3u %9.1f %9.1f %19s %9.0f %8s %8s %8s %8s %8s %5.1fus %3.0f%%\n",
		       t->label, rw_name(&t->w), bs, t->w.queue_depth, t->w.jobs ? t->w.jobs : 1,
		       m.best, m.median, range, io.median, mean, p50, p99, p999, mx, c.median * 1e6,
		       b.median * 100);
		if (t->verified)
			printf("%-14s verify    %llu bytes read back, %llu bad sectors\n", "",
			       (unsigned long long)t->verify.verify_checked_bytes,
			       (unsigned long long)t->verify.verify_bad_sectors);
		else if (t->w.verify == R0_VERIFY_READ)
			printf("%-14s verify    %llu bytes checked, %llu bad sectors\n", "",
			       (unsigned long long)t->passes[0].verify_checked_bytes,
			       (unsigned long long)t->passes[0].verify_bad_sectors);
	}
}

#define ADD(o, k, v) json_object_object_add((o), (k), (v))

static json_object *j_spread(struct spread s)
{
	json_object *o = json_object_new_object();

	ADD(o, "best", json_object_new_double(s.best));
	ADD(o, "median", json_object_new_double(s.median));
	ADD(o, "min", json_object_new_double(s.min));
	ADD(o, "max", json_object_new_double(s.max));
	return o;
}

static json_object *j_latency(const struct r0_hist *h)
{
	static const struct { const char *k; double p; } pct[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99_9", 99.9 }, { "p99_99", 99.99 },
	};
	json_object *o = json_object_new_object();

	ADD(o, "count", json_object_new_uint64(h->count));
	ADD(o, "mean", json_object_new_double(r0_hist_mean(h)));
	ADD(o, "min", json_object_new_uint64(h->count ? h->min : 0));
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		ADD(o, pct[i].k, json_object_new_uint64(r0_hist_percentile(h, pct[i].p)));
	ADD(o, "max", json_object_new_uint64(h->max));
	return o;
}

static json_object *j_error(const struct r0_result *r)
{
	json_object *o;

	if (!r->errors)
		return NULL;
	o = json_object_new_object();
	ADD(o, "op", json_object_new_string(r0_op_name(r->first_error.op)));
	ADD(o, "offset_bytes", json_object_new_uint64(r->first_error.offset_bytes));
	ADD(o, "length_bytes", json_object_new_uint64(r->first_error.length_bytes));
	ADD(o, "errno", json_object_new_int(r->first_error.err));
	ADD(o, "message", json_object_new_string(strerror(r->first_error.err)));
	return o;
}

static json_object *j_verify(const struct r0_result *r)
{
	json_object *o = json_object_new_object(), *b = NULL;
	const struct r0_verify_report *f = &r->first_bad;

	ADD(o, "checked_bytes", json_object_new_uint64(r->verify_checked_bytes));
	ADD(o, "bad_sectors", json_object_new_uint64(r->verify_bad_sectors));
	if (r->verify_bad_sectors) {
		b = json_object_new_object();
		ADD(b, "offset_bytes", json_object_new_uint64(f->offset_bytes));
		ADD(b, "fault", json_object_new_string(r0_verify_fault_name(f->fault)));
		ADD(b, "expected_sector", json_object_new_uint64(f->expected_sector));
		ADD(b, "found_sector", json_object_new_uint64(f->found_sector));
		ADD(b, "expected_pass", json_object_new_uint64(f->expected_pass));
		ADD(b, "found_pass", json_object_new_uint64(f->found_pass));
		ADD(b, "bad_byte", json_object_new_uint64(f->bad_byte));
	}
	ADD(o, "first_bad", b);
	return o;
}

static json_object *j_pass(const struct r0_result *r)
{
	json_object *o = json_object_new_object(), *jc, *jw;

	ADD(o, "elapsed_s", json_object_new_double(r->elapsed_s));
	ADD(o, "ios", json_object_new_uint64(r0_result_ios(r)));
	ADD(o, "bytes", json_object_new_uint64(r0_result_bytes(r)));
	ADD(o, "read_ios", json_object_new_uint64(r->ios[R0_OP_READ]));
	ADD(o, "write_ios", json_object_new_uint64(r->ios[R0_OP_WRITE]));
	ADD(o, "trim_ios", json_object_new_uint64(r->ios[R0_OP_TRIM]));
	ADD(o, "iops", json_object_new_double(r0_result_iops(r)));
	ADD(o, "bytes_per_s", json_object_new_double(r0_result_bytes_per_s(r)));
	ADD(o, "user_s", json_object_new_double(r->user_s));
	ADD(o, "sys_s", json_object_new_double(r->sys_s));
	ADD(o, "cpu_per_io_s", json_object_new_double(r0_result_cpu_per_io(r)));
	jc = json_object_new_array();
	jw = json_object_new_array();
	for (unsigned i = 0; i < r->jobs && i < R0_JOBS_MAX; i++) {
		json_object_array_add(jc, json_object_new_double(r->job_cpu_s[i]));
		json_object_array_add(jw, json_object_new_double(r->job_wall_s[i]));
	}
	ADD(o, "job_cpu_s", jc);
	ADD(o, "job_wall_s", jw);
	ADD(o, "busy", json_object_new_double(r0_result_busy(r)));
	ADD(o, "errors", json_object_new_uint64(r->errors));
	ADD(o, "eagain_retries", json_object_new_uint64(r->eagain_retries));
	ADD(o, "interrupted", json_object_new_boolean(r->interrupted));
	return o;
}

static json_object *j_workload(const struct r0_workload *w)
{
	json_object *o = json_object_new_object();

	ADD(o, "rw", json_object_new_string(rw_name(w)));
	ADD(o, "access", json_object_new_string(w->access == R0_ACCESS_SEQ ? "sequential" : "random"));
	ADD(o, "read_pct", json_object_new_int(w->trim ? 0 : (int)w->read_pct));
	ADD(o, "trim", json_object_new_boolean(w->trim));
	ADD(o, "block_bytes", json_object_new_uint64(w->block_bytes));
	ADD(o, "align_bytes", json_object_new_uint64(w->align_bytes ? w->align_bytes : w->block_bytes));
	ADD(o, "queue_depth", json_object_new_uint64(w->queue_depth));
	ADD(o, "jobs", json_object_new_uint64(w->jobs ? w->jobs : 1));
	ADD(o, "shared_region", json_object_new_boolean(w->shared_region));
	ADD(o, "offset_bytes", json_object_new_uint64(w->offset_bytes));
	ADD(o, "span_bytes", json_object_new_uint64(w->span_bytes));
	ADD(o, "runtime_s", json_object_new_double((double)w->runtime_ns / 1e9));
	ADD(o, "ramp_s", json_object_new_double((double)w->ramp_ns / 1e9));
	ADD(o, "size_bytes", json_object_new_uint64(w->size_bytes));
	ADD(o, "cover", json_object_new_boolean(w->cover));
	ADD(o, "seed", json_object_new_uint64(w->seed));
	ADD(o, "verify", json_object_new_string(w->verify == R0_VERIFY_WRITE ? "write" :
						 w->verify == R0_VERIFY_READ ? "read" : "none"));
	ADD(o, "verify_pass", json_object_new_uint64(w->verify_pass));
	ADD(o, "continue_on_error", json_object_new_boolean(w->continue_on_error));
	ADD(o, "reap_batch", json_object_new_uint64(w->reap_batch ? w->reap_batch : 1));
	return o;
}

static json_object *j_target(const struct r0_target *t)
{
	json_object *o = json_object_new_object(), *dev = NULL;
	struct r0_device d;

	ADD(o, "path", json_object_new_string(t->path));
	ADD(o, "kind", json_object_new_string(t->is_block ? "block" : "file"));
	ADD(o, "size_bytes", json_object_new_uint64(t->size_bytes));
	ADD(o, "logical_block_bytes", json_object_new_uint64(t->logical_block_bytes));
	ADD(o, "physical_block_bytes", json_object_new_uint64(t->physical_block_bytes));
	ADD(o, "direct", json_object_new_boolean(t->direct));
	if (t->is_block && !r0_probe_devt(t->devt, NULL, &d)) {
		struct r0_cli_device cd = { .path = t->path, .dev = &d };

		dev = r0_cli_device_json(&cd);
		r0_device_free(&d);
	}
	ADD(o, "device", dev);
	return o;
}

static void print_json(const struct run *run, int status, const char *reason)
{
	json_object *root = json_object_new_object(), *tests = json_object_new_array(), *m, *x;
	char when[64];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	ADD(root, "r0kit_schema", json_object_new_string(JSON_SCHEMA));
	ADD(root, "tool", json_object_new_string(PROG));
	ADD(root, "version", json_object_new_string(R0_VERSION));
	ADD(root, "finished", json_object_new_string(when));
	ADD(root, "target", j_target(&run->target));
	ADD(root, "state", run->state ? json_object_get(run->state) : NULL);
	m = json_object_new_object();
	ADD(m, "preset", run->preset ? json_object_new_string(run->preset) : NULL);
	ADD(m, "passes", json_object_new_uint64(run->passes));
	ADD(m, "warmup_passes", json_object_new_uint64(run->warmup));
	ADD(m, "region_bytes", run->region_bytes ? json_object_new_uint64(run->region_bytes) : NULL);
	ADD(m, "engine", json_object_new_string("io_uring"));
	ADD(root, "method", m);
	for (unsigned i = 0; i < run->ntests; i++) {
		const struct test *t = &run->tests[i];
		json_object *passes = json_object_new_array(), *s = json_object_new_object();
		uint64_t errors = 0;
		const struct r0_result *first_err = NULL;

		if (!t->ran)
			continue;
		x = json_object_new_object();
		ADD(x, "label", json_object_new_string(t->label));
		ADD(x, "workload", j_workload(&t->w));
		for (unsigned p = 0; p < t->npasses; p++) {
			json_object_array_add(passes, j_pass(&t->passes[p]));
			if (t->passes[p].errors && !first_err)
				first_err = &t->passes[p];
			errors += t->passes[p].errors;
		}
		ADD(x, "passes", passes);
		ADD(s, "bytes_per_s", j_spread(spread_of(t, r0_result_bytes_per_s)));
		ADD(s, "mb_per_s", j_spread(spread_of(t, mbps)));
		ADD(s, "mib_per_s", j_spread(spread_of(t, mibps)));
		ADD(s, "iops", j_spread(spread_of(t, r0_result_iops)));
		ADD(s, "cpu_per_io_s", j_spread(spread_of(t, cpu_per_io)));
		ADD(s, "busy", j_spread(spread_of(t, r0_result_busy)));
		ADD(x, "summary", s);
		ADD(x, "latency_ns", j_latency(&t->lat));
		ADD(x, "errors", json_object_new_uint64(errors));
		ADD(x, "first_error", first_err ? j_error(first_err) : NULL);
		if (t->verified)
			ADD(x, "verify", j_verify(&t->verify));
		else if (t->w.verify == R0_VERIFY_READ && t->npasses)
			ADD(x, "verify", j_verify(&t->passes[0]));
		else
			ADD(x, "verify", NULL);
		json_object_array_add(tests, x);
	}
	ADD(root, "tests", tests);
	x = json_object_new_object();
	ADD(x, "status", json_object_new_int(status));
	ADD(x, "reason", reason ? json_object_new_string(reason) : NULL);
	ADD(root, "exit", x);
	r0_cli_print_json(root);
	json_object_put(root);
}

/* --- running ---------------------------------------------------------- */

/* Runs one test: warm-up passes, counted passes, then --verify's read-back. */
static int run_test(struct run *run, struct test *t, const char **reason)
{
	struct r0_run_opts o = { .stop = &stop_flag };
	struct r0_result *scratch = NULL;
	unsigned total = run->warmup + run->passes;
	int ret = 0;

	t->passes = calloc(run->passes, sizeof(*t->passes));
	scratch = malloc(sizeof(*scratch));
	if (!t->passes || !scratch) {
		free(scratch);
		return -ENOMEM;
	}
	char what[128];

	if (run->tty) {
		o.progress = progress;
		o.progress_arg = what;
	}
	r0_hist_reset(&t->lat);
	t->ran = true;
	for (unsigned p = 0; p < total; p++) {
		struct r0_result *r = p < run->warmup ? scratch : &t->passes[p - run->warmup];

		if (p < run->warmup)
			snprintf(what, sizeof(what), "%s %s, warm-up", t->label, rw_name(&t->w));
		else
			snprintf(what, sizeof(what), "%s %s, pass %u of %u", t->label, rw_name(&t->w),
				 p - run->warmup + 1, run->passes);

		ret = r0_engine_run(&run->target, &t->w, &o, r);
		if (p >= run->warmup && ret != -EINVAL && ret != -ENOMEM) {
			t->npasses = p - run->warmup + 1;
			r0_hist_merge(&t->lat, &r->lat);
		}
		if (ret == -EINTR) {
			*reason = "interrupted by a signal";
			break;
		}
		if (ret) {
			fprintf(stderr, PROG ": %s: %s: cannot run: %s\n", run->target.path, t->label,
				strerror(-ret));
			*reason = "the engine could not run the test";
			break;
		}
		if (r->errors) {
			print_error(run, r);
			*reason = "I/O error";
			ret = -EIO;
			if (!t->w.continue_on_error)
				break;
		}
		if (r->verify_bad_sectors) {
			print_verify_fault(run, r);
			*reason = "verify failed";
			ret = -EILSEQ;
		}
	}
	if (run->tty)
		fputs("\r\033[K", stdout);
	if (!ret && t->w.verify == R0_VERIFY_WRITE) {
		/* read back what the pass wrote, in the same run */
		struct r0_workload v = t->w;

		v.verify = R0_VERIFY_READ;
		v.read_pct = 100;
		snprintf(what, sizeof(what), "%s, reading back", t->label);
		ret = r0_engine_run(&run->target, &v, &o, &t->verify);
		t->verified = ret == 0 || ret == -EINTR;
		if (ret == -EINTR)
			*reason = "interrupted by a signal";
		else if (ret)
			fprintf(stderr, PROG ": %s: %s: cannot read back: %s\n", run->target.path,
				t->label, strerror(-ret));
		else if (t->verify.errors) {
			print_error(run, &t->verify);
			*reason = "I/O error";
			ret = -EIO;
		} else if (t->verify.verify_bad_sectors) {
			print_verify_fault(run, &t->verify);
			*reason = "verify failed";
			ret = -EILSEQ;
		}
		if (run->tty)
			fputs("\r\033[K", stdout);
	}
	free(scratch);
	return ret;
}

static int add_test(struct run *run, const char *label, const struct r0_workload *w)
{
	if (run->ntests == MAX_TESTS)
		return -ENOSPC;
	run->tests[run->ntests].label = label;
	run->tests[run->ntests].w = *w;
	run->ntests++;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rw", required_argument, NULL, OPT_RW },
		{ "bs", required_argument, NULL, 'b' },
		{ "qd", required_argument, NULL, 'q' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "shared", no_argument, NULL, OPT_SHARED },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ "span", required_argument, NULL, OPT_SPAN },
		{ "rwmix-read", required_argument, NULL, OPT_MIX },
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ "cover", no_argument, NULL, OPT_COVER },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "runtime", required_argument, NULL, 't' },
		{ "ramp", required_argument, NULL, OPT_RAMP },
		{ "size", required_argument, NULL, 's' },
		{ "passes", required_argument, NULL, OPT_PASSES },
		{ "reap-batch", required_argument, NULL, OPT_REAP },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "preset", required_argument, NULL, 'p' },
		{ "region", required_argument, NULL, OPT_REGION },
		{ "read-only", no_argument, NULL, OPT_READ_ONLY },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "pass", required_argument, NULL, OPT_PASS },
		{ "continue-on-error", no_argument, NULL, OPT_CONTINUE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static struct run run;
	struct r0_workload w = { .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096,
				 .queue_depth = 1, .jobs = 1, .seed = 1, .verify_pass = 1 };
	const struct r0_preset *preset = NULL;
	const char *rw = NULL, *reason = NULL, *path;
	bool force = false, verify = false, time_given = false, size_given = false, mixed = false;
	bool passes_given = false, warmup_given = false, any_writes = false, read_only = false;
	unsigned mix = 50, u;
	uint64_t v, region = 0;
	static char label[64];
	struct sigaction sa = { .sa_handler = on_signal };
	int c, err, status = 0;

	while ((c = getopt_long(argc, argv, "b:q:j:t:s:p:fhV", opts, NULL)) != -1) {
		switch (c) {
		case OPT_RW:
			rw = optarg;
			if ((err = parse_rw(optarg, &w)) < 0)
				return r0_cli_usage_error(PROG, "--rw '%s': use read, write, randread, randwrite, rw, randrw, trim or randtrim", optarg);
			mixed = err == 1;
			break;
		case 'b':
			if (r0_parse_size(optarg, &v) || v == 0 || v > R0_BLOCK_MAX)
				return r0_cli_usage_error(PROG, "--bs '%s': a size from 1 to 64M, e.g. 4K", optarg);
			w.block_bytes = (uint32_t)v;
			break;
		case 'q':
			if (r0_cli_parse_uint(optarg, R0_QD_MAX, &u) || !u)
				return r0_cli_usage_error(PROG, "--qd '%s': a queue depth from 1 to %u", optarg, R0_QD_MAX);
			w.queue_depth = u;
			break;
		case 'j':
			if (r0_cli_parse_uint(optarg, R0_JOBS_MAX, &u) || !u)
				return r0_cli_usage_error(PROG, "--jobs '%s': from 1 to %u", optarg, R0_JOBS_MAX);
			w.jobs = u;
			break;
		case OPT_SHARED: w.shared_region = true; break;
		case OPT_OFFSET:
			if (r0_parse_size(optarg, &w.offset_bytes))
				return r0_cli_usage_error(PROG, "--offset '%s': not a size", optarg);
			break;
		case OPT_SPAN:
			if (r0_parse_size(optarg, &w.span_bytes) || !w.span_bytes)
				return r0_cli_usage_error(PROG, "--span '%s': a size above 0", optarg);
			break;
		case OPT_MIX:
			if (r0_cli_parse_uint(optarg, 100, &mix))
				return r0_cli_usage_error(PROG, "--rwmix-read '%s': a percentage from 0 to 100", optarg);
			break;
		case OPT_ALIGN:
			if (r0_parse_size(optarg, &v) || !v || v > R0_BLOCK_MAX)
				return r0_cli_usage_error(PROG, "--align '%s': a size from 1 to 64M", optarg);
			w.align_bytes = (uint32_t)v;
			break;
		case OPT_COVER: w.cover = true; break;
		case OPT_SEED:
			errno = 0;
			{
				char *end;

				w.seed = strtoull(optarg, &end, 0);
				if (errno || end == optarg || *end || *optarg == '-')
					return r0_cli_usage_error(PROG, "--seed '%s': not a number", optarg);
			}
			break;
		case 't':
			if (r0_parse_duration(optarg, &w.runtime_ns) || !w.runtime_ns)
				return r0_cli_usage_error(PROG, "--runtime '%s': a time above 0, e.g. 5, 0.5, 500ms or 2m", optarg);
			time_given = true;
			break;
		case OPT_RAMP:
			if (r0_parse_duration(optarg, &w.ramp_ns))
				return r0_cli_usage_error(PROG, "--ramp '%s': a time, e.g. 2 or 500ms", optarg);
			break;
		case 's':
			if (r0_parse_size(optarg, &w.size_bytes) || !w.size_bytes)
				return r0_cli_usage_error(PROG, "--size '%s': a size above 0", optarg);
			size_given = true;
			break;
		case OPT_REAP:
			if (r0_cli_parse_uint(optarg, R0_QD_MAX, &u) || !u)
				return r0_cli_usage_error(PROG, "--reap-batch '%s': from 1 to the queue depth", optarg);
			w.reap_batch = u;
			break;
		case OPT_PASSES:
			if (r0_cli_parse_uint(optarg, 64, &run.passes) || !run.passes)
				return r0_cli_usage_error(PROG, "--passes '%s': from 1 to 64", optarg);
			passes_given = true;
			break;
		case OPT_WARMUP:
			if (r0_cli_parse_uint(optarg, 64, &run.warmup))
				return r0_cli_usage_error(PROG, "--warmup '%s': from 0 to 64", optarg);
			warmup_given = true;
			break;
		case 'p':
			if (!(preset = r0_preset_find(optarg)))
				return r0_cli_usage_error(PROG, "--preset '%s': use cdm, cdm3, cdm-nvme or predict", optarg);
			break;
		case OPT_REGION:
			if (r0_parse_size(optarg, &region) || !region)
				return r0_cli_usage_error(PROG, "--region '%s': a size above 0", optarg);
			break;
		case OPT_READ_ONLY: read_only = true; break;
		case OPT_VERIFY: verify = true; break;
		case OPT_PASS:
			if (r0_cli_parse_uint(optarg, UINT32_MAX, &u))
				return r0_cli_usage_error(PROG, "--pass '%s': not a number", optarg);
			w.verify_pass = u;
			break;
		case OPT_CONTINUE: w.continue_on_error = true; break;
		case OPT_JSON: run.json = true; break;
		case 'f': force = true; break;
		case 'h': usage(stdout); return r0_cli_close_stdout(PROG);
		case 'V': printf(PROG " from r0kit %s\n", R0_VERSION); return r0_cli_close_stdout(PROG);
		default: return r0_cli_usage_error(PROG, "bad option");
		}
	}
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name a TARGET (a block device or a regular file)");
	if (argc - optind > 1)
		return r0_cli_usage_error(PROG, "one TARGET at a time");
	path = argv[optind];
	if (time_given && size_given)
		return r0_cli_usage_error(PROG, "--runtime and --size exclude each other");
	if (mixed)
		w.read_pct = mix;
	if (preset && (rw || verify))
		return r0_cli_usage_error(PROG, "--preset sets the workloads: no --rw or --verify with it");
	if (verify) {
		if (w.trim || (w.read_pct != 0 && w.read_pct != 100))
			return r0_cli_usage_error(PROG, "--verify goes with read, write, randread or randwrite");
		if (time_given || size_given)
			return r0_cli_usage_error(PROG, "--verify covers the region once: no --runtime or --size (use --span)");
		w.verify = w.read_pct ? R0_VERIFY_READ : R0_VERIFY_WRITE;
		if (w.access == R0_ACCESS_RAND)
			w.cover = true;
	} else if (!size_given) {
		w.runtime_ns = time_given ? w.runtime_ns : 5000000000ULL;
	}
	if (read_only && !preset)
		return r0_cli_usage_error(PROG, "--read-only is for presets; use --rw read or randread");
	if (preset) {
		run.preset = preset->name;
		run.passes = passes_given ? run.passes : preset->passes ? preset->passes : R0_CDM_PASSES;
		run.warmup = warmup_given ? run.warmup :
			     preset->passes ? preset->warmup_passes : R0_CDM_WARMUP_PASSES;
		run.region_bytes = region ? region : R0_CDM_REGION_BYTES;
	} else if (!passes_given) {
		run.passes = 1;
	}
	if (region && !preset)
		return r0_cli_usage_error(PROG, "--region is for presets; use --span");

	if (preset) {
		for (size_t i = 0; i < preset->n_tests; i++) {
			struct r0_workload pw = preset->tests[i].w;

			pw.seed = w.seed;
			if (read_only && writes(&pw))
				continue;
			pw.runtime_ns = time_given ? w.runtime_ns : size_given ? 0 :
					preset->pass_ns ? preset->pass_ns : R0_CDM_PASS_NS;
			pw.size_bytes = w.size_bytes;
			pw.ramp_ns = w.ramp_ns;
			pw.offset_bytes = w.offset_bytes;
			pw.continue_on_error = w.continue_on_error;
			pw.reap_batch = w.reap_batch > pw.queue_depth ? pw.queue_depth : w.reap_batch;
			add_test(&run, preset->tests[i].label, &pw);
			any_writes |= writes(&pw);
		}
	} else {
		snprintf(label, sizeof(label), "%s", rw_name(&w));
		add_test(&run, label, &w);
		any_writes = writes(&w) || w.verify == R0_VERIFY_WRITE;
	}

	/* safety before anything is opened for writing */
	if (any_writes) {
		struct r0_member_check chk;
		char why[512];
		struct stat st;

		if (!stat(path, &st) && S_ISBLK(st.st_mode) && r0_write_check(path, force, &chk, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: refusing to write: %s\n", path, why);
			return R0_EXIT_FAILURE;
		}
	}
	err = r0_target_open(path, any_writes, &run.target);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			err == -ENOTBLK ? "not a block device or regular file" : strerror(-err));
		return R0_EXIT_FAILURE;
	}
	if (preset) {
		if (run.region_bytes > run.target.size_bytes - run.tests[0].w.offset_bytes)
			run.region_bytes = run.target.size_bytes - run.tests[0].w.offset_bytes;
		if (run.region_bytes >= (1 << 20))   /* whole MiB, as CDM's test sizes */
			run.region_bytes -= run.region_bytes % (1 << 20);
		for (unsigned i = 0; i < run.ntests; i++)
			run.tests[i].w.span_bytes = run.region_bytes;
	}
	/* the state the target is in before this run: r0age's last record, if any */
	if (run.target.is_block) {
		err = r0_state_load(run.target.devt, &run.state);
		if (err && err != -ENOENT)
			fprintf(stderr, PROG ": %s: ignoring its state record in " R0_STATE_DIR ": %s\n",
				path, err == -EINVAL ? "not an " R0_STATE_SCHEMA " record" : strerror(-err));
	}
	for (unsigned i = 0; i < run.ntests; i++) {
		char why[256];

		err = r0_workload_check(&run.tests[i].w, &run.target, why, sizeof(why));
		if (err) {
			r0_target_close(&run.target);
			json_object_put(run.state);
			return r0_cli_usage_error(PROG, "%s: %s", run.tests[i].label, why);
		}
	}
	run.tty = !run.json && isatty(STDOUT_FILENO);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (unsigned i = 0; i < run.ntests; i++) {
		err = run_test(&run, &run.tests[i], &reason);
		if (err) {
			status = R0_EXIT_FAILURE;
			if (err == -EINTR || !run.tests[i].w.continue_on_error)
				break;
		}
	}
	if (err == -EINTR)
		fprintf(stderr, PROG ": %s: interrupted by a signal\n", path);
	if (run.json)
		print_json(&run, status, reason);
	else
		print_table(&run);
	r0_target_close(&run.target);
	json_object_put(run.state);
	for (unsigned i = 0; i < run.ntests; i++)
		free(run.tests[i].passes);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}
