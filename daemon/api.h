/*
 * api.h -- what the HTTP API's handlers share (http.c serves, api_*.c
 * answer).
 *
 * http.c collects a request's body, finds the route for its method and
 * path in the table of routes and calls that route's handler with the
 * numbers the path named ({id} in the pattern).  A handler answers
 * exactly once with one of the api_send_* functions and returns what it
 * returned.  Handlers run on the HTTP threads, several at a time: they
 * use the calling thread's store connection (daemon_store()) and nothing
 * else that is shared without a lock.
 *
 *   api_games.c	rulesets, games and their public views
 *   api_moves.c	POST of a signed move
 *   api_ops.c		health and metrics
 *   api_webhooks.c	webhook registrations (admin token)
 */
#ifndef PBEM_API_H
#define PBEM_API_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <microhttpd.h>

#include "daemon.h"

#define API_MAX_PARAMS	2

struct api_request {
	struct daemon		*d;
	struct MHD_Connection	*conn;
	const char		*method;
	const char		*path;		/* without the query */
	const char		*body;		/* NUL-terminated; "" if none */
	size_t			 body_len;
	int64_t			 params[API_MAX_PARAMS];	/* {id}s */
	unsigned int		 status;	/* set by api_send_*: the
						   status queued */
};

typedef enum MHD_Result (*api_handler)(struct api_request *req);

struct api_route {
	const char	*method;	/* "GET", "POST", ... */
	const char	*pattern;	/* "/v1/games/{id}/moves" */
	api_handler	 handler;
};

/* Answers.  Each takes ownership of what it is given. */
enum MHD_Result	api_send_json(struct api_request *req, unsigned int status,
		    json_t *body);
enum MHD_Result	api_send_text(struct api_request *req, unsigned int status,
		    const char *content_type, char *text);
/* {"error": {"code", "message", "legal_moves"?}}; forms is borrowed. */
enum MHD_Result	api_send_error(struct api_request *req, unsigned int status,
		    const char *code, const char *message, json_t *forms);
/* 429 with a Retry-After header and {"error": {"code": "rate_limited",
 * "message", "retry_after"}}; message says which limit (limits_describe_*
 * in daemon.h). */
enum MHD_Result	api_send_rate_limited(struct api_request *req,
		    unsigned int retry_after, const char *message);
/* A query-string argument, or NULL. */
const char	*api_query(struct api_request *req, const char *name);

/* api_ops.c */
enum MHD_Result	api_health(struct api_request *req);
enum MHD_Result	api_metrics(struct api_request *req);

/* api_games.c */
enum MHD_Result	api_rulesets(struct api_request *req);
enum MHD_Result	api_games_list(struct api_request *req);
enum MHD_Result	api_game_view(struct api_request *req);
enum MHD_Result	api_game_text(struct api_request *req);
enum MHD_Result	api_game_seed(struct api_request *req);

/* api_moves.c */
enum MHD_Result	api_move_post(struct api_request *req);
/* api_commands.c */
enum MHD_Result	api_command_post(struct api_request *req);

/* api_webhooks.c */
enum MHD_Result	api_webhooks_list(struct api_request *req);
enum MHD_Result	api_webhooks_add(struct api_request *req);
enum MHD_Result	api_webhook_delete(struct api_request *req);
enum MHD_Result	api_game_webhooks_list(struct api_request *req);
enum MHD_Result	api_game_webhooks_add(struct api_request *req);
enum MHD_Result	api_game_webhook_delete(struct api_request *req);

#endif /* PBEM_API_H */
