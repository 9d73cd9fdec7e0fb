/*
 * api_events.c -- GET /v1/games/{id}/events?after=SEQ&wait=SECONDS: the
 * public events of a game after SEQ, at once if there are any, otherwise
 * after waiting up to `wait` seconds for the next commit (see api.h,
 * events.h; docs/API.md); with "Accept: text/event-stream", a
 * Server-Sent Events stream of them instead (sse.h).  Every game's
 * events are api_events_all.c's.
 *
 * An event is a log entry in the public log's shape (api_log.c: move
 * texts redacted until the game is over), and every answer carries the
 * public view's summary of the game now: status, who is to act, the next
 * sequence number, with the players' names ("to_act_names",
 * "seat_names"); each event carries its seat's "name" and its
 * one-line "summary" (api_log.c).  A waiting request holds no HTTP thread: its
 * connection is suspended until the engine's commit hook or the timer
 * resumes it, and then this handler runs again and answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "engine.h"
#include "events.h"
#include "sse.h"

#define EVENTS_PAGE	100

/* A stream of one game (sse_fetch_fn): its entries after the seq
 * *cursor, each a frame whose id: is its seq. */
struct game_frames {
	struct store	*st;
	struct engine_summary_reader reader;
	struct sse_text	*frames;
	int		 reveal;
	int64_t		 last;
	int		 failed;
};

static int
add_game_frame(const struct store_entry *e, void *arg)
{
	struct game_frames *gf = arg;
	json_t *event = api_event(gf->st, &gf->reader, e,
	    gf->reveal);

	if (sse_append_event(gf->frames, e->seq, sse_event_type(e->kind),
	    event) != 0)
		gf->failed = 1;
	json_decref(event);
	gf->last = e->seq;
	return gf->failed;
}

static int
game_frames(struct store *st, int64_t game_id, int64_t *cursor,
    struct sse_text *frames)
{
	struct store_game g;
	struct game_frames gf;
	enum store_status status;

	if (store_game_get(st, game_id, &g) != STORE_OK)
		return -1;
	memset(&gf, 0, sizeof(gf));
	gf.st = st;
	gf.frames = frames;
	gf.reveal = g.status == STORE_GAME_OVER;
	gf.last = *cursor;
	gf.failed = 0;
	store_game_clear(&g);
	status = store_log_range(st, game_id, *cursor, EVENTS_PAGE,
	    add_game_frame, &gf);
	engine_summary_reader_clear(&gf.reader);
	if (status != STORE_OK || gf.failed)
		return -1;
	*cursor = gf.last;
	return 0;
}

/* The game's events after `after`, with the summary; NULL with an error
 * answered.  *count is the number of events. */
static json_t *
events_body(struct api_request *req, struct store *st, int64_t after,
    size_t *count, enum MHD_Result *answered)
{
	struct store_game g;
	struct gamestate gs;
	int64_t last;
	char err[256];
	json_t *body, *events, *view;

	if (api_game_get(req, st, req->params[0], &g, answered) != 0)
		return NULL;
	if ((events = api_log_entries(st, &g, after, EVENTS_PAGE, &last)) ==
	    NULL) {
		store_game_clear(&g);
		*answered = api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the log cannot be read", NULL);
		return NULL;
	}
	*count = json_array_size(events);
	body = json_pack("{s:I, s:s, s:o, s:I}", "game", (json_int_t)g.id,
	    "status", api_game_status_name(g.status), "events", events,
	    "next_after", (json_int_t)last);
	if (g.status != STORE_GAME_FORMING && gamestate_load(st, g.id, -1,
	    &gs, err, sizeof(err)) == ENGINE_OK) {
		view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
		gamestate_view_names(st, &gs, view);
		json_object_set(body, "to_act", json_object_get(view,
		    "to_act"));
		json_object_set(body, "to_act_names", json_object_get(view,
		    "to_act_names"));
		json_object_set(body, "seat_names", json_object_get(view,
		    "seat_names"));
		json_object_set_new(body, "next_seq", json_integer(gs.seq +
		    1));
		if (json_object_get(view, "last") != NULL)
			json_object_set(body, "last", json_object_get(view,
			    "last"));
		json_decref(view);
		gamestate_clear(&gs);
	} else {
		json_object_set_new(body, "to_act", json_array());
		json_object_set_new(body, "to_act_names", json_array());
		json_object_set_new(body, "next_seq", json_integer(
		    g.status == STORE_GAME_FORMING ? 0 : last + 1));
	}
	store_game_clear(&g);
	return body;
}

static enum MHD_Result
answer(struct api_request *req, struct store *st, int64_t after,
    int timed_out)
{
	enum MHD_Result rc = MHD_NO;
	size_t count = 0;
	json_t *body;

	if ((body = events_body(req, st, after, &count, &rc)) == NULL)
		return rc;
	json_object_set_new(body, "timed_out", json_boolean(timed_out &&
	    count == 0));
	return api_send_json(req, MHD_HTTP_OK, body);
}

enum MHD_Result
api_game_events(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct evwait *w = *req->state;
	struct store_game g;
	struct store *st;
	int64_t after, wait, max_wait;
	json_t *body;
	size_t count = 0;

	max_wait = config_int(req->d->cfg, "http_events_max_wait");
	if (api_query_number(req, "after", -1, INT64_MAX, -1, &after,
	    &rc) != 0 || api_query_number(req, "wait", 0, max_wait, 0, &wait,
	    &rc) != 0)
		return rc;
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (sse_wanted(req)) {
		if (sse_last_event_id(req, -1, &after, &rc) != 0 ||
		    api_game_get(req, st, req->params[0], &g, &rc) != 0)
			return rc;
		store_game_clear(&g);
		return sse_start(req, req->params[0], after, game_frames);
	}
	if (w != NULL)		/* resumed: by a commit, the timer, a stop */
		return answer(req, st, after, !evhub_was_woken(w));

	if (wait == 0)
		return answer(req, st, after, 0);
	/* Register before reading, so a commit from now on is not missed.
	 * An unknown game is refused by the read; the waiter, never
	 * suspended, is forgotten when the connection ends. */
	w = evhub_register(req->d->events, req->conn, req->params[0], wait);
	if (w == NULL)
		return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
		    "out of memory; try again", NULL);
	*req->state = w;
	*req->state_free = evhub_forget;
	if ((body = events_body(req, st, after, &count, &rc)) == NULL)
		return rc;
	if (count > 0) {
		json_object_set_new(body, "timed_out", json_false());
		return api_send_json(req, MHD_HTTP_OK, body);
	}
	json_decref(body);
	if (evhub_suspend(req->d->events, w) != 0)	/* woken already */
		return answer(req, st, after, 0);
	return MHD_YES;
}
