// SPDX-License-Identifier: GPL-2.0-or-later
/* A thin volume's block mapping from a metadata snapshot of its pool (r0/thinmap.h). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmtable.h"
#include "r0/thinmap.h"
#include "r0/probe.h"

extern char **environ;

/* The value of ATTR="..." in the element [EL, END): 0 or -EINVAL. */
static int attr_u64(const char *el, const char *end, const char *attr, uint64_t *v)
{
	size_t n = strlen(attr);

	for (const char *p = el; p + n + 2 < end; p++) {
		if ((p == el || p[-1] == ' ') && !strncmp(p, attr, n) && p[n] == '=' && p[n + 1] == '"') {
			char *stop;
			unsigned long long x;

			errno = 0;
			x = strtoull(p + n + 2, &stop, 10);
			if (errno || stop == p + n + 2 || *stop != '"')
				return -EINVAL;
			*v = x;
			return 0;
		}
	}
	return -EINVAL;
}

static int add(struct r0_thin_map *m, uint64_t thin, uint64_t data, uint64_t n)
{
	struct r0_thin_extent *last = m->n ? &m->e[m->n - 1] : NULL;

	if (last && last->thin_block + last->n_blocks == thin && last->data_block + last->n_blocks == data) {
		last->n_blocks += n;
		return 0;
	}
	if (m->n == R0_THIN_MAX_EXTENTS)
		return -E2BIG;
	m->e[m->n++] = (struct r0_thin_extent){ thin, data, n };
	return 0;
}

int r0_thin_map_parse(const char *xml, size_t len, unsigned dev_id, struct r0_thin_map *map)
{
	const char *p = xml, *end = xml + len;
	bool in_dev = false, found = false, superblock = false;

	map->n = 0;
	while (p < end && (p = memchr(p, '<', (size_t)(end - p)))) {
		const char *gt = memchr(p, '>', (size_t)(end - p));
		uint64_t a, b, c;
		int err = 0;

		if (!gt)
			return -EINVAL;
		if (!strncmp(p, "<superblock", 11)) {
			superblock = true;
		} else if (!strncmp(p, "<device ", 8)) {
			if (attr_u64(p, gt, "dev_id", &a))
				return -EINVAL;
			in_dev = a == dev_id;
			found |= in_dev;
		} else if (!strncmp(p, "</device", 8)) {
			in_dev = false;
		} else if (in_dev && !strncmp(p, "<range_mapping ", 15)) {
			if (attr_u64(p, gt, "origin_begin", &a) || attr_u64(p, gt, "data_begin", &b) ||
			    attr_u64(p, gt, "length", &c))
				return -EINVAL;
			err = add(map, a, b, c);
		} else if (in_dev && !strncmp(p, "<single_mapping ", 16)) {
			if (attr_u64(p, gt, "origin_block", &a) || attr_u64(p, gt, "data_block", &b))
				return -EINVAL;
			err = add(map, a, b, 1);
		}
		if (err)
			return err;
		p = gt + 1;
	}
	if (!superblock)
		return -EINVAL;
	return found ? 0 : -ENOENT;
}

/* thin_dump's output into a malloc'ed *OUT: 0, or -errno (WHY says why). */
static int run_dump(dev_t meta, unsigned dev_id, char **out, size_t *len, char *why, size_t why_len)
{
	char dev[64], id[16];
	char *argv[] = { "thin_dump", "--metadata-snap", "--dev-id", id, dev, NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, err = 0;
	size_t cap = 0;
	pid_t pid;

	snprintf(id, sizeof(id), "%u", dev_id);
	*out = NULL;
	*len = 0;
	if ((err = r0_devt_node(meta, dev, sizeof(dev)))) {
		snprintf(why, why_len, "no /dev node of the pool's metadata device %u:%u: %s", major(meta),
			 minor(meta), strerror(-err));
		return err;
	}
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	err = -posix_spawnp(&pid, "thin_dump", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		snprintf(why, why_len, "cannot run thin_dump (thin-provisioning-tools): %s", strerror(-err));
		return err;
	}
	for (;;) {
		ssize_t n;

		if (*len + 4096 > cap) {
			char *grown = realloc(*out, cap = cap ? 2 * cap : 65536);

			if (!grown) {
				err = -ENOMEM;
				break;
			}
			*out = grown;
		}
		n = read(pipefd[0], *out + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		*len += (size_t)n;
	}
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0 && !err)
		err = -errno;
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		snprintf(why, why_len, "thin_dump --metadata-snap on %s failed", dev);
		err = -EIO;
	}
	if (err) {
		if (!why[0])
			snprintf(why, why_len, "reading thin_dump's output: %s", strerror(-err));
		free(*out);
		*out = NULL;
	}
	return err;
}

int r0_thin_map_read(dev_t pool, dev_t meta, unsigned dev_id, struct r0_thin_map *map, char *why,
		     size_t why_len)
{
	char *xml = NULL;
	size_t len = 0;
	int err, rerr;

	why[0] = '\0';
	map->n = 0;
	/* the snapshot commits the pool's transaction first: it holds every block written so far */
	if ((err = r0_dm_message(pool, "reserve_metadata_snap"))) {
		snprintf(why, why_len, "cannot reserve a metadata snapshot of the pool: %s", strerror(-err));
		return err;
	}
	err = run_dump(meta, dev_id, &xml, &len, why, why_len);
	rerr = r0_dm_message(pool, "release_metadata_snap");
	if (!err) {
		err = r0_thin_map_parse(xml, len, dev_id, map);
		if (err)
			snprintf(why, why_len, "thin_dump's output %s", err == -ENOENT ? "lacks the thin device" :
				 err == -E2BIG ? "has more extents than r0trim follows" : "is not understood");
	}
	if (!err && rerr) {
		snprintf(why, why_len, "cannot release the pool's metadata snapshot: %s", strerror(-rerr));
		err = rerr;
	}
	free(xml);
	return err;
}
