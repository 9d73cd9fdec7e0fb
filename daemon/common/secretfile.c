/*
 * secretfile.c -- secrets read from files of their own (see secretfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secretfile.h"

/* Mode bits a secret file must not have: any access by others, and
 * writing by the group. */
#define SECRET_FORBIDDEN_BITS	(S_IRWXO | S_IWGRP)

int
secretfile_check_mode(int fd, const char *path, char *err, size_t errlen)
{
	struct stat sb;

	if (fstat(fd, &sb) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if ((sb.st_mode & SECRET_FORBIDDEN_BITS) != 0) {
		snprintf(err, errlen, "%s: mode %04o lets other users read or "
		    "change a secret; refused (run `chmod 0640 %s`, or 0600)",
		    path, (unsigned int)(sb.st_mode & 07777), path);
		return -1;
	}
	return 0;
}

int
secretfile_read_line(const char *path, char *buf, size_t size, char *err,
    size_t errlen)
{
	ssize_t n;
	size_t len;
	char *end;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (secretfile_check_mode(fd, path, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	/* One byte more than fits, to tell "too long" from "just fits". */
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		memset(buf, 0, size);
		return -1;
	}
	buf[n] = '\0';
	if ((end = memchr(buf, '\n', (size_t)n)) == NULL && (size_t)n == size - 1) {
		snprintf(err, errlen, "%s: longer than %zu bytes", path,
		    size - 2);
		memset(buf, 0, size);
		return -1;
	}
	len = end != NULL ? (size_t)(end - buf) : (size_t)n;
	if (len > 0 && buf[len - 1] == '\r')
		len--;
	if (memchr(buf, '\0', len) != NULL) {
		snprintf(err, errlen, "%s: holds a NUL byte", path);
		memset(buf, 0, size);
		return -1;
	}
	buf[len] = '\0';
	if (len == 0) {
		snprintf(err, errlen, "%s: empty (the secret is its first "
		    "line)", path);
		memset(buf, 0, size);
		return -1;
	}
	return 0;
}
