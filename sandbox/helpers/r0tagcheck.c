// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sandbox test helper: writes a distinct tag into the first and last block
 * of every chunk of an r0kit array, then reads each tag back from the
 * member at the offset r0_geometry predicts. Exit 0 when all are there.
 * Usage: r0tagcheck ARRAY MEMBER...   (members in array order)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "r0/array.h"
#include "r0/geometry.h"

static void tag(char *buf, size_t len, uint64_t chunk, const char *where)
{
	memset(buf, 0, len);
	snprintf(buf, len, "r0tag chunk=%" PRIu64 " %s", chunk, where);
}

static int io_block(int fd, char *buf, size_t len, uint64_t sector, int write)
{
	ssize_t n = write ? pwrite(fd, buf, len, (off_t)(sector * 512))
			  : pread(fd, buf, len, (off_t)(sector * 512));
	return n == (ssize_t)len ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct r0_array a;
	struct r0_geometry geo, *g = &geo;
	uint64_t sizes[R0_MAX_MEMBERS], chunks, k, chunk_sectors, blk_sectors;
	int mfd[R0_MAX_MEMBERS], afd, lbs, err, i, n = argc - 2, bad = 0;
	char *buf, *want;

	if (n < 1 || n > R0_MAX_MEMBERS) {
		fprintf(stderr, "usage: r0tagcheck ARRAY MEMBER...\n");
		return 2;
	}
	if ((err = r0_array_find(argv[1], &a))) {
		fprintf(stderr, "r0tagcheck: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	if ((unsigned)n != a.n_members) {
		fprintf(stderr, "r0tagcheck: %s has %u members, %d given\n", argv[1], a.n_members, n);
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		uint64_t bytes;

		mfd[i] = open(argv[i + 2], O_RDONLY | O_DIRECT);
		if (mfd[i] < 0 || fstat(mfd[i], &st) || ioctl(mfd[i], BLKGETSIZE64, &bytes)) {
			perror(argv[i + 2]);
			return 1;
		}
		if (st.st_rdev != a.members[i]) {
			fprintf(stderr, "r0tagcheck: %s is not member %d of %s\n", argv[i + 2], i, argv[1]);
			return 1;
		}
		sizes[i] = bytes / 512;
	}
	err = r0_geometry_init(g, a.backend, a.chunk_bytes, a.n_members, sizes, NULL,
			       a.md_layout == R0_MD_LAYOUT_ORIG ? R0_MD_LAYOUT_ORIG : R0_MD_LAYOUT_ALT);
	if (err) {
		fprintf(stderr, "r0tagcheck: geometry: %s\n", strerror(-err));
		return 1;
	}
	if (g->array_sectors != a.size_sectors) {
		fprintf(stderr, "r0tagcheck: kernel array has %" PRIu64 " sectors, geometry %" PRIu64 "\n",
			a.size_sectors, g->array_sectors);
		return 1;
	}
	afd = open(a.path, O_RDWR | O_DIRECT);
	if (afd < 0 || ioctl(afd, BLKSSZGET, &lbs)) {
		perror(a.path);
		return 1;
	}
	if (posix_memalign((void **)&buf, 4096, (size_t)lbs) ||
	    posix_memalign((void **)&want, 4096, (size_t)lbs))
		return 1;
	chunk_sectors = a.chunk_bytes / 512;
	blk_sectors = (uint64_t)lbs / 512;
	chunks = a.size_sectors / chunk_sectors;
	for (k = 0; k < chunks; k++) {
		tag(buf, (size_t)lbs, k, "first");
		if (io_block(afd, buf, (size_t)lbs, k * chunk_sectors, 1))
			goto io_fail;
		if (chunk_sectors > blk_sectors) {
			tag(buf, (size_t)lbs, k, "last");
			if (io_block(afd, buf, (size_t)lbs, (k + 1) * chunk_sectors - blk_sectors, 1))
				goto io_fail;
		}
	}
	if (fsync(afd))
		goto io_fail;
	for (k = 0; k < chunks && bad < 5; k++) {
		for (int last = 0; last <= (chunk_sectors > blk_sectors); last++) {
			uint64_t s = last ? (k + 1) * chunk_sectors - blk_sectors : k * chunk_sectors, ms;
			unsigned m;

			if ((err = r0_geometry_map(g, s, &m, &ms))) {
				fprintf(stderr, "r0tagcheck: map %" PRIu64 ": %s\n", s, strerror(-err));
				return 1;
			}
			tag(want, (size_t)lbs, k, last ? "last" : "first");
			if (io_block(mfd[m], buf, (size_t)lbs, ms, 0))
				goto io_fail;
			if (memcmp(buf, want, (size_t)lbs) != 0) {
				fprintf(stderr, "r0tagcheck: array sector %" PRIu64 " (\"%s\") not on member %u "
					"sector %" PRIu64 ", found \"%.40s\"\n", s, want, m, ms, buf);
				bad++;
			}
		}
	}
	if (!bad)
		printf("r0tagcheck: %" PRIu64 " chunks of %u bytes on %u members: every tag where "
		       "the geometry puts it\n", chunks, a.chunk_bytes, a.n_members);
	return bad ? 1 : 0;
io_fail:
	fprintf(stderr, "r0tagcheck: I/O error: %s\n", strerror(errno));
	return 1;
}
