/*
 * api_seats.c -- GET /v1/games/{id}/seats/{seat}: the private view of a
 * seat, only for a request signed by the player who holds it (see api.h;
 * docs/API.md).
 *
 * JSON (default): the module's view for that seat -- which shows that
 * seat's hand and nothing of another's -- with the game's id, the next
 * sequence number, "your_turn", and, when the seat is to act, the move
 * forms for people ("move_forms", in ?lang=), every legal move text
 * ("legal_moves", English, what `pbem sign` signs) and, in the same
 * order, each worded for a person picking it ("move_labels", in ?lang=,
 * cards by their names: rules_move_label()).  ?format=text renders
 * the same view with the your_turn / waiting / game_over template, as the
 * seat's mail reads, in ?lang= (default: the player's language).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "clock.h"
#include "engine.h"
#include "present.h"
#include "protocol.h"
#include "templates.h"

static enum MHD_Result
render_text(struct api_request *req, struct store *st, struct gamestate *gs,
    int seat, int acting, enum rules_lang lang, const char *zone,
    json_t *view, json_t *forms, json_t *legal)
{
	struct present_info info;
	struct mustache_buf out;
	const char *name, *names[STORE_MAX_SEATS];
	json_t *shown;
	char err[1024];
	int over = json_is_true(json_object_get(view, "over")) ||
	    gs->game.status == STORE_GAME_OVER;

	name = over ? "game_over" : acting ? "your_turn" : "waiting";
	memset(&info, 0, sizeof(info));
	info.lang = lang;
	info.module = gs->module;
	info.viewer = seat;
	info.forms = forms;
	info.legal = legal;
	info.state = acting ? gs->state : NULL;
	info.nseats = gamestate_seat_names(st, gs, names);
	info.seat_names = names;
	info.zone = zone;
	shown = present_view(view, &info);
	mustache_buf_init(&out);
	if (templates_render(req->d->templates, present_lang_code(lang),
	    gs->module->name, name, TPL_TEXT, shown, &out, err,
	    sizeof(err)) != 0) {
		json_decref(shown);
		mustache_buf_free(&out);
		log_warnx("http: %s", err);
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", err, NULL);
	}
	json_decref(shown);
	return api_send_text(req, MHD_HTTP_OK, "text/plain; charset=utf-8",
	    out.data != NULL ? out.data : strdup(""));
}

/* Each legal move (NULL: none) of seat as a person picking it reads it,
 * in lang: a new array in legal's order. */
static json_t *
move_labels(const struct gamestate *gs, int seat, const json_t *legal,
    enum rules_lang lang)
{
	char said[PROTO_MOVE_MAX + 1];
	json_t *out = json_array(), *j;
	size_t i;

	json_array_foreach(legal, i, j)
		json_array_append_new(out, json_string(rules_move_label(
		    gs->module, gs->state, seat, json_string_value(j), lang,
		    said, sizeof(said))));
	return out;
}

enum MHD_Result
api_seat_view(struct api_request *req)
{
	const char *format = api_query(req, "format");
	int acting;
	int seat = (int)req->params[1];
	enum MHD_Result rc = MHD_NO;
	struct store_player me;
	struct gamestate gs;
	enum rules_lang lang = RULES_LANG_EN;
	enum engine_status es;
	int langq;
	struct store *st;
	json_t *view, *forms = NULL, *legal = NULL;
	char err[1024];

	if (format != NULL && strcmp(format, "json") != 0 &&
	    strcmp(format, "text") != 0)
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    "format must be json or text", NULL);
	if ((langq = api_query_lang(req, &lang, &rc)) < 0)
		return rc;
	/* The player's key, or a bot key they delegated to in this game. */
	if (api_authenticate_for_game(req, req->params[0], &me, &rc) != 0)
		return rc;
	/* From here every answer is in ?lang=, else the signer's language. */
	if (langq == 0)
		lang = strcmp(me.lang, "fr") == 0 ? RULES_LANG_FR :
		    RULES_LANG_EN;
	st = daemon_store(req->d);
	es = gamestate_load(st, req->params[0], -1, &gs, err, sizeof(err));
	if (es == ENGINE_UNKNOWN_GAME)
		snprintf(err, sizeof(err), lang == RULES_LANG_FR ? "il n'y a "
		    "pas de partie %lld" : "there is no game %lld",
		    (long long)req->params[0]);
	if (es != ENGINE_OK)
		return api_send_error(req, es == ENGINE_UNKNOWN_GAME ?
		    MHD_HTTP_NOT_FOUND : es == ENGINE_FORMING ?
		    MHD_HTTP_CONFLICT : es == ENGINE_BUSY ?
		    MHD_HTTP_SERVICE_UNAVAILABLE :
		    MHD_HTTP_INTERNAL_SERVER_ERROR, engine_status_code(es),
		    err, NULL);
	if (seat >= gs.game.nseats) {
		snprintf(err, sizeof(err), lang == RULES_LANG_FR ? "la partie "
		    "%lld a les sièges 0 à %d" : "game %lld has seats 0 to %d",
		    (long long)gs.game.id, gs.game.nseats - 1);
		gamestate_clear(&gs);
		return api_send_error(req, MHD_HTTP_NOT_FOUND, "bad_seat", err,
		    NULL);
	}
	if (gs.game.seat_player[seat] != me.id) {
		snprintf(err, sizeof(err), lang == RULES_LANG_FR ? "le siège %d "
		    "de la partie %lld n'est pas le vôtre, %s ; la vue d'un "
		    "siège est réservée au joueur qui l'occupe" : "seat %d of "
		    "game %lld is not yours, %s; a seat's view is only for the "
		    "player who holds it", seat, (long long)gs.game.id,
		    me.name);
		gamestate_clear(&gs);
		return api_send_error(req, MHD_HTTP_FORBIDDEN, "not_your_seat",
		    err, NULL);
	}
	acting = gamestate_seat_acts(&gs, seat, NULL);
	view = gamestate_view(&gs, seat);
	engine_view_deadlines(st, &gs, clock_now(), view);
	if (acting) {
		forms = gs.module->move_forms(gs.state, seat, lang);
		legal = gs.module->legal_moves(gs.state, seat);
	}
	if (format != NULL && strcmp(format, "text") == 0) {
		rc = render_text(req, st, &gs, seat, acting, lang, me.tz, view,
		    forms, legal);
		json_decref(view);
	} else {
		gamestate_view_names(st, &gs, view);
		json_object_set_new(view, "your_turn", json_boolean(acting));
		json_object_set_new(view, "move_forms", forms != NULL ?
		    json_incref(forms) : json_array());
		json_object_set_new(view, "legal_moves", legal != NULL ?
		    json_incref(legal) : json_array());
		json_object_set_new(view, "move_labels", move_labels(&gs, seat,
		    legal, lang));
		json_object_set_new(view, "status", json_string(
		    api_game_status_name(gs.game.status)));
		rc = api_send_json(req, MHD_HTTP_OK, view);
	}
	json_decref(forms);
	json_decref(legal);
	gamestate_clear(&gs);
	return rc;
}
