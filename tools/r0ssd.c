// SPDX-License-Identifier: GPL-2.0-or-later
/* r0ssd: a simulated SSD (FTL with GC, over-provisioning, TRIM, flash timing) behind ublk. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#include "r0/ftl.h"
#include "r0/ftlstats.h"
#include "r0/size.h"
#include "r0/ublk.h"

#define PROG "r0ssd"
#define PAGE_BYTES 4096u

enum {
	OPT_SPARE = CHAR_MAX + 1, OPT_BLOCK_PAGES, OPT_VICTIM, OPT_READ_US, OPT_PROGRAM_US,
	OPT_ERASE_US, OPT_CHANNELS, OPT_DIES, OPT_NO_TIMING, OPT_NO_DATA, OPT_ID, OPT_MAX_IO,
	OPT_STATS, OPT_STATS_INTERVAL, OPT_PID_FILE, OPT_CLEANUP, OPT_QD, OPT_OLD_QD, OPT_CAPACITY,
};

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " --capacity SIZE [options]  serve a simulated SSD as /dev/ublkbN\n"
	"  " PROG " --cleanup [ID]             delete ublk devices a killed r0ssd left behind\n"
	"\n"
	"Serves a block device backed by a model of an SSD: 4 KiB flash pages in\n"
	"erase blocks, a page-mapped translation layer, over-provisioning, one\n"
	"write frontier shared by host writes and garbage collection, greedy GC,\n"
	"TRIM, and a flash time model, so writes slow down when GC has to copy.\n"
	"Prints the device path; runs until SIGINT or SIGTERM, then removes the\n"
	"device and prints its counters on stderr.\n";

static const char usage_tail[] =
	"Counters: host and flash page writes, WAF (flash programs / host writes),\n"
	"GC runs, erases, free blocks. SIGUSR1 rewrites the --stats file (its seq=\n"
	"line counts the writes) or, without one, prints the counters on stderr.\n"
	"SIGINT, SIGTERM or SIGHUP stop the server and remove the device.\n"
	"Exit status: 0 done (stopped and removed; --daemon: the device is up),\n"
	"1 failure, 2 usage or refused (--cleanup of a device whose server lives).\n";

struct ssd {
	struct r0_ftl *ftl;
	pthread_mutex_t lock;
	bool timing;
	double spare_pct;                        /* as asked (--spare) */
	double spare_effective_pct, spare_reserve_pct; /* whole blocks; and the reserve block */
	uint64_t requests, failed;
};

static int handle(void *user, const struct r0_ublk_req *rq, uint64_t now_ns, uint64_t *due_ns)
{
	struct ssd *s = user;
	uint64_t lpn = rq->offset_bytes / PAGE_BYTES, n = rq->length_bytes / PAGE_BYTES, done = now_ns;
	uint64_t *dp = s->timing ? &done : NULL;
	int err;

	if (rq->op == R0_UBLK_FLUSH)
		return 0;   /* no volatile cache is advertised */
	if (rq->offset_bytes % PAGE_BYTES || rq->length_bytes % PAGE_BYTES)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	s->requests++;
	switch (rq->op) {
	case R0_UBLK_READ: err = r0_ftl_read(s->ftl, lpn, n, rq->buf, now_ns, dp); break;
	case R0_UBLK_WRITE: err = r0_ftl_write(s->ftl, lpn, n, rq->buf, now_ns, dp); break;
	case R0_UBLK_DISCARD: err = r0_ftl_trim(s->ftl, lpn, n, now_ns, dp); break;
	case R0_UBLK_WRITE_ZEROES:
		/* zeros that must stay allocated are written; otherwise unmapped */
		err = rq->nounmap ? r0_ftl_write(s->ftl, lpn, n, NULL, now_ns, dp)
				  : r0_ftl_trim(s->ftl, lpn, n, now_ns, dp);
		break;
	default: err = -EOPNOTSUPP; break;
	}
	if (err)
		s->failed++;
	pthread_mutex_unlock(&s->lock);
	if (err == -ERANGE)
		err = -EIO;
	if (!err)
		*due_ns = done;
	return err;
}

/* The counters now, as --stats FILE and the last words on stderr show them (r0/ftlstats.h). */
static void counters(struct ssd *s, const char *dev, const char *state, unsigned seq, uint64_t server_errors,
		     struct r0_ftl_stats_file *out)
{
	*out = (struct r0_ftl_stats_file){
		.pid = (int)getpid(), .device = dev, .state = state, .seq = seq,
		.spare_pct = s->spare_pct, .spare_effective_pct = s->spare_effective_pct,
		.spare_reserve_pct = s->spare_reserve_pct, .server_errors = server_errors,
	};
	pthread_mutex_lock(&s->lock);
	r0_ftl_get_stats(s->ftl, &out->stats);
	out->requests = s->requests;
	out->failed_requests = s->failed;
	pthread_mutex_unlock(&s->lock);
}

static void print_counters(FILE *f, struct ssd *s, const char *dev, const char *state, unsigned seq,
			   uint64_t server_errors)
{
	struct r0_ftl_stats_file c;

	counters(s, dev, state, seq, server_errors, &c);
	r0_ftl_stats_file_write(f, &c);
}

/* FILE rewritten whole (a reader never sees half of it): 0 or -errno. */
static int write_stats(const char *file, struct ssd *s, const char *dev, const char *state,
		       unsigned seq, uint64_t server_errors)
{
	struct r0_ftl_stats_file c;

	counters(s, dev, state, seq, server_errors, &c);
	return r0_ftl_stats_file_save(file, &c);
}

static int cmd_cleanup(const char *id_arg)
{
	unsigned id = 0;
	unsigned n = 0;
	int err;

	if (id_arg && r0_cli_opt_uint(PROG, "--cleanup", id_arg, 0, INT_MAX, &id, "a ublk device number"))
		return R0_EXIT_USAGE;
	err = r0_ublk_cleanup(id_arg ? (int)id : -1, &n);
	if (err) {
		fprintf(stderr, PROG ": cleanup: %s: %s\n", r0_ublk_last_error(), strerror(-err));
		/* a live server's device, or none of r0ssd's: left as it was */
		return err == -ENOENT ? R0_EXIT_REFUSED : R0_EXIT_FAILURE;
	}
	fprintf(stderr, PROG ": removed %u left-over device%s\n", n, n == 1 ? "" : "s");
	return R0_EXIT_OK;
}

/* --read-us, --program-us, --erase-us: microseconds, into nanoseconds */
static int opt_us(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	double d;

	if (r0_parse_double(arg, 0, 1e7, &d))
		return r0_cli_usage_error(prog, "--%s '%s': a time in microseconds from 0 to 10000000", o->name, arg);
	*(uint64_t *)o->dest = (uint64_t)llround(d * 1000);
	return 0;
}

static int opt_max_io(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	uint64_t size;

	if (r0_parse_size(arg, &size) || !size || size % PAGE_BYTES || size > (1u << 20))
		return r0_cli_usage_error(prog, "--max-io '%s': a multiple of 4K up to 1M", arg);
	*(uint32_t *)o->dest = (uint32_t)size;
	return 0;
}

static char **cleanup_argv;

/* --cleanup [ID]: an optional value may also be the next word */
static int opt_cleanup(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	(void)prog;
	if (!arg && cleanup_argv[optind] && cleanup_argv[optind][0] != '-')
		arg = cleanup_argv[optind++];
	*(const char **)o->dest = arg;
	return 0;
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "q--qd" };

/*
 * --daemon: forks; the parent prints what the server reports through
 * PIPEFD (its device's path) and returns its exit status; the server goes
 * on in its own session (-1).
 */
static int daemonize(int pipefd[2])
{
	pid_t pid;
	char line[64];
	ssize_t n;

	if (pipe(pipefd)) {
		fprintf(stderr, PROG ": pipe: %s\n", strerror(errno));
		return R0_EXIT_FAILURE;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		return R0_EXIT_FAILURE;
	}
	if (pid > 0) {
		/* the parent prints what the server reports, or fails with it */
		close(pipefd[1]);
		n = read(pipefd[0], line, sizeof(line) - 1);
		if (n <= 0) {
			int st;

			waitpid(pid, &st, 0);
			return R0_EXIT_FAILURE;
		}
		line[n] = '\0';
		fputs(line, stdout);
		return r0_cli_close_stdout(PROG);
	}
	close(pipefd[0]);
	setsid();
	return -1;
}

/*
 * The server's life: every INTERVAL seconds (or on SIGUSR1) the counters
 * written to STATS_FILE (or SIGUSR1's to stderr), until a stop signal in
 * SIGS: that signal.
 */
static int serve(struct ssd *s, struct r0_ublk *u, const sigset_t *sigs, double interval, const char *stats_file,
		 unsigned *seq)
{
	for (;;) {
		struct timespec ts = { .tv_sec = (time_t)interval,
				       .tv_nsec = (long)((interval - floor(interval)) * 1e9) };
		int sig = sigtimedwait(sigs, NULL, &ts);

		if (sig > 0 && sig != SIGUSR1)
			return sig;   /* the server's end: clean up, then exit (0 once the device is removed) */
		if (sig == SIGUSR1 && !stats_file) {
			print_counters(stderr, s, r0_ublk_path(u), "running", (*seq)++, r0_ublk_errors(u));
			continue;
		}
		if (stats_file && (sig == SIGUSR1 || (sig < 0 && errno == EAGAIN)))
			write_stats(stats_file, s, r0_ublk_path(u), "running", (*seq)++, r0_ublk_errors(u));
	}
}

/*
 * The device removed and the last counters said (and written to
 * STATS_FILE), the pid file gone: 0, or R0_EXIT_FAILURE when the device
 * could not be removed. STOP_SIG: the signal that ended the server, or 0.
 */
static int stop_server(struct ssd *s, struct r0_ublk *u, int stop_sig, const char *stats_file, const char *pid_file,
		       unsigned seq)
{
	char dev[32];
	uint64_t server_errors = r0_ublk_errors(u);
	int err;

	snprintf(dev, sizeof(dev), "%s", r0_ublk_path(u));
	err = r0_ublk_free(u);
	if (err)
		fprintf(stderr, PROG ": remove %s: %s: %s\n", dev, r0_ublk_last_error(), strerror(-err));
	if (stats_file)
		write_stats(stats_file, s, dev, err ? "failed" : "stopped", seq++, server_errors);
	/* a stop signal is how a server's work ends: done, once its device is gone */
	fprintf(stderr, PROG ": %s %s%s%s; counters:\n", dev,
		stop_sig ? "stopped by " : "", stop_sig ? strsignal(stop_sig) : "",
		err ? ", not removed" : stop_sig ? ", removed" : "removed");
	print_counters(stderr, s, dev, err ? "failed" : "stopped", seq, server_errors);
	if (pid_file)
		unlink(pid_file);
	return err ? R0_EXIT_FAILURE : 0;
}

/*
 * The flash model of --capacity CAPACITY (into *BYTES) with FC's settings
 * into S. -1, or the exit status after saying why not.
 */
static int build_flash(struct ssd *s, struct r0_ftl_config *fc, const char *capacity, bool no_data, uint64_t *bytes)
{
	if (!capacity)
		return r0_cli_usage_error(PROG, "--capacity SIZE is required");
	if (r0_parse_size(capacity, bytes) || !*bytes || *bytes % PAGE_BYTES)
		return r0_cli_usage_error(PROG, "--capacity '%s': a non-zero multiple of 4K", capacity);
	fc->logical_pages = *bytes / PAGE_BYTES;
	fc->spare_fraction = s->spare_pct / 100;
	s->spare_effective_pct = 100 * r0_ftl_spare_effective(fc, false);
	s->spare_reserve_pct = 100 * r0_ftl_spare_effective(fc, true);
	fc->keep_data = !no_data;
	s->ftl = r0_ftl_new(fc);
	if (!s->ftl) {
		if (errno == EINVAL)
			return r0_cli_usage_error(PROG, "--capacity %s with --spare %g and --block-pages %u: "
						  "no such flash (too large, or too few blocks)",
						  capacity, s->spare_pct, fc->pages_per_block);
		fprintf(stderr, PROG ": flash model of %s: %s\n", capacity, strerror(errno));
		return R0_EXIT_FAILURE;
	}
	return -1;
}

/* Our pid into PATH: 0, or -1 after saying why. */
static int write_pid_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f)) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * An option given with --cleanup would be ignored: refused, said
 * (R0_EXIT_USAGE); else -1. CLEANUP: --cleanup given. (--stats-interval
 * without --stats: the table's .needs.)
 */
static int ignored_options(bool cleanup)
{
	/* a server's options, with --cleanup that serves no device */
	const char *other = cleanup ? r0_cli_given_other_than((const char *const[]){ "cleanup", NULL }) : NULL;

	if (other)
		return r0_cli_usage_error(PROG, "--cleanup takes no other option (not --%s): it serves no device", other);
	return -1;
}

/* What the command line asks for besides the flash, the device and the model's settings. */
struct options {
	const char *capacity, *stats_file, *pid_file, *cleanup_id;
	bool daemon, cleanup, no_data;
	double interval;
};

/*
 * The options of ARGV into O, S, FC and SPEC (their defaults set before),
 * by the table that is also --help; the table's needs held. A usage
 * error, --help or --version ends the program.
 */
static void read_options(struct options *o, struct ssd *s, struct r0_ftl_config *fc, struct r0_ublk_spec *spec,
			 int argc, char **argv)
{
	static const struct r0_cli_choice victims[] = {
		{ "greedy", R0_FTL_GREEDY },
		{ "fifo", R0_FTL_FIFO },
		{ NULL, 0 },
	};
	/* what each option is and what it goes with: r0_cli_parse holds .needs, --help prints it */
	const struct r0_cli_opt opts[] = {
		{ "capacity", OPT_CAPACITY, R0_CLI_STRING, R0_CLI_TO(o->capacity), .arg = "SIZE",
		  .help = "capacity the host sees (a multiple of 4K): 256M, 1G..." },
		{ "size", 's', R0_CLI_STRING, R0_CLI_TO(o->capacity), .renamed_to = "capacity", .arg = "SIZE" },
		{ "spare", OPT_SPARE, R0_CLI_DOUBLE, R0_CLI_TO(s->spare_pct), .dmin = 0.01, .dmax = 90,
		  .why = "a percentage above 0 and up to 90", .arg = "PCT",
		  .help = "over-provisioning, % of the flash", .def = "7" },
		{ "block-pages", OPT_BLOCK_PAGES, R0_CLI_UINT, R0_CLI_TO(fc->pages_per_block), 2, 65536, .why = "2 to 65536",
		  .arg = "N", .help = "pages an erase block", .def = "256" },
		{ "victim", OPT_VICTIM, R0_CLI_CHOICE, R0_CLI_TO(fc->victim), .choices = victims, .why = "greedy or fifo",
		  .arg = "greedy|fifo", .help = "GC victim: fewest valid pages (default) or oldest" },
		{ "read-us", OPT_READ_US, R0_CLI_CALL, R0_CLI_TO(fc->timing.read_ns), .call = opt_us, .arg = "US",
		  .help = "page read time (MLC's)", .def = "75" },
		{ "program-us", OPT_PROGRAM_US, R0_CLI_CALL, R0_CLI_TO(fc->timing.program_ns), .call = opt_us, .arg = "US",
		  .help = "page program time (MLC's)", .def = "750" },
		{ "erase-us", OPT_ERASE_US, R0_CLI_CALL, R0_CLI_TO(fc->timing.erase_ns), .call = opt_us, .arg = "US",
		  .help = "block erase time (MLC's)", .def = "3800" },
		{ "channels", OPT_CHANNELS, R0_CLI_UINT, R0_CLI_TO(fc->timing.channels), 1, 64, .why = "1 to 64",
		  .arg = "N", .help = "flash channels", .def = "2" },
		{ "dies", OPT_DIES, R0_CLI_UINT, R0_CLI_TO(fc->timing.dies), 1, 64, .why = "1 to 64",
		  .arg = "N", .help = "dies a channel", .def = "2" },
		{ "no-timing", OPT_NO_TIMING, R0_CLI_CLEAR, R0_CLI_TO(s->timing),
		  .help = "complete requests at once (no time model)" },
		{ "no-data", OPT_NO_DATA, R0_CLI_SET, R0_CLI_TO(o->no_data),
		  .help = "keep no data: reads return zeros (faster, less memory)" },
		{ "qd", OPT_QD, R0_CLI_UINT, R0_CLI_TO(spec->queue_depth), 1, 1024, .why = "1 to 1024", .arg = "N",
		  .help = "requests in flight, at most 1024", .def = "32" },
		{ "queue-depth", OPT_OLD_QD, R0_CLI_UINT, R0_CLI_TO(spec->queue_depth), 1, 1024, .why = "1 to 1024",
		  .renamed_to = "qd", .arg = "N" },
		{ "max-io", OPT_MAX_IO, R0_CLI_CALL, R0_CLI_TO(spec->max_io_bytes), .call = opt_max_io, .arg = "SIZE",
		  .help = "largest request, at most 1M", .def = "512K" },
		{ "id", OPT_ID, R0_CLI_UINT, R0_CLI_TO(spec->dev_id), 0, 1u << 20, .why = "a device number", .arg = "N",
		  .help = "ask for /dev/ublkbN (default: the driver picks)" },
		{ "stats", OPT_STATS, R0_CLI_STRING, R0_CLI_TO(o->stats_file), .arg = "FILE",
		  .help = "write the counters to FILE (key=value lines) every interval, on SIGUSR1 and at exit" },
		{ "stats-interval", OPT_STATS_INTERVAL, R0_CLI_DOUBLE, R0_CLI_TO(o->interval), .dmin = 0.01, .dmax = 3600,
		  .why = "0.01 to 3600 seconds", .arg = "SEC", .help = "the --stats interval, 0.01 to 3600", .def = "1",
		  .needs = "stats" },
		{ "daemon", 'd', R0_CLI_SET, R0_CLI_TO(o->daemon), .help = "serve in the background once the device is up" },
		{ "pid-file", OPT_PID_FILE, R0_CLI_STRING, R0_CLI_TO(o->pid_file), .arg = "FILE",
		  .help = "write the serving process's id to FILE" },
		{ "cleanup", OPT_CLEANUP, R0_CLI_CALL, R0_CLI_TO(o->cleanup_id), .call = opt_cleanup, .optional = true,
		  .given = &o->cleanup, .arg = "[ID]",
		  .help = "delete r0ssd's ublk devices whose server is gone (all of them, or ublk device ID)" },
		{ 0 },
	};

	cleanup_argv = argv;
	r0_cli_parse(&cli, opts, argc, argv);
}

int main(int argc, char **argv)
{
	struct r0_ftl_config fc;
	struct r0_ublk_spec spec = { .block_bytes = PAGE_BYTES, .queue_depth = 32,
				     .max_io_bytes = 512 * 1024, .discard = true, .dev_id = -1 };
	struct ssd s = { .timing = true, .spare_pct = 7 };
	struct options o = { .interval = 1 };
	uint64_t capacity_bytes = 0;
	struct r0_ublk *u;
	sigset_t sigs;
	int pipefd[2] = { -1, -1 }, rc = R0_EXIT_OK, err, stop_sig = 0;
	unsigned seq = 0;

	r0_ftl_config_default(&fc, 0);
	read_options(&o, &s, &fc, &spec, argc, argv);
	if (optind < argc)
		return r0_cli_usage_error(PROG, "unexpected argument '%s'", argv[optind]);
	if ((rc = ignored_options(o.cleanup)) >= 0)
		return rc;
	if (o.cleanup)
		return cmd_cleanup(o.cleanup_id);
	if ((rc = build_flash(&s, &fc, o.capacity, o.no_data, &capacity_bytes)) >= 0)
		return rc;
	rc = R0_EXIT_OK;
	pthread_mutex_init(&s.lock, NULL);
	spec.size_bytes = capacity_bytes;
	spec.handler = handle;
	spec.user = &s;

	if (o.daemon && (rc = daemonize(pipefd)) >= 0)
		return rc;
	rc = R0_EXIT_OK;

	/* SIGINT/SIGTERM/SIGHUP stop, SIGUSR1 writes the counters: all taken by sigtimedwait */
	r0_cli_stop_signals(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	u = r0_ublk_new(&spec);
	if (!u) {
		fprintf(stderr, PROG ": create the ublk device: %s: %s\n", r0_ublk_last_error(),
			strerror(errno));
		r0_ftl_free(s.ftl);
		return R0_EXIT_FAILURE;
	}
	/* a stop asked for while the device was being built: take it down again */
	if (r0_cli_stop_requested()) {
		err = r0_ublk_free(u);
		fprintf(stderr, PROG ": interrupted by a signal while starting; %s\n",
			err ? "could not remove the device" : "removed the device again");
		r0_ftl_free(s.ftl);
		return R0_EXIT_FAILURE;
	}
	if (o.pid_file && write_pid_file(o.pid_file)) {
		rc = R0_EXIT_FAILURE;
		goto stop;
	}
	if (o.stats_file && (err = write_stats(o.stats_file, &s, r0_ublk_path(u), "running", seq++, 0))) {
		fprintf(stderr, PROG ": %s: %s\n", o.stats_file, strerror(-err));
		rc = R0_EXIT_FAILURE;
		goto stop;
	}
	if (o.daemon) {
		int null = open("/dev/null", O_RDWR);

		dprintf(pipefd[1], "%s\n", r0_ublk_path(u));
		close(pipefd[1]);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
	} else if (printf("%s\n", r0_ublk_path(u)) < 0 || fflush(stdout)) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		rc = R0_EXIT_FAILURE;
		goto stop;
	}

	stop_sig = serve(&s, u, &sigs, o.interval, o.stats_file, &seq);

stop:
	if (stop_server(&s, u, stop_sig, o.stats_file, o.pid_file, seq))
		rc = R0_EXIT_FAILURE;
	r0_ftl_free(s.ftl);
	pthread_mutex_destroy(&s.lock);
	return rc;
}
