// SPDX-License-Identifier: GPL-2.0-or-later
/* Everyday work through a file system: copies, small files, application starts, unpacking (r0/everyday.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "r0/clock.h"
#include "r0/everyday.h"
#include "r0/prng.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024ULL)
#define COPY_PIECE (1 * MIB)        /* cp's buffer on a large file: 128K..1M; the device sees readahead and writeback anyway */
#define PAGE_IN_PIECE (32 * KIB)    /* a page fault's readahead window on a mapped library, about */
#define FILES_PER_DIR 100
#define APP_MAX_FILES 64            /* a desktop program maps a few dozen libraries */

static const struct {
	const char *name, *cls;
	unsigned read_pct;
	uint32_t piece;
} scenarios[R0_EVERYDAY_COUNT] = {
	[R0_EVERYDAY_COPY] = { "copy", "copy", 50, COPY_PIECE },
	[R0_EVERYDAY_SMALL_FILES] = { "small files", "small-files", 33, COPY_PIECE },
	[R0_EVERYDAY_APP_START] = { "app start", "app-start", 100, PAGE_IN_PIECE },
	[R0_EVERYDAY_APP_START_BUSY] = { "start in copy", "app-start-busy", 100, PAGE_IN_PIECE },
	[R0_EVERYDAY_UNPACK] = { "unpack", "unpack", 50, COPY_PIECE },
};

const char *r0_everyday_name(enum r0_everyday s)
{
	return (unsigned)s < R0_EVERYDAY_COUNT ? scenarios[s].name : NULL;
}

const char *r0_everyday_class(enum r0_everyday s)
{
	return (unsigned)s < R0_EVERYDAY_COUNT ? scenarios[s].cls : NULL;
}

unsigned r0_everyday_read_pct(enum r0_everyday s)
{
	return (unsigned)s < R0_EVERYDAY_COUNT ? scenarios[s].read_pct : 0;
}

uint32_t r0_everyday_piece_bytes(enum r0_everyday s)
{
	return (unsigned)s < R0_EVERYDAY_COUNT ? scenarios[s].piece : 0;
}

int r0_everyday_parse(const char *label, char *fs, size_t len, enum r0_everyday *s)
{
	const char *sp = strchr(label, ' ');

	if (!sp || (size_t)(sp - label) >= len)
		return -EINVAL;
	for (unsigned i = 0; i < R0_EVERYDAY_COUNT; i++)
		if (!strcmp(sp + 1, scenarios[i].name)) {
			snprintf(fs, len, "%.*s", (int)(sp - label), label);
			*s = (enum r0_everyday)i;
			return r0_everyday_fs_known(fs) ? 0 : -EINVAL;
		}
	return -EINVAL;
}

bool r0_everyday_fs_known(const char *fs)
{
	return !strcmp(fs, "ext4") || !strcmp(fs, "xfs");
}

uint64_t r0_everyday_fs_min_bytes(const char *fs)
{
	/* xfsprogs 5.19 and later refuse a file system below 300 MiB (Debian 12 has 6.1) */
	return !strcmp(fs, "xfs") ? 300 * MIB : R0_EVERYDAY_MIN_SCALE_BYTES;
}

/* --- sizes: fractions of the scale ----------------------------------- */

static uint64_t round_mib(uint64_t b)
{
	return b - b % MIB;
}

/* The large file: an eighth of the region (the review's 3 GB image on a 24 GB test, about) */
static uint64_t copy_bytes(uint64_t scale)
{
	return round_mib(scale / 8);
}

/* Small files in all: a sixteenth (the review's 2 GB of 20,000 files, scaled with the image) */
static uint64_t small_total_bytes(uint64_t scale)
{
	return round_mib(scale / 16);
}

/*
 * The program: its image (the review's 7 MB program) and its libraries,
 * each 1/128 of the region and 1 MiB at least, so even a small region's
 * start reads a few dozen pages from a dozen files.
 */
static uint64_t app_part_bytes(uint64_t scale)
{
	uint64_t b = scale / 128 < 1 * MIB ? 1 * MIB : scale / 128;

	return b - b % PAGE_IN_PIECE;
}

static uint64_t archive_bytes(uint64_t scale)
{
	return round_mib(scale / 16);
}

uint64_t r0_everyday_space_bytes(enum r0_everyday s, uint64_t scale)
{
	switch (s) {
	case R0_EVERYDAY_COPY:
		return 2 * copy_bytes(scale);
	case R0_EVERYDAY_SMALL_FILES:
		return 2 * small_total_bytes(scale) + small_total_bytes(scale) / 4;   /* + a block per file, at most */
	case R0_EVERYDAY_APP_START:
		return 2 * app_part_bytes(scale) + 1 * MIB;
	case R0_EVERYDAY_APP_START_BUSY:
		return 2 * copy_bytes(scale) + 2 * app_part_bytes(scale) + 1 * MIB;
	case R0_EVERYDAY_UNPACK:
		return 2 * archive_bytes(scale) + archive_bytes(scale) / 4;
	default:
		return 0;
	}
}

/*
 * File sizes from LO to HI, spread evenly on a log scale (a home
 * directory's sizes span orders of magnitude, most files small), until
 * TOTAL; each a multiple of 1 KiB. *N_OUT sizes in a new array, or NULL.
 */
static uint64_t *log_sizes(struct r0_prng *rng, uint64_t lo, uint64_t hi, uint64_t total, size_t max_n,
			   size_t *n_out)
{
	size_t n = 0, cap = 64;
	uint64_t sum = 0, *v = malloc(cap * sizeof(*v));

	while (v && sum < total && n < max_n) {
		double u = (double)(r0_prng_next(rng) >> 11) / (double)(1ULL << 53);
		uint64_t b = (uint64_t)((double)lo * exp(u * log((double)hi / (double)lo)));

		b = b < KIB ? KIB : b - b % KIB;
		if (n == cap) {
			uint64_t *g = realloc(v, 2 * cap * sizeof(*v));

			if (!g) {
				free(v);
				return NULL;
			}
			v = g;
			cap *= 2;
		}
		v[n++] = b;
		sum += b;
	}
	*n_out = n;
	return v;
}

/* --- files ------------------------------------------------------------ */

struct ctx {
	const struct r0_everyday_opts *o;
	struct r0_prng rng;
	char *buf;                  /* COPY_PIECE of pattern, rewritten per file */
	char dir[4096];             /* this run's own directory */
	struct r0_everyday_result *r;
};

static bool stopped(const struct ctx *c)
{
	return c->o->stop && *c->o->stop;
}

static void fill(struct ctx *c)
{
	uint64_t *w = (uint64_t *)c->buf;

	/* data a file system or drive cannot compress away */
	for (size_t i = 0; i < COPY_PIECE / sizeof(*w); i++)
		w[i] = r0_prng_next(&c->rng);
}

static int path_of(const struct ctx *c, char *p, size_t len, const char *fmt, size_t i)
{
	char leaf[64];

	snprintf(leaf, sizeof(leaf), fmt, i / FILES_PER_DIR, i);
	return snprintf(p, len, "%s/%s", c->dir, leaf) >= (int)len ? -ENAMETOOLONG : 0;
}

/* Makes DIR/<d> for the files of index I, once per FILES_PER_DIR. */
static int dir_for(const struct ctx *c, const char *prefix, size_t i)
{
	char p[4200];

	if (i % FILES_PER_DIR)
		return 0;
	snprintf(p, sizeof(p), "%s/%s%zu", c->dir, prefix, i / FILES_PER_DIR);
	return mkdir(p, 0700) && errno != EEXIST ? -errno : 0;
}

static int write_all(int fd, const char *b, size_t len, struct ctx *c, bool timed)
{
	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0) {
			if (errno == EINTR && !stopped(c))
				continue;
			return stopped(c) ? -EINTR : -errno;
		}
		b += n;
		len -= (size_t)n;
		if (timed) {
			c->r->written_bytes += (uint64_t)n;
			c->r->pieces++;
		}
	}
	return 0;
}

/* Writes BYTES of pattern to a new file PATH. */
static int make_file(struct ctx *c, const char *path, uint64_t bytes, bool timed)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), err = 0;

	if (fd < 0)
		return -errno;
	if (timed)
		c->r->files++;
	for (uint64_t done = 0; done < bytes && !err; done += COPY_PIECE) {
		uint64_t n = bytes - done < COPY_PIECE ? bytes - done : COPY_PIECE;

		if (stopped(c))
			err = -EINTR;
		else {
			if (!(done / COPY_PIECE % 16))
				fill(c);
			err = write_all(fd, c->buf, (size_t)n, c, timed);
		}
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Copies FROM to TO as cp does, in COPY_PIECE reads and writes; fsync when SYNC. */
static int copy_file(struct ctx *c, char *buf, const char *from, const char *to, bool sync,
		     _Atomic uint64_t *progress)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	c->r->files += 2;
	for (;;) {
		ssize_t n = read(in, buf, COPY_PIECE);

		if (n < 0 && errno == EINTR && !stopped(c))
			continue;
		if (n <= 0 || stopped(c)) {
			err = stopped(c) ? -EINTR : n < 0 ? -errno : 0;
			break;
		}
		c->r->read_bytes += (uint64_t)n;
		c->r->pieces++;
		if ((err = write_all(out, buf, (size_t)n, c, true)))
			break;
		if (progress)
			atomic_fetch_add(progress, (uint64_t)n);
	}
	if (!err && sync && fsync(out))
		err = -errno;
	if (close(out) && !err)
		err = -errno;
	close(in);
	return err;
}

/* Reads PATH whole: in order, or in PIECE-sized pages in a seeded order without readahead. */
static int read_file(struct ctx *c, const char *path, uint32_t piece, bool paged)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat st;
	uint64_t n_pieces, *order = NULL;

	if (fd < 0)
		return -errno;
	c->r->files++;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	n_pieces = ((uint64_t)st.st_size + piece - 1) / piece;
	if (paged) {
		/* a program pages its files in where it jumps, not as a stream */
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
		order = malloc((n_pieces ? n_pieces : 1) * sizeof(*order));
		if (!order) {
			err = -ENOMEM;
			goto out;
		}
		for (uint64_t i = 0; i < n_pieces; i++)
			order[i] = i;
		for (uint64_t i = n_pieces; i > 1; i--) {
			uint64_t j = r0_prng_below(&c->rng, i), t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
	}
	for (uint64_t i = 0; i < n_pieces && !err; i++) {
		off_t off = (off_t)((order ? order[i] : i) * piece);
		ssize_t n = pread(fd, c->buf, piece, off);

		if (stopped(c))
			err = -EINTR;
		else if (n < 0)
			err = errno == EINTR ? 0 : -errno;
		else {
			c->r->read_bytes += (uint64_t)n;
			c->r->pieces++;
		}
	}
out:
	free(order);
	close(fd);
	return err;
}

static int sync_dir(const struct ctx *c)
{
	int fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syncfs(fd))
		err = -errno;
	close(fd);
	return err;
}

/* Everything on the device, nothing in the page cache: a cold start, as after the review's reboot. */
static int cold(const struct ctx *c)
{
	int err = sync_dir(c), fd;

	if (err || !c->o->drop_caches)
		return err;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		err = -errno;
	close(fd);
	return err;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(p) : unlink(p)) ? -1 : 0;
}

/* --- the program: its files and its start ------------------------------ */

struct app {
	uint64_t *sizes;
	size_t *order;              /* the libraries in the order the program opens them */
	size_t n;
};

static void app_free(struct app *a)
{
	free(a->sizes);
	free(a->order);
}

static int app_make(struct ctx *c, struct app *a)
{
	uint64_t part = app_part_bytes(c->o->scale_bytes);
	char p[4200];
	int err = 0;

	/* the libraries (16 KiB to 256 KiB each) and the image, which opens first */
	a->sizes = log_sizes(&c->rng, 16 * KIB, 256 * KIB, part, APP_MAX_FILES, &a->n);
	a->order = a->sizes ? malloc((a->n ? a->n : 1) * sizeof(*a->order)) : NULL;
	if (!a->order)
		return -ENOMEM;
	for (size_t i = 0; i < a->n; i++)
		a->order[i] = i;
	for (size_t i = a->n; i > 1; i--) {
		size_t j = (size_t)r0_prng_below(&c->rng, i), t = a->order[i - 1];

		a->order[i - 1] = a->order[j];
		a->order[j] = t;
	}
	for (size_t i = 0; i <= a->n && !err; i++) {
		if (!(err = dir_for(c, "app", i)) && !(err = path_of(c, p, sizeof(p), "app%zu/f%zu", i)))
			err = make_file(c, p, i == a->n ? part : a->sizes[i], false);
	}
	return err;
}

static int app_start(struct ctx *c, const struct app *a)
{
	char p[4200];
	int err = path_of(c, p, sizeof(p), "app%zu/f%zu", a->n);

	/* the image first, then its libraries in a seeded order */
	if (!err)
		err = read_file(c, p, PAGE_IN_PIECE, true);
	for (size_t k = 0; k < a->n && !err; k++)
		if (!(err = path_of(c, p, sizeof(p), "app%zu/f%zu", a->order[k])))
			err = read_file(c, p, PAGE_IN_PIECE, true);
	return err;
}

/* --- the scenarios --------------------------------------------------- */

static int run_copy(struct ctx *c, uint64_t *t0)
{
	char src[4200], dst[4200];
	int err;

	snprintf(src, sizeof(src), "%s/large", c->dir);
	snprintf(dst, sizeof(dst), "%s/large.copy", c->dir);
	if ((err = make_file(c, src, copy_bytes(c->o->scale_bytes), false)) || (err = cold(c)))
		return err;
	*t0 = r0_now_ns();
	return copy_file(c, c->buf, src, dst, true, NULL);
}

static int run_small_files(struct ctx *c, uint64_t *t0)
{
	size_t n;
	uint64_t *sizes = log_sizes(&c->rng, 4 * KIB, 1 * MIB, small_total_bytes(c->o->scale_bytes), SIZE_MAX, &n);
	char a[4200], b[4200];
	uint64_t paused;
	int err = sizes ? cold(c) : -ENOMEM;

	*t0 = r0_now_ns();
	/* written */
	for (size_t i = 0; i < n && !err; i++)
		if (!(err = dir_for(c, "s", i)) && !(err = path_of(c, a, sizeof(a), "s%zu/f%zu", i)))
			err = make_file(c, a, sizes[i], true);
	if (!err)
		err = sync_dir(c);
	/* copied */
	for (size_t i = 0; i < n && !err; i++)
		if (!(err = dir_for(c, "c", i)) && !(err = path_of(c, a, sizeof(a), "s%zu/f%zu", i)) &&
		    !(err = path_of(c, b, sizeof(b), "c%zu/f%zu", i)))
			err = copy_file(c, c->buf, a, b, false, NULL);
	if (!err)
		err = sync_dir(c);
	/* read back cold: the clock stops while the cache is dropped */
	paused = r0_now_ns();
	if (!err)
		err = cold(c);
	*t0 += r0_now_ns() - paused;
	for (size_t i = 0; i < n && !err; i++)
		if (!(err = path_of(c, b, sizeof(b), "c%zu/f%zu", i)))
			err = read_file(c, b, COPY_PIECE, false);
	free(sizes);
	return err;
}

static int run_app_start(struct ctx *c, uint64_t *t0)
{
	struct app a = { 0 };
	int err = app_make(c, &a);

	if (!err)
		err = cold(c);
	*t0 = r0_now_ns();
	if (!err)
		err = app_start(c, &a);
	app_free(&a);
	return err;
}

/* The copy behind a start: the large file copied again and again until told to stop. */
struct busy {
	struct ctx c;               /* its own counters and buffer */
	struct r0_everyday_result r;
	char src[4200], dst[4200];
	_Atomic uint64_t written;
	atomic_bool stop;
	volatile sig_atomic_t stop_flag;
	atomic_int err;             /* the copy's, read by the start's thread */
	unsigned passes;
};

static void *busy_copy(void *arg)
{
	struct busy *b = arg;

	while (!atomic_load(&b->stop) && !atomic_load(&b->err)) {
		int err = copy_file(&b->c, b->c.buf, b->src, b->dst, true, &b->written);

		if (err == -EINTR && atomic_load(&b->stop))
			break;   /* told to stop mid-pass: not an error, not a pass */
		atomic_store(&b->err, err);
		b->passes += !err;
	}
	return NULL;
}

static int run_app_start_busy(struct ctx *c, uint64_t *t0)
{
	struct app a = { 0 };
	struct busy *b = calloc(1, sizeof(*b));
	struct r0_everyday_opts bo;
	uint64_t quarter = copy_bytes(c->o->scale_bytes) / 4;
	pthread_t th;
	int err;

	if (!b)
		return -ENOMEM;
	bo = *c->o;
	bo.stop = &b->stop_flag;
	b->c = *c;
	b->c.o = &bo;
	b->c.r = &b->r;
	b->c.buf = malloc(COPY_PIECE);
	snprintf(b->src, sizeof(b->src), "%s/large", c->dir);
	snprintf(b->dst, sizeof(b->dst), "%s/large.copy", c->dir);
	err = b->c.buf ? app_make(c, &a) : -ENOMEM;
	if (!err)
		err = make_file(c, b->src, copy_bytes(c->o->scale_bytes), false);
	if (!err)
		err = cold(c);
	if (!err && (err = -pthread_create(&th, NULL, busy_copy, b)) == 0) {
		/* the review started the program 10 s into a copy: here a quarter of the way */
		while (atomic_load(&b->written) < quarter && !atomic_load(&b->err) && !stopped(c))
			usleep(1000);
		*t0 = r0_now_ns();
		c->r->busy_written_bytes = atomic_load(&b->written);
		err = stopped(c) ? -EINTR : app_start(c, &a);
		atomic_store(&b->stop, true);
		b->stop_flag = 1;
		pthread_join(th, NULL);
		if (!err)
			err = atomic_load(&b->err);
		c->r->busy_passes = b->passes;
	}
	free(b->c.buf);
	free(b);
	app_free(&a);
	return err;
}

static int run_unpack(struct ctx *c, uint64_t *t0)
{
	size_t n;
	uint64_t total = archive_bytes(c->o->scale_bytes);
	/* an install: a few thousand files, 1 KiB to 256 KiB */
	uint64_t *sizes = log_sizes(&c->rng, 1 * KIB, 256 * KIB, total, SIZE_MAX, &n), sum = 0;
	char ar[4200], p[4200];
	int in = -1, err = sizes ? 0 : -ENOMEM;

	for (size_t i = 0; i < n; i++)
		sum += sizes[i];
	snprintf(ar, sizeof(ar), "%s/archive", c->dir);
	if (!err && !(err = make_file(c, ar, sum, false)) && !(err = cold(c)))
		if ((in = open(ar, O_RDONLY | O_CLOEXEC)) < 0)
			err = -errno;
	*t0 = r0_now_ns();
	/* each member read from the archive in turn and written to its own file */
	for (size_t i = 0; i < n && !err; i++) {
		int out;

		if ((err = dir_for(c, "u", i)) || (err = path_of(c, p, sizeof(p), "u%zu/f%zu", i)))
			break;
		if ((out = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
			err = -errno;
			break;
		}
		c->r->files++;
		for (uint64_t left = sizes[i]; left && !err;) {
			ssize_t got = read(in, c->buf, left < COPY_PIECE ? (size_t)left : COPY_PIECE);

			if (stopped(c))
				err = -EINTR;
			else if (got <= 0)
				err = got < 0 ? -errno : -EIO;
			else {
				c->r->read_bytes += (uint64_t)got;
				c->r->pieces++;
				left -= (uint64_t)got;
				err = write_all(out, c->buf, (size_t)got, c, true);
			}
		}
		if (close(out) && !err)
			err = -errno;
	}
	if (!err)
		err = sync_dir(c);
	if (in >= 0)
		close(in);
	free(sizes);
	return err;
}

int r0_everyday_run(enum r0_everyday s, const char *dir, const struct r0_everyday_opts *o,
		    struct r0_everyday_result *r)
{
	static int (*const run[R0_EVERYDAY_COUNT])(struct ctx *, uint64_t *) = {
		run_copy, run_small_files, run_app_start, run_app_start_busy, run_unpack,
	};
	struct ctx c = { .o = o, .r = r };
	uint64_t t0 = 0, t1;
	int err;

	memset(r, 0, sizeof(*r));
	if ((unsigned)s >= R0_EVERYDAY_COUNT || o->scale_bytes < R0_EVERYDAY_MIN_SCALE_BYTES)
		return -EINVAL;
	if (snprintf(c.dir, sizeof(c.dir), "%s/r0everyday.XXXXXX", dir) >= (int)sizeof(c.dir))
		return -ENAMETOOLONG;
	if (!mkdtemp(c.dir))
		return -errno;
	r0_prng_seed(&c.rng, o->seed * 16 + (uint64_t)s);
	c.buf = malloc(COPY_PIECE);
	err = c.buf ? run[s](&c, &t0) : -ENOMEM;
	t1 = r0_now_ns();
	if (!err)
		r->seconds = (double)(t1 - t0) / 1e9;
	free(c.buf);
	/* untimed: the next scenario starts on a file system without this one's files */
	if (nftw(c.dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) && !err)
		err = -errno;
	return err;
}
