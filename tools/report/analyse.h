/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sweeps analysed: under the mix, told their own runs' noise (worked
 * out once, for the analysis and for the report's Noise section and CSV),
 * a calibration's answer, the analysis the file stored, and the --aside
 * study, analysed on its own.
 */
#ifndef R0_REPORT_ANALYSE_H
#define R0_REPORT_ANALYSE_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs.h"

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/provenance.h"

/* What the sweep's own runs say of the machine's noise, and a calibration's answer (NULL: not one). */
struct noise_of {
	struct r0_noise_diag nz;
	struct r0_calibration *k;   /* malloc'd: free it */
};

/*
 * The sweeps of IN analysed into *A under MIX: the one MIXS names
 * (r0_cli_mix made it already), or without it (MIXS NULL) the default
 * for the workloads measured (everyday scenarios or a replay alone by
 * their own mix, as r0sweep did), its description into MIXDESC. Their
 * runs' noise into NO->nz, told to the analysis (beyond any noise the
 * study was validated on, no claim is made), and a calibration's answer
 * into NO->k when the records hold copies (r0sweep --calibrate). 0, or -1
 * after saying why not.
 */
int analyse(const struct inputs *in, const char *mixs, struct r0_mix *mix, char *mixdesc, size_t desc_len,
	    const struct r0_cmp_opts *cmp, struct noise_of *no, struct r0_analysis *a);

/*
 * The analysis r0sweep stored in the one sweep file read, beside A (the
 * same cells, today's code) into *P: true when the report names it (other
 * code made it, or it says otherwise). Pooled files each stored theirs
 * of other cells: none is the pool's.
 */
bool stored_analysis(const struct inputs *in, const struct r0_analysis *a, struct r0_provenance *p);

/*
 * --aside: PATH, a study of its own (never pooled with the report's),
 * analysed under MIXS (given as MIX_OPT: --aside-mix, or --mix) into its
 * line (aside_line, TITLE), the lines it skipped said after it. 0, or 1
 * after saying why not; refused when it is the report's own study: one
 * of FILES[0..N_FILES), or runs MAIN read from them.
 */
int aside_study(const char *path, const char *title, const char *mix_opt, const char *mixs,
		const struct r0_cmp_opts *cmp, bool skip_damaged, const struct inputs *main, char **files,
		int n_files, char *line, size_t len);

#endif
