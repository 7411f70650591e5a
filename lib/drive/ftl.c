// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flash translation layer model of r0/ftl.h: a page map, a reverse map,
 * per-block valid counts kept in buckets so the greedy victim is found in
 * O(pages a block), and per-unit busy clocks for the time model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/ftl.h"

#define NONE UINT32_MAX

enum bstate { B_FREE, B_OPEN, B_CLOSED };

struct block {
	uint32_t valid;         /* pages holding a current logical page */
	uint32_t wp;            /* pages programmed since the last erase */
	uint32_t prev, next;    /* closed: bucket list of its valid count */
	uint32_t oprev, onext;  /* closed: list in closing order (FIFO) */
	uint8_t state;
};

struct r0_ftl {
	struct r0_ftl_config c;
	uint64_t L;                 /* logical pages */
	uint32_t ppb, n_blocks;     /* physical blocks: data blocks + 1 reserve */
	uint32_t *l2p, *p2l;
	struct block *b;
	uint32_t *bucket;           /* ppb + 1 heads, by valid count */
	uint32_t ohead, otail;      /* closing order */
	uint32_t *free_ring, free_head, free_count;
	uint32_t frontier;
	void **data;                /* keep_data: a page buffer per logical page, NULL = zeros */
	struct r0_ftl_stats s;
	/* time model */
	unsigned n_units;
	uint64_t *busy;             /* per unit: busy until (ns) */
	bool timed;                 /* the current request runs the time model */
	uint64_t req_now, req_gc_end;
};

void r0_ftl_config_default(struct r0_ftl_config *c, uint64_t logical_pages)
{
	*c = (struct r0_ftl_config){
		.logical_pages = logical_pages,
		.page_bytes = 4096,
		.pages_per_block = 256,
		.spare_fraction = 0.07,
		.victim = R0_FTL_GREEDY,
		.keep_data = true,
		.timing = {
			.read_ns = 75000,
			.program_ns = 750000,
			.erase_ns = 3800000,
			.channels = 2,
			.dies = 2,
		},
	};
}

uint64_t r0_ftl_data_blocks(const struct r0_ftl_config *c)
{
	uint64_t min_blocks, blocks;
	double phys;

	if (!c->logical_pages || c->pages_per_block < 2 || c->page_bytes < 512 ||
	    (c->page_bytes & (c->page_bytes - 1)) || !(c->spare_fraction > 0) ||
	    c->spare_fraction > 0.9)
		return 0;
	/* the small epsilon keeps L / (1 - s) exact when it is a whole number */
	phys = (double)c->logical_pages / (1.0 - c->spare_fraction);
	blocks = (uint64_t)(phys / c->pages_per_block - 1e-9);
	if ((double)blocks * c->pages_per_block < phys - 1e-6)
		blocks++;
	/* at least one spare page, or GC could find no victim with an invalid page */
	min_blocks = c->logical_pages / c->pages_per_block + 1;
	return blocks < min_blocks ? min_blocks : blocks;
}

double r0_ftl_spare_effective(const struct r0_ftl_config *c, bool with_reserve)
{
	uint64_t blocks = r0_ftl_data_blocks(c);

	if (!blocks)
		return 0;
	blocks += with_reserve;
	return 1.0 - (double)c->logical_pages / ((double)blocks * c->pages_per_block);
}

static bool timing_ok(const struct r0_ftl_timing *t)
{
	return t->channels >= 1 && t->dies >= 1 && t->channels <= 1024 && t->dies <= 1024 &&
	       (uint64_t)t->channels * t->dies <= 4096;
}

/* ---- lists ---- */

static void bucket_add(struct r0_ftl *f, uint32_t blk)
{
	struct block *b = &f->b[blk];

	b->prev = NONE;
	b->next = f->bucket[b->valid];
	if (b->next != NONE)
		f->b[b->next].prev = blk;
	f->bucket[b->valid] = blk;
}

static void bucket_del(struct r0_ftl *f, uint32_t blk)
{
	struct block *b = &f->b[blk];

	if (b->prev != NONE)
		f->b[b->prev].next = b->next;
	else
		f->bucket[b->valid] = b->next;
	if (b->next != NONE)
		f->b[b->next].prev = b->prev;
	b->prev = b->next = NONE;
}

static void order_add(struct r0_ftl *f, uint32_t blk)
{
	struct block *b = &f->b[blk];

	b->onext = NONE;
	b->oprev = f->otail;
	if (f->otail != NONE)
		f->b[f->otail].onext = blk;
	else
		f->ohead = blk;
	f->otail = blk;
}

static void order_del(struct r0_ftl *f, uint32_t blk)
{
	struct block *b = &f->b[blk];

	if (b->oprev != NONE)
		f->b[b->oprev].onext = b->onext;
	else
		f->ohead = b->onext;
	if (b->onext != NONE)
		f->b[b->onext].oprev = b->oprev;
	else
		f->otail = b->oprev;
	b->oprev = b->onext = NONE;
}

static void push_free(struct r0_ftl *f, uint32_t blk)
{
	f->free_ring[(f->free_head + f->free_count) % f->n_blocks] = blk;
	f->free_count++;
	f->b[blk].state = B_FREE;
}

static uint32_t pop_free(struct r0_ftl *f)
{
	uint32_t blk = f->free_ring[f->free_head];

	f->free_head = (f->free_head + 1) % f->n_blocks;
	f->free_count--;
	f->b[blk].state = B_OPEN;
	return blk;
}

static void close_block(struct r0_ftl *f, uint32_t blk)
{
	f->b[blk].state = B_CLOSED;
	bucket_add(f, blk);
	order_add(f, blk);
}

/* ---- time model ---- */

/* Puts an operation of dur_ns, not before not_before, on the unit free first; returns its end. */
static uint64_t schedule(struct r0_ftl *f, uint64_t not_before, uint64_t dur_ns)
{
	unsigned u = 0;
	uint64_t start;

	for (unsigned i = 1; i < f->n_units; i++)
		if (f->busy[i] < f->busy[u])
			u = i;
	start = f->busy[u] > not_before ? f->busy[u] : not_before;
	f->busy[u] = start + dur_ns;
	return f->busy[u];
}

/* ---- the FTL ---- */

struct r0_ftl *r0_ftl_new(const struct r0_ftl_config *c)
{
	struct r0_ftl *f = NULL;
	uint64_t data_blocks = r0_ftl_data_blocks(c);
	uint64_t pages = (data_blocks + 1) * c->pages_per_block;
	int err = -EINVAL;

	/* page numbers are 32 bits, NONE the one that maps nothing */
	if (!data_blocks || !timing_ok(&c->timing) || pages >= NONE || c->logical_pages >= NONE)
		goto fail;
	err = -ENOMEM;
	if (!(f = calloc(1, sizeof(*f))))
		goto fail;
	f->c = *c;
	f->L = c->logical_pages;
	f->ppb = c->pages_per_block;
	f->n_blocks = (uint32_t)(data_blocks + 1);
	f->n_units = c->timing.channels * c->timing.dies;
	f->l2p = malloc(f->L * sizeof(*f->l2p));
	f->p2l = malloc(pages * sizeof(*f->p2l));
	f->b = calloc(f->n_blocks, sizeof(*f->b));
	f->bucket = malloc((f->ppb + 1) * sizeof(*f->bucket));
	f->free_ring = malloc(f->n_blocks * sizeof(*f->free_ring));
	f->busy = calloc(f->n_units, sizeof(*f->busy));
	if (c->keep_data)
		f->data = calloc(f->L, sizeof(*f->data));
	if (!f->l2p || !f->p2l || !f->b || !f->bucket || !f->free_ring || !f->busy ||
	    (c->keep_data && !f->data))
		goto fail;
	memset(f->l2p, 0xff, f->L * sizeof(*f->l2p));
	memset(f->p2l, 0xff, pages * sizeof(*f->p2l));
	for (uint32_t i = 0; i <= f->ppb; i++)
		f->bucket[i] = NONE;
	f->ohead = f->otail = NONE;
	f->frontier = NONE;
	for (uint32_t i = 0; i < f->n_blocks; i++) {
		f->b[i].prev = f->b[i].next = f->b[i].oprev = f->b[i].onext = NONE;
		push_free(f, i);
	}
	f->s.logical_pages = f->L;
	f->s.physical_blocks = f->n_blocks;
	f->s.pages_per_block = f->ppb;
	f->s.page_bytes = c->page_bytes;
	return f;
fail:
	r0_ftl_free(f);
	errno = -err;
	return NULL;
}

void r0_ftl_free(struct r0_ftl *f)
{
	if (!f)
		return;
	if (f->data)
		for (uint64_t i = 0; i < f->L; i++)
			free(f->data[i]);
	free(f->data);
	free(f->busy);
	free(f->free_ring);
	free(f->bucket);
	free(f->b);
	free(f->p2l);
	free(f->l2p);
	free(f);
}

static uint32_t pick_victim(struct r0_ftl *f)
{
	if (f->c.victim == R0_FTL_FIFO)
		return f->ohead;
	for (uint32_t v = 0; v <= f->ppb; v++)
		if (f->bucket[v] != NONE)
			return f->bucket[v];
	return NONE;
}

/*
 * One GC run, with the frontier closed and only the reserve block free:
 * the reserve becomes the frontier, the victim's valid pages are copied
 * into it, and the erased victim is the new reserve.
 */
static void gc_one(struct r0_ftl *f)
{
	uint32_t victim = pick_victim(f), base, dst;
	uint64_t copies_end = f->req_now;

	/* r0_ftl_data_blocks guarantees a closed block exists with an invalid page somewhere */
	bucket_del(f, victim);
	order_del(f, victim);
	f->frontier = pop_free(f);
	base = victim * f->ppb;
	for (uint32_t i = 0; i < f->ppb && f->b[victim].valid; i++) {
		uint32_t lpn = f->p2l[base + i];

		if (lpn == NONE)
			continue;
		dst = f->frontier * f->ppb + f->b[f->frontier].wp++;
		f->p2l[dst] = lpn;
		f->l2p[lpn] = dst;
		f->p2l[base + i] = NONE;
		f->b[f->frontier].valid++;
		f->b[victim].valid--;
		f->s.gc_copy_pages++;
		f->s.flash_program_pages++;
		if (f->timed) {
			uint64_t end = schedule(f, f->req_now, f->c.timing.read_ns + f->c.timing.program_ns);
			if (end > copies_end)
				copies_end = end;
		}
	}
	f->b[victim].wp = 0;
	push_free(f, victim);
	f->s.erases++;
	f->s.gc_runs++;
	if (f->timed) {
		uint64_t end = schedule(f, copies_end, f->c.timing.erase_ns);
		if (end > f->req_gc_end)
			f->req_gc_end = end;
	}
}

/* A frontier with room for one page, by GC if only the reserve is free. */
static void ensure_frontier(struct r0_ftl *f)
{
	while (f->frontier == NONE || f->b[f->frontier].wp == f->ppb) {
		if (f->frontier != NONE) {
			close_block(f, f->frontier);
			f->frontier = NONE;
		}
		if (f->free_count > 1) {
			f->frontier = pop_free(f);
			break;
		}
		gc_one(f);
	}
}

/* Unmaps lpn's current flash copy, if any. */
static void invalidate(struct r0_ftl *f, uint64_t lpn)
{
	uint32_t ppn = f->l2p[lpn], blk;
	struct block *b;

	if (ppn == NONE)
		return;
	blk = ppn / f->ppb;
	b = &f->b[blk];
	if (b->state == B_CLOSED) {
		bucket_del(f, blk);
		b->valid--;
		bucket_add(f, blk);
	} else {
		b->valid--;
	}
	f->p2l[ppn] = NONE;
	f->l2p[lpn] = NONE;
	f->s.valid_pages--;
	f->s.mapped_pages--;
}

static int check_range(const struct r0_ftl *f, uint64_t lpn, uint64_t n)
{
	if (!n)
		return -EINVAL;
	if (lpn >= f->L || n > f->L - lpn)
		return -ERANGE;
	return 0;
}

/* Starts a host request on pages [lpn, lpn + n): 0, or check_range's error. */
static int begin(struct r0_ftl *f, uint64_t lpn, uint64_t n, uint64_t now_ns, const uint64_t *done_ns)
{
	int err = check_range(f, lpn, n);

	if (err)
		return err;
	f->timed = done_ns != NULL;
	f->req_now = f->req_gc_end = now_ns;
	return 0;
}

int r0_ftl_write(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages, const void *data,
		 uint64_t now_ns, uint64_t *done_ns)
{
	uint64_t done = now_ns, host_start;
	int err = begin(f, lpn, n_pages, now_ns, done_ns);

	if (err)
		return err;
	for (uint64_t i = 0; i < n_pages; i++) {
		uint64_t l = lpn + i;
		uint32_t dst;

		if (f->data) {
			const char *src = data ? (const char *)data + i * f->c.page_bytes : NULL;

			if (src && !f->data[l] && !(f->data[l] = malloc(f->c.page_bytes))) {
				err = -ENOMEM;
				break;
			}
			if (src) {
				memcpy(f->data[l], src, f->c.page_bytes);
			} else {
				free(f->data[l]);
				f->data[l] = NULL;
			}
		}
		invalidate(f, l);
		ensure_frontier(f);
		dst = f->frontier * f->ppb + f->b[f->frontier].wp++;
		f->p2l[dst] = (uint32_t)l;
		f->l2p[l] = dst;
		f->b[f->frontier].valid++;
		f->s.valid_pages++;
		f->s.mapped_pages++;
		f->s.host_write_pages++;
		f->s.flash_program_pages++;
	}
	if (f->timed) {
		/* the host's pages go to flash once foreground GC has made room */
		host_start = f->req_gc_end;
		f->s.gc_stall_ns += host_start - now_ns;
		done = host_start;
		for (uint64_t i = 0; i < n_pages; i++) {
			uint64_t end = schedule(f, host_start, f->c.timing.program_ns);
			if (end > done)
				done = end;
		}
		*done_ns = done;
	}
	return err;
}

int r0_ftl_read(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages, void *buf,
		uint64_t now_ns, uint64_t *done_ns)
{
	uint64_t done = now_ns;
	int err = begin(f, lpn, n_pages, now_ns, done_ns);

	if (err)
		return err;
	for (uint64_t i = 0; i < n_pages; i++) {
		uint64_t l = lpn + i;
		bool mapped = f->l2p[l] != NONE;

		if (buf) {
			char *dst = (char *)buf + i * f->c.page_bytes;

			if (f->data && f->data[l] && mapped)
				memcpy(dst, f->data[l], f->c.page_bytes);
			else
				memset(dst, 0, f->c.page_bytes);
		}
		if (mapped && f->timed) {
			uint64_t end = schedule(f, now_ns, f->c.timing.read_ns);
			if (end > done)
				done = end;
		}
	}
	f->s.host_read_pages += n_pages;
	if (done_ns)
		*done_ns = done;
	return 0;
}

int r0_ftl_trim(struct r0_ftl *f, uint64_t lpn, uint64_t n_pages,
		uint64_t now_ns, uint64_t *done_ns)
{
	int err = check_range(f, lpn, n_pages);

	if (err)
		return err;
	for (uint64_t i = 0; i < n_pages; i++) {
		invalidate(f, lpn + i);
		if (f->data) {
			free(f->data[lpn + i]);
			f->data[lpn + i] = NULL;
		}
	}
	f->s.host_trim_pages += n_pages;
	if (done_ns)
		*done_ns = now_ns;
	return 0;
}

void r0_ftl_get_stats(const struct r0_ftl *f, struct r0_ftl_stats *s)
{
	*s = f->s;
	s->free_blocks = f->free_count;
}

double r0_ftl_waf(const struct r0_ftl_stats *before, const struct r0_ftl_stats *after)
{
	uint64_t host = after->host_write_pages - before->host_write_pages;

	if (!host)
		return 0;
	return (double)(after->flash_program_pages - before->flash_program_pages) / (double)host;
}

#define FAIL(...) do { snprintf(why, why_len, __VA_ARGS__); return -EUCLEAN; } while (0)

int r0_ftl_check(const struct r0_ftl *f, char *why, size_t why_len)
{
	uint64_t mapped = 0, valid = 0, written = 0, n_free = 0, n_open = 0, n_closed = 0;
	uint64_t in_buckets = 0, in_order = 0;
	uint32_t *count;

	if (!why_len)
		why = NULL;
	for (uint64_t l = 0; l < f->L; l++) {
		uint32_t p = f->l2p[l];

		if (p == NONE) {
			if (f->data && f->data[l])
				FAIL("logical page %llu unmapped but holds data", (unsigned long long)l);
			continue;
		}
		if (p >= (uint64_t)f->n_blocks * f->ppb)
			FAIL("logical page %llu maps beyond the flash", (unsigned long long)l);
		if (f->p2l[p] != l)
			FAIL("logical page %llu -> %u -> %u", (unsigned long long)l, p, f->p2l[p]);
		mapped++;
	}
	count = calloc(f->n_blocks, sizeof(*count));
	if (!count)
		FAIL("out of memory");
	for (uint32_t blk = 0; blk < f->n_blocks; blk++) {
		for (uint32_t i = 0; i < f->ppb; i++) {
			uint32_t l = f->p2l[blk * f->ppb + i];

			if (l == NONE)
				continue;
			if (i >= f->b[blk].wp) {
				free(count);
				FAIL("block %u page %u valid beyond its write pointer", blk, i);
			}
			if (l >= f->L || f->l2p[l] != blk * f->ppb + i) {
				free(count);
				FAIL("physical page %u does not map back", blk * f->ppb + i);
			}
			count[blk]++;
		}
	}
	for (uint32_t blk = 0; blk < f->n_blocks; blk++) {
		const struct block *b = &f->b[blk];

		if (count[blk] != b->valid) {
			uint32_t c = count[blk];
			free(count);
			FAIL("block %u counts %u valid pages, holds %u", blk, b->valid, c);
		}
		valid += b->valid;
		written += b->wp;
		if (b->wp > f->ppb) {
			free(count);
			FAIL("block %u write pointer %u", blk, b->wp);
		}
		switch (b->state) {
		case B_FREE:
			n_free++;
			if (b->wp) {
				free(count);
				FAIL("free block %u holds pages", blk);
			}
			break;
		case B_OPEN:
			n_open++;
			if (blk != f->frontier) {
				free(count);
				FAIL("block %u open but not the frontier", blk);
			}
			break;
		default:
			n_closed++;
			if (b->wp != f->ppb) {
				free(count);
				FAIL("closed block %u not full", blk);
			}
		}
	}
	free(count);
	if (mapped != f->s.mapped_pages || valid != f->s.valid_pages || valid != mapped)
		FAIL("mapped %llu (counted %llu), valid %llu (counted %llu)",
		     (unsigned long long)mapped, (unsigned long long)f->s.mapped_pages,
		     (unsigned long long)valid, (unsigned long long)f->s.valid_pages);
	if (n_free != f->free_count || n_free + n_open + n_closed != f->n_blocks || n_open > 1)
		FAIL("free %llu (ring %u) + open %llu + closed %llu != %u blocks",
		     (unsigned long long)n_free, f->free_count, (unsigned long long)n_open,
		     (unsigned long long)n_closed, f->n_blocks);
	for (uint32_t i = 0; i < f->free_count; i++)
		if (f->b[f->free_ring[(f->free_head + i) % f->n_blocks]].state != B_FREE)
			FAIL("free ring entry %u is not a free block", i);
	for (uint32_t v = 0; v <= f->ppb; v++)
		for (uint32_t blk = f->bucket[v]; blk != NONE; blk = f->b[blk].next) {
			if (f->b[blk].state != B_CLOSED || f->b[blk].valid != v)
				FAIL("block %u in bucket %u: state %u, %u valid", blk, v,
				     f->b[blk].state, f->b[blk].valid);
			if (++in_buckets > n_closed)
				FAIL("bucket lists longer than the closed blocks");
		}
	for (uint32_t blk = f->ohead; blk != NONE; blk = f->b[blk].onext) {
		if (f->b[blk].state != B_CLOSED)
			FAIL("block %u in the closing order but not closed", blk);
		if (++in_order > n_closed)
			FAIL("closing order longer than the closed blocks");
	}
	if (in_buckets != n_closed || in_order != n_closed)
		FAIL("%llu closed blocks, %llu in buckets, %llu in order", (unsigned long long)n_closed,
		     (unsigned long long)in_buckets, (unsigned long long)in_order);
	if (f->s.flash_program_pages != f->s.erases * f->ppb + written)
		FAIL("programs %llu != erases %llu x %u + %llu written since",
		     (unsigned long long)f->s.flash_program_pages, (unsigned long long)f->s.erases,
		     f->ppb, (unsigned long long)written);
	if (f->s.flash_program_pages != f->s.host_write_pages + f->s.gc_copy_pages)
		FAIL("programs %llu != host %llu + GC copies %llu",
		     (unsigned long long)f->s.flash_program_pages,
		     (unsigned long long)f->s.host_write_pages, (unsigned long long)f->s.gc_copy_pages);
	return 0;
}
