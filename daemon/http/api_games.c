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

/* The calling thread's store, or an answered 503. */
struct store *
api_store(struct api_request *req, enum MHD_Result *answered)
{
	struct store *st = daemon_store(req->d);

	if (st == NULL)
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the database cannot be opened now; try again",
		    NULL);
	return st;
}

int
api_game_get(struct api_request *req, struct store *st, int64_t game_id,
    struct store_game *g, enum MHD_Result *answered)
{
	enum store_status sr;
	char msg[64];

	if ((sr = store_game_get(st, game_id, g)) == STORE_OK)
		return 0;
	if (sr == STORE_NOTFOUND) {
		snprintf(msg, sizeof(msg), "there is no game %lld",
		    (long long)game_id);
		*answered = api_send_error(req, MHD_HTTP_NOT_FOUND,
		    "unknown_game", msg, NULL);
	} else
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the game cannot be read now; try again", NULL);
	return -1;
}

/* GET /v1/games?ruleset=&status=&player=: each filter optional. */
struct game_filter {
	struct store	*st;
	const char	*ruleset;
	int		 status;	/* -1: any */
	int64_t		 player;	/* 0: any */
	json_t		*games;
};

static int
add_game(const struct store_game *g, void *arg)
{
	struct game_filter *f = arg;
	int s, seated = f->player == 0;

	for (s = 0; s < g->nseats && !seated; s++)
		seated = g->seat_player[s] == f->player;
	if (seated && (f->status < 0 || g->status == f->status) &&
	    (f->ruleset == NULL || strcmp(f->ruleset, g->ruleset) == 0))
		json_array_append_new(f->games, api_game_summary(f->st, g));
	return 0;
}

enum MHD_Result
api_games_list(struct api_request *req)
{
	const char *status = api_query(req, "status");
	const char *player = api_query(req, "player");
	enum MHD_Result rc = MHD_NO;
	struct store_player p;
	struct game_filter f;
	char msg[256];

	memset(&f, 0, sizeof(f));
	if ((f.st = api_store(req, &rc)) == NULL)
		return rc;
	f.ruleset = api_query(req, "ruleset");
	f.status = -1;
	if (status != NULL) {
		for (f.status = 0; f.status <= STORE_GAME_FORMING; f.status++)
			if (strcmp(status, api_game_status_name(f.status)) == 0)
				break;
		if (f.status > STORE_GAME_FORMING)
			return api_send_error(req, MHD_HTTP_BAD_REQUEST,
			    "bad_request", "status must be forming, running "
			    "or over", NULL);
	}
	if (player != NULL) {
		if (store_player_find(f.st, player, &p) != STORE_OK) {
			snprintf(msg, sizeof(msg), "there is no player named "
			    "%.64s", player);
			return api_send_error(req, MHD_HTTP_NOT_FOUND,
			    "unknown_player", msg, NULL);
		}
		f.player = p.id;
	}
	f.games = json_array();
	if (store_game_foreach(f.st, add_game, &f) != STORE_OK) {
		json_decref(f.games);
		log_warnx("http: %s", store_errmsg(f.st));
		return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the list of games cannot be read",
		    NULL);
	}
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:o}", "games",
	    f.games));
}

/* A forming game has no state yet: its view and seed answers are its
 * row's summary (seats, open seats, commitment).  1 if answered so. */
static int
answer_forming(struct api_request *req, enum MHD_Result *answered)
{
	struct store_game g;
	struct store *st;
	int forming;

	if ((st = api_store(req, answered)) == NULL)
		return 1;
	if (store_game_get(st, req->params[0], &g) != STORE_OK)
		return 0;
	forming = g.status == STORE_GAME_FORMING;
	if (forming)
		*answered = api_send_json(req, MHD_HTTP_OK,
		    api_game_summary(st, &g));
	store_game_clear(&g);
	return forming;
}

/* Load the game named by the path into gs, or answer (404, ...) and
 * return -1.  With summarise_forming, a forming game is answered with its
 * summary rather than refused. */
static int
load_game(struct api_request *req, struct gamestate *gs, int summarise_forming,
    enum MHD_Result *answered)
{
	enum engine_status es;
	struct store *st;
	char err[1024];

	if ((st = api_store(req, answered)) == NULL)
		return -1;
	if ((es = gamestate_load(st, req->params[0], -1, gs, err,
	    sizeof(err))) != ENGINE_OK) {
		if (es == ENGINE_FORMING && summarise_forming &&
		    answer_forming(req, answered))
			return -1;
		*answered = api_send_error(req, es == ENGINE_UNKNOWN_GAME ?
		    MHD_HTTP_NOT_FOUND : es == ENGINE_FORMING ?
		    MHD_HTTP_CONFLICT : es == ENGINE_BUSY ?
		    MHD_HTTP_SERVICE_UNAVAILABLE :
		    MHD_HTTP_INTERNAL_SERVER_ERROR, engine_status_code(es),
		    err, NULL);
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

	if (load_game(req, &gs, 1, &rc) != 0)
		return rc;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	json_object_set_new(view, "status", json_string(
	    api_game_status_name(gs.game.status)));
	gamestate_clear(&gs);
	return api_send_json(req, MHD_HTTP_OK, view);
}

enum MHD_Result
api_game_seed(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store_game g;
	struct store *st;
	char hex[65];
	json_t *body;

	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (api_game_get(req, st, req->params[0], &g, &rc) != 0)
		return rc;
	proto_hex(g.commitment, 32, hex);
	body = json_pack("{s:I, s:s}", "game", (json_int_t)g.id,
	    "commitment", hex);
	if (g.status == STORE_GAME_OVER) {
		proto_hex(g.seed, 32, hex);
		json_object_set_new(body, "seed", json_string(hex));
	}
	store_game_clear(&g);
	return api_send_json(req, MHD_HTTP_OK, body);
}

/* The public view rendered with the spectator (or game over) template. */
enum MHD_Result
api_game_text(struct api_request *req)
{
	enum rules_lang lang = RULES_LANG_EN;
	enum MHD_Result rc = MHD_NO;
	struct present_info info;
	struct mustache_buf out;
	struct gamestate gs;
	json_t *view, *shown;
	char err[1024];
	int seat, over, rendered;

	if (api_query_lang(req, &lang, &rc) < 0)
		return rc;
	if (load_game(req, &gs, 0, &rc) != 0)
		return rc;
	memset(&info, 0, sizeof(info));
	info.lang = lang;
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
