/*
 * api_events.c -- GET /v1/games/{id}/events?after=SEQ&wait=SECONDS: the
 * public events of a game after SEQ, at once if there are any, otherwise
 * after waiting up to `wait` seconds for the next commit (see api.h,
 * events.h; docs/API.md).
 *
 * An event is a log entry in the public log's shape (api_log.c: move
 * texts redacted until the game is over), and every answer carries the
 * public view's summary of the game now: status, who is to act, the next
 * sequence number.  A waiting request holds no HTTP thread: its
 * connection is suspended until the engine's commit hook or the timer
 * resumes it, and then this handler runs again and answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "engine.h"
#include "events.h"

#define EVENTS_PAGE	100

struct collect {
	json_t	*events;
	int	 reveal;
	int64_t	 last;
};

static int
add_event(const struct store_entry *e, void *arg)
{
	struct collect *c = arg;

	json_array_append_new(c->events, api_log_entry(e, c->reveal));
	c->last = e->seq;
	return 0;
}

/* The events of game after `after`, with the summary; NULL and *status
 * set on error (a message in err).  *count is the number of events. */
static json_t *
events_body(struct store *st, int64_t game_id, int64_t after, size_t *count,
    unsigned int *status, const char **code, char *err, size_t errlen)
{
	struct store_game g;
	struct gamestate gs;
	struct collect c;
	enum store_status sr;
	json_t *body, *view;

	if ((sr = store_game_get(st, game_id, &g)) != STORE_OK) {
		snprintf(err, errlen, sr == STORE_NOTFOUND ? "there is no game "
		    "%lld" : "game %lld cannot be read now; try again",
		    (long long)game_id);
		*status = sr == STORE_NOTFOUND ? MHD_HTTP_NOT_FOUND :
		    MHD_HTTP_SERVICE_UNAVAILABLE;
		*code = sr == STORE_NOTFOUND ? "unknown_game" : "busy";
		return NULL;
	}
	c.events = json_array();
	c.reveal = g.status == STORE_GAME_OVER;
	c.last = after;
	if (store_log_range(st, game_id, after, EVENTS_PAGE, add_event, &c) !=
	    STORE_OK) {
		log_warnx("http: events of game %lld: %s", (long long)game_id,
		    store_errmsg(st));
		json_decref(c.events);
		store_game_clear(&g);
		snprintf(err, errlen, "the log cannot be read");
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		*code = "internal_error";
		return NULL;
	}
	*count = json_array_size(c.events);
	body = json_pack("{s:I, s:s, s:o, s:I}", "game", (json_int_t)game_id,
	    "status", api_game_status_name(g.status), "events", c.events,
	    "next_after", (json_int_t)c.last);
	if (g.status != STORE_GAME_FORMING && gamestate_load(st, game_id, -1,
	    &gs, err, errlen) == ENGINE_OK) {
		view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
		json_object_set(body, "to_act", json_object_get(view,
		    "to_act"));
		json_object_set_new(body, "next_seq", json_integer(gs.seq +
		    1));
		if (json_object_get(view, "last") != NULL)
			json_object_set(body, "last", json_object_get(view,
			    "last"));
		json_decref(view);
		gamestate_clear(&gs);
	} else {
		json_object_set_new(body, "to_act", json_array());
		json_object_set_new(body, "next_seq", json_integer(
		    g.status == STORE_GAME_FORMING ? 0 : c.last + 1));
	}
	store_game_clear(&g);
	return body;
}

static enum MHD_Result
answer(struct api_request *req, struct store *st, int64_t after,
    int timed_out)
{
	const char *code = "internal_error";
	unsigned int status = MHD_HTTP_OK;
	size_t count = 0;
	char err[1024];
	json_t *body;

	body = events_body(st, req->params[0], after, &count, &status, &code,
	    err, sizeof(err));
	if (body == NULL)
		return api_send_error(req, status, code, err, NULL);
	json_object_set_new(body, "timed_out", json_boolean(timed_out &&
	    count == 0));
	return api_send_json(req, MHD_HTTP_OK, body);
}

enum MHD_Result
api_game_events(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct evwait *w = *req->state;
	struct store *st;
	struct store_game g;
	int64_t after, wait, max_wait;
	char msg[128];
	json_t *body;
	size_t count = 0;
	unsigned int status;
	const char *code;

	max_wait = config_int(req->d->cfg, "http_events_max_wait");
	if (api_query_number(req, "after", -1, INT64_MAX, -1, &after,
	    &rc) != 0 || api_query_number(req, "wait", 0, max_wait, 0, &wait,
	    &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (w != NULL)		/* resumed: by a commit, the timer, a stop */
		return answer(req, st, after, !evhub_was_woken(w));

	if (wait == 0)
		return answer(req, st, after, 0);
	/* Register before reading, so a commit from now on is not missed. */
	if (api_game_get(req, st, req->params[0], &g, &rc) != 0)
		return rc;
	store_game_clear(&g);
	w = evhub_register(req->d->events, req->conn, req->params[0],
	    (int64_t)time(NULL) + wait);
	if (w == NULL)
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "out of memory; try again", NULL);
	*req->state = w;
	*req->state_free = evhub_forget;
	body = events_body(st, req->params[0], after, &count, &status, &code,
	    msg, sizeof(msg));
	if (body == NULL)
		return api_send_error(req, status, code, msg, NULL);
	if (count > 0) {
		json_object_set_new(body, "timed_out", json_false());
		return api_send_json(req, MHD_HTTP_OK, body);
	}
	json_decref(body);
	if (evhub_suspend(req->d->events, w) != 0)	/* woken already */
		return answer(req, st, after, 0);
	return MHD_YES;
}
