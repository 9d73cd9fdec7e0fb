/*
 * api_webhooks.c -- webhook registrations over HTTP (docs/API.md,
 * docs/WEBHOOKS.md).
 *
 * Who may register: the administrator, with the bearer token of the
 * "webhook_admin_token" option (HTTP registration is off while it is
 * empty), anywhere; and a player seated in a game, with a signed request
 * (api_authenticate()), for that game's registrations only -- so a chat
 * bot run by a player can follow its own game.  A player's registration
 * records the player: players list and remove only their own, see a
 * failure only as "delivery failed" (never the network's detail), and are
 * held to webhook_max_per_game and webhook_max_per_player; the
 * administrator sees and removes every registration, with full errors.
 * Every registration's host must be public unless webhook_allow_hosts
 * names it (webhook_address_check()).  Global registrations live under
 * /v1/webhooks, a game's under /v1/games/{id}/webhooks.  The secret is in
 * the answer to the POST that creates a registration and nowhere else,
 * ever.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "api_body.h"
#include "webhook.h"

/* Does the request carry the administrator's token?  Answers (and
 * returns 0) if not; *answered says whether it did. */
static int
authorised(struct api_request *req, enum MHD_Result *answered)
{
	const char *token = config_str(req->d->cfg, "webhook_admin_token");
	int bearer;

	if (*token == '\0') {
		*answered = api_send_error(req, MHD_HTTP_FORBIDDEN,
		    "webhooks_closed", "registering webhooks over HTTP is off "
		    "on this server (webhook_admin_token is not set); the "
		    "administrator registers them with `pbemctl webhook add`",
		    NULL);
		return 0;
	}
	if ((bearer = api_admin_bearer(req)) < 0) {
		*answered = api_send_error(req, MHD_HTTP_UNAUTHORIZED,
		    "unauthorized", "webhook registrations need the header "
		    "\"Authorization: Bearer <webhook_admin_token>\"", NULL);
		return 0;
	}
	if (bearer == 0) {
		*answered = api_send_error(req, MHD_HTTP_UNAUTHORIZED,
		    "unauthorized", "the bearer token is not this server's "
		    "webhook_admin_token", NULL);
		return 0;
	}
	return 1;
}

/* A signed request by a player seated in game_id?  Answers (and returns
 * 0) if not; the player is in *p. */
static int
seated_signer(struct api_request *req, int64_t game_id,
    struct store_player *p, enum MHD_Result *answered)
{
	struct store_game g;
	struct store *st;
	char why[160];
	int seat, seated = 0;

	if (api_authenticate(req, p, answered) != 0)
		return 0;
	if ((st = api_store(req, answered)) == NULL)
		return 0;
	if (api_game_get(req, st, game_id, &g, answered) != 0)
		return 0;
	for (seat = 0; seat < g.nseats; seat++)
		if (g.seat_player[seat] == p->id)
			seated = 1;
	store_game_clear(&g);
	if (!seated) {
		snprintf(why, sizeof(why), "%s has no seat in game %lld; only "
		    "its players (or the administrator) may manage its "
		    "webhooks", p->name, (long long)game_id);
		*answered = api_send_error(req, MHD_HTTP_FORBIDDEN,
		    "not_seated", why, NULL);
		return 0;
	}
	return 1;
}

/* May this request manage game_id's registrations (0: the global ones)?
 * A signed request (PBEM-Ed25519) must come from one of the game's
 * players, who is then in *p (p->id 0: the administrator); anything else
 * must carry the administrator's token. */
static int
authorised_for(struct api_request *req, int64_t game_id,
    struct store_player *p, enum MHD_Result *answered)
{
	const char *given = MHD_lookup_connection_value(req->conn,
	    MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);

	memset(p, 0, sizeof(*p));
	if (game_id > 0 && given != NULL &&
	    strncmp(given, "PBEM-Ed25519 ", 13) == 0)
		return seated_signer(req, game_id, p, answered);
	return authorised(req, answered);
}

/* The store connection, or an answer saying there is none. */
static struct store *
store_or_answer(struct api_request *req, enum MHD_Result *answered)
{
	struct store *st = daemon_store(req->d);

	if (st == NULL)
		*answered = api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the store cannot be opened; see the "
		    "daemon log", NULL);
	return st;
}

static enum MHD_Result
store_error(struct api_request *req, struct store *st)
{
	log_warnx("webhooks: store: %s", store_errmsg(st));
	return api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
	    "internal_error", "the store failed; see the daemon log", NULL);
}

/* Does game id exist?  Answers 404 (returns 0) if not. */
static int
game_exists(struct api_request *req, struct store *st, int64_t id,
    enum MHD_Result *answered)
{
	struct store_game g;
	enum store_status rc;
	char why[96];

	rc = store_game_get(st, id, &g);
	store_game_clear(&g);
	if (rc == STORE_OK)
		return 1;
	if (rc != STORE_NOTFOUND) {
		*answered = store_error(req, st);
		return 0;
	}
	snprintf(why, sizeof(why), "there is no game %lld", (long long)id);
	*answered = api_send_error(req, MHD_HTTP_NOT_FOUND, "unknown_game",
	    why, NULL);
	return 0;
}

static enum MHD_Result
add(struct api_request *req, int64_t game_id)
{
	struct webhook_rules rules;
	struct store_player p;
	struct store_webhook w;
	enum MHD_Result answered;
	struct store *st;
	struct api_body_webhook body;
	char events[256], err[512];
	json_t *out;

	if (!authorised_for(req, game_id, &p, &answered) ||
	    (st = store_or_answer(req, &answered)) == NULL ||
	    (game_id != 0 && !game_exists(req, st, game_id, &answered)))
		return answered;
	memset(&rules, 0, sizeof(rules));
	rules.allow_hosts = config_str(req->d->cfg, "webhook_allow_hosts");
	rules.check_address = 1;
	rules.max_per_game = (int)config_int(req->d->cfg,
	    "webhook_max_per_game");
	rules.max_per_player = (int)config_int(req->d->cfg,
	    "webhook_max_per_player");
	if (api_body_webhook(req->body, req->body_len, &body, events,
	    sizeof(events), err, sizeof(err)) != 0 ||
	    webhook_register_as(st, &rules, game_id, p.id, body.url, events,
	    body.format, body.lang, &w, err, sizeof(err)) != 0) {
		api_body_free(&body.root, NULL);
		return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
		    err, NULL);
	}
	api_body_free(&body.root, NULL);
	log_info("webhook %lld registered over HTTP by %s: %s (game %lld, "
	    "events %s, format %s)", (long long)w.id, p.id != 0 ? p.name :
	    "the administrator", w.url, (long long)w.game_id,
	    w.events[0] != '\0' ? w.events : "*", w.format);
	out = webhook_json(&w, p.id != 0 ? p.lang : NULL);
	json_object_set_new(out, "secret", json_string(w.secret));
	sodium_memzero(w.secret, sizeof(w.secret));
	return api_send_json(req, MHD_HTTP_CREATED, out);
}

struct listing {
	json_t		*list;
	const char	*lang;		/* the player's; NULL: administrator */
	int64_t		 last;		/* id of the last one listed */
};

static int
list_one(const struct store_webhook *w, void *arg)
{
	struct listing *l = arg;

	json_array_append_new(l->list, webhook_json(w, l->lang));
	l->last = w->id;
	return 0;
}

/* One page (?after=ID&limit=N, "next") of the registrations of one game
 * (game_id > 0) or of all (-1): a player's own only, the
 * administrator's all. */
static enum MHD_Result
list(struct api_request *req, int64_t game_id)
{
	struct store_webhook_query q;
	struct store_player p;
	struct listing l;
	enum MHD_Result answered;
	struct store *st;
	json_t *body;
	int64_t limit;

	if (!authorised_for(req, game_id > 0 ? game_id : 0, &p, &answered) ||
	    (st = store_or_answer(req, &answered)) == NULL ||
	    (game_id > 0 && !game_exists(req, st, game_id, &answered)))
		return answered;
	memset(&q, 0, sizeof(q));
	if (api_query_number(req, "after", 0, INT64_MAX, 0, &q.after,
	    &answered) != 0 || api_query_number(req, "limit", 1, API_PAGE_MAX,
	    API_PAGE_DEFAULT, &limit, &answered) != 0)
		return answered;
	q.limit = (int)limit;
	q.game_id = game_id;
	q.player_id = p.id;		/* 0: the administrator, every one */
	l.list = json_array();
	l.lang = p.id != 0 ? p.lang : NULL;
	l.last = 0;
	if (store_webhook_page(st, &q, list_one, &l) != STORE_OK) {
		json_decref(l.list);
		return store_error(req, st);
	}
	body = json_pack("{s:o}", "webhooks", l.list);
	api_page_next(body, (int64_t)json_array_size(l.list) == limit, l.last);
	return api_send_json(req, MHD_HTTP_OK, body);
}

static enum MHD_Result
delete(struct api_request *req, int64_t game_id, int64_t id)
{
	struct store_player p;
	struct store_webhook w;
	enum MHD_Result answered;
	enum store_status rc;
	struct store *st;
	char why[160];

	if (!authorised_for(req, game_id, &p, &answered) ||
	    (st = store_or_answer(req, &answered)) == NULL)
		return answered;
	rc = store_webhook_get(st, id, &w);
	sodium_memzero(w.secret, sizeof(w.secret));
	if (rc == STORE_OK && game_id != 0 && w.game_id != game_id)
		rc = STORE_NOTFOUND;	/* another game's */
	if (rc == STORE_OK && p.id != 0 && w.player_id != p.id)
		rc = STORE_NOTFOUND;	/* not this player's */
	if (rc == STORE_OK)
		rc = store_webhook_remove(st, id);
	if (rc == STORE_NOTFOUND && p.id != 0) {
		snprintf(why, sizeof(why), "you have no webhook %lld in game "
		    "%lld; a player may remove only the webhooks they "
		    "registered", (long long)id, (long long)game_id);
		return api_send_error(req, MHD_HTTP_NOT_FOUND, "not_found", why,
		    NULL);
	}
	if (rc == STORE_NOTFOUND) {
		snprintf(why, sizeof(why), "there is no webhook %lld here",
		    (long long)id);
		return api_send_error(req, MHD_HTTP_NOT_FOUND, "not_found", why,
		    NULL);
	}
	if (rc != STORE_OK)
		return store_error(req, st);
	log_info("webhook %lld removed over HTTP by %s", (long long)id,
	    p.id != 0 ? p.name : "the administrator");
	return api_send_json(req, MHD_HTTP_OK, json_pack("{s:I}", "deleted",
	    (json_int_t)id));
}

enum MHD_Result
api_webhooks_list(struct api_request *req)
{
	return list(req, -1);
}

enum MHD_Result
api_webhooks_add(struct api_request *req)
{
	return add(req, 0);
}

enum MHD_Result
api_webhook_delete(struct api_request *req)
{
	return delete(req, 0, req->params[0]);
}

enum MHD_Result
api_game_webhooks_list(struct api_request *req)
{
	return list(req, req->params[0]);
}

enum MHD_Result
api_game_webhooks_add(struct api_request *req)
{
	return add(req, req->params[0]);
}

enum MHD_Result
api_game_webhook_delete(struct api_request *req)
{
	return delete(req, req->params[0], req->params[1]);
}
