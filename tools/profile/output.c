// SPDX-License-Identifier: GPL-2.0-or-later
/* What r0profile prints and writes: the summary, the r0mix/1 file, a trace read back or exported. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "profile.h"

#include "r0/mixfile.h"
#include "r0/profile.h"
#include "r0/size.h"
#include "r0/trace.h"
#include "r0/tracemix.h"

static void size_text(double bytes, char *buf, size_t len)
{
	if (r0_format_size_human((uint64_t)llround(bytes), buf, len))
		snprintf(buf, len, "?");
}

/* What the counters cannot tell apart on a striped array, said instead of a class they did not see. */
static void print_cannot_tell(const struct r0_profile *p)
{
	for (int d = 0; d < 2; d++) {
		double s = p->busy_s > 0 ? p->cut_busy_s[d] / p->busy_s : 0;

		if (s < R0_PROFILE_CUT_NOTE_SHARE)
			continue;
		printf("cannot tell     %s, %s, %s and %s apart in %.0f %% of the busy time: the striped\n"
		       "                array's whole-chunk pieces, which a stream, large random requests and\n"
		       "                one-chunk random ones all leave (weighed as %s; --trace FILE tells)\n",
		       r0_pclass_name(R0_PC_SEQ_READ + d), r0_pclass_name(R0_PC_RAND_LARGE_READ + d),
		       r0_pclass_name(R0_PC_RAND_SMALL_Q1_READ + d), r0_pclass_name(R0_PC_RAND_SMALL_QD_READ + d),
		       s * 100, r0_pclass_name(R0_PC_SEQ_READ + d));
	}
}

/* TRACE: P was classed from a trace, per request, not from per-interval averages. */
static void print_summary(const struct r0_profile *p, const char *const *paths, const char *const *kn,
			  const uint64_t *maxreq, size_t n_dev, double interval_s, const char *desc, bool trace)
{
	char a[32], b[32], c[32];

	for (size_t i = 0; i < n_dev; i++) {
		size_text((double)maxreq[i], a, sizeof(a));
		printf("device          %s (%s, requests up to %s)\n", paths[i], kn[i], maxreq[i] ? a : "?");
	}
	if (trace)
		printf("period          %.1f s, %u s with requests queued\n", p->seconds, p->active);
	else
		printf("period          %.1f s, %u intervals of %g s, %u active, %u skipped\n",
		       p->seconds, p->intervals, interval_s, p->active, p->resets);
	size_text((double)p->read_bytes, a, sizeof(a));
	size_text(p->avg_read_bytes, b, sizeof(b));
	printf("reads           %llu requests, %s, %s average, %llu merged\n",
	       (unsigned long long)p->reads, a, b, (unsigned long long)p->reads_merged);
	size_text((double)p->write_bytes, a, sizeof(a));
	size_text(p->avg_write_bytes, b, sizeof(b));
	printf("writes          %llu requests, %s, %s average, %llu merged\n",
	       (unsigned long long)p->writes, a, b, (unsigned long long)p->writes_merged);
	size_text((double)p->discard_bytes, a, sizeof(a));
	printf("discards        %llu requests, %s, %.1f %% of all bytes\n",
	       (unsigned long long)p->discards, a, p->discard_share_bytes * 100);
	printf("read share      %.1f %% of bytes, %.1f %% of requests\n",
	       p->read_share_bytes * 100, p->read_share_ops * 100);
	printf("queue depth     %.1f in flight on average while busy; %.0f %% of the busy time at QD<=2\n",
	       p->mean_qd, p->q1_share * 100);
	printf("in flight       %s 0/1/2/3+: %u/%u/%u/%u\n",
	       trace ? "requests queued at (themselves included)" : "reads seeing", p->inflight_hist[0],
	       p->inflight_hist[1], p->inflight_hist[2], p->inflight_hist[3]);
	for (int d = 0; d < 2; d++) {
		printf("%-16s", d ? "write sizes" : "read sizes");
		for (unsigned i = 0; i < R0_PROFILE_SIZE_BUCKETS; i++) {
			uint64_t u = r0_profile_bucket_bytes(i);

			/* the last bucket is everything above the one before it */
			if (r0_format_size(u == UINT64_MAX ? r0_profile_bucket_bytes(i - 1) : u, b, sizeof(b)))
				snprintf(b, sizeof(b), "?");
			if (p->size_hist[d][i])
				printf("%s%s:%u ", u == UINT64_MAX ? ">" : "<=", b, p->size_hist[d][i]);
		}
		printf("%s\n", trace ? "(requests by size)" : "(intervals by average request size)");
	}
	printf("\n%-20s %7s %9s %10s %12s %10s %9s\n", "class", "weight", "busy s", "bytes", "requests",
	       "avg size", "in flight");
	for (int k = 0; k < R0_PC_N; k++) {
		const struct r0_profile_class *x = &p->cls[k];

		size_text((double)x->bytes, a, sizeof(a));
		size_text(x->ops ? (double)x->bytes / (double)x->ops : 0, b, sizeof(b));
		snprintf(c, sizeof(c), "%.1f", x->busy_s > 0 ? x->qd_busy_s / x->busy_s : 0);
		printf("%-20s %5.1f %% %9.2f %10s %12llu %10s %9s\n", r0_pclass_name(k), x->weight * 100,
		       x->busy_s, a, (unsigned long long)x->ops, b, c);
	}
	if (trace)
		printf("\nconfidence      %s (%.2f): every request classed from the trace; only its length\n"
		       "                (full at 30 s with requests) limits it\n", p->confidence_level, p->confidence);
	else
		printf("\nconfidence      %s (%.2f): size class inferred from per-interval averages;\n"
		       "                sequential vs random from merges, requests at the size limit or >= 1 MiB\n",
		       p->confidence_level, p->confidence);
	if (!trace)
		print_cannot_tell(p);
	printf("mix             %s\n", desc);
}

/*
 * PATH can be written as the output is (a new file beside it, renamed
 * over it): not a directory, and its directory takes a new file, tried
 * (access() says yes to root on /proc). Checked before a long profile.
 */
static int check_writable(const char *path)
{
	char copy[PATH_MAX], probe[PATH_MAX + 16], *dir;
	struct stat st;
	int fd;

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -ENAMETOOLONG;
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	dir = dirname(copy);
	if (snprintf(probe, sizeof(probe), "%s/.r0profile-XXXXXX", dir) >= (int)sizeof(probe))
		return -ENAMETOOLONG;
	/* a directory that is there but takes no file (/proc) is said so, not "no such file" */
	if ((fd = mkostemp(probe, O_CLOEXEC)) < 0)
		return errno == ENOENT && !stat(dir, &st) ? -EROFS : -errno;
	close(fd);
	unlink(probe);
	return 0;
}

/* OUTPUT (if any) refused before anything is measured: 0, or R0_EXIT_REFUSED after saying why. */
int profile_refuse_unwritable(const char *output)
{
	int err = output ? check_writable(output) : 0;

	if (err)
		fprintf(stderr, PROG ": %s: cannot write there: %s\n", output,
			err == -EINVAL ? "not a regular file (the output is a file written beside it and renamed over it)"
				       : strerror(-err));
	return err ? R0_EXIT_REFUSED : 0;
}

/* Writes the mix of P (OUTPUT, --json or the summary): 0 or R0_EXIT_FAILURE. COUNTERS: what they alone said beside a trace. */
int profile_emit(const struct r0_profile *p, const struct r0_profile_meta *meta, const char *output, bool json,
		const struct r0_profile *counters, const char *counters_desc)
{
	char *text = NULL, desc[R0_MIX_DESCRIPTION_MAX];
	int err;
	bool workload = false;

	/* a mix of no reads or writes weighs nothing: its readers refuse it, so it is not written */
	for (int c = 0; c < R0_PC_N; c++)
		workload |= p->cls[c].weight > 0;
	if (output && !workload) {
		fprintf(stderr, PROG ": %s: no reads or writes in the %s: no mix to weigh, nothing written\n", output,
			meta->from_trace ? "trace" : "period");
		return meta->from_trace ? R0_EXIT_REFUSED : R0_EXIT_NOT_CONCLUSIVE;
	}
	if (json && (err = r0_mix_file_text(p, meta, &text))) {
		fprintf(stderr, PROG ": building the mix: %s\n", strerror(-err));
		return R0_EXIT_FAILURE;
	}
	if (output && (err = r0_mix_file_write(output, p, meta))) {
		fprintf(stderr, PROG ": %s: %s\n", output, strerror(-err));
		free(text);
		return R0_EXIT_FAILURE;
	}
	if (json) {
		fputs(text, stdout);
		free(text);
	} else {
		r0_mix_file_description(p, meta, desc, sizeof(desc));
		print_summary(p, meta->dev_path, meta->dev_kname, meta->dev_max_request_bytes, meta->n_dev,
			      meta->interval_s, desc, meta->from_trace);
		if (counters) {
			printf("counters alone  %s\n", counters_desc);
			print_cannot_tell(counters);
		}
		if (output)
			printf("written         %s\n", output);
	}
	return R0_EXIT_OK;
}

/* Reads the trace FILE into P: 0, or R0_EXIT_FAILURE after saying what is wrong with it. */
int profile_read_trace(const char *file, struct r0_trace_header *h, struct r0_profile *p)
{
	struct r0_trace_fault fault;
	char where[512];
	int err = r0_tracemix_file(file, h, p, &fault);
	const char *text = r0_trace_fault_text(err, &fault, where, sizeof(where));

	if (!err)
		return 0;
	fprintf(stderr, PROG ": %s: %s\n", file, text ? text : strerror(-err));
	return R0_EXIT_FAILURE;
}

/* --from-trace FILE: the exact mix of a recorded trace. */
int profile_from_trace(const char *file, const char *output, bool json)
{
	struct r0_trace_header h;
	struct r0_profile p;
	char dev[sizeof(h.name) + 8];
	const char *path = dev, *kname = h.name;
	uint64_t maxreq = 0;
	struct r0_profile_meta meta;
	int rc;

	/* a file that is no whole trace is refused: nothing was written yet */
	if (profile_read_trace(file, &h, &p))
		return R0_EXIT_REFUSED;
	/* a whole trace of no request (a header alone, an idle recording) describes no workload */
	if (!p.reads && !p.writes && !p.discards) {
		fprintf(stderr, PROG ": %s: the trace holds no read, write or discard: nothing to profile\n", file);
		return R0_EXIT_REFUSED;
	}
	/* a block trace names the device it recorded; another format only a name: its file stands */
	if (h.format == R0_TRACE_FMT_R0TRACE)
		snprintf(dev, sizeof(dev), "/dev/%s", h.name);
	else
		path = file;
	meta = (struct r0_profile_meta){
		.tool = r0_cli_tool_id(PROG), .n_dev = 1, .dev_path = &path, .dev_kname = &kname,
		.dev_max_request_bytes = &maxreq, .start_epoch_s = (int64_t)(h.start_epoch_us / 1000000),
		.end_epoch_s = (int64_t)(h.start_epoch_us / 1000000 + (uint64_t)p.seconds), .interval_s = 1,
		.from_trace = true,
	};
	if (!json && !(h.flags & (R0_TRACE_QD_QUEUE | R0_TRACE_QD_ISSUE)))
		fprintf(stderr, PROG ": %s: no completions in the trace: weights by requests, small random "
			"ones counted at QD1\n", file);
	rc = profile_emit(&p, &meta, output, json, NULL, NULL);
	return rc ? rc : r0_cli_close_stdout(PROG);
}

/* --export-iolog / --export-blktrace OUT: TRACE in another format. */
int profile_export(const char *trace, const char *out, enum r0_trace_format fmt)
{
	struct r0_trace_export_stats st = { 0 };
	struct r0_trace_header h;
	struct r0_trace_reader *r;
	int err;

	/* a trace that cannot be read is refused before OUT is touched */
	if ((err = r0_trace_reader_open(trace, &h, &r))) {
		struct r0_trace_fault fault;
		char why[512];
		const char *t;

		r0_trace_open_fault(err, &fault);
		t = r0_trace_fault_text(err, &fault, why, sizeof(why));
		fprintf(stderr, PROG ": %s: %s\n", trace, t ? t : strerror(-err));
		return R0_EXIT_REFUSED;
	}
	r0_trace_reader_free(r);
	if ((err = r0_trace_export(trace, fmt, out, &st))) {
		char where[512];
		/* damaged or cut as --from-trace says it: the reader's own account, not a guess */
		const char *t = err != -EIO ? r0_trace_fault_text(err, &st.fault, where, sizeof(where)) : NULL;

		fprintf(stderr, PROG ": %s: exporting to %s: %s (nothing written)\n", trace, out, t ? t : strerror(-err));
		/* the trace's fault is a refusal, as --from-trace's: OUT is left as it was either way */
		return t ? R0_EXIT_REFUSED : R0_EXIT_FAILURE;
	}
	fprintf(stderr, PROG ": %s: %s: %llu reads (%llu bytes), %llu writes (%llu bytes), %llu discards, "
		"%llu flushes%s\n", out, r0_trace_format_name(fmt), (unsigned long long)st.reads,
		(unsigned long long)st.read_bytes, (unsigned long long)st.writes, (unsigned long long)st.write_bytes,
		(unsigned long long)st.discards, (unsigned long long)st.flushes,
		fmt == R0_TRACE_FMT_IOLOG3 ? " (requests only: no completions in an iolog)" : "");
	if (st.retried)
		fprintf(stderr, PROG ": %s: %llu requests queued again by the kernel after a refused nonblocking "
			"attempt: %s\n", out, (unsigned long long)st.retried,
			fmt == R0_TRACE_FMT_IOLOG3 ? "each written once, as the submitter asked once"
						   : "both queues kept, as the kernel recorded them");
	return r0_cli_close_stdout(PROG);
}
