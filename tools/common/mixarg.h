/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --mix argument r0report and r0sweep share: a named mix, weights, or a measured mix file. */
#ifndef R0_MIXARG_H
#define R0_MIXARG_H

#include <stddef.h>

#include "r0/analysis.h"

/*
 * ARG, given as OPT ("--mix", "--aside-mix": named in the errors), is
 * r0_mix_parse()'s "desktop", ..., "KEY=WEIGHT,..." (DESC is then
 * ""), or else a readable file holding a mix r0profile measured (r0mix/1):
 * it is loaded into *MIX and its one-line description ("the workload
 * measured on /dev/nvme0n1 over 24 h: 72 % small reads at QD1, ...") goes
 * to DESC. 0, or R0_EXIT_USAGE after saying why on stderr.
 */
int r0_cli_mix(const char *prog, const char *opt, const char *arg, struct r0_mix *mix, char *desc, size_t len);

/*
 * MIX, given as ARG to OPT ("--mix"), held to the study whose records are
 * RECS[0..n) (r0_mix_check): a key that is neither a workload class nor
 * one of its workloads is a usage error naming the key and the classes, and
 * so is a class whose workloads are each named (its share would go nowhere);
 * classes of the mix it did not measure are said on stderr (their share
 * goes nowhere). 0, or R0_EXIT_USAGE after saying why.
 */
int r0_cli_mix_check(const char *prog, const char *opt, const char *arg, const struct r0_mix *mix,
		     const struct r0_run *recs, size_t n);

#endif
