// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0hold DEVICE MS: claims DEVICE as a program does (open O_EXCL), prints
 * "held" once it has, keeps the claim MS milliseconds and exits 0; 1 if
 * the open failed. Sandbox tests use it for a device claimed for a moment
 * (as udev's partition rescan claims a disk after a write) and for one a
 * program keeps: a tool waits out the first and refuses the second.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long ms;
	int fd;

	if (argc != 3 || (ms = strtol(argv[2], &end, 10)) < 0 || *end || end == argv[2]) {
		fprintf(stderr, "usage: r0hold DEVICE MS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "r0hold: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L }, NULL);
	close(fd);
	return 0;
}
