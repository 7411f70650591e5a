// SPDX-License-Identifier: GPL-2.0-or-later
/* Which device numbers are mounted where: /proc/self/mountinfo (proc(5)). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "r0/probe.h"
#include "mounts.h"
#include "grow.h"

/* The kernel writes space, tab, newline and backslash as \ooo (seq_file mangle_path). */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/*
 * "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": field 3
 * is major:minor, 5 the mount point; optional fields end at a lone "-",
 * then the file system type.
 */
static int parse_line(char *line, struct r0_mountinfo_entry *e)
{
	char *save = NULL, *tok, *mnt = NULL, *fstype = NULL;
	unsigned maj = 0, min = 0, field = 0;
	bool dash = false;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		field++;
		if (field == 3 && (sscanf(tok, "%u:%u%n", &maj, &min, &n) != 2 || tok[n]))
			return -EINVAL;
		if (field == 5)
			mnt = tok;
		if (field > 6 && !dash && strcmp(tok, "-") == 0) {
			dash = true;
			continue;
		}
		if (dash) {
			fstype = tok;
			break;
		}
	}
	if (!mnt || !fstype)
		return -EINVAL;
	unescape(mnt);
	e->devt = makedev(maj, min);
	e->mount_point = strdup(mnt);
	e->fstype = strdup(fstype);
	if (!e->mount_point || !e->fstype) {
		free(e->mount_point);
		free(e->fstype);
		return -ENOMEM;
	}
	return 0;
}

void r0_mountinfo_free(struct r0_mountinfo_entry *e, size_t count)
{
	for (size_t i = 0; e && i < count; i++) {
		free(e[i].mount_point);
		free(e[i].fstype);
	}
	free(e);
}

int r0_mountinfo_read(const char *path, struct r0_mountinfo_entry **out, size_t *count)
{
	struct r0_mountinfo_entry *v = NULL, e;
	size_t n = 0, cap = 0, linecap = 0;
	char *line = NULL;
	int err = 0;
	FILE *f;

	*out = NULL;
	*count = 0;
	f = fopen(path ? path : "/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &linecap, f) > 0) {
		int rc = parse_line(line, &e);

		if (rc == -EINVAL)
			continue;
		if (rc) {
			err = rc;
			break;
		}
		if (r0_grow(&v, &cap, n, sizeof(*v), 32)) {
			free(e.mount_point);
			free(e.fstype);
			err = -ENOMEM;
			break;
		}
		v[n++] = e;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	if (err) {
		r0_mountinfo_free(v, n);
		return err;
	}
	*out = v;
	*count = n;
	return 0;
}

int r0_devt_mounted(dev_t devt, const char *mountinfo, char *where, size_t len)
{
	struct r0_mountinfo_entry *e;
	size_t n, i;
	int err = r0_mountinfo_read(mountinfo, &e, &n);

	if (err)
		return err;
	for (i = 0; i < n && e[i].devt != devt; i++)
		;
	if (i < n && len)
		snprintf(where, len, "%s", e[i].mount_point);
	r0_mountinfo_free(e, n);
	return i < n;
}
