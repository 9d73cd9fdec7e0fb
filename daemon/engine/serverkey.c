/*
 * serverkey.c -- load, create and use the server's signing key.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "protocol.h"
#include "serverkey.h"

struct serverkey {
	unsigned char	pub[crypto_sign_PUBLICKEYBYTES];
	unsigned char	sec[crypto_sign_SECRETKEYBYTES];
};

char *
serverkey_path_for(const char *dbpath)
{
	size_t len = strlen(dbpath) + sizeof(".key");
	char *path = malloc(len);

	if (path != NULL)
		snprintf(path, len, "%s.key", dbpath);
	return path;
}

static int
create_key(const char *path, struct serverkey *k, char *err, size_t errlen)
{
	char text[256];
	size_t len;
	int fd;

	crypto_sign_keypair(k->pub, k->sec);
	len = proto_seckey_format(k->sec, text, sizeof(text));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	text[len++] = '\n';
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) != 0) {
		snprintf(err, errlen, "%s: write: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	sodium_memzero(text, sizeof(text));
	close(fd);
	return 0;
}

static int
read_key(const char *path, struct serverkey *k, char *err, size_t errlen)
{
	char text[256], perr[256];
	struct stat sb;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &sb) == 0 && (sb.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s: the server key must not be readable "
		    "by group or others (chmod 600 %s)", path, path);
		fclose(f);
		return -1;
	}
	if (fgets(text, sizeof(text), f) == NULL) {
		snprintf(err, errlen, "%s: empty key file", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	text[strcspn(text, "\r\n")] = '\0';
	if (proto_seckey_parse(text, k->sec, perr, sizeof(perr)) != PROTO_OK) {
		snprintf(err, errlen, "%s: %s", path, perr);
		sodium_memzero(text, sizeof(text));
		return -1;
	}
	sodium_memzero(text, sizeof(text));
	crypto_sign_ed25519_sk_to_pk(k->pub, k->sec);
	return 0;
}

struct serverkey *
serverkey_open(const char *path, int create, char *err, size_t errlen)
{
	struct serverkey *k;
	int rc;

	if (sodium_init() < 0) {
		snprintf(err, errlen, "libsodium failed to initialise");
		return NULL;
	}
	if ((k = sodium_malloc(sizeof(*k))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (create && access(path, F_OK) != 0)
		rc = create_key(path, k, err, errlen);
	else
		rc = read_key(path, k, err, errlen);
	if (rc != 0) {
		sodium_free(k);
		return NULL;
	}
	return k;
}

void
serverkey_close(struct serverkey *k)
{
	if (k != NULL)
		sodium_free(k);		/* zeroes the memory */
}

void
serverkey_public(const struct serverkey *k,
    unsigned char pub[SERVERKEY_PUB_BYTES])
{
	memcpy(pub, k->pub, SERVERKEY_PUB_BYTES);
}

void
serverkey_sign(const struct serverkey *k, const unsigned char *msg,
    size_t len, unsigned char sig[SERVERKEY_SIG_BYTES])
{
	crypto_sign_detached(sig, NULL, msg, len, k->sec);
}
