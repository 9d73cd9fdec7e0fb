/*
 * api_players.c -- POST /v1/players (register a player with a public
 * key) and GET /v1/players/me (signed: who the server thinks you are).
 * See api.h; docs/API.md.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_body.h"
#include "engine.h"
#include "protocol.h"
#include "reqsig.h"

/* Store p and, when it has an address, start its confirmation (a
 * sign-up mail with the code), in one transaction. */
static enum store_status
register_player(struct api_request *req, struct store *st,
    struct store_player *p, char *err, size_t errlen)
{
	const char *file = config_str(req->d->cfg, "hosted_key_file");
	struct hosted_kek *kek = NULL;
	enum store_status sr;
	char path[1024];

	if (!p->email_pending)
		return store_player_add(st, p);
	snprintf(path, sizeof(path), *file != '\0' ? "%s" : "%s.kek",
	    *file != '\0' ? file : req->d->dbpath);
	if ((kek = hosted_kek_open(path, 1, err, errlen)) == NULL) {
		log_warnx("http: register: %s", err);
		return STORE_ERROR;
	}
	if ((sr = store_begin(st)) != STORE_OK)
		goto out;
	if ((sr = store_player_add(st, p)) == STORE_OK &&
	    engine_signup_start(st, kek, p->email, p->name, p->lang, p->id,
	    (int64_t)time(NULL), err, errlen) != ENGINE_OK)
		sr = STORE_ERROR;
	if (sr == STORE_OK)
		sr = store_commit(st);
	if (sr != STORE_OK)
		store_rollback(st);
out:
	hosted_kek_close(kek);
	return sr;
}

static enum MHD_Result
bad_request(struct api_request *req, const char *message)
{
	return api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
	    message, NULL);
}

enum MHD_Result
api_player_register(struct api_request *req)
{
	struct api_body_player body;
	enum MHD_Result rc = MHD_NO;
	enum rules_lang lang;
	struct store_player p;
	struct store *st;
	enum store_status sr;
	char msg[512];

	if (!config_bool(req->d->cfg, "http_open_registration"))
		return api_send_error(req, MHD_HTTP_FORBIDDEN,
		    "registration_closed", "this server does not register "
		    "players over HTTP; ask its administrator (pbemctl "
		    "player add)", NULL);
	if (api_body_player(req->body, req->body_len, &body, msg,
	    sizeof(msg)) != 0)
		return bad_request(req, msg);
	memset(&p, 0, sizeof(p));
	memcpy(p.pubkey, body.pubkey, sizeof(p.pubkey));
	snprintf(p.name, sizeof(p.name), "%s", body.name);
	snprintf(p.email, sizeof(p.email), "%s", body.email);
	snprintf(p.lang, sizeof(p.lang), "%s", body.lang);
	if ((st = api_store(req, &rc)) == NULL)
		goto out;
	/* No game mail goes to the address until its owner confirms it:
	 * the player and the confirmation mail in one transaction. */
	p.email_pending = p.email[0] != '\0';
	sr = register_player(req, st, &p, msg, sizeof(msg));
	if (sr == STORE_EXISTS) {
		/* In the language the player asked for (?lang= first). */
		lang = strcmp(p.lang, "fr") == 0 ? RULES_LANG_FR :
		    RULES_LANG_EN;
		if (api_query_lang(req, &lang, &rc) < 0)
			goto out;
		engine_player_exists_reason(st, &p, lang, msg, sizeof(msg));
		rc = api_send_error(req, MHD_HTTP_CONFLICT, "player_exists",
		    msg, NULL);
	} else if (sr != STORE_OK) {
		log_warnx("http: register %s: %s", p.name, store_errmsg(st));
		rc = api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the player cannot be stored now; try again", NULL);
	} else {
		log_info("http: player %lld %s registered", (long long)p.id,
		    p.name);
		rc = api_send_json(req, MHD_HTTP_CREATED, json_pack("{s:I, s:s, "
		    "s:s, s:s, s:s, s:b}", "id", (json_int_t)p.id, "name", p.name,
		    "email", p.email, "lang", p.lang, "key", body.key,
		    "email_confirmed", !p.email_pending));
	}
out:
	api_body_free(&body.root, NULL);
	return rc;
}

struct mine {
	json_t		*games;
	int64_t		 player;
	int64_t		 last;
};

static int
add_seated(const struct store_game *g, void *arg)
{
	struct mine *m = arg;
	int s;

	for (s = 0; s < g->nseats; s++)
		if (g->seat_player[s] == m->player) {
			json_array_append_new(m->games, json_pack("{s:I, s:s, "
			    "s:s, s:i}", "id", (json_int_t)g->id, "ruleset",
			    g->ruleset, "status", api_game_status_name(
			    g->status), "seat", s));
			break;
		}
	m->last = g->id;
	return 0;
}

/* Who the server thinks you are, and one page of your games (through
 * the seats' index: ?after=&limit=, "next"). */
enum MHD_Result
api_player_me(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct store_game_query q;
	struct store_player p;
	struct store *st;
	struct mine m;
	int64_t after, limit;
	json_t *body;
	char key[PROTO_KEY_TEXT_MAX];

	if (api_query_number(req, "after", 0, INT64_MAX, 0, &after, &rc) != 0 ||
	    api_query_number(req, "limit", 1, API_PAGE_MAX, API_PAGE_DEFAULT,
	    &limit, &rc) != 0)
		return rc;
	if (api_authenticate(req, &p, &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	memset(&q, 0, sizeof(q));
	q.after = after;
	q.limit = (int)limit;
	q.status = -1;
	q.player = p.id;
	memset(&m, 0, sizeof(m));
	m.player = p.id;
	m.games = json_array();
	if (store_game_page(st, &q, add_seated, &m) != STORE_OK) {
		json_decref(m.games);
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "the games cannot be read now; try again", NULL);
	}
	proto_pubkey_format(p.pubkey, key, sizeof(key));
	body = json_pack("{s:I, s:s, s:s, s:s, s:s, s:o}", "id",
	    (json_int_t)p.id, "name", p.name, "email", p.email, "lang",
	    p.lang, "key", key, "games", m.games);
	api_page_next(body, (int64_t)json_array_size(m.games) == limit,
	    m.last);
	return api_send_json(req, MHD_HTTP_OK, body);
}
