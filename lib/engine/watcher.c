// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The caller's thread while the jobs run: the steady rule's samples and
 * the window it closes, progress, a stop, and the process's CPU time.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "r0/steady.h"
#include "job.h"

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

/*
 * How far ahead of the watcher's clock the window's new end must lie:
 * far more than the time its store takes to reach the job threads, so a
 * job that read its clock after the store sees the new end.
 */
#define R0_CLOSE_GUARD_NS 2000000ULL

/*
 * Moves the window's end to the boundary the rule chose, or to the first
 * boundary after now + the guard when the watcher is late for it. Not
 * at all when that is at or past the maximum: the run's time ends it.
 */
static void close_window(struct shared *sh, struct sampler *s, uint64_t now)
{
	uint64_t at = (uint64_t)(s->n + 1) * s->slice_ns, soonest = now + R0_CLOSE_GUARD_NS;

	if (sh->ramp_end_ns + at < soonest)
		at = ((soonest - sh->ramp_end_ns) / s->slice_ns + 1) * s->slice_ns;
	if (at >= s->max_ns)
		return;
	atomic_store(&sh->end_ns, sh->ramp_end_ns + at);
	s->closed = true;
}

/* Takes the samples whose boundaries NOW has passed and that lie in the window. */
static void sample(struct shared *sh, const struct job *jobs, unsigned n, struct sampler *s,
		   uint64_t now)
{
	while (s->on) {
		uint64_t b = sh->ramp_end_ns + (uint64_t)(s->n + 1) * s->slice_ns, bytes = 0;

		if (now < b || b > end_of(sh))
			return;
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 256;
			double *y = realloc(s->y, cap * sizeof(*y));

			if (!y) {   /* without its samples the rule cannot hold: the maximum ends it */
				s->on = false;
				return;
			}
			s->y = y;
			s->cap = cap;
		}
		for (unsigned i = 0; i < n; i++)
			bytes += atomic_load_explicit(&jobs[i].done_bytes, memory_order_relaxed);
		s->y[s->n++] = (double)(bytes - s->last_bytes);
		s->last_bytes = bytes;
		if (s->closed)
			continue;
		if (s->n >= s->rule.window)
			r0_steady_window(s->y + s->n - s->rule.window, &s->rule, &s->last);
		if (r0_steady_run_stop(s->y, s->n, &s->rule, s->slice_ns, s->min_ns, s->max_ns))
			close_window(sh, s, now);
	}
}

/* How long the watcher sleeps: 10 ms, or less to be at the next boundary. */
static uint64_t nap_ns(const struct shared *sh, const struct sampler *s, uint64_t now)
{
	uint64_t nap = 10000000ULL, b;

	if (!s->on)
		return nap;
	b = sh->ramp_end_ns + (uint64_t)(s->n + 1) * s->slice_ns;
	if (b > now && b - now < nap)
		nap = b - now;
	return nap < 100000ULL ? 100000ULL : nap;
}

/*
 * The caller's thread: progress, *stop turned into the jobs' abort, and
 * the CPU time of the whole process over the measured window: the job
 * threads and the kernel's io_uring workers (io-wq runs the I/O of devices
 * that cannot take it without blocking, zram for one), which the job
 * threads' own clocks miss.
 */
bool r0_watcher_run(struct shared *sh, struct job *jobs, unsigned n, const struct r0_run_opts *o,
		    struct sampler *smp, struct r0_result *res)
{
	const uint64_t every = (o && o->progress_ms ? o->progress_ms : 250) * 1000000ULL;
	uint64_t shown = sh->t0_ns;
	bool stopped = false, counting = false, counted = false;
	struct rusage ru0, ru1;

	for (;;) {
		/* done first: once the jobs are done, NOW is past the window's end */
		bool done = atomic_load(&sh->running) == 0;
		uint64_t now = r0_now_ns();

		sample(sh, jobs, n, smp, now);
		if (!counting && (now >= sh->ramp_end_ns || done)) {
			getrusage(RUSAGE_SELF, &ru0);
			counting = true;
		}
		if (counting && !counted && (done || (sh->time_based && now >= end_of(sh)))) {
			getrusage(RUSAGE_SELF, &ru1);
			res->user_s = tv_s(&ru1.ru_utime) - tv_s(&ru0.ru_utime);
			res->sys_s = tv_s(&ru1.ru_stime) - tv_s(&ru0.ru_stime);
			counted = true;
		}
		if (done)
			break;
		sleep_ns(nap_ns(sh, smp, now));
		now = r0_now_ns();
		if (o && o->stop && *o->stop && !stopped) {
			stopped = true;
			atomic_store(&sh->abort, 1);
		}
		if (o && o->progress && now - shown >= every) {
			struct r0_progress p = { 0 };

			shown = now;
			p.elapsed_s = (double)(now - sh->t0_ns) / 1e9;
			p.ramping = now < sh->ramp_end_ns;
			for (unsigned i = 0; i < n; i++) {
				p.ios += atomic_load_explicit(&jobs[i].done_ios, memory_order_relaxed);
				p.bytes += atomic_load_explicit(&jobs[i].done_bytes, memory_order_relaxed);
			}
			o->progress(&p, o->progress_arg);
		}
	}
	return stopped;
}
