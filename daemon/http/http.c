/*
 * http.c -- the HTTP server under the JSON API, on libmicrohttpd.
 *
 * libmicrohttpd runs a pool of threads (config "http_threads"); each
 * request's body is collected here up to "http_max_body" bytes, then the
 * route table below picks the handler by method and path (the handlers
 * are in api_*.c; api.h).  docs/API.md describes every route.
 *
 * Refusals that need not wait for the body are sent as soon as the
 * headers are in: 429 when the client's address is over its rate limit,
 * 413 when Content-Length is over http_max_body.  A body sent without a
 * length (chunked) is counted as it comes and refused with 413 at its
 * end; one that goes on past http_max_body + HTTP_DISCARD_MAX bytes has
 * its connection closed.  Each request is counted for the metrics when
 * its answer has gone (completed()).  On SIGTERM, http_stop() stops
 * accepting, and answers carry "Connection: close" while the requests in
 * flight finish.
 *
 * Connections (http_conns.h): a request must be in whole within
 * http_request_timeout seconds or its connection is closed.  Past
 * http_max_connections open connections, a request is answered 503
 * "busy" with "Connection: close" as soon as its headers are in;
 * libmicrohttpd itself closes, unanswered, connections past
 * http_max_connections + HTTP_CONN_RESERVE and past
 * http_max_connections_per_address from one address (0.9.75 can only
 * refuse those at accept(), where nothing can be written).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <sys/resource.h>

#include "api.h"
#include "http.h"
#include "http_conns.h"
#include "http_limits.h"
#include "metrics.h"
#include "web.h"

/* Bytes of an over-long chunked body read and dropped before giving up
 * on answering it. */
#define HTTP_DISCARD_MAX	(1024 * 1024)

/* Connections over http_max_connections that are still accepted, to be
 * answered 503 rather than closed unanswered. */
#define HTTP_CONN_RESERVE	64

/* Every route of the API.  A pattern's {id} matches a positive number and
 * {n} a number from 0 (a seat), handed to the handler in params[], in
 * order. */
static const struct api_route routes[] = {
	{ "GET",  "/v1/health",			api_health },
	{ "GET",  "/v1/metrics",		api_metrics },
	{ "GET",  "/v1/rulesets",		api_rulesets },
	{ "GET",  "/v1/games",			api_games_list },
	{ "GET",  "/v1/games/{id}",		api_game_view },
	{ "GET",  "/v1/games/{id}/text",	api_game_text },
	{ "GET",  "/v1/games/{id}/seed",	api_game_seed },
	{ "POST", "/v1/games/{id}/moves",	api_move_post },
	/* api: players, forming games, private views, log, events */
	{ "POST", "/v1/players",		api_player_register },
	{ "GET",  "/confirm/{code}",		api_confirm_page },
	{ "POST", "/confirm/{code}",		api_confirm_post },
	{ "GET",  "/v1/players/me",		api_player_me },
	{ "POST", "/v1/games",			api_game_create },
	{ "POST", "/v1/games/{id}/join",	api_game_join },
	{ "POST", "/v1/games/{id}/leave",	api_game_leave },
	{ "GET",  "/v1/games/{id}/seats/{n}",	api_seat_view },
	{ "GET",  "/v1/games/{id}/log",		api_game_log },
	{ "GET",  "/v1/games/{id}/events",	api_game_events },
	{ "GET",  "/v1/events",			api_all_events },
	/* webhook registrations (api_webhooks.c) */
	{ "GET",    "/v1/webhooks",			api_webhooks_list },
	{ "POST",   "/v1/webhooks",			api_webhooks_add },
	{ "DELETE", "/v1/webhooks/{id}",		api_webhook_delete },
	{ "GET",    "/v1/games/{id}/webhooks",		api_game_webhooks_list },
	{ "POST",   "/v1/games/{id}/webhooks",		api_game_webhooks_add },
	{ "DELETE", "/v1/games/{id}/webhooks/{id}",	api_game_webhook_delete },
	{ "POST", "/v1/games/{id}/commands",	api_command_post },
	{ "POST", "/v1/delegations",		api_delegation_add },
	{ "GET",  "/v1/delegations",		api_delegation_list },
	{ "POST", "/v1/delegations/revoke",	api_delegation_revoke },
	{ "POST", "/v1/chat/codes",		api_chat_code },
	{ "POST", "/v1/chat/links",		api_chat_link },
	{ "GET",  "/v1/chat/whois",		api_chat_whois },
	/* the player's web page (web_*.c; docs/WEB.md) */
	{ "GET",  "/play/static/play.js",	web_static_js },
	{ "GET",  "/play/static/play.css",	web_static_css },
	{ "GET",  "/play/games/{id}",		web_seat_page },
	{ "GET",  "/play/games/{id}/public",	web_public_page },
	{ "POST", "/play/games/{id}/move",	web_move_post },
	{ "POST", "/play/games/{id}/bots",	web_bots_post },
	{ "POST", "/play/games/{id}/bots/revoke", web_bots_revoke_post },
	{ "GET",  "/play/{code}",		web_signin_page },
	{ "POST", "/play/{code}",		web_signin_post },
	{ NULL, NULL, NULL }
};

/* What is kept of a request while its body arrives (and, for a
 * suspended long-poll, until it is answered). */
struct pending {
	char		*target;	/* the request target as sent, with
					   query */
	char		*body;
	size_t		 len;
	size_t		 dropped;	/* bytes over the limit, not kept */
	int		 too_large;
	int		 started;	/* the headers have been seen */
	int		 close;		/* answer with Connection: close */
	void		*handler_state;	/* api_request.state */
	void		(*handler_state_free)(void *);
	/* api_add_header(): extra headers of the answer. */
	const char	*header_name[API_MAX_HEADERS];
	const char	*header_value[API_MAX_HEADERS];
	int		 nheaders;
	unsigned int	 status;	/* the answer's, once sent */
	/* Found once, when the headers are in (arrived()): the route for
	 * the method and path, or NULL with path_route the first whose
	 * path matches (NULL too if none does); the {id}s of the path. */
	const struct api_route	*route, *path_route;
	int64_t		 params[API_MAX_PARAMS];
	const char	*route_class;	/* for the metrics */
	char		 allow[32];	/* a 405's Allow header */
	struct timespec	 arrived;
};

/* Requests between their first byte and the end of their answer. */
static atomic_int requests_in_flight;

void
api_add_header(struct api_request *req, const char *name, const char *value)
{
	struct pending *p = req->pending;

	/* More than API_MAX_HEADERS is a mistake of this program. */
	assert(p->nheaders < API_MAX_HEADERS);
	p->header_name[p->nheaders] = name;
	p->header_value[p->nheaders] = value;
	p->nheaders++;
}

/* Queue resp (released here) with the request's extra headers, a
 * Retry-After header if retry_after is not 0, and Connection: close when
 * the server is stopping or the request asked for it. */
static enum MHD_Result
queue_response(struct api_request *req, unsigned int status,
    struct MHD_Response *resp, const char *content_type,
    unsigned int retry_after)
{
	enum MHD_Result rc;
	char seconds[16];
	int i;

	MHD_add_response_header(resp, "Content-Type", content_type);
	for (i = 0; i < req->pending->nheaders; i++)
		MHD_add_response_header(resp, req->pending->header_name[i],
		    req->pending->header_value[i]);
	if (retry_after != 0) {
		snprintf(seconds, sizeof(seconds), "%u", retry_after);
		MHD_add_response_header(resp, "Retry-After", seconds);
	}
	if (atomic_load(&req->d->stopping) || req->pending->close)
		MHD_add_response_header(resp, "Connection", "close");
	rc = MHD_queue_response(req->conn, status, resp);
	MHD_destroy_response(resp);
	if (rc == MHD_YES)
		req->status = status;
	return rc;
}

/* Queue text (taken) as the answer, with a Retry-After header if
 * retry_after is not 0. */
static enum MHD_Result
queue_answer(struct api_request *req, unsigned int status,
    const char *content_type, char *text, unsigned int retry_after)
{
	struct MHD_Response *resp;

	if (text == NULL)
		return MHD_NO;
	resp = MHD_create_response_from_buffer(strlen(text), text,
	    MHD_RESPMEM_MUST_FREE);
	if (resp == NULL) {
		free(text);
		return MHD_NO;
	}
	return queue_response(req, status, resp, content_type, retry_after);
}

enum MHD_Result
api_send_stream(struct api_request *req, const char *content_type,
    MHD_ContentReaderCallback read, void *cls,
    MHD_ContentReaderFreeCallback release)
{
	struct MHD_Response *resp;

	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
	    read, cls, release);
	if (resp == NULL) {
		release(cls);
		return MHD_NO;
	}
	return queue_response(req, MHD_HTTP_OK, resp, content_type, 0);
}

/* body as indented JSON text ending in a newline (malloc'd; body is
 * released), or NULL when out of memory. */
static char *
json_text(json_t *body)
{
	char *text = json_dumps(body, JSON_INDENT(2) | JSON_SORT_KEYS), *nl;
	size_t len;

	json_decref(body);
	if (text == NULL)
		return NULL;
	len = strlen(text);
	if ((nl = realloc(text, len + 2)) == NULL) {
		free(text);
		return NULL;
	}
	nl[len] = '\n';
	nl[len + 1] = '\0';
	return nl;
}

enum MHD_Result
api_send_text(struct api_request *req, unsigned int status,
    const char *content_type, char *text)
{
	return queue_answer(req, status, content_type, text, 0);
}

enum MHD_Result
api_send_rate_limited(struct api_request *req, unsigned int retry_after,
    const char *message)
{
	json_t *body = json_pack("{s:{s:s, s:s, s:I}}", "error", "code",
	    "rate_limited", "message", message, "retry_after",
	    (json_int_t)retry_after);
	char *text;

	if (body == NULL)
		return MHD_NO;
	text = json_text(body);
	return queue_answer(req, MHD_HTTP_TOO_MANY_REQUESTS,
	    "application/json; charset=utf-8", text, retry_after);
}

enum MHD_Result
api_send_json(struct api_request *req, unsigned int status, json_t *body)
{
	char *text;

	if (body == NULL)
		return MHD_NO;
	if ((text = json_text(body)) == NULL)
		return MHD_NO;
	return api_send_text(req, status, "application/json; charset=utf-8",
	    text);
}

enum MHD_Result
api_send_refusal(struct api_request *req, unsigned int status,
    const char *code, const char *message, json_t *forms, json_t *legal)
{
	json_t *err = json_pack("{s:s, s:s}", "code", code, "message",
	    message);

	if (forms != NULL)
		json_object_set(err, "move_forms", forms);
	if (legal != NULL)
		json_object_set(err, "legal_moves", legal);
	return api_send_json(req, status, json_pack("{s:o}", "error", err));
}

enum MHD_Result
api_send_error(struct api_request *req, unsigned int status,
    const char *code, const char *message, json_t *forms)
{
	return api_send_refusal(req, status, code, message, forms, NULL);
}

int
api_query_lang(struct api_request *req, enum rules_lang *lang,
    enum MHD_Result *answered)
{
	const char *text = api_query(req, "lang");
	char msg[256];

	if (text == NULL)
		return 0;
	if (strcmp(text, "en") == 0 || strcmp(text, "fr") == 0) {
		*lang = text[0] == 'f' ? RULES_LANG_FR : RULES_LANG_EN;
		return 1;
	}
	snprintf(msg, sizeof(msg), "lang=%.40s: unknown language; lang is "
	    "en (English) or fr (French) / langue inconnue ; lang vaut en "
	    "(anglais) ou fr (français)", text);
	*answered = api_send_error(req, MHD_HTTP_BAD_REQUEST, "bad_request",
	    msg, NULL);
	return -1;
}

const char *
api_query(struct api_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND,
	    name);
}

int
api_query_number(struct api_request *req, const char *name, int64_t min,
    int64_t max, int64_t def, int64_t *out, enum MHD_Result *answered)
{
	const char *text = api_query(req, name);
	char msg[256], *end;
	long long n;

	*out = def;
	if (text == NULL)
		return 0;
	n = strtoll(text, &end, 10);
	if (*text == '\0' || *end != '\0' || n < min || n > max) {
		snprintf(msg, sizeof(msg), "%s=%.40s: expected a whole number "
		    "from %lld to %lld", name, text, (long long)min,
		    (long long)max);
		*answered = api_send_error(req, MHD_HTTP_BAD_REQUEST,
		    "bad_request", msg, NULL);
		return -1;
	}
	*out = n;
	return 0;
}

/* Does path match pattern?  Fills params with the {id}s. */
static int
path_matches(const char *pattern, const char *path, int64_t *params)
{
	int nparams = 0;
	char *end;

	while (*pattern != '\0') {
		if (strncmp(pattern, "{n}", 3) == 0) {
			if (*path < '0' || *path > '9' ||
			    (path[0] == '0' && path[1] >= '0' &&
			    path[1] <= '9'))
				return 0;
			params[nparams++] = strtoll(path, &end, 10);
			if (params[nparams - 1] < 0 ||
			    params[nparams - 1] > INT32_MAX)
				return 0;
			path = end;
			pattern += 3;
			continue;
		}
		if (strncmp(pattern, "{code}", 6) == 0) {
			/* A sign-up code: 1 to 32 letters and digits. */
			size_t n = 0;

			while (n < 33 && ((path[n] >= 'A' && path[n] <= 'Z') ||
			    (path[n] >= 'a' && path[n] <= 'z') ||
			    (path[n] >= '0' && path[n] <= '9')))
				n++;
			if (n == 0 || n > 32)
				return 0;
			path += n;
			pattern += 6;
			continue;
		}
		if (strncmp(pattern, "{id}", 4) == 0) {
			if (*path < '1' || *path > '9')
				return 0;
			params[nparams++] = strtoll(path, &end, 10);
			if (params[nparams - 1] <= 0)
				return 0;
			path = end;
			pattern += 4;
			continue;
		}
		if (*pattern++ != *path++)
			return 0;
	}
	return *path == '\0';
}

/* The route for method and path, or NULL; *path_route is the first
 * route whose path matches whatever the method (NULL if none does). */
static const struct api_route *
find_route(const char *method, const char *path, int64_t *params,
    const struct api_route **path_route)
{
	const struct api_route *r;

	*path_route = NULL;
	for (r = routes; r->pattern != NULL; r++) {
		if (!path_matches(r->pattern, path, params))
			continue;
		if (*path_route == NULL)
			*path_route = r;
		if (strcmp(r->method, method) == 0)
			return r;
	}
	return NULL;
}

/* The methods the routes of path take, "GET, POST", into allow (the
 * Allow header of a 405). */
static void
allowed_methods(const char *path, char *allow, size_t len)
{
	const struct api_route *r;
	int64_t params[API_MAX_PARAMS];
	size_t used = 0;

	allow[0] = '\0';
	for (r = routes; r->pattern != NULL; r++) {
		if (!path_matches(r->pattern, path, params) ||
		    strstr(allow, r->method) != NULL)
			continue;
		used += (size_t)snprintf(allow + used, len - used, "%s%s",
		    used == 0 ? "" : ", ", r->method);
		if (used >= len)
			return;
	}
}

static enum MHD_Result
answer_too_large(struct api_request *req)
{
	char why[160];

	metrics_add(METRICS_BODY_TOO_LARGE, 1);
	snprintf(why, sizeof(why), "a request body is at most %lld bytes "
	    "(http_max_body)", config_int(req->d->cfg, "http_max_body"));
	return api_send_error(req, MHD_HTTP_CONTENT_TOO_LARGE, "too_large",
	    why, NULL);
}

/* Does the request ask for a language the server does not have? */
static int
asks_unknown_lang(struct api_request *req)
{
	const char *text = api_query(req, "lang");

	return text != NULL && strcmp(text, "en") != 0 &&
	    strcmp(text, "fr") != 0;
}

/* The route's handler, after the checks every route shares: the body's
 * size, and ?lang= (an unknown language is the same 400 everywhere,
 * whether or not the route's answer depends on the language: a JSON
 * error for the API, a page in both languages under /play/). */
static enum MHD_Result
route(struct api_request *req, struct pending *p)
{
	enum rules_lang lang;
	enum MHD_Result rc = MHD_NO;

	if (p->route != NULL) {
		if (p->too_large)
			return answer_too_large(req);
		if (strncmp(req->path, "/play/", 6) == 0 &&
		    asks_unknown_lang(req))
			return web_notice(req, MHD_HTTP_BAD_REQUEST,
			    web_request_lang(req), "bad_lang");
		if (api_query_lang(req, &lang, &rc) < 0)
			return rc;
		return p->route->handler(req);
	}
	if (p->path_route != NULL) {
		allowed_methods(req->path, p->allow, sizeof(p->allow));
		api_add_header(req, "Allow", p->allow);
		return api_send_error(req, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "method_not_allowed", "this path does not take that "
		    "method; see docs/API.md", NULL);
	}
	return api_send_error(req, MHD_HTTP_NOT_FOUND, "not_found",
	    "no such resource; see docs/API.md", NULL);
}

/* The client's address as text, for the log. */
static void
client_text(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *addr = NULL;

	if (sa != NULL && sa->sa_family == AF_INET)
		addr = &((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr;
	else if (sa != NULL && sa->sa_family == AF_INET6)
		addr = &((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_addr;
	if (addr == NULL || inet_ntop(sa->sa_family, addr, buf,
	    (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

/* At most the first len - 1 bytes of a client's text, for the log: any
 * control character (a decoded %0a) becomes '?', so no client can forge
 * a log line. */
static void
printable(const char *text, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && text[i] != '\0'; i++)
		buf[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ?
		    '?' : text[i];
	buf[i] = '\0';
}

/* The request as the handlers see it, without its body. */
static void
request_init(struct api_request *req, struct daemon *d,
    struct MHD_Connection *conn, const char *url, const char *method,
    struct pending *p)
{
	memset(req, 0, sizeof(*req));
	req->d = d;
	req->conn = conn;
	req->method = method;
	req->path = url;
	req->body = "";
	req->target = p->target != NULL ? p->target : url;
	memcpy(req->params, p->params, sizeof(req->params));
	req->pending = p;
}

/*
 * A request's headers are in: start its record, and refuse it at once if
 * its address is over the rate limit or its declared body is too large.
 * Returns MHD_YES to go on reading, also after an answer was queued
 * (p->status is then set, and the body is dropped as it comes).
 */
static enum MHD_Result
arrived(struct daemon *d, struct MHD_Connection *conn, const char *url,
    const char *method, struct pending *p)
{
	const union MHD_ConnectionInfo *info;
	const struct sockaddr *sa = NULL;
	struct api_request req;
	unsigned int retry;
	const char *length;
	char who[INET6_ADDRSTRLEN], why[1024], limit[256];
	char limit_fr[256];
	char shown_method[16], shown_url[256];
	enum MHD_Result rc;

	clock_gettime(CLOCK_MONOTONIC, &p->arrived);
	p->route = find_route(method, url, p->params, &p->path_route);
	p->route_class = p->route != NULL ? p->route->pattern :
	    p->path_route != NULL ? p->path_route->pattern : "unmatched";
	request_init(&req, d, conn, url, method, p);
	if ((info = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_CLIENT_ADDRESS)) != NULL)
		sa = info->client_addr;
	client_text(sa, who, sizeof(who));
	printable(method, shown_method, sizeof(shown_method));
	printable(url, shown_url, sizeof(shown_url));
	log_debug("http: %s %s %s", who, shown_method, shown_url);
	if (!ratelimit_allow_address(d, sa, &retry)) {
		/* Before the route: nobody's language is known, so both. */
		limits_describe_address(d, RULES_LANG_EN, limit,
		    sizeof(limit));
		limits_describe_address(d, RULES_LANG_FR, limit_fr,
		    sizeof(limit_fr));
		snprintf(why, sizeof(why), "too many requests from %s: the "
		    "limit is %s; try again in %u s / trop de requêtes depuis "
		    "%s : la limite est %s ; réessayez dans %u s", who, limit,
		    retry, who, limit_fr, retry);
		rc = api_send_rate_limited(&req, retry, why);
		p->status = req.status;
		return rc;
	}
	if (conns_open() > config_int(d->cfg, "http_max_connections")) {
		snprintf(why, sizeof(why), "the server has %d connections open, "
		    "more than it serves at once (http_max_connections = %lld); "
		    "try again shortly", conns_open(),
		    config_int(d->cfg, "http_max_connections"));
		p->close = 1;
		api_add_header(&req, "Retry-After", "1");
		rc = api_send_error(&req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    why, NULL);
		p->status = req.status;
		return rc;
	}
	length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (p->route != NULL && length != NULL && strtoull(length, NULL, 10) >
	    (unsigned long long)config_int(d->cfg, "http_max_body")) {
		rc = answer_too_large(&req);
		p->status = req.status;
		return rc;
	}
	return MHD_YES;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct daemon *d = cls;
	struct pending *p = *con_cls;
	struct api_request req;
	enum MHD_Result rc;
	size_t max_body;
	char *grown;

	(void)version;
	if (p == NULL)		/* uri_seen() failed: out of memory */
		return MHD_NO;
	if (!p->started) {
		p->started = 1;
		atomic_fetch_add(&requests_in_flight, 1);
		return arrived(d, conn, url, method, p);
	}
	if (p->status != 0) {		/* answered already: drop the rest */
		*upload_size = 0;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		max_body = (size_t)config_int(d->cfg, "http_max_body");
		if (p->too_large || p->len + *upload_size > max_body) {
			p->too_large = 1;
			p->dropped += *upload_size;
			if (p->dropped > HTTP_DISCARD_MAX) {
				log_debug("http: closing a connection whose "
				    "body goes on past %zu bytes", max_body +
				    HTTP_DISCARD_MAX);
				return MHD_NO;
			}
		} else if ((grown = realloc(p->body, p->len + *upload_size +
		    1)) != NULL) {
			p->body = grown;
			memcpy(p->body + p->len, upload, *upload_size);
			p->len += *upload_size;
			p->body[p->len] = '\0';
		} else
			return MHD_NO;
		*upload_size = 0;
		return MHD_YES;
	}
	conns_request_in(conn);
	request_init(&req, d, conn, url, method, p);
	if (p->body != NULL)
		req.body = p->body;
	req.body_len = p->len;
	req.state = &p->handler_state;
	req.state_free = &p->handler_state_free;
	rc = route(&req, p);
	p->status = req.status;
	return rc;
}

/* The first thing libmicrohttpd tells of a request: its target as sent
 * (path and query, not yet decoded), which signed requests sign. */
static void *
uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct pending *p;

	(void)cls;
	(void)conn;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	if ((p->target = strdup(uri)) == NULL) {
		free(p);
		return NULL;
	}
	return p;
}

static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct pending *p = *con_cls;
	struct timespec now;
	double seconds;

	(void)cls;
	conns_request_done(conn);
	if (p == NULL)
		return;
	if (p->started) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		seconds = (double)(now.tv_sec - p->arrived.tv_sec) +
		    (double)(now.tv_nsec - p->arrived.tv_nsec) / 1e9;
		metrics_http_request(p->route_class, p->status, seconds);
		log_debug("http: %s answered %u in %.3f ms%s", p->route_class,
		    p->status, seconds * 1e3, toe ==
		    MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" :
		    " (connection ended early)");
		atomic_fetch_sub(&requests_in_flight, 1);
	}
	if (p->handler_state_free != NULL)
		p->handler_state_free(p->handler_state);
	free(p->target);
	free(p->body);
	free(p);
	*con_cls = NULL;
}

/* libmicrohttpd's own complaints, into our log. */
static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t len;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '.'))
		msg[--len] = '\0';
	log_debug("http: libmicrohttpd: %s", msg);
}

/*
 * Descriptors: every connection is one, and pbemd needs about
 * HTTP_FD_OVERHEAD more (the listening socket, each HTTP thread's epoll
 * and signalling descriptors, three per SQLite connection of each
 * thread, the log, the pid file, mail and webhook sockets).  A soft
 * limit below that (1,024 in most shells, for pbemd started by hand) is
 * raised as far as the hard limit allows; warn at start if even that
 * cannot hold them all: past it, accept() fails and so do the database
 * and mail (contrib/pbemd.service sets LimitNOFILE; docs/CONFIG.md has
 * the sum).
 */
#define HTTP_FD_OVERHEAD	128

static void
check_descriptors(const struct config *cfg, unsigned int threads)
{
	struct rlimit rl;
	long long need;

	need = config_int(cfg, "http_max_connections") + HTTP_CONN_RESERVE +
	    HTTP_FD_OVERHEAD + 5LL * threads;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    (long long)rl.rlim_cur >= need)
		return;
	if (rl.rlim_max == RLIM_INFINITY || (long long)rl.rlim_max >= need) {
		rl.rlim_cur = (rlim_t)need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0) {
			log_info("http: open files limit raised to %lld "
			    "(http_max_connections = %lld with %u threads)",
			    need, config_int(cfg, "http_max_connections"),
			    threads);
			return;
		}
	} else if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;	/* as far as it goes */
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	log_warnx("http: the open files limit is %lld, but http_max_connections "
	    "= %lld with %u threads needs about %lld (docs/CONFIG.md); raise "
	    "LimitNOFILE or lower http_max_connections",
	    (long long)rl.rlim_cur, config_int(cfg, "http_max_connections"),
	    threads, need);
}

int
http_start(struct daemon *d)
{
	const struct config *cfg = d->cfg;
	struct sockaddr_in sin;
	unsigned int threads;

	if (d->port == 0) {
		log_info("http: off (http_port is 0)");
		return 0;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)d->port);
	if (inet_pton(AF_INET, d->address, &sin.sin_addr) != 1) {
		log_warnx("http: %s is not an IPv4 address", d->address);
		return -1;
	}
	threads = (unsigned int)config_int(cfg, "http_threads");
	check_descriptors(cfg, threads);
	if (conns_start(d) != 0) {
		log_warnx("http: cannot start the request watchdog");
		return -1;
	}
	/* Suspend/resume: an event long-poll waits without holding one of
	 * the pool's threads (api_events.c).  It implies MHD_USE_ITC,
	 * which MHD_quiesce_daemon() in http_stop() needs too. */
	d->httpd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG |
	    MHD_ALLOW_SUSPEND_RESUME,
	    (uint16_t)d->port, NULL, NULL, handle, d,
	    MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
	    MHD_OPTION_SOCK_ADDR, &sin,
	    MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
	    MHD_OPTION_THREAD_POOL_SIZE, threads,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_NOTIFY_CONNECTION, conns_notify, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)config_int(cfg, "http_timeout"),
	    MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned int)config_int(cfg, "http_max_connections") +
	    HTTP_CONN_RESERVE,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)config_int(cfg, "http_max_connections_per_address"),
	    MHD_OPTION_END);
	if (d->httpd == NULL) {
		conns_stop();
		log_warnx("http: cannot listen on %s:%d", d->address, d->port);
		return -1;
	}
	log_info("http: listening on http://%s:%d/v1/ with %u threads",
	    d->address, d->port, threads);
	return 0;
}

void
http_stop(struct daemon *d)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	MHD_socket listener;
	long long waited_ms = 0, limit_ms;
	int left;

	if (d->httpd == NULL)
		return;
	/* No new connections; those open go on. */
	if ((listener = MHD_quiesce_daemon(d->httpd)) != MHD_INVALID_SOCKET)
		close(listener);
	limit_ms = config_int(d->cfg, "http_timeout") * 1000;
	while ((left = atomic_load(&requests_in_flight)) > 0 &&
	    waited_ms < limit_ms) {
		nanosleep(&pause, NULL);
		waited_ms += 10;
	}
	if (left > 0)
		log_warnx("http: %d requests still unanswered after %lld s; "
		    "closing them", left, limit_ms / 1000);
	MHD_stop_daemon(d->httpd);
	d->httpd = NULL;
	conns_stop();
}
