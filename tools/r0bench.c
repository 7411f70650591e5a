// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench: measure a block device or file with the io_uring engine. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench/bench.h"
#include "cli.h"

#include "r0/age.h"
#include "r0/engine.h"
#include "r0/preset.h"
#include "r0/safety.h"
#include "r0/size.h"


enum {
	OPT_RW = CHAR_MAX + 1, OPT_SHARED, OPT_OFFSET, OPT_SPAN, OPT_RAMP, OPT_MIX, OPT_ALIGN,
	OPT_COVER, OPT_SEED, OPT_VERIFY, OPT_PASS, OPT_CONTINUE, OPT_PASSES, OPT_WARMUP,
	OPT_REGION, OPT_JSON, OPT_REAP, OPT_READ_ONLY, OPT_HIPRI, OPT_SQPOLL,
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
	      "      --hipri            polled completions (io_uring IOPOLL, fio's hipri):\n"
	      "                         needs a device with poll queues (NVMe, null_blk\n"
	      "                         poll_queues); fails on one without\n"
	      "      --sqpoll           a kernel thread submits (io_uring SQPOLL, fio's\n"
	      "                         sqthread_poll)\n"
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

static bool writes(const struct r0_workload *w)
{
	return w->trim || w->read_pct < 100;
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
		{ "hipri", no_argument, NULL, OPT_HIPRI },
		{ "sqpoll", no_argument, NULL, OPT_SQPOLL },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "preset", required_argument, NULL, 'p' },
		{ "region", required_argument, NULL, OPT_REGION },
		{ "read-only", no_argument, NULL, OPT_READ_ONLY },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "pass", required_argument, NULL, OPT_PASS },
		{ "continue-on-error", no_argument, NULL, OPT_CONTINUE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "force", no_argument, NULL, 'f' },
		R0_CLI_OPTIONS_END,
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
			if (r0_cli_opt_size(PROG, "--bs", optarg, 1, R0_BLOCK_MAX, &v, "a size from 1 to 64M, e.g. 4K"))
				return R0_EXIT_USAGE;
			w.block_bytes = (uint32_t)v;
			break;
		case 'q':
			if (r0_cli_opt_uint(PROG, "--qd", optarg, 1, R0_QD_MAX, &u, "a queue depth from 1 to %u", R0_QD_MAX))
				return R0_EXIT_USAGE;
			w.queue_depth = u;
			break;
		case 'j':
			if (r0_cli_opt_uint(PROG, "--jobs", optarg, 1, R0_JOBS_MAX, &u, "from 1 to %u", R0_JOBS_MAX))
				return R0_EXIT_USAGE;
			w.jobs = u;
			break;
		case OPT_SHARED: w.shared_region = true; break;
		case OPT_OFFSET:
			if (r0_cli_opt_size(PROG, "--offset", optarg, 0, UINT64_MAX, &w.offset_bytes, "not a size"))
				return R0_EXIT_USAGE;
			break;
		case OPT_SPAN:
			if (r0_cli_opt_size(PROG, "--span", optarg, 1, UINT64_MAX, &w.span_bytes, "a size above 0"))
				return R0_EXIT_USAGE;
			break;
		case OPT_MIX:
			if (r0_cli_opt_uint(PROG, "--rwmix-read", optarg, 0, 100, &mix, "a percentage from 0 to 100"))
				return R0_EXIT_USAGE;
			break;
		case OPT_ALIGN:
			if (r0_cli_opt_size(PROG, "--align", optarg, 1, R0_BLOCK_MAX, &v, "a size from 1 to 64M"))
				return R0_EXIT_USAGE;
			w.align_bytes = (uint32_t)v;
			break;
		case OPT_COVER: w.cover = true; break;
		case OPT_SEED:
			if (r0_parse_seed(optarg, &w.seed))
				return r0_cli_usage_error(PROG, "--seed '%s': not a number", optarg);
			break;
		case 't':
			if (r0_cli_opt_duration(PROG, "--runtime", optarg, 1, UINT64_MAX, &w.runtime_ns, "a time above 0, e.g. 5, 0.5, 500ms or 2m"))
				return R0_EXIT_USAGE;
			time_given = true;
			break;
		case OPT_RAMP:
			if (r0_cli_opt_duration(PROG, "--ramp", optarg, 0, UINT64_MAX, &w.ramp_ns, "a time, e.g. 2 or 500ms"))
				return R0_EXIT_USAGE;
			break;
		case 's':
			if (r0_cli_opt_size(PROG, "--size", optarg, 1, UINT64_MAX, &w.size_bytes, "a size above 0"))
				return R0_EXIT_USAGE;
			size_given = true;
			break;
		case OPT_REAP:
			if (r0_cli_opt_uint(PROG, "--reap-batch", optarg, 1, R0_QD_MAX, &u, "from 1 to the queue depth"))
				return R0_EXIT_USAGE;
			w.reap_batch = u;
			break;
		case OPT_HIPRI: w.hipri = true; break;
		case OPT_SQPOLL: w.sqpoll = true; break;
		case OPT_PASSES:
			if (r0_cli_opt_uint(PROG, "--passes", optarg, 1, 64, &run.passes, "from 1 to 64"))
				return R0_EXIT_USAGE;
			passes_given = true;
			break;
		case OPT_WARMUP:
			if (r0_cli_opt_uint(PROG, "--warmup", optarg, 0, 64, &run.warmup, "from 0 to 64"))
				return R0_EXIT_USAGE;
			warmup_given = true;
			break;
		case 'p':
			if (!(preset = r0_preset_find(optarg)))
				return r0_cli_usage_error(PROG, "--preset '%s': use cdm, cdm3, cdm-nvme or predict", optarg);
			break;
		case OPT_REGION:
			if (r0_cli_opt_size(PROG, "--region", optarg, 1, UINT64_MAX, &region, "a size above 0"))
				return R0_EXIT_USAGE;
			break;
		case OPT_READ_ONLY: read_only = true; break;
		case OPT_VERIFY: verify = true; break;
		case OPT_PASS:
			if (r0_cli_opt_uint(PROG, "--pass", optarg, 0, UINT32_MAX, &u, "not a number"))
				return R0_EXIT_USAGE;
			w.verify_pass = u;
			break;
		case OPT_CONTINUE: w.continue_on_error = true; break;
		case OPT_JSON: run.json = true; break;
		case 'f': force = true; break;
		default: return r0_cli_common_option(c, PROG, usage);
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
			pw.hipri = w.hipri;
			pw.sqpoll = w.sqpoll;
			add_test(&run, preset->tests[i].label, &pw);
			any_writes |= writes(&pw);
		}
	} else {
		snprintf(label, sizeof(label), "%s", bench_rw_name(&w));
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
		if (!err && w.hipri && !run.tests[i].w.trim &&
		    r0_target_poll_check(&run.target, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: --hipri: %s\n", path, why);
			r0_target_close(&run.target);
			json_object_put(run.state);
			return R0_EXIT_FAILURE;
		}
		if (err) {
			r0_target_close(&run.target);
			json_object_put(run.state);
			return r0_cli_usage_error(PROG, "%s: %s", run.tests[i].label, why);
		}
	}
	run.tty = !run.json && isatty(STDOUT_FILENO);
	/* SIGINT, SIGTERM and SIGHUP end the run with what was measured */
	r0_cli_catch_stop_signals();
	run.stop = r0_cli_stop_flag();
	for (unsigned i = 0; i < run.ntests; i++) {
		err = bench_run_test(&run, &run.tests[i], &reason);
		if (err) {
			status = R0_EXIT_FAILURE;
			if (err == -EINTR || !run.tests[i].w.continue_on_error)
				break;
		}
	}
	if (err == -EINTR)
		fprintf(stderr, PROG ": %s: interrupted by a signal\n", path);
	if (run.json)
		bench_print_json(&run, status, reason);
	else
		bench_print_table(&run);
	r0_target_close(&run.target);
	json_object_put(run.state);
	for (unsigned i = 0; i < run.ntests; i++)
		free(run.tests[i].passes);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}
