// SPDX-License-Identifier: GPL-2.0-or-later
/* r0age record-cycle: one cycle of an aging scenario appended as an r0scenario/1 line (r0/scenariojson.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age.h"
#include "cli.h"

#include "r0/benchjson.h"
#include "r0/filehead.h"
#include "r0/jsonlappend.h"
#include "r0/scenariojson.h"

enum {
	OPT_SCENARIO = CHAR_MAX + 1, OPT_ARRAY, OPT_MEMBERS, OPT_SSD_MIB, OPT_TRIM, OPT_CYCLE, OPT_FILL,
	OPT_FILL_BYTES, OPT_MAPPED_DELETE, OPT_FSTRIM_BYTES, OPT_MAPPED_BENCH, OPT_RANDWRITE, OPT_SEQWRITE,
	OPT_AT_START, OPT_AT_BENCH, OPT_AT_RANDWRITE, OPT_AT_SEQWRITE, OPT_OLD_MEMBERS,
};

static const struct r0_cli_choice yes_no[] = { { "yes", 1 }, { "no", 0 }, { NULL, 0 } };

/* --fill: a whole percentage MIN..MAX, "30" or "30%", as every --fill reads it (r0_parse_pct) */
static int opt_pct(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_parse_pct(arg, (unsigned)o->min, (unsigned)o->max, o->dest))
		return r0_cli_usage_error(prog, "--%s '%s': %s", o->name, arg, o->why);
	return 0;
}

/* "HOST,FLASH,GC": three decimal counts into the struct r0_scenario_counts at O's DEST */
static int opt_counts(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	uint64_t v[3];
	const char *p = arg;
	char *end;

	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno || *end != (i < 2 ? ',' : '\0'))
			goto bad;
		p = end + 1;
	}
	*(struct r0_scenario_counts *)o->dest = (struct r0_scenario_counts){ v[0], v[1], v[2] };
	return 0;
bad:
	return r0_cli_usage_error(prog, "--%s '%s': three counts HOST,FLASH,GC (host_write_pages, "
				  "flash_program_pages, gc_runs), e.g. 94805,102821,127", o->name, arg);
}

/* PATH's r0bench/1 document into *D: -1, or R0_EXIT_USAGE after saying why not */
static int load_bench(const char *opt, const char *path, struct r0_bench_doc *d)
{
	int err = r0_bench_load(path, d);

	if (!err)
		return -1;
	if (err == -ENOMSG)
		fprintf(stderr, PROG ": %s %s: not an r0bench --json document (" R0_BENCH_SCHEMA ")\n", opt, path);
	else
		fprintf(stderr, PROG ": %s %s: cannot read: %s\n", opt, path, strerror(-err));
	return R0_EXIT_USAGE;
}

/* PATH is new, empty or an r0scenario/1 file: -1, or R0_EXIT_USAGE after saying what it is instead */
static int check_result_file(const char *path)
{
	struct r0_file_head h;
	char words[128];
	int err = r0_file_head(path, &h);

	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(-err));
		return R0_EXIT_USAGE;
	}
	if (h.kind == R0_HEAD_MISSING || h.kind == R0_HEAD_EMPTY ||
	    (h.kind == R0_HEAD_JSON && h.line_object && !strcmp(h.schema, R0_SCENARIO_SCHEMA)))
		return -1;
	r0_file_head_describe(&h, words, sizeof(words));
	fprintf(stderr, PROG ": %s: not a scenario result file (" R0_SCENARIO_SCHEMA ") but %s: name a new "
		"file, or one record-cycle wrote\n", path, words);
	return R0_EXIT_USAGE;
}

/* the record's texts fit and are not empty: -1, or R0_EXIT_USAGE */
static int check_names(const char *scenario, const char *array, struct r0_scenario_cycle *c)
{
	if (!*scenario || strlen(scenario) >= sizeof(c->scenario))
		return r0_cli_usage_error(PROG, "--scenario '%s': a name of 1 to %zu characters", scenario,
					  sizeof(c->scenario) - 1);
	if (!*array || strlen(array) >= sizeof(c->array))
		return r0_cli_usage_error(PROG, "--array '%s': a name of 1 to %zu characters", array,
					  sizeof(c->array) - 1);
	snprintf(c->scenario, sizeof(c->scenario), "%s", scenario);
	snprintf(c->array, sizeof(c->array), "%s", array);
	return -1;
}

/* C appended to PATH and printed: 0, or R0_EXIT_USAGE (cannot open) or R0_EXIT_FAILURE after saying why */
static int append(const char *path, const struct r0_scenario_cycle *c)
{
	char *line = r0_scenario_cycle_to_json(c);
	bool cut;
	FILE *f;
	int err;

	if (!line) {
		fprintf(stderr, PROG ": record-cycle: no " R0_SCENARIO_SCHEMA " line: %s\n", strerror(errno));
		return errno == EINVAL ? R0_EXIT_USAGE : R0_EXIT_FAILURE;
	}
	if ((err = r0_jsonl_open_append(path, &f, &cut))) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(-err));
		free(line);
		return R0_EXIT_USAGE;
	}
	if (cut)
		fprintf(stderr, PROG ": %s: its last line, cut mid-write, removed\n", path);
	err = r0_scenario_cycle_append(f, c);
	if (fclose(f) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, PROG ": %s: cannot append the record: %s\n", path, strerror(-err));
		free(line);
		return R0_EXIT_FAILURE;
	}
	puts(line);
	free(line);
	return r0_cli_close_stdout(PROG) ? R0_EXIT_FAILURE : R0_EXIT_OK;
}

int record_cycle(const struct r0_cli *cli, int argc, char **argv)
{
	struct r0_scenario_cycle c = { .mapped_after_delete_pct = NAN, .fstrim_bytes = R0_SCENARIO_NULL };
	struct r0_scenario_counts at[R0_SCENARIO_MOMENTS] = { { 0 } };
	struct r0_bench_doc rand = { 0 }, seq = { 0 };
	const char *scenario = NULL, *array = NULL, *rand_path = NULL, *seq_path = NULL;
	char why[256];
	int trim = 0, rc;

	/* what --help says of them: r0age.c's usage_opts (CLI's) */
	const struct r0_cli_opt opts[] = {
		{ "scenario", OPT_SCENARIO, R0_CLI_STRING, R0_CLI_TO(scenario) },
		{ "array", OPT_ARRAY, R0_CLI_STRING, R0_CLI_TO(array) },
		{ "member-count", OPT_MEMBERS, R0_CLI_UINT, R0_CLI_TO(c.members), .min = 1, .max = UINT_MAX,
		  .why = "from 1 to %u" },
		/* r0sweep's --members is a list of counts to study: this one the array's own */
		{ "members", OPT_OLD_MEMBERS, R0_CLI_UINT, R0_CLI_TO(c.members), .min = 1, .max = UINT_MAX,
		  .why = "from 1 to %u", .renamed_to = "member-count" },
		{ "ssd-mib", OPT_SSD_MIB, R0_CLI_UINT, R0_CLI_TO(c.ssd_mib), .min = 1, .max = UINT_MAX,
		  .why = "MiB, from 1 to %u" },
		{ "trim", OPT_TRIM, R0_CLI_CHOICE, R0_CLI_TO(trim), .choices = yes_no, .why = "yes or no" },
		{ "cycle", OPT_CYCLE, R0_CLI_UINT, R0_CLI_TO(c.cycle), .max = UINT_MAX, .why = "from 0 to %u" },
		{ "fill", OPT_FILL, R0_CLI_CALL, R0_CLI_TO(c.fill_pct), .max = 100, .call = opt_pct,
		  .why = "a percentage from 0 to 100 (30 or 30%)" },
		{ "fill-bytes", OPT_FILL_BYTES, R0_CLI_SIZE, R0_CLI_TO(c.fill_bytes), .max = UINT64_MAX,
		  .why = "bytes, e.g. 209715200" },
		{ "mapped-after-delete", OPT_MAPPED_DELETE, R0_CLI_DOUBLE, R0_CLI_TO(c.mapped_after_delete_pct),
		  .dmax = 100, .why = "a percentage from 0 to 100, e.g. 99.8" },
		{ "fstrim-bytes", OPT_FSTRIM_BYTES, R0_CLI_SIZE, R0_CLI_TO(c.fstrim_bytes), .max = UINT64_MAX - 1,
		  .why = "bytes, e.g. 234569728" },
		{ "mapped-before-bench", OPT_MAPPED_BENCH, R0_CLI_DOUBLE, R0_CLI_TO(c.mapped_before_bench_pct),
		  .dmax = 100, .why = "a percentage from 0 to 100, e.g. 12.6" },
		{ "randwrite", OPT_RANDWRITE, R0_CLI_STRING, R0_CLI_TO(rand_path) },
		{ "seqwrite", OPT_SEQWRITE, R0_CLI_STRING, R0_CLI_TO(seq_path) },
		{ "counters-start", OPT_AT_START, R0_CLI_CALL, R0_CLI_TO(at[R0_SCENARIO_AT_START]), .call = opt_counts },
		{ "counters-bench", OPT_AT_BENCH, R0_CLI_CALL, R0_CLI_TO(at[R0_SCENARIO_AT_BENCH]), .call = opt_counts },
		{ "counters-randwrite", OPT_AT_RANDWRITE, R0_CLI_CALL, R0_CLI_TO(at[R0_SCENARIO_AT_RANDWRITE]),
		  .call = opt_counts },
		{ "counters-seqwrite", OPT_AT_SEQWRITE, R0_CLI_CALL, R0_CLI_TO(at[R0_SCENARIO_AT_SEQWRITE]),
		  .call = opt_counts },
		{ 0 },
	};

	r0_cli_parse(cli, opts, argc, argv);
	/* left out, the two the record may hold as null; the rest it must have (an old name counts) */
	for (const struct r0_cli_opt *o = opts; o->name; o++)
		if (!o->renamed_to && !r0_cli_given(o->name) && o->key != OPT_MAPPED_DELETE &&
		    o->key != OPT_FSTRIM_BYTES)
			return r0_cli_usage_error(PROG, "record-cycle: --%s is required", o->name);
	if (argc - optind != 1)
		return r0_cli_usage_error(PROG, "record-cycle: name one result file (r0scenario/1) to append to");
	c.trim = trim;
	if ((rc = check_names(scenario, array, &c)) >= 0 || (rc = check_result_file(argv[optind])) >= 0)
		return rc;
	if (r0_scenario_cycle_set_counts(&c, at)) {
		fprintf(stderr, PROG ": record-cycle: a counter is lower at a later moment than at an earlier one "
			"(--counters-start, -bench, -randwrite, -seqwrite): an SSD restarted?\n");
		return R0_EXIT_USAGE;
	}
	if ((rc = load_bench("--randwrite", rand_path, &rand)) >= 0 ||
	    (rc = load_bench("--seqwrite", seq_path, &seq)) >= 0)
		goto out;
	rc = R0_EXIT_USAGE;
	if (r0_scenario_cycle_set_bench(&c, &rand, &seq, why, sizeof(why))) {
		fprintf(stderr, PROG ": --randwrite %s, --seqwrite %s: %s\n", rand_path, seq_path, why);
		goto out;
	}
	rc = append(argv[optind], &c);
out:
	r0_bench_doc_free(&rand);
	r0_bench_doc_free(&seq);
	return rc;
}
