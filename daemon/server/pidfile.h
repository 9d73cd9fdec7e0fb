/*
 * pidfile.h -- the pid and lock file that keeps two pbemd off one
 * database.
 *
 * pidfile_acquire() takes an exclusive flock(2) on the file, writes the
 * daemon's pid into it and keeps the descriptor open for the daemon's
 * life.  The lock, not the file's existence, decides: a file left by a
 * daemon that was killed holds no lock, so a restart takes it over.  A
 * second daemon finds the lock held, reads the pid of the first from
 * the file and refuses to start.  pidfile_release() removes the file and
 * drops the lock (clean exit); the kernel drops it on any other exit.
 */
#ifndef PBEM_PIDFILE_H
#define PBEM_PIDFILE_H

#include <stddef.h>

struct pidfile;

/* The lock file at path, locked and holding our pid; NULL with the
 * reason in err ("... is locked by pbemd pid 1234 ..."). */
struct pidfile	*pidfile_acquire(const char *path, char *err, size_t errlen);
/* Remove the file, then close it (which drops the lock). */
void		 pidfile_release(struct pidfile *pf);

#endif /* PBEM_PIDFILE_H */
