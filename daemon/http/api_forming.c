/*
 * api_forming.c -- games before they start: create (POST /v1/games),
 * join and leave a forming game (POST /v1/games/{id}/join, /leave); all
 * signed.  The game starts, in the transaction of the join that fills
 * its last seat (engine_join_game).  See api.h; docs/API.md.
 *
 * Consent: a player is seated only by her own signed request -- the
 * creator may name herself in "players" (and must take a seat), every
 * other seat is open until its player joins.  Only the administrator
 * (Authorization: Bearer <webhook_admin_token>) may seat other players,
 * who are then mailed when the game starts.  A player may sit in at most
 * forming_games_per_player forming games (creating or joining); racing
 * requests of one key may pass that check together, by at most the
 * number of HTTP threads, and they also spend its rate_per_key tokens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_body.h"
#include "protocol.h"
#include "engine.h"

const char *
api_game_status_name(int status)
{
	switch (status) {
	case STORE_GAME_RUNNING:
		return "running";
	case STORE_GAME_OVER:
		return "over";
	case STORE_GAME_FORMING:
		return "forming";
	default:
		return "unknown";
	}
}

json_t *
api_game_summary(struct store *st, const struct store_game *g)
{
	struct store_player p;
	json_t *players = json_array(), *options, *j;
	char hex[65];
	int s, open = 0;

	for (s = 0; s < g->nseats; s++) {
		if (g->seat_player[s] == 0) {
			json_array_append_new(players, json_null());
			open++;
		} else if (store_player_get(st, g->seat_player[s], &p) ==
		    STORE_OK)
			json_array_append_new(players, json_string(p.name));
		else
			json_array_append_new(players, json_string("?"));
	}
	options = json_loads(g->options != NULL ? g->options : "{}", 0, NULL);
	proto_hex(g->commitment, STORE_HASH_BYTES, hex);
	j = json_pack("{s:I, s:s, s:s, s:i, s:o, s:i, s:o, s:s, s:I}", "id",
	    (json_int_t)g->id, "ruleset", g->ruleset, "status",
	    api_game_status_name(g->status), "seats", g->nseats, "players",
	    players, "open_seats", open, "options", options != NULL ? options :
	    json_object(), "seed_commitment", hex, "created",
	    (json_int_t)g->created);
	return j;
}

static unsigned int
http_status(enum engine_status es)
{
	switch (es) {
	case ENGINE_UNKNOWN_GAME:
		return MHD_HTTP_NOT_FOUND;
	case ENGINE_NOT_FORMING:
	case ENGINE_SEAT_TAKEN:
		return MHD_HTTP_CONFLICT;
	case ENGINE_BUSY:
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	case ENGINE_INTERNAL:
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	default:
		return MHD_HTTP_BAD_REQUEST;
	}
}

static enum MHD_Result
refused(struct api_request *req, enum engine_status es, const char *err)
{
	if (es == ENGINE_INTERNAL)
		log_warnx("http: %s %s: %s", req->method, req->path, err);
	return api_send_error(req, http_status(es), engine_status_code(es),
	    err, NULL);
}

/* Is me already in as many forming games as a player may be?  Answers
 * 409 too_many_forming_games (and returns -1) if so. */
static int
forming_cap(struct api_request *req, struct store *st,
    const struct store_player *me, enum MHD_Result *answered)
{
	int64_t cap = config_int(req->d->cfg, "forming_games_per_player");
	int64_t n;
	char msg[512];

	if (cap <= 0)
		return 0;
	if (store_game_forming_count(st, me->id, &n) != STORE_OK) {
		*answered = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "busy", "the games cannot be read now; try again", NULL);
		return -1;
	}
	if (n < cap)
		return 0;
	snprintf(msg, sizeof(msg), "%s already has a seat in %lld forming "
	    "games, the most a player may have (forming_games_per_player = "
	    "%lld); leave one (POST /v1/games/{id}/leave) or wait until one "
	    "starts", me->name, (long long)n, (long long)cap);
	*answered = api_send_error(req, MHD_HTTP_CONFLICT,
	    "too_many_forming_games", msg, NULL);
	return -1;
}

/* Who creates: the administrator's token (1), or a signed player (0,
 * in *me); -1 with the refusal answered. */
static int
creator(struct api_request *req, struct store_player *me,
    enum MHD_Result *answered)
{
	switch (api_admin_bearer(req)) {
	case 1:
		memset(me, 0, sizeof(*me));
		snprintf(me->name, sizeof(me->name), "the administrator");
		return 1;
	case 0:
		*answered = api_send_error(req, MHD_HTTP_UNAUTHORIZED,
		    "unauthorized", "the bearer token is not this server's "
		    "administrator token (webhook_admin_token); players sign "
		    "their requests instead (docs/API.md)", NULL);
		return -1;
	default:
		return api_authenticate(req, me, answered) == 0 ? 0 : -1;
	}
}

/* The game's summary after a change, with extra fields. */
static enum MHD_Result
send_game(struct api_request *req, struct store *st, int64_t game_id,
    unsigned int status, json_t *extra)
{
	struct store_game g;
	json_t *body;

	if (store_game_get(st, game_id, &g) != STORE_OK) {
		json_decref(extra);
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the game cannot be read now; ask again", NULL);
	}
	body = api_game_summary(st, &g);
	store_game_clear(&g);
	json_object_update(body, extra);
	json_decref(extra);
	return api_send_json(req, status, body);
}

enum MHD_Result
api_game_create(struct api_request *req)
{
	int64_t players[STORE_MAX_SEATS], game_id = 0;
	const char *bots[STORE_MAX_SEATS] = { NULL };
	const char *name;
	enum MHD_Result rc = MHD_NO;
	struct store_player me, p;
	struct api_body_game body;
	struct store *st;
	enum engine_status es;
	json_t *names, *item;
	char msg[1024];
	int nseats, started = 0, s, admin, mine = 0;
	size_t i;

	if ((admin = creator(req, &me, &rc)) < 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (api_body_game(req->body, req->body_len, &body, msg, sizeof(msg)) !=
	    0)
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    msg, NULL);
	names = body.players;
	nseats = body.nseats;
	if (names != NULL) {
		json_array_foreach(names, i, item) {
			s = (int)i;
			if (json_is_null(item)) {
				players[s] = 0;
				continue;
			}
			name = json_string_value(item);
			/* A seat the server plays needs nobody's consent. */
			if (engine_is_bot_spec(name)) {
				bots[s] = name;
				players[s] = 0;
				continue;
			}
			if (name == NULL || store_player_find(st, name, &p) !=
			    STORE_OK) {
				snprintf(msg, sizeof(msg), "seat %d: %s%.64s%s "
				    "is not a registered player (use null for "
				    "an open seat)", s, name ? "\"" : "",
				    name ? name : "this value", name ? "\"" :
				    "");
				rc = api_send_error(req, MHD_HTTP_BAD_REQUEST,
				    "bad_request", msg, NULL);
				goto out;
			}
			if (!admin && p.id != me.id) {
				snprintf(msg, sizeof(msg), "seat %d: %s is "
				    "another player; a player takes a seat "
				    "only by joining (POST /v1/games/{id}/join"
				    ") -- leave the seat open (null), or ask "
				    "the administrator to seat them", s,
				    p.name);
				rc = api_send_error(req, MHD_HTTP_FORBIDDEN,
				    "consent_required", msg, NULL);
				goto out;
			}
			mine |= p.id == me.id;
			players[s] = p.id;
		}
		if (!admin && !mine) {
			rc = api_send_error(req, MHD_HTTP_BAD_REQUEST,
			    "bad_request", "take a seat of the game you create: "
			    "put your own name in \"players\" (the other "
			    "seats null, for their players to join)", NULL);
			goto out;
		}
	} else {
		players[0] = admin ? 0 : me.id;
		for (s = 1; s < nseats; s++)
			players[s] = 0;
	}
	if (!admin && forming_cap(req, st, &me, &rc) != 0)
		goto out;
	es = engine_form_game_with(st, req->d->key, body.ruleset,
	    body.options, NULL, players, bots, nseats, &game_id, &started, msg,
	    sizeof(msg));
	if (es != ENGINE_OK) {
		rc = refused(req, es, msg);
		goto out;
	}
	log_info("http: %s created game %lld (%s, %d seats)", me.name,
	    (long long)game_id, body.ruleset, nseats);
	/* A player who creates a game is its master (docs/ASYNC.md). */
	if (!admin && engine_master_name(st, game_id, me.id, msg,
	    sizeof(msg)) != ENGINE_OK)
		log_warnx("http: game %lld has no master: %s",
		    (long long)game_id, msg);
	rc = send_game(req, st, game_id, MHD_HTTP_CREATED, json_pack("{s:b}",
	    "started", started));
out:
	api_body_free(&body.root, &body.options);
	return rc;
}

enum MHD_Result
api_game_join(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store_player me;
	struct store *st;
	enum engine_status es;
	char msg[1024];
	int seat = -1, taken = -1, started = 0;

	if (api_authenticate(req, &me, &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (api_body_join(req->body, req->body_len, &seat, msg, sizeof(msg)) !=
	    0)
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    msg, NULL);
	if (forming_cap(req, st, &me, &rc) != 0)
		return rc;
	es = engine_join_game(st, req->d->key, req->params[0], seat, me.id,
	    &taken, &started, msg, sizeof(msg));
	if (es != ENGINE_OK)
		return refused(req, es, msg);
	log_info("http: %s joined game %lld at seat %d%s", me.name,
	    (long long)req->params[0], taken, started ? "; it starts" : "");
	return send_game(req, st, req->params[0], MHD_HTTP_OK, json_pack(
	    "{s:i, s:b}", "seat", taken, "started", started));
}

enum MHD_Result
api_game_leave(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store_player me;
	struct store *st;
	enum engine_status es;
	char msg[1024];
	int seat = -1;

	if (api_authenticate(req, &me, &rc) != 0)
		return rc;
	st = daemon_store(req->d);
	es = engine_leave_game(st, req->params[0], me.id, &seat, msg,
	    sizeof(msg));
	if (es == ENGINE_BAD_SEAT)
		return api_send_error(req, MHD_HTTP_CONFLICT, "not_seated", msg,
		    NULL);
	if (es != ENGINE_OK)
		return refused(req, es, msg);
	log_info("http: %s left seat %d of game %lld", me.name, seat,
	    (long long)req->params[0]);
	return send_game(req, st, req->params[0], MHD_HTTP_OK, json_pack(
	    "{s:i}", "left_seat", seat));
}
