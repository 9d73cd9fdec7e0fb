/*
 * secretfile.h -- reading a secret (a password, a token, a key) from a
 * file of its own, so that no secret has to sit inline in pbemd.conf.
 *
 * The rule, the same for every secret file (docs/CONFIG.md, "Secrets"):
 * the file must be a regular file that other users can neither read nor
 * write, and that the group cannot write: modes 0600, 0400, 0640 and 0440
 * are accepted (0640 root:pbem is the usual way to let the daemon's group
 * read a file root owns); anything looser is refused with a message that
 * names the file, its mode and the `chmod` that fixes it.  A text secret
 * is the file's first line, without its line end; an empty file, a
 * secret longer than the caller's buffer or a NUL byte is refused.
 */
#ifndef PBEM_SECRETFILE_H
#define PBEM_SECRETFILE_H

#include <stddef.h>

/* 0 when the open file fd (named path in messages) may hold a secret;
 * -1 with the reason in err. */
int	secretfile_check_mode(int fd, const char *path, char *err,
	    size_t errlen);

/* The first line of the secret file at path into buf (NUL-terminated,
 * at most size - 1 bytes); 0, or -1 with the reason, naming path, in err
 * and buf wiped. */
int	secretfile_read_line(const char *path, char *buf, size_t size,
	    char *err, size_t errlen);

#endif /* PBEM_SECRETFILE_H */
