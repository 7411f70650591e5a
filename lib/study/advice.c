// SPDX-License-Identifier: GPL-2.0-or-later
/* The recommended array and the mdadm and LVM commands that build it (r0/advice.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/advice.h"
#include "r0/size.h"

int r0_member_paths(const char *devices, char (*paths)[R0_ADVICE_PATH_MAX], size_t max, size_t *n)
{
	const char *p = devices;
	int depth = 0;
	bool start = true;

	*n = 0;
	for (; *p; p++) {
		if (start && *p == '/' && *n < max) {
			size_t len = strcspn(p, " (,;");

			/* a path is what r0sweep writes: "PATH (" */
			if (!strncmp(p + len, " (", 2)) {
				if (len >= R0_ADVICE_PATH_MAX)
					return -ENAMETOOLONG;
				memcpy(paths[*n], p, len);
				paths[(*n)++][len] = '\0';
			}
		}
		start = false;
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (!depth && (*p == ',' || *p == ';') && p[1] == ' ') {
			p++;
			start = true;
		}
	}
	return 0;
}

/* What the first screen says to do, by the answer under the mix; no more than a guess without the noise. */
static const char *lead_of(const struct r0_analysis *a)
{
	if (a->predicted)
		return "Predicted from one drive, not measured: measure these drives (r0sweep) before you buy; the best "
		       "predicted is";
	if (a->indicative)
		return "Indicative only: too few repeats to know the noise. Measure again (3 repeats or more) before you "
		       "buy; the best measured is";
	if (a->noise_beyond)
		return "Too noisy to tell: stop other work on the host, use longer cells (--runtime) and measure again "
		       "(r0sweep --calibrate checks the noise in minutes) before you buy; the best measured is";
	switch (a->answer) {
	case R0_ANSWER_WORTH:
		return "Build";
	case R0_ANSWER_NOT:
		return "Keep one drive: the array was not worth it under this mix. If you build one all the same, the best "
		       "measured is";
	case R0_ANSWER_LIKELY:
		return "Likely worth it, not yet shown: the gain is beyond the noise, but the interval's bottom is below "
		       "the bar. Measure again (more repeats) before you buy; the best measured is";
	default:
		return "No gain could be told under this mix: measure again (more repeats, or a less busy CPU) before you "
		       "build. If you build one now, the best measured is";
	}
}

int r0_advice_of(const struct r0_analysis *a, struct r0_advice *out)
{
	char paths[64][R0_ADVICE_PATH_MAX], devs[640] = "", ck[16];
	const struct r0_choice *pick;
	size_t np = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if (!a->has_choice)
		return -ENOENT;
	pick = &a->choice[a->pick];
	out->worth = a->worth;
	out->n_members = a->build_members ? a->build_members : a->max_members;
	err = r0_member_paths(a->devices, paths, 64, &np);
	out->paths_known = !err && np >= out->n_members;
	if (out->paths_known) {
		size_t off = 0;

		for (unsigned i = 0; i < out->n_members && off < sizeof(devs); i++)
			off += (size_t)snprintf(devs + off, sizeof(devs) - off, "%s%s", i ? " " : "", paths[i]);
		/* too many or too long to quote in full: the user's own */
		out->paths_known = off < sizeof(devs);
	}
	if (!out->paths_known)
		snprintf(devs, sizeof(devs), "<your devices>");
	if (r0_format_size(pick->chunk_bytes, ck, sizeof(ck)))
		snprintf(ck, sizeof(ck), "%u", pick->chunk_bytes);
	snprintf(out->array, sizeof(out->array), "%s RAID0 of %u drives, %s chunk",
		 pick->layer == R0_LAYER_DM ? "dm striped" : "md", out->n_members, ck);
	out->lead = lead_of(a);
	out->reason = a->build;
	snprintf(out->action, sizeof(out->action), "%s: %s%s%s.", out->lead, out->array, a->build[0] ? "; " : "",
		 a->build);
	snprintf(out->mdadm, sizeof(out->mdadm), "mdadm --create /dev/md0 --level=0 --chunk=%u --raid-devices=%u %s",
		 pick->chunk_bytes / 1024, out->n_members, devs);
	snprintf(out->mdadm_keep, sizeof(out->mdadm_keep), "mdadm --detail --scan >> /etc/mdadm/mdadm.conf");
	snprintf(out->lvm, sizeof(out->lvm),
		 "pvcreate %s; vgcreate r0vg %s; lvcreate --type striped --stripes %u --stripesize %uk -l 100%%FREE -n r0 r0vg",
		 devs, devs, out->n_members, pick->chunk_bytes / 1024);
	return 0;
}

int r0_first_screen_text(const struct r0_analysis *a, const char *trim, const char *stored, char *buf, size_t len)
{
	struct r0_advice *v = malloc(sizeof(*v));
	int n;

	if (!v)
		return -ENOMEM;
	if (!r0_advice_of(a, v))
		n = snprintf(buf, len, "%s\n%s\n", a->verdict, v->action);
	else
		n = snprintf(buf, len, "%s\n", a->verdict);
	free(v);
	for (int k = 0; k < 2 && n >= 0 && (size_t)n < len; k++) {
		const char *l = k ? stored : trim;

		if (l && l[0])
			n += snprintf(buf + n, len - (size_t)n, "%s\n", l);
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
