// SPDX-License-Identifier: GPL-2.0-or-later
/* r0probe: describe block devices (sizes, limits, holders, mounts, signatures, counters). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "probe/table.h"

#include "r0/probe.h"
#include "r0/probejson.h"
#include "r0/size.h"

enum { OPT_NO_SIGNATURES = CHAR_MAX + 1, OPT_LIST_COLUMNS, OPT_STAT, OPT_OLD_OUTPUT };
static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [options] [DEVICE...]\n"
	"\n"
	"Describes block devices: size, block sizes, rotational, queue depth,\n"
	"discard and write-zeroes limits, md/dm details, holders, mounts,\n"
	"signatures (libblkid) and I/O counters. Without DEVICE: every whole\n"
	"disk in /sys/block except ram* and devices of size 0.\n";

static const char usage_tail[] =
	"Exit status: 0 every device described, 1 a device's signatures or counters\n"
	"could not be read, 2 usage or a DEVICE that is none (missing, not a\n"
	"block device).\n";

/* The r0probe/1 document of the N ITEMS, printed: 0 or -ENOMEM. */
static int print_json(const struct item *items, size_t n)
{
	struct r0_probe_record *recs = calloc(n ? n : 1, sizeof(*recs));
	char *text;
	int err;

	if (!recs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		recs[i] = (struct r0_probe_record){
			.path = items[i].path, .dev = &items[i].dev, .sigs_probed = items[i].sigs_probed,
			.sigs = items[i].sigs, .nr_sigs = items[i].nr_sigs,
			.stat = items[i].stat_read ? &items[i].stat : NULL,
		};
	err = r0_probe_json_text(recs, n, &text);
	free(recs);
	if (err)
		return err;
	fputs(text, stdout);
	free(text);
	return 0;
}

static bool wants(const struct opts *o, enum col lo, enum col hi)
{
	if (o->json)
		return true;
	for (size_t k = 0; k < o->nr_cols; k++)
		if (o->cols[k] >= lo && o->cols[k] <= hi)
			return true;
	return false;
}

/* Signatures through a descriptor whose device number is checked: /dev/NAME may be stale. */
static int probe_signatures(struct item *it)
{
	struct stat st;
	int fd = open(it->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISBLK(st.st_mode) || st.st_rdev != it->dev.devt)
		err = -ENODEV;
	else
		err = r0_probe_signatures_fd(fd, &it->sigs, &it->nr_sigs);
	close(fd);
	return err;
}

/* Everything but sysfs for one probed device; R0_EXIT_OK or R0_EXIT_FAILURE (a message was printed). */
static int finish_item(struct item *it, const struct opts *o)
{
	int err, rc = R0_EXIT_OK;

	if (!o->no_signatures && wants(o, COL_SIGNATURES, COL_SIGNATURES)) {
		err = probe_signatures(it);
		if (err) {
			fprintf(stderr, PROG ": %s: cannot read signatures: %s\n", it->path,
				err == -ENODEV ? "not the device sysfs names" : strerror(-err));
			rc = R0_EXIT_FAILURE;
		} else {
			it->sigs_probed = true;
		}
	}
	if (wants(o, COL_READS, COL_FLUSHES)) {
		err = r0_read_stat_devt(it->dev.devt, NULL, &it->stat);
		if (err) {
			fprintf(stderr, PROG ": %s: cannot read its stat counters: %s\n", it->path,
				strerror(-err));
			rc = R0_EXIT_FAILURE;
		} else {
			it->stat_read = true;
		}
	}
	return rc;
}

static void free_items(struct item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		r0_device_free(&items[i].dev);
		free(items[i].sigs);
	}
	free(items);
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "s--stat" };

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *output = NULL;
	bool stat = false, list_columns = false;
	struct item *items = NULL;
	dev_t *devts = NULL;
	size_t n = 0, nr_items, i;
	int err, rc = R0_EXIT_OK;

	const struct r0_cli_opt opts[] = {
		{ "json", 'J', R0_CLI_SET, R0_CLI_TO(o.json),
		  .help = "JSON with every field (schema \"" R0_PROBE_SCHEMA "\")",
		  .excludes = "columns,stat,bytes,noheadings,raw,pairs",
		  .excludes_why = "they are for the table; --json always has every field, in bytes" },
		{ "stat", OPT_STAT, R0_CLI_SET, R0_CLI_TO(stat),
		  .help = "the I/O counters (reads, writes, discards...) as the table" },
		{ "columns", 'o', R0_CLI_STRING, R0_CLI_TO(output), .arg = "LIST",
		  .help = "table columns, comma-separated; +LIST adds to the default" },
		{ "output", OPT_OLD_OUTPUT, R0_CLI_STRING, R0_CLI_TO(output), .renamed_to = "columns", .arg = "LIST" },
		{ "list-columns", OPT_LIST_COLUMNS, R0_CLI_SET, R0_CLI_TO(list_columns),
		  .help = "the columns and what they hold" },
		{ "bytes", 'b', R0_CLI_SET, R0_CLI_TO(o.bytes), .help = "sizes in bytes" },
		{ "noheadings", 'n', R0_CLI_SET, R0_CLI_TO(o.noheadings), .help = "no header line" },
		{ "raw", 'r', R0_CLI_SET, R0_CLI_TO(o.raw),
		  .help = "the table unaligned, one space between cells (lsblk -r)",
		  .excludes = "pairs", .excludes_why = "one table form" },
		{ "pairs", 'P', R0_CLI_SET, R0_CLI_TO(o.pairs), .help = "the table as NAME=\"value\" pairs (lsblk -P)" },
		{ "all", 'a', R0_CLI_SET, R0_CLI_TO(o.all), .help = "without DEVICE: also ram* and devices of size 0" },
		{ "no-signatures", OPT_NO_SIGNATURES, R0_CLI_SET, R0_CLI_TO(o.no_signatures),
		  .help = "do not open the devices (libblkid needs read access)" },
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
	/* an option that would be ignored is refused, as in every r0kit tool */
	if (list_columns && (optind < argc || r0_cli_given_other_than((const char *const[]){ "list-columns", NULL })))
		return r0_cli_usage_error(PROG, "--list-columns lists the columns: no other option or DEVICE with it");
	if (o.all && optind < argc)
		return r0_cli_usage_error(PROG, "--all is for the list of every disk: a DEVICE named is described "
					  "whatever it is");
	if (list_columns) {
		probe_print_columns();
		goto flush;
	}
	/* a list without + replaces the table's columns: --stat's too, so --stat would be ignored */
	if (stat && output && output[0] != '+')
		return r0_cli_usage_error(PROG, "--stat and --columns '%s' cannot be used together: the list "
					  "replaces the --stat columns (give the list alone, or +LIST to add to --stat's)", output);
	if (stat) {
		probe_cols_stat(&o);
	}
	if (output && (err = probe_parse_columns(output, &o)))
		return err;
	if (!o.nr_cols)
		probe_cols_default(&o);

	nr_items = optind < argc ? (size_t)(argc - optind) : 0;
	if (!nr_items) {
		err = r0_probe_list_disks(NULL, o.all ? R0_LIST_ALL : 0, &devts, &n);
		if (err) {
			fprintf(stderr, PROG ": /sys/block: cannot list devices: %s\n", strerror(-err));
			return R0_EXIT_FAILURE;
		}
		nr_items = n;
	}
	items = calloc(nr_items ? nr_items : 1, sizeof(*items));
	if (!items) {
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		free(devts);
		return R0_EXIT_FAILURE;
	}
	n = 0;
	for (i = 0; i < nr_items; i++) {
		struct item *it = &items[n];

		if (devts) {
			err = r0_probe_devt(devts[i], NULL, &it->dev);
			if (err == -ENODEV)
				continue;   /* gone since it was listed */
			snprintf(it->path, sizeof(it->path), "/dev/%s", it->dev.kname);
		} else {
			snprintf(it->path, sizeof(it->path), "%s", argv[optind + i]);
			err = r0_probe_device(it->path, &it->dev);
		}
		if (err) {
			fprintf(stderr, PROG ": %s: cannot probe: %s\n", it->path,
				err == -ENOTBLK ? "not a block device" :
				err == -ENODEV ? "no such device in sysfs" : strerror(-err));
			/* a name that is no device is refused; a failed read (below) weighs more */
			if (rc == R0_EXIT_OK)
				rc = R0_EXIT_REFUSED;
			continue;
		}
		if (finish_item(it, &o))
			rc = R0_EXIT_FAILURE;
		n++;
	}
	free(devts);

	if (o.json && (err = print_json(items, n))) {
		fprintf(stderr, PROG ": printing the JSON: %s\n", strerror(-err));
		rc = R0_EXIT_FAILURE;
	} else if (!o.json && n && (err = probe_print_table(items, n, &o))) {
		fprintf(stderr, PROG ": printing the table: %s\n", strerror(-err));
		rc = R0_EXIT_FAILURE;
	}
	free_items(items, nr_items);
flush:
	/* a failed write to stdout (a full disk, a closed pipe) is a failure */
	return r0_cli_close_stdout(PROG) ? R0_EXIT_FAILURE : rc;
}

