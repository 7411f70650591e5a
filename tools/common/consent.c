// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan a writing tool shows, and the yes it waits for (consent.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "consent.h"

#include "r0/probe.h"
#include "r0/size.h"

int r0_plan_begin(struct r0_plan *p, const char *prog, const char *headline)
{
	memset(p, 0, sizeof(*p));
	p->prog = prog;
	p->f = open_memstream(&p->text, &p->len);
	if (!p->f)
		return -ENOMEM;
	fprintf(p->f, "%s: %s\n", prog, headline);
	return 0;
}

/* ", " between the items of one "holds:" list */
static void item(FILE *f, bool *first, const char *fmt, const char *a, const char *b)
{
	fputs(*first ? "" : ", ", f);
	*first = false;
	fprintf(f, fmt, a, b);
}

/* What DEV holds that a user would miss: signatures, partitions, holders, mounts. */
static void holdings(FILE *f, const char *path, const struct r0_device *dev, bool keeps_data)
{
	struct r0_signature *sigs = NULL;
	size_t n_sigs = 0;
	bool first = true;
	int err = r0_probe_signatures(path, &sigs, &n_sigs);

	fputs("      holds: ", f);
	for (size_t i = 0; i < n_sigs; i++)
		item(f, &first, sigs[i].label[0] ? "%s signature, label \"%s\"" : "%s signature%s",
		     sigs[i].type, sigs[i].label);
	free(sigs);
	if (err)
		item(f, &first, "(signatures not probed: %s)%s", strerror(-err), "");
	for (size_t i = 0; i < dev->nr_partitions; i++)
		item(f, &first, "partition %s%s", dev->partitions[i].kname,
		     dev->partitions[i].holders.count ? " (in use by another device)" : "");
	for (size_t i = 0; i < dev->holders.count; i++)
		item(f, &first, "held by %s%s", dev->holders.name[i], "");
	for (size_t i = 0; i < dev->nr_mounts; i++)
		item(f, &first, "mounted on %s%s", dev->mounts[i].mount_point, "");
	if (first)
		fprintf(f, "no signature libblkid knows and no partitions%s",
			keeps_data ? "" : " (what it holds is still lost)");
	fputc('\n', f);
}

void r0_plan_device(struct r0_plan *p, const char *path)
{
	struct r0_device dev;
	struct stat st;
	char size[32];
	int err;

	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		r0_format_size_human((uint64_t)st.st_size, size, sizeof(size));
		fprintf(p->f, "  %s: a regular file, %s\n", path, size);
		return;
	}
	err = r0_probe_device(path, &dev);
	if (err) {
		fprintf(p->f, "  %s: cannot describe it: %s\n", path, strerror(-err));
		return;
	}
	r0_format_size_human(dev.size_bytes, size, sizeof(size));
	fprintf(p->f, "  %s", path);
	if (strcmp(path + (strncmp(path, "/dev/", 5) ? 0 : 5), dev.kname))
		fprintf(p->f, " (%s)", dev.kname);
	if (dev.is_partition)
		fprintf(p->f, ": partition %u of %s", dev.partition_number, dev.parent);
	fprintf(p->f, "%s %s, serial %s, %s\n", dev.is_partition ? "," : ":",
		dev.model[0] ? dev.model : "model unknown", dev.serial[0] ? dev.serial : "unknown", size);
	holdings(p->f, path, &dev, p->keeps_data);
	r0_device_free(&dev);
}

void r0_plan_duration(double s, char *buf, size_t len)
{
	unsigned long min = (unsigned long)(s / 60 + 0.5);

	if (s < 60)
		snprintf(buf, len, "under a minute");
	else if (min < 60)
		snprintf(buf, len, "about %lu min", min);
	else
		snprintf(buf, len, "about %lu h %lu min", min / 60, min % 60);
}

void r0_plan_bound(double s, char *buf, size_t len)
{
	unsigned long min = (unsigned long)(s / 60 + 0.5);

	if (s < 60)
		snprintf(buf, len, "%.0f s", s);
	else if (min < 60)
		snprintf(buf, len, "%lu min", min);
	else
		snprintf(buf, len, "%lu h %lu min", min / 60, min % 60);
}

double r0_plan_write_seconds(uint64_t bytes)
{
	return (double)bytes / (R0_PLAN_ASSUMED_MBPS * 1e6);
}

static void plan_free(struct r0_plan *p)
{
	if (p->f)
		fclose(p->f);
	free(p->text);
	p->f = NULL;
	p->text = NULL;
}

int r0_plan_decide(struct r0_plan *p, const struct r0_consent *c)
{
	char *answer = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = -1;

	if (fflush(p->f)) {
		plan_free(p);
		fprintf(stderr, "%s: cannot write the plan: %s\n", p->prog, strerror(ENOMEM));
		return R0_EXIT_FAILURE;
	}
	if (c->plan_only) {
		fwrite(p->text, 1, p->len, stdout);
		plan_free(p);
		return r0_cli_close_stdout(p->prog);
	}
	if (c->yes) {
		plan_free(p);
		return -1;
	}
	fwrite(p->text, 1, p->len, stderr);
	plan_free(p);
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "%s: not started: no terminal to ask; add --yes to go ahead "
			"(nothing was written)\n", p->prog);
		return R0_EXIT_REFUSED;
	}
	fprintf(stderr, "%s: type yes to go ahead, anything else stops: ", p->prog);
	fflush(stderr);
	n = getline(&answer, &cap, stdin);
	if (n > 0 && answer[n - 1] == '\n')
		answer[--n] = '\0';
	if (n < 0 || strcmp(answer, "yes")) {
		fprintf(stderr, "%s: not confirmed; nothing was written\n", p->prog);
		rc = R0_EXIT_REFUSED;
	}
	free(answer);
	return rc;
}

int r0_cli_need_root(const char *prog, const char *why)
{
	if (geteuid() == 0)
		return -1;
	fprintf(stderr, "%s: needs root: %s (run it with sudo)\n", prog, why);
	return R0_EXIT_REFUSED;
}
