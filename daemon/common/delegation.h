/*
 * delegation.h -- the delegation certificate: a player's signed
 * permission for a bot key to act for them (docs/PROTOCOL.md section 13,
 * docs/BOTS.md "Delegation").
 *
 * The player signs, with their own Ed25519 key, the canonical bytes
 *
 *   pbem-delegation-v1 LF
 *   player: <name> LF
 *   bot: ed25519:<base64 of the bot's public key> LF
 *   game: <game id, or "all"> LF
 *   scope: <"moves" (moves and private views) or "views"> LF
 *   issued: <unix seconds> LF
 *   expires: <unix seconds> LF
 *
 * The certificate travels as JSON ({"player", "bot", "game" (a number or
 * "all"), "scope", "issued", "expires", "signature" (base64)}); its id is
 * the first 8 bytes, in hex, of the BLAKE2b-256 of the canonical bytes.
 *
 * A revocation is the player's signed statement that one certificate
 * is ended, for a channel that carries no signed request (a mail):
 *
 *   pbem-revocation-v1 LF
 *   player: <name> LF
 *   certificate: <the certificate's 16-hex-digit id> LF
 *
 * as JSON {"player", "certificate", "signature"}.  It holds no time: a
 * revoked certificate stays revoked, so a revocation replayed changes
 * nothing.
 *
 * Pure functions over bytes, like protocol.h and reqsig.h: no store, no
 * clock.  sodium_init() must have been called.
 */
#ifndef PBEM_DELEGATION_H
#define PBEM_DELEGATION_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "protocol.h"

#define DELEGATION_ALL_GAMES	0	/* game: all */
#define DELEGATION_ID_TEXT	17	/* 16 hex digits and the NUL */
#define DELEGATION_CANONICAL_MAX 512

enum delegation_scope {
	DELEGATION_MOVES = 1,	/* moves and the seat's private view */
	DELEGATION_VIEWS = 2	/* the seat's private view only */
};

struct delegation {
	char		player[64];		/* the player's name */
	unsigned char	bot[PROTO_PUBKEY_BYTES];	/* the bot's key */
	int64_t		game;			/* DELEGATION_ALL_GAMES or an id */
	enum delegation_scope scope;
	int64_t		issued, expires;	/* unix seconds */
	unsigned char	signature[PROTO_SIG_BYTES];	/* the player's */
};

/* "moves" or "views". */
const char *delegation_scope_name(enum delegation_scope scope);

/* The canonical bytes of d into buf; the length, or 0 if a field cannot
 * be encoded (a name that is not a player name, a negative game or time,
 * expires not after issued) or buf is too small. */
size_t	delegation_canonical(const struct delegation *d, unsigned char *buf,
	    size_t buflen);

/* Sign d with the player's secret key (fills d->signature); 0, or -1 if d
 * cannot be encoded. */
int	delegation_sign(struct delegation *d,
	    const unsigned char seckey[PROTO_SECKEY_BYTES]);

/* PROTO_OK if d's signature is the player key's over its canonical bytes,
 * PROTO_BAD_SIGNATURE if not, PROTO_MALFORMED if d cannot be encoded. */
enum proto_status delegation_verify(const struct delegation *d,
	    const unsigned char player_key[PROTO_PUBKEY_BYTES]);

/* d's id: 16 lower-case hex digits into id (DELEGATION_ID_TEXT bytes);
 * 0, or -1 if d cannot be encoded. */
int	delegation_id(const struct delegation *d,
	    char id[DELEGATION_ID_TEXT]);

/* d as the JSON object above (a new reference). */
json_t *delegation_to_json(const struct delegation *d);

/* Read the JSON object into d: PROTO_OK, or PROTO_MALFORMED with a
 * sentence in err naming the field that is wrong and what it must be, in
 * French if french, else in English.  The signature is not checked here
 * (delegation_verify). */
enum proto_status delegation_from_json(const json_t *obj,
	    struct delegation *d, int french, char *err, size_t errlen);

/* ---- revocations ------------------------------------------------------ */

struct delegation_revocation {
	char		player[64];		/* the player's name */
	char		id[DELEGATION_ID_TEXT];	/* the certificate's id */
	unsigned char	signature[PROTO_SIG_BYTES];	/* the player's */
};

/* 1 if id is 16 lower-case hexadecimal digits (a certificate id). */
int	delegation_id_valid(const char *id);

/* The canonical bytes of r into buf; the length, or 0 if a field cannot
 * be encoded or buf is too small. */
size_t	delegation_revocation_canonical(const struct delegation_revocation *r,
	    unsigned char *buf, size_t buflen);

/* Sign r with the player's secret key; 0, or -1 if r cannot be encoded. */
int	delegation_revocation_sign(struct delegation_revocation *r,
	    const unsigned char seckey[PROTO_SECKEY_BYTES]);

/* PROTO_OK, PROTO_BAD_SIGNATURE or PROTO_MALFORMED, as delegation_verify. */
enum proto_status delegation_revocation_verify(
	    const struct delegation_revocation *r,
	    const unsigned char player_key[PROTO_PUBKEY_BYTES]);

/* r as JSON (a new reference). */
json_t *delegation_revocation_to_json(const struct delegation_revocation *r);

/* Read the JSON object into r, as delegation_from_json(). */
enum proto_status delegation_revocation_from_json(const json_t *obj,
	    struct delegation_revocation *r, int french, char *err,
	    size_t errlen);

#endif /* PBEM_DELEGATION_H */
