/*
 * delegation.c -- the delegation certificate's bytes, signature, id and
 * JSON form (delegation.h).
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "delegation.h"
#include "reqsig.h"

const char *
delegation_scope_name(enum delegation_scope scope)
{
	return scope == DELEGATION_VIEWS ? "views" : "moves";
}

size_t
delegation_canonical(const struct delegation *d, unsigned char *buf,
    size_t buflen)
{
	char bot[PROTO_KEY_TEXT_MAX], game[24];
	int n;

	if (!reqsig_valid_player(d->player) || d->game < 0 ||
	    d->issued < 0 || d->expires <= d->issued ||
	    (d->scope != DELEGATION_MOVES && d->scope != DELEGATION_VIEWS))
		return 0;
	proto_pubkey_format(d->bot, bot, sizeof(bot));
	if (d->game == DELEGATION_ALL_GAMES)
		snprintf(game, sizeof(game), "all");
	else
		snprintf(game, sizeof(game), "%lld", (long long)d->game);
	n = snprintf((char *)buf, buflen, "pbem-delegation-v1\nplayer: %s\n"
	    "bot: %s\ngame: %s\nscope: %s\nissued: %lld\nexpires: %lld\n",
	    d->player, bot, game, delegation_scope_name(d->scope),
	    (long long)d->issued, (long long)d->expires);
	if (n < 0 || (size_t)n >= buflen)
		return 0;
	return (size_t)n;
}

/* Sign the len canonical bytes buf (none: they could not be encoded)
 * into sig: 0, or -1. */
static int
sign_canonical(const unsigned char *buf, size_t len,
    unsigned char sig[PROTO_SIG_BYTES],
    const unsigned char seckey[PROTO_SECKEY_BYTES])
{
	if (len == 0)
		return -1;
	crypto_sign_detached(sig, NULL, buf, len, seckey);
	return 0;
}

/* Does sig over the len canonical bytes buf verify with key? */
static enum proto_status
verify_canonical(const unsigned char *buf, size_t len,
    const unsigned char sig[PROTO_SIG_BYTES],
    const unsigned char key[PROTO_PUBKEY_BYTES])
{
	if (len == 0)
		return PROTO_MALFORMED;
	if (crypto_sign_verify_detached(sig, buf, len, key) != 0)
		return PROTO_BAD_SIGNATURE;
	return PROTO_OK;
}

int
delegation_sign(struct delegation *d,
    const unsigned char seckey[PROTO_SECKEY_BYTES])
{
	unsigned char buf[DELEGATION_CANONICAL_MAX];

	return sign_canonical(buf, delegation_canonical(d, buf, sizeof(buf)),
	    d->signature, seckey);
}

enum proto_status
delegation_verify(const struct delegation *d,
    const unsigned char player_key[PROTO_PUBKEY_BYTES])
{
	unsigned char buf[DELEGATION_CANONICAL_MAX];

	return verify_canonical(buf, delegation_canonical(d, buf,
	    sizeof(buf)), d->signature, player_key);
}

int
delegation_id(const struct delegation *d, char id[DELEGATION_ID_TEXT])
{
	unsigned char buf[DELEGATION_CANONICAL_MAX], hash[32];
	size_t len = delegation_canonical(d, buf, sizeof(buf));

	if (len == 0)
		return -1;
	crypto_generichash(hash, sizeof(hash), buf, len, NULL, 0);
	proto_hex(hash, 8, id);
	return 0;
}

json_t *
delegation_to_json(const struct delegation *d)
{
	char bot[PROTO_KEY_TEXT_MAX];
	char sig[sodium_base64_ENCODED_LEN(PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL)];

	proto_pubkey_format(d->bot, bot, sizeof(bot));
	sodium_bin2base64(sig, sizeof(sig), d->signature, PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL);
	return json_pack("{s:s, s:s, s:o, s:s, s:I, s:I, s:s}", "player",
	    d->player, "bot", bot, "game", d->game == DELEGATION_ALL_GAMES ?
	    json_string("all") : json_integer(d->game), "scope",
	    delegation_scope_name(d->scope), "issued", (json_int_t)d->issued,
	    "expires", (json_int_t)d->expires, "signature", sig);
}

/* A JSON string of standard base64 holding exactly 64 bytes into sig: 0,
 * or -1. */
static int
read_signature(const json_t *value, unsigned char sig[PROTO_SIG_BYTES])
{
	const char *s = json_string_value(value);
	size_t siglen;

	if (s == NULL || sodium_base642bin(sig, PROTO_SIG_BYTES, s, strlen(s),
	    NULL, &siglen, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    siglen != PROTO_SIG_BYTES)
		return -1;
	return 0;
}

/* A refusal of the reader: what is wrong, in English or French. */
static enum proto_status
bad(char *err, size_t errlen, int french, const char *en, const char *fr)
{
	snprintf(err, errlen, "%s", french ? fr : en);
	return PROTO_MALFORMED;
}

enum proto_status
delegation_from_json(const json_t *obj, struct delegation *d, int french,
    char *err, size_t errlen)
{
	const json_t *game = json_object_get(obj, "game");
	const char *s;
	char perr[256];

	memset(d, 0, sizeof(*d));
	if (!json_is_object(obj))
		return bad(err, errlen, french, "the delegation certificate is "
		    "not a JSON object with player, bot, game, scope, issued, "
		    "expires and signature", "le certificat de délégation n'est "
		    "pas un objet JSON avec player, bot, game, scope, issued, "
		    "expires et signature");
	s = json_string_value(json_object_get(obj, "player"));
	if (s == NULL || !reqsig_valid_player(s))
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"player\" is not a player name (1-63 letters, digits, "
		    "'.', '-' or '_')", "le champ \"player\" du certificat de "
		    "délégation n'est pas un nom de joueur (1 à 63 lettres, "
		    "chiffres, '.', '-' ou '_')");
	snprintf(d->player, sizeof(d->player), "%s", s);
	s = json_string_value(json_object_get(obj, "bot"));
	if (s == NULL || proto_pubkey_parse(s, d->bot, perr, sizeof(perr)) !=
	    PROTO_OK)
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"bot\" is not a public key (\"ed25519:\" and 44 base64 "
		    "characters)", "le champ \"bot\" du certificat de "
		    "délégation n'est pas une clé publique (\"ed25519:\" et 44 "
		    "caractères base64)");
	if (json_is_string(game) && strcmp(json_string_value(game), "all") == 0)
		d->game = DELEGATION_ALL_GAMES;
	else if (json_is_integer(game) && json_integer_value(game) > 0)
		d->game = json_integer_value(game);
	else
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"game\" is neither a game number nor \"all\"", "le champ "
		    "\"game\" du certificat de délégation n'est ni un numéro de "
		    "partie ni \"all\"");
	s = json_string_value(json_object_get(obj, "scope"));
	if (s != NULL && strcmp(s, "moves") == 0)
		d->scope = DELEGATION_MOVES;
	else if (s != NULL && strcmp(s, "views") == 0)
		d->scope = DELEGATION_VIEWS;
	else
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"scope\" is neither \"moves\" nor \"views\"", "le champ "
		    "\"scope\" du certificat de délégation n'est ni \"moves\" "
		    "ni \"views\"");
	if (!json_is_integer(json_object_get(obj, "issued")) ||
	    !json_is_integer(json_object_get(obj, "expires")))
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"issued\" and \"expires\" must be unix times (whole "
		    "seconds)", "les champs \"issued\" et \"expires\" du "
		    "certificat de délégation doivent être des heures unix "
		    "(secondes entières)");
	d->issued = json_integer_value(json_object_get(obj, "issued"));
	d->expires = json_integer_value(json_object_get(obj, "expires"));
	if (d->issued < 0 || d->expires <= d->issued)
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"expires\" must come after \"issued\"", "le champ "
		    "\"expires\" du certificat de délégation doit suivre "
		    "\"issued\"");
	if (read_signature(json_object_get(obj, "signature"),
	    d->signature) != 0)
		return bad(err, errlen, french, "the delegation certificate's "
		    "\"signature\" is not 64 bytes of standard base64 (88 "
		    "characters)", "le champ \"signature\" du certificat de "
		    "délégation n'est pas 64 octets en base64 standard (88 "
		    "caractères)");
	return PROTO_OK;
}

/* ---- revocations ------------------------------------------------------ */

int
delegation_id_valid(const char *id)
{
	return id != NULL && strlen(id) == DELEGATION_ID_TEXT - 1 &&
	    strspn(id, "0123456789abcdef") == DELEGATION_ID_TEXT - 1;
}

size_t
delegation_revocation_canonical(const struct delegation_revocation *r,
    unsigned char *buf, size_t buflen)
{
	int n;

	if (!reqsig_valid_player(r->player) || !delegation_id_valid(r->id))
		return 0;
	n = snprintf((char *)buf, buflen, "pbem-revocation-v1\nplayer: %s\n"
	    "certificate: %s\n", r->player, r->id);
	if (n < 0 || (size_t)n >= buflen)
		return 0;
	return (size_t)n;
}

int
delegation_revocation_sign(struct delegation_revocation *r,
    const unsigned char seckey[PROTO_SECKEY_BYTES])
{
	unsigned char buf[DELEGATION_CANONICAL_MAX];

	return sign_canonical(buf, delegation_revocation_canonical(r, buf,
	    sizeof(buf)), r->signature, seckey);
}

enum proto_status
delegation_revocation_verify(const struct delegation_revocation *r,
    const unsigned char player_key[PROTO_PUBKEY_BYTES])
{
	unsigned char buf[DELEGATION_CANONICAL_MAX];

	return verify_canonical(buf, delegation_revocation_canonical(r, buf,
	    sizeof(buf)), r->signature, player_key);
}

json_t *
delegation_revocation_to_json(const struct delegation_revocation *r)
{
	char sig[sodium_base64_ENCODED_LEN(PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL)];

	sodium_bin2base64(sig, sizeof(sig), r->signature, PROTO_SIG_BYTES,
	    sodium_base64_VARIANT_ORIGINAL);
	return json_pack("{s:s, s:s, s:s}", "player", r->player,
	    "certificate", r->id, "signature", sig);
}

enum proto_status
delegation_revocation_from_json(const json_t *obj,
    struct delegation_revocation *r, int french, char *err, size_t errlen)
{
	const char *s;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(obj))
		return bad(err, errlen, french, "the revocation is not a JSON "
		    "object with player, certificate and signature", "la "
		    "révocation n'est pas un objet JSON avec player, certificate "
		    "et signature");
	s = json_string_value(json_object_get(obj, "player"));
	if (s == NULL || !reqsig_valid_player(s))
		return bad(err, errlen, french, "the revocation's \"player\" is "
		    "not a player name (1-63 letters, digits, '.', '-' or '_')",
		    "le champ \"player\" de la révocation n'est pas un nom de "
		    "joueur (1 à 63 lettres, chiffres, '.', '-' ou '_')");
	snprintf(r->player, sizeof(r->player), "%s", s);
	s = json_string_value(json_object_get(obj, "certificate"));
	if (!delegation_id_valid(s))
		return bad(err, errlen, french, "the revocation's "
		    "\"certificate\" is not a certificate id (16 lower-case "
		    "hexadecimal digits)", "le champ \"certificate\" de la "
		    "révocation n'est pas un numéro de certificat (16 chiffres "
		    "hexadécimaux en minuscules)");
	snprintf(r->id, sizeof(r->id), "%s", s);
	if (read_signature(json_object_get(obj, "signature"), r->signature) !=
	    0)
		return bad(err, errlen, french, "the revocation's \"signature\" "
		    "is not 64 bytes of standard base64 (88 characters)", "le "
		    "champ \"signature\" de la révocation n'est pas 64 octets en "
		    "base64 standard (88 caractères)");
	return PROTO_OK;
}
