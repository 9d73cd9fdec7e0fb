/*
 * http.c -- the HTTP server under the JSON API, on libmicrohttpd.
 *
 * libmicrohttpd runs a pool of threads (config "http_threads"); each
 * request's body is collected here up to "http_max_body" bytes, then the
 * route table below picks the handler by method and path (the handlers
 * are in api_*.c; api.h).  docs/API.md describes every route.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "api.h"

/* Every route of the API.  A pattern's {id} matches a positive number and
 * {n} a number from 0 (a seat), handed to the handler in params[], in
 * order. */
static const struct api_route routes[] = {
	{ "GET",  "/v1/health",			api_health },
	{ "GET",  "/v1/rulesets",		api_rulesets },
	{ "GET",  "/v1/games",			api_games_list },
	{ "GET",  "/v1/games/{id}",		api_game_view },
	{ "GET",  "/v1/games/{id}/text",	api_game_text },
	{ "GET",  "/v1/games/{id}/seed",	api_game_seed },
	{ "POST", "/v1/games/{id}/moves",	api_move_post },
	/* api: players, forming games, private views, log, events */
	{ "POST", "/v1/players",		api_player_register },
	{ "GET",  "/v1/players/me",		api_player_me },
	{ "POST", "/v1/games",			api_game_create },
	{ "POST", "/v1/games/{id}/join",	api_game_join },
	{ "POST", "/v1/games/{id}/leave",	api_game_leave },
	{ "GET",  "/v1/games/{id}/seats/{n}",	api_seat_view },
	{ "GET",  "/v1/games/{id}/log",		api_game_log },
	{ "GET",  "/v1/games/{id}/events",	api_game_events },
	/* webhook registrations (api_webhooks.c) */
	{ "GET",    "/v1/webhooks",			api_webhooks_list },
	{ "POST",   "/v1/webhooks",			api_webhooks_add },
	{ "DELETE", "/v1/webhooks/{id}",		api_webhook_delete },
	{ "GET",    "/v1/games/{id}/webhooks",		api_game_webhooks_list },
	{ "POST",   "/v1/games/{id}/webhooks",		api_game_webhooks_add },
	{ "DELETE", "/v1/games/{id}/webhooks/{id}",	api_game_webhook_delete },
	{ "POST", "/v1/games/{id}/commands",	api_command_post },
	{ NULL, NULL, NULL }
};

/* What is kept of a request while its body arrives (and, for a
 * suspended long-poll, until it is answered). */
struct pending {
	char	*target;	/* the request target as sent, with query */
	char	*body;
	size_t	 len;
	int	 too_large;
	int	 started;	/* the handler has been called once */
	void	*handler_state;	/* api_request.state */
	void	(*handler_state_free)(void *);
	const char *header_name, *header_value;	/* api_add_header() */
};

void
api_add_header(struct api_request *req, const char *name, const char *value)
{
	req->pending->header_name = name;
	req->pending->header_value = value;
}

enum MHD_Result
api_send_text(struct api_request *req, unsigned int status,
    const char *content_type, char *text)
{
	struct MHD_Response *resp;
	enum MHD_Result rc;

	if (text == NULL)
		return MHD_NO;
	resp = MHD_create_response_from_buffer(strlen(text), text,
	    MHD_RESPMEM_MUST_FREE);
	if (resp == NULL) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", content_type);
	if (req->pending->header_name != NULL)
		MHD_add_response_header(resp, req->pending->header_name,
		    req->pending->header_value);
	rc = MHD_queue_response(req->conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

enum MHD_Result
api_send_json(struct api_request *req, unsigned int status, json_t *body)
{
	char *text;

	if (body == NULL)
		return MHD_NO;
	text = json_dumps(body, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(body);
	return api_send_text(req, status, "application/json; charset=utf-8",
	    text);
}

enum MHD_Result
api_send_error(struct api_request *req, unsigned int status,
    const char *code, const char *message, json_t *forms)
{
	json_t *err = json_pack("{s:s, s:s}", "code", code, "message",
	    message);

	if (forms != NULL)
		json_object_set(err, "legal_moves", forms);
	return api_send_json(req, status, json_pack("{s:o}", "error", err));
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

static enum MHD_Result
route(struct api_request *req, const struct pending *p)
{
	const struct api_route *r;
	int path_known = 0;
	char why[128];

	for (r = routes; r->pattern != NULL; r++) {
		if (!path_matches(r->pattern, req->path, req->params))
			continue;
		path_known = 1;
		if (strcmp(r->method, req->method) != 0)
			continue;
		if (p->too_large) {
			snprintf(why, sizeof(why), "a request body is at most "
			    "%lld bytes", config_int(req->d->cfg,
			    "http_max_body"));
			return api_send_error(req,
			    MHD_HTTP_CONTENT_TOO_LARGE, "too_large", why,
			    NULL);
		}
		return r->handler(req);
	}
	if (path_known)
		return api_send_error(req, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "method_not_allowed", "this path does not take that "
		    "method; see docs/API.md", NULL);
	return api_send_error(req, MHD_HTTP_NOT_FOUND, "not_found",
	    "no such resource; see docs/API.md", NULL);
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct daemon *d = cls;
	struct pending *p = *con_cls;
	struct api_request req;
	size_t max_body;
	char *grown;

	(void)version;
	if (p == NULL)		/* uri_seen() failed: out of memory */
		return MHD_NO;
	if (!p->started) {
		p->started = 1;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		max_body = (size_t)config_int(d->cfg, "http_max_body");
		if (p->too_large || p->len + *upload_size > max_body)
			p->too_large = 1;
		else if ((grown = realloc(p->body, p->len + *upload_size +
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
	memset(&req, 0, sizeof(req));
	req.d = d;
	req.conn = conn;
	req.method = method;
	req.path = url;
	req.body = p->body != NULL ? p->body : "";
	req.body_len = p->len;
	req.target = p->target != NULL ? p->target : url;
	req.pending = p;
	req.state = &p->handler_state;
	req.state_free = &p->handler_state_free;
	return route(&req, p);
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

	(void)cls;
	(void)conn;
	(void)toe;
	if (p != NULL) {
		if (p->handler_state_free != NULL)
			p->handler_state_free(p->handler_state);
		free(p->target);
		free(p->body);
		free(p);
		*con_cls = NULL;
	}
}

int
http_start(struct daemon *d)
{
	struct sockaddr_in sin;
	unsigned int threads;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)d->port);
	if (inet_pton(AF_INET, d->address, &sin.sin_addr) != 1) {
		log_warnx("http: %s is not an IPv4 address", d->address);
		return -1;
	}
	threads = (unsigned int)config_int(d->cfg, "http_threads");
	/* Suspend/resume: an event long-poll waits without holding one of
	 * the pool's threads (api_events.c). */
	d->httpd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME,
	    (uint16_t)d->port, NULL, NULL, handle, d,
	    MHD_OPTION_SOCK_ADDR, &sin,
	    MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
	    MHD_OPTION_THREAD_POOL_SIZE, threads,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)config_int(d->cfg, "http_timeout"),
	    MHD_OPTION_END);
	if (d->httpd == NULL) {
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
	if (d->httpd != NULL)
		MHD_stop_daemon(d->httpd);
	d->httpd = NULL;
}
