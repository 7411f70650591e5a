// SPDX-License-Identifier: GPL-2.0-or-later
/* A thin volume's block mapping from a metadata snapshot of its pool (r0/thinmap.h). */
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <limits.h>
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

/* What the parse has seen so far; ERR ends it (XML_StopParser). */
struct dump_parse {
	XML_Parser xp;
	struct r0_thin_map *map;
	unsigned dev_id;
	bool in_dev, found, superblock;
	int err;
};

/* The value of ATTR in ATTS (expat's name, value pairs), a whole decimal number: 0 or -EINVAL. */
static int attr_u64(const XML_Char **atts, const char *attr, uint64_t *v)
{
	for (; atts[0]; atts += 2) {
		if (strcmp(atts[0], attr))
			continue;
		char *stop;
		unsigned long long x;

		errno = 0;
		x = strtoull(atts[1], &stop, 10);
		if (errno || stop == atts[1] || *stop || atts[1][0] == '-')
			return -EINVAL;
		*v = x;
		return 0;
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

static void XMLCALL start(void *ctx, const XML_Char *el, const XML_Char **atts)
{
	struct dump_parse *d = ctx;
	uint64_t a, b, c;
	int err = 0;

	if (!strcmp(el, "superblock")) {
		d->superblock = true;
	} else if (!strcmp(el, "device")) {
		if (!(err = attr_u64(atts, "dev_id", &a))) {
			d->in_dev = a == d->dev_id;
			d->found |= d->in_dev;
		}
	} else if (d->in_dev && !strcmp(el, "range_mapping")) {
		if (!(err = attr_u64(atts, "origin_begin", &a)) && !(err = attr_u64(atts, "data_begin", &b)) &&
		    !(err = attr_u64(atts, "length", &c)))
			err = add(d->map, a, b, c);
	} else if (d->in_dev && !strcmp(el, "single_mapping")) {
		if (!(err = attr_u64(atts, "origin_block", &a)) && !(err = attr_u64(atts, "data_block", &b)))
			err = add(d->map, a, b, 1);
	}
	if (err) {
		d->err = err;
		XML_StopParser(d->xp, XML_FALSE);
	}
}

static void XMLCALL end(void *ctx, const XML_Char *el)
{
	struct dump_parse *d = ctx;

	if (!strcmp(el, "device"))
		d->in_dev = false;
}

/* thin_dump's XML read by expat, so a change of layout, quoting or order of
 * attributes is read as thin_dump meant it; anything that is not whole,
 * well-formed XML is refused. */
int r0_thin_map_parse(const char *xml, size_t len, unsigned dev_id, struct r0_thin_map *map)
{
	struct dump_parse d = { .map = map, .dev_id = dev_id };
	int err = 0;

	map->n = 0;
	if (len > INT_MAX)
		return -E2BIG;
	if (!(d.xp = XML_ParserCreate(NULL)))
		return -ENOMEM;
	XML_SetUserData(d.xp, &d);
	XML_SetElementHandler(d.xp, start, end);
	if (XML_Parse(d.xp, xml, (int)len, XML_TRUE) != XML_STATUS_OK)
		err = d.err ? d.err : XML_GetErrorCode(d.xp) == XML_ERROR_NO_MEMORY ? -ENOMEM : -EINVAL;
	XML_ParserFree(d.xp);
	if (err)
		return err;
	if (!d.superblock)
		return -EINVAL;
	return d.found ? 0 : -ENOENT;
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
