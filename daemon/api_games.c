/*
 * api_games.c -- rulesets, the list of games and a game's public views
 * (see api.h; docs/API.md).  Nothing here shows a hand: every view is
 * RULES_VIEW_PUBLIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "engine.h"
#include "present.h"
#include "templates.h"

enum MHD_Result
api_rulesets(struct api_request *req)
{
	const struct rules_module *const *m;
	json_t *list = json_array();

	for (m = rules_all(); *m != NULL; m++)
		json_array_append_new(list, json_pack("{s:s, s:i, s:i, s:i, "
		    "s:s, s:s, s:s, s:s}", "name", (*m)->name, "version",
		    (*m)->ruleset_version, "min_players", (*m)->min_seats,
		    "max_players", (*m)->max_seats, "title_en", (*m)->title_en,
		    "title_fr", (*m)->title_fr, "help_en", (*m)->summary_en,
		    "help_fr", (*m)->summary_fr));
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:o}", "rulesets",
	    list));
}

static int
add_game(const struct store_game *g, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I, s:s, s:i, s:s}", "id",
	    (json_int_t)g->id, "ruleset", g->ruleset, "seats", g->nseats,
	    "status", g->status == STORE_GAME_OVER ? "over" : "running"));
	return 0;
}

/* The calling thread's store, or an answered 503. */
static struct store *
request_store(struct api_request *req, enum MHD_Result *answered)
{
	struct store *st = daemon_store(req->d);

	if (st == NULL)
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the database cannot be opened now; try again",
		    NULL);
	return st;
}

enum MHD_Result
api_games_list(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store *st;
	json_t *games;

	if ((st = request_store(req, &rc)) == NULL)
		return rc;
	games = json_array();
	if (store_game_foreach(st, add_game, games) != STORE_OK) {
		json_decref(games);
		log_warnx("http: %s", store_errmsg(st));
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the list of games cannot be read",
		    NULL);
	}
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:o}", "games",
	    games));
}

/* Load the game named by the path into gs, or answer 404 and return -1. */
static int
load_game(struct api_request *req, struct gamestate *gs,
    enum MHD_Result *answered)
{
	struct store *st;
	char err[1024];

	if ((st = request_store(req, answered)) == NULL)
		return -1;
	if (gamestate_load(st, req->params[0], -1, gs, err, sizeof(err)) !=
	    ENGINE_OK) {
		*answered = api_send_error(req, MHD_HTTP_NOT_FOUND,
		    "unknown_game", err, NULL);
		return -1;
	}
	return 0;
}

enum MHD_Result
api_game_view(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct gamestate gs;
	json_t *view;

	if (load_game(req, &gs, &rc) != 0)
		return rc;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	gamestate_clear(&gs);
	return api_send_json(req, MHD_HTTP_OK, view);
}

enum MHD_Result
api_game_seed(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct gamestate gs;
	char hex[65];
	json_t *body;

	if (load_game(req, &gs, &rc) != 0)
		return rc;
	proto_hex(gs.game.commitment, 32, hex);
	body = json_pack("{s:I, s:s}", "game", (json_int_t)gs.game.id,
	    "commitment", hex);
	if (gs.game.status == STORE_GAME_OVER) {
		proto_hex(gs.game.seed, 32, hex);
		json_object_set_new(body, "seed", json_string(hex));
	}
	gamestate_clear(&gs);
	return api_send_json(req, MHD_HTTP_OK, body);
}

/* The public view rendered with the spectator (or game over) template. */
enum MHD_Result
api_game_text(struct api_request *req)
{
	const char *lang = api_query(req, "lang");
	enum MHD_Result rc = MHD_NO;
	struct present_info info;
	struct mustache_buf out;
	struct gamestate gs;
	json_t *view, *shown;
	char err[1024];
	int seat, over, rendered;

	if (load_game(req, &gs, &rc) != 0)
		return rc;
	memset(&info, 0, sizeof(info));
	info.lang = lang != NULL && strcmp(lang, "fr") == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN;
	info.module = gs.module;
	info.viewer = RULES_VIEW_PUBLIC;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	shown = present_view(view, &info);
	json_decref(view);
	over = gs.module->to_act(gs.state, &seat, 1) == 0;
	mustache_buf_init(&out);
	rendered = templates_render(daemon_templates_hold(req->d),
	    present_lang_code(info.lang), gs.module->name, over ?
	    "game_over" : "spectator", TPL_TEXT, shown, &out, err,
	    sizeof(err));
	daemon_templates_release(req->d);
	if (rendered != 0) {
		json_decref(shown);
		gamestate_clear(&gs);
		mustache_buf_free(&out);
		log_warnx("http: %s", err);
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", err, NULL);
	}
	json_decref(shown);
	gamestate_clear(&gs);
	return api_send_text(req, MHD_HTTP_OK, "text/plain; charset=utf-8",
	    out.data != NULL ? out.data : strdup(""));
}
