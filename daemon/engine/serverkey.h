/*
 * serverkey.h -- the server's Ed25519 signing key, isolated.
 *
 * The secret key lives in its own file (mode 0600, beside the database:
 * "<database>.key") and in this module's memory only.  The rest of pbem
 * can ask for the public key and for a signature over bytes; nothing
 * else can read the secret.  Receipts and the genesis record of each game
 * are signed here.
 */
#ifndef PBEM_SERVERKEY_H
#define PBEM_SERVERKEY_H

#include <stddef.h>

#define SERVERKEY_PUB_BYTES	32
#define SERVERKEY_SIG_BYTES	64

struct serverkey;

/* Load the key from path, creating it (0600) if create is set and the
 * file does not exist.  NULL with the reason in err on failure. */
struct serverkey *serverkey_open(const char *path, int create, char *err,
	    size_t errlen);
void	serverkey_close(struct serverkey *k);
void	serverkey_public(const struct serverkey *k,
	    unsigned char pub[SERVERKEY_PUB_BYTES]);
void	serverkey_sign(const struct serverkey *k, const unsigned char *msg,
	    size_t len, unsigned char sig[SERVERKEY_SIG_BYTES]);
/* The key file's path for a database path (malloc'd). */
char   *serverkey_path_for(const char *dbpath);

#endif /* PBEM_SERVERKEY_H */
