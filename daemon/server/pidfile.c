/*
 * pidfile.c -- see pidfile.h.
 *
 * flock(2), not fcntl(2) locks: an fcntl lock belongs to the process and
 * is dropped when *any* descriptor of the file is closed, which a library
 * might do behind our back; a flock belongs to the open file description
 * we keep.
 *
 * The race every pid file has: daemon A unlinks its file on exit while
 * daemon B, which opened that same file a moment before, waits for the
 * lock; B then holds a lock on a file no one can see, and daemon C
 * creates a new file and locks it too.  So after taking the lock we check
 * that the path still names the file we locked, and start over if not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pidfile.h"

struct pidfile {
	int	 fd;
	char	*path;
};

/* The pid written in the file open at fd, or 0 if it holds none. */
static long
pid_in_file(int fd)
{
	char text[32];
	ssize_t n;
	char *end;
	long pid;

	if ((n = pread(fd, text, sizeof(text) - 1, 0)) <= 0)
		return 0;
	text[n] = '\0';
	pid = strtol(text, &end, 10);
	return end != text && pid > 0 ? pid : 0;
}

/* Does path still name the file open at fd? */
static int
same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

struct pidfile *
pidfile_acquire(const char *path, char *err, size_t errlen)
{
	struct pidfile *pf;
	char text[32];
	int fd, tries, len;
	long other;

	for (tries = 0; tries < 10; tries++) {
		if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) ==
		    -1) {
			snprintf(err, errlen, "pid file %s: %s", path,
			    strerror(errno));
			return NULL;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
			if (errno == EWOULDBLOCK) {
				other = pid_in_file(fd);
				if (other > 0)
					snprintf(err, errlen, "another pbemd "
					    "(pid %ld) is running on this "
					    "database: %s is locked", other,
					    path);
				else
					snprintf(err, errlen, "another pbemd "
					    "is running on this database: %s "
					    "is locked", path);
			} else
				snprintf(err, errlen, "pid file %s: lock: %s",
				    path, strerror(errno));
			close(fd);
			return NULL;
		}
		if (same_file(fd, path))
			break;
		close(fd);	/* unlinked under us: start over */
		fd = -1;
	}
	if (fd == -1) {
		snprintf(err, errlen, "pid file %s keeps being replaced", path);
		return NULL;
	}
	len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || pwrite(fd, text, (size_t)len, 0) !=
	    len) {
		snprintf(err, errlen, "pid file %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if ((pf = calloc(1, sizeof(*pf))) == NULL ||
	    (pf->path = strdup(path)) == NULL) {
		free(pf);
		close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pf->fd = fd;
	return pf;
}

void
pidfile_release(struct pidfile *pf)
{
	if (pf == NULL)
		return;
	/* Unlink while still holding the lock, so no one can lock the
	 * name we are about to remove. */
	unlink(pf->path);
	close(pf->fd);
	free(pf->path);
	free(pf);
}
