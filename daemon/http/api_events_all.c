/*
 * api_events_all.c -- GET /v1/events?after=ID&wait=SECONDS: the public
 * events of every game after the global event id ID, in commit order, at
 * once if there are any, otherwise after waiting up to `wait` seconds
 * for the next commit in any game; with "Accept: text/event-stream", a
 * Server-Sent Events stream of them instead (see api.h, events.h, sse.h;
 * docs/API.md, "Events").
 *
 * An event is a log entry in the public log's shape (api_event(): the
 * move text and signature left out until its game is over, the player's
 * name and the one-line summary added) with its "game" and its
 * "event_id".  Nothing private to a seat is a log entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "events.h"
#include "sse.h"

#define EVENTS_PAGE	100

/* Is each game of a page over (its entries are shown whole)?  A page
 * names few games; they are looked up once each. */
struct game_status_cache {
	int64_t	 ids[EVENTS_PAGE];
	int	 over[EVENTS_PAGE];
	int	 n;
};

static int
game_over(struct store *st, struct game_status_cache *c, int64_t game_id)
{
	struct store_game g;
	int i, over;

	for (i = 0; i < c->n; i++)
		if (c->ids[i] == game_id)
			return c->over[i];
	if (store_game_get(st, game_id, &g) != STORE_OK)
		return -1;
	over = g.status == STORE_GAME_OVER;
	store_game_clear(&g);
	if (c->n < EVENTS_PAGE) {
		c->ids[c->n] = game_id;
		c->over[c->n++] = over;
	}
	return over;
}

struct global_page {
	struct store			*st;
	struct game_status_cache	 games;
	json_t				*events;	/* or NULL: */
	struct sse_text			*frames;	/* SSE frames */
	int64_t				 last;
	int				 failed;
};

/* One event of every game's stream: the entry in the public log's shape,
 * with its game and its global id. */
static int
add_global(const struct store_entry *e, void *arg)
{
	struct global_page *pg = arg;
	json_t *event;
	int over;

	if ((over = game_over(pg->st, &pg->games, e->game_id)) < 0) {
		pg->failed = 1;
		return 1;
	}
	event = api_event(pg->st, NULL, e, over);	/* games interleave */
	json_object_set_new(event, "game", json_integer(e->game_id));
	json_object_set_new(event, "event_id", json_integer(e->event_id));
	if (pg->events != NULL)
		json_array_append(pg->events, event);
	else if (sse_append_event(pg->frames, e->event_id,
	    sse_event_type(e->kind), event) != 0)
		pg->failed = 1;
	json_decref(event);
	pg->last = e->event_id;
	return pg->failed;
}

/* A page of every game's events after `after` into pg (events or
 * frames set); 0, or -1 if the store cannot be read (logged). */
static int
global_page(struct store *st, int64_t after, struct global_page *pg)
{
	pg->st = st;
	pg->games.n = 0;
	pg->last = after;
	pg->failed = 0;
	if (store_log_since(st, after, EVENTS_PAGE, add_global, pg) !=
	    STORE_OK || pg->failed) {
		log_warnx("http: events after %lld: %s", (long long)after,
		    pg->failed ? "a game cannot be read" : store_errmsg(st));
		return -1;
	}
	return 0;
}

static int
global_frames(struct store *st, int64_t game_id, int64_t *cursor,
    struct sse_text *frames)
{
	struct global_page pg;

	(void)game_id;
	memset(&pg, 0, sizeof(pg));
	pg.frames = frames;
	if (global_page(st, *cursor, &pg) != 0)
		return -1;
	*cursor = pg.last;
	return 0;
}

/* {"events", "next_after", "timed_out"}, or NULL with 500 answered;
 * *count is the number of events. */
static json_t *
global_body(struct api_request *req, struct store *st, int64_t after,
    size_t *count, enum MHD_Result *answered)
{
	struct global_page pg;

	memset(&pg, 0, sizeof(pg));
	pg.events = json_array();
	if (global_page(st, after, &pg) != 0) {
		json_decref(pg.events);
		*answered = api_send_error(req, MHD_HTTP_INTERNAL_SERVER_ERROR,
		    "internal_error", "the log cannot be read", NULL);
		return NULL;
	}
	*count = json_array_size(pg.events);
	return json_pack("{s:o, s:I}", "events", pg.events, "next_after",
	    (json_int_t)pg.last);
}

enum MHD_Result
api_all_events(struct api_request *req)
{
	enum MHD_Result rc = MHD_NO;
	struct evwait *w = *req->state;
	struct store *st;
	int64_t after, wait, max_wait;
	json_t *body;
	size_t count = 0;

	max_wait = config_int(req->d->cfg, "http_events_max_wait");
	if (api_query_number(req, "after", 0, INT64_MAX, 0, &after,
	    &rc) != 0 || api_query_number(req, "wait", 0, max_wait, 0, &wait,
	    &rc) != 0)
		return rc;
	if (sse_wanted(req)) {
		if (sse_last_event_id(req, 0, &after, &rc) != 0)
			return rc;
		return sse_start(req, EVHUB_ALL_GAMES, after, global_frames);
	}
	if ((st = api_store(req, &rc)) == NULL)
		return rc;
	if (w == NULL && wait > 0) {
		/* Register before reading, so a commit from now on is not
		 * missed (as api_game_events below). */
		w = evhub_register(req->d->events, req->conn, EVHUB_ALL_GAMES,
		    wait);
		if (w == NULL)
			return api_send_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "busy", "out of memory; try again", NULL);
		*req->state = w;
		*req->state_free = evhub_forget;
		if ((body = global_body(req, st, after, &count, &rc)) == NULL)
			return rc;
		if (count == 0 && evhub_suspend(req->d->events, w) == 0) {
			json_decref(body);
			return MHD_YES;
		}
		json_object_set_new(body, "timed_out", json_false());
		return api_send_json(req, MHD_HTTP_OK, body);
	}
	/* No wait, or resumed: by a commit, the timer, a stop. */
	if ((body = global_body(req, st, after, &count, &rc)) == NULL)
		return rc;
	json_object_set_new(body, "timed_out", json_boolean(w != NULL &&
	    count == 0 && !evhub_was_woken(w)));
	return api_send_json(req, MHD_HTTP_OK, body);
}
