/*
 * sse.h -- the event routes as Server-Sent Events streams (the
 * text/event-stream format of the WHATWG HTML standard, section 9.2).
 *
 * A client that sends "Accept: text/event-stream" to GET /v1/events or
 * GET /v1/games/{id}/events gets, instead of one JSON page, a response
 * that stays open: each event is one frame
 *
 *   id: <cursor of this event>
 *   event: <type>
 *   data: <the event's JSON, as in the long-poll's "events", one line>
 *   <blank line>
 *
 * a comment line ": keep-alive" and a blank line after every
 * keep-alive period without events, and the stream ends after
 * http_stream_max_seconds; the client then reconnects with the header
 * Last-Event-ID (its last id:), and goes on from there.
 *
 * No thread is held while a stream waits: the response's content reader
 * suspends the connection (events.h) and a commit or the timer resumes
 * it.  At most one page of events is in memory per stream, and only
 * when the client reads it (libmicrohttpd asks for more only when the
 * socket can take it).
 */
#ifndef PBEM_SSE_H
#define PBEM_SSE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "api.h"

/* The frames of a stream not yet sent. */
struct sse_text {
	char	*bytes;
	size_t	 len;
	size_t	 sent;
};

/* Append one event frame: id, type, data (borrowed; written compact, so
 * on one line).  -1 when out of memory. */
int	sse_append_event(struct sse_text *t, int64_t id, const char *type,
	    json_t *data);

/* A stream's source: append to frames the events after *cursor (at most
 * one page) of game_id (EVHUB_ALL_GAMES: every game), and move *cursor to
 * the last one's id.  0, or -1 if the store cannot be read (the stream
 * ends; the client reconnects). */
typedef int (*sse_fetch_fn)(struct store *st, int64_t game_id,
	    int64_t *cursor, struct sse_text *frames);

/* The event: type of a log entry of this kind (enum store_entry_kind):
 * genesis, move (also a hosted key's), auto, skip, resign, replace,
 * call_off. */
const char	*sse_event_type(int kind);
/* Does the request ask for a stream (Accept names text/event-stream)? */
int		sse_wanted(struct api_request *req);
/* The cursor to start after: Last-Event-ID if the request has one (a
 * whole number from min to INT64_MAX), else *cursor is left as it is.
 * 0, or -1 with a 400 answered. */
int		sse_last_event_id(struct api_request *req, int64_t min,
		    int64_t *cursor, enum MHD_Result *answered);
/* Answer req with a stream of game_id's events after cursor, read with
 * fetch. */
enum MHD_Result	sse_start(struct api_request *req, int64_t game_id,
		    int64_t cursor, sse_fetch_fn fetch);

#endif /* PBEM_SSE_H */
