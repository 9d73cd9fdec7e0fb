/*
 * signup.c -- confirming a player's address (docs/PLAYING.md).
 *
 * A sign-up by mail ("register", "inscription") or a registration over
 * HTTP (POST /v1/players) starts one: a row of signups with the hash of
 * a code, and a "signup" mail to the address with the code and the link
 * <public_base_url>/confirm/CODE.  The code itself is never stored: the
 * mail row holds a random nonce, and the code is derived from it and the
 * key-encryption key when the mail is rendered (tokens.c).  Confirming
 * (a reply "confirm CODE", or the link) makes the player -- with a
 * hosted key, for a sign-up by mail -- or marks the HTTP player's
 * address confirmed.  Until then no game mail goes to the address.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "engine.h"

/* A code is good for two days. */
#define SIGNUP_TTL	(2 * 86400)

enum engine_status
engine_signup_start(struct store *st, const struct hosted_kek *kek,
    const char *email, const char *name, const char *lang,
    int64_t player_id, int64_t now, char *err, size_t errlen)
{
	struct store_signup su;
	unsigned char raw[16];
	char nonce[33], code[ENGINE_CODE_LEN + 1];
	enum store_status rc;

	memset(&su, 0, sizeof(su));
	randombytes_buf(raw, sizeof(raw));
	proto_hex(raw, sizeof(raw), nonce);
	engine_signup_code(kek, nonce, code);
	engine_token_hash(code, su.code_hash);
	sodium_memzero(code, sizeof(code));
	snprintf(su.email, sizeof(su.email), "%s", email);
	snprintf(su.name, sizeof(su.name), "%s", name);
	snprintf(su.lang, sizeof(su.lang), "%s", strcmp(lang, "fr") == 0 ?
	    "fr" : "en");
	su.player_id = player_id;
	su.created = now;
	su.expires = now + SIGNUP_TTL;
	if ((rc = store_signup_add(st, &su)) != STORE_OK) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	if (engine_outbox_mail(st, 0, 0, email, "signup", json_pack("{s:s, "
	    "s:s, s:s, s:s, s:I}", "event", "signup", "nonce", nonce, "lang",
	    su.lang, "name", su.name, "expires", (json_int_t)su.expires),
	    now) != 0) {
		snprintf(err, errlen, "store: %s", store_errmsg(st));
		return ENGINE_INTERNAL;
	}
	return ENGINE_OK;
}

/* A free name from name: name, name-2, name-3, ...  Free regardless of
 * case: "Alice" is taken by "alice" (players.c). */
static enum engine_status
free_name(struct store *st, const char *name, char *out, size_t outlen)
{
	struct store_player p;
	enum store_status rc;
	int i;

	for (i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(out, outlen, "%s", name);
		else
			snprintf(out, outlen, "%.56s-%d", name, i);
		rc = store_player_find_folded(st, out, &p);
		if (rc == STORE_NOTFOUND)
			return ENGINE_OK;
		if (rc != STORE_OK)
			return rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
	}
	return ENGINE_BAD_REQUEST;
}

enum engine_status
engine_signup_confirm(struct store *st, const struct hosted_kek *kek,
    const char *code, int64_t now, struct store_player *p, char *err,
    size_t errlen)
{
	struct store_signup su;
	unsigned char hash[STORE_HASH_BYTES];
	enum store_status rc;
	enum engine_status es = ENGINE_INTERNAL;

	memset(p, 0, sizeof(*p));
	if (strlen(code) != ENGINE_CODE_LEN) {
		snprintf(err, errlen, "a confirmation code has %d letters and "
		    "digits", ENGINE_CODE_LEN);
		return ENGINE_BAD_REQUEST;
	}
	engine_token_hash(code, hash);
	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "the store is busy: %s", store_errmsg(st));
		return ENGINE_BUSY;
	}
	rc = store_signup_get(st, hash, &su);
	if (rc == STORE_NOTFOUND) {
		snprintf(err, errlen, "no sign-up has the code %s", code);
		es = ENGINE_BAD_REQUEST;
		goto fail;
	}
	if (rc != STORE_OK)
		goto store_fail;
	if (su.confirmed != 0) {
		if (su.player_id > 0)
			store_player_get(st, su.player_id, p);
		snprintf(err, errlen, "the address %s is already confirmed%s%s",
		    su.email, p->name[0] != '\0' ? " for player " : "",
		    p->name);
		es = ENGINE_REFUSED;
		goto fail;
	}
	if (su.expires <= now) {
		snprintf(err, errlen, "the code %s has expired; sign up again",
		    code);
		es = ENGINE_REFUSED;
		goto fail;
	}
	if (su.player_id > 0) {
		if ((rc = store_player_confirm_email(st, su.player_id)) !=
		    STORE_OK || (rc = store_player_get(st, su.player_id, p)) !=
		    STORE_OK)
			goto store_fail;
	} else {
		if ((es = free_name(st, su.name, p->name, sizeof(p->name))) !=
		    ENGINE_OK) {
			snprintf(err, errlen, "no free name like %s", su.name);
			goto fail;
		}
		snprintf(p->email, sizeof(p->email), "%s", su.email);
		snprintf(p->lang, sizeof(p->lang), "%s", su.lang);
		if ((es = engine_hosted_player_add(st, kek, p, err, errlen)) !=
		    ENGINE_OK)
			goto fail;
	}
	if ((rc = store_signup_confirm(st, hash, p->id, now)) != STORE_OK)
		goto store_fail;
	if ((rc = store_commit(st)) != STORE_OK)
		goto store_fail;
	return ENGINE_OK;
store_fail:
	snprintf(err, errlen, "store: %s", store_errmsg(st));
	es = rc == STORE_BUSY ? ENGINE_BUSY : ENGINE_INTERNAL;
fail:
	store_rollback(st);
	if (es != ENGINE_REFUSED)
		memset(p, 0, sizeof(*p));
	return es;
}

void
engine_name_from(const char *display, const char *email, char *out,
    size_t outlen)
{
	const char *src = display != NULL && display[0] != '\0' ? display :
	    email;
	size_t n = 0;
	int dash = 0;

	for (; *src != '\0' && *src != '@' && n + 1 < outlen && n < 40; src++) {
		unsigned char c = (unsigned char)*src;

		if (isalnum(c) || c == '.' || c == '_') {
			out[n++] = (char)tolower(c);
			dash = 0;
		} else if (n > 0 && !dash) {
			out[n++] = '-';
			dash = 1;
		}
	}
	while (n > 0 && (out[n - 1] == '-' || out[n - 1] == '.'))
		n--;
	out[n] = '\0';
	if (n == 0)
		snprintf(out, outlen, "player");
}
