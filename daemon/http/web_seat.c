/*
 * web_seat.c -- GET /play/games/N: the seat page of a signed-in player,
 * and GET /play/games/N/public: the spectators' page (docs/WEB.md).
 *
 * The seat page needs the session cookie of that game; it shows the
 * seat's view -- gamestate_view() for the session's seat, the function
 * the seat's JSON view and mail use, never the full state -- drawn by
 * drawing.c (daemon/render), the same view as text (the seat's mail template), the
 * last moves (who moved; the texts of the seat's own), and,
 * when the seat is to act, one button per legal move (exactly the texts
 * legal_moves() lists, shown in the player's language with the cards'
 * names by the module's move_label(), else translate()), each a form
 * POST to /play/games/N/move of the listed
 * text with the expected sequence number and the session's CSRF token.  A player whose
 * key the server does not hold gets the same page; play.js signs for
 * them in the browser, and without script the page says to use `pbem
 * sign`.  Below, the bots the player lets act for them (web_bots.c).
 * The public page shows the public view and needs nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "botname.h"
#include "drawing.h"
#include "present.h"
#include "templates.h"
#include "web.h"
#include "web_last.h"
#include "web_pick.h"

/* The view as text, rendered with the game's mail template name. */
static json_t *
view_text(struct api_request *req, const struct gamestate *gs,
    const json_t *shown, enum rules_lang lang, const char *name)
{
	struct mustache_buf out;
	char err[1024];
	json_t *text = NULL;

	mustache_buf_init(&out);
	if (templates_render(daemon_templates_hold(req->d),
	    present_lang_code(lang), gs->module->name, name, TPL_TEXT, shown,
	    &out, err, sizeof(err)) == 0)
		text = json_string(out.data != NULL ? out.data : "");
	else
		log_warnx("http: web: %s", err);
	daemon_templates_release(req->d);
	mustache_buf_free(&out);
	return text;
}

/* Load game_id for the page: ENGINE_OK, or a notice answered. */
static int
load(struct api_request *req, struct store *st, int64_t game_id,
    enum rules_lang lang, struct gamestate *gs, enum MHD_Result *rc)
{
	enum engine_status es;
	char err[1024];

	es = gamestate_load(st, game_id, -1, gs, err, sizeof(err));
	if (es == ENGINE_OK)
		return 0;
	if (es != ENGINE_UNKNOWN_GAME && es != ENGINE_FORMING)
		log_warnx("http: web: game %lld: %s", (long long)game_id, err);
	*rc = web_notice(req, es == ENGINE_UNKNOWN_GAME ? MHD_HTTP_NOT_FOUND :
	    es == ENGINE_FORMING ? MHD_HTTP_CONFLICT :
	    MHD_HTTP_SERVICE_UNAVAILABLE, lang, es == ENGINE_UNKNOWN_GAME ?
	    "unknown_game" : es == ENGINE_FORMING ? "forming" : "busy");
	return -1;
}

/* The players' names: names[] as present_view() takes them (the
 * engine's gamestate_seat_names(), NULL for a seat with no player), and
 * shown[] for the drawing and the last moves, in lang: "?" for such a
 * seat, "bot" / "robot" for a made-up bot's.  Returns the number of
 * seats. */
static int
names_of(struct store *st, struct gamestate *gs, enum rules_lang lang,
    const char **names, const char **shown)
{
	int s, nseats;

	nseats = gamestate_seat_names(st, gs, names);
	for (s = 0; s < nseats; s++)
		shown[s] = names[s] != NULL ? botname_display(names[s],
		    lang == RULES_LANG_FR) : "?";
	return nseats;
}

/* Is the game over (over its rules, or ended outside them)? */
static int
game_over(const struct gamestate *gs)
{
	int seats[STORE_MAX_SEATS];

	return gs->game.status == STORE_GAME_OVER || gs->ended != NULL ||
	    gs->module->to_act(gs->state, seats, STORE_MAX_SEATS) == 0;
}

/* A seat that resigned or is absent has no move to play either. */
static int
seat_acts(const struct gamestate *gs, int seat)
{
	return gs->game.status != STORE_GAME_OVER &&
	    gamestate_seat_acts(gs, seat, NULL);
}

/* The seat page: a move's refusal, or a note of the bots form (failed
 * or done), or neither. */
static enum MHD_Result
seat_answer(struct api_request *req, const struct store_web_session *ws,
    const char *session, unsigned int status, const char *refusal,
    const char *bots_note, int bots_failed)
{
	const char *names[STORE_MAX_SEATS], *seat_names[STORE_MAX_SEATS];
	const struct store_player *me;
	struct store_player full;
	struct present_info info;
	struct gamestate gs;
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	json_t *view, *shown, *legal = NULL, *forms = NULL, *data, *moves;
	char csrf[ENGINE_CSRF_LEN + 1];
	int acting, over, hosted;

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (load(req, st, ws->game_id, web_request_lang(req), &gs, &rc) != 0)
		return rc;
	if ((me = gamestate_seat_player(st, &gs, ws->seat)) == NULL ||
	    me->id != ws->player_id) {
		lang = me != NULL ? web_lang_of(me->lang) : RULES_LANG_EN;
		gamestate_clear(&gs);
		return web_notice(req, MHD_HTTP_FORBIDDEN, lang, "signin_seat");
	}
	lang = web_lang_of(me->lang);
	/* The kept player has no key (gamestate_seat_player()): read it. */
	if (store_player_get(st, me->id, &full) != STORE_OK) {
		gamestate_clear(&gs);
		return web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE, lang,
		    "busy");
	}
	hosted = engine_player_hosted(st, &full);
	acting = seat_acts(&gs, ws->seat);
	over = game_over(&gs);
	view = gamestate_view(&gs, ws->seat);
	if (acting) {
		forms = gs.module->move_forms(gs.state, ws->seat, lang);
		legal = gs.module->legal_moves(gs.state, ws->seat);
	}
	memset(&info, 0, sizeof(info));
	info.lang = lang;
	info.module = gs.module;
	info.viewer = ws->seat;
	info.forms = forms;
	/* No examples to sign in the page's words: the page has buttons. */
	info.legal = NULL;
	info.state = acting ? gs.state : NULL;
	info.nseats = names_of(st, &gs, lang, seat_names, names);
	info.seat_names = seat_names;
	shown = present_view(view, &info);
	json_decref(view);
	engine_web_csrf(session, csrf);
	moves = web_move_buttons(&gs, ws->seat, legal, lang);
	data = json_pack("{s:I, s:O?, s:i, s:s, s:b, s:b, s:b, s:I, s:s, "
	    "s:o}", "game_id", (json_int_t)gs.game.id, "title",
	    json_object_get(shown, "title"), "seat", ws->seat, "name",
	    me->name, "your_turn", acting, "over", over, "hosted", hosted,
	    "next_seq", (json_int_t)(gs.seq + 1), "csrf", csrf, "moves",
	    moves);
	if (refusal != NULL)
		json_object_set_new(data, "refusal", json_string(refusal));
	if (bots_note != NULL)
		json_object_set_new(data, bots_failed ? "bots_refusal" :
		    "bots_done", json_string(bots_note));
	web_bots_fill(st, &full, data);
	json_object_set_new(data, "view_text", view_text(req, &gs, shown,
	    lang, over ? "game_over" : acting ? "your_turn" : "waiting"));
	draw_view_fill(data, shown, gs.game.nseats, names, ws->seat);
	web_pick_mark(data);
	web_add_last_moves(data, web_last_moves(st, &gs, ws->seat, names, over,
	    lang));
	json_decref(shown);
	json_decref(forms);
	json_decref(legal);
	gamestate_clear(&gs);
	return web_send_page(req, status, lang, "seat", data);
}

enum MHD_Result
web_seat_answer(struct api_request *req, const struct store_web_session *ws,
    const char *session, unsigned int status, const char *refusal)
{
	return seat_answer(req, ws, session, status, refusal, NULL, 0);
}

enum MHD_Result
web_seat_answer_bots(struct api_request *req,
    const struct store_web_session *ws, const char *session,
    unsigned int status, const char *note, int failed)
{
	return seat_answer(req, ws, session, status, NULL, note, failed);
}

/*
 * The session of the request's cookie, for game_id: 0, or -1 with a page
 * answered (no session: use the link of the latest mail; a session of
 * another game: the same, for this game).
 */
int
web_session_for(struct api_request *req, struct store *st, int64_t game_id,
    struct store_web_session *ws, enum MHD_Result *rc)
{
	enum engine_status es;
	char err[256];

	es = engine_web_session_find(st, web_session_cookie(req),
	    (int64_t)time(NULL), ws, err, sizeof(err));
	if (es == ENGINE_BUSY) {
		log_warnx("http: web session: %s", err);
		*rc = web_notice(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    web_request_lang(req), "busy");
		return -1;
	}
	if (es != ENGINE_OK) {
		*rc = web_notice(req, MHD_HTTP_UNAUTHORIZED,
		    web_request_lang(req), "no_session");
		return -1;
	}
	if (ws->game_id != game_id) {
		*rc = web_notice(req, MHD_HTTP_FORBIDDEN,
		    web_request_lang(req), "other_game");
		return -1;
	}
	return 0;
}

enum MHD_Result
web_seat_page(struct api_request *req)
{
	struct store_web_session ws;
	enum MHD_Result rc = MHD_NO;
	struct store *st;

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (web_session_for(req, st, req->params[0], &ws, &rc) != 0)
		return rc;
	return web_seat_answer(req, &ws, web_session_cookie(req), MHD_HTTP_OK,
	    NULL);
}

enum MHD_Result
web_public_page(struct api_request *req)
{
	const char *names[STORE_MAX_SEATS], *seat_names[STORE_MAX_SEATS];
	struct present_info info;
	struct gamestate gs;
	enum rules_lang lang = web_request_lang(req);
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	json_t *view, *shown, *data;
	int over;

	if (api_query_lang(req, &lang, &rc) < 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (load(req, st, req->params[0], lang, &gs, &rc) != 0)
		return rc;
	over = game_over(&gs);
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	memset(&info, 0, sizeof(info));
	info.lang = lang;
	info.module = gs.module;
	info.viewer = RULES_VIEW_PUBLIC;
	info.nseats = names_of(st, &gs, lang, seat_names, names);
	info.seat_names = seat_names;
	shown = present_view(view, &info);
	json_decref(view);
	data = json_pack("{s:I, s:O?, s:b, s:I}", "game_id",
	    (json_int_t)gs.game.id, "title", json_object_get(shown, "title"),
	    "over", over, "next_seq", (json_int_t)(gs.seq + 1));
	json_object_set_new(data, "view_text", view_text(req, &gs, shown,
	    lang, over ? "game_over" : "spectator"));
	draw_view_fill(data, shown, gs.game.nseats, names, RULES_VIEW_PUBLIC);
	web_add_last_moves(data, web_last_moves(st, &gs, RULES_VIEW_PUBLIC, names,
	    over, lang));
	json_decref(shown);
	gamestate_clear(&gs);
	return web_send_page(req, MHD_HTTP_OK, lang, "public", data);
}
