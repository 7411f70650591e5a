// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of r0/ftl.h: invariants after random operation sequences,
 * data kept and trimmed, the time model, and steady-state write
 * amplification against the analytic figures (Desnoyers, SYSTOR 2012).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/ftl.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift64: a fixed seed makes every figure reproducible */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void seed(uint64_t s)
{
	rng_state = s ? s : 88172645463325252ull;
}

static void expect_consistent(const struct r0_ftl *f, const char *when)
{
	char why[256] = "";

	cr_assert_eq(r0_ftl_check(f, why, sizeof(why)), 0, "%s: %s", when, why);
}

/*
 * A device of `blocks` data blocks of ppb pages whose logical size makes
 * the spare exactly `spare` of the data blocks (no rounding up).
 */
static struct r0_ftl *device(uint32_t blocks, uint32_t ppb, double spare, enum r0_ftl_victim v,
			     bool keep_data)
{
	struct r0_ftl_config c;
	struct r0_ftl *f;

	r0_ftl_config_default(&c, (uint64_t)(blocks * (double)ppb * (1.0 - spare) + 1e-6));
	c.pages_per_block = ppb;
	c.spare_fraction = spare;
	c.victim = v;
	c.keep_data = keep_data;
	cr_assert_eq(r0_ftl_data_blocks(&c), blocks, "data blocks for %u x %u at %.3f", blocks, ppb, spare);
	f = r0_ftl_new(&c);
	cr_assert_not_null(f, "r0_ftl_new: %s", strerror(errno));
	return f;
}

static void fill_sequential(struct r0_ftl *f, uint64_t first, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(r0_ftl_write(f, first + i, 1, NULL, 0, NULL), 0);
}

static void random_writes(struct r0_ftl *f, uint64_t span, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(r0_ftl_write(f, rnd() % span, 1, NULL, 0, NULL), 0);
}

static double measure_waf(struct r0_ftl *f, uint64_t span, uint64_t n)
{
	struct r0_ftl_stats a, b;

	r0_ftl_get_stats(f, &a);
	random_writes(f, span, n);
	r0_ftl_get_stats(f, &b);
	return r0_ftl_waf(&a, &b);
}

/* ---- configuration ---- */

Test(ftl, config_checked)
{
	struct r0_ftl_config c;

	r0_ftl_config_default(&c, 1000);
	cr_expect_eq(c.page_bytes, 4096u);
	cr_expect_eq(c.pages_per_block, 256u);
	cr_expect_eq(c.timing.read_ns, 75000u);
	cr_expect_eq(c.timing.program_ns, 750000u);
	cr_expect_eq(c.timing.erase_ns, 3800000u);
	/* 1000 / 0.93 = 1075.3 pages: 5 blocks of 256 */
	cr_expect_eq(r0_ftl_data_blocks(&c), 5u);
	/* 0.5 spare of 1024 logical pages: exactly 8 blocks, no rounding up */
	c.logical_pages = 1024;
	c.spare_fraction = 0.5;
	cr_expect_eq(r0_ftl_data_blocks(&c), 8u);
	/* a tiny spare still leaves one block more than the data needs */
	c.spare_fraction = 0.001;
	cr_expect_eq(r0_ftl_data_blocks(&c), 5u);

	static const struct { uint64_t l; uint32_t pb, ppb; double sp; unsigned ch; } bad[] = {
		{ 0, 4096, 256, 0.07, 2 }, { 100, 4096, 1, 0.07, 2 }, { 100, 4096, 256, 0, 2 },
		{ 100, 4096, 256, 0.95, 2 }, { 100, 3000, 256, 0.07, 2 }, { 100, 256, 256, 0.07, 2 },
		{ 100, 4096, 256, -0.1, 2 }, { 100, 4096, 256, 0.07, 0 }, { 1ull << 33, 4096, 256, 0.07, 2 },
	};
	for (size_t i = 0; i < N(bad); i++) {
		c.logical_pages = bad[i].l;
		c.page_bytes = bad[i].pb;
		c.pages_per_block = bad[i].ppb;
		c.spare_fraction = bad[i].sp;
		c.timing.channels = bad[i].ch;
		errno = 0;
		cr_expect_null(r0_ftl_new(&c), "case %zu accepted", i);
		cr_expect_eq(errno, EINVAL, "case %zu: errno %d", i, errno);
	}
}

/* whole blocks and the reserve block: r0ssd's "7 %" 32 MiB device has more */
Test(ftl, effective_spare)
{
	struct r0_ftl_config c;

	r0_ftl_config_default(&c, (32 << 20) / 4096);
	cr_expect_eq(r0_ftl_data_blocks(&c), 35u);
	cr_expect(fabs(r0_ftl_spare_effective(&c, false) - (1 - 8192.0 / (35 * 256))) < 1e-12,
		  "32 MiB at 7 %%: %.4f", r0_ftl_spare_effective(&c, false));
	cr_expect(fabs(r0_ftl_spare_effective(&c, true) - (1 - 8192.0 / (36 * 256))) < 1e-12,
		  "32 MiB at 7 %%, with the reserve: %.4f", r0_ftl_spare_effective(&c, true));
	/* exact when L / (1 - spare) is whole blocks */
	c.logical_pages = 1024;
	c.spare_fraction = 0.5;
	cr_expect(fabs(r0_ftl_spare_effective(&c, false) - 0.5) < 1e-12);
	c.spare_fraction = 0.95;
	cr_expect_eq(r0_ftl_spare_effective(&c, false), 0.0, "an invalid configuration gives 0");
}

Test(ftl, ranges_checked)
{
	struct r0_ftl *f = device(4, 8, 0.25, R0_FTL_GREEDY, true);   /* 24 logical pages */
	char buf[4096];

	cr_expect_eq(r0_ftl_write(f, 0, 0, NULL, 0, NULL), -EINVAL);
	cr_expect_eq(r0_ftl_write(f, 24, 1, NULL, 0, NULL), -ERANGE);
	cr_expect_eq(r0_ftl_write(f, 20, 5, NULL, 0, NULL), -ERANGE);
	cr_expect_eq(r0_ftl_read(f, 23, 2, NULL, 0, NULL), -ERANGE);
	cr_expect_eq(r0_ftl_trim(f, UINT64_MAX, 2, 0, NULL), -ERANGE);
	cr_expect_eq(r0_ftl_read(f, 23, 1, buf, 0, NULL), 0);
	cr_expect_eq(r0_ftl_write(f, 20, 4, NULL, 0, NULL), 0);
	expect_consistent(f, "after range checks");
	r0_ftl_free(f);
}

/* ---- invariants and data ---- */

/*
 * Random writes (1-8 pages), trims and reads on a small device, checked
 * after every operation, with a shadow copy of what every page must read.
 */
static void random_sequence(enum r0_ftl_victim v)
{
	enum { BLOCKS = 12, PPB = 16, PB = 4096 };
	struct r0_ftl *f = device(BLOCKS, PPB, 0.25, v, true);
	struct r0_ftl_stats s;
	uint64_t L, *shadow;            /* the tag each page holds; 0 = zeros */
	char *buf = malloc(8 * PB), *want = malloc(PB);

	r0_ftl_get_stats(f, &s);
	L = s.logical_pages;
	shadow = calloc(L, sizeof(*shadow));
	cr_assert(buf && want && shadow);
	seed(7 + v);
	for (unsigned op = 0; op < 6000; op++) {
		uint64_t n = 1 + rnd() % 8, lpn = rnd() % (L - n + 1), kind = rnd() % 10;

		if (kind < 6) {
			for (uint64_t i = 0; i < n; i++) {
				uint64_t tag = ((uint64_t)op << 8) | (i + 1);
				for (unsigned k = 0; k < PB / 8; k++)
					memcpy(buf + i * PB + k * 8, &tag, 8);
				shadow[lpn + i] = tag;
			}
			cr_assert_eq(r0_ftl_write(f, lpn, n, buf, 0, NULL), 0);
		} else if (kind < 8) {
			cr_assert_eq(r0_ftl_trim(f, lpn, n, 0, NULL), 0);
			for (uint64_t i = 0; i < n; i++)
				shadow[lpn + i] = 0;
		} else {
			cr_assert_eq(r0_ftl_read(f, lpn, n, buf, 0, NULL), 0);
			for (uint64_t i = 0; i < n; i++) {
				for (unsigned k = 0; k < PB / 8; k++)
					memcpy(want + k * 8, &shadow[lpn + i], 8);
				cr_assert(memcmp(buf + i * PB, want, PB) == 0,
					  "op %u: page %llu does not read back", op, (unsigned long long)(lpn + i));
			}
		}
		if (op % 7 == 0 || op > 5900) {
			char when[64];
			snprintf(when, sizeof(when), "after op %u", op);
			expect_consistent(f, when);
		}
	}
	r0_ftl_get_stats(f, &s);
	cr_expect_gt(s.gc_runs, 100, "GC ran %llu times", (unsigned long long)s.gc_runs);
	cr_expect_eq(s.flash_program_pages, s.host_write_pages + s.gc_copy_pages);
	cr_expect_eq(s.valid_pages, s.mapped_pages);
	free(shadow);
	free(want);
	free(buf);
	r0_ftl_free(f);
}

Test(ftl, random_sequence_greedy) { random_sequence(R0_FTL_GREEDY); }
Test(ftl, random_sequence_fifo) { random_sequence(R0_FTL_FIFO); }

Test(ftl, data_kept_trimmed_and_zeros)
{
	struct r0_ftl *f = device(8, 16, 0.25, R0_FTL_GREEDY, true);
	char page[4096], got[2 * 4096], zero[4096] = { 0 };

	memset(page, 0xa5, sizeof(page));
	cr_assert_eq(r0_ftl_read(f, 3, 1, got, 0, NULL), 0);
	cr_expect(memcmp(got, zero, 4096) == 0, "a page never written reads zeros");
	cr_assert_eq(r0_ftl_write(f, 3, 1, page, 0, NULL), 0);
	cr_assert_eq(r0_ftl_write(f, 4, 1, page, 0, NULL), 0);
	cr_assert_eq(r0_ftl_read(f, 3, 2, got, 0, NULL), 0);
	cr_expect(memcmp(got, page, 4096) == 0 && memcmp(got + 4096, page, 4096) == 0);
	cr_assert_eq(r0_ftl_trim(f, 3, 1, 0, NULL), 0);
	cr_assert_eq(r0_ftl_read(f, 3, 2, got, 0, NULL), 0);
	cr_expect(memcmp(got, zero, 4096) == 0, "a trimmed page reads zeros");
	cr_expect(memcmp(got + 4096, page, 4096) == 0, "its neighbour is kept");
	cr_assert_eq(r0_ftl_write(f, 4, 1, NULL, 0, NULL), 0);
	cr_assert_eq(r0_ftl_read(f, 4, 1, got, 0, NULL), 0);
	cr_expect(memcmp(got, zero, 4096) == 0, "a write without data stores zeros");
	expect_consistent(f, "data");
	r0_ftl_free(f);

	f = device(8, 16, 0.25, R0_FTL_GREEDY, false);
	cr_assert_eq(r0_ftl_write(f, 3, 1, page, 0, NULL), 0);
	cr_assert_eq(r0_ftl_read(f, 3, 1, got, 0, NULL), 0);
	cr_expect(memcmp(got, zero, 4096) == 0, "without keep_data every read is zeros");
	r0_ftl_free(f);
}

Test(ftl, trim_counts)
{
	struct r0_ftl *f = device(8, 16, 0.25, R0_FTL_GREEDY, false);   /* 96 logical pages */
	struct r0_ftl_stats s;

	fill_sequential(f, 0, 96);
	cr_assert_eq(r0_ftl_trim(f, 10, 20, 0, NULL), 0);
	cr_assert_eq(r0_ftl_trim(f, 0, 96, 0, NULL), 0);   /* partly trimmed already */
	r0_ftl_get_stats(f, &s);
	cr_expect_eq(s.host_trim_pages, 116u);
	cr_expect_eq(s.mapped_pages, 0u);
	cr_expect_eq(s.valid_pages, 0u);
	cr_expect_eq(s.flash_program_pages, 96u, "a trim programs nothing");
	expect_consistent(f, "trim");
	r0_ftl_free(f);
}

/* ---- write amplification ---- */

Test(ftl, sequential_overwrite_waf_is_one)
{
	struct r0_ftl *f = device(64, 256, 0.07, R0_FTL_GREEDY, false);
	struct r0_ftl_stats a, b;
	uint64_t L;

	r0_ftl_get_stats(f, &a);
	L = a.logical_pages;
	fill_sequential(f, 0, L);
	r0_ftl_get_stats(f, &a);
	/* four whole-device overwrites, in 128K (32-page) requests and a tail */
	for (int pass = 0; pass < 4; pass++)
		for (uint64_t l = 0; l < L; l += 32)
			cr_assert_eq(r0_ftl_write(f, l, L - l < 32 ? L - l : 32, NULL, 0, NULL), 0);
	r0_ftl_get_stats(f, &b);
	cr_expect_eq(b.host_write_pages - a.host_write_pages, 4 * L);
	cr_expect_eq(b.gc_copy_pages, 0u, "GC copied %llu pages", (unsigned long long)b.gc_copy_pages);
	cr_expect_gt(b.gc_runs, 0u, "GC reclaimed the overwritten blocks");
	cr_expect_eq(r0_ftl_waf(&a, &b), 1.0, "WAF %.4f", r0_ftl_waf(&a, &b));
	expect_consistent(f, "sequential");
	r0_ftl_free(f);
}

/*
 * Steady state under uniform random single-page overwrite: a sequential
 * fill, 15 x the capacity of random writes, then WAF over 5 x the
 * capacity. 256 data blocks of 256 pages (or 1024 of 64): the figures are
 * within 1 % of those of 4096 blocks, at a fraction of the time.
 */
struct waf_case {
	uint32_t blocks, ppb;
	double spare;
	enum r0_ftl_victim victim;
	double want;
};

static double steady_waf(const struct waf_case *k)
{
	struct r0_ftl *f = device(k->blocks, k->ppb, k->spare, k->victim, false);
	struct r0_ftl_stats s;
	double waf;

	r0_ftl_get_stats(f, &s);
	seed(42);
	fill_sequential(f, 0, s.logical_pages);
	random_writes(f, s.logical_pages, 15 * s.logical_pages);
	waf = measure_waf(f, s.logical_pages, 5 * s.logical_pages);
	expect_consistent(f, "steady state");
	r0_ftl_free(f);
	return waf;
}

/* The spare the model of a waf_case really has (r0ssd prints the same figure). */
static double effective_spare(const struct waf_case *k)
{
	struct r0_ftl_config c;

	r0_ftl_config_default(&c, (uint64_t)(k->blocks * (double)k->ppb * (1.0 - k->spare) + 1e-6));
	c.pages_per_block = k->ppb;
	c.spare_fraction = k->spare;
	return r0_ftl_spare_effective(&c, false);
}

/* The analytic figures are for a spare: the model's effective one must be it. */
static double expect_waf(const struct waf_case *k)
{
	double waf = steady_waf(k), spare = effective_spare(k);

	cr_log_info("WAF %u pages/block, effective spare %.4f, %s: %.3f (analytic %.2f)", k->ppb,
		    spare, k->victim == R0_FTL_FIFO ? "FIFO" : "greedy", waf, k->want);
	cr_expect(fabs(spare - k->spare) < 0.0005, "effective spare %.4f, the analytic figure is for %.3f",
		  spare, k->spare);
	cr_expect(fabs(waf - k->want) <= 0.02 * k->want,
		  "%u pages/block, spare %.3f, %s: WAF %.3f, analytic %.2f (2 %% allowed)", k->ppb,
		  spare, k->victim == R0_FTL_FIFO ? "FIFO" : "greedy", waf, k->want);
	return waf;
}

Test(ftl_waf, greedy_256_spare_7)    { expect_waf(&(struct waf_case){ 256, 256, 0.07, R0_FTL_GREEDY, 7.1 }); }
Test(ftl_waf, greedy_256_spare_12_5) { expect_waf(&(struct waf_case){ 256, 256, 0.125, R0_FTL_GREEDY, 4.1 }); }
Test(ftl_waf, greedy_256_spare_25)   { expect_waf(&(struct waf_case){ 256, 256, 0.25, R0_FTL_GREEDY, 2.2 }); }
Test(ftl_waf, greedy_256_spare_28)   { expect_waf(&(struct waf_case){ 256, 256, 0.28, R0_FTL_GREEDY, 2.0 }); }
Test(ftl_waf, greedy_256_spare_50)   { expect_waf(&(struct waf_case){ 256, 256, 0.50, R0_FTL_GREEDY, 1.25 }); }
Test(ftl_waf, greedy_64_spare_7)     { expect_waf(&(struct waf_case){ 1024, 64, 0.07, R0_FTL_GREEDY, 6.6 }); }

Test(ftl_waf, fifo_7_worse_than_greedy)
{
	struct waf_case fifo = { 256, 256, 0.07, R0_FTL_FIFO, 7.3 };
	struct waf_case greedy = { 256, 256, 0.07, R0_FTL_GREEDY, 7.1 };
	double wf, wg;

	wf = expect_waf(&fifo);
	wg = steady_waf(&greedy);
	cr_expect_gt(wf, wg, "FIFO %.3f should be worse than greedy %.3f", wf, wg);
}

/*
 * From steady state at 7 % spare, the host stops using the last quarter of
 * the space: trimmed, it becomes spare (WAF near 1.85); left written, it is
 * data GC must keep (WAF stays near 7.1).
 */
static double quarter_idle_waf(bool trim)
{
	struct r0_ftl *f = device(256, 256, 0.07, R0_FTL_GREEDY, false);
	struct r0_ftl_stats s;
	uint64_t L, used;
	double waf;

	r0_ftl_get_stats(f, &s);
	L = s.logical_pages;
	used = L * 3 / 4;
	seed(43);
	fill_sequential(f, 0, L);
	random_writes(f, L, 15 * L);
	if (trim)
		cr_assert_eq(r0_ftl_trim(f, used, L - used, 0, NULL), 0);
	random_writes(f, used, 15 * L);
	waf = measure_waf(f, used, 5 * L);
	r0_ftl_get_stats(f, &s);
	cr_expect_eq(s.mapped_pages, trim ? used : L);
	expect_consistent(f, "quarter idle");
	r0_ftl_free(f);
	return waf;
}

Test(ftl_waf, trim_quarter_then_write_the_rest)
{
	double waf = quarter_idle_waf(true);

	cr_log_info("WAF after trimming 25 %% at 7 %% spare: %.3f (expected ~1.85)", waf);
	cr_expect(fabs(waf - 1.85) <= 0.02 * 1.85, "WAF %.3f, expected 1.85 within 2 %%", waf);
}

Test(ftl_waf, idle_quarter_without_trim)
{
	double waf = quarter_idle_waf(false);

	cr_log_info("WAF with 25 %% left idle, untrimmed, at 7 %% spare: %.3f (expected ~7.1)", waf);
	cr_expect(fabs(waf - 7.1) <= 0.02 * 7.1, "WAF %.3f, expected 7.1 within 2 %%", waf);
}

/* ---- time model ---- */

Test(ftl_time, fresh_device)
{
	struct r0_ftl *f = device(8, 16, 0.25, R0_FTL_GREEDY, false);   /* 4 units by default */
	uint64_t done, t0 = 1000000;

	cr_assert_eq(r0_ftl_write(f, 0, 1, NULL, t0, &done), 0);
	cr_expect_eq(done - t0, 750000u, "one page program");
	/* the next 3 go to the 3 idle units, the 5th waits for the first */
	for (int i = 1; i < 4; i++) {
		cr_assert_eq(r0_ftl_write(f, (uint64_t)i, 1, NULL, t0, &done), 0);
		cr_expect_eq(done - t0, 750000u, "write %d in parallel", i);
	}
	cr_assert_eq(r0_ftl_write(f, 4, 1, NULL, t0, &done), 0);
	cr_expect_eq(done - t0, 1500000u, "a 5th write queues behind a unit");
	/* an 8-page request over 4 units takes two program times */
	t0 = 10000000;
	cr_assert_eq(r0_ftl_write(f, 8, 8, NULL, t0, &done), 0);
	cr_expect_eq(done - t0, 1500000u);
	t0 = 20000000;
	cr_assert_eq(r0_ftl_read(f, 8, 1, NULL, t0, &done), 0);
	cr_expect_eq(done - t0, 75000u, "one page read");
	cr_assert_eq(r0_ftl_read(f, 50, 4, NULL, t0, &done), 0);
	cr_expect_eq(done, t0, "unmapped pages cost no flash time");
	cr_assert_eq(r0_ftl_trim(f, 0, 8, t0, &done), 0);
	cr_expect_eq(done, t0, "trim costs no flash time");
	r0_ftl_free(f);
}

Test(ftl_time, foreground_gc_slows_writes)
{
	struct r0_ftl *f = device(64, 256, 0.07, R0_FTL_GREEDY, false);
	struct r0_ftl_stats s, a;
	uint64_t L, now = 0, done, fresh_ns, used_ns;
	double waf, model_ns;

	r0_ftl_get_stats(f, &s);
	L = s.logical_pages;
	seed(44);
	/* fresh: 4K writes at the rate the units sustain, one after the other */
	for (uint64_t i = 0; i < L / 2; i++) {
		cr_assert_eq(r0_ftl_write(f, i, 1, NULL, now, &done), 0);
		now = done;
	}
	fresh_ns = now / (L / 2);
	fill_sequential(f, L / 2, L - L / 2);
	random_writes(f, L, 10 * L);
	r0_ftl_get_stats(f, &a);
	now = done = 1ull << 50;
	for (uint64_t i = 0; i < L; i++) {
		cr_assert_eq(r0_ftl_write(f, rnd() % L, 1, NULL, now, &done), 0);
		now = done;
	}
	used_ns = (now - (1ull << 50)) / L;
	r0_ftl_get_stats(f, &s);
	cr_log_info("QD1 4K write: fresh %.0f us, steady state %.0f us (WAF %.2f)", fresh_ns / 1e3,
		    used_ns / 1e3, r0_ftl_waf(&a, &s));
	cr_expect_eq(fresh_ns, 750000u, "a fresh device writes at one program time");
	/*
	 * each host page costs WAF - 1 copies (read + program) and WAF / 256
	 * erases spread over the 4 units, then its own program
	 */
	waf = r0_ftl_waf(&a, &s);
	model_ns = 750e3 + ((waf - 1) * (75e3 + 750e3) + waf / 256 * 3.8e6) / 4;
	cr_expect(fabs(used_ns - model_ns) <= 0.1 * model_ns, "steady state: %llu ns a write, model %.0f",
		  (unsigned long long)used_ns, model_ns);
	cr_expect_gt(s.gc_stall_ns, a.gc_stall_ns, "the host waited for foreground GC");
	r0_ftl_free(f);
}
