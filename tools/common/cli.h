/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every r0kit tool does the same way: option values, usage errors, JSON, stdout errors. */
#ifndef R0_CLI_H
#define R0_CLI_H

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>


#include "r0/size.h"

/*
 * One exit status for every tool, as docs/options.md and each man page's
 * EXIT STATUS give it (tests/options/check-options holds the table):
 * a script can tell a "no" from a refusal and from "could not decide".
 */
enum {
	R0_EXIT_OK = 0,              /* done; yes or pass */
	R0_EXIT_FAILURE = 1,         /* a measured no or fail, or a failure while running */
	R0_EXIT_USAGE = 2,           /* usage ... */
	R0_EXIT_REFUSED = 2,         /* ... or refused before anything was touched */
	R0_EXIT_NOT_CONCLUSIVE = 3,  /* the evidence could not decide */
};

/* "PROG: MESSAGE" and the --help hint on stderr; returns R0_EXIT_USAGE. */
int r0_cli_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The value ARG of option OPT ("--qd"), read with the r0/size.h parser of
 * its kind and held to MIN..MAX, into *OUT. Otherwise "PROG: OPT 'ARG': WHY"
 * (WHY a printf format) and the --help hint on stderr, *OUT untouched: one
 * wording for every tool. 0 or R0_EXIT_USAGE.
 */
int r0_cli_opt_uint(const char *prog, const char *opt, const char *arg, unsigned min,
		    unsigned long max, unsigned *out, const char *why, ...)
	__attribute__((format(printf, 7, 8)));
int r0_cli_opt_size(const char *prog, const char *opt, const char *arg, uint64_t min,
		    uint64_t max, uint64_t *out, const char *why, ...)
	__attribute__((format(printf, 7, 8)));
int r0_cli_opt_duration(const char *prog, const char *opt, const char *arg, uint64_t min_ns,
			uint64_t max_ns, uint64_t *out, const char *why, ...)
	__attribute__((format(printf, 7, 8)));
int r0_cli_opt_double(const char *prog, const char *opt, const char *arg, double min,
		      double max, double *out, const char *why, ...)
	__attribute__((format(printf, 7, 8)));

/* One name of a fixed set and the value it stands for; a NULL name ends a table. */
struct r0_cli_choice {
	const char *name;
	int value;
};

/* "md" and "dm", as enum r0_backend. */
extern const struct r0_cli_choice r0_cli_backends[];

/* ARG must be one of the names in CHOICES: its value, else the error above. */
int r0_cli_opt_choice(const char *prog, const char *opt, const char *arg,
		      const struct r0_cli_choice *choices, int *out, const char *why, ...)
	__attribute__((format(printf, 6, 7)));

/* The value of NAME in CHOICES: 0, or -EINVAL when it is none of them. */
int r0_cli_choose(const struct r0_cli_choice *choices, const char *name, int *out);

/* How r0_cli_parse reads an option of a tool's table, and what it stores in DEST. */
enum r0_cli_kind {
	R0_CLI_SET,      /* no value: *(bool *)DEST = true */
	R0_CLI_CLEAR,    /* no value: *(bool *)DEST = false */
	R0_CLI_STRING,   /* *(const char **)DEST = the value as given */
	R0_CLI_UINT,     /* r0_cli_opt_uint, MIN..MAX, into an integer of WIDTH bytes */
	R0_CLI_SIZE,     /* r0_cli_opt_size, MIN..MAX bytes, likewise */
	R0_CLI_DURATION, /* r0_cli_opt_duration, MIN..MAX ns, likewise */
	R0_CLI_DOUBLE,   /* r0_cli_opt_double, DMIN..DMAX, into a double */
	R0_CLI_CHOICE,   /* r0_cli_opt_choice over CHOICES, the value into an integer */
	R0_CLI_CALL,     /* CALL(prog, option, value): a reading of the tool's own */
};

/* One option of a tool, described once: its names, its value's kind and bounds, where it goes. */
struct r0_cli_opt {
	const char *name;   /* the long name without "--"; NULL ends a table */
	int key;            /* its short letter, or a number above CHAR_MAX: long only */
	enum r0_cli_kind kind;
	void *dest;
	size_t width;       /* sizeof *DEST for the integer kinds: R0_CLI_TO sets both */
	uint64_t min, max;
	double dmin, dmax;
	const struct r0_cli_choice *choices;
	/* a good value, for the error "PROG: --NAME 'VALUE': WHY"; R0_CLI_UINT's may print MAX with %u */
	const char *why;
	bool *given;        /* set to true when the option was given (and read) */
	int (*call)(const char *prog, const struct r0_cli_opt *o, const char *arg); /* 0 or an exit status */
	bool optional;      /* R0_CLI_CALL: the value may be left out (optional_argument) */
	/*
	 * an old name: works as before, with the hint "PROG: --NAME is now
	 * --RENAMED_TO" (see R0_CLI_OLD_NAMES_UNTIL); --help says so itself
	 */
	const char *renamed_to;
	/*
	 * What --help says of it (r0_cli_usage): the one source of --help,
	 * docs/options.md, the bash completion and the man pages' option heads,
	 * which tests/options/check-options holds to the table. As
	 * cryptsetup's src/cryptsetup_arg_list.h holds each option's help,
	 * type and default in one row, and util-linux states options that
	 * exclude each other as data (ul_excl_t, err_exclusive_options), not
	 * as if-chains in main.
	 */
	const char *arg;        /* its value's name: "N", "LIST", "[ID]" when optional; NULL: no value */
	const char *help;       /* what it does, one paragraph, wrapped to 80 columns ("\n" breaks a line) */
	const char *def;        /* its default as the user reads it: the help ends "(default DEF)" */
	const char *section;    /* a paragraph printed before it: the heading of a group of options */
	void (*after)(FILE *f); /* lines printed after it (r0bench's list of presets) */
	/*
	 * Long names, comma-separated, that r0_cli_parse holds it to: one of
	 * NEEDS must be given with it, none of EXCLUDES ("PROG: --A needs --B",
	 * "PROG: --A and --B cannot be used together").
	 */
	const char *needs;
	const char *excludes;
	const char *excludes_why; /* the reason, after the message: "PROG: --A and --B ...: WHY" */
};

/*
 * The release up to which an old name still works: --help lists each as
 * "old name of --NEW, kept until " R0_CLI_OLD_NAMES_UNTIL, and
 * tests/options/check-options fails once VERSION reaches it (then the old
 * names go). Scripts get one release to move.
 */
#define R0_CLI_OLD_NAMES_UNTIL "0.3"

#define R0_CLI_TO(x) .dest = &(x), .width = sizeof(x)

/*
 * A tool's command line: the defaults are one line for a bad option
 * ("unknown option '--x'", "option '--x' needs a value"), --help and --version.
 */
struct r0_cli {
	const char *prog;
	/*
	 * --help: HEAD (the synopsis and what the tool does), "Options:" (or
	 * the first option's section heading), the
	 * options (USAGE_OPTS, else the table parsed: a tool of subcommands
	 * lists them all once), -h and -V, then TAIL. r0_cli_parse holds every
	 * table it parses to USAGE_OPTS: each option listed there, with the same
	 * letter, value and new name (else exit 70, the tool's bug).
	 */
	const char *head;
	const char *tail;
	const struct r0_cli_opt *usage_opts;
	bool no_version;    /* no --version (r0build's subcommands) */
	/*
	 * Short letters the tool gave up so that a letter means one thing across
	 * r0kit (docs/options.md), each with the long option that stays:
	 * "o--output b--bs". Using one says which long option to use.
	 */
	const char *retired;
};

/* O's short letter, or 0 for an option that is long only (a key above CHAR_MAX). */
static inline int r0_cli_short_letter(const struct r0_cli_opt *o)
{
	return o->key > 0 && o->key <= CHAR_MAX ? o->key : 0;
}

/*
 * Reads the options of ARGV by the table OPTS (ended by a NULL name), in
 * order; optind then indexes the operands. --help, --version and the first
 * bad option (with its message) end the program with their exit status,
 * as util-linux's usage() and errtryhelp() do.
 */
void r0_cli_parse(const struct r0_cli *tool, const struct r0_cli_opt *opts, int argc, char **argv);

/*
 * The --help of TOOL with the options OPTS (r0_cli_parse prints it for
 * -h): see struct r0_cli. The text of each option is wrapped to 80
 * columns, after a long head by two spaces (as util-linux's usage texts).
 */
void r0_cli_usage(const struct r0_cli *tool, const struct r0_cli_opt *opts, FILE *f);

/*
 * The table itself, for tests/options/check-options and the bash
 * completion (r0_cli_parse prints it for the hidden --r0-option-table):
 * a line an option, tab-separated: long name, short letter, value name,
 * default, needs, excludes, old name of, help, and the text --help prints
 * (the help, "(default DEF)", "old name of ..."). -h and -V are lines too.
 */
void r0_cli_print_table(const struct r0_cli *tool, const struct r0_cli_opt *opts, FILE *f);

/*
 * Whether option NAME (its long name; an old name counts as its new one)
 * was on the command line the last r0_cli_parse read.
 */
bool r0_cli_given(const char *name);

/*
 * The first option on that command line, in the order typed, that is none
 * of ONLY (long names, NULL-ended), or NULL: a mode that takes only a few
 * options names one that would be ignored, for a usage error.
 */
const char *r0_cli_given_other_than(const char *const *only);

/* R0_CLI_CALL readers more than one tool uses. */

/* --threshold: a percentage above 0 and below 100 (r0/compare.h), into a double. */
int r0_cli_threshold(const char *prog, const struct r0_cli_opt *o, const char *arg);
/* --drive-gain: a speed-up above 1 and at most 10 ("1.2", "1.2x", "20%"), into a double. */
int r0_cli_drive_gain(const char *prog, const struct r0_cli_opt *o, const char *arg);

/* The most options a table may hold. */
#define R0_CLI_MAX_OPTS 40

/*
 * The stop signals, the same for every tool: SIGINT, SIGTERM and SIGHUP.
 * A tool either blocks them and polls r0_cli_stop_requested() between
 * steps (r0build, r0profile, r0ssd: nothing of theirs may be cut half-way),
 * or catches them into a flag the engine polls between I/Os (r0sweep,
 * r0age: r0_run_opts.stop = r0_cli_stop_flag()). Either way it cleans up;
 * work cut short exits R0_EXIT_FAILURE, while a tool that runs until it is
 * told to stop (r0profile without --for, the r0ssd server) is done: 0.
 */

/* Fills SET with the stop signals (for sigtimedwait; add others after). */
void r0_cli_stop_signals(sigset_t *set);

/* Blocks them. Child processes must unblock them (posix_spawnattr_setsigmask). */
void r0_cli_block_stop_signals(void);

/* Catches them: the handler stores the signal's number in *r0_cli_stop_flag(). */
void r0_cli_catch_stop_signals(void);

/* The flag the handler sets: 0, or the last stop signal caught. */
volatile sig_atomic_t *r0_cli_stop_flag(void);

/* One was caught, or one is pending while blocked. */
bool r0_cli_stop_requested(void);

/* Flushes and closes stdout; a failed write is an error: 0, or 1 after saying so. */
int r0_cli_close_stdout(const char *prog);

/*
 * Calls FN on each item of a comma-separated LIST, stopping at the first
 * error. 0, FN's error, -EINVAL for an empty list or an empty item, -ENOMEM.
 */
int r0_cli_each_item(const char *list, int (*fn)(const char *item, void *arg), void *arg);

/*
 * An r0_cli_each_item callback for "md" and "dm": sets ARG[R0_BACKEND_MD]
 * or ARG[R0_BACKEND_DM] (ARG a bool array indexed by enum r0_backend).
 * 0 or -EINVAL.
 */
int r0_cli_add_backend(const char *item, void *arg);

/*
 * An output written whole or not at all: a new file beside PATH (its name
 * into TMP), for the caller to rename over PATH once everything is
 * written, or unlink; TMP "" and PATH itself when PATH is not a regular
 * file (a pipe, /dev/stdout). NULL and errno.
 */
FILE *r0_cli_output_open(const char *path, char *tmp, size_t len);

/* Whether A and B name one file: the same path, or the same regular file by its inode. */
bool r0_cli_same_file(const char *a, const char *b);

/* A file a run reads or writes, as r0_cli_refuse_output_over names it. */
struct r0_cli_file {
	const char *what;   /* "the input", "--compare's file" */
	const char *path;   /* NULL: not given */
};

/*
 * An output that would replace a file the run reads or writes: the same
 * regular file by its inode, or the same path. Refused before anything
 * is read or measured, since a file renamed over its own input reads
 * fine afterwards and says nothing. OPT names the output ("--output").
 * 0, or the usage error's status after saying which.
 */
int r0_cli_refuse_output_over(const char *prog, const char *opt, const char *output,
			      const struct r0_cli_file *files, size_t n);

/*
 * "PROG 0.2.0+g1a2b3c4d5e6f": the tool and the code it was built from
 * (r0_build_id), as every result file's tool field and a report's
 * "Analysed by" name it. A buffer of the process's own: one tool a process.
 */
const char *r0_cli_tool_id(const char *prog);

#endif
