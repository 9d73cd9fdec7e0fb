/*
 * reqsig.h -- signed HTTP requests: the canonical bytes a player signs
 * and the Authorization header that carries the signature.
 *
 * A request is authenticated by the header
 *
 *   Authorization: PBEM-Ed25519 player=<name>, time=<unix seconds>,
 *       nonce=<1-64 letters, digits, '-' or '_'>, [version=2,]
 *       signature=<base64>
 *
 * whose signature is Ed25519 by the player's key over the canonical
 * bytes (docs/PROTOCOL.md section "Signed HTTP requests"):
 *
 *   pbem-request-v1 LF			(version 2: pbem-request-v2)
 *   player: <name> LF
 *   method: <METHOD> LF
 *   target: <path and query exactly as in the request line> LF
 *   time: <decimal unix seconds> LF
 *   nonce: <the nonce, or nothing if the header has none> LF
 *   body: <64 lower-case hex digits: BLAKE2b-256 of the body> LF
 *					(version 2: SHA-256 of the body)
 *
 * Version 2 differs only in the body hash, SHA-256, which the standard
 * libraries of Node.js and Python make without an extra package; a
 * header without version= is version 1.
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
#define REQSIG_NONCE_MAX	65	/* a nonce with its NUL */
#define REQSIG_HEADER_MAX	320	/* the header's value, with NUL */
#define REQSIG_V1_BLAKE2B	1	/* body hash BLAKE2b-256 */
#define REQSIG_V2_SHA256	2	/* body hash SHA-256 */

/*
 * The nonce is optional.  Ed25519 signatures are deterministic, so two
 * identical requests signed in the same second have the same signature
 * and the second is refused as a replay; a fresh nonce per request (what
 * `pbem request` sends) makes each one distinct.
 */
struct reqsig {
	char		player[REQSIG_PLAYER_MAX];
	int64_t		time;			/* unix seconds */
	char		nonce[REQSIG_NONCE_MAX];	/* "" if none */
	int		version;		/* REQSIG_V1_... or V2_... */
	unsigned char	signature[PROTO_SIG_BYTES];
};

/* Is name a player name: 1-63 letters, digits, '.', '-' or '_'?  The one
 * rule for names a request can carry, and so for names registered over
 * HTTP (api_players.c). */
int	reqsig_valid_player(const char *name);

/* The canonical bytes of version `version` (REQSIG_V1_BLAKE2B or
 * REQSIG_V2_SHA256) for a request into buf.  Returns the length, or 0
 * if buf is too small or a part cannot be encoded (a method that is not
 * 1-15 upper-case letters, a target that does not start with '/' or holds
 * a byte outside 0x21-0x7e, a player name that is not 1-63 letters,
 * digits, '.', '-' or '_', a negative time, a nonce that is not 0-64
 * letters, digits, '-' or '_'). */
size_t	reqsig_canonical(int version, const char *player,
	    const char *method, const char *target, int64_t time,
	    const char *nonce, const void *body, size_t body_len,
	    unsigned char *buf, size_t buflen);

/* Sign a request with version `version` of the canonical bytes and write
 * the header's value ("PBEM-Ed25519 player=..., time=..., nonce=...,
 * [version=2, ]signature=...") into header; nonce may be "" (no nonce=
 * then).  0, or -1 if the request cannot be encoded or header is too
 * small. */
int	reqsig_sign(int version, const char *player, const char *method,
	    const char *target, int64_t time, const char *nonce,
	    const void *body,
	    size_t body_len, const unsigned char seckey[PROTO_SECKEY_BYTES],
	    char *header, size_t headerlen);

/* Read the value of an Authorization header into rs.  PROTO_OK, or
 * PROTO_MALFORMED with a sentence in err saying what is wrong and what
 * the header must look like.  The parameters may come in any order,
 * separated by commas, with blanks around them; player, time and
 * signature exactly once, nonce and version (1 or 2; 1 if absent) at most
 * once; the scheme and the
 * parameter names are case-insensitive. */
enum proto_status reqsig_parse_header(const char *value, struct reqsig *rs,
	    char *err, size_t errlen);

/* Check rs's signature over the request with the player's public key:
 * PROTO_OK, PROTO_BAD_SIGNATURE, or PROTO_MALFORMED if the request cannot
 * be encoded. */
enum proto_status reqsig_verify(const struct reqsig *rs, const char *method,
	    const char *target, const void *body, size_t body_len,
	    const unsigned char pubkey[PROTO_PUBKEY_BYTES]);

#endif /* PBEM_REQSIG_H */
