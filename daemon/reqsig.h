/*
 * reqsig.h -- signed HTTP requests: the canonical bytes a player signs
 * and the Authorization header that carries the signature.
 *
 * A request is authenticated by the header
 *
 *   Authorization: PBEM-Ed25519 player=<name>, time=<unix seconds>,
 *       signature=<base64 of 64 bytes>
 *
 * whose signature is Ed25519 by the player's key over the canonical
 * bytes (version 1; docs/PROTOCOL.md section "Signed HTTP requests"):
 *
 *   pbem-request-v1 LF
 *   player: <name> LF
 *   method: <METHOD> LF
 *   target: <path and query exactly as in the request line> LF
 *   time: <decimal unix seconds> LF
 *   body: <64 lower-case hex digits: BLAKE2b-256 of the body> LF
 *
 * Pure functions over bytes, like protocol.h: they never touch the store,
 * the clock or the network.  The daemon's side (window, replay cache,
 * player lookup) is in api_auth.c.  sodium_init() must have been called.
 */
#ifndef PBEM_REQSIG_H
#define PBEM_REQSIG_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

#define REQSIG_SCHEME		"PBEM-Ed25519"
#define REQSIG_PLAYER_MAX	64	/* a player name with its NUL */
#define REQSIG_METHOD_MAX	16
#define REQSIG_TARGET_MAX	2048	/* longest request target signed */
#define REQSIG_CANONICAL_MAX	(REQSIG_TARGET_MAX + 256)
#define REQSIG_HEADER_MAX	256	/* the header's value, with NUL */

struct reqsig {
	char		player[REQSIG_PLAYER_MAX];
	int64_t		time;			/* unix seconds */
	unsigned char	signature[PROTO_SIG_BYTES];
};

/* The canonical bytes for a request into buf.  Returns the length, or 0
 * if buf is too small or a part cannot be encoded (a method that is not
 * 1-15 upper-case letters, a target that does not start with '/' or holds
 * a byte outside 0x21-0x7e, a player name that is not 1-63 letters,
 * digits, '.', '-' or '_', a negative time). */
size_t	reqsig_canonical(const char *player, const char *method,
	    const char *target, int64_t time, const void *body,
	    size_t body_len, unsigned char *buf, size_t buflen);

/* Sign a request: fills rs and writes the header's value ("PBEM-Ed25519
 * player=..., time=..., signature=...") into header.  0, or -1 if the
 * request cannot be encoded or header is too small. */
int	reqsig_sign(const char *player, const char *method,
	    const char *target, int64_t time, const void *body,
	    size_t body_len, const unsigned char seckey[PROTO_SECKEY_BYTES],
	    char *header, size_t headerlen);

/* Read the value of an Authorization header into rs.  PROTO_OK, or
 * PROTO_MALFORMED with a sentence in err saying what is wrong and what
 * the header must look like.  The three parameters may come in any
 * order, separated by commas, with blanks around them; each exactly
 * once; the scheme is case-insensitive. */
enum proto_status reqsig_parse_header(const char *value, struct reqsig *rs,
	    char *err, size_t errlen);

/* Check rs's signature over the request with the player's public key:
 * PROTO_OK, PROTO_BAD_SIGNATURE, or PROTO_MALFORMED if the request cannot
 * be encoded. */
enum proto_status reqsig_verify(const struct reqsig *rs, const char *method,
	    const char *target, const void *body, size_t body_len,
	    const unsigned char pubkey[PROTO_PUBKEY_BYTES]);

#endif /* PBEM_REQSIG_H */
