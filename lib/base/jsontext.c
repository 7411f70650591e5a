// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/jsontext.h: a JSON document as printed, or written to a file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "r0/jsontext.h"

#define PRINTED (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

int r0_json_text(json_object *o, char **out)
{
	const char *s = json_object_to_json_string_ext(o, PRINTED);
	size_t len = s ? strlen(s) : 0;

	*out = s ? malloc(len + 2) : NULL;
	if (!*out)
		return -ENOMEM;
	memcpy(*out, s, len);
	memcpy(*out + len, "\n", 2);
	return 0;
}

int r0_json_file_replace(const char *path, json_object *o)
{
	char tmp[PATH_MAX];
	struct stat st;
	int err;

	/* renamed over: never a device, a pipe or a directory (root would replace /dev/null) */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if (json_object_to_file_ext(tmp, o, PRINTED)) {
		err = errno ? -errno : -EIO;
		unlink(tmp);
		return err;
	}
	if (rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}
