// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The money answers in 15 minutes (issue 44): with a budget that does not
 * hold the first look at every chunk, the study measures what worth it
 * and the build count need first (r0_planner_fit_budget) and decides
 * them; the chunk may stay open. Simulated studies through r0sweep's own
 * loop (tests/sim/studysim.c), 20 a row here (R0_SIM_STUDIES for more).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/adaptive.h"
#include "r0/preset.h"
#include "studysim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static unsigned studies(void)
{
	const char *s = getenv("R0_SIM_STUDIES");

	if (getenv("R0_SIM_SANITIZE"))
		return 2;
	return s && atoi(s) > 0 ? (unsigned)atoi(s) : 20;
}

/* One row: the share of studies whose build count (1: keep one drive) is the truth's. */
static double row(enum r0_sim_truth truth, enum r0_sim_noise noise, double budget_s, double *minutes)
{
	struct r0_sim_plan sp = R0_SIM_STUDY_PLAN(3.8);
	struct r0_mix mix;
	unsigned n = studies(), right = 0;

	sp.budget_s = budget_s;
	*minutes = 0;
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	for (unsigned s = 0; s < n; s++) {
		struct r0_sim_result r;

		cr_assert_eq(r0_sim_study(2000 + s, truth, noise, &sp, &mix, &r), 0);
		right += r.has_choice && r.build == r.right_build;
		*minutes += r.seconds / 60 / n;
		if (getenv("R0_SIM_VERBOSE") && !(r.has_choice && r.build == r.right_build))
			printf("sim15: %s, %s, study %u: build %u, truly %u: %s\n", r0_sim_truth_name(truth),
			       r0_sim_noise_name(noise), s, r.build, r.right_build, r.headline);
	}
	return 100.0 * right / n;
}

Test(sim15, worth_it_and_the_count_in_15_minutes, .timeout = 900)
{
	static const enum r0_sim_truth truths[] = { R0_SIM_NO_GAIN, R0_SIM_PERFECT, R0_SIM_THIRD_NOTHING,
						    R0_SIM_SHARED, R0_SIM_RAID0, R0_SIM_CHUNK_RANDOM,
						    R0_SIM_TRUE_115, R0_SIM_TRUE_13 };
	static const enum r0_sim_noise noises[] = { R0_SIM_GAUSS5, R0_SIM_OUTLIERS, R0_SIM_DRIFT, R0_SIM_BANK_NVME,
						    R0_SIM_BANK_SATA };
	bool all = getenv("R0_SIM_MATRIX") != NULL;

	for (size_t t = 0; t < N(truths); t++)
		for (int nz = 0; nz < R0_SIM_NOISES; nz++) {
			double right, minutes;
			bool listed = false;

			for (size_t k = 0; k < N(noises); k++)
				listed |= noises[k] == (enum r0_sim_noise)nz;
			if (!listed && !all)
				continue;
			right = row(truths[t], (enum r0_sim_noise)nz, 900, &minutes);
			printf("sim15: | %s | %s | %.0f %% | %.1f min |\n", r0_sim_truth_name(truths[t]),
			       r0_sim_noise_name((enum r0_sim_noise)nz), right, minutes);
			fflush(stdout);
			/*
			 * the bar where the truth's count is clear; the RAID0 model puts
			 * 2 drives near the 1.2x bar under the desktop mix as the user's
			 * time (1.17-1.23 in its studies), where no study can be right by
			 * a count and the 30-minute study is not either
			 * (docs/validation.md): shown, not asserted
			 */
			/* and the banks whose runs stray more than 6 % keep the false-claim bars but not
			 * the power to show 1.3x (docs/validation.md, "Real noise"): shown, not asserted */
			if (nz >= R0_SIM_BANK_FIRST && r0_sim_bank_run_sd((enum r0_sim_noise)nz) > 0.06 &&
			    truths[t] == R0_SIM_TRUE_13)
				continue;
			if (!getenv("R0_SIM_SANITIZE") && truths[t] != R0_SIM_RAID0)
				cr_expect_geq(right, 90.0, "%s, %s: the build count right in %.0f %% at 15 minutes",
					      r0_sim_truth_name(truths[t]), r0_sim_noise_name((enum r0_sim_noise)nz), right);
		}
}
