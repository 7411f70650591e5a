/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a file given to a tool looks like, from its type and its first
 * bytes only: so that a tool that appends to a record file, or reads a
 * result file whole, refuses a disk image, a device or another tool's
 * results before it writes or reads anything more (r0trim --watch,
 * r0predict).
 */
#ifndef R0_FILEHEAD_H
#define R0_FILEHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How much of a file r0_file_head reads. */
#define R0_FILE_HEAD_BYTES 65536

enum r0_head_kind {
	R0_HEAD_MISSING,    /* no such file */
	R0_HEAD_EMPTY,      /* a regular file of 0 bytes */
	R0_HEAD_DIR,        /* a directory */
	R0_HEAD_DEVICE,     /* a block or character device */
	R0_HEAD_SPECIAL,    /* a FIFO or a socket: not opened, it might block */
	R0_HEAD_BINARY,     /* a regular file with a NUL byte in its head (an image, an r0trace) */
	R0_HEAD_TEXT,       /* text that does not start as JSON */
	R0_HEAD_JSON,       /* text starting with '{' or '[' */
};

struct r0_file_head {
	enum r0_head_kind kind;
	uint64_t size_bytes;        /* a regular file's size */
	bool block_device;          /* DEVICE: a block device, not a character one */
	/*
	 * JSON: the value of "schema" or "r0kit_schema" when it is the first
	 * key of the first object (as every r0kit tool writes it); BINARY:
	 * "r0trace/1" for r0profile's recording; else "".
	 */
	char schema[40];
	bool line_object;           /* JSON: the first line is one whole JSON object (a JSON Lines record) */
};

/*
 * Looks at PATH: its type, and for a regular file its first
 * R0_FILE_HEAD_BYTES. 0 and *OUT (R0_HEAD_MISSING when PATH does not
 * exist), or -errno (stat or read failed).
 */
int r0_file_head(const char *path, struct r0_file_head *out);

/*
 * What H is, in words for a message: "a directory", "a block device",
 * "binary data (a disk image?)", "r0sweep results (r0sweep/1)", "JSON of
 * schema X", "JSON without an r0kit schema", "text, not JSON", "empty".
 */
void r0_file_head_describe(const struct r0_file_head *h, char *buf, size_t len);

#endif
