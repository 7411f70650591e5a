// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h: the stack below the device to check, from the kernel
 * alone (md sysfs, Documentation/admin-guide/md.rst; dm tables through
 * dm.c; partitions' sysfs start), as an r0/trimstack.h tree; what each
 * bottom device promises a read after discard returns is trimpromise.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/mdinfo.h"
#include "r0/probe.h"
#include "r0/size.h"
#include "r0/thinmap.h"
#include "r0/trimcheck.h"
#include "dmtable.h"
#include "trimpromise.h"
#include "sysfs.h"

#define MAX_DM_TARGETS R0_TRIM_MAX_SEGMENTS

/* The largest power of two from 64K down to 4K dividing SECTORS: "a chunk" of a plain device. */
static uint32_t pick_unit(uint64_t sectors)
{
	for (uint32_t c = 65536; c > 4096; c /= 2)
		if (sectors % (c / 512) == 0)
			return c;
	return 4096;
}

/* "MAJ:MIN OFFSET ..." (linear, flakey, delay): the device below and its offset. */
static int parse_dev_offset(const char *params, dev_t *devt, uint64_t *offset)
{
	unsigned maj, min;
	unsigned long long off;

	if (sscanf(params, "%u:%u %llu", &maj, &min, &off) != 3)
		return -EINVAL;
	*devt = makedev(maj, min);
	*offset = off;
	return 0;
}

struct build {
	struct r0_trim_device *t;
	char *why;
	size_t len;
};

static int build_node(struct build *b, dev_t devt, unsigned depth, int *out);

static int refuse(struct build *b, int err, const char *fmt, const char *a, const char *c)
{
	snprintf(b->why, b->len, fmt, a, c);
	return err;
}

static int add_node(struct build *b, enum r0_trim_node_kind layer, const struct r0_device *d,
		    const char *type, const char *label)
{
	int idx = r0_trim_stack_add(&b->t->stack, layer, d->kname, label);
	struct r0_trim_node *nd;

	if (idx < 0)
		return refuse(b, idx, "the stack below has more than %s devices or %s bottom devices",
			      "40", "16");
	nd = &b->t->stack.node[idx];
	nd->devt = d->devt;
	nd->size_sectors = d->size_bytes / 512;
	nd->counts = !d->is_md;   /* md's stat file counts no discards */
	snprintf(nd->type, sizeof(nd->type), "%s", type);
	return idx;
}

/* Builds the node below PARENT for DEVT (once per device) and links it at PARENT's child slot I. */
static int link_child(struct build *b, int parent, unsigned i, dev_t devt, uint64_t offset,
		      unsigned depth)
{
	struct r0_trim_node *p = &b->t->stack.node[parent];
	int idx, err;

	if (i >= R0_MAX_MEMBERS)
		return refuse(b, -E2BIG, "%s has more than %s devices below it", p->kname, "16");
	if ((err = build_node(b, devt, depth + 1, &idx)))
		return err;
	p->child[i] = (unsigned)idx;
	p->child_offset_sectors[i] = offset;
	if (i >= p->n_children)
		p->n_children = i + 1;
	return 0;
}

static int build_leaf(struct build *b, const struct r0_device *d, int *out)
{
	const char *type = strncmp(d->kname, "nvme", 4) == 0 ? "nvme" : "disk";
	char label[96];
	struct r0_trim_member *m;
	int idx;

	snprintf(label, sizeof(label), "%s %s", type, d->kname);
	if ((idx = add_node(b, R0_NODE_DEVICE, d, type, label)) < 0)
		return idx;
	m = &b->t->members[b->t->stack.node[idx].leaf];
	m->devt = d->devt;
	snprintf(m->kname, sizeof(m->kname), "%s", d->kname);
	r0_discard_limits_from_device(d, &m->leaf_lim);
	m->lim = m->leaf_lim;
	r0_trim_reads_after_discard(d, m);
	b->t->n_members = b->t->stack.n_leaves;
	*out = idx;
	return 0;
}

/* md's members in role order: devices, data offsets and the sectors used of each. */
static int md_members(struct build *b, const struct r0_device *d, dev_t *dev, uint64_t *off,
		      uint64_t *size)
{
	char dir[PATH_MAX];
	struct r0_md_info mi = { .member_attr = "" };
	int err;

	if (d->md_raid_disks < 1 || d->md_raid_disks > R0_MAX_MEMBERS) {
		snprintf(b->why, b->len, "md with %lld members (r0kit handles 1 to %d)",
			 (long long)d->md_raid_disks, R0_MAX_MEMBERS);
		return -E2BIG;
	}
	if ((err = r0_path(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d->devt), minor(d->devt))) ||
	    (err = r0_md_info(dir, &mi)) || (err = mi.member_err))
		goto bad;
	if (mi.n_members != (unsigned)d->md_raid_disks) {
		err = -ESTALE;
		goto bad;
	}
	for (unsigned i = 0; i < mi.n_members; i++) {
		dev[i] = mi.member[i].devt;
		off[i] = mi.member[i].offset_sectors;
		size[i] = off[i] + mi.member[i].size_kib * 2;
	}
	return 0;
bad:
	snprintf(b->why, b->len, "md %s: member %s unreadable (a missing member?): %s", d->kname,
		 mi.member_attr[0] ? mi.member_attr : "roles", strerror(-err));
	return err;
}

static int md_raid0_geometry(struct build *b, const struct r0_device *d, struct r0_geometry *g,
			     const uint64_t *size, const uint64_t *off)
{
	uint32_t chunk = d->md_chunk_size_bytes > 0 ? (uint32_t)d->md_chunk_size_bytes : 0;
	unsigned n = (unsigned)d->md_raid_disks;
	int err = r0_geometry_init(g, R0_BACKEND_MD, chunk, n, size, off, R0_MD_LAYOUT_ORIG);

	if (!err && r0_geometry_needs_layout(g)) {
		/* the layout matters: md/layout, or raid0.default_layout where it is unset */
		enum r0_md_layout layout;
		uint64_t v = 0;

		if (d->md_layout == R0_MD_LAYOUT_ORIG || d->md_layout == R0_MD_LAYOUT_ALT)
			layout = (enum r0_md_layout)d->md_layout;
		else if (r0_sysfs_read_u64("/sys/module/raid0/parameters/default_layout", &v) == 0 &&
			 (v == R0_MD_LAYOUT_ORIG || v == R0_MD_LAYOUT_ALT))
			layout = (enum r0_md_layout)v;
		else {
			snprintf(b->why, b->len, "md %s has zones but no layout the kernel would use (md/layout %lld)",
				 d->kname, (long long)d->md_layout);
			return -EINVAL;
		}
		err = r0_geometry_init(g, R0_BACKEND_MD, chunk, n, size, off, layout);
	}
	if (err)
		snprintf(b->why, b->len, "md %s: its geometry cannot be modelled (chunk %u bytes): %s",
			 d->kname, chunk, strerror(-err));
	return err;
}

static int build_md(struct build *b, const struct r0_device *d, unsigned depth, int *out)
{
	dev_t dev[R0_MAX_MEMBERS];
	uint64_t off[R0_MAX_MEMBERS] = { 0 }, size[R0_MAX_MEMBERS] = { 0 };
	enum r0_trim_node_kind layer;
	char label[96];
	struct r0_trim_node *nd;
	int idx, err;

	if (!strcmp(d->md_level, "raid0"))
		layer = R0_NODE_STRIPE;
	else if (!strcmp(d->md_level, "raid1"))
		layer = R0_NODE_MIRROR;
	else if (!strcmp(d->md_level, "raid10") && d->md_layout >= 0 && (d->md_layout >> 8) == 1)
		layer = R0_NODE_RAID10;   /* near copies only: far_copies 1, no far_offset */
	else if (!strcmp(d->md_level, "raid10"))
		return refuse(b, -EOPNOTSUPP, "md %s is raid10 with a far or offset layout: r0trim models "
			      "the near layout only%s", d->kname, "");
	else
		return refuse(b, -EOPNOTSUPP, "md level %s: r0trim cannot model where its discards go "
			      "(it models raid0, raid1 and raid10 near)%s", d->md_level[0] ? d->md_level : "none", "");
	if ((err = md_members(b, d, dev, off, size)))
		return err;
	snprintf(label, sizeof(label), "md %s %s", d->md_level, d->kname);
	if ((idx = add_node(b, layer, d, d->md_level, label)) < 0)
		return idx;
	nd = &b->t->stack.node[idx];
	if (layer == R0_NODE_STRIPE && (err = md_raid0_geometry(b, d, &nd->geo, size, off)))
		return err;
	if (layer == R0_NODE_RAID10) {
		nd->copies = (unsigned)(d->md_layout & 0xff);
		nd->chunk_sectors = (uint32_t)(d->md_chunk_size_bytes / 512);
	}
	for (unsigned i = 0; i < (unsigned)d->md_raid_disks; i++)
		/* raid0's geometry holds its offsets itself */
		if ((err = link_child(b, idx, i, dev[i], layer == R0_NODE_STRIPE ? 0 : off[i], depth)))
			return err;
	*out = idx;
	return 0;
}

/* The subtree at IDX is one device through one-to-one layers (what dm-thin's data device may be). */
static bool single_path(const struct r0_trim_stack *s, unsigned idx)
{
	const struct r0_trim_node *nd = &s->node[idx];

	if (nd->kind == R0_NODE_DEVICE)
		return true;
	if ((nd->kind != R0_NODE_ONE && nd->kind != R0_NODE_LINEAR) || nd->n_children != 1)
		return false;
	return single_path(s, nd->child[0]);
}

static int build_thin(struct build *b, const struct r0_device *d, const struct r0_dm_target *tab,
		      unsigned depth, int *out)
{
	struct r0_dm_target pool[2];
	unsigned maj, min, count = 0;
	unsigned long long bs;
	char meta[32], data[32], label[96];
	struct r0_trim_node *nd;
	dev_t pdev, ddev;
	int idx, err, pos = 0;

	if (sscanf(tab->params, "%u:%u", &maj, &min) != 2)
		return refuse(b, -EINVAL, "dm thin %s: table not understood: %s", d->kname, tab->params);
	pdev = makedev(maj, min);
	if ((err = r0_dm_table(pdev, pool, 2, &count)) || count != 1 || strcmp(pool[0].type, "thin-pool") ||
	    sscanf(pool[0].params, "%31s %31s %llu %*u%n", meta, data, &bs, &pos) != 3 || !bs ||
	    sscanf(data, "%u:%u", &maj, &min) != 2)
		return refuse(b, err ? err : -EINVAL, "dm thin %s: its pool's table not understood%s", d->kname, "");
	ddev = makedev(maj, min);
	{
		/* the metadata device: its holder may sit beside the data on one PV */
		unsigned mj, mn;
		char sys[64], link[PATH_MAX];
		ssize_t l;

		if (sscanf(meta, "%u:%u", &mj, &mn) == 2) {
			snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", mj, mn);
			if ((l = readlink(sys, link, sizeof(link) - 1)) > 0) {
				link[l] = '\0';
				snprintf(b->t->thin_meta_kname, sizeof(b->t->thin_meta_kname), "%s",
					 strrchr(link, '/') + 1);
			}
		}
	}
	snprintf(label, sizeof(label), "dm-thin %.64s", d->dm_name);
	if ((idx = add_node(b, R0_NODE_THIN, d, "thin", label)) < 0)
		return idx;
	nd = &b->t->stack.node[idx];
	nd->block_sectors = bs;
	nd->transforms = true;
	if (strstr(pool[0].params + pos, "ignore_discard")) {
		nd->drops = true;
		snprintf(nd->drop_why, sizeof(nd->drop_why), "its pool has ignore_discard");
	} else if (strstr(pool[0].params + pos, "no_discard_passdown")) {
		nd->drops = true;
		snprintf(nd->drop_why, sizeof(nd->drop_why),
			 "its pool has no_discard_passdown: blocks are freed in the pool only");
	}
	if ((err = link_child(b, idx, 0, ddev, 0, depth)))
		return err;
	if (!single_path(&b->t->stack, b->t->stack.node[idx].child[0])) {
		/* over an array, which drive a block's discard reaches is where the pool put the
		 * block: placed by the pool's map, read after each write (r0_trim_device_map_thin) */
		if (b->t->stack.thin_node >= 0)
			return refuse(b, -EOPNOTSUPP, "dm thin %s: a second thin volume over an array in "
				      "one stack%s: r0trim follows one pool's map", d->kname, "");
		if (sscanf(meta, "%u:%u", &maj, &min) != 2 ||
		    sscanf(tab->params, "%*u:%*u %u", &b->t->thin_dev_id) != 1)
			return refuse(b, -EINVAL, "dm thin %s: its pool's table not understood%s", d->kname, "");
		b->t->stack.thin_node = idx;
		b->t->thin_pool = pdev;
		b->t->thin_meta = makedev(maj, min);
	}
	*out = idx;
	return 0;
}

static int build_dm(struct build *b, const struct r0_device *d, unsigned depth, int *out)
{
	struct r0_dm_target tab[MAX_DM_TARGETS];
	struct r0_trim_node *nd;
	char label[96];
	unsigned count = 0, n, cs;
	int idx, err, pos = 0;
	bool all_linear = true;

	if ((err = r0_dm_table(d->devt, tab, MAX_DM_TARGETS, &count)))
		return refuse(b, err, "dm %s: cannot read its table (more than %s targets?)", d->kname, "16");
	for (unsigned i = 0; i < count; i++)
		all_linear &= strcmp(tab[i].type, "linear") == 0;
	if (count == 0)
		return refuse(b, -EOPNOTSUPP, "dm %s has no table loaded%s", d->kname, "");
	if (all_linear) {
		snprintf(label, sizeof(label), "dm-linear %.64s", d->dm_name);
		if ((idx = add_node(b, R0_NODE_LINEAR, d, "linear", label)) < 0)
			return idx;
		for (unsigned i = 0; i < count; i++) {
			struct r0_trim_segment *sg = &b->t->stack.node[idx].seg[i];
			dev_t below;
			uint64_t off;
			unsigned c;

			if (parse_dev_offset(tab[i].params, &below, &off))
				return refuse(b, -EINVAL, "dm linear %s: table not understood: %s", d->kname, tab[i].params);
			nd = &b->t->stack.node[idx];
			for (c = 0; c < nd->n_children && b->t->stack.node[nd->child[c]].devt != below; c++)
				;
			if (c == nd->n_children && (err = link_child(b, idx, c, below, 0, depth)))
				return err;
			*sg = (struct r0_trim_segment){ tab[i].start_sector, tab[i].length_sectors, c, off };
			b->t->stack.node[idx].n_segments = i + 1;
		}
		*out = idx;
		return 0;
	}
	if (count != 1)
		return refuse(b, -EOPNOTSUPP, "dm %s: a table of %s targets that are not all linear: r0trim "
			      "cannot model it", d->kname, count > 1 ? "several" : "no");
	if (!strcmp(tab[0].type, "striped")) {
		dev_t dev[R0_MAX_MEMBERS];
		uint64_t off[R0_MAX_MEMBERS] = { 0 }, size[R0_MAX_MEMBERS] = { 0 };
		const char *p;

		if (sscanf(tab[0].params, "%u %u%n", &n, &cs, &pos) != 2 || n < 1 || n > R0_MAX_MEMBERS ||
		    tab[0].length_sectors % n)
			return refuse(b, -EINVAL, "dm striped %s: table not understood: %s", d->kname, tab[0].params);
		p = tab[0].params + pos;
		for (unsigned i = 0; i < n; i++) {
			unsigned maj, min;
			unsigned long long o;

			if (sscanf(p, " %u:%u %llu%n", &maj, &min, &o, &pos) != 3)
				return refuse(b, -EINVAL, "dm striped %s: table not understood: %s", d->kname,
					      tab[0].params);
			p += pos;
			dev[i] = makedev(maj, min);
			off[i] = o;
			size[i] = o + tab[0].length_sectors / n;   /* stripe_ctr: each the same width */
		}
		snprintf(label, sizeof(label), "dm-striped %.64s", d->dm_name);
		if ((idx = add_node(b, R0_NODE_STRIPE, d, "striped", label)) < 0)
			return idx;
		if ((err = r0_geometry_init(&b->t->stack.node[idx].geo, R0_BACKEND_DM, cs * 512, n, size, off,
					    R0_MD_LAYOUT_ORIG))) {
			snprintf(b->why, b->len, "dm striped %s: its geometry cannot be modelled (chunk %u bytes): %s",
				 d->kname, cs * 512, strerror(-err));
			return err;
		}
		for (unsigned i = 0; i < n; i++)
			if ((err = link_child(b, idx, i, dev[i], 0, depth)))
				return err;
		*out = idx;
		return 0;
	}
	if (!strcmp(tab[0].type, "thin"))
		return build_thin(b, d, &tab[0], depth, out);
	if (!strcmp(tab[0].type, "crypt") || !strcmp(tab[0].type, "flakey") || !strcmp(tab[0].type, "delay")) {
		bool crypt = !strcmp(tab[0].type, "crypt");
		const char *p = tab[0].params;
		dev_t below;
		uint64_t off;

		if (crypt)   /* cipher key iv_offset dev offset [#opts opts...] */
			sscanf(p, "%*s %*s %*u %n", &pos);
		if ((crypt && !pos) || parse_dev_offset(p + pos, &below, &off))
			return refuse(b, -EINVAL, "dm %s: table not understood: %s", d->kname, tab[0].params);
		if (!strcmp(tab[0].type, "delay") && strchr(p, ':') != strrchr(p, ':'))
			return refuse(b, -EOPNOTSUPP, "dm delay %s sends writes to another device: r0trim cannot "
				      "model it%s", d->kname, "");
		snprintf(label, sizeof(label), "dm-%.16s %.64s", tab[0].type, d->dm_name);
		if ((idx = add_node(b, R0_NODE_ONE, d, tab[0].type, label)) < 0)
			return idx;
		nd = &b->t->stack.node[idx];
		nd->transforms = crypt;
		if (crypt && !strstr(p, "allow_discards")) {
			nd->drops = true;
			snprintf(nd->drop_why, sizeof(nd->drop_why), "allow_discards is off");
		}
		if ((err = link_child(b, idx, 0, below, off, depth)))
			return err;
		*out = idx;
		return 0;
	}
	return refuse(b, -EOPNOTSUPP, "dm %s: target %s: r0trim cannot model where its discards go",
		      d->kname, tab[0].type);
}

static int build_part(struct build *b, const struct r0_device *d, unsigned depth, int *out)
{
	char path[PATH_MAX], label[96];
	dev_t disk;
	int idx, err;

	if ((err = r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(d->devt), minor(d->devt))) ||
	    (err = r0_sysfs_read_devt(path, &disk)) || d->start_sectors < 0)
		return refuse(b, err ? err : -EINVAL, "partition %s: its disk cannot be found%s", d->kname, "");
	snprintf(label, sizeof(label), "partition %s", d->kname);
	if ((idx = add_node(b, R0_NODE_LINEAR, d, "part", label)) < 0)
		return idx;
	b->t->stack.node[idx].seg[0] = (struct r0_trim_segment){ 0, d->size_bytes / 512, 0,
								  (uint64_t)d->start_sectors };
	b->t->stack.node[idx].n_segments = 1;
	if ((err = link_child(b, idx, 0, disk, 0, depth)))
		return err;
	*out = idx;
	return 0;
}

static int build_node(struct build *b, dev_t devt, unsigned depth, int *out)
{
	struct r0_device d;
	int err;

	if (depth > R0_TRIM_MAX_DEPTH)
		return refuse(b, -E2BIG, "the stack is deeper than %s layers%s", "8", "");
	if ((err = r0_probe_devt(devt, NULL, &d))) {
		snprintf(b->why, b->len, "%u:%u: cannot describe it: %s", major(devt), minor(devt), strerror(-err));
		return err;
	}
	if (d.is_md)
		err = build_md(b, &d, depth, out);
	else if (d.is_dm)
		err = build_dm(b, &d, depth, out);
	else if (d.is_partition)
		err = build_part(b, &d, depth, out);
	else
		err = build_leaf(b, &d, out);
	r0_device_free(&d);
	return err;
}

/* The first striped or raid10 layer's chunk in bytes, 0 if none: "a chunk" for the range set. */
static uint32_t stack_chunk(const struct r0_trim_stack *s)
{
	for (unsigned i = 0; i < s->n_nodes; i++) {
		if (s->node[i].kind == R0_NODE_STRIPE)
			return s->node[i].geo.chunk_sectors * 512;
		if (s->node[i].kind == R0_NODE_RAID10)
			return s->node[i].chunk_sectors * 512;
	}
	return 0;
}

/* Each bottom device's path from below the top: chain[0] the top's child, chain[depth] the device. */
static int fill_chains(struct r0_trim_device *t, char *why, size_t len)
{
	for (unsigned i = 0; i < t->n_members; i++) {
		struct r0_trim_member *m = &t->members[i];
		unsigned path[R0_TRIM_MAX_NODES], n = r0_trim_stack_path(&t->stack, i, path, R0_TRIM_MAX_NODES);
		unsigned first = n > 1 ? 1 : 0;

		if (!n || n - first > R0_TRIM_MAX_DEPTH + 1) {
			snprintf(why, len, "bottom device %s: no path to it, or deeper than %d layers", m->kname,
				 R0_TRIM_MAX_DEPTH);
			return -EINVAL;
		}
		m->depth = n - first - 1;
		for (unsigned k = first; k < n; k++) {
			const struct r0_trim_node *nd = &t->stack.node[path[k]];

			m->chain[k - first] = nd->devt;
			/* memcpy: both live in *t, which snprintf's restrict forbids */
			memcpy(m->chain_kname[k - first], nd->kname, R0_KNAME_LEN);
			memset(m->chain_type[k - first], 0, sizeof(m->chain_type[0]));
			if (nd->kind != R0_NODE_DEVICE)
				memcpy(m->chain_type[k - first], nd->type, sizeof(nd->type));
		}
		if (m->depth) {
			struct r0_device d;
			int err = r0_probe_devt(m->chain[0], NULL, &d);

			if (err) {
				snprintf(why, len, "%s: %s", m->chain_kname[0], strerror(-err));
				return err;
			}
			r0_discard_limits_from_device(&d, &m->lim);
			r0_device_free(&d);
		}
	}
	return 0;
}

int r0_trim_device_describe(const char *path, struct r0_trim_device *t, char *why, size_t len)
{
	struct build b = { t, why, len };
	const struct r0_trim_node *top;
	struct r0_device d;
	struct stat st;
	uint64_t size;
	char ck[24];
	int err, idx;

	memset(t, 0, sizeof(*t));
	why[0] = '\0';
	t->md_layout = -1;
	r0_trim_stack_init(&t->stack);
	if (stat(path, &st)) {
		err = -errno;
		snprintf(why, len, "%s", err == -ENOENT ? "no such device" : strerror(-err));
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "not a block device");
		return -ENOTBLK;
	}
	err = r0_probe_devt(st.st_rdev, NULL, &d);
	if (err) {
		snprintf(why, len, "cannot describe it: %s", strerror(-err));
		return err;
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->kname, sizeof(t->kname), "%s", d.kname);
	t->devt = d.devt;
	t->size_sectors = d.size_bytes / 512;
	r0_discard_limits_from_device(&d, &t->lim);
	t->kind = d.is_md ? R0_TRIM_MD : d.is_dm ? R0_TRIM_DM : R0_TRIM_SINGLE;
	if (d.is_md)
		t->md_layout = (int)d.md_layout;
	r0_device_free(&d);

	if ((err = build_node(&b, st.st_rdev, 0, &idx)) || (err = fill_chains(t, why, len)))
		return err;
	top = &t->stack.node[0];
	if (top->kind == R0_NODE_DEVICE)
		t->kind = R0_TRIM_SINGLE;
	if (top->kind == R0_NODE_STRIPE) {
		/* the array itself: its geometry names the ranges (chunks, zones) */
		t->geo = top->geo;
		t->unit_bytes = top->geo.chunk_sectors * 512;
		r0_format_size(t->unit_bytes, ck, sizeof(ck));
		snprintf(t->desc, sizeof(t->desc), "%s, %u member%s, chunk %s",
			 t->kind == R0_TRIM_MD ? "md raid0" : "dm striped", top->n_children,
			 top->n_children == 1 ? "" : "s", ck);
		if (t->kind == R0_TRIM_MD && r0_geometry_is_multizone(&t->geo)) {
			size_t l = strlen(t->desc);

			snprintf(t->desc + l, sizeof(t->desc) - l, ", %u zones, layout %s", t->geo.n_zones,
				 t->geo.layout == R0_MD_LAYOUT_ALT ? "alt" : "orig");
		}
	} else {
		/* any other top: one member of its own size, "a chunk" the first stripe's below */
		t->unit_bytes = stack_chunk(&t->stack);
		if (!t->unit_bytes || t->size_sectors % (t->unit_bytes / 512))
			t->unit_bytes = pick_unit(t->size_sectors);
		size = t->size_sectors;
		err = r0_geometry_init(&t->geo, R0_BACKEND_DM, t->unit_bytes, 1, &size, NULL, R0_MD_LAYOUT_ORIG);
		if (err) {
			snprintf(why, len, "too small to check (%llu sectors)", (unsigned long long)size);
			return err;
		}
		if (top->kind == R0_NODE_DEVICE)
			snprintf(t->desc, sizeof(t->desc), "%s, checked as a single device",
				 strcmp(top->type, "nvme") ? "disk" : "NVMe namespace");
		else if (top->n_children == 1 && t->stack.node[top->child[0]].kind == R0_NODE_DEVICE)
			snprintf(t->desc, sizeof(t->desc), "%.64s over one device", top->label);
		else
			snprintf(t->desc, sizeof(t->desc), "%.64s over %u bottom device%s", top->label,
				 t->n_members, t->n_members == 1 ? "" : "s");
	}
	t->geometry_matches = t->geo.array_sectors == t->size_sectors ||
			      (top->kind != R0_NODE_STRIPE && t->geo.array_sectors <= t->size_sectors);
	return 0;
}

int r0_trim_device_map_thin(struct r0_trim_device *t, char *why, size_t len)
{
	if (t->stack.thin_node < 0)
		return 0;
	return r0_thin_map_read(t->thin_pool, t->thin_meta, t->thin_dev_id, &t->stack.thin_map, why, len);
}

const struct r0_geometry *r0_trim_device_md_geometry(const struct r0_trim_device *t)
{
	for (unsigned i = 0; i < t->stack.n_nodes; i++)
		if (t->stack.node[i].kind == R0_NODE_STRIPE && t->stack.node[i].geo.backend == R0_BACKEND_MD)
			return &t->stack.node[i].geo;
	return NULL;
}
