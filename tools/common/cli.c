// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared option and output helpers of the tools (util-linux's strtosize_or_err, close_stdout, err()). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "r0/buildid.h"
#include "r0/compare.h"
#include "r0/geometry.h"

/* "PROG: ", OPT 'ARG': when OPT is given, FMT, and the --help hint. */
static int usage_errorv(const char *prog, const char *opt, const char *arg, const char *fmt,
			va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	if (opt)
		fprintf(stderr, "%s '%s': ", opt, arg);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return R0_EXIT_USAGE;
}

int r0_cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = usage_errorv(prog, NULL, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

/* The body of every r0_cli_opt_*: BAD is the parse and bound check's verdict. */
#define OPT_CHECK(bad, out, v)                                          \
	do {                                                            \
		va_list ap;                                             \
		int rc;                                                 \
									\
		if (!(bad)) {                                           \
			*(out) = (v);                                   \
			return 0;                                       \
		}                                                       \
		va_start(ap, why);                                      \
		rc = usage_errorv(prog, opt, arg, why, ap);             \
		va_end(ap);                                             \
		return rc;                                              \
	} while (0)

int r0_cli_opt_uint(const char *prog, const char *opt, const char *arg, unsigned min,
		    unsigned long max, unsigned *out, const char *why, ...)
{
	unsigned v;

	OPT_CHECK(r0_parse_uint(arg, max, &v) || v < min, out, v);
}

int r0_cli_opt_size(const char *prog, const char *opt, const char *arg, uint64_t min,
		    uint64_t max, uint64_t *out, const char *why, ...)
{
	uint64_t v;

	OPT_CHECK(r0_parse_size(arg, &v) || v < min || v > max, out, v);
}

int r0_cli_opt_duration(const char *prog, const char *opt, const char *arg, uint64_t min_ns,
			uint64_t max_ns, uint64_t *out, const char *why, ...)
{
	uint64_t v;

	OPT_CHECK(r0_parse_duration(arg, &v) || v < min_ns || v > max_ns, out, v);
}

int r0_cli_opt_double(const char *prog, const char *opt, const char *arg, double min,
		      double max, double *out, const char *why, ...)
{
	double v;

	OPT_CHECK(r0_parse_double(arg, min, max, &v), out, v);
}

const struct r0_cli_choice r0_cli_backends[] = {
	{ "md", R0_BACKEND_MD },
	{ "dm", R0_BACKEND_DM },
	{ NULL, 0 },
};

int r0_cli_choose(const struct r0_cli_choice *choices, const char *name, int *out)
{
	for (; choices->name; choices++) {
		if (!strcmp(choices->name, name)) {
			*out = choices->value;
			return 0;
		}
	}
	return -EINVAL;
}

int r0_cli_opt_choice(const char *prog, const char *opt, const char *arg,
		      const struct r0_cli_choice *choices, int *out, const char *why, ...)
{
	int v;

	OPT_CHECK(r0_cli_choose(choices, arg, &v), out, v);
}

#define OPT_TABLE (CHAR_MAX + 1000) /* --r0-option-table: hidden, for check-options and completions */

/* getopt_long's 'h' (the usage on stdout), 'V' (the version), the table, and anything else: the exit status */
static int common_option(int c, const struct r0_cli *tool, const struct r0_cli_opt *opts)
{
	const char *prog = tool->prog;

	switch (c) {
	case 'h':
		r0_cli_usage(tool, opts, stdout);
		return r0_cli_close_stdout(prog);
	case OPT_TABLE:
		r0_cli_print_table(tool, opts, stdout);
		return r0_cli_close_stdout(prog);
	case 'V':
		printf("%s from r0kit %s\n", prog, r0_build_id());
		return r0_cli_close_stdout(prog);
	default:
		return r0_cli_usage_error(prog, "bad option");
	}
}

/*
 * getopt_long's '?' or ':' in one line of the tool's own (getopt stays
 * quiet: its message and a second one of ours were two lines for one
 * mistake). The option as given: a long one from ARGV, a short one from
 * optopt (in a cluster such as -bx, argv[optind - 1] is not the option).
 */
static int bad_option(const char *prog, int c, char **argv, const struct option *lo)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	size_t len = strcspn(arg, "=");
	const struct option *o, *valueless = NULL;
	unsigned matches = 0;

	/* --flag=VALUE: getopt's optopt is the flag's key, not a letter to print */
	if (!strncmp(arg, "--", 2) && arg[len] == '=' && c == '?')
		for (o = lo; o->name; o++)
			if (!strncmp(o->name, arg + 2, len - 2) && o->has_arg == no_argument &&
			    o->val == optopt)
				valueless = o;
	if (valueless)
		return r0_cli_usage_error(prog, "option '--%s' takes no value", valueless->name);
	if (strncmp(arg, "--", 2) || (c != ':' && optopt))
		return c == ':' ? r0_cli_usage_error(prog, "option '-%c' needs a value", optopt)
				: r0_cli_usage_error(prog, "unknown option '-%c'", optopt);
	if (c == ':')
		return r0_cli_usage_error(prog, "option '%.*s' needs a value", (int)len, arg);
	for (o = lo; o->name; o++)
		matches += !strncmp(o->name, arg + 2, len - 2);
	return r0_cli_usage_error(prog, "%s option '%.*s'", matches > 1 ? "ambiguous" : "unknown",
				  (int)len, arg);
}

/* An integer kind's value into DEST, whose width the table gives. */
static void store(const struct r0_cli_opt *o, uint64_t v)
{
	switch (o->width) {
	case 1: *(uint8_t *)o->dest = (uint8_t)v; break;
	case 2: *(uint16_t *)o->dest = (uint16_t)v; break;
	case 4: *(uint32_t *)o->dest = (uint32_t)v; break;
	default: *(uint64_t *)o->dest = v; break;
	}
}

/* One option's value by its kind: 0, or the exit status after the message. */
static int take(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	char opt[64];
	uint64_t v;
	unsigned u;
	int rc, choice;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->kind) {
	case R0_CLI_SET:
	case R0_CLI_CLEAR:
		*(bool *)o->dest = o->kind == R0_CLI_SET;
		return 0;
	case R0_CLI_STRING:
		*(const char **)o->dest = arg;
		return 0;
	case R0_CLI_UINT:
		rc = r0_cli_opt_uint(prog, opt, arg, (unsigned)o->min, o->max, &u, o->why,
				     (unsigned)o->max);
		v = u;
		break;
	case R0_CLI_SIZE:
		rc = r0_cli_opt_size(prog, opt, arg, o->min, o->max, &v, "%s", o->why);
		break;
	case R0_CLI_DURATION:
		rc = r0_cli_opt_duration(prog, opt, arg, o->min, o->max, &v, "%s", o->why);
		break;
	case R0_CLI_DOUBLE:
		return r0_cli_opt_double(prog, opt, arg, o->dmin, o->dmax, o->dest, "%s", o->why);
	case R0_CLI_CHOICE:
		rc = r0_cli_opt_choice(prog, opt, arg, o->choices, &choice, "%s", o->why);
		v = (uint64_t)choice;
		break;
	default:
		return o->call(prog, o, arg);
	}
	if (!rc)
		store(o, v);
	return rc;
}

int r0_cli_threshold(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_cmp_parse_threshold(arg, o->dest))
		return r0_cli_usage_error(prog, "--%s '%s': a percentage above 0 and below 100, e.g. 5",
					  o->name, arg);
	return 0;
}

int r0_cli_drive_gain(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_cmp_parse_gain(arg, o->dest))
		return r0_cli_usage_error(prog, "--%s '%s': a speed-up above 1 and at most 10, e.g. 1.2 or 20%%",
					  o->name, arg);
	return 0;
}

/* A short letter the tool gave up (struct r0_cli's RETIRED): the long option to use, or NULL. */
static const char *retired_letter(const char *retired, int c, size_t *len)
{
	for (const char *r = retired; r && *r; r += strcspn(r, " "), r += strspn(r, " ")) {
		if (*r == c) {
			*len = strcspn(r + 1, " ");
			return r + 1;
		}
	}
	return NULL;
}

/* The options the last r0_cli_parse read, by their new names, in the order typed: each once. */
static const char *given_names[R0_CLI_MAX_OPTS];
static size_t n_given;

static void note_given(const struct r0_cli_opt *o)
{
	const char *name = o->renamed_to ? o->renamed_to : o->name;

	if (!r0_cli_given(name) && n_given < R0_CLI_MAX_OPTS)
		given_names[n_given++] = name;
}

bool r0_cli_given(const char *name)
{
	for (size_t i = 0; i < n_given; i++)
		if (!strcmp(given_names[i], name))
			return true;
	return false;
}

const char *r0_cli_given_other_than(const char *const *only)
{
	for (size_t i = 0; i < n_given; i++) {
		const char *const *k = only;

		while (*k && strcmp(*k, given_names[i]))
			k++;
		if (!*k)
			return given_names[i];
	}
	return NULL;
}

/* Whether one of the comma-separated long NAMES was given; the first such into *WHICH. */
static bool given_of(const char *names, char *which, size_t len)
{
	for (const char *p = names; p && *p; p += strcspn(p, ","), p += *p == ',') {
		size_t n = strcspn(p, ",");

		snprintf(which, len, "%.*s", (int)n, p);
		if (r0_cli_given(which))
			return true;
	}
	return false;
}

/* "--a or --b" of the comma-separated NAMES */
static void or_list(const char *names, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (const char *p = names; *p && k < len; p += strcspn(p, ","), p += *p == ',') {
		int n = (int)strcspn(p, ",");

		k += (size_t)snprintf(buf + k, len - k, "%s--%.*s", k ? " or " : "", n, p);
	}
}

/* The table's NEEDS and EXCLUDES of every option given: 0, or the usage error's exit status. */
static int check_needs_and_excludes(const char *prog, const struct r0_cli_opt *opts)
{
	char which[64], list[256];

	/* exclusions first: an option that excludes another says why, and a need is then moot */
	for (const struct r0_cli_opt *o = opts; o->name; o++)
		if (!o->renamed_to && r0_cli_given(o->name) && o->excludes &&
		    given_of(o->excludes, which, sizeof(which)))
			return r0_cli_usage_error(prog, "--%s and --%s cannot be used together%s%s", o->name, which,
						  o->excludes_why ? ": " : "", o->excludes_why ? o->excludes_why : "");
	for (const struct r0_cli_opt *o = opts; o->name; o++)
		if (!o->renamed_to && r0_cli_given(o->name) && o->needs && !given_of(o->needs, which, sizeof(which))) {
			or_list(o->needs, list, sizeof(list));
			return r0_cli_usage_error(prog, "--%s needs %s", o->name, list);
		}
	return 0;
}

/*
 * A tool of subcommands writes --help from one union table (USAGE_OPTS)
 * beside the tables it parses: every option parsed must be listed there
 * alike (its letter, whether it takes a value, its new name), or --help
 * would not say what the tool takes. A mismatch is the tool's bug: exit 70
 * (EX_SOFTWARE) on the first run of that subcommand, which every test reaches.
 */
static void check_listed(const struct r0_cli *tool, const struct r0_cli_opt *opts)
{
	for (const struct r0_cli_opt *o = opts; o->name; o++) {
		const struct r0_cli_opt *u = tool->usage_opts;
		bool takes = o->kind != R0_CLI_SET && o->kind != R0_CLI_CLEAR;
		const char *why = NULL;

		while (u->name && strcmp(u->name, o->name))
			u++;
		if (!u->name)
			why = "is parsed but --help does not list it";
		else if (r0_cli_short_letter(o) != r0_cli_short_letter(u))
			why = "has another short letter in --help";
		else if (takes != (u->arg != NULL))
			why = takes ? "takes a value --help does not name" : "takes no value, yet --help names one";
		else if ((o->renamed_to == NULL) != (u->renamed_to == NULL) ||
			 (o->renamed_to && strcmp(o->renamed_to, u->renamed_to)))
			why = "is an old name in one table only";
		if (why) {
			fprintf(stderr, "%s: internal error: --%s %s\n", tool->prog, o->name, why);
			exit(70);
		}
	}
}

void r0_cli_parse(const struct r0_cli *tool, const struct r0_cli_opt *opts, int argc, char **argv)
{
	struct option lo[R0_CLI_MAX_OPTS + 4];
	char shorts[3 * R0_CLI_MAX_OPTS + 4];
	const struct r0_cli_opt *o;
	size_t n = 0, k = 0;
	int c, rc;

	if (tool->usage_opts)
		check_listed(tool, opts);
	/* every bad option is worded once, by bad_option */
	opterr = 0;
	shorts[k++] = ':';
	for (o = opts; o->name; o++, n++) {
		int has = o->kind == R0_CLI_SET || o->kind == R0_CLI_CLEAR ? no_argument :
			  o->optional ? optional_argument : required_argument;

		if (n == R0_CLI_MAX_OPTS)
			exit(r0_cli_usage_error(tool->prog, "more than %d options", R0_CLI_MAX_OPTS));
		lo[n] = (struct option){ o->name, has, NULL, o->key };
		if (r0_cli_short_letter(o)) {
			shorts[k++] = (char)o->key;
			if (has != no_argument)
				shorts[k++] = ':';
			if (has == optional_argument)
				shorts[k++] = ':';
		}
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	shorts[k++] = 'h';
	if (!tool->no_version) {
		lo[n++] = (struct option){ "version", no_argument, NULL, 'V' };
		shorts[k++] = 'V';
	}
	lo[n++] = (struct option){ "r0-option-table", no_argument, NULL, OPT_TABLE };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[k] = '\0';
	n_given = 0;

	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const char *instead;
		size_t len;

		for (o = opts; o->name && o->key != c; o++)
			;
		if (!o->name && c == '?' && (instead = retired_letter(tool->retired, optopt, &len)))
			exit(r0_cli_usage_error(tool->prog, "-%c: use %.*s (a short letter means one thing "
						"in every r0kit tool: docs/options.md)", optopt, (int)len, instead));
		if (!o->name && (c == '?' || c == ':'))
			exit(bad_option(tool->prog, c, argv, lo));
		if (!o->name)
			exit(common_option(c, tool, opts));
		if (o->renamed_to)
			fprintf(stderr, "%s: --%s is now --%s (the old name is kept until " R0_CLI_OLD_NAMES_UNTIL ")\n",
				tool->prog, o->name, o->renamed_to);
		if ((rc = take(tool->prog, o, optarg)))
			exit(rc);
		if (o->given)
			*o->given = true;
		note_given(o);
	}
	if ((rc = check_needs_and_excludes(tool->prog, opts)))
		exit(rc);
}

int r0_cli_close_stdout(const char *prog)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno ? errno : EIO));
		return R0_EXIT_FAILURE;
	}
	return R0_EXIT_OK;
}

void r0_cli_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void r0_cli_block_stop_signals(void)
{
	sigset_t set;

	r0_cli_stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static volatile sig_atomic_t stop_flag;

static void on_stop_signal(int sig)
{
	stop_flag = sig;
}

void r0_cli_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

volatile sig_atomic_t *r0_cli_stop_flag(void)
{
	return &stop_flag;
}

bool r0_cli_stop_requested(void)
{
	sigset_t pending;

	if (stop_flag)
		return true;
	sigpending(&pending);
	return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
	       sigismember(&pending, SIGHUP);
}

int r0_cli_each_item(const char *list, int (*fn)(const char *item, void *arg), void *arg)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (!*copy || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,"))
		err = -EINVAL;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = fn(tok, arg);
	free(copy);
	return err;
}

int r0_cli_add_backend(const char *item, void *arg)
{
	bool *b = arg;
	int v;

	if (r0_cli_choose(r0_cli_backends, item, &v))
		return -EINVAL;
	b[v] = true;
	return 0;
}

const char *r0_cli_tool_id(const char *prog)
{
	static char id[64];

	snprintf(id, sizeof(id), "%s %s", prog, r0_build_id());
	return id;
}

bool r0_cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int r0_cli_refuse_output_over(const char *prog, const char *opt, const char *output,
			      const struct r0_cli_file *files, size_t n)
{
	for (size_t i = 0; output && i < n; i++)
		if (files[i].path && r0_cli_same_file(output, files[i].path))
			return r0_cli_usage_error(prog, "%s '%s': is %s '%s', which it would replace: give another file",
						  opt, output, files[i].what, files[i].path);
	return 0;
}

FILE *r0_cli_output_open(const char *path, char *tmp, size_t len)
{
	struct stat st;
	FILE *f;
	int fd;

	tmp[0] = '\0';
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return fopen(path, "w");
	if (snprintf(tmp, len, "%s.XXXXXX", path) >= (int)len) {
		tmp[0] = '\0';
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		tmp[0] = '\0';
		return NULL;
	}
	fchmod(fd, 0644);
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		tmp[0] = '\0';
	}
	return f;
}
