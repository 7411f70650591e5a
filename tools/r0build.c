// SPDX-License-Identifier: GPL-2.0-or-later
/* r0build: create, list and remove md raid0 and dm-stripe arrays safely. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "consent.h"

#include "r0/buildid.h"
#include "r0/array.h"
#include "r0/arrayjson.h"
#include "r0/geometry.h"
#include "r0/safety.h"
#include "r0/size.h"

#define PROG "r0build"

enum { OPT_LAYOUT = CHAR_MAX + 1, OPT_FLAG, OPT_BACKEND, OPT_NAME };

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " create --backend md|dm --chunk SIZE [--name NAME] [--layout alt|orig]\n"
	"                 [--force] [--quiet] [--plan] [--yes] DEV...\n"
	"  " PROG " remove NAME|DEV...\n"
	"  " PROG " remove --all\n"
	"  " PROG " list [--json]\n"
	"\n"
	"Builds a RAID0 stripe over block devices (disks or partitions, named\n"
	"any way: /dev/sdb, /dev/disk/by-id/...), in the order given:\n"
	"md raid0 without a superblock (as mdadm --build; members keep no\n"
	"metadata) or a device-mapper 'striped' table. Prints the array's path\n"
	"on stdout; its usable size, zones and unused member space on stderr.\n";

static const char usage_tail[] =
	"create shows the members and asks first: the array exposes their data,\n"
	"and whatever is written to it destroys that data. Members that are\n"
	"mounted, have a mounted partition, are held by another device, or cannot\n"
	"be opened exclusively are always refused. create and remove need root\n"
	"and the md_mod and raid0 (md) or dm_mod (dm) modules.\n"
	"Exit status: 0 done, 1 failure, 2 usage or refused before anything was\n"
	"touched (a member in use, an array in use or not r0kit's, not root, no\n"
	"yes, no terminal to ask and no --yes).\n";

/*
 * What --help says of every command's options, each once: the parse
 * tables (cmd_create's, flag_option's) say how each is read and where it goes.
 */
static const struct r0_cli_opt usage_opts[] = {
	{ "backend", .arg = "md|dm", .help = "md raid0 or dm-stripe" },
	{ "chunk", 'c', .arg = "SIZE",
	  .help = "chunk (stripe unit): 4K, 64K, 512k, 1M...; md needs a power of two >= 4K, dm a multiple of 4K" },
	{ "name", .arg = "NAME",
	  .help = "array name (default: the lowest free number); md: /dev/md_r0-NAME, dm: /dev/mapper/r0-NAME" },
	{ "layout", .arg = "alt|orig", .help = "md with members of different sizes: the zone layout",
	  .def = "alt, the kernel's multi-zone" },
	{ "force", 'f', .help = "accept members that hold a signature (a file system, partition table, RAID or LVM metadata)" },
	{ "quiet", 'q', .help = "create: only the path, no summary on stderr" },
	{ "plan", .help = "create: show the members and the array, build nothing" },
	{ "yes", 'y', .help = "create: build without asking (needed without a terminal)" },
	{ "all", .help = "remove: every array r0kit built, and only those" },
	{ "json", .help = "list: JSON" },
	/* main's own, before a command (.no_version keeps it out of the commands' tables) */
	{ "version", 'V', .help = "version" },
	{ 0 },
};

/* What was built, on stderr (stdout carries only the path, for scripts). */
static void report(const struct r0_array *a, const struct r0_geometry *g, char **members)
{
	char ck[32], sz[32], un[32];

	r0_format_size(a->chunk_bytes, ck, sizeof(ck));
	r0_format_size_human(g->array_sectors * 512, sz, sizeof(sz));
	fprintf(stderr, PROG ": %s: %s stripe of %u, chunk %s, %s usable", a->path,
		a->backend == R0_BACKEND_MD ? "md raid0" : "dm", a->n_members, ck, sz);
	if (r0_geometry_is_multizone(g))
		fprintf(stderr, ", %u zones (layout %s)", g->n_zones,
			g->layout == R0_MD_LAYOUT_ORIG ? "orig" : "alt");
	fprintf(stderr, "\n");
	for (unsigned i = 0; i < g->n_members; i++) {
		uint64_t unused = r0_geometry_unused_sectors(g, i);

		if (!unused)
			continue;
		r0_format_size_human(unused * 512, un, sizeof(un));
		fprintf(stderr, PROG ": %s: %s of it unused\n", members[i], un);
	}
}

/* The lowest number no r0kit array uses as its name. */
static int free_name(char *buf, size_t len)
{
	struct r0_array *list;
	size_t n, i;
	unsigned k;
	int err = r0_array_list(&list, &n);

	if (err)
		return err;
	for (k = 0;; k++) {
		snprintf(buf, len, "%u", k);
		for (i = 0; i < n && strcmp(list[i].name, buf) != 0; i++)
			;
		if (i == n)
			break;
	}
	free(list);
	return 0;
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .usage_opts = usage_opts,
				   .no_version = true, .retired = "b--backend n--name" };

/*
 * The command an option of usage_opts goes with: the one its help begins
 * with ("remove: ..."), else create (whose options need no such word:
 * the others take one flag each). NULL for main's own (--version).
 */
static const char *option_command(const struct r0_cli_opt *u)
{
	static const char *const cmds[] = { "create", "remove", "list" };

	if (!strcmp(u->name, "version"))
		return NULL;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		size_t len = strlen(cmds[i]);

		if (!strncmp(u->help, cmds[i], len) && u->help[len] == ':')
			return cmds[i];
	}
	return "create";
}

/*
 * An option of another command than CMD among ARGV's (up to "--"), read
 * before r0_cli_parse would call it unknown though --help lists it:
 * "r0build: --all goes with remove". 0, or R0_EXIT_USAGE after saying so.
 */
static int other_commands_option(int argc, char **argv, const char *cmd)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		size_t len = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0;

		if (a[0] != '-' || !a[1])
			continue;
		for (const struct r0_cli_opt *u = usage_opts; u->name; u++) {
			const char *owner = option_command(u);
			bool same = len ? strlen(u->name) == len && !strncmp(u->name, a + 2, len)
					: a[1] != '-' && r0_cli_short_letter(u) == a[1];

			if (same && owner && strcmp(owner, cmd))
				return r0_cli_usage_error(PROG, "%.*s goes with %s, not %s", (int)(len ? len + 2 : 2), a,
							  owner, cmd);
		}
	}
	return 0;
}

static int opt_name(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_array_check_name(arg))
		return r0_cli_usage_error(prog, "--name '%s': use 1 to 24 of A-Z a-z 0-9 _ . +", arg);
	snprintf(o->dest, o->width, "%s", arg);
	return 0;
}

static int cmd_create(int argc, char **argv)
{
	struct r0_array_spec spec = { .md_layout = R0_MD_LAYOUT_ALT };
	struct r0_member_check checks[R0_MAX_MEMBERS];
	const char *backend = NULL, *chunk = NULL, *layout = NULL;
	char name[R0_ARRAY_NAME_MAX + 1] = "";
	char headline[160], plan_size[32];
	struct r0_geometry geo;
	struct r0_array array;
	static const struct r0_cli_choice layouts[] = {
		{ "alt", R0_MD_LAYOUT_ALT },
		{ "orig", R0_MD_LAYOUT_ORIG },
		{ NULL, 0 },
	};
	bool force = false, quiet = false;
	struct r0_consent consent = { 0 };
	struct r0_plan plan;
	char ck[32];
	int err, i, n, v, rc;

	const struct r0_cli_opt opts[] = {
		{ "backend", OPT_BACKEND, R0_CLI_STRING, R0_CLI_TO(backend) },
		{ "chunk", 'c', R0_CLI_STRING, R0_CLI_TO(chunk) },
		{ "name", OPT_NAME, R0_CLI_CALL, R0_CLI_TO(name), .call = opt_name },
		{ "layout", OPT_LAYOUT, R0_CLI_STRING, R0_CLI_TO(layout) },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(force) },
		{ "quiet", 'q', R0_CLI_SET, R0_CLI_TO(quiet) },
		R0_CONSENT_OPTS(consent),
		{ 0 },
	};

	if (other_commands_option(argc, argv, "create"))
		return R0_EXIT_USAGE;
	r0_cli_parse(&cli, opts, argc, argv);
	if (!backend)
		return r0_cli_usage_error(PROG, "create: --backend md|dm is required");
	if (r0_cli_opt_choice(PROG, "--backend", backend, r0_cli_backends, &v, "use md or dm"))
		return R0_EXIT_USAGE;
	spec.backend = v;
	if (!chunk)
		return r0_cli_usage_error(PROG, "create: --chunk SIZE is required");
	err = r0_parse_chunk(chunk, spec.backend, &spec.chunk_bytes);
	if (err)
		return r0_cli_usage_error(PROG, "--chunk '%s': %s", chunk, r0_chunk_rule(spec.backend));
	if (layout) {
		if (spec.backend != R0_BACKEND_MD)
			return r0_cli_usage_error(PROG, "--layout is for md only");
		if (r0_cli_opt_choice(PROG, "--layout", layout, layouts, &v, "use alt or orig"))
			return R0_EXIT_USAGE;
		spec.md_layout = v;
	}
	n = argc - optind;
	if (n < 1)
		return r0_cli_usage_error(PROG, "create: name at least one member device");
	if (n > R0_MAX_MEMBERS)
		return r0_cli_usage_error(PROG, "create: at most %d members", R0_MAX_MEMBERS);
	if (!consent.plan_only && (rc = r0_cli_need_root(PROG, "building md and dm arrays")) >= 0)
		return rc;

	/* every check of every member before anything is touched: every problem named at once */
	{
		r0_member_why why[R0_MAX_MEMBERS];

		if (r0_members_check((const char *const *)argv + optind, (size_t)n, force, spec.chunk_bytes, checks,
				     why)) {
			for (i = 0; i < n; i++)
				if (why[i][0])
					fprintf(stderr, PROG ": %s: %s\n", argv[optind + i], why[i]);
			return R0_EXIT_REFUSED;
		}
	}
	err = r0_array_spec_members(&spec, checks, (unsigned)n, &geo);
	if (err) {
		fprintf(stderr, PROG ": members: too small for this array (each needs at least one %s chunk)\n",
			chunk);
		return R0_EXIT_REFUSED;
	}
	spec.dm_length_sectors = geo.array_sectors;

	r0_format_size(spec.chunk_bytes, ck, sizeof(ck));
	r0_format_size_human(geo.array_sectors * 512, plan_size, sizeof(plan_size));
	snprintf(headline, sizeof(headline), "%s stripe of %d, chunk %s, %s, over these devices",
		 spec.backend == R0_BACKEND_MD ? "an md raid0" : "a dm", n, ck, plan_size);
	if (r0_plan_begin(&plan, PROG, headline))
		return R0_EXIT_FAILURE;
	for (i = 0; i < n; i++)
		r0_plan_device(&plan, argv[optind + i]);
	fputs("  writes: nothing to the members (no superblock); the array shows their data,\n"
	      "          and whatever is written to it destroys that data\n", plan.f);
	if ((rc = r0_plan_decide(&plan, &consent)) >= 0)
		return rc;

	if (r0_cli_stop_requested()) {
		fprintf(stderr, PROG ": create: interrupted by a signal before anything was built\n");
		return R0_EXIT_FAILURE;
	}
	if (!name[0] && (err = free_name(name, sizeof(name)))) {
		fprintf(stderr, PROG ": cannot list arrays: %s\n", strerror(-err));
		return R0_EXIT_FAILURE;
	}
	spec.name = name;
	/* a signal during create waits until the array is whole, then takes it down */
	err = r0_array_create(&spec, &array);
	if (!err && r0_cli_stop_requested()) {
		int rerr = r0_array_remove(&array);
		fprintf(stderr, PROG ": create %s: interrupted by a signal; %s\n", array.path,
			rerr ? "could not remove it" : "removed it again");
		return R0_EXIT_FAILURE;
	}
	if (err) {
		const char *why = r0_array_last_error();
		fprintf(stderr, PROG ": create %s array %s: %s%s%s\n", r0_array_backend_name(spec.backend),
			name, strerror(-err), *why ? ": " : "", why);
		return R0_EXIT_FAILURE;
	}
	if (printf("%s\n", array.path) < 0 || fflush(stdout)) {
		r0_array_remove(&array);
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		return R0_EXIT_FAILURE;
	}
	if (!quiet)
		report(&array, &geo, argv + optind);
	return r0_cli_close_stdout(PROG);
}

/* A killed r0sweep's scenario file system on A: its scratch mount, and only that, is undone. */
static void release_scratch(const struct r0_array *a)
{
	if (r0_array_release_scratch(a) > 0)
		fprintf(stderr, PROG ": %s: unmounted from r0sweep's scratch directory (left by a stopped study)\n",
			a->path);
}

/* R0_EXIT_OK; R0_EXIT_REFUSED for an array in use (left as it was); R0_EXIT_FAILURE. */
static int remove_one(const struct r0_array *a)
{
	int err;

	release_scratch(a);
	err = r0_array_remove(a);

	if (err) {
		const char *why = r0_array_last_error();
		fprintf(stderr, PROG ": remove %s: %s%s%s\n", a->path,
			err == -EBUSY ? "it is open or mounted" : strerror(-err),
			*why && err != -EBUSY ? ": " : "", err == -EBUSY ? "" : why);
		return err == -EBUSY ? R0_EXIT_REFUSED : R0_EXIT_FAILURE;
	}
	return R0_EXIT_OK;
}

/* Of two operands' exit statuses, the one to end with: a failure over a refusal over success. */
static int worse_exit(int a, int b)
{
	if (a == R0_EXIT_FAILURE || b == R0_EXIT_FAILURE)
		return R0_EXIT_FAILURE;
	return a ? a : b;
}

/* The options of CMD (remove, list): --FLAG (sets *SET) and --help; another command's is refused, naming it. */
static void flag_option(int argc, char **argv, const char *flag, bool *set, const char *cmd)
{
	const struct r0_cli_opt opts[] = {
		{ flag, OPT_FLAG, R0_CLI_SET, R0_CLI_TO(*set) },
		{ 0 },
	};

	if (other_commands_option(argc, argv, cmd))
		exit(R0_EXIT_USAGE);
	r0_cli_parse(&cli, opts, argc, argv);
}

/* Every array r0kit built into *LIST: 0, or -errno after saying why not. */
static int list_arrays(struct r0_array **list, size_t *n)
{
	int err = r0_array_list(list, n);

	if (err)
		fprintf(stderr, PROG ": list arrays: %s\n", strerror(-err));
	return err;
}

static int cmd_remove(int argc, char **argv)
{
	bool all = false;
	int rc = R0_EXIT_OK;

	flag_option(argc, argv, "all", &all, "remove");
	if (all == (optind < argc))
		return r0_cli_usage_error(PROG, "remove: give NAME|DEV... or --all");
	if ((rc = r0_cli_need_root(PROG, "removing md and dm arrays")) >= 0)
		return rc;
	rc = R0_EXIT_OK;
	if (all) {
		struct r0_array *list;
		size_t n, i;

		bool *gone, progress = true;

		if (list_arrays(&list, &n))
			return R0_EXIT_FAILURE;
		gone = calloc(n ? n : 1, sizeof(*gone));
		if (!gone) {
			free(list);
			return R0_EXIT_FAILURE;
		}
		for (i = 0; i < n; i++)
			release_scratch(&list[i]);
		/* an array may hold another (r0sweep's window over its array): what is busy
		 * is tried again while the others go, and named only when nothing moves */
		while (progress) {
			progress = false;
			for (i = 0; i < n; i++)
				if (!gone[i] && !r0_array_remove(&list[i]))
					gone[i] = progress = true;
		}
		for (i = 0; i < n; i++)
			if (!gone[i])
				rc = worse_exit(rc, remove_one(&list[i]));
		free(gone);
		free(list);
		return rc;
	}
	for (; optind < argc; optind++) {
		struct r0_array a;
		int err = r0_array_find(argv[optind], &a);

		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", argv[optind],
				err == -ENOENT ? "no array built by r0kit has this name or device"
					       : strerror(-err));
			/* another's array, or none: left alone */
			rc = worse_exit(rc, err == -ENOENT ? R0_EXIT_REFUSED : R0_EXIT_FAILURE);
			continue;
		}
		rc = worse_exit(rc, remove_one(&a));
	}
	return rc;
}

static int cmd_list(int argc, char **argv)
{
	struct r0_array *list;
	size_t n, i;
	bool json = false;

	flag_option(argc, argv, "json", &json, "list");
	if (optind < argc)
		return r0_cli_usage_error(PROG, "list: unexpected argument '%s'", argv[optind]);
	if (list_arrays(&list, &n))
		return R0_EXIT_FAILURE;
	if (json) {
		char *text;
		int err = r0_array_list_json_text(list, n, &text);

		if (err) {
			fprintf(stderr, PROG ": list: %s\n", strerror(-err));
			free(list);
			return R0_EXIT_FAILURE;
		}
		fputs(text, stdout);
		free(text);
	} else {
		printf("%-10s %-7s %-6s %-7s %-10s %-28s %s\n", "NAME", "BACKEND", "CHUNK", "MEMBERS",
		       "SIZE", "MEMBER-DEVS", "PATH");
		for (i = 0; i < n; i++) {
			const struct r0_array *a = &list[i];
			char ck[32] = "-", sz[32] = "-", mem[256] = "";
			size_t off = 0;

			if (a->active) {
				r0_format_size(a->chunk_bytes, ck, sizeof(ck));
				r0_format_size_human(a->size_sectors * 512, sz, sizeof(sz));
			}
			for (unsigned k = 0; k < a->n_members && off < sizeof(mem); k++)
				off += (size_t)snprintf(mem + off, sizeof(mem) - off, "%s%u:%u", k ? "," : "",
							major(a->members[k]), minor(a->members[k]));
			printf("%-10s %-7s %-6s %-7u %-10s %-28s %s%s\n", a->name, r0_array_backend_name(a->backend),
			       ck, a->n_members, sz, a->active ? mem : "-", a->path,
			       a->active ? "" : " (half-built: remove it)");
		}
	}
	free(list);
	return r0_cli_close_stdout(PROG);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		return r0_cli_usage_error(PROG, "name a command: create, remove or list");
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		r0_cli_usage(&cli, usage_opts, stdout);
		return r0_cli_close_stdout(PROG);
	}
	if (strcmp(cmd, "--r0-option-table") == 0) {
		r0_cli_print_table(&cli, usage_opts, stdout);
		return r0_cli_close_stdout(PROG);
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf(PROG " from r0kit %s\n", r0_build_id());
		return r0_cli_close_stdout(PROG);
	}
	if (strcmp(cmd, "create") == 0) {
		r0_cli_block_stop_signals();   /* as early as possible: create polls them */
		return cmd_create(argc - 1, argv + 1);
	}
	if (strcmp(cmd, "remove") == 0)
		return cmd_remove(argc - 1, argv + 1);
	if (strcmp(cmd, "list") == 0)
		return cmd_list(argc - 1, argv + 1);
	if (cmd[0] == '-')
		return r0_cli_usage_error(PROG, "unknown option '%s' (options come after the command: create, remove "
					  "or list)", cmd);
	return r0_cli_usage_error(PROG, "unknown command '%s'", cmd);
}
