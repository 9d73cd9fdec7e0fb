/*
 * web_move.c -- POST /play/games/N/move: a move button of the seat page
 * (docs/WEB.md).
 *
 * A POST from another site (web_origin.h) is refused first, 403.  The
 * form carries the move text, the sequence number the page was
 * drawn at ("seq") and the session's CSRF token ("csrf").  The session
 * must be this game's, its player must still hold its seat, and the
 * CSRF token must be the session's; the move is then played for the
 * session's seat, signed with the player's hosted key
 * (engine_submit_hosted(), log entry kind STORE_ENTRY_HOSTED_WEB), and
 * answered 303 to the seat page.  A refused move shows the seat page
 * again with the engine's refusal in the player's language, and nothing
 * changed.  A player with a key of their own is told the server cannot
 * sign for them (play.js signs in the browser; or `pbem sign`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

enum MHD_Result
web_move_post(struct api_request *req)
{
	const char *session = web_session_cookie(req);
	char move[PROTO_MOVE_MAX + 1], seqtext[24], path[64], *end;
	struct store_web_session ws;
	struct store_player me;
	struct engine_reply er;
	struct hosted_kek *kek;
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	long long seq;

	if (web_form_session(req, req->params[0], &st, &ws, &me, &rc) != 0)
		return rc;
	lang = web_lang_of(me.lang);
	if (!web_form_field(req->body, "move", move, sizeof(move)) ||
	    move[0] == '\0' || !web_form_field(req->body, "seq", seqtext,
	    sizeof(seqtext)) || (seq = strtoll(seqtext, &end, 10)) < 1 ||
	    *end != '\0')
		return web_notice(req, MHD_HTTP_BAD_REQUEST, lang, "bad_form");
	if (!engine_player_hosted(st, &me))
		return web_notice(req, MHD_HTTP_FORBIDDEN, lang, "own_key");
	if ((kek = web_hosted_kek(req)) == NULL)
		return web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE, lang,
		    "busy");
	engine_submit_hosted(st, req->d->key, kek, ws.game_id, seq, ws.seat,
	    move, STORE_ENTRY_HOSTED_WEB, lang, &er);
	hosted_kek_close(kek);
	if (er.status == ENGINE_OK) {
		snprintf(path, sizeof(path), "/play/games/%lld",
		    (long long)ws.game_id);
		log_info("http: web move for game %lld seat %d: %s",
		    (long long)ws.game_id, ws.seat, er.message);
		engine_reply_clear(&er);
		return web_redirect(req, path);
	}
	if (er.status == ENGINE_INTERNAL)
		log_warnx("http: web move: %s", er.message);
	rc = web_seat_answer(req, &ws, session, api_engine_http_status(er.status),
	    er.message);
	engine_reply_clear(&er);
	return rc;
}
