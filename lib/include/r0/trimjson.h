/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The r0trim/1 document (tools/schema/r0trim-1.schema.json): what r0trim
 * -J writes in every mode (the range checks and raw cycles, the file
 * system cycles, --live, --watch). r0trim fills these records as its
 * checks run and hands them over once; r0_trimres_load (r0/resultfiles.h)
 * reads the document back. The field names are spelt here alone.
 */
#ifndef R0_TRIMJSON_H
#define R0_TRIMJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "r0/trimcheck.h"
#include "r0/trimrecords.h"
#include "r0/trimresult.h"
#include "r0/trimrun.h"
#include "r0/trimwatch.h"

/* --watch: what the record file's readings show. */
struct r0_trim_watch_doc {
	const char *record_file;
	const char *watched;           /* the DIR or DEVICE as given */
	const struct r0_watch_judgement *judgement;
	const struct r0_watch_rec *now;          /* the reading just taken: names and serials */
	int64_t since;                 /* the first reading judged, seconds since the epoch */
	const double *predicted_share;           /* now->n of them, 0 to 1 */
	bool shares_from_geometry;     /* else equal shares were assumed */
	unsigned skipped_lines;        /* lines of the record file that are no reading */
	const char *detail;            /* the verdict's sentence(s), also the reason of a no */
};

enum r0_trim_mode {
	R0_TRIM_MODE_DEVICE,           /* the range checks (and cycles), or --fs */
	R0_TRIM_MODE_LIVE,             /* --live: "mode":"live", its directory and file system */
	R0_TRIM_MODE_WATCH,            /* --watch: "mode":"watch", no pattern, WATCH */
};

/* A run of r0trim, as its document records it. */
struct r0_trim_doc {
	enum r0_trim_mode mode;
	const char *directory, *file_system;     /* LIVE */
	uint64_t pattern_seed;         /* the fill pattern's (not in WATCH) */
	const char *device;            /* the path checked */
	const char *kernel;            /* uname's release */
	const struct r0_trim_device *described;   /* it and its stack, as r0_trim_device_describe found them */
	const struct r0_trim_watch_doc *watch;   /* WATCH */
	const struct r0_trim_check_line *checks;
	size_t n_checks;
	const struct r0_trim_range_doc *ranges;
	size_t n_ranges;
	const struct r0_trim_cycle_doc *cycles;  /* the raw cycles ... */
	size_t n_cycles;
	const struct r0_trim_fs_cycle_doc *fs_cycles;   /* ... or the file system's */
	size_t n_fs_cycles;
	/* what each bottom device was shown to do (r0_trim_evidence_level), or NULL: not judged */
	const struct r0_trim_evidence *evidence;
	/* not WATCH: the run's verdict (PASS: discards pass) and, unless PASS, why not */
	enum r0_check_result verdict;
	const char *reason;
};

/*
 * The r0trim/1 document of DOC (WATCH: its verdict, pass and reason from
 * DOC->watch); NULL on a json-c allocation failure. The caller prints it
 * (pretty, slashes unescaped) and puts it.
 */
json_object *r0_trim_to_json(const struct r0_trim_doc *doc);

/* O written to F as every r0kit document is printed (r0_json_text): 0, or -ENOMEM. */
int r0_trim_json_print(json_object *o, FILE *f);

/* The r0trim/1 document of run R (its mode from R->live_dir) written to F. 0, or -ENOMEM when it cannot be made. */
int r0_trim_run_write_json(const struct r0_trim_run *r, FILE *f);
#endif
