/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mix file (schema r0mix/1, tools/schema/r0mix-1.schema.json): the
 * workload r0profile measured, written from a profile (r0/profile.h) and
 * read back as the weights of a verdict (r0/mix.h). Its one owner.
 */
#ifndef R0_MIXFILE_H
#define R0_MIXFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "r0/mix.h"
#include "r0/profile.h"

/* Where a profile came from, for the mix file. */
struct r0_profile_meta {
	const char *tool;           /* "r0profile 0.1.0" */
	size_t n_dev;
	const char *const *dev_path;    /* as the user named them */
	const char *const *dev_kname;   /* nullb0, md127, dm-0, sda1 */
	const uint64_t *dev_max_request_bytes;
	int64_t start_epoch_s, end_epoch_s;
	double interval_s;
	bool interrupted;           /* ended early by a signal or a vanished device */
	bool from_trace;            /* P was classed from a block trace (r0/tracemix.h), not counters */
};

/* The mix file of P (finished) as a JSON object (schema r0mix/1), or NULL and errno. */
json_object *r0_mix_file_of_profile(const struct r0_profile *p, const struct r0_profile_meta *m);

/* The most bytes a mix file's description takes, its '\0' included. */
#define R0_MIX_DESCRIPTION_MAX 2048

/* The mix file's one-line "description" of P (r0_mix_describe, and what counters could not tell) into DESC. */
void r0_mix_file_description(const struct r0_profile *p, const struct r0_profile_meta *m, char *desc, size_t len);

/* The mix file of P as r0profile --json prints it, into *OUT (free()): 0 or -ENOMEM. */
int r0_mix_file_text(const struct r0_profile *p, const struct r0_profile_meta *m, char **out);

/*
 * The mix file of P written to PATH whole or not at all (r0/jsontext.h's
 * r0_json_file_replace): 0 or a negative errno.
 */
int r0_mix_file_write(const char *path, const struct r0_profile *p, const struct r0_profile_meta *m);

/*
 * Reads the mix file PATH into *OUT (name "measured", one entry per class
 * with a weight) and, when DESC is not NULL, its one-line description
 * (r0_mix_describe over the file's devices, seconds and weights) into
 * DESC. 0; -EINVAL for a file that is not an r0mix/1 mix (not JSON, another
 * schema, an unknown class, a negative or non-numeric weight, no weight
 * above 0); -errno of opening it.
 */
int r0_mix_load(const char *path, struct r0_mix *out, char *desc, size_t desc_len);

#endif
