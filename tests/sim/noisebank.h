/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bank of real noise by visit (tests/data/noise/, r0noise-bank/1): per
 * target of a stored study, its visits (one target's runs in one pass),
 * each a list of workloads and their log residuals. The simulation's bank
 * noise models (studysim.h, R0_SIM_BANK_*) draw whole visits from it.
 */
#ifndef R0_NOISEBANK_H
#define R0_NOISEBANK_H

#include <stddef.h>
#include <stdint.h>

#include "r0/sweep.h"

struct r0_bank_run {
	size_t wl;                  /* index into the bank's workloads */
	double z;                   /* log residual */
};

struct r0_bank_visit {
	size_t n;
	struct r0_bank_run *run;
};

struct r0_bank_target {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	unsigned n_members;
	size_t n_visit;
	struct r0_bank_visit *visit;
	/* its runs' residuals: unbiased sd (the centring on each cell took a degree of freedom
	 * from each) and root mean square; 0 where it has one visit */
	double sd, rms;
};

struct r0_bank {
	size_t n_wl;
	char (*wl_name)[48];        /* r0_run_workload's names */
	char (*wl_cls)[24];         /* r0_workload_class's */
	size_t n_target;
	struct r0_bank_target *target;
	size_t n_visits;            /* over every target */
	double run_sd;              /* stats.run_sd: the pooled sd of one run's residual */
};

/* Reads the bank at PATH into *B (free with r0_bank_free). 0, -ENOENT, -EINVAL (not a bank), -ENOMEM. */
int r0_bank_load(const char *path, struct r0_bank *b);
void r0_bank_free(struct r0_bank *b);

/*
 * The bank NAME ("demo": tests/data/noise/demo.json, or under
 * $R0_SIM_BANK_DIR), loaded once a process and kept. NULL with errno set
 * when it cannot be read.
 */
const struct r0_bank *r0_bank_get(const char *name);

/* The index of workload NAME in B, or -1. */
long r0_bank_wl(const struct r0_bank *b, const char *name);

#endif
