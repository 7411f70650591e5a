// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench: one test's passes (warm-up, counted, --verify's read-back). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Runs one test: warm-up passes, counted passes, then --verify's read-back. */
int bench_run_test(struct run *run, struct r0_bench_test *t, const char **reason)
{
	struct r0_run_opts o = { .stop = run->stop };
	struct r0_result *scratch = NULL;
	unsigned total = run->warmup + run->passes;
	int ret = 0;

	t->passes = calloc(run->passes, sizeof(*t->passes));
	scratch = malloc(sizeof(*scratch));
	if (!t->passes || !scratch) {
		free(scratch);
		return -ENOMEM;
	}
	char what[128];

	if (run->tty) {
		o.progress = bench_progress;
		o.progress_arg = what;
	}
	r0_hist_reset(&t->lat);
	r0_hist_reset(&t->lat_op[R0_OP_READ]);
	r0_hist_reset(&t->lat_op[R0_OP_WRITE]);
	t->ran = true;
	for (unsigned p = 0; p < total; p++) {
		struct r0_result *r = p < run->warmup ? scratch : &t->passes[p - run->warmup];

		if (p < run->warmup)
			snprintf(what, sizeof(what), "%s %s, warm-up", t->label, r0_bench_rw_name(&t->w));
		else
			snprintf(what, sizeof(what), "%s %s, pass %u of %u", t->label, r0_bench_rw_name(&t->w),
				 p - run->warmup + 1, run->passes);

		ret = r0_engine_run(&run->target, &t->w, &o, r);
		if (p >= run->warmup && ret != -EINVAL && ret != -ENOMEM) {
			t->npasses = p - run->warmup + 1;
			r0_hist_merge(&t->lat, &r->lat);
			r0_hist_merge(&t->lat_op[R0_OP_READ], &r->lat_op[R0_OP_READ]);
			r0_hist_merge(&t->lat_op[R0_OP_WRITE], &r->lat_op[R0_OP_WRITE]);
		}
		if (ret == -EINTR) {
			*reason = "interrupted by a signal";
			break;
		}
		if (ret == -ETIMEDOUT) {
			fprintf(stderr, PROG ": %s: %s: no request completed for %g s: the device "
				"or the kernel stalls; the run is abandoned\n", run->target.path,
				t->label, (double)r0_workload_stall_ns(&t->w) / 1e9);
			*reason = "the device stalled";
			break;
		}
		if (ret) {
			fprintf(stderr, PROG ": %s: %s: cannot run: %s\n", run->target.path, t->label,
				strerror(-ret));
			*reason = "the engine could not run the test";
			break;
		}
		if (r->errors) {
			bench_print_error(run, r);
			*reason = "I/O error";
			ret = -EIO;
			if (!t->w.continue_on_error)
				break;
		}
		if (r->verify_bad_sectors) {
			bench_print_verify_fault(run, r);
			*reason = "verify failed";
			ret = -EILSEQ;
		}
	}
	if (run->tty)
		fputs("\r\033[K", stdout);
	if (!ret && t->w.verify == R0_VERIFY_WRITE) {
		/* read back what the pass wrote, in the same run */
		struct r0_workload v = t->w;

		v.verify = R0_VERIFY_READ;
		v.read_pct = 100;
		snprintf(what, sizeof(what), "%s, reading back", t->label);
		ret = r0_engine_run(&run->target, &v, &o, &t->verify);
		t->verified = ret == 0 || ret == -EINTR;
		if (ret == -EINTR)
			*reason = "interrupted by a signal";
		else if (ret)
			fprintf(stderr, PROG ": %s: %s: cannot read back: %s\n", run->target.path,
				t->label, strerror(-ret));
		else if (t->verify.errors) {
			bench_print_error(run, &t->verify);
			*reason = "I/O error";
			ret = -EIO;
		} else if (t->verify.verify_bad_sectors) {
			bench_print_verify_fault(run, &t->verify);
			*reason = "verify failed";
			ret = -EILSEQ;
		}
		if (run->tty)
			fputs("\r\033[K", stdout);
	}
	free(scratch);
	return ret;
}
