/*
 * http.c -- the HTTP JSON API (ingress over HTTP), on libmicrohttpd.
 *
 * This first version serves one request at a time from libmicrohttpd's
 * internal polling thread, with one store connection; the thread pool,
 * signed private views, events, webhooks and limits come with the daemon
 * issue (docs/API.md lists what exists today).
 *
 *   GET  /v1/health
 *   GET  /v1/rulesets
 *   GET  /v1/games
 *   GET  /v1/games/{id}            public view
 *   GET  /v1/games/{id}/seed       commitment, and the seed once over
 *   GET  /v1/games/{id}/text       the public view as text (?lang=fr)
 *   POST /v1/games/{id}/moves      body: the signed move block
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <microhttpd.h>

#include "daemon.h"
#include "engine.h"
#include "present.h"
#include "templates.h"

#define HTTP_BODY_MAX	(64 * 1024)

struct request {
	char	*body;
	size_t	 len;
	int	 too_large;
};

/* Queue text (malloc'd; the response frees it) as the answer. */
static enum MHD_Result
send_body(struct MHD_Connection *conn, unsigned int status,
    const char *content_type, char *text)
{
	struct MHD_Response *resp;
	enum MHD_Result rc;

	if (text == NULL)
		return MHD_NO;
	resp = MHD_create_response_from_buffer(strlen(text), text,
	    MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(resp, "Content-Type", content_type);
	rc = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static enum MHD_Result
send_json(struct MHD_Connection *conn, unsigned int status, json_t *body)
{
	char *text = json_dumps(body, JSON_INDENT(2) | JSON_SORT_KEYS);

	json_decref(body);
	return send_body(conn, status, "application/json; charset=utf-8",
	    text);
}

static enum MHD_Result
send_error(struct MHD_Connection *conn, unsigned int status,
    const char *code, const char *message, json_t *forms)
{
	json_t *err = json_pack("{s:s, s:s}", "code", code, "message",
	    message);

	if (forms != NULL)
		json_object_set(err, "legal_moves", forms);
	return send_json(conn, status, json_pack("{s:o}", "error", err));
}

static json_t *
rulesets_json(void)
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
	return json_pack("{s:o}", "rulesets", list);
}

static int
add_game(const struct store_game *g, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I, s:s, s:i, s:s}", "id",
	    (json_int_t)g->id, "ruleset", g->ruleset, "seats", g->nseats,
	    "status", g->status == STORE_GAME_OVER ? "over" : "running"));
	return 0;
}

static unsigned int
http_status(enum engine_status es)
{
	switch (es) {
	case ENGINE_UNKNOWN_GAME:
		return MHD_HTTP_NOT_FOUND;
	case ENGINE_BAD_SIGNATURE:
		return MHD_HTTP_FORBIDDEN;
	case ENGINE_STALE_SEQ:
	case ENGINE_FUTURE_SEQ:
	case ENGINE_GAME_OVER:
	case ENGINE_NOT_YOUR_TURN:
		return MHD_HTTP_CONFLICT;
	case ENGINE_SYNTAX:
	case ENGINE_ILLEGAL:
		return MHD_HTTP_UNPROCESSABLE_CONTENT;
	case ENGINE_BUSY:
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	case ENGINE_INTERNAL:
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	default:
		return MHD_HTTP_BAD_REQUEST;
	}
}

static enum MHD_Result
post_move(struct daemon *d, struct MHD_Connection *conn, int64_t game_id,
    const struct request *req)
{
	struct engine_reply reply;
	struct proto_move m;
	char hex[65], block[2048];
	enum MHD_Result rc;

	/* The URL names a game: a block signed for another game is refused
	 * here rather than played in the game it names. */
	if (proto_move_find(req->body ? req->body : "", req->len, &m, block,
	    sizeof(block)) == PROTO_OK && m.game_id != game_id) {
		snprintf(block, sizeof(block), "the signed block is for game "
		    "%lld; it was posted to game %lld", (long long)m.game_id,
		    (long long)game_id);
		return send_error(conn, MHD_HTTP_BAD_REQUEST, "wrong_game",
		    block, NULL);
	}
	engine_submit(d->st, d->key, req->body ? req->body : "", req->len,
	    RULES_LANG_EN, &reply);
	if (reply.status != ENGINE_OK) {
		rc = send_error(conn, http_status(reply.status),
		    engine_status_code(reply.status), reply.message,
		    reply.forms);
		engine_reply_clear(&reply);
		return rc;
	}
	proto_hex(reply.receipt.entry_hash, 32, hex);
	proto_receipt_armour(&reply.receipt, block, sizeof(block));
	rc = send_json(conn, MHD_HTTP_OK, json_pack("{s:I, s:I, s:s, s:s, "
	    "s:I, s:b}", "game", (json_int_t)reply.receipt.game_id, "seq",
	    (json_int_t)reply.receipt.seq, "entry_hash", hex, "receipt",
	    block, "next_seq", (json_int_t)reply.next_seq, "game_over",
	    reply.game_over));
	engine_reply_clear(&reply);
	return rc;
}

/* The public view rendered with the spectator (or game over) template. */
static enum MHD_Result
get_text(struct daemon *d, struct MHD_Connection *conn,
    const struct gamestate *gs)
{
	const char *lang = MHD_lookup_connection_value(conn,
	    MHD_GET_ARGUMENT_KIND, "lang");
	struct present_info info;
	struct mustache_buf out;
	json_t *view, *shown;
	char err[1024];
	int seat;

	memset(&info, 0, sizeof(info));
	info.lang = lang != NULL && strcmp(lang, "fr") == 0 ? RULES_LANG_FR :
	    RULES_LANG_EN;
	info.module = gs->module;
	info.viewer = RULES_VIEW_PUBLIC;
	view = gamestate_view(gs, RULES_VIEW_PUBLIC);
	shown = present_view(view, &info);
	json_decref(view);
	mustache_buf_init(&out);
	if (templates_render(d->templates, present_lang_code(info.lang),
	    gs->module->name, gs->module->to_act(gs->state, &seat, 1) == 0 ?
	    "game_over" : "spectator", TPL_TEXT, shown, &out, err,
	    sizeof(err)) != 0) {
		json_decref(shown);
		mustache_buf_free(&out);
		log_warnx("http: %s", err);
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", err, NULL);
	}
	json_decref(shown);
	if (out.data == NULL)
		return send_body(conn, MHD_HTTP_OK, "text/plain; charset=utf-8",
		    strdup(""));
	return send_body(conn, MHD_HTTP_OK, "text/plain; charset=utf-8",
	    out.data);	/* takes it */
}

static enum MHD_Result
get_game(struct daemon *d, struct MHD_Connection *conn, int64_t game_id,
    const char *rest)
{
	enum MHD_Result rc;
	struct gamestate gs;
	char err[1024], hex[65];
	json_t *body;

	if (gamestate_load(d->st, game_id, -1, &gs, err, sizeof(err)) !=
	    ENGINE_OK)
		return send_error(conn, MHD_HTTP_NOT_FOUND, "unknown_game",
		    err, NULL);
	if (strcmp(rest, "/text") == 0) {
		rc = get_text(d, conn, &gs);
		gamestate_clear(&gs);
		return rc;
	}
	if (*rest == '\0')
		body = gamestate_view(&gs, RULES_VIEW_PUBLIC);
	else if (strcmp(rest, "/seed") == 0) {
		proto_hex(gs.game.commitment, 32, hex);
		body = json_pack("{s:I, s:s}", "game", (json_int_t)game_id,
		    "commitment", hex);
		if (gs.game.status == STORE_GAME_OVER) {
			proto_hex(gs.game.seed, 32, hex);
			json_object_set_new(body, "seed", json_string(hex));
		}
	} else {
		gamestate_clear(&gs);
		return send_error(conn, MHD_HTTP_NOT_FOUND, "not_found",
		    "no such resource; see docs/API.md", NULL);
	}
	gamestate_clear(&gs);
	return send_json(conn, MHD_HTTP_OK, body);
}

static enum MHD_Result
route(struct daemon *d, struct MHD_Connection *conn, const char *method,
    const char *url, const struct request *req)
{
	int is_get = strcmp(method, "GET") == 0;
	int is_post = strcmp(method, "POST") == 0;
	json_t *games;
	int64_t game_id;
	char *end;

	if (is_get && strcmp(url, "/v1/health") == 0)
		return send_json(conn, MHD_HTTP_OK, json_pack("{s:s}",
		    "status", "ok"));
	if (is_get && strcmp(url, "/v1/rulesets") == 0)
		return send_json(conn, MHD_HTTP_OK, rulesets_json());
	if (is_get && strcmp(url, "/v1/games") == 0) {
		games = json_array();
		if (store_game_foreach(d->st, add_game, games) != STORE_OK) {
			json_decref(games);
			return send_error(conn, 500, "internal_error",
			    store_errmsg(d->st), NULL);
		}
		return send_json(conn, MHD_HTTP_OK, json_pack("{s:o}",
		    "games", games));
	}
	if (strncmp(url, "/v1/games/", 10) != 0)
		return send_error(conn, MHD_HTTP_NOT_FOUND, "not_found",
		    "no such resource; see docs/API.md", NULL);
	game_id = strtoll(url + 10, &end, 10);
	if (end == url + 10 || game_id <= 0)
		return send_error(conn, MHD_HTTP_NOT_FOUND, "unknown_game",
		    "a game id is a positive number", NULL);
	if (is_post && strcmp(end, "/moves") == 0) {
		if (req->too_large)
			return send_error(conn, 413,
			    "too_large", "a move body is at most 65536 bytes",
			    NULL);
		return post_move(d, conn, game_id, req);
	}
	if (is_get)
		return get_game(d, conn, game_id, end);
	return send_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
	    "method_not_allowed", "use GET, or POST for /moves", NULL);
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct request *req = *con_cls;
	char *grown;

	if (req == NULL) {
		if ((req = calloc(1, sizeof(*req))) == NULL)
			return MHD_NO;
		*con_cls = req;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		if (req->len + *upload_size > HTTP_BODY_MAX)
			req->too_large = 1;
		else if ((grown = realloc(req->body, req->len + *upload_size +
		    1)) != NULL) {
			req->body = grown;
			memcpy(req->body + req->len, upload, *upload_size);
			req->len += *upload_size;
			req->body[req->len] = '\0';
		}
		*upload_size = 0;
		return MHD_YES;
	}
	return route(cls, conn, method, url, req);
}

static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct request *req = *con_cls;

	if (req != NULL) {
		free(req->body);
		free(req);
		*con_cls = NULL;
	}
}

int
http_start(struct daemon *d)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)d->port);
	if (inet_pton(AF_INET, d->address, &sin.sin_addr) != 1) {
		log_warnx("http: %s is not an IPv4 address", d->address);
		return -1;
	}
	d->httpd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_ERROR_LOG, (uint16_t)d->port, NULL, NULL, handle, d,
	    MHD_OPTION_SOCK_ADDR, &sin,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
	    MHD_OPTION_END);
	if (d->httpd == NULL) {
		log_warnx("http: cannot listen on %s:%d", d->address, d->port);
		return -1;
	}
	log_info("http: listening on http://%s:%d/v1/", d->address, d->port);
	return 0;
}

void
http_stop(struct daemon *d)
{
	if (d->httpd != NULL)
		MHD_stop_daemon(d->httpd);
	d->httpd = NULL;
}
