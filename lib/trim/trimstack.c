// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimstack.h: a discard of the top device composed down through every
 * layer to the bottom devices, as Linux 6.12 passes it on: dm-linear
 * (dm-linear.c), dm-stripe and md raid0 (r0/geometry.h), md raid1 (every
 * leg, raid1.c), md raid10 near (raid10.c __raid10_find_phys), dm-crypt,
 * flakey and delay (one device at an offset), dm-thin (whole blocks only,
 * dm-thin.c process_discard_bio).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimstack.h"

void r0_trim_stack_init(struct r0_trim_stack *s)
{
	memset(s, 0, sizeof(*s));
	s->thin_node = -1;
}

int r0_trim_stack_add(struct r0_trim_stack *s, enum r0_trim_node_kind kind, const char *kname,
		      const char *label)
{
	struct r0_trim_node *nd;

	if (s->n_nodes >= R0_TRIM_MAX_NODES ||
	    (kind == R0_NODE_DEVICE && s->n_leaves >= R0_MAX_MEMBERS))
		return -E2BIG;
	nd = &s->node[s->n_nodes];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->leaf = -1;
	snprintf(nd->kname, sizeof(nd->kname), "%s", kname ? kname : "");
	snprintf(nd->label, sizeof(nd->label), "%s", label ? label : "");
	if (kind == R0_NODE_DEVICE) {
		nd->leaf = (int)s->n_leaves;
		s->leaf_node[s->n_leaves++] = s->n_nodes;
	}
	return (int)s->n_nodes++;
}

struct walk {
	const struct r0_trim_stack *s;
	struct r0_trim_leaf_extent *v;
	size_t n, cap;
	uint64_t *per_node;
	int err;
};

static void emit(struct walk *w, unsigned leaf, uint64_t ls, uint64_t n, uint64_t top, bool placed,
		 bool plain, int dropped)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct r0_trim_leaf_extent *v = realloc(w->v, cap * sizeof(*v));

		if (!v) {
			w->err = -ENOMEM;
			return;
		}
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n++] = (struct r0_trim_leaf_extent){ leaf, ls, n, top, placed, plain, dropped };
}

/* The zone of a striped layer holding array sector A. */
static const struct r0_zone *zone_of(const struct r0_geometry *g, uint64_t a)
{
	for (unsigned z = 0; z < g->n_zones; z++)
		if (a < g->zones[z].array_end_sector)
			return &g->zones[z];
	return NULL;
}

static void walk(struct walk *w, unsigned idx, uint64_t start, uint64_t n, uint64_t top, bool placed,
		 bool plain, int dropped, unsigned depth)
{
	const struct r0_trim_node *nd;
	uint64_t end = start + n;

	if (w->err || n == 0)
		return;
	if (idx >= w->s->n_nodes || depth > w->s->n_nodes) {
		w->err = -EINVAL;   /* a child index out of range, or a cycle */
		return;
	}
	nd = &w->s->node[idx];
	if (placed && nd->size_sectors && end > nd->size_sectors) {
		w->err = -ERANGE;
		return;
	}
	if (w->per_node)
		w->per_node[idx] += n;
	if (nd->drops && dropped < 0)
		dropped = (int)idx;
	if (nd->transforms)
		plain = false;
	if (nd->kind != R0_NODE_DEVICE && nd->n_children == 0) {
		w->err = -EINVAL;
		return;
	}
	switch (nd->kind) {
	case R0_NODE_DEVICE:
		emit(w, (unsigned)nd->leaf, placed ? start : 0, n, top, placed, plain, dropped);
		return;
	case R0_NODE_ONE:
		walk(w, nd->child[0], start + nd->child_offset_sectors[0], n, top, placed, plain, dropped,
		     depth + 1);
		return;
	case R0_NODE_LINEAR:
		if (!placed) {
			if (nd->n_children != 1)
				w->err = -EINVAL;
			else
				walk(w, nd->child[0], 0, n, top, placed, plain, dropped, depth + 1);
			return;
		}
		for (unsigned i = 0; i < nd->n_segments; i++) {
			const struct r0_trim_segment *sg = &nd->seg[i];
			uint64_t a = start > sg->start_sector ? start : sg->start_sector;
			uint64_t b = end < sg->start_sector + sg->n_sectors ? end : sg->start_sector + sg->n_sectors;

			if (a >= b)
				continue;
			if (sg->child >= nd->n_children) {
				w->err = -EINVAL;
				return;
			}
			walk(w, nd->child[sg->child], sg->child_start_sector + (a - sg->start_sector), b - a,
			     top + (a - start), placed, plain, dropped, depth + 1);
		}
		return;
	case R0_NODE_MIRROR:
		for (unsigned i = 0; i < nd->n_children; i++)
			walk(w, nd->child[i], start + nd->child_offset_sectors[i], n, top, placed, plain,
			     dropped, depth + 1);
		return;
	case R0_NODE_STRIPE:
		if (!placed || nd->geo.n_members != nd->n_children || !nd->geo.chunk_sectors) {
			w->err = -EINVAL;
			return;
		}
		/* chunk by chunk: each piece keeps its own top sector */
		for (uint64_t a = start; a < end && !w->err;) {
			const struct r0_zone *z = zone_of(&nd->geo, a);
			uint64_t ms, len;
			unsigned m;

			if (!z || r0_geometry_map(&nd->geo, a, &m, &ms)) {
				w->err = -ERANGE;
				return;
			}
			len = nd->geo.chunk_sectors - (a - z->array_start_sector) % nd->geo.chunk_sectors;
			if (len > end - a)
				len = end - a;
			if (len > z->array_end_sector - a)
				len = z->array_end_sector - a;
			walk(w, nd->child[m], ms, len, top + (a - start), placed, plain, dropped, depth + 1);
			a += len;
		}
		return;
	case R0_NODE_RAID10:
		if (!placed || !nd->chunk_sectors || !nd->copies || nd->copies > nd->n_children) {
			w->err = -EINVAL;
			return;
		}
		for (uint64_t a = start; a < end && !w->err;) {
			uint64_t cs = nd->chunk_sectors, off = a % cs, len = cs - off;
			uint64_t vchunk = a / cs * nd->copies;
			unsigned dev = (unsigned)(vchunk % nd->n_children);
			uint64_t sector = vchunk / nd->n_children * cs + off;

			if (len > end - a)
				len = end - a;
			for (unsigned k = 0; k < nd->copies; k++) {
				walk(w, nd->child[dev], nd->child_offset_sectors[dev] + sector, len,
				     top + (a - start), placed, plain, dropped, depth + 1);
				if (++dev >= nd->n_children) {
					dev = 0;
					sector += cs;
				}
			}
			a += len;
		}
		return;
	case R0_NODE_THIN: {
		uint64_t b = nd->block_sectors ? nd->block_sectors : 1;
		uint64_t lo = (start + b - 1) / b * b, hi = end / b * b;

		if (hi <= lo)
			return;
		if ((int)idx != w->s->thin_node || !placed) {
			walk(w, nd->child[0], 0, hi - lo, top + (lo - start), false, false, dropped,
			     depth + 1);
			return;
		}
		/* each allocated whole block where the pool put it */
		for (unsigned i = 0; i < w->s->thin_map.n && !w->err; i++) {
			const struct r0_thin_extent *e = &w->s->thin_map.e[i];
			uint64_t x = lo / b > e->thin_block ? lo / b : e->thin_block;
			uint64_t y = hi / b < e->thin_block + e->n_blocks ? hi / b : e->thin_block + e->n_blocks;

			if (x < y)
				walk(w, nd->child[0], (e->data_block + (x - e->thin_block)) * b, (y - x) * b,
				     top + (x * b - start), true, false, dropped, depth + 1);
		}
		return;
	}
	}
	w->err = -EINVAL;
}

static int cmp_extent(const void *pa, const void *pb)
{
	const struct r0_trim_leaf_extent *a = pa, *b = pb;

	if (a->leaf != b->leaf)
		return a->leaf < b->leaf ? -1 : 1;
	if (a->placed != b->placed)
		return a->placed ? -1 : 1;
	if (a->leaf_start_sector != b->leaf_start_sector)
		return a->leaf_start_sector < b->leaf_start_sector ? -1 : 1;
	return a->top_start_sector < b->top_start_sector ? -1 : a->top_start_sector > b->top_start_sector;
}

int r0_trim_stack_split(const struct r0_trim_stack *s, uint64_t start, uint64_t n,
			struct r0_trim_leaf_extent **out, size_t *count, uint64_t *per_node_sectors)
{
	struct walk w = { s, NULL, 0, 0, per_node_sectors, 0 };
	size_t k = 0;

	*out = NULL;
	*count = 0;
	if (!s->n_nodes)
		return -EINVAL;
	if (start > s->node[0].size_sectors || n > s->node[0].size_sectors - start)
		return -ERANGE;
	walk(&w, 0, start, n, start, true, true, -1, 0);
	if (w.err) {
		free(w.v);
		return w.err;
	}
	if (w.n)
		qsort(w.v, w.n, sizeof(*w.v), cmp_extent);
	for (size_t i = 0; i < w.n; i++) {
		struct r0_trim_leaf_extent *p = k ? &w.v[k - 1] : NULL, *x = &w.v[i];

		/* merge what continues on the device and at the top (unplaced: all of it) */
		if (p && p->leaf == x->leaf && p->placed == x->placed && p->plain == x->plain &&
		    p->dropped_at == x->dropped_at &&
		    (!x->placed || (p->leaf_start_sector + p->n_sectors == x->leaf_start_sector &&
				    p->top_start_sector + p->n_sectors == x->top_start_sector))) {
			p->n_sectors += x->n_sectors;
			continue;
		}
		w.v[k++] = *x;
	}
	if (!k) {
		free(w.v);
		w.v = NULL;
	}
	*out = w.v;
	*count = k;
	return 0;
}

int r0_trim_stack_totals(const struct r0_trim_stack *s, uint64_t start, uint64_t n,
			 uint64_t *per_leaf_sectors)
{
	struct r0_trim_leaf_extent *ext;
	size_t cnt;
	int err = r0_trim_stack_split(s, start, n, &ext, &cnt, NULL);

	if (err)
		return err;
	memset(per_leaf_sectors, 0, s->n_leaves * sizeof(*per_leaf_sectors));
	for (size_t i = 0; i < cnt; i++)
		per_leaf_sectors[ext[i].leaf] += ext[i].n_sectors;
	free(ext);
	return 0;
}

/* Depth-first search for the node of LEAF below IDX; appends the path. */
static bool find_path(const struct r0_trim_stack *s, unsigned idx, unsigned leaf, unsigned *path,
		      unsigned max, unsigned *len, unsigned depth)
{
	const struct r0_trim_node *nd = &s->node[idx];

	if (depth > s->n_nodes || *len >= max)
		return false;
	path[(*len)++] = idx;
	if (nd->kind == R0_NODE_DEVICE && nd->leaf == (int)leaf)
		return true;
	for (unsigned i = 0; i < nd->n_children; i++)
		if (nd->child[i] < s->n_nodes && find_path(s, nd->child[i], leaf, path, max, len, depth + 1))
			return true;
	(*len)--;
	return false;
}

unsigned r0_trim_stack_path(const struct r0_trim_stack *s, unsigned leaf, unsigned *path, unsigned max)
{
	unsigned len = 0;

	if (!s->n_nodes || !find_path(s, 0, leaf, path, max, &len, 0))
		return 0;
	return len;
}

int r0_trim_stack_drop_on_path(const struct r0_trim_stack *s, unsigned leaf)
{
	unsigned path[R0_TRIM_MAX_NODES], len = r0_trim_stack_path(s, leaf, path, R0_TRIM_MAX_NODES);

	for (unsigned i = 0; i < len; i++)
		if (s->node[path[i]].drops)
			return (int)path[i];
	return -1;
}

int r0_trim_stack_first_drop(const struct r0_trim_stack *s)
{
	for (unsigned i = 0; i < s->n_nodes; i++)
		if (s->node[i].drops)
			return (int)i;
	return -1;
}

void r0_trim_stack_layer_line(const struct r0_trim_stack *s, unsigned idx, char *buf, size_t len)
{
	const struct r0_trim_node *nd = &s->node[idx];
	size_t off = (size_t)snprintf(buf, len, "%s over", nd->label);

	for (unsigned c = 0; c < nd->n_children && off < len; c++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", c ? ", " : " ", s->node[nd->child[c]].kname);
	if (nd->drops && off < len)
		snprintf(buf + off, len - off, "; %s: discards stop here", nd->drop_why);
}

static unsigned copies_of(const struct r0_trim_stack *s, unsigned idx, unsigned depth)
{
	const struct r0_trim_node *nd = &s->node[idx];
	unsigned c = 0, sum = 0;

	if (nd->kind == R0_NODE_DEVICE)
		return 1;
	if (nd->kind == R0_NODE_THIN || depth > s->n_nodes || !nd->n_children)
		return 0;
	for (unsigned i = 0; i < nd->n_children; i++) {
		unsigned k = nd->child[i] < s->n_nodes ? copies_of(s, nd->child[i], depth + 1) : 0;

		if (!k || (i && k != c))
			return 0;   /* children that differ: no one figure */
		c = k;
		sum += k;
	}
	if (nd->kind == R0_NODE_MIRROR)
		return sum;
	if (nd->kind == R0_NODE_RAID10)
		return c * nd->copies;
	return c;
}

unsigned r0_trim_stack_copies(const struct r0_trim_stack *s)
{
	return s->n_nodes ? copies_of(s, 0, 0) : 0;
}
