// SPDX-License-Identifier: GPL-2.0-or-later
/* sysfs attribute files: read one value, write one value. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysfs.h"

int r0_sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int r0_sysfs_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	int err = r0_sysfs_read(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

int r0_sysfs_read_devt(const char *path, dev_t *devt)
{
	char buf[32];
	unsigned maj, min;
	int n = 0, err = r0_sysfs_read(path, buf, sizeof(buf));

	if (err)
		return err;
	if (sscanf(buf, "%u:%u%n", &maj, &min, &n) != 2 || buf[n])
		return -EINVAL;
	*devt = makedev(maj, min);
	return 0;
}

int r0_sysfs_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int err = 0, fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

int r0_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

int r0_sysfs_queue_path(dev_t devt, const char *attr, char *path, size_t len)
{
	int ret = r0_path(path, len, "/sys/dev/block/%u:%u/queue/%s", major(devt), minor(devt), attr);

	/* a disk has queue/, a partition finds its disk's one level up */
	if (!ret && access(path, F_OK))
		ret = r0_path(path, len, "/sys/dev/block/%u:%u/../queue/%s", major(devt), minor(devt), attr);
	return ret;
}
