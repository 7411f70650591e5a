// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/sweepplan.h: r0sweep's workloads and targets from its options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "r0/size.h"
#include "r0/sweepplan.h"

static bool same_workload(const struct r0_workload *a, const struct r0_workload *b)
{
	return a->access == b->access && a->read_pct == b->read_pct && a->block_bytes == b->block_bytes &&
	       a->align_bytes == b->align_bytes && a->queue_depth == b->queue_depth &&
	       (a->jobs ? a->jobs : 1) == (b->jobs ? b->jobs : 1);
}

static int add_wl(struct r0_sweep_plan *p, const char *label, const struct r0_workload *w, bool read_only)
{
	/* a scenario makes a file system even where it only reads */
	if (read_only && (w->read_pct < 100 || w->access == R0_ACCESS_FS))
		return 0;
	for (size_t i = 0; i < p->n_wl; i++)
		/* scenarios and replays differ by their label alone */
		if (same_workload(&p->wl[i].w, w) && (w->access < R0_ACCESS_FS || !strcmp(p->wl[i].label, label)))
			return 0;
	if (p->n_wl == R0_SWEEP_MAX_WL)
		return -E2BIG;
	snprintf(p->wl[p->n_wl].label, sizeof(p->wl[0].label), "%s", label);
	p->wl[p->n_wl].w = *w;
	p->n_wl++;
	return 0;
}

/* The label of T's workload run at W's depth: the preset's own if it has that test. */
static void depth_label(const struct r0_preset *p, const struct r0_workload *w, char *buf, size_t len)
{
	char bs[16];

	for (size_t k = 0; k < p->n_tests; k++)
		if (same_workload(&p->tests[k].w, w)) {
			snprintf(buf, len, "%s", p->tests[k].label);
			return;
		}
	r0_format_size(w->block_bytes, bs, sizeof(bs));
	if (!strcmp(p->name, "cdm3"))
		snprintf(buf, len, "%s QD%u", bs, w->queue_depth);
	else
		snprintf(buf, len, "RND%s Q%uT%u", bs, w->queue_depth, w->jobs ? w->jobs : 1);
}

int r0_sweep_plan_workloads(struct r0_sweep_plan *p, const struct r0_preset *const *presets,
			    size_t n_presets, const unsigned *qds, size_t n_qds, bool straddle,
			    bool read_only)
{
	bool block_tests = false;  /* chunk-straddling is a block test: not added to scenarios alone */
	int err = 0;

	for (size_t k = 0; k < n_presets; k++) {
		const struct r0_preset *pr = presets[k];

		for (size_t i = 0; i < pr->n_tests; i++)
			block_tests |= pr->tests[i].w.access != R0_ACCESS_FS;
		for (size_t i = 0; i < pr->n_tests; i++) {
			const struct r0_preset_test *t = &pr->tests[i];

			if (t->w.access != R0_ACCESS_RAND || t->w.block_bytes > 64 * 1024) {
				err = err ? err : add_wl(p, t->label, &t->w, read_only);
				continue;
			}
			for (size_t q = 0; q < n_qds; q++) {
				struct r0_workload w = t->w;
				char label[48];

				w.queue_depth = qds[q];
				depth_label(pr, &w, label, sizeof(label));
				err = err ? err : add_wl(p, label, &w, read_only);
			}
		}
	}
	if (straddle && block_tests) {
		struct r0_workload w = { .access = R0_ACCESS_RAND, .read_pct = 100,
					 .block_bytes = 512 * 1024, .align_bytes = 4096,
					 .queue_depth = 1, .jobs = 1 };

		err = err ? err : add_wl(p, "512K straddle", &w, read_only);
	}
	return err;
}

int r0_sweep_plan_add(struct r0_sweep_plan *p, const char *label, const struct r0_workload *w)
{
	return add_wl(p, label, w, false);
}

int r0_sweep_plan_find(const struct r0_sweep_plan *p, const char *name)
{
	for (size_t i = 0; i < p->n_wl; i++) {
		struct r0_run r = { .read_pct = p->wl[i].w.read_pct, .access = p->wl[i].w.access };
		char wn[64];

		snprintf(r.label, sizeof(r.label), "%s", p->wl[i].label);
		r0_run_workload(&r, wn, sizeof(wn));
		if (!strcmp(wn, name))
			return (int)i;
	}
	return -ENOENT;
}

void r0_sweep_plan_keep(struct r0_sweep_plan *p, const bool *keep)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n_wl; i++)
		if (keep[i])
			p->wl[k++] = p->wl[i];
	p->n_wl = k;
}

static int add_target(struct r0_sweep_plan *p, enum r0_layer layer, uint32_t chunk_bytes, unsigned n)
{
	if (p->n_targets == R0_SWEEP_MAX_TARGETS)
		return -E2BIG;
	p->targets[p->n_targets++] = (struct r0_sweep_target){ layer, chunk_bytes, n, 0 };
	return 0;
}

int r0_sweep_plan_targets(struct r0_sweep_plan *p, const bool backend[2], unsigned n_members,
			  const bool *count, const uint32_t *chunks, size_t n_chunks,
			  const uint32_t *single, size_t n_single)
{
	int err = 0;

	if (count[1])
		err = add_target(p, R0_LAYER_RAW, 0, 1);
	for (int b = 0; b < 2 && !err; b++) {
		if (!backend[b])
			continue;
		for (unsigned n = 1; n <= n_members && !err; n++) {
			const uint32_t *ch = n == 1 ? single : chunks;
			size_t nc = n == 1 ? n_single : n_chunks;

			for (size_t c = 0; c < nc && count[n] && !err; c++)
				err = add_target(p, b == R0_BACKEND_MD ? R0_LAYER_MD : R0_LAYER_DM, ch[c], n);
		}
	}
	return err;
}

int r0_sweep_plan_copies(struct r0_sweep_plan *p, unsigned n_members, uint32_t chunk_bytes, unsigned copies)
{
	if (n_members < 2 || copies < 2 || copies > 8 || p->n_targets || !chunk_bytes)
		return -EINVAL;
	add_target(p, R0_LAYER_RAW, 0, 1);
	for (unsigned c = 1; c <= copies; c++)
		p->targets[p->n_targets++] = (struct r0_sweep_target){ R0_LAYER_MD, chunk_bytes, n_members, c };
	return 0;
}
