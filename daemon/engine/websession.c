/*
 * websession.c -- signing in to the web page (docs/WEB.md).
 *
 * The sign-in link of a your-turn mail carries a play token (tokens.c).
 * engine_web_signin() spends it -- once, before its expiry, only while
 * the token's player still holds the token's seat -- and opens a
 * session in the same transaction: ENGINE_SESSION_BYTES random bytes,
 * given to the browser as hex in a cookie, stored only as their hash,
 * bound to that player, game and seat for ENGINE_SESSION_TTL seconds.
 *
 * The CSRF token of a form is derived from the session token
 * (engine_web_csrf()), so it needs no storage, differs per session, and
 * cannot be made without the cookie; engine_web_csrf_check() compares
 * in constant time.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "engine.h"

/* The hash of a session token, as stored. */
static void
session_hash(const char *token, unsigned char hash[STORE_HASH_BYTES])
{
	engine_token_hash_in("pbem-web-session-v1", token, hash);
}

/* 1 if text is exactly len hex digits. */
static int
is_hex(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)text[i]))
			return 0;
	return text[len] == '\0';
}

enum engine_status
engine_web_signin(struct store *st, const char *play_token, int64_t now,
    char session[ENGINE_SESSION_LEN + 1], struct store_web_session *ws,
    enum engine_signin_refusal *why, char *err, size_t errlen)
{
	unsigned char hash[STORE_HASH_BYTES], raw[ENGINE_SESSION_BYTES];
	struct store_token t;
	struct store_game g;
	enum store_status ss;

	*why = ENGINE_SIGNIN_UNKNOWN;
	session[0] = '\0';
	memset(ws, 0, sizeof(*ws));
	if (!is_hex(play_token, ENGINE_TOKEN_LEN)) {
		snprintf(err, errlen, "a sign-in token is %d hex digits",
		    ENGINE_TOKEN_LEN);
		return ENGINE_REFUSED;
	}
	engine_token_hash(play_token, hash);
	if (store_begin(st) != STORE_OK) {
		snprintf(err, errlen, "%s", store_errmsg(st));
		return ENGINE_BUSY;
	}
	if ((ss = store_play_token_get(st, hash, &t)) == STORE_NOTFOUND) {
		store_rollback(st);
		snprintf(err, errlen, "no sign-in link has this token");
		return ENGINE_REFUSED;
	}
	if (ss != STORE_OK)
		goto store_failed;
	if (t.used != 0 || t.expires <= now) {
		store_rollback(st);
		*why = t.used != 0 ? ENGINE_SIGNIN_USED : ENGINE_SIGNIN_EXPIRED;
		snprintf(err, errlen, "this sign-in link %s", t.used != 0 ?
		    "was used already" : "has expired");
		return ENGINE_REFUSED;
	}
	if ((ss = store_game_get(st, t.game_id, &g)) != STORE_OK)
		goto store_failed;
	if (t.seat >= g.nseats || g.seat_player[t.seat] != t.player_id) {
		store_game_clear(&g);
		store_rollback(st);
		*why = ENGINE_SIGNIN_SEAT;
		snprintf(err, errlen, "the seat of this link is no longer the "
		    "player's");
		return ENGINE_REFUSED;
	}
	store_game_clear(&g);
	if ((ss = store_play_token_use(st, hash, now)) == STORE_EXISTS) {
		store_rollback(st);
		*why = ENGINE_SIGNIN_USED;
		snprintf(err, errlen, "this sign-in link was used already");
		return ENGINE_REFUSED;
	}
	if (ss != STORE_OK)
		goto store_failed;
	randombytes_buf(raw, sizeof(raw));
	proto_hex(raw, sizeof(raw), session);
	sodium_memzero(raw, sizeof(raw));
	session_hash(session, ws->hash);
	ws->player_id = t.player_id;
	ws->game_id = t.game_id;
	ws->seat = t.seat;
	ws->created = now;
	ws->expires = now + ENGINE_SESSION_TTL;
	if (store_web_session_prune(st, now) != STORE_OK ||
	    store_web_session_add(st, ws) != STORE_OK ||
	    store_commit(st) != STORE_OK)
		goto store_failed;
	return ENGINE_OK;

store_failed:
	snprintf(err, errlen, "%s", store_errmsg(st));
	store_rollback(st);
	sodium_memzero(session, ENGINE_SESSION_LEN + 1);
	return ENGINE_BUSY;
}

enum engine_status
engine_web_session_find(struct store *st, const char *session, int64_t now,
    struct store_web_session *ws, char *err, size_t errlen)
{
	unsigned char hash[STORE_HASH_BYTES];
	enum store_status ss;

	memset(ws, 0, sizeof(*ws));
	if (session == NULL || !is_hex(session, ENGINE_SESSION_LEN)) {
		snprintf(err, errlen, "no session");
		return ENGINE_REFUSED;
	}
	session_hash(session, hash);
	ss = store_web_session_get(st, hash, ws);
	if (ss == STORE_NOTFOUND || (ss == STORE_OK && ws->expires <= now)) {
		snprintf(err, errlen, "%s", ss == STORE_NOTFOUND ?
		    "no such session" : "the session has expired");
		memset(ws, 0, sizeof(*ws));
		return ENGINE_REFUSED;
	}
	if (ss != STORE_OK) {
		snprintf(err, errlen, "%s", store_errmsg(st));
		return ENGINE_BUSY;
	}
	return ENGINE_OK;
}

void
engine_web_csrf(const char *session, char out[ENGINE_CSRF_LEN + 1])
{
	static const char dom[] = "pbem-web-csrf-v1";
	unsigned char h[ENGINE_CSRF_LEN / 2], hash[STORE_HASH_BYTES];
	crypto_generichash_state s;

	/* Keyed by the session's hash, never stored: only the holder of
	 * the cookie can compute it. */
	session_hash(session, hash);
	crypto_generichash_init(&s, hash, sizeof(hash), sizeof(h));
	crypto_generichash_update(&s, (const unsigned char *)dom, sizeof(dom));
	crypto_generichash_final(&s, h, sizeof(h));
	proto_hex(h, sizeof(h), out);
}

int
engine_web_csrf_check(const char *session, const char *csrf)
{
	char want[ENGINE_CSRF_LEN + 1];

	if (csrf == NULL || strlen(csrf) != ENGINE_CSRF_LEN)
		return 0;
	engine_web_csrf(session, want);
	return sodium_memcmp(want, csrf, ENGINE_CSRF_LEN) == 0;
}
