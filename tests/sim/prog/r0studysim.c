// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0studysim: the 30-minute study on simulated drives (tests/sim/studysim.c,
 * seeded, truth known), through r0sweep's own study loop, row by row: one
 * truth under one noise at one cell time, many seeds. Prints each row as
 * docs/validation.md's table has it and each bar it misses; exit 1 when a
 * bar is missed. A benchmark's program (recipes/bench/study-plans, make
 * perf), not a user's tool: it is built, never installed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methodsim.h"
#include "simrow.h"
#include "studysim.h"

#define PROG "r0studysim"
#define MAX_PICKS 16

/* The truths by the names the command line takes, in enum r0_sim_truth's order. */
static const char *const truth_names[R0_SIM_TRUTHS] = {
	"no-gain", "perfect", "third-nothing", "shared", "raid0", "chunk-ahead", "chunk-random", "true-1.15",
	"true-1.3",
};
/* The designed noises likewise; a bank goes by its file's name under tests/data/noise/. */
static const char *const noise_names[R0_SIM_BANK_FIRST] = {
	"gauss2", "gauss5", "gauss10", "lognormal10", "outliers", "drift",
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " [OPTION]...\n"
		"The 30-minute study on simulated drives, row by row: each truth under each noise\n"
		"at each cell time, STUDIES seeded studies a row. Prints the rows (docs/validation.md's\n"
		"table) and every bar a row misses; exit 1 when one is missed (or a study fails),\n"
		"2 on bad input.\n\n"
		"  -t, --truth NAME   a truth (repeatable; default all): no-gain, perfect, third-nothing,\n"
		"                     shared, raid0, chunk-ahead, chunk-random, true-1.15, true-1.3, or\n"
		"                     true-X for every array X times one drive (1 to 10: true-1.19,\n"
		"                     how often a speed-up just under the 1.2x bar is called worth it)\n"
		"  -n, --noise NAME   a noise (repeatable; default all designed ones and the five banks):\n"
		"                     gauss2, gauss5, gauss10, lognormal10, outliers, drift, or a bank's\n"
		"                     name (demo, sample, nvme-real-md, sata-real-md, r0ssd-md, or any\n"
		"                     tests/data/noise/NAME.json, read under the working directory or\n"
		"                     $R0_SIM_BANK_DIR)\n"
		"  -c, --cell S       seconds a cell takes (repeatable; default 3.8 and 2.3)\n"
		"  -s, --studies N    studies a row (default 200)\n"
		"  -b, --budget MIN   the study's budget in minutes (default r0sweep's 30); the bars\n"
		"                     stay the 30-minute study's\n"
		"      --max-repeats N  repeats of an undecided cell at most (default r0sweep's 8)\n"
		"      --one-array    instead of r0sweep's plan, one drive and md 64K at every count\n"
		"                     alone: how far the budget takes the money answers with no cell\n"
		"                     spent on the chunks (a bound, not a plan r0sweep offers); its\n"
		"                     chunk lines and pick are trivially right: read its count and\n"
		"                     worth it\n"
		"      --fixed        the fixed plan of every target beside, on gauss2, gauss5 and outliers\n"
		"      --method       instead, the comparison method's table (tests/sim/methodsim.c): false\n"
		"                     differences and power by repeats and noise, the bootstrap it\n"
		"                     replaced beside it at a quarter of the studies\n"
		"  -v, --verbose      each study whose count or pick is wrong\n"
		"  -h, --help\n");
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s '%s'\nTry '" PROG " --help' for more information.\n", what, arg);
	return 2;
}

static int find(const char *const *names, int n, const char *arg)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], arg))
			return i;
	return -1;
}

/* A noise by name: a designed one, a built-in bank, or a named bank (one at a time: NAMES keeps it). */
static int noise_of(const char *arg, enum r0_sim_noise *out, char *name, size_t len)
{
	int k = find(noise_names, R0_SIM_BANK_FIRST, arg);

	*name = 0;
	if (k >= 0) {
		*out = (enum r0_sim_noise)k;
		return 0;
	}
	return r0_sim_bank_by_name(arg, out, name, len);
}

/* "true-X": X, a speed-up from 1 to 10, into *X; false for anything else. */
static bool speedup_of(const char *arg, double *x)
{
	char *end;

	if (strncmp(arg, "true-", 5))
		return false;
	*x = strtod(arg + 5, &end);
	return end > arg + 5 && !*end && *x >= 1 && *x <= 10;
}

struct picks {
	int truth[MAX_PICKS];
	double at[MAX_PICKS];        /* R0_SIM_TRUE_AT's speed-up; 0 for the others */
	size_t n_truth;
	enum r0_sim_noise noise[MAX_PICKS];
	char named[MAX_PICKS][64];   /* a named bank's name; "" for the others */
	size_t n_noise;
	double cell[MAX_PICKS];
	size_t n_cell;
	unsigned studies;
	double budget_min;           /* 0: r0sweep's 30 minutes */
	unsigned max_repeats;        /* 0: r0sweep's 8 */
	bool fixed, verbose, method, one_array;
};

/* Runs one row and prints it and its missed bars. 0 kept, 1 missed, 2 a study failed. */
static int row(const struct picks *p, size_t t, size_t nz, double cell)
{
	int truth = p->truth[t];
	enum r0_sim_noise noise = p->noise[nz];
	bool fixed = p->fixed && (noise <= R0_SIM_GAUSS5 || noise == R0_SIM_OUTLIERS);
	char line[512], missed[16][200];
	struct r0_sim_plan plan = R0_SIM_STUDY_PLAN(cell);
	struct r0_sim_row r;
	size_t n;
	int err;

	if (p->budget_min > 0)
		plan.budget_s = p->budget_min * 60;
	if (p->max_repeats)
		plan.max_repeats = p->max_repeats;
	plan.one_array = p->one_array;
	if (truth == R0_SIM_TRUE_AT && (err = r0_sim_true_at(p->at[t]))) {
		fprintf(stderr, PROG ": true-%g: %s\n", p->at[t], strerror(-err));
		return 2;
	}
	if (p->named[nz][0] && (err = r0_sim_bank_name(p->named[nz]))) {
		fprintf(stderr, PROG ": bank %s: not read from tests/data/noise/%s.json: %s\n", p->named[nz],
			p->named[nz], strerror(-err));
		return 2;
	}
	err = r0_sim_row_run((enum r0_sim_truth)truth, noise, &plan, fixed, p->studies, p->verbose, &r);
	if (err) {
		fprintf(stderr, PROG ": %s, %s: %s\n", r0_sim_truth_name((enum r0_sim_truth)truth),
			r0_sim_noise_name(noise), strerror(-err));
		return 2;
	}
	r0_sim_row_line(&r, line, sizeof(line));
	printf("%s\n", line);
	n = r0_sim_row_bars(&r, missed, 16);
	for (size_t i = 0; i < n; i++)
		printf("bar missed: %s\n", missed[i]);
	fflush(stdout);
	return n ? 1 : 0;
}

static int parse(int argc, char **argv, struct picks *p)
{
	static const struct option longs[] = {
		{ "truth", required_argument, NULL, 't' }, { "noise", required_argument, NULL, 'n' },
		{ "cell", required_argument, NULL, 'c' },  { "studies", required_argument, NULL, 's' },
		{ "fixed", no_argument, NULL, 'F' },       { "verbose", no_argument, NULL, 'v' },
		{ "method", no_argument, NULL, 'M' },      { "budget", required_argument, NULL, 'b' },
		{ "max-repeats", required_argument, NULL, 'R' }, { "one-array", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },        { 0 },
	};
	int c, k;
	char *end;

	while ((c = getopt_long(argc, argv, "t:n:c:s:b:vh", longs, NULL)) != -1) {
		switch (c) {
		case 't':
			if (p->n_truth >= MAX_PICKS)
				return bad("--truth: too many", optarg);
			p->at[p->n_truth] = 0;
			if ((k = find(truth_names, R0_SIM_TRUTHS, optarg)) < 0) {
				if (!speedup_of(optarg, &p->at[p->n_truth]))
					return bad("--truth: no such truth", optarg);
				k = R0_SIM_TRUE_AT;
			}
			p->truth[p->n_truth++] = k;
			break;
		case 'n':
			if (p->n_noise >= MAX_PICKS ||
			    noise_of(optarg, &p->noise[p->n_noise], p->named[p->n_noise], sizeof(p->named[0])))
				return bad("--noise: too many, or the name too long", optarg);
			p->n_noise++;
			break;
		case 'c':
			p->cell[p->n_cell] = strtod(optarg, &end);
			if (*end || end == optarg || !(p->cell[p->n_cell] > 0 && p->cell[p->n_cell] < 100) ||
			    p->n_cell >= MAX_PICKS)
				return bad("--cell: seconds above 0 and under 100", optarg);
			p->n_cell++;
			break;
		case 's':
			p->studies = (unsigned)strtoul(optarg, &end, 10);
			if (*end || end == optarg || p->studies < 1 || p->studies > 100000)
				return bad("--studies: a number from 1 to 100000", optarg);
			break;
		case 'b':
			p->budget_min = strtod(optarg, &end);
			if (*end || end == optarg || !(p->budget_min >= 1 && p->budget_min <= 1440))
				return bad("--budget: minutes from 1 to 1440", optarg);
			break;
		case 'R':
			p->max_repeats = (unsigned)strtoul(optarg, &end, 10);
			if (*end || end == optarg || p->max_repeats < 3 || p->max_repeats > 64)
				return bad("--max-repeats: a number from 3 to 64", optarg);
			break;
		case 'O':
			p->one_array = true;
			break;
		case 'F':
			p->fixed = true;
			break;
		case 'v':
			p->verbose = true;
			break;
		case 'M':
			p->method = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "Try '" PROG " --help' for more information.\n");
			return 2;
		}
	}
	if (optind < argc)
		return bad("takes no operand:", argv[optind]);
	return 0;
}

/* The method's table: the Welch t at STUDIES a row, the bootstrap at a quarter. 0, or 1 after saying why. */
static int method_table(unsigned studies)
{
	printf("simulation: %u studies a row (the old method's %u) | method | repeats | noise | false \"different\" in "
	       "the chunk call | false exclusions in per-workload lines | a true +15 %% chunk found alone\n", studies,
	       studies / 4 ? studies / 4 : 1);
	for (int old = 0; old < 2; old++)
		for (unsigned row = 0; row < R0_METHOD_ROWS; row++) {
			struct r0_method_row r;
			char line[256];
			int err = r0_method_row(old, row, old ? (studies / 4 ? studies / 4 : 1) : studies, &r);

			if (err) {
				fprintf(stderr, PROG ": the method's row %u: %s\n", row, strerror(-err));
				return 1;
			}
			r0_method_row_line(old, &r, line, sizeof(line));
			printf("%s\n", line);
			fflush(stdout);
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct picks p = { .studies = 200 };
	int rc = 0, r;

	if ((r = parse(argc, argv, &p)))
		return r;
	if (p.method)
		return method_table(p.studies);
	if (!p.n_truth)
		for (int t = 0; t < R0_SIM_TRUTHS; t++)
			p.truth[p.n_truth++] = t;
	if (!p.n_noise)
		for (int nz = 0; nz < R0_SIM_NOISES; nz++)
			p.noise[p.n_noise++] = (enum r0_sim_noise)nz;
	if (!p.n_cell) {
		p.cell[p.n_cell++] = 3.8;
		p.cell[p.n_cell++] = 2.3;
	}
	for (size_t c = 0; c < p.n_cell; c++)
		for (size_t t = 0; t < p.n_truth; t++)
			for (size_t nz = 0; nz < p.n_noise; nz++) {
				r = row(&p, t, nz, p.cell[c]);
				if (r == 2)
					return 1;
				rc |= r;
			}
	return rc;
}
