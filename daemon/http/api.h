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
 *   api_auth.c		signed requests (Authorization: PBEM-Ed25519)
 *   api_players.c	player registration
 *   api_forming.c	creating, joining and leaving games
 *   api_seats.c	a seat's private view (signed)
 *   api_log.c		the public log, paged, redacted until the end
 *   api_events.c	long-poll of a game's events (suspend/resume)
 *   api_events_all.c	the same over every game, by global event id
 *   sse.c		the same as Server-Sent Events streams (sse.h)
 *   api_webhooks.c	webhook registrations (admin token)
 *   api_body.c		the JSON bodies, read and checked (api_body.h)
 * The players' HTML page under /play/ is routed here too; its handlers
 * are the web_*.c files, with their own header (web.h).
 */
#ifndef PBEM_API_H
#define PBEM_API_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <microhttpd.h>

#include "daemon.h"
#include "engine.h"

#define API_MAX_PARAMS	2
#define API_MAX_HEADERS	8	/* api_add_header() per answer */

struct pending;

struct api_request {
	struct daemon		*d;
	struct MHD_Connection	*conn;
	const char		*method;
	const char		*path;		/* without the query */
	const char		*target;	/* path and query as sent */
	const char		*body;		/* NUL-terminated; "" if none */
	size_t			 body_len;
	int64_t			 params[API_MAX_PARAMS];	/* {id}s */
	unsigned int		 status;	/* set by api_send_*: the
						   status queued */
	/* State a handler keeps across a suspension (api_events.c): NULL
	 * on the first call; if set, *state_free(*state) is called when
	 * the connection ends. */
	void			**state;
	void			(**state_free)(void *);
	struct pending		*pending;	/* http.c's own */
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
/* A 200 answer whose body read(cls, ...) writes as it comes, for as long
 * as it returns bytes (libmicrohttpd's content reader; sse.c); release
 * (cls) is called when it is done, also if it could not be queued. */
enum MHD_Result	api_send_stream(struct api_request *req,
		    const char *content_type, MHD_ContentReaderCallback read,
		    void *cls, MHD_ContentReaderFreeCallback release);
/* {"error": {"code", "message"}}; forms, when not NULL, becomes
 * "move_forms" (borrowed).  Every JSON answer ends with a newline. */
enum MHD_Result	api_send_error(struct api_request *req, unsigned int status,
		    const char *code, const char *message, json_t *forms);
/* A refused move: the same with "move_forms" (for people, in the
 * request's language) and "legal_moves" (every legal move text, exactly
 * as a seat view's "legal_moves" lists them); both borrowed, NULL: left
 * out. */
enum MHD_Result	api_send_refusal(struct api_request *req, unsigned int status,
		    const char *code, const char *message, json_t *forms,
		    json_t *legal);
/* 429 with a Retry-After header and {"error": {"code": "rate_limited",
 * "message", "retry_after"}}; message says which limit (limits_describe_*
 * in daemon.h). */
enum MHD_Result	api_send_rate_limited(struct api_request *req,
		    unsigned int retry_after, const char *message);
/* A query-string argument, or NULL. */
const char	*api_query(struct api_request *req, const char *name);
/* A query argument as a whole number in [min, max], or def if absent:
 * 0, or -1 with a 400 answered if it is there but bad. */
int		 api_query_number(struct api_request *req, const char *name,
		    int64_t min, int64_t max, int64_t def, int64_t *out,
		    enum MHD_Result *answered);
/* ?lang=: 1 with *lang set when it is en or fr, 0 when absent (*lang
 * untouched), -1 with a 400 answered (naming en and fr) for any other
 * value.  http.c checks it before every route's handler (so no route
 * sees an unknown lang); a route that reads lang calls it again. */
int		 api_query_lang(struct api_request *req, enum rules_lang *lang,
		    enum MHD_Result *answered);
/* api_moves.c: the language of the player in a block's seat (en when
 * the game or seat is unknown), for answers without ?lang=. */
enum rules_lang	 api_seat_lang(struct store *st, const struct proto_move *m);
/* An extra header on the answer, at most API_MAX_HEADERS (name and value
 * must outlive it). */
void		 api_add_header(struct api_request *req, const char *name,
		    const char *value);
/* The calling thread's store, or NULL with a 503 answered. */
struct store	*api_store(struct api_request *req, enum MHD_Result *answered);
/* api_games.c: the row of game_id into g (store_game_clear() it): 0, or
 * -1 with 404 unknown_game or 503 busy answered. */
int		 api_game_get(struct api_request *req, struct store *st,
		    int64_t game_id, struct store_game *g,
		    enum MHD_Result *answered);

/* api_auth.c: signed requests (docs/API.md "Signed requests").
 * 0 with the signing player in *player, or -1 with a 401 answered
 * (missing or malformed header, unknown player, time outside the window
 * or before the daemon started, bad signature, replay). */
int	api_authenticate(struct api_request *req, struct store_player *player,
	    enum MHD_Result *answered);
/* The same for a request about game_id that a bot may sign for the
 * player under a delegation certificate in force and recorded in that
 * game (docs/PROTOCOL.md section 13): a seat's view.  *player is still
 * the player the header names. */
int	api_authenticate_for_game(struct api_request *req, int64_t game_id,
	    struct store_player *player, enum MHD_Result *answered);
/* A signed request with a JSON object for body (none for a GET): 0 with
 * the signer in *player, the answer's language in *lang (?lang=, else
 * the signer's) and the body in *root (NULL for a GET; the caller drops
 * it), or -1 with the refusal answered. */
int	api_signed_json(struct api_request *req, struct store_player *player,
	    enum rules_lang *lang, json_t **root, enum MHD_Result *answered);
/* Does the request carry the administrator's token ("Authorization:
 * Bearer <webhook_admin_token>", compared in constant time)?  1 yes; 0 a
 * bearer header that is not the token, or no token is set; -1 no bearer
 * header at all.  Answers nothing. */
int	api_admin_bearer(struct api_request *req);

/* api_confirm.c: the link of a sign-up mail */
enum MHD_Result	api_confirm_page(struct api_request *req);
enum MHD_Result	api_confirm_post(struct api_request *req);

/* api_players.c */
enum MHD_Result	api_player_register(struct api_request *req);
enum MHD_Result	api_player_me(struct api_request *req);

/* api_forming.c: games being formed */
enum MHD_Result	api_game_create(struct api_request *req);
enum MHD_Result	api_game_join(struct api_request *req);
enum MHD_Result	api_game_leave(struct api_request *req);
/* The JSON of a game row: id, ruleset, status, seats with players'
 * names (null: open), options, seed commitment. */
json_t	*api_game_summary(struct store *st, const struct store_game *g);
const char *api_game_status_name(int status);

/* api_seats.c: a seat's private view */
enum MHD_Result	api_seat_view(struct api_request *req);

/* api_log.c: the public log, and the entries events share: those of
 * g's log after `after`, at most limit, redacted unless g is over;
 * *last is the seq of the last one (after if there is none).  NULL if
 * the log cannot be read (logged). */
enum MHD_Result	api_game_log(struct api_request *req);
json_t	*api_log_entries(struct store *st, const struct store_game *g,
	    int64_t after, int limit, int64_t *last);
/* One entry in that shape; reveal: the game is over. */
json_t	*api_log_entry(const struct store_entry *e, int reveal);
/* An event: api_log_entry() with "name" (the name of the player at the
 * entry's seat now, or null) and "summary" (the entry's one line in
 * English and French, docs/API.md "Summaries") -- what the log pages,
 * both event long-polls and both SSE streams send.  r: a summary reader
 * kept across a run of one game's entries (engine.h), or NULL. */
json_t	*api_event(struct store *st, struct engine_summary_reader *r,
	    const struct store_entry *e, int reveal);
/* The name of the player at seat of game_id now, copied into name; NULL
 * for an open seat, a seat of -1 or a store failure. */
const char *api_seat_player(struct store *st, int64_t game_id, int seat,
	    char name[STORE_NAME_MAX]);

/* api_events.c */
enum MHD_Result	api_game_events(struct api_request *req);
/* api_events_all.c */
enum MHD_Result	api_all_events(struct api_request *req);

/* api_ops.c */
enum MHD_Result	api_health(struct api_request *req);
enum MHD_Result	api_metrics(struct api_request *req);

/* api_games.c */
/* Lists are paged: ?after=CURSOR&limit=N, N from 1 to API_PAGE_MAX
 * (default API_PAGE_DEFAULT); the answer's "next" is the cursor of the
 * next page, or null after the last (api_page_next(): full is whether
 * this page had limit items, last the cursor of its last item). */
#define API_PAGE_DEFAULT	50
#define API_PAGE_MAX		100
void		api_page_next(json_t *body, int full, int64_t last);
enum MHD_Result	api_rulesets(struct api_request *req);
enum MHD_Result	api_games_list(struct api_request *req);
enum MHD_Result	api_game_view(struct api_request *req);
enum MHD_Result	api_game_text(struct api_request *req);
enum MHD_Result	api_game_seed(struct api_request *req);

/* api_moves.c; the HTTP status for an engine refusal (moves, commands) */
unsigned int	api_engine_http_status(enum engine_status es);
/* The per-key rate limit of a signed block m (a move, or a command when
 * is_command), read before the engine: 0 to go on, with *keyed set when
 * the seat's key is known (it is then in key), or -1 with 429 answered
 * in lang.  After the engine, api_block_charge()
 * takes the token if the signature proved good. */
int		api_block_limit(struct api_request *req, struct store *st,
		    const struct proto_move *m, unsigned char key[32],
		    int *keyed, int is_command, enum rules_lang lang,
		    enum MHD_Result *answered);
void		api_block_charge(struct api_request *req,
		    const unsigned char *key, int keyed,
		    enum engine_status status);
enum MHD_Result	api_move_post(struct api_request *req);
/* api_commands.c */
enum MHD_Result	api_command_post(struct api_request *req);
/* api_delegations.c: delegation certificates, sent, listed and revoked
 * by the player's own signed requests (docs/API.md "Delegation"). */
enum MHD_Result	api_delegation_add(struct api_request *req);
enum MHD_Result	api_delegation_list(struct api_request *req);
enum MHD_Result	api_delegation_revoke(struct api_request *req);
/* api_chat.c: chat identities -- a bot's code, the player's link, the
 * bot's whois (docs/API.md "Chat identities"). */
enum MHD_Result	api_chat_code(struct api_request *req);
enum MHD_Result	api_chat_link(struct api_request *req);
enum MHD_Result	api_chat_whois(struct api_request *req);

/* api_webhooks.c */
enum MHD_Result	api_webhooks_list(struct api_request *req);
enum MHD_Result	api_webhooks_add(struct api_request *req);
enum MHD_Result	api_webhook_delete(struct api_request *req);
enum MHD_Result	api_game_webhooks_list(struct api_request *req);
enum MHD_Result	api_game_webhooks_add(struct api_request *req);
enum MHD_Result	api_game_webhook_delete(struct api_request *req);

#endif /* PBEM_API_H */
