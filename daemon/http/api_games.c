/*
 * api_games.c -- rulesets, the list of games and a game's public views
 * (see api.h; docs/API.md).  Nothing here shows a hand: every view is
 * RULES_VIEW_PUBLIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "clock.h"
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
	enum rules_lang lang = RULES_LANG_EN;
	enum store_status sr;
	enum MHD_Result ignored;
	char msg[64];

	if ((sr = store_game_get(st, game_id, g)) == STORE_OK)
		return 0;
	(void)api_query_lang(req, &lang, &ignored);	/* checked by route() */
	if (sr == STORE_NOTFOUND) {
		snprintf(msg, sizeof(msg), lang == RULES_LANG_FR ?
		    "il n'y a pas de partie %lld" : "there is no game %lld",
		    (long long)game_id);
		*answered = api_send_error(req, MHD_HTTP_NOT_FOUND,
		    "unknown_game", msg, NULL);
	} else
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", lang == RULES_LANG_FR ? "la partie ne peut pas "
		    "être lue maintenant ; réessayez" : "the game cannot be "
		    "read now; try again", NULL);
	return -1;
}

/*
 * GET /v1/games?ruleset=&status=&player=&id=&after=&limit=: each filter
 * optional; one page of at most limit games (API_PAGE_MAX), by id, from
 * the id after `after`.  "next" is the cursor of the next page (the last
 * id, given back as after=), or null when this page is the last.  id=
 * names games (comma-separated, at most API_PAGE_MAX): the page is then
 * those of them that pass the other filters.
 */
struct game_page {
	struct store	*st;
	json_t		*games;
	int64_t		 last;
	const struct store_game_query *q;
};

static int
add_game(const struct store_game *g, void *arg)
{
	struct game_page *pg = arg;

	json_array_append_new(pg->games, api_game_summary(pg->st, g));
	pg->last = g->id;
	return 0;
}

/* Does g pass q's filters (for games named by id=)? */
static int
game_passes(const struct store_game *g, const struct store_game_query *q)
{
	int s, seated = q->player == 0;

	for (s = 0; s < g->nseats && !seated; s++)
		seated = g->seat_player[s] == q->player;
	return seated && (q->status < 0 || g->status == q->status) &&
	    (q->ruleset == NULL || strcmp(q->ruleset, g->ruleset) == 0) &&
	    g->id > q->after;
}

/* The games of id=1,5,9 (ascending, each once), at most limit of them,
 * after the other filters: 0, or -1 with 400 answered. */
static int
named_games(struct api_request *req, const char *ids, struct game_page *pg,
    enum MHD_Result *answered)
{
	int64_t want[API_PAGE_MAX], id;
	struct store_game g;
	enum store_status sr;
	const char *p = ids;
	char *end, msg[256];
	int n = 0, i, j;

	while (*p != '\0') {
		id = strtoll(p, &end, 10);
		if (end == p || id < 1 || (*end != ',' && *end != '\0') ||
		    n == API_PAGE_MAX) {
			snprintf(msg, sizeof(msg), "id must be 1 to %d game ids "
			    "separated by commas, such as id=3,17", API_PAGE_MAX);
			*answered = api_send_error(req, MHD_HTTP_BAD_REQUEST,
			    "bad_request", msg, NULL);
			return -1;
		}
		for (i = 0; i < n && want[i] < id; i++)
			;
		if (i == n || want[i] != id) {
			for (j = n; j > i; j--)
				want[j] = want[j - 1];
			want[i] = id;
			n++;
		}
		p = *end == ',' ? end + 1 : end;
	}
	for (i = 0; i < n && (int)json_array_size(pg->games) < pg->q->limit;
	    i++) {
		if ((sr = store_game_get(pg->st, want[i], &g)) == STORE_NOTFOUND)
			continue;
		if (sr != STORE_OK) {
			*answered = api_send_error(req,
			    MHD_HTTP_SERVICE_UNAVAILABLE, "busy", "the games "
			    "cannot be read now; try again", NULL);
			return -1;
		}
		if (game_passes(&g, pg->q))
			add_game(&g, pg);
		store_game_clear(&g);
	}
	return 0;
}

enum MHD_Result
api_games_list(struct api_request *req)
{
	const char *status = api_query(req, "status");
	const char *player = api_query(req, "player");
	const char *ids = api_query(req, "id");
	enum MHD_Result rc = MHD_NO;
	struct store_game_query q;
	struct store_player p;
	struct game_page pg;
	int64_t after, limit;
	json_t *body;
	char msg[256];

	memset(&q, 0, sizeof(q));
	memset(&pg, 0, sizeof(pg));
	if (api_query_number(req, "after", 0, INT64_MAX, 0, &after, &rc) != 0 ||
	    api_query_number(req, "limit", 1, API_PAGE_MAX, API_PAGE_DEFAULT,
	    &limit, &rc) != 0)
		return rc;
	if ((pg.st = api_store(req, &rc)) == NULL)
		return rc;
	q.after = after;
	q.limit = (int)limit;
	q.ruleset = api_query(req, "ruleset");
	q.status = -1;
	if (status != NULL) {
		for (q.status = 0; q.status <= STORE_GAME_FORMING; q.status++)
			if (strcmp(status, api_game_status_name(q.status)) == 0)
				break;
		if (q.status > STORE_GAME_FORMING)
			return api_send_error(req, MHD_HTTP_BAD_REQUEST,
			    "bad_request", "status must be forming, running "
			    "or over", NULL);
	}
	if (player != NULL) {
		if (store_player_find(pg.st, player, &p) != STORE_OK) {
			snprintf(msg, sizeof(msg), "there is no player named "
			    "%.64s", player);
			return api_send_error(req, MHD_HTTP_NOT_FOUND,
			    "unknown_player", msg, NULL);
		}
		q.player = p.id;
	}
	pg.q = &q;
	pg.games = json_array();
	if (ids != NULL) {
		if (named_games(req, ids, &pg, &rc) != 0) {
			json_decref(pg.games);
			return rc;
		}
	} else if (store_game_page(pg.st, &q, add_game, &pg) != STORE_OK) {
		json_decref(pg.games);
		log_warnx("http: %s", store_errmsg(pg.st));
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the list of games cannot be read now; try again",
		    NULL);
	}
	body = json_pack("{s:o}", "games", pg.games);
	api_page_next(body, (int64_t)json_array_size(pg.games) == limit,
	    pg.last);
	return api_send_json(req, MHD_HTTP_OK, body);
}

void
api_page_next(json_t *body, int full, int64_t last)
{
	json_object_set_new(body, "next", full ? json_integer(last) :
	    json_null());
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
 * return -1; an unknown game is refused in lang.  With
 * summarise_forming, a forming game is answered with its summary rather
 * than refused. */
static int
load_game(struct api_request *req, struct gamestate *gs, int summarise_forming,
    enum rules_lang lang, enum MHD_Result *answered)
{
	enum engine_status es;
	struct store *st;
	char err[1024];

	if ((st = api_store(req, answered)) == NULL)
		return -1;
	if ((es = gamestate_load(st, req->params[0], -1, gs, err,
	    sizeof(err))) != ENGINE_OK) {
		if (es == ENGINE_UNKNOWN_GAME)
			snprintf(err, sizeof(err), lang == RULES_LANG_FR ?
			    "il n'y a pas de partie %lld" : "there is no "
			    "game %lld", (long long)req->params[0]);
		if (es == ENGINE_FORMING)
			snprintf(err, sizeof(err), lang == RULES_LANG_FR ?
			    "la partie %lld se forme encore : elle commence "
			    "quand toutes ses places sont prises" : "game %lld "
			    "is still forming: it starts when all its seats "
			    "are taken", (long long)req->params[0]);
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
	enum rules_lang lang = RULES_LANG_EN;
	enum MHD_Result rc = MHD_NO;
	struct gamestate gs;
	json_t *view;

	if (api_query_lang(req, &lang, &rc) < 0)
		return rc;
	if (load_game(req, &gs, 1, lang, &rc) != 0)
		return rc;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	gamestate_view_names(daemon_store(req->d), &gs, view);
	engine_view_deadlines(daemon_store(req->d), &gs, clock_now(), view);
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
	const char *names[STORE_MAX_SEATS];
	char err[1024];
	int over, rendered;

	if (api_query_lang(req, &lang, &rc) < 0)
		return rc;
	if (load_game(req, &gs, 0, lang, &rc) != 0)
		return rc;
	memset(&info, 0, sizeof(info));
	info.lang = lang;
	info.module = gs.module;
	info.viewer = RULES_VIEW_PUBLIC;
	info.nseats = gamestate_seat_names(daemon_store(req->d), &gs, names);
	info.seat_names = names;
	view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	engine_view_deadlines(daemon_store(req->d), &gs, clock_now(), view);
	shown = present_view(view, &info);
	json_decref(view);
	(void)gamestate_seat_acts(&gs, RULES_VIEW_PUBLIC, &over);
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
