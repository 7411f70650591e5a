// SPDX-License-Identifier: GPL-2.0-or-later
/* r0probe's table: the columns described once (--list-columns, -o and the man page's OUTPUT follow them) and the cells. */
#include <errno.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "table.h"

#include "r0/probejson.h"
#include "r0/size.h"

static const struct column {
	const char *header;   /* also the name -o takes (case does not matter) */
	const char *help;
	bool right;           /* numbers align right */
} columns[NR_COLS] = {
	[COL_NAME] = { "NAME", "kernel name", false },
	[COL_PATH] = { "PATH", "the path given, or /dev/NAME", false },
	[COL_MAJMIN] = { "MAJ:MIN", "device number", false },
	[COL_TYPE] = { "TYPE", "disk, part, md or dm", false },
	[COL_SIZE] = { "SIZE", "size (bytes with --bytes)", true },
	[COL_RO] = { "RO", "read-only (1/0)", true },
	[COL_RM] = { "RM", "removable (1/0)", true },
	[COL_LOG_SEC] = { "LOG-SEC", "logical block size, bytes", true },
	[COL_PHY_SEC] = { "PHY-SEC", "physical block size, bytes", true },
	[COL_MIN_IO] = { "MIN-IO", "minimum I/O size, bytes", true },
	[COL_OPT_IO] = { "OPT-IO", "optimal I/O size, bytes (0: none reported)", true },
	[COL_ROTA] = { "ROTA", "rotational (1/0)", true },
	[COL_RQ_SIZE] = { "RQ-SIZE", "request queue depth (nr_requests)", true },
	[COL_MAX_IO] = { "MAX-IO", "largest request the kernel sends (max_sectors_kb)", true },
	[COL_MAX_HW_IO] = { "MAX-HW-IO", "largest request the device takes (max_hw_sectors_kb)", true },
	[COL_DISC_ALN] = { "DISC-ALN", "discard alignment offset, bytes", true },
	[COL_DISC_GRAN] = { "DISC-GRAN", "discard granularity", true },
	[COL_DISC_MAX] = { "DISC-MAX", "largest discard (0: no discard support)", true },
	[COL_DISC_MAX_HW] = { "DISC-MAX-HW", "largest discard the hardware takes", true },
	[COL_WZERO_MAX] = { "WZERO-MAX", "largest write-zeroes (0: not supported)", true },
	[COL_MODEL] = { "MODEL", "device model", false },
	[COL_SERIAL] = { "SERIAL", "serial number (virtio, NVMe, SATA and SCSI: the VPD page 0x80)", false },
	[COL_MD_LEVEL] = { "MD-LEVEL", "md RAID level", false },
	[COL_MD_CHUNK] = { "MD-CHUNK", "md chunk size", true },
	[COL_MD_DISKS] = { "MD-DISKS", "md member count (raid_disks)", true },
	[COL_DM_NAME] = { "DM-NAME", "device-mapper name", false },
	[COL_DM_UUID] = { "DM-UUID", "device-mapper uuid", false },
	[COL_HOLDERS] = { "HOLDERS", "devices built on this one (md, dm)", false },
	[COL_SLAVES] = { "SLAVES", "devices this one is built on", false },
	[COL_PARTS] = { "PARTS", "partitions", false },
	[COL_MOUNT] = { "MOUNT", "mount points; PART:MOUNT for a partition's", false },
	[COL_BUSY] = { "BUSY", "why it must not be written, or -", false },
	[COL_SIGNATURES] = { "SIGNATURES", "file systems, RAID/LVM metadata, partition tables (libblkid)", false },
	[COL_READS] = { "READS", "reads completed", true },
	[COL_RD_SECT] = { "RD-SECT", "512-byte sectors read", true },
	[COL_WRITES] = { "WRITES", "writes completed", true },
	[COL_WR_SECT] = { "WR-SECT", "512-byte sectors written", true },
	[COL_IN_FLIGHT] = { "IN-FLIGHT", "requests in flight now", true },
	[COL_DISCARDS] = { "DISCARDS", "discards completed", true },
	[COL_DISC_MERGED] = { "DISC-MERGED", "discards merged", true },
	[COL_DISC_SECT] = { "DISC-SECT", "512-byte sectors discarded", true },
	[COL_DISC_MS] = { "DISC-MS", "milliseconds spent discarding", true },
	[COL_FLUSHES] = { "FLUSHES", "flushes completed", true },
};

static const enum col default_cols[] = {
	COL_NAME, COL_SIZE, COL_LOG_SEC, COL_PHY_SEC, COL_ROTA, COL_RQ_SIZE, COL_DISC_GRAN,
	COL_DISC_MAX, COL_WZERO_MAX, COL_MODEL, COL_SERIAL, COL_HOLDERS, COL_MOUNT, COL_SIGNATURES,
};
static const enum col stat_cols[] = {
	COL_NAME, COL_READS, COL_RD_SECT, COL_WRITES, COL_WR_SECT, COL_IN_FLIGHT,
	COL_DISCARDS, COL_DISC_MERGED, COL_DISC_SECT, COL_DISC_MS, COL_FLUSHES,
};


#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void probe_cols_default(struct opts *o)
{
	memcpy(o->cols, default_cols, sizeof(default_cols));
	o->nr_cols = ARRAY_LEN(default_cols);
}

void probe_cols_stat(struct opts *o)
{
	memcpy(o->cols, stat_cols, sizeof(stat_cols));
	o->nr_cols = ARRAY_LEN(stat_cols);
}

int probe_parse_columns(const char *list, struct opts *o)
{
	char buf[1024], *save = NULL, *tok;
	const char *items = list + (list[0] == '+');

	/* an empty item is a typo, as in every r0kit list (r0_cli_each_item): refused, not skipped */
	if (!*items || *items == ',' || items[strlen(items) - 1] == ',' || strstr(items, ",,"))
		return r0_cli_usage_error(PROG, "--columns '%s': an empty column name (a comma-separated list: "
					  "NAME,SIZE or +MODEL)", list);
	if (list[0] == '+') {
		list++;
		if (!o->nr_cols)
			probe_cols_default(o);
	} else {
		o->nr_cols = 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return r0_cli_usage_error(PROG, "--columns: list too long");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t c;

		for (c = 0; c < NR_COLS && strcasecmp(tok, columns[c].header) != 0; c++)
			;
		if (c == NR_COLS)
			return r0_cli_usage_error(PROG, "--columns: unknown column '%s' (see --list-columns)", tok);
		if (o->nr_cols == ARRAY_LEN(o->cols))
			return r0_cli_usage_error(PROG, "--columns: too many columns");
		o->cols[o->nr_cols++] = (enum col)c;
	}
	if (!o->nr_cols)
		return r0_cli_usage_error(PROG, "--columns: no columns");
	return 0;
}

/* A limit in exact form (4K, 2G) or in bytes; "-" when the kernel has none. */
static void fmt_limit(int64_t v, bool bytes, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (bytes || r0_format_size((uint64_t)v, buf, len))
		snprintf(buf, len, "%lld", (long long)v);
}

static void fmt_num(int64_t v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", (long long)v);
}

static void fmt_names(const struct r0_names *l, char *buf, size_t len)
{
	size_t off = 0;

	snprintf(buf, len, "-");
	for (size_t i = 0; i < l->count && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", l->name[i]);
}

static void fmt_counter(const struct item *it, unsigned field, uint64_t v, char *buf, size_t len)
{
	if (!it->stat_read || it->stat.nr_fields < field)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void cell(const struct item *it, enum col c, bool bytes, char *buf, size_t len)
{
	const struct r0_device *d = &it->dev;
	const struct r0_blockstat *s = &it->stat;
	size_t off = 0, i;

	switch (c) {
	case COL_NAME: snprintf(buf, len, "%s", d->kname); break;
	case COL_PATH: snprintf(buf, len, "%s", it->path); break;
	case COL_MAJMIN: snprintf(buf, len, "%u:%u", major(d->devt), minor(d->devt)); break;
	case COL_TYPE: snprintf(buf, len, "%s", r0_probe_type_name(d)); break;
	case COL_SIZE:
		if (bytes || r0_format_size_human(d->size_bytes, buf, len))
			snprintf(buf, len, "%llu", (unsigned long long)d->size_bytes);
		break;
	case COL_RO: fmt_num(d->read_only, buf, len); break;
	case COL_RM: fmt_num(d->removable, buf, len); break;
	case COL_LOG_SEC: fmt_num(d->logical_block_size_bytes, buf, len); break;
	case COL_PHY_SEC: fmt_num(d->physical_block_size_bytes, buf, len); break;
	case COL_MIN_IO: fmt_num(d->minimum_io_size_bytes, buf, len); break;
	case COL_OPT_IO: fmt_num(d->optimal_io_size_bytes, buf, len); break;
	case COL_ROTA: fmt_num(d->rotational, buf, len); break;
	case COL_RQ_SIZE: fmt_num(d->nr_requests, buf, len); break;
	case COL_MAX_IO:
		fmt_limit(d->max_sectors_kib < 0 ? -1 : d->max_sectors_kib * 1024, bytes, buf, len);
		break;
	case COL_MAX_HW_IO:
		fmt_limit(d->max_hw_sectors_kib < 0 ? -1 : d->max_hw_sectors_kib * 1024, bytes, buf, len);
		break;
	case COL_DISC_ALN: fmt_num(d->discard_alignment_bytes, buf, len); break;
	case COL_DISC_GRAN: fmt_limit(d->discard_granularity_bytes, bytes, buf, len); break;
	case COL_DISC_MAX: fmt_limit(d->discard_max_bytes, bytes, buf, len); break;
	case COL_DISC_MAX_HW: fmt_limit(d->discard_max_hw_bytes, bytes, buf, len); break;
	case COL_WZERO_MAX: fmt_limit(d->write_zeroes_max_bytes, bytes, buf, len); break;
	case COL_MODEL: snprintf(buf, len, "%s", d->model[0] ? d->model : "-"); break;
	case COL_SERIAL: snprintf(buf, len, "%s", d->serial[0] ? d->serial : "-"); break;
	case COL_MD_LEVEL: snprintf(buf, len, "%s", d->md_level[0] ? d->md_level : "-"); break;
	case COL_MD_CHUNK: fmt_limit(d->md_chunk_size_bytes, bytes, buf, len); break;
	case COL_MD_DISKS: fmt_num(d->md_raid_disks, buf, len); break;
	case COL_DM_NAME: snprintf(buf, len, "%s", d->dm_name[0] ? d->dm_name : "-"); break;
	case COL_DM_UUID: snprintf(buf, len, "%s", d->dm_uuid[0] ? d->dm_uuid : "-"); break;
	case COL_HOLDERS: fmt_names(&d->holders, buf, len); break;
	case COL_SLAVES: fmt_names(&d->slaves, buf, len); break;
	case COL_PARTS:
		snprintf(buf, len, "-");
		for (i = 0; i < d->nr_partitions && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
						d->partitions[i].kname);
		break;
	case COL_MOUNT:
		snprintf(buf, len, "-");
		for (i = 0; i < d->nr_mounts && off < len; i++) {
			const struct r0_mount *m = &d->mounts[i];
			bool own = m->devt == d->devt;

			off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s", i ? "," : "",
						own ? "" : m->kname, own ? "" : ":", m->mount_point);
		}
		break;
	case COL_BUSY:
		if (!r0_device_is_busy(d, buf, len))
			snprintf(buf, len, "-");
		break;
	case COL_SIGNATURES:
		snprintf(buf, len, "%s", it->sigs_probed ? "-" : "?");
		for (i = 0; i < it->nr_sigs && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", it->sigs[i].type);
		break;
	case COL_READS: fmt_counter(it, 1, s->reads, buf, len); break;
	case COL_RD_SECT: fmt_counter(it, 3, s->read_sectors, buf, len); break;
	case COL_WRITES: fmt_counter(it, 5, s->writes, buf, len); break;
	case COL_WR_SECT: fmt_counter(it, 7, s->write_sectors, buf, len); break;
	case COL_IN_FLIGHT: fmt_counter(it, 9, s->in_flight, buf, len); break;
	case COL_DISCARDS: fmt_counter(it, 12, s->discards, buf, len); break;
	case COL_DISC_MERGED: fmt_counter(it, 13, s->discards_merged, buf, len); break;
	case COL_DISC_SECT: fmt_counter(it, 14, s->discard_sectors, buf, len); break;
	case COL_DISC_MS: fmt_counter(it, 15, s->discard_ticks_ms, buf, len); break;
	case COL_FLUSHES: fmt_counter(it, 16, s->flushes, buf, len); break;
	case NR_COLS: buf[0] = '\0'; break;
	}
}

#define CELL_LEN 8192

/* The table through util-linux's libsmartcols, as lsblk prints it: aligned
 * columns, --raw (single spaces, unsafe bytes as \xHH) or --pairs
 * (NAME="value", names fit for a shell). 0 or -errno. */
int probe_print_table(const struct item *items, size_t n, const struct opts *o)
{
	struct libscols_table *tb = scols_new_table();
	char buf[CELL_LEN];
	int err = tb ? 0 : -ENOMEM;

	if (!err) {
		/* never sized to a terminal: every cell whole, as in a pipe */
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
		scols_table_enable_noheadings(tb, o->noheadings);
		scols_table_enable_raw(tb, o->raw);
		scols_table_enable_export(tb, o->pairs);
		scols_table_enable_shellvar(tb, o->pairs);
	}
	for (size_t k = 0; !err && k < o->nr_cols; k++) {
		const struct column *c = &columns[o->cols[k]];

		/* without headings a header takes no width (pairs still name each value) */
		const char *name = o->noheadings && !o->pairs ? "" : c->header;

		if (!scols_table_new_column(tb, name, 0, c->right ? SCOLS_FL_RIGHT : 0))
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < n; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		for (size_t k = 0; ln && !err && k < o->nr_cols; k++) {
			cell(&items[i], o->cols[k], o->bytes, buf, sizeof(buf));
			err = scols_line_set_data(ln, k, buf);
		}
		if (!ln)
			err = -ENOMEM;
	}
	if (!err)
		err = scols_print_table(tb);
	scols_unref_table(tb);
	return err < 0 ? err : err ? -EIO : 0;
}

void probe_print_columns(void)
{
	for (size_t c = 0; c < NR_COLS; c++)
		printf("%-12s %s\n", columns[c].header, columns[c].help);
}

