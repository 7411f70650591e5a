// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/predict.h: the splitter against the geometry, the model on synthetic drives. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <criterion/criterion.h>

#include "r0/predict.h"
#include "r0/preset.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define MEMBER_SECTORS (64ull * MIB / 512)

static struct r0_geometry geo(enum r0_backend be, uint32_t chunk, unsigned n)
{
	uint64_t sizes[R0_MAX_MEMBERS];
	struct r0_geometry g;

	for (unsigned i = 0; i < n; i++)
		sizes[i] = MEMBER_SECTORS;
	cr_assert_eq(r0_geometry_init(&g, be, chunk, n, sizes, NULL, R0_MD_LAYOUT_ORIG), 0);
	return g;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	return b ? gcd(b, a % b) : a;
}

/* Every sector of every request of one period mapped on its own: the split must agree. */
static void check_split(enum r0_backend be, uint32_t chunk, unsigned n,
			const struct r0_predict_workload *w)
{
	struct r0_geometry g = geo(be, chunk, n);
	struct r0_predict_split s;
	uint64_t step = w->access == R0_ACCESS_SEQ || !w->align_bytes ? w->block_bytes : w->align_bytes;
	uint64_t period = (uint64_t)chunk * n, k_total = period / gcd(step, period);
	double want[R0_MAX_MEMBERS] = { 0 }, touched = 0, sum = 0;

	cr_assert_leq(k_total, R0_PREDICT_MAX_OFFSETS, "the test needs a whole period");
	cr_assert_eq(r0_predict_split(&g, w, &s), 0);
	cr_assert_eq(s.n_offsets, k_total);
	for (uint64_t k = 0; k < k_total; k++) {
		uint64_t start = k * step % period / 512;
		bool hit[R0_MAX_MEMBERS] = { false };

		for (uint64_t sec = start; sec < start + w->block_bytes / 512; sec++) {
			unsigned m;
			uint64_t ms;

			cr_assert_eq(r0_geometry_map(&g, sec, &m, &ms), 0);
			want[m] += 512;
			hit[m] = true;
		}
		for (unsigned m = 0; m < n; m++)
			touched += hit[m];
	}
	for (unsigned m = 0; m < n; m++) {
		cr_expect(fabs(s.member_bytes[m] - want[m] / k_total) < 1e-6,
			  "%s chunk %u n %u bs %u: member %u gets %.1f bytes, geometry says %.1f",
			  be == R0_BACKEND_MD ? "md" : "dm", chunk, n, w->block_bytes, m,
			  s.member_bytes[m], want[m] / k_total);
		sum += s.member_bytes[m];
	}
	cr_expect(fabs(sum - w->block_bytes) < 1e-6, "totals %.1f != %u", sum, w->block_bytes);
	cr_expect(fabs(s.mean_members - touched / k_total) < 1e-9);
	cr_expect(fabs(s.member_qd - w->queue_depth * s.mean_members / n) < 1e-9);
}

Test(predict, split_matches_geometry_every_chunk_and_count)
{
	static const struct r0_predict_workload ws[] = {
		{ R0_ACCESS_RAND, 100, 4 * KIB, 0, 1 },
		{ R0_ACCESS_RAND, 100, 128 * KIB, 4 * KIB, 32 },   /* straddles chunks */
		{ R0_ACCESS_RAND, 0, 64 * KIB, 2 * KIB, 4 },
		{ R0_ACCESS_SEQ, 100, 1 * MIB, 0, 1 },
	};
	static const uint32_t dm_chunks[] = { 12 * KIB, 20 * KIB, 192 * KIB };

	for (unsigned n = 1; n <= 4; n++) {
		for (uint32_t c = 4 * KIB; c <= 1 * MIB; c *= 2)
			for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
				check_split(R0_BACKEND_MD, c, n, &ws[i]);
				check_split(R0_BACKEND_DM, c, n, &ws[i]);
			}
		for (size_t c = 0; c < sizeof(dm_chunks) / sizeof(dm_chunks[0]); c++)
			for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++)
				check_split(R0_BACKEND_DM, dm_chunks[c], n, &ws[i]);
	}
}

Test(predict, split_rejects_bad_workloads)
{
	struct r0_geometry g = geo(R0_BACKEND_MD, 64 * KIB, 2);
	struct r0_predict_split s;
	struct r0_predict_workload w = { R0_ACCESS_RAND, 100, 4 * KIB, 0, 0 };

	cr_expect_eq(r0_predict_split(&g, &w, &s), -EINVAL);   /* depth 0 */
	w.queue_depth = 1;
	w.block_bytes = 1000;
	cr_expect_eq(r0_predict_split(&g, &w, &s), -EINVAL);
	w.block_bytes = 256 * MIB;   /* larger than the array */
	cr_expect_eq(r0_predict_split(&g, &w, &s), -ERANGE);
}

/* A drive limited only by bandwidth: BPS at any block and depth. */
static void bandwidth_drive(struct r0_predict_curve *c, double bps)
{
	for (int rw = 0; rw < 2; rw++)
		for (uint32_t b = 4 * KIB; b <= 4 * MIB; b *= 4)
			for (double q = 1; q <= 64; q *= 2) {
				struct r0_predict_point p = { R0_ACCESS_RAND, rw ? 100 : 0, b, q, bps,
							      q * b / bps * 1e9, 0, 0 };

				cr_assert_eq(r0_predict_curve_add(c, &p), 0);
			}
}

/* A drive limited only by latency: every request takes LAT_NS, any number in parallel. */
static void latency_drive(struct r0_predict_curve *c, double lat_ns)
{
	for (uint32_t b = 4 * KIB; b <= 4 * MIB; b *= 4)
		for (double q = 1; q <= 64; q *= 2) {
			struct r0_predict_point p = { R0_ACCESS_RAND, 100, b, q, q * b / (lat_ns / 1e9),
						      lat_ns, 0, 0 };

			cr_assert_eq(r0_predict_curve_add(c, &p), 0);
		}
}

static struct r0_predict_result predict(unsigned n, uint32_t chunk, const struct r0_predict_workload *w,
				       const struct r0_predict_curve *c, const struct r0_predict_opts *o)
{
	struct r0_geometry g = geo(R0_BACKEND_MD, chunk, n);
	struct r0_predict_result r;

	cr_assert_eq(r0_predict(&g, w, c, o, &r), 0);
	return r;
}

Test(predict, curve_interpolates_and_extrapolates)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_point a = { R0_ACCESS_RAND, 100, 4 * KIB, 1, 40e6, 100e3, 0, 0 };
	struct r0_predict_point b = { R0_ACCESS_RAND, 100, 4 * KIB, 4, 160e6, 100e3, 0, 0 };
	double bps, p50;

	cr_assert_eq(r0_predict_curve_add(&c, &a), 0);
	cr_assert_eq(r0_predict_curve_add(&c, &b), 0);
	cr_expect_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 0, 4 * KIB, 1, &bps, &p50), -ENOENT);
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 100, 4 * KIB, 2, &bps, &p50), 0);
	cr_expect(fabs(bps - 80e6) < 1, "log-log midpoint: %f", bps);
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 100, 4 * KIB, 0.5, &bps, &p50), 0);
	cr_expect(fabs(bps - 20e6) < 1 && fabs(p50 - 100e3) < 1, "below the grid the drive idles");
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 100, 4 * KIB, 8, &bps, &p50), 0);
	cr_expect(fabs(bps - 160e6) < 1 && fabs(p50 - 200e3) < 1, "above it requests wait");
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_SEQ, 100, 8 * KIB, 1, &bps, &p50), 0);
	cr_expect(fabs(bps - 40e6) < 1 && fabs(p50 - 200e3) < 1, "larger blocks: bytes/s stay");
	r0_predict_curve_free(&c);
}

Test(predict, bandwidth_drive_scales_n_times_for_large_requests)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 };

	bandwidth_drive(&c, 100e6);
	for (unsigned n = 1; n <= 4; n++) {
		struct r0_predict_workload seq = { R0_ACCESS_SEQ, 100, n * 256 * KIB, 0, 1 };
		struct r0_predict_workload rnd = { R0_ACCESS_RAND, 0, 1 * MIB, 0, 32 };
		struct r0_predict_result r = predict(n, 64 * KIB, &seq, &c, &o);

		cr_expect(fabs(r.bytes_per_s / 100e6 - n) < 0.01 * n, "seq n=%u: %.3fx", n,
			  r.bytes_per_s / 100e6);
		r = predict(n, 64 * KIB, &rnd, &c, &o);
		cr_expect(fabs(r.bytes_per_s / 100e6 - n) < 0.03 * n, "rand QD32 n=%u: %.3fx", n,
			  r.bytes_per_s / 100e6);
	}
	r0_predict_curve_free(&c);
}

Test(predict, latency_drive_does_not_scale_at_qd1)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 }, layer = { .layer_cost_ns = 10e3 };
	struct r0_predict_workload w4k = { R0_ACCESS_RAND, 100, 4 * KIB, 0, 1 };
	struct r0_predict_workload w1m = { R0_ACCESS_SEQ, 100, 1 * MIB, 0, 1 };

	latency_drive(&c, 100e3);
	for (unsigned n = 1; n <= 4; n++) {
		struct r0_predict_result r = predict(n, 64 * KIB, &w4k, &c, &o);

		cr_expect(fabs(r.iops - 10e3) < 1, "4K QD1 n=%u: %.1f IOPS", n, r.iops);
		cr_expect(fabs(r.p50_ns - 100e3) < 1);
		r = predict(n, 64 * KIB, &w1m, &c, &o);
		cr_expect(fabs(r.iops - 10e3) < 1, "1M QD1 n=%u: %.1f IOPS", n, r.iops);
		r = predict(n, 64 * KIB, &w4k, &c, &layer);   /* the layer makes it slower */
		cr_expect(fabs(r.iops - 1e9 / 110e3) < 1, "with the layer n=%u: %.1f", n, r.iops);
	}
	r0_predict_curve_free(&c);
}

/*
 * A tail: the median request takes 100 us, the mean 150 (6667 IOPS at QD1).
 * Q / mean time is the rate (Little's law): md of n at QD1 stays at one
 * drive's IOPS. With the p50 the model read 1.30x for 4K QD1 on md of 2 and
 * 3 sata-real members, which measured 1.0-1.1x.
 */
Test(predict, a_drive_with_a_latency_tail_does_not_scale_at_qd1)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 };
	struct r0_predict_workload w4k = { R0_ACCESS_RAND, 100, 4 * KIB, 0, 1 };

	for (double q = 1; q <= 32; q *= 2) {
		struct r0_predict_point p = { R0_ACCESS_RAND, 100, 4 * KIB, q, q * 4096 / 150e-6, 100e3, 0, 0 };

		cr_assert_eq(r0_predict_curve_add(&c, &p), 0);
	}
	for (unsigned n = 1; n <= 4; n++) {
		struct r0_predict_result r = predict(n, 64 * KIB, &w4k, &c, &o);

		cr_expect(fabs(r.iops - 1e6 / 150) < 1, "4K QD1 n=%u: %.1f IOPS", n, r.iops);
	}
	r0_predict_curve_free(&c);
}

Test(predict, shared_cap_caps_the_total)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { .shared_cap_bytes_per_s = 250e6 };
	struct r0_predict_workload w = { R0_ACCESS_SEQ, 100, 4 * 256 * KIB, 0, 1 };
	struct r0_predict_result r;

	bandwidth_drive(&c, 100e6);
	r = predict(4, 64 * KIB, &w, &c, &o);
	cr_expect(fabs(r.bytes_per_s - 250e6) < 1, "%.0f", r.bytes_per_s);
	cr_expect_eq(r.limit, R0_PREDICT_LIMIT_SHARED);
	r = predict(2, 64 * KIB, &w, &c, &o);   /* 200 MB/s: under the cap */
	cr_expect(fabs(r.bytes_per_s - 200e6) < 2e6, "%.0f", r.bytes_per_s);
	cr_expect_eq(r.limit, R0_PREDICT_LIMIT_MEMBERS);
	o = (struct r0_predict_opts){ .cpu_max_iops = 50 };
	r = predict(4, 64 * KIB, &w, &c, &o);
	cr_expect(fabs(r.iops - 50) < 1e-9);
	cr_expect_eq(r.limit, R0_PREDICT_LIMIT_CPU);
	r0_predict_curve_free(&c);
}

/* a cap near 0 made the latency infinite (negative once an integer): below 1 MB/s is refused */
Test(predict, a_shared_cap_near_0_is_refused)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_workload w = { R0_ACCESS_SEQ, 100, 4 * 256 * KIB, 0, 1 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 64 * KIB, 2);
	static const double bad[] = { 1e-300, 0.5, 999999, -1, NAN, INFINITY };
	struct r0_predict_result r;

	bandwidth_drive(&c, 100e6);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct r0_predict_opts o = { .shared_cap_bytes_per_s = bad[i] };

		cr_expect_eq(r0_predict(&g, &w, &c, &o, &r), -EINVAL, "%g", bad[i]);
	}
	r = predict(2, 64 * KIB, &w, &c, &(struct r0_predict_opts){ .shared_cap_bytes_per_s = R0_PREDICT_SHARED_CAP_MIN });
	cr_expect(fabs(r.bytes_per_s - 1e6) < 1 && isfinite(r.p50_ns) && r.p50_ns > 0, "%g %g", r.bytes_per_s, r.p50_ns);
	cr_expect_eq(r0_predict(&g, &w, &c, &(struct r0_predict_opts){ .cpu_max_iops = NAN }, &r), -EINVAL);
	r0_predict_curve_free(&c);
}

Test(predict, mixes_blend_both_directions)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 };
	struct r0_predict_workload w = { R0_ACCESS_RAND, 50, 4 * KIB, 0, 1 };
	struct r0_predict_point rd = { R0_ACCESS_RAND, 100, 4 * KIB, 1, 4096 / 100e-6, 100e3, 0, 0 };
	struct r0_predict_point wr = { R0_ACCESS_RAND, 0, 4 * KIB, 1, 4096 / 300e-6, 300e3, 0, 0 };
	struct r0_predict_result r;

	cr_assert_eq(r0_predict_curve_add(&c, &rd), 0);
	r0_predict_curve_add(&c, &wr);
	r = predict(1, 64 * KIB, &w, &c, &o);
	cr_expect(fabs(r.iops - 5000) < 1e-6, "half 100 us, half 300 us: %.3f", r.iops);
	r0_predict_curve_free(&c);
}

/* Every block size at every depth up to 1 MiB in flight, nothing deeper, two points again. */
Test(predict, preset_measures_the_whole_grid)
{
	const struct r0_preset *p = r0_preset_find("predict");
	static const unsigned qds[] = { 1, 2, 4, 8, 32 };
	size_t points = 0;

	cr_assert_not_null(p);
	cr_expect_eq(p->passes, R0_PREDICT_PASSES);
	cr_expect_eq(p->pass_ns, R0_PREDICT_PASS_NS);
	for (uint32_t b = 4 * KIB; b <= 1 * MIB; b = b == 128 * KIB ? 256 * KIB : b * (b < 64 * KIB ? 4 : 2))
		for (size_t q = 0; q < sizeof(qds) / sizeof(qds[0]); q++)
			for (unsigned rd = 0; rd <= 100; rd += 100) {
				size_t found = 0, want = (uint64_t)b * qds[q] <= 1 * MIB;
				/* measured again at the end (R0_PREDICT_MAX_DRIFT) */
				size_t again = (b == 4 * KIB && qds[q] == 1) || (b == 64 * KIB && qds[q] == 8);

				for (size_t i = 0; i < p->n_tests; i++)
					found += p->tests[i].w.block_bytes == b && p->tests[i].w.queue_depth == qds[q] &&
						 p->tests[i].w.read_pct == rd && p->tests[i].w.access == R0_ACCESS_RAND;
				cr_expect_eq(found, want + again, "bs %u qd %u read %u: %zu tests", b, qds[q], rd, found);
				points += want + again;
			}
	cr_expect_eq(p->n_tests, points);
	cr_expect_eq(points, 26 * 2);
	/* the points measured again come last, the grid's first of them */
	cr_expect_eq(p->tests[p->n_tests - 4].w.block_bytes, p->tests[0].w.block_bytes);
	cr_expect_eq(p->tests[p->n_tests - 4].w.queue_depth, p->tests[0].w.queue_depth);
}

/* A deeper point slower than a shallower one (a pass shorter than its queue) does not stand. */
Test(predict, deeper_never_slower_than_the_grid_shallower)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_point a = { R0_ACCESS_RAND, 100, 4 * KIB, 1, 40e6, 100e3, 0, 0 };
	struct r0_predict_point b = { R0_ACCESS_RAND, 100, 4 * KIB, 32, 10e6, 100e3, 0, 0 };
	double bps, p50;

	cr_assert_eq(r0_predict_curve_add(&c, &a), 0);
	cr_assert_eq(r0_predict_curve_add(&c, &b), 0);
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 100, 4 * KIB, 32, &bps, &p50), 0);
	cr_expect(fabs(bps - 40e6) < 1, "%.0f", bps);
	cr_assert_eq(r0_predict_curve_at(&c, R0_ACCESS_RAND, 100, 4 * KIB, 8, &bps, &p50), 0);
	cr_expect(fabs(bps - 40e6) < 1, "%.0f", bps);
	r0_predict_curve_free(&c);
}

/*
 * A token bucket: 512K reads at 45 MB/s at QD1 and 50 from QD2 (the
 * bandwidth is nearly reached at QD1), 11.7 ms a request back to back, but
 * the fastest, on a full bucket, 3.4 ms (nvme-real's 512K QD1 point).
 * 512K random reads at QD1 over 512K chunks of 2: each member
 * rests half the time. Back to back: one drive's rate; rested: each member
 * at the drive's best 50 MB/s.
 */
static void bucket_drive(struct r0_predict_curve *c, double fastest_ns)
{
	for (uint32_t b = 256 * KIB; b <= 1 * MIB; b *= 2)
		for (double q = 1; q <= 4; q *= 2) {
			double bps = q == 1 ? 45e6 : 50e6;
			struct r0_predict_point p = { R0_ACCESS_RAND, 100, b, q, bps,
						      q * b / bps * 1e9, 0, fastest_ns * b / (512 * KIB) };

			cr_assert_eq(r0_predict_curve_add(c, &p), 0);
		}
}

Test(predict, rested_members_of_a_bucket_drive_are_held_to_its_bandwidth)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 }, rested = { .rested = true };
	struct r0_predict_workload w = { R0_ACCESS_RAND, 100, 512 * KIB, 0, 1 };
	struct r0_predict_workload seq = { R0_ACCESS_SEQ, 100, 1 * MIB, 0, 1 };
	struct r0_predict_result r;

	bucket_drive(&c, 3.4e6);
	r = predict(2, 512 * KIB, &w, &c, &o);
	cr_expect(fabs(r.bytes_per_s / 45e6 - 1) < 0.01, "back to back: %.1f MB/s", r.bytes_per_s / 1e6);
	cr_expect(r.rests);
	r = predict(2, 512 * KIB, &w, &c, &rested);
	cr_expect(fabs(r.bytes_per_s / 100e6 - 1) < 0.01, "rested: %.1f MB/s", r.bytes_per_s / 1e6);
	r = predict(3, 512 * KIB, &w, &c, &rested);   /* 154 MB/s if only the fastest time held */
	cr_expect(fabs(r.bytes_per_s / 150e6 - 1) < 0.01, "rested, 3: %.1f MB/s", r.bytes_per_s / 1e6);
	r = predict(2, 512 * KIB, &seq, &c, &rested);   /* no member rests: the reading does not apply */
	cr_expect(!r.rests);
	cr_expect(fabs(r.bytes_per_s / 90e6 - 1) < 0.01, "seq: %.1f MB/s", r.bytes_per_s / 1e6);
	r0_predict_curve_free(&c);
}

/* A drive whose QD1 is its latency (4 MB/s at QD1, 32 at QD8): a rest gains nothing, whatever its fastest request. */
Test(predict, rested_members_of_a_latency_drive_change_nothing)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 }, rested = { .rested = true };
	struct r0_predict_workload w = { R0_ACCESS_RAND, 100, 512 * KIB, 0, 1 };
	struct r0_predict_result a, b;

	for (double q = 1; q <= 8; q *= 2) {
		struct r0_predict_point p = { R0_ACCESS_RAND, 100, 512 * KIB, q, q * 4e6,
					      512 * KIB / 4e6 * 1e9, 0, 0.3 * 512 * KIB / 4e6 * 1e9 };

		cr_assert_eq(r0_predict_curve_add(&c, &p), 0);
	}
	a = predict(2, 512 * KIB, &w, &c, &o);
	b = predict(2, 512 * KIB, &w, &c, &rested);
	cr_expect(fabs(b.bytes_per_s / a.bytes_per_s - 1) < 1e-9, "%.3f", b.bytes_per_s / a.bytes_per_s);
	r0_predict_curve_free(&c);
}

/*
 * 1M sequential reads at QD1 over 2 x 512K chunks of a 100 MB/s drive whose
 * requests are at most 32K (16 a part): with 8 tags the thread submitting
 * member 0's part waits until 8 of them completed, half the part's time,
 * before it reaches member 1: 1.5 part times a request, 1.33x; with 32
 * tags, or 64K chunks (the thread alternates members), 2x. sata-real in the
 * sandbox (8 tags, 32K): 80 ms a request over 2 x 512K, 65 ms with 32 tags
 * (r0predict(1)).
 */
Test(predict, a_part_of_more_requests_than_tags_holds_back_the_next_member)
{
	struct r0_predict_curve c = { 0 };
	struct r0_predict_opts o = { 0 };
	struct r0_predict_workload seq = { R0_ACCESS_SEQ, 100, 1 * MIB, 0, 1 };
	struct r0_predict_result r;

	bandwidth_drive(&c, 100e6);
	c.max_request_bytes = 32 * KIB;
	c.tags = 8;
	r = predict(2, 512 * KIB, &seq, &c, &o);
	cr_expect(fabs(r.bytes_per_s / 100e6 - 4.0 / 3) < 0.01, "8 tags: %.3fx", r.bytes_per_s / 100e6);
	r = predict(2, 64 * KIB, &seq, &c, &o);
	cr_expect(fabs(r.bytes_per_s / 100e6 - 2) < 0.03, "64K chunks: %.3fx", r.bytes_per_s / 100e6);
	c.tags = 32;
	r = predict(2, 512 * KIB, &seq, &c, &o);
	cr_expect(fabs(r.bytes_per_s / 100e6 - 2) < 0.01, "32 tags: %.3fx", r.bytes_per_s / 100e6);
	r0_predict_curve_free(&c);
}
