// SPDX-License-Identifier: GPL-2.0-or-later
/* r0profile: measure the workload mix a device really sees from its kernel counters. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "profile/profile.h"

#include "r0/clock.h"
#include "r0/blktrace.h"
#include "r0/mixfile.h"
#include "r0/profile.h"
#include "r0/size.h"
#include "r0/tracemix.h"


#define MAX_DEV 16
/* in_flight reads per interval (at most one per 10 ms): the queue depth io_ticks blurs */
#define SUBSAMPLES 10
/* without a terminal, a plain progress line this often */
#define PLAIN_EVERY_NS 10000000000ULL


struct dev {
	const char *path;
	struct r0_profile_dev d;
	struct r0_profile_sample prev;
	struct r0_inflight_tally sub;   /* since prev */
};

/* Sleeps until monotonic DEADLINE_NS or a stop signal: true if a signal came. */
static bool sleep_until(uint64_t deadline_ns)
{
	sigset_t set;

	r0_cli_stop_signals(&set);
	for (;;) {
		uint64_t t = r0_now_ns();
		struct timespec ts;

		if (t >= deadline_ns)
			return false;
		ts.tv_sec = (time_t)((deadline_ns - t) / 1000000000ULL);
		ts.tv_nsec = (long)((deadline_ns - t) % 1000000000ULL);
		if (sigtimedwait(&set, NULL, &ts) >= 0)
			return true;
		if (errno != EAGAIN && errno != EINTR)
			return false;
	}
}

/* "read 72 % | 80 % rand-small-q1-read, 20 % seq-write": the running mix. */
static void running_mix(const struct r0_profile *p, char *buf, size_t len)
{
	int best[2] = { -1, -1 };
	int n;

	for (int c = 0; c < R0_PC_N; c++) {
		if (!(p->cls[c].weight > 0))
			continue;
		if (best[0] < 0 || p->cls[c].weight > p->cls[best[0]].weight) {
			best[1] = best[0];
			best[0] = c;
		} else if (best[1] < 0 || p->cls[c].weight > p->cls[best[1]].weight) {
			best[1] = c;
		}
	}
	n = snprintf(buf, len, "read %.0f %% of bytes", p->read_share_bytes * 100);
	for (int i = 0; i < 2 && best[i] >= 0 && n >= 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s %.0f %% %s", i ? "," : " |",
			      p->cls[best[i]].weight * 100, r0_pclass_name(best[i]));
}

/* "42 s" or "3:07:09": long profiles read as hours */
static void hms(double s, char *buf, size_t len)
{
	unsigned long t = (unsigned long)llround(fmax(0, s));

	if (t < 60)
		snprintf(buf, len, "%lu s", t);
	else
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

static void progress(const struct r0_profile *acc, double elapsed_s, double total_s, bool tty)
{
	struct r0_profile p = *acc;
	char mix[160], el[32], left[48] = "";

	r0_profile_finish(&p);
	running_mix(&p, mix, sizeof(mix));
	hms(elapsed_s, el, sizeof(el));
	if (total_s > 0) {
		char l[32];

		hms(total_s - elapsed_s, l, sizeof(l));
		snprintf(left, sizeof(left), ", %s left", l);
	}
	fprintf(stderr, "%s" PROG ": %s%s: %s%s", tty ? "\r\033[K" : "", el, left,
		p.active ? mix : "idle so far", tty ? "" : "\n");
	fflush(stderr);
}


/* Starts recording DEV into FILE: NULL after saying why not. */
static struct r0_blktrace *start_trace(const char *dev, const char *file, uint64_t max_bytes)
{
	struct r0_blktrace *bt;
	int err = r0_blktrace_start(dev, file, max_bytes, &bt);

	if (!err) {
		if (r0_blktrace_mounted_debugfs(bt))
			fprintf(stderr, PROG ": mounted debugfs on /sys/kernel/debug for the trace (unmounted at "
				"the end)\n");
		return bt;
	}
	if (err == -EPERM || err == -EACCES)
		fprintf(stderr, PROG ": %s: tracing needs root (CAP_SYS_ADMIN): %s\n", dev, strerror(-err));
	else if (err == -EBUSY)
		fprintf(stderr, PROG ": %s: already traced (a blktrace running? 'blktrace -k' ends one)\n", dev);
	else if (err == -ENOTTY || err == -ENOENT || err == -EINVAL)
		fprintf(stderr, PROG ": %s: the kernel cannot trace it (CONFIG_BLK_DEV_IO_TRACE and debugfs "
			"needed): %s\n", dev, strerror(-err));
	else
		fprintf(stderr, PROG ": %s: tracing into %s: %s\n", dev, file, strerror(-err));
	return NULL;
}

/*
 * The devices of ARGV[0..N) resolved into DEVS (the same device twice
 * refused), a warning where the kernel counts nothing, a stripe's chunk
 * taken as its largest request. 0, or the exit status after saying why not.
 */
static int resolve_devices(char **argv, int n, struct dev *devs)
{
	int err;

	for (int i = 0; i < n; i++) {
		struct dev *d = &devs[i];

		d->path = argv[i];
		if ((err = r0_profile_dev_resolve(d->path, NULL, &d->d))) {
			fprintf(stderr, PROG ": %s: %s\n", d->path,
				err == -ENOTBLK ? "not a block device" :
				err == -ENODEV ? "no I/O counters in sysfs (/sys/dev/block/MAJ:MIN/stat)" :
				strerror(-err));
			return R0_EXIT_REFUSED;
		}
		for (int j = 0; j < i; j++)
			if (devs[j].d.devt == d->d.devt)
				return r0_cli_usage_error(PROG, "%s: the same device as %s", d->path, devs[j].path);
		if (d->d.no_iostats)
			fprintf(stderr, PROG ": %s: warning: the kernel counts no I/O for it (queue/iostats is 0; "
				"echo 1 > /sys/class/block/%s/queue/iostats, or the disk's for a partition)\n",
				d->path, d->d.kname);
		/* a stripe cuts requests at its chunk: a whole-chunk piece is part of a larger one */
		if (d->d.stripe_chunk_bytes &&
		    (!d->d.max_request_bytes || d->d.stripe_chunk_bytes < d->d.max_request_bytes)) {
			char ck[32];

			r0_format_size(d->d.stripe_chunk_bytes, ck, sizeof(ck));
			fprintf(stderr, PROG ": %s: a striped array (%u members, chunk %s): its counters count the "
				"pieces requests are cut into at its chunks, so a piece of a whole chunk counts as part "
				"of a larger request (a stream); random requests of exactly a chunk look the same\n",
				d->path, d->d.stripe_members, ck);
			d->d.max_request_bytes = d->d.stripe_chunk_bytes;
		}
	}
	return 0;
}

/* What a profile's loop needs and keeps: its devices, the clock, the trace it records. */
struct sampling {
	struct dev *devs;
	size_t n_dev;
	uint64_t for_ns, interval_ns, start_ns;
	struct r0_blktrace *bt;
	const char *trace;
	bool tty, stop, vanished;
};

/*
 * Samples every device's counters each interval (and their in-flight
 * counts between) into P, until --for, a stop signal or a device gone.
 * 0, or the exit status when the trace could not be recorded.
 */
static int sample(struct sampling *sm, struct r0_profile *p)
{
	uint64_t next_ns = sm->start_ns, plain_ns = sm->start_ns + PLAIN_EVERY_NS;
	uint64_t sub_ns = sm->interval_ns / SUBSAMPLES > 10000000ULL ? sm->interval_ns / SUBSAMPLES : 10000000ULL;
	int err;

	while (!sm->stop && !sm->vanished) {
		uint64_t t;

		next_ns += sm->interval_ns;
		if (sm->for_ns && next_ns > sm->start_ns + sm->for_ns)
			next_ns = sm->start_ns + sm->for_ns;
		for (uint64_t s = r0_now_ns() + sub_ns; s < next_ns && !sm->stop; s += sub_ns) {
			if ((sm->stop = sleep_until(s)))
				break;
			if (sm->bt && (err = r0_blktrace_poll(sm->bt))) {
				fprintf(stderr, "%s" PROG ": %s: recording the trace: %s\n", sm->tty ? "\r\033[K" : "",
					sm->trace, strerror(-err));
				return R0_EXIT_FAILURE;
			}
			for (size_t i = 0; i < sm->n_dev; i++) {
				struct r0_blockstat st;

				/* a failed read is the next sample's to report */
				if (!r0_read_stat_devt(sm->devs[i].d.devt, NULL, &st))
					r0_inflight_tally_add(&sm->devs[i].sub, st.in_flight);
			}
		}
		if (!sm->stop)
			sm->stop = sleep_until(next_ns);
		t = r0_now_ns();
		for (size_t i = 0; i < sm->n_dev; i++) {
			struct dev *d = &sm->devs[i];
			struct r0_profile_sample cur = { .t_ns = t };

			if ((err = r0_read_stat_devt(d->d.devt, NULL, &cur.s))) {
				/* a device gone mid-profile: keep what was measured */
				fprintf(stderr, "%s" PROG ": %s: its counters vanished (%s): ending the profile\n",
					sm->tty ? "\r\033[K" : "", d->path, strerror(-err));
				sm->vanished = true;
				break;
			}
			r0_inflight_tally_add(&d->sub, cur.s.in_flight);
			cur.sub = d->sub;
			memset(&d->sub, 0, sizeof(d->sub));
			r0_profile_add_cut(p, &d->prev, &cur, d->d.max_request_bytes,
					   d->d.stripe_chunk_bytes == d->d.max_request_bytes);
			d->prev = cur;
		}
		if (sm->for_ns && t >= sm->start_ns + sm->for_ns)
			break;
		if (sm->tty) {
			progress(p, (double)(t - sm->start_ns) / 1e9, (double)sm->for_ns / 1e9, true);
		} else if (t >= plain_ns) {
			progress(p, (double)(t - sm->start_ns) / 1e9, (double)sm->for_ns / 1e9, false);
			plain_ns += PLAIN_EVERY_NS;
		}
	}
	return 0;
}

/*
 * The trace recorded to TRACE stopped and said, read back, and its mix
 * written (the counters' mix P beside it, described). The exit status.
 */
static int emit_traced(struct r0_blktrace *bt, const char *trace, uint64_t max_bytes, const struct r0_profile *p,
		       struct r0_profile_meta *meta, const char *output, bool json)
{
	struct r0_blktrace_stats st;
	struct r0_trace_header h;
	struct r0_profile tp;
	char cdesc[R0_MIX_DESCRIPTION_MAX];
	int err = r0_blktrace_stop(bt, &st), rc;

	if (err) {
		fprintf(stderr, PROG ": %s: writing the trace: %s\n", trace, strerror(-err));
		return R0_EXIT_FAILURE;
	}
	double hours = (double)(meta->end_epoch_s - meta->start_epoch_s) / 3600;
	char limit[32];

	fprintf(stderr, PROG ": %s: %llu events in %llu bytes", trace, (unsigned long long)st.events,
		(unsigned long long)st.file_bytes);
	if (hours >= 1.0 / 60)   /* the size of a day, from what an hour wrote */
		fprintf(stderr, " (%.1f MiB an hour, %.0f MiB a day)", (double)st.file_bytes / (1 << 20) / hours,
			(double)st.file_bytes / (1 << 20) / hours * 24);
	r0_format_size(max_bytes, limit, sizeof(limit));
	if (st.dropped || st.torn || st.over_limit)
		fprintf(stderr, "; lost: %llu by the kernel (buffers full), %llu read while being written, "
			"%llu beyond the --trace-max of %s: the classes are of the rest",
			(unsigned long long)st.dropped, (unsigned long long)st.torn,
			(unsigned long long)st.over_limit, limit);
	fputc('\n', stderr);
	/* read back, so what is reported is what the file holds */
	if ((rc = profile_read_trace(trace, &h, &tp)))
		return rc;
	r0_mix_file_description(p, meta, cdesc, sizeof(cdesc));
	meta->from_trace = true;
	return profile_emit(&tp, meta, output, json, p, cdesc);
}

/* An output over the trace read or over the other output: refused before anything is read or recorded. */
static int refuse_outputs_over_files(const struct profile_args *a)
{
	const char *export = a->export_iolog ? a->export_iolog : a->export_blktrace;
	const char *export_opt = a->export_iolog ? "--export-iolog" : "--export-blktrace";
	const struct r0_cli_file read = { "the trace read (--from-trace)", a->trace_from };
	const struct r0_cli_file others[] = { read, { "--output's file", a->output },
					      { "the trace recorded (--trace)", a->trace } };
	int rc;

	if ((rc = r0_cli_refuse_output_over(PROG, export_opt, export, others, 2)))
		return rc;
	return r0_cli_refuse_output_over(PROG, "--output", a->output, (const struct r0_cli_file[]){ read, others[2] },
					 2);
}

int main(int argc, char **argv)
{
	struct profile_args a;
	const char *kn[MAX_DEV], *paths[MAX_DEV];
	struct r0_blktrace *bt = NULL;
	uint64_t maxreq[MAX_DEV], start_ns;
	struct dev devs[MAX_DEV] = { 0 };
	struct r0_profile p;
	struct r0_profile_meta meta;
	bool tty, stop = false, vanished = false;
	int64_t start_epoch;
	size_t n_dev = 0;
	int err, rc = R0_EXIT_FAILURE;

	profile_options(argc, argv, &a);
	if ((rc = refuse_outputs_over_files(&a)))
		return rc;
	if (a.trace_from) {
		if (optind < argc)
			return r0_cli_usage_error(PROG, "--from-trace takes no DEVICE: the trace names its own");
		if ((rc = profile_refuse_unwritable(a.output)) ||
		    (rc = profile_refuse_unwritable(a.export_iolog ? a.export_iolog : a.export_blktrace)))
			return rc;
		if (a.export_iolog || a.export_blktrace)
			return profile_export(a.trace_from, a.export_iolog ? a.export_iolog : a.export_blktrace,
					      a.export_iolog ? R0_TRACE_FMT_IOLOG3 : R0_TRACE_FMT_BLKTRACE);
		return profile_from_trace(a.trace_from, a.output, a.json);
	}
	if (a.trace && argc - optind != 1)
		return r0_cli_usage_error(PROG, "--trace records one DEVICE");
	if (optind == argc)
		return r0_cli_usage_error(PROG, "no DEVICE given");
	if ((size_t)(argc - optind) > MAX_DEV)
		return r0_cli_usage_error(PROG, "at most %d devices", MAX_DEV);
	if (a.for_ns && a.for_ns < a.interval_ns)
		return r0_cli_usage_error(PROG, "--for is shorter than one --interval");

	if ((rc = resolve_devices(argv + optind, argc - optind, devs)))
		return rc;
	for (n_dev = 0; n_dev < (size_t)(argc - optind); n_dev++) {
		paths[n_dev] = devs[n_dev].path;
		kn[n_dev] = devs[n_dev].d.kname;
		maxreq[n_dev] = devs[n_dev].d.max_request_bytes;
	}
	/* refusals before the profile starts: nothing measured, nothing written */
	if ((rc = profile_refuse_unwritable(a.output)))
		return rc;

	r0_cli_block_stop_signals();
	if (a.trace && !(bt = start_trace(devs[0].path, a.trace, a.trace_max)))
		return R0_EXIT_REFUSED;
	r0_profile_init(&p);
	tty = isatty(STDERR_FILENO);
	start_epoch = (int64_t)time(NULL);
	start_ns = r0_now_ns();
	for (size_t i = 0; i < n_dev; i++) {
		devs[i].prev.t_ns = start_ns;
		if ((err = r0_read_stat_devt(devs[i].d.devt, NULL, &devs[i].prev.s))) {
			fprintf(stderr, PROG ": %s: reading its counters: %s\n", devs[i].path, strerror(-err));
			return R0_EXIT_FAILURE;
		}
	}
	{
		struct sampling sm = { devs, n_dev, a.for_ns, a.interval_ns, start_ns, bt, a.trace, tty, false, false };

		if ((rc = sample(&sm, &p)))
			goto out;
		stop = sm.stop;
		vanished = sm.vanished;
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (stop)
		fprintf(stderr, PROG ": stopped by a signal after %.0f s: writing what was measured\n",
			(double)(r0_now_ns() - start_ns) / 1e9);
	r0_profile_finish(&p);

	meta = (struct r0_profile_meta){
		.tool = r0_cli_tool_id(PROG), .n_dev = n_dev, .dev_path = paths, .dev_kname = kn,
		.dev_max_request_bytes = maxreq, .start_epoch_s = start_epoch,
		.end_epoch_s = (int64_t)time(NULL), .interval_s = (double)a.interval_ns / 1e9,
		.interrupted = stop || vanished,
	};
	if (bt) {
		rc = emit_traced(bt, a.trace, a.trace_max, &p, &meta, a.output, a.json);
		bt = NULL;
	} else {
		rc = profile_emit(&p, &meta, a.output, a.json, NULL, NULL);
	}
out:
	if (bt)
		r0_blktrace_stop(bt, NULL);
	err = r0_cli_close_stdout(PROG);
	return rc ? rc : err;
}
