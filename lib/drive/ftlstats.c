// SPDX-License-Identifier: GPL-2.0-or-later
/* r0ssd's counters as key=value lines, to a stream or a file replaced whole (r0/ftlstats.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "r0/ftlstats.h"

int r0_ftl_stats_file_write(FILE *f, const struct r0_ftl_stats_file *r)
{
	const struct r0_ftl_stats *st = &r->stats, zero = { 0 };

	fprintf(f, "pid=%d\ndevice=%s\nstate=%s\nseq=%u\n", r->pid, r->device, r->state, r->seq);
	fprintf(f, "page_bytes=%u\nlogical_pages=%llu\npages_per_block=%llu\nphysical_blocks=%llu\n"
		   "spare_percent=%.2f\nspare_effective_percent=%.2f\nspare_with_reserve_percent=%.2f\n",
		st->page_bytes, (unsigned long long)st->logical_pages,
		(unsigned long long)st->pages_per_block, (unsigned long long)st->physical_blocks,
		r->spare_pct, r->spare_effective_pct, r->spare_reserve_pct);
	fprintf(f, "requests=%llu\nfailed_requests=%llu\n", (unsigned long long)r->requests,
		(unsigned long long)r->failed_requests);
	fprintf(f, "host_write_pages=%llu\nhost_read_pages=%llu\nhost_trim_pages=%llu\n"
		   "flash_program_pages=%llu\ngc_copy_pages=%llu\nerases=%llu\ngc_runs=%llu\n"
		   "gc_stall_ms=%.3f\nfree_blocks=%llu\nmapped_pages=%llu\nwaf=%.4f\nserver_errors=%llu\n",
		(unsigned long long)st->host_write_pages, (unsigned long long)st->host_read_pages,
		(unsigned long long)st->host_trim_pages, (unsigned long long)st->flash_program_pages,
		(unsigned long long)st->gc_copy_pages, (unsigned long long)st->erases,
		(unsigned long long)st->gc_runs, st->gc_stall_ns / 1e6, (unsigned long long)st->free_blocks,
		(unsigned long long)st->mapped_pages, r0_ftl_waf(&zero, st),
		(unsigned long long)r->server_errors);
	return ferror(f) ? -EIO : 0;
}

int r0_ftl_stats_file_save(const char *path, const struct r0_ftl_stats_file *r)
{
	char tmp[PATH_MAX];
	struct stat st;
	FILE *f;
	int err;

	/* renamed over: never a device, a pipe or a directory (root would replace /dev/null) */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	err = r0_ftl_stats_file_write(f, r);
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
