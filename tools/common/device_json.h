/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A device as JSON: the record r0probe -J prints, for every tool that describes one. */
#ifndef R0_DEVICE_JSON_H
#define R0_DEVICE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "r0/probe.h"

struct r0_cli_device {
	const char *path;                  /* as the user named it */
	const struct r0_device *dev;
	bool sigs_probed;                  /* false: "signatures" is null */
	const struct r0_signature *sigs;
	size_t nr_sigs;
	const struct r0_blockstat *stat;   /* NULL: "stat" is null */
};

/* "part", "md", "dm" or "disk". */
const char *r0_cli_device_type(const struct r0_device *d);

json_object *r0_cli_device_json(const struct r0_cli_device *d);

#endif
