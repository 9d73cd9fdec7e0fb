/*
 * protocol.h -- signed moves, receipts and keys as text.
 *
 * A player signs (game id, sequence number, seat, move text) with Ed25519
 * over a canonical, versioned encoding; the signed move travels as an
 * armoured text block that survives being pasted into an email (quoting
 * with "> ", re-wrapping, trailing blanks, CRLF).  The server answers an
 * accepted move with a receipt: its own signature over the log entry.
 * docs/PROTOCOL.md specifies every byte, with test vectors
 * (tests/check_protocol.c checks them).
 *
 * Nothing here touches the store or the rules; it is pure functions over
 * bytes, safe on any input: every parser returns PROTO_OK or a specific
 * error with a message, never crashes, never reads past its input.
 *
 * The core calls sodium_init() once at start-up, before any of these.
 */
#ifndef PBEM_PROTOCOL_H
#define PBEM_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION		1
#define PROTO_MOVE_MAX		1024	/* bytes of move text, after cleaning */
#define PROTO_PUBKEY_BYTES	32
#define PROTO_SECKEY_BYTES	64
#define PROTO_SIG_BYTES		64
#define PROTO_HASH_BYTES	32
#define PROTO_CANONICAL_MAX	1152	/* canonical bytes of a move or receipt */
#define PROTO_ARMOUR_MAX	1536	/* an armoured block, with its NUL */
#define PROTO_KEY_TEXT_MAX	128	/* a key as text, with its NUL */

enum proto_status {
	PROTO_OK = 0,
	PROTO_NOT_FOUND,	/* no armoured block in the text */
	PROTO_MALFORMED,	/* a block, but a field is missing or bad */
	PROTO_VERSION_UNKNOWN,	/* a block of a version we do not read */
	PROTO_BAD_SIGNATURE,	/* signature does not verify */
	PROTO_TOO_LONG		/* move text longer than PROTO_MOVE_MAX */
};

struct proto_move {
	int64_t		game_id;
	int64_t		seq;
	int		seat;
	char		text[PROTO_MOVE_MAX + 1];	/* cleaned move text */
	unsigned char	signature[PROTO_SIG_BYTES];
};

struct proto_receipt {
	int64_t		game_id;
	int64_t		seq;
	int		seat;
	unsigned char	entry_hash[PROTO_HASH_BYTES];
	unsigned char	signature[PROTO_SIG_BYTES];	/* the server's */
};

/* Normalise move text in place: CRLF and tabs to spaces, runs of blanks to
 * one space, trimmed; invalid UTF-8 or control characters are refused.
 * Empty text is PROTO_MALFORMED; longer than PROTO_MOVE_MAX bytes once
 * cleaned is PROTO_TOO_LONG.  On error, text is left unchanged. */
enum proto_status proto_clean_text(char *text, char *err, size_t errlen);

/* The canonical bytes that are signed for m (without its signature).
 * Returns the length, or 0 if buf is too small or m cannot be encoded
 * (a negative game id, seq or seat, or text not in proto_clean_text's
 * form).  PROTO_CANONICAL_MAX bytes are always enough.  proto_move_sign
 * asserts that m can be encoded; proto_move_verify answers
 * PROTO_MALFORMED if it cannot, PROTO_BAD_SIGNATURE if the signature
 * does not verify. */
size_t	proto_move_canonical(const struct proto_move *m, unsigned char *buf,
	    size_t buflen);
void	proto_move_sign(struct proto_move *m,
	    const unsigned char seckey[PROTO_SECKEY_BYTES]);
enum proto_status proto_move_verify(const struct proto_move *m,
	    const unsigned char pubkey[PROTO_PUBKEY_BYTES]);

/* Write the armoured block for m into out (NUL-terminated).  Returns the
 * length, or 0 if out is too small (PROTO_ARMOUR_MAX always suffices) or
 * m cannot be encoded. */
size_t	proto_move_armour(const struct proto_move *m, char *out,
	    size_t outlen);
/* Find the first armoured move block anywhere in text (quoted, re-wrapped,
 * indented, CRLF) and read it into m.  Does not verify the signature.
 * text need not be NUL-terminated.  On any status but PROTO_OK, m is
 * zeroed and err says what was wrong. */
enum proto_status proto_move_find(const char *text, size_t len,
	    struct proto_move *m, char *err, size_t errlen);
/* The offset of the next line, from offset *from on (the start of a
 * line), that opens a move block, however quoted; its quoting depth
 * (the number of '>' in the line's prefix of '>', spaces and tabs) in
 * *depth, and *from moved to the line after it.  -1 if there is none.
 * For a reader that must choose among several blocks (the mail gateway
 * plays the least quoted one). */
long	proto_move_begin_next(const char *text, size_t len, size_t *from,
	    size_t *depth);

/* Receipts: as for moves.  There is no proto_receipt_sign: the server
 * signs proto_receipt_canonical()'s bytes with its own key, held apart. */
size_t	proto_receipt_canonical(const struct proto_receipt *r,
	    unsigned char *buf, size_t buflen);
enum proto_status proto_receipt_verify(const struct proto_receipt *r,
	    const unsigned char server_pubkey[PROTO_PUBKEY_BYTES]);
size_t	proto_receipt_armour(const struct proto_receipt *r, char *out,
	    size_t outlen);
enum proto_status proto_receipt_find(const char *text, size_t len,
	    struct proto_receipt *r, char *err, size_t errlen);

/* Keys as one line of text: "ed25519:<base64 of 32 bytes>" for public
 * keys, "ed25519-secret:<base64 of 64 bytes>" for secret keys.  The
 * format functions return the length, or 0 if out is too small
 * (PROTO_KEY_TEXT_MAX suffices).  The parsers ignore blanks around the
 * text, and refuse a public key that is not a valid curve point and a
 * secret key whose public half does not match its seed. */
size_t	proto_pubkey_format(const unsigned char pk[PROTO_PUBKEY_BYTES],
	    char *out, size_t outlen);
enum proto_status proto_pubkey_parse(const char *text,
	    unsigned char pk[PROTO_PUBKEY_BYTES], char *err, size_t errlen);
/* The 32 bytes of a public key's text, without the curve-point check
 * (which costs more than a signature check): only for a caller that
 * compares them with a key proto_pubkey_parse() accepted before trusting
 * anything they verify (daemon/engine/verifier.c). */
enum proto_status proto_pubkey_decode(const char *text,
	    unsigned char pk[PROTO_PUBKEY_BYTES]);
size_t	proto_seckey_format(const unsigned char sk[PROTO_SECKEY_BYTES],
	    char *out, size_t outlen);
enum proto_status proto_seckey_parse(const char *text,
	    unsigned char sk[PROTO_SECKEY_BYTES], char *err, size_t errlen);

/* Lower-case hex of n bytes into out (2n+1 bytes); and back (-1 if bad:
 * hex must be exactly 2n hex digits, either case). */
void	proto_hex(const unsigned char *bytes, size_t n, char *out);
int	proto_unhex(const char *hex, unsigned char *bytes, size_t n);

#endif /* PBEM_PROTOCOL_H */
