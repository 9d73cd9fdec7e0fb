/*
 * web_signin.c -- GET and POST /play/TOKEN: the sign-in link of a
 * your-turn mail (docs/WEB.md, docs/MAIL.md "Links in your-turn mails").
 *
 * GET only shows a page with a "Continue" button and spends nothing:
 * mail scanners and link previews fetch links on their own.  The POST
 * the button sends spends the play token and opens a session
 * (engine_web_signin()): the cookie pbem_session (HttpOnly,
 * SameSite=Strict, Path=/play/, Secure when public_base_url is https)
 * and 303 to the seat page.  A token that is unknown, used, expired or
 * whose seat changed hands gets a page saying so and what to do, in the
 * player's language when the token names one.  A POST from another
 * site (web_origin.h) is refused, 403, before the token is spent.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "web.h"

/* The token: the path's last segment (the route allows letters and
 * digits only). */
static const char *
token_of(const struct api_request *req)
{
	const char *slash = strrchr(req->path, '/');

	return slash != NULL ? slash + 1 : "";
}

/* The language of the token's player, if the token is known; else the
 * request's. */
static enum rules_lang
token_lang(struct api_request *req, struct store *st, const char *token)
{
	unsigned char hash[STORE_HASH_BYTES];
	struct store_player p;
	struct store_token t;

	if (strlen(token) == ENGINE_TOKEN_LEN) {
		engine_token_hash(token, hash);
		if (store_play_token_get(st, hash, &t) == STORE_OK &&
		    store_player_get(st, t.player_id, &p) == STORE_OK)
			return web_lang_of(p.lang);
	}
	return web_request_lang(req);
}

enum MHD_Result
web_signin_page(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store *st;

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	return web_send_page(req, MHD_HTTP_OK, token_lang(req, st,
	    token_of(req)), "signin", json_pack("{s:s}", "token",
	    token_of(req)));
}

enum MHD_Result
web_signin_post(struct api_request *req)
{
	char session[ENGINE_SESSION_LEN + 1], cookie[256], where[64];
	char err[256];
	enum engine_signin_refusal why;
	struct store_web_session ws;
	enum engine_status es;
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;
	struct store *st;

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	lang = token_lang(req, st, token_of(req));
	/* Login CSRF: another site's form could sign this browser in to
	 * the attacker's own seat. */
	if (web_post_from_own_page(req, lang, &rc) != 0)
		return rc;
	es = engine_web_signin(st, token_of(req), (int64_t)time(NULL), session,
	    &ws, &why, err, sizeof(err));
	if (es == ENGINE_BUSY) {
		log_warnx("http: web sign-in: %s", err);
		return web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE, lang,
		    "busy");
	}
	if (es != ENGINE_OK) {
		log_info("http: web sign-in refused: %s", err);
		return web_notice(req, why == ENGINE_SIGNIN_UNKNOWN ?
		    MHD_HTTP_NOT_FOUND : MHD_HTTP_GONE, lang,
		    why == ENGINE_SIGNIN_USED ? "signin_used" :
		    why == ENGINE_SIGNIN_EXPIRED ? "signin_expired" :
		    why == ENGINE_SIGNIN_SEAT ? "signin_seat" :
		    "signin_unknown");
	}
	log_info("http: web session for game %lld seat %d (player %lld)",
	    (long long)ws.game_id, ws.seat, (long long)ws.player_id);
	snprintf(cookie, sizeof(cookie), "%s=%s; Max-Age=%d; Path=/play/; "
	    "HttpOnly; SameSite=Strict%s", WEB_COOKIE, session,
	    ENGINE_SESSION_TTL, web_public_https(req) ? "; Secure" : "");
	snprintf(where, sizeof(where), "/play/games/%lld",
	    (long long)ws.game_id);
	api_add_header(req, "Set-Cookie", cookie);
	rc = web_redirect(req, where);
	memset(session, 0, sizeof(session));
	memset(cookie, 0, sizeof(cookie));
	return rc;
}
